#include "measure.h"

#include <efilib.h>

#include "pi.h"

/* ---- the load ---- */

#define MAX_CPUS 64
#define CHUNK    131072 /* elements: 1 MiB of doubles per array */

struct slice {
	size_t lo, hi, at;
	volatile uint64_t bytes;
};

static struct {
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
} L;

/* One chunk of a processor's slice, wrapping around. */
static void chunk(struct slice *s)
{
	size_t hi = s->at + CHUNK < s->hi ? s->at + CHUNK : s->hi;

	s->bytes += load_pass(L.kind, L.nt, &L.arr, s->at, hi);
	s->at = hi >= s->hi ? s->lo : hi;
}

/* An AP: no boot services here, only the kernel, until told to stop. */
static VOID EFIAPI ap_main(VOID *arg)
{
	struct slice *s = arg;

	while (!L.stop)
		chunk(s);
}

/* CPUID leaf 4: the largest cache, ways x partitions x line size x sets. */
static uint64_t llc_bytes(void)
{
	uint64_t best = 0;

	for (uint32_t i = 0; i < 16; i++) {
		uint32_t a, b, c, d;
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(4), "c"(i));
		if ((a & 0x1f) == 0)
			break;
		uint64_t size = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) * ((uint64_t)c + 1);
		if (size > best)
			best = size;
	}
	return best;
}

enum unc_status efi_load_start(const struct load_cfg *cfg, uint32_t *ret_cpus, uint64_t *ret_size, char *err,
			       size_t errsize)
{
	static EFI_GUID mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	UINTN total = 1, enabled = 1, bsp = 0;
	size_t n = (size_t)load_elements(cfg->size, llc_bytes());

	if (n < 2 * CHUNK) {
		fmt_snprintf(err, errsize, "a working set of %lu bytes is too small for the load",
			     (unsigned long)cfg->size);
		return UNC_E_INVALID;
	}
	L = (typeof(L)){ .kind = cfg->kind, .nt = cfg->nt };
	L.pages = EFI_SIZE_TO_PAGES(3 * n * sizeof(double) + 64);
	if (EFI_ERROR(BS->AllocatePages(AllocateAnyPages, EfiBootServicesData, L.pages, &L.mem))) {
		fmt_snprintf(err, errsize, "cannot allocate %lu MiB for the load's working set",
			     (unsigned long)((L.pages * 4096) >> 20));
		return UNC_E_NO_MEMORY;
	}
	double *base = (double *)(UINTN)L.mem;
	L.arr = (struct load_arrays){ base, base + n, base + 2 * n, n };
	for (size_t i = 0; i < n; i++) { /* STREAM's starting values; touches every page */
		L.arr.a[i] = 1.0;
		L.arr.b[i] = 2.0;
		L.arr.c[i] = 0.5;
	}
	if (!EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&L.mp)) && L.mp) {
		L.mp->GetNumberOfProcessors(L.mp, &total, &enabled);
		L.mp->WhoAmI(L.mp, &bsp);
	}
	uint32_t want = cfg->cpus ? cfg->cpus : (uint32_t)enabled;
	if (want > enabled || want > MAX_CPUS) {
		BS->FreePages(L.mem, L.pages);
		fmt_snprintf(err, errsize, "--cpus %u: %lu processors are enabled%s", want, (unsigned long)enabled,
			     want > MAX_CPUS ? " (and at most 64 are used)" : "");
		return UNC_E_INVALID;
	}
	/* Contiguous slices: AP k takes [(k-1) per, k per); the BSP takes
	 * what is left once the APs have started, so an AP that would not
	 * start leaves its part to the BSP. */
	size_t per = (n / want) & ~(size_t)1;
	for (uint32_t k = 1; k < want; k++)
		L.slice[k] = (struct slice){ (k - 1) * per, k * per, (k - 1) * per, 0 };
	L.cpus = 1;
	for (UINTN cpu = 0; cpu < total && L.cpus < want; cpu++) {
		UNC_EFI_PROCESSOR_INFORMATION info;
		if (cpu == bsp || EFI_ERROR(L.mp->GetProcessorInfo(L.mp, cpu, &info)) || !(info.StatusFlag & 2))
			continue;
		if (EFI_ERROR(BS->CreateEvent(0, 0, NULL, NULL, &L.done[L.cpus])))
			break;
		if (EFI_ERROR(L.mp->StartupThisAP(L.mp, ap_main, cpu, L.done[L.cpus], 0, &L.slice[L.cpus], NULL))) {
			BS->CloseEvent(L.done[L.cpus]);
			break;
		}
		L.cpus++;
	}
	L.slice[0] = (struct slice){ (L.cpus - 1) * per, n, (L.cpus - 1) * per, 0 };
	L.running = true;
	*ret_cpus = L.cpus;
	*ret_size = 3 * n * sizeof(double);
	return UNC_OK;
}

