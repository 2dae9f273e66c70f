#include "measure.h"

#include <efilib.h>
#include <string.h>

#include "../drivers/base/parse.h"

#include "native.h"
#include "pi.h"
#include "vars.h"

/* ---- the load ---- */

#define MAX_CPUS 64

struct slice {
	size_t lo, hi, at;
	volatile uint64_t bytes;
	struct load_arrays arr; /* the load's, with the kernels its processor chose (how) */
	bool chosen;
};

/* The load's state: from the pool from efi_load_start to efi_load_stop. */
static struct load_state {
	enum load_kind kind;
	bool nt, running;
	struct load_arrays arr;
	EFI_PHYSICAL_ADDRESS mem;
	UINTN pages;
	uint32_t cpus;
	struct slice slice[MAX_CPUS];
	EFI_EVENT done[MAX_CPUS];
	volatile int stop;
	UNC_EFI_MP_SERVICES_PROTOCOL *mp;
} *L;

/* One chunk of a processor's slice, wrapping around. */
static void chunk(struct slice *s)
{
	size_t hi = s->at + LOAD_CHUNK < s->hi ? s->at + LOAD_CHUNK : s->hi;

	if (!s->chosen) { /* on the processor that runs the slice: AVX is enabled per processor */
		s->arr = L->arr;
		s->arr.how = load_choose(&native_cpu, native_xcr0);
		s->chosen = true;
	}
	s->bytes += load_pass(L->kind, L->nt, &s->arr, s->at, hi);
	s->at = hi >= s->hi ? s->lo : hi;
}

/* An AP: no boot services here, only the kernel, until told to stop. */
static VOID EFIAPI ap_main(VOID *arg)
{
	struct slice *s = arg;

	while (!L->stop)
		chunk(s);
}

static void load_free(void)
{
	efi_free(L);
	L = NULL;
}

enum unc_status efi_load_start(const struct load_cfg *cfg, uint32_t *ret_cpus, uint64_t *ret_size, char *err,
			       size_t errsize)
{
	static EFI_GUID mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	UINTN total = 1, enabled = 1, bsp = 0;
	size_t n = (size_t)load_elements(cfg->size, cfg->llc);

	if (n < 2 * LOAD_CHUNK) {
		fmt_snprintf(err, errsize, "a working set of %lu bytes is too small for the load",
			     (unsigned long)cfg->size);
		return UNC_E_INVALID;
	}
	if (!(L = efi_alloc(sizeof(*L)))) {
		fmt_snprintf(err, errsize, "cannot allocate %lu bytes for the load's state", (unsigned long)sizeof(*L));
		return UNC_E_NO_MEMORY;
	}
	*L = (struct load_state){ .kind = cfg->kind, .nt = cfg->nt };
	L->pages = EFI_SIZE_TO_PAGES(3 * n * sizeof(double) + 64);
	if (EFI_ERROR(BS->AllocatePages(AllocateAnyPages, EfiBootServicesData, L->pages, &L->mem))) {
		fmt_snprintf(err, errsize, "cannot allocate %lu MiB for the load's working set",
			     (unsigned long)((L->pages * 4096) >> 20));
		load_free();
		return UNC_E_NO_MEMORY;
	}
	double *base = (double *)(UINTN)L->mem;
	L->arr = (struct load_arrays){ .a = base, .b = base + n, .c = base + 2 * n, .n = n };
	for (size_t i = 0; i < n; i++) { /* STREAM's starting values; touches every page */
		L->arr.a[i] = 1.0;
		L->arr.b[i] = 2.0;
		L->arr.c[i] = 0.5;
	}
	if (!EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&L->mp)) && L->mp) {
		L->mp->GetNumberOfProcessors(L->mp, &total, &enabled);
		L->mp->WhoAmI(L->mp, &bsp);
	}
	uint32_t want = cfg->cpus ? cfg->cpus : (uint32_t)enabled;
	if (want > enabled || want > MAX_CPUS) {
		BS->FreePages(L->mem, L->pages);
		load_free();
		fmt_snprintf(err, errsize, "--cpus %u: %lu processors are enabled%s", want, (unsigned long)enabled,
			     want > MAX_CPUS ? " (and at most 64 are used)" : "");
		return UNC_E_INVALID;
	}
	/* Contiguous slices: AP k takes [(k-1) per, k per); the BSP takes
	 * what is left once the APs have started, so an AP that would not
	 * start leaves its part to the BSP. */
	size_t per = (n / want) & ~(size_t)1;
	for (uint32_t k = 1; k < want; k++)
		L->slice[k] = (struct slice){ .lo = (k - 1) * per, .hi = k * per, .at = (k - 1) * per };
	L->cpus = 1;
	for (UINTN cpu = 0; cpu < total && L->cpus < want; cpu++) {
		UNC_EFI_PROCESSOR_INFORMATION info;
		/* nor a processor that reads another package's MSRs for the run:
		 * busy with the load, it could not (its part goes to the BSP) */
		if (cpu == bsp || native_serves_pkg(cpu) || EFI_ERROR(L->mp->GetProcessorInfo(L->mp, cpu, &info)) ||
		    !(info.StatusFlag & 2))
			continue;
		if (EFI_ERROR(BS->CreateEvent(0, 0, NULL, NULL, &L->done[L->cpus])))
			break;
		if (EFI_ERROR(L->mp->StartupThisAP(L->mp, ap_main, cpu, L->done[L->cpus], 0, &L->slice[L->cpus], NULL))) {
			BS->CloseEvent(L->done[L->cpus]);
			break;
		}
		L->cpus++;
	}
	L->slice[0] = (struct slice){ .lo = (L->cpus - 1) * per, .hi = n, .at = (L->cpus - 1) * per };
	L->running = true;
	*ret_cpus = L->cpus;
	*ret_size = 3 * n * sizeof(double);
	return UNC_OK;
}

