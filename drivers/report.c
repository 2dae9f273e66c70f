#include "report.h"

#include "arith.h"

#define NS_PER_S 1000000000ull

static const char *count_unit(const struct ev_spec *e)
{
	return e->unit == EV_UNIT_FIXED || (e->thr && !e->edge) ? "cycles" : "events";
}

static uint64_t ticks_ns(const struct hw *hw, uint64_t ticks)
{
	return u64_muldiv(ticks, NS_PER_S, hw->tick_hz);
}

/* count per second, to three decimals */
static void fmt_rate(char *buf, size_t size, uint64_t count, uint64_t ticks, uint64_t hz)
{
	uint64_t milli = ticks ? u64_muldiv(count, hz * 1000, ticks) : 0;

	fmt_snprintf(buf, size, "%lu.%03lu", (unsigned long)(milli / 1000), (unsigned long)(milli % 1000));
}

static void fmt_pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	uint64_t c = whole ? u64_muldiv(part, 10000, whole) : 0;

	if (c > 10000)
		c = 10000;
	fmt_snprintf(buf, size, "%lu.%02lu", (unsigned long)(c / 100), (unsigned long)(c % 100));
}

static void fmt_seconds(char *buf, size_t size, uint64_t ns)
{
	fmt_snprintf(buf, size, "%lu.%09lu", (unsigned long)(ns / NS_PER_S), (unsigned long)(ns % NS_PER_S));
}

void report_list(struct out *o, bool json)
{
	static const char *units[] = { [EV_UNIT_CBO] = "CBOX", [EV_UNIT_ARB] = "ARB", [EV_UNIT_FIXED] = "CLOCK" };

	if (json)
		out_puts(o, "[");
	else
		out_printf(o, "%-5s  %-4s  %-5s  %-8s  %-46s  %s\n", "unit", "code", "umask", "counters", "event",
			   "description");
	for (unsigned i = 0; i < skl_events_count; i++) {
		const struct event_desc *d = &skl_events[i];
		char ctr[8];
		if (d->counters & EV_COUNTER_FIXED)
			fmt_snprintf(ctr, sizeof(ctr), "FIXED");
		else
			fmt_snprintf(ctr, sizeof(ctr), "%s%s%s", d->counters & 1 ? "0" : "",
				     (d->counters & 3) == 3 ? "," : "", d->counters & 2 ? "1" : "");
		if (!json) {
			out_printf(o, "%-5s  0x%02x  0x%02x   %-8s  %-46s  %s%s\n", units[d->unit], d->code, d->umask, ctr,
				   d->name, d->cmask ? "[threshold 1] " : "", d->brief);
			continue;
		}
		out_printf(o, "%s{\"Unit\":\"%s\",\"EventCode\":\"0x%02x\",\"UMask\":\"0x%02x\",\"EventName\":", i ? "," : "",
			   units[d->unit], d->code, d->umask);
		out_json_str(o, d->name);
		out_puts(o, ",\"BriefDescription\":");
		out_json_str(o, d->brief);
		out_printf(o, ",\"Counter\":\"%s\",\"CounterMask\":\"%u\",\"Invert\":\"%u\",\"EdgeDetect\":\"%u\"}", ctr,
			   d->cmask, d->inv, d->edge);
	}
	if (json)
		out_puts(o, "]\n");
	else
		out_printf(o, "%u events. Raw encodings: cbo/event=N,umask=N[,thresh=N][,inv][,edge]/ and arb/.../\n",
			   skl_events_count);
}

void report_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r)
{
	const char *mode = hw_msr_mode_name(hw->msr_mode);

	if (ro->format == REPORT_JSON)
		return;
	out_printf(o, "%suncore stat: %u event%s in %u group%s, %u CBo%s, msr access: %s%s%s%s\n",
		   ro->format == REPORT_CSV ? "# " : "", r->nev, r->nev == 1 ? "" : "s", r->ngroups,
		   r->ngroups == 1 ? "" : "s (multiplexed)", r->ncbo, r->ncbo == 1 ? "" : "s", mode,
		   hw->emulator ? " (" : "", hw->emulator ? hw->emulator : "", hw->emulator ? ")" : "");
}

/* One row: the sum (box < 0) or one CBo. */
struct row {
	const struct stat_event *e;
	int box;
	uint64_t count, run_ticks, enabled_ticks, window_ticks;
};

static void row_name(char *buf, size_t size, const struct row *w)
{
	if (w->box < 0)
		fmt_snprintf(buf, size, "%s", w->e->spec.name);
	else
		fmt_snprintf(buf, size, "%s@cbo%d", w->e->spec.name, w->box);
}

