/* `stat`: the header, the rows of an interval and of the whole run, and
 * the notes on counters that never changed. */
#include "report_int.h"

#include "../engine/pmu.h"

/* Counts of 64-byte DRAM transfers: the bytes are shown too. */
static bool is_data(const struct count_event *e)
{
	return e->v.role == PMU_ROLE_DRAM_READ || e->v.role == PMU_ROLE_DRAM_WRITE;
}

/* count per second, to three decimals */
uint64_t report_rate_milli(uint64_t count, uint64_t ticks, uint64_t hz)
{
	return ticks ? u64_muldiv(count, hz * 1000, ticks) : 0;
}

static void fmt_rate(char *buf, size_t size, uint64_t count, uint64_t ticks, uint64_t hz)
{
	uint64_t milli = report_rate_milli(count, ticks, hz);

	fmt_snprintf(buf, size, "%lu.%03lu", (unsigned long)(milli / 1000), (unsigned long)(milli % 1000));
}

void report_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r)
{
	const char *mode = hw_msr_mode_name(hw->msr_mode);

	if (ro->format == REPORT_JSON)
		return;
	out_printf(o, "%suncore stat: %u event%s", ro->format == REPORT_CSV ? "# " : "", r->nev, r->nev == 1 ? "" : "s");
	if (r->programs) {
		out_printf(o, " in %u group%s", r->ngroups, r->ngroups == 1 ? "" : "s (multiplexed)");
		for (unsigned k = 0; k < r->nboxes; k++) {
			const struct count_boxinfo *b = &r->boxes[k];
			out_printf(o, ", %u %s%s", b->n, b->noun, b->n == 1 ? "" : "s");
			if (b->found > b->n) /* never capped silently */
				out_printf(o, " (%s gives %u; at most %u can be programmed)", b->from, b->found, b->n);
		}
		out_printf(o, ", msr access: %s", mode);
	} else {
		char up[16];
		out_printf(o, ", %s only (free-running, nothing written), %s: %s", count_free_upper(r, up, sizeof(up)),
			   r->free_pmu, mode);
	}
	out_printf(o, "%s%s%s\n", hw->emulator ? " (" : "", hw->emulator ? hw->emulator : "", hw->emulator ? ")" : "");
}

/* One row: the sum (box < 0) or one box (NAME@cbo0, NAME@socket1.ch2). */
struct row {
	const struct count_event *e;
	int box;
	uint64_t count, run_ticks, enabled_ticks, window_ticks;
	bool moved; /* the counter changed at some time in the run */
};

static void row_name(char *buf, size_t size, const struct row *w)
{
	if (w->box < 0)
		fmt_snprintf(buf, size, "%s", w->e->name);
	else {
		char box[32];
		fmt_snprintf(buf, size, "%s@%s", w->e->name, count_box_name(&w->e->v, (unsigned)w->box, box, sizeof(box)));
	}
}

static void print_row(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct row *w,
		      const char *stamp, bool first)
{
	char name[sizeof(((struct count_event *)0)->name) + 32], rate[32], pct[16];

	char count[24];

	row_name(name, sizeof(name), w);
	fmt_rate(rate, sizeof(rate), w->count, w->window_ticks, hw->tick_hz);
	fmt_pct(pct, sizeof(pct), w->run_ticks, w->enabled_ticks);
	/* An event that did not run in the window has no count, not zero (as perf). */
	bool counted = w->run_ticks != 0;
	fmt_snprintf(count, sizeof(count), counted ? "%lu" : "<not counted>", (unsigned long)w->count);
	if (!counted)
		fmt_snprintf(rate, sizeof(rate), "-");
	switch (ro->format) {
	case REPORT_HUMAN:
		out_printf(o, "%s%-46s %16s %20s  %-6s  %6s%%", stamp, name, count, rate, w->e->v.count_word, pct);
		if (is_data(w->e)) /* 64-byte lines: the bytes too */
			out_printf(o, "  = %lu bytes", (unsigned long)(w->count * COUNT_LINE_BYTES));
		out_puts(o, "\n");
		break;
	case REPORT_CSV:
		/* perf stat -x: value, unit, event, run time (ns), percent running */
		if (*stamp)
			out_printf(o, "%s%s", stamp, ro->sep);
		/* the unit is empty for plain counts, as perf leaves it */
		out_printf(o, "%s%s%s%s%s%s%lu%s%s\n", count, ro->sep,
			   w->e->v.kind == PMU_FREE ? w->e->v.count_word : "", ro->sep, name, ro->sep,
			   (unsigned long)ticks_ns(hw, w->run_ticks), ro->sep, pct);
		break;
	case REPORT_JSON:
		out_printf(o, "%s{\"event\":", first ? "" : ",");
		out_json_str(o, name);
		out_printf(o, ",\"unit\":\"%s\",\"pmu\":\"%s\",\"encoding\":\"%s0x%lx\",\"count\":%s,\"rate_per_s\":%s,"
			      "\"run_time_ns\":%lu,\"percent_running\":%s",
			   w->e->v.count_word, w->e->v.pmu, w->e->v.enc_prefix, (unsigned long)w->e->v.encoding,
			   counted ? count : "null", counted ? rate : "null", (unsigned long)ticks_ns(hw, w->run_ticks), pct);
		out_printf(o, ",\"moved\":%s", w->moved ? "true" : "false");
		if (is_data(w->e))
			out_printf(o, ",\"bytes\":%lu", (unsigned long)(w->count * COUNT_LINE_BYTES));
		out_puts(o, "}");
		break;
	}
}

