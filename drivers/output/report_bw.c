/* `bw`: the DRAM counters (the free-running counters of the DRAM roles, or
 * a unit's role events summed over its boxes) as bandwidth, per group of
 * boxes (socket) and with --per-box per box (channel) where the unit has
 * them; the request counters as shares; and the rate helpers (rate, the
 * largest rate sampling is sure to measure). */
#include "report_int.h"

#include <string.h>

#include "../engine/pmu.h"

/* The DRAM counters' width: what sampling can vouch for. */
static unsigned dram_width(const struct count_run *r)
{
	int i = count_find_role(r, PMU_ROLE_DRAM_READ);

	return i < 0 || r->ev[i].v.width < 2 ? 32 : r->ev[i].v.width;
}

uint64_t report_dram_max_mb_s(const struct count_run *r, unsigned sample_ms)
{
	uint64_t half = (uint64_t)1 << ((dram_width(r) > 64 ? 64 : dram_width(r)) - 1);

	/* in one step: half * 64 overflows 64 bits for counters of 58 bits or more */
	return u64_muldiv(half, COUNT_LINE_BYTES * 1000, (uint64_t)sample_ms * 1000000);
}

/* Whether the DRAM counters can wrap unseen between two samples sample_ms
 * apart: only if more than half their range, 2^(width-1) lines, moves in
 * that time. The fastest memory systems move about a hundred 64-byte lines
 * per tick of a 1 GHz TSC (8 sockets of 12 DDR5 channels: about 7 TB/s),
 * so a counter that would need more than 2^16 lines per TSC tick (4 MiB per
 * tick) to wrap cannot wrap at any real bandwidth: 48 and 64 bits at 100 ms,
 * while 32 bits wrap at about 20 lines per tick. */
bool report_dram_can_wrap(const struct count_run *r, const struct hw *hw, unsigned sample_ms)
{
	unsigned w = dram_width(r) > 64 ? 64 : dram_width(r);
	uint64_t ticks = u64_muldiv(hw->tick_hz, sample_ms, 1000);

	return w - 1 <= 16 || ((uint64_t)1 << (w - 1)) >> 16 <= ticks;
}

#define BW_MAX_REQ 6

/* A bw window: the DRAM lines read and written, and the request counts
 * (the other free-running counters of the run, in order). */
struct bw {
	uint64_t rd, wr;
	int ird, iwr;
	unsigned nreq;
	int ireq[BW_MAX_REQ];
	uint64_t req[BW_MAX_REQ];
	uint64_t ticks;
};

static uint64_t window_count(const struct count_run *r, int i, bool interval, uint64_t now)
{
	if (i < 0)
		return 0;
	return interval ? count_interval(r, (unsigned)i, -1, now) : count_total(r, (unsigned)i, -1);
}

static void bw_window(const struct count_run *r, bool interval, uint64_t now, struct bw *b)
{
	*b = (struct bw){ .ticks = interval ? now - r->t_mark : count_enabled(r) };
	b->ird = count_find_role(r, PMU_ROLE_DRAM_READ);
	b->iwr = count_find_role(r, PMU_ROLE_DRAM_WRITE);
	b->rd = count_role(r, PMU_ROLE_DRAM_READ, interval, now);
	b->wr = count_role(r, PMU_ROLE_DRAM_WRITE, interval, now);
	for (unsigned i = 0; i < r->nev && b->nreq < BW_MAX_REQ; i++) {
		if (r->ev[i].v.kind != PMU_FREE || r->ev[i].v.role != PMU_ROLE_NONE || !r->ev[i].v.short_name[0])
			continue;
		b->ireq[b->nreq] = (int)i;
		b->req[b->nreq++] = window_count(r, (int)i, interval, now);
	}
}

uint64_t report_bps(uint64_t lines, uint64_t ticks, uint64_t hz)
{
	return ticks ? u64_muldiv(lines * COUNT_LINE_BYTES, hz, ticks) : 0;
}

/* Bytes per second for `lines` over `ticks` as MB/s (10^6) and MiB/s. */
static void fmt_bw(char *mb, char *mib, size_t size, uint64_t lines, uint64_t ticks, uint64_t hz)
{
	uint64_t bps = report_bps(lines, ticks, hz);

	fmt_fixed(mb, size, bps, 1000000, 3);
	fmt_fixed(mib, size, bps, 1048576, 3);
}

