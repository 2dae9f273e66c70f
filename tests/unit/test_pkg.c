/* The engine with a made-up per-package MSR unit (as a discovery CHA is:
 * the same MSR numbers on every package, each package's own registers),
 * on the strict fake with 1, 2 and 4 packages, each with its own register
 * file: a register read or written on the wrong package reads another
 * package's value or fails the test. No real PMU is named: the driver
 * exists only here. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/engine/stat.h"
#include "fake_hw.h"
#include "run_help.h"
#include "t.h"

#define S  1000000000ull
#define MS 1000000ull

/* Per box (two a package): a box control (FRZ bit 0) at 0xE00 + 0x10 * i,
 * two selects at +1, +2 and two 48-bit counters at +8, +9. */
#define X_BOX(i)   (0xE00u + 0x10u * (i))
#define X_FRZ      1u
#define X_PER_PKG  2
#define MAXPKG     4
#define MASK48     ((1ull << 48) - 1)

static const struct event_desc x_events[] = {
	{ "UNC_X_EV", "events", "XBOX", 0x01, 0x00, 0x3, 0, 0, 0, 0 },
};
static const unsigned x_nevents = 1;

static const struct pmu_layout x_layout = {
	.event = { 0, 8 }, .umask = { 8, 8 }, .rw_mask = 0xFFFF,
};

static const struct pmu_unit x_units[] = {
	{ .pmu = "xbox", .intel_unit = "XBOX", .name = "XBOX", .box_noun = "box", .box_label = "x",
	  .kind = PMU_GENERAL, .space = PMU_MSR, .counters = 2, .width = 48, .max_boxes = 16, .sel_step = 1,
	  .ctr_step = 1, .probe_addr = true, .layout = &x_layout, .max_per_sec = 1ull << 36,
	  .raw_help = "xbox/event=N/", .group_noun = "socket", .per_pkg = true, .ctr_write = PMU_CTR_WRITE,
	  .ctr_write_cite = "this test's register file, whose counters take writes" },
};

static unsigned npkg_boxes = 2; /* packages whose boxes the probe reports */

static enum unc_status x_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want, struct pmu_present *p,
			       char *err, size_t errsize, char *warn, size_t warnsize)
{
	(void)hw, (void)cpu, (void)err, (void)errsize, (void)warn, (void)warnsize;
	if (want & 1) {
		p->probed |= 1;
		p->boxes[0] = p->found[0] = npkg_boxes * X_PER_PKG;
		if (pmu_present_room(p, 0, p->boxes[0]))
			return UNC_E_NO_MEMORY;
		p->sel_off[0] = 1, p->ctr_off[0] = 8;
		for (unsigned b = 0; b < p->boxes[0]; b++) {
			p->box_base[0][b] = X_BOX(b % X_PER_PKG);
			p->group[0][b] = (uint8_t)(b / X_PER_PKG);
			p->box_id[0][b] = (uint8_t)(b % X_PER_PKG);
		}
	}
	return UNC_OK;
}

static enum unc_status x_boxes(struct pmu_io *io, const struct pmu_present *p, uint64_t v)
{
	enum unc_status st;

	for (unsigned b = 0; b < p->boxes[0]; b++)
		if ((st = pmu_io_write(io, pmu_unit_box_ctl(&x_units[0], p, 0, b), v)))
			return st;
	return UNC_OK;
}

static enum unc_status x_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	(void)s;
	return x_boxes(io, p, X_FRZ);
}

static enum unc_status x_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	(void)s, (void)verify;
	return x_boxes(io, p, 0);
}

static const struct pmu_ops x_ops = { .probe = x_probe, .freeze = x_freeze, .unfreeze = x_unfreeze };
static const struct pmu_model x_models[] = { { 6, 0x2D, "a made-up multi-socket server" }, { 0, 0, 0 } };
static const struct pmu_driver x_driver = {
	.name = "test-pkg", .title = "made-up per-package PMU", .what = "made-up PMU", .status_name = "none",
	.vendor = "GenuineIntel", .models = x_models, .units = x_units, .nunits = 1,
	.events = x_events, .nevents = &x_nevents, .ops = &x_ops,
};

const struct pmu_driver *const pmu_drivers[] = { &x_driver, NULL };
static const struct pmu_driver *const present[] = { &x_driver, NULL };

