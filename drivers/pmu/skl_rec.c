/* Layout-1 records: written before drivers existed, by this driver's PMU
 * alone. Their fields that layout 2 lacks (record.c hands them over as a
 * struct rec_old) are this driver's: its platform facts, its in-use check,
 * MSR faults, the CBo count and MCHBAR, and each event's unit (0 CBo,
 * 1 ARB, 2 fixed, 3 IMC: its unit indexes) and encoding. This file
 * converts them to layout 2 as the record is read, so the rest of the
 * reader knows one layout. */
#include "skl_rec.h"

#include <string.h>

#include "../engine/evsel.h"
#include "../output/recmap.h"
#include "../output/record.h"
#include "skl_regs.h"

_Static_assert(SKL_UNIT_CBO == 0 && SKL_UNIT_ARB == 1 && SKL_UNIT_FIXED == 2 && SKL_UNIT_IMC == 3,
	       "layout-1 records store these unit numbers");

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

/* Layout 1's own fields: the platform (top level) and each event's. */
enum { EV_UNIT, EV_CODE, EV_UMASK, EV_THR, EV_INV, EV_EDGE, EV_IMC, EV_NFIELDS };

struct v1 {
	uint64_t msrs_probed, in_use_known, in_use, cbo_config_st, cbo_config_raw, cbo_count, selects_checked;
	uint64_t global_ctrl, host_bridge_st, mchbar_st, hb_vendor, hb_device, mchbar_raw, ncbo, imc_base, ncbo_found;
	unsigned nbusy, nfaults;
	struct pmu_busy busy[PMU_MAX_BUSY];
	struct {
		uint32_t msr;
		bool write;
	} faults[REC_MAX_FAULTS];
	uint8_t ev[REC_MAX_EVENTS][EV_NFIELDS];
	uint32_t seen_top, seen_ev[REC_MAX_EVENTS]; /* bit k: field k was read (each at most once) */
	char *err;
	size_t errsize;
};

#define V1(tag, m, size) { tag, #m, size, offsetof(struct v1, m) }

struct v1_field {
	uint16_t tag;
	const char *name;
	uint8_t size;
	size_t off; /* top level: of its uint64_t in struct v1; in an event: its index */
};

static const struct v1_field v1_top[] = {
	V1(0x001C, msrs_probed, 1), V1(0x001D, in_use_known, 1), V1(0x001E, in_use, 1), V1(0x0021, cbo_config_st, 4),
	V1(0x0022, cbo_config_raw, 8), V1(0x0023, cbo_count, 4), V1(0x0024, selects_checked, 4),
	V1(0x0025, global_ctrl, 8), V1(0x0027, host_bridge_st, 4), V1(0x0028, mchbar_st, 4), V1(0x0029, hb_vendor, 2),
	V1(0x002A, hb_device, 2), V1(0x002B, mchbar_raw, 8), V1(0x0040, ncbo, 4), V1(0x0046, imc_base, 8),
	V1(0x004A, ncbo_found, 4),
};
#define V1_MAX_CBOS 8    /* layout 1's event holds boxes 0-7 (0x0A, 0x0D) */
#define TAG_BUSY  0x0026 /* u32 MSR, u64 value; up to 16 */
#define TAG_FAULT 0x002D /* u32 MSR, u8 write; up to 16 */

static const struct v1_field v1_ev[] = {
	{ 0x02, "unit", 1, EV_UNIT }, { 0x03, "code", 1, EV_CODE }, { 0x04, "umask", 1, EV_UMASK },
	{ 0x05, "thr", 1, EV_THR },   { 0x06, "inv", 1, EV_INV },   { 0x07, "edge", 1, EV_EDGE },
	{ 0x08, "imc", 1, EV_IMC },
};

#define NV1(t) (sizeof(t) / sizeof((t)[0]))

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

/* A repeated field: `size` bytes each, at most `max`. */
static enum unc_status v1_array(struct v1 *v, const struct rec_old_field *f, const char *name, uint32_t size,
				unsigned *count, unsigned max)
{
	char *err = v->err;
	size_t errsize = v->errsize;

	if (*count >= max)
		FAIL("too many '%s' fields (at most %u)", name, max);
	if (f->len != size)
		FAIL("field '%s' has %u bytes, not %u", name, (unsigned)f->len, (unsigned)size);
	++*count;
	return UNC_OK;
}

