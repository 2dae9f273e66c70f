/* The native seam's MMIO: only where the firmware maps MMIO, under a #PF
 * guard (on the seam's core, hw_core.c, and nothing else of the seam). */
#include "hw_mmio.h"

#include "console.h"
#include "hw_core.h"

/* ---- MMIO: only where the firmware maps MMIO ----
 *
 * UEFI identity-maps what it maps, so a physical address is a pointer; but
 * a base read from a register (MCHBAR, a BAR, a discovery table) may point
 * at RAM, or at a range the firmware left unmapped, where a load page-faults
 * the firmware. Every load and store that reaches memory is checked first:
 * the Global Coherency Domain's memory space map (DXE services,
 * GetMemorySpaceDescriptor) must call the whole range MMIO or reserved, and
 * no UEFI memory map descriptor overlapping it may be system memory. Then
 * the access runs under a #PF guard (vector 14, as the #GP guard on MSRs),
 * when the firmware has no handler of its own there. Accepted ranges are
 * remembered, so a sample's loads cost no service call. */
extern uint32_t unc_asm_mmio_read32(uint64_t phys);
extern void unc_asm_mmio_write32(uint64_t phys, uint32_t value);
extern const char unc_mmio_load_insn[], unc_mmio_store_insn[];

static volatile int pf_faulted;
/* Every range accepted in this run (between native_init and
 * native_release), never evicted: while boot services end, only these are
 * accessed (mmio_allowed). A pool list, grown outside that notification. */
struct mmio_range {
	uint64_t lo, hi; /* [lo, hi) */
};
static struct mmio_range *mmio_ok;
static unsigned mmio_nok, mmio_cap, mmio_last;
/* The UEFI memory map's buffer, taken once at native_init: memmap_check allocates nothing. */
static UINT8 *memmap_buf;
static UINTN memmap_size;

static bool mmio_known(uint64_t lo, uint64_t hi)
{
	if (mmio_last < mmio_nok && lo >= mmio_ok[mmio_last].lo && hi <= mmio_ok[mmio_last].hi)
		return true;
	for (unsigned i = 0; i < mmio_nok; i++)
		if (lo >= mmio_ok[i].lo && hi <= mmio_ok[i].hi) {
			mmio_last = i;
			return true;
		}
	return false;
}

/* Remembers [lo, hi) for the run; a list that cannot grow leaves it to be
 * checked again next time. */
UNC_COLD static void mmio_keep(uint64_t lo, uint64_t hi)
{
	if (mmio_known(lo, hi))
		return;
	if (mmio_nok == mmio_cap) {
		struct mmio_range *n = NULL;
		unsigned cap = mmio_cap ? 2 * mmio_cap : 32;
		if (bs_ending || EFI_ERROR(BS->AllocatePool(EfiLoaderData, cap * sizeof(*n), (void **)&n)))
			return;
		if (mmio_ok) {
			CopyMem(n, mmio_ok, mmio_nok * sizeof(*n));
			BS->FreePool(mmio_ok);
		}
		mmio_ok = n;
		mmio_cap = cap;
	}
	mmio_ok[mmio_nok++] = (struct mmio_range){ lo, hi };
}

UNC_COLD void mmio_forget(void)
{
	if (mmio_ok)
		BS->FreePool(mmio_ok);
	mmio_ok = NULL;
	mmio_nok = mmio_cap = mmio_last = 0;
	if (memmap_buf)
		BS->FreePool(memmap_buf);
	memmap_buf = NULL;
	memmap_size = 0;
}

/* The memory map's buffer: its size now and room for 128 descriptors more
 * (what the run's own allocations and a child's may add). */
UNC_COLD void memmap_alloc(void)
{
	UINTN size = 0, key, dsize = 0;
	UINT32 dver;

	if (memmap_buf || BS->GetMemoryMap(&size, NULL, &key, &dsize, &dver) != EFI_BUFFER_TOO_SMALL)
		return;
	size += 128 * (dsize > sizeof(EFI_MEMORY_DESCRIPTOR) ? dsize : sizeof(EFI_MEMORY_DESCRIPTOR));
	if (EFI_ERROR(BS->AllocatePool(EfiLoaderData, size, (void **)&memmap_buf)))
		memmap_buf = NULL;
	else
		memmap_size = size;
}
static UNC_EFI_DXE_SERVICES *dxe;
static bool dxe_looked;

UNC_COLD static UNC_EFI_DXE_SERVICES *dxe_services(void)
{
	static EFI_GUID guid = UNC_DXE_SERVICES_TABLE_GUID;

	if (!dxe_looked) {
		dxe_looked = true;
		for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
			if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &guid))
				dxe = ST->ConfigurationTable[i].VendorTable;
	}
	return dxe;
}

