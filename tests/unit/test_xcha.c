/* The CHA drivers of Skylake-SP/Cascade Lake/Cooper Lake and Ice Lake-SP
 * (drivers/pmu/xcha.c): their registers and events against literals typed
 * from Linux uncore_snbep.c, Intel PCM (src/types.h) and Intel's perfmon
 * files, and the driver and engine on the emulated CHAs (tests/emu/
 * pmu_xcha.c) of 2 and 8 sockets with real CHA counts, beside the iMC
 * emulated for the same model. */
#include <string.h>
#include "t.h"
#include "run_help.h"
#include "../emu/emu_hw.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/engine/pmu.h"
#include "../../drivers/pmu/xcha.h"

#define S 1000000000ull
#define SKX_ID 0x00050654u /* family 6 model 0x55 stepping 4 */
#define CLX_ID 0x00050657u /* stepping 7 */
#define CPX_ID 0x0005065Bu /* stepping 11 */
#define ICX_ID 0x000606A6u /* family 6 model 0x6A stepping 6 */

static struct emu_hw eh;
static struct stat_run srun;

static void start(uint32_t id, unsigned pkgs, int argc, char **argv)
{
	struct emu_config cfg;
	char err[300] = "";

	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "options: %s", err);
	emu_hw_init_cpu(&eh, &cfg, id);
	if (emu_uncore_check(&eh.emu.cfg, eh.emu.cfg.uncore_active, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "emulator options: %s", err);
	eh.open_bus = true;
	eh.fake.now = 3 * S;
	if (pkgs > 1)
		emu_hw_pkgs(&eh, pkgs);
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
}
#define START(id, pkgs, ...)                                                                                           \
	start((id), (pkgs), (int)(sizeof((char *[]){ "emu", __VA_ARGS__ }) / sizeof(char *)), (char *[]){ "emu", __VA_ARGS__ })

static const struct pmu_driver *probe(uint32_t id, struct pmu_present *p, char *warn, size_t wsize)
{
	struct cpu_info cpu;
	char err[300] = "";
	const struct pmu_driver *d = (id & 0xFF0) == 0x6A0 ? &pmu_driver_icxcha : &pmu_driver_skxcha;

	cpu_identify(&eh.hw, &cpu);
	*p = (struct pmu_present){ .drv = d };
	T_EQ(d->ops->probe(&eh.hw, &cpu, 1, p, err, sizeof(err), warn, wsize), UNC_OK);
	return d;
}

static const char *info_of(const struct pmu_present *p, bool json)
{
	static char buf[4096];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	p->drv->ops->info(&o, p, json);
	return buf;
}

