/* The engine's MSRs of other packages (pmu_reg_pkg): that each box of a
 * per-package unit can be reached, and a sample's reads there, gathered
 * and made in one trip to each package (hw_msr_read_n_pkg), with the
 * check of the selects read there. */
#include "stat_int.h"

#include <string.h>

#include "../base/fmt.h"

/* Before anything is read: every box of a per-package unit is on a
 * package a processor of which was found, else one line names it. */
UNC_COLD enum unc_status check_pkgs(struct stat_run *r)
{
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		for (unsigned u = 0; sp->programs && u < sp->p.drv->nunits; u++) {
			const struct pmu_unit *pu = &sp->p.drv->units[u];
			for (unsigned b = 0; pu->per_pkg && b < sp->p.boxes[u]; b++) {
				uint32_t pkg = sp->p.group[u][b];
				char found[64] = "";
				if (hw_pkg_known(r->hw, pkg))
					continue;
				for (unsigned i = 0; i < (r->hw->pkgs ? r->hw->pkgs->n : 1u); i++) {
					size_t n = strlen(found);
					fmt_snprintf(found + n, sizeof(found) - n, "%s%u", i ? ", " : "",
						     r->hw->pkgs ? r->hw->pkgs->id[i] : 0u);
				}
				return fail(r, UNC_E_NOT_FOUND,
					    "%s box %u is on package %u, which no processor reachable here belongs to "
					    "(packages: %s%s)",
					    pu->name, sp->p.box_id[u][b], pkg, found,
					    r->hw->ops->msr_read_pkg ? "" : "; no MP services");
			}
		}
	}
	return UNC_OK;
}

/* A sample's per-package MSR reads, gathered, then made in one trip to
 * each package (hw_msr_read_n_pkg): the running processor's package read
 * here. More than STAT_PKG_BATCH of them take more trips. */
#define STAT_PKG_BATCH 1024
static struct {
	unsigned n;
	struct pmu_reg reg[STAT_PKG_BATCH];
	uint8_t pmu[STAT_PKG_BATCH];
	uint64_t *dst[STAT_PKG_BATCH];
	uint32_t msr[STAT_PKG_BATCH];
	uint64_t val[STAT_PKG_BATCH];
} pkgb;

/* One package's share of the batch in one call; on failure each alone,
 * to name the register. */
static enum unc_status batch_pkg(struct stat_run *r, uint8_t pkg)
{
	static unsigned idx[STAT_PKG_BATCH];
	unsigned n = 0;
	enum unc_status st, trip;

	for (unsigned j = 0; j < pkgb.n; j++)
		if (pmu_reg_pkg(pkgb.reg[j]) == pkg)
			pkgb.msr[n] = (uint32_t)pkgb.reg[j].addr, idx[n++] = j;
	if (!n)
		return UNC_OK;
	if ((trip = hw_msr_read_n_pkg(r->hw, pkg - 1u, pkgb.msr, n, pkgb.val))) {
		for (unsigned j = 0; j < n; j++)
			if ((st = rd(r, pkgb.pmu[idx[j]], pkgb.reg[idx[j]], pkgb.val)))
				return st;
		return rd_failed(r, pkgb.pmu[idx[0]], pkgb.reg[idx[0]], trip); /* the trip failed, each read alone did not */
	}
	for (unsigned j = 0; j < n; j++)
		*pkgb.dst[idx[j]] = pkgb.val[j];
	return UNC_OK;
}

static enum unc_status batch_run(struct stat_run *r)
{
	uint8_t here = (uint8_t)(hw_pkg_here(r->hw) + 1);
	enum unc_status st;

	if ((st = batch_pkg(r, here)))
		return st;
	for (unsigned i = 1; r->hw->pkgs && i < r->hw->pkgs->n; i++)
		if ((st = batch_pkg(r, (uint8_t)(r->hw->pkgs->id[i] + 1))))
			return st;
	pkgb.n = 0;
	return UNC_OK;
}

/* The batch empty (a run's start). */
void batch_clear(void)
{
	pkgb.n = 0;
}

/* reg (pkg set) into *dst at the next batch_run. */
static enum unc_status batch_add(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *dst)
{
	enum unc_status st;

	if (pkgb.n == STAT_PKG_BATCH && (st = batch_run(r)))
		return st;
	pkgb.reg[pkgb.n] = reg, pkgb.pmu[pkgb.n] = (uint8_t)k, pkgb.dst[pkgb.n++] = dst;
	return UNC_OK;
}

/* A sample's reads of other packages (compile_reads: rs->remote): the
 * active group's counters there and the selects watched there, gathered,
 * then made in one trip to each package, each counter masked to its
 * width; read_group makes them inside its clock bracket, after this
 * processor's own reads. */
