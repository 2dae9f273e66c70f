/* Entry point: shell arguments in, EFI_STATUS out. */
#include <efi.h>
#include <efilib.h>

#include "../drivers/cmd/app.h"
#include "../drivers/cmd/cli.h"
#include "../drivers/cmd/lab_command.h"
#include "bootcheck_efi.h"
#include "console.h"
#include "http.h"
#include "lab_edge.h"
#include "native.h"
#include "shell.h"
#include "measure.h"
#include "vars.h"

/* The firmware's wait (efi_idle) for `ticks`, at most 50 ms, or until a
 * key comes; false when it did not idle the whole time. */
static bool idle_for(const struct hw *hw, uint64_t ticks)
{
	uint64_t max = hw->tick_hz / 20;

	return efi_idle((ticks > max ? max : ticks) * 1000000 / hw->tick_hz, true);
}

/* Waits on the TSC: the time is the TSC's at both ends, whatever the wait
 * took. While the memory load runs, the BSP runs its share of it; without
 * one, it idles in the firmware (idle_for) up to 12 ms before the end (the
 * firmware's timer ticks every 10 ms or so) and spins the rest. It looks for
 * ESC every millisecond or so while spinning, and as soon as a key ends an
 * idle wait; where it cannot idle (efi_idle), it spins the whole wait. */
static bool wait_until(void *ctx, uint64_t when)
{
	const struct hw *hw = ctx;
	uint64_t poll_every = hw->tick_hz / 1000, next_poll = 0, margin = hw->tick_hz / 1000 * 12;
	bool can_idle = true;

	for (;;) {
		uint64_t now = hw_ticks(hw);
		if (now >= when)
			return false;
		if (!efi_load_chunk() && can_idle && when - now > 2 * margin) {
			bool timer = idle_for(hw, when - now - margin);
			bool key = ST->ConIn && ST->ConIn->WaitForKey && BS->CheckEvent(ST->ConIn->WaitForKey) == EFI_SUCCESS;
			if (timer)
				continue;
			if (!key)
				can_idle = false; /* it did not wait: spin from here on */
			now = hw_ticks(hw);
			next_poll = 0;
		}
		if (now >= next_poll) {
			EFI_INPUT_KEY key;
			if (ST->ConIn && ST->ConIn->ReadKeyStroke(ST->ConIn, &key) == EFI_SUCCESS && key.ScanCode == SCAN_ESC)
				return true;
			next_poll = now + poll_every;
		}
	}
}

static EFI_HANDLE self;

static enum unc_status load_start(int kind, bool nt, uint64_t size, uint32_t cpus, uint64_t llc_bytes,
				  uint32_t *ret_cpus, uint64_t *ret_size, char *err, size_t errsize)
{
	struct load_cfg cfg = { (enum load_kind)kind, nt, size, cpus, llc_bytes };

	return efi_load_start(&cfg, ret_cpus, ret_size, err, errsize);
}

static enum unc_status child_find(void *ctx, const char *cmdline, char *ret_cmdline, size_t size, char *err,
				  size_t errsize)
{
	(void)ctx;
	return efi_child_find(self, cmdline, ret_cmdline, size, err, errsize);
}

/* A child that failed makes its own status the run's (drivers/cmd/measure.md, "The child"). */
static EFI_STATUS child_status;

/* ExitBootServices while a child runs with counters programmed (a child
 * that boots an OS never returns): the run's journal puts every register
 * back. The notify function allocates nothing, as the UEFI specification
 * requires of an EVT_SIGNAL_EXIT_BOOT_SERVICES notification: the writes go
 * through the seam (wrmsr under the CPU arch protocol's #GP guard, the
 * emulator's protocol, MMIO stores only to ranges the run accepted before,
 * PCI through the root bridge, another package's MSRs by the processor
 * already serving it or MP services' StartupThisAP, blocking: no event is
 * created; native_boot_services_ending). TPL_NOTIFY: before
 * the firmware's own TPL_CALLBACK notifications (MP services parks the APs in
 * one). */
static EFI_EVENT ebs_event;

static VOID EFIAPI ebs_notify(EFI_EVENT ev, VOID *ctx)
{
	(void)ev;
	native_boot_services_ending(); /* no allocation, no event, no map check from here on */
	stat_put_back(ctx);
	native_stop_aps(); /* the processors that served other packages go back to the firmware */
}

static bool exit_guard(void *ctx, struct stat_run *run)
{
	(void)ctx;
	if (ebs_event)
		BS->CloseEvent(ebs_event);
	ebs_event = NULL;
	if (run && EFI_ERROR(BS->CreateEvent(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_NOTIFY, ebs_notify, run, &ebs_event))) {
		ebs_event = NULL;
		return false;
	}
	return true;
}

static enum unc_status run_child(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				 unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize)
{
	enum unc_status st = efi_run_child(self, cmdline, ret_status, ret_known, period_ms, tick, tctx, err, errsize);

