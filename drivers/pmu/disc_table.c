/* Intel's uncore discovery tables: finding, validating and decoding them
 * (disc_table.h). After Linux uncore_discovery.c and Intel PCM src/pci.h. */
#include "disc_table.h"
#include "ubox.h"
#include <string.h>
#include "../base/fmt.h"

struct disc disc_tables;

#define ALL_ONES (~(uint64_t)0)

enum disc_why disc_check(const struct disc_entry *e, bool global)
{
	/* uncore_discovery_invalid_unit: !table1 || !ctl || any qword all ones. */
	if (e->table1 == ALL_ONES || e->ctl == ALL_ONES || e->table3 == ALL_ONES)
		return DISC_WHY_ONES;
	if (!e->table1 || !e->ctl)
		return DISC_WHY_ZERO;
	if (global)
		return DISC_OK;
	if (disc_access_type(e) > DISC_PCI)
		return DISC_WHY_ACCESS;
	/* uncore_insert_box_info: !ctl_offset || !ctr_offset. */
	if (!disc_ctl_offset(e))
		return DISC_WHY_NO_CTL_OFF;
	if (!disc_ctr_offset(e))
		return DISC_WHY_NO_CTR_OFF;
	return DISC_OK;
}

struct disc_pci disc_pci_of(uint64_t ctl)
{
	unsigned devfn = (unsigned)(ctl >> 12 & 0xFF);

	return (struct disc_pci){
		.domain = (uint8_t)(ctl >> 28 & 0x7),
		.bus = (uint8_t)(ctl >> 20 & 0xFF),
		.dev = (uint8_t)(devfn >> 3),
		.func = (uint8_t)(devfn & 7),
		.reg = (uint16_t)(ctl & 0xFFF),
	};
}

const char *disc_why_text(enum disc_why why)
{
	switch (why) {
	case DISC_OK: return "taken";
	case DISC_WHY_ZERO: return "zero type or control address";
	case DISC_WHY_ONES: return "all-ones qword";
	case DISC_WHY_ACCESS: return "access type 3 (reserved)";
	case DISC_WHY_NO_CTL_OFF: return "no control offset";
	case DISC_WHY_NO_CTR_OFF: return "no counter offset";
	case DISC_WHY_BAR: return "BAR not a non-prefetchable memory BAR";
	case DISC_WHY_GLOBAL: return "global entry zero or all ones";
	case DISC_WHY_STRIDE: return "stride below 3 qwords";
	}
	return "?";
}

const char *disc_type_name(unsigned box_type)
{
	switch (box_type) {
	case DISC_TYPE_CHA: return "cha";
	case DISC_TYPE_IMC: return "imc";
	}
	return NULL;
}

const char *disc_unit_name(const struct disc_unit *u, char *buf, size_t size)
{
	const char *t = disc_type_name(u->box_type);

	if (t)
		fmt_snprintf(buf, size, "uncore_%s_%u", t, (unsigned)u->pmu_idx);
	else
		fmt_snprintf(buf, size, "uncore_type_%u_%u", (unsigned)u->box_type, (unsigned)u->pmu_idx);
	return buf;
}

static void skip(struct disc *d, unsigned table, unsigned entry, enum disc_why why, const struct disc_entry *e)
{
	if (d->nskips < DISC_MAX_SKIPS)
		d->skip[d->nskips] = (struct disc_skip){
			.table = (uint8_t)table,
			.why = (uint8_t)why,
			.entry = (uint16_t)entry,
			.box_type = e ? (uint16_t)disc_box_type(e) : 0,
			.box_id = e ? (uint16_t)disc_box_id(e) : 0,
		};
	d->nskips++;
}

static enum unc_status read64(const struct hw *hw, uint64_t phys, uint64_t *ret, char *err, size_t errsize)
{
	uint32_t lo, hi;
	enum unc_status st = hw_mmio_read32(hw, phys, &lo);

	if (st == UNC_OK)
		st = hw_mmio_read32(hw, phys + 4, &hi);
	if (st != UNC_OK) {
		fmt_snprintf(err, errsize, "MMIO read 0x%llx (the uncore discovery table): %s", (unsigned long long)phys,
			     unc_strerror(st));
		return st;
	}
	*ret = (uint64_t)hi << 32 | lo;
	return UNC_OK;
}

