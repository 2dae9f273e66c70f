/* The uncore of Intel's discovery tables on the driver model: the iMC
 * (box type 6, one box per channel, MMIO) and the CHA (box type 0, MSR),
 * each box where its table entry says, with the generic box and event
 * control of Linux arch/x86/events/intel/uncore_discovery.c
 * (intel_generic_uncore_*: GENERIC_PMON_BOX_CTL_FRZ bit 0, GENERIC_PMON_CTL
 * event 7:0, umask 15:8, edge 18, invert 23, threshold 31:24; no enable bit,
 * which neither Linux nor Intel PCM sets on these counters).
 *
 * Register addresses (Linux intel_generic_uncore_assign_hw_event,
 * uncore_pci_event_ctl/perf_ctr):
 *   MSR:  select i = ctl + ctl_offset + i,     counter i = ctl + ctr_offset + i
 *   MMIO: select i = ctl + ctl_offset + 4 * i (32-bit), counter i = ctl + ctr_offset + 8 * i (64-bit)
 *   PCI:  select i = box + ctl_offset + 8 * i, counter i = box + ctr_offset + 8 * i
 * Counters per box, width and offsets are the first unit's of each type, as
 * Linux takes them (uncore_insert_box_info). */
#include "disc.h"
#include "disc_info.h"

#include <string.h>
#include "../base/fmt.h"
#include "../engine/stat.h"

/* Known models (Linux intel-family.h, uncore.c intel_uncore_match): SPR
 * and EMR use spr_uncore_init, GNR/SRF/GRR/CWF gnr_uncore_init. Any other
 * Intel family 6 model from 0x8F on is tried too (Linux falls back to
 * generic_uncore_init for unknown models), except the client models
 * below: its table decides. */
static const struct pmu_model disc_models[] = {
	{ 6, 0x8F, "Sapphire Rapids" },
	{ 6, 0xCF, "Emerald Rapids" },
	{ 6, 0xAD, "Granite Rapids" },
	{ 6, 0xAE, "Granite Rapids-D" },
	{ 6, 0xAF, "Sierra Forest" },
	{ 6, 0xB6, "Grand Ridge" },
	{ 6, 0xDD, "Clearwater Forest" },
	{ 0, 0, 0 },
};
static const struct pmu_model disc_unknown = { 6, 0, "an Intel model with no entry (its discovery table decides)" };

/* Client models from 0x8F on (Linux intel-family.h): their uncore has no
 * PCI discovery table, so they are not scanned for one. */
static const uint8_t disc_clients[] = {
	0x96, 0x97, 0x9A, 0x9C, 0x9D, 0x9E, 0xA5, 0xA6, 0xA7, 0xAA, 0xAC, 0xB5,
	0xB7, 0xBA, 0xBD, 0xBE, 0xBF, 0xC5, 0xC6, 0xCC,
};

UNC_COLD static const struct pmu_model *disc_match(const struct hw *hw, const struct cpu_info *cpu)
{
	(void)hw;
	if (!cpu->is_intel || cpu->family != 6)
		return NULL;
	for (const struct pmu_model *m = disc_models; m->family; m++)
		if (m->model == cpu->model)
			return m;
	for (unsigned i = 0; i < sizeof(disc_clients); i++)
		if (cpu->model == disc_clients[i])
			return NULL;
	return cpu->model >= 0x8F ? &disc_unknown : NULL;
}

static bool spr_cha_fix(uint32_t model)
{
	return model == 0x8F || model == 0xCF; /* spr_uncore_cpu_init */
}

static const struct pmu_layout disc_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.rw_mask = 0xFF84FFFFull,
	.cite = "Linux GENERIC_PMON_CTL_*",
};

/* The CHA's: the generic control and the umask's extension in bits 63:32
 * (Linux uncore_snbep.c, spr_uncore_chabox, which gnr_uncores also take:
 * format "umask" config:8-15,32-63, SPR_CHA_EVENT_MASK_EXT 0xffffffff),
 * where Intel's files' UMaskExt goes. */
static const struct pmu_layout disc_cha_layout = {
	.event = { 0, 8 },
	.umask = { 8, 8 },
	.umask_ext = { 32, 32 },
	.thresh = { 24, 8 },
	.inv = 1ull << 23,
	.edge = 1ull << 18,
	.rw_mask = 0xFFFFFFFFFF84FFFFull,
	.cite = "Linux GENERIC_PMON_CTL_*, SPR CHA umask config:8-15,32-63",
};

