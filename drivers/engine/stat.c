/* The engine. It knows units, address spaces and ops (pmu.h), never a
 * particular PMU. */
#include "stat.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/fmt.h"
#include "../base/parse.h"
#include "../base/pool.h"

/* How many times, at most, a read at the run's start or end is taken
 * (read_group): under a host that preempts the vCPU often, a few more
 * reads find one a delay did not hit. */
#define STAT_EDGE_READS 16

static enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...) UNC_PRINTF(3, 4);
UNC_COLD static enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return st;
}


static const struct pmu_driver *drv_of(const struct stat_run *r, unsigned k)
{
	return r->pmu[k].p.drv;
}

static const struct pmu_unit *unit_of(const struct stat_run *r, unsigned i)
{
	return ev_unit(&r->spec[i]);
}

/* "NAME (0x706)": the driver's name for the register, then its address */
UNC_COLD static const char *reg_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size)
{
	char name[48], addr[32];

	fmt_snprintf(buf, size, "%s (%s)", pmu_reg_name(drv_of(r, k), &r->pmu[k].p, reg, name, sizeof(name)),
		     pmu_reg_addr(reg, addr, sizeof(addr)));
	return buf;
}

/* "0x706 (NAME)": after an instruction's name */
UNC_COLD static const char *addr_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size)
{
	char name[48], addr[32];

	fmt_snprintf(buf, size, "%s (%s)", pmu_reg_addr(reg, addr, sizeof(addr)),
		     pmu_reg_name(drv_of(r, k), &r->pmu[k].p, reg, name, sizeof(name)));
	return buf;
}

/* One access in the register's address space; PCI and MMIO are 32 bits. */
static enum unc_status raw_read(const struct hw *hw, struct pmu_reg reg, uint64_t *v)
{
	uint32_t x;
	enum unc_status st;

	switch (reg.space) {
	case PMU_MSR:
		return pmu_msr_read(hw, reg, v);
	case PMU_PCI:
		if ((st = hw_pci_read32(hw, reg.pci, (uint16_t)reg.addr, &x)) == UNC_OK)
			*v = x;
		return st;
	default:
		if ((st = hw_mmio_read32(hw, reg.addr, &x)) == UNC_OK)
			*v = x;
		return st;
	}
}

static enum unc_status raw_write(const struct hw *hw, struct pmu_reg reg, uint64_t v)
{
	switch (reg.space) {
	case PMU_MSR:
		return pmu_msr_write(hw, reg, v);
	case PMU_PCI:
		if (v >> 32)
			return UNC_E_RANGE;
		return hw_pci_write32(hw, reg.pci, (uint16_t)reg.addr, (uint32_t)v);
	default:
		if (v >> 32)
			return UNC_E_RANGE;
		return hw_mmio_write32(hw, reg.addr, (uint32_t)v);
	}
}

static const char *op_name(struct pmu_reg reg, bool write)
{
	if (reg.space == PMU_MSR)
		return write ? "wrmsr" : "rdmsr";
	if (reg.space == PMU_PCI)
		return write ? "PCI write" : "PCI read";
	return write ? "MMIO write" : "MMIO read";
}

UNC_COLD static __attribute__((noinline)) enum unc_status rd_failed(struct stat_run *r, unsigned k, struct pmu_reg reg,
							     enum unc_status st)
{
	char what[96];

	return fail(r, st, "%s %s: %s", op_name(reg, false), addr_text(r, k, reg, what, sizeof(what)),
		    unc_strerror(st));
}

static enum unc_status rd(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *v)
{
	enum unc_status st = raw_read(r->hw, reg, v);

	return st ? rd_failed(r, k, reg, st) : UNC_OK;
}

/* ---- MSRs of other packages (pmu_reg_pkg) ---- */

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

/* reg (pkg set) into *dst at the next batch_run. */
static enum unc_status batch_add(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *dst)
{
	enum unc_status st;

	if (pkgb.n == STAT_PKG_BATCH && (st = batch_run(r)))
		return st;
	pkgb.reg[pkgb.n] = reg, pkgb.pmu[pkgb.n] = (uint8_t)k, pkgb.dst[pkgb.n++] = dst;
	return UNC_OK;
}

/* Before anything is read: every box of a per-package unit is on a
 * package a processor of which was found, else one line names it. */
UNC_COLD static enum unc_status check_pkgs(struct stat_run *r)
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

static struct stat_saved *saved_of(struct stat_run *r, struct pmu_reg reg)
{
	for (unsigned i = 0; i < r->nsaved; i++)
		if (pmu_reg_eq(r->saved[i].reg, reg))
			return &r->saved[i];
	return NULL;
}

/* The journal: a register's value as found, read before its first write
 * (snapshot() reads all the run will write before any write). A register
 * that cannot be read is not written. */
static enum unc_status save(struct stat_run *r, unsigned k, struct pmu_reg reg, bool counter, struct stat_saved **ret)
{
	uint64_t old;
	enum unc_status st;

	if ((*ret = saved_of(r, reg)))
		return UNC_OK;
	if (r->nsaved == r->saved_room)
		return fail(r, UNC_E_INVALID, "the run would write more than the %u registers its journal was sized for "
					      "(twice those of its units' boxes, and 16)", r->saved_room);
	if ((st = rd(r, k, reg, &old)))
		return st;
	*ret = &r->saved[r->nsaved++];
	**ret = (struct stat_saved){ .reg = reg, .pmu = (uint8_t)k, .value = old, .counter = counter };
	return UNC_OK;
}

static enum unc_status wr(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t v, bool counter)
{
	char what[96];
	struct stat_saved *s;
	enum unc_status st;

	if ((st = save(r, k, reg, counter, &s)))
		return st;
	st = raw_write(r->hw, reg, v);
	if (st)
		return fail(r, st, "%s %s value 0x%lx: %s", op_name(reg, true), addr_text(r, k, reg, what, sizeof(what)),
			    (unsigned long)v, unc_strerror(st));
	s->dirty = true;
	s->now = v;
	if (r->tracking && r->nbox_wrote < sizeof(r->box_wrote) / sizeof(r->box_wrote[0]))
		r->box_wrote[r->nbox_wrote++] = (uint16_t)(s - r->saved);
	return UNC_OK;
}

/* ---- the access the drivers' ops get (pmu.h) ---- */

static enum unc_status io_read(struct pmu_io *io, struct pmu_reg reg, uint64_t *v)
{
	return rd(io->run, io->pmu, reg, v);
}

static enum unc_status io_write(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	return wr(io->run, io->pmu, reg, v, false);
}

static enum unc_status io_write_nosave(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	struct stat_run *r = io->run;
	char what[96];
	enum unc_status st = raw_write(r->hw, reg, v);

	if (st)
		return fail(r, st, "%s %s value 0x%lx: %s", op_name(reg, true), addr_text(r, io->pmu, reg, what, sizeof(what)),
			    (unsigned long)v, unc_strerror(st));
	return UNC_OK;
}

/* Reads back what was just written. Some platforms drop writes to these
 * registers without a fault (QEMU does; a locked PMU might): counting
 * there would report zeros as if they were measurements. */
UNC_COLD static enum unc_status check_reads(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t want)
{
	char what[96];
	uint64_t v;
	enum unc_status st = rd(r, k, reg, &v);

	if (st)
		return st;
	if (v != want)
		return fail(r, UNC_E_DEVICE, "%s reads 0x%lx after writing 0x%lx: the %s ignored the programming",
			    reg_text(r, k, reg, what, sizeof(what)), (unsigned long)v, (unsigned long)want,
			    drv_of(r, k)->what);
	return UNC_OK;
}

UNC_COLD static enum unc_status io_write_check(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	enum unc_status st = io_write(io, reg, v);

	return st ? st : check_reads(io->run, io->pmu, reg, v);
}

UNC_COLD static enum unc_status io_vfail(struct pmu_io *io, enum unc_status st, const char *fmt, va_list ap)
{
	struct stat_run *r = io->run;

	fmt_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	return st;
}

UNC_COLD static enum unc_status io_set_found(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	struct stat_saved *s;
	enum unc_status st = save(io->run, io->pmu, reg, false, &s);

	if (!st)
		s->value = v, s->dirty = true;
	return st;
}

static const struct pmu_io_ops io_ops = { io_read, io_write, io_write_nosave, io_write_check, io_vfail, io_set_found };

static struct pmu_io io_of(struct stat_run *r, unsigned k)
{
	return (struct pmu_io){ &io_ops, r, k, r->hw };
}

/* ---- the events ---- */

static bool is_free(const struct stat_run *r, unsigned i)
{
	return r->kind[i] == PMU_FREE;
}

/* Whether event i counts while group g is active. */
static bool in_group(const struct stat_run *r, unsigned i, unsigned g)
{
	return r->kind[i] != PMU_GENERAL || r->group_of[i] == g;
}

/* Whether driver k has programmed counters in the active group. */
static bool programs_in_group(const struct stat_run *r, unsigned k)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (r->pmu_of[i] == k && !is_free(r, i) && in_group(r, i, r->group))
			return true;
	return false;
}

UNC_COLD bool stat_programs(const struct stat_run *r)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (!is_free(r, i))
			return true;
	return false;
}

