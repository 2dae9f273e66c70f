/* `uncore.efi info`: the platform facts a lab needs before trusting a
 * measurement: the CPU, how the hardware is reached, and for each driver
 * that matches the CPU what its probe found (printed by the driver) and
 * whether its PMU is in use (printed here, from the driver's data).
 * Gathering only reads; it never writes an MSR or PCI register. */
#ifndef UNC_INFO_H
#define UNC_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include "../base/cpu.h"
#include "../base/fmt.h"
#include "../base/hw.h"
#include "pmu.h"

#define INFO_MAX_FAULTS 16
#define INFO_MAX_PMUS   4

struct reg_access {
	struct pmu_reg reg;
	bool write;
};

/* One driver that matches the CPU, and what its probe found. */
struct info_pmu {
	const struct pmu_driver *drv;
	struct pmu_present p;
	struct pmu_use use;
	bool use_checked;             /* the in-use check ran */
	char refused[200];            /* a probe's refusal of an MMIO range (UNC_E_NOT_MMIO), or "" */
	/* A probe that failed otherwise (a discovery table refused; MCHBAR
	 * disabled, for the free-running units): the first failure's status
	 * and line, and whether it was the free-running units' probe; UNC_OK
	 * and "" when none failed. */
	enum unc_status probe_st;
	bool probe_free;
	char probe_err[160];
};

struct platform_info {
	struct cpu_info cpu;

	struct info_pmu pmu[INFO_MAX_PMUS];
	unsigned npmu;                /* 0: no driver matches this CPU */

	uint64_t tsc_hz;
	struct hw_tsc tsc;            /* where tsc_hz came from */
	enum hw_msr_mode msr_mode;
	const char *emulator;         /* the emulator's description, when emulated */
	const struct hw_emulated *emulated; /* the emulator's other paths (live, not stored); NULL: none */
	const struct hw_pkgs *pkgs;   /* the packages the seam found (live, not stored); NULL: not looked for */

	struct reg_access faults[INFO_MAX_FAULTS];
	unsigned nfaults;

	/* The verdict: UNC_OK only when the PMUs found can be used. */
	enum unc_status verdict;
	char verdict_reason[256]; /* as a record stores it (REC_LONG_STR) */
};

/* Gathers every fact it can; returns the verdict (UNC_OK, UNC_E_UNSUPPORTED
 * or UNC_E_FAULT). Without probe_msrs no MSR is read (what `bw` records). */
enum unc_status info_gather_opt(const struct hw *hw, struct platform_info *ret, bool probe_msrs);
static inline enum unc_status info_gather(const struct hw *hw, struct platform_info *ret)
{
	return info_gather_opt(hw, ret, true);
}

/* Gives back each driver's per-box arrays (pmu_present_free); every owner
 * of a gathered platform_info calls it on every exit path. */
void info_free(struct platform_info *pi);

/* Judges what was gathered (also for a record read back). */
void info_judge(struct platform_info *pi);

/* What the verdict is about: the one matching driver's PMU ("uncore PMU"),
 * "PMUs" for several, "uncore PMU" for none. */
const char *info_what(const struct platform_info *pi);

void info_print(struct out *o, const struct platform_info *pi);
void info_print_json(struct out *o, const struct platform_info *pi);

/* One driver's in-use facts, as info prints them after the driver's own
 * lines: "pmu in use: ..." and a line per register that made the verdict;
 * JSON: the members "pmu_in_use", "global_ctrl" (a driver whose check reads
 * one) and "pmu_busy_registers", each after a comma. */
void info_print_use(struct out *o, const struct info_pmu *ip, bool json);

#endif
