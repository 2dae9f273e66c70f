#include "tsc.h"

#include <string.h>

#include "arith.h"
#include "fmt.h"

#define PPM 1000000ull

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The length an ACPI table's header claims, within what the caller has. */
static size_t acpi_len(const uint8_t *t, size_t len, const char sig[4])
{
	if (len < 36 || memcmp(t, sig, 4))
		return 0;
	size_t claimed = le32(t + 4);
	return claimed < len ? claimed : len;
}

/* ACPI 6.5 Table 5.9 (FADT): PM_TMR_BLK at 76, PM_TMR_LEN at 91, Flags at
 * 112 (TMR_VAL_EXT bit 8, HW_REDUCED_ACPI bit 20), X_PM_TMR_BLK (a Generic
 * Address Structure: space ID, bit width, bit offset, access size, address)
 * at 208. */
bool tsc_ref_from_fadt(const uint8_t *fadt, size_t len, struct tsc_ref *ret, char *why, size_t whysize)
{
	size_t n = acpi_len(fadt, len, "FACP");

	if (n < 116) {
		fmt_snprintf(why, whysize, "the FADT is missing or too short (%lu bytes)", (unsigned long)n);
		return false;
	}
	uint32_t flags = le32(fadt + 112);
	if (flags & 1u << 20) {
		fmt_snprintf(why, whysize, "the FADT says HW_REDUCED_ACPI: no PM timer");
		return false;
	}
	*ret = (struct tsc_ref){ .source = TSC_SRC_PM_TIMER, .bits = flags & 1u << 8 ? 32 : 24, .hz = TSC_PM_TIMER_HZ };
	if (n >= 220 && le64(fadt + 212)) {
		uint8_t space = fadt[208];
		if (space == 0 || space == 1) {
			ret->io = space == 1;
			ret->addr = le64(fadt + 212);
			if (!ret->io || ret->addr <= 0xFFFC)
				return true;
		}
	}
	uint32_t port = le32(fadt + 76);
	if (!port || port > 0xFFFC || fadt[91] != 4) {
		fmt_snprintf(why, whysize, "the FADT gives no PM timer (PM_TMR_BLK 0x%x, PM_TMR_LEN %u)", port, fadt[91]);
		return false;
	}
	ret->io = true;
	ret->addr = port;
	return true;
}

/* IA-PC HPET 1.0a, section 3.2.4: the table's BASE_ADDRESS (a Generic
 * Address Structure in system memory) at 40; the main counter at +0xF0. */
bool tsc_ref_from_hpet(const uint8_t *hpet, size_t len, struct tsc_ref *ret, char *why, size_t whysize)
{
	size_t n = acpi_len(hpet, len, "HPET");

	if (n < 56) {
		fmt_snprintf(why, whysize, "no HPET table");
		return false;
	}
	if (hpet[40] != 0 || !le64(hpet + 44) || le64(hpet + 44) & 0x3FF) {
		fmt_snprintf(why, whysize, "the HPET table's base address is not usable (space %u, 0x%lx)", hpet[40],
			     (unsigned long)le64(hpet + 44));
		return false;
	}
	*ret = (struct tsc_ref){ .source = TSC_SRC_HPET, .addr = le64(hpet + 44) + 0xF0, .bits = 32 };
	return true;
}

/* Section 2.3.4: COUNTER_CLK_PERIOD (caps 63:32, femtoseconds, at most
 * 100 ns); section 2.3.5: ENABLE_CNF (config bit 0), which uncore never sets. */
bool tsc_hpet_set_period(struct tsc_ref *ref, uint64_t caps, uint32_t config, char *why, size_t whysize)
{
	uint64_t fs = caps >> 32;

	if (!fs || fs > 100000000) {
		fmt_snprintf(why, whysize, "the HPET's period of %lu fs is out of range", (unsigned long)fs);
		return false;
	}
	if (!(config & 1)) {
		fmt_snprintf(why, whysize, "the HPET is not running (ENABLE_CNF is 0)");
		return false;
	}
	ref->hz = 1000000000000000ull / fs;
	return true;
}

uint64_t tsc_cpuid_hz(const struct hw *hw)
{
	struct cpuid_regs r, base;

	hw_cpuid(hw, 0, 0, &r);
	if (r.eax < 0x15)
		return 0;
	uint32_t max = r.eax;
	hw_cpuid(hw, 0x15, 0, &r); /* EAX denominator, EBX numerator, ECX crystal Hz */
	if (!r.eax || !r.ebx)
		return 0;
	if (r.ecx)
		return u64_muldiv(r.ecx, r.ebx, r.eax);
	if (max < 0x16)
		return 0;
	/* No crystal given: the base frequency (leaf 0x16 EAX, MHz) is the
	 * TSC's, as Linux's native_calibrate_tsc() takes it. */
	hw_cpuid(hw, 0x16, 0, &base);
	return (uint64_t)(base.eax & 0xFFFF) * 1000000;
}