bool efi_load_chunk(void)
{
	if (!L || !L->running)
		return false;
	chunk(&L->slice[0]);
	return true;
}

uint64_t efi_load_bytes(void)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; L && k < L->cpus; k++)
		sum += L->slice[k].bytes;
	return sum;
}

void efi_load_stop(void)
{
	if (!L)
		return;
	L->stop = 1;
	for (uint32_t k = 1; k < L->cpus; k++) {
		UINTN idx;
		BS->WaitForEvent(1, &L->done[k], &idx);
		BS->CloseEvent(L->done[k]);
	}
	BS->FreePages(L->mem, L->pages);
	load_free();
}

/* ---- a child: an EFI image or a .nsh script, run by the UEFI Shell ---- */

#define CHILD_PATH 320 /* characters of a child's full path */

static EFI_SHELL_PROTOCOL *find_shell(void)
{
	static EFI_GUID shell_guid = EFI_SHELL_PROTOCOL_GUID;
	EFI_SHELL_PROTOCOL *sh = NULL;

	if (EFI_ERROR(BS->LocateProtocol(&shell_guid, NULL, (void **)&sh)))
		return NULL;
	return sh;
}

/* The first word of a command line, without its quotes, is [*ret_at,
 * *ret_at + *ret_len); returns where the rest of the line begins. */
static size_t first_word(const char *cmdline, size_t *ret_at, size_t *ret_len)
{
	size_t i = 0;
	char end = ' ';

	while (cmdline[i] == ' ')
		i++;
	if (cmdline[i] == '"')
		end = '"', i++;
	*ret_at = i;
	while (cmdline[i] && cmdline[i] != end)
		i++;
	*ret_len = i - *ret_at;
	return end == '"' && cmdline[i] ? i + 1 : i;
}

static bool is_script(const char *word, size_t len)
{
	static const char nsh[] = ".nsh";

	if (len < 4)
		return false;
	for (size_t k = 0; k < 4; k++)
		if ((word[len - 4 + k] | 0x20) != nsh[k])
			return false;
	return true;
}

