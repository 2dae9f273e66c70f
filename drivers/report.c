#include "report.h"

#include "arith.h"
#include "imc.h"
#include "load.h"

#define NS_PER_S 1000000000ull

static const char *count_unit(const struct ev_spec *e)
{
	if (e->unit == EV_UNIT_IMC)
		return skl_imc[e->imc].data ? "lines" : "requests";
	return e->unit == EV_UNIT_FIXED || (e->thr && !e->edge) ? "cycles" : "events";
}

static bool is_data(const struct ev_spec *e)
{
	return e->unit == EV_UNIT_IMC && skl_imc[e->imc].data;
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

/* part / whole in percent, two decimals; a share (cap) never exceeds 100. */
static void pct_text(char *buf, size_t size, uint64_t part, uint64_t whole, bool cap)
{
	uint64_t c = whole ? u64_muldiv(part, 10000, whole) : 0;

	if (cap && c > 10000)
		c = 10000;
	fmt_snprintf(buf, size, "%lu.%02lu", (unsigned long)(c / 100), (unsigned long)(c % 100));
}

static void fmt_pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	pct_text(buf, size, part, whole, true);
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
	for (unsigned i = 0; i < SKL_IMC_COUNTERS; i++) {
		const struct skl_imc_counter *c = &skl_imc[i];
		if (!json) {
			out_printf(o, "%-5s  %-11s  %-8s  %-46s  %s (imc/%s/)\n", "IMC", "", "free", c->name, c->brief,
				   c->perf_name);
			continue;
		}
		out_printf(o, ",{\"Unit\":\"IMC\",\"EventName\":\"%s\",\"BriefDescription\":", c->name);
		out_json_str(o, c->brief);
		out_printf(o, ",\"Counter\":\"free-running\",\"MCHBAROffset\":\"0x%x\",\"PerfName\":\"imc/%s/\"}",
			   c->offset, c->perf_name);
	}
	if (json)
		out_puts(o, "]\n");
	else
		out_printf(o, "%u events, %u IMC counters. Raw encodings: cbo/event=N,umask=N[,thresh=N][,inv][,edge]/ "
			      "and arb/.../\n",
			   skl_events_count, SKL_IMC_COUNTERS);
}

void report_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r)
{
	const char *mode = hw_msr_mode_name(hw->msr_mode);

	if (ro->format == REPORT_JSON)
		return;
	out_printf(o, "%suncore stat: %u event%s", ro->format == REPORT_CSV ? "# " : "", r->nev, r->nev == 1 ? "" : "s");
	if (stat_uses_msrs(r)) {
		out_printf(o, " in %u group%s, %u CBo%s", r->ngroups, r->ngroups == 1 ? "" : "s (multiplexed)", r->ncbo,
			   r->ncbo == 1 ? "" : "s");
		if (r->ncbo_found > r->ncbo) /* never capped silently */
			out_printf(o, " (MSR_UNC_CBO_CONFIG gives %u; at most %u can be programmed)", r->ncbo_found,
				   r->ncbo);
		out_printf(o, ", msr access: %s", mode);
	} else {
		out_printf(o, ", IMC only (MMIO, no MSR), imc: %s", mode);
	}
	out_printf(o, "%s%s%s\n", hw->emulator ? " (" : "", hw->emulator ? hw->emulator : "", hw->emulator ? ")" : "");
}

