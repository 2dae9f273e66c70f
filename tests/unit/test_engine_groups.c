/* The engine with a made-up server-style PMU: a general unit in PCI
 * configuration space whose 48-bit counters are two dwords (read by the
 * driver's read_counter op), boxes in groups (sockets of channels, with a
 * gap in the channel numbers), role events that bw programs, short event
 * names, and a driver that asks to be frozen while it is sampled. No real
 * PMU is named: the driver below exists only here, and this test links it
 * as the only driver there is (pmu_drivers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/report.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/cmd/app.h"
#include "app_run.h"
#include "fake_hw.h"
#include "fake_vars.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

/* ---- the made-up PMU ----
 * Boxes: socket 0 channels 0 and 2 (bus 0x3F, functions 0 and 4), socket 1
 * channels 0 and 2 (bus 0x7F). Per box, in its function: a box control
 * (FRZ bit 8), four selects (EN bit 22) and four 48-bit counters, low dword
 * then high dword. */
#define G_BOX_CTL 0xF4
#define G_SEL0    0xD8
#define G_CTR0    0xA0
#define G_FRZ     (1u << 8)
#define G_FRZ_EN  (1u << 16)
#define G_SEL_EN  (1u << 22)
#define NBOX      4

static const struct pci_addr box_pci[NBOX] = { { 0x3F, 16, 0 }, { 0x3F, 16, 4 }, { 0x7F, 16, 0 }, { 0x7F, 16, 4 } };
static uint8_t box_group[NBOX] = { 0, 0, 1, 1 }; /* sparse_groups_make_no_empty_row changes it */
static const uint8_t box_id[NBOX] = { 0, 2, 0, 2 };

static const struct event_desc g_events[] = {
	{ "UNC_G_CAS.RD", "lines read", "GBOX", 0x04, 0x03, 0xF, 0, 0, 0, 0 },
	{ "UNC_G_CAS.WR", "lines written", "GBOX", 0x04, 0x0C, 0xF, 0, 0, 0, 0 },
	{ "UNC_G_TICKS", "clocks", "GBOX", 0x00, 0x00, 0xF, 0, 0, 0, 0 },
};
static const unsigned g_nevents = sizeof(g_events) / sizeof(g_events[0]);

static const struct pmu_layout g_layout = {
	.event = { 0, 8 }, .umask = { 8, 8 }, .thresh = { 24, 8 }, .edge = 1u << 18, .inv = 1u << 23,
	.enable = G_SEL_EN, .rw_mask = 0xFFC7FFFF,
};

static const struct pmu_role_event g_roles[] = {
	{ "UNC_G_CAS.RD", PMU_ROLE_DRAM_READ }, { "UNC_G_CAS.WR", PMU_ROLE_DRAM_WRITE }, { NULL, 0 },
};

static const struct pmu_unit g_units[] = {
	{ .pmu = "gbox", .intel_unit = "GBOX", .name = "GBOX", .box_noun = "channel", .box_label = "ch",
	  .kind = PMU_GENERAL, .space = PMU_PCI, .counters = 4, .width = 48, .max_boxes = 8, .sel_base = G_SEL0,
	  .ctr_base = G_CTR0, .sel_step = 4, .ctr_step = 8, .box_ctl = G_BOX_CTL, .layout = &g_layout,
	  .max_per_sec = 1ull << 36, .raw_help = "gbox/event=N,umask=N/", .role_events = g_roles,
	  .group_noun = "socket", .short_prefix = "UNC_G_", .ctr_write = PMU_CTR_WRITE,
	  .ctr_write_cite = "this test's PMU: writable counters, set by its reset_box" },
};

static struct {
	unsigned freeze, unfreeze;
	uint8_t last_thresh;
	bool fail_unfreeze_at_sample;
} calls;
static bool g_busy; /* in_use: G_CTL0 of box 0 holds someone's event (kept across fresh()) */
static bool g_partial; /* the probe finds part of the machine (partial_probe_fails_the_run) */