UNC_COLD enum unc_status stat_add(struct stat_run *r, const struct ev_spec *e)
{
	/* By what it programs, not by how it is spelled: "cbo/event=0x34,umask=0x8f/"
	 * is UNC_CBO_CACHE_LOOKUP.ANY_MESI, and cbox/ is cbo/. */
	for (unsigned i = 0; i < r->c.nev; i++) {
		const struct ev_spec *old = &r->spec[i];
		if (!evsel_same(old, e))
			continue;
		if (str_ieq(old->name, e->name))
			return fail(r, UNC_E_INVALID, "event '%s' is listed twice", e->name);
		return fail(r, UNC_E_INVALID, "event '%s' is listed twice: it is '%s' (same unit and encoding)", e->name,
			    old->name);
	}
	if (r->c.nev == STAT_MAX_EVENTS)
		return fail(r, UNC_E_INVALID, "too many events (at most %d)", STAT_MAX_EVENTS);
	unsigned k;
	for (k = 0; k < r->npmu && r->pmu[k].p.drv != e->drv; k++)
		;
	if (k == r->npmu) {
		if (r->npmu == STAT_MAX_PMUS)
			return fail(r, UNC_E_INVALID, "events of too many PMU drivers (at most %d)", STAT_MAX_PMUS);
		r->pmu[r->npmu++] = (struct stat_pmu){ .p.drv = e->drv };
	}
	unsigned i = r->c.nev++;
	r->spec[i] = *e;
	r->kind[i] = ev_unit(e)->kind;
	r->pmu_of[i] = (uint8_t)k;
	r->pmu[k].used |= 1u << e->unit;
	r->pmu[k].programs |= ev_unit(e)->kind != PMU_FREE;
	r->c.ev[i] = (struct count_event){ 0 };
	fmt_snprintf(r->c.ev[i].name, sizeof(r->c.ev[i].name), "%s", e->name);
	return UNC_OK;
}

/* The most event i can add per second in one counter: its unit's clock
 * times what the event adds per cycle (pmu.h, clock_hz), or the unit's
 * max_per_sec. */
UNC_COLD static uint64_t event_max_rate(const struct ev_spec *e)
{
	const struct pmu_unit *pu = ev_unit(e);
	unsigned inc = 1;

	if (!pu->clock_hz)
		return pu->max_per_sec;
	for (const struct pmu_inc *x = pu->incs; x && x->max && !e->thr && !e->edge; x++)
		if (x->code == e->code)
			inc = x->max;
	return pu->clock_hz * inc;
}

/* What the reports and records show of event i; its groups and box
 * numbers once the counts have their room (box_places). */
UNC_COLD static void fill_view(struct stat_run *r, unsigned i)
{
	const struct ev_spec *e = &r->spec[i];
	const struct pmu_present *p = &r->pmu[r->pmu_of[i]].p;
	struct count_view *v = &r->c.ev[i].v;

	evsel_view(e, p->boxes[e->unit], v);
	v->width = (uint8_t)pmu_width_of(ev_unit(e), p, e->unit);
}

UNC_COLD static void box_places(struct stat_run *r, unsigned i)
{
	const struct ev_spec *e = &r->spec[i];
	const struct pmu_present *p = &r->pmu[r->pmu_of[i]].p;
	struct count_view *v = &r->c.ev[i].v;

	for (unsigned b = 0; v->group_noun[0] && b < v->nboxes && b < p->room[e->unit]; b++) {
		v->group[b] = p->group[e->unit][b];
		v->box_id[b] = p->box_id[e->unit][b];
	}
}

/* The DRAM counters' PMU and where they are, for bw's header: a unit of
 * free-running DRAM counters, or a general unit whose role events the run
 * has (the driver's where op, else the unit and its boxes). */
UNC_COLD static void dram_where(struct stat_run *r, const struct stat_pmu *sp, unsigned u)
{
	const struct pmu_unit *pu = &sp->p.drv->units[u];

	fmt_snprintf(r->c.free_pmu, sizeof(r->c.free_pmu), "%s", pu->pmu);
	if (pu->req_note)
		fmt_snprintf(r->c.req_note, sizeof(r->c.req_note), "%s", pu->req_note);
	if (sp->p.drv->ops->where)
		sp->p.drv->ops->where(&sp->p, u, r->c.where, sizeof(r->c.where));
	else if (pu->kind == PMU_GENERAL)
		fmt_snprintf(r->c.where, sizeof(r->c.where), "in %u %s box%s of the %s", sp->p.boxes[u], pu->name,
			     sp->p.boxes[u] == 1 ? "" : "es", sp->p.drv->title);
}

/* Whether the run has an event of a DRAM role in unit u of driver k. */
UNC_COLD static bool has_role_event(const struct stat_run *r, unsigned k, unsigned u)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (r->pmu_of[i] == k && r->spec[i].unit == u && evsel_role(&r->spec[i]) != PMU_ROLE_NONE)
			return true;
	return false;
}

UNC_COLD enum unc_status stat_probe(struct stat_run *r, const struct hw *hw, const struct cpu_info *cpu, char *warn,
			   size_t warnsize)
{
	enum unc_status st;

	if (warnsize)
		warn[0] = '\0';
	r->hw = hw;
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		const struct pmu_driver *drv = sp->p.drv;
		const struct pmu_model *m = pmu_match_model(drv, hw, cpu);
		if (!m)
			return fail(r, UNC_E_UNSUPPORTED, "%s family 0x%x model 0x%x is not a %s (see 'uncore.efi info')",
				    cpu->vendor, cpu->family, cpu->model, drv->title);
		sp->p.model = m->name;
		char w[160] = "";
		if ((st = drv->ops->probe(hw, cpu, sp->used, &sp->p, r->err, sizeof(r->err), w, sizeof(w))))
			return st;
		if (w[0] && warnsize) { /* each driver's warning, one after the other */
			size_t n = strlen(warn);
			fmt_snprintf(warn + n, warnsize - n, "%s%s", n ? "; " : "", w);
		}
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			if (sp->p.boxes[u] > pu->max_boxes || pmu_width_of(pu, &sp->p, u) > 64)
				return fail(r, UNC_E_INVALID, "driver %s found %u boxes of %u-bit counters in its %s unit; it "
							      "declares at most %u boxes",
					    drv->name, sp->p.boxes[u], pmu_width_of(pu, &sp->p, u), pu->name, pu->max_boxes);
			if ((pu->probe_addr || pu->group_noun || (pu->space == PMU_PCI && pu->kind != PMU_FREE)) &&
			    sp->p.boxes[u] > sp->p.room[u])
				return fail(r, UNC_E_INVALID, "driver %s found %u boxes in its %s unit but kept the places of %u "
							      "(pmu_present_room)",
					    drv->name, sp->p.boxes[u], pu->name, sp->p.room[u]);
			if ((sp->used & 1u << u) && pu->kind != PMU_GENERAL && sp->p.boxes[u] == 0)
				return fail(r, UNC_E_UNSUPPORTED, "this CPU has no %s %s (driver %s found none)", pu->pmu,
					    pu->kind == PMU_FIXED ? "fixed counter" : "counters", drv->name);
		}
	}
	/* What this CPU cannot count, though its driver is present. */
	for (unsigned i = 0; i < r->c.nev; i++) {
		const struct stat_pmu *sp = &r->pmu[r->pmu_of[i]];
		const struct ev_spec *e = &r->spec[i];
		char why[160];
		if (sp->p.drv->ops->event_ok && ev_unit(e)->kind != PMU_FREE &&
		    !sp->p.drv->ops->event_ok(&sp->p, e->unit, e->code, e->umask, e->thr, why, sizeof(why)))
			return fail(r, UNC_E_UNSUPPORTED, "cannot count %s: %s", e->name, why);
	}
	r->c.programs = stat_programs(r);
	r->c.nboxes = 0;
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		for (unsigned u = 0; u < sp->p.drv->nunits; u++) {
			const struct pmu_unit *pu = &sp->p.drv->units[u];
			if ((sp->used & 1u << u) && (pu->kind == PMU_FREE || has_role_event(r, k, u)))
				dram_where(r, sp, u);
			if (!pu->box_noun || !(sp->p.probed & 1u << u) || r->c.nboxes == COUNT_MAX_BOXINFO)
				continue;
			struct count_boxinfo *b = &r->c.boxes[r->c.nboxes++];
			*b = (struct count_boxinfo){ .n = sp->p.boxes[u], .found = sp->p.found[u] };
			fmt_snprintf(b->noun, sizeof(b->noun), "%s", pu->box_noun);
			fmt_snprintf(b->label, sizeof(b->label), "%s", pu->box_label ? pu->box_label : pu->pmu);
			fmt_snprintf(b->from, sizeof(b->from), "%s", pu->boxes_from ? pu->boxes_from : "the probe");
		}
	}
	for (unsigned i = 0; i < r->c.nev; i++) {
		fill_view(r, i);
		r->max_rate[i] = event_max_rate(&r->spec[i]);
	}
	if (count_room(&r->c))
		return fail(r, UNC_E_NO_MEMORY, "no memory for the counts of the run's boxes");
	for (unsigned i = 0; i < r->c.nev; i++)
		box_places(r, i);
	return UNC_OK;
}

UNC_COLD static unsigned popcount8(uint8_t v)
{
	unsigned n = 0;

	for (; v; v &= (uint8_t)(v - 1))
		n++;
	return n;
}

/* Why events did not fit: each general unit used, its counters and its
 * constraints ("ARB: 2 counters, events 0x80 and 0x83 only counter 0"),
 * cut short (never past buf) when long. */