/* One row: the sum (box < 0) or one CBo. */
struct row {
	const struct stat_event *e;
	int box;
	uint64_t count, run_ticks, enabled_ticks, window_ticks;
	bool moved; /* the counter changed at some time in the run */
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
		out_printf(o, "%s%-46s %16s %20s  %-6s  %6s%%", stamp, name, count, rate, count_unit(&w->e->spec), pct);
		if (is_data(&w->e->spec)) /* 64-byte lines: the bytes too */
			out_printf(o, "  = %lu bytes", (unsigned long)(w->count * IMC_LINE_BYTES));
		out_puts(o, "\n");
		break;
	case REPORT_CSV:
		/* perf stat -x: value, unit, event, run time (ns), percent running */
		if (*stamp)
			out_printf(o, "%s%s", stamp, ro->sep);
		/* the unit is empty for plain counts, as perf leaves it */
		out_printf(o, "%s%s%s%s%s%s%lu%s%s\n", count, ro->sep,
			   w->e->spec.unit == EV_UNIT_IMC ? count_unit(&w->e->spec) : "", ro->sep, name, ro->sep,
			   (unsigned long)ticks_ns(hw, w->run_ticks), ro->sep, pct);
		break;
	case REPORT_JSON:
		out_printf(o, "%s{\"event\":", first ? "" : ",");
		out_json_str(o, name);
		out_printf(o, ",\"unit\":\"%s\",\"pmu\":\"%s\",\"encoding\":\"%s0x%lx\",\"count\":%s,\"rate_per_s\":%s,"
			      "\"run_time_ns\":%lu,\"percent_running\":%s",
			   count_unit(&w->e->spec), event_unit_name(w->e->spec.unit),
			   w->e->spec.unit == EV_UNIT_IMC ? "MCHBAR+" : "", (unsigned long)evsel_encode(&w->e->spec),
			   counted ? count : "null", counted ? rate : "null", (unsigned long)ticks_ns(hw, w->run_ticks), pct);
		out_printf(o, ",\"moved\":%s", w->moved ? "true" : "false");
		if (is_data(&w->e->spec))
			out_printf(o, ",\"bytes\":%lu", (unsigned long)(w->count * IMC_LINE_BYTES));
		out_puts(o, "}");
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
					 window, window, b < 0 ? e->moved != 0 : (e->moved >> b & 1) != 0 };
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

static bool has_extras(const struct run_extras *x)
{
	return x && (x->load_kind || x->peak_note[0] || x->check || x->child_ran || x->warning[0]);
}

static void extras_json(struct out *o, const struct run_extras *x);
static void extras_text(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
			const struct run_extras *x);

/* The end of a final JSON object: the extras inside it, so that a run
 * prints one document. */
static void json_close(struct out *o, const struct run_extras *x)
{
	if (has_extras(x)) {
		out_puts(o, ",\"extras\":");
		extras_json(o, x);
	}
	out_puts(o, "}\n");
}

/* Counters that never changed: a note each, since an idle source counts 0
 * too; a clock cannot be idle, and the caller reports that as an error. */
static void still_notes(struct out *o, const struct stat_run *r, const char *c)
{
	char boxes[40];

	for (unsigned i = 0; i < r->nev; i++) {
		const struct stat_event *e = &r->ev[i];
		uint8_t still = stat_still(r, i);
		if (!still || stat_is_clock(r, i))
			continue;
		if (!e->moved) {
			out_printf(o, "%snote: %s did not change during the run (an idle source, or a stuck counter)\n", c,
				   e->spec.name);
			continue;
		}
		struct strbuf sb;
		strbuf_init(&sb, boxes, sizeof(boxes));
		struct out bo = strbuf_out(&sb);
		for (unsigned b = 0; b < 8; b++)
			if (still >> b & 1)
				out_printf(&bo, "%s%u", sb.len ? "," : "", b);
		out_printf(o, "%snote: %s did not change on CBo %s during the run while the other CBos counted it (a "
			      "stuck counter?)\n", c, e->spec.name, boxes);
	}
}

void report_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		  const struct run_extras *x)
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
		out_printf(o, ",\"cbo_count\":%u,\"cbo_derived\":%u,\"groups\":%u,\"elapsed_ns\":%lu,\"tsc_hz\":%lu,\"events\":[",
			   r->ncbo, r->ncbo_found, r->ngroups, (unsigned long)ns, (unsigned long)hw->tick_hz);
		print_rows(o, ro, hw, r, false, 0, "");
		out_puts(o, "]");
		json_close(o, x);
		return;
	}
	if (has_extras(x))
		extras_text(o, ro, hw, r, x);
}

/* ---- bw ---- */

uint64_t report_imc_max_mb_s(unsigned sample_ms)
{
	return u64_muldiv((uint64_t)IMC_MAX_STEP * IMC_LINE_BYTES, 1000, (uint64_t)sample_ms * 1000000);
}

/* The run's IMC event of Table 3-3 index k (bw adds all five, in order). */
static int imc_event(const struct stat_run *r, unsigned k)
{
	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].spec.unit == EV_UNIT_IMC && r->ev[i].spec.imc == k)
			return (int)i;
	return -1;
}

enum { IMC_GT, IMC_IA, IMC_IO, IMC_RD, IMC_WR };