static enum unc_status read_remote_slow(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t *val = r->val[0];
	enum unc_status st;

	pkgb.n = 0;
	for (const struct stat_rd *e = rs->rd_end[RD_PKG - 1]; e < rs->rd_end[RD_PKG]; e++)
		if ((st = batch_add(r, e->pmu, e->reg, &val[e->slot])))
			return st;
	for (unsigned w = 0; watch_any_pkg && w < r->nwatch; w++) { /* the selects, in the same trip */
		const struct stat_saved *s = &r->saved[r->watch[w]];
		if (reg_remote(r->hw, s->reg) && (st = batch_add(r, s->pmu, s->reg, &r->watch_val[w])))
			return st;
	}
	if ((st = batch_run(r)))
		return st;
	for (const struct stat_rd *e = rs->rd_end[RD_PKG - 1]; e < rs->rd_end[RD_PKG]; e++)
		val[e->slot] &= e->keep;
	return UNC_OK;
}

/* What read_remote_slow gathers, laid out once per programming (until
 * compile_reads clears rs->pkg_plan): each package's MSRs in the order its
 * trip takes them (batch_run's), with where each value goes. */
static struct {
	const struct stat_reads *of; /* the lists it was laid out for */
	unsigned ntrip, n;
	struct {
		uint32_t pkg; /* pmu_reg_pkg's: the package ID + 1 */
		unsigned at, n;
	} trip[HW_MAX_PKGS];
	uint32_t msr[STAT_PKG_BATCH];
	uint64_t *dst[STAT_PKG_BATCH];
	uint64_t val[STAT_PKG_BATCH];
	uint64_t t[STAT_PKG_BATCH]; /* at an edge, each read's time (read_remote_edge) */
} plan;

/* The plan from the batch read_remote_slow gathers; false when it does
 * not fit one trip to each package (read_remote_slow makes them all). */
UNC_COLD static bool make_plan(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t *val = r->val[0];
	unsigned n = 0, total;

	pkgb.n = 0;
	plan.of = NULL;
	for (const struct stat_rd *e = rs->rd_end[RD_PKG - 1]; e < rs->rd_end[RD_PKG]; e++)
		if (pkgb.n < STAT_PKG_BATCH)
			pkgb.reg[pkgb.n] = e->reg, pkgb.dst[pkgb.n++] = &val[e->slot];
		else
			return false;
	for (unsigned w = 0; watch_any_pkg && w < r->nwatch; w++) {
		const struct stat_saved *s = &r->saved[r->watch[w]];
		if (!reg_remote(r->hw, s->reg))
			continue;
		if (pkgb.n == STAT_PKG_BATCH)
			return false;
		pkgb.reg[pkgb.n] = s->reg, pkgb.dst[pkgb.n++] = &r->watch_val[w];
	}
	plan.ntrip = 0;
	total = pkgb.n;
	for (unsigned i = 0; i < (r->hw->pkgs && r->hw->pkgs->n ? r->hw->pkgs->n : 1u); i++) {
		uint32_t pkg = (i ? r->hw->pkgs->id[i] : hw_pkg_here(r->hw)) + 1;
		unsigned at = n;
		for (unsigned j = 0; j < pkgb.n; j++)
			if (pmu_reg_pkg(pkgb.reg[j]) == pkg)
				plan.msr[n] = (uint32_t)pkgb.reg[j].addr, plan.dst[n++] = pkgb.dst[j];
		if (n > at)
			plan.trip[plan.ntrip++] = (typeof(plan.trip[0])){ pkg, at, n - at };
	}
	plan.n = n;
	pkgb.n = 0;
	if (n != total) /* one on no package found here: as read_remote_slow reads it */
		return false;
	plan.of = rs;
	return true;
}

/* The plan's values where they go, each counter masked to its width. */
void pkg_scatter(struct stat_run *r)
{
	const struct stat_reads *rs = r->reads;
	uint64_t *val = r->val[0];

	for (unsigned j = 0; j < plan.n; j++)
		*plan.dst[j] = plan.val[j];
	for (const struct stat_rd *e = rs->rd_end[RD_PKG - 1]; e < rs->rd_end[RD_PKG]; e++)
		val[e->slot] &= e->keep;
}

/* A sample's reads of other packages (compile_reads: rs->remote): the
 * active group's counters there and the selects watched there, in one
 * trip to each package as the plan lays them out, each counter masked to
 * its width; read_group makes them inside its clock bracket, after this
 * processor's own reads. A trip that fails is made again as
 * read_remote_slow makes it, which names the register. */
enum unc_status read_remote(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;

	if ((!rs->pkg_plan || plan.of != rs) && !(rs->pkg_plan = make_plan(r)))
		return read_remote_slow(r);
	for (unsigned t = 0; t < plan.ntrip; t++)
		if (hw_msr_read_n_pkg(r->hw, plan.trip[t].pkg - 1u, plan.msr + plan.trip[t].at, plan.trip[t].n,
				      plan.val + plan.trip[t].at))
			return read_remote_slow(r);
	pkg_scatter(r);
	return UNC_OK;
}

