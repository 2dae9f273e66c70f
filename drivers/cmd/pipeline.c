/* One stat or bw run: planned, measured, judged and stored; and the DRAM
 * counters a run (or bench) wants. */
#include "pipeline.h"

#include <string.h>

#include "../base/arith.h"
#include "../output/report.h"
#include "stat_bw_options.h"

/* Adds a free-running counter unless the run has it already; a run that
 * has no room left fails (run->err). */
static enum unc_status want_free(struct stat_run *run, const struct pmu_driver *drv, unsigned unit, unsigned k)
{
	struct ev_spec e = { .drv = drv, .unit = (uint8_t)unit, .free = (uint8_t)k };

	for (unsigned i = 0; i < run->c.nev; i++)
		if (evsel_same(&run->spec[i], &e))
			return UNC_OK;
	fmt_snprintf(e.name, sizeof(e.name), "%s", drv->units[unit].free[k].name);
	return stat_add(run, &e);
}

/* Adds a general unit's role event (by its name, as evsel resolves it)
 * unless the run has it already. */
static enum unc_status want_event(struct stat_run *run, const struct pmu_driver *drv, const char *name)
{
	const struct pmu_driver *const only[] = { drv, NULL };
	struct ev_spec e;
	enum unc_status st;

	if ((st = evsel_parse(name, only, &e, run->err, sizeof(run->err))))
		return st;
	for (unsigned i = 0; i < run->c.nev; i++)
		if (evsel_same(&run->spec[i], &e))
			return UNC_OK;
	return stat_add(run, &e);
}

/* Whether a driver's general units name role events (bw programs them in
 * every box instead of reading its free-running counters). */
static bool has_role_events(const struct pmu_driver *drv)
{
	for (unsigned u = 0; u < drv->nunits; u++)
		if (drv->units[u].kind == PMU_GENERAL && drv->units[u].role_events)
			return true;
	return false;
}

/* Adds the counters of a role (or, role 0, every counter of each unit that
 * has DRAM roles: bw's whole table), from the drivers this CPU has: a
 * general unit's role events where it has them, else the free-running
 * counters; *ret_n says how many there are. */
enum unc_status pipeline_want_role(struct stat_run *run, unsigned role, unsigned *ret_n)
{
	enum unc_status st;

	*ret_n = 0;
	for (unsigned d = 0; app_present[d]; d++) {
		bool programmed = has_role_events(app_present[d]);
		for (unsigned u = 0; u < app_present[d]->nunits; u++) {
			const struct pmu_unit *pu = &app_present[d]->units[u];
			bool dram = false;
			for (const struct pmu_role_event *x = pu->role_events; pu->kind == PMU_GENERAL && x && x->event; x++) {
				/* a role's events summed; where the tables differ by model,
				 * those this CPU's table has (pmu_events) */
				if ((role && x->role != role) ||
				    (app_present[d]->events_for && !evsel_find(app_present[d], x->event)))
					continue;
				if ((st = want_event(run, app_present[d], x->event)))
					return st;
				++*ret_n;
			}
			for (unsigned k = 0; !programmed && pu->kind == PMU_FREE && k < pu->counters; k++)
				dram |= pu->free[k].role != PMU_ROLE_NONE;
			for (unsigned k = 0; dram && k < pu->counters; k++) {
				if (role && pu->free[k].role != role)
					continue;
				if ((st = want_free(run, app_present[d], u, k)))
					return st;
				++*ret_n;
			}
		}
	}
	return UNC_OK;
}

/* One stat or bw run, from its plan to its stored record. run_stat takes
 * it through four steps: plan (events, CPU, discovery, schedule, the
 * child's file, the SMBIOS peak), measure (the header, the load, the child
 * or the sampling loop), judge (verdicts, warnings, the report, what never
 * moved, the child's status) and store (-o). */
