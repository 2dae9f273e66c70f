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

/* ---- sampling (stat_sample.c) ---- */

void batch_clear(void);
enum unc_status read_counter(struct stat_run *r, unsigned k, unsigned unit, unsigned box, unsigned idx, uint64_t *v);
enum unc_status read_group(struct stat_run *r, bool free, uint64_t *const *val, uint64_t *ret_now,
			   uint64_t *ret_after, bool *ret_programmed);
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

/* ---- the free-running counters (stat_freerun.c) ---- */

enum unc_status read_free_all(struct stat_run *r, uint64_t *ticks);
enum unc_status free_deltas(struct stat_run *r, uint64_t now);
enum unc_status sample_free_only(struct stat_run *r);

/* ---- multiplexing (stat_mux.c) ---- */

uint64_t next_slice(const struct stat_run *r, uint64_t grid, uint64_t end, uint64_t slice);

#endif
