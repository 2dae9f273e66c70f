/* Stored records as HTML (see report_html.h). The table is the console's
 * text, printed by rec_print through an escaping sink; the charts replay
 * the interval samples through the report's own window arithmetic, so a
 * plotted figure is the one the text prints for that interval. The samples
 * are never held in memory: each chart series is one more pass over the
 * record (the firmware has no heap to spare for them). */
#include "report_html.h"

#include <string.h>

#include "report_int.h"
#include "../base/tsc.h"

/* ---- escaping ---- */

static void esc_write(void *ctx, const char *s, size_t n)
{
	struct out *o = ctx;
	size_t from = 0;

	for (size_t i = 0; i < n; i++) {
		const char *rep = s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" : s[i] == '&' ? "&amp;"
				: s[i] == '"' ? "&quot;" : s[i] == '\'' ? "&#39;" : NULL;
		if (!rep)
			continue;
		o->write(o->ctx, s + from, i - from);
		out_puts(o, rep);
		from = i + 1;
	}
	o->write(o->ctx, s + from, n - from);
}

/* A sink that escapes everything written to it, then writes to o. */
static struct out esc_out(struct out *o)
{
	return (struct out){ esc_write, o };
}

static void esc(struct out *o, const char *s)
{
	struct out e = esc_out(o);

	out_puts(&e, s);
}

void report_html_text(struct out *o, const char *s)
{
	esc(o, s);
}

/* ---- the page ---- */

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;max-width:72em;color:#222}\n"
	"pre{background:#f4f4f4;padding:.6em;overflow-x:auto;font-size:.8em}\n"
	".verdict{display:inline-block;font-size:1.7em;font-weight:bold;padding:.3em .7em;border:4px solid}\n"
	".pass{color:#075;border-color:#075}.fail{color:#b00;border-color:#b00}.none{color:#555;border-color:#999}\n"
	".why{margin-top:.3em}\n"
	"table{border-collapse:collapse}th,td{text-align:left;padding:.15em 1em .15em 0;vertical-align:top}\n"
	"svg text{font-family:sans-serif;font-size:12px}\n"
	"ul.legend{list-style:none;padding:0}ul.legend li{display:inline-block;margin-right:1.5em}\n";

