/* What the Xeon E5-2600 iMC driver adds to `info`: the sockets and their
 * uncore buses, the channels found, a channel missing on a socket that has
 * others, and a function with an unexpected device ID. */
#include "snbep.h"

struct snbep_socket {
	uint8_t bus;
	uint8_t present, odd; /* bit ch */
};

static unsigned sockets_of(const struct pmu_present *p, struct snbep_socket *s)
{
	unsigned n = (unsigned)(p->facts[SNBEP_FACT_SOCKETS] & 0xFF);

	if (n > SNBEP_MAX_SOCKETS)
		n = SNBEP_MAX_SOCKETS;
	for (unsigned i = 0; i < n; i++)
		s[i] = (struct snbep_socket){ (uint8_t)(p->facts[SNBEP_FACT_BUSES] >> (8 * i)),
					      (uint8_t)(p->facts[SNBEP_FACT_PRESENT] >> (4 * i) & 0xF),
					      (uint8_t)(p->facts[SNBEP_FACT_ODD] >> (4 * i) & 0xF) };
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

static unsigned popcount4(unsigned v)
{
	return (v & 1) + (v >> 1 & 1) + (v >> 2 & 1) + (v >> 3 & 1);
}

static void info_text(struct out *o, const struct pmu_present *p)
{
	struct snbep_socket s[SNBEP_MAX_SOCKETS];
	unsigned n = sockets_of(p, s), total = 0;

	for (unsigned i = 0; i < n; i++)
		total += popcount4(s[i].present);
	out_printf(o, "imc:          %u socket%s, %u channel%s (PCI device 16, functions 0, 1, 4, 5 = channels 0-3, "
		      "8086:3cb0/3cb1/3cb4/3cb5); per channel 4 counters and a DRAM-clock fixed counter, 48 bits\n",
		   n, n == 1 ? "" : "s", total, total == 1 ? "" : "s");
	if (n)
		out_printf(o, "  sockets numbered %s\n",
			   p->facts[SNBEP_FACT_SOCKETS] & SNBEP_SOCKETS_BY_NODE
				   ? "by their UBoxes' node IDs (8086:3ce0, CPUNODEID 0x40, GIDNIDMAP 0x54)"
				   : "in bus order (not every uncore bus has a UBox, 8086:3ce0, whose node ID its GIDNIDMAP holds)");
	for (unsigned i = 0; i < n; i++) {
		out_printf(o, "  socket %u (bus 0x%02x): channels", i, s[i].bus);
		for (unsigned ch = 0, k = 0; ch < SNBEP_CHANNELS; ch++)
			if (s[i].present >> ch & 1)
				out_printf(o, "%s %u", k++ ? "," : "", ch);
		if (!s[i].present)
			out_puts(o, " none");
		out_puts(o, "\n");
		for (unsigned ch = 0; ch < SNBEP_CHANNELS; ch++) {
			if (s[i].present >> ch & 1)
				continue;
			unsigned fn = snbep_channel_func[ch];
			if (s[i].odd >> ch & 1) {
				uint32_t id = odd_id(p, i, ch);
				if (id)
					out_printf(o, "  socket %u (bus 0x%02x): channel %u: 10.%u has device %04x:%04x, not %04X\n",
						   i, s[i].bus, ch, fn, id & 0xFFFF, id >> 16, snbep_channel_id[ch]);
				else
					out_printf(o, "  socket %u (bus 0x%02x): channel %u: 10.%u has another device, not %04X\n",
						   i, s[i].bus, ch, fn, snbep_channel_id[ch]);
			} else {
				out_printf(o, "  socket %u (bus 0x%02x): channel %u (10.%u) missing\n", i, s[i].bus, ch, fn);
			}
		}
	}
}

static void info_json(struct out *o, const struct pmu_present *p)
{
	struct snbep_socket s[SNBEP_MAX_SOCKETS];
	unsigned n = sockets_of(p, s);

	out_printf(o, ",\"sockets_numbered_by\":\"%s\"",
		   p->facts[SNBEP_FACT_SOCKETS] & SNBEP_SOCKETS_BY_NODE ? "ubox_node_id" : "bus_order");
	out_puts(o, ",\"sockets\":[");
	for (unsigned i = 0; i < n; i++) {
		out_printf(o, "%s{\"socket\":%u,\"bus\":\"0x%02x\",\"channels\":[", i ? "," : "", i, s[i].bus);
		for (unsigned ch = 0, k = 0; ch < SNBEP_CHANNELS; ch++)
			if (s[i].present >> ch & 1)
				out_printf(o, "%s%u", k++ ? "," : "", ch);
		out_puts(o, "],\"missing\":[");
		for (unsigned ch = 0, k = 0; ch < SNBEP_CHANNELS; ch++)
			if (!(s[i].present >> ch & 1) && !(s[i].odd >> ch & 1))
				out_printf(o, "%s%u", k++ ? "," : "", ch);
		out_puts(o, "],\"unexpected\":[");
		for (unsigned ch = 0, k = 0; ch < SNBEP_CHANNELS; ch++) {
			if (!(s[i].odd >> ch & 1))
				continue;
			uint32_t id = odd_id(p, i, ch);
			out_printf(o, "%s{\"channel\":%u,\"function\":\"10.%u\",", k++ ? "," : "", ch, snbep_channel_func[ch]);
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
	unsigned n = sockets_of(p, s), k = 0;
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	for (unsigned i = 0; i < n; i++)
		for (unsigned ch = 0; ch < SNBEP_CHANNELS; ch++) {
			if (s[i].present >> ch & 1)
				continue;
			out_printf(&o, "%ssocket %u (bus 0x%02x) channel %u (10.%u) %s", k++ ? ", " : "", i, s[i].bus, ch,
				   snbep_channel_func[ch], s[i].odd >> ch & 1 ? "has another device" : "missing");
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