/* read_remote at an edge: each counter's edge_t the time that package's
 * processor read it (the seam's msr_read_pkg_t), where that time lies
 * between this processor's clock readings as its trip is posted and as
 * it comes back (one clock on both: a board's TSCs, QEMU's vCPUs'); else
 * this processor's clock as its trip is posted (all of
 * read_remote_slow's: before them). A trip taken late (its processor
 * busy, or a vCPU not scheduled) is then timed as read, not as posted. */
UNC_COLD enum unc_status read_remote_edge(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;
	const struct hw *hw = r->hw;
	uint64_t *slot0 = r->val[0], posted, back;
	bool slow = (!rs->pkg_plan || plan.of != rs) && !(rs->pkg_plan = make_plan(r));

	for (unsigned t = 0; !slow && t < plan.ntrip; t++) {
		unsigned at = plan.trip[t].at, n = plan.trip[t].n;
		uint32_t pkg = plan.trip[t].pkg - 1u;
		bool stamped = hw->ops->msr_read_pkg_t && pkg != hw_pkg_here(hw) && hw_pkg_known(hw, pkg);
		posted = hw_ticks(hw);
		slow = (stamped ? hw->ops->msr_read_pkg_t(hw->ctx, pkg, plan.msr + at, n, plan.val + at, plan.t + at)
				: hw_msr_read_n_pkg(hw, pkg, plan.msr + at, n, plan.val + at)) != UNC_OK;
		back = hw_ticks(hw);
		for (unsigned j = at; j < at + n; j++)
			if (plan.dst[j] >= slot0 && plan.dst[j] < slot0 + r->box_slots) /* a counter, not a select */
				r->edge_t[plan.dst[j] - slot0] =
					stamped && plan.t[j] - posted <= back - posted ? plan.t[j] : posted;
	}
	if (!slow) {
		pkg_scatter(r);
		return UNC_OK;
	}
	posted = hw_ticks(hw);
	for (const struct stat_rd *e = rs->rd_end[RD_PKG - 1]; e < rs->rd_end[RD_PKG]; e++)
		r->edge_t[e->slot] = posted;
	return read_remote_slow(r);
}

/* For sample_fast (compile_fast): the plan laid out for these lists, each
 * of its trips to another package whose processor is reachable; false
 * otherwise. */
UNC_COLD bool pkg_plan_fast(struct stat_run *r)
{
	struct stat_reads *rs = r->reads;

	rs->pkg_nmsr = 0;
	if (!(rs->pkg_plan = make_plan(r)) || !r->hw->ops->msr_read_pkg)
		return false;
	for (unsigned t = 0; t < plan.ntrip; t++)
		if (plan.trip[t].pkg - 1u == hw_pkg_here(r->hw) || !hw_pkg_known(r->hw, plan.trip[t].pkg - 1u))
			return false;
	if (plan.ntrip == 1) /* sample_fast calls the seam itself */
		rs->pkg_n = r->hw->ops->msr_read_pkg, rs->pkg_ctx = r->hw->ctx, rs->pkg_id = plan.trip[0].pkg - 1u,
		rs->pkg_msr = plan.msr + plan.trip[0].at, rs->pkg_val = plan.val + plan.trip[0].at,
		rs->pkg_nmsr = plan.trip[0].n;
	return true;
}

/* Where the plan's trip puts the value that goes to dst (NULL: none). */
UNC_COLD uint64_t *pkg_plan_at(const uint64_t *dst)
{
	for (unsigned j = 0; j < plan.n; j++)
		if (plan.dst[j] == dst)
			return &plan.val[j];
	return NULL;
}

/* The plan's trips alone (pkg_plan_fast), their values left in the plan
 * (pkg_plan_at): UNC_OK, or a trip failed (read_remote says which). */
enum unc_status pkg_trips(struct stat_run *r)
{
	const struct hw *hw = r->hw;

	for (unsigned t = 0; t < plan.ntrip; t++)
		if (hw->ops->msr_read_pkg(hw->ctx, plan.trip[t].pkg - 1u, plan.msr + plan.trip[t].at, plan.trip[t].n,
					  plan.val + plan.trip[t].at))
			return UNC_E_FAULT;
	return UNC_OK;
}

/* The same for the watched registers of other packages, read in the
 * sample's trip there (read_group). */
enum unc_status check_watched(struct stat_run *r)
{
	for (unsigned w = 0; w < r->nwatch; w++) {
		const struct stat_saved *s = &r->saved[r->watch[w]];
		if (reg_remote(r->hw, s->reg) && r->watch_val[w] != s->now)
			return watch_failed(r, w, UNC_OK, r->watch_val[w]);
	}
	return UNC_OK;
}
