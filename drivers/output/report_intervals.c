/* uncore_decode --intervals: a record's interval samples as CSV for
 * spreadsheets (see recmap.h), counted as the stat table counts them. */
#include "report_int.h"

#include <string.h>

#include "../engine/pmu.h"
#include "recmap.h"

/* --intervals: one row per interval per event, as print_rows counts it. */
struct iv_csv {
	struct out *o;
	const struct hw *hw;
	struct count_run *run;
	const char *sep;
	bool started;
};

static void iv_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	struct iv_csv *p = ctx;
	struct count_run *run = p->run;
	const char *c = p->sep;
	char stamp[32], len[32], rate[32], pct[16], mb[32];

	if (!p->started) {
		(void)rec_count_run(run, r); /* marks and times at the start (no memory: said after the walk) */
		p->started = true;
	}
	if (!run->mem)
		return; /* no memory for the counts: no rows, and the error after the walk */
	rec_sample_to_run(run, r, s);
	uint64_t window = s->t - run->t_mark;
	fmt_seconds(stamp, sizeof(stamp), ticks_ns(p->hw, s->t));
	fmt_seconds(len, sizeof(len), ticks_ns(p->hw, window));
	for (unsigned i = 0; i < run->nev; i++) {
		const struct count_event *e = &run->ev[i];
		uint64_t running = e->total.running - e->mark.running, n = count_interval(run, i, -1, s->t);
		uint64_t milli = report_rate_milli(n, window, p->hw->tick_hz);
		bool counted = running != 0, data = e->v.role == PMU_ROLE_DRAM_READ || e->v.role == PMU_ROLE_DRAM_WRITE;
		fmt_snprintf(rate, sizeof(rate), "%lu.%03lu", (unsigned long)(milli / 1000), (unsigned long)(milli % 1000));
		fmt_pct(pct, sizeof(pct), running, window);
		fmt_fixed(mb, sizeof(mb), window ? u64_muldiv(n * COUNT_LINE_BYTES, p->hw->tick_hz, window) : 0, 1000000, 3);
		out_printf(p->o, "%s%s%s%s%s%s%s%s", stamp, c, len, c, e->name, c, e->v.pmu, c);
		if (counted)
			out_printf(p->o, "%lu", (unsigned long)n);
		out_printf(p->o, "%s%s%s%s%s%lu%s%s%s%s\n", c, e->v.count_word, c, counted ? rate : "", c,
			   (unsigned long)ticks_ns(p->hw, running), c, pct, c, counted && data ? mb : "");
	}
	count_mark(run, s->t);
}

enum unc_status rec_print_intervals(struct out *o, const uint8_t *data, size_t len, const char *sep,
				    struct rec_print_ws *ws, char *err, size_t errsize)
{
	enum unc_status st;
	const char *c = sep && *sep ? sep : ",";

	if ((st = rec_decode(data, len, &ws->r, NULL, NULL, err, errsize)))
		return st;
	if (!strcmp(ws->r.command, "info"))
		UNC_ERR(UNC_E_INVALID, "an info record has no intervals");
	if (!ws->r.nintervals)
		UNC_ERR(UNC_E_INVALID, "the record has no interval samples (the run had no -I)");
	struct hw hw = rec_hw(&ws->r);
	if (!hw.tick_hz)
		UNC_ERR(UNC_E_INVALID, "the record has no TSC frequency");
	out_printf(o, "time_s%sinterval_s%sevent%spmu%scount%sunit%srate_per_s%srun_time_ns%spercent_running%smb_per_s\n",
		   c, c, c, c, c, c, c, c, c);
	struct iv_csv p = { o, &hw, &ws->run, c, false };
	st = rec_decode(data, len, &ws->r, iv_sample, &p, err, errsize);
	if (!st && ws->run.nev && !ws->run.mem) { /* rec_count_run found no memory */
		fmt_snprintf(err, errsize, "no memory for the record's counts");
		st = UNC_E_NO_MEMORY;
	}
	count_free(&ws->run);
	return st;
}
