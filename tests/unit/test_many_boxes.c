/* Real sizes: a unit of 8 sockets x 60 boxes (Sapphire Rapids' CHAs on
 * eight sockets) and one of 8 x 12 (Granite Rapids' iMC channels on eight
 * sockets), programmed, sampled, reported and put back in full by the
 * engine, and stored in a record in full (every box of every event) that
 * reads back to the same counts and rows. The PMU is made up (no real one is named): one MSR unit whose boxes
 * the probe places (probe_addr), grouped by socket, on a register file of
 * its own that counts on a fake clock. This test links its driver as the
 * only one there is (pmu_drivers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/cpu.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/stat.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/report.h"
#include "../../drivers/cmd/app.h"
#include "app_run.h"
#include "fake_hw.h"
#include "fake_vars.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

/* Box b: its control at M_BASE + 16 * b (FRZ bit 8), selects at +1 and +2
 * (EN bit 22), 48-bit counters at +4 and +5. */
#define M_BASE    0x20000u
#define M_FRZ     (1u << 8)
#define M_SEL_EN  (1u << 22)
#define M_MAX     480u
#define M_CTL_FOUND 0x3u /* what each box control holds before the run */

static const struct event_desc m_events[] = {
	{ "UNC_Q_CAS.RD", "lines read", "QBOX", 0x04, 0x03, 0x3, 0, 0, 0, 0 },
	{ "UNC_Q_CAS.WR", "lines written", "QBOX", 0x04, 0x0C, 0x3, 0, 0, 0, 0 },
};
static const unsigned m_nevents = sizeof(m_events) / sizeof(m_events[0]);

static const struct pmu_layout m_layout = {
	.event = { 0, 8 }, .umask = { 8, 8 }, .thresh = { 24, 8 }, .edge = 1u << 18, .inv = 1u << 23,
	.enable = M_SEL_EN, .rw_mask = 0xFFC7FFFF,
};

static const struct pmu_role_event m_roles[] = {
	{ "UNC_Q_CAS.RD", PMU_ROLE_DRAM_READ }, { "UNC_Q_CAS.WR", PMU_ROLE_DRAM_WRITE }, { NULL, 0 },
};

static const struct pmu_unit m_units[] = {
	{ .pmu = "qbox", .intel_unit = "QBOX", .name = "QBOX", .box_noun = "channel", .box_label = "ch",
	  .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2, .width = 48, .max_boxes = PMU_BOXES_ANY,
	  .sel_step = 1, .ctr_step = 1, .probe_addr = true, .layout = &m_layout, .max_per_sec = 1ull << 36,
	  .raw_help = "qbox/event=N,umask=N/", .role_events = m_roles, .group_noun = "socket",
	  .short_prefix = "UNC_Q_", .ctr_write = PMU_CTR_WRITE,
	  .ctr_write_cite = "this test's register file, whose counters take writes" },
};

static unsigned m_sockets, m_per_socket;

static enum unc_status m_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
			       char *err, size_t errsize, char *warn, size_t warnsize)
{
	(void)hw, (void)cpu, (void)warn, (void)warnsize;
	unsigned n = 0;

	if (!(want & 1))
		return UNC_OK;
	p->probed |= 1;
	for (unsigned s = 0; s < m_sockets; s++)
		for (unsigned c = 0; c < m_per_socket; c++, n++) {
			if (pmu_present_room(p, 0, n + 1)) { /* grown box by box, as a table walk finds them */
				snprintf(err, errsize, "no memory for box %u", n);
				return UNC_E_NO_MEMORY;
			}
			p->box_base[0][n] = M_BASE + 16 * n;
			p->group[0][n] = (uint8_t)s;
			p->box_id[0][n] = (uint8_t)c;
		}
	p->boxes[0] = p->found[0] = n;
	p->sel_off[0] = 1;
	p->ctr_off[0] = 4;
	return UNC_OK;
}

static enum unc_status m_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	enum unc_status st;

	(void)s;
	for (unsigned b = 0; b < p->boxes[0]; b++)
		if ((st = pmu_io_write(io, pmu_msr(p->box_base[0][b]), M_FRZ)))
			return st;
	return UNC_OK;
}

static enum unc_status m_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	enum unc_status st;

	(void)s, (void)verify;
	for (unsigned b = 0; b < p->boxes[0]; b++)
		if ((st = pmu_io_write(io, pmu_msr(p->box_base[0][b]), 0)))
			return st;
	return UNC_OK;
}

