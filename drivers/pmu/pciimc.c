/* The Xeon iMC in PCI configuration space from Ivy Bridge-EP to Cooper Lake:
 * the E5-2600 (Sandy Bridge-EP) iMC's registers in each channel's function
 * (snbep.c's ops), at each generation's functions and device IDs, and a box
 * control with reset bits (Linux's IVBEP_PMON_BOX_CTL_INT; the counters are
 * reset through it, never written). Each value's source is beside it:
 * Linux's arch/x86/events/intel/uncore_snbep.c (the *_uncore_pci_ids
 * tables: device IDs and channel order; snbep_pci2phy_map_init's
 * arguments: the UBox), and Intel PCM's src/types.h (the
 * *_MC*_CH*_REGISTER_DEV_ADDR / _FUNC_ADDR: where each channel is). */
#include "snbep.h"

#include <string.h>

static const struct pmu_model pciimc_models[] = {
	{ 6, 0x3E, "Ivy Bridge-EP" },
	{ 6, 0x3F, "Haswell-EP" },
	{ 6, 0x4F, "Broadwell-EP" },
	{ 6, 0x56, "Broadwell-DE" },
	{ 6, 0x55, "Skylake-SP" }, /* Cascade Lake and Cooper Lake by stepping: the probe names them */
	{ 0, 0, 0 },
};

/* Channel c of a socket: dev[c].func[c] with device ID id[c]. */
const struct snbep_gen snbep_gens[SNBEP_NGENS] = {
	/* Linux snbep_uncore_pci_ids (0x3CB0, 0x3CB1, 0x3CB4, 0x3CB5, "MC
	 * Channel 0-3"); Intel 327043-001 D16:F0,1,4,5;
	 * snbep_pci2phy_map_init(0x3ce0, SNBEP_CPUNODEID, SNBEP_GIDNIDMAP, true) */
	[SNBEP_GEN_SNB] = { "Sandy Bridge-EP", 4, { 16, 16, 16, 16 }, { 0, 1, 4, 5 },
			    { 0x3CB0, 0x3CB1, 0x3CB4, 0x3CB5 }, 0x3CE0, 0x40, 0x54, false },
	/* Linux ivbep_uncore_pci_ids: MC0 channels 0xEB4, 0xEB5, 0xEB0, 0xEB1,
	 * MC1 0xEF4, 0xEF5, 0xEF0, 0xEF1; PCM JKTIVT_MC0_CH0-3 16.4, 16.5, 16.0,
	 * 16.1, JKTIVT_MC1_CH0-3 30.4, 30.5, 30.0, 30.1;
	 * snbep_pci2phy_map_init(0x0e1e, SNBEP_CPUNODEID, SNBEP_GIDNIDMAP, true) */
	[SNBEP_GEN_IVB] = { "Ivy Bridge-EP", 8, { 16, 16, 16, 16, 30, 30, 30, 30 }, { 4, 5, 0, 1, 4, 5, 0, 1 },
			    { 0x0EB4, 0x0EB5, 0x0EB0, 0x0EB1, 0x0EF4, 0x0EF5, 0x0EF0, 0x0EF1 }, 0x0E1E, 0x40, 0x54, false },
	/* Linux hswep_uncore_pci_ids: MC0 channels 0x2FB0, 0x2FB1, 0x2FB4,
	 * 0x2FB5, MC1 0x2FD0, 0x2FD1, 0x2FD4, 0x2FD5; PCM HSX_MC0_CH0-3 20.0,
	 * 20.1, 21.0, 21.1, HSX_MC1_CH0-3 23.0, 23.1, 24.0, 24.1;
	 * snbep_pci2phy_map_init(0x2f1e, SNBEP_CPUNODEID, SNBEP_GIDNIDMAP, true) */
	[SNBEP_GEN_HSX] = { "Haswell-EP", 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
			    { 0x2FB0, 0x2FB1, 0x2FB4, 0x2FB5, 0x2FD0, 0x2FD1, 0x2FD4, 0x2FD5 }, 0x2F1E, 0x40, 0x54, false },
	/* Linux bdx_uncore_pci_ids: 0x6FB0, 0x6FB1, 0x6FB4, 0x6FB5, 0x6FD0,
	 * 0x6FD1, 0x6FD4, 0x6FD5; PCM: the HSX locations (HSX_MC* serve BDX);
	 * snbep_pci2phy_map_init(0x6f1e, SNBEP_CPUNODEID, SNBEP_GIDNIDMAP, true) */
	[SNBEP_GEN_BDX] = { "Broadwell-EP", 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
			    { 0x6FB0, 0x6FB1, 0x6FB4, 0x6FB5, 0x6FD0, 0x6FD1, 0x6FD4, 0x6FD5 }, 0x6F1E, 0x40, 0x54, false },
	/* Linux skx_uncore_pci_ids: MC0 channels 0x2042 at 10.2, 0x2046 at
	 * 10.6, 0x204A at 11.2, MC1 the same IDs at 12.2, 12.6, 13.2 (PCM
	 * SKX_MC0/MC1_CH0-2 agree); snbep_pci2phy_map_init(0x2014,
	 * SKX_CPUNODEID 0xc0, SKX_GIDNIDMAP 0xd4, false) */
	[SNBEP_GEN_SKX] = { "Skylake-SP", 6, { 10, 10, 11, 12, 12, 13 }, { 2, 6, 2, 2, 6, 2 },
			    { 0x2042, 0x2046, 0x204A, 0x2042, 0x2046, 0x204A }, 0x2014, 0xC0, 0xD4, true },
};

