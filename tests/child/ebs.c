/* ebs.efi: a child that leaves boot services as an OS loader does, for the
 * boot test of uncore.efi's ExitBootServices notification.
 *
 *   fs0:\ebs.efi STEP REG...
 *
 * REG is an MSR (0xE01) read on this processor, cN:MSR (c1:0x2002) an MSR
 * read by MP services' processor N (the emulator answers for that
 * processor's package), or m:ADDR a 32-bit MMIO register the emulator
 * claims. Prints each as the uncore emulator answers it (its protocol;
 * the cN: ones only after: before, processor N may be serving uncore.efi's
 * trips, and StartupThisAP would take it from there),
 * calls ExitBootServices, reads them again and writes them to COM1 itself
 * (the console is gone). The MSRs and MMIO registers of this processor are
 * read after ExitBootServices returned, through the emulator (its code
 * stays in memory; it calls no boot service to answer). MP services are
 * gone by then (their own ExitBootServices notification parks the APs), so
 * the cN: registers are read in this child's ExitBootServices notification
 * at TPL_CALLBACK: after every TPL_NOTIFY one (uncore.efi's, which puts the
 * registers back), and before MP services' own TPL_CALLBACK one (the
 * firmware runs the notifications of one TPL newest first). The Shell is
 * gone too, so it ends the step and the script as the Shell would (the
 * "@@RC STEP 0x0" and "@@DONE" markers of tests/qemu/lib.sh), then shuts
 * the machine down.
 *
 *   fs0:\ebs.efi --take N
 *
 * runs nothing on processor N and returns (see take()). */
#include <efi.h>
#include <efilib.h>

#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"
#include "../../efi/console.h"
#include "../../efi/emu_protocol.h"
#include "../../efi/pi.h"
#include "../../efi/shell.h"

#define MAX_REGS 8
#define COM1     0x3F8

static void com1_putc(char c)
{
	uint8_t lsr;

	do /* the transmitter holding register empty (LSR bit 5) */
		__asm__ volatile("inb %w1, %0" : "=a"(lsr) : "Nd"((uint16_t)(COM1 + 5)));
	while (!(lsr & 0x20));
	__asm__ volatile("outb %0, %w1" : : "a"(c), "Nd"((uint16_t)COM1));
}

static void com1_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			com1_putc('\r');
		com1_putc(*s);
	}
}

struct reg {
	char kind;    /* 'r': an MSR here, 'c': an MSR on processor cpu, 'm': MMIO */
	UINTN cpu;
	uint64_t addr;
	EFI_STATUS st; /* of the last read */
	UINT64 val;
};

static UNC_EMU_PROTOCOL *emu;
static UNC_EFI_MP_SERVICES_PROTOCOL *mp;
static struct reg regs[MAX_REGS];
static unsigned nregs;

static VOID EFIAPI read_on_ap(VOID *arg)
{
	struct reg *r = arg;

	r->st = emu->MsrRead(emu, (UINT32)r->addr, &r->val);
}

/* One register as the emulator answers it; cN: registers only with
 * tries > 0 (MP services still there: StartupThisAP tried that many times,
 * 10 ms apart), others only with local. */
static void read_reg(struct reg *r, bool local, int tries)
{
	if (r->kind == 'c') {
		if (!tries)
			return;
		r->st = EFI_NOT_READY;
		for (int t = 0; t < tries; t++) {
			EFI_STATUS s = mp ? mp->StartupThisAP(mp, read_on_ap, r->cpu, NULL, 1000000, r, NULL) : EFI_NOT_FOUND;
			if (s != EFI_NOT_READY) {
				if (EFI_ERROR(s))
					r->st = s;
				return;
			}
			BS->Stall(10000);
		}
		return;
	}
	if (!local)
		return;
	UINT32 v = 0;
	if (r->kind == 'm') {
		r->st = emu->MmioRead32(emu, r->addr, &v);
		r->val = v;
	} else {
		r->st = emu->MsrRead(emu, (UINT32)r->addr, &r->val);
	}
}

