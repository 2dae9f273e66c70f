#include "recmap.h"

#include <string.h>

#include "../engine/pmu.h"

#define COPY(dst, src) fmt_snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

static struct rec_reg reg_to_rec(struct pmu_reg g)
{
	return (struct rec_reg){ g.space, g.pci.bus, g.pci.dev, g.pci.func, g.addr };
}

static struct pmu_reg reg_from_rec(struct rec_reg x)
{
	return (struct pmu_reg){ .space = x.space, .pci = { x.bus, x.dev, x.func }, .addr = x.addr };
}

static const struct pmu_driver *driver_named(const char *name)
{
	for (unsigned d = 0; pmu_drivers[d]; d++)
		if (!strcmp(pmu_drivers[d]->name, name))
			return pmu_drivers[d];
	return NULL;
}

void rec_pmu_from(struct rec_pmu *x, const struct info_pmu *ip)
{
	memset(x, 0, sizeof(*x));
	COPY(x->driver, ip->drv->name);
	COPY(x->model, ip->p.model);
	x->probed = ip->p.probed;
	for (unsigned u = 0; u < 8 && u < PMU_MAX_UNITS; u++) {
		x->boxes[u] = ip->p.boxes[u];
		x->found[u] = ip->p.found[u];
		x->base[u] = ip->p.base[u];
	}
	memcpy(x->facts, ip->p.facts, sizeof(x->facts));
	for (unsigned u = 0; u < 8 && u < PMU_MAX_UNITS; u++)
		for (unsigned b = 0; b < 8 && b < ip->p.room[u]; b++) {
			struct pci_addr a = ip->p.pci[u][b];
			x->pci[u * 8 + b] = (uint32_t)a.bus << 16 | (uint32_t)a.dev << 8 | a.func;
		}
	x->use_checked = ip->use_checked;
	x->use_known = ip->use.known;
	x->in_use = ip->use.in_use;
	x->global_ctrl = ip->use.global_ctrl;
	x->selects_checked = ip->use.selects_checked;
	x->nbusy = ip->use.nbusy < REC_MAX_BUSY ? ip->use.nbusy : REC_MAX_BUSY;
	for (uint32_t i = 0; i < x->nbusy; i++)
		x->busy[i] = (struct rec_busy2){ reg_to_rec(ip->use.busy[i].reg), ip->use.busy[i].value };
}

struct rec_fault2 rec_fault_from(struct pmu_reg reg, bool write)
{
	return (struct rec_fault2){ reg_to_rec(reg), write };
}

void rec_from_info(struct rec *r, const struct platform_info *pi)
{
	COPY(r->vendor, pi->cpu.vendor);
	COPY(r->brand, pi->cpu.brand);
	COPY(r->topology, pi->cpu.topology_source);
	COPY(r->model_name, pi->npmu ? pi->pmu[0].p.model : NULL);
	r->family = pi->cpu.family;
	r->model = pi->cpu.model;
	r->stepping = pi->cpu.stepping;
	r->cores = pi->cpu.cores;
	r->threads = pi->cpu.threads;
	r->phys_bits = pi->cpu.phys_addr_bits;
	r->hypervisor = pi->cpu.hypervisor;
	r->msr_mode = (uint8_t)pi->msr_mode;
	COPY(r->emulator, pi->emulator);
	r->tsc_hz = pi->tsc_hz;
	r->tsc = pi->tsc;
	r->npmus = pi->npmu < REC_MAX_PMUS ? pi->npmu : REC_MAX_PMUS;
	for (uint32_t k = 0; k < r->npmus; k++)
		rec_pmu_from(&r->pmus[k], &pi->pmu[k]);
	r->nfaults2 = pi->nfaults < REC_MAX_FAULTS ? pi->nfaults : REC_MAX_FAULTS;
	for (uint32_t i = 0; i < r->nfaults2; i++)
		r->faults2[i] = rec_fault_from(pi->faults[i].reg, pi->faults[i].write);
	r->verdict = pi->verdict;
	COPY(r->verdict_reason, pi->verdict_reason);
}