/* The CAS counts, 64 bytes each (Linux spr_uncore_imc_events,
 * gnr_uncore_imc_events): SPR and EMR count both sub-channels in one event;
 * GNR and SRF split them, SCH0 (event 0x05) and SCH1 (0x06), which bw
 * sums. Each model's table has the names of one pair. */
static const struct pmu_role_event disc_roles[] = {
	{ "UNC_M_CAS_COUNT.RD", PMU_ROLE_DRAM_READ },
	{ "UNC_M_CAS_COUNT.WR", PMU_ROLE_DRAM_WRITE },
	{ "UNC_M_CAS_COUNT_SCH0.RD", PMU_ROLE_DRAM_READ },
	{ "UNC_M_CAS_COUNT_SCH1.RD", PMU_ROLE_DRAM_READ },
	{ "UNC_M_CAS_COUNT_SCH0.WR", PMU_ROLE_DRAM_WRITE },
	{ "UNC_M_CAS_COUNT_SCH1.WR", PMU_ROLE_DRAM_WRITE },
	{ NULL, 0 },
};

/* No Max Inc/Cyc is published with the tables: a bound no 48-bit counter
 * reaches in a sample (2^36 per second: 4000 s to wrap), far above a CAS
 * per DRAM clock of any DDR5 channel and a CHA event per cycle. */
#define DISC_MAX_PER_SEC (1ull << 36)

/* Never written; reset as Linux's generic init_box resets every
 * discovery unit: GENERIC_PMON_BOX_CTL_RST_CTRS (bit 9) in the box control
 * (disc_reset_box). */
#define DISC_CTR_RESET                                                                                                  \
	.ctr_write = PMU_CTR_BOX_RESET,                                                                                \
	.ctr_write_cite = "uncore_discovery.c: GENERIC_PMON_BOX_CTL_RST_CTRS (bit 9), written by the generic init_box; " \
			  "Linux never writes a discovery unit's counter"

/* Not const: a probe that cannot tie the tables to packages names the iMC's
 * groups "table" and says why the CHAs are not programmed (tie_units). */
static struct pmu_unit disc_units[DISC_NUNITS] = {
	[DISC_UNIT_IMC] = { .pmu = "imc", .intel_unit = "iMC", .name = "iMC", .box_noun = "channel", .box_label = "ch",
			    .boxes_from = "the uncore discovery table", .kind = PMU_GENERAL, .space = PMU_MMIO,
			    .counters = PMU_MAX_CTRS, .width = 48, .max_boxes = PMU_BOXES_ANY, .sel_step = 4, .ctr_step = 8,
			    .probe_addr = true, .layout = &disc_layout, .max_per_sec = DISC_MAX_PER_SEC,
			    .raw_help = "imc/event=N,umask=N[,thresh=N][,inv][,edge]/", .role_events = disc_roles,
			    .group_noun = "socket", .short_prefix = "UNC_M_", DISC_CTR_RESET },
	[DISC_UNIT_CHA] = { .pmu = "cha", .intel_unit = "CHA", .name = "CHA", .box_noun = "CHA", .box_label = "cha",
			    .boxes_from = "the uncore discovery table", .kind = PMU_GENERAL, .space = PMU_MSR,
			    .counters = PMU_MAX_CTRS, .width = 48, .max_boxes = PMU_BOXES_ANY, .sel_step = 1, .ctr_step = 1,
			    .probe_addr = true, .layout = &disc_cha_layout, .max_per_sec = DISC_MAX_PER_SEC,
			    .raw_help = "cha/event=N,umask=N[,thresh=N][,inv][,edge]/ (umask: 40 bits, 15:8 and 63:32)", .group_noun = "socket",
			    .short_prefix = "UNC_CHA_", DISC_CTR_RESET, .per_pkg = true },
};

static const uint16_t unit_type[DISC_NUNITS] = { DISC_TYPE_IMC, DISC_TYPE_CHA };
static const uint8_t unit_access[DISC_NUNITS] = { DISC_MMIO, DISC_MSR };

