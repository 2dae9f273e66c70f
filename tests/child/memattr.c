/* memattr.efi: a stand-in for EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10) for
 * the boot tests of uncore.efi's outer image (efi/stub.c), which QEMU's
 * OVMF does not have. A boot-service driver: `load memattr.efi` at the
 * Shell installs it (or puts it in place of one installed before).
 *
 * It behaves as firmware that enforces no-execute: a range it has not been
 * told about has EFI_MEMORY_XP; ClearMemoryAttributes and
 * SetMemoryAttributes change a range's attributes, GetMemoryAttributes
 * reads them. Built with MEMATTR_KEEP_XP (memattr-keep-xp.efi), it says
 * yes to clearing XP and keeps it, as a firmware that cannot give the
 * pages up would. Each call is printed, with the range as an offset from
 * the first range it was asked about and a page count, so that the tests
 * see which calls came, in which order, on which pages. It changes no
 * page-table entry: QEMU's pages stay as they are. */
#include <efi.h>
#include <efilib.h>

#include "../../efi/console.h"

#define XP 0x4000ull  /* EFI_MEMORY_XP */
#define RO 0x20000ull /* EFI_MEMORY_RO */

struct memattr {
	EFI_STATUS(EFIAPI *get)(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 *attr);
	EFI_STATUS(EFIAPI *set)(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr);
	EFI_STATUS(EFIAPI *clear)(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr);
};

static EFI_GUID guid = { 0xf4560cf6, 0x40ec, 0x4b4a, { 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89 } };

/* The ranges told about, with their attributes. */
static struct {
	EFI_PHYSICAL_ADDRESS base;
	UINT64 len, attr;
} ranges[16];
static unsigned nranges;
static EFI_PHYSICAL_ADDRESS first;
static int seen;

static UINT64 *attr_of(EFI_PHYSICAL_ADDRESS base, UINT64 len)
{
	for (unsigned i = 0; i < nranges; i++)
		if (ranges[i].base == base && ranges[i].len == len)
			return &ranges[i].attr;
	if (nranges == sizeof(ranges) / sizeof(ranges[0]))
		return NULL;
	ranges[nranges].base = base, ranges[nranges].len = len, ranges[nranges].attr = XP;
	return &ranges[nranges++].attr;
}

static const char *names(UINT64 attr)
{
	return attr == XP ? "XP" : attr == RO ? "RO" : attr == (XP | RO) ? "XP RO" : !attr ? "none" : "other";
}

static void say(const char *what, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr)
{
	struct out out = console_out();

	if (!seen)
		seen = 1, first = base;
	out_printf(&out, "memattr: %s %s at %s0x%llx, %llu pages\n", what, names(attr), base >= first ? "+" : "-",
		   (unsigned long long)(base >= first ? base - first : first - base), (unsigned long long)(len / 4096));
}

static EFI_STATUS EFIAPI get(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 *attr)
{
	UINT64 *a = attr_of(base, len);

	(void)self;
	if (!a || !attr || base % 4096 || !len || len % 4096)
		return EFI_INVALID_PARAMETER;
	*attr = *a;
	say("get:", base, len, *a);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI set(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr)
{
	UINT64 *a = attr_of(base, len);

	(void)self;
	if (!a || base % 4096 || !len || len % 4096 || attr & ~(XP | RO | 0x2000ull))
		return EFI_INVALID_PARAMETER;
	*a |= attr;
	say("set", base, len, attr);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI clear(struct memattr *self, EFI_PHYSICAL_ADDRESS base, UINT64 len, UINT64 attr)
{
	UINT64 *a = attr_of(base, len);

	(void)self;
	if (!a || base % 4096 || !len || len % 4096 || attr & ~(XP | RO | 0x2000ull))
		return EFI_INVALID_PARAMETER;
#ifdef MEMATTR_KEEP_XP
	*a &= ~(attr & ~XP);
#else
	*a &= ~attr;
#endif
	say("clear", base, len, attr);
	return EFI_SUCCESS;
}

static struct memattr proto = { get, set, clear };

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct out out, err;
	EFI_HANDLE h = NULL;
	UINTN size = sizeof(h);
	void *old = NULL;
	EFI_STATUS s;

	InitializeLib(image, systab);
	out = console_out();
	err = console_err();
	if (!EFI_ERROR(BS->LocateHandle(ByProtocol, &guid, NULL, &size, &h)) &&
	    !EFI_ERROR(BS->HandleProtocol(h, &guid, &old)))
		s = BS->ReinstallProtocolInterface(h, &guid, old, &proto);
	else
		s = BS->InstallProtocolInterface(&h, &guid, EFI_NATIVE_INTERFACE, &proto);
	if (EFI_ERROR(s)) {
		out_printf(&err, "memattr: error: cannot install the protocol\n");
		return s;
	}
#ifdef MEMATTR_KEEP_XP
	out_printf(&out, "memattr: installed, keeping XP\n");
#else
	out_printf(&out, "memattr: installed\n");
#endif
	return EFI_SUCCESS;
}
