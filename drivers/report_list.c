/* `list`: the event table and the IMC counters, as a table or JSON. */
#include "report.h"

void report_list(struct out *o, bool json)
{
	static const char *units[] = { [EV_UNIT_CBO] = "CBOX", [EV_UNIT_ARB] = "ARB", [EV_UNIT_FIXED] = "CLOCK" };

	if (json)
		out_puts(o, "[");
	else
		out_printf(o, "%-5s  %-4s  %-5s  %-8s  %-46s  %s\n", "unit", "code", "umask", "counters", "event",
			   "description");
	for (unsigned i = 0; i < skl_events_count; i++) {
		const struct event_desc *d = &skl_events[i];
		char ctr[8];
		if (d->counters & EV_COUNTER_FIXED)
			fmt_snprintf(ctr, sizeof(ctr), "FIXED");
		else
			fmt_snprintf(ctr, sizeof(ctr), "%s%s%s", d->counters & 1 ? "0" : "",
				     (d->counters & 3) == 3 ? "," : "", d->counters & 2 ? "1" : "");
		if (!json) {
			out_printf(o, "%-5s  0x%02x  0x%02x   %-8s  %-46s  %s%s\n", units[d->unit], d->code, d->umask, ctr,
				   d->name, d->cmask ? "[threshold 1] " : "", d->brief);
			continue;
		}
		out_printf(o, "%s{\"Unit\":\"%s\",\"EventCode\":\"0x%02x\",\"UMask\":\"0x%02x\",\"EventName\":", i ? "," : "",
			   units[d->unit], d->code, d->umask);
		out_json_str(o, d->name);
		out_puts(o, ",\"BriefDescription\":");
		out_json_str(o, d->brief);
		out_printf(o, ",\"Counter\":\"%s\",\"CounterMask\":\"%u\",\"Invert\":\"%u\",\"EdgeDetect\":\"%u\"}", ctr,
			   d->cmask, d->inv, d->edge);
	}
	for (unsigned i = 0; i < SKL_IMC_COUNTERS; i++) {
		const struct skl_imc_counter *c = &skl_imc[i];
		if (!json) {
			out_printf(o, "%-5s  %-11s  %-8s  %-46s  %s (imc/%s/)\n", "IMC", "", "free", c->name, c->brief,
				   c->perf_name);
			continue;
		}
		out_printf(o, ",{\"Unit\":\"IMC\",\"EventName\":\"%s\",\"BriefDescription\":", c->name);
		out_json_str(o, c->brief);
		out_printf(o, ",\"Counter\":\"free-running\",\"MCHBAROffset\":\"0x%x\",\"PerfName\":\"imc/%s/\"}",
			   c->offset, c->perf_name);
	}
	if (json)
		out_puts(o, "]\n");
	else
		out_printf(o, "%u events, %u IMC counters. Raw encodings: cbo/event=N,umask=N[,thresh=N][,inv][,edge]/ "
			      "and arb/.../\n",
			   skl_events_count, SKL_IMC_COUNTERS);
}