static const char *mode_word(const struct hw *hw)
{
	/* The emulator publishes the counters' base: its presence means they
	 * are emulated too. */
	return hw->msr_mode == HW_MSR_EMULATED ? "emulated" : "native";
}

void report_bw_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r)
{
	char up[16];

	if (ro->format == REPORT_JSON)
		return;
	out_printf(o, "%suncore bw: %s counters %s, %s%s%s%s\n", ro->format == REPORT_CSV ? "# " : "",
		   count_free_upper(r, up, sizeof(up)), r->where,
		   mode_word(hw), hw->emulator ? " uncore (" : " hardware", hw->emulator ? hw->emulator : "",
		   hw->emulator ? ")" : "");
}

/* A CSV row of bandwidth: perf's field order, the metric dram_WHAT. */
static void bw_csv(struct out *o, const struct report_opts *ro, const struct hw *hw, const char *stamp,
		   const char *what, uint64_t lines, uint64_t ticks)
{
	char mb[32], mib[32];

	fmt_bw(mb, mib, sizeof(mb), lines, ticks, hw->tick_hz);
	if (*stamp)
		out_printf(o, "%s%s", stamp, ro->sep);
	out_printf(o, "%s%sMB/s%sdram_%s%s%lu%s100.00\n", mb, ro->sep, ro->sep, what, ro->sep,
		   (unsigned long)ticks_ns(hw, ticks), ro->sep);
}

static void bw_line(struct out *o, const struct report_opts *ro, const struct hw *hw, const char *stamp,
		    const char *what, uint64_t lines, uint64_t ticks)
{
	char mb[32], mib[32];

	if (ro->format == REPORT_CSV) {
		char metric[24];
		fmt_snprintf(metric, sizeof(metric), "%s_bandwidth", what);
		bw_csv(o, ro, hw, stamp, metric, lines, ticks);
		return;
	}
	fmt_bw(mb, mib, sizeof(mb), lines, ticks, hw->tick_hz);
	out_printf(o, "%s%-6s %14s MB/s %14s MiB/s %18lu bytes %14lu lines\n", stamp, what, mb, mib,
		   (unsigned long)(lines * COUNT_LINE_BYTES), (unsigned long)lines);
}

static void bw_json(struct out *o, const struct hw *hw, const char *what, uint64_t lines, uint64_t ticks, bool moved,
		    bool comma)
{
	char mb[32], mib[32];

	fmt_bw(mb, mib, sizeof(mb), lines, ticks, hw->tick_hz);
	out_printf(o, "\"%s\":{\"lines\":%lu,\"bytes\":%lu,\"mb_per_s\":%s,\"mib_per_s\":%s,\"moved\":%s}%s", what,
		   (unsigned long)lines, (unsigned long)(lines * COUNT_LINE_BYTES), mb, mib, moved ? "true" : "false",
		   comma ? "," : "");
}

/* Whether the counters of the role of event i (all of them) moved. */
static bool moved(const struct count_run *r, int i)
{
	bool any = false;

	for (unsigned k = 0; i >= 0 && k < r->nev; k++)
		any |= r->ev[k].v.role == r->ev[i].v.role && count_moved(&r->ev[k]);
	return any;
}


/* A part of free-running DRAM counters: the k-th distinct short name
 * ("mc0") among the role counters, with its read and write lines. False
 * past the last, or when the role counters name no parts. */
static bool free_part(const struct count_run *r, bool interval, uint64_t now, unsigned k, struct report_part *p);

/* The parts of a window: each group (box < 0), or each box. False when the
 * DRAM events have no groups (or no boxes to show). */
static bool bw_part(const struct count_run *r, const struct bw *b, bool interval, uint64_t now, unsigned k, bool box,
		    struct report_part *p)
{
	const struct count_view *v = &r->ev[b->ird].v;