static uint64_t type_fact(const struct disc_unit *u)
{
	return u->num_regs | (uint64_t)u->bit_width << 8 | (uint64_t)u->ctl_offset << 16 | (uint64_t)u->ctr_offset << 24 |
	       (uint64_t)u->access << 32;
}

/* Table order ties no table to a package when the tables holding iMC or
 * CHA units are not as many as the packages: the iMC's rows are then per
 * table, and no CHA is programmed (its MSRs are per package). */
static char cha_from[128];

UNC_COLD static void tie_units(bool per_table, unsigned tables, unsigned pkgs)
{
	disc_units[DISC_UNIT_IMC].group_noun = per_table ? "table" : "socket";
	disc_units[DISC_UNIT_CHA].group_noun = per_table ? "table" : "socket";
	if (per_table)
		fmt_snprintf(cha_from, sizeof(cha_from), "a discovery table tied to its package (%u table%s for %u package%s, "
			     "and no rule ties them on this model)", tables, tables == 1 ? "" : "s", pkgs, pkgs == 1 ? "" : "s");
	disc_units[DISC_UNIT_CHA].boxes_from = per_table ? cha_from : "the uncore discovery table";
}

/* With table order and as many tables (holding iMC or CHA units) as
 * packages, table k is the k-th package ID in ascending order, as Linux's
 * logical die IDs follow the order of the packages: sparse IDs ({0, 2})
 * stay the packages' own. */
UNC_COLD static void order_to_packages(const struct hw_pkgs *pk)
{
	uint32_t id[HW_MAX_PKGS];
	unsigned n = pk->n;

	for (unsigned i = 0; i < n; i++) {
		uint32_t v = pk->id[i];
		unsigned j = i;

		if (v > 63)
			return; /* beyond the socket field: keep the order numbers */
		for (; j && id[j - 1] > v; j--)
			id[j] = id[j - 1];
		id[j] = v;
	}
	for (unsigned t = 0; t < disc_tables.ntables; t++)
		if (disc_tables.table[t].socket >= 0 && (unsigned)disc_tables.table[t].socket < n)
			disc_tables.table[t].socket = (int8_t)id[disc_tables.table[t].socket];
}

/* What a probe counts on its way, for the facts it leaves. */
struct tally {
	uint32_t ncbo[DISC_MAX_TABLES]; /* MSR 0x2FFE's count of each socket; 0: none */
	unsigned not_taken[DISC_NUNITS], capped, most_cha;
	bool cha_differs, per_table;
};

/* The CHA count of SPR and EMR from MSR 0x2FFE, as Linux takes it
 * (spr_uncore_cpu_init: the table's count is wrong there); 0 (EMR XCC) is
 * ignored. CHAs numbered from it on (pmu_idx) are not programmed, as Linux
 * makes no PMU for them. The MSR is per package: each socket's count is
 * read by a processor of that package, each on its own; a socket whose
 * read fails is left uncapped (info says so). Not read when no table is
 * tied to a package (per_table). */
UNC_COLD static void read_cha_counts(const struct hw *hw, const struct cpu_info *cpu, struct pmu_present *p,
				     struct tally *t)
{
	p->facts[DISC_FACT_CBO] = 0;
	for (unsigned k = 0; spr_cha_fix(cpu->model) && !t->per_table && k < disc_tables.ntables; k++) {
		int s = disc_tables.table[k].socket;
		uint64_t v = 0;

		if (s < 0 || s >= 8 || (disc_tables.cbo_read | disc_tables.cbo_fail) >> s & 1)
			continue;
		p->facts[DISC_FACT_CBO] |= 1ull << 62;
		if (hw_msr_read_pkg(hw, (uint32_t)s, DISC_MSR_CBO_CONFIG, &v) != UNC_OK) {
			disc_tables.cbo_fail |= (uint8_t)(1u << s);
			continue;
		}
		if (!(p->facts[DISC_FACT_CBO] >> 63))
			p->facts[DISC_FACT_CBO] |= 1ull << 63 | (v & 0xFFFFFFFFu);
		t->ncbo[s] = disc_tables.cbo[s] = (uint32_t)v;
		disc_tables.cbo_read |= (uint8_t)(1u << s);
	}
	p->facts[DISC_FACT_CBO] |= (uint64_t)disc_tables.cbo_read << 32 | (uint64_t)disc_tables.cbo_fail << 40;
}