UNC_COLD static void fit_text(const struct stat_run *r, char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct pmu_driver *drv = drv_of(r, k);
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			if (pu->kind != PMU_GENERAL || !(r->pmu[k].used & 1u << u))
				continue;
			out_printf(&o, "%s%s: %u counters", sb.len ? "; " : "", pu->name, pmu_counters_of(pu, &r->pmu[k].p, u));
			for (const struct pmu_constraint *x = pu->constraints; x && x->counters; x++) {
				bool first = x == pu->constraints || x[-1].counters != x->counters;
				bool last = x[1].counters != x->counters;
				out_printf(&o, "%s0x%02x", first ? ", events " : " and ", x->code);
				if (!last)
					continue;
				out_puts(&o, " only counter");
				unsigned n = 0;
				for (unsigned c = 0; c < 8; c++)
					if (x->counters >> c & 1)
						out_printf(&o, "%s %u", n++ ? "," : "", c);
			}
		}
	}
}

UNC_COLD enum unc_status stat_schedule(struct stat_run *r, bool allow_mux)
{
	/* [group][pmu][unit]: counters taken */
	static uint8_t used[STAT_MAX_GROUPS][STAT_MAX_PMUS][PMU_MAX_UNITS];

	memset(used, 0, sizeof(used));
	if (r->c.nev == 0)
		return fail(r, UNC_E_INVALID, "no events given");
	r->c.ngroups = 1;
	/* Events with a single allowed counter first, so that the flexible
	 * ones do not take it from them. */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < r->c.nev; i++) {
			const struct ev_spec *e = &r->spec[i];
			const struct pmu_unit *pu = ev_unit(e);
			unsigned k = r->pmu_of[i];
			if (pu->kind == PMU_GENERAL && pass == 0 && r->pmu[k].p.boxes[e->unit] == 0)
				return fail(r, UNC_E_UNSUPPORTED, "cannot count %s: %s reports no %s", e->name,
					    pu->boxes_from ? pu->boxes_from : "the probe",
					    pu->box_noun ? pu->box_noun : pu->name);
			/* A fixed counter is the one its event names (bit n of counters
			 * besides EV_COUNTER_FIXED; none: counter 0). */
			uint8_t live = (uint8_t)((1u << pmu_counters_of(pu, &r->pmu[k].p, e->unit)) - 1);
			if (pu->kind == PMU_FIXED && pass == 0) {
				uint8_t which = e->counters & (uint8_t)~EV_COUNTER_FIXED;
				unsigned c = 0;
				while (which && !(which >> c & 1))
					c++;
				if (!(live >> c & 1))
					return fail(r, UNC_E_UNSUPPORTED, "cannot count %s: this CPU's %s PMU has %u fixed counters",
						    e->name, pu->pmu, pmu_counters_of(pu, &r->pmu[k].p, e->unit));
				r->counter[i] = (uint8_t)c;
			}
			if (pu->kind != PMU_GENERAL || (popcount8(e->counters) == 1) != (pass == 0))
				continue;
			if (!(e->counters & live))
				return fail(r, UNC_E_UNSUPPORTED, "cannot count %s: its counters are not on this CPU (the %s PMU has %u)",
					    e->name, pu->pmu, pmu_counters_of(pu, &r->pmu[k].p, e->unit));
			unsigned g;
			for (g = 0; g < STAT_MAX_GROUPS; g++) {
				uint8_t free = e->counters & live & (uint8_t)~used[g][k][e->unit];
				if (!free)
					continue;
				unsigned c = 0;
				while (!(free >> c & 1))
					c++;
				r->counter[i] = (uint8_t)c;
				used[g][k][e->unit] |= (uint8_t)(1u << c);
				r->group_of[i] = g;
				if (g + 1 > r->c.ngroups)
					r->c.ngroups = g + 1;
				break;
			}
			if (g == STAT_MAX_GROUPS)
				return fail(r, UNC_E_INVALID, "too many events to multiplex (at most %d rounds of counters)",
					    STAT_MAX_GROUPS);
		}
	}
	if (r->c.ngroups > 1 && !allow_mux) {
		char why[120];
		fit_text(r, why, sizeof(why));
		return fail(r, UNC_E_INVALID, "the events need %u rounds of counters (%s); without --no-multiplex they take turns",
			    r->c.ngroups, why);
	}
	return UNC_OK;
}

/* ---- programming ---- */

UNC_COLD static uint64_t sel_value(const struct stat_run *r, unsigned i)
{
	const struct pmu_unit *u = unit_of(r, i);

	return evsel_encode(&r->spec[i]) | (u->layout ? u->layout->run_bits : 0);
}

static uint64_t status_bits(const struct pmu_driver *drv)
{
	uint64_t bits = 0;

	for (unsigned u = 0; u < drv->nunits; u++)
		bits |= drv->units[u].status_bit;
	return bits;
}

static enum unc_status read_counter(struct stat_run *r, unsigned k, unsigned unit, unsigned box, unsigned idx,
				    uint64_t *v)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_unit *pu = &sp->p.drv->units[unit];

	if (pu->per_pkg && pu->space == PMU_MSR) { /* one MSR on its package */
		enum unc_status st = rd(r, k, pmu_unit_ctr(pu, &sp->p, unit, box, idx), v);
		if (st == UNC_OK)
			*v &= pmu_width_mask(pmu_width_of(pu, &sp->p, unit));
		return st;
	}
	if (sp->p.drv->ops->read_counter) {
		struct pmu_io io = io_of(r, k);
		return sp->p.drv->ops->read_counter(&io, &sp->p, unit, box, idx, v);
	}
	struct pmu_reg reg = pmu_unit_ctr(pu, &sp->p, unit, box, idx);
	unsigned width = pmu_width_of(pu, &sp->p, unit);
	if (width > 32 && reg.space != PMU_MSR) { /* two dwords, as a free-running counter */
		enum unc_status st = stat_read_reg(r->hw, reg, width, v);
		return st ? rd_failed(r, k, reg, st) : UNC_OK;
	}
	return rd(r, k, reg, v);
}

/* Step 2 for one unit of driver k: its event selects (this group's
 * events, zero on the other counters), read back the first time (while
 * frozen: a driver whose unfreeze sets an enable bit in a select, as the
 * P6's EN in PerfEvtSel0, changes it only after this; once is enough: a
 * PMU that took the first programming takes the rotations too, and the
 * sampling path stays lean). */
UNC_COLD static enum unc_status program_selects(struct stat_run *r, unsigned g, unsigned k, unsigned u)
{
	const struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_unit *pu = &sp->p.drv->units[u];
	enum unc_status st;

	for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++) {
		uint64_t sel = 0;
		for (unsigned i = 0; i < r->c.nev; i++)
			if (r->pmu_of[i] == k && r->spec[i].unit == u && r->group_of[i] == g && r->counter[i] == c)
				sel = sel_value(r, i);
		for (unsigned b = 0; b < sp->p.boxes[u]; b++) {
			struct pmu_reg reg = pmu_unit_sel(pu, &sp->p, u, b, c);
			if ((st = wr(r, k, reg, sel, false)) || (r->verify && sel && (st = check_reads(r, k, reg, sel))))
				return st;
		}
	}
	return UNC_OK;
}

/* Whether the run sets unit u's counters of driver k by writing them
 * (PMU_CTR_WRITE, and none of them ignored a write): else it counts from
 * the values it reads (program). */
static bool writes_counters(const struct stat_run *r, unsigned k, unsigned u)
{
	const struct stat_pmu *sp = &r->pmu[k];

	return sp->p.drv->units[u].ctr_write == PMU_CTR_WRITE && !(sp->ctr_ignored >> u & 1);
}

/* Step 3 for one unit, as its ctr_write says (pmu.h): PMU_CTR_WRITE, its
 * counters to the start value (pmu_start_value), from which the counts are
 * differences: a counter someone else writes then jumps by far more than
 * its events allow. The first time they are read back (with the PMU
 * frozen they stand still): a counter that ignores the write is counted
 * from the value read instead (program), its register is not put back,
 * its unit is not written again, and the run says so once. A
 * PMU_CTR_BOX_RESET unit gets the driver's box reset the first time, as
 * Linux's init_box does; a PMU_CTR_NEVER unit nothing. */
UNC_COLD static enum unc_status reset_counters(struct stat_run *r, unsigned k, unsigned u)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_driver *drv = sp->p.drv;
	const struct pmu_unit *pu = &drv->units[u];
	struct pmu_io io = io_of(r, k);
	uint64_t start = pmu_start_value(pu, &sp->p, u);
	enum unc_status st;

	if (pu->ctr_write == PMU_CTR_BOX_RESET) {
		for (unsigned b = 0; r->verify && drv->ops->reset_box && b < sp->p.boxes[u]; b++)
			if ((st = drv->ops->reset_box(&io, &sp->p, u, b, 0)))
				return st;
		return UNC_OK;
	}
	if (!writes_counters(r, k, u))
		return UNC_OK;
	for (unsigned b = 0; b < sp->p.boxes[u]; b++) {
		unsigned n = pmu_counters_of(pu, &sp->p, u);
		uint32_t ignored = 0; /* bit c: counter c kept its value */
		r->tracking = r->verify;
		r->nbox_wrote = 0;
		if (drv->ops->reset_box) {
			st = drv->ops->reset_box(&io, &sp->p, u, b, start);
		} else {
			st = UNC_OK;
			for (unsigned c = 0; !st && c < n; c++)
				st = wr(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), start, true);
		}
		r->tracking = false;
		if (st)
			return st;
		for (unsigned c = 0; r->verify && c < n; c++) {
			uint64_t v;
			char what[96];
			if ((st = read_counter(r, k, u, b, c, &v)))
				return st;
			if (v == start)
				continue;
			ignored |= 1u << c;
			if (!r->write_note[0])
				fmt_snprintf(r->write_note, sizeof(r->write_note),
					     "%s reads 0x%lx after writing 0x%lx with counting stopped: it ignores writes; "
					     "its unit is counted from the values read",
					     reg_text(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), what, sizeof(what)),
					     (unsigned long)v, (unsigned long)start);
		}
		/* A counter that ignored the write did not change: nothing of it
		 * to put back. The box's reset writes each counter's registers
		 * in counter order, as many each (one MSR, two dwords). */
		unsigned per = n && r->nbox_wrote % n == 0 ? r->nbox_wrote / n : 0;
		for (unsigned i = 0; ignored && i < r->nbox_wrote; i++) {
			uint64_t v;
			struct stat_saved *s = &r->saved[r->box_wrote[i]];
			if (per ? ignored >> (i / per) & 1 : ((st = rd(r, k, s->reg, &v)) == UNC_OK && v != s->now))
				s->dirty = false;
			else if (st)
				return st;
		}
		if (ignored)
			sp->ctr_ignored |= 1u << u;
	}
	return UNC_OK;
}

