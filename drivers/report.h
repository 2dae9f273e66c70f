/* What `list` and `stat` print: a human table, perf stat's CSV field order
 * (-x SEP), or JSON (-j). */
#ifndef UNC_REPORT_H
#define UNC_REPORT_H

#include <stdbool.h>
#include "fmt.h"
#include "hw.h"
#include "stat.h"

enum report_format { REPORT_HUMAN, REPORT_CSV, REPORT_JSON };

struct report_opts {
	enum report_format format;
	char sep[8];    /* -x */
	bool per_box;   /* --per-box */
	bool intervals; /* -I: lines carry a timestamp */
};

void report_list(struct out *o, bool json);

/* One line saying where the numbers come from (native or emulated MSRs);
 * a comment line in CSV, nothing in JSON (the objects carry it). */
void report_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r);

/* The counts of one interval, ending at tick `now`. */
void report_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		     uint64_t now);

/* The whole run. */
void report_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r);

/* `bw`: a run of the five IMC counters, as bandwidth. */
struct imc;
void report_bw_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		      const struct imc *m);
void report_bw_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
			uint64_t now);
void report_bw_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct stat_run *r,
		     const struct imc *m);

/* The largest DRAM bandwidth per IMC counter that sampling every
 * APP_SAMPLE_MS milliseconds (or faster) is sure to measure, in MB/s. */
uint64_t report_imc_max_mb_s(unsigned sample_ms);

#endif
