/* What the report files share: the time and percent formats, the rows of
 * a stat window (bw's CSV prints them too) and the extras printers. Internal
 * to drivers/report_*.c; report.h is the interface. */
#ifndef UNC_REPORT_INT_H
#define UNC_REPORT_INT_H

#include "../base/arith.h"
#include "report.h"

#define NS_PER_S 1000000000ull

static inline uint64_t ticks_ns(const struct hw *hw, uint64_t ticks)
{
	return u64_muldiv(ticks, NS_PER_S, hw->tick_hz);
}

/* part / whole in percent, two decimals; a share (cap) never exceeds 100. */
static inline void pct_text(char *buf, size_t size, uint64_t part, uint64_t whole, bool cap)
{
	uint64_t c = whole ? u64_muldiv(part, 10000, whole) : 0;

	if (cap && c > 10000)
		c = 10000;
	fmt_snprintf(buf, size, "%lu.%02lu", (unsigned long)(c / 100), (unsigned long)(c % 100));
}

static inline void fmt_pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	pct_text(buf, size, part, whole, true);
}

static inline void fmt_seconds(char *buf, size_t size, uint64_t ns)
{
	fmt_snprintf(buf, size, "%lu.%09lu", (unsigned long)(ns / NS_PER_S), (unsigned long)(ns % NS_PER_S));
}

/* Every row of a window: the sums, and with --per-box each CBo too
 * (report_stat.c). */
void print_rows(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		bool interval, uint64_t now, const char *stamp);

/* Under -I, the interval the run's end cut short (count_run.iv_short),
 * marked with its length: in JSON the member ,"shorter_interval_s":S (after
 * "interval"); otherwise a line before its rows (CSV: a # comment). Prints
 * nothing for any other interval (report_stat.c). */
void iv_short_mark(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		   uint64_t now, const char *stamp);

/* The extras (report_extras.c): whether x carries any; the text lines; and
 * the end of a final JSON object, the extras inside it. */
bool has_extras(const struct run_extras *x);
void extras_text(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		 const struct run_extras *x);
void json_close(struct out *o, const struct run_extras *x);

#endif