void report_html_begin(struct out *o, const char *title)
{
	out_puts(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	esc(o, title);
	out_printf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

void report_html_end(struct out *o)
{
	out_puts(o, "</body>\n</html>\n");
}

void report_html_id(char *buf, size_t size, const char *name)
{
	fmt_snprintf(buf, size, "rec-%s", name && *name ? name : "record");
}

/* ---- the verdict ---- */

enum verdict_class { V_PASS, V_FAIL, V_NONE };

static const char *const v_word[] = { "PASS", "FAIL", "NO VERDICT" };
static const char *const v_class[] = { "pass", "fail", "none" };

/* PASS or FAIL: info's usability, or a --min-* check; a run that failed
 * otherwise (a stuck counter, a failed child) is a FAIL whatever its check
 * says; else no verdict. why gets the reason in words. */
static enum verdict_class verdict_of(const struct rec *r, char *why, size_t size)
{
	static const char *const what[] = { "", "read+write", "read", "write" };
	enum unc_status st = (enum unc_status)r->status;
	char a[32], b[32];

	if (!strcmp(r->command, "info")) {
		fmt_snprintf(why, size, "PMU %s: %s", r->verdict == UNC_OK ? "usable" : "unusable", r->verdict_reason);
		return r->verdict == UNC_OK ? V_PASS : V_FAIL;
	}
	if (st && st != UNC_E_ABORTED && st != UNC_E_CHECK) {
		fmt_snprintf(why, size, "the run failed: %s", unc_strerror(st));
		return V_FAIL;
	}
	if (!r->x.check) {
		fmt_snprintf(why, size, "no requirement was given (--min-bw, --min-read or --min-write)%s",
			     st == UNC_E_ABORTED ? "; the run was stopped early" : "");
		return V_NONE;
	}
	fmt_fixed(a, sizeof(a), r->x.check_measured_kb_s, 1000, 3);
	fmt_fixed(b, sizeof(b), r->x.check_required_kb_s, 1000, 3);
	const char *w = r->x.check < 4 ? what[r->x.check] : "";
	if (r->x.check_verdict == VERDICT_PASS || r->x.check_verdict == VERDICT_FAIL) {
		bool pass = r->x.check_verdict == VERDICT_PASS;
		fmt_snprintf(why, size, "%s bandwidth %s MB/s %s the required %s MB/s", w, a, pass ? ">=" : "<", b);
		return pass ? V_PASS : V_FAIL;
	}
	fmt_snprintf(why, size, "%s bandwidth %s MB/s, %s MB/s required: %s", w, a, b,
		     r->x.warning[0] ? "the figure is above the SMBIOS peak (see the warning)" : "the run was stopped early");
	return V_NONE;
}

/* ---- charts ---- */

#define CH_W      760
#define CH_H      330
#define CH_LEFT   100
#define CH_RIGHT  740
#define CH_TOP    20
#define CH_BOTTOM 280
#define CH_TICKS  5

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				       "#9467bd", "#8c564b", "#e377c2", "#17becf" };
#define NCOLOURS (sizeof(colours) / sizeof(colours[0]))

/* bw's series: indices into report_dram_rates' figures */
static const char *const bw_series[] = { "read", "write", "total" };

enum pass_mode { P_MEASURE, P_VALUES, P_POINTS };

/* One pass over a record's samples, replayed as rec_print does: each
 * sample's totals, the window since the previous one, then the mark. */
struct pass {
	struct rec_print_ws *ws;
	struct hw hw;
	bool bw;
	enum pass_mode mode;
	unsigned n;            /* samples seen */
	/* P_MEASURE: every series' largest figure and the last sample's time */
	uint64_t max[REC_MAX_EVENTS];
	uint64_t tmax;
	/* P_VALUES, P_POINTS: one series */
	unsigned series;
	uint64_t ymax;         /* the top of the y axis, in the series' unit */
	struct out *o;
	bool first;
};

/* A series' figure for the window ending at sample s: bw, bytes per second;
 * stat, thousandths of a count per second. false: not counted then. */
static bool window_value(struct pass *p, unsigned series, uint64_t now, uint64_t *ret)
{
	struct count_run *run = &p->ws->run;

	if (p->bw) {
		uint64_t bps[3];
		if (!report_dram_rates(run, &p->hw, true, now, bps))
			return false;
		*ret = bps[series];
		return true;
	}
	const struct count_event *e = &run->ev[series];
	if (e->total.running == e->mark.running) /* did not run in the window: no count (as the table's "-") */
		return false;
	*ret = report_rate_milli(count_interval(run, series, -1, now), now - run->t_mark, p->hw.tick_hz);
	return true;
}

static void value_text(const struct pass *p, uint64_t v, char *buf, size_t size)
{
	if (p->bw)
		fmt_fixed(buf, size, v, 1000000, 3); /* MB/s, as bw's table */
	else
		fmt_snprintf(buf, size, "%lu.%03lu", (unsigned long)(v / 1000), (unsigned long)(v % 1000));
}

/* A coordinate in tenths of a pixel, printed with one decimal. */
static void coord(struct out *o, uint64_t tenths)
{
	out_printf(o, "%lu.%lu", (unsigned long)(tenths / 10), (unsigned long)(tenths % 10));
}

static uint64_t x_tenths(const struct pass *p, uint64_t t)
{
	return CH_LEFT * 10 + (p->tmax ? u64_muldiv(t, (CH_RIGHT - CH_LEFT) * 10, p->tmax) : 0);
}

static uint64_t y_tenths(uint64_t v, uint64_t ymax)
{
	uint64_t h = u64_muldiv(v < ymax ? v : ymax, (CH_BOTTOM - CH_TOP) * 10, ymax ? ymax : 1);

	return CH_BOTTOM * 10 - h;
}

static void on_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	struct pass *p = ctx;
	struct count_run *run = &p->ws->run;
	uint64_t v;
	char text[40];

	if (p->n++ == 0)
		(void)rec_count_run(run, r); /* the events, marks at zero (no memory: run_pass says so) */
	if (!run->mem)
		return;
	rec_sample_to_run(run, r, s);
	switch (p->mode) {
	case P_MEASURE:
		for (unsigned k = 0; k < (p->bw ? 3 : run->nev); k++)
			if (window_value(p, k, s->t, &v) && v > p->max[k])
				p->max[k] = v;
		p->tmax = s->t;
		break;
	case P_VALUES:
		if (window_value(p, p->series, s->t, &v))
			value_text(p, v, text, sizeof(text));
		else
			fmt_snprintf(text, sizeof(text), "-");
		out_printf(p->o, "%s%s", p->first ? "" : " ", text);
		p->first = false;
		break;
	case P_POINTS:
		if (!window_value(p, p->series, s->t, &v))
			break;
		if (!p->first)
			out_puts(p->o, " ");
		coord(p->o, x_tenths(p, s->t));
		out_puts(p->o, ",");
		coord(p->o, y_tenths(v, p->ymax));
		p->first = false;
		break;
	}
	count_mark(run, s->t);
}