/* Every row of a window: the sums, and with --per-box each CBo too. */
void print_rows(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		bool interval, uint64_t now, const char *stamp)
{
	uint64_t window = interval ? now - r->t_mark : count_enabled(r);
	bool first = true;

	for (unsigned i = 0; i < r->nev; i++) {
		const struct count_event *e = &r->ev[i];
		uint64_t running = interval ? e->total.running - e->mark.running : e->total.running;
		int boxes = ro->per_box && e->v.box_label[0] ? (int)e->v.nboxes : 0;
		for (int b = -1; b < boxes; b++) {
			struct row w = { e, b, interval ? count_interval(r, i, b, now) : count_total(r, i, b), running,
					 window, window, b < 0 ? count_moved(e) : e->moved && e->moved[b] != 0 };
			print_row(o, ro, hw, &w, stamp, first);
			first = false;
		}
	}
}

void iv_short_mark(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		   uint64_t now, const char *stamp)
{
	char len[32];

	if (!r->iv_short)
		return;
	fmt_seconds(len, sizeof(len), ticks_ns(hw, now - r->t_mark));
	if (ro->format == REPORT_JSON)
		out_printf(o, ",\"shorter_interval_s\":%s", len);
	else
		out_printf(o, ro->format == REPORT_HUMAN ? "%14s  last interval, %s s: shorter, the run ended first\n"
							 : "# %s: last interval, %s s: shorter, the run ended first\n",
			   stamp, len);
}

void report_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		     uint64_t now)
{
	char stamp[32];

	fmt_seconds(stamp, sizeof(stamp), ticks_ns(hw, now - r->t_start));
	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"interval\":%s", stamp);
		iv_short_mark(o, ro, hw, r, now, stamp);
		out_printf(o, ",\"msr_access\":\"%s\",\"events\":[", hw_msr_mode_name(hw->msr_mode));
		print_rows(o, ro, hw, r, true, now, "");
		out_puts(o, "]}\n");
		return;
	}
	iv_short_mark(o, ro, hw, r, now, stamp);
	if (ro->format == REPORT_HUMAN) {
		char col[40];
		fmt_snprintf(col, sizeof(col), "%14s  ", stamp); /* perf's -I layout: time first */
		print_rows(o, ro, hw, r, true, now, col);
		return;
	}
	print_rows(o, ro, hw, r, true, now, stamp);
}

/* Counters that never changed: a note each, since an idle source counts 0
 * too; a clock cannot be idle, and the caller reports that as an error. */
static void still_notes(struct out *o, const struct count_run *r, const char *c)
{
	char boxes[40];

	for (unsigned i = 0; i < r->nev; i++) {
		const struct count_event *e = &r->ev[i];
		unsigned still = count_still(r, i);
		if (!still || e->v.clock)
			continue;
		if (!count_moved(e)) {
			out_printf(o, "%snote: %s did not change during the run (an idle source, or a stuck counter)\n", c,
				   e->name);
			continue;
		}
		struct strbuf sb;
		strbuf_init(&sb, boxes, sizeof(boxes));
		struct out bo = strbuf_out(&sb);
		for (unsigned b = 0; b < e->v.nboxes; b++)
			if (count_still_box(r, i, b))
				out_printf(&bo, "%s%u", sb.len ? "," : "", b);
		const char *noun = e->v.box_noun[0] ? e->v.box_noun : "box";
		out_printf(o, "%snote: %s did not change on %s %s during the run while the other %s%s counted it (a "
			      "stuck counter?)\n", c, e->name, noun, boxes, noun, e->v.box_noun[0] ? "s" : "es");
	}
}

void report_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		  const struct run_extras *x)
{
	char secs[32], mhz[32];
	uint64_t ns = ticks_ns(hw, count_enabled(r));

	fmt_seconds(secs, sizeof(secs), ns);
	fmt_fixed(mhz, sizeof(mhz), hw->tick_hz, 1000000, 3);
	switch (ro->format) {
	case REPORT_HUMAN:
		if (ro->intervals)
			out_puts(o, "total:\n");
		out_printf(o, "%-46s %16s %20s  %-6s  %7s\n", "event", "count", "rate/s", "unit", "running");
		print_rows(o, ro, hw, r, false, 0, "");
		out_printf(o, "elapsed: %s s measured (%lu TSC ticks at %s MHz)", secs, (unsigned long)count_enabled(r),
			   mhz);
		if (r->ngroups > 1)
			out_printf(o, "; %u groups multiplexed, %u switches", r->ngroups, r->rotations);
		out_puts(o, "\n");
		still_notes(o, r, "");
		break;
	case REPORT_CSV:
		if (!ro->intervals)
			print_rows(o, ro, hw, r, false, 0, "");
		out_printf(o, "# elapsed %s s, TSC %s MHz\n", secs, mhz);
		still_notes(o, r, "# ");
		break;
	case REPORT_JSON:
		out_printf(o, "{\"tool\":\"uncore.efi\",\"msr_access\":\"%s\",\"emulator\":", hw_msr_mode_name(hw->msr_mode));
		if (hw->emulator)
			out_json_str(o, hw->emulator);
		else
			out_puts(o, "null");
		for (unsigned k = 0; k < r->nboxes; k++)
			out_printf(o, ",\"%s_count\":%u,\"%s_derived\":%u", r->boxes[k].label, r->boxes[k].n, r->boxes[k].label,
				   r->boxes[k].found);
		out_printf(o, ",\"groups\":%u,\"elapsed_ns\":%lu,\"tsc_hz\":%lu,\"events\":[", r->ngroups,
			   (unsigned long)ns, (unsigned long)hw->tick_hz);
		print_rows(o, ro, hw, r, false, 0, "");
		out_puts(o, "]");
		json_close(o, x);
		return;
	}
	if (has_extras(x))
		extras_text(o, ro, hw, r, x);
}
