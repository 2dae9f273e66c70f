#include "recmap.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/pool.h"
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
	fmt_copy_marked(r->emulator, sizeof(r->emulator), pi->emulator); /* longer than a record field: marked */
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
	v->nboxes = (uint16_t)x->nboxes; /* at most REC_MAX_EV_BOXES (the decoder refuses more) */
	for (unsigned b = 0; v->group && b < v->nboxes; b++) {
		v->group[b] = (uint8_t)rec_box_group(x, b);
		v->box_id[b] = (uint8_t)rec_box_id(x, b);
	}
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Bytes of an event's per-box fields (layout 3), for n boxes. */
static size_t per_box_bytes(uint32_t n, bool groups)
{
	return 8 * (size_t)n + (groups ? 4 * (size_t)n : 0) + 2 * (size_t)((n + 7) / 8);
}

enum unc_status rec_from_run(struct rec *r, const struct count_run *run, const struct report_opts *ro)
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
	/* every event's per-box values, as stored, in one block sized by the run */
	size_t need = 0;
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct count_event *e = &run->ev[i];
		need += per_box_bytes(e->v.nboxes ? e->v.nboxes : 1u, e->v.group_noun[0] && e->v.group);
	}
	rec_free(r);
	uint8_t *p = r->mem = unc_alloc(need ? need : 1);
	if (!p) {
		r->nevents = 0;
		return UNC_E_NO_MEMORY;
	}
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct count_event *e = &run->ev[i];
		struct rec_event *x = &r->ev[i];
		memset(x, 0, sizeof(*x));
		COPY(x->name, e->name);
		rec_event_view(x, &e->v);
		uint32_t n = e->v.nboxes ? e->v.nboxes : 1;
		bool groups = e->v.group_noun[0] && e->v.group;
		x->spans = true;
		x->pb_total = (struct rec_span){ p, 8 * n };
		p += 8 * (size_t)n;
		if (groups) {
			x->pb_group = (struct rec_span){ p, 2 * n };
			x->pb_id = (struct rec_span){ p + 2 * (size_t)n, 2 * n };
			p += 4 * (size_t)n;
		}
		x->pb_moved = (struct rec_span){ p, (n + 7) / 8 };
		x->pb_still = (struct rec_span){ p + (n + 7) / 8, (n + 7) / 8 };
		uint8_t *tot = (uint8_t *)x->pb_total.p, *grp = (uint8_t *)x->pb_group.p, *id = (uint8_t *)x->pb_id.p;
		uint8_t *moved = p, *still = p + (n + 7) / 8;
		p += 2 * (size_t)((n + 7) / 8);
		for (uint32_t b = 0; b < n && e->total.box; b++) {
			if (e->moved && e->moved[b])
				moved[b / 8] |= (uint8_t)(1u << (b % 8));
			if (e->v.kind != PMU_FREE && count_still_box(run, i, b))
				still[b / 8] |= (uint8_t)(1u << (b % 8));
			put_le(tot + 8 * (size_t)b, e->total.box[b], 8);
		}
		for (uint32_t b = 0; groups && b < n; b++) {
			put_le(grp + 2 * (size_t)b, e->v.group[b], 2);
			put_le(id + 2 * (size_t)b, e->v.box_id[b], 2);
		}
		x->running = e->total.running;
	}
	return UNC_OK;
}

size_t rec_run_bytes(const struct count_run *run)
{
	size_t n = 0;

	for (unsigned i = 0; i < run->nev; i++) /* the per-box fields and their headers */
		n += per_box_bytes(run->ev[i].v.nboxes ? run->ev[i].v.nboxes : 1u, true) + 5 * 6;
	return n;
}

void rec_put_run_sample(struct rec_buf *b, const struct count_run *run, uint64_t now)
{
	uint32_t nboxes[REC_MAX_EVENTS], n = run->nev < REC_MAX_EVENTS ? run->nev : REC_MAX_EVENTS;
	uint64_t running[REC_MAX_EVENTS];
	const uint64_t *box[REC_MAX_EVENTS];

	for (uint32_t i = 0; i < n; i++) {
		nboxes[i] = run->ev[i].v.nboxes ? run->ev[i].v.nboxes : 1;
		running[i] = run->ev[i].total.running;
		box[i] = run->ev[i].total.box;
	}
	rec_put_sample(b, n, nboxes, now - run->t_start, running, box);
}

void rec_sample_to_run(struct count_run *run, const struct rec *r, const struct rec_sample *s)
{
	for (uint32_t i = 0; i < r->nevents && i < run->nev; i++) {
		struct count_event *e = &run->ev[i];
		for (unsigned b = 0; e->total.box && b < (e->v.nboxes ? e->v.nboxes : 1u); b++)
			e->total.box[b] = rec_sample_box(r, s, i, b);
		e->total.running = rec_sample_running(r, s, i);
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
	}
	enum unc_status st = count_room(run);
	for (uint32_t i = 0; !st && i < r->nevents; i++) {
		const struct rec_event *x = &r->ev[i];
		struct count_event *e = &run->ev[i];
		view_from_rec(&e->v, x);
		/* Free-running: moved as stored; programmed events: every box but
		 * the still ones, so a record written before `still` existed shows
		 * none. */
		unsigned boxes = e->v.nboxes ? e->v.nboxes : 1;
		for (unsigned b = 0; b < boxes; b++) {
			e->moved[b] = (uint8_t)(e->v.kind == PMU_FREE ? rec_box_moved(x, b) : !rec_box_still(x, b));
			e->total.box[b] = rec_box(x, b);
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
	uint32_t n; /* samples so far */
};

/* Intervals: each sample holds the totals then; the report prints the
 * difference from the previous one, as it did during the run. */
static void replay_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	struct replay *p = ctx;
	struct count_run *run = p->run;

	rec_sample_to_run(run, r, s);
	/* the last, if it ends before its boundary, as stat_loop marked it
	 * (writers of layouts 1 and 2 stored no such interval) */
	run->iv_short = ++p->n == r->nintervals && r->version >= 3 &&
			s->t < p->n * u64_muldiv(r->interval, r->tsc_hz, 1000);
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
	if (!strcmp(r.command, "boot")) { /* a boot check that could not run (drivers/cmd/bootcheck.md) */
		if (format == REPORT_JSON) {
			out_printf(o, "{\"command\":\"boot\",\"boot\":%u,\"status\":", (unsigned)r.boot_seq);
			out_json_str(o, unc_strerror((enum unc_status)r.status));
			out_printf(o, ",\"reason\":");
			out_json_str(o, r.verdict_reason);
			out_printf(o, "}\n");
		} else {
			out_printf(o, "%sboot %u: %s (%s)\n", format == REPORT_CSV ? "# " : "", (unsigned)r.boot_seq,
				   r.verdict_reason, unc_strerror((enum unc_status)r.status));
		}
		return UNC_OK;
	}
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
		struct replay p = { o, &ro, &hw, &run, bw, 0 };
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