/* Linux's and PCM's numbers, typed here. */
static void registers_as_typed(void)
{
	/* Linux icx_cha_msr_offsets[] (40 entries) */
	static const uint16_t icx[40] = { 0x2a0, 0x2ae, 0x2bc, 0x2ca, 0x2d8, 0x2e6, 0x2f4, 0x302, 0x310, 0x31e,
					  0x32c, 0x33a, 0x348, 0x356, 0x364, 0x372, 0x380, 0x38e, 0x3aa, 0x3b8,
					  0x3c6, 0x3d4, 0x3e2, 0x3f0, 0x3fe, 0x40c, 0x41a, 0x428, 0x436, 0x444,
					  0x452, 0x460, 0x46e, 0x47c, 0x0,   0xe,   0x1c,  0x2a,  0x38,  0x46 };
	struct pmu_present p;
	char warn[200];

	for (unsigned i = 0; i < 40; i++)
		T_EQ(xcha_icx_offsets[i], icx[i]);
	/* Linux SNBEP_PMON_BOX_CTL_RST_CTRS, _FRZ, SNBEP_PMON_CTL_EN */
	T_EQ(XCHA_BOX_RST_CTRS, 0x2);
	T_EQ(XCHA_BOX_FRZ, 0x100);
	T_EQ(XCHA_CTL_EN, 0x400000);
	T_EQ(XCHA_CAPID6, 0x9C);
	T_EQ(XCHA_CAPID7, 0xA0);
	T_EQ(XCHA_CPUNODEID, 0xC0);
	T_EQ(XCHA_GIDNIDMAP, 0xD4);
	/* SKX: HSWEP_C0_MSR_PMON_BOX_CTL 0xE00, CTL0 0xE01, CTR0 0xE08, offset 0x10 */
	START(SKX_ID, 1, "--chas", "28");
	probe(SKX_ID, &p, warn, sizeof(warn));
	T_EQ(p.boxes[0], 28);
	const struct pmu_unit *u = &pmu_driver_skxcha.units[0];
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 0).addr, 0xE00);
	T_EQ(pmu_unit_sel(u, &p, 0, 0, 0).addr, 0xE01);
	T_EQ(pmu_unit_sel(u, &p, 0, 0, 3).addr, 0xE04);
	T_EQ(pmu_unit_ctr(u, &p, 0, 0, 0).addr, 0xE08);
	T_EQ(pmu_unit_ctr(u, &p, 0, 27, 3).addr, 0xE00 + 0x10 * 27 + 0xB);
	T_EQ(u->width, 48);
	T_EQ(u->counters, 4);
	T_EQ(u->layout->enable, 0x400000);
	T_EQ(u->layout->umask_ext.bits, 0);
	pmu_present_free(&p);
	/* ICX: ICX_C34_MSR_PMON_BOX_CTL 0xB60 + offset; PCM's box controls */
	START(ICX_ID, 1, "--chas", "40");
	probe(ICX_ID, &p, warn, sizeof(warn));
	T_EQ(p.boxes[0], 40);
	u = &pmu_driver_icxcha.units[0];
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 0).addr, 0xE00);
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 17).addr, 0xEEE);
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 18).addr, 0xF0A);
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 33).addr, 0xFDC);
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 34).addr, 0xB60);
	T_EQ(pmu_unit_sel(u, &p, 0, 34, 0).addr, 0xB61); /* ICX_C34_MSR_PMON_CTL0 */
	T_EQ(pmu_unit_ctr(u, &p, 0, 34, 0).addr, 0xB68); /* ICX_C34_MSR_PMON_CTR0 */
	T_EQ(pmu_unit_box_ctl(u, &p, 0, 39).addr, 0xBA6);
	T_EQ(u->layout->umask_ext.shift, 32);
	T_EQ(u->layout->umask_ext.bits, 26); /* umask_ext2: config:8-15,32-57 */
	pmu_present_free(&p);
}

/* Intel's perfmon files: the table by stepping, encodings as published. */
static void events_as_published(void)
{
	static const struct { uint32_t id; const char *file; const char *model; } cases[] = {
		{ SKX_ID, "skylakex_uncore.json", "Skylake-SP" },
		{ CLX_ID, "cascadelakex_uncore.json", "Cascade Lake" },
		{ CPX_ID, "cascadelakex_uncore.json", "Cooper Lake" },
	};
	for (unsigned c = 0; c < 3; c++) {
		struct cpu_info cpu;
		START(cases[c].id, 1, "--chas", "4");
		cpu_identify(&eh.hw, &cpu);
		T_STREQ(pmu_driver_skxcha.match(&eh.hw, &cpu)->name, cases[c].model);
		T_EQ(pmu_driver_icxcha.match(&eh.hw, &cpu), NULL);
		T_STREQ(pmu_driver_skxcha.events_for(&cpu)->file, cases[c].file);
	}
	/* skylakex_uncore.json: UNC_CHA_REQUESTS.READS 0x50/0x03, UNC_CHA_CLOCKTICKS 0x00/0x00 */
	unsigned n;
	const struct event_desc *ev = pmu_driver_skxcha.events;
	n = *pmu_driver_skxcha.nevents;
	bool reads = false, ia_miss = false;
	for (unsigned i = 0; i < n; i++) {
		reads |= !strcmp(ev[i].name, "UNC_CHA_REQUESTS.READS") && ev[i].code == 0x50 && ev[i].umask == 0x03;
		T_STREQ(ev[i].unit, "CHA");
	}
	T_ASSERT(reads);
	/* icelakex_uncore.json: UNC_CHA_TOR_INSERTS.IA_MISS 0x35/0x01, UMaskExt 0x00C001FE */
	ev = pmu_driver_icxcha.events;
	n = *pmu_driver_icxcha.nevents;
	for (unsigned i = 0; i < n; i++)
		ia_miss |= !strcmp(ev[i].name, "UNC_CHA_TOR_INSERTS.IA_MISS") && ev[i].code == 0x35 && ev[i].umask == 0x01 &&
			   ev[i].umask_ext == 0xC001FE;
	T_ASSERT(ia_miss);
	/* more rows of each file, as Intel publishes them */
	static const struct { const struct pmu_driver *d; const char *name; uint8_t code, umask; uint32_t ext; } rows[] = {
		{ &pmu_driver_skxcha, "UNC_CHA_CLOCKTICKS", 0x00, 0x00, 0 },
		{ &pmu_driver_skxcha, "UNC_CHA_TOR_INSERTS.IA_MISS", 0x35, 0x21, 0 },
		{ &pmu_driver_skxcha, "UNC_CHA_REQUESTS.WRITES", 0x50, 0x0C, 0 },
		{ &pmu_driver_icxcha, "UNC_CHA_CLOCKTICKS", 0x00, 0x00, 0 },
		{ &pmu_driver_icxcha, "UNC_CHA_REQUESTS.READS", 0x50, 0x03, 0 },
		{ &pmu_driver_icxcha, "UNC_CHA_DIR_UPDATE.HA", 0x54, 0x01, 0 },
	};
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct event_desc *e = rows[r].d->events;
		unsigned k = 0, ne = *rows[r].d->nevents;
		while (k < ne && strcmp(e[k].name, rows[r].name))
			k++;
		T_ASSERT(k < ne);
		if (k == ne)
			continue;
		T_EQ(e[k].code, rows[r].code);
		T_EQ(e[k].umask, rows[r].umask);
		T_EQ(e[k].umask_ext, rows[r].ext);
	}
}

