/* ebs.efi: a child that leaves boot services as an OS loader does, for the
 * boot test of uncore.efi's ExitBootServices notification.
 *
 *   fs0:\ebs.efi STEP MSR...
 *
 * Prints each MSR as the uncore emulator answers it (its protocol), calls
 * ExitBootServices, reads them again through the emulator (its code stays
 * in memory; it calls no boot service to answer an MSR) and writes them to
 * COM1 itself (the console is gone). The Shell is gone too, so it ends the
 * step and the script as the Shell would (the "@@RC STEP 0x0" and
 * "@@DONE" markers of tests/qemu/lib.sh), then shuts the machine down. */
#include <efi.h>
#include <efilib.h>

#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"
#include "../../efi/console.h"
#include "../../efi/emu_protocol.h"
#include "../../efi/shell.h"

#define MAX_MSRS 8
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

/* "0xe01=0x... 0x700=0x...": each MSR as the emulator answers it. */
static void read_all(UNC_EMU_PROTOCOL *emu, const uint32_t *msr, unsigned n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		UINT64 v = 0;
		EFI_STATUS s = emu->MsrRead(emu, msr[i], &v);
		if (EFI_ERROR(s))
			fmt_snprintf(buf + len, size - len, "%s0x%x=error", i ? " " : "", msr[i]);
		else
			fmt_snprintf(buf + len, size - len, "%s0x%x=0x%lx", i ? " " : "", msr[i], (unsigned long)v);
		while (buf[len])
			len++;
	}
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID emu_guid = UNC_EMU_PROTOCOL_GUID;
	struct out out, err;
	char **argv, step[64] = "", line[400];
	int argc;
	uint32_t msr[MAX_MSRS];
	unsigned n = 0;
	UNC_EMU_PROTOCOL *emu = NULL;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	bool ok = !shell_args_ascii(image, "ebs", &argc, &argv, &err) && argc >= 3 && argc - 2 <= MAX_MSRS;
	for (int i = 2; ok && i < argc; i++) {
		uint64_t v;
		ok = parse_u64(argv[i], UINT32_MAX, &v);
		msr[n++] = (uint32_t)v;
	}
	if (ok)
		fmt_snprintf(step, sizeof(step), "%s", argv[1]);
	shell_args_free();
	if (!ok) {
		out_printf(&err, "ebs: usage: ebs.efi STEP MSR... (at most %d MSRs)\n", MAX_MSRS);
		return EFI_INVALID_PARAMETER;
	}
	if (EFI_ERROR(BS->LocateProtocol(&emu_guid, NULL, (void **)&emu)) || !emu) {
		out_printf(&err, "ebs: the uncore emulator is not loaded\n");
		return EFI_NOT_FOUND;
	}
	read_all(emu, msr, n, line, sizeof(line));
	out_printf(&out, "ebs: before ExitBootServices: %s\n", line);

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
	read_all(emu, msr, n, line, sizeof(line));
	com1_puts("ebs: after ExitBootServices: ");
	com1_puts(line);
	com1_puts("\n@@RC ");
	com1_puts(step);
	com1_puts(" 0x0\n@@DONE\n");
	systab->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	for (;;)
		__asm__ volatile("hlt");
}