static enum unc_status g_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
			       char *err, size_t errsize, char *warn, size_t warnsize)
{
	(void)hw, (void)cpu, (void)err, (void)errsize;
	p->partial = g_partial;
	if (g_partial && warnsize)
		fmt_snprintf(warn, warnsize, "2 of 4 sockets found");
	if (want & 1) {
		p->probed |= 1;
		p->boxes[0] = p->found[0] = NBOX;
		if (pmu_present_room(p, 0, NBOX))
			return UNC_E_NO_MEMORY;
		for (unsigned b = 0; b < NBOX; b++) {
			p->pci[0][b] = box_pci[b];
			p->group[0][b] = box_group[b];
			p->box_id[0][b] = box_id[b];
		}
	}
	return UNC_OK;
}

static struct pmu_reg g_reg(unsigned b, uint64_t off)
{
	return (struct pmu_reg){ .space = PMU_PCI, .pci = box_pci[b], .addr = off };
}

static enum unc_status g_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	(void)s;
	calls.freeze++;
	for (unsigned b = 0; b < p->boxes[0]; b++)
		if ((st = pmu_io_write(io, g_reg(b, G_BOX_CTL), G_FRZ_EN | G_FRZ)))
			return st;
	return UNC_OK;
}

static enum unc_status g_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	enum unc_status st;

	(void)s, (void)verify;
	calls.unfreeze++;
	if (calls.fail_unfreeze_at_sample && !verify)
		return pmu_io_fail(io, UNC_E_DEVICE, "GBOX unfreeze refused");
	for (unsigned b = 0; b < p->boxes[0]; b++)
		if ((st = pmu_io_write(io, g_reg(b, G_BOX_CTL), G_FRZ_EN)))
			return st;
	return UNC_OK;
}

/* Two dwords: low, high; the freeze keeps them consistent. */
static enum unc_status g_read_counter(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
				      unsigned idx, uint64_t *v)
{
	uint64_t lo, hi;
	enum unc_status st;

	(void)p, (void)unit;
	if ((st = pmu_io_read(io, g_reg(box, G_CTR0 + 8 * idx), &lo)) ||
	    (st = pmu_io_read(io, g_reg(box, G_CTR0 + 8 * idx + 4), &hi)))
		return st;
	*v = (hi & 0xFFFF) << 32 | lo;
	return UNC_OK;
}

/* Resetting a box: both dwords of each counter written with the start. */
static enum unc_status g_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
				   uint64_t start)
{
	enum unc_status st;

	(void)p, (void)unit;
	for (unsigned c = 0; c < 4; c++)
		if ((st = pmu_io_write(io, g_reg(box, G_CTR0 + 8 * c), start & 0xFFFFFFFFu)) ||
		    (st = pmu_io_write(io, g_reg(box, G_CTR0 + 8 * c + 4), start >> 32)))
			return st;
	return UNC_OK;
}

static bool g_event_ok(const struct pmu_present *p, unsigned unit, uint8_t code, uint8_t umask, uint8_t thresh,
		       char *err, size_t errsize)
{
	(void)p, (void)unit, (void)umask;
	calls.last_thresh = thresh;
	if (code == 0x04 && thresh > 2) {
		snprintf(err, errsize, "event 0x04 adds at most 2 per cycle: threshold %u is never met", thresh);
		return false;
	}
	return true;
}

static const char *g_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	(void)p;
	if (reg.space != PMU_PCI)
		return NULL;
	if (reg.addr == G_BOX_CTL)
		return "G_BOX_CTL";
	if (reg.addr >= G_SEL0 && reg.addr < G_SEL0 + 16)
		snprintf(buf, size, "G_CTL%u", (unsigned)(reg.addr - G_SEL0) / 4);
	else if (reg.addr >= G_CTR0 && reg.addr < G_CTR0 + 32)
		snprintf(buf, size, "G_CTR%u%s", (unsigned)(reg.addr - G_CTR0) / 8, reg.addr % 8 ? "_HI" : "");
	else
		return NULL;
	return buf;
}