static enum unc_status read_entry(const struct hw *hw, uint64_t phys, struct disc_entry *e, char *err, size_t errsize)
{
	enum unc_status st = read64(hw, phys, &e->table1, err, errsize);

	if (st == UNC_OK)
		st = read64(hw, phys + 8, &e->ctl, err, errsize);
	if (st == UNC_OK)
		st = read64(hw, phys + 16, &e->table3, err, errsize);
	return st;
}

static enum unc_status cfg(const struct hw *hw, struct pci_addr a, uint16_t off, uint32_t *v, char *err,
			   size_t errsize)
{
	enum unc_status st = hw_pci_read32(hw, a, off, v);

	if (st != UNC_OK)
		fmt_snprintf(err, errsize, "PCI read %02x:%02x.%x+0x%x (uncore discovery): %s", a.bus, a.dev, a.func,
			     (unsigned)off, unc_strerror(st));
	return st;
}

/* The table's BAR (BIR bir of dev): its address in t->bar; *ret_skip when
 * the BAR is of a kind Linux refuses (the table skipped, not an error). */
static enum unc_status table_bar(const struct hw *hw, struct disc *d, unsigned ti, struct disc_table *t, bool *ret_skip,
				 char *err, size_t errsize)
{
	struct pci_addr dev = t->dev;
	uint32_t lo, hi = 0;
	enum unc_status st;

	*ret_skip = false;
	if ((st = cfg(hw, dev, (uint16_t)(0x10 + 4 * t->bir), &lo, err, errsize)) != UNC_OK)
		return st;
	/* parse_discovery_table: I/O (bit 0), type bit 1 and prefetchable
	 * (bit 3) refused; a 64-bit type (bit 2) takes the next dword. */
	if (lo & 0xB) {
		skip(d, ti, DISC_TABLE_ENTRY, DISC_WHY_BAR, NULL);
		*ret_skip = true;
		return UNC_OK;
	}
	if ((lo & 0x6) == 0x4 && (st = cfg(hw, dev, (uint16_t)(0x14 + 4 * t->bir), &hi, err, errsize)) != UNC_OK)
		return st;
	t->bar = (uint64_t)hi << 32 | (lo & ~0xFu);
	/* A BAR the firmware left unassigned reads 0 (PCM refuses a zero
	 * BAR): the table would be read from RAM at 0. */
	if (!t->bar) {
		fmt_snprintf(err, errsize,
			     "uncore discovery: %02x:%02x.%x's table BAR (BIR %u, config 0x%x) is 0, unassigned: nothing "
			     "read there",
			     dev.bus, dev.dev, dev.func, t->bir, 0x10u + 4u * t->bir);
		return UNC_E_UNSUPPORTED;
	}
	if (t->bar >= DISC_PHYS_LIMIT - 24) {
		fmt_snprintf(err, errsize, "uncore discovery: %02x:%02x.%x's table BAR 0x%llx is beyond 52-bit physical "
			     "addresses: nothing read there", dev.bus, dev.dev, dev.func, (unsigned long long)t->bar);
		return UNC_E_UNSUPPORTED;
	}
	return UNC_OK;
}

/* Table ti's units, after its global entry: each counted by type, the
 * iMC and CHA units kept in d->unit. */
static enum unc_status table_units(const struct hw *hw, struct disc *d, unsigned ti, char *err, size_t errsize)
{
	struct disc_table *tp = &d->table[ti];
	enum unc_status st;