/* n sockets, each CHA counting its socket's rate: every box's count,
 * groups and numbers, and every register put back. */
static void run_sockets(uint32_t id, const struct pmu_driver *d, unsigned sockets, const unsigned *chas,
			const uint64_t *rate, const char *ev)
{
	const struct pmu_driver *const drivers[] = { d, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	unsigned total = 0;

	run_add(&srun, drivers, ev);
	run_add(&srun, drivers, "UNC_CHA_CLOCKTICKS");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	for (unsigned s = 0; s < sockets; s++)
		total += chas[s];
	T_EQ(srun.c.ev[0].v.nboxes, total);
	for (unsigned s = 0, b = 0; s < sockets; s++)
		for (unsigned c = 0; c < chas[s]; c++, b++) {
			uint64_t want = rate[s] * elapsed / S, got = srun.c.ev[0].total.box[b];
			T_ASSERT(got + 2 >= want && got <= want + 2);
			uint64_t clk = srun.c.ev[1].total.box[b], cwant = 800000000ull * elapsed / S;
			T_ASSERT(clk + 2 >= cwant && clk <= cwant + 2);
		}
	/* every select and box control as found (0) on its own package */
	for (unsigned s = 0; s < sockets; s++) {
		emu_cur_pkg = s;
		for (unsigned c = 0; c < chas[s]; c++) {
			uint32_t box = id == ICX_ID ? XCHA_ICX_BASE + xcha_icx_offsets[c] : XCHA_SKX_BOX0 + XCHA_SKX_STRIDE * c;
			uint64_t v = 1;
			T_EQ(emu_msr_read(&eh.emu, box, &v), UNC_OK);
			T_EQ(v, 0);
			T_EQ(emu_msr_read(&eh.emu, box + 1, &v), UNC_OK);
			T_EQ(v, 0);
		}
	}
	emu_cur_pkg = 0;
}

static void skx_two_sockets(void)
{
	static const unsigned chas[2] = { 28, 26 };
	static const uint64_t rate[2] = { 5000000, 7000000 };
	struct pmu_present p;
	char warn[200] = "x";

	START(SKX_ID, 2, "--sockets", "2", "--chas", "28,26", "--rate", "UNC_CHA_REQUESTS.READS=5M", "--socket-rate",
	      "1:UNC_CHA_REQUESTS.READS=7M");
	probe(SKX_ID, &p, warn, sizeof(warn));
	T_STREQ(warn, "");
	T_EQ(p.boxes[0], 54);
	T_EQ(p.group[0][27], 0);
	T_EQ(p.group[0][28], 1);
	T_EQ(p.box_id[0][28], 0);
	const char *t = info_of(&p, false);
	T_CONTAINS(t, "cha:          2 sockets, 54 CHAs (MSRs of each package: CHA n at 0xe00 + 0x10 n)");
	T_CONTAINS(t, "  count: popcount of CAPID6 (0x9c) bits 27:0 of each socket's PCU function 8086:2083");
	T_CONTAINS(t, "  sockets numbered by their UBoxes' node IDs (8086:2014, CPUNODEID 0xc0, GIDNIDMAP 0xd4)\n");
	T_CONTAINS(t, "  socket 0 (bus 0x3e): 28 CHAs (CAPID6 0xffffffff)\n"); /* bits 31:28 set, not counted */
	T_CONTAINS(t, "  socket 1 (bus 0x7e): 26 CHAs\n");
	T_CONTAINS(info_of(&p, true), "\"cha_sockets\":[{\"socket\":0,\"bus\":\"0x3e\",\"chas\":28,\"reached\":true},");
	char name[64];
	T_STREQ(p.drv->ops->reg_name(&p, pmu_unit_sel(&pmu_driver_skxcha.units[0], &p, 0, 29, 2), name, sizeof(name)),
		"CHA 1 CTL2 (socket 1)");
	pmu_present_free(&p);
	run_sockets(SKX_ID, &pmu_driver_skxcha, 2, chas, rate, "UNC_CHA_REQUESTS.READS");
}

/* Two Ice Lake-SP sockets (its most) of 40 and 36 CHAs, each with its own
 * rate of a UMaskExt event, given raw; beside them the Ice Lake-SP iMC,
 * whose UBoxes number both. */
static void icx_two_sockets(void)
{
	static const unsigned chas[2] = { 40, 36 };
	static const uint64_t rate[2] = { 3000000, 9000000 };

	START(ICX_ID, 2, "--sockets", "2", "--chas", "40,36", "--rate", "UNC_CHA_TOR_INSERTS.IA_MISS=3M", "--socket-rate",
	      "1:UNC_CHA_TOR_INSERTS.IA_MISS=9M");
	run_sockets(ICX_ID, &pmu_driver_icxcha, 2, chas, rate, "cha/event=0x35,umask=0xc001fe01/");
}

/* Eight Cascade Lake sockets (an 8-socket Xeon Platinum board) of 28 CHAs,
 * socket 5 of 26, each socket at its own rate; beside them the iMC of
 * eight sockets, whose UBoxes number both. */
static void clx_eight_sockets(void)
{
	static const unsigned chas[8] = { 28, 28, 28, 28, 28, 26, 28, 28 };
	static uint64_t rate[8];

	START(CLX_ID, 8, "--sockets", "8", "--chas", "28,28,28,28,28,26,28,28", "--rate", "UNC_CHA_REQUESTS.READS=3M",
	      "--socket-rate", "5:UNC_CHA_REQUESTS.READS=9M");
	for (unsigned s = 0; s < 8; s++)
		rate[s] = s == 5 ? 9000000 : 3000000;
	run_sockets(CLX_ID, &pmu_driver_skxcha, 8, chas, rate, "UNC_CHA_REQUESTS.READS");
}

/* A select someone else programmed on package 1: in use, named, and the
 * run refused with nothing written. */
static void in_use_on_package_1(void)
{
	const struct pmu_driver *const drivers[] = { &pmu_driver_skxcha, NULL };
	struct pmu_present p;
	struct pmu_use use;
	char warn[200];
	uint64_t v = 0;

	START(SKX_ID, 2, "--sockets", "2", "--chas", "4");
	emu_cur_pkg = 1;
	T_EQ(emu_msr_write(&eh.emu, 0xE00 + 0x10 * 3 + 2, 0x400350), UNC_OK); /* CHA 3 CTL1: EN, event 0x50 */
	emu_cur_pkg = 0;
	probe(SKX_ID, &p, warn, sizeof(warn));
	pmu_driver_skxcha.ops->in_use(&eh.hw, &p, &use, NULL, NULL);
	T_ASSERT(use.known && use.in_use);
	T_EQ(use.selects_checked, 32);
	T_EQ(use.busy[0].value, 0x400350);
	char name[64];
	T_STREQ(pmu_driver_skxcha.ops->reg_name(&p, use.busy[0].reg, name, sizeof(name)), "CHA 3 CTL1 (socket 1)");
	pmu_present_free(&p);
	run_add(&srun, drivers, "UNC_CHA_CLOCKTICKS");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_E_BUSY);
	emu_cur_pkg = 1;
	T_EQ(emu_msr_read(&eh.emu, 0xE00 + 0x10 * 3 + 2, &v), UNC_OK);
	T_EQ(v, 0x400350);
	emu_cur_pkg = 0;
	T_EQ(emu_msr_read(&eh.emu, 0xE01, &v), UNC_OK);
	T_EQ(v, 0);
}