static void g_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		     void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	(void)hw, (void)on_fault, (void)ctx;
	*r = (struct pmu_use){ .known = true, .in_use = g_busy, .selects_checked = p->boxes[0] * 4 };
	if (g_busy)
		r->busy[r->nbusy++] = (struct pmu_busy){ g_reg(0, G_SEL0), 0x400304 };
}

static void g_info(struct out *o, const struct pmu_present *p, bool json)
{
	(void)o, (void)p, (void)json;
}

static const struct pmu_ops g_ops = {
	.probe = g_probe, .freeze = g_freeze, .unfreeze = g_unfreeze, .read_counter = g_read_counter,
	.reset_box = g_reset_box, .event_ok = g_event_ok, .reg_name = g_reg_name, .info = g_info,
	.in_use = g_in_use,
};

static const struct pmu_model g_models[] = { { 6, 0x2D, "a made-up two-socket server" }, { 0, 0, 0 } };

static const struct pmu_driver g_driver = {
	.name = "test-grouped", .title = "made-up server PMU", .what = "made-up PMU", .status_name = "none",
	.vendor = "GenuineIntel", .models = g_models, .units = g_units, .nunits = 1,
	.events = g_events, .nevents = &g_nevents, .ops = &g_ops, .sample_frozen = true,
};

/* The only driver this test knows (the registry is generated for the real
 * program; here this definition takes its place). */
const struct pmu_driver *const pmu_drivers[] = { &g_driver, NULL };
static const struct pmu_driver *const present[] = { &g_driver, NULL };

/* ---- the hardware: the strict fake's PCI registers, counting on a fake clock ---- */

static struct fake_hw f;
static uint64_t rate_rd[NBOX], rate_wr[NBOX]; /* lines per second per box */
static struct stat_run run;

static uint32_t *pci(unsigned b, uint16_t off)
{
	uint64_t key = fake_pci_key(box_pci[b], off);

	for (unsigned i = 0; i < f.npci; i++)
		if (f.pci[i].addr == key)
			return &f.pci[i].value;
	t_fail(__FILE__, __LINE__, "undeclared register");
	static uint32_t none;
	return &none;
}

static void advance(uint64_t when)
{
	if (when <= f.now)
		return;
	uint64_t dt = when - f.now;
	for (unsigned b = 0; b < NBOX; b++) {
		if (*pci(b, G_BOX_CTL) & G_FRZ)
			continue;
		for (unsigned c = 0; c < 4; c++) {
			uint32_t sel = *pci(b, (uint16_t)(G_SEL0 + 4 * c));
			if (!(sel & G_SEL_EN) || (sel & 0xFF) != 0x04)
				continue;
			uint64_t per_s = ((sel >> 8) & 0xFF) == 0x03 ? rate_rd[b] : ((sel >> 8) & 0xFF) == 0x0C ? rate_wr[b] : 0;
			uint16_t lo = (uint16_t)(G_CTR0 + 8 * c);
			uint64_t v = (uint64_t)*pci(b, lo + 4) << 32 | *pci(b, lo);
			v = (v + per_s * dt / S) & ((1ull << 48) - 1);
			*pci(b, lo) = (uint32_t)v;
			*pci(b, lo + 4) = (uint32_t)(v >> 32);
		}
	}
}

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	advance(when);
	f.now = when;
	return false;
}

static const struct stat_env env = { .wait_until = wait_until };

static void fresh(void)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x2D, 8, 16);
	for (unsigned b = 0; b < NBOX; b++) {
		fake_pci(&f, box_pci[b], G_BOX_CTL, 0);
		for (unsigned c = 0; c < 4; c++) {
			fake_pci(&f, box_pci[b], (uint16_t)(G_SEL0 + 4 * c), 0);
			fake_pci(&f, box_pci[b], (uint16_t)(G_CTR0 + 8 * c), 0x100 * (b + 1) + c);
			fake_pci(&f, box_pci[b], (uint16_t)(G_CTR0 + 8 * c + 4), 0x7);
		}
		rate_rd[b] = 1000000 * (b + 1);
		rate_wr[b] = 500000 * (b + 1);
	}
	stat_free(&run);
	memset(&run, 0, sizeof(run));
	memset(&calls, 0, sizeof(calls));
}