struct stat_ctx {
	const struct cli_cmd *cmd;
	const struct stat_bw_options *opt; /* cmd's own options */
	const struct app_env *env;
	const struct hw *hw;
	const struct report_opts *ro;
	struct out *out, *err;
	bool bw;
	struct stat_run *run;
	struct run_extras x;     /* load, peak, check, child, warning */
	char child_cmd[2 * CLI_MAX_ARG_LEN + 64]; /* the child's command line, its file's full path first */
	struct rec_buf *samples; /* -o with -I: the interval samples */
	uint32_t nevents;
	unsigned stored, dropped;
	bool load, load_marked;  /* --load: its byte count at the start of the window */
	uint64_t load_bytes0;
	enum unc_status tick_st; /* a child: the first failure of a timer sample */
	uint64_t max_bps;        /* the highest DRAM read+write rate of an interval */
};

static bool stat_wait(void *ctx, uint64_t when)
{
	struct stat_ctx *c = ctx;

	if (c->load && !c->load_marked) { /* the first wait follows the start of counting */
		c->load_bytes0 = c->env->load_bytes();
		c->load_marked = true;
	}
	return c->env->wait_until(c->env->ctx, when);
}

/* While a child runs: the counters are read on a timer, so that none wraps
 * unseen. The first failure is kept and ends the run afterwards. */
static void child_tick(void *ctx)
{
	struct stat_ctx *c = ctx;

	if (!c->tick_st)
		c->tick_st = stat_sample(c->run);
}

static void stat_interval(void *ctx, struct stat_run *r, uint64_t now)
{
	struct stat_ctx *c = ctx;
	uint64_t bps;

	if (report_dram_rate(&r->c, c->hw, true, now, &bps) && bps > c->max_bps)
		c->max_bps = bps;
	if (c->bw)
		report_bw_interval(c->out, c->ro, c->hw, &r->c, now);
	else
		report_interval(c->out, c->ro, c->hw, &r->c, now);
	if (c->samples && !c->samples->overflow) {
		size_t before = c->samples->len;
		rec_put_run_sample(c->samples, &r->c, now);
		if (c->samples->overflow)
			c->samples->len = before;
		else
			c->stored++;
	}
	if (c->samples && c->samples->overflow)
		c->dropped++;
}

/* The progress lines' period in seconds: --progress, else APP_PROGRESS_S. */
static unsigned progress_period(const struct stat_bw_options *opt)
{
	return opt->progress_s ? opt->progress_s : APP_PROGRESS_S;
}

/* Progress on a long run without -I: one ordinary line (no carriage
 * return: serial logs stay clean) every --progress (APP_PROGRESS_S) seconds on standard
 * error, so -x and -j output never holds it. The rate is over the last
 * period (the marks are free: -I, their other user, excludes progress). */
static void stat_progress(void *ctx, struct stat_run *r, uint64_t now, unsigned k)
{
	struct stat_ctx *c = ctx;
	uint64_t ns = c->opt->duration_ns, bps[3];
	char total[32];

	if (ns % 1000000000)
		fmt_fixed(total, sizeof(total), ns, 1000000000, 3);
	else
		fmt_snprintf(total, sizeof(total), "%lu", (unsigned long)(ns / 1000000000));
	unsigned period = progress_period(c->opt);

	out_printf(c->err, "%4u s of %s s: ", k * period, total);
	if (c->bw && report_dram_rates(&r->c, c->hw, true, now, bps)) {
		out_printf(c->err, "read %lu MB/s, write %lu MB/s", (unsigned long)((bps[0] + 500000) / 1000000),
			   (unsigned long)((bps[1] + 500000) / 1000000));
	} else {
		uint64_t milli = report_rate_milli(count_interval(&r->c, 0, -1, now), now - r->c.t_mark, c->hw->tick_hz);
		out_printf(c->err, "%s %lu/s", r->c.ev[0].name, (unsigned long)((milli + 500) / 1000));
	}
	out_printf(c->err, " (last %u s)\n", period);
	count_mark(&r->c, now);
}