	for (unsigned i = 0; i < tp->max_units; i++) {
		struct disc_entry e;
		enum disc_why why;
		unsigned type, k;

		/* unit i at (i + 1) * stride * 8 */
		if ((st = read_entry(hw, tp->bar + (uint64_t)(i + 1) * tp->stride * 8, &e, err, errsize)) != UNC_OK)
			return st;
		why = disc_check(&e, false);
		if (why != DISC_OK) {
			skip(d, ti, i, why, &e);
			continue;
		}
		type = disc_box_type(&e);
		for (k = 0; k < tp->ntypes && tp->types[k].type != type; k++)
			;
		if (k == tp->ntypes) {
			if (k == DISC_MAX_TYPES) {
				fmt_snprintf(err, errsize,
					     "uncore discovery: table %u lists more than %u unit types (this parser's limit, "
					     "DISC_MAX_TYPES): refused rather than counting part of the machine",
					     ti, DISC_MAX_TYPES);
				return UNC_E_UNSUPPORTED;
			}
			tp->types[tp->ntypes++] = (struct disc_type_count){ (uint16_t)type, 0 };
		}
		tp->types[k].n++;
		tp->units++;
		if (!disc_kept_type(type))
			continue; /* counted by type only */
		if (d->nunits >= DISC_MAX_UNITS) {
			fmt_snprintf(err, errsize,
				     "uncore discovery: more than %u iMC and CHA units in the tables (this parser's limit, "
				     "DISC_MAX_UNITS): refused rather than counting part of the machine",
				     DISC_MAX_UNITS);
			return UNC_E_UNSUPPORTED;
		}
		d->unit[d->nunits++] = (struct disc_unit){
			.ctl = e.ctl,
			.box_type = (uint16_t)type,
			.box_id = (uint16_t)disc_box_id(&e),
			.access = (uint8_t)disc_access_type(&e),
			.num_regs = (uint8_t)disc_num_regs(&e),
			.ctl_offset = (uint8_t)disc_ctl_offset(&e),
			.bit_width = (uint8_t)disc_bit_width(&e),
			.ctr_offset = (uint8_t)disc_ctr_offset(&e),
			.status_offset = (uint8_t)disc_status_offset(&e),
			.table = (uint8_t)ti,
			.entry = (uint16_t)i,
		};
		tp->kept++;
	}
	return UNC_OK;
}

enum unc_status disc_read_table(const struct hw *hw, struct disc *d, struct pci_addr dev, uint16_t device_id,
				uint16_t cap, char *err, size_t errsize)
{
	uint32_t id, bir;
	enum unc_status st;
	struct disc_table t = { .dev = dev, .device_id = device_id, .cap = cap };
	unsigned ti = d->ntables;

	if ((st = cfg(hw, dev, (uint16_t)(cap + 0x8), &id, err, errsize)) != UNC_OK)
		return st;
	if ((id & 0xFFFF) != DISC_DVSEC_PMON)
		return UNC_OK;
	if ((st = cfg(hw, dev, (uint16_t)(cap + 0xC), &bir, err, errsize)) != UNC_OK)
		return st;
	if (bir & ~DISC_BIR_MASK) {
		/* Linux: ret = false, goto err: discovery stops. */
		fmt_snprintf(err, errsize,
			     "uncore discovery: %02x:%02x.%x capability at 0x%x has BIR dword 0x%08x (bits 31:3 must be 0)",
			     dev.bus, dev.dev, dev.func, (unsigned)cap, bir);
		return UNC_E_UNSUPPORTED;
	}
	t.bir = (uint8_t)bir;
	if (ti >= DISC_MAX_TABLES) {
		fmt_snprintf(err, errsize,
			     "uncore discovery: more than %u tables (this parser's limit, DISC_MAX_TABLES): refused rather "
			     "than counting part of the machine",
			     DISC_MAX_TABLES);
		return UNC_E_UNSUPPORTED;
	}
	bool skipped;
	if ((st = table_bar(hw, d, ti, &t, &skipped, err, errsize)) != UNC_OK || skipped)
		return st;
	if ((st = read_entry(hw, t.bar, &t.global, err, errsize)) != UNC_OK)
		return st;
	if (disc_check(&t.global, true) != DISC_OK) {
		skip(d, ti, DISC_TABLE_ENTRY, DISC_WHY_GLOBAL, NULL);
		return UNC_OK;
	}
	t.stride = (uint8_t)disc_global_stride(&t.global);
	t.max_units = (uint16_t)disc_global_max_units(&t.global);
	if (t.stride < 3) {
		skip(d, ti, DISC_TABLE_ENTRY, DISC_WHY_STRIDE, NULL);
		return UNC_OK;
	}
	/* The whole table, (1 + max_units) entries of stride qwords (the
	 * window Linux maps), must lie below the 52-bit limit. */
	uint64_t size = (uint64_t)(1 + t.max_units) * t.stride * 8;
	if (t.bar + size > DISC_PHYS_LIMIT) {
		fmt_snprintf(err, errsize,
			     "uncore discovery: %02x:%02x.%x's table at 0x%llx (%u entries of %u bytes) runs past 52-bit "
			     "physical addresses: nothing read there",
			     dev.bus, dev.dev, dev.func, (unsigned long long)t.bar, t.max_units, t.stride * 8u);
		return UNC_E_UNSUPPORTED;
	}
	t.socket = -1;
	d->table[d->ntables++] = t;
	return table_units(hw, d, ti, err, errsize);
}

