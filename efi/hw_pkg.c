/* The native seam's MSRs of another package: each access made by a
 * processor of that package, through EFI_MP_SERVICES_PROTOCOL (on the
 * seam's core, hw_core.c, and nothing else of the seam). */
#include "native.h"

#include <efilib.h>

#include "../drivers/base/cpu.h"
#include "console.h"
#include "hw_core.h"
#include "hw_pkg.h"

/* A trip to a processor of another package: n MSRs read, or one written,
 * each under the #GP guard the running processor registered (the firmware
 * dispatches every processor's vector 13 through the same IDT and handler
 * table: OVMF's and edk2's CpuDxe give the APs the BSP's IDT; the first
 * trip to each processor checks it, the probe below). Through the emulator
 * first when it is loaded, as on the running processor. A trip is owned by
 * its package's box (struct ap_box), never by a caller's stack: a processor
 * that takes it late finds it as it was posted. AP_TRIP_MAX holds a
 * package's whole sample in one trip (60 CHAs of 4 counters, each read with
 * its select: 480), so that a delay between trips (a processor that takes
 * the next one late) never falls between two boxes' reads of one sample; a
 * longer read is cut into trips of AP_TRIP_MAX MSRs. */
#define AP_TRIP_MAX 512
struct ap_trip {
	uint32_t msr[AP_TRIP_MAX];
	uint64_t val[AP_TRIP_MAX];
	unsigned n;
	bool write, probe, probe_failed;
	uint64_t wval;
	enum unc_status st;
	bool stamp;                /* each read's time in t: this processor's TSC right after it */
	uint64_t t[AP_TRIP_MAX];
};

/* The guard probe: WRMSR of PKRS (0x6E1) with bit 32 set. Bits 63:32
 * of PKRS are reserved (Intel SDM vol. 4, table 2-2), and a processor
 * without PKS has no MSR 0x6E1: either way a #GP, never a write; QEMU's
 * TCG faults on it too (the #GP test of the spr2s boot writes the same). */
#define AP_PROBE_MSR 0x6E1u
#define AP_PROBE_VAL (1ull << 32)

static VOID EFIAPI ap_msr(VOID *arg)
{
	struct ap_trip *t = arg;

	if (t->probe) {
		gp_faulted = 0;
		unc_asm_wrmsr(AP_PROBE_MSR, AP_PROBE_VAL);
		if (!gp_faulted) {
			t->probe_failed = true;
			t->st = UNC_E_UNSUPPORTED;
			return;
		}
	}
	for (unsigned i = 0; i < t->n; i++) {
		if (native.emu) {
			UINT64 v = 0;
			EFI_STATUS s = t->write ? native.emu->MsrWrite(native.emu, t->msr[i], t->wval)
						: native.emu->MsrRead(native.emu, t->msr[i], &v);
			if (s != EFI_UNSUPPORTED) {
				if (EFI_ERROR(s)) {
					t->st = emu_status(s);
					return;
				}
				if (!t->write)
					t->val[i] = v;
				if (t->stamp)
					t->t[i] = native_ticks(NULL);
				continue;
			}
		}
		gp_faulted = 0;
		if (t->write)
			unc_asm_wrmsr(t->msr[i], t->wval);
		else
			t->val[i] = unc_asm_rdmsr(t->msr[i]);
		if (t->stamp)
			t->t[i] = native_ticks(NULL);
		if (gp_faulted) {
			t->st = UNC_E_FAULT;
			return;
		}
	}
	t->st = UNC_OK;
}

/* Each other package's serving processor, once its first trip has
 * started it, stays in ap_serve (a non-blocking StartupThisAP) and takes
 * each trip from this mailbox: waking an AP through StartupThisAP costs
 * about 10 ms a call under OVMF (its INIT-SIPI-SIPI delay), and a run's
 * programming makes hundreds of trips. native_release (every exit of a
 * command) and the ExitBootServices notification send it back to the
 * firmware (pkg_stop_all).
 *
 * A trip that times out marks the box dead: told to quit, never posted to
 * again (its trip stays as it was, in the box), and every later trip to
 * that package fails at once, until the processor says it stopped. */