struct bw {
	uint64_t lines[SKL_IMC_COUNTERS];
	uint64_t ticks;
};

static void bw_window(const struct stat_run *r, bool interval, uint64_t now, struct bw *b)
{
	b->ticks = interval ? now - r->t_mark : stat_enabled(r);
	for (unsigned k = 0; k < SKL_IMC_COUNTERS; k++) {
		int i = imc_event(r, k);
		b->lines[k] = i < 0 ? 0 : interval ? stat_interval_count(r, (unsigned)i, -1, now) : stat_count(r, (unsigned)i, -1);
	}
}

/* Bytes per second for `lines` over `ticks`; then MB/s (10^6) and MiB/s. */
static void fmt_bw(char *mb, char *mib, size_t size, uint64_t lines, uint64_t ticks, uint64_t hz)
{
	uint64_t bps = ticks ? u64_muldiv(lines * IMC_LINE_BYTES, hz, ticks) : 0;

	fmt_fixed(mb, size, bps, 1000000, 3);
	fmt_fixed(mib, size, bps, 1048576, 3);
}

static const char *mode_word(const struct hw *hw)
{
	/* The emulator publishes MCHBAR: its presence means the IMC is emulated too. */
	return hw->msr_mode == HW_MSR_EMULATED ? "emulated" : "native";
}

void report_bw_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		      const struct imc *m)
{
	(void)r;
	if (ro->format == REPORT_JSON)
		return;
	out_printf(o, "%suncore bw: IMC counters at MCHBAR 0x%lx (host bridge %04x:%04x%s%s), %s%s%s%s\n",
		   ro->format == REPORT_CSV ? "# " : "", (unsigned long)m->base, m->vendor, m->device,
		   m->generation ? ", " : "", m->generation ? m->generation : "", mode_word(hw),
		   hw->emulator ? " uncore (" : " hardware", hw->emulator ? hw->emulator : "", hw->emulator ? ")" : "");
}

static void bw_line(struct out *o, const struct report_opts *ro, const struct hw *hw, const char *stamp,
		    const char *what, uint64_t lines, uint64_t ticks)
{
	char mb[32], mib[32];

	fmt_bw(mb, mib, sizeof(mb), lines, ticks, hw->tick_hz);
	if (ro->format == REPORT_CSV) {
		if (*stamp)
			out_printf(o, "%s%s", stamp, ro->sep);
		out_printf(o, "%s%sMB/s%sdram_%s_bandwidth%s%lu%s100.00\n", mb, ro->sep, ro->sep, what, ro->sep,
			   (unsigned long)ticks_ns(hw, ticks), ro->sep);
		return;
	}
	out_printf(o, "%s%-6s %14s MB/s %14s MiB/s %18lu bytes %14lu lines\n", stamp, what, mb, mib,
		   (unsigned long)(lines * IMC_LINE_BYTES), (unsigned long)lines);
}

static void bw_json(struct out *o, const struct hw *hw, const char *what, uint64_t lines, uint64_t ticks, bool moved,
		    bool comma)
{
	char mb[32], mib[32];

	fmt_bw(mb, mib, sizeof(mb), lines, ticks, hw->tick_hz);
	out_printf(o, "\"%s\":{\"lines\":%lu,\"bytes\":%lu,\"mb_per_s\":%s,\"mib_per_s\":%s,\"moved\":%s}%s", what,
		   (unsigned long)lines, (unsigned long)(lines * IMC_LINE_BYTES), mb, mib, moved ? "true" : "false",
		   comma ? "," : "");
}

static bool moved(const struct stat_run *r, unsigned k)
{
	int i = imc_event(r, k);

	return i >= 0 && r->ev[i].moved;
}

void report_bw_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
			uint64_t now)
{
	char stamp[32], col[40];
	struct bw b;

	bw_window(r, true, now, &b);
	fmt_seconds(stamp, sizeof(stamp), ticks_ns(hw, now - r->t_start));
	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"interval\":%s,\"imc\":\"%s\",", stamp, mode_word(hw));
		bw_json(o, hw, "read", b.lines[IMC_RD], b.ticks, true, true);
		bw_json(o, hw, "write", b.lines[IMC_WR], b.ticks, true, true);
		bw_json(o, hw, "total", b.lines[IMC_RD] + b.lines[IMC_WR], b.ticks, true, false);
		out_puts(o, "}\n");
		return;
	}
	if (ro->format == REPORT_HUMAN)
		fmt_snprintf(col, sizeof(col), "%14s  ", stamp);
	else
		fmt_snprintf(col, sizeof(col), "%s", stamp);
	bw_line(o, ro, hw, col, "read", b.lines[IMC_RD], b.ticks);
	bw_line(o, ro, hw, col, "write", b.lines[IMC_WR], b.ticks);
	bw_line(o, ro, hw, col, "total", b.lines[IMC_RD] + b.lines[IMC_WR], b.ticks);
}