static void cpu_from_rec(struct platform_info *pi, const struct rec *r)
{
	COPY(pi->cpu.vendor, r->vendor);
	COPY(pi->cpu.brand, r->brand);
	pi->cpu.topology_source = r->topology;
	pi->cpu.family = r->family;
	pi->cpu.model = r->model;
	pi->cpu.stepping = r->stepping;
	pi->cpu.cores = r->cores;
	pi->cpu.threads = r->threads;
	pi->cpu.phys_addr_bits = r->phys_bits;
	pi->cpu.hypervisor = r->hypervisor;
	pi->cpu.is_intel = !strcmp(r->vendor, "GenuineIntel");
	pi->msr_mode = (enum hw_msr_mode)r->msr_mode;
	pi->emulator = r->emulator;
	pi->tsc_hz = r->tsc_hz;
	pi->tsc = r->tsc;
	pi->verdict = (enum unc_status)r->verdict;
	COPY(pi->verdict_reason, r->verdict_reason);
}

/* A driver the record names but this build lacks is left out, said so. */
static void info_from_rec(struct out *o, struct platform_info *pi, const struct rec *r)
{
	memset(pi, 0, sizeof(*pi));
	cpu_from_rec(pi, r);
	for (uint32_t k = 0; k < r->npmus && pi->npmu < INFO_MAX_PMUS; k++) {
		const struct rec_pmu *x = &r->pmus[k];
		const struct pmu_driver *drv = driver_named(x->driver);
		if (!drv) {
			if (o) /* not inside JSON */
				out_printf(o, "note: the record names driver %s, which this decoder does not have\n", x->driver);
			continue;
		}
		struct info_pmu *ip = &pi->pmu[pi->npmu++];
		ip->drv = ip->p.drv = drv;
		ip->p.model = x->model;
		ip->p.probed = x->probed;
		for (unsigned u = 0; u < 8 && u < PMU_MAX_UNITS; u++) {
			ip->p.boxes[u] = (unsigned)x->boxes[u];
			ip->p.found[u] = (unsigned)x->found[u];
			ip->p.base[u] = x->base[u];
		}
		memcpy(ip->p.facts, x->facts, sizeof(ip->p.facts));
		/* the first 8 boxes' functions of a unit that has any (the
		 * caller gives the arrays back: info_free) */
		for (unsigned u = 0; u < 8 && u < PMU_MAX_UNITS; u++) {
			uint32_t any = 0;
			for (unsigned b = 0; b < 8; b++)
				any |= x->pci[u * 8 + b];
			if (!any || pmu_present_room(&ip->p, u, 8))
				continue;
			for (unsigned b = 0; b < 8; b++) {
				uint32_t a = x->pci[u * 8 + b];
				ip->p.pci[u][b] = (struct pci_addr){ (uint8_t)(a >> 16), (uint8_t)(a >> 8), (uint8_t)a };
			}
		}
		ip->use_checked = x->use_checked;
		ip->use.known = x->use_known;
		ip->use.in_use = x->in_use;
		ip->use.global_ctrl = x->global_ctrl;
		ip->use.selects_checked = x->selects_checked;
		ip->use.nbusy = x->nbusy;
		for (uint32_t i = 0; i < x->nbusy; i++)
			ip->use.busy[i] = (struct pmu_busy){ reg_from_rec(x->busy[i].reg), x->busy[i].value };
	}
	pi->nfaults = r->nfaults2;
	for (uint32_t i = 0; i < r->nfaults2; i++)
		pi->faults[i] = (struct reg_access){ reg_from_rec(r->faults2[i].reg), r->faults2[i].write };
}