/* Each table's CHA count against its socket's MSR 0x2FFE: the first table
 * that differs (and the count it differs from), else the largest count. */
UNC_COLD static void compare_cha_counts(struct pmu_present *p, struct tally *t)
{
	for (unsigned k = 0; k < disc_tables.ntables; k++) {
		unsigned n = 0;
		int s = disc_tables.table[k].socket;

		for (unsigned j = 0; j < disc_tables.table[k].ntypes; j++)
			if (disc_tables.table[k].types[j].type == DISC_TYPE_CHA)
				n = disc_tables.table[k].types[j].n;
		if (s >= 0 && t->ncbo[s] && n && n != t->ncbo[s] && !t->cha_differs) {
			t->cha_differs = true;
			t->most_cha = n; /* the first table that differs */
			/* the count it differs from */
			p->facts[DISC_FACT_CBO] = (p->facts[DISC_FACT_CBO] & ~0xFFFFFFFFull) | t->ncbo[s];
		}
		if (!t->cha_differs && n > t->most_cha)
			t->most_cha = n;
	}
}

/* Unit u's boxes from every table's units of its type, in table order. */
UNC_COLD static enum unc_status take_boxes(unsigned u, struct pmu_present *p, struct tally *t, char *err,
					   size_t errsize)
{
	const struct disc_unit *first = NULL;
	unsigned boxes = 0, found = 0;

	for (unsigned i = 0; i < disc_tables.nunits; i++) {
		const struct disc_unit *x = &disc_tables.unit[i];

		if (x->box_type != unit_type[u])
			continue;
		found++;
		if (!first)
			first = x;
		int sock = disc_tables.table[x->table].socket;
		if (u == DISC_UNIT_CHA && t->per_table)
			continue; /* no package to program it on (tie_units) */
		if (u == DISC_UNIT_CHA && sock >= 0 && t->ncbo[sock] && x->pmu_idx >= t->ncbo[sock]) {
			t->capped++;
			continue;
		}
		if (x->access != unit_access[u] || disc_tables.table[x->table].socket < 0) {
			t->not_taken[u]++;
			continue;
		}
		if (pmu_present_room(p, u, boxes + 1)) {
			fmt_snprintf(err, errsize, "no memory for the %s unit's box %u of the discovery tables",
				     disc_units[u].name, boxes);
			return UNC_E_NO_MEMORY;
		}
		p->box_base[u][boxes] = x->ctl;
		p->group[u][boxes] = (uint8_t)disc_tables.table[x->table].socket;
		p->box_id[u][boxes] = (uint8_t)x->box_id;
		boxes++;
	}
	if (first) {
		p->facts[DISC_FACT_IMC_TYPES + u] = type_fact(first);
		/* the first unit's counters, width and offsets (uncore_insert_box_info) */
		p->counters[u] = first->num_regs < PMU_MAX_CTRS ? first->num_regs : PMU_MAX_CTRS;
		if (!p->counters[u])
			boxes = 0;
		p->width[u] = first->bit_width && first->bit_width <= 64 ? first->bit_width : 48;
		p->sel_off[u] = first->ctl_offset;
		p->ctr_off[u] = first->ctr_offset;
	}
	p->boxes[u] = boxes;
	p->found[u] = found;
	return UNC_OK;
}

UNC_COLD static enum unc_status disc_probe(const struct hw *hw, const struct cpu_info *cpu, uint32_t want,
				  struct pmu_present *p, char *err, size_t errsize, char *warn, size_t warnsize)
{
	enum unc_status st = disc_find(hw, &disc_tables, err, errsize);
	struct tally t = { 0 };