void report_bw_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		     const struct imc *m, const struct run_extras *x)
{
	static const char *req_names[] = { "GT", "IA", "IO" };
	char secs[32], mhz[32], pct[16];
	struct bw b;
	uint64_t ns = ticks_ns(hw, stat_enabled(r)), req = 0;

	bw_window(r, false, 0, &b);
	for (unsigned k = IMC_GT; k <= IMC_IO; k++)
		req += b.lines[k];
	fmt_seconds(secs, sizeof(secs), ns);
	fmt_fixed(mhz, sizeof(mhz), hw->tick_hz, 1000000, 3);

	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"tool\":\"uncore.efi\",\"command\":\"bw\",\"imc\":\"%s\",\"emulator\":", mode_word(hw));
		if (hw->emulator)
			out_json_str(o, hw->emulator);
		else
			out_puts(o, "null");
		out_printf(o, ",\"mchbar\":\"0x%lx\",\"host_bridge\":\"%04x:%04x\",\"elapsed_ns\":%lu,\"tsc_hz\":%lu,",
			   (unsigned long)m->base, m->vendor, m->device, (unsigned long)ns, (unsigned long)hw->tick_hz);
		bw_json(o, hw, "read", b.lines[IMC_RD], b.ticks, moved(r, IMC_RD), true);
		bw_json(o, hw, "write", b.lines[IMC_WR], b.ticks, moved(r, IMC_WR), true);
		bw_json(o, hw, "total", b.lines[IMC_RD] + b.lines[IMC_WR], b.ticks, moved(r, IMC_RD) || moved(r, IMC_WR),
			true);
		out_puts(o, "\"requests\":{");
		for (unsigned k = IMC_GT; k <= IMC_IO; k++) {
			fmt_pct(pct, sizeof(pct), b.lines[k], req);
			out_printf(o, "\"%s\":{\"count\":%lu,\"share_pct\":%s}%s", req_names[k], (unsigned long)b.lines[k],
				   req ? pct : "null", k < IMC_IO ? "," : "");
		}
		out_printf(o, "},\"max_guaranteed_mb_per_s\":%lu", (unsigned long)report_imc_max_mb_s(100));
		json_close(o, x);
		return;
	}
	if (ro->format == REPORT_CSV) {
		if (!ro->intervals)
			print_rows(o, ro, hw, r, false, 0, "");
		bw_line(o, ro, hw, "", "read", b.lines[IMC_RD], b.ticks);
		bw_line(o, ro, hw, "", "write", b.lines[IMC_WR], b.ticks);
		bw_line(o, ro, hw, "", "total", b.lines[IMC_RD] + b.lines[IMC_WR], b.ticks);
		out_printf(o, "# elapsed %s s, TSC %s MHz\n", secs, mhz);
		if (has_extras(x))
			extras_text(o, ro, hw, r, x);
		return;
	}
	if (ro->intervals)
		out_puts(o, "total:\n");
	for (unsigned k = IMC_RD; k <= IMC_WR; k++)
		if (!moved(r, k))
			out_printf(o, "%-6s %s did not change: stuck, or no DRAM traffic; no bandwidth\n",
				   k == IMC_RD ? "read" : "write", skl_imc[k].name);
		else
			bw_line(o, ro, hw, "", k == IMC_RD ? "read" : "write", b.lines[k], b.ticks);
	if (moved(r, IMC_RD) && moved(r, IMC_WR))
		bw_line(o, ro, hw, "", "total", b.lines[IMC_RD] + b.lines[IMC_WR], b.ticks);
	out_printf(o, "requests:");
	for (unsigned k = IMC_GT; k <= IMC_IO; k++) {
		fmt_pct(pct, sizeof(pct), b.lines[k], req);
		out_printf(o, "  %s %lu (%s%%)", req_names[k], (unsigned long)b.lines[k], req ? pct : "-");
	}
	out_puts(o, "\n  (request counts x 64 bytes overstate traffic: partial writes to one line count each but "
		    "are merged into one transfer; Table 3-3)\n");
	out_printf(o, "elapsed: %s s measured (%lu TSC ticks at %s MHz); sampled every 100 ms at most: "
		      "exact up to %lu MB/s per counter\n",
		   secs, (unsigned long)stat_enabled(r), mhz, (unsigned long)report_imc_max_mb_s(100));
	if (has_extras(x))
		extras_text(o, ro, hw, r, x);
}

