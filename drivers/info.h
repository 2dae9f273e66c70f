/* `uncore.efi info`: the platform facts a lab needs before trusting a
 * measurement. Gathering only reads; it never writes an MSR or PCI register. */
#ifndef UNC_INFO_H
#define UNC_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu.h"
#include "fmt.h"
#include "hw.h"
#include "imc.h"
#include "skl.h"

#define INFO_MAX_FAULTS 16

struct msr_access {
	uint32_t msr;
	bool write;
};

struct platform_info {
	struct cpu_info cpu;
	const char *model_name;       /* non-NULL: a supported Skylake-client model */

	bool msrs_probed;             /* false on a non-Intel or unsupported CPU */
	enum unc_status cbo_config_st;
	uint64_t cbo_config_raw;
	unsigned no_cbo_banks;        /* Table 2-6, bits 3:0 */
	unsigned cbo_count;           /* derived per Section 2.4.1, at most SKL_MAX_CBO */

	struct skl_in_use use;

	enum unc_status host_bridge_st;
	uint16_t hb_vendor, hb_device;
	const char *hb_generation;    /* NULL: not an ID uncore.efi knows */

	enum unc_status mchbar_st;
	uint64_t mchbar_raw;
	bool mchbar_enabled;
	uint64_t mchbar_base;
	enum imc_state mchbar_state;

	uint64_t tsc_hz;
	enum hw_msr_mode msr_mode;
	const char *emulator;         /* the emulator's description, when emulated */
	const struct hw_emulated *emulated; /* the emulator's other paths (live, not stored); NULL: none */

	struct msr_access faults[INFO_MAX_FAULTS];
	unsigned nfaults;

	/* The verdict: UNC_OK only when the uncore PMU can be used. */
	enum unc_status verdict;
	char verdict_reason[160];
};

/* Gathers every fact it can; returns the verdict (UNC_OK, UNC_E_UNSUPPORTED
 * or UNC_E_FAULT). Without probe_msrs no MSR is read (what `bw` records). */
enum unc_status info_gather_opt(const struct hw *hw, struct platform_info *ret, bool probe_msrs);
static inline enum unc_status info_gather(const struct hw *hw, struct platform_info *ret)
{
	return info_gather_opt(hw, ret, true);
}

void info_print(struct out *o, const struct platform_info *pi);
void info_print_json(struct out *o, const struct platform_info *pi);

#endif