	(void)ctx;
	if (!st && *ret_known)
		child_status = *ret_status;
	return st;
}

/* The firmware's memory map as plain ranges, for `mmio read`. The ranges are
 * written over the descriptors in the same pool buffer (each range is
 * smaller than a descriptor), which the caller frees with efi_free. */
static enum unc_status memory_map(struct mem_range **ret, size_t *ret_n, char *err, size_t errsize)
{
	UINTN size = 0, key, dsize = 0;
	UINT32 dver;
	UINT8 *buf = NULL;
	EFI_STATUS s = BS->GetMemoryMap(&size, NULL, &key, &dsize, &dver);

	*ret = NULL;
	*ret_n = 0;
	/* Allocating the buffer can add descriptors: leave room, and retry. */
	for (int tries = 0; s == EFI_BUFFER_TOO_SMALL && tries < 4; tries++) {
		if (buf)
			efi_free(buf);
		size += 8 * dsize;
		if (!(buf = efi_alloc(size)))
			UNC_ERR(UNC_E_NO_MEMORY, "no memory for the memory map (%lu bytes)", (unsigned long)size);
		s = BS->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)buf, &key, &dsize, &dver);
	}
	if (EFI_ERROR(s) || dsize < sizeof(EFI_MEMORY_DESCRIPTOR)) {
		if (buf)
			efi_free(buf);
		UNC_ERR(UNC_E_DEVICE, "GetMemoryMap failed (status 0x%lx)", (unsigned long)s);
	}
	struct mem_range *r = (struct mem_range *)buf;
	size_t n = size / dsize;
	for (size_t i = 0; i < n; i++) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(buf + i * dsize);
		uint64_t base = d->PhysicalStart, pages = d->NumberOfPages;
		r[i] = (struct mem_range){ base, pages > UINT64_MAX / EFI_PAGE_SIZE ? UINT64_MAX : pages * EFI_PAGE_SIZE };
	}
	*ret = r;
	*ret_n = n;
	return UNC_OK;
}

/* Parses one command line into CMD (zeroed) and runs it. */
static EFI_STATUS run_cmd(EFI_HANDLE image, struct cli_cmd *cmd, int argc, char **argv, struct hw *hw,
			       struct app_env *env, struct out *out, struct out *err)
{
	char msg[200];
	enum unc_status st = cli_parse(argc, argv, cmd, msg, sizeof(msg));

	shell_args_free(); /* cmd holds copies of all it needs */
	if (st) {
		out_printf(err, "uncore: error: %s\n", msg);
		return efi_status_from(st);
	}
	const char *config = lab_command_config(cmd);
	if (config)
		return efi_lab(image, env, config, true);
	native_init(hw, err, image);
	if (app_needs_clock(cmd)) {
		st = native_calibrate(hw, err);
		if (st) {
			native_release();
			return efi_status_from(st);
		}
	}
	st = app_run(cmd, hw, env, out, err);
	native_release();
	return st == UNC_E_CHILD ? child_status : efi_status_from(st);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct out out, err;
	struct hw hw;
	char **argv;
	int argc = 0;
	enum unc_status st;

	InitializeLib(image, systab);
	self = image;
	out = console_out();
	err = console_err();

	struct app_env env = { wait_until, &hw, &efi_varstore, efi_write_file, efi_alloc, efi_free, efi_get_time,
			       load_start, efi_load_bytes, efi_load_stop, child_find, run_child, efi_smbios_memory,
			       memory_map, NULL, exit_guard, efi_smbios_id, NULL, 0, efi_http_ready, efi_http_put, NULL,
			       &efi_boot_env, 0 };
	/* Started as a driver (uncore-boot.efi, a Driver#### option): the boot check. */
	EFI_LOADED_IMAGE *li = NULL;
	efi_boot_self(image);
	if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li)) && li &&
	    li->ImageCodeType == EfiBootServicesCode)
		return efi_boot_run(image, &env, &hw, &out, &err);
	st = shell_args_ascii(image, "uncore", &argc, &argv, &err);
	if (st)
		return efi_status_from(st);
	/* No Shell parameters (\EFI\BOOT\BOOTX64.EFI, a Boot#### option): lab mode. */
	if (argc == 0)
		return efi_lab(image, &env, NULL, false);
	/* The parsed command (about 3 KB) comes from the pool, not the image. */
	struct cli_cmd *cmd = efi_alloc(sizeof(*cmd));
	if (!cmd) {
		shell_args_free();
		out_printf(&err, "uncore: error: out of memory\n");
		return EFI_OUT_OF_RESOURCES;
	}
	SetMem(cmd, sizeof(*cmd), 0);
	EFI_STATUS status = run_cmd(image, cmd, argc, argv, &hw, &env, &out, &err);
	efi_free(cmd);
	return status;
}
