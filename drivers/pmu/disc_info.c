/* What the discovery driver adds to `info`: the tables found (device, BAR,
 * units by type), each entry skipped with the reason, the units programmed,
 * the CHA count of MSR 0x2FFE (the engine prints whether the PMU is in
 * use, from disc_in_use's data). */
#include "disc_info.h"
#include "../base/fmt.h"

static const char *type_text(unsigned type, char *buf, size_t size)
{
	const char *name = disc_type_name(type);

	if (name)
		fmt_snprintf(buf, size, "%s (type %u)", name, type);
	else
		fmt_snprintf(buf, size, "type %u", type);
	return buf;
}

/* The parse this process made matches the record's summary (a stored
 * record's info prints only what its facts keep). */
static const struct disc *live(const struct pmu_present *p)
{
	const struct disc *d = &disc_tables;
	uint64_t s = p->facts[DISC_FACT_SUMMARY];

	if (s >> 41 & 1)
		return d->ntables ? NULL : d;
	unsigned taken = 0;
	for (unsigned t = 0; t < d->ntables; t++)
		taken += d->table[t].units;
	return d->ntables == (s & 0xFF) && (taken & 0xFFFF) == (s >> 8 & 0xFFFF) ? d : NULL;
}

static void unit_line(struct out *o, const struct pmu_present *p, unsigned u, const char *label)
{
	uint64_t f = p->facts[DISC_FACT_IMC_TYPES + u];
	static const char *const access[] = { "MSR", "MMIO", "PCI", "?" };

	if (!(p->probed >> u & 1)) {
		out_printf(o, "%s not probed\n", label);
		return;
	}
	if (!p->found[u]) {
		out_printf(o, "%s none in the tables\n", label);
		return;
	}
	out_printf(o, "%s %u box%s programmable of %u found; %u counters, %u bits, controls at +0x%x, counters at +0x%x (%s)\n",
		   label, p->boxes[u], p->boxes[u] == 1 ? "" : "es", p->found[u], (unsigned)(f & 0xFF),
		   (unsigned)(f >> 8 & 0xFF), (unsigned)(f >> 16 & 0xFF), (unsigned)(f >> 24 & 0xFF), access[f >> 32 & 3]);
	unsigned nt = (unsigned)(p->facts[DISC_FACT_NOT_TAKEN] >> (16 * u) & 0xFFFF);
	if (nt)
		out_printf(o, "  %u not programmed (another access type)\n", nt);
}

static const char *tie_text(unsigned tie)
{
	switch (tie) {
	case DISC_TIE_UBOX:
		return "by the UBox of each bus (8086:3250, CPUNODEID 0xc0 node ID looked up in GIDNIDMAP 0xd4; a bus "
		       "without one takes the nearest UBox bus above it: Linux snbep_pci2phy_map_init)";
	case DISC_TIE_ORDER:
		return "socket numbers by table order: no UBox device";
	case DISC_TIE_ORDER_UNMAPPED:
		return "socket numbers by table order: the UBox devices found do not map every table's bus (or are more than 8)";
	}
	return "?";
}

