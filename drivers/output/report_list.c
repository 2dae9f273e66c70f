/* `list`: the events of the drivers given, grouped by PMU: each general or
 * fixed unit's table, each free-running unit's counters, as a table or JSON. */
#include "report.h"

#include <string.h>

#include "../engine/pmu.h"

static void counters_text(char *buf, size_t size, uint8_t counters)
{
	size_t n = 0;

	buf[0] = '\0';
	if (counters & EV_COUNTER_FIXED) { /* "FIXED", or "FIXED 1" for fixed counter 1 */
		unsigned c = 0;
		while (c < 7 && !(counters >> c & 1))
			c++;
		if (c < 7)
			fmt_snprintf(buf, size, "FIXED %u", c);
		else
			fmt_snprintf(buf, size, "FIXED");
		return;
	}
	for (unsigned c = 0; c < 7 && n < size; c++)
		if (counters >> c & 1)
			n += fmt_snprintf(buf + n, size - n, "%s%u", n ? "," : "", c);
}

/* The table's column widths: each its heading's or its widest entry's over
 * everything listed (hac_cbox, imc_prog and cpu_fixed are wider than
 * "pmu", a server's longest names than 46), so every row lines up. */
struct list_widths {
	int pmu, ctr, ev;
};

static void widen(int *w, size_t len)
{
	if (len > (size_t)*w)
		*w = (int)len;
}

/* The counters of unit u's events that this CPU has (hw: this CPU's
 * drivers; NULL: --all, the table's own). */
static uint8_t counters_here(const struct pmu_driver *drv, unsigned u, const struct hw *hw)
{
	return hw && drv->ops->counters_here ? (uint8_t)(drv->ops->counters_here(hw, u) | EV_COUNTER_FIXED) : 0xFF;
}

static struct list_widths list_widths(const struct pmu_driver *const *drivers, const struct hw *hw)
{
	struct list_widths w = { (int)strlen("pmu"), (int)strlen("counters"), (int)strlen("event") };
	char ctr[24];

	for (unsigned d = 0; drivers && drivers[d]; d++) {
		const struct pmu_driver *drv = drivers[d];
		unsigned ntab;
		const struct event_desc *evs = pmu_events(drv, &ntab, NULL);
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			widen(&w.pmu, strlen(pu->pmu));
			for (unsigned k = 0; pu->kind == PMU_FREE && k < pu->counters; k++)
				widen(&w.ev, strlen(pu->free[k].name));
		}
		for (unsigned i = 0; i < ntab; i++) {
			int u = pmu_unit_of_event(drv, &evs[i]);
			if (u < 0 || drv->units[u].kind == PMU_FREE)
				continue;
			counters_text(ctr, sizeof(ctr), evs[i].counters & counters_here(drv, (unsigned)u, hw));
			widen(&w.ctr, ctr[0] || !evs[i].counters ? strlen(ctr) : strlen("none"));
			widen(&w.ev, strlen(evs[i].name));
		}
	}
	return w;
}