/* ---- extras: load, peak, check, child ---- */

bool report_imc_bytes(const struct stat_run *r, uint64_t *rd, uint64_t *wr)
{
	int i = imc_event(r, IMC_RD), j = imc_event(r, IMC_WR);

	if (i < 0 || j < 0)
		return false;
	*rd = stat_count(r, (unsigned)i, -1) * IMC_LINE_BYTES;
	*wr = stat_count(r, (unsigned)j, -1) * IMC_LINE_BYTES;
	return true;
}

bool report_imc_rate(const struct stat_run *r, const struct hw *hw, bool interval, uint64_t now, uint64_t *ret_bps)
{
	struct bw b;

	if (imc_event(r, IMC_RD) < 0 || imc_event(r, IMC_WR) < 0)
		return false;
	bw_window(r, interval, now, &b);
	if (!b.ticks)
		return false;
	*ret_bps = u64_muldiv((b.lines[IMC_RD] + b.lines[IMC_WR]) * IMC_LINE_BYTES, hw->tick_hz, b.ticks);
	return true;
}

static const char *const verdicts[] = { "FAIL", "PASS", "none" };

static void kb_fmt(char *buf, size_t size, uint64_t kb_s)
{
	fmt_fixed(buf, size, kb_s, 1000, 3); /* MB/s */
}

static void extras_json(struct out *o, const struct run_extras *x)
{
	const char *sep = ""; /* each member only when there is one */
	char a[32], b[32];

	out_puts(o, "{");
	if (x->load_kind) {
		out_printf(o, "\"load\":{\"kind\":\"%s\",\"nt\":%s,\"cpus\":%u,\"size\":%lu,\"bytes\":%lu}",
			   load_kind_name((enum load_kind)(x->load_kind - 1)), x->load_nt ? "true" : "false", x->load_cpus,
			   (unsigned long)x->load_size, (unsigned long)x->load_bytes);
		sep = ",";
	}
	if (x->peak_note[0]) {
		out_printf(o, "%s\"peak_mb_per_s\":%lu,\"peak_note\":", sep, (unsigned long)x->peak_mb_s);
		out_json_str(o, x->peak_note);
		sep = ",";
	}
	if (x->check) {
		kb_fmt(a, sizeof(a), x->check_measured_kb_s);
		kb_fmt(b, sizeof(b), x->check_required_kb_s);
		out_printf(o, "%s\"check\":{\"verdict\":\"%s\",\"measured_mb_per_s\":%s,\"required_mb_per_s\":%s}", sep,
			   verdicts[x->check_verdict], a, b);
		sep = ",";
	}
	if (x->child_ran) {
		out_printf(o, "%s\"child\":{\"command\":", sep);
		out_json_str(o, x->child);
		if (x->child_ran == CHILD_NO_STATUS)
			out_puts(o, ",\"status\":null}");
		else
			out_printf(o, ",\"status\":\"0x%lx\"}",
				   (unsigned long)((uint64_t)x->child_status_hi << 32 | x->child_status_lo));
		sep = ",";
	}
	if (x->warning[0]) {
		out_printf(o, "%s\"warning\":", sep);
		out_json_str(o, x->warning);
	}
	out_puts(o, "}");
}