void disc_number(struct disc *d)
{
	for (unsigned i = 0; i < d->nunits; i++) {
		struct disc_unit *u = &d->unit[i];
		unsigned distinct = 0;
		bool seen = false;

		for (unsigned j = 0; j < i && !seen; j++) {
			const struct disc_unit *v = &d->unit[j];

			if (v->box_type != u->box_type)
				continue;
			if (v->box_id == u->box_id) {
				u->pmu_idx = v->pmu_idx;
				seen = true;
			} else if (v->pmu_idx + 1u > distinct) {
				distinct = v->pmu_idx + 1u;
			}
		}
		if (!seen)
			u->pmu_idx = (uint16_t)distinct;
	}
}

/* Capabilities noted in the scan: every 09A7 device's, and those of other
 * Intel devices until a 09A7 device is seen (then only 09A7 devices are
 * read, and the others are dropped); more than this is refused. */
#define DISC_MAX_CAPS (2 * DISC_MAX_TABLES)
struct cap_at {
	struct pci_addr dev;
	uint16_t device_id, cap;
};

/* The 0x23 capabilities of one function, from its extended list. */
static enum unc_status caps_of(const struct hw *hw, struct pci_addr a, uint16_t device_id, struct cap_at *caps,
			       unsigned *n, struct disc *d, char *err, size_t errsize)
{
	uint16_t off = 0x100;
	bool counted = false;

	for (unsigned guard = 0; guard < 64 && off >= 0x100; guard++) {
		uint32_t h;
		enum unc_status st = cfg(hw, a, off, &h, err, errsize);

		if (st != UNC_OK)
			return st;
		if (!h || h == 0xFFFFFFFFu)
			break;
		if ((h & 0xFFFF) == DISC_EXT_CAP_ID) {
			if (!counted)
				d->devices++;
			counted = true;
			if (device_id == DISC_DEVICE && !d->by_device) {
				unsigned k = 0; /* has_generic_discovery_table: 09A7 devices only from now on */
				for (unsigned i = 0; i < *n && i < DISC_MAX_CAPS; i++)
					if (caps[i].device_id == DISC_DEVICE)
						caps[k++] = caps[i];
				*n = k;
				d->by_device = true;
			}
			if (!d->by_device || device_id == DISC_DEVICE) {
				if (*n < DISC_MAX_CAPS)
					caps[*n] = (struct cap_at){ a, device_id, off };
				(*n)++; /* counted beyond DISC_MAX_CAPS: disc_find refuses */
			}
		}
		off = (uint16_t)(h >> 20 & 0xFFC);
	}
	return UNC_OK;
}

enum unc_status disc_find(const struct hw *hw, struct disc *d, char *err, size_t errsize)
{
	struct cap_at caps[DISC_MAX_CAPS];
	unsigned n = 0;