/* Step 4 for one fixed unit: start its counters that have an event (their
 * controls count nothing while frozen), each through its own control, read
 * back the first time, or through the driver's fixed_start where they
 * share one register. */
UNC_COLD static enum unc_status start_fixed(struct stat_run *r, unsigned k, unsigned u)
{
	struct stat_pmu *sp = &r->pmu[k];
	const struct pmu_driver *drv = sp->p.drv;
	const struct pmu_unit *pu = &drv->units[u];
	struct pmu_io io = io_of(r, k);
	uint8_t mask = 0;
	enum unc_status st;

	for (unsigned i = 0; i < r->c.nev; i++)
		if (r->pmu_of[i] == k && r->spec[i].unit == u)
			mask |= (uint8_t)(1u << r->counter[i]);
	for (unsigned b = 0; mask && b < sp->p.boxes[u]; b++) {
		if (drv->ops->fixed_start) {
			if ((st = drv->ops->fixed_start(&io, &sp->p, u, b, mask)))
				return st;
			continue;
		}
		for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++) {
			struct pmu_reg ctl = pmu_unit_sel(pu, &sp->p, u, b, c);
			uint64_t v = pu->fixed_ctrl | pu->fixed_run_bits;
			if ((mask >> c & 1) &&
			    ((st = wr(r, k, ctl, v, false)) || (r->verify && (st = check_reads(r, k, ctl, v)))))
				return st;
		}
	}
	return UNC_OK;
}

/* Whether a watched register is another package's (read in the sample's
 * trip there into r->watch_val, then checked by check_watched). */
static bool watch_any_pkg;

UNC_COLD static void watch_reg(struct stat_run *r, struct pmu_reg reg)
{
	struct stat_saved *s = saved_of(r, reg);

	if (!s || !s->dirty)
		return;
	for (unsigned w = 0; w < r->nwatch; w++)
		if (&r->saved[r->watch[w]] == s)
			return; /* a control shared by several counters (sel_step 0) is read once */
	r->watch[r->nwatch++] = (unsigned)(s - r->saved);
}

/* What each sample checks: the select of every counter with an event in
 * the active group, and the control of every fixed counter in use, in
 * each box. Not the selects the run set to 0 (a counter it does not read)
 * nor the global registers (the drivers' check reads those). */
UNC_COLD static void watch_group(struct stat_run *r)
{
	r->nwatch = 0;
	watch_any_pkg = false;
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct stat_pmu *sp = &r->pmu[k];
		if (is_free(r, i) || !in_group(r, i, r->group))
			continue;
		for (unsigned b = 0; b < sp->p.boxes[u]; b++)
			watch_reg(r, pmu_unit_sel(unit_of(r, i), &sp->p, u, b, r->counter[i]));
	}
	for (unsigned w = 0; w < r->nwatch; w++)
		watch_any_pkg |= pmu_reg_pkg(r->saved[r->watch[w]].reg) != 0;
}

/* At each sample, before the counters: a select or control that reads
 * otherwise than the run wrote it was cleared or reprogrammed by someone
 * else, and its counter counts something else, or nothing. */
static enum unc_status check_watched(struct stat_run *r, bool pkg_checked)
{
	char what[96];
	uint64_t v;
	enum unc_status st;

	for (unsigned w = 0; w < r->nwatch; w++) {
		const struct stat_saved *s = &r->saved[r->watch[w]];
		if ((pmu_reg_pkg(s->reg) != 0) != pkg_checked)
			continue; /* another package's: read in the sample's trip there (read_group), then checked */
		if (pkg_checked)
			v = r->watch_val[w];
		else if ((st = rd(r, s->pmu, s->reg, &v)))
			return st;
		if (v != s->now)
			return fail(r, UNC_E_CLOBBERED, "%s reads 0x%lx, not the 0x%lx this run wrote: written by someone "
							 "else during the run",
				    reg_text(r, s->pmu, s->reg, what, sizeof(what)), (unsigned long)v, (unsigned long)s->now);
	}
	return UNC_OK;
}

static enum unc_status read_group(struct stat_run *r, bool free, uint64_t *const *val, uint64_t *ret_now,
				  uint64_t *ret_after, bool *ret_programmed);

/* Where the run's counts start: what the first group's counters and the
 * free-running ones read now, with the clock read as a sample reads it, so
 * that a delay after the unfreeze (a preempted vCPU) is not counted without
 * its time, and a short run has a long run's edges. */
/* An edge: the active group's counters and the free-running ones read as
 * the run's first and last reads are (STAT_EDGE_READS), each box's start
 * taken from it; *ret_now the clock read before it. */
UNC_COLD static enum unc_status edge_read(struct stat_run *r, uint64_t *ret_now)
{
	uint64_t after;
	bool programmed;

	r->edge = true;
	enum unc_status st = read_group(r, true, r->val, ret_now, &after, &programmed);

	r->edge = false;
	if (st)
		return st;
	for (unsigned i = 0; i < r->c.nev; i++) {
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		for (unsigned b = 0; b < r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit]; b++)
			r->last[i][b] = r->val[i][b];
	}
	return UNC_OK;
}

UNC_COLD static enum unc_status start_edge(struct stat_run *r)
{
	uint64_t now;
	enum unc_status st = edge_read(r, &now);

	if (st)
		return st;
	for (unsigned j = 0; j < r->nfree; j++)
		r->free_last[j] = r->free_val[j];
	r->t_sample = now;
	return UNC_OK;
}

/* The sequence, for group g: freeze, then for each unit in use its event
 * selects, its counters zeroed and its fixed counters started, then clear
 * the overflow status and unfreeze. The client manual gives the registers
 * but no order: this one follows the Xeon E5-2600 uncore guide's
 * freeze/program/reset/unfreeze and Linux's uncore drivers. */
UNC_COLD static enum unc_status program(struct stat_run *r, unsigned g)
{
	enum unc_status st;

	/* 1. Freeze. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (!sp->programs)
			continue;
		sp->s.first = r->verify;
		if ((st = sp->p.drv->ops->freeze(&io, &sp->p, &sp->s)))
			return st;
	}
	r->counting = false;
	/* 2 to 4, unit by unit. */
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		for (unsigned u = 0; u < sp->p.drv->nunits; u++) {
			uint8_t kind = sp->p.drv->units[u].kind;
			if (kind == PMU_FREE || !(sp->used & 1u << u))
				continue;
			if ((kind == PMU_GENERAL && (st = program_selects(r, g, k, u))) || (st = reset_counters(r, k, u)) ||
			    (kind == PMU_FIXED && (st = start_fixed(r, k, u))))
				return st;
		}
	}
	/* 5. Clear the overflow status. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && sp->p.drv->ops->clear_status &&
		    (st = sp->p.drv->ops->clear_status(&io, &sp->p, &sp->s, status_bits(sp->p.drv))))
			return st;
		r->wrapped_prev[k] = 0;
	}
	/* Where each counter starts is not taken here: the read that follows
	 * every programming (start_edge for the first group, slice_start after
	 * a rotation) gives each box's start, whatever the run wrote (a unit
	 * it does not write counts on from where it was). */
	r->group = g;
	/* 6. Unfreeze. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && (st = sp->p.drv->ops->unfreeze(&io, &sp->p, &sp->s, r->verify)))
			return st;
	}
	r->counting = true;
	r->verify = false;
	watch_group(r);
	/* A rotation's counts start after the unfreeze (the run's first start
	 * is read as a sample: start_free). */
	r->t_sample = hw_ticks(r->hw);
	return UNC_OK;
}

/* Whether the run changed a register of driver k. A freeze writes through
 * the journal, so until then the driver's freeze has not succeeded: its
 * control faulted on write or was never reached, it is not counting for
 * this run, and its state (what to stop it with) is not known. */
UNC_COLD static bool changed_any(const struct stat_run *r, unsigned k)
{
	for (unsigned i = 0; i < r->nsaved; i++)
		if (r->saved[i].pmu == k && r->saved[i].dirty)
			return true;
	return false;
}

/* The run's pool block of stat_start (box_slots): the sampling path's
 * values and the journal, kept after the run (its journal says what was
 * restored) until the next start or stat_free. */
