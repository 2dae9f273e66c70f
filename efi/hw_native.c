#include "native.h"

#include <efilib.h>

#include "../drivers/base/cpu.h"
#include "../drivers/base/pcibus.h"
#include "../drivers/base/tsc.h"
#include "console.h"
#include "emu_protocol.h"
#include "pi.h"
#include "hw_core.h"
#include "hw_mmio.h"
#include "hw_pkg.h"

extern uint64_t unc_asm_rdpmc(uint32_t index);
extern const char unc_rdpmc_insn[];


static volatile int ud_faulted;

/* Vector 6 while one guarded rdpmc runs: QEMU's TCG raises #UD for RDPMC
 * (its helper is unimplemented), a processor without it does too. The same
 * manners as gp_handler. */
UNC_COLD static VOID EFIAPI ud_handler(EFI_EXCEPTION_TYPE type, EFI_SYSTEM_CONTEXT ctx)
{
	EFI_SYSTEM_CONTEXT_X64 *x = ctx.SystemContextX64;

	(void)type;
	if (x->Rip == (UINT64)(UINTN)unc_rdpmc_insn) {
		ud_faulted = 1;
		x->Rip += 2;
		return;
	}
	native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_INVALID_OPCODE, NULL);
}

static enum unc_status native_msr_read(void *ctx, uint32_t msr, uint64_t *ret_val)
{
	enum unc_status st = guard_on();
	uint64_t v;

	(void)ctx;
	if (st)
		return st;
	v = unc_asm_rdmsr(msr);
	st = guard_off();
	if (st == UNC_OK)
		*ret_val = v;
	return st;
}

static enum unc_status native_msr_write(void *ctx, uint32_t msr, uint64_t val)
{
	enum unc_status st = guard_on();

	(void)ctx;
	if (st)
		return st;
	unc_asm_wrmsr(msr, val);
	return guard_off();
}

/* nmsr rdmsr of ecx[0, nmsr), then npmc RDPMC of ecx[nmsr, nmsr + npmc),
 * into ret_val in the same places, under the #GP guard (and, with RDPMC,
 * the #UD one), installed once for the list; with ret_ticks, the TSC read
 * just before the first and just after the last, inside the guard
 * (mmio_read32_n's bracket). The first that faults stops them, its index
 * in *ret_done: UNC_E_FAULT for #GP, UNC_E_UNSUPPORTED for #UD (the
 * handlers skip the instruction and mark it, hw_core.c). */
static inline __attribute__((always_inline)) enum unc_status guarded_n(const uint32_t *ecx, unsigned nmsr, unsigned npmc,
									uint64_t *ret_val, unsigned *ret_done,
									uint64_t *ret_ticks)
{
	enum unc_status st = guard_on();
	unsigned i;

	*ret_done = 0;
	if (st)
		return st;
	if (npmc && EFI_ERROR(native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_INVALID_OPCODE, ud_handler))) {
		guard_off();
		return UNC_E_DEVICE;
	}
	ud_faulted = 0;
	if (ret_ticks)
		ret_ticks[0] = native_ticks(NULL);
	for (i = 0; i < nmsr + npmc; i++) {
		uint64_t v = i >= nmsr ? unc_asm_rdpmc(ecx[i]) : unc_asm_rdmsr(ecx[i]);
		if (ud_faulted || gp_faulted)
			break;
		ret_val[i] = v;
	}
	if (ret_ticks)
		ret_ticks[1] = native_ticks(NULL);
	*ret_done = i;
	if (npmc)
		native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_INVALID_OPCODE, NULL);
	st = guard_off();
	return ud_faulted ? UNC_E_UNSUPPORTED : st;
}

static enum unc_status native_msr_read_n(void *ctx, const uint32_t *msr, unsigned n, uint64_t *ret_val,
					 unsigned *ret_done)
{
	(void)ctx;
	return guarded_n(msr, n, 0, ret_val, ret_done, NULL);
}

static enum unc_status native_rdpmc_n(void *ctx, const uint32_t *index, unsigned n, uint64_t *ret_val,
				      unsigned *ret_done)
{
	(void)ctx;
	return guarded_n(index, 0, n, ret_val, ret_done, NULL);
}

/* A sample's MSRs and RDPMC counters between two TSC reads, under one
 * guard (hw_ops.read_timed_n). */