/* One place the Shell would look: DIR (NULL: none, the name as given,
 * relative to the current directory or absolute), WORD, EXT. True when a
 * file is there; *ret_dir when what is there is a directory. */
static bool look(EFI_SHELL_PROTOCOL *sh, const CHAR16 *dir, size_t dirlen, const char *word, size_t len,
		 const char *ext, CHAR16 ret[CHILD_PATH], bool *ret_dir)
{
	SHELL_FILE_HANDLE fh;
	size_t n = 0;

	for (size_t k = 0; k < dirlen && n < CHILD_PATH - 1; k++)
		ret[n++] = dir[k];
	if (dirlen && dir[dirlen - 1] != '\\' && n < CHILD_PATH - 1)
		ret[n++] = '\\';
	for (size_t k = 0; k < len && n < CHILD_PATH - 1; k++)
		ret[n++] = (CHAR16)(unsigned char)word[k];
	for (size_t k = 0; ext[k] && n < CHILD_PATH - 1; k++)
		ret[n++] = (CHAR16)ext[k];
	ret[n] = 0;
	if (n == CHILD_PATH - 1 || EFI_ERROR(sh->OpenFileByName(ret, &fh, EFI_FILE_MODE_READ)))
		return false;
	EFI_FILE_INFO *info = sh->GetFileInfo(fh);
	*ret_dir = !info || (info->Attribute & EFI_FILE_DIRECTORY);
	if (info)
		FreePool(info);
	sh->CloseFile(fh);
	return true;
}

/* Where the Shell finds a command (its ShellFindFilePathEx with ".nsh;.efi"):
 * the name, then the name with .nsh, then with .efi added; each as given,
 * then in each directory of %path% in turn. Directories are passed over;
 * *ret_dir says the name as given was one. */
static bool find_file(EFI_SHELL_PROTOCOL *sh, const char *word, size_t len, CHAR16 ret[CHILD_PATH], bool *ret_dir)
{
	static const char *const ext[] = { "", ".nsh", ".efi" };
	const CHAR16 *path = sh->GetEnv(L"path");
	bool dir;

	*ret_dir = false;
	for (unsigned e = 0; e < 3; e++) {
		if (look(sh, NULL, 0, word, len, ext[e], ret, &dir)) {
			if (!dir)
				return true;
			*ret_dir |= e == 0;
		}
		for (const CHAR16 *p = path; p && *p;) {
			const CHAR16 *end = p;
			while (*end && *end != ';')
				end++;
			if (end > p && look(sh, p, (size_t)(end - p), word, len, ext[e], ret, &dir) && !dir)
				return true;
			p = *end ? end + 1 : end;
		}
	}
	return false;
}

#define CHILD_FAIL(st, ...)                                        \
	do {                                                       \
		fmt_snprintf(err, errsize, "child '%.*s': ", (int)len, cmdline + at); \
		size_t used_ = strlen(err);                        \
		fmt_snprintf(err + used_, errsize - used_, __VA_ARGS__); \
		rst = (st);                                        \
		goto out;                                          \
	} while (0)