UNC_COLD static void drop_slots(struct stat_run *r)
{
	unc_free(r->box_mem);
	r->box_mem = NULL;
	r->box_slots = 0;
	for (unsigned i = 0; i < STAT_MAX_EVENTS; i++)
		r->last[i] = r->val[i] = r->kept[i] = NULL;
	r->saved = NULL; /* in the same block */
	r->watch = NULL;
	r->watch_val = NULL;
	r->saved_room = r->nsaved = r->nwatch = 0;
}

/* Stops counting, then puts back every register written, in the reverse
 * order of the journal: the snapshot read each driver's global registers
 * first, so a global control goes back last. Registers never written are left alone: a register that faulted on
 * write did not change, and a PMU the run never changed is not stopped. */
UNC_COLD static enum unc_status restore(struct stat_run *r, enum unc_status st)
{
	char what[96];
	enum unc_status rst = UNC_OK;
	int bad = -1;
	unsigned nbad = 0;

	if (r->nsaved == 0) {
		r->counting = false;
		return st;
	}
	/* Each PMU the run wrote to is frozen first (a PMU it never reached
	 * is not written at all). */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		char keep[sizeof(r->err)];
		if (!sp->programs || !changed_any(r, k))
			continue;
		memcpy(keep, r->err, sizeof(keep));
		sp->s.first = false;
		if (sp->p.drv->ops->freeze(&io, &sp->p, &sp->s))
			rst = UNC_E_FAULT;
		memcpy(r->err, keep, sizeof(keep));
	}
	for (unsigned i = r->nsaved; i-- > 0;) {
		struct stat_saved *s = &r->saved[i];
		if (!s->dirty)
			continue;
		if (raw_write(r->hw, s->reg, s->value)) {
			if (bad < 0)
				bad = (int)i;
			nbad++;
			rst = UNC_E_FAULT;
			continue;
		}
		s->dirty = false;
		/* Read back: a register may not take the whole value (a P6 or
		 * architectural counter takes bits 31:0, sign-extended). Said,
		 * never hidden: every one is named (those beyond the note's
		 * room are counted). */
		uint64_t v;
		char line[200];
		size_t n = strlen(r->restore_note);
		if (raw_read(r->hw, s->reg, &v) != UNC_OK || v == s->value)
			continue;
		fmt_snprintf(line, sizeof(line),
			     "%s was 0x%lx before the run and reads 0x%lx after it was put back: the register does not "
			     "take the whole value",
			     reg_text(r, s->pmu, s->reg, what, sizeof(what)), (unsigned long)s->value, (unsigned long)v);
		if (n + 1 + strlen(line) < sizeof(r->restore_note))
			fmt_snprintf(r->restore_note + n, sizeof(r->restore_note) - n, "%s%s", n ? "\n" : "", line);
		else
			r->restore_more++;
	}
	r->counting = false;
	if (rst == UNC_OK)
		return st;
	/* bad < 0: every register went back, but a PMU could not be stopped first */
	char which[140];
	if (bad < 0)
		fmt_snprintf(which, sizeof(which), "the PMU's stopped state (its freeze failed)");
	else
		fmt_snprintf(which, sizeof(which), "%s%s", addr_text(r, r->saved[bad].pmu, r->saved[bad].reg, what, sizeof(what)),
			     nbad > 1 ? " and other registers" : "");
	if (nbad > 1) {
		size_t n = strlen(which);
		fmt_snprintf(which + n, sizeof(which) - n, " (%u in all)", nbad);
	}
	if (st == UNC_OK)
		return fail(r, rst, "cannot restore %s", which);
	size_t n = strlen(r->err);
	fmt_snprintf(r->err + n, sizeof(r->err) - n, "; restoring %s failed too", which);
	return st;
}

UNC_COLD enum unc_status stat_put_back(struct stat_run *r)
{
	return restore(r, UNC_OK);
}

struct busy_fault {
	struct pmu_reg reg;
	bool any;
};

UNC_COLD static void note_busy_fault(void *ctx, struct pmu_reg reg)
{
	struct busy_fault *f = ctx;

	if (!f->any)
		f->reg = reg;
	f->any = true;
}

/* A free-running counter: one read (32-bit MMIO or PCI, or an MSR) of the
 * register start_free found. */
UNC_COLD static __attribute__((noinline)) enum unc_status free_failed(struct stat_run *r, unsigned i, enum unc_status st)
{
	char addr[32];

	return fail(r, st, "%s of %s at %s: %s", op_name(r->free_reg[i], false), r->c.ev[i].name,
		    pmu_reg_addr(r->free_reg[i], addr, sizeof(addr)), unc_strerror(st));
}

/* A counter wider than 32 bits in a 32-bit space (MMIO, PCI) is two
 * halves, the high one at the next dword: high, low, high again, and the
 * low read once more if a carry came between. */
static enum unc_status read_halves(const struct hw *hw, struct pmu_reg reg, uint64_t *v)
{
	struct pmu_reg hi = reg;
	uint64_t h0, h1, lo;
	enum unc_status st;

	hi.addr += 4;
	if ((st = raw_read(hw, hi, &h0)) || (st = raw_read(hw, reg, &lo)) || (st = raw_read(hw, hi, &h1)))
		return st;
	if (h1 != h0 && (st = raw_read(hw, reg, &lo)))
		return st;
	*v = h1 << 32 | (lo & 0xFFFFFFFFull);
	return UNC_OK;
}

enum unc_status stat_read_reg(const struct hw *hw, struct pmu_reg reg, unsigned width, uint64_t *v)
{
	return width > 32 && reg.space != PMU_MSR ? read_halves(hw, reg, v) : raw_read(hw, reg, v);
}

static enum unc_status read_free(struct stat_run *r, unsigned i, uint64_t *v)
{
	enum unc_status st = stat_read_reg(r->hw, r->free_reg[i], r->c.ev[i].v.width, v);

	return st ? free_failed(r, i, st) : UNC_OK;
}

/* The batch failed: each of its counters alone, to name the one that fails. */
UNC_COLD static __attribute__((noinline)) enum unc_status free_batch_failed(struct stat_run *r, enum unc_status st)
{
	uint64_t v;

	for (unsigned j = 0; j < r->nfree_mmio; j++)
		if ((st = read_free(r, r->free_ev[j], &v)))
			return st;
	return free_failed(r, r->free_ev[0], st);
}

/* The free-running counters the batch does not read, one register each. */
static __attribute__((noinline)) enum unc_status read_free_rest(struct stat_run *r)
{
	enum unc_status st;

	for (unsigned j = r->nfree_mmio; j < r->nfree; j++)
		if ((st = read_free(r, r->free_ev[j], &r->free_val[j])))
			return st;
	return UNC_OK;
}

/* Every free-running counter into free_val: the 32-bit MMIO ones by one
 * seam call (ticks[0] and [1]: the clock just before and after them; left
 * alone when there are none), then the others one register each. */
static enum unc_status read_free_all(struct stat_run *r, uint64_t *ticks)
{
	enum unc_status st;

	if (r->nfree_mmio && (st = hw_mmio_read32_n(r->hw, r->free_phys, r->nfree_mmio, r->free_val, ticks)))
		return free_batch_failed(r, st);
	return r->nfree > r->nfree_mmio ? read_free_rest(r) : UNC_OK;
}

/* Every free-running counter into free_val between two clock reads: t[0]
 * before, t[1] after. */
static __attribute__((noinline)) enum unc_status read_free_timed(struct stat_run *r, uint64_t *t)
{
	uint64_t batch[2];
	enum unc_status st;

	t[0] = hw_ticks(r->hw);
	if ((st = read_free_all(r, batch)))
		return st;
	t[1] = hw_ticks(r->hw);
	return UNC_OK;
}

/* The same, by the batch's own clock reads where it is all there is. */
static inline __attribute__((always_inline)) enum unc_status read_free_bracketed(struct stat_run *r, uint64_t *t)
{
	enum unc_status st;

	if (__builtin_expect(r->nfree != r->nfree_mmio, 0))
		return read_free_timed(r, t);
	if ((st = hw_mmio_read32_n(r->hw, r->free_phys, r->nfree_mmio, r->free_val, t)))
		return free_batch_failed(r, st);
	return UNC_OK;
}

/* Lists the free-running counters in the order read_free_all reads them. */
UNC_COLD static void free_list(struct stat_run *r)
{
	r->nfree = r->nfree_mmio = r->free_slow = 0;
	for (int batch = 1; batch >= 0; batch--)
		for (unsigned i = 0; i < r->c.nev; i++) {
			if (!is_free(r, i))
				continue;
			struct pmu_reg reg = r->free_reg[i];
			bool one_load = reg.space == PMU_MMIO && r->c.ev[i].v.width == 32 && !(reg.addr & 3) &&
					hw_has_mmio_read32_n(r->hw);
			if (one_load != batch)
				continue;
			r->free_ev[r->nfree] = (uint8_t)i;
			r->free_phys[r->nfree] = reg.addr;
			r->free_last[r->nfree] = 0;
			r->free_mask[r->nfree] = pmu_width_mask(r->c.ev[i].v.width);
			r->free_half[r->nfree] = r->free_mask[r->nfree] >> 1;
			r->free_e[r->nfree++] = &r->c.ev[i];
			r->nfree_mmio += batch;
			r->free_slow += !r->c.ev[i].moved[0] + !batch;
		}
}

/* The free-running counters run freely: their values at the start are the
 * base, read with the programmed ones (start_edge). */