static void print_row(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct row *w,
		      const char *stamp, bool first)
{
	char name[EVSEL_NAME_MAX + 8], rate[32], pct[16];

	row_name(name, sizeof(name), w);
	fmt_rate(rate, sizeof(rate), w->count, w->window_ticks, hw->tick_hz);
	fmt_pct(pct, sizeof(pct), w->run_ticks, w->enabled_ticks);
	switch (ro->format) {
	case REPORT_HUMAN:
		out_printf(o, "%s%-46s %16lu %20s  %-6s  %6s%%\n", stamp, name,
			   (unsigned long)w->count, rate, count_unit(&w->e->spec), pct);
		break;
	case REPORT_CSV:
		/* perf stat -x: value, unit, event, run time (ns), percent running */
		if (*stamp)
			out_printf(o, "%s%s", stamp, ro->sep);
		out_printf(o, "%lu%s%s%s%s%lu%s%s\n", (unsigned long)w->count, ro->sep, ro->sep, name, ro->sep,
			   (unsigned long)ticks_ns(hw, w->run_ticks), ro->sep, pct);
		break;
	case REPORT_JSON:
		out_printf(o, "%s{\"event\":", first ? "" : ",");
		out_json_str(o, name);
		out_printf(o, ",\"unit\":\"%s\",\"pmu\":\"%s\",\"encoding\":\"0x%lx\",\"count\":%lu,\"rate_per_s\":%s,"
			      "\"run_time_ns\":%lu,\"percent_running\":%s}",
			   count_unit(&w->e->spec), event_unit_name(w->e->spec.unit), (unsigned long)evsel_encode(&w->e->spec),
			   (unsigned long)w->count, rate, (unsigned long)ticks_ns(hw, w->run_ticks), pct);
		break;
	}
}

/* Every row of a window: the sums, and with --per-box each CBo too. */
static void print_rows(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		       bool interval, uint64_t now, const char *stamp)
{
	uint64_t window = interval ? now - r->t_mark : stat_enabled(r);
	bool first = true;

	for (unsigned i = 0; i < r->nev; i++) {
		const struct stat_event *e = &r->ev[i];
		uint64_t running = interval ? e->total.running - e->mark.running : e->total.running;
		int boxes = ro->per_box && e->spec.unit == EV_UNIT_CBO ? (int)r->ncbo : 0;
		for (int b = -1; b < boxes; b++) {
			struct row w = { e, b, interval ? stat_interval_count(r, i, b, now) : stat_count(r, i, b), running,
					 window, window };
			print_row(o, ro, hw, &w, stamp, first);
			first = false;
		}
	}
}

void report_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		     uint64_t now)
{
	char stamp[32];

	fmt_seconds(stamp, sizeof(stamp), ticks_ns(hw, now - r->t_start));
	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"interval\":%s,\"msr_access\":\"%s\",\"events\":[", stamp, hw_msr_mode_name(hw->msr_mode));
		print_rows(o, ro, hw, r, true, now, "");
		out_puts(o, "]}\n");
		return;
	}
	if (ro->format == REPORT_HUMAN) {
		char col[40];
		fmt_snprintf(col, sizeof(col), "%14s  ", stamp); /* perf's -I layout: time first */
		print_rows(o, ro, hw, r, true, now, col);
		return;
	}
	print_rows(o, ro, hw, r, true, now, stamp);
}

void report_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r)
{
	char secs[32], mhz[32];
	uint64_t ns = ticks_ns(hw, stat_enabled(r));

	fmt_seconds(secs, sizeof(secs), ns);
	fmt_fixed(mhz, sizeof(mhz), hw->tick_hz, 1000000, 3);
	switch (ro->format) {
	case REPORT_HUMAN:
		if (ro->intervals)
			out_puts(o, "total:\n");
		out_printf(o, "%-46s %16s %20s  %-6s  %7s\n", "event", "count", "rate/s", "unit", "running");
		print_rows(o, ro, hw, r, false, 0, "");
		out_printf(o, "elapsed: %s s measured (%lu TSC ticks at %s MHz)", secs, (unsigned long)stat_enabled(r),
			   mhz);
		if (r->ngroups > 1)
			out_printf(o, "; %u groups multiplexed, %u switches", r->ngroups, r->rotations);
		out_puts(o, "\n");
		break;
	case REPORT_CSV:
		if (!ro->intervals)
			print_rows(o, ro, hw, r, false, 0, "");
		out_printf(o, "# elapsed %s s, TSC %s MHz\n", secs, mhz);
		break;
	case REPORT_JSON:
		out_printf(o, "{\"tool\":\"uncore.efi\",\"msr_access\":\"%s\",\"emulator\":", hw_msr_mode_name(hw->msr_mode));
		if (hw->emulator)
			out_json_str(o, hw->emulator);
		else
			out_puts(o, "null");
		out_printf(o, ",\"cbo_count\":%u,\"groups\":%u,\"elapsed_ns\":%lu,\"tsc_hz\":%lu,\"events\":[", r->ncbo,
			   r->ngroups, (unsigned long)ns, (unsigned long)hw->tick_hz);
		print_rows(o, ro, hw, r, false, 0, "");
		out_puts(o, "]}\n");
		break;
	}
}