	if (warnsize)
		warn[0] = '\0';
	tie_units(false, 0, 0);
	p->partial = false;
	p->facts[DISC_FACT_MODEL] = (uint64_t)(cpu->family & 0xFF) << 8 | (cpu->model & 0xFF);
	want &= (1u << DISC_NUNITS) - 1;
	p->probed |= want;
	if (st == UNC_E_NOT_FOUND) {
		p->facts[DISC_FACT_SUMMARY] = 1ull << 41 | (uint64_t)(disc_tables.nskips & 0xFFFF) << 24;
		for (unsigned u = 0; u < DISC_NUNITS; u++)
			if (want >> u & 1)
				p->boxes[u] = p->found[u] = 0;
		return UNC_OK;
	}
	if (st != UNC_OK)
		return st;
	/* Each table's package: the UBox rule of SPR and EMR, else table order. */
	if ((st = disc_sockets(hw, &disc_tables, spr_cha_fix(cpu->model), err, errsize)) != UNC_OK)
		return st;
	/* The packages the seam found (none known: one package or no MP
	 * services, and nothing to compare with). */
	const struct hw_pkgs *pk = hw->pkgs && hw->pkgs->n && !hw->pkgs->more ? hw->pkgs : NULL;
	unsigned npk = pk ? pk->n : 0;
	bool by_order = disc_tables.tie != DISC_TIE_UBOX;
	t.per_table = by_order && npk && disc_tables.sockets != npk;
	if (by_order && npk > 1 && !t.per_table)
		order_to_packages(pk);
	tie_units(t.per_table, disc_tables.sockets, npk);
	/* Fewer sockets than packages (a table on another PCI segment, which
	 * disc_find does not read, or a table that failed), or the UBoxes
	 * naming more: the counts are not the machine's. */
	p->partial = npk > 1 && (disc_tables.sockets < npk || (!by_order && disc_tables.sockets > npk));
	unsigned taken = 0; /* entries taken, every type */
	for (unsigned k = 0; k < disc_tables.ntables; k++)
		taken += disc_tables.table[k].units;
	p->facts[DISC_FACT_SUMMARY] = disc_tables.ntables | (uint64_t)(taken & 0xFFFF) << 8 |
				      (uint64_t)(disc_tables.nskips & 0xFFFF) << 24 | (uint64_t)disc_tables.by_device << 40;
	p->facts[DISC_FACT_TABLE0] = disc_tables.table[0].dev.bus | (uint64_t)disc_tables.table[0].dev.dev << 8 |
				     (uint64_t)disc_tables.table[0].dev.func << 13 | (uint64_t)disc_tables.table[0].device_id << 16 |
				     (disc_tables.table[0].bar >> 12) << 32;
	read_cha_counts(hw, cpu, p, &t);
	compare_cha_counts(p, &t);
	for (unsigned u = 0; u < DISC_NUNITS; u++)
		if (want >> u & 1 && (st = take_boxes(u, p, &t, err, errsize)) != UNC_OK)
			return st; /* a unit not asked for keeps no box: freeze writes none of it */
	p->facts[DISC_FACT_NOT_TAKEN] = t.not_taken[0] | (uint64_t)t.not_taken[1] << 16;
	p->facts[DISC_FACT_SOCKETS] = disc_tables.tie | (uint64_t)disc_tables.sockets << 8 |
				      (uint64_t)(t.capped & 0xFFFF) << 16 | (uint64_t)t.cha_differs << 32 |
				      (uint64_t)t.per_table << 33 | (uint64_t)(t.most_cha & 0xFFFF) << 40 |
				      (uint64_t)(npk & 0xFF) << 56;
	if (warnsize)
		disc_caveat(p, warn, warnsize);
	return UNC_OK;
}

/* In use when any select of a box reads other than 0. */
UNC_COLD static void disc_in_use(const struct hw *hw, const struct pmu_present *p, struct pmu_use *r,
			void (*on_fault)(void *ctx, struct pmu_reg reg), void *ctx)
{
	*r = (struct pmu_use){ .known = true };
	for (unsigned u = 0; u < DISC_NUNITS; u++)
		for (unsigned b = 0; b < p->boxes[u]; b++)
			for (unsigned i = 0; i < pmu_counters_of(&disc_units[u], p, u); i++) {
				struct pmu_reg reg = pmu_unit_sel(&disc_units[u], p, u, b, i);
				uint64_t v = 0;
				uint32_t v32;
				enum unc_status st;

				if (reg.space == PMU_MSR)
					st = pmu_msr_read(hw, reg, &v);
				else if (reg.space == PMU_PCI)
					st = hw_pci_read32(hw, reg.pci, (uint16_t)reg.addr, &v32), v = v32;
				else
					st = hw_mmio_read32(hw, reg.addr, &v32), v = v32;
				if (!pmu_use_read(r, reg, st, on_fault, ctx))
					continue;
				r->selects_checked++;
				if (v)
					pmu_use_busy(r, reg, v);
			}
}

