/* The resident part of uncore-emu.efi: a boot-service driver that makes
 * QEMU look like a 6th-gen Core uncore to uncore.efi. tests/emu/launcher.c
 * starts it with its configuration as LoadOptions (struct emu_launch); a
 * Driver#### option may instead give it the launcher's options as UCS-2 text.
 *
 * It emulates only what QEMU lacks. CPUID stays QEMU's (-cpu Skylake-Client)
 * except the leaves given with --cpuid. The uncore MSRs are served by the
 * model (tests/emu/model.c over tests/emu/pmu_skl.c) through
 * UNC_EMU_PROTOCOL, which also carries (revision 2) the PCI functions the
 * model emulates (none for this uncore), the CPUID overrides and RDPMC, and
 * (revision 3) loads from the MCHBAR region.
 * Beside the uncore the model serves one core PMU (tests/emu/pmu_core.h:
 * P6, Knights Corner or the architectural PMU, by the CPU identity or
 * --core-pmu/--arch-pmu), its MSRs, RDPMC and, for the architectural PMU,
 * CPUID leaf 0xA. MCHBAR is real guest memory: a 32 KiB-aligned region
 * below 4 GiB whose address (with the enable bit) is written into the q35
 * host bridge at 0:0.0 offsets 0x48/0x4C, so uncore.efi finds MCHBAR
 * through its own native PCI path; its loads from the region come to the
 * protocol (revision 3, MmioRead32), which answers the IMC counters exact
 * at each load. For other readers of the memory, a 10 ms periodic timer
 * event rewrites the counters there from the TSC: a raw load sees the
 * counts of at most one timer period ago (more when the timer runs late).
 * A firmware that ticks slower than every 10 ms gets its timer period set
 * to 10 ms while the driver is loaded (EFI_TIMER_ARCH_PROTOCOL), the old
 * period put back on unload; OVMF ticks every 10 ms and is left as it is
 * (a 1 ms period kept an idle TCG guest at about 30% of a host core).
 *
 * On family 6 model 0x2D (or --uncore snbep), and the later Xeons to
 * Cooper Lake (0x3E, 0x3F, 0x4F, 0x56, 0x55, or --uncore ivbep, hswep,
 * bdx, skx), the uncore is the Xeon iMC instead (tests/emu/pmu_snbep.c):
 * configuration space only,
 * through PciRead32/PciWrite32; no MCHBAR, no timer, the host bridge is
 * never touched. */
#include <efi.h>
#include <efilib.h>

#include "../../efi/console.h"
#include "../../efi/emu_protocol.h"
#include "../../efi/native.h"
#include "../../efi/pi.h"
#include "../../drivers/base/arith.h"
#include "../../drivers/base/cpu.h"
#include "../../drivers/base/tsc.h"
#include "launch.h"

#define EMU_TEXT_ARGS 64 /* the launcher's command line, as the Shell splits it */

#define NS_PER_S      1000000000ull
#define MCHBAR_ALIGN  0x8000ull /* the mask 0x7FFFFF8000 keeps 32 KiB granules */
#define REGION_PAGES  16        /* 64 KiB: an aligned 32 KiB inside, up to 0x5058 used */
#define TIMER_100NS   100000    /* 10 ms */

static struct emu model, core_model; /* the uncore, and the core PMU beside it (model.next) */
static struct hw hw;
static uint64_t tsc0, tsc_hz;
static volatile uint32_t *region;
/* The region's size and alignment, and the pages allocated for it: the
 * Skylake-client IMC's 32 KiB, or the Alder/Raptor Lake IMC's 128 KiB (both
 * controllers' counters, and MCHBAR's bits 41:17 on Raptor Lake). */
static uint64_t region_size = MCHBAR_ALIGN;
static UINTN region_pages = REGION_PAGES;
static EFI_PHYSICAL_ADDRESS region_mem;
static uint32_t saved_mchbar_lo, saved_mchbar_hi; /* the host bridge as we found it */
static char description[UNC_EMU_DESCRIPTION_SIZE];
static EFI_EVENT timer;
static const struct pci_addr host_bridge = { 0, 0, 0 };
static UNC_EFI_TIMER_ARCH_PROTOCOL *timer_arch;
static UINT64 saved_timer_period; /* 100 ns units; 0: not changed */