UNC_COLD static enum unc_status start_free(struct stat_run *r)
{
	enum unc_status st;

	for (unsigned i = 0; i < r->c.nev; i++)
		if (is_free(r, i))
			r->free_reg[i] = pmu_unit_ctr(unit_of(r, i), &r->pmu[r->pmu_of[i]].p, r->spec[i].unit, 0, r->spec[i].free);
	free_list(r);
	r->counting = true;
	if ((st = start_edge(r)))
		return restore(r, st);
	r->c.t_start = r->c.t_mark = r->c.t_end = r->t_sample;
	return UNC_OK;
}

/* Before anything is written: every register the run may write is read,
 * each driver's global registers and the selects and counters of every
 * unit it uses, so that one that does not exist (#GP) stops the run before
 * any write, and the journal holds them all as found. */
UNC_COLD static enum unc_status snapshot(struct stat_run *r)
{
	struct stat_saved *s;
	enum unc_status st;

	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		const struct pmu_driver *drv = sp->p.drv;
		if (!sp->programs)
			continue;
		for (unsigned g = 0; g < drv->nglobals; g++)
			if (!(sp->p.globals_absent >> g & 1) && (st = save(r, k, drv->globals[g], false, &s)))
				return st;
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			if (pu->kind == PMU_FREE || !(sp->used & 1u << u))
				continue;
			for (unsigned b = 0; (pu->box_ctl || pu->probe_addr) && b < sp->p.boxes[u]; b++)
				if ((st = save(r, k, pmu_unit_box_ctl(pu, &sp->p, u, b), false, &s)))
					return st;
			for (unsigned b = 0; b < sp->p.boxes[u]; b++)
				for (unsigned c = 0; c < pmu_counters_of(pu, &sp->p, u); c++)
					if ((st = save(r, k, pmu_unit_sel(pu, &sp->p, u, b, c), false, &s)) ||
					    (!drv->ops->read_counter &&
					     (st = save(r, k, pmu_unit_ctr(pu, &sp->p, u, b, c), true, &s))))
						return st;
		}
	}
	return UNC_OK;
}

/* The per-box values of the sampling path (last, val, kept), from the
 * pool: for each event as many slots as its unit has boxes (one for a
 * free-running counter), in three blocks of box_slots, one allocation. */
UNC_COLD static enum unc_status box_slots(struct stat_run *r)
{
	size_t n = 0;

	drop_slots(r);
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned boxes = r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit];
		n += is_free(r, i) || !boxes ? 1 : boxes;
	}
	r->box_slots = n ? n : 1;
	/* The journal: every register the snapshot reads (each driver's
	 * globals, each box's control, selects and counters of the units in
	 * use), twice over for what ops write beside them (a counter's high
	 * dword), and 16. */
	size_t regs = 16;
	for (unsigned k = 0; k < r->npmu; k++) {
		const struct stat_pmu *sp = &r->pmu[k];
		if (!sp->programs)
			continue;
		regs += 2 * sp->p.drv->nglobals;
		for (unsigned u = 0; u < sp->p.drv->nunits; u++) {
			const struct pmu_unit *pu = &sp->p.drv->units[u];
			if (pu->kind != PMU_FREE && (sp->used & 1u << u))
				regs += 2 * (size_t)sp->p.boxes[u] * (1 + 2 * pmu_counters_of(pu, &sp->p, u));
		}
	}
	size_t bytes = (3 * r->box_slots + regs) * sizeof(uint64_t) + regs * (sizeof(struct stat_saved) + sizeof(unsigned));
	if (!(r->box_mem = unc_alloc(bytes)))
		return fail(r, UNC_E_NO_MEMORY, "no memory for the values of %lu counters and a journal of %lu registers",
			    (unsigned long)r->box_slots, (unsigned long)regs);
	r->watch_val = r->box_mem + 3 * r->box_slots;
	r->saved = (struct stat_saved *)(void *)(r->watch_val + regs);
	r->watch = (unsigned *)(void *)(r->saved + regs);
	r->saved_room = (unsigned)regs;
	r->nsaved = r->nwatch = 0;
	uint64_t *m = r->box_mem;
	for (unsigned i = 0; i < r->c.nev; i++) {
		unsigned boxes = r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit];
		r->last[i] = m, r->val[i] = m + r->box_slots, r->kept[i] = m + 2 * r->box_slots;
		m += is_free(r, i) || !boxes ? 1 : boxes;
	}
	if (!r->c.nev)
		r->last[0] = r->val[0] = r->kept[0] = r->box_mem;
	return UNC_OK;
}

UNC_COLD void stat_free(struct stat_run *r)
{
	drop_slots(r);
	count_free(&r->c);
	for (unsigned k = 0; k < STAT_MAX_PMUS; k++)
		pmu_present_free(&r->pmu[k].p);
}

UNC_COLD enum unc_status stat_start(struct stat_run *r, const struct hw *hw, bool force)
{
	char what[96];
	enum unc_status st;

	r->hw = hw;
	r->read_slack = hw->tick_hz / 50000; /* 20 us */
	r->read_span = r->read_best_known ? 3 * r->read_best + r->read_slack + 1 : 0;
	r->nsaved = 0;
	r->nwatch = 0;
	r->restore_note[0] = '\0';
	r->restore_more = 0;
	r->write_note[0] = '\0';
	for (unsigned k = 0; k < r->npmu; k++)
		r->pmu[k].ctr_ignored = 0;
	r->c.rotations = 0;
	r->any_in_use = false;
	count_zero(&r->c);
	r->free_only = !stat_programs(r);
	if (r->free_only)
		return (st = box_slots(r)) ? st : start_free(r);
	pkgb.n = 0;
	if ((st = check_pkgs(r)))
		return st; /* nothing read */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct busy_fault f = { .any = false };
		if (!sp->programs || !sp->p.drv->ops->in_use)
			continue;
		sp->p.drv->ops->in_use(hw, &sp->p, &sp->use, note_busy_fault, &f);
		if (!sp->use.known && f.any)
			return fail(r, UNC_E_FAULT, "%s %s faulted while checking whether the PMU is in use",
				    op_name(f.reg, false), addr_text(r, k, f.reg, what, sizeof(what)));
		if (!sp->use.known)
			return fail(r, UNC_E_FAULT, "driver %s could not tell whether its %s is in use", sp->p.drv->name,
				    sp->p.drv->what);
		if (sp->use.in_use && !force) {
			char name[48];
			return fail(r, UNC_E_BUSY, "the %s is in use (%s = 0x%lx); --force takes it over and restores it",
				    sp->p.drv->what, pmu_reg_name(sp->p.drv, &sp->p, sp->use.busy[0].reg, name, sizeof(name)),
				    (unsigned long)sp->use.busy[0].value);
		}
		r->any_in_use |= sp->use.in_use;
	}
	r->verify = true;
	if ((st = box_slots(r)))
		return st; /* nothing written */
	if ((st = snapshot(r)))
		return st; /* nothing written */
	if ((st = program(r, 0)))
		return restore(r, st);
	return start_free(r);
}

/* The largest step the counters of event i can make from the last sample
 * (t_sample, taken before that sample's reads) to now (taken after this
 * sample's reads), at the event's fastest rate (event_max_rate). The 10 ms
 * of slack covers the moments between enabling a group and its first
 * t_sample. When that reaches the counter's whole range, no step can be
 * told from a wrap or a write: the samples came too far apart (a starved
 * timer), and that is an error of its own. */
static enum unc_status step_limit(struct stat_run *r, unsigned i, unsigned width, uint64_t now, uint64_t *ret)
{
	uint64_t hz = r->hw->tick_hz, gap = now - r->t_sample, rate = r->max_rate[i];
	char ms[24];

	/* no bound (0): no step is taken for a write */
	*ret = hz && rate ? u64_muldiv(rate, gap + hz / 100, hz) : UINT64_MAX;
	if (!rate)
		return UNC_OK;
	if (*ret < pmu_width_mask(width))
		return UNC_OK;
	fmt_fixed(ms, sizeof(ms), gap, hz / 1000, 1);
	return fail(r, UNC_E_OVERFLOW,
		    "the %s counters were not sampled for %s ms: at up to %lu per second a %u-bit counter can wrap "
		    "unseen in that time, so no count can be vouched for",
		    unit_of(r, i)->name, ms, (unsigned long)rate, width);
}

UNC_COLD static __attribute__((noinline)) enum unc_status free_backwards(struct stat_run *r, unsigned j)
{
	const struct count_event *e = &r->c.ev[r->free_ev[j]];

	return fail(r, UNC_E_DEVICE,
		    "%s went from 0x%08lx to 0x%08lx: it ran backwards (or moved 2^%u %s or more between two samples)",
		    e->name, (unsigned long)r->free_last[j], (unsigned long)r->free_val[j], e->v.width - 1u,
		    e->v.count_word);
}

/* The free-running counters' deltas, modulo each one's width, from what
 * read_free_all gave (now: the clock before it). Sampled at least every few
 * hundred milliseconds: a step of half a counter's range or more (for a
 * 32-bit counter of 64-byte lines, 1.37 TB/s over 100 ms) cannot happen,
 * so it means the counter went back. This loop serves every run; the one
 * below, the common case: every counter in the batch and every one moved
 * already (the run counts those that have not), so `moved` is
 * left alone (free_slow: how many of them have not moved yet, plus how many
 * are outside the batch). */
