/* The native seam's core, which its other files build on: the state they
 * share (struct native), the #GP guard of the guarded instructions, the
 * TSC and CPUID, the emulator's status words. hw_native.c (MSRs, PCI, the
 * emulator, time, the seam's set-up), hw_mmio.c (MMIO) and hw_pkg.c
 * (another package's MSRs) use it; it uses none of them. */
#include "hw_core.h"

extern const char unc_rdmsr_insn[], unc_wrmsr_insn[], unc_rdpmc_insn[];

struct native native;
volatile int gp_faulted;
bool bs_ending;

/* Vector 13 while one guarded rdmsr/wrmsr/rdpmc runs. A fault on one of
 * our three instructions is recorded and stepped over (each is 2 bytes
 * long). Any other #GP is not ours: we remove ourselves and return without
 * moving RIP, so the instruction faults again into the firmware's own
 * handler. */
UNC_COLD static VOID EFIAPI gp_handler(EFI_EXCEPTION_TYPE type, EFI_SYSTEM_CONTEXT ctx)
{
	EFI_SYSTEM_CONTEXT_X64 *x = ctx.SystemContextX64;

	(void)type;
	if (x->Rip == (UINT64)(UINTN)unc_rdmsr_insn || x->Rip == (UINT64)(UINTN)unc_wrmsr_insn ||
	    x->Rip == (UINT64)(UINTN)unc_rdpmc_insn) {
		gp_faulted = 1;
		x->Rip += 2;
		return;
	}
	native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_GP_FAULT, NULL);
}

enum unc_status guard_on(void)
{
	if (!native.cpu)
		return UNC_E_NOT_FOUND;
	if (EFI_ERROR(native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_GP_FAULT, gp_handler)))
		return UNC_E_DEVICE;
	gp_faulted = 0;
	return UNC_OK;
}

enum unc_status guard_off(void)
{
	int faulted = gp_faulted;

	native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_GP_FAULT, NULL);
	return faulted ? UNC_E_FAULT : UNC_OK;
}

void native_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)ctx;
	__asm__ volatile("cpuid" : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx) : "a"(leaf), "c"(subleaf));
}

uint64_t native_ticks(void *ctx)
{
	uint32_t lo, hi;

	(void)ctx;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}


UNC_COLD enum unc_status emu_status(EFI_STATUS s)
{
	return s == EFI_DEVICE_ERROR ? UNC_E_FAULT : s == EFI_ABORTED ? UNC_E_UNSUPPORTED : EFI_ERROR(s) ? UNC_E_DEVICE : UNC_OK;
}
