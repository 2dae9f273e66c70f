/* The core PMUs the emulator serves beside the Skylake-client uncore, one
 * at a time, each typed from its own specification independently of the
 * application's drivers and events:
 *  - P6 (pmu_p6.c): the MMX Technology Developer's Guide, chapter 6 (the
 *    P6 event table, RDPMC) and Intel's SDM Vol. 3B, "Performance
 *    Monitoring (P6 Family Processor)" (PerfEvtSel0/1, PerfCtr0/1) and the
 *    P6 MSR table;
 *  - Knights Corner (pmu_knc.c): Intel 327357-001 (Tables 1-2 to
 *    1-10);
 *  - the architectural PMU (pmu_arch.c): SDM Vol. 3B, "Architectural
 *    Performance Monitoring" (versions 1 to 4), with CPUID leaf 0xA.
 * pmu_core.c has what they share: the choice of table, the rates, counting,
 * and leaf 0xA. */
#ifndef EMU_PMU_CORE_H
#define EMU_PMU_CORE_H

#include <stdbool.h>
#include <stdint.h>

struct emu;
struct emu_config;
struct emu_cpuid;

/* Units of the core events (struct emu_rate.unit, struct emu_ctr.unit),
 * after enum emu_unit's. */
enum emu_core_unit {
	EMU_UNIT_P6 = 8,
	EMU_UNIT_KNC,
	EMU_UNIT_ARCH,       /* the architectural PMU's general counters */
	EMU_UNIT_ARCH_FIXED, /* its fixed counters (counters only; their rates are general events') */
};

/* struct emu_core_event.flags */
#define EMU_CORE_CLOCK 0x1 /* unhalted core cycles: its rate is the core clock */
#define EMU_CORE_SUM   0x2 /* a unit mask of several states (P6 MESI): counts the sum of theirs */

struct emu_core_event {
	const char *name;
	uint8_t unit;     /* enum emu_core_unit */
	uint8_t code, umask;
	uint8_t counters; /* general counters it counts on: bit n = counter n */
	int8_t fixed;     /* the architectural fixed counter it is; -1: none */
	uint8_t flags;
};

/* The event tables, each from its specification. */
extern const struct emu_core_event emu_p6_events[];
extern const unsigned emu_p6_nevents;
extern const struct emu_core_event emu_knc_events[];
extern const unsigned emu_knc_nevents;
extern const struct emu_core_event emu_arch_events[];
extern const unsigned emu_arch_nevents;

/* The core clock when no --rate gives the cycles event's rate. */
#define EMU_CORE_DEFAULT_HZ 2000000000ull

/* The architectural PMU's limits (--arch-pmu): versions 1 to 4, up to 8
 * general counters, up to 3 fixed counters (0x309-0x30B), widths 32 to 48. */
#define EMU_ARCH_MAX_VERSION 4
#define EMU_ARCH_MAX_GP      8
#define EMU_ARCH_MAX_FIXED   3
/* IA32_PERF_CAPABILITIES bit 13, FW_WRITE: the full-width aliases 0x4C1+. */
#define EMU_ARCH_FW_WRITE    (1ull << 13)

/* The core table of a CPU identity (CPUID leaf 1 EAX): P6 for family 6
 * models 1, 3, 5, 6, 7, 8, 0xA and 0xB, Knights Corner for family 0xB
 * model 1, else none. */
enum emu_core emu_core_for(uint32_t leaf1_eax);

/* A unit's table and its length (NULL, 0 for a unit of none). */
const struct emu_core_event *emu_core_events(uint8_t unit, unsigned *n);
/* The event of a table by name (case-insensitive), NULL when unknown. */
const struct emu_core_event *emu_core_event_find(uint8_t unit, const char *name);

/* The PMU tables; the architectural one is built from cfg->arch and
 * cfg->perf_capabilities (the registers follow the enumerated counts). */
extern const struct emu_pmu emu_pmu_p6;
extern const struct emu_pmu emu_pmu_knc;
const struct emu_pmu *emu_pmu_arch(const struct emu_config *cfg);

/* Shared by the core tables (pmu_core.c). */
uint64_t emu_core_rate_key(const struct emu_config *cfg, uint8_t unit, uint8_t code, uint8_t umask); /* 0: none */
uint64_t emu_core_rate(const struct emu *e, uint8_t unit, uint8_t code, uint8_t umask, unsigned counter);
uint64_t emu_core_clock(const struct emu_config *cfg, uint8_t unit);
uint64_t emu_core_increment(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1);
bool emu_core_cpuid(const struct emu_config *cfg, uint32_t leaf, uint32_t subleaf, struct emu_cpuid *ret);
const char *emu_core_name(unsigned core);
/* No core PMU here freezes on overflow (the architectural PMU's freeze is
 * IA32_DEBUGCTL's, not modelled). */
bool emu_core_no_freeze(const struct emu *e);
bool emu_core_forwarded(const struct emu_ctr *c); /* a wrap sets the counter's status bit */
/* RDPMC of a PMU with two counters (P6: MMX Developer's Guide 6.3.1; KNC: Intel 327357-001,
 * Table 1-1): ECX 0 or 1 (all of ECX is the index), anything else #GP(0).
 * CPL 0 needs no CR4.PCE. */
enum unc_status emu_core_rdpmc_two(struct emu *e, uint32_t index, uint64_t *ret_val);
void emu_core_freeze(struct emu *e); /* enum emu_core: "p6", "knc", "arch", "none", "auto" */

/* The select bits every core table shares: USR 16, OS 17, E 18, EN 22, INV
 * 23, CMASK 31:24 (SDM Vol. 3B; Intel 327357-001 Table 1-5). */
#define EMU_CORE_SEL_OS   (1ull << 17)
#define EMU_CORE_SEL_EDGE (1ull << 18)
#define EMU_CORE_SEL_EN   (1ull << 22)
#define EMU_CORE_SEL_INV  (1ull << 23)
#define EMU_CORE_SEL_CMASK(v) (((v) >> 24) & 0xff)

#endif