/* ---- the hardware: each package's registers, counting on a fake clock ---- */

static struct fake_hw f;
static struct stat_run run;
static unsigned npkg;

static uint64_t rate(unsigned pkg, unsigned box)
{
	return 1000000ull * (10 * pkg + box + 1); /* distinct on every package and box */
}

static uint64_t initial(unsigned pkg, uint32_t msr)
{
	return 0x1000ull * (pkg + 1) + msr; /* each package's registers as found */
}

static void advance(uint64_t when)
{
	if (when <= f.now)
		return;
	uint64_t dt = when - f.now;
	for (unsigned p = 0; p < npkg; p++)
		for (unsigned i = 0; i < X_PER_PKG; i++) {
			if (*fake_msr_value_pkg(&f, p, X_BOX(i)) & X_FRZ)
				continue;
			for (unsigned c = 0; c < 2; c++)
				if ((*fake_msr_value_pkg(&f, p, X_BOX(i) + 1 + c) & 0xFF) == 0x01) {
					uint64_t *v = fake_msr_value_pkg(&f, p, X_BOX(i) + 8 + c);
					*v = (*v + rate(p, i) * dt / S) & MASK48;
				}
		}
	f.now = when;
}

/* n packages, each with its boxes' registers; mp: reachable through the
 * seam's per-package ops (else no MP services: one package). */
static void fresh(unsigned n, bool mp)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x2D, 8, 16);
	npkg = n;
	for (unsigned p = 0; p < n; p++)
		for (unsigned i = 0; i < X_PER_PKG; i++)
			for (uint32_t m = X_BOX(i); m <= X_BOX(i) + 9; m++)
				if (m - X_BOX(i) <= 2 || m - X_BOX(i) >= 8)
					fake_msr_pkg(&f, p, m, m - X_BOX(i) >= 1 && m - X_BOX(i) <= 2 ? 0 : initial(p, m));
	if (mp)
		fake_pkgs(&f, n);
	npkg_boxes = n;
	stat_free(&run);
	memset(&run, 0, sizeof(run));
}

static enum unc_status start(void)
{
	run_add(&run, present, "UNC_X_EV");
	T_EQ(run_schedule(&run, &f.hw, false), UNC_OK);
	return stat_start(&run, &f.hw, false);
}

/* Every register of every package reads as found. */
static void as_found(void)
{
	for (unsigned p = 0; p < npkg; p++)
		for (unsigned i = 0; i < X_PER_PKG; i++)
			for (uint32_t m = X_BOX(i); m <= X_BOX(i) + 9; m++)
				if (m - X_BOX(i) <= 2 || m - X_BOX(i) >= 8)
					T_EQ(*fake_msr_value_pkg(&f, p, m),
					     m - X_BOX(i) >= 1 && m - X_BOX(i) <= 2 ? 0 : initial(p, m));
}

/* n packages: each box counts its own package's events, each package's
 * registers are written only by its own processor, a sample makes one trip
 * to each other package inside the clock bracket, and the restore puts
 * every package back on that package. */
static void counts_each_package_on_its_own(unsigned n)
{
	fresh(n, true);
	f.ticks_per_pkg_call = 1000; /* a trip takes 1 us of the clock */
	T_EQ(start(), UNC_OK);
	for (unsigned j = 0; j < f.nlog; j++) {
		if (f.log[j].kind != FAKE_MSR)
			continue;
		/* the fake's files are per package: a write's package is its processor's */
		T_ASSERT(f.log_pkg[j] < n);
	}
	for (unsigned p = 1; p < n; p++)
		T_ASSERT(f.pkg_msr_writes[p] > 0);
	for (unsigned p = 0; p < n; p++) /* every box of every package unfrozen, on its package */
		for (unsigned i = 0; i < X_PER_PKG; i++)
			T_EQ(*fake_msr_value_pkg(&f, p, X_BOX(i)), 0);

	/* one sample: one trip to each other package, between the clock reads */
	advance(f.now + 100 * MS);
	unsigned calls[MAXPKG];
	memcpy(calls, f.pkg_calls, sizeof(calls));
	uint64_t t0 = f.now;
	T_EQ(stat_sample(&run), UNC_OK);
	for (unsigned p = 1; p < n; p++)
		T_EQ(f.pkg_calls[p] - calls[p], 1);
	T_EQ(f.pkg_calls[0], 0); /* this processor's package is read here */
	T_EQ(f.now - t0, (uint64_t)(n - 1) * 1000);
	/* the trips are inside the sample's bracket: its time starts before them */
	T_EQ(run.t_sample, t0);

	advance(f.now + 900 * MS);
	T_EQ(stat_sample(&run), UNC_OK);
	struct count_event *e = &run.c.ev[0];
	/* the model moves the counters in advance() only: 1 s of events per
	 * box, each package's at its own rate (a register read on another
	 * package would give that package's count) */
	for (unsigned b = 0; b < n * X_PER_PKG; b++)
		T_EQ(e->total.box[b], rate(b / X_PER_PKG, b % X_PER_PKG));
	unsigned from = f.nlog, writes[MAXPKG];
	memcpy(writes, f.pkg_msr_writes, sizeof(writes));
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	as_found(); /* each package's own registers back: written there, not on this processor's */
	for (unsigned p = 0; p < n; p++) /* its two boxes: frozen, then control, two selects, two counters each put back */
		T_EQ(f.pkg_msr_writes[p] - writes[p], X_PER_PKG /* the freeze */ + X_PER_PKG * 5 /* the journal */);
	T_EQ(f.nlog - from, n * (X_PER_PKG + X_PER_PKG * 5));
}

