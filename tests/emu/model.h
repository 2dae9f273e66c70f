/* A register-level model of the 6th-generation Core uncore PMU (Intel
 * 334060-001), for tests: the host unit tests drive it through the hardware
 * seam, and uncore-emu.efi serves it to uncore.efi inside QEMU.
 *
 * No firmware headers. Time is given to the model (emu_set_time, in ns);
 * counts follow from time, never from how often registers are read. */
#ifndef EMU_MODEL_H
#define EMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../drivers/skl.h"
#include "../../drivers/status.h"

#define EMU_MAX_RATES 32
#define EMU_MAX_GP    8
/* Up to 8 CBos, as Linux programs on these models: boxes 0-6 at 0x700 +
 * 0x10 per box, box 7 at 0xF70/0xF76 (Linux uncore.h, CFL_UNC_CBO_7_*). */
#define EMU_MAX_CBO   8
#define EMU_MAX_UCLK  4294967295ull /* Hz */

/* The manual's tables as the emulator knows them, typed from Intel
 * 334060-001 independently of the application's (events/skl_uncore.json,
 * drivers/skl.c): tests/unit/test_conformance.c checks both against the
 * manual. */
struct emu_event {
	const char *name;
	uint8_t unit;      /* enum event_unit */
	uint8_t code, umask;
	uint8_t counters;  /* "Valid Counters": bit n = counter n; 0x80 = the fixed counter */
	bool threshold;    /* counts cycles with the event outstanding: a threshold view of code/umask */
};
#define EMU_NEVENTS 20 /* Table 3-1 (14), Table 3-2 (6, UNC_CLOCK.SOCKET included) */
extern const struct emu_event emu_events[EMU_NEVENTS];

struct emu_imc {
	const char *name;      /* Table 3-3 */
	const char *perf_name; /* Linux perf's imc/NAME/ */
	uint32_t offset;       /* from MCHBAR */
};
#define EMU_IMC_COUNTERS 5
extern const struct emu_imc emu_imc[EMU_IMC_COUNTERS];

/* Case-insensitive lookups: an event by the manual's name; an IMC counter
 * by the manual's name, perf's, or imc/NAME/. NULL or -1 when unknown. */
const struct emu_event *emu_event_find(const char *name);
int emu_imc_find(const char *name);

/* Counters a fault can make stuck. */
enum emu_ctr_id {
	EMU_CTR_FIXED,
	EMU_CTR_ARB0,
	EMU_CTR_ARB1,
	EMU_CTR_CBO0, /* CBo b counter i is EMU_CTR_CBO0 + 2*b + i */
	EMU_CTR_IMC0 = EMU_CTR_CBO0 + 2 * EMU_MAX_CBO, /* Table 3-3 order */
	EMU_NCTR = EMU_CTR_IMC0 + EMU_IMC_COUNTERS,
};

enum emu_mchbar_fault { EMU_MCHBAR_OK, EMU_MCHBAR_DISABLED, EMU_MCHBAR_ZERO, EMU_MCHBAR_HIGH };

struct emu_rate {
	uint8_t unit, code, umask; /* enum event_unit and the event select's fields */
	uint64_t per_sec;          /* CBo events: per CBo box */
};

struct emu_config {
	unsigned no_cbo_banks; /* raw MSR_UNC_CBO_CONFIG[3:0]; CBos = raw - 1, at most EMU_MAX_CBO */
	uint64_t uclk_hz;
	struct emu_rate rates[EMU_MAX_RATES];
	unsigned nrates;
	uint64_t imc_per_sec[EMU_IMC_COUNTERS]; /* emu_imc order */
	uint32_t imc_start[EMU_IMC_COUNTERS];   /* the counters' values at time 0 */
	/* faults */
	struct { uint32_t msr; bool write_only; } gp[EMU_MAX_GP];
	unsigned ngp;
	enum emu_mchbar_fault mchbar_fault;
	bool pmu_in_use;
	/* MSR_UNC_PERF_GLOBAL_CTRL at load (--global-ctrl), after pmu_in_use */
	bool global_ctrl_set;
	uint64_t global_ctrl;
	/* Bits 63:4 of MSR_UNC_CBO_CONFIG (reserved in Table 2-6), read with
	 * NO_CBO_BANKS; the low four bits are zero */
	uint64_t cbo_config_reserved;
	bool stuck[EMU_NCTR];
	bool unload; /* --unload, alone: not a configuration, remove the emulator */
};

struct emu_ctr {
	uint64_t sel;   /* event select, or MSR_UNC_PERF_FIXED_CTRL */
	uint64_t value; /* always below 2^width */
	uint8_t width;
	uint8_t status_bit;
	uint8_t unit;   /* enum event_unit */
	uint8_t index;  /* counter number within its box */
	bool stuck;
};

struct emu {
	struct emu_config cfg;
	unsigned ncbo;
	uint64_t global_ctrl, global_status;
	struct emu_ctr ctr[EMU_CTR_IMC0]; /* fixed, ARB 0-1, CBo 0.0 .. 7.1 */
	uint64_t now_ns;
	uint64_t synced; /* UCLK cycles since time 0 already applied to the counters */
};

/* Defaults: NO_CBO_BANKS 5 (four CBos), UCLK 800 MHz, no events, IMC counters
 * still, no faults. */
void emu_config_default(struct emu_config *cfg);

/* Parses the uncore-emu.efi options (documented in the README) into cfg,
 * or sets cfg->unload for a lone --unload. argv[0] is the program name. An
 * option given twice (a rate for one counter by two names, two MCHBAR
 * faults) is an error. On error writes one line naming the bad option into
 * err and returns UNC_E_INVALID. */
enum unc_status emu_parse_options(int argc, char **argv, struct emu_config *cfg, char *err, size_t errsize);

/* One-line description of a configuration, for `info` and logs. */
void emu_describe(const struct emu_config *cfg, char *buf, size_t size);

/* Whether v sets only GLOBAL_CTRL bits the model takes (Table 2-2, plus
 * bit 4, which Linux writes). */
bool emu_global_ctrl_valid(uint64_t v);

void emu_init(struct emu *e, const struct emu_config *cfg);

/* Moves model time forward (never back). Counting is applied lazily. */
void emu_set_time(struct emu *e, uint64_t now_ns);

/* MSR access as the hardware does it. UNC_E_FAULT is a #GP; UNC_E_NOT_FOUND
 * means the address is not an uncore MSR the model covers. */
enum unc_status emu_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val);
enum unc_status emu_msr_write(struct emu *e, uint32_t msr, uint64_t val);

/* The value of IMC counter i (Table 3-3 order) at time t. Pure: it does not
 * change the model, so a timer can call it while MSR calls are running. */
uint32_t emu_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns);

/* MCHBAR as the platform shows it, for a region at `base` (32 KiB aligned),
 * with the configured fault applied. */
uint64_t emu_mchbar_value(const struct emu_config *cfg, uint64_t base);

#endif