static enum unc_status native_read_timed_n(void *ctx, const uint32_t *idx, unsigned nmsr, unsigned npmc,
					   uint64_t *ret_val, uint64_t *ret_ticks)
{
	unsigned done;

	(void)ctx;
	return guarded_n(idx, nmsr, npmc, ret_val, &done, ret_ticks);
}

/* RDPMC under both guards: #GP (an index with no counter) and #UD; *ret_val
 * is left untouched when it faults. */
static enum unc_status native_rdpmc(void *ctx, uint32_t index, uint64_t *ret_val)
{
	unsigned done;

	return native_rdpmc_n(ctx, &index, 1, ret_val, &done);
}

/* EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_PCI_ADDRESS: Register 7:0, Function 15:8,
 * Device 23:16, Bus 31:24, ExtendedRegister 63:32 (used when >= 0x100). */
static UINT64 rb_address(struct pci_addr a, uint16_t off)
{
	UINT64 addr = (UINT64)a.bus << 24 | (UINT64)a.dev << 16 | (UINT64)a.func << 8;

	return off < 0x100 ? addr | off : addr | (UINT64)off << 32;
}

/* The root bridge that decodes the bus (pcibus_root_of), or NULL: no
 * bridge does, and the bus is absent. */
static EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb_of(uint8_t bus)
{
	int i = pcibus_root_of(native.rb_range, native.nrb, bus);

	return i < 0 ? NULL : native.rb[i];
}

/* EFI_INVALID_PARAMETER from a bridge asked for a bus beyond its window
 * (edk2's RootBridgeIoCheckParameter): no bridge decodes it. */
static enum unc_status rb_status(EFI_STATUS s)
{
	return s == EFI_INVALID_PARAMETER ? UNC_E_NOT_FOUND : UNC_E_DEVICE;
}

static enum unc_status native_pci_read32(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret_val)
{
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = rb_of(a.bus);
	EFI_STATUS s;
	UINT32 v = 0;

	(void)ctx;
	if (!rb)
		return UNC_E_NOT_FOUND;
	s = rb->Pci.Read(rb, EfiPciIoWidthUint32, rb_address(a, off), 1, &v);
	if (EFI_ERROR(s))
		return rb_status(s);
	*ret_val = v;
	return UNC_OK;
}

/* n configuration dwords, each as native_pci_read32 reads it; the first
 * that fails stops them. */
static enum unc_status native_pci_read32_n(void *ctx, const struct pci_dword *d, unsigned n, uint32_t *ret_val,
					   unsigned *ret_done)
{
	enum unc_status st = UNC_OK;
	unsigned i;

	for (i = 0; i < n && (st = native_pci_read32(ctx, d[i].a, d[i].off, &ret_val[i])) == UNC_OK; i++)
		;
	*ret_done = i;
	return st;
}

static enum unc_status native_pci_write32(void *ctx, struct pci_addr a, uint16_t off, uint32_t val)
{
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = rb_of(a.bus);
	EFI_STATUS s;
	UINT32 v = val;

	(void)ctx;
	if (!rb)
		return UNC_E_NOT_FOUND;
	s = rb->Pci.Write(rb, EfiPciIoWidthUint32, rb_address(a, off), 1, &v);
	if (EFI_ERROR(s))
		return rb_status(s);
	return UNC_OK;
}

static const struct hw_ops cpuid_only = { .cpuid = native_cpuid };
const struct hw native_cpu = { .ops = &cpuid_only };

uint64_t native_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* One 32-bit IN: the ACPI PM timer. Port I/O never faults. */
static enum unc_status native_io_read32(void *ctx, uint16_t port, uint32_t *ret_val)
{
	uint32_t v;

	(void)ctx;
	__asm__ volatile("inl %w1, %0" : "=a"(v) : "Nd"(port));
	*ret_val = v;
	return UNC_OK;
}

/* Emulated MSRs: the emulator answers for the uncore MSRs it models and
 * sends everything else back to the processor (emu_status, hw_core.c). */
UNC_COLD static enum unc_status emulated_msr_read(void *ctx, uint32_t msr, uint64_t *ret_val)
{
	UINT64 v = 0;
	EFI_STATUS s = native.emu->MsrRead(native.emu, msr, &v);

	if (s == EFI_UNSUPPORTED)
		return native_msr_read(ctx, msr, ret_val);
	if (!EFI_ERROR(s))
		*ret_val = v;
	return emu_status(s);
}