/* A counter of package 1 that starts faulting: the sample's trip there
 * (laid out once, stat_pkg.c's plan) fails, the reads are made again one
 * at a time, and the run stops naming that counter. */
static void fault_on_another_package_is_named(void)
{
	fresh(2, true);
	T_EQ(start(), UNC_OK);
	advance(f.now + 100 * MS);
	T_EQ(stat_sample(&run), UNC_OK);
	unsigned calls = f.pkg_calls[1];
	advance(f.now + 100 * MS);
	T_EQ(stat_sample(&run), UNC_OK);
	T_EQ(f.pkg_calls[1] - calls, 1); /* one trip a sample */
	f.cur_pkg = 1;
	fake_msr_gp(&f, X_BOX(1) + 8, true, false); /* box 1's counter 0 there */
	f.cur_pkg = 0;
	advance(f.now + 100 * MS);
	T_EQ(stat_sample(&run), UNC_E_FAULT);
	T_STREQ(run.err, "rdmsr 0xe18 (?): general-protection fault"); /* this test's unit has no register names */
	stat_stop(&run, UNC_E_FAULT);
}

static void two_packages(void)
{
	counts_each_package_on_its_own(2);
}

static void four_packages(void)
{
	counts_each_package_on_its_own(4);
}

/* A box on a package no processor belongs to: one line, nothing touched. */
static void missing_package_is_refused(void)
{
	fresh(2, true);
	fake_msr_pkg(&f, 2, X_BOX(0), 0); /* declared, but package 2 has no processor */
	npkg_boxes = 3;
	T_EQ(start(), UNC_E_NOT_FOUND);
	T_STREQ(run.err, "XBOX box 0 is on package 2, which no processor reachable here belongs to (packages: 0, 1)");
	T_EQ(f.nlog, 0);
	T_EQ(f.msr_reads, 0);
	T_EQ(f.pkg_calls[1], 0);
}

/* Without MP services, boxes on another package are refused likewise. */
static void no_mp_services_refuses_other_packages(void)
{
	fresh(2, false);
	T_EQ(start(), UNC_E_NOT_FOUND);
	T_STREQ(run.err, "XBOX box 0 is on package 1, which no processor reachable here belongs to (packages: 0; no MP "
			 "services)");
	T_EQ(f.nlog, 0);
}

/* One package, no MP services: as before, every access on this processor. */
static void one_package_works_as_before(void)
{
	fresh(1, false);
	T_EQ(start(), UNC_OK);
	advance(f.now + 500 * MS);
	T_EQ(stat_sample(&run), UNC_OK);
	T_EQ(stat_stop(&run, UNC_OK), UNC_OK);
	as_found();
	T_ASSERT(run.c.ev[0].total.box[0] > 0);
}

T_MAIN("pkg", T_CASE(two_packages), T_CASE(fault_on_another_package_is_named), T_CASE(four_packages), T_CASE(missing_package_is_refused),
       T_CASE(no_mp_services_refuses_other_packages), T_CASE(one_package_works_as_before))