static void m_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
		     void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	(void)hw, (void)p, (void)on_fault, (void)ctx;
	*r = (struct pmu_use){ .known = true };
}

static void m_info(struct out *o, const struct pmu_present *p, bool json)
{
	(void)o, (void)p, (void)json;
}

static const struct pmu_ops m_ops = {
	.probe = m_probe, .freeze = m_freeze, .unfreeze = m_unfreeze, .in_use = m_in_use, .info = m_info,
};

static const struct pmu_model m_models[] = { { 6, 0x8F, "a made-up eight-socket server" }, { 0, 0, 0 } };

static const struct pmu_driver m_driver = {
	.name = "test-many", .title = "made-up server PMU", .what = "made-up PMU", .status_name = "none",
	.vendor = "GenuineIntel", .models = m_models, .units = m_units, .nunits = 1,
	.events = m_events, .nevents = &m_nevents, .ops = &m_ops,
};

const struct pmu_driver *const pmu_drivers[] = { &m_driver, NULL };
static const struct pmu_driver *const present[] = { &m_driver, NULL };

/* ---- the register file: box controls, selects and counters, counting on the fake clock ---- */

static struct fake_hw f; /* CPUID and the clock */
static uint64_t reg[M_MAX * 16];
static unsigned nwrites;
static struct stat_run run;

static uint64_t rate_rd(unsigned b)
{
	return 1000000 + 1000 * b;
}

static uint64_t rate_wr(unsigned b)
{
	return 300000 + 700 * b;
}

/* Every box counts from its own unfreeze: the clock moves 1 us at each access. */
static void advance(uint64_t dt)
{
	for (unsigned b = 0; b < m_sockets * m_per_socket; b++) {
		if (reg[16 * b] & M_FRZ)
			continue;
		for (unsigned c = 0; c < 2; c++) {
			uint64_t sel = reg[16 * b + 1 + c];
			if (!(sel & M_SEL_EN) || (sel & 0xFF) != 0x04)
				continue;
			uint64_t um = sel >> 8 & 0xFF, per_s = um == 0x03 ? rate_rd(b) : um == 0x0C ? rate_wr(b) : 0;
			/* exact over the run: the count at time t is floor(rate * t) */
			uint64_t *v = &reg[16 * b + 4 + c];
			uint64_t *frac = &reg[16 * b + 8 + c]; /* rate * ns carried below one event */
			*frac += per_s * dt;
			*v = (*v + *frac / S) & ((1ull << 48) - 1);
			*frac %= S;
		}
	}
}

static void tick(uint64_t dt)
{
	advance(dt);
	f.now += dt;
}

static int reg_of(uint32_t msr)
{
	if (msr < M_BASE || msr >= M_BASE + 16 * m_sockets * m_per_socket)
		return -1;
	unsigned off = (msr - M_BASE) % 16;
	return off == 0 || off == 1 || off == 2 || off == 4 || off == 5 ? (int)(msr - M_BASE) : -1;
}

static enum unc_status m_msr_read(void *ctx, uint32_t msr, uint64_t *v)
{
	int i = reg_of(msr);

	(void)ctx;
	tick(1000);
	if (i < 0)
		return UNC_E_FAULT;
	*v = reg[i];
	return UNC_OK;
}

static enum unc_status m_msr_write(void *ctx, uint32_t msr, uint64_t v)
{
	int i = reg_of(msr);

	(void)ctx;
	tick(1000);
	if (i < 0)
		return UNC_E_FAULT;
	reg[i] = (msr - M_BASE) % 16 >= 4 ? v & ((1ull << 48) - 1) : v;
	nwrites++;
	return UNC_OK;
}

static void m_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)ctx;
	f.hw.ops->cpuid(&f, leaf, subleaf, r);
}

static uint64_t m_ticks(void *ctx)
{
	(void)ctx;
	return f.now;
}

static const struct hw_ops m_hw_ops = { .msr_read = m_msr_read, .msr_write = m_msr_write, .cpuid = m_cpuid,
					.ticks = m_ticks };
static const struct hw m_hw = { .ops = &m_hw_ops, .tick_hz = S, .msr_mode = HW_MSR_NATIVE };

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	if (when > f.now)
		tick(when - f.now);
	return false;
}