UNC_COLD static enum unc_status emulated_msr_write(void *ctx, uint32_t msr, uint64_t val)
{
	EFI_STATUS s = native.emu->MsrWrite(native.emu, msr, val);

	if (s == EFI_UNSUPPORTED)
		return native_msr_write(ctx, msr, val);
	return emu_status(s);
}

/* Revision 2: PCI configuration of the functions the emulator claims, the
 * CPUID leaves it overrides, and RDPMC; the rest is native. */
UNC_COLD static enum unc_status emulated_pci_read32(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret_val)
{
	UINT32 v = 0;
	EFI_STATUS s = native.emu->PciRead32(native.emu, a.bus, a.dev, a.func, off, &v);

	if (s == EFI_UNSUPPORTED)
		return native_pci_read32(ctx, a, off, ret_val);
	hw_emulated_pci(&native.emulated, a);
	if (!EFI_ERROR(s))
		*ret_val = v;
	return emu_status(s);
}

UNC_COLD static enum unc_status emulated_pci_write32(void *ctx, struct pci_addr a, uint16_t off, uint32_t val)
{
	EFI_STATUS s = native.emu->PciWrite32(native.emu, a.bus, a.dev, a.func, off, val);

	if (s == EFI_UNSUPPORTED)
		return native_pci_write32(ctx, a, off, val);
	hw_emulated_pci(&native.emulated, a);
	return emu_status(s);
}

UNC_COLD static void emulated_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	UINT32 regs[4];

	if (EFI_ERROR(native.emu->CpuidOverride(native.emu, leaf, subleaf, regs))) {
		native_cpuid(ctx, leaf, subleaf, r);
		return;
	}
	hw_emulated_cpuid(&native.emulated, leaf);
	*r = (struct cpuid_regs){ regs[0], regs[1], regs[2], regs[3] };
}

UNC_COLD static enum unc_status emulated_rdpmc(void *ctx, uint32_t index, uint64_t *ret_val)
{
	UINT64 v = 0;
	EFI_STATUS s = native.emu->Rdpmc(native.emu, index, &v);

	if (s == EFI_UNSUPPORTED)
		return native_rdpmc(ctx, index, ret_val);
	native.emulated.rdpmc = true;
	if (!EFI_ERROR(s))
		*ret_val = v;
	return emu_status(s);
}

/* Revision 4: stores to the ranges the emulator claims (its MMIO PMON
 * units); the rest of memory is native. */
UNC_COLD static enum unc_status emulated_mmio_write32(void *ctx, uint64_t phys, uint32_t val)
{
	EFI_STATUS s = native.emu->MmioWrite32(native.emu, phys, val);

	if (s == EFI_UNSUPPORTED)
		return native_mmio_write32(ctx, phys, val);
	hw_emulated_mmio(&native.emulated, phys);
	return emu_status(s);
}

/* Revision 3: loads from the ranges the emulator claims (its MCHBAR), each
 * exact at the moment of the load; the rest of memory is native. */
UNC_COLD static enum unc_status emulated_mmio_read32(void *ctx, uint64_t phys, uint32_t *ret_val)
{
	UINT32 v = 0;
	EFI_STATUS s = native.emu->MmioRead32(native.emu, phys, &v);

	if (s == EFI_UNSUPPORTED)
		return native_mmio_read32(ctx, phys, ret_val);
	hw_emulated_mmio(&native.emulated, phys);
	if (!EFI_ERROR(s))
		*ret_val = v;
	return emu_status(s);
}

/* What the emulator answers is its own (its MCHBAR region is memory it
 * allocated, its MMIO units are in no map); the rest is checked natively. */
UNC_COLD static enum unc_status emulated_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize)
{
	UINT32 v;

	if (native.emu->MmioRead32(native.emu, phys & ~3ull, &v) != EFI_UNSUPPORTED) {
		if (whysize)
			why[0] = '\0';
		return UNC_OK;
	}
	return native_mmio_check(ctx, phys, len, why, whysize);
}

/* Whether the processor may idle in a wait (drivers/base/cpu.h,
 * cpu_tsc_steady): on older parts the TSC may slow down in a halt, so the
 * waits there spin as they always did. The real processor's CPUID, not an
 * emulator's. */