static enum unc_status run_for(uint64_t duration)
{
	struct stat_opts o = { .duration = duration, .slice = 20 * MS, .sample = 100 * MS };

	return stat_loop(&run, &f.hw, false, &o, &env);
}

/* ---- the short names ---- */

static void short_names_resolve_with_the_units_prefix(void)
{
	struct ev_spec e;
	char err[200];

	T_EQ(evsel_parse("CAS.RD", present, &e, err, sizeof(err)), UNC_OK);
	T_STREQ(e.name, "UNC_G_CAS.RD");
	T_EQ(e.code, 0x04);
	T_EQ(e.umask, 0x03);
	T_EQ(evsel_parse("cas.wr", present, &e, err, sizeof(err)), UNC_OK);
	T_STREQ(e.name, "UNC_G_CAS.WR");
	T_EQ(evsel_parse("UNC_G_TICKS", present, &e, err, sizeof(err)), UNC_OK);
	/* not a name with or without the prefix: the same error as before */
	T_EQ(evsel_parse("CAS.NOPE", present, &e, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "unknown event 'CAS.NOPE' (see 'uncore.efi list')");
	/* resolved in present drivers only; an absent driver's short name is
	 * refused as its full name is (the fuzzer's invariant) */
	static const struct pmu_driver *const none[] = { NULL };
	T_EQ(evsel_parse("CAS.RD", none, &e, err, sizeof(err)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "UNC_G_CAS.RD is a gbox event; this CPU has no gbox PMU");
}

/* ---- sampling frozen ---- */

/* The writes of one sample: each box's control frozen, then unfrozen, and
 * nothing else (the counters are only read). */
static void sampling_freezes_around_the_reads(void)
{
	fresh();
	run_add(&run, present, "UNC_G_CAS.RD");
	T_EQ(run_schedule(&run, &f.hw, false), UNC_OK);
	T_EQ(stat_start(&run, &f.hw, false), UNC_OK);
	advance(f.now + 50 * MS);
	f.now += 50 * MS;
	unsigned from = f.nlog, freezes = calls.freeze, reads = f.reads;
	T_EQ(stat_sample(&run), UNC_OK);
	T_EQ(calls.freeze, freezes + 1);
	T_EQ(f.nlog - from, 2 * NBOX);
	for (unsigned b = 0; b < NBOX; b++) {
		T_EQ(f.log[from + b].addr, fake_pci_key(box_pci[b], G_BOX_CTL));
		T_EQ(f.log[from + b].value, G_FRZ_EN | G_FRZ);
		T_EQ(f.log[from + NBOX + b].addr, fake_pci_key(box_pci[b], G_BOX_CTL));
		T_EQ(f.log[from + NBOX + b].value, G_FRZ_EN);
	}
	/* each box's select of counter 0, before the freeze; both dwords of
	 * counter 0 of each box, between the two */
	T_EQ(f.reads - reads, 3 * NBOX);
	T_EQ(count_total(&run.c, 0, -1), (1 + 2 + 3 + 4) * 1000000ull / 20);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	for (unsigned b = 0; b < NBOX; b++) { /* every register as found */
		T_EQ(*pci(b, G_BOX_CTL), 0);
		T_EQ(*pci(b, G_SEL0), 0);
		T_EQ(*pci(b, G_CTR0), 0x100 * (b + 1));
		T_EQ(*pci(b, G_CTR0 + 4), 0x7);
	}
}

/* An unfreeze that fails at a sample is the run's error; the restore still
 * puts every register back. */
static void failed_unfreeze_at_a_sample_is_the_error(void)
{
	fresh();
	run_add(&run, present, "UNC_G_CAS.WR");
	T_EQ(run_schedule(&run, &f.hw, false), UNC_OK);
	calls.fail_unfreeze_at_sample = true;
	T_EQ(run_for(S), UNC_E_DEVICE);
	T_STREQ(run.err, "GBOX unfreeze refused");
	for (unsigned b = 0; b < NBOX; b++) {
		T_EQ(*pci(b, G_BOX_CTL), 0);
		T_EQ(*pci(b, G_SEL0), 0);
		T_EQ(*pci(b, G_CTR0), 0x100 * (b + 1));
	}
}

/* ---- groups ---- */

static void views_carry_groups_and_box_numbers(void)
{
	fresh();
	run_add(&run, present, "CAS.RD");
	T_EQ(run_schedule(&run, &f.hw, false), UNC_OK);
	const struct count_view *v = &run.c.ev[0].v;
	T_STREQ(v->group_noun, "socket");
	T_EQ(v->nboxes, NBOX);
	T_EQ(v->role, PMU_ROLE_DRAM_READ);
	for (unsigned b = 0; b < NBOX; b++) {
		T_EQ(v->group[b], box_group[b]);
		T_EQ(v->box_id[b], box_id[b]);
	}
	char name[32];
	T_STREQ(count_box_name(v, 3, name, sizeof(name)), "socket1.ch2");
	T_EQ(count_groups(v), 2);
	T_STREQ(run.c.where, "in 4 GBOX boxes of the made-up server PMU");
	T_STREQ(run.c.free_pmu, "gbox");
}

static void thresh_reaches_event_ok(void)
{
	struct ev_spec e;
	char err[200];

	fresh();
	T_EQ(evsel_parse("gbox/event=0x04,umask=0x03,thresh=3/", present, &e, err, sizeof(err)), UNC_OK);
	T_EQ(stat_add(&run, &e), UNC_OK);
	T_EQ(run_schedule(&run, &f.hw, false), UNC_E_UNSUPPORTED);
	T_EQ(calls.last_thresh, 3);
	T_STREQ(run.err, "cannot count gbox/event=0x04,umask=0x03,thresh=3/: event 0x04 adds at most 2 per cycle: "
			 "threshold 3 is never met");
}

/* ---- end to end: stat --per-box and bw, as the command line runs them ---- */

static char obuf[65536], ebuf[2048];
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };
static struct fake_vars fv;

static bool app_wait(void *ctx, uint64_t when)
{
	return wait_until(ctx, when);
}

static void at_time(struct rec_time *t)
{
	*t = (struct rec_time){ 2026, 11, 21, 22, 0, 0, 0, 0, 0, 1 };
}

static struct app_env app_env = { .wait_until = app_wait, .vars = &fv.vs, .alloc = malloc, .free = free,
				  .get_time = at_time };

static enum unc_status run_cli(int argc, const char **argv)
{
	fresh();
	obuf[0] = ebuf[0] = '\0';
	return app_test_run(&at, &f.hw, &app_env, argc, argv);
}

/* A fresh machine for each command (var show reads the store only). */
#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run_cli((int)(sizeof(av) / sizeof(av[0])), av);   \
	})