static void fresh(unsigned sockets, unsigned per_socket)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x8F, 8, 16);
	f.now = 5 * S;
	m_sockets = sockets, m_per_socket = per_socket;
	memset(reg, 0, sizeof(reg));
	for (unsigned b = 0; b < sockets * per_socket; b++) {
		reg[16 * b] = M_CTL_FOUND;
		reg[16 * b + 4] = 0x1000 + b, reg[16 * b + 5] = 0x2000 + b;
	}
	nwrites = 0;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
}

/* The lines of text that start with `prefix`. */
static unsigned lines_starting(const char *text, const char *prefix)
{
	unsigned n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		n += !strncmp(l, prefix, strlen(prefix));
	return n;
}

static void every_box_counted(unsigned sockets, unsigned per_socket)
{
	static const struct stat_env env = { .wait_until = wait_until };
	static char text[1 << 18];
	unsigned n = sockets * per_socket;
	char name[32], err[200];

	fresh(sockets, per_socket);
	run_add(&run, present, "UNC_Q_CAS.RD");
	run_add(&run, present, "UNC_Q_CAS.WR");
	T_EQ(run_schedule(&run, &m_hw, false), UNC_OK);
	T_EQ(run.pmu[0].p.boxes[0], n);
	T_ASSERT(run.pmu[0].p.room[0] >= n);
	struct stat_opts o = { .duration = S, .slice = 20 * MS, .sample = 100 * MS };
	T_EQ(stat_loop(&run, &m_hw, false, &o, &env), UNC_OK);
	T_ASSERT(run.nsaved >= 5 * n); /* every box's control, selects and counters journalled */
	uint64_t elapsed = run.c.t_end - run.c.t_start, rd = 0, wr = 0;
	T_EQ(run.c.ev[0].v.nboxes, n);
	T_EQ(count_still(&run.c, 0), 0);
	for (unsigned b = 0; b < n; b++) {
		uint64_t want_rd = rate_rd(b) * elapsed / S, want_wr = rate_wr(b) * elapsed / S;
		uint64_t got_rd = count_total(&run.c, 0, (int)b), got_wr = count_total(&run.c, 1, (int)b);
		if (got_rd + 2 < want_rd || got_rd > want_rd + 2 || got_wr + 2 < want_wr || got_wr > want_wr + 2)
			t_fail(__FILE__, __LINE__, "box %u: read %lu for %lu, write %lu for %lu", b, (unsigned long)got_rd,
			       (unsigned long)want_rd, (unsigned long)got_wr, (unsigned long)want_wr);
		T_EQ(run.c.ev[0].v.group[b], b / per_socket);
		T_EQ(run.c.ev[0].v.box_id[b], b % per_socket);
		rd += got_rd, wr += got_wr;
	}
	T_EQ(count_role(&run.c, PMU_ROLE_DRAM_READ, false, 0), rd);
	T_EQ(count_role(&run.c, PMU_ROLE_DRAM_WRITE, false, 0), wr);
	T_EQ(count_groups(&run.c.ev[0].v), sockets);
	uint64_t last = 0;
	for (unsigned b = n - per_socket; b < n; b++)
		last += count_total(&run.c, 0, (int)b);
	T_EQ(count_role_part(&run.c, PMU_ROLE_DRAM_READ, sockets - 1, true, false, 0), last);
	fmt_snprintf(err, sizeof(err), "socket%u.ch%u", sockets - 1, per_socket - 1);
	T_STREQ(count_box_name(&run.c.ev[0].v, n - 1, name, sizeof(name)), err);
	/* every register put back: controls as found, selects 0, counters as found */
	for (unsigned b = 0; b < n; b++) {
		T_EQ(reg[16 * b], M_CTL_FOUND);
		T_EQ(reg[16 * b + 1], 0);
		T_EQ(reg[16 * b + 2], 0);
		T_EQ(reg[16 * b + 4], 0x1000 + b);
		T_EQ(reg[16 * b + 5], 0x2000 + b);
	}
	/* reported in full: stat --per-box has a row per box of each event, bw a
	 * row per socket and per channel */
	struct report_opts ro = { .format = REPORT_HUMAN, .per_box = true };
	struct strbuf sb;
	strbuf_init(&sb, text, sizeof(text));
	struct out out = strbuf_out(&sb);
	report_final(&out, &ro, &m_hw, &run.c, NULL);
	T_ASSERT(sb.len < sizeof(text));
	T_EQ(lines_starting(text, "UNC_Q_CAS.RD@socket"), n);
	T_EQ(lines_starting(text, "UNC_Q_CAS.WR@socket"), n);
	fmt_snprintf(name, sizeof(name), "UNC_Q_CAS.WR@socket%u.ch%u ", sockets - 1, per_socket - 1);
	T_EQ(lines_starting(text, name), 1);
	strbuf_init(&sb, text, sizeof(text));
	out = strbuf_out(&sb);
	report_bw_final(&out, &ro, &m_hw, &run.c, NULL);
	T_ASSERT(sb.len < sizeof(text));
	T_EQ(lines_starting(text, "socket"), sockets + n);
	/* stored: every box of each event, its socket and channel, read back
	 * as counted, and the record prints the same per-box rows */
	static struct rec r;
	static struct rec_print_ws ws;
	static uint8_t rbuf[1 << 16];
	static char again[1 << 18];
	struct rec_buf rb = { rbuf, 0, sizeof(rbuf), false };
	memset(&r, 0, sizeof(r));
	strcpy(r.command, "stat");
	r.tsc_hz = S;
	T_EQ(rec_from_run(&r, &run.c, &ro), UNC_OK);
	T_ASSERT(rec_run_bytes(&run.c) >= 2 * (12 * (size_t)n)); /* what app_store sizes its buffer by */
	rec_begin(&rb);
	rec_put(&rb, &r);
	rec_free(&r);
	T_EQ(rec_end(&rb), UNC_OK);
	T_EQ(rec_decode(rbuf, rb.len, &r, NULL, NULL, err, sizeof(err)), UNC_OK);
	unsigned bad = 0;
	for (unsigned e = 0; e < 2; e++) {
		T_EQ(r.ev[e].nboxes, n);
		for (unsigned b = 0; b < n; b++)
			bad += rec_box(&r.ev[e], b) != run.c.ev[e].total.box[b] ||
			       rec_box_group(&r.ev[e], b) != b / per_socket || rec_box_id(&r.ev[e], b) != b % per_socket ||
			       rec_box_moved(&r.ev[e], b) != (run.c.ev[e].moved[b] != 0);
	}
	T_EQ(bad, 0);
	strbuf_init(&sb, text, sizeof(text));
	out = strbuf_out(&sb);
	report_final(&out, &ro, &m_hw, &run.c, NULL);
	strbuf_init(&sb, again, sizeof(again));
	out = strbuf_out(&sb);
	T_EQ(rec_print(&out, rbuf, rb.len, REPORT_HUMAN, NULL, NULL, &ws, err, sizeof(err)), UNC_OK);
	T_ASSERT(sb.len < sizeof(again));
	T_EQ(lines_starting(again, "UNC_Q_CAS.RD@socket"), n);
	T_EQ(lines_starting(again, "UNC_Q_CAS.WR@socket"), n);
	const char *rows = strstr(text, "UNC_Q_CAS.RD@socket0.ch0 "), *rows2 = strstr(again, "UNC_Q_CAS.RD@socket0.ch0 ");
	T_ASSERT(rows && rows2);
	const char *end = strstr(rows, "UNC_Q_CAS.WR@socket0.ch0 ");
	T_ASSERT(end != NULL);
	T_EQ(strncmp(rows, rows2, (size_t)(end - rows)), 0); /* every RD row the same */
	stat_free(&run);
}