/* --fault slow-stall: the firmware's Stall, replaced by one that waits
 * longer, and put back on unload. */
static EFI_STALL firmware_stall;
static unsigned stall_pct;

static EFI_STATUS EFIAPI slow_stall(UINTN us)
{
	EFI_STATUS s = firmware_stall(us);
	UINTN extra = (UINTN)((uint64_t)us * stall_pct / 100);

	if (!EFI_ERROR(s) && extra)
		firmware_stall(extra);
	return s;
}

static void set_stall(EFI_STALL fn)
{
	UINT32 crc = 0;

	BS->Stall = fn;
	BS->Hdr.CRC32 = 0;
	BS->CalculateCrc32(BS, BS->Hdr.HeaderSize, &crc);
	BS->Hdr.CRC32 = crc;
}

/* Model time: TSC ticks since start-up, in ns, read by whichever
 * processor calls (README.md: QEMU's TCG gives every vCPU one TSC). The
 * TSC's rate was measured against the ACPI PM timer (native_calibrate),
 * as uncore.efi measures it. */
static uint64_t now_ns(void)
{
	return u64_muldiv(hw_ticks(&hw) - tsc0, NS_PER_S, tsc_hz);
}

static VOID EFIAPI imc_tick(EFI_EVENT ev, VOID *ctx)
{
	uint64_t t = now_ns();

	(void)ev;
	(void)ctx;
	/* One 32-bit store per counter (two for a 64-bit one, low first), as
	 * the hardware updates them. */
	if (emu_client_imc(model.cfg.uncore_active)) {
		for (unsigned i = 0; i < EMU_ADL_IMC_COUNTERS; i++) {
			uint64_t v = emu_adl_imc_value(&model.cfg, i, t);
			uint32_t at = (model.cfg.imc_block + emu_adl_imc[i].offset) / 4;
			region[at] = (uint32_t)v;
			region[at + 1] = (uint32_t)(v >> 32);
		}
		return;
	}
	for (unsigned i = 0; i < EMU_IMC_COUNTERS; i++)
		region[emu_imc[i].offset / 4] = emu_imc_value(&model.cfg, i, t);
}

static EFI_STATUS to_efi(enum unc_status st)
{
	switch (st) {
	case UNC_OK: return EFI_SUCCESS;
	case UNC_E_FAULT: return EFI_DEVICE_ERROR;
	case UNC_E_NOT_FOUND: return EFI_UNSUPPORTED;
	case UNC_E_UNSUPPORTED: return EFI_ABORTED; /* RDPMC: #UD */
	case UNC_E_RANGE: return EFI_INVALID_PARAMETER;
	default: return EFI_PROTOCOL_ERROR;
	}
}

/* The model, brought up to now: every protocol call starts here. A
 * caller whose clock is behind the model's time (the model never goes
 * back) is answered at the model's time, not its own: such accesses, and
 * the most any was behind, are said at unload. */
static uint64_t behind_n, behind_max_ns;

static struct emu *model_now(void)
{
	uint64_t t = now_ns();

	if (t < model.now_ns) {
		behind_n++;
		behind_max_ns = model.now_ns - t > behind_max_ns ? model.now_ns - t : behind_max_ns;
	}
	emu_set_time(&model, t);
	return &model;
}

/* A 64-bit read from the model (an MSR, RDPMC): *value only on success. */
static EFI_STATUS read64(enum unc_status (*fn)(struct emu *, uint32_t, uint64_t *), uint32_t what, UINT64 *value)
{
	uint64_t v = 0;
	enum unc_status st;

	if (!value)
		return EFI_INVALID_PARAMETER;
	st = fn(model_now(), what, &v);
	if (st == UNC_OK)
		*value = v;
	return to_efi(st);
}

