#include "skl.h"

#include "fmt.h"
#include "parse.h"

static const struct pmu_model skl_models[] = {
	{ 6, 0x4E, "Skylake (mobile)" },
	{ 6, 0x5E, "Skylake (desktop)" },
	{ 6, 0x8E, "Kaby/Coffee/Whiskey/Amber/Comet Lake (mobile)" },
	{ 6, 0x9E, "Kaby/Coffee Lake (desktop)" },
	{ 6, 0xA5, "Comet Lake (desktop)" },
	{ 6, 0xA6, "Comet Lake (mobile)" },
	{ 0, 0, 0 },
};

/* Table 2-7: THR 28:24, INV 23, EN 22, OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0. */
#define SKL_SEL_RW  0x1FD4FFFFull
/* Table 2-4: CNT_EN 22, OVF_EN 20. */
#define SKL_FIXED_RW 0x00500000ull

/* The fastest rates (max_per_sec) are generous bounds, not measurements:
 * the uncore clock runs below 5 GHz on every part of Table 1-2's
 * generations, and an event adds at most a few dozen per clock (ARB and
 * CBo occupancies count queue entries). 2^40/s (1.1 * 10^12, above the
 * emulator's highest rate of 10^12) and a 2^33 Hz (8.6 GHz) clock leave
 * room for both, yet a counter written back to a small value implies a
 * step of nearly 2^44 or 2^48, thousands of times more than either allows
 * in the 100 ms between samples. */
#define SKL_EVENTS_MAX_PER_SEC (1ull << 40)
#define SKL_UCLK_MAX_HZ        (1ull << 33)

static const struct pmu_unit skl_units[SKL_NUNITS] = {
	[SKL_UNIT_CBO] = { "CBO", 2, 44, SKL_MAX_CBO, MSR_UNC_CBO_0_PERFEVTSEL0, MSR_UNC_CBO_0_PERFCTR0, 0x10, 7,
			   MSR_UNC_CBO_7_PERFEVTSEL0, MSR_UNC_CBO_7_PERFCTR0, SKL_SEL_RW, SKL_EVENTS_MAX_PER_SEC, false },
	[SKL_UNIT_ARB] = { "ARB", 2, 44, 1, MSR_UNC_ARB_PERFEVTSEL0, MSR_UNC_ARB_PERFCTR0, 0, 0, 0, 0, SKL_SEL_RW,
			   SKL_EVENTS_MAX_PER_SEC, false },
	[SKL_UNIT_FIXED] = { "FIXED", 1, 48, 1, MSR_UNC_PERF_FIXED_CTRL, MSR_UNC_PERF_FIXED_CTR, 0, 0, 0, 0,
			     SKL_FIXED_RW, SKL_UCLK_MAX_HZ, true },
};

const struct pmu_driver skl_client_uncore = {
	.name = "skl-client-uncore",
	.models = skl_models,
	.units = skl_units,
	.nunits = SKL_NUNITS,
};

void skl_check_in_use(const struct hw *hw, unsigned ncbo, bool ncbo_known, struct skl_in_use *r,
		      void (*on_fault)(void *ctx, uint32_t msr), void *ctx)
{
	const struct pmu_driver *drv = &skl_client_uncore;
	uint64_t v;

	*r = (struct skl_in_use){ .known = ncbo_known };
	for (int u = -1; u < (int)drv->nunits; u++) {
		/* u = -1 is MSR_UNC_PERF_GLOBAL_CTRL itself. */
		const struct pmu_unit *unit = u < 0 ? NULL : &drv->units[u];
		unsigned boxes = !unit ? 1 : u == SKL_UNIT_CBO ? skl_cbo_programmable(ncbo) : unit->max_boxes;
		unsigned per_box = unit ? unit->counters : 1;
		for (unsigned box = 0; box < boxes; box++) {
			for (unsigned i = 0; i < per_box; i++) {
				uint32_t msr = unit ? pmu_unit_sel(unit, box, i) : MSR_UNC_PERF_GLOBAL_CTRL;
				if (hw_msr_read(hw, msr, &v) != UNC_OK) {
					r->known = false;
					if (on_fault)
						on_fault(ctx, msr);
					continue;
				}
				bool busy = unit ? v != 0 : (v & UNC_GLOBAL_CTRL_EN) != 0;
				if (unit)
					r->selects_checked++;
				else
					r->global_ctrl = v;
				if (busy) {
					r->in_use = true;
					if (r->nbusy < SKL_MAX_BUSY)
						r->busy[r->nbusy++] = (struct msr_value){ msr, v };
				}
			}
		}
	}
}

unsigned skl_cbo_count_from_raw(unsigned no_cbo_banks)
{
	return no_cbo_banks ? no_cbo_banks - 1 : 0;
}

