/* `bw`: the five IMC counters as bandwidth, and the IMC rate helpers
 * (bytes, rate, the largest rate sampling is sure to measure). */
#include "report_int.h"

#include "imc.h"

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

/* ---- what a run moved: the IMC DATA counters as bytes and rates ---- */

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