static void stat_per_box_rows_name_groups(void)
{
	T_EQ(RUN("stat", "-e", "CAS.RD", "-d", "1", "--per-box"), UNC_OK);
	T_CONTAINS(obuf, "UNC_G_CAS.RD@socket0.ch0 ");
	T_CONTAINS(obuf, "UNC_G_CAS.RD@socket0.ch2 ");
	T_CONTAINS(obuf, "UNC_G_CAS.RD@socket1.ch0 ");
	T_CONTAINS(obuf, "UNC_G_CAS.RD@socket1.ch2 ");
	T_EQ(RUN("stat", "-e", "CAS.RD", "-d", "1", "--per-box", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "3000000,,UNC_G_CAS.RD@socket1.ch0,");
	T_EQ(RUN("stat", "-e", "CAS.RD", "-d", "1", "--per-box", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"event\":\"UNC_G_CAS.RD@socket1.ch2\"");
}

/* bw programs the role events in every box: read = the RD event's boxes x
 * 64, write likewise; then a row per socket, and per channel with --per-box. */
static void bw_programs_the_role_events(void)
{
	T_EQ(RUN("bw", "-d", "1"), UNC_OK);
	/* read: (1+2+3+4) * 10^6 lines = 640 MB/s; write half that */
	T_CONTAINS(obuf, "uncore bw: GBOX counters in 4 GBOX boxes of the made-up server PMU, native hardware\n");
	T_CONTAINS(obuf, "read          640.000 MB/s        610.352 MiB/s          640000000 bytes       10000000 lines\n");
	T_CONTAINS(obuf, "write         320.000 MB/s");
	T_CONTAINS(obuf, "total         960.000 MB/s");
	/* socket 0: boxes 0 and 1 (3 * 10^6 lines read, 1.5 * 10^6 written) */
	T_CONTAINS(obuf, "socket0        read        192.000 MB/s  write         96.000 MB/s  total        288.000 MB/s\n");
	T_CONTAINS(obuf, "socket1        read        448.000 MB/s  write        224.000 MB/s  total        672.000 MB/s\n");
	T_NOT_CONTAINS(obuf, "socket1.ch2");
	/* 48 bits: 2^47 lines in 100 ms is no real bandwidth, so no limit is printed */
	T_CONTAINS(obuf, "; sampled every 100 ms at most: the 48-bit counters cannot wrap between samples at any real bandwidth\n");
	T_EQ(RUN("bw", "-d", "1", "--per-box"), UNC_OK);
	T_CONTAINS(obuf, "socket1.ch2    read        256.000 MB/s  write        128.000 MB/s  total        384.000 MB/s\n");
	T_CONTAINS(obuf, "socket0.ch0    read         64.000 MB/s");
	T_EQ(RUN("bw", "-d", "1", "--per-box", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "640.000,MB/s,dram_read_bandwidth,");
	T_CONTAINS(obuf, "448.000,MB/s,dram_read_bandwidth@socket1,");
	T_CONTAINS(obuf, "384.000,MB/s,dram_total_bandwidth@socket1.ch2,");
	T_EQ(RUN("bw", "-d", "1", "--per-box", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"per_group\":[{\"name\":\"socket0\",\"read\":{\"lines\":3000000,");
	T_CONTAINS(obuf, "\"per_box\":[{\"name\":\"socket0.ch0\",\"read\":{\"lines\":1000000,");
	/* the widest rate sampling vouches for: the role event's 48 bits */
	T_CONTAINS(obuf, "\"max_guaranteed_mb_per_s\":90071992547");
	/* a check reads the same sums */
	T_EQ(RUN("bw", "-d", "1", "--min-bw", "900"), UNC_OK);
	T_CONTAINS(obuf, "PASS");
	T_EQ(RUN("bw", "-d", "1", "--min-read-bw", "700"), UNC_E_CHECK);
	T_CONTAINS(obuf, "FAIL");
}

/* Sparse package IDs (0 and 2): a row for each group that has boxes, none
 * for the gap between them. */
static void sparse_groups_make_no_empty_row(void)
{
	box_group[2] = box_group[3] = 2;
	fresh();
	run_add(&run, present, "CAS.RD");
	T_EQ(run_schedule(&run, &f.hw, false), UNC_OK);
	T_EQ(count_groups(&run.c.ev[0].v), 2);
	T_EQ(count_group_id(&run.c.ev[0].v, 0), 0);
	T_EQ(count_group_id(&run.c.ev[0].v, 1), 2);
	T_EQ(count_group_id(&run.c.ev[0].v, 2), -1);
	T_EQ(RUN("bw", "-d", "1", "--per-box"), UNC_OK);
	T_CONTAINS(obuf, "socket0        read        192.000 MB/s  write         96.000 MB/s  total        288.000 MB/s\n");
	T_CONTAINS(obuf, "socket2        read        448.000 MB/s  write        224.000 MB/s  total        672.000 MB/s\n");
	T_CONTAINS(obuf, "socket2.ch2    read        256.000 MB/s");
	T_NOT_CONTAINS(obuf, "socket1");
	T_EQ(RUN("bw", "-d", "1", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"per_group\":[{\"name\":\"socket0\",");
	T_CONTAINS(obuf, "{\"name\":\"socket2\",");
	T_NOT_CONTAINS(obuf, "socket1");
	box_group[2] = box_group[3] = 1;
}

/* A probe that found part of the machine (pmu_present.partial): its
 * warning before the counts, the counts, then an error and a non-zero
 * exit status. */
static void partial_probe_fails_the_run(void)
{
	g_partial = true;
	T_EQ(RUN("bw", "-d", "1"), UNC_E_NOT_FOUND);
	T_CONTAINS(ebuf, "uncore: warning: 2 of 4 sockets found\n");
	T_CONTAINS(obuf, "read          640.000 MB/s");
	T_CONTAINS(ebuf, "uncore: error: the made-up server PMU probe found part of the machine only (the warning before "
			 "the counts says which): they miss the rest\n");
	T_EQ(RUN("stat", "-e", "CAS.RD", "-d", "1"), UNC_E_NOT_FOUND);
	T_CONTAINS(ebuf, "found part of the machine only");
	g_partial = false;
	T_EQ(RUN("bw", "-d", "1"), UNC_OK);
	T_NOT_CONTAINS(ebuf, "part of the machine");
}

/* -o var: the record keeps the groups; var show prints the rows again. */
static void bw_record_keeps_the_groups(void)
{
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("bw", "-d", "1", "--per-box", "-o", "var:Grp"), UNC_OK);
	static char live[sizeof(obuf)];
	snprintf(live, sizeof(live), "%s", obuf);
	T_EQ(RUN("var", "show", "Grp"), UNC_OK);
	T_CONTAINS(obuf, "socket1.ch2    read        256.000 MB/s");
	T_CONTAINS(obuf, "socket0        read        192.000 MB/s");
	T_CONTAINS(live, "socket1.ch2    read        256.000 MB/s");
	fake_vars_free(&fv);
}

/* regs: a 48-bit counter in configuration space is one value from its two dwords. */
static void regs_reads_wide_counters_as_two_dwords(void)
{
	T_EQ(RUN("regs"), UNC_OK);
	T_CONTAINS(obuf, "G_CTR1");
	T_CONTAINS(obuf, "0x0000000700000201"); /* box 1 counter 1: high 0x7, low 0x201 */
	T_NOT_CONTAINS(obuf, "G_CTR1_HI");
}

/* bw programs the role events as stat does, so a PMU in use is refused
 * the same way, and the --force the refusal names is bw's too. */
static void bw_takes_force(void)
{
	g_busy = true;
	T_EQ(RUN("bw", "-d", "1"), UNC_E_BUSY);
	T_CONTAINS(ebuf, "the made-up PMU is in use (G_CTL0 = 0x400304); --force takes it over and restores it\n");
	T_EQ(RUN("bw", "-d", "1", "--force"), UNC_OK);
	T_CONTAINS(obuf, "read          640.000 MB/s");
	g_busy = false;
}

T_MAIN("engine_groups", T_CASE(short_names_resolve_with_the_units_prefix), T_CASE(sampling_freezes_around_the_reads),
       T_CASE(failed_unfreeze_at_a_sample_is_the_error), T_CASE(views_carry_groups_and_box_numbers),
       T_CASE(thresh_reaches_event_ok), T_CASE(stat_per_box_rows_name_groups), T_CASE(bw_programs_the_role_events), T_CASE(sparse_groups_make_no_empty_row), T_CASE(partial_probe_fails_the_run),
       T_CASE(bw_record_keeps_the_groups), T_CASE(regs_reads_wide_counters_as_two_dwords), T_CASE(bw_takes_force))