static enum unc_status run_pass(struct pass *p, enum pass_mode mode, const uint8_t *data, size_t len, char *err,
				size_t errsize)
{
	p->mode = mode;
	p->n = 0;
	p->first = true;
	enum unc_status st = rec_decode(data, len, &p->ws->r, on_sample, p, err, errsize);
	if (!st && p->n && p->ws->run.nev && !p->ws->run.mem) { /* rec_count_run found no memory */
		fmt_snprintf(err, errsize, "no memory for the record's counts");
		st = UNC_E_NO_MEMORY;
	}
	return st;
}

/* The smallest 1, 2 or 5 times a power of ten at or above v (at least 1). */
static uint64_t nice_top(uint64_t v)
{
	for (uint64_t p = 1;; p *= 10) {
		if (v <= p)
			return p;
		if (v <= 2 * p)
			return 2 * p;
		if (v <= 5 * p)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return v;
	}
}

/* A chart: its series (bw: 0-2; stat: event indices), limit lines (bw) and
 * the unit of the y axis. */
struct chart {
	unsigned ns;
	unsigned series[REC_MAX_EVENTS];
	uint64_t unit;           /* raw units per displayed unit: 10^6 (bytes/s in MB/s), 1000 (milli/s) */
	char ylabel[40];
	uint64_t req_bps, peak_bps; /* bw's horizontal lines; 0: none */
	const char *req_what;
};

/* A round tick step for an axis of span (1, 2 or 5 times a power of ten,
 * at most CH_TICKS steps), and the decimals its labels need when one unit
 * is `one` (a step of 0.5 with one = 1000 needs one decimal). */
static uint64_t tick_step(uint64_t span, uint64_t one, unsigned *ret_decimals)
{
	uint64_t step = nice_top((span + CH_TICKS - 1) / CH_TICKS);
	unsigned d = 0;

	for (uint64_t u = one; u > 1 && step % u; u /= 10)
		d++;
	*ret_decimals = d;
	return step;
}

/* Ticks at 0, step, 2 step, ... up to span along one axis: the grid line
 * and the label of each; y: from the bottom, x: from the left. */
static void axis_ticks(struct out *o, bool y_axis, uint64_t span, uint64_t one)
{
	unsigned d;
	uint64_t step = tick_step(span, one, &d);
	char num[32];

	for (uint64_t v = 0; span && v <= span; v += step) {
		fmt_fixed(num, sizeof(num), v, one, d);
		if (y_axis) {
			uint64_t y = CH_BOTTOM * 10 - u64_muldiv(v, (CH_BOTTOM - CH_TOP) * 10, span);
			if (v) {
				out_printf(o, "<line class=\"grid\" x1=\"%u\" x2=\"%u\" y1=\"", CH_LEFT, CH_RIGHT);
				coord(o, y);
				out_puts(o, "\" y2=\"");
				coord(o, y);
				out_puts(o, "\" stroke=\"#ddd\"/>\n");
			}
			out_printf(o, "<text class=\"ytick\" data-value=\"%s\" x=\"%u\" y=\"", num, CH_LEFT - 6);
			coord(o, y + 40);
			out_printf(o, "\" text-anchor=\"end\">%s</text>\n", num);
		} else {
			out_printf(o, "<text class=\"xtick\" data-value=\"%s\" x=\"", num);
			coord(o, CH_LEFT * 10 + u64_muldiv(v, (CH_RIGHT - CH_LEFT) * 10, span));
			out_printf(o, "\" y=\"%u\" text-anchor=\"middle\">%s</text>\n", CH_BOTTOM + 16, num);
		}
		if (v > UINT64_MAX - step)
			break;
	}
}