/* An event's view, to its record or back: each member once, both ways. */
#define VIEW_TEXTS(X) X(driver) X(pmu) X(box_label) X(box_noun) X(short_name) X(count_word) X(enc_prefix)
#define VIEW_NUMBERS(X) X(encoding) X(kind) X(nboxes) X(width) X(role) X(clock)

void rec_event_view(struct rec_event *x, const struct count_view *v)
{
#define TEXT(m) COPY(x->m, v->m);
#define NUMBER(m) x->m = v->m;
	VIEW_TEXTS(TEXT)
	VIEW_NUMBERS(NUMBER)
#undef TEXT
#undef NUMBER
	COPY(x->group_noun, v->group_noun);
	x->groups = x->box_ids = x->groups_hi = x->box_ids_hi = 0;
	for (unsigned b = 0; x->group_noun[0] && v->group && b < v->nboxes && b < REC_MAX_BOXES; b++) {
		*(b < 8 ? &x->groups : &x->groups_hi) |= (uint64_t)v->group[b] << (8 * (b % 8));
		*(b < 8 ? &x->box_ids : &x->box_ids_hi) |= (uint64_t)v->box_id[b] << (8 * (b % 8));
	}
}

static void view_from_rec(struct count_view *v, const struct rec_event *x)
{
#define TEXT(m) COPY(v->m, x->m);
#define NUMBER(m) v->m = x->m;
	VIEW_TEXTS(TEXT)
	VIEW_NUMBERS(NUMBER)
#undef TEXT
#undef NUMBER
	COPY(v->group_noun, x->group_noun);
	for (unsigned b = 0; v->group && b < v->nboxes && b < REC_MAX_BOXES; b++) {
		v->group[b] = (uint8_t)((b < 8 ? x->groups : x->groups_hi) >> (8 * (b % 8)));
		v->box_id[b] = (uint8_t)((b < 8 ? x->box_ids : x->box_ids_hi) >> (8 * (b % 8)));
	}
}

enum unc_status rec_fits(const struct count_run *run, char *err, size_t errsize)
{
	for (unsigned i = 0; i < run->nev; i++)
		if (run->ev[i].v.nboxes > REC_MAX_BOXES) {
			fmt_snprintf(err, errsize, "%s counts in %u boxes; a record holds at most %d boxes an event "
						   "(REC_MAX_BOXES): not stored rather than stored in part",
				     run->ev[i].name, run->ev[i].v.nboxes, REC_MAX_BOXES);
			return UNC_E_RANGE;
		}
	return UNC_OK;
}

unsigned rec_run_boxes(const struct count_run *run)
{
	unsigned n = 1;

	for (unsigned i = 0; i < run->nev; i++)
		if (run->ev[i].v.nboxes > n)
			n = run->ev[i].v.nboxes;
	return n;
}

void rec_from_run(struct rec *r, const struct count_run *run, const struct report_opts *ro)
{
	r->ngroups = run->ngroups;
	r->rotations = run->rotations;
	r->per_box = ro->per_box;
	r->elapsed = count_enabled(run);
	r->programs = run->programs;
	COPY(r->where, run->where);
	COPY(r->free_pmu, run->free_pmu);
	COPY(r->req_note, run->req_note);
	r->nboxinfo = run->nboxes < REC_MAX_BOXINFO ? run->nboxes : REC_MAX_BOXINFO;
	for (uint32_t k = 0; k < r->nboxinfo; k++) {
		const struct count_boxinfo *b = &run->boxes[k];
		struct rec_boxinfo *x = &r->boxinfo[k];
		COPY(x->noun, b->noun);
		COPY(x->label, b->label);
		COPY(x->from, b->from);
		x->n = b->n;
		x->found = b->found;
	}
	r->nevents = run->nev < REC_MAX_EVENTS ? run->nev : REC_MAX_EVENTS;
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct count_event *e = &run->ev[i];
		struct rec_event *x = &r->ev[i];
		memset(x, 0, sizeof(*x));
		COPY(x->name, e->name);
		rec_event_view(x, &e->v);
		unsigned n = e->v.nboxes ? e->v.nboxes : 1;
		for (unsigned b = 0; b < n && b < REC_MAX_BOXES && e->total.box; b++) {
			if (e->moved[b])
				*(b < 8 ? &x->moved : &x->moved_hi) |= (uint8_t)(1u << (b % 8));
			if (e->v.kind != PMU_FREE && count_still_box(run, i, b))
				*(b < 8 ? &x->still : &x->still_hi) |= (uint8_t)(1u << (b % 8));
			x->box[b] = e->total.box[b];
		}
		x->running = e->total.running;
	}
}