	if (box && v->kind == PMU_FREE)
		return free_part(r, interval, now, k, p);
	if (box) {
		if (k >= v->nboxes || !v->box_label[0])
			return false;
		count_box_name(v, k, p->name, sizeof(p->name));
		p->group = v->group_noun[0] && v->group ? v->group[k] : -1;
		p->id = p->group < 0 ? (int)k : v->box_id[k];
		p->rd = count_role_part(r, PMU_ROLE_DRAM_READ, k, false, interval, now);
		p->wr = count_role_part(r, PMU_ROLE_DRAM_WRITE, k, false, interval, now);
		return true;
	}
	if (v->kind == PMU_FREE)
		return false;
	int g = count_group_id(v, k); /* only groups that have boxes make rows */
	if (g < 0)
		return false;
	fmt_snprintf(p->name, sizeof(p->name), "%s%d", v->group_noun, g);
	p->group = g;
	p->id = -1;
	p->rd = count_role_part(r, PMU_ROLE_DRAM_READ, (unsigned)g, true, interval, now);
	p->wr = count_role_part(r, PMU_ROLE_DRAM_WRITE, (unsigned)g, true, interval, now);
	return true;
}

static bool free_part(const struct count_run *r, bool interval, uint64_t now, unsigned k, struct report_part *p)
{
	unsigned seen = 0;

	for (unsigned i = 0; i < r->nev; i++) {
		const struct count_view *v = &r->ev[i].v;
		bool first = true;
		if (v->kind != PMU_FREE || v->role == PMU_ROLE_NONE || !v->short_name[0])
			continue;
		for (unsigned j = 0; j < i && first; j++)
			first = !(r->ev[j].v.kind == PMU_FREE && r->ev[j].v.role != PMU_ROLE_NONE &&
				  !strcmp(r->ev[j].v.short_name, v->short_name));
		if (!first || seen++ != k)
			continue;
		*p = (struct report_part){ .group = -1, .id = -1 };
		fmt_snprintf(p->name, sizeof(p->name), "%s", v->short_name);
		for (unsigned j = i; j < r->nev; j++) {
			const struct count_view *w = &r->ev[j].v;
			if (w->kind != PMU_FREE || strcmp(w->short_name, v->short_name))
				continue;
			if (w->role == PMU_ROLE_DRAM_READ)
				p->rd += window_count(r, (int)j, interval, now);
			else if (w->role == PMU_ROLE_DRAM_WRITE)
				p->wr += window_count(r, (int)j, interval, now);
		}
		return true;
	}
	return false;
}

/* Whether the DRAM events are a unit's role events counted in boxes (per
 * group or per box rows apply): both roles, from the same unit's boxes; or
 * free-running counters of several parts (memory controllers), whose
 * --per-box rows are a part each. */
static bool bw_boxed(const struct count_run *r, const struct bw *b)
{
	struct report_part p;

	if (b->ird >= 0 && b->iwr >= 0 && r->ev[b->ird].v.kind == PMU_FREE)
		return free_part(r, false, 0, 1, &p);
	return b->ird >= 0 && b->iwr >= 0 && r->ev[b->ird].v.nboxes == r->ev[b->iwr].v.nboxes &&
	       !strcmp(r->ev[b->ird].v.pmu, r->ev[b->iwr].v.pmu);
}

/* After the totals: a row per group, then (--per-box) a row per box. Human:
 * "socket0  read N MB/s  write N MB/s  total N MB/s"; CSV: the total rows'
 * form with the metric named dram_read_bandwidth@socket0; JSON: the members
 * "per_group" and "per_box", arrays of {"name", "read", "write", "total"}. */