/* The UEFI memory types that are system memory (UEFI 2.10, 7.2: every
 * type but reserved, MMIO, MMIO port space and PAL code). */
UNC_COLD static const char *ram_type(UINT32 type)
{
	static const char *const names[] = {
		[EfiLoaderCode] = "EfiLoaderCode",
		[EfiLoaderData] = "EfiLoaderData",
		[EfiBootServicesCode] = "EfiBootServicesCode",
		[EfiBootServicesData] = "EfiBootServicesData",
		[EfiRuntimeServicesCode] = "EfiRuntimeServicesCode",
		[EfiRuntimeServicesData] = "EfiRuntimeServicesData",
		[EfiConventionalMemory] = "EfiConventionalMemory",
		[EfiUnusableMemory] = "EfiUnusableMemory",
		[EfiACPIReclaimMemory] = "EfiACPIReclaimMemory",
		[EfiACPIMemoryNVS] = "EfiACPIMemoryNVS",
		[14] = "EfiPersistentMemory",
		[15] = "EfiUnacceptedMemoryType",
	};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

#define WHY(...) (fmt_snprintf(why, whysize, __VA_ARGS__), UNC_E_NOT_MMIO)

/* The memory map's verdict on [lo, hi): UNC_OK when no descriptor that
 * overlaps it is system memory. */
UNC_COLD static enum unc_status memmap_check(uint64_t lo, uint64_t hi, char *why, size_t whysize)
{
	UINTN size = memmap_size, key, dsize = 0;
	UINT32 dver;
	EFI_STATUS s = memmap_buf ? BS->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)memmap_buf, &key, &dsize, &dver)
				  : EFI_OUT_OF_RESOURCES;

	if (s == EFI_BUFFER_TOO_SMALL)
		return WHY("0x%lx cannot be checked against the UEFI memory map (it grew beyond the %lu bytes taken at start)",
			   (unsigned long)lo, (unsigned long)memmap_size);
	if (EFI_ERROR(s) || dsize < sizeof(EFI_MEMORY_DESCRIPTOR))
		return WHY("0x%lx cannot be checked against the UEFI memory map (GetMemoryMap failed)", (unsigned long)lo);
	for (UINTN i = 0; i < size / dsize; i++) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(memmap_buf + i * dsize);
		uint64_t b = d->PhysicalStart, e = b + d->NumberOfPages * EFI_PAGE_SIZE;
		const char *ram = ram_type(d->Type);
		if (ram && b < hi && lo < e)
			return WHY("0x%lx is system memory (UEFI memory map: %s, 0x%lx-0x%lx)", (unsigned long)(lo > b ? lo : b),
				   ram, (unsigned long)b, (unsigned long)(e - 1));
	}
	return UNC_OK;
}

/* The check of struct hw_ops.mmio_check, made on the memory itself. */
UNC_COLD enum unc_status native_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize)
{
	static const char *const gcd_names[] = { "non-existent", "reserved", "system memory", "MMIO", "persistent memory",
						 "more reliable memory", "unaccepted memory" };
	UNC_EFI_DXE_SERVICES *ds = dxe_services();
	uint64_t end = len && phys + len > phys ? phys + len : phys + 1;
	enum unc_status st;

	(void)ctx;
	if (whysize)
		why[0] = '\0';
	if (bs_ending) /* no service call: only what the run accepted before */
		return mmio_known(phys, end) ? UNC_OK
					     : WHY("0x%lx was not checked before boot services began to end", (unsigned long)phys);
	for (uint64_t a = phys; ds && a < end;) {
		UNC_EFI_GCD_MEMORY_SPACE_DESCRIPTOR d;
		if (EFI_ERROR(ds->GetMemorySpaceDescriptor(a, &d)) || d.Length == 0)
			return WHY("the firmware has not mapped 0x%lx (no GCD memory space descriptor covers it)",
				   (unsigned long)a);
		unsigned t = (unsigned)d.GcdMemoryType;
		const char *name = t < sizeof(gcd_names) / sizeof(gcd_names[0]) ? gcd_names[t] : "of an unknown type";
		if (t == UncGcdMemoryTypeNonExistent)
			return WHY("the firmware has not mapped 0x%lx (GCD: non-existent, 0x%lx-0x%lx)",
				   (unsigned long)a, (unsigned long)d.BaseAddress,
				   (unsigned long)(d.BaseAddress + d.Length - 1));
		if (t != UncGcdMemoryTypeMemoryMappedIo && t != UncGcdMemoryTypeReserved)
			return WHY("0x%lx is %s, not MMIO (GCD: 0x%lx-0x%lx)",
				   (unsigned long)a, name, (unsigned long)d.BaseAddress,
				   (unsigned long)(d.BaseAddress + d.Length - 1));
		if (d.BaseAddress + d.Length <= a)
			break;
		a = d.BaseAddress + d.Length;
	}
	if ((st = memmap_check(phys, end, why, whysize)))
		return st;
	mmio_keep(phys, end);
	return UNC_OK;
}