/* What info says when the sockets cannot be told apart or reached. */
static void faults(void)
{
	struct pmu_present p;
	char warn[300] = "";

	START(SKX_ID, 2, "--uncore", "skl", "--xcha", "skx", "--sockets", "2", "--chas", "4", "--xcha-fault", "no-ubox"); /* the CHAs alone */
	probe(SKX_ID, &p, warn, sizeof(warn));
	T_CONTAINS(info_of(&p, false), "  sockets numbered in bus order (not every PCU bus has a UBox");
	pmu_present_free(&p);
	/* socket 1's PCU hidden by the firmware: one socket for two packages */
	START(ICX_ID, 2, "--sockets", "2", "--chas", "8", "--xcha-fault", "capid-hidden=1");
	probe(ICX_ID, &p, warn, sizeof(warn));
	T_EQ(p.boxes[0], 8);
	T_ASSERT(p.partial);
	T_STREQ(warn, "1 socket found with a PCU function for 2 packages: the others' CHAs not counted");
	pmu_present_free(&p);
	/* socket 0's hidden: the one found is socket 1, by its UBox, on package 1 */
	START(SKX_ID, 2, "--sockets", "2", "--chas", "5", "--xcha-fault", "capid-hidden=0");
	probe(SKX_ID, &p, warn, sizeof(warn));
	T_EQ(p.boxes[0], 5);
	T_EQ(p.group[0][0], 1);
	T_EQ(pmu_unit_sel(&pmu_driver_skxcha.units[0], &p, 0, 4, 0).pci.bus, 2); /* package 1 */
	T_CONTAINS(info_of(&p, false), "  socket 1 (bus 0x7e): 5 CHAs (CAPID6 ");
	pmu_present_free(&p);
	/* two sockets, one package reachable (no MP services): socket 1 not counted */
	START(SKX_ID, 1, "--sockets", "2", "--chas", "3");
	probe(SKX_ID, &p, warn, sizeof(warn));
	T_EQ(p.boxes[0], 3);
	T_STREQ(warn, "socket 1: no processor of its package reached, its CHAs not counted");
	T_CONTAINS(info_of(&p, false), "  socket 1 (bus 0x7e): 3 CHAs: no processor of package 1 reached, not counted\n");
	pmu_present_free(&p);
	/* a #GP on a select: the run stops with one line, the machine as found */
	{
		const struct pmu_driver *const drivers[] = { &pmu_driver_skxcha, NULL };
		static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
		uint64_t v = 1;
		START(SKX_ID, 1, "--chas", "2", "--fault", "msr-gp-write=0xe12");
		run_add(&srun, drivers, "UNC_CHA_CLOCKTICKS");
		T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
		struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
		T_ASSERT(stat_loop(&srun, &eh.hw, false, &o, &env) != UNC_OK);
		for (uint32_t m = 0xE00; m < 0xE20; m += 0x10) {
			T_EQ(emu_msr_read(&eh.emu, m, &v), UNC_OK);
			T_EQ(v, 0);
			T_EQ(emu_msr_read(&eh.emu, m + 1, &v), UNC_OK);
			T_EQ(v, 0);
		}
	}
	/* the emulator's own checks */
	struct emu_config cfg;
	char err[300];
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--xcha", "nope" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value 'nope' for --xcha (want auto, none, skx or icx)");
	START(SKX_ID, 1, "--chas", "4");
	eh.emu.cfg.disc_chas[0] = 29;
	T_EQ(emu_uncore_check(&eh.emu.cfg, eh.emu.cfg.uncore_active, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "--chas: socket 0's 29 CHAs; the Skylake-SP has at most 28");
}

