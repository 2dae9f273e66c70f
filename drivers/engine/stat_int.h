/* The engine's rooms (stat*.c, listed in stat.md) share this; stat.h is
 * what the rest of the tree sees. Nothing outside drivers/engine/stat*.c
 * includes it. */
#ifndef UNC_STAT_INT_H
#define UNC_STAT_INT_H

#include <stdarg.h>

#include "stat.h"

static inline const struct pmu_driver *drv_of(const struct stat_run *r, unsigned k)
{
	return r->pmu[k].p.drv;
}

static inline const struct pmu_unit *unit_of(const struct stat_run *r, unsigned i)
{
	return ev_unit(&r->spec[i]);
}

static inline bool is_free(const struct stat_run *r, unsigned i)
{
	return r->kind[i] == PMU_FREE;
}

/* Whether event i counts while group g is active. */
static inline bool in_group(const struct stat_run *r, unsigned i, unsigned g)
{
	return r->kind[i] != PMU_GENERAL || r->group_of[i] == g;
}

/* Whether reg is an MSR of another package than the running processor's
 * (read in a trip there, hw_msr_read_n_pkg). */
static inline bool reg_remote(const struct hw *hw, struct pmu_reg reg)
{
	return pmu_reg_pkg(reg) != 0 && pmu_reg_pkg(reg) != hw_pkg_here(hw) + 1;
}

static inline uint64_t status_bits(const struct pmu_driver *drv)
{
	uint64_t bits = 0;

	for (unsigned u = 0; u < drv->nunits; u++)
		bits |= drv->units[u].status_bit;
	return bits;
}

/* ---- the run's register access (stat.c) ---- */

/* Sets the run's error line; returns st. */
enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...) UNC_PRINTF(3, 4);
const char *reg_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size);
const char *addr_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size);
enum unc_status raw_read(const struct hw *hw, struct pmu_reg reg, uint64_t *v);
enum unc_status raw_write(const struct hw *hw, struct pmu_reg reg, uint64_t v);
const char *op_name(struct pmu_reg reg, bool write);
enum unc_status rd_failed(struct stat_run *r, unsigned k, struct pmu_reg reg, enum unc_status st);
/* One read of driver k's register; on failure the error line names it. */
enum unc_status rd(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *v);
enum unc_status check_reads(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t want);

extern const struct pmu_io_ops io_ops;

static inline struct pmu_io io_of(struct stat_run *r, unsigned k)
{
	return (struct pmu_io){ &io_ops, r, k, r->hw };
}

/* ---- the journal (stat_journal.c) ---- */

struct stat_saved *saved_of(struct stat_run *r, struct pmu_reg reg);
enum unc_status save(struct stat_run *r, unsigned k, struct pmu_reg reg, bool counter, struct stat_saved **ret);
enum unc_status wr(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t v, bool counter);
enum unc_status snapshot(struct stat_run *r);
enum unc_status box_slots(struct stat_run *r);
enum unc_status restore(struct stat_run *r, enum unc_status st);

/* ---- programming (stat_program.c) ---- */

enum unc_status program(struct stat_run *r, unsigned g);
enum unc_status edge_read(struct stat_run *r, uint64_t *ret_now);
/* Whether a watched register is another package's (watch_group). */
extern bool watch_any_pkg;

/* ---- MSRs of other packages (stat_pkg.c) ---- */

/* Before anything is read: every box of a per-package unit can be reached. */
enum unc_status check_pkgs(struct stat_run *r);
void batch_clear(void);
enum unc_status read_remote(struct stat_run *r);
/* The same at an edge, each counter's edge_t this processor's clock as its
 * trip is posted. */
enum unc_status read_remote_edge(struct stat_run *r);
enum unc_status check_watched(struct stat_run *r);
void pkg_scatter(struct stat_run *r);
bool pkg_plan_fast(struct stat_run *r);
uint64_t *pkg_plan_at(const uint64_t *dst);
enum unc_status pkg_trips(struct stat_run *r);

/* ---- sampling (stat_sample.c) ---- */

/* A watched register w read v (or failed to be read: st). */
enum unc_status watch_failed(struct stat_run *r, unsigned w, enum unc_status st, uint64_t v);
enum unc_status read_counter(struct stat_run *r, unsigned k, unsigned unit, unsigned box, unsigned idx, uint64_t *v);
/* The active group's counters into val's slots, the free-running ones too
 * when free, between two clock reads (*ret_now, *ret_after). */