static void hline(struct out *o, const char *cls, const char *colour, uint64_t ymax, uint64_t v, uint64_t unit,
		  const char *label)
{
	uint64_t y = y_tenths(v, ymax);
	char num[32];

	fmt_fixed(num, sizeof(num), v, unit, 3);
	out_printf(o, "<line class=\"%s\" data-value=\"%s\" x1=\"%u\" x2=\"%u\" y1=\"", cls, num, CH_LEFT, CH_RIGHT);
	coord(o, y);
	out_puts(o, "\" y2=\"");
	coord(o, y);
	out_printf(o, "\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n", colour);
	out_printf(o, "<text x=\"%u\" y=\"", CH_RIGHT - 4);
	coord(o, y > CH_TOP * 10 + 40 ? y - 30 : y + 120);
	out_printf(o, "\" text-anchor=\"end\" fill=\"%s\">", colour);
	esc(o, label);
	out_printf(o, " %s</text>\n", num);
}

static const char *series_name(const struct pass *p, unsigned k)
{
	return p->bw ? bw_series[k] : p->ws->run.ev[k].name;
}

static enum unc_status chart(struct out *o, struct pass *p, const struct chart *c, const char *title, unsigned level,
			     const uint8_t *data, size_t len, char *err, size_t errsize)
{
	enum unc_status st;
	uint64_t top = 0;

	for (unsigned k = 0; k < c->ns; k++)
		if (p->max[c->series[k]] > top)
			top = p->max[c->series[k]];
	if (c->req_bps > top)
		top = c->req_bps;
	if (c->peak_bps > top)
		top = c->peak_bps;
	top = nice_top((top + c->unit - 1) / c->unit); /* in displayed units */
	uint64_t ymax = top * c->unit;

	out_printf(o, "<h%u>", level);
	esc(o, title);
	out_printf(o, "</h%u>\n", level);
	out_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		      "role=\"img\" data-ymax=\"%lu\" data-plot=\"%u %u %u %u\">\n<title>",
		   CH_W, CH_H, CH_W, CH_H, (unsigned long)top, CH_LEFT, CH_TOP, CH_RIGHT, CH_BOTTOM);
	esc(o, title);
	out_puts(o, "</title>\n");
	/* axes, grid and tick labels */
	out_printf(o, "<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#000\"/>\n", CH_LEFT, CH_TOP,
		   CH_LEFT, CH_BOTTOM);
	out_printf(o, "<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#000\"/>\n", CH_LEFT,
		   CH_BOTTOM, CH_RIGHT, CH_BOTTOM);
	/* y: in thousandths of the displayed unit, so that 0.5 steps are whole;
	 * x: in nanoseconds, each tick where its time is (the points are placed
	 * by the same scale) */
	axis_ticks(o, true, top * 1000, 1000);
	axis_ticks(o, false, ticks_ns(&p->hw, p->tmax), NS_PER_S);
	out_printf(o, "<text class=\"xlabel\" x=\"%u\" y=\"%u\" text-anchor=\"middle\">time since the start (s)</text>\n",
		   (CH_LEFT + CH_RIGHT) / 2, CH_BOTTOM + 38);
	out_printf(o, "<text class=\"ylabel\" x=\"16\" y=\"%u\" text-anchor=\"middle\" transform=\"rotate(-90 16 %u)\">",
		   (CH_TOP + CH_BOTTOM) / 2, (CH_TOP + CH_BOTTOM) / 2);
	esc(o, c->ylabel);
	out_puts(o, "</text>\n");
	if (c->req_bps)
		hline(o, "required", "#b00", ymax, c->req_bps, c->unit, c->req_what);
	if (c->peak_bps)
		hline(o, "peak", "#777", ymax, c->peak_bps, c->unit, "SMBIOS peak");
	/* the series: values, then the points of the same samples */
	p->ymax = ymax;
	p->o = o;
	for (unsigned k = 0; k < c->ns; k++) {
		p->series = c->series[k];
		out_printf(o, "<polyline class=\"series\" data-series=\"");
		esc(o, series_name(p, p->series));
		out_puts(o, "\" data-values=\"");
		if ((st = run_pass(p, P_VALUES, data, len, err, errsize)))
			return st;
		out_puts(o, "\" points=\"");
		if ((st = run_pass(p, P_POINTS, data, len, err, errsize)))
			return st;
		out_printf(o, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", colours[k % NCOLOURS]);
	}
	out_puts(o, "</svg>\n<ul class=\"legend\">\n");
	for (unsigned k = 0; k < c->ns; k++) {
		out_printf(o, "<li><span style=\"color:%s\">&#9632;</span> ", colours[k % NCOLOURS]);
		esc(o, series_name(p, c->series[k]));
		out_puts(o, "</li>\n");
	}
	out_puts(o, "</ul>\n");
	return UNC_OK;
}

