/* Project status codes. drivers/ and events/ speak these; efi/ converts them
 * to EFI_STATUS at the edge (efi/main.c). 0 is success, so the idiom
 * `st = f(); if (st) return st;` works everywhere. */
#ifndef UNC_STATUS_H
#define UNC_STATUS_H

#include <stdint.h>

/* A function of a file built for speed (the sampling path, EFI_HOT in the
 * Makefile) that runs before or after sampling, on an error, or for the
 * tests' emulator alone: set-up, probing, names and reports. GCC optimises
 * it for size and places it apart, and takes the branches that lead to it
 * as unlikely. */
#define UNC_COLD __attribute__((cold))

enum unc_status {
	UNC_OK = 0,
	UNC_E_INVALID,     /* bad argument or input from the user */
	UNC_E_FAULT,       /* the hardware access faulted (#GP on rdmsr/wrmsr) */
	UNC_E_UNSUPPORTED, /* this CPU or platform is not one we support */
	UNC_E_NOT_FOUND,   /* a device, protocol or table is absent */
	UNC_E_DEVICE,      /* a firmware service failed */
	UNC_E_BUSY,        /* the PMU is in use by someone else */
	UNC_E_RANGE,       /* an address or value outside what the hardware allows */
	UNC_E_NO_MEMORY,
	UNC_E_ABORTED,     /* the user stopped the run (ESC) */
	UNC_E_OVERFLOW,    /* a counter wrapped more than once between two samples */
	UNC_E_CHECK,       /* a --min-bw check failed */
	UNC_E_CLOBBERED,   /* a counter was written by someone else during the run */
	UNC_E_STUCK,       /* a counter that cannot stay still did not move */
	UNC_E_CHILD,       /* the child (-- COMMAND) ran and failed */
	UNC_E_NOT_MMIO,    /* an MMIO address that is system memory, or that the firmware has not mapped */
};

const char *unc_strerror(enum unc_status st);

/* Other programs' EFI_STATUS values (a child's), numbered as in the UEFI
 * specification's Appendix D; plain integers, as drivers/ includes no
 * firmware headers. Bit 63 set: an error; clear and non-zero: a warning. */
#define EFI_STATUS_ERROR_BIT (1ull << 63)

/* "EFI_DEVICE_ERROR", "EFI_WARN_STALE_DATA"; NULL for a value the
 * specification does not name. */
const char *efi_status_name(uint64_t status);

/* The name, or "0x..." in buf when the value has none. */
const char *efi_status_str(uint64_t status, char buf[20]);

/* The UEFI Shell's form of a command's status, as %lasterror% shows it and
 * EFI_SHELL_PROTOCOL.Execute returns it for an image: an error with bit 63
 * cleared (EFIERR(7) reads 0x7), or kept (the Shell's own commands). A
 * warning would read like the error of the same number, and the Shell takes
 * any non-zero status as a failure: so does this, giving the error. */
uint64_t efi_status_from_shell(uint64_t shell_status);

#endif