/* Before each access: within a range already accepted, or checked now:
 * the whole GCD descriptor that holds it when that passes (so that the
 * units of one MMIO window share one entry), else its page. */
static enum unc_status mmio_allowed(uint64_t phys)
{
	char why[8];
	UNC_EFI_GCD_MEMORY_SPACE_DESCRIPTOR d;

	if (mmio_known(phys, phys + 4))
		return UNC_OK;
	if (bs_ending) /* only the ranges accepted before: no service call now */
		return UNC_E_NOT_MMIO;
	if (dxe_services() && !EFI_ERROR(dxe->GetMemorySpaceDescriptor(phys, &d)) && d.Length &&
	    d.BaseAddress + d.Length > phys &&
	    (d.GcdMemoryType == UncGcdMemoryTypeMemoryMappedIo || d.GcdMemoryType == UncGcdMemoryTypeReserved) &&
	    native_mmio_check(NULL, d.BaseAddress, d.Length, why, sizeof(why)) == UNC_OK)
		return UNC_OK;
	return native_mmio_check(NULL, phys & ~0xFFFull, 0x1000, why, sizeof(why));
}

/* Vector 14 while one guarded MMIO load or store runs: a fault on either
 * instruction is recorded and stepped over (two bytes each); any other is
 * not ours, and faults again into the firmware's own handler. */
UNC_COLD static VOID EFIAPI pf_handler(EFI_EXCEPTION_TYPE type, EFI_SYSTEM_CONTEXT ctx)
{
	EFI_SYSTEM_CONTEXT_X64 *x = ctx.SystemContextX64;

	(void)type;
	if (x->Rip == (UINT64)(UINTN)unc_mmio_load_insn || x->Rip == (UINT64)(UINTN)unc_mmio_store_insn) {
		pf_faulted = 1;
		x->Rip += 2;
		return;
	}
	native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_PAGE_FAULT, NULL);
}

/* The #PF guard, when vector 14 is free (a firmware that handles its own
 * page faults, for its stack or NULL guards, keeps them: the map checks
 * stand alone then). True when installed. */
static bool pf_guard_on(void)
{
	pf_faulted = 0;
	return native.cpu && !EFI_ERROR(native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_PAGE_FAULT, pf_handler));
}

static enum unc_status pf_guard_off(bool on)
{
	if (on)
		native.cpu->RegisterInterruptHandler(native.cpu, UNC_EXCEPT_X64_PAGE_FAULT, NULL);
	return pf_faulted ? UNC_E_NOT_MMIO : UNC_OK;
}

/* One 32-bit load: IMC counters must never be read 64 bits at a time. */
enum unc_status native_mmio_read32(void *ctx, uint64_t phys, uint32_t *ret_val)
{
	enum unc_status st = mmio_allowed(phys);

	(void)ctx;
	if (st)
		return st;
	bool on = pf_guard_on();
	uint32_t v = unc_asm_mmio_read32(phys);
	if ((st = pf_guard_off(on)) == UNC_OK)
		*ret_val = v;
	return st;
}

/* One 32-bit store (MMIO PMON controls). */
enum unc_status native_mmio_write32(void *ctx, uint64_t phys, uint32_t val)
{
	enum unc_status st = mmio_allowed(phys);

	(void)ctx;
	if (st)
		return st;
	bool on = pf_guard_on();
	unc_asm_mmio_write32(phys, val);
	return pf_guard_off(on);
}

/* A sample's free-running counters: the same loads as native_mmio_read32,
 * between two reads of the TSC, in one call; every address checked before
 * the first read of the TSC. */
enum unc_status native_mmio_read32_n(void *ctx, const uint64_t *phys, unsigned n, uint64_t *ret_val,
					    uint64_t *ret_ticks)
{
	enum unc_status st;

	for (unsigned i = 0; i < n; i++)
		if ((st = mmio_allowed(phys[i])))
			return st;
	bool on = pf_guard_on();
	ret_ticks[0] = native_ticks(ctx);
	for (unsigned i = 0; i < n; i++)
		ret_val[i] = unc_asm_mmio_read32(phys[i]);
	ret_ticks[1] = native_ticks(ctx);
	return pf_guard_off(on);
}
