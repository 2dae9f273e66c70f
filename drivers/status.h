/* Project status codes. drivers/ and events/ speak these; efi/ converts them
 * to EFI_STATUS at the edge (efi/main.c). 0 is success, so the idiom
 * `st = f(); if (st) return st;` works everywhere. */
#ifndef UNC_STATUS_H
#define UNC_STATUS_H

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
};

const char *unc_strerror(enum unc_status st);

#endif
