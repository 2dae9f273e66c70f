/* bench [-n SAMPLES]: what reading the counters costs here, timed with the TSC. */
#include "pipeline.h"

#include "../base/arith.h"

/* bench's own options. */
struct bench_options {
	unsigned samples; /* -n: how many of each timed read */
};

/* N reads of one register (rdmsr) or counter (rdpmc), timed with the TSC;
 * the first read's failure is returned. */
static enum unc_status time_reads(const struct hw *hw, bool pmc, uint32_t which, unsigned n, uint64_t *ret_ticks)
{
	uint64_t v, t0;
	enum unc_status st = pmc ? hw_rdpmc(hw, which, &v) : hw_msr_read(hw, which, &v);

	if (st)
		return st;
	t0 = hw_ticks(hw);
	for (unsigned i = 0; i < n; i++)
		st = pmc ? hw_rdpmc(hw, which, &v) : hw_msr_read(hw, which, &v);
	*ret_ticks = hw_ticks(hw) - t0;
	return st;
}

/* What reading a core counter costs here, both ways the drivers read them:
 * rdmsr of general counter 0 and RDPMC 0 (each n times). Read only. */
static enum unc_status bench_core_reads(const struct bench_options *bo, const struct hw *hw,
					const struct cpu_info *cpu, const struct pmu_driver *drv, unsigned *ret_n,
					struct out *out, struct out *err)
{
	char msg[200], warn[200], name[48], ns[32];

	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		struct pmu_present p = { .drv = drv };
		if (!pu->per_cpu || pu->kind != PMU_GENERAL || pu->space != PMU_MSR)
			continue;
		bool none = drv->ops->probe(hw, cpu, 1u << u, &p, msg, sizeof(msg), warn, sizeof(warn)) || !p.boxes[u];
		struct pmu_reg ctr = pmu_unit_ctr(pu, &p, u, 0, 0);
		pmu_present_free(&p); /* a core PMU's probe keeps no per-box arrays: given back anyway */
		if (none)
			continue;
		for (int pmc = 0; pmc < 2; pmc++) {
			uint64_t ticks = 0;
			enum unc_status st = time_reads(hw, pmc, pmc ? 0 : (uint32_t)ctr.addr, bo->samples, &ticks);
			if (pmc)
				out_printf(out, "%s rdpmc 0x0: ", pu->pmu);
			else
				out_printf(out, "%s rdmsr 0x%lx (%s): ", pu->pmu, (unsigned long)ctr.addr,
					   pmu_reg_name(drv, &p, ctr, name, sizeof(name)));
			if (st) {
				out_printf(out, "not available (%s)\n", st == UNC_E_UNSUPPORTED ? "it raised #UD"
									  : st == UNC_E_FAULT	     ? "it raised #GP"
												     : unc_strerror(st));
				continue;
			}
			fmt_fixed(ns, sizeof(ns), u64_muldiv(ticks, 10000000000ull, (uint64_t)bo->samples * hw->tick_hz),
				  10, 1);
			out_printf(out, "%u reads, %lu TSC cycles each (%s ns); %s\n", bo->samples,
				   (unsigned long)(ticks / bo->samples), ns, hw_msr_mode_name(hw->msr_mode));
		}
		++*ret_n;
	}
	(void)err;
	return UNC_OK;
}

/* What a trip to another package costs here (a per-package unit's MSRs
 * are read there, one trip a sample): n reads of the time-stamp counter MSR
 * (0x10, on every processor with a TSC) by the processor that serves each
 * other package, at most 1000. Read only. */