/* Each box's window (drivers/engine/stat.md): the run's last read is
 * delayed, as a busy host delays a vCPU, after the clock read that gives
 * the run its time. Each CHA counts by the model's clock, as a real one
 * counts by real time, so a box read d later in the last read than in the
 * first counts d longer than the run's time, and its count over that time
 * is rate x time all the same. Every CHA's count exactly that: here each
 * MSR access of this processor in the last edge takes 1 ms (the k-th CHA
 * of package 0 read k ms late; with pkgs 2, package 1's trip posted after
 * them, its reads taking no time). With trip_ns, this processor's reads
 * take no time and package 1's processor takes each trip near the end
 * trip_ns after it was posted; its clock reads pkg_clock_ns more than
 * this one's (0: one clock, whose readings time its reads). */
static void delayed_last_read(unsigned pkgs, uint64_t trip_ns, int64_t pkg_clock_ns)
{
	const struct pmu_driver *const drivers[] = { &pmu_driver_skxcha, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	static const uint64_t rate[2] = { 5000000, 7000000 };
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };

	if (pkgs == 1)
		START(SKX_ID, 1, "--chas", "4", "--rate", "UNC_CHA_REQUESTS.READS=5M");
	else
		START(SKX_ID, 2, "--sockets", "2", "--chas", "4", "--rate", "UNC_CHA_REQUESTS.READS=5M", "--socket-rate",
		      "1:UNC_CHA_REQUESTS.READS=7M");
	run_add(&srun, drivers, "UNC_CHA_REQUESTS.READS");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	eh.stall_from = eh.fake.now + S, eh.stall_to = eh.stall_from + S; /* the run's end */
	if (trip_ns)
		eh.trip_ns = trip_ns, eh.pkg_clock_ns = pkg_clock_ns;
	else
		eh.stall_every = 1, eh.stall_ns = 1000000;
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	T_EQ(srun.c.ev[0].v.nboxes, 4 * pkgs);
	T_ASSERT(elapsed > S && elapsed < S + S / 10);
	for (unsigned b = 0; b < 4 * pkgs; b++) /* package 1's trips as posted, with another clock: 4 ms more */
		T_EQ(srun.c.ev[0].total.box[b], rate[b / 4] * (elapsed + (b >= 4 && pkg_clock_ns ? trip_ns : 0)) / S);
}