/* A child (-- COMMAND), before anything runs: something the Shell can run
 * as a child must be there, or it is one line and nothing else. */
static enum unc_status child_ready(const struct stat_bw_options *opt, const struct app_env *env, char *ret_cmdline,
				   size_t size, struct out *err)
{
	char msg[300];
	enum unc_status st;

	if (!env || !env->child_find || !env->run_child) {
		out_printf(err, "uncore: error: cannot run a child image on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	if ((st = env->child_find(env->ctx, opt->child, ret_cmdline, size, msg, sizeof(msg))))
		out_printf(err, "uncore: error: %s\n", msg);
	return st;
}

/* A child that ran, judged after the report (whose child line has said what
 * it returned): a success or warning status is a good run; an error is the
 * run's failure, with the child's own status as the exit status (efi/main.c);
 * no status at all is not vouched for. */
static enum unc_status child_judge(const struct run_extras *x, struct out *err)
{
	uint64_t cs = (uint64_t)x->child_status_hi << 32 | x->child_status_lo;
	char hex[20];

	if (x->child_ran == CHILD_NO_STATUS) {
		out_printf(err, "uncore: error: the Shell gave no status for the child, so nothing vouches for its run\n");
		return UNC_E_DEVICE;
	}
	if (cs == 0) /* as the Shell does, any other status is a failure */
		return UNC_OK;
	out_printf(err, "uncore: error: the child failed with %s; the exit status is its own\n", efi_status_str(cs, hex));
	return UNC_E_CHILD;
}

static uint64_t ms_ticks(const struct hw *hw, uint64_t ms)
{
	return u64_muldiv(ms, hw->tick_hz, 1000);
}

/* Plan: the events (bw's five, -e, the DATA counters a load or a check
 * reads), the CPU, the MSR and IMC discovery, the schedule, the child's
 * file and the SMBIOS peak. Nothing is written to the hardware. A failure
 * in run->err is UNC_E_INVALID and the like; the caller prints it. */
static enum unc_status stat_plan(struct stat_ctx *c, bool *ret_run_err)
{
	const struct stat_bw_options *opt = c->opt;
	struct stat_run *run = c->run;
	struct cpu_info cpu;
	char msg[300], warn[200]; /* msg: the longest refusal of evsel_parse */
	enum unc_status st;

	*ret_run_err = false;
	/* Events are looked up in the drivers this CPU has: on a CPU that has
	 * none, each is refused naming the PMU it needs. */
	app_cpu_detect(c->hw, &cpu);
	unsigned n = 0;
	if (c->bw) {
		if ((st = pipeline_want_role(run, 0, &n))) {
			*ret_run_err = true;
			return st;
		}
		if (!n) {
			out_printf(c->err, "uncore: error: no PMU of this CPU has DRAM counters: nothing for bw to read\n");
			return UNC_E_UNSUPPORTED;
		}
	}
	for (unsigned i = 0; i < opt->nevents; i++) {
		struct ev_spec e;
		if ((st = evsel_parse(opt->events[i], app_present, &e, msg, sizeof(msg)))) {
			out_printf(c->err, "uncore: error: %s\n", msg);
			return st;
		}
		*ret_run_err = true;
		if ((st = stat_add(run, &e)))
			return st;
		*ret_run_err = false;
	}
	/* the cross-check and the verdict read the DRAM counters */
	if (opt->load_kind >= 0 || opt->check) {
		unsigned nrd = 0, nwr = 0;
		if ((st = pipeline_want_role(run, PMU_ROLE_DRAM_READ, &nrd)) || (st = pipeline_want_role(run, PMU_ROLE_DRAM_WRITE, &nwr))) {
			*ret_run_err = true;
			return st;
		}
		/* a load without them runs without its cross-check; a check cannot */
		if (opt->check && (!nrd || !nwr)) {
			out_printf(c->err, "uncore: error: a bandwidth check needs DRAM counters, which no PMU of this CPU "
					   "has\n");
			return UNC_E_UNSUPPORTED;
		}
	}
	bool dram = false;
	for (unsigned i = 0; i < run->c.nev; i++)
		dram |= evsel_role(&run->spec[i]) != PMU_ROLE_NONE;
	if ((st = stat_probe(run, c->hw, &cpu, warn, sizeof(warn)))) {
		out_printf(c->err, "uncore: error: %s\n", run->err);
		return st;
	}
	if (warn[0])
		out_printf(c->err, "uncore: warning: %s\n", warn);
	if ((st = stat_schedule(run, !opt->no_multiplex))) {
		*ret_run_err = true;
		return st;
	}
	if (opt->child[0] && run->c.ngroups > 1) {
		out_printf(c->err, "uncore: error: the events need %u rounds of counters; around a child they must fit "
				   "at once\n", run->c.ngroups);
		return UNC_E_INVALID;
	}
	if (opt->child[0] && (st = child_ready(opt, c->env, c->child_cmd, sizeof(c->child_cmd), c->err)))
		return st;
	/* The peak, for every run that measures DRAM data (bw, --load, checks,
	 * the DATA counters in -e): a figure above it cannot be right. */
	if (dram && c->env && c->env->smbios) {
		struct smbios_mem mem;
		char msg[200];
		if (c->env->smbios(&mem, msg, sizeof(msg)) == UNC_OK) {
			c->x.peak_mb_s = mem.peak_mb_s;
			fmt_snprintf(c->x.peak_note, sizeof(c->x.peak_note), "%s", mem.note);
		} else {
			fmt_snprintf(c->x.peak_note, sizeof(c->x.peak_note), "%s", msg);
		}
	}
	return UNC_OK;
}

/* Measure: the header, then the load (if any) and the child under a
 * sampling timer, or the sampling loop; the counters are restored when it
 * returns. UNC_E_ABORTED (ESC) keeps the counts so far. *ret_run_err says
 * whether a failure is explained in run->err. */
static enum unc_status stat_measure(struct stat_ctx *c, bool *ret_run_err)
{
	const struct stat_bw_options *opt = c->opt;
	const struct app_env *env = c->env;
	const struct hw *hw = c->hw;
	struct stat_run *run = c->run;
	struct stat_env senv = { stat_wait, stat_interval, c, stat_progress };
	enum unc_status st;

	*ret_run_err = false;
	/* -d alone, or the default second; with -I: -d if given, else -n
	 * intervals, else until ESC. */
	struct stat_opts o = {
		.duration = opt->duration_ns ? u64_muldiv(opt->duration_ns, hw->tick_hz, 1000000000)
			    : opt->interval_ms ? 0 : hw->tick_hz,
		.interval = opt->interval_ms ? ms_ticks(hw, opt->interval_ms) : 0,
		.max_intervals = opt->max_intervals,
		.slice = ms_ticks(hw, APP_SLICE_MS),
		.sample = ms_ticks(hw, APP_SAMPLE_MS),
	};
	/* a run longer than one progress period, without -I (whose lines show it alive) */
	if (!opt->quiet && !opt->interval_ms && opt->duration_ns > (uint64_t)progress_period(opt) * 1000000000)
		o.progress = ms_ticks(hw, (uint64_t)progress_period(opt) * 1000);
	if (c->bw)
		report_bw_header(c->out, c->ro, hw, &run->c);
	else
		report_header(c->out, c->ro, hw, &run->c);
	if (opt->load_kind >= 0) {
		char msg[200];
		uint32_t cpus;
		uint64_t size;
		if (!env || !env->load_start) {
			out_printf(c->err, "uncore: error: no load generator on this platform\n");
			return UNC_E_NOT_FOUND;
		}
		/* The default working set follows the largest cache, which CPUID
		 * leaf 4 gives through the seam (an emulator may override it). */
		if ((st = env->load_start(opt->load_kind, opt->load_nt, (uint64_t)opt->load_size_mib << 20, opt->load_cpus,
					  cpu_llc_bytes(hw), &cpus, &size, msg, sizeof(msg)))) {
			out_printf(c->err, "uncore: error: --load: %s\n", msg);
			return st;
		}
		/* Core PMUs count on the processor that runs uncore.efi (and its
		 * child), not on the load's other processors: the header says so. */
		bool core = false;
		for (unsigned i = 0; i < run->c.nev; i++)
			core |= ev_unit(&run->spec[i])->per_cpu;
		if (core && cpus > 1 && c->ro->format != REPORT_JSON)
			out_printf(c->out, "%score events count on the processor running uncore.efi only, not on the load's "
					   "other %u\n", c->ro->format == REPORT_CSV ? "# " : "", cpus - 1);
		c->x.core_one_cpu = core && cpus > 1; /* in the extras too: JSON and stored records */
		c->x.load_kind = (uint8_t)(opt->load_kind + 1);
		c->x.load_nt = opt->load_nt;
		c->x.load_cpus = cpus;
		c->x.load_size = size;
		c->load = true;
	}
	if (opt->child[0]) {
		char msg[240];
		uint64_t cst = 0;
		bool known = false;
		if (!(st = stat_start(run, hw, opt->force))) {
			if (env->exit_guard && !env->exit_guard(env->ctx, run))
				out_printf(c->err, "uncore: warning: no ExitBootServices notification: a child that boots an "
						   "OS would leave the counters programmed\n");
			enum unc_status cs = env->run_child(env->ctx, c->child_cmd, &cst, &known, APP_SAMPLE_MS, child_tick, c,
							    msg, sizeof(msg));
			if (env->exit_guard)
				env->exit_guard(env->ctx, NULL);
			st = stat_stop(run, c->tick_st);
			if (cs) {
				out_printf(c->err, "uncore: error: %s; the counters are stopped and restored\n", msg);
				st = cs;
				goto out;
			}
			c->x.child_ran = known ? CHILD_RAN : CHILD_NO_STATUS;
			fmt_snprintf(c->x.child, sizeof(c->x.child), "%s", opt->child);
			c->x.child_status_lo = known ? (uint32_t)cst : 0;
			c->x.child_status_hi = known ? (uint32_t)(cst >> 32) : 0;
		}
	} else {
		st = stat_loop(run, hw, opt->force, &o, &senv);
	}
	*ret_run_err = st && st != UNC_E_ABORTED;
out:
	if (c->load) {
		c->x.load_bytes = env->load_bytes() - c->load_bytes0;
		env->load_stop();
		c->load = false;
	}
	return st;
}

/* A counter that ignored the write of its start (once), then each register
 * that reads otherwise after it was put back, one note each (after a failed
 * run too). */
static void restore_notes(struct out *err, const struct stat_run *run)
{
	if (run->write_note[0])
		out_printf(err, "uncore: note: %s\n", run->write_note);
	for (const char *l = run->restore_note; *l;) {
		const char *nl = strchr(l, '\n');
		int len = nl ? (int)(nl - l) : (int)strlen(l);
		out_printf(err, "uncore: note: %.*s\n", len, l);
		l += len + (nl != NULL);
	}
	if (run->restore_more)
		out_printf(err, "uncore: note: %u more registers read otherwise after they were put back\n",
			   run->restore_more);
}

/* Judge: the check's verdict, a figure above the SMBIOS peak, the report,
 * counters that never moved, the child's status, and the notes. Returns
 * the run's status, st (OK or UNC_E_ABORTED) or worse. */
static enum unc_status stat_judge(struct stat_ctx *c, enum unc_status st)
{
	const struct stat_bw_options *opt = c->opt;
	const struct hw *hw = c->hw;
	struct stat_run *run = c->run;
	struct run_extras *x = &c->x;

	if (opt->check) {
		uint64_t rd = 0, wr = 0, t = count_enabled(&run->c);
		if (!report_dram_bytes(&run->c, &rd, &wr)) { /* stat_plan added them: never without */
			out_printf(c->err, "uncore: error: the run has no DRAM counters to judge the check by\n");
			return UNC_E_INVALID;
		}
		uint64_t bytes = opt->check == CHECK_TOTAL ? rd + wr : opt->check == CHECK_READ ? rd : wr;
		x->check = opt->check;
		x->check_required_kb_s = opt->check_kb_s;
		/* kB/s rounded half up: the figure the bw table prints, so the
		 * verdict and the table never disagree in the last digit. */
		x->check_measured_kb_s = t ? (u64_muldiv(bytes, hw->tick_hz, t) + 500) / 1000 : 0;
		x->check_verdict = st == UNC_E_ABORTED ? VERDICT_NONE
				 : x->check_measured_kb_s >= x->check_required_kb_s ? VERDICT_PASS : VERDICT_FAIL;
	}
	/* 32-bit IMC counters that move 2^32 lines between two samples alias
	 * unseen; no DRAM moves data faster than its SMBIOS peak, so a figure
	 * above it is either aliased or the peak is wrong. */
	uint64_t bps = 0;
	bool measured = report_dram_rate(&run->c, hw, false, 0, &bps);
	if (c->max_bps > bps)
		bps = c->max_bps, measured = true;
	if (x->peak_mb_s && measured && bps / 1000000 > x->peak_mb_s) {
		char mb[32], up[16];
		fmt_fixed(mb, sizeof(mb), bps, 1000000, 3);
		if (report_dram_can_wrap(&run->c, hw, APP_SAMPLE_MS))
			fmt_snprintf(x->warning, sizeof(x->warning),
				     "read+write %s MB/s is above the SMBIOS peak of %lu MB/s: the %s counts may alias "
				     "(beyond %lu MB/s per counter) or the SMBIOS data is wrong",
				     mb, (unsigned long)x->peak_mb_s, count_free_upper(&run->c, up, sizeof(up)), (unsigned long)report_dram_max_mb_s(&run->c, APP_SAMPLE_MS));
		else /* 48 and 64 bits: no wrap between samples to alias */
			fmt_snprintf(x->warning, sizeof(x->warning),
				     "read+write %s MB/s is above the SMBIOS peak of %lu MB/s: the %s counters cannot wrap "
				     "between samples, so the SMBIOS data is wrong or they count something else",
				     mb, (unsigned long)x->peak_mb_s, count_free_upper(&run->c, up, sizeof(up)));
	}
	/* Neither PASS nor FAIL rests on such a figure: an aliased count reads
	 * low, so the true one is higher still, and a wrong SMBIOS peak is
	 * for a person to look at, not for a verdict to hide. */
	if (x->warning[0] && x->check)
		x->check_verdict = VERDICT_NONE;
	if (c->bw)
		report_bw_final(c->out, c->ro, hw, &run->c, x);
	else
		report_final(c->out, c->ro, hw, &run->c, x);
	/* Counters that never moved: a DATA counter gives no bandwidth, a clock
	 * cannot stand still (the report notes the others, which may be idle). */
	for (unsigned i = 0; i < run->c.nev; i++) {
		const struct count_event *e = &run->c.ev[i];
		bool data = e->v.role != PMU_ROLE_NONE;
		if (!count_still(&run->c, i) || !(e->v.clock || (data && c->bw)))
			continue;
		if (data)
			out_printf(c->err, "uncore: error: %s did not change in the whole run: a stuck counter, or no "
					   "DRAM traffic at all; no bandwidth figure\n", e->name);
		else
			out_printf(c->err, "uncore: error: %s did not change in the whole run: it counts a clock, which never "
					   "stops while its PMU counts, so the counter is stuck; its count is no measurement\n",
				   e->name);
		if (!st)
			st = data ? UNC_E_DEVICE : UNC_E_STUCK;
	}
	if (x->child_ran && !st) /* before the check: a failed child's run is no test of bandwidth */
		st = child_judge(x, c->err);
	if (x->check && (x->check_verdict == VERDICT_FAIL || x->warning[0]) && !st) /* no pass either way */
		st = UNC_E_CHECK;
	/* A probe that found part of the machine (pmu_present.partial): the
	 * counts above miss the rest, and the exit status says so. */
	for (unsigned k = 0; k < run->npmu && !st; k++)
		if (run->pmu[k].p.partial) {
			out_printf(c->err, "uncore: error: the %s probe found part of the machine only (the warning before "
					   "the counts says which): they miss the rest\n", run->pmu[k].p.drv->title);
			st = UNC_E_NOT_FOUND;
		}
	if (run->any_in_use)
		out_printf(c->err, "uncore: note: the PMU was in use (--force); its registers are restored, "
				   "but what it counted during this run is lost\n");
	restore_notes(c->err, run);
	for (unsigned k = 0; k < run->npmu; k++)
		if (run->pmu[k].programs && run->pmu[k].p.drv->ops->notes)
			run->pmu[k].p.drv->ops->notes(c->err, &run->pmu[k].p, &run->pmu[k].s);
	if (st == UNC_E_ABORTED)
		out_printf(c->err, "uncore: stopped by ESC; the counts above cover the time until then\n");
	return st;
}

/* Store (-o): the record, with the interval samples kept during the run. */
static enum unc_status stat_store(struct stat_ctx *c, enum unc_status st)
{
	struct platform_info *pi = &app_ws->pi;

	if (c->dropped)
		out_printf(c->err, "uncore: note: only the first %u interval samples fit the %u-byte buffer; %u are not "
				   "stored\n", c->stored, APP_SAMPLE_BUF, c->dropped);
	info_gather_opt(c->hw, pi, !c->bw); /* bw reads no MSR, even here */
	return app_store(c->cmd, c->env, c->bw ? "bw" : "stat", pi, c->run, c->opt->interval_ms, &c->x, c->samples, st,
			 c->err);
}

enum unc_status pipeline_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			     struct out *out, struct out *err)
{
	static struct stat_ctx sc; /* large: off the firmware stack, as app_ws->run */
	struct rec_buf samples = { 0 };
	bool run_err;
	enum unc_status st;

	app_ws->run = (struct stat_run){ 0 };
	sc = (struct stat_ctx){ .cmd = cmd, .opt = CLI_OWN(cmd), .env = env, .hw = hw, .ro = &cmd->report, .out = out,
				.err = err, .run = &app_ws->run };
	sc.bw = sc.opt->bw;
	if ((st = stat_plan(&sc, &run_err)))
		goto out;
	if (app_wants_output(cmd, env) && sc.opt->interval_ms && env && env->alloc) {
		samples = (struct rec_buf){ env->alloc(APP_SAMPLE_BUF), 0, APP_SAMPLE_BUF, false };
		if (samples.p) {
			sc.nevents = app_ws->run.c.nev;
			sc.samples = &samples;
		}
	}
	st = stat_measure(&sc, &run_err);
	if (st && st != UNC_E_ABORTED)
		goto out;
	st = stat_judge(&sc, st);
	if (app_wants_output(cmd, env)) {
		enum unc_status sst = stat_store(&sc, st);
		if (!st)
			st = sst;
	}
out:
	if (st && run_err) {
		out_printf(err, "uncore: error: %s\n", app_ws->run.err);
		restore_notes(err, &app_ws->run);
	}
	if (samples.p)
		env->free(samples.p);
	return st;
}