void report_list(struct out *o, bool json, const struct pmu_driver *const *drivers, bool all, const struct hw *hw)
{
	unsigned nev = 0, nfree = 0, npmu = 0;
	bool first = true, first_pmu = true;
	struct list_widths w = list_widths(drivers, hw);

	if (json)
		out_puts(o, "[");
	for (unsigned d = 0; drivers && drivers[d]; d++) {
		const struct pmu_driver *drv = drivers[d];
		for (unsigned u = 0; u < drv->nunits; u++) {
			const struct pmu_unit *pu = &drv->units[u];
			npmu++;
			if (!json)
				out_printf(o, "%s%s PMU (%s, %s)%s%s\n", first_pmu ? "" : "\n", pu->pmu, drv->title, drv->name,
					   pu->raw_help ? "; raw: " : "", pu->raw_help ? pu->raw_help : "");
			unsigned ntab, mine = 0;
			const struct event_desc *evs = pmu_events(drv, &ntab, NULL);
			uint8_t here = counters_here(drv, u, hw);
			for (unsigned i = 0; i < ntab; i++)
				mine += pmu_unit_of_event(drv, &evs[i]) == (int)u;
			if (!json && pu->kind != PMU_FREE && !mine) /* not a heading over nothing */
				out_puts(o, "no named events in this driver's table: raw events only\n");
			else if (!json && pu->kind != PMU_FREE)
				out_printf(o, "%-*s  %-4s  %-5s  %-*s  %-*s  %s\n", w.pmu, "pmu", "code", "umask", w.ctr,
					   "counters", w.ev, "event", "description");
			for (unsigned i = 0; pu->kind != PMU_FREE && i < ntab; i++) {
				const struct event_desc *e = &evs[i];
				char ctr[24];
				if (pmu_unit_of_event(drv, e) != (int)u)
					continue;
				nev++;
				counters_text(ctr, sizeof(ctr), e->counters & here);
				if (!ctr[0] && e->counters) /* its counters are not on this CPU */
					fmt_snprintf(ctr, sizeof(ctr), "none");
				if (!json) {
					out_printf(o, "%-*s  0x%02x  0x%02x   %-*s  %-*s  %s", w.pmu, pu->pmu, e->code, e->umask,
						   w.ctr, ctr, w.ev, e->name, e->cmask ? "[threshold 1] " : "");
					if (e->umask_ext) /* Intel's name for it */
						out_printf(o, "[UMaskExt 0x%08x] ", (unsigned)e->umask_ext);
					out_printf(o, "%s\n", e->brief);
					continue;
				}
				out_printf(o, "%s{\"PMU\":\"%s\",\"Unit\":\"%s\",\"EventCode\":\"0x%02x\",\"UMask\":\"0x%02x\",",
					   first ? "" : ",", pu->pmu, e->unit, e->code, e->umask);
				if (e->umask_ext)
					out_printf(o, "\"UMaskExt\":\"0x%08x\",", (unsigned)e->umask_ext);
				out_puts(o, "\"EventName\":");
				first = false;
				out_json_str(o, e->name);
				out_puts(o, ",\"BriefDescription\":");
				out_json_str(o, e->brief);
				out_printf(o, ",\"Counter\":\"%s\",\"CounterMask\":\"%u\",\"Invert\":\"%u\",\"EdgeDetect\":\"%u\"}",
					   ctr, e->cmask, e->inv, e->edge);
			}
			for (unsigned k = 0; pu->kind == PMU_FREE && k < pu->counters; k++) {
				const struct pmu_free *c = &pu->free[k];
				nfree++;
				if (!json) {
					out_printf(o, "%-*s  %-11s  %-*s  %-*s  %s (%s/%s/)\n", w.pmu, pu->pmu, "", w.ctr, "free", w.ev,
						   c->name, c->brief, pu->pmu, c->perf_name);
					continue;
				}
				out_printf(o, "%s{\"PMU\":\"%s\",\"EventName\":\"%s\",\"BriefDescription\":", first ? "" : ",",
					   pu->pmu, c->name);
				first = false;
				out_json_str(o, c->brief);
				out_printf(o, ",\"Counter\":\"free-running\",\"Offset\":\"0x%x\",\"PerfName\":\"%s/%s/\"}", c->offset,
					   pu->pmu, c->perf_name);
			}
			first_pmu = false;
		}
	}
	if (json) {
		out_puts(o, "]\n");
		return;
	}
	if (!npmu) {
		out_printf(o, "no driver matches this CPU: no events (see 'uncore.efi list --all' and 'uncore.efi info')\n");
		return;
	}
	out_printf(o, "\n%u events, %u free-running counters, in %u PMUs (%s). Raw events: PMU/event=N,umask=N/\n", nev,
		   nfree, npmu, all ? "every driver's; this CPU may have fewer" : "this CPU's; --all lists every driver's");
}