/* Here elapsed is 1.020 s, and each CHA counts 5,100,000; each read as it
 * came (no window of its own), CHA k counted 5,105,000 + 5,000 k. */
static void delay_on_this_package(void)
{
	delayed_last_read(1, 0, 0);
}

/* Here 1.020 s: package 0's CHAs count 5,100,000 each, package 1's
 * 7,140,000 each, not 7,168,000 (read 4 ms late). */
static void delay_on_another_package(void)
{
	delayed_last_read(2, 0, 0);
}

/* Package 1's processor takes its trips 4 ms after they are posted
 * (this processor's reads take no time). Here elapsed is 1.012 s: package
 * 1's CHAs, timed as that processor read them (msr_read_pkg_t), count
 * 7,084,000 each; timed as their trip was posted, 7,112,000 (read 4 ms
 * late). */
static void delay_in_a_trip(void)
{
	delayed_last_read(2, 4000000, 0);
}

/* The same with package 1's processor's clock 1 s behind this one's: its
 * readings lie outside this processor's bracket around each trip and are
 * not used; the trips are timed as posted, and package 1's CHAs count
 * 7,112,000 (read 4 ms late), as before msr_read_pkg_t. */
static void delay_in_a_trip_other_clock(void)
{
	delayed_last_read(2, 4000000, -1000000000);
}

T_MAIN("xcha", T_CASE(registers_as_typed), T_CASE(events_as_published), T_CASE(skx_two_sockets),
       T_CASE(icx_two_sockets), T_CASE(clx_eight_sockets), T_CASE(in_use_on_package_1), T_CASE(faults),
       T_CASE(delay_on_this_package), T_CASE(delay_on_another_package), T_CASE(delay_in_a_trip), T_CASE(delay_in_a_trip_other_clock))
