/* `list`: the events of the drivers given, grouped by PMU: each general or
 * fixed unit's table, each free-running unit's counters, as a table or JSON. */
#include "report.h"

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

void report_list(struct out *o, bool json, const struct pmu_driver *const *drivers, bool all, const struct hw *hw)
{
	unsigned nev = 0, nfree = 0, npmu = 0;
	bool first = true, first_pmu = true;

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
			if (!json && pu->kind != PMU_FREE)
				out_printf(o, "%-5s  %-4s  %-5s  %-8s  %-46s  %s\n", "pmu", "code", "umask", "counters", "event",
					   "description");
			unsigned ntab;
			const struct event_desc *evs = pmu_events(drv, &ntab, NULL);
			/* the counters this CPU has (hw: this CPU's drivers) */
			uint8_t here = hw && drv->ops->counters_here ? (uint8_t)(drv->ops->counters_here(hw, u) | EV_COUNTER_FIXED)
								      : 0xFF;
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
					out_printf(o, "%-5s  0x%02x  0x%02x   %-8s  %-46s  %s", pu->pmu, e->code, e->umask, ctr,
						   e->name, e->cmask ? "[threshold 1] " : "");
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
					out_printf(o, "%-5s  %-11s  %-8s  %-46s  %s (%s/%s/)\n", pu->pmu, "", "free", c->name, c->brief,
						   pu->pmu, c->perf_name);
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