static unsigned bench_pkg_trips(const struct bench_options *bo, const struct hw *hw, struct out *out)
{
	unsigned n = bo->samples < 1000 ? bo->samples : 1000, done = 0;
	char ns[32];

	for (unsigned i = 1; hw->pkgs && hw->ops->msr_read_pkg && i < hw->pkgs->n; i++) {
		uint64_t v, t0 = hw_ticks(hw);
		enum unc_status st = UNC_OK;
		for (unsigned k = 0; k < n && !st; k++)
			st = hw_msr_read_pkg(hw, hw->pkgs->id[i], 0x10, &v);
		uint64_t ticks = hw_ticks(hw) - t0;
		out_printf(out, "package %u trip (rdmsr 0x10 by processor %u): ", hw->pkgs->id[i], hw->pkgs->cpu[i]);
		if (st) {
			out_printf(out, "not available (%s)\n", unc_strerror(st));
			continue;
		}
		fmt_fixed(ns, sizeof(ns), u64_muldiv(ticks, 10000000000ull, (uint64_t)n * hw->tick_hz), 10, 1);
		out_printf(out, "%u trips, %lu TSC cycles each (%s ns)\n", n, (unsigned long)(ticks / n), ns);
		done++;
	}
	return done;
}

/* What one full sample of the DRAM counters costs here: every counter of
 * bw's table, each its own 32-bit read, plus the bookkeeping. Read only. */
static enum unc_status run_bench(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				 struct out *out, struct out *err)
{
	const struct bench_options *bo = CLI_OWN(cmd);
	struct stat_run *run = &app_ws->run;

	(void)env;
	struct cpu_info cpu;
	char warn[200], ns[32];
	enum unc_status st;

	if ((st = app_cpu_ready(hw, &cpu, err)))
		return st;
	*run = (struct stat_run){ 0 };
	unsigned n, ncore = 0;
	if ((st = pipeline_want_role(run, 0, &n))) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	for (unsigned d = 0; app_present[d]; d++)
		if ((st = bench_core_reads(bo, hw, &cpu, app_present[d], &ncore, out, err)))
			return st;
	ncore += bench_pkg_trips(bo, hw, out);
	if (!n && !ncore) {
		out_printf(err, "uncore: error: no PMU of this CPU has DRAM counters or core counters to time\n");
		return UNC_E_UNSUPPORTED;
	}
	if (!n)
		return UNC_OK;
	if ((st = stat_probe(run, hw, &cpu, warn, sizeof(warn))) || (st = stat_schedule(run, false)) ||
	    (st = stat_start(run, hw, false))) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	uint64_t t0 = hw_ticks(hw);
	for (unsigned i = 0; i < bo->samples && !st; i++)
		st = stat_sample(run);
	uint64_t ticks = hw_ticks(hw) - t0;
	stat_stop(run, st);
	if (st) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	/* Tenths of a ns per sample, in one exact step: ticks * 10^9 alone
	 * overflows 64 bits after 18 s at 1 GHz. */
	fmt_fixed(ns, sizeof(ns), u64_muldiv(ticks, 10000000000ull, (uint64_t)bo->samples * hw->tick_hz), 10, 1);
	out_printf(out, "%s sample: %u samples of %u counters, %lu TSC cycles each (%s ns); %s: %s\n", run->c.free_pmu,
		   bo->samples, run->c.nev, (unsigned long)(ticks / bo->samples), ns, run->c.free_pmu,
		   hw->msr_mode == HW_MSR_EMULATED ? "emulated" : "native");
	return UNC_OK;
}

#define BENCH_SAMPLES 10000

static enum unc_status bench_check(const struct cli_command *c, uint32_t seen, struct cli_cmd *cmd, char *err,
				   size_t errsize)
{
	struct bench_options *bo = CLI_OWN(cmd);

	(void)c, (void)seen, (void)err, (void)errsize;
	if (!bo->samples)
		bo->samples = BENCH_SAMPLES;
	return UNC_OK;
}

static const struct cli_opt bench_opts[] = {
	CLI_UINT_OPT("-n", "SAMPLES", CLI_OWN_FIELD(struct bench_options, samples), "count", "1 to 10000000 samples", 1,
		     10000000, "how many samples (default 10000)"),
	CLI_END,
};

const struct cli_command cmd_bench = {
	.name = "bench", .flags = CMD_CLOCK, .opts = bench_opts, CLI_OWN_ZERO(struct bench_options),
	.check = bench_check, .run = run_bench, .help = "time core counter reads, trips to other packages and full DRAM-counter samples with the TSC",
};