static enum unc_status bw_charts(struct out *o, struct pass *p, unsigned level, const uint8_t *data, size_t len,
				 char *err, size_t errsize)
{
	static const char *const req_what[] = { "", "required read+write", "required read", "required write" };
	const struct rec *r = &p->ws->r;
	struct chart c = { .ns = 3, .series = { 0, 1, 2 }, .unit = 1000000 };
	char up[16], title[80];

	fmt_snprintf(c.ylabel, sizeof(c.ylabel), "MB/s (10^6 bytes per second)");
	if (r->x.check && r->x.check < 4) {
		uint64_t kb = r->x.check_required_kb_s;
		c.req_bps = kb * 1000;
		c.req_what = req_what[r->x.check];
	}
	c.peak_bps = r->x.peak_mb_s * 1000000;
	count_free_upper(&p->ws->run, up, sizeof(up));
	fmt_snprintf(title, sizeof(title), "%s: read, write and total bandwidth (MB/s)", up[0] ? up : "DRAM");
	return chart(o, p, &c, title, level, data, len, err, errsize);
}

/* stat: per PMU, the events by their largest rate; an event below a
 * hundredth of its chart's largest starts a chart of its own, so that no
 * line lies flat on the axis under a far larger one. */
static enum unc_status stat_charts(struct out *o, struct pass *p, unsigned level, const uint8_t *data, size_t len,
				   char *err, size_t errsize)
{
	const struct count_run *run = &p->ws->run;
	bool done[REC_MAX_EVENTS] = { false };
	enum unc_status st;

	for (unsigned g = 0; g < run->nev; g++) {
		if (done[g])
			continue;
		const char *pmu = run->ev[g].v.pmu;
		unsigned idx[REC_MAX_EVENTS], n = 0;
		for (unsigned i = g; i < run->nev; i++) {
			if (done[i] || strcmp(run->ev[i].v.pmu, pmu))
				continue;
			done[i] = true;
			unsigned k = n++; /* insertion by largest rate, descending; ties keep their order */
			while (k && p->max[idx[k - 1]] < p->max[i]) {
				idx[k] = idx[k - 1];
				k--;
			}
			idx[k] = i;
		}
		unsigned nch = 0;
		for (unsigned a = 0; a < n;) {
			struct chart c = { .unit = 1000 };
			uint64_t head = p->max[idx[a]];
			const char *word = run->ev[idx[a]].v.count_word;
			bool same = true;
			while (a < n && (c.ns == 0 || p->max[idx[a]] * 100 >= head)) {
				same &= !strcmp(run->ev[idx[a]].v.count_word, word);
				c.series[c.ns++] = idx[a++];
			}
			fmt_snprintf(c.ylabel, sizeof(c.ylabel), "%s per second", same && word[0] ? word : "counts");
			char title[120];
			fmt_snprintf(title, sizeof(title), "%s: rate per event (%s per second)%s", pmu[0] ? pmu : "events",
				     same && word[0] ? word : "counts",
				     nch || a < n ? (nch ? ", smaller rates" : ", the largest rates") : "");
			nch++;
			if ((st = chart(o, p, &c, title, level, data, len, err, errsize)))
				return st;
		}
	}
	return UNC_OK;
}

/* ---- a record ---- */

static void fact(struct out *o, const char *what, const char *fmt, ...) UNC_PRINTF(3, 4);
static void fact(struct out *o, const char *what, const char *fmt, ...)
{
	struct out e = esc_out(o);
	va_list ap;

	out_printf(o, "<tr><th>%s</th><td>", what);
	va_start(ap, fmt);
	out_vprintf(&e, fmt, ap);
	va_end(ap);
	out_puts(o, "</td></tr>\n");
}

