/* The boot check's firmware side (drivers/cmd/bootcheck.md): uncore-boot.efi's
 * run when the boot manager starts it as a driver, and the image's file for
 * `boot-check install` and `remove`. */
#include <efi.h>
#include <efilib.h>

#include <string.h>

#include "../drivers/cmd/bootcheck.h"
#include "bootcheck_efi.h"
#include "console.h"
#include "lab_vol.h"
#include "native.h"
#include "vars.h"

static EFI_HANDLE boot_self;

static void wide(CHAR16 *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < n; i++)
		dst[i] = (CHAR16)(unsigned char)src[i];
	dst[i] = 0;
}

/* The volume the running image came from, and its file path's text. */
static enum unc_status open_vol(struct lab_vol *v, char *path, size_t size, char *err, size_t errsize)
{
	EFI_LOADED_IMAGE *li = NULL;
	size_t k = 0;

	*v = (struct lab_vol){ boot_self, NULL, NULL, NULL, NULL };
	if (EFI_ERROR(BS->HandleProtocol(boot_self, &LoadedImageProtocol, (void **)&li)) || !li ||
	    !(v->root = LibOpenRoot(li->DeviceHandle)))
		UNC_ERR(UNC_E_NOT_FOUND, "the volume uncore.efi was loaded from has no file system");
	v->device = li->DeviceHandle;
	for (const UINT8 *p = (const UINT8 *)li->FilePath; p && p[0] != END_DEVICE_PATH_TYPE;) {
		size_t len = p[2] | (size_t)p[3] << 8;
		if (len < 4)
			break;
		for (size_t i = 4; p[0] == MEDIA_DEVICE_PATH && p[1] == MEDIA_FILEPATH_DP && i + 1 < len && k + 1 < size; i += 2)
			if (p[i] | p[i + 1])
				path[k++] = p[i + 1] || p[i] >= 0x80 ? '?' : (char)p[i];
		p += len;
	}
	path[k] = 0;
	return UNC_OK;
}

static enum unc_status install_image(const char *src, uint8_t *dp, size_t cap, size_t *ret_len, char *err,
				     size_t errsize)
{
	struct lab_vol v;
	char from[260];
	CHAR16 w[260];
	EFI_FILE_HANDLE fh;
	enum unc_status st = open_vol(&v, from, sizeof(from), err, errsize);

	if (st)
		return st;
	if (src) {
		if (src[0] != '\\' || strchr(src, ':')) {
			v.root->Close(v.root);
			UNC_ERR(UNC_E_INVALID, "bad --image '%s' (want a path on uncore.efi's volume, such as \\uncore-boot.efi)", src);
		}
		fmt_snprintf(from, sizeof(from), "%s", src);
	} else {
		char *slash = NULL;
		for (char *c = from; *c; c++)
			slash = *c == '\\' ? c : slash;
		fmt_snprintf(slash ? slash + 1 : from, sizeof(from) - (size_t)(slash ? slash + 1 - from : 0), "uncore-boot.efi");
	}
	wide(w, 260, from);
	UINT8 *data = NULL;
	UINTN n = 0;
	EFI_STATUS s = v.root->Open(v.root, &fh, w, EFI_FILE_MODE_READ, 0);
	if (!EFI_ERROR(s)) {
		EFI_FILE_INFO *info = LibFileInfo(fh);
		n = info ? info->FileSize : 0;
		if (info)
			FreePool(info);
		s = n && n < (64u << 20) && (data = efi_alloc(n)) ? fh->Read(fh, &n, data) : EFI_BAD_BUFFER_SIZE;
		fh->Close(fh);
	}
	/* a PE image whose subsystem is a boot-service driver (11) */
	uint32_t pe = data && n > 0x40 ? data[0x3c] | (uint32_t)data[0x3d] << 8 : 0;
	if (EFI_ERROR(s) || !data || pe + 0x60 > n || data[pe + 4 + 20 + 68] != 11)
		st = UNC_E_NOT_FOUND, fmt_snprintf(err, errsize, "%s: %s", from,
						   EFI_ERROR(s) ? "cannot read it" : "not a boot-service driver image");
	else if (EFI_ERROR((s = lab_vol_mkdirs(&v, BOOT_IMAGE_DIR))) ||
		 EFI_ERROR((s = lab_vol_write(&v, BOOT_IMAGE_PATH, data, n))))
		st = UNC_E_DEVICE, fmt_snprintf(err, errsize, "cannot write " BOOT_IMAGE_PATH "%s", lab_vol_why(&v, s));
	efi_free(data);
	v.root->Close(v.root);
	if (st)
		return st;
	wide(w, 260, BOOT_IMAGE_PATH);
	UINT8 *path = (UINT8 *)FileDevicePath(v.device, w);
	size_t len = 0;
	for (UINT8 *p = path; p && p[0] != END_DEVICE_PATH_TYPE; p += p[2] | p[3] << 8)
		len += p[2] | (size_t)p[3] << 8;
	if (!path || len + 4 > cap) {
		efi_free(path);
		UNC_ERR(UNC_E_NO_MEMORY, "no device path for " BOOT_IMAGE_PATH);
	}
	memcpy(dp, path, len + 4);
	*ret_len = len + 4;
	efi_free(path);
	return UNC_OK;
}

