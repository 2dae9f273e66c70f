/* The engine's plan: the events a run adds, what each driver's probe finds
 * for them, and their places on counters (groups that take turns when they
 * do not fit together). Reads only; nothing here touches a PMU register. */
#include "stat_int.h"

#include <string.h>

#include "../base/fmt.h"
#include "../base/parse.h"

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