static void identity(struct out *o, const struct rec *r, const char *name, unsigned level)
{
	char when[40] = "unknown";

	if (r->time.valid)
		rec_time_text(&r->time, when, sizeof(when));
	out_printf(o, "<h%u>Identity</h%u>\n<table class=\"facts\">\n", level, level);
	fact(o, "tool", "%s", r->tool);
	fact(o, "command", "%s", r->command);
	fact(o, "time", "%s", when);
	fact(o, "exit status", "%s", unc_strerror((enum unc_status)r->status));
	if (name)
		fact(o, "record", "%s (layout %u)", name, r->version);
	fact(o, "CPU", "%s%s%s family %u model 0x%x stepping %u", r->brand, r->brand[0] ? ", " : "", r->vendor, r->family,
	     r->model, r->stepping);
	if (r->cores || r->threads)
		fact(o, "cores", "%u cores, %u threads (%s)", r->cores, r->threads, r->topology);
	for (uint32_t k = 0; k < r->npmus; k++)
		fact(o, "PMU", "%s: %s", r->pmus[k].driver, r->pmus[k].model);
	if (!r->npmus && r->model_name[0])
		fact(o, "PMU", "%s", r->model_name);
	fact(o, "access", "%s%s%s%s", r->msr_mode == HW_MSR_EMULATED ? "emulated" : "native",
	     r->msr_mode == HW_MSR_EMULATED ? " (" : " hardware", r->msr_mode == HW_MSR_EMULATED ? r->emulator : "",
	     r->msr_mode == HW_MSR_EMULATED ? ")" : "");
	if (r->hypervisor)
		fact(o, "hypervisor", "CPUID says the CPU runs under a hypervisor");
	if (r->tsc_hz) {
		char mhz[32];
		fmt_fixed(mhz, sizeof(mhz), r->tsc_hz, 1000000, 3);
		char how[120];
		tsc_describe(&r->tsc, how, sizeof(how));
		fact(o, "TSC", "%s MHz%s%s", mhz, how[0] ? ", " : "", how);
	}
	out_puts(o, "</table>\n");
}

static enum unc_status record_in(struct out *o, const uint8_t *data, size_t len, const char *name, unsigned level,
				 struct rec_print_ws *ws, char *err, size_t errsize);

/* A record's section; the counts' per-box arrays given back on every path. */
static enum unc_status record(struct out *o, const uint8_t *data, size_t len, const char *name, unsigned level,
			      struct rec_print_ws *ws, char *err, size_t errsize)
{
	enum unc_status st = record_in(o, data, len, name, level, ws, err, errsize);

	count_free(&ws->run);
	return st;
}

static enum unc_status record_in(struct out *o, const uint8_t *data, size_t len, const char *name, unsigned level,
				 struct rec_print_ws *ws, char *err, size_t errsize)
{
	struct rec *r = &ws->r;
	enum unc_status st;
	char why[300], id[40];