UNC_COLD static __attribute__((noinline)) enum unc_status free_deltas_still(struct stat_run *r, uint64_t gap)
{
	for (unsigned j = 0; j < r->nfree; j++) {
		struct count_event *e = r->free_e[j];
		uint64_t v = r->free_val[j], d = (v - r->free_last[j]) & r->free_mask[j];
		if (d > r->free_half[j])
			return free_backwards(r, j);
		e->total.box[0] += d;
		e->total.running += gap;
		if (d && !e->moved[0]) {
			e->moved[0] = 1;
			r->free_slow--;
		}
		r->free_last[j] = v;
	}
	return UNC_OK;
}

static inline __attribute__((always_inline)) enum unc_status free_deltas(struct stat_run *r, uint64_t now)
{
	uint64_t gap = now - r->t_sample;
	const uint64_t *val = r->free_val;
	unsigned n = r->nfree_mmio;

	if (__builtin_expect(r->free_slow != 0, 0))
		return free_deltas_still(r, gap);
	/* The batch's: 32 bits wide, so 32-bit arithmetic is modulo their
	 * width, and a step of half their range or more has bit 31 set. */
	for (size_t j = 0; j < n; j++) {
		uint64_t v = val[j];
		uint32_t d = (uint32_t)v - (uint32_t)r->free_last[j];
		if ((int32_t)d < 0)
			return free_backwards(r, (unsigned)j);
		struct count_event *e = r->free_e[j];
		e->total.box[0] += d;
		e->total.running += gap;
		r->free_last[j] = v;
	}
	return UNC_OK;
}

/* Reads the counters of the active group into val, the free-running ones
 * too when free, between two clock reads (*ret_now before, *ret_after
 * after). A read that took far longer than the quickest of the run (a
 * delay hit it: a preempted vCPU, an SMI) is taken again, so that the
 * counts and the clock describe one moment: up to twice at a sample, and
 * up to STAT_EDGE_READS times in all at the run's two edges (start_edge,
 * the last sample), whose reads alone decide the run's totals and its
 * time (each sample between ends one delta and starts the next). The
 * first edge reads three times at least: the run's quickest read is not
 * known before. A read is taken when it settles and none of the same
 * sample was quicker; when none settles, the quickest one is kept, its
 * values with its own clock reads. */
static __attribute__((noinline)) bool read_settled_slow(struct stat_run *r, uint64_t took)
{
	bool known = r->read_best_known;

	if (!known || took < r->read_best)
		r->read_best = took;
	r->read_best_known = true;
	/* took - read_best below read_span: took within [read_best, 4 * read_best + read_slack] */
	r->read_span = 3 * r->read_best + r->read_slack + 1;
	return known && took <= 4 * r->read_best + r->read_slack;
}

/* Whether a read that took `took` ticks describes one moment: at most 4
 * times the quickest of the run plus read_slack, the run's first read
 * never. */
static inline bool read_settled(struct stat_run *r, uint64_t took)
{
	if (__builtin_expect(took - r->read_best < r->read_span, 1)) /* read_span 0 until a read is known */
		return true;
	return read_settled_slow(r, took);
}

/* The quickest read so far of a sample (read_group), kept while it reads again. */
static struct {
	uint64_t free_val[STAT_MAX_EVENTS];
	uint64_t now, after;
	bool programmed;
} kept;

/* The boxes' values are r->val's slots, kept in r->kept's (one block each,
 * stat_start). */
static __attribute__((noinline)) void read_keep(struct stat_run *r, bool to_kept)
{
	size_t n = r->box_slots * sizeof(uint64_t);

	if (to_kept) {
		memcpy(r->kept[0], r->val[0], n);
		memcpy(kept.free_val, r->free_val, sizeof(kept.free_val));
	} else {
		memcpy(r->val[0], r->kept[0], n);
		memcpy(r->free_val, kept.free_val, sizeof(kept.free_val));
	}
}

/* The per-package counters read_group gathered: one trip to each package,
 * each value masked to its counter's width. */
static __attribute__((noinline)) enum unc_status read_pkgs(struct stat_run *r, uint64_t *const *val)
{
	enum unc_status st = batch_run(r);

	for (unsigned i = 0; st == UNC_OK && i < r->c.nev; i++) {
		const struct pmu_unit *pu = unit_of(r, i);
		if (!pu->per_pkg || pu->space != PMU_MSR || !in_group(r, i, r->group) || is_free(r, i))
			continue;
		for (unsigned b = 0; b < r->pmu[r->pmu_of[i]].p.boxes[r->spec[i].unit]; b++)
			val[i][b] &= pmu_width_mask(r->c.ev[i].v.width);
	}
	return st;
}

static enum unc_status read_group(struct stat_run *r, bool free, uint64_t *const *val, uint64_t *ret_now,
				  uint64_t *ret_after, bool *ret_programmed)
{
	unsigned last = r->edge ? STAT_EDGE_READS - 1 : 2, least = r->edge && !r->read_best_known ? 2 : 0;
	uint64_t quickest = UINT64_MAX;
	enum unc_status st;

	for (unsigned attempt = 0;; attempt++) {
		bool programmed = false;
		pkgb.n = 0;
		uint64_t now = hw_ticks(r->hw);
		uint64_t batch[2];
		if (free && (st = read_free_all(r, batch)))
			return st;
		for (unsigned i = 0; !r->free_only && i < r->c.nev; i++) {
			if (!in_group(r, i, r->group) || is_free(r, i))
				continue;
			unsigned k = r->pmu_of[i], u = r->spec[i].unit;
			const struct pmu_unit *pu = unit_of(r, i);
			for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++)
				if ((st = pu->per_pkg && pu->space == PMU_MSR
						  ? batch_add(r, k, pmu_unit_ctr(pu, &r->pmu[k].p, u, b, r->counter[i]), &val[i][b])
						  : read_counter(r, k, u, b, r->counter[i], &val[i][b])))
					return st;
			programmed = true;
		}
		for (unsigned w = 0; watch_any_pkg && w < r->nwatch; w++) { /* the selects, in the same trip */
			const struct stat_saved *s = &r->saved[r->watch[w]];
			if (pmu_reg_pkg(s->reg) && (st = batch_add(r, s->pmu, s->reg, &r->watch_val[w])))
				return st;
		}
		if (pkgb.n && (st = read_pkgs(r, val)))
			return st;
		uint64_t after = hw_ticks(r->hw);
		*ret_now = now, *ret_after = after, *ret_programmed = programmed;
		if (read_settled(r, after - now) && attempt >= least && after - now <= quickest)
			return UNC_OK;
		if (after - now < quickest) {
			quickest = after - now;
			if (attempt < last) {
				read_keep(r, true);
				kept.now = now, kept.after = after, kept.programmed = programmed;
			}
		} else if (attempt == last) {
			read_keep(r, false);
			*ret_now = kept.now, *ret_after = kept.after, *ret_programmed = kept.programmed;
		}
		if (attempt == last)
			return UNC_OK;
	}
}

/* The read again, as read_settled asks (attempts 1 and 2). */
UNC_COLD static __attribute__((noinline)) enum unc_status read_free_again(struct stat_run *r, uint64_t *t)
{
	enum unc_status st;

	for (unsigned attempt = 1;; attempt++) {
		if ((st = read_free_bracketed(r, t)))
			return st;
		if (read_settled(r, t[1] - t[0]) || attempt == 2)
			return UNC_OK;
	}
}

/* A run of free-running counters alone: nothing to check before the read
 * (they have no select, and no status the run could clear), nothing to
 * freeze. */
static enum unc_status sample_free_only(struct stat_run *r)
{
	uint64_t t[2];
	enum unc_status st;

	/* read_group's bracket, for these alone */
	if ((st = read_free_bracketed(r, t)) || (!read_settled(r, t[1] - t[0]) && (st = read_free_again(r, t))))
		return st;
	uint64_t now = t[0];
	if ((st = free_deltas(r, now)))
		return st;
	r->t_sample = r->c.t_end = now;
	return UNC_OK;
}

/* A run with programmed counters. */
static enum unc_status sample_all(struct stat_run *r)
{
	uint64_t status[STAT_MAX_PMUS] = { 0 }, wrapped[STAT_MAX_PMUS] = { 0 };
	uint64_t *const *val = r->val;
	bool programmed = false;
	enum unc_status st;

