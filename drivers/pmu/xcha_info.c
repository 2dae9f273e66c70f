/* What the CHA drivers (xcha.c) add to `info`: the sockets, their buses
 * and CHAs, where the count came from and how sockets were numbered; and
 * the caveat when a socket's CHAs are not counted. */
#include "xcha.h"

static unsigned sockets_of(const struct pmu_present *p)
{
	unsigned n = (unsigned)(p->facts[XCHA_FACT_SUMMARY] & 0xFF);

	return n > XCHA_MAX_SOCKETS ? XCHA_MAX_SOCKETS : n;
}

static void info_text(struct out *o, const struct pmu_present *p)
{
	bool icx = xcha_is_icx(p);
	unsigned n = sockets_of(p), total = 0;
	uint64_t sum = p->facts[XCHA_FACT_SUMMARY];

	for (unsigned s = 0; s < n; s++)
		total += xcha_sock(p, s) >> 8 & 0xFF;
	out_printf(o, "cha:          %u socket%s, %u CHA%s (MSRs of each package: CHA n at %s); 4 counters each, 48 bits\n",
		   n, n == 1 ? "" : "s", total, total == 1 ? "" : "s",
		   icx ? "0xb60 + Linux's icx_cha_msr_offsets[n]" : "0xe00 + 0x10 n");
	out_printf(o, "  count: popcount of %s of each socket's PCU function 8086:%s (device 30, function 3)\n",
		   icx ? "CAPID6 (0x9c) and CAPID7 (0xa0)" : "CAPID6 (0x9c) bits 27:0", icx ? "345b" : "2083");
	if (n)
		out_printf(o, "  sockets numbered %s\n",
			   sum >> 8 & 1 ? (icx ? "by their UBoxes' node IDs (8086:3450, CPUNODEID 0xc0, GIDNIDMAP 0xd4)"
					       : "by their UBoxes' node IDs (8086:2014, CPUNODEID 0xc0, GIDNIDMAP 0xd4)")
				     : "in bus order (not every PCU bus has a UBox whose node ID its GIDNIDMAP holds)");
	for (unsigned s = 0; s < n; s++) {
		uint32_t v = xcha_sock(p, s);
		out_printf(o, "  socket %u (bus 0x%02x): %u CHA%s", v >> 16 & 7, v & 0xFF, v >> 8 & 0xFF,
			   (v >> 8 & 0xFF) == 1 ? "" : "s");
		if (!s)
			out_printf(o, icx ? " (CAPID6 0x%08x, CAPID7 0x%08x)" : " (CAPID6 0x%08x)",
				   (unsigned)(p->facts[XCHA_FACT_CAPID] & 0xFFFFFFFFu), (unsigned)(p->facts[XCHA_FACT_CAPID] >> 32));
		out_puts(o, v & XCHA_S_FAILED ? ": CAPID could not be read" : "");
		if (!(v & XCHA_S_REACHED))
			out_printf(o, ": no processor of package %u reached, not counted", v >> 16 & 7);
		out_puts(o, "\n");
	}
	if (!n)
		out_puts(o, "  no PCU function with CAPID6 found: no CHA is counted\n");
}

static void info_json(struct out *o, const struct pmu_present *p)
{
	unsigned n = sockets_of(p);

	out_printf(o, ",\"sockets_numbered_by\":\"%s\",\"cha_sockets\":[",
		   p->facts[XCHA_FACT_SUMMARY] >> 8 & 1 ? "ubox_node_id" : "bus_order");
	for (unsigned s = 0; s < n; s++) {
		uint32_t v = xcha_sock(p, s);
		out_printf(o, "%s{\"socket\":%u,\"bus\":\"0x%02x\",\"chas\":%u,\"reached\":%s}", s ? "," : "", v >> 16 & 7, v & 0xFF,
			   v >> 8 & 0xFF, v & XCHA_S_REACHED ? "true" : "false");
	}
	out_puts(o, "]");
}

void xcha_info(struct out *o, const struct pmu_present *p, bool json)
{
	if (json)
		return info_json(o, p);
	if (!(p->probed & 1u << XCHA_UNIT_CHA)) {
		out_puts(o, "cha:          not probed\n");
		return;
	}
	info_text(o, p);
}

/* What the counts lack: a socket whose package no processor reached, or
 * fewer sockets than packages. */
const char *xcha_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	unsigned n = sockets_of(p), k = 0, pkgs = (unsigned)(p->facts[XCHA_FACT_SUMMARY] >> 16 & 0xFF);
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	for (unsigned s = 0; s < n; s++)
		if (!(xcha_sock(p, s) & XCHA_S_REACHED))
			out_printf(&o, "%ssocket %u", k++ ? ", " : "", xcha_sock(p, s) >> 16 & 7);
	if (k)
		out_puts(&o, ": no processor of its package reached, its CHAs not counted");
	if (pkgs > 1 && n < pkgs)
		out_printf(&o, "%s%u socket%s found with a PCU function for %u packages: the others' CHAs not counted",
			   k++ ? "; " : "", n, n == 1 ? "" : "s", pkgs);
	if (!k) {
		if (size)
			buf[0] = '\0';
		return NULL;
	}
	return buf;
}