enum unc_status efi_child_find(EFI_HANDLE image, const char *cmdline, char *ret_cmdline, size_t size, char *err,
			       size_t errsize)
{
	static CHAR16 found[CHILD_PATH];
	EFI_SHELL_PROTOCOL *sh = find_shell();
	EFI_DEVICE_PATH *dp = NULL;
	CHAR16 *full = NULL;
	enum unc_status rst = UNC_OK;
	size_t at, len, rest = first_word(cmdline, &at, &len), n = 0;
	bool dir;

	if (!sh)
		CHILD_FAIL(UNC_E_NOT_FOUND, "no UEFI Shell protocol to run it");
	if (!find_file(sh, cmdline + at, len, found, &dir)) {
		if (dir)
			CHILD_FAIL(UNC_E_INVALID, "a directory, not an EFI image or a .nsh script");
		CHILD_FAIL(UNC_E_NOT_FOUND, "no such file, nor with .nsh or .efi added (looked as given and along %%path%%)");
	}
	/* Its full path, as the Shell writes it: what is checked is what runs,
	 * whatever the current directory of the Shell that runs it. */
	if (!(dp = sh->GetDevicePathFromFilePath(found)) || !(full = sh->GetFilePathFromDevicePath(dp)))
		CHILD_FAIL(UNC_E_DEVICE, "the Shell gives no full path for it");
	bool quote = false;
	for (const CHAR16 *p = full; *p; p++) {
		if (*p < 0x20 || *p > 0x7e)
			CHILD_FAIL(UNC_E_INVALID, "its full path has a non-ASCII character (U+%04x)", (unsigned)*p);
		quote |= *p == ' ';
	}
	if (quote)
		ret_cmdline[n++] = '"';
	for (const CHAR16 *p = full; *p && n + 2 < size; p++)
		ret_cmdline[n++] = (char)*p;
	if (quote)
		ret_cmdline[n++] = '"';
	fmt_snprintf(ret_cmdline + n, size - n, "%s", cmdline + rest);
	if (strlen(ret_cmdline) + 1 >= size)
		CHILD_FAIL(UNC_E_INVALID, "the command line with its full path is longer than %zu characters", size - 2);
	/* A script is the Shell's to read; an image must load here as it would
	 * for the Shell (format, machine, Secure Boot). Loaded, not started. */
	if (!is_script(ret_cmdline + (quote ? 1 : 0), n - (quote ? 2 : 0))) {
		EFI_HANDLE h = NULL;
		EFI_STATUS s = BS->LoadImage(FALSE, image, dp, NULL, 0, &h);
		char hex[20];
		if (h && (!EFI_ERROR(s) || s == EFI_SECURITY_VIOLATION))
			BS->UnloadImage(h);
		if (EFI_ERROR(s))
			CHILD_FAIL(UNC_E_INVALID, "%.*s is not an image this firmware can load (%s)", (int)(n - (quote ? 2 : 0)),
				   ret_cmdline + (quote ? 1 : 0), efi_status_str(s, hex));
	}
out:
	if (full)
		FreePool(full);
	if (dp)
		FreePool(dp);
	return rst;
}

VOID EFIAPI efi_on_tick(EFI_EVENT ev, VOID *arg)
{
	struct efi_ticker *t = arg;

	(void)ev;
	t->tick(t->ctx);
}

/* The Shell keeps %lasterror% as a volatile variable under its own GUID
 * (gShellVariableGuid), and the nested Shell that Execute starts writes it
 * there after every command, whatever its parent has cached. For a script,
 * Execute's own status is not set (edk2 reports stack contents, e.g.
 * 0x8000000400030000); the script's %lasterror% is its status. */
static EFI_GUID shell_var_guid = { 0x158def5a, 0xf656, 0x419c, { 0xb0, 0x27, 0x7a, 0x31, 0x92, 0xc0, 0x79, 0xd2 } };

static bool shell_lasterror(uint64_t *ret)
{
	CHAR16 w[24];
	char a[24];
	UINTN size = sizeof(w) - sizeof(w[0]);
	size_t k;

	if (EFI_ERROR(RT->GetVariable(L"lasterror", &shell_var_guid, NULL, &size, w)))
		return false;
	for (k = 0; k < size / sizeof(w[0]) && k + 1 < sizeof(a); k++)
		a[k] = w[k] > 0x7e ? '?' : (char)w[k];
	a[k] = '\0';
	return parse_u64(a, UINT64_MAX, ret);
}