/* One field of layout 1's own, checked as record.c checked it then. */
static enum unc_status v1_field(void *ctx, const struct rec_old_field *f)
{
	struct v1 *v = ctx;
	char *err = v->err;
	size_t errsize = v->errsize;
	enum unc_status st;
	uint64_t x;

	if (f->event < 0 && f->tag == TAG_BUSY) {
		if ((st = v1_array(v, f, "busy", 12, &v->nbusy, PMU_MAX_BUSY)))
			return st;
		v->busy[v->nbusy - 1] = (struct pmu_busy){ pmu_msr(le(f->v, 4)), le(f->v + 4, 8) };
		return UNC_OK;
	}
	if (f->event < 0 && f->tag == TAG_FAULT) {
		if ((st = v1_array(v, f, "faults", 5, &v->nfaults, REC_MAX_FAULTS)))
			return st;
		v->faults[v->nfaults - 1].msr = (uint32_t)le(f->v, 4);
		v->faults[v->nfaults - 1].write = f->v[4];
		return UNC_OK;
	}
	if (f->event >= REC_MAX_EVENTS)
		return UNC_OK;
	const struct v1_field *t = f->event < 0 ? v1_top : v1_ev;
	size_t n = f->event < 0 ? NV1(v1_top) : NV1(v1_ev);
	uint32_t *seen = f->event < 0 ? &v->seen_top : &v->seen_ev[f->event];
	for (size_t k = 0; k < n; k++) {
		if (t[k].tag != f->tag)
			continue;
		if (*seen >> k & 1) {
			if (f->event >= 0)
				FAIL("event %d: field '%s' appears twice", f->event, t[k].name);
			FAIL("field '%s' appears twice", t[k].name);
		}
		*seen |= 1u << k;
		if ((st = rec_old_uint(f, t[k].name, t[k].size, &x, err, errsize)))
			return st;
		if (f->event < 0)
			*(uint64_t *)((uint8_t *)v + t[k].off) = x;
		else
			v->ev[f->event][t[k].off] = (uint8_t)x;
	}
	return UNC_OK; /* another tag: a field layout 1 did not have, skipped */
}

static enum unc_status v1_read(const struct rec_old *old, const struct rec *r, struct v1 *v, char *err,
			       size_t errsize)
{
	enum unc_status st;

	_Static_assert(NV1(v1_top) <= 32 && NV1(v1_ev) <= 32, "seen masks");
	memset(v, 0, sizeof(*v));
	v->err = err;
	v->errsize = errsize;
	if ((st = rec_old_walk(old, v1_field, v)))
		return st;
	if (v->ncbo > V1_MAX_CBOS)
		FAIL("the record says %u CBos; at most %d", (unsigned)v->ncbo, V1_MAX_CBOS);
	if (v->ncbo_found && v->ncbo_found < v->ncbo)
		FAIL("the record says %u CBos programmed of %u", (unsigned)v->ncbo, (unsigned)v->ncbo_found);
	for (uint32_t i = 0; i < r->nevents; i++) {
		if (v->ev[i][EV_UNIT] > 3)
			FAIL("event %u has unit %u", i, v->ev[i][EV_UNIT]);
		if (v->ev[i][EV_UNIT] == 3 && v->ev[i][EV_IMC] >= 5)
			FAIL("event %u names IMC counter %u", i, v->ev[i][EV_IMC]);
	}
	return UNC_OK;
}