static bool tsc_steady(void)
{
	static int steady = -1;

	if (steady < 0) {
		struct cpu_info ci;
		struct cpuid_regs r = { 0 };
		cpu_identify(&native_cpu, &ci);
		if (ci.max_ext_leaf >= 0x80000007)
			native_cpuid(NULL, 0x80000007, 0, &r);
		steady = cpu_tsc_steady(&ci, (r.edx >> 8) & 1);
	}
	return steady;
}

UNC_COLD bool efi_idle(uint64_t us, bool key)
{
	EFI_EVENT timer, events[2];
	UINTN n = 0, idx = 0;

	if (!tsc_steady() || EFI_ERROR(BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer)))
		return false;
	if (EFI_ERROR(BS->SetTimer(timer, TimerRelative, us * 10))) { /* 100 ns units */
		BS->CloseEvent(timer);
		return false;
	}
	events[n++] = timer;
	if (key && ST->ConIn && ST->ConIn->WaitForKey)
		events[n++] = ST->ConIn->WaitForKey;
	EFI_STATUS s = BS->WaitForEvent(n, events, &idx);
	BS->CloseEvent(timer);
	return !EFI_ERROR(s) && idx == 0;
}

static void native_idle(void *ctx, uint32_t us)
{
	(void)ctx;
	efi_idle(us, false);
}

static const struct hw_ops native_ops = {
	.msr_read = native_msr_read,
	.msr_write = native_msr_write,
	.pci_read32 = native_pci_read32,
	.pci_write32 = native_pci_write32,
	.mmio_read32 = native_mmio_read32,
	.cpuid = native_cpuid,
	.ticks = native_ticks,
	.rdpmc = native_rdpmc,
	.io_read32 = native_io_read32,
	.mmio_write32 = native_mmio_write32,
	.mmio_read32_n = native_mmio_read32_n,
	.idle = native_idle,
	.mmio_check = native_mmio_check,
	.msr_read_pkg = native_msr_read_pkg,
	.msr_write_pkg = native_msr_write_pkg,
	.msr_read_n = native_msr_read_n,
	.pci_read32_n = native_pci_read32_n,
	.rdpmc_n = native_rdpmc_n,
	.read_timed_n = native_read_timed_n,
	.msr_read_pkg_t = native_msr_read_pkg_t,
};

/* One package, or no MP services: no trips. */
static struct hw_ops native_one_ops;

/* The native seam routed to the emulator; filled in by native_init. */
static struct hw_ops emulated_ops;

static EFI_GUID emu_guid = UNC_EMU_PROTOCOL_GUID;
static EFI_GUID cpu_arch_guid = UNC_EFI_CPU_ARCH_PROTOCOL_GUID;
static EFI_GUID rb_guid = EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_GUID;

/* Every root bridge of segment 0, with the bus range its Configuration()
 * reports (ACPI address space descriptors), so that each bus goes to the
 * bridge that decodes it: a two-socket board may give each socket its own
 * bridge. Returns how many. */
UNC_COLD static unsigned find_root_bridges(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	unsigned found = 0;

	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &rb_guid, NULL, &n, &handles)))
		return 0;
	for (UINTN i = 0; i < n && found < PCIBUS_MAX_ROOTS; i++) {
		EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb;
		void *res = NULL;
		if (EFI_ERROR(BS->HandleProtocol(handles[i], &rb_guid, (void **)&rb)) || rb->SegmentNumber != 0)
			continue;
		native.rb[found] = rb;
		native.rb_range[found] = (struct pci_root){ .known = false };
		/* the descriptors end with their end tag; 4 KiB is far more than
		 * a bridge's handful of 46-byte descriptors */
		if (!EFI_ERROR(rb->Configuration(rb, &res)) && res)
			pcibus_range(res, 4096, &native.rb_range[found]);
		found++;
	}
	BS->FreePool(handles);
	return found;
}

/* The emulator, held for as long as uncore.efi may call into it: opened
 * BY_DRIVER on its handle, the firmware will not uninstall it (it cannot
 * disconnect an agent that has no driver binding), so a child that unloads
 * it, or the Shell's `unload`, is refused instead of leaving uncore.efi to
 * call freed memory. An agent holding it BY_DRIVER already is an uncore.efi
 * whose child this one is, and outlives it: GET_PROTOCOL is enough then. */