/* "0xe01=0x... c1:0x2002=0x... m:0xfe0...=0x...": each register as read. */
static void show_all(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < nregs; i++) {
		const struct reg *r = &regs[i];
		char where[24] = "";
		if (r->kind == 'c')
			fmt_snprintf(where, sizeof(where), "c%lu:", (unsigned long)r->cpu);
		else if (r->kind == 'm')
			fmt_snprintf(where, sizeof(where), "m:");
		if (r->st == EFI_NOT_STARTED) /* a cN: register before ExitBootServices: not read */
			fmt_snprintf(buf + len, size - len, "%s%s0x%lx=-", i ? " " : "", where, (unsigned long)r->addr);
		else if (r->st == EFI_NOT_READY) /* MP services: the processor stayed busy */
			fmt_snprintf(buf + len, size - len, "%s%s0x%lx=busy", i ? " " : "", where, (unsigned long)r->addr);
		else if (EFI_ERROR(r->st))
			fmt_snprintf(buf + len, size - len, "%s%s0x%lx=error", i ? " " : "", where, (unsigned long)r->addr);
		else
			fmt_snprintf(buf + len, size - len, "%s%s0x%lx=0x%lx", i ? " " : "", where, (unsigned long)r->addr,
				     (unsigned long)r->val);
		while (buf[len])
			len++;
	}
}

/* After every TPL_NOTIFY notification, before MP services park the APs. */
static VOID EFIAPI ebs_notify(EFI_EVENT ev, VOID *ctx)
{
	(void)ev;
	(void)ctx;
	/* uncore.efi's processor is MP services' again once their timer
	 * has seen it finish: up to 3 s */
	for (unsigned i = 0; i < nregs; i++)
		read_reg(&regs[i], false, 300);
}

/* "0x2002", "c1:0x2002", "m:0xfe000040" */
static bool parse_reg(const char *a, struct reg *r)
{
	uint64_t v, cpu = 0;

	*r = (struct reg){ .kind = 'r', .st = EFI_NOT_STARTED };
	if (a[0] == 'm' && a[1] == ':') {
		r->kind = 'm';
		a += 2;
	} else if (a[0] == 'c') {
		char num[8];
		unsigned k = 0;
		for (a++; *a && *a != ':' && k + 1 < sizeof(num); a++)
			num[k++] = *a;
		num[k] = '\0';
		if (*a != ':' || !parse_u64(num, 4095, &cpu))
			return false;
		r->kind = 'c';
		r->cpu = (UINTN)cpu;
		a++;
	}
	if (!parse_u64(a, r->kind == 'm' ? UINT64_MAX : UINT32_MAX, &v))
		return false;
	r->addr = v;
	return true;
}

static bool is_take(const char *a)
{
	const char *t = "--take";

	while (*a && *a == *t)
		a++, t++;
	return *a == '\0' && *t == '\0';
}

static VOID EFIAPI nothing(VOID *arg)
{
	(void)arg;
}

/* --take N: runs nothing on MP services' processor N (blocking), as
 * another agent may while uncore.efi serves a package with it (OVMF's
 * StartupThisAP wakes it with INIT-SIPI-SIPI, whatever it was running),
 * and returns: the boot test of a trip that is never taken. */
