/* The time base: how many TSC ticks make a second.
 *
 * The TSC is measured against a hardware clock of known frequency, the
 * ACPI power-management timer (3.579545 MHz, ACPI 6.5 section 4.8.3.3) or
 * the HPET (IA-PC HPET Specification 1.0a, section 2.3), reading BOTH
 * clocks at both ends of each window: a delay anywhere (an SMI, a
 * preempted virtual CPU) lengthens the window on both clocks alike and
 * cancels out. Each end is the tightest of several bracketed reads (TSC,
 * reference, TSC). Several windows give a median and a spread; a spread too
 * wide is an error, not a rate. Where CPUID leaf 0x15 gives the TSC/crystal
 * ratio (and the crystal, or leaf 0x16 the base frequency), that figure is
 * used once the measurement agrees with it.
 *
 * Nothing here includes a firmware header: the caller finds the ACPI tables
 * and hands over their bytes; every clock read goes through the seam. */
#ifndef UNC_TSC_H
#define UNC_TSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw.h"

#define TSC_PM_TIMER_HZ 3579545u

/* Where the TSC frequency came from (stored in records: values are fixed). */
enum tsc_source {
	TSC_SRC_NONE = 0,
	TSC_SRC_PM_TIMER = 1, /* measured against the ACPI PM timer */
	TSC_SRC_HPET = 2,     /* measured against the HPET */
	TSC_SRC_CPUID = 3,    /* CPUID leaf 0x15 (with 0x16), cross-checked by measurement */
	TSC_SRC_CPUID_UNCHECKED = 4, /* CPUID leaf 0x15 with no hardware clock to check it */
	TSC_SRC_FIXED = 5,    /* a clock whose rate is given (tests, the host decoder) */
};

/* A reference clock: a free-running up-counter of known frequency. */
struct tsc_ref {
	enum tsc_source source;  /* TSC_SRC_PM_TIMER or TSC_SRC_HPET */
	bool io;                 /* an I/O port (else a memory address) */
	uint64_t addr;
	uint32_t bits;           /* 24 or 32: the counter wraps at 2^bits */
	uint64_t hz;
};

/* The ACPI PM timer from a FADT's bytes (X_PM_TMR_BLK over PM_TMR_BLK,
 * 24 or 32 bits by TMR_VAL_EXT). false with a reason when it has none. */
bool tsc_ref_from_fadt(const uint8_t *fadt, size_t len, struct tsc_ref *ret, char *why, size_t whysize);
/* The HPET's main counter from the HPET table's bytes and its General
 * Capabilities register (the period in femtoseconds, bits 63:32) read by
 * the caller. Low 32 bits only: a 32-bit read never tears. */
bool tsc_ref_from_hpet(const uint8_t *hpet, size_t len, struct tsc_ref *ret, char *why, size_t whysize);
bool tsc_hpet_set_period(struct tsc_ref *ref, uint64_t caps, uint32_t config, char *why, size_t whysize);

/* The window plan: TSC_WINDOWS windows of 1/TSC_WINDOW_DIV s each. */
#define TSC_WINDOWS         6
#define TSC_WINDOW_DIV      20   /* 50 ms */
#define TSC_SPREAD_MAX_PPM  1000 /* 0.1%: wider is an error */
#define TSC_CPUID_MAX_PPM   1000 /* CPUID and the measurement must agree this well */

/* Measures the TSC against the first of refs (at most 2, in order of
 * preference) that can be read and advances, and sets hw->tick_hz and
 * hw->tsc. One line in err and no rate: UNC_E_DEVICE when the windows
 * disagree by more than TSC_SPREAD_MAX_PPM (or the TSC stands still);
 * UNC_E_NOT_FOUND when no clock is usable and CPUID 0x15 gives no
 * frequency. warn gets a line (else "") when CPUID and the measurement
 * disagree (the measurement is used), when CPUID could not be checked, or
 * when a preferred clock was passed over. */
enum unc_status tsc_calibrate(struct hw *hw, const struct tsc_ref *refs, unsigned nrefs, char *err, size_t errsize,
			      char *warn, size_t warnsize);

/* CPUID leaf 0x15 (and 0x16 for the crystal when 0x15 leaves it 0): the
 * TSC frequency in Hz, 0 when the processor does not say. */
uint64_t tsc_cpuid_hz(const struct hw *hw);

/* "the ACPI PM timer", "CPUID 0x15", ... */
const char *tsc_source_name(unsigned source);
/* One phrase for info and reports: "measured against the ACPI PM timer (6
 * windows within 12 ppm)"; "" when nothing says where it came from. */
void tsc_describe(const struct hw_tsc *t, char *buf, size_t size);

#endif