struct ap_box {
	volatile uint32_t seq, done; /* a trip posted (seq = done + 1), taken (done = seq) */
	volatile int quit, stopped;
	struct ap_trip trip;
	EFI_EVENT ev;                /* StartupThisAP's completion event (non-blocking mode) */
	bool running;                /* in ap_serve */
	bool dead;                   /* a trip timed out: not posted to until stopped */
	bool checked;                /* the serving processor's #GP reached the guard (the probe) */
	bool refused;                /* it did not: this package's MSRs are refused */
	bool told;                   /* the dead or refused line was said */
	char left[120];              /* ExitBootServices: the MSRs it could not put back */
	unsigned nleft;
};
static struct ap_box ap_boxes[HW_MAX_PKGS];

static VOID EFIAPI ap_serve(VOID *arg)
{
	struct ap_box *b = arg;
	uint32_t seen = b->done; /* set before StartupThisAP; only this processor changes it */

	for (;;) {
		while (b->seq == seen && !b->quit)
			__asm__ volatile("pause" ::: "memory");
		if (b->quit)
			break;
		seen = b->seq;
		ap_msr(&b->trip);
		__asm__ volatile("" ::: "memory");
		b->done = seen;
	}
	b->stopped = 1;
}

/* Spins until *flag == want, at most `cycles` of the TSC (the firmware's
 * Stall is not to be called in every context this runs in). */
static bool wait_for(volatile uint32_t *flag, uint32_t want, uint64_t cycles)
{
	uint64_t t0 = native_ticks(NULL);

	while (*flag != want) {
		__asm__ volatile("pause" ::: "memory");
		if (native_ticks(NULL) - t0 > cycles)
			return false;
	}
	__asm__ volatile("" ::: "memory"); /* what the AP wrote before *flag is read after */
	return true;
}

#define AP_WAIT 10000000000ull /* 10^10 cycles: seconds at any clock */

/* Sends every serving processor back to the firmware. With close (not in
 * the ExitBootServices notification), each completion event is closed
 * once MP services have signalled it (the processor is theirs again);
 * one they have not signalled yet is kept, never closed under them. */
void pkg_stop_all(bool close)
{
	for (unsigned i = 0; i < HW_MAX_PKGS; i++) {
		struct ap_box *b = &ap_boxes[i];
		if (b->running) {
			b->quit = 1;
			if (!wait_for((volatile uint32_t *)&b->stopped, 1, AP_WAIT))
				b->dead = true; /* told to quit; never posted to until it says it stopped */
			b->running = false;
		}
		if (close && b->ev && !b->dead) {
			uint64_t t0 = native_ticks(NULL);
			EFI_STATUS s;
			while ((s = BS->CheckEvent(b->ev)) == EFI_NOT_READY && native_ticks(NULL) - t0 < AP_WAIT / 10)
				__asm__ volatile("pause" ::: "memory");
			if (s == EFI_SUCCESS) {
				BS->CloseEvent(b->ev);
				b->ev = NULL;
			}
		}
	}
}

void native_boot_services_ending(void)
{
	bs_ending = true;
}

void native_stop_aps(void)
{
	struct out err = console_err();

	pkg_stop_all(false);
	for (unsigned i = 1; i < native.pkgs.n && i < HW_MAX_PKGS; i++)
		if (ap_boxes[i].nleft)
			out_printf(&err, "uncore: error: package %u cannot be reached at ExitBootServices: MSRs%s left as they are\n",
				   native.pkgs.id[i], ap_boxes[i].left);
}

/* One line, once per package, on why its trips fail. */
UNC_COLD static void box_tell(struct ap_box *b, unsigned i, const char *what)
{
	struct out err = console_err();

	if (b->told)
		return;
	b->told = true;
	out_printf(&err, "uncore: error: package %u: processor %u %s: its MSRs are refused from now on\n",
		   native.pkgs.id[i], native.pkgs.cpu[i], what);
}

/* The package's index in native.pkgs (not 0: the running one), or 0. */
static unsigned pkg_index(uint32_t pkg)
{
	unsigned i = 1;

	while (i < native.pkgs.n && native.pkgs.id[i] != pkg)
		i++;
	return i < native.pkgs.n && native.mp ? i : 0;
}

/* Runs box i's trip (filled by the caller): by the processor that serves
 * the package (started in ap_serve at the first trip), else, when it cannot
 * be started (busy: a child's work), by one blocking StartupThisAP of
 * another enabled processor of that package. While boot services end, no
 * event is created: a box not started yet is served by the blocking way. */