enum unc_status read_group(struct stat_run *r, bool free, uint64_t *ret_now, uint64_t *ret_after, bool *ret_programmed);
/* A window's first edge read (now: its clock): each box's offset and total
 * kept for edge_end, which at the window's last edge (now) gives each box
 * its count over the window's own time (stat.md, "Each box's window"). */
void edge_begin(struct stat_run *r, uint64_t now);
void edge_end(struct stat_run *r, uint64_t now);
bool read_settled_slow(struct stat_run *r, uint64_t took);

/* Whether a read that took `took` ticks describes one moment: at most 4
 * times the quickest of the run plus read_slack, the run's first read
 * never. */
static inline bool read_settled(struct stat_run *r, uint64_t took)
{
	if (__builtin_expect(took - r->read_best < r->read_span, 1)) /* read_span 0 until a read is known */
		return true;
	return read_settled_slow(r, took);
}

/* ---- a sample's reads, compiled (stat_compile.c) ---- */

/* How a sample reads a counter of the active group, in passes by kind: an
 * MSR on this processor's package, RDPMC, a two-dword counter in PCI
 * space (high, low, high; the low again if the high changed), an MSR of
 * another package (in that package's trip), anything else (read_counter). */
enum { RD_MSR, RD_RDPMC, RD_PCI2, RD_PKG, RD_OTHER, RD_KINDS };

struct stat_rd {
	uint64_t *total;     /* its count: &count_event.total.box[b] */
	uint8_t *moved;      /* &count_event.moved[b] */
	uint64_t keep;       /* the bits a read keeps (the width where a driver's read masks; else all) */
	uint64_t mask;       /* the counter's width: deltas are modulo it */
	uint64_t rate;       /* the event's most per tick, times 2^32, rounded down; 0: judged exactly each time */
	uint64_t wbit;       /* its unit's overflow status bit */
	struct pmu_reg reg;  /* its register (pmu_unit_ctr) */
	uint32_t slot;       /* its values: val[0][slot], last[0][slot] */
	uint32_t index;      /* RD_RDPMC: the index */
	uint16_t box;
	uint8_t pmu, ev;
};

/* A select or control each sample checks (watch_group), on this package:
 * an MSR, a dword in PCI space, or anything else (rd). */
enum { WT_MSR, WT_PCI, WT_OTHER, WT_KINDS };

struct stat_wt {
	const uint64_t *want; /* what the run wrote last: its journal entry's now */
	struct pmu_reg reg;
	unsigned w;           /* its place in watch[] */
};

/* A driver's check as two reads (pmu_ops.check_regs). */
struct stat_chk {
	uint32_t status, ctrl; /* MSRs of this package */
	uint64_t want;         /* what ctrl must read */
	uint64_t sbits;        /* its status bits (status_bits) */
	unsigned pmu;
};

/* A counter of the common sample (sample_fast), its value straight from
 * the list calls' results: 64 bits at src (RD_MSR, RD_RDPMC from msr_val;
 * RD_PKG from val, where read_remote puts it), or, pci set, its high, low
 * and high dwords (RD_PCI2 from pci_val). Its step is held first to bound,
 * its event's most per tick (rate) over a gap (with slack) no longer
 * than the sample's (fast_window): a step beyond it (or a wrap) is held to the
 * sample's own bound (fast_odd). Its select, where it has one in an MSR
 * list, is compared here: sel (in msr_val or watch_val) must read want
 * (else sel is &stat_reads.zero, want 0). */
struct stat_fev {
	uint64_t bound, keep;
	void *src;
	uint64_t *last;    /* &last[0][slot] */
	uint64_t *total;   /* &count_event.total.box[b] */
	uint64_t *running; /* its event's running time (its first box), else &stat_reads.sink */
	const uint64_t *sel;
	uint64_t want;
	uint64_t mask, rate, wbit; /* as struct stat_rd's */
	uint8_t *moved;            /* &count_event.moved[b] */
	uint8_t pmu, pci;
};

/* What sample_fast reads and checks (stat_reads.fk): list calls of
 * MSRs, RDPMC, PCI dwords, trips to other packages; the checks and
 * selects of this package (check_vals), the selects of others
 * (check_watched); two-dword counters. */
enum { FK_MSR = 1, FK_PMC = 2, FK_PCI = 4, FK_REMOTE = 8, FK_CHECK = 16, FK_WATCH_PKG = 32, FK_PCI2 = 64 };