enum unc_status efi_run_child(EFI_HANDLE image, const char *cmdline, uint64_t *ret_status, bool *ret_known,
			      unsigned period_ms, void (*tick)(void *ctx), void *ctx, char *err, size_t errsize)
{
	static CHAR16 wcmd[2 * CHILD_PATH + 64];
	EFI_SHELL_PROTOCOL *sh = find_shell();
	struct efi_ticker t = { tick, ctx };
	EFI_EVENT ev = NULL;
	EFI_STATUS s, child = EFI_SUCCESS;
	size_t i = 0, at, len;
	char hex[20];

	if (!sh) {
		fmt_snprintf(err, errsize, "cannot start '%s': no UEFI Shell protocol", cmdline);
		return UNC_E_NOT_FOUND;
	}
	first_word(cmdline, &at, &len);
	bool script = is_script(cmdline + at, len);
	/* Execute runs the line in a nested Shell: these, its own options,
	 * keep that Shell from printing its banner and mappings. */
	static const char quiet[] = "-nomap -noversion -nostartup ";
	for (size_t k = 0; quiet[k]; k++)
		wcmd[i++] = (CHAR16)quiet[k];
	for (size_t k = 0; cmdline[k] && i + 1 < sizeof(wcmd) / sizeof(wcmd[0]); k++)
		wcmd[i++] = (CHAR16)(unsigned char)cmdline[k];
	wcmd[i] = 0;
	/* A script's status is the %lasterror% it leaves: clear the one there now. */
	bool cleared = script;
	if (script) {
		s = RT->SetVariable(L"lasterror", &shell_var_guid, EFI_VARIABLE_BOOTSERVICE_ACCESS, 0, NULL);
		cleared = !EFI_ERROR(s) || s == EFI_NOT_FOUND;
	}
	/* The counters are sampled from a timer while the child runs (TPL_CALLBACK). */
	if (EFI_ERROR(BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, efi_on_tick, &t, &ev)) ||
	    EFI_ERROR(BS->SetTimer(ev, TimerPeriodic, (UINT64)period_ms * 10000))) {
		if (ev)
			BS->CloseEvent(ev);
		fmt_snprintf(err, errsize, "cannot start the sampling timer");
		return UNC_E_DEVICE;
	}
	s = sh->Execute(&image, wcmd, NULL, &child);
	BS->SetTimer(ev, TimerCancel, 0);
	BS->CloseEvent(ev);
	if (EFI_ERROR(s)) {
		fmt_snprintf(err, errsize, "cannot run '%s': the Shell's Execute returned %s", cmdline,
			     efi_status_str(s, hex));
		return UNC_E_DEVICE;
	}
	uint64_t shell_status = child;
	*ret_known = !script || (cleared && shell_lasterror(&shell_status));
	*ret_status = efi_status_from_shell(shell_status);
	return UNC_OK;
}

/* ---- SMBIOS ---- */

enum unc_status efi_smbios_table(const uint8_t **ret_table, uint32_t *ret_len, char *err, size_t errsize)
{
	static EFI_GUID smbios3 = { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } };
	static EFI_GUID smbios2 = { 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };
	const uint8_t *ep = NULL;
	uint64_t addr;
	uint32_t len;
	enum unc_status st;

	for (int pass = 0; pass < 2 && !ep; pass++)
		for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
			if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, pass ? &smbios2 : &smbios3))
				ep = ST->ConfigurationTable[i].VendorTable;
	if (!ep) {
		fmt_snprintf(err, errsize, "unknown: the firmware publishes no SMBIOS table");
		return UNC_E_NOT_FOUND;
	}
	if ((st = smbios_entry(ep, 0x20, &addr, &len, err, errsize)))
		return st;
	*ret_table = (const uint8_t *)(UINTN)addr;
	*ret_len = len;
	return UNC_OK;
}

enum unc_status efi_smbios_id(struct smbios_id *id, char *err, size_t errsize)
{
	const uint8_t *table;
	uint32_t len;
	enum unc_status st = efi_smbios_table(&table, &len, err, errsize);

	return st ? st : smbios_identity(table, len, id, err, errsize);
}

enum unc_status efi_smbios_memory(struct smbios_mem *m, char *err, size_t errsize)
{
	const uint8_t *table;
	uint32_t len;
	enum unc_status st = efi_smbios_table(&table, &len, err, errsize);

	return st ? st : smbios_memory(table, len, m, err, errsize);
}