static enum unc_status remove_image(char *err, size_t errsize)
{
	struct lab_vol v;
	char from[8];
	CHAR16 w[64];
	EFI_FILE_HANDLE fh;
	enum unc_status st = open_vol(&v, from, sizeof(from), err, errsize);

	if (st)
		return st;
	wide(w, 64, BOOT_IMAGE_PATH);
	EFI_STATUS s = v.root->Open(v.root, &fh, w, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
	if (!EFI_ERROR(s))
		s = fh->Delete(fh);
	v.root->Close(v.root);
	if (EFI_ERROR(s))
		UNC_ERR(UNC_E_NOT_FOUND, BOOT_IMAGE_PATH " not removed (status 0x%lx)", (unsigned long)s);
	return UNC_OK;
}

const struct boot_env efi_boot_env = { &efi_globalvars, &efi_bootvars, install_image, remove_image };

void efi_boot_self(EFI_HANDLE image)
{
	boot_self = image;
}

/* The error console, its first "uncore: error: " line kept as the record's why. */
struct tee {
	struct out to;
	char line[240], *why;
	size_t n, whysize;
};

static void tee_write(void *ctx, const char *s, size_t len)
{
	static const char pfx[] = "uncore: error: ";
	struct tee *t = ctx;

	t->to.write(t->to.ctx, s, len);
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\n') {
			if (t->n + 1 < sizeof(t->line))
				t->line[t->n++] = s[i];
			continue;
		}
		t->line[t->n] = 0;
		if (!t->why[0] && !strncmp(t->line, pfx, sizeof(pfx) - 1))
			fmt_snprintf(t->why, t->whysize, "%s", t->line + sizeof(pfx) - 1);
		t->n = 0;
	}
}

/* --on-fail halt: stop where the user sees it, forever (no watchdog reset). */
static void halt(struct out *out)
{
	out_printf(out, "uncore-boot: the check failed and its policy is halt: this machine stops here\n");
	BS->SetWatchdogTimer(0, 0, 0, NULL);
	for (;;) /* halted, not spinning: a spin only where the firmware cannot idle */
		if (!efi_idle(1000000, false))
			BS->Stall(1000000);
}

/* --on-fail setup: EFI_OS_INDICATIONS_BOOT_TO_FW_UI (UEFI 2.10, 8.5.4), then a reset.
 * edk2's BDS reads OsIndications only after it has run the Driver####
 * options, so after the reset the check runs (and fails) again first: with
 * the bit still set it does not reset again, or the machine would reset
 * forever. */
static void to_setup(struct out *out)
{
	uint8_t b[8] = { 0 };
	size_t len = 0;
	uint64_t ind = 0;

	if (efi_globalvars.get(efi_globalvars.ctx, "OsIndicationsSupported", b, 8, &len) || len != 8 || !(b[0] & 1)) {
		out_printf(out, "uncore-boot: the check failed; its policy is setup, but the firmware does not support "
				"booting to its setup (OsIndicationsSupported): the boot goes on\n");
		return;
	}
	if (!efi_globalvars.get(efi_globalvars.ctx, "OsIndications", b, 8, &len) && len == 8)
		memcpy(&ind, b, 8);
	if (ind & 1) { /* set by the boot before: BDS acts on it after this */
		out_printf(out, "uncore-boot: the check failed; its policy is setup, already requested: the firmware "
				"opens its setup next\n");
		return;
	}
	ind |= 1;
	memcpy(b, &ind, 8);
	if (efi_globalvars.set(efi_globalvars.ctx, "OsIndications", b, 8)) {
		out_printf(out, "uncore-boot: the check failed; OsIndications cannot be written: the boot goes on\n");
		return;
	}
	out_printf(out, "uncore-boot: the check failed and its policy is setup: resetting into the firmware's setup\n");
	RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
}

/* The boot manager starts Driver#### options before it connects the
 * consoles: what the check prints would reach no screen or serial line.
 * Each device path of ConOut is connected as edk2's BDS connects it
 * (ConnectController on the deepest handle found, with the rest of the
 * path, until the whole path is there); the console splitter then takes
 * the console as BDS would a moment later. Nothing is written. */