/* A checked MSR of sample_fast's list: msr_val[at] under mask must read want. */
struct stat_cmp {
	uint64_t mask, want;
	uint32_t at;
};

struct stat_reads {
	struct stat_rd *rd;           /* box_slots of room */
	/* sample_fast's lists: where it applies (fast: no driver's check op
	 * called, none frozen, no free-running counter, nothing read by the
	 * driver's read_counter or rd), its counters (box_slots of room), the
	 * 64-bit ones first (nfev64), and its one call per kind in the clock
	 * bracket: MSRs msr[0, nmsr_all) (the checks, the selects, the
	 * counters), RDPMC msr[nmsr_all, + npmc), PCI pci[0, npci_all). */
	struct stat_fev *fev;
	unsigned nfev, nfev64, nmsr_all, npmc, npci_all;
	unsigned fk;                  /* what sample_fast does (FK_ bits) */
	bool fast;
	uint64_t sink, zero;
	uint64_t any_v;               /* status bits and wraps sample_fast found, prev_wrapped between samples */
	/* The checked MSRs no counter's fev compares (the drivers' checks'
	 * controls, the selects, the checks' status: no status bit set), and
	 * the ends of the lists sample_fast walks. */
	struct stat_cmp *cmp;         /* 2 * STAT_MAX_PMUS + saved_room */
	const struct stat_cmp *cmp_end;
	struct stat_fev *fev_end64, *fev_end;
	unsigned ncmp_left;
	bool watch_left;              /* some select of another package is not compared by a fev */
	/* The gaps the bounds are for: gap_lo to gap_lo + gs_span (modulo
	 * 2^64), each below gap_fast (fast_window). */
	uint64_t gap_lo, gs_span;
	/* How stat_sample samples: sample_fast's shape (fast_fn, fast_choose)
	 * once every counter moved, else sample_slow; and the seam's
	 * functions sample_fast calls. */
	enum unc_status (*sample)(struct stat_run *r), (*fast_fn)(struct stat_run *r);
	uint64_t (*ticks)(void *ctx);
	enum unc_status (*msr_n)(void *ctx, const uint32_t *msr, unsigned n, uint64_t *ret_val, unsigned *ret_done);
	enum unc_status (*pmc_n)(void *ctx, const uint32_t *index, unsigned n, uint64_t *ret_val, unsigned *ret_done);
	enum unc_status (*pci_n)(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *ret_val, unsigned *ret_done);
	enum unc_status (*timed_n)(void *ctx, const uint32_t *idx, unsigned nmsr, unsigned npmc, uint64_t *ret_val,
				   uint64_t *ret_ticks); /* the shapes with MSRs and RDPMC alone: one call */
	void *tctx, *msr_ctx, *pmc_ctx, *pci_ctx, *timed_ctx;
	const uint32_t *pmc_idx; /* msr + nmsr_all: the RDPMC indexes, their values at pmc_val */
	uint64_t *pmc_val;
	/* The plan's trip when it has one alone (pkg_plan_fast; pkg_nmsr 0:
	 * pkg_trips makes them): the seam's msr_read_pkg, called straight. */
	enum unc_status (*pkg_n)(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val);
	void *pkg_ctx;
	const uint32_t *pkg_msr;
	uint64_t *pkg_val;
	uint32_t pkg_id;
	unsigned pkg_nmsr;
	/* What the checked registers must read, in the MSRs' list order
	 * (want: the controls of the drivers' checks, then the WT_MSR
	 * selects; ncmp of them) and the PCI selects' (pwant); as
	 * programmed: compile_reads follows every programming. */
	uint32_t *pwant;              /* saved_room */
	unsigned ncmp;
	uint64_t st_v[STAT_MAX_PMUS]; /* the drivers' status, as sample_fast read it */
	uint64_t wr_v[STAT_MAX_PMUS]; /* the units that wrapped in this sample (0 between samples) */
	unsigned end[RD_KINDS];       /* the end of each kind's entries in rd */
	const struct stat_rd *rd_end[RD_KINDS]; /* the same as pointers */
	struct stat_wt *wt;           /* saved_room of room */
	unsigned wend[WT_KINDS];
	const struct stat_wt *wt_end[WT_KINDS];
	unsigned still;               /* entries whose counter has not moved yet */
	bool any;                     /* the group has programmed events (read_group's programmed) */
	uint64_t *running[STAT_MAX_EVENTS]; /* the group's programmed events' running times */
	unsigned nev;
	/* A sample's MSRs of this package, read by one seam call each side
	 * of the clock (hw_msr_read_n): before it, the drivers' checks'
	 * controls (chk[c]'s at c), the WT_MSR selects (to ncmp), the checks'
	 * status (chk[c]'s at ncmp + c; pre_chk / 2 checks, none when
	 * slow_chk), npre in all; from npre, the
	 * RD_MSR counters, then the RD_RDPMC counters' indexes (one
	 * hw_rdpmc_n call). msr_val holds their values in the same places. */
	uint32_t *msr;                /* 2 * STAT_MAX_PMUS + saved_room + box_slots of room */
	uint64_t *msr_val;
	unsigned npre, pre_chk;
	/* Its PCI dwords likewise (hw_pci_read32_n): the WT_PCI selects
	 * [0, npci_pre), then each RD_PCI2 counter's high, low and high
	 * dwords again (read_halves' order). */
	struct pci_dword *pci;        /* saved_room + 3 * box_slots of room */
	uint32_t *pci_val;
	unsigned npci_pre;
	bool prev_wrapped;            /* some r->wrapped_prev is not 0 */
	bool pkg_plan;                /* read_remote's plan is laid out for these lists (stat_pkg.c) */
	struct stat_chk chk[STAT_MAX_PMUS]; /* the drivers' checks a sample makes itself */
	unsigned nchk;
	uint32_t slow_chk;            /* bit k: driver k's check op is called */
	uint64_t sbits[STAT_MAX_PMUS];/* each driver's status bits (status_bits) */
	bool checks;                  /* a driver that programs has a check op */
	bool status;                  /* ... and overflow status bits to explain */
	bool frozen;                  /* a driver in the group is frozen while read (sample_frozen) */
	bool remote;                  /* it reads MSRs of other packages (read_remote) */
	uint64_t slack;               /* tick_hz / 100: what step_limit adds to a gap */
	uint64_t gap_fast;            /* a gap below this brings no counter's bound to its width */
};