const char *tsc_source_name(unsigned source)
{
	switch (source) {
	case TSC_SRC_PM_TIMER: return "the ACPI PM timer";
	case TSC_SRC_HPET: return "the HPET";
	case TSC_SRC_CPUID: return "CPUID 0x15";
	case TSC_SRC_CPUID_UNCHECKED: return "CPUID 0x15, unchecked";
	case TSC_SRC_FIXED: return "a fixed rate";
	default: return "an unknown source";
	}
}

void tsc_describe(const struct hw_tsc *t, char *buf, size_t size)
{
	if (t->ref && t->source == TSC_SRC_CPUID)
		fmt_snprintf(buf, size, "from %s; %s agrees (%u windows within %u ppm)", tsc_source_name(t->source),
			     tsc_source_name(t->ref), t->windows, t->spread_ppm);
	else if (t->ref)
		fmt_snprintf(buf, size, "measured against %s (%u windows within %u ppm)", tsc_source_name(t->ref),
			     t->windows, t->spread_ppm);
	else if (t->source)
		fmt_snprintf(buf, size, "from %s", tsc_source_name(t->source));
	else /* a record written before the source was stored */
		fmt_snprintf(buf, size, "%s", "");
}

/* One end of a window: the TSC and the reference read together. The
 * tightest of TRIES brackets (TSC, reference, TSC) is kept, its TSC the
 * bracket's middle: an interruption inside a bracket widens only that one. */
#define TRIES 8
struct point {
	uint64_t tsc, unc; /* TSC at the read; the bracket's width */
	uint32_t ref;
};

static enum unc_status ref_read(const struct hw *hw, const struct tsc_ref *ref, uint32_t *ret)
{
	enum unc_status st = ref->io ? hw_io_read32(hw, (uint16_t)ref->addr, ret) : hw_mmio_read32(hw, ref->addr, ret);

	if (st == UNC_OK && ref->bits < 32)
		*ret &= (1u << ref->bits) - 1;
	return st;
}

static enum unc_status point_take(const struct hw *hw, const struct tsc_ref *ref, struct point *p)
{
	p->unc = UINT64_MAX;
	for (int i = 0; i < TRIES; i++) {
		uint32_t v;
		uint64_t t0 = hw_ticks(hw);
		enum unc_status st = ref_read(hw, ref, &v);
		uint64_t t1 = hw_ticks(hw);
		if (st)
			return st;
		if (t1 - t0 < p->unc)
			*p = (struct point){ t0 + (t1 - t0) / 2, t1 - t0, v };
	}
	return UNC_OK;
}

/* Polls until the reference has advanced by want ticks past a, then takes
 * the far end: *ret_dref is the reference's advance, wraps included. */
#define STILL_MAX 1000000 /* reads without a change: the clock has stopped */
#define TSC_IDLE_MARGIN_US 12000 /* the firmware's timer ticks every 10 ms or so */
static enum unc_status window_end(const struct hw *hw, const struct tsc_ref *ref, const struct point *a,
				  uint64_t want, struct point *b, uint64_t *ret_dref)
{
	uint32_t mask = ref->bits < 32 ? (1u << ref->bits) - 1 : UINT32_MAX, last = a->ref, v;
	uint64_t acc = 0;
	unsigned still = 0;
	enum unc_status st;

	while (acc < want) {
		/* Far from the end, idle instead of polling: the reference keeps
		 * counting (it wraps in seconds at the least), and the end is
		 * still a bracketed read. */
		uint64_t left_us = (want - acc) * 1000000 / ref->hz;
		if (hw->ops->idle && left_us > 2 * TSC_IDLE_MARGIN_US)
			hw->ops->idle(hw->ctx, (uint32_t)(left_us - TSC_IDLE_MARGIN_US));
		if ((st = ref_read(hw, ref, &v)))
			return st;
		if (v == last && ++still > STILL_MAX)
			return UNC_E_STUCK;
		if (v != last)
			still = 0;
		acc += (v - last) & mask;
		last = v;
	}
	if ((st = point_take(hw, ref, b)))
		return st;
	*ret_dref = acc + ((b->ref - last) & mask);
	return UNC_OK;
}

static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* TSC_WINDOWS windows end to end. A window whose two brackets together are
 * wider than WIDE_PPM of it is taken again (up to RETRIES times in all). */