	/* Each PMU's state and overflow status first, then the counters: a
	 * wrap the status shows has happened by the time they are read. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (sp->programs && sp->p.drv->ops->check && (st = sp->p.drv->ops->check(&io, &sp->p, &sp->s, &status[k])))
			return st;
	}
	if ((st = check_watched(r, false)))
		return st;
	/* A driver that asks for it is frozen while its counters are read
	 * (two-dword counters read consistently), and unfrozen after. */
	uint32_t frozen = 0;
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if (!sp->p.drv->sample_frozen || !programs_in_group(r, k))
			continue;
		sp->s.first = false;
		if ((st = sp->p.drv->ops->freeze(&io, &sp->p, &sp->s)))
			return st;
		frozen |= 1u << k;
	}
	uint64_t now, after;
	if ((st = read_group(r, true, val, &now, &after, &programmed)) || (watch_any_pkg && (st = check_watched(r, true))))
		return st;
	if ((st = free_deltas(r, now)))
		return st;
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		struct pmu_io io = io_of(r, k);
		if ((frozen >> k & 1) && (st = sp->p.drv->ops->unfreeze(&io, &sp->p, &sp->s, false)))
			return st;
	}
	/* Every programmed counter is judged before any of their totals moves
	 * (the free-running ones are already counted: a failed run reports
	 * nothing anyway). Deltas are modulo each counter's width: a value
	 * below the last is a wrap only if the step fits the time. */
	for (unsigned i = 0; programmed && i < r->c.nev; i++) {
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct pmu_unit *pu = unit_of(r, i);
		uint64_t limit;
		unsigned width = r->c.ev[i].v.width;
		if ((st = step_limit(r, i, width, after, &limit)))
			return st;
		for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++) {
			uint64_t last = r->last[i][b], v = val[i][b], d = (v - last) & pmu_width_mask(width);
			if (d > limit) {
				char what[96], ms[24];
				fmt_fixed(ms, sizeof(ms), after - r->t_sample, r->hw->tick_hz / 1000, 1);
				return fail(r, UNC_E_CLOBBERED,
					    "%s went from 0x%lx to 0x%lx within %s ms: written by someone else "
					    "during the run (no wrap moves it that far)",
					    reg_text(r, k, pmu_unit_ctr(pu, &r->pmu[k].p, u, b, r->counter[i]), what, sizeof(what)),
					    (unsigned long)last, (unsigned long)v, ms);
			}
		}
	}
	for (unsigned i = 0; programmed && i < r->c.nev; i++) {
		struct count_event *e = &r->c.ev[i];
		if (!in_group(r, i, r->group) || is_free(r, i))
			continue;
		unsigned k = r->pmu_of[i], u = r->spec[i].unit;
		const struct pmu_unit *pu = unit_of(r, i);
		for (unsigned b = 0; b < r->pmu[k].p.boxes[u]; b++) {
			uint64_t v = val[i][b], d = (v - r->last[i][b]) & pmu_width_mask(r->c.ev[i].v.width);
			if (v < r->last[i][b])
				wrapped[k] |= pu->status_bit;
			if (d)
				e->moved[b] = 1;
			e->total.box[b] += d;
			r->last[i][b] = v;
		}
		e->total.running += now - r->t_sample;
	}
	r->t_sample = r->c.t_end = now;
	/* A unit's status bit must be explained by a counter of that unit
	 * going backwards, in this sample or (if it wrapped between the two
	 * reads of the last sample) the previous one. Otherwise a counter
	 * advanced by its whole width or more between two samples, and no
	 * delta can say by how much. */
	for (unsigned k = 0; k < r->npmu; k++) {
		struct stat_pmu *sp = &r->pmu[k];
		uint64_t mine = status[k] & status_bits(sp->p.drv);
		uint64_t unexplained = mine & ~(wrapped[k] | r->wrapped_prev[k]);
		struct pmu_io io = io_of(r, k);
		r->wrapped_prev[k] = wrapped[k];
		if (unexplained)
			return fail(r, UNC_E_OVERFLOW,
				    "%s shows an overflow (0x%lx) that no counter value accounts for: a counter advanced "
				    "by its full width between two samples",
				    sp->p.drv->status_name, (unsigned long)unexplained);
		if (mine && sp->p.drv->ops->clear_status && (st = sp->p.drv->ops->clear_status(&io, &sp->p, &sp->s, mine)))
			return st;
	}
	return UNC_OK;
}

enum unc_status stat_sample(struct stat_run *r)
{
	if (!r->counting)
		return UNC_OK;
	return r->free_only ? sample_free_only(r) : sample_all(r);
}

/* How long group g has counted: its first programmed event's running time. */
static uint64_t group_running(const struct stat_run *r, unsigned g)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (!is_free(r, i) && in_group(r, i, g))
			return r->c.ev[i].total.running;
	return 0;
}

/* A slice's start after a rotation, taken as start_edge takes the run's: the
 * new group's counters read after the unfreeze, each box's count from that
 * read and the slice's time from the clock read just before it. Each box
 * counts from its own unfreeze, and a sample reads its boxes in turn: with
 * the start values of the programming and the time from after the last
 * unfreeze, a box's moments between its unfreeze and its read in the first
 * sample were counted but never charged (more for each later box, and more
 * the more boxes; +9% on eight iMC boxes at 20 us an access). Read this
 * way, box b's slice runs from its b-th read to its b-th read, and the
 * clock's reads bracket both the same way. The free-running counters are
 * sampled by the same read (their deltas up to it). */
UNC_COLD static enum unc_status slice_start(struct stat_run *r)
{
	uint64_t now;
	enum unc_status st;

	/* with the slice's last read, it alone decides the slice's counts */
	if ((st = edge_read(r, &now)) || (st = free_deltas(r, now)))
		return st;
	r->t_sample = r->c.t_end = now;
	return UNC_OK;
}

/* At a slice's end: the group that has counted least so far takes the next
 * slice (the next in turn among equals), so a slice stretched by a late
 * rotation (a busy host, an SMI) is made up for instead of staying in one
 * group's share; the current group goes on without reprogramming when it is
 * that group. */
enum unc_status stat_rotate(struct stat_run *r)
{
	unsigned best = r->group;
	uint64_t least = UINT64_MAX;

	/* A slice's last read is an edge: a delay inside it (a preempted
	 * vCPU) is charged to no later delta, so it is taken again as the
	 * run's edges are (STAT_EDGE_READS). */
	r->edge = true;
	enum unc_status st = stat_sample(r);
	r->edge = false;
	if (st)
		return st;
	for (unsigned k = 1; k <= r->c.ngroups; k++) {
		unsigned g = (r->group + k) % r->c.ngroups;
		uint64_t t = group_running(r, g);
		if (t < least)
			least = t, best = g;
	}
	if (best == r->group)
		return UNC_OK;
	r->c.rotations++;
	if ((st = program(r, best)))
		return st;
	return slice_start(r);
}

UNC_COLD enum unc_status stat_stop(struct stat_run *r, enum unc_status so_far)
{
	enum unc_status st = so_far;

	r->edge = true; /* the run's last read: it decides the totals' end */
	if (st == UNC_OK)
		st = stat_sample(r);
	r->edge = false;
	return restore(r, st);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* When the group now counting gives way: on a grid of slices from the
 * start (grid), so a late rotation shortens the next slice instead of
 * lengthening every later one; and in the run's last round (less than a
 * slice per group and one more left before end), when its running time
 * reaches an even share of the run, so that every group ends with the
 * same time, whatever the rotations' lateness added on the way. */
static uint64_t next_slice(const struct stat_run *r, uint64_t grid, uint64_t end, uint64_t slice)
{
	uint64_t now = r->t_sample, sum = 0;

	if (!end || end <= now || end - now >= (uint64_t)(r->c.ngroups + 1) * slice)
		return grid;
	for (unsigned g = 0; g < r->c.ngroups; g++)
		sum += group_running(r, g);
	uint64_t share = (sum + (end - now)) / r->c.ngroups, mine = group_running(r, r->group);
	return share > mine ? now + (share - mine) : end; /* mine == share: all have theirs, run out the clock */
}

enum unc_status stat_loop(struct stat_run *r, const struct hw *hw, bool force, const struct stat_opts *o,
			  const struct stat_env *env)
{
	enum unc_status st = stat_start(r, hw, force);
	unsigned intervals = 0;

	if (st)
		return st;
	uint64_t t0 = r->c.t_start, never = UINT64_MAX;
	uint64_t end = o->duration ? t0 + o->duration : never;
	uint64_t next_iv = o->interval ? t0 + o->interval : never;
	uint64_t next_rot = r->c.ngroups > 1 ? t0 + o->slice : never;
	uint64_t next_prog = o->progress && env->on_progress ? t0 + o->progress : never;
	uint64_t last_iv = 0; /* the run's last interval: its boundary; reported after the run's last read */
	unsigned progress = 0;

	for (;;) {
		uint64_t next_sample = r->t_sample + o->sample;
		if (env->wait_until(env->ctx, min3(end, next_iv, min3(next_rot, next_sample, next_prog)))) {
			st = fail(r, UNC_E_ABORTED, "stopped by the user");
			break;
		}
		uint64_t now = hw_ticks(hw);
		if (now >= next_rot) {
			if ((st = stat_rotate(r)))
				break;
			next_rot = next_slice(r, next_rot + o->slice, end == never ? 0 : end, o->slice);
		} else if ((st = stat_sample(r))) {
			break;
		}
		if (now >= next_iv) {
			if (now >= end || (o->max_intervals && intervals + 1 >= o->max_intervals)) {
				last_iv = next_iv;
				break;
			}
			if (env->on_interval)
				env->on_interval(env->ctx, r, r->t_sample);
			count_mark(&r->c, r->t_sample);
			next_iv += o->interval;
			intervals++;
		}
		if (now >= end) { /* before the next boundary: a shorter last interval */
			last_iv = o->interval ? next_iv : 0;
			break;
		}
		if (now >= next_prog) { /* never at the end: the report follows */
			env->on_progress(env->ctx, r, r->t_sample, ++progress);
			next_prog += o->progress;
		}
	}
	/* On ESC the counts so far are still good: sample them before the
	 * restore, and report the abort. */
	if (st == UNC_E_ABORTED) {
		r->edge = true;
		enum unc_status sst = stat_sample(r);
		r->edge = false;
		return restore(r, sst ? sst : UNC_E_ABORTED);
	}
	st = stat_stop(r, st);
	/* The last interval ends where the totals do, so the intervals add up
	 * to them; one that ends before its boundary is marked shorter. */
	if (!st && last_iv && env->on_interval && r->t_sample > r->c.t_mark) {
		r->c.iv_short = r->t_sample < last_iv;
		env->on_interval(env->ctx, r, r->t_sample);
		count_mark(&r->c, r->t_sample);
		r->c.iv_short = false;
	}
	return st;
}