/* The compiled reads of the active group (after watch_group). */
void compile_reads(struct stat_run *r);
/* Every bound of the active group judged exactly (step_limit), the
 * counters in the run's order: the first that moved too far is named. */
enum unc_status judge_exact(struct stat_run *r, uint64_t after);

/* ---- the common sample (stat_fast.c), and what it hands to stat_sample.c ---- */

void fast_choose(struct stat_run *r);
enum unc_status check_vals(struct stat_run *r, uint64_t *status, uint64_t *ret_any, bool msr);
enum unc_status sample_all(struct stat_run *r);
enum unc_status sample_slow(struct stat_run *r);
enum unc_status sample_rest(struct stat_run *r, uint64_t now, uint64_t after, bool programmed, uint32_t frozen,
			    uint64_t *status, uint64_t *wrapped, uint64_t any);
enum unc_status read_again(struct stat_run *r, bool free, uint64_t now, uint64_t after, bool programmed, int settled,
			   uint64_t *ret_now, uint64_t *ret_after, bool *ret_programmed);
enum unc_status explain_status(struct stat_run *r, const uint64_t *status, const uint64_t *wrapped);

/* ---- the free-running counters (stat_freerun.c) ---- */

enum unc_status read_free_all(struct stat_run *r, uint64_t *ticks);
enum unc_status free_deltas(struct stat_run *r, uint64_t now);
enum unc_status sample_free_only(struct stat_run *r);

/* ---- multiplexing (stat_mux.c) ---- */

uint64_t next_slice(const struct stat_run *r, uint64_t grid, uint64_t end, uint64_t slice);

/* A sample's reads that failed, made again (stat_sample.c), and its list
 * calls that failed, made again one access at a time (stat_compile.c). */
enum unc_status read_failed(struct stat_run *r, const struct stat_rd *e, uint64_t *v);
enum unc_status check_failed(struct stat_run *r, const struct stat_chk *c, uint64_t *status);
enum unc_status check_msr_slow(struct stat_run *r, uint64_t *status);
/* The watch at a sample (stat_watch.c): the drivers' checks by their
 * check ops where some are called (check_pmus), then check_vals' checks
 * from one list call per kind and the other watched registers one read
 * each (check_list). */
enum unc_status check_pmus(struct stat_run *r, uint64_t *status);
enum unc_status check_list(struct stat_run *r, uint64_t *status, uint64_t *ret_any);
enum unc_status read_one_slow(struct stat_run *r, unsigned kind); /* RD_MSR or RD_RDPMC */
enum unc_status read_pci2_slow(struct stat_run *r);

#endif