void rec_sample_from_run(struct rec_sample *s, const struct count_run *run, uint64_t now)
{
	s->t = now - run->t_start;
	for (unsigned i = 0; i < run->nev && i < REC_MAX_EVENTS; i++) {
		const struct count_event *e = &run->ev[i];
		memset(s->box[i], 0, sizeof(s->box[i]));
		for (unsigned b = 0; e->total.box && b < (e->v.nboxes ? e->v.nboxes : 1u) && b < REC_MAX_BOXES; b++)
			s->box[i][b] = e->total.box[b];
		s->running[i] = e->total.running;
	}
}

void rec_sample_to_run(struct count_run *run, const struct rec *r, const struct rec_sample *s)
{
	for (uint32_t i = 0; i < r->nevents && i < run->nev; i++) {
		struct count_event *e = &run->ev[i];
		for (unsigned b = 0; e->total.box && b < (e->v.nboxes ? e->v.nboxes : 1u) && b < REC_MAX_BOXES; b++)
			e->total.box[b] = s->box[i][b];
		e->total.running = s->running[i];
	}
}

enum unc_status rec_count_run(struct count_run *run, const struct rec *r)
{
	count_free(run);
	memset(run, 0, sizeof(*run));
	run->ngroups = r->ngroups;
	run->rotations = r->rotations;
	run->nev = r->nevents;
	run->t_start = run->t_mark = 0;
	run->t_end = r->elapsed;
	for (uint32_t i = 0; i < r->nevents; i++) {
		struct count_event *e = &run->ev[i];
		COPY(e->name, r->ev[i].name);
		view_from_rec(&e->v, &r->ev[i]); /* the numbers; groups below, once there is room */
		if (e->v.nboxes > REC_MAX_BOXES)
			e->v.nboxes = REC_MAX_BOXES; /* the decoder refuses more (record.c) */
	}
	enum unc_status st = count_room(run);
	for (uint32_t i = 0; !st && i < r->nevents; i++) {
		const struct rec_event *x = &r->ev[i];
		struct count_event *e = &run->ev[i];
		view_from_rec(&e->v, x);
		if (e->v.nboxes > REC_MAX_BOXES)
			e->v.nboxes = REC_MAX_BOXES;
		/* Free-running: moved as stored; programmed events: every box but
		 * the still ones, so a record written before `still` existed shows
		 * none. */
		unsigned boxes = e->v.nboxes ? e->v.nboxes : 1;
		uint16_t moved = (uint16_t)(x->moved | x->moved_hi << 8), still = (uint16_t)(x->still | x->still_hi << 8);
		for (unsigned b = 0; b < boxes; b++) {
			e->moved[b] = (uint8_t)(e->v.kind == PMU_FREE ? moved >> b & 1 : !(still >> b & 1));
			e->total.box[b] = x->box[b];
		}
		e->total.running = x->running;
	}
	run->programs = r->programs;
	COPY(run->where, r->where);
	COPY(run->free_pmu, r->free_pmu);
	COPY(run->req_note, r->req_note);
	run->nboxes = r->nboxinfo;
	for (uint32_t k = 0; k < r->nboxinfo; k++) {
		struct count_boxinfo *b = &run->boxes[k];
		COPY(b->noun, r->boxinfo[k].noun);
		COPY(b->label, r->boxinfo[k].label);
		COPY(b->from, r->boxinfo[k].from);
		b->n = r->boxinfo[k].n;
		b->found = r->boxinfo[k].found;
	}
	return st;
}