static void extras_text(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
			const struct run_extras *x)
{
	const char *c = ro->format == REPORT_CSV ? "# " : "";
	char a[32], b[32], pct[16];
	uint64_t ticks = stat_enabled(r), rd = 0, wr = 0;
	bool imc = report_imc_bytes(r, &rd, &wr);

	if (x->load_kind) {
		enum load_kind k = (enum load_kind)(x->load_kind - 1);
		uint64_t bps = ticks ? u64_muldiv(x->load_bytes, hw->tick_hz, ticks) : 0;
		fmt_fixed(a, sizeof(a), bps, 1000000, 3);
		out_printf(o, "%sload: %s%s on %u processor%s, %lu MiB working set: %lu bytes moved (STREAM counts %u per "
			      "element) = %s MB/s\n",
			   c, load_kind_name(k), x->load_nt ? " with non-temporal stores" : "", x->load_cpus,
			   x->load_cpus == 1 ? "" : "s", (unsigned long)(x->load_size >> 20), (unsigned long)x->load_bytes,
			   load_bytes_per_element(k), a);
		if (imc && x->load_bytes) {
			fmt_fixed(b, sizeof(b), rd + wr, x->load_bytes, 3);
			out_printf(o, "%scross-check: the IMC moved %lu bytes (read %lu + write %lu) in the same window: %s x "
				      "the load's count\n",
				   c, (unsigned long)(rd + wr), (unsigned long)rd, (unsigned long)wr, b);
			if (k != LOAD_READ && !x->load_nt)
				out_printf(o, "%s  (without --nt every line the load writes is first read into the cache "
					      "(write-allocate), which STREAM does not count: expect about %s)\n",
					   c, k == LOAD_WRITE ? "2" : k == LOAD_COPY ? "1.5" : "1.33");
			if (hw->msr_mode == HW_MSR_EMULATED)
				out_printf(o, "%s  (the IMC is emulated: its counts follow the emulator's rates, not this load)\n", c);
		}
	}
	if (x->peak_mb_s) {
		uint64_t total = ticks ? u64_muldiv(rd + wr, hw->tick_hz, ticks) : 0;
		pct_text(pct, sizeof(pct), total / 1000000, x->peak_mb_s, false); /* above 100: see x->warning */
		out_printf(o, "%speak: %lu MB/s from SMBIOS (%s)%s%s%s\n", c, (unsigned long)x->peak_mb_s, x->peak_note,
			   imc ? "; measured " : "", imc ? pct : "", imc ? "% of it" : "");
	} else if (x->peak_note[0]) {
		out_printf(o, "%speak: %s\n", c, x->peak_note);
	}
	if (x->check) {
		static const char *what[] = { "", "read+write", "read", "write" };
		kb_fmt(a, sizeof(a), x->check_measured_kb_s);
		kb_fmt(b, sizeof(b), x->check_required_kb_s);
		if (x->check_verdict == VERDICT_NONE && x->warning[0])
			out_printf(o, "%sNO VERDICT: the figure is above the SMBIOS peak (see the warning); %s bandwidth %s "
				      "MB/s, %s MB/s required\n", c, what[x->check], a, b);
		else if (x->check_verdict == VERDICT_NONE)
			out_printf(o, "%sNO VERDICT: the run was stopped early; %s bandwidth %s MB/s until then, %s MB/s "
				      "required\n", c, what[x->check], a, b);
		else
			out_printf(o, "%s%s: %s bandwidth %s MB/s %s the required %s MB/s\n", c,
				   verdicts[x->check_verdict], what[x->check], a,
				   x->check_verdict == VERDICT_PASS ? ">=" : "<", b);
	}
	if (x->child_ran) {
		uint64_t cs = (uint64_t)x->child_status_hi << 32 | x->child_status_lo;
		unsigned long ms = (unsigned long)u64_muldiv(ticks, 1000, hw->tick_hz);
		char hex[20];
		if (x->child_ran == CHILD_NO_STATUS)
			out_printf(o, "%schild: %s ran for %lu ms; its status is UNKNOWN: the Shell left no %%lasterror%% for "
				      "it\n", c, x->child, ms);
		else if (cs == 0)
			out_printf(o, "%schild: %s returned %s after %lu ms\n", c, x->child, efi_status_str(cs, hex), ms);
		else if (efi_status_name(cs))
			out_printf(o, "%schild: %s FAILED: %s (0x%lx) after %lu ms\n", c, x->child, efi_status_name(cs),
				   (unsigned long)cs, ms);
		else
			out_printf(o, "%schild: %s FAILED: status 0x%lx after %lu ms\n", c, x->child, (unsigned long)cs, ms);
	}
	if (x->warning[0])
		out_printf(o, "%swarning: %s\n", c, x->warning);
}