static void connect_consoles(void)
{
	UINT8 *var = NULL;
	UINTN size = 0;
	EFI_GUID g = EFI_GLOBAL_VARIABLE, dp_guid = DEVICE_PATH_PROTOCOL;

	if (RT->GetVariable(L"ConOut", &g, NULL, &size, NULL) != EFI_BUFFER_TOO_SMALL || !(var = efi_alloc(size)))
		return;
	if (EFI_ERROR(RT->GetVariable(L"ConOut", &g, NULL, &size, var)))
		size = 0;
	for (UINT8 *inst = var, *end = var + size; inst + 4 <= end;) {
		UINT8 *p = inst; /* the instance's end node */
		while (p + 4 <= end && p[0] != END_DEVICE_PATH_TYPE && (p[2] | p[3] << 8) >= 4)
			p += p[2] | p[3] << 8;
		if (p + 4 > end || p[0] != END_DEVICE_PATH_TYPE)
			break;
		UINT8 sub = p[1];
		p[1] = END_ENTIRE_DEVICE_PATH_SUBTYPE; /* the instance alone */
		EFI_HANDLE h, prev = NULL;
		for (int i = 0; i < 16; i++) {
			EFI_DEVICE_PATH *rest = (EFI_DEVICE_PATH *)inst;
			if (EFI_ERROR(BS->LocateDevicePath(&dp_guid, &rest, &h)) || h == prev)
				break;
			prev = h;
			BS->ConnectController(h, NULL, rest, FALSE);
			if (((UINT8 *)rest)[0] == END_DEVICE_PATH_TYPE)
				break;
		}
		if (sub == END_ENTIRE_DEVICE_PATH_SUBTYPE)
			break;
		inst = p + 4;
	}
	efi_free(var);
}

EFI_STATUS efi_boot_run(EFI_HANDLE image, struct app_env *env, struct hw *hw, struct out *out, struct out *err)
{
	static char why[240];
	struct tee t = { *err, { 0 }, why, 0, sizeof(why) };
	struct out terr = { tee_write, &t };
	struct boot_cfg cfg = { 3, BOOT_CONTINUE, { 0 } };
	struct cpu_info cpu;
	uint32_t seq = 0;
	bool ran = false;
	enum unc_status st;

	boot_self = image;
	env->boot = &efi_boot_env;
	connect_consoles();
	why[0] = 0;
	native_init(hw, &terr, image);
	uint64_t t0 = hw_ticks(hw);
	/* the clock first: the time taken is printed whatever happens */
	enum unc_status cal = native_calibrate(hw, &terr);
	struct cli_cmd *cmd = efi_alloc(sizeof(*cmd));
	st = cmd ? boot_prepare(env, &cfg, &seq, cmd, why, sizeof(why)) : UNC_E_NO_MEMORY;
	if (st)
		out_printf(err, "uncore-boot: error: %s\n", why[0] ? why : "out of memory");
	else if (!(st = cal)) {
		env->boot_seq = seq;
		out_printf(out, "uncore-boot: boot %u: %s\n", seq, cfg.check);
		if (!app_cpu_detect(hw, &cpu)) {
			st = UNC_E_UNSUPPORTED;
			fmt_snprintf(why, sizeof(why), "no PMU driver matches this CPU (%s family 0x%x model 0x%x)", cpu.vendor,
				     cpu.family, cpu.model);
			out_printf(err, "uncore-boot: error: %s\n", why);
		} else {
			ran = true;
			st = app_run(cmd, hw, env, out, &terr);
		}
	}
	uint64_t t1 = hw_ticks(hw), hz = hw->tick_hz;
	native_release();
	efi_free(cmd);
	enum unc_status fst = seq ? boot_finish(env, &cfg, seq, st, why, err) : UNC_E_DEVICE;
	char secs[24] = "?";
	if (hz)
		fmt_fixed(secs, sizeof(secs), t1 - t0, hz, 1);
	out_printf(out, "uncore-boot: boot %u: %s; record %s" BOOT_REC_PREFIX "%u%s, last %u kept; in %s s\n", seq,
		   !st ? "passed" : ran ? "FAILED" : "not run", fst ? "NOT stored: " : "", seq, fst ? "" : " stored",
		   cfg.keep, secs);
	if (st && ran && cfg.on_fail == BOOT_HALT)
		halt(out);
	if (st && ran && cfg.on_fail == BOOT_SETUP)
		to_setup(out);
	/* an error status unloads a driver image (a success would keep it loaded, resident) */
	return st ? efi_status_from(st) : EFI_ABORTED;
}