static void bw_parts(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		     const struct bw *b, bool interval, uint64_t now, const char *stamp)
{
	struct report_part p;
	char mb[3][32], mib[32], what[48];

	if (!bw_boxed(r, b))
		return;
	for (int box = 0; box < 2; box++) {
		if (box && !ro->per_box)
			break;
		for (unsigned k = 0; bw_part(r, b, interval, now, k, box, &p); k++) {
			uint64_t lines[3] = { p.rd, p.wr, p.rd + p.wr };
			static const char *const whats[3] = { "read", "write", "total" };
			if (ro->format == REPORT_JSON) {
				out_printf(o, "%s{\"name\":", k ? "," : box ? ",\"per_box\":[" : ",\"per_group\":[");
				out_json_str(o, p.name);
				out_puts(o, ",");
				for (int w = 0; w < 3; w++)
					bw_json(o, hw, whats[w], lines[w], b->ticks, true, w < 2);
				out_puts(o, "}");
				continue;
			}
			if (ro->format == REPORT_CSV) {
				for (int w = 0; w < 3; w++) {
					fmt_snprintf(what, sizeof(what), "%s_bandwidth@%s", whats[w], p.name);
					bw_csv(o, ro, hw, stamp, what, lines[w], b->ticks);
				}
				continue;
			}
			for (int w = 0; w < 3; w++)
				fmt_bw(mb[w], mib, sizeof(mib), lines[w], b->ticks, hw->tick_hz);
			out_printf(o, "%s%-14s read %14s MB/s  write %14s MB/s  total %14s MB/s\n", stamp, p.name, mb[0], mb[1],
				   mb[2]);
		}
		if (ro->format == REPORT_JSON && bw_part(r, b, interval, now, 0, box, &p))
			out_puts(o, "]");
	}
}

void report_bw_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
			uint64_t now)
{
	char stamp[32], col[40];
	struct bw b;

	bw_window(r, true, now, &b);
	fmt_seconds(stamp, sizeof(stamp), ticks_ns(hw, now - r->t_start));
	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"interval\":%s", stamp);
		iv_short_mark(o, ro, hw, r, now, stamp);
		out_printf(o, ",\"%s\":\"%s\",", r->free_pmu, mode_word(hw));
		bw_json(o, hw, "read", b.rd, b.ticks, true, true);
		bw_json(o, hw, "write", b.wr, b.ticks, true, true);
		bw_json(o, hw, "total", b.rd + b.wr, b.ticks, true, false);
		bw_parts(o, ro, hw, r, &b, true, now, "");
		out_puts(o, "}\n");
		return;
	}
	iv_short_mark(o, ro, hw, r, now, stamp);
	if (ro->format == REPORT_HUMAN)
		fmt_snprintf(col, sizeof(col), "%14s  ", stamp);
	else
		fmt_snprintf(col, sizeof(col), "%s", stamp);
	bw_line(o, ro, hw, col, "read", b.rd, b.ticks);
	bw_line(o, ro, hw, col, "write", b.wr, b.ticks);
	bw_line(o, ro, hw, col, "total", b.rd + b.wr, b.ticks);
	bw_parts(o, ro, hw, r, &b, true, now, col);
}