static void info_text(struct out *o, const struct pmu_present *p)
{
	const struct disc *d = live(p);
	uint64_t s = p->facts[DISC_FACT_SUMMARY];
	char tb[32];

	if (s >> 41 & 1) {
		out_printf(o, "discovery:    no table (no Intel PCI device with extended capability 0x23 holding a "
			      "readable PMON table)\n");
	} else {
		out_printf(o, "discovery:    %u table%s, %u units kept, %u entr%s skipped (%s)\n", (unsigned)(s & 0xFF),
			   (s & 0xFF) == 1 ? "" : "s", (unsigned)(s >> 8 & 0xFFFF), (unsigned)(s >> 24 & 0xFFFF),
			   (s >> 24 & 0xFFFF) == 1 ? "y" : "ies",
			   s >> 40 & 1 ? "devices 8086:09a7" : "any Intel device with DVSEC 0x23");
	}
	uint64_t so = p->facts[DISC_FACT_SOCKETS];
	bool per_table = so >> 33 & 1;
	if (!(s >> 41 & 1) && per_table)
		out_printf(o, "  sockets:    not known: %u table%s in table order for %u package%s, %s\n",
			   (unsigned)(so >> 8 & 0xFF), (so >> 8 & 0xFF) == 1 ? "" : "s", (unsigned)(so >> 56 & 0xFF),
			   (so >> 56 & 0xFF) == 1 ? "" : "s", tie_text((unsigned)(so & 0xFF)));
	else if (!(s >> 41 & 1))
		out_printf(o, "  sockets:    %u, %s\n", (unsigned)(so >> 8 & 0xFF), tie_text((unsigned)(so & 0xFF)));
	for (unsigned t = 0; d && t < d->ntables; t++) {
		const struct disc_table *x = &d->table[t];

		out_printf(o, "  table %u: %02x:%02x.%x (8086:%04x) capability 0x%x, BIR %u, BAR 0x%llx, ", t, x->dev.bus,
			   x->dev.dev, x->dev.func, x->device_id, x->cap, x->bir, (unsigned long long)x->bar);
		if (x->socket >= 0)
			out_printf(o, per_table ? "rows table%d" : "socket %d", x->socket);
		else
			out_puts(o, "no socket (no iMC or CHA unit)");
		out_printf(o, ", %u unit%s:", x->units, x->units == 1 ? "" : "s");
		for (unsigned k = 0; k < x->ntypes; k++)
			out_printf(o, "%s %u %s", k ? "," : "", x->types[k].n, type_text(x->types[k].type, tb, sizeof(tb)));
		out_puts(o, "\n");
	}
	for (unsigned i = 0; d && d->tie == DISC_TIE_UBOX && i < d->nubox && i < 8; i++)
		out_printf(o, "  ubox %02x:%02x.%x: node ID %u, GIDNIDMAP 0x%06x: socket %d\n", d->ubox[i].a.bus,
			   d->ubox[i].a.dev, d->ubox[i].a.func, (unsigned)(d->ubox[i].nodeid & 7),
			   (unsigned)(d->ubox[i].gidnid & 0xFFFFFF), d->ubox[i].socket);
	for (unsigned i = 0; d && i < d->nskips && i < DISC_MAX_SKIPS; i++) {
		const struct disc_skip *k = &d->skip[i];

		if (k->entry == DISC_TABLE_ENTRY)
			out_printf(o, "  skipped: a table (capability %u found): %s\n", k->table, disc_why_text(k->why));
		else
			out_printf(o, "  skipped: table %u entry %u (%s, box %u): %s\n", k->table, k->entry,
				   type_text(k->box_type, tb, sizeof(tb)), k->box_id, disc_why_text(k->why));
	}
	if (d && d->nskips > DISC_MAX_SKIPS)
		out_printf(o, "  skipped: %u more\n", d->nskips - DISC_MAX_SKIPS);
	unit_line(o, p, DISC_UNIT_IMC, "imc:         ");
	unit_line(o, p, DISC_UNIT_CHA, "cha:         ");
	uint64_t cf = p->facts[DISC_FACT_CBO];
	if (cf >> 63 && !(cf >> 62 & 1)) /* a record from before the per-socket reads: one value */
		out_printf(o, "  CHA count from MSR 0x2FFE: %u\n", (unsigned)(uint32_t)cf);
	else if (cf >> 62 & 1) {
		uint32_t n = (uint32_t)cf;
		unsigned capped = (unsigned)(so >> 16 & 0xFFFF);
		unsigned rd = (unsigned)(cf >> 32 & 0xFF), fail = (unsigned)(cf >> 40 & 0xFF);

		out_puts(o, "  CHA count from MSR 0x2FFE, each socket's read by a processor of its package:");
		for (unsigned s = 0, first = 1; s < 8; s++) {
			if (rd >> s & 1 && d)
				out_printf(o, "%s socket %u: %u%s", first ? "" : ",", s, (unsigned)d->cbo[s],
					   !d->cbo[s] ? " (0: ignored)" : "");
			else if (rd >> s & 1)
				out_printf(o, "%s socket %u: read", first ? "" : ",", s);
			else if (fail >> s & 1)
				out_printf(o, "%s socket %u: unreadable, its CHAs not capped", first ? "" : ",", s);
			else
				continue;
			first = 0;
		}
		out_puts(o, "\n");
		if (n && so >> 32 & 1)
			out_printf(o, "  CHA count differs: a table lists %u CHAs, MSR 0x2FFE says %u; %u beyond it not "
				      "programmed (Linux spr_uncore_cpu_init)\n",
				   (unsigned)(so >> 40 & 0xFFFF), (unsigned)n, capped);
		else if (capped)
			out_printf(o, "  %u CHAs beyond MSR 0x2FFE's count not programmed (Linux spr_uncore_cpu_init)\n", capped);
	}
	if (so >> 33 & 1)
		out_printf(o, "  no table tied to a package: %u table(s) hold iMC or CHA units, %u package(s) found, and no rule "
			      "ties a table to its package on this model (Linux uses the NUMA node, which firmware does not "
			      "have); iMC rows are per table (table0, table1, ...), not per socket; CHAs not programmed\n",
			   (unsigned)(so >> 8 & 0xFF), (unsigned)(so >> 56 & 0xFF));
}