	if ((st = rec_decode(data, len, r, NULL, NULL, err, errsize)))
		return st;
	struct hw hw = rec_hw(r);
	if (!hw.tick_hz) { /* as rec_print */
		fmt_snprintf(err, errsize, "the record has no TSC frequency");
		return UNC_E_INVALID;
	}
	enum verdict_class v = verdict_of(r, why, sizeof(why));
	report_html_id(id, sizeof(id), name);
	out_printf(o, "<section id=\"%s\">\n<h%u>", id, level);
	esc(o, r->tool);
	out_puts(o, " `");
	esc(o, r->command);
	out_puts(o, "`");
	if (name) {
		out_puts(o, ": ");
		esc(o, name);
	}
	out_printf(o, "</h%u>\n<p class=\"verdict %s\">%s</p>\n<p class=\"why\">", level, v_class[v], v_word[v]);
	esc(o, why);
	out_puts(o, "</p>\n");
	identity(o, r, name, level + 1);
	bool info = !strcmp(r->command, "info");
	struct report_opts ro = { .format = REPORT_HUMAN, .sep = ",", .per_box = r->per_box, .intervals = r->nintervals > 0 };
	if (!info && has_extras(&r->x)) {
		struct out e = esc_out(o);
		out_printf(o, "<h%u>Load, peak, check and child</h%u>\n<pre class=\"extras\">", level + 1, level + 1);
		if ((st = rec_count_run(&ws->run, r))) {
			fmt_snprintf(err, errsize, "no memory for the record's counts");
			return st;
		}
		extras_text(&e, &ro, &hw, &ws->run, &r->x);
		out_puts(o, "</pre>\n");
	}
	if (!info && r->nintervals) {
		static struct pass p; /* large (one maximum per event): off the firmware stack */
		p = (struct pass){ .ws = ws, .hw = hw, .bw = !strcmp(r->command, "bw") };
		out_printf(o, "<h%u>Charts</h%u>\n<p>%u intervals of %lu ms; each point is one interval's figure, as the "
			      "report below prints it.</p>\n",
			   level + 1, level + 1, r->nintervals, (unsigned long)r->interval);
		if ((st = run_pass(&p, P_MEASURE, data, len, err, errsize)))
			return st;
		st = p.bw ? bw_charts(o, &p, level + 2, data, len, err, errsize)
			  : stat_charts(o, &p, level + 2, data, len, err, errsize);
		if (st)
			return st;
	} else if (!info) {
		out_printf(o, "<h%u>Charts</h%u>\n<p>No interval samples (the run had no -I): no charts.</p>\n", level + 1,
			   level + 1);
	}
	out_printf(o, "<h%u>Report</h%u>\n<pre class=\"report\">", level + 1, level + 1);
	struct out e = esc_out(o);
	if ((st = rec_print(&e, data, len, REPORT_HUMAN, ",", name, ws, err, errsize)))
		return st;
	out_puts(o, "</pre>\n</section>\n");
	return UNC_OK;
}

enum unc_status report_html_section(struct out *o, const uint8_t *data, size_t len, const char *name,
				    struct rec_print_ws *ws, char *err, size_t errsize)
{
	return record(o, data, len, name, 2, ws, err, errsize);
}

enum unc_status report_html_page(struct out *o, const uint8_t *data, size_t len, const char *name,
				 struct rec_print_ws *ws, char *err, size_t errsize)
{
	struct rec *r = &ws->r;
	enum unc_status st;
	char title[120];

	/* decoded once first, so that a bad record writes nothing at all */
	if ((st = rec_decode(data, len, r, NULL, NULL, err, errsize)))
		return st;
	fmt_snprintf(title, sizeof(title), "uncore.efi %s%s%s", r->command, name ? ": " : "", name ? name : "");
	report_html_begin(o, title);
	if ((st = record(o, data, len, name, 1, ws, err, errsize)))
		return st;
	report_html_end(o);
	return UNC_OK;
}

void report_html_index_begin(struct out *o)
{
	out_puts(o, "<h1>Records</h1>\n<table class=\"index\">\n<tr><th>record</th><th>command</th><th>time</th>"
		    "<th>verdict</th><th></th></tr>\n");
}

enum unc_status report_html_index_row(struct out *o, const uint8_t *data, size_t len, const char *name,
				      struct rec_print_ws *ws, char *err, size_t errsize)
{
	struct rec *r = &ws->r;
	enum unc_status st;
	char id[40], when[40] = "unknown", why[300];

	out_puts(o, "<tr><td>");
	if ((st = rec_decode(data, len, r, NULL, NULL, err, errsize))) {
		esc(o, name);
		out_puts(o, "</td><td></td><td></td><td class=\"fail\">unreadable</td><td>");
		esc(o, err);
		out_puts(o, "</td></tr>\n");
		return st;
	}
	report_html_id(id, sizeof(id), name);
	out_printf(o, "<a href=\"#%s\">", id);
	esc(o, name);
	out_puts(o, "</a></td><td>");
	esc(o, r->command);
	if (r->time.valid)
		rec_time_text(&r->time, when, sizeof(when));
	out_printf(o, "</td><td>%s</td>", when);
	enum verdict_class v = verdict_of(r, why, sizeof(why));
	out_printf(o, "<td class=\"%s\"><b>%s</b></td><td>", v_class[v], v_word[v]);
	esc(o, why);
	out_puts(o, "</td></tr>\n");
	return UNC_OK;
}

void report_html_index_end(struct out *o)
{
	out_puts(o, "</table>\n");
}