static void eight_sockets_of_sixty(void)
{
	every_box_counted(8, 60);
}

static void eight_sockets_of_twelve(void)
{
	every_box_counted(8, 12);
}

/* ---- end to end, as the command line runs it ---- */

static char obuf[1 << 20], ebuf[4096];
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };
static struct fake_vars fv;

static bool app_wait(void *ctx, uint64_t when)
{
	return wait_until(ctx, when);
}

/* The JSON form of each stored record (as lab mode takes it). */
static char json[1 << 22];
static size_t json_len;

static void app_json(void *ctx, const char *text, size_t len, const struct run_extras *x)
{
	(void)ctx, (void)x;
	T_ASSERT(len < sizeof(json));
	memcpy(json, text, len);
	json[len] = '\0';
	json_len = len;
}

static struct app_env app_env = { .wait_until = app_wait, .vars = &fv.vs, .alloc = malloc, .free = free,
				  .json_copy = app_json };

static enum unc_status run_cli(int argc, const char **argv)
{
	fresh(8, 60);
	obuf[0] = ebuf[0] = '\0';
	return app_test_run(&at, &m_hw, &app_env, argc, argv);
}

#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run_cli((int)(sizeof(av) / sizeof(av[0])), av);   \
	})

/* bw --per-box on 480 boxes: a row per socket and per channel; with -o
 * they are stored (in chunks), and `var show` prints the same 488 rows. */
