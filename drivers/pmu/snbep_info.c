/* What the Xeon iMC drivers (snbep.c, pciimc.c) add to `info`: the sockets and their
 * uncore buses, the channels found, a channel missing on a socket that has
 * others, and a function with an unexpected device ID. */
#include "snbep.h"

struct snbep_socket {
	uint8_t bus;
	uint8_t present, odd; /* bit ch */
};

static unsigned sockets_of(const struct pmu_present *p, struct snbep_socket *s)
{
	unsigned n = (unsigned)(p->facts[SNBEP_FACT_SOCKETS] & 0xFF), c = snbep_gen_of(p)->channels;

	if (n > SNBEP_MAX_SOCKETS)
		n = SNBEP_MAX_SOCKETS;
	for (unsigned i = 0; i < n; i++)
		s[i] = (struct snbep_socket){ (uint8_t)(p->facts[SNBEP_FACT_BUSES] >> (8 * i)),
					      (uint8_t)(p->facts[SNBEP_FACT_PRESENT] >> (c * i) & ((1u << c) - 1)),
					      (uint8_t)(p->facts[SNBEP_FACT_ODD] >> (c * i) & ((1u << c) - 1)) };
	return n;
}

/* The unexpected ID recorded for (socket, channel); 0: not recorded. */
static uint32_t odd_id(const struct pmu_present *p, unsigned s, unsigned ch)
{
	for (unsigned i = 0; i < SNBEP_NODD; i++) {
		uint64_t f = p->facts[SNBEP_FACT_ODD_ID0 + i];
		if (f >> 63 && (f >> 40 & 0xFF) == s && (f >> 32 & 0xFF) == ch)
			return (uint32_t)f;
	}
	return 0;
}