const char *skl_msr_name(uint32_t msr, char *buf, size_t size)
{
	switch (msr) {
	case MSR_UNC_PERF_GLOBAL_CTRL: return "MSR_UNC_PERF_GLOBAL_CTRL";
	case MSR_UNC_PERF_GLOBAL_STATUS: return "MSR_UNC_PERF_GLOBAL_STATUS";
	case MSR_UNC_PERF_FIXED_CTRL: return "MSR_UNC_PERF_FIXED_CTRL";
	case MSR_UNC_PERF_FIXED_CTR: return "MSR_UNC_PERF_FIXED_CTR";
	case MSR_UNC_CBO_CONFIG: return "MSR_UNC_CBO_CONFIG";
	}
	for (unsigned u = SKL_UNIT_CBO; u <= SKL_UNIT_ARB; u++) {
		const struct pmu_unit *pu = &skl_units[u];
		for (unsigned box = 0; box < pu->max_boxes; box++) {
			for (unsigned i = 0; i < pu->counters; i++) {
				const char *kind = NULL;
				if (msr == pmu_unit_sel(pu, box, i))
					kind = "PERFEVTSEL";
				else if (msr == pmu_unit_ctr(pu, box, i))
					kind = "PERFCTR";
				if (!kind)
					continue;
				if (pu->box_stride)
					fmt_snprintf(buf, size, "MSR_UNC_%s_%u_%s%u", pu->name, box, kind, i);
				else
					fmt_snprintf(buf, size, "MSR_UNC_%s_%s%u", pu->name, kind, i);
				return buf;
			}
		}
	}
	return NULL;
}

const char *skl_host_bridge_name(uint16_t vendor, uint16_t device)
{
	/* The IMC device IDs of arch/x86/events/intel/uncore_snb.c. */
	static const struct {
		uint16_t id;
		const char *name;
	} ids[] = {
		{ 0x1900, "Skylake" },	     { 0x1904, "Skylake" },	   { 0x190C, "Skylake" },
		{ 0x190F, "Skylake" },	     { 0x1910, "Skylake" },	   { 0x191F, "Skylake" },
		{ 0x1918, "Skylake" },	     { 0x5904, "Kaby Lake" },	   { 0x590C, "Kaby/Amber Lake" },
		{ 0x590F, "Kaby Lake" },     { 0x5910, "Kaby Lake" },	   { 0x5914, "Kaby Lake" },
		{ 0x5918, "Kaby Lake" },     { 0x591F, "Kaby Lake" },	   { 0x590D, "Amber Lake" },
		{ 0x3E0F, "Coffee Lake" },   { 0x3E10, "Coffee Lake" },	   { 0x3E18, "Coffee Lake" },
		{ 0x3E1F, "Coffee Lake" },   { 0x3E30, "Coffee Lake" },	   { 0x3E31, "Coffee Lake" },
		{ 0x3E32, "Coffee Lake" },   { 0x3E33, "Coffee Lake" },	   { 0x3EC2, "Coffee Lake" },
		{ 0x3EC4, "Coffee Lake" },   { 0x3EC6, "Coffee Lake" },	   { 0x3ECA, "Coffee Lake" },
		{ 0x3ECC, "Coffee Lake" },   { 0x3ED0, "Coffee/Whiskey Lake" }, { 0x3E34, "Whiskey Lake" },
		{ 0x3E35, "Whiskey Lake" },  { 0x9B33, "Comet Lake" },	   { 0x9B43, "Comet Lake" },
		{ 0x9B44, "Comet Lake" },    { 0x9B51, "Comet Lake" },	   { 0x9B53, "Comet Lake" },
		{ 0x9B54, "Comet Lake" },    { 0x9B61, "Comet Lake" },	   { 0x9B63, "Comet Lake" },
		{ 0x9B64, "Comet Lake" },    { 0x9B71, "Comet Lake" },	   { 0x9B73, "Comet Lake" },
	};

	if (vendor != 0x8086)
		return NULL;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (ids[i].id == device)
			return ids[i].name;
	return NULL;
}

const struct skl_imc_counter skl_imc[SKL_IMC_COUNTERS] = {
	{ "DRAM_GT_REQUESTS", "gt_requests", 0x5040, false,
	  "Read/write requests from the GT engine to DRAM, all channels (partial writes count each)." },
	{ "DRAM_IA_REQUESTS", "ia_requests", 0x5044, false,
	  "Read/write requests (demand and prefetch) from IA cores to DRAM, all channels (partial writes count each)." },
	{ "DRAM_IO_REQUESTS", "io_requests", 0x5048, false,
	  "Read/write requests from IO (PCIe, display, USB, ...) to DRAM, all channels (partial writes count each)." },
	{ "DRAM_DATA_READS", "data_reads", 0x5050, true,
	  "Reads (RdCAS) issued to DRAM, all channels; each a 64-byte transfer." },
	{ "DRAM_DATA_WRITES", "data_writes", 0x5054, true,
	  "Writes (WrCAS) issued to DRAM, all channels; each a 64-byte transfer." },
};

int skl_imc_find(const char *name)
{
	for (int i = 0; i < SKL_IMC_COUNTERS; i++)
		if (imc_name_matches(name, skl_imc[i].name, skl_imc[i].perf_name))
			return i;
	return -1;
}