UNC_COLD static UNC_EMU_PROTOCOL *emu_open(EFI_HANDLE client, struct out *err)
{
	EFI_HANDLE *handles = NULL, h;
	UNC_EMU_PROTOCOL *emu = NULL;
	UINTN n = 0;
	EFI_STATUS s;
	char hex[20];

	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &emu_guid, NULL, &n, &handles)) || n == 0)
		return NULL;
	h = handles[0];
	BS->FreePool(handles);
	s = BS->OpenProtocol(h, &emu_guid, (void **)&emu, client, h, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (s == EFI_ACCESS_DENIED)
		s = BS->OpenProtocol(h, &emu_guid, (void **)&emu, client, h, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(s) || !emu) {
		out_printf(err, "uncore: warning: cannot hold the uncore emulator open (%s); MSR access is native\n",
			   efi_status_str(s, hex));
		return NULL;
	}
	native.emu_handle = h;
	native.emu_client = client;
	return emu;
}

UNC_COLD static void emu_close(void)
{
	if (native.emu_handle)
		BS->CloseProtocol(native.emu_handle, &emu_guid, native.emu_client, native.emu_handle);
	native.emu_handle = NULL;
	native.emu = NULL;
}

UNC_COLD void native_release(void)
{
	pkg_stop_all(true);
	mmio_forget();
	emu_close();
	if (native.cpu_pkg)
		BS->FreePool(native.cpu_pkg);
	native.cpu_pkg = NULL;
	native.mp = NULL;
}

UNC_COLD void native_init(struct hw *hw, struct out *err, EFI_HANDLE emu_client)
{
	native.cpu = NULL;
	native.nrb = 0;
	native.emu = NULL;
	native.emu_handle = NULL;
	bs_ending = false;
	pkg_reset();
	memmap_alloc();
	if (EFI_ERROR(BS->LocateProtocol(&cpu_arch_guid, NULL, (void **)&native.cpu)) || !native.cpu) {
		native.cpu = NULL;
		out_printf(err, "uncore: warning: EFI_CPU_ARCH_PROTOCOL not found; MSR access is disabled (no #GP guard)\n");
	} else if (guard_on() != UNC_OK) {
		native.cpu = NULL;
		out_printf(err, "uncore: warning: cannot install the #GP guard (vector 13 already has a handler); MSR access is disabled\n");
	} else {
		guard_off();
	}
	native.nrb = find_root_bridges();
	if (!native.nrb)
		out_printf(err, "uncore: warning: no PCI root bridge for segment 0; PCI access is disabled\n");

	*hw = (struct hw){ .ops = &native_ops, .ctx = &native, .tick_hz = 0, .msr_mode = HW_MSR_NATIVE };
	find_packages(err);
	if (native.mp && native.cpu)
		hw->pkgs = &native.pkgs;
	if (!hw->pkgs || native.pkgs.n < 2) {
		native_one_ops = native_ops;
		native_one_ops.msr_read_pkg = NULL;
		native_one_ops.msr_write_pkg = NULL;
		native_one_ops.msr_read_pkg_t = NULL;
		hw->ops = &native_one_ops;
	}
	if (emu_client && (native.emu = emu_open(emu_client, err))) {
		if (native.emu->Revision != UNC_EMU_PROTOCOL_REVISION) {
			out_printf(err, "uncore: warning: ignoring uncore emulator of revision %u (want %u)\n",
				   native.emu->Revision, UNC_EMU_PROTOCOL_REVISION);
			emu_close();
			return;
		}
		fmt_copy_marked(native.emu_desc, sizeof(native.emu_desc), (const char *)native.emu->Description);
		emulated_ops = *hw->ops;
		emulated_ops.msr_read = emulated_msr_read;
		emulated_ops.msr_write = emulated_msr_write;
		emulated_ops.pci_read32 = emulated_pci_read32;
		emulated_ops.pci_write32 = emulated_pci_write32;
		emulated_ops.cpuid = emulated_cpuid;
		emulated_ops.rdpmc = emulated_rdpmc;
		emulated_ops.mmio_read32 = emulated_mmio_read32;
		emulated_ops.mmio_write32 = emulated_mmio_write32;
		emulated_ops.mmio_read32_n = NULL; /* each load through emulated_mmio_read32 */
		emulated_ops.msr_read_n = NULL;    /* each MSR through emulated_msr_read */
		emulated_ops.pci_read32_n = NULL;  /* each dword through emulated_pci_read32 */
		emulated_ops.rdpmc_n = NULL;       /* each through emulated_rdpmc */
		emulated_ops.read_timed_n = NULL;  /* the clock and each read, as above */
		emulated_ops.mmio_check = emulated_mmio_check;
		native.emulated = (struct hw_emulated){ 0 };
		hw->ops = &emulated_ops;
		hw->msr_mode = HW_MSR_EMULATED;
		hw->emulator = native.emu_desc;
		hw->emulated = &native.emulated;
	}
}