/* Per-package MSRs: each processor's package (GetProcessorInfo's APIC ID
 * shifted as the x2APIC topology says, cpu_pkg_shift: the rule uncore.efi
 * follows; OVMF's Location.Package reads 0 on every socket of QEMU 7.2),
 * in a table built on the BSP at load; an MSR access
 * finds its processor by WhoAmI, which PI allows on APs, and the model
 * answers for that package (emu_cur_pkg). The accesses each package's
 * processors made are counted, and said at unload. */
static UNC_EFI_MP_SERVICES_PROTOCOL *mp;
static uint32_t *cpu_pkg;
static UINTN ncpu;
static unsigned npkgs; /* packages in the table (the highest ID + 1) */
static uint64_t msr_on_pkg[HW_MAX_PKGS];

static void find_cpu_packages(void)
{
	static EFI_GUID mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	UINTN total = 0, enabled = 0;

	if (EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&mp)) || !mp ||
	    EFI_ERROR(mp->GetNumberOfProcessors(mp, &total, &enabled)) || !total ||
	    EFI_ERROR(BS->AllocatePool(EfiBootServicesData, total * sizeof(uint32_t), (void **)&cpu_pkg))) {
		mp = NULL;
		return;
	}
	const char *how;
	unsigned shift = cpu_pkg_shift(&hw, &how);
	ncpu = total;
	for (UINTN c = 0; c < total; c++) {
		UNC_EFI_PROCESSOR_INFORMATION info;
		cpu_pkg[c] = EFI_ERROR(mp->GetProcessorInfo(mp, c, &info)) ? 0 : (uint32_t)(info.ProcessorId >> shift);
		if (cpu_pkg[c] < HW_MAX_PKGS && cpu_pkg[c] >= npkgs)
			npkgs = cpu_pkg[c] + 1;
	}
}

static void on_this_package(void)
{
	UINTN me = 0;

	emu_cur_pkg = mp && !EFI_ERROR(mp->WhoAmI(mp, &me)) && me < ncpu ? cpu_pkg[me] : 0;
	if (emu_cur_pkg < HW_MAX_PKGS)
		msr_on_pkg[emu_cur_pkg]++;
}

static EFI_STATUS EFIAPI proto_read(UNC_EMU_PROTOCOL *This, UINT32 msr, UINT64 *value)
{
	(void)This;
	on_this_package();
	return read64(emu_msr_read, msr, value);
}

static EFI_STATUS EFIAPI proto_write(UNC_EMU_PROTOCOL *This, UINT32 msr, UINT64 value)
{
	(void)This;
	on_this_package();
	return to_efi(emu_msr_write(model_now(), msr, value));
}

/* Revision 2: the PCI functions, CPUID leaves and RDPMC the model claims. */
static EFI_STATUS EFIAPI proto_pci_read(UNC_EMU_PROTOCOL *This, UINT8 bus, UINT8 dev, UINT8 func, UINT16 off,
					UINT32 *value)
{
	uint32_t v = 0;
	enum unc_status st;

	(void)This;
	if (!value)
		return EFI_INVALID_PARAMETER;
	st = emu_pci_read32(model_now(), bus, dev, func, off, &v);
	if (st == UNC_OK)
		*value = v;
	return to_efi(st);
}

/* A write that sets a must-be-0 bit is noted in the description, which
 * the next `uncore.efi info` shows. */
static EFI_STATUS EFIAPI proto_pci_write(UNC_EMU_PROTOCOL *This, UINT8 bus, UINT8 dev, UINT8 func, UINT16 off,
					 UINT32 value)
{
	unsigned mbz = model.mbz.n;

	(void)This;
	EFI_STATUS s = to_efi(emu_pci_write32(model_now(), bus, dev, func, off, value));
	if (model.mbz.n != mbz)
		emu_describe_model(&model, description, sizeof(description));
	return s;
}