/* Each box of each probed unit: FRZ (bit 0). The run writes each select
 * itself through the journal, so the controls' reset (bit 8) is not used;
 * the counters' (bit 9) is disc_reset_box's. */
UNC_COLD static enum unc_status box_write(struct pmu_io *io, const struct pmu_present *p, uint64_t v)
{
	enum unc_status st;

	for (unsigned u = 0; u < DISC_NUNITS; u++)
		for (unsigned b = 0; b < p->boxes[u]; b++)
			if ((st = pmu_io_write(io, pmu_unit_box_ctl(&disc_units[u], p, u, b), v)))
				return st;
	return UNC_OK;
}

static enum unc_status disc_freeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s)
{
	(void)s;
	return box_write(io, p, DISC_BOX_FRZ);
}

static enum unc_status disc_unfreeze(struct pmu_io *io, const struct pmu_present *p, struct pmu_state *s, bool verify)
{
	(void)s, (void)verify;
	return box_write(io, p, 0);
}

/* A counter in MMIO or PCI space is 64 bits in two dwords (48 valid):
 * high, low, high as the engine reads any wide counter (stat_read_reg). */
static enum unc_status disc_read_counter(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
					 unsigned idx, uint64_t *ret_val)
{
	struct pmu_reg r = pmu_unit_ctr(&disc_units[unit], p, unit, box, idx);
	uint64_t v;
	enum unc_status st = r.space == PMU_MSR ? pmu_msr_read(io->hw, r, &v) : stat_read_reg(io->hw, r, 64, &v);
	char addr[32];

	if (st)
		return pmu_io_fail(io, st, "read of %s counter %u at %s: %s", disc_units[unit].pmu, idx,
				   pmu_reg_addr(r, addr, sizeof(addr)), unc_strerror(st));
	*ret_val = v & pmu_width_mask(pmu_width_of(&disc_units[unit], p, unit));
	return UNC_OK;
}

/* disc_read_counter is one read of the counter's register, masked: a
 * sample may make it itself. */
static unsigned disc_fast_read(const struct pmu_present *p, unsigned unit, unsigned box, unsigned idx,
			       uint32_t *ret_index)
{
	(void)p, (void)unit, (void)box, (void)idx, (void)ret_index;
	return PMU_FAST_REG;
}

/* The box's counters to 0 as Linux resets them (the generic init_box's
 * GENERIC_PMON_BOX_CTL_RST_CTRS), with FRZ kept: the box is frozen while
 * the run programs it (PCM's reset writes the same FRZ | RST_CTRS). No
 * counter is written; the journal puts the box control back, not the
 * counters (Linux never writes them). */
UNC_COLD static enum unc_status disc_reset_box(struct pmu_io *io, const struct pmu_present *p, unsigned unit, unsigned box,
				      uint64_t start)
{
	(void)start;
	return pmu_io_write(io, pmu_unit_box_ctl(&disc_units[unit], p, unit, box), DISC_BOX_FRZ | DISC_BOX_RST_CTRS);
}

/* "uncore_imc_3 CTL1 (socket 0)" */
UNC_COLD static const char *disc_reg_name(const struct pmu_present *p, struct pmu_reg reg, char *buf, size_t size)
{
	if (!p)
		return NULL;
	for (unsigned u = 0; u < DISC_NUNITS; u++) {
		const struct pmu_unit *pu = &disc_units[u];

		for (unsigned b = 0; b < p->boxes[u] && b < p->room[u]; b++) {
			const char *name = u == DISC_UNIT_IMC ? "imc" : "cha";
			unsigned n = pmu_counters_of(pu, p, u);

			if (pmu_reg_eq(reg, pmu_unit_box_ctl(pu, p, u, b))) {
				fmt_snprintf(buf, size, "%s box %u BOX_CTL (socket %u)", name, p->box_id[u][b], p->group[u][b]);
				return buf;
			}
			for (unsigned i = 0; i < n; i++) {
				struct pmu_reg s = pmu_unit_sel(pu, p, u, b, i), c = pmu_unit_ctr(pu, p, u, b, i);
				const char *half = "";

				if (pmu_reg_eq(reg, s)) {
					fmt_snprintf(buf, size, "%s box %u CTL%u (socket %u)", name, p->box_id[u][b], i,
						     p->group[u][b]);
					return buf;
				}
				if (c.space != PMU_MSR && reg.space == c.space && reg.addr == c.addr + 4)
					half = "[63:32]";
				else if (!pmu_reg_eq(reg, c))
					continue;
				fmt_snprintf(buf, size, "%s box %u CTR%u%s (socket %u)", name, p->box_id[u][b], i, half,
					     p->group[u][b]);
				return buf;
			}
		}
	}
	return NULL;
}