static enum unc_status pkg_run(unsigned i)
{
	struct ap_box *b = &ap_boxes[i];
	struct ap_trip *t = &b->trip;
	EFI_STATUS s = EFI_NOT_FOUND;
	enum unc_status st;

	if (!b->running && (b->ev || (!bs_ending && !EFI_ERROR(BS->CreateEvent(0, 0, NULL, NULL, &b->ev))))) {
		b->seq = b->done = 0;
		b->quit = b->stopped = 0;
		__asm__ volatile("" ::: "memory");
		if (!EFI_ERROR(native.mp->StartupThisAP(native.mp, ap_serve, native.pkgs.cpu[i], b->ev, 0, b, NULL)))
			b->running = true;
	}
	if ((st = guard_on()))
		return st;
	t->st = UNC_E_DEVICE;
	t->probe_failed = false;
	if (b->running) {
		t->probe = !b->checked;
		__asm__ volatile("" ::: "memory");
		uint32_t want = b->done + 1;
		b->seq = want;
		if (wait_for(&b->done, want, AP_WAIT)) {
			s = EFI_SUCCESS;
		} else { /* told to leave; the trip stays in the box for it */
			s = EFI_TIMEOUT;
			b->quit = 1;
			b->running = false;
			b->dead = true;
		}
	} else {
		t->probe = true; /* another processor: its guard checked each time */
		for (UINTN c = 0; c < native.ncpu && (EFI_ERROR(s)); c++)
			if (c != native.bsp && native.cpu_pkg[c] == native.pkgs.id[i])
				s = native.mp->StartupThisAP(native.mp, ap_msr, c, NULL, 1000000, t, NULL);
	}
	native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_GP_FAULT, NULL);
	if (b->dead) {
		box_tell(b, i, t->probe ? "did not come back from the #GP guard's check (its #GP may go to the firmware's handler, not this tool's guard)"
					: "did not answer within 10^10 TSC cycles");
		return UNC_E_DEVICE;
	}
	if (EFI_ERROR(s))
		return s == EFI_NOT_READY ? UNC_E_BUSY : UNC_E_DEVICE;
	if (t->probe_failed) {
		if (b->running)
			b->refused = true;
		box_tell(b, i, "raised no #GP for a WRMSR of PKRS (0x6E1) with reserved bit 32 set, so this tool's guard cannot be trusted there");
		return UNC_E_UNSUPPORTED;
	}
	if (b->running)
		b->checked = true;
	return t->st;
}

/* Whether box i takes trips: a dead one that has said it stopped is
 * served anew; a dead or refused one fails at once. */
static enum unc_status box_ready(unsigned i)
{
	struct ap_box *b = &ap_boxes[i];

	if (b->dead && b->stopped)
		b->dead = b->running = false;
	if (b->dead) /* a trip, or the stop, timed out; said once */
		box_tell(b, i, "did not come back when told to stop");
	return b->dead ? UNC_E_DEVICE : b->refused ? UNC_E_UNSUPPORTED : UNC_OK;
}

/* n MSRs of package pkg in trips of AP_TRIP_MAX, with ret_ticks each
 * read's time on that package's processor's TSC. */
static enum unc_status read_pkg(uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val, uint64_t *ret_ticks)
{
	unsigned i = pkg_index(pkg);
	enum unc_status st = UNC_OK;

	if (!i)
		return UNC_E_NOT_FOUND;
	struct ap_trip *t = &ap_boxes[i].trip;
	for (unsigned k = 0; k < n && !st; k += AP_TRIP_MAX) {
		unsigned m = n - k < AP_TRIP_MAX ? n - k : AP_TRIP_MAX;
		if ((st = box_ready(i))) /* a dead box's trip stays as it was posted */
			break;
		t->n = m;
		t->write = false;
		t->stamp = ret_ticks != NULL;
		for (unsigned j = 0; j < m; j++)
			t->msr[j] = msr[k + j];
		if ((st = pkg_run(i)) == UNC_OK)
			for (unsigned j = 0; j < m; j++) {
				ret_val[k + j] = t->val[j];
				if (ret_ticks)
					ret_ticks[k + j] = t->t[j];
			}
	}
	return st;
}

enum unc_status native_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val)
{
	(void)ctx;
	return read_pkg(pkg, msr, n, ret_val, NULL);
}

enum unc_status native_msr_read_pkg_t(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val,
				      uint64_t *ret_ticks)
{
	(void)ctx;
	return read_pkg(pkg, msr, n, ret_val, ret_ticks);
}