#define WIDE_PPM 100
#define RETRIES  12
static enum unc_status measure(const struct hw *hw, const struct tsc_ref *ref, struct hw_tsc *t, char *err,
			       size_t errsize)
{
	uint64_t hz[TSC_WINDOWS], want = ref->hz / TSC_WINDOW_DIV, dref;
	struct point a, b;
	unsigned retries = 0;
	enum unc_status st;

	if ((st = point_take(hw, ref, &a)))
		goto failed;
	for (unsigned w = 0; w < TSC_WINDOWS;) {
		if ((st = window_end(hw, ref, &a, want, &b, &dref)))
			goto failed;
		uint64_t dtsc = b.tsc - a.tsc;
		if (!dtsc || b.tsc < a.tsc) {
			fmt_snprintf(err, errsize, "the TSC does not advance while %s does", tsc_source_name(ref->source));
			return UNC_E_DEVICE;
		}
		bool wide = u64_muldiv(a.unc + b.unc, PPM, dtsc) > WIDE_PPM;
		if (wide && retries < RETRIES) {
			retries++;
			if ((st = point_take(hw, ref, &a)))
				goto failed;
			continue;
		}
		hz[w++] = u64_muldiv(dtsc, ref->hz, dref);
		a = b;
	}
	sort_u64(hz, TSC_WINDOWS);
	t->measured_hz = (hz[TSC_WINDOWS / 2 - 1] + hz[TSC_WINDOWS / 2]) / 2;
	t->windows = TSC_WINDOWS;
	t->spread_ppm = (uint32_t)u64_muldiv(hz[TSC_WINDOWS - 1] - hz[0], PPM, t->measured_hz);
	t->ref = (uint8_t)ref->source;
	if (t->spread_ppm > TSC_SPREAD_MAX_PPM) {
		fmt_snprintf(err, errsize,
			     "the TSC against %s: %u windows of %u ms disagree by %u ppm (at most %u): the TSC is not "
			     "steady, no rate can be trusted",
			     tsc_source_name(ref->source), TSC_WINDOWS, 1000 / TSC_WINDOW_DIV, t->spread_ppm,
			     TSC_SPREAD_MAX_PPM);
		return UNC_E_DEVICE;
	}
	return UNC_OK;
failed:
	if (st == UNC_E_STUCK)
		fmt_snprintf(err, errsize, "%s at %s0x%lx does not advance", tsc_source_name(ref->source),
			     ref->io ? "port " : "", (unsigned long)ref->addr);
	else
		fmt_snprintf(err, errsize, "cannot read %s at %s0x%lx (%s)", tsc_source_name(ref->source),
			     ref->io ? "port " : "", (unsigned long)ref->addr, unc_strerror(st));
	return UNC_E_NOT_FOUND; /* that clock is of no use; another may be */
}

enum unc_status tsc_calibrate(struct hw *hw, const struct tsc_ref *refs, unsigned nrefs, char *err, size_t errsize,
			      char *warn, size_t warnsize)
{
	struct hw_tsc t = { .cpuid_hz = tsc_cpuid_hz(hw) };
	char mhz[2][24], why[2][160] = { "", "" };
	enum unc_status st = UNC_E_NOT_FOUND;

	warn[0] = '\0';
	/* The first clock that can be read and advances; a TSC that is not
	 * steady against it is an error, whatever the other clocks say. */
	for (unsigned i = 0; i < nrefs && st == UNC_E_NOT_FOUND; i++)
		if ((st = measure(hw, &refs[i], &t, why[i > 0], sizeof(why[0]))) && st != UNC_E_NOT_FOUND) {
			fmt_snprintf(err, errsize, "%s", why[i > 0]);
			return st;
		}
	if (st == UNC_OK) {
		t.source = t.ref;
		hw->tick_hz = t.measured_hz;
		if (t.cpuid_hz) {
			uint64_t d = t.measured_hz > t.cpuid_hz ? t.measured_hz - t.cpuid_hz : t.cpuid_hz - t.measured_hz;
			if (u64_muldiv(d, PPM, t.cpuid_hz) <= TSC_CPUID_MAX_PPM) {
				t.source = TSC_SRC_CPUID;
				hw->tick_hz = t.cpuid_hz;
			} else {
				fmt_fixed(mhz[0], sizeof(mhz[0]), t.cpuid_hz, 1000000, 3);
				fmt_fixed(mhz[1], sizeof(mhz[1]), t.measured_hz, 1000000, 3);
				fmt_snprintf(warn, warnsize,
					     "CPUID 0x15 gives the TSC %s MHz but it runs at %s MHz against %s; "
					     "using the measurement",
					     mhz[0], mhz[1], tsc_source_name(t.ref));
			}
		} else if (why[0][0]) {
			fmt_snprintf(warn, warnsize, "%s; measured against %s instead", why[0], tsc_source_name(t.ref));
		}
	} else if (t.cpuid_hz) {
		t = (struct hw_tsc){ .source = TSC_SRC_CPUID_UNCHECKED, .cpuid_hz = t.cpuid_hz };
		hw->tick_hz = t.cpuid_hz;
		fmt_snprintf(warn, warnsize, "no ACPI PM timer or HPET to check CPUID 0x15's TSC frequency against%s%s%s%s%s",
			     why[0][0] ? " (" : "", why[0], why[1][0] ? "; " : "", why[1], why[0][0] ? ")" : "");
	} else {
		fmt_snprintf(err, errsize,
			     "no hardware clock to measure the TSC against (no usable ACPI PM timer or running HPET%s%s%s%s) "
			     "and CPUID 0x15 gives no frequency",
			     why[0][0] ? ": " : "", why[0], why[1][0] ? "; " : "", why[1]);
		return UNC_E_NOT_FOUND;
	}
	hw->tsc = t;
	return UNC_OK;
}
