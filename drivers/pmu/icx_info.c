/* What the Ice Lake-SP iMC driver adds to `info`: how the sockets were
 * numbered, each socket's device 8086:3451 (its bus, its BAR and each
 * controller's offset), the channels found, and what is missing. */
#include "icx.h"

struct icx_sock {
	uint8_t bus, dev, func, id;
	uint32_t d0;
	uint16_t mem[ICX_MCS];
	uint16_t present; /* bit ch */
};

static unsigned sockets_of(const struct pmu_present *p, struct icx_sock *s)
{
	unsigned n = (unsigned)(p->facts[ICX_FACT_SOCKETS] & 0xFF);

	if (n > ICX_MAX_SOCKETS)
		n = ICX_MAX_SOCKETS;
	for (unsigned i = 0; i < n; i++) {
		uint64_t d = p->facts[ICX_FACT_DEV0 + i], m = p->facts[ICX_FACT_MEM0 + i];
		s[i] = (struct icx_sock){ (uint8_t)d, (uint8_t)(d >> 8 & 0x1F), (uint8_t)(d >> 13 & 7), (uint8_t)(d >> 48),
					  (uint32_t)(d >> 16 & ICX_MMIO_BASE_MASK), { 0 },
					  (uint16_t)(p->facts[ICX_FACT_PRESENT] >> (ICX_CHANNELS * i) & 0xFFF) };
		for (unsigned k = 0; k < ICX_MCS; k++)
			s[i].mem[k] = (uint16_t)(m >> (16 * k) & ICX_MEM_MASK);
	}
	return n;
}

static unsigned count12(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* What is missing, one clause each, into o; how many. */
static unsigned missing(struct out *o, const struct pmu_present *p, const struct icx_sock *s, unsigned n)
{
	uint64_t f = p->facts[ICX_FACT_SOCKETS];
	unsigned k = 0, hidden = (unsigned)(f >> 40 & 0xFF), npk = (unsigned)(f >> 32 & 0xFF);

	for (unsigned i = 0; i < n; i++)
		for (unsigned m = 0; m < ICX_MCS; m++) {
			if (s[i].present >> (ICX_CH_PER_MC * m) & 7)
				continue;
			out_printf(o, "%ssocket %u controller %u (channels %u-%u): %s reads 0", k++ ? "; " : "", s[i].id, m,
				   ICX_CH_PER_MC * m, ICX_CH_PER_MC * m + 2, s[i].d0 ? "its offset" : "the device's BAR (0xd0)");
			if (s[i].d0)
				out_printf(o, " (0x%x)", ICX_MEM0 + ICX_MEM_STRIDE * m);
		}
	for (unsigned i = 0; i < 8; i++)
		if (hidden >> i & 1)
			out_printf(o, "%ssocket %u has a UBox (8086:3450) but no 8086:3451 on its buses (hidden by the firmware?)",
				   k++ ? "; " : "", i);
	if (n && !hidden && npk > n)
		out_printf(o, "%s%u devices 8086:3451 for %u packages", k++ ? "; " : "", n, npk);
	return k;
}

const char *icx_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	struct icx_sock s[ICX_MAX_SOCKETS];
	unsigned n = sockets_of(p, s);
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	if (!missing(&o, p, s, n))
		return NULL;
	out_puts(&o, ": not counted (iMC totals and bw lack its traffic)");
	return buf;
}

static void info_text(struct out *o, const struct pmu_present *p)
{
	struct icx_sock s[ICX_MAX_SOCKETS];
	unsigned n = sockets_of(p, s), total = 0;
	uint64_t f = p->facts[ICX_FACT_SOCKETS];

	for (unsigned i = 0; i < n; i++)
		total += count12(s[i].present);
	unsigned per_mc = (unsigned)(f >> 48 & 0xF);

	out_printf(o, "imc:          %u socket%s, %u channel%s (MMIO of device 8086:3451); 4 counters, 48 bits\n",
		   n, n == 1 ? "" : "s", total, total == 1 ? "" : "s");
	if (n && per_mc < ICX_CH_PER_MC)
		out_printf(o, "  box %u of each controller not programmed (PCM counts %u channels a controller here; Linux's "
			      "third box reads 0 unless its channel is active)\n",
			   per_mc, per_mc);
	if (n)
		out_printf(o, "  sockets numbered %s (%u UBox%s found)\n",
			   f & ICX_SOCKETS_BY_NODE ? "by their buses' UBoxes (8086:3450: CPUNODEID 0xc0 in GIDNIDMAP 0xd4)"
						   : "in bus order (no UBox maps each device's bus to a socket of its own)",
			   (unsigned)(f >> 16 & 0xFF), (f >> 16 & 0xFF) == 1 ? "" : "es");
	for (unsigned i = 0; i < n; i++) {
		uint64_t base = (uint64_t)s[i].d0 << ICX_MMIO_BASE_SHIFT;
		out_printf(o, "  socket %u: 8086:3451 at %02x:%02x.%x, BAR 0x%lx, controllers", s[i].id, s[i].bus, s[i].dev,
			   s[i].func, (unsigned long)base);
		for (unsigned m = 0; m < ICX_MCS; m++)
			out_printf(o, "%s %u at +0x%x", m ? "," : "", m, (unsigned)s[i].mem[m] << ICX_MEM_SHIFT);
		out_printf(o, "; %u channels\n", count12(s[i].present));
	}
	if (!n)
		out_puts(o, "  no device 8086:3451 found\n");
	struct strbuf sb;
	char buf[320];
	strbuf_init(&sb, buf, sizeof(buf));
	struct out m = strbuf_out(&sb);
	if (missing(&m, p, s, n))
		out_printf(o, "  missing: %s\n", buf);
}

static void info_json(struct out *o, const struct pmu_present *p)
{
	struct icx_sock s[ICX_MAX_SOCKETS];
	unsigned n = sockets_of(p, s);

	out_printf(o, ",\"sockets_numbered_by\":\"%s\",\"sockets\":[",
		   p->facts[ICX_FACT_SOCKETS] & ICX_SOCKETS_BY_NODE ? "ubox_node_id" : "bus_order");
	for (unsigned i = 0; i < n; i++) {
		out_printf(o, "%s{\"socket\":%u,\"device\":\"%02x:%02x.%x\",\"bar\":\"0x%lx\",\"controllers\":[", i ? "," : "",
			   s[i].id, s[i].bus, s[i].dev, s[i].func, (unsigned long)((uint64_t)s[i].d0 << ICX_MMIO_BASE_SHIFT));
		for (unsigned m = 0; m < ICX_MCS; m++)
			out_printf(o, "%s\"0x%x\"", m ? "," : "", (unsigned)s[i].mem[m] << ICX_MEM_SHIFT);
		out_puts(o, "],\"channels\":[");
		for (unsigned ch = 0, k = 0; ch < ICX_CHANNELS; ch++)
			if (s[i].present >> ch & 1)
				out_printf(o, "%s%u", k++ ? "," : "", ch);
		out_puts(o, "]}");
	}
	out_puts(o, "]");
}

void icx_info(struct out *o, const struct pmu_present *p, bool json)
{
	if (json)
		return info_json(o, p);
	if (!(p->probed & 1u << ICX_UNIT_IMC)) {
		out_puts(o, "imc:          not probed\n");
		return;
	}
	info_text(o, p);
}