static EFI_STATUS EFIAPI proto_cpuid(UNC_EMU_PROTOCOL *This, UINT32 leaf, UINT32 subleaf, UINT32 regs[4])
{
	struct emu_cpuid c;

	(void)This;
	if (!regs)
		return EFI_INVALID_PARAMETER;
	if (!emu_cpuid(&model.cfg, leaf, subleaf, &c))
		return EFI_UNSUPPORTED;
	regs[0] = c.eax;
	regs[1] = c.ebx;
	regs[2] = c.ecx;
	regs[3] = c.edx;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI proto_rdpmc(UNC_EMU_PROTOCOL *This, UINT32 index, UINT64 *value)
{
	(void)This;
	return read64(emu_rdpmc, index, value);
}

/* Revision 3: loads from the MCHBAR region, each exact at the moment of
 * the call (the timer's copy in memory is for other readers); any other
 * address is not ours. */
static EFI_STATUS EFIAPI proto_mmio_read(UNC_EMU_PROTOCOL *This, UINT64 addr, UINT32 *value)
{
	uint64_t base = (uint64_t)(UINTN)region;

	(void)This;
	if (!value)
		return EFI_INVALID_PARAMETER;
	if (addr & 3)
		return EFI_INVALID_PARAMETER;
	enum unc_status st = emu_mmio_read32(model_now(), addr, value); /* the discovery table and its units */
	if (st != UNC_E_NOT_FOUND)
		return to_efi(st);
	if (!region_mem || addr < base || addr >= base + region_size)
		return EFI_UNSUPPORTED;
	if (addr & 3)
		return EFI_INVALID_PARAMETER;
	if (!emu_imc_read32(&model.cfg, (uint32_t)(addr - base), now_ns(), value))
		*value = region[(addr - base) / 4];
	return EFI_SUCCESS;
}

/* Revision 4: stores to the MMIO PMON registers the model claims. */
static EFI_STATUS EFIAPI proto_mmio_write(UNC_EMU_PROTOCOL *This, UINT64 addr, UINT32 value)
{
	(void)This;
	if (addr & 3)
		return EFI_INVALID_PARAMETER;
	return to_efi(emu_mmio_write32(model_now(), addr, value));
}

static UNC_EMU_PROTOCOL proto = {
	.Revision = UNC_EMU_PROTOCOL_REVISION,
	.MsrRead = proto_read,
	.MsrWrite = proto_write,
	.Description = (CONST CHAR8 *)description,
	.PciRead32 = proto_pci_read,
	.PciWrite32 = proto_pci_write,
	.CpuidOverride = proto_cpuid,
	.Rdpmc = proto_rdpmc,
	.MmioRead32 = proto_mmio_read,
	.MmioWrite32 = proto_mmio_write,
};

static EFI_GUID proto_guid = UNC_EMU_PROTOCOL_GUID;

static EFI_HANDLE image_handle;

/* Undoes what start-up did before the protocol, in reverse: the timer,
 * MCHBAR in the host bridge, the region (none of them for the E5-2600 iMC,
 * which is in configuration space only). */
static void teardown(void)
{
	if (firmware_stall) {
		set_stall(firmware_stall);
		firmware_stall = NULL;
	}
	if (!region_mem)
		return;
	if (timer) {
		BS->SetTimer(timer, TimerCancel, 0);
		BS->CloseEvent(timer);
		timer = NULL;
	}
	hw_pci_write32(&hw, host_bridge, EMU_SKL_MCHBAR_LO, saved_mchbar_lo);
	hw_pci_write32(&hw, host_bridge, EMU_SKL_MCHBAR_HI, saved_mchbar_hi);
	if (timer_arch && saved_timer_period) {
		timer_arch->SetTimerPeriod(timer_arch, saved_timer_period);
		saved_timer_period = 0;
	}
	BS->FreePages(region_mem, region_pages);
	region_mem = 0;
}

/* What native_init and find_cpu_packages took (the seam's pool
 * allocations): on unload and on every failure of start-up. */
static void release(void)
{
	if (cpu_pkg)
		BS->FreePool(cpu_pkg);
	cpu_pkg = NULL;
	mp = NULL;
	native_release();
}

/* UnloadImage calls this (`uncore-emu.efi --unload`, the Shell's `unload`).
 * While a client holds the protocol open BY_DRIVER (uncore.efi does, for its
 * whole run) the firmware refuses to uninstall it; then nothing is torn
 * down, and the image stays: the client still calls into it. */
static EFI_STATUS EFIAPI unload(EFI_HANDLE image)
{
	EFI_STATUS s = BS->UninstallProtocolInterface(image_handle, &proto_guid, &proto);

	(void)image;
	if (EFI_ERROR(s))
		return s;
	teardown();
	struct out out = console_out();
	if (npkgs > 1) {
		out_printf(&out, "uncore-emu: MSR accesses by package:");
		for (unsigned p = 0; p < npkgs; p++)
			out_printf(&out, " %u: %lu%s", p, (unsigned long)msr_on_pkg[p], p + 1 < npkgs ? "," : "\n");
	}
	if (behind_n)
		out_printf(&out, "uncore-emu: warning: %lu accesses came with a TSC behind the model's time (by up to %lu ns): "
				 "the processors' TSCs disagree, and those were answered late\n",
			   (unsigned long)behind_n, (unsigned long)behind_max_ns);
	release();
	return EFI_SUCCESS;
}

static EFI_STATUS fail(struct out *err, EFI_STATUS s, const char *what)
{
	out_printf(err, "uncore-emu: error: %s\n", what);
	release();
	return s;
}

/* The last step of start-up: the protocol, then one line saying what is
 * emulated (what, the description, where). */
static EFI_STATUS install(EFI_HANDLE image, EFI_LOADED_IMAGE *li, struct out *out, struct out *err, const char *what,
			  const char *where)
{
	emu_describe_model(&model, description, sizeof(description));
	if (model.cfg.slow_stall_pct) { /* teardown puts the firmware's back */
		firmware_stall = BS->Stall;
		stall_pct = model.cfg.slow_stall_pct;
		set_stall(slow_stall);
	}
	/* On the image handle, so that `uncore-emu.efi --unload` finds the
	 * image to unload through the protocol. */
	EFI_STATUS s = BS->InstallProtocolInterface(&image, &proto_guid, EFI_NATIVE_INTERFACE, &proto);
	if (EFI_ERROR(s)) {
		teardown();
		return fail(err, s, "cannot install the emulation protocol");
	}
	li->Unload = unload;
	image_handle = image;
	char mhz[24], how[120];
	fmt_fixed(mhz, sizeof(mhz), tsc_hz, 1000000, 3);
	tsc_describe(&hw.tsc, how, sizeof(how));
	out_printf(out, "uncore-emu: emulating %s%s%s\n", what, description, where);
	out_printf(out, "uncore-emu: model time: TSC at %s MHz, %s\n", mhz, how);
	return EFI_SUCCESS;
}

/* Options as text: a Driver#### option's data written as UCS-2 (Linux's
 * efibootmgr --append-binary-args FILE, or its -u extra arguments), the
 * launcher's options separated by spaces, NUL-ended or not. */
static enum unc_status text_options(const UINT8 *data, UINTN size, struct emu_config *cfg, char *err, size_t errsize)
{
	static char text[1024];
	char *argv[EMU_TEXT_ARGS + 1] = { "uncore-emu" };
	int argc = 1;
	UINTN k = 0;

	if (size % 2 || size / 2 >= sizeof(text))
		UNC_ERR(UNC_E_INVALID, "no configuration: the option's data (%lu bytes) is neither uncore-emu.efi's "
				       "launch block nor its options as UCS-2 text", (unsigned long)size);
	for (; k < size / 2 && (data[2 * k] | data[2 * k + 1]); k++) {
		if (data[2 * k + 1] || data[2 * k] < 0x20 || data[2 * k] > 0x7e)
			UNC_ERR(UNC_E_INVALID, "no configuration: the option's data has character 0x%04x at %lu",
				data[2 * k] | data[2 * k + 1] << 8, (unsigned long)k);
		text[k] = (char)data[2 * k];
	}
	text[k] = 0;
	for (char *p = text; *p;) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		if (argc == EMU_TEXT_ARGS)
			UNC_ERR(UNC_E_INVALID, "no configuration: more than %d options in the option's data", EMU_TEXT_ARGS - 1);
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
	enum unc_status st = emu_parse_options(argc, argv, cfg, err, errsize);
	if (!st && cfg->unload)
		UNC_ERR(UNC_E_INVALID, "--unload is uncore-emu.efi's, not a driver option's");
	return st;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static struct emu_config cfg;
	char why[200];
	struct out out, err;
	EFI_LOADED_IMAGE *li = NULL;
	void *existing;
	enum unc_status st;
	EFI_STATUS s;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();

	s = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(s) || !li->LoadOptions || !li->LoadOptionsSize)
		return fail(&err, EFI_INVALID_PARAMETER, "no configuration: start the emulator with uncore-emu.efi");
	if (li->LoadOptionsSize == sizeof(struct emu_launch) &&
	    ((struct emu_launch *)li->LoadOptions)->magic == EMU_LAUNCH_MAGIC &&
	    ((struct emu_launch *)li->LoadOptions)->size == sizeof(struct emu_launch))
		cfg = ((struct emu_launch *)li->LoadOptions)->cfg;
	else if (text_options(li->LoadOptions, li->LoadOptionsSize, &cfg, why, sizeof(why)))
		return fail(&err, EFI_INVALID_PARAMETER, why);
	if (!EFI_ERROR(BS->LocateProtocol(&proto_guid, NULL, &existing)))
		return fail(&err, EFI_ALREADY_STARTED, "an uncore emulator is already installed");

	native_init(&hw, &err, NULL);
	find_cpu_packages();
	if ((st = native_calibrate(&hw, &err))) {
		release();
		return efi_status_from(st);
	}
	tsc_hz = hw.tick_hz;

	/* The uncore and the core PMU follow the CPU identity the guest sees:
	 * leaf 1 as --cpuid gives it, else the processor's. */
	struct emu_cpuid id;
	struct cpuid_regs r;
	if (emu_cpuid(&cfg, 1, 0, &id)) {
		r = (struct cpuid_regs){ id.eax, id.ebx, id.ecx, id.edx };
	} else {
		hw_cpuid(&hw, 1, 0, &r);
	}
	emu_init_cpu(&model, &core_model, &cfg, r.eax);
	emu_core_leaf1(&model, r.eax, r.ebx, r.ecx, r.edx);
	if (emu_uncore_check(&model.cfg, model.cfg.uncore_active, why, sizeof(why)) ||
	    emu_core_check(&model.cfg, model.cfg.core_active, why, sizeof(why)) ||
	    emu_ro_check(&model.cfg, model.cfg.uncore_active, model.cfg.core_active, why, sizeof(why)))
		return fail(&err, EFI_INVALID_PARAMETER, why);
	tsc0 = hw_ticks(&hw);
	if (model.cfg.uncore_active == EMU_UNCORE_SNBEP || model.cfg.uncore_active == EMU_UNCORE_ICX)
		return install(image, li, &out, &err, "a ", ""); /* the description names it (no MCHBAR) */

	/* The host bridge's MCHBAR as we found it, restored on unload. */
	if (hw_pci_read32(&hw, host_bridge, EMU_SKL_MCHBAR_LO, &saved_mchbar_lo) ||
	    hw_pci_read32(&hw, host_bridge, EMU_SKL_MCHBAR_HI, &saved_mchbar_hi))
		return fail(&err, EFI_DEVICE_ERROR, "cannot read MCHBAR at 0:0.0 offsets 0x48/0x4C");

	bool adl = emu_client_imc(model.cfg.uncore_active);
	if (adl) {
		region_size = EMU_ADL_MCHBAR_SIZE;
		region_pages = 2 * EMU_ADL_MCHBAR_SIZE / 4096;
	} else if (model.cfg.uncore_active == EMU_UNCORE_ICL || model.cfg.uncore_active == EMU_UNCORE_RKL) {
		region_size = 0x10000; /* MCHBAR's base field starts at bit 16 (chipsec icl.xml, rkl.xml) */
		region_pages = 2 * 0x10000 / 4096;
	}
	region_mem = 0xFFFFFFFF;
	if (model.cfg.mchbar_at) { /* --mchbar: exactly there (the option checked its alignment) */
		region_mem = model.cfg.mchbar_at;
		region_pages = region_size / 4096;
		s = BS->AllocatePages(AllocateAddress, EfiBootServicesData, region_pages, &region_mem);
	} else {
		s = BS->AllocatePages(AllocateMaxAddress, EfiBootServicesData, region_pages, &region_mem);
	}
	if (EFI_ERROR(s))
		return fail(&err, s, model.cfg.mchbar_at ? "cannot allocate the MCHBAR region at --mchbar's address"
						       : "cannot allocate the MCHBAR region below 4 GiB");
	uint64_t base = (region_mem + region_size - 1) & ~(region_size - 1);
	region = (volatile uint32_t *)(UINTN)base;
	model.imcp.mchbar = base; /* the programmable IMC registers in it (pmu_adl.c) */
	for (unsigned i = 0; i < region_size / 4; i++)
		region[i] = 0;

	imc_tick(NULL, NULL);

	/* Publish MCHBAR in the host bridge, and check that it took. */
	uint64_t mchbar = emu_mchbar_value(&model.cfg, base);
	uint32_t lo = 0, hi = 0;
	if (hw_pci_write32(&hw, host_bridge, EMU_SKL_MCHBAR_LO, (uint32_t)mchbar) ||
	    hw_pci_write32(&hw, host_bridge, EMU_SKL_MCHBAR_HI, (uint32_t)(mchbar >> 32)) ||
	    hw_pci_read32(&hw, host_bridge, EMU_SKL_MCHBAR_LO, &lo) || hw_pci_read32(&hw, host_bridge, EMU_SKL_MCHBAR_HI, &hi) ||
	    ((uint64_t)hi << 32 | lo) != mchbar) {
		teardown(); /* a half-written MCHBAR is put back too */
		return fail(&err, EFI_DEVICE_ERROR, "the host bridge did not accept MCHBAR at 0:0.0 offsets 0x48/0x4C");
	}

	s = BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_NOTIFY, imc_tick, NULL, &timer);
	if (EFI_ERROR(s)) {
		timer = NULL;
		teardown();
		return fail(&err, s, "cannot create the IMC timer");
	}
	s = BS->SetTimer(timer, TimerPeriodic, TIMER_100NS);
	if (EFI_ERROR(s)) {
		teardown();
		return fail(&err, s, "cannot start the IMC timer");
	}
	static EFI_GUID timer_arch_guid = UNC_EFI_TIMER_ARCH_PROTOCOL_GUID;
	UINT64 period = 0;
	if (!EFI_ERROR(BS->LocateProtocol(&timer_arch_guid, NULL, (void **)&timer_arch)) && timer_arch &&
	    !EFI_ERROR(timer_arch->GetTimerPeriod(timer_arch, &period)) && period > TIMER_100NS &&
	    !EFI_ERROR(timer_arch->SetTimerPeriod(timer_arch, TIMER_100NS)))
		saved_timer_period = period;

	char where[64];
	fmt_snprintf(where, sizeof(where), "; MCHBAR 0x%lx (region 0x%lx)", (unsigned long)mchbar, (unsigned long)base);
	bool client = adl || model.cfg.uncore_active == EMU_UNCORE_ICL || model.cfg.uncore_active == EMU_UNCORE_RKL;
	return install(image, li, &out, &err, client ? "a client uncore: " : "a 6th-gen Core uncore: ", where);
}