/* An ACPI table by its signature, through the XSDT (or, for ACPI 1.0, the
 * RSDT) of the RSDP the firmware publishes; NULL when absent. The firmware
 * identity-maps what it publishes, so a physical address is a pointer. */
UNC_COLD static const uint8_t *acpi_table(const char sig[4], size_t *ret_len)
{
	static EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	const uint8_t *rsdp = NULL;

	for (int pass = 0; pass < 2 && !rsdp; pass++)
		for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
			if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, pass ? &acpi10 : &acpi20))
				rsdp = ST->ConfigurationTable[i].VendorTable;
	if (!rsdp || CompareMem(rsdp, "RSD PTR ", 8))
		return NULL;
	uint64_t sdt = 0;
	unsigned entry = 4;
	if (rsdp[15] >= 2) { /* XsdtAddress at 24 */
		CopyMem(&sdt, rsdp + 24, 8);
		entry = 8;
	}
	if (!sdt) {
		uint32_t rsdt;
		CopyMem(&rsdt, rsdp + 16, 4);
		sdt = rsdt;
		entry = 4;
	}
	const uint8_t *t = (const uint8_t *)(UINTN)sdt;
	uint32_t len;
	if (!t || CompareMem(t, entry == 8 ? "XSDT" : "RSDT", 4))
		return NULL;
	CopyMem(&len, t + 4, 4);
	for (uint32_t off = 36; off + entry <= len; off += entry) {
		uint64_t a = 0;
		CopyMem(&a, t + off, entry);
		const uint8_t *h = (const uint8_t *)(UINTN)a;
		if (h && !CompareMem(h, sig, 4)) {
			uint32_t hl;
			CopyMem(&hl, h + 4, 4);
			*ret_len = hl;
			return h;
		}
	}
	return NULL;
}

/* The hardware clocks to measure the TSC against, in order: the ACPI PM
 * timer from the FADT, a running HPET. Their number; why holds the reasons
 * for those the tables do not give. */
UNC_COLD static unsigned find_ref_clocks(struct hw *hw, struct tsc_ref refs[2], char *why, size_t whysize)
{
	char pm[120] = "", hp[120] = "";
	size_t len = 0;
	unsigned n = 0;
	const uint8_t *t = acpi_table("FACP", &len);

	if (tsc_ref_from_fadt(t, t ? len : 0, &refs[n], pm, sizeof(pm)))
		n++;
	len = 0;
	t = acpi_table("HPET", &len);
	if (tsc_ref_from_hpet(t, t ? len : 0, &refs[n], hp, sizeof(hp))) {
		uint32_t lo, hi, cfg;
		uint64_t base = refs[n].addr - 0xF0;
		if (hw_mmio_read32(hw, base, &lo) || hw_mmio_read32(hw, base + 4, &hi) || hw_mmio_read32(hw, base + 0x10, &cfg))
			fmt_snprintf(hp, sizeof(hp), "cannot read the HPET's registers at 0x%lx", (unsigned long)base);
		else if (tsc_hpet_set_period(&refs[n], (uint64_t)hi << 32 | lo, cfg, hp, sizeof(hp)))
			n++;
	}
	fmt_snprintf(why, whysize, "%s%s%s", pm, pm[0] && hp[0] ? "; " : "", hp);
	return n;
}

/* The TSC's frequency against a hardware clock read at both ends of each
 * window (drivers/base/tsc.h): never from how long a firmware busy-wait took. */
UNC_COLD enum unc_status native_calibrate(struct hw *hw, struct out *err)
{
	struct tsc_ref refs[2];
	char why[260], msg[400], warn[400];
	unsigned n = find_ref_clocks(hw, refs, why, sizeof(why));
	enum unc_status st = tsc_calibrate(hw, refs, n, msg, sizeof(msg), warn, sizeof(warn));

	if (st) {
		if (n)
			out_printf(err, "uncore: error: %s\n", msg);
		else
			out_printf(err, "uncore: error: %s (%s)\n", msg, why);
		return st;
	}
	if (warn[0])
		out_printf(err, "uncore: warning: %s\n", warn);
	return UNC_OK;
}