enum unc_status native_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t val)
{
	unsigned i = pkg_index(pkg);
	enum unc_status st;

	(void)ctx;
	if (!i)
		return UNC_E_NOT_FOUND;
	struct ap_box *b = &ap_boxes[i];
	if ((st = box_ready(i)) == UNC_OK) {
		b->trip.n = 1;
		b->trip.write = true;
		b->trip.stamp = false;
		b->trip.msr[0] = msr;
		b->trip.wval = val;
		st = pkg_run(i);
	}
	if (st && bs_ending) { /* named in one line at the end of the notification (native_stop_aps) */
		size_t len = 0;
		while (b->left[len])
			len++;
		if (len + 12 < sizeof(b->left))
			fmt_snprintf(b->left + len, sizeof(b->left) - len, " 0x%x", msr);
		else if (len + 5 < sizeof(b->left) && b->left[len - 1] != '.')
			fmt_snprintf(b->left + len, sizeof(b->left) - len, " ...");
		b->nleft++;
	}
	return st;
}

bool native_serves_pkg(UINTN cpu)
{
	for (unsigned i = 1; native.mp && i < native.pkgs.n; i++)
		if (native.pkgs.cpu[i] == cpu)
			return true;
	return false;
}

/* The packages: each enabled processor's APIC ID (GetProcessorInfo's
 * ProcessorId) shifted right by the topology's package shift
 * (cpu_pkg_shift, from the real processor's CPUID, not an emulator's),
 * checked against MP services' own Location.Package; the first
 * processor found of each package serves it, the running one its own. */
UNC_COLD void find_packages(struct out *err)
{
	static EFI_GUID mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	UINTN total = 0, enabled = 0;
	const char *how = "";

	native.mp = NULL;
	native.pkgs = (struct hw_pkgs){ 0 };
	if (EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&native.mp)) || !native.mp ||
	    EFI_ERROR(native.mp->GetNumberOfProcessors(native.mp, &total, &enabled)) || !total ||
	    EFI_ERROR(native.mp->WhoAmI(native.mp, &native.bsp)) ||
	    (!native.cpu_pkg && EFI_ERROR(BS->AllocatePool(EfiLoaderData, total * sizeof(uint32_t), (void **)&native.cpu_pkg)))) {
		native.mp = NULL;
		return;
	}
	unsigned shift = cpu_pkg_shift(&native_cpu, &how);
	native.ncpu = total;
	native.pkgs.cpus = (uint32_t)enabled;
	native.pkgs.mp_agrees = true;
	for (int pass = 0; pass < 2; pass++) /* the running processor's package first */
		for (UINTN c = 0; c < total; c++) {
			UNC_EFI_PROCESSOR_INFORMATION info;
			if ((c == native.bsp) != (pass == 0))
				continue;
			native.cpu_pkg[c] = UINT32_MAX;
			if (EFI_ERROR(native.mp->GetProcessorInfo(native.mp, c, &info)) || !(info.StatusFlag & 2))
				continue;
			uint32_t pkg = (uint32_t)(info.ProcessorId >> shift);
			native.cpu_pkg[c] = pkg;
			if (info.Package != pkg)
				native.pkgs.mp_agrees = false;
			unsigned i = 0;
			while (i < native.pkgs.n && native.pkgs.id[i] != pkg)
				i++;
			if (i < native.pkgs.n)
				continue;
			if (native.pkgs.n == HW_MAX_PKGS) {
				native.pkgs.more++;
				continue;
			}
			native.pkgs.id[native.pkgs.n] = pkg;
			native.pkgs.mp_pkg[native.pkgs.n] = info.Package;
			native.pkgs.cpu[native.pkgs.n++] = (uint32_t)c;
		}
	fmt_snprintf(native.pkgs_how, sizeof(native.pkgs_how), "%s (package shift %u) and MP services", how, shift);
	native.pkgs.how = native.pkgs_how;
	if (native.pkgs.more)
		out_printf(err, "uncore: warning: %u packages beyond the %d this tool serves: MSR units there are refused\n",
			   native.pkgs.more, HW_MAX_PKGS);
}

UNC_COLD void pkg_reset(void)
{
	for (unsigned i = 0; i < HW_MAX_PKGS; i++) {
		ap_boxes[i].left[0] = '\0';
		ap_boxes[i].nleft = 0;
	}
}