static EFI_STATUS take(const char *arg, struct out *out, struct out *err)
{
	static EFI_GUID mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	uint64_t n;
	char hex[20];

	if (!parse_u64(arg, 4095, &n) || EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&mp)) || !mp) {
		out_printf(err, "ebs: --take N: a processor number, and MP services\n");
		return EFI_INVALID_PARAMETER;
	}
	EFI_STATUS s = mp->StartupThisAP(mp, nothing, (UINTN)n, NULL, 1000000, NULL, NULL);
	fmt_snprintf(hex, sizeof(hex), "0x%lx", (unsigned long)s);
	out_printf(out, "ebs: processor %lu taken: status %s\n", (unsigned long)n, hex);
	return s;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID emu_guid = UNC_EMU_PROTOCOL_GUID, mp_guid = UNC_EFI_MP_SERVICES_PROTOCOL_GUID;
	struct out out, err;
	char **argv, step[64] = "", line[600];
	int argc;
	EFI_EVENT ebs_event;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	bool ok = !shell_args_ascii(image, "ebs", &argc, &argv, &err) && argc >= 3 && argc - 2 <= MAX_REGS;
	if (ok && argc == 3 && is_take(argv[1])) {
		char which[24];
		fmt_snprintf(which, sizeof(which), "%s", argv[2]);
		shell_args_free();
		return take(which, &out, &err);
	}
	for (int i = 2; ok && i < argc; i++)
		ok = parse_reg(argv[i], &regs[nregs++]);
	if (ok)
		fmt_snprintf(step, sizeof(step), "%s", argv[1]);
	shell_args_free();
	if (!ok) {
		out_printf(&err, "ebs: usage: ebs.efi STEP REG... (at most %d; REG: MSR, cN:MSR or m:ADDR), or ebs.efi --take N\n",
			   MAX_REGS);
		return EFI_INVALID_PARAMETER;
	}
	if (EFI_ERROR(BS->LocateProtocol(&emu_guid, NULL, (void **)&emu)) || !emu) {
		out_printf(&err, "ebs: the uncore emulator is not loaded\n");
		return EFI_NOT_FOUND;
	}
	if (EFI_ERROR(BS->LocateProtocol(&mp_guid, NULL, (void **)&mp)))
		mp = NULL;
	/* Not the cN: registers: a processor that serves uncore.efi's trips
	 * to its package is in uncore.efi's hands (OVMF's StartupThisAP
	 * would wake it with INIT-SIPI-SIPI, ending uncore.efi's loop there) */
	for (unsigned i = 0; i < nregs; i++)
		read_reg(&regs[i], true, 0);
	show_all(line, sizeof(line));
	out_printf(&out, "ebs: before ExitBootServices: %s\n", line);
	if (EFI_ERROR(BS->CreateEvent(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, ebs_notify, NULL, &ebs_event))) {
		out_printf(&err, "ebs: cannot create the ExitBootServices event\n");
		return EFI_OUT_OF_RESOURCES;
	}
	/* The memory map's key, then ExitBootServices; a map that changed
	 * between the two (an event allocated) is read again. */
	UINTN size = 0, key = 0, dsize = 0;
	UINT32 dver = 0;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	EFI_STATUS s = BS->GetMemoryMap(&size, NULL, &key, &dsize, &dver);
	size += 16 * sizeof(EFI_MEMORY_DESCRIPTOR);
	if (EFI_ERROR(BS->AllocatePool(EfiLoaderData, size, (void **)&map))) {
		out_printf(&err, "ebs: cannot allocate the memory map\n");
		return EFI_OUT_OF_RESOURCES;
	}
	for (int tries = 0; tries < 4; tries++) {
		UINTN sz = size;
		s = BS->GetMemoryMap(&sz, map, &key, &dsize, &dver);
		if (EFI_ERROR(s))
			break;
		s = BS->ExitBootServices(image, key);
		if (!EFI_ERROR(s))
			break;
	}
	if (EFI_ERROR(s)) {
		out_printf(&err, "ebs: ExitBootServices failed (0x%lx)\n", (unsigned long)s);
		return s;
	}
	for (unsigned i = 0; i < nregs; i++)
		read_reg(&regs[i], true, 0);
	show_all(line, sizeof(line));
	com1_puts("ebs: after ExitBootServices: ");
	com1_puts(line);
	com1_puts("\n@@RC ");
	com1_puts(step);
	com1_puts(" 0x0\n@@DONE\n");
	systab->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	for (;;)
		__asm__ volatile("hlt");
}