static unsigned socket_rows(const char *text, char *rows, size_t size)
{
	size_t at = 0;
	unsigned n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, "socket", 6)) {
			const char *e = strchr(l, '\n');
			size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
			T_ASSERT(at + len < size);
			memcpy(rows + at, l, len);
			at += len, n++;
		}
	rows[at] = '\0';
	return n;
}

static void bw_on_480_boxes_stored(void)
{
	T_EQ(RUN("bw", "-d", "1", "--per-box"), UNC_OK);
	T_EQ(lines_starting(obuf, "socket"), 8 + 480);
	T_CONTAINS(obuf, "uncore bw: QBOX counters in 480 QBOX boxes of the made-up server PMU");
	/* socket 7, channel 59 (box 479): 1479000 lines read a second */
	T_CONTAINS(obuf, "socket7.ch59   read         94.656 MB/s");
	for (unsigned b = 0; b < 480; b++)
		T_EQ(reg[16 * b], M_CTL_FOUND);
	static char live[1 << 17], shown[1 << 17];
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("bw", "-d", "1", "--per-box", "-o", "var:Many"), UNC_OK);
	T_CONTAINS(ebuf, "uncore: results stored in EFI variable Many: ");
	T_CONTAINS(ebuf, " chunks Many.0001..");
	T_EQ(socket_rows(obuf, live, sizeof(live)), 8 + 480);
	for (unsigned b = 0; b < 480; b++)
		T_EQ(reg[16 * b], M_CTL_FOUND);
	T_EQ(RUN("var", "show", "Many"), UNC_OK);
	T_STREQ(ebuf, "");
	T_CONTAINS(obuf, "record Many: `bw` by uncore.efi");
	T_EQ(socket_rows(obuf, shown, sizeof(shown)), 8 + 480);
	T_STREQ(shown, live);
	T_CONTAINS(obuf, "socket7.ch59   read         94.656 MB/s");
	/* with -I: each sample holds every box of each event, and replays as
	 * the run printed it (its interval lines, then the same final rows) */
	static char live_iv[1 << 20];
	T_EQ(RUN("bw", "-d", "1", "-I", "250", "--per-box", "-o", "var:ManyIv"), UNC_OK);
	T_CONTAINS(ebuf, "uncore: results stored in EFI variable ManyIv: ");
	T_NOT_CONTAINS(ebuf, "not stored");
	T_EQ(socket_rows(obuf, live, sizeof(live)), 8 + 480);
	T_ASSERT(strlen(obuf) < sizeof(live_iv));
	strcpy(live_iv, obuf);
	T_EQ(RUN("var", "show", "ManyIv"), UNC_OK);
	T_STREQ(ebuf, "");
	T_EQ(socket_rows(obuf, shown, sizeof(shown)), 8 + 480);
	T_STREQ(shown, live);
	const char *iv_live = strstr(live_iv, "uncore bw:"), *iv_shown = strstr(obuf, "uncore bw:");
	T_ASSERT(iv_live && iv_shown);
	T_STREQ(iv_shown, iv_live); /* header, every interval line and the final rows, as printed during the run */
	unsigned last_box = 0; /* box 479 in each interval and in the final rows */
	for (const char *p = iv_shown; (p = strstr(p, "socket7.ch59 ")); p++)
		last_box++;
	T_EQ(last_box, 5);
	/* and its JSON whole, however many boxes and samples (sized from the text) */
	T_ASSERT(json_len > 0);
	T_JSON(json, true); /* a line per interval, then the run */
	T_CONTAINS(json, "socket7.ch59");
	fake_vars_free(&fv);
}

T_MAIN("many_boxes", T_CASE(eight_sockets_of_sixty), T_CASE(eight_sockets_of_twelve),
       T_CASE(bw_on_480_boxes_stored))
