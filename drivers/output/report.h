/* What `list` and `stat` print: a human table, perf stat's CSV field order
 * (-x SEP), or JSON (-j). */
#ifndef UNC_REPORT_H
#define UNC_REPORT_H

#include <stdbool.h>
#include "../base/fmt.h"
#include "../base/hw.h"
#include "../engine/counts.h"

enum report_format { REPORT_HUMAN, REPORT_CSV, REPORT_JSON };

struct report_opts {
	enum report_format format;
	char sep[8];    /* -x */
	bool per_box;   /* --per-box */
	bool intervals; /* -I: lines carry a timestamp */
};

/* `list`: the events of the drivers given (NULL-terminated), grouped by
 * PMU; `all` says they are every driver's, not only this CPU's. With hw
 * (this CPU's drivers), each event's counters are those this CPU has (the
 * counters_here op: the architectural PMU's count from CPUID). */
struct pmu_driver;
void report_list(struct out *o, bool json, const struct pmu_driver *const *drivers, bool all, const struct hw *hw);

/* One line saying where the numbers come from (native or emulated MSRs);
 * a comment line in CSV, nothing in JSON (the objects carry it). */
void report_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r);

/* The counts of one interval, ending at tick `now`. */
void report_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		     uint64_t now);

/* The whole run, then its extras (x may be NULL). JSON prints one object
 * with the extras inside; under -I the interval objects before it make the
 * output JSON Lines, one object a line. */
struct run_extras;
void report_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		  const struct run_extras *x);

/* `bw`: the DRAM counters as bandwidth, the request counters as shares. */
void report_bw_header(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r);
void report_bw_interval(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
			uint64_t now);
void report_bw_final(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		     const struct run_extras *x);

/* What a run may carry besides counts (issue: measure something): the
 * built-in load, the SMBIOS peak, a bandwidth check, a child image. One
 * printer serves the console and stored records. */
enum check_kind { CHECK_NONE, CHECK_TOTAL, CHECK_READ, CHECK_WRITE };
/* A run stopped early (ESC) is neither passed nor failed: it has no verdict. */
enum check_verdict { VERDICT_FAIL, VERDICT_PASS, VERDICT_NONE };

struct run_extras {
	/* --load */
	uint8_t load_kind;  /* enum load_kind + 1; 0: no load */
	uint8_t load_nt;
	uint32_t load_cpus;
	uint8_t core_one_cpu; /* core PMU events counted on one processor of the load's load_cpus */
	uint64_t load_size; /* bytes, all arrays */
	uint64_t load_bytes;/* moved in the measured window, STREAM's way */
	/* SMBIOS type 17 */
	uint64_t peak_mb_s; /* 0: unknown */
	char peak_note[200];
	/* --min-bw and friends */
	uint8_t check;      /* enum check_kind */
	uint64_t check_required_kb_s, check_measured_kb_s; /* 10^3 bytes/s */
	uint8_t check_verdict; /* enum check_verdict */
	/* -- child */
	char child[200];
	uint32_t child_status_lo, child_status_hi; /* its EFI_STATUS, decoded from the Shell's form */
	uint8_t child_ran;  /* enum child_outcome */
	/* a reading that cannot be right as it stands (above the SMBIOS peak) */
	char warning[200];
};

/* What became of a child: it ran and the Shell gave its status, or it ran
 * and the Shell gave none (a script that ran no command). */
enum child_outcome { CHILD_NONE, CHILD_RAN, CHILD_NO_STATUS };

/* DRAM read and write bytes of a run with the DRAM counters (else false). */
bool report_dram_bytes(const struct count_run *r, uint64_t *ret_read, uint64_t *ret_write);

/* Read+write bytes per second of the DRAM counters, over the whole run
 * or (interval) the window since the last mark ending at now; false when
 * the run has no DRAM counters or no time. */
bool report_dram_rate(const struct count_run *r, const struct hw *hw, bool interval, uint64_t now, uint64_t *ret_bps);

/* The same for read, write and read+write apart (bytes per second, in that
 * order), each as the bw table computes its figure. */
bool report_dram_rates(const struct count_run *r, const struct hw *hw, bool interval, uint64_t now,
		       uint64_t ret_bps[3]);

/* Bytes per second of `lines` 64-byte lines over ticks (0 without ticks):
 * bw's figures, which it prints in MB/s rounded to three decimals. */
uint64_t report_bps(uint64_t lines, uint64_t ticks, uint64_t hz);

/* bw's rows of the DRAM traffic below the total, over the whole run: part
 * k (box false: a group of boxes, a socket; true: a box, a channel, or a
 * memory controller of free-running counters) with its lines read and
 * written; false past the last, or when the DRAM counters have no parts. */
struct report_part {
	char name[32];  /* as bw prints it: "socket1", "socket1.ch2", "mc0" */
	uint64_t rd, wr;
	int group, id;  /* its group (socket) and its number in it; -1: none */
};
bool report_dram_part(const struct count_run *r, unsigned k, bool box, struct report_part *p);
/* Whether the DRAM read (write) counters moved, so that bw printed a figure. */
bool report_dram_moved(const struct count_run *r, bool write);

/* An event's count per second over ticks, in thousandths (the stat
 * table's rate/s has three decimals). */
uint64_t report_rate_milli(uint64_t count, uint64_t ticks, uint64_t hz);

/* The largest DRAM bandwidth per DRAM counter that sampling every
 * sample_ms milliseconds (or faster) is sure to measure, in MB/s: half the
 * counter's range of 64-byte lines in that time. */
uint64_t report_dram_max_mb_s(const struct count_run *r, unsigned sample_ms);
/* Whether that limit is one some memory could reach (report_bw.c says
 * why): false for 48 and 64 bits, whose counters cannot wrap between two
 * samples at any real bandwidth. */
bool report_dram_can_wrap(const struct count_run *r, const struct hw *hw, unsigned sample_ms);

#endif