const char *disc_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	uint64_t so = p->facts[DISC_FACT_SOCKETS];
	unsigned sockets = (unsigned)(so >> 8 & 0xFF), npk = (unsigned)(so >> 56 & 0xFF);
	bool per_table = so >> 33 & 1;

	if (p->facts[DISC_FACT_SUMMARY] >> 41 & 1 || !npk)
		return NULL;
	if (npk > 1 && sockets < npk)
		fmt_snprintf(buf, size, "discovery tables of %u socket%s found for %u packages (only PCI segment 0 is "
			     "read): the others are not counted%s", sockets, sockets == 1 ? "" : "s", npk,
			     per_table ? ", nor any CHA" : "");
	else if (npk > 1 && sockets > npk && !per_table)
		fmt_snprintf(buf, size, "the UBoxes map the tables to %u sockets for %u packages: no socket row can be "
			     "trusted", sockets, npk);
	else if (per_table)
		fmt_snprintf(buf, size, "%u discovery table%s for %u package%s, none tied to its package: iMC rows are per "
			     "table, and no CHA is programmed", sockets, sockets == 1 ? "" : "s", npk, npk == 1 ? "" : "s");
	else
		return NULL;
	return buf;
}

static void info_json(struct out *o, const struct pmu_present *p)
{
	const struct disc *d = live(p);
	uint64_t s = p->facts[DISC_FACT_SUMMARY];

	out_printf(o, ",\"tables\":%u,\"units\":%u,\"skipped\":%u,\"by_device_09a7\":%s", (unsigned)(s & 0xFF),
		   (unsigned)(s >> 8 & 0xFFFF), (unsigned)(s >> 24 & 0xFFFF), s >> 40 & 1 ? "true" : "false");
	out_puts(o, ",\"table_list\":[");
	for (unsigned t = 0; d && t < d->ntables; t++) {
		const struct disc_table *x = &d->table[t];
		out_printf(o, "%s{\"pci\":\"%02x:%02x.%x\",\"device\":\"8086:%04x\",\"cap\":\"0x%x\",\"bar\":\"0x%llx\","
			      "\"socket\":%d,\"units\":%u,\"types\":{",
			   t ? "," : "", x->dev.bus, x->dev.dev, x->dev.func, x->device_id, x->cap,
			   (unsigned long long)x->bar, x->socket, x->units);
		for (unsigned k = 0; k < x->ntypes; k++)
			out_printf(o, "%s\"%u\":%u", k ? "," : "", x->types[k].type, x->types[k].n);
		out_puts(o, "}}");
	}
	out_puts(o, "],\"skips\":[");
	for (unsigned i = 0; d && i < d->nskips && i < DISC_MAX_SKIPS; i++)
		out_printf(o, "%s{\"table\":%u,\"entry\":%d,\"reason\":\"%s\"}", i ? "," : "", d->skip[i].table,
			   d->skip[i].entry == DISC_TABLE_ENTRY ? -1 : (int)d->skip[i].entry, disc_why_text(d->skip[i].why));
	uint64_t so = p->facts[DISC_FACT_SOCKETS];
	out_printf(o, "],\"imc_boxes\":%u,\"cha_boxes\":%u,\"sockets\":%u,\"sockets_by\":\"%s\",\"cha_capped\":%u",
		   p->boxes[DISC_UNIT_IMC], p->boxes[DISC_UNIT_CHA], (unsigned)(so >> 8 & 0xFF),
		   (so & 0xFF) == DISC_TIE_UBOX ? "ubox" : "table_order", (unsigned)(so >> 16 & 0xFFFF));
	out_printf(o, ",\"packages\":%u,\"rows_per_table\":%s", (unsigned)(so >> 56 & 0xFF), so >> 33 & 1 ? "true" : "false");
}

void disc_info(struct out *o, const struct pmu_present *p, bool json)
{
	if (json)
		info_json(o, p);
	else
		info_text(o, p);
}