struct hw rec_hw(const struct rec *r)
{
	return (struct hw){ .tick_hz = r->tsc_hz, .tsc = r->tsc, .msr_mode = (enum hw_msr_mode)r->msr_mode,
			    .emulator = r->msr_mode == HW_MSR_EMULATED ? r->emulator : NULL };
}

struct replay {
	struct out *o;
	const struct report_opts *ro;
	const struct hw *hw;
	struct count_run *run;
	bool bw;
};

/* Intervals: each sample holds the totals then; the report prints the
 * difference from the previous one, as it did during the run. */
static void replay_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	struct replay *p = ctx;
	struct count_run *run = p->run;

	rec_sample_to_run(run, r, s);
	if (p->bw)
		report_bw_interval(p->o, p->ro, p->hw, run, s->t);
	else
		report_interval(p->o, p->ro, p->hw, run, s->t);
	count_mark(run, s->t);
}

enum unc_status rec_print(struct out *o, const uint8_t *data, size_t len, enum report_format format, const char *sep,
			  const char *stored_as, struct rec_print_ws *ws, char *err, size_t errsize)
{
	struct rec *rp = &ws->r;
	struct count_run *runp = &ws->run;
	struct platform_info *pip = &ws->pi;
	enum unc_status st;
#define r (*rp)
#define run (*runp)
#define pi (*pip)

	if ((st = rec_decode(data, len, &r, NULL, NULL, err, errsize)))
		return st;
	struct hw hw = rec_hw(&r);
	struct report_opts ro = { .format = format, .per_box = r.per_box, .intervals = r.nintervals > 0 };
	fmt_snprintf(ro.sep, sizeof(ro.sep), "%s", sep && *sep ? sep : ",");
	if (!hw.tick_hz) {
		fmt_snprintf(err, errsize, "the record has no TSC frequency");
		return UNC_E_INVALID;
	}
	if (format != REPORT_JSON) {
		char when[40] = "an unknown time";
		if (r.time.valid)
			rec_time_text(&r.time, when, sizeof(when));
		out_printf(o, "%srecord%s%s: `%s` by %s at %s, exit status: %s\n", format == REPORT_CSV ? "# " : "",
			   stored_as ? " " : "", stored_as ? stored_as : "", r.command, r.tool, when,
			   unc_strerror((enum unc_status)r.status));
	}
	if (!strcmp(r.command, "info")) {
		info_from_rec(format == REPORT_JSON ? NULL : o, &pi, &r);
		if (format == REPORT_JSON)
			info_print_json(o, &pi);
		else
			info_print(o, &pi);
		info_free(&pi);
		return UNC_OK;
	}
	bool bw = !strcmp(r.command, "bw");
	if ((st = rec_count_run(&run, &r)) != UNC_OK) {
		fmt_snprintf(err, errsize, "no memory for the record's counts");
		return st;
	}
	if (bw)
		report_bw_header(o, &ro, &hw, &run);
	else
		report_header(o, &ro, &hw, &run);
	if (r.nintervals) {
		struct replay p = { o, &ro, &hw, &run, bw };
		if ((st = rec_decode(data, len, &r, replay_sample, &p, err, errsize))) { /* the same again, then the samples */
			count_free(&run);
			return st;
		}
		if ((st = rec_count_run(&run, &r)) != UNC_OK) { /* the totals again, for the final report */
			fmt_snprintf(err, errsize, "no memory for the record's counts");
			return st;
		}
	}
	if (bw)
		report_bw_final(o, &ro, &hw, &run, &r.x);
	else
		report_final(o, &ro, &hw, &run, &r.x);
	count_free(&run);
	return UNC_OK;
#undef r
#undef run
#undef pi
}