	memset(d, 0, sizeof(*d)); /* large: no compound literal on the firmware's stack */
	for (unsigned bus = 0; bus <= 0xFF; bus++) {
		for (unsigned dev = 0; dev < 32; dev++) {
			for (unsigned fn = 0; fn < 8; fn++) {
				struct pci_addr a = { (uint8_t)bus, (uint8_t)dev, (uint8_t)fn };
				uint32_t id, hdr;
				enum unc_status st = hw_pci_read32(hw, a, 0, &id);

				if (st == UNC_E_NOT_FOUND)
					goto next_bus; /* no root bridge decodes the bus */
				if (st != UNC_OK)
					return cfg(hw, a, 0, &id, err, errsize);
				if ((id & 0xFFFF) == 0xFFFF) {
					if (!fn)
						break;
					continue;
				}
				if (id == ((uint32_t)DISC_UBOX_SPR << 16 | 0x8086) && d->nubox < 255) {
					if (d->nubox < sizeof(d->ubox) / sizeof(d->ubox[0]))
						d->ubox[d->nubox].a = a;
					d->nubox++;
				}
				if ((id & 0xFFFF) == 0x8086 &&
				    (st = caps_of(hw, a, (uint16_t)(id >> 16), caps, &n, d, err, errsize)) != UNC_OK)
					return st;
				if (!fn) {
					if ((st = cfg(hw, a, 0xC, &hdr, err, errsize)) != UNC_OK)
						return st;
					if (!(hdr & 0x00800000u))
						break; /* not multi-function */
				}
			}
		}
next_bus:;
	}
	if (n > DISC_MAX_CAPS) {
		fmt_snprintf(err, errsize,
			     "uncore discovery: more than %u discovery capabilities (this parser's limit, DISC_MAX_CAPS): "
			     "refused rather than counting part of the machine",
			     DISC_MAX_CAPS);
		return UNC_E_UNSUPPORTED;
	}
	/* has_generic_discovery_table: a 0x09A7 device with the capability
	 * means only those devices are read (caps_of kept only theirs). */
	for (unsigned i = 0; i < n; i++) {
		enum unc_status st;

		if (d->by_device && caps[i].device_id != DISC_DEVICE)
			continue;
		st = disc_read_table(hw, d, caps[i].dev, caps[i].device_id, caps[i].cap, err, errsize);
		if (st != UNC_OK) {
			d->ntables = d->nunits = 0;
			return st;
		}
	}
	disc_number(d);
	if (!d->ntables) {
		fmt_snprintf(err, errsize, "no uncore discovery table (no Intel PCI device with extended capability 0x23%s)",
			     d->devices ? " holding a readable PMON table" : "");
		return UNC_E_NOT_FOUND;
	}
	return UNC_OK;
}

enum unc_status disc_sockets(const struct hw *hw, struct disc *d, bool use_ubox, char *err, size_t errsize)
{
	int bus_pkg[256];
	unsigned n = d->nubox < 8 ? d->nubox : 8;
	bool mapped = use_ubox && d->nubox && d->nubox <= 8;

	for (unsigned b = 0; b < 256; b++)
		bus_pkg[b] = -1;
	for (unsigned i = 0; use_ubox && i < n; i++) {
		enum unc_status st;

		d->ubox[i].socket = -1;
		if ((st = cfg(hw, d->ubox[i].a, DISC_UBOX_CPUNODEID, &d->ubox[i].nodeid, err, errsize)) != UNC_OK ||
		    (st = cfg(hw, d->ubox[i].a, DISC_UBOX_GIDNIDMAP, &d->ubox[i].gidnid, err, errsize)) != UNC_OK)
			return st;
		/* NODE_ID_MASK: bits 2:0 of CPUNODEID */
		d->ubox[i].socket = (int8_t)ubox_socket_of(d->ubox[i].nodeid, d->ubox[i].gidnid);
		bus_pkg[d->ubox[i].a.bus] = d->ubox[i].socket;
	}
	ubox_fill_down(bus_pkg); /* reverse: the nearest UBox bus above */
	for (unsigned t = 0; mapped && t < d->ntables; t++)
		if (d->table[t].kept && bus_pkg[d->table[t].dev.bus] < 0)
			mapped = false;
	d->tie = mapped ? DISC_TIE_UBOX : use_ubox && d->nubox ? DISC_TIE_ORDER_UNMAPPED : DISC_TIE_ORDER;
	d->sockets = 0;
	uint32_t seen = 0; /* packages 0-7 (the UBox map's); table order below numbers from 0 */
	unsigned order = 0;
	for (unsigned t = 0; t < d->ntables; t++) {
		struct disc_table *x = &d->table[t];

		if (!x->kept) {
			x->socket = -1; /* no iMC or CHA: no socket row */
			continue;
		}
		x->socket = (int8_t)(mapped ? bus_pkg[x->dev.bus] : (int)order++);
		if (x->socket < 32 && !(seen >> x->socket & 1)) {
			seen |= 1u << x->socket;
			d->sockets++;
		}
	}
	if (!mapped)
		d->sockets = (uint8_t)order;
	return UNC_OK;
}