/* What the probe and the in-use check found, from the platform fields. */
static void v1_present(const struct pmu_driver *drv, const struct v1 *v, const struct rec *r, struct info_pmu *ip)
{
	struct pmu_present *p = &ip->p;
	struct pmu_use *use = &ip->use;

	memset(ip, 0, sizeof(*ip));
	ip->drv = p->drv = drv;
	p->model = r->model_name;
	p->probed = v->msrs_probed ? 1u << SKL_UNIT_CBO | 1u << SKL_UNIT_ARB | 1u << SKL_UNIT_FIXED : 0;
	p->probed |= 1u << SKL_UNIT_IMC; /* layout 1 always read the host bridge */
	p->boxes[SKL_UNIT_CBO] = (unsigned)v->cbo_count;
	p->found[SKL_UNIT_CBO] = (unsigned)(v->ncbo_found ? v->ncbo_found : v->cbo_count);
	p->base[SKL_UNIT_IMC] = v->imc_base;
	p->facts[SKL_FACT_CBO_CONFIG_ST] = v->cbo_config_st;
	p->facts[SKL_FACT_CBO_CONFIG] = v->cbo_config_raw;
	p->facts[SKL_FACT_HB_ID] = v->hb_device << 16 | v->hb_vendor;
	p->facts[SKL_FACT_MCHBAR_RAW] = v->mchbar_raw;
	p->facts[SKL_FACT_HB_ST] = v->host_bridge_st;
	p->facts[SKL_FACT_MCHBAR_ST] = v->mchbar_st;
	p->facts[SKL_FACT_CORES] = r->cores;
	p->facts[SKL_FACT_CPU] = (r->phys_bits & 0xFF) | (r->model & 0xFF) << 8;
	*use = (struct pmu_use){ .known = v->in_use_known, .in_use = v->in_use, .global_ctrl = v->global_ctrl,
				 .selects_checked = (unsigned)v->selects_checked };
	use->nbusy = v->nbusy;
	memcpy(use->busy, v->busy, sizeof(use->busy));
	ip->use_checked = v->msrs_probed && v->selects_checked;
}

/* An event, as this driver describes it now. */
static void v1_view(const struct pmu_driver *drv, const struct v1 *v, const uint8_t *x, struct rec_event *e)
{
	struct ev_spec spec = { .drv = drv, .unit = x[EV_UNIT], .code = x[EV_CODE], .umask = x[EV_UMASK],
				.thr = x[EV_THR], .inv = x[EV_INV] != 0, .edge = x[EV_EDGE] != 0, .free = x[EV_IMC] };
	const struct pmu_unit *u = &drv->units[x[EV_UNIT]]; /* v1_read: unit 0 to 3 */
	struct count_view cv;

	memset(&cv, 0, sizeof(cv));
	if (u->kind != PMU_FREE || x[EV_IMC] < u->counters)
		evsel_view(&spec, u->max_boxes > 1 ? (unsigned)v->ncbo : 1, &cv);
	rec_event_view(e, &cv);
}

#define COPY(dst, src) fmt_snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

enum unc_status skl_rec_convert(const struct pmu_driver *drv, const struct rec_old *old, struct rec *r, char *err,
				size_t errsize)
{
	struct v1 v;
	struct info_pmu ip;
	enum unc_status st;

	if (old->version != 1)
		return UNC_E_UNSUPPORTED;
	if ((st = v1_read(old, r, &v, err, errsize)))
		return st;
	/* `info`'s facts: this driver's block (when the record names the CPU
	 * model it matched) and the faults, all MSRs then */
	v1_present(drv, &v, r, &ip);
	r->npmus = 0;
	if (r->model_name[0])
		rec_pmu_from(&r->pmus[r->npmus++], &ip);
	r->nfaults2 = v.nfaults;
	for (unsigned i = 0; i < v.nfaults; i++)
		r->faults2[i] = rec_fault_from(pmu_msr(v.faults[i].msr), v.faults[i].write);
	/* the run: each event's view, and the header's facts from the units */
	r->programs = 0;
	for (uint32_t i = 0; i < r->nevents; i++) {
		v1_view(drv, &v, v.ev[i], &r->ev[i]);
		r->programs |= r->ev[i].kind != PMU_FREE;
	}
	r->nboxinfo = 0;
	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		if (pu->kind == PMU_FREE) {
			bool any = false;
			for (uint32_t i = 0; i < r->nevents; i++)
				any |= v.ev[i][EV_UNIT] == u;
			if (!any)
				continue;
			COPY(r->free_pmu, pu->pmu);
			COPY(r->req_note, pu->req_note);
			drv->ops->where(&ip.p, u, r->where, sizeof(r->where));
		} else if (pu->box_noun && r->programs && r->nboxinfo < REC_MAX_BOXINFO) {
			struct rec_boxinfo *b = &r->boxinfo[r->nboxinfo++];
			COPY(b->noun, pu->box_noun);
			COPY(b->label, pu->box_label);
			COPY(b->from, pu->boxes_from);
			b->n = (uint32_t)v.ncbo;
			b->found = (uint32_t)(v.ncbo_found ? v.ncbo_found : v.ncbo); /* absent: as programmed */
		}
	}
	return UNC_OK;
}