void report_bw_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		     const struct run_extras *x)
{
	char secs[32], mhz[32], pct[16];
	struct bw b;
	uint64_t ns = ticks_ns(hw, count_enabled(r)), req = 0;

	bw_window(r, false, 0, &b);
	for (unsigned k = 0; k < b.nreq; k++)
		req += b.req[k];
	fmt_seconds(secs, sizeof(secs), ns);
	fmt_fixed(mhz, sizeof(mhz), hw->tick_hz, 1000000, 3);

	if (ro->format == REPORT_JSON) {
		out_printf(o, "{\"tool\":\"uncore.efi\",\"command\":\"bw\",\"%s\":\"%s\",\"emulator\":", r->free_pmu,
			   mode_word(hw));
		if (hw->emulator)
			out_json_str(o, hw->emulator);
		else
			out_puts(o, "null");
		out_puts(o, ",\"counters\":");
		out_json_str(o, r->where);
		out_printf(o, ",\"elapsed_ns\":%lu,\"tsc_hz\":%lu,", (unsigned long)ns, (unsigned long)hw->tick_hz);
		bw_json(o, hw, "read", b.rd, b.ticks, moved(r, b.ird), true);
		bw_json(o, hw, "write", b.wr, b.ticks, moved(r, b.iwr), true);
		bw_json(o, hw, "total", b.rd + b.wr, b.ticks, moved(r, b.ird) || moved(r, b.iwr),
			true);
		out_puts(o, "\"requests\":{");
		for (unsigned k = 0; k < b.nreq; k++) {
			fmt_pct(pct, sizeof(pct), b.req[k], req);
			out_printf(o, "%s\"%s\":{\"count\":%lu,\"share_pct\":%s}", k ? "," : "",
				   r->ev[b.ireq[k]].v.short_name, (unsigned long)b.req[k], req ? pct : "null");
		}
		out_printf(o, "},\"max_guaranteed_mb_per_s\":%lu", (unsigned long)report_dram_max_mb_s(r, 100));
		bw_parts(o, ro, hw, r, &b, false, 0, "");
		json_close(o, x);
		return;
	}
	if (ro->format == REPORT_CSV) {
		if (!ro->intervals)
			print_rows(o, ro, hw, r, false, 0, "");
		bw_line(o, ro, hw, "", "read", b.rd, b.ticks);
		bw_line(o, ro, hw, "", "write", b.wr, b.ticks);
		bw_line(o, ro, hw, "", "total", b.rd + b.wr, b.ticks);
		bw_parts(o, ro, hw, r, &b, false, 0, "");
		out_printf(o, "# elapsed %s s, TSC %s MHz\n", secs, mhz);
		if (has_extras(x))
			extras_text(o, ro, hw, r, x);
		return;
	}
	if (ro->intervals)
		out_puts(o, "total:\n");
	for (int k = 0; k < 2; k++) {
		int i = k ? b.iwr : b.ird;
		if (!moved(r, i))
			out_printf(o, "%-6s %s did not change: stuck, or no DRAM traffic; no bandwidth\n", k ? "write" : "read",
				   i < 0 ? "(no counter)" : r->ev[i].name);
		else
			bw_line(o, ro, hw, "", k ? "write" : "read", k ? b.wr : b.rd, b.ticks);
	}
	if (moved(r, b.ird) && moved(r, b.iwr))
		bw_line(o, ro, hw, "", "total", b.rd + b.wr, b.ticks);
	bw_parts(o, ro, hw, r, &b, false, 0, "");
	if (b.nreq) {
		out_printf(o, "requests:");
		for (unsigned k = 0; k < b.nreq; k++) {
			fmt_pct(pct, sizeof(pct), b.req[k], req);
			out_printf(o, "  %s %lu (%s%%)", r->ev[b.ireq[k]].v.short_name, (unsigned long)b.req[k], req ? pct : "-");
		}
		out_puts(o, "\n");
		if (r->req_note[0])
			out_printf(o, "  (%s)\n", r->req_note);
	}
	out_printf(o, "elapsed: %s s measured (%lu TSC ticks at %s MHz); sampled every 100 ms at most: ", secs,
		   (unsigned long)count_enabled(r), mhz);
	if (report_dram_can_wrap(r, hw, 100))
		out_printf(o, "exact up to %lu MB/s per counter\n", (unsigned long)report_dram_max_mb_s(r, 100));
	else
		out_printf(o, "the %u-bit counters cannot wrap between samples at any real bandwidth\n", dram_width(r));
	if (has_extras(x))
		extras_text(o, ro, hw, r, x);
}

/* ---- the DRAM counters as rates ---- */

bool report_dram_rates(const struct count_run *r, const struct hw *hw, bool interval, uint64_t now,
		       uint64_t ret_bps[3])
{
	struct bw b;

	bw_window(r, interval, now, &b);
	if (b.ird < 0 || b.iwr < 0 || !b.ticks)
		return false;
	/* each as bw_line computes it, so a figure never differs from the table's */
	ret_bps[0] = report_bps(b.rd, b.ticks, hw->tick_hz);
	ret_bps[1] = report_bps(b.wr, b.ticks, hw->tick_hz);
	ret_bps[2] = report_bps(b.rd + b.wr, b.ticks, hw->tick_hz);
	return true;
}

bool report_dram_part(const struct count_run *r, unsigned k, bool box, struct report_part *p)
{
	struct bw b;

	bw_window(r, false, 0, &b);
	return bw_boxed(r, &b) && bw_part(r, &b, false, 0, k, box, p);
}

bool report_dram_moved(const struct count_run *r, bool write)
{
	return moved(r, count_find_role(r, write ? PMU_ROLE_DRAM_WRITE : PMU_ROLE_DRAM_READ));
}

bool report_dram_rate(const struct count_run *r, const struct hw *hw, bool interval, uint64_t now, uint64_t *ret_bps)
{
	uint64_t bps[3];

	if (!report_dram_rates(r, hw, interval, now, bps))
		return false;
	*ret_bps = bps[2];
	return true;
}