static unsigned popcount8(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* "PCI device 16, functions 0, 1, 4, 5" when one device holds every
 * channel, else "PCI functions 14.0, 14.1, ..." (device.function, in hex
 * as lspci writes them); then the device IDs, each once. */
static void functions_text(struct out *o, const struct snbep_gen *g)
{
	bool one = true;

	for (unsigned c = 1; c < g->channels; c++)
		one &= g->dev[c] == g->dev[0];
	if (one)
		out_printf(o, "PCI device %u, functions", g->dev[0]);
	else
		out_puts(o, "PCI functions");
	for (unsigned c = 0; c < g->channels; c++)
		if (one)
			out_printf(o, "%s %u", c ? "," : "", g->func[c]);
		else
			out_printf(o, "%s %x.%u", c ? "," : "", g->dev[c], g->func[c]);
	out_printf(o, " = channels 0-%u, 8086:", g->channels - 1u);
	for (unsigned c = 0, k = 0; c < g->channels; c++) {
		bool seen = false;
		for (unsigned d = 0; d < c; d++)
			seen |= g->id[d] == g->id[c];
		if (!seen)
			out_printf(o, "%s%04x", k++ ? "/" : "", g->id[c]);
	}
}

static void info_text(struct out *o, const struct pmu_present *p)
{
	struct snbep_socket s[SNBEP_MAX_SOCKETS];
	const struct snbep_gen *g = snbep_gen_of(p);
	unsigned n = sockets_of(p, s), total = 0;

	for (unsigned i = 0; i < n; i++)
		total += popcount8(s[i].present);
	out_printf(o, "imc:          %u socket%s, %u channel%s (", n, n == 1 ? "" : "s", total, total == 1 ? "" : "s");
	functions_text(o, g);
	out_puts(o, "); per channel 4 counters and a DRAM-clock fixed counter, 48 bits\n");
	if (n && p->facts[SNBEP_FACT_SOCKETS] & SNBEP_SOCKETS_BY_NODE)
		out_printf(o, "  sockets numbered by their UBoxes' node IDs (8086:%04x, CPUNODEID 0x%x, GIDNIDMAP 0x%x)\n",
			   g->ubox_id, g->ubox_node, g->ubox_map);
	else if (n)
		out_printf(o, "  sockets numbered in bus order (not every uncore bus has a UBox, 8086:%04x, whose node ID "
			      "its GIDNIDMAP holds)\n", g->ubox_id);
	for (unsigned i = 0; i < n; i++) {
		out_printf(o, "  socket %u (bus 0x%02x): channels", i, s[i].bus);
		for (unsigned ch = 0, k = 0; ch < g->channels; ch++)
			if (s[i].present >> ch & 1)
				out_printf(o, "%s %u", k++ ? "," : "", ch);
		if (!s[i].present)
			out_puts(o, " none");
		out_puts(o, "\n");
		for (unsigned ch = 0; ch < g->channels; ch++) {
			if (s[i].present >> ch & 1)
				continue;
			unsigned dev = g->dev[ch], fn = g->func[ch];
			if (s[i].odd >> ch & 1) {
				uint32_t id = odd_id(p, i, ch);
				if (id)
					out_printf(o, "  socket %u (bus 0x%02x): channel %u: %x.%u has device %04x:%04x, not %04X\n",
						   i, s[i].bus, ch, dev, fn, id & 0xFFFF, id >> 16, g->id[ch]);
				else
					out_printf(o, "  socket %u (bus 0x%02x): channel %u: %x.%u has another device, not %04X\n",
						   i, s[i].bus, ch, dev, fn, g->id[ch]);
			} else {
				out_printf(o, "  socket %u (bus 0x%02x): channel %u (%x.%u) missing\n", i, s[i].bus, ch, dev, fn);
			}
		}
	}
}

static void info_json(struct out *o, const struct pmu_present *p)
{
	struct snbep_socket s[SNBEP_MAX_SOCKETS];
	const struct snbep_gen *g = snbep_gen_of(p);
	unsigned n = sockets_of(p, s);

	out_printf(o, ",\"sockets_numbered_by\":\"%s\"",
		   p->facts[SNBEP_FACT_SOCKETS] & SNBEP_SOCKETS_BY_NODE ? "ubox_node_id" : "bus_order");
	out_puts(o, ",\"sockets\":[");
	for (unsigned i = 0; i < n; i++) {
		out_printf(o, "%s{\"socket\":%u,\"bus\":\"0x%02x\",\"channels\":[", i ? "," : "", i, s[i].bus);
		for (unsigned ch = 0, k = 0; ch < g->channels; ch++)
			if (s[i].present >> ch & 1)
				out_printf(o, "%s%u", k++ ? "," : "", ch);
		out_puts(o, "],\"missing\":[");
		for (unsigned ch = 0, k = 0; ch < g->channels; ch++)
			if (!(s[i].present >> ch & 1) && !(s[i].odd >> ch & 1))
				out_printf(o, "%s%u", k++ ? "," : "", ch);
		out_puts(o, "],\"unexpected\":[");
		for (unsigned ch = 0, k = 0; ch < g->channels; ch++) {
			if (!(s[i].odd >> ch & 1))
				continue;
			uint32_t id = odd_id(p, i, ch);
			out_printf(o, "%s{\"channel\":%u,\"function\":\"%x.%u\",", k++ ? "," : "", ch, g->dev[ch], g->func[ch]);
			if (id)
				out_printf(o, "\"id\":\"%04x:%04x\"}", id & 0xFFFF, id >> 16);
			else
				out_puts(o, "\"id\":null}");
		}
		out_puts(o, "]}");
	}
	out_puts(o, "]");
}

const char *snbep_caveat(const struct pmu_present *p, char *buf, size_t size)
{
	struct snbep_socket s[SNBEP_MAX_SOCKETS];
	const struct snbep_gen *g = snbep_gen_of(p);
	unsigned n = sockets_of(p, s), k = 0;
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	for (unsigned i = 0; i < n; i++)
		for (unsigned ch = 0; ch < g->channels; ch++) {
			if (s[i].present >> ch & 1)
				continue;
			out_printf(&o, "%ssocket %u (bus 0x%02x) channel %u (%x.%u) %s", k++ ? ", " : "", i, s[i].bus, ch,
				   g->dev[ch], g->func[ch], s[i].odd >> ch & 1 ? "has another device" : "missing");
		}
	if (!k)
		return NULL;
	out_puts(&o, ": not counted (iMC totals and bw lack its traffic)");
	return buf;
}

void snbep_info(struct out *o, const struct pmu_present *p, bool json)
{
	if (json)
		return info_json(o, p);
	if (!(p->probed & 1u << SNBEP_UNIT_IMC)) {
		out_puts(o, "imc:          not probed\n");
		return;
	}
	info_text(o, p);
}