void efi_load_chunk(void)
{
	if (L.running)
		chunk(&L.slice[0]);
}

uint64_t efi_load_bytes(void)
{
	uint64_t sum = 0;

	for (uint32_t k = 0; k < L.cpus; k++)
		sum += L.slice[k].bytes;
	return sum;
}

void efi_load_stop(void)
{
	if (!L.running)
		return;
	L.stop = 1;
	for (uint32_t k = 1; k < L.cpus; k++) {
		UINTN idx;
		BS->WaitForEvent(1, &L.done[k], &idx);
		BS->CloseEvent(L.done[k]);
	}
	BS->FreePages(L.mem, L.pages);
	L.running = false;
}

/* ---- a child image ---- */

struct ticker {
	void (*tick)(void *ctx);
	void *ctx;
};

static VOID EFIAPI on_tick(EFI_EVENT ev, VOID *arg)
{
	struct ticker *t = arg;

	(void)ev;
	t->tick(t->ctx);
}

enum unc_status efi_run_child(EFI_HANDLE image, const char *cmdline, uint64_t *ret_status, unsigned period_ms,
			      void (*tick)(void *ctx), void *ctx, char *err, size_t errsize)
{
	static EFI_GUID shell_guid = EFI_SHELL_PROTOCOL_GUID;
	static CHAR16 wcmd[300];
	EFI_SHELL_PROTOCOL *sh = NULL;
	struct ticker t = { tick, ctx };
	EFI_EVENT ev = NULL;
	EFI_STATUS s, child = EFI_SUCCESS;
	size_t i = 0;

	if (EFI_ERROR(BS->LocateProtocol(&shell_guid, NULL, (void **)&sh)) || !sh) {
		fmt_snprintf(err, errsize, "cannot start '%s': no UEFI Shell protocol", cmdline);
		return UNC_E_NOT_FOUND;
	}
	/* A path (fs0:\x.efi, x\y.efi) must name a file: say so here rather
	 * than leave it to the Shell's "not recognized". */
	size_t plen = 0;
	bool path = false;
	while (cmdline[plen] && cmdline[plen] != ' ')
		path |= cmdline[plen] == ':' || cmdline[plen] == '\\', plen++;
	if (path) {
		static CHAR16 wpath[260];
		SHELL_FILE_HANDLE fh;
		size_t k = 0;
		for (; k < plen && k + 1 < 260; k++)
			wpath[k] = (CHAR16)(unsigned char)cmdline[k];
		wpath[k] = 0;
		if (EFI_ERROR(sh->OpenFileByName(wpath, &fh, EFI_FILE_MODE_READ))) {
			fmt_snprintf(err, errsize, "cannot load the child image '%.*s': no such file", (int)plen, cmdline);
			return UNC_E_NOT_FOUND;
		}
		sh->CloseFile(fh);
	}
	/* Execute runs the line in a nested Shell: these, its own options,
	 * keep that Shell from printing its banner and mappings. */
	static const char quiet[] = "-nomap -noversion -nostartup ";
	for (size_t k = 0; quiet[k]; k++)
		wcmd[i++] = (CHAR16)quiet[k];
	for (size_t k = 0; cmdline[k] && i + 1 < sizeof(wcmd) / sizeof(wcmd[0]); k++)
		wcmd[i++] = (CHAR16)(unsigned char)cmdline[k];
	wcmd[i] = 0;
	/* The counters are sampled from a timer while the child runs (TPL_CALLBACK). */
	if (EFI_ERROR(BS->CreateEvent(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_CALLBACK, on_tick, &t, &ev)) ||
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
		fmt_snprintf(err, errsize, "cannot run '%s': the Shell says 0x%lx%s", cmdline, (unsigned long)s,
			     s == EFI_NOT_FOUND ? " (not found)" : "");
		return UNC_E_NOT_FOUND;
	}
	*ret_status = child;
	return UNC_OK;
}

/* ---- SMBIOS ---- */

enum unc_status efi_smbios_memory(struct smbios_mem *m, char *err, size_t errsize)
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
	return smbios_memory((const uint8_t *)(UINTN)addr, len, m, err, errsize);
}