static void disc_where(const struct pmu_present *p, unsigned unit, char *buf, size_t size)
{
	/* the CAS events of this model's table (the role events it has) */
	bool sch = evsel_find(&pmu_driver_disc, "UNC_M_CAS_COUNT_SCH1.RD") != NULL;

	if (p->facts[DISC_FACT_SOCKETS] >> 33 & 1) /* no table tied to a package: the rows are tables */
		fmt_snprintf(buf, size, "in %u %s boxes of %u discovery table%s; rows per table, not per socket",
			     p->boxes[unit], disc_units[unit].name, (unsigned)(p->facts[DISC_FACT_SOCKETS] >> 8 & 0xFF),
			     (p->facts[DISC_FACT_SOCKETS] >> 8 & 0xFF) == 1 ? "" : "s");
	else
		fmt_snprintf(buf, size, "in %u %s boxes of the uncore discovery table (%s)", p->boxes[unit],
			     disc_units[unit].name, sch ? "CAS_COUNT_SCH0 and SCH1, .RD and .WR" : "CAS_COUNT.RD and .WR");
}

static const struct pmu_ops disc_ops = {
	.probe = disc_probe,
	.in_use = disc_in_use,
	.freeze = disc_freeze,
	.unfreeze = disc_unfreeze,
	.read_counter = disc_read_counter,
	.fast_read = disc_fast_read,
	.reset_box = disc_reset_box,
	.reg_name = disc_reg_name,
	.info = disc_info,
	.where = disc_where,
	.caveat = disc_caveat,
};

extern const struct event_desc disc_events[];
extern const unsigned disc_events_count;
extern const struct event_table disc_events_tables[];
extern const unsigned disc_events_ntables;

/* Intel's perfmon file of each model (events/disc/): SPR and EMR
 * spr_uncore_init's, GNR and SRF (and GRR, CWF, which have none published
 * here) gnr_uncore_init's. Another model this driver matches gets none:
 * raw events only. */
static const struct {
	uint8_t model;
	const char *file;
} disc_files[] = {
	{ 0x8F, "sapphirerapids_uncore.json" }, { 0xCF, "emeraldrapids_uncore.json" },
	{ 0xAD, "graniterapids_uncore.json" },  { 0xAE, "graniterapids_uncore.json" },
	{ 0xAF, "sierraforest_uncore.json" },
	/* Grand Ridge and Clearwater Forest: gnr_uncore_init's models,
	 * whose iMC events Linux takes from Granite Rapids' */
	{ 0xB6, "graniterapids_uncore.json" },  { 0xDD, "graniterapids_uncore.json" },
};

static const struct event_desc no_events[1];
static const uint16_t no_index[2];
static const struct event_table disc_none = { no_events, no_index, 0, "" };

UNC_COLD static const struct event_table *disc_events_for(const struct cpu_info *cpu)
{
	if (!disc_match(NULL, cpu)) /* list --all elsewhere: the first file's (EMR's, as SPR's) */
		return NULL;
	for (unsigned i = 0; cpu->family == 6 && i < sizeof(disc_files) / sizeof(disc_files[0]); i++)
		for (unsigned t = 0; disc_files[i].model == cpu->model && t < disc_events_ntables; t++)
			if (!strcmp(disc_events_tables[t].file, disc_files[i].file))
				return &disc_events_tables[t];
	return &disc_none;
}

/* No global register: each box's control freezes it (the global control,
 * MSR 0x2FF0 on SPR, is not this run's to write). */
const struct pmu_driver pmu_driver_disc = {
	.name = "disc-uncore",
	.title = "Xeon uncore discovery",
	.what = "uncore PMU",
	.status_name = "none (no overflow status is read)",
	.vendor = "GenuineIntel",
	.models = disc_models,
	.match = disc_match,
	.units = disc_units,
	.nunits = DISC_NUNITS,
	.events = disc_events,
	.nevents = &disc_events_count,
	.events_for = disc_events_for,
	.ops = &disc_ops,
};