/* DCLK: DDR4-3200 (Cooper Lake's fastest) clocks 1600 MHz; 2^31 Hz is
 * above every part. Intel publishes no "Max Inc/Cyc" for these
 * generations: an event adds at most 255 a cycle (the 8-bit threshold
 * compares the increment), so 255 * 2^31 a second, a 48-bit counter
 * wrapping in 514 s at the least. */
#define PCIIMC_DCLK_MAX_HZ (1ull << 31)
#define PCIIMC_MAX_PER_SEC (0xFFull * PCIIMC_DCLK_MAX_HZ)

/* The CTL layout (SNBEP_PMON_CTL_* in Linux for every generation) and
 * UNC_M_CAS_COUNT.RD/.WR for bw are the E5-2600's (snbep_layout, snbep_roles). */
#define PCIIMC_RESET "uncore_snbep.c: ivbep_uncore_pci_init_box / snbep_uncore_pci_init_box write the box control's rst_ctrs (bit 1)"

static const struct pmu_unit pciimc_units[SNBEP_NUNITS] = {
	[SNBEP_UNIT_IMC] = { SNBEP_IMC_UNIT, .max_per_sec = PCIIMC_MAX_PER_SEC, .ctr_write = PMU_CTR_BOX_RESET,
			     .ctr_write_cite = PCIIMC_RESET },
	[SNBEP_UNIT_FIXED] = { SNBEP_FIXED_UNIT, .max_per_sec = PCIIMC_DCLK_MAX_HZ, .clock_hz = PCIIMC_DCLK_MAX_HZ,
			       .ctr_write = PMU_CTR_BOX_RESET, .ctr_write_cite = PCIIMC_RESET },
};

extern const struct event_desc pciimc_events[];
extern const unsigned pciimc_events_count;
extern const struct event_table pciimc_events_tables[];
extern const unsigned pciimc_events_ntables;

/* Intel's perfmon file of each model, as its mapfile.csv maps them:
 * GenuineIntel-6-3E IVT, 6-3F HSX, 6-4F BDX, 6-56 BDW-DE, 6-55 steppings
 * 0-4 SKX and 5-F CLX (which Cooper Lake's 10 and 11 are). */
static const struct {
	uint8_t model, from_stepping;
	const char *file;
} pciimc_files[] = {
	{ 0x3E, 0, "ivytown_uncore.json" },	{ 0x3F, 0, "haswellx_uncore.json" },
	{ 0x4F, 0, "broadwellx_uncore.json" },	{ 0x56, 0, "broadwellde_uncore.json" },
	{ 0x55, 5, "cascadelakex_uncore.json" }, { 0x55, 0, "skylakex_uncore.json" },
};

UNC_COLD static const struct event_table *pciimc_events_for(const struct cpu_info *cpu)
{
	const char *file = NULL;

	for (unsigned i = 0; !file && i < sizeof(pciimc_files) / sizeof(pciimc_files[0]); i++)
		if (cpu->model == pciimc_files[i].model && cpu->stepping >= pciimc_files[i].from_stepping)
			file = pciimc_files[i].file;
	for (unsigned t = 0; file && cpu->family == 6 && t < pciimc_events_ntables; t++)
		if (!strcmp(pciimc_events_tables[t].file, file))
			return &pciimc_events_tables[t];
	return NULL;
}

/* No global register: each channel's box control freezes it. */
const struct pmu_driver pmu_driver_pciimc = {
	.name = "pci-imc",
	.title = "Xeon iMC (Ivy Bridge-EP to Cooper Lake)",
	.what = "iMC PMU",
	.status_name = "none (no overflow status is read)",
	.vendor = "GenuineIntel",
	.models = pciimc_models,
	.units = pciimc_units,
	.nunits = SNBEP_NUNITS,
	.events = pciimc_events,
	.nevents = &pciimc_events_count,
	.events_for = pciimc_events_for,
	.ops = &snbep_ops,
};
