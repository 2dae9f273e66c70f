/* Lab mode's volume and the images it starts (efi/lab_vol.c), for
 * efi/lab_edge.c: files on the volume uncore.efi was loaded from, and EFI images
 * loaded from it and started as a Shell would start them. */
#ifndef UNC_EFI_LAB_VOL_H
#define UNC_EFI_LAB_VOL_H

#include <efi.h>
#include <stdbool.h>
#include <stddef.h>

#include "../drivers/base/status.h"

struct lab_vol {
	EFI_HANDLE self, device; /* uncore.efi's image, and the device it was loaded from */
	EFI_FILE_HANDLE root;    /* that device's volume (NULL: no file system) */
	/* hook(hook_ctx, true) just before a started image runs, false once
	 * it returned (NULL: none) */
	void (*hook)(void *hook_ctx, bool on);
	void *hook_ctx;
};

/* Reads a file of at most LAB_FILE_MAX - 1 bytes into a pool block (NUL
 * ended): UNC_E_NOT_FOUND when absent, UNC_E_RANGE when larger, and the
 * firmware's status in *ret_s. */
enum unc_status lab_vol_read(const struct lab_vol *v, const char *path, char **ret, size_t *ret_len,
			     EFI_STATUS *ret_s);

/* Whether the volume takes bytes of new files and dirs new folders:
 * EFI_WRITE_PROTECTED, EFI_VOLUME_FULL, or EFI_SUCCESS (also when the
 * volume does not say). */
EFI_STATUS lab_vol_room(const struct lab_vol *v, size_t bytes, unsigned dirs, unsigned files);

/* Replaces the file at path (never a folder) with data; makes every folder
 * of an absolute path. */
EFI_STATUS lab_vol_write(const struct lab_vol *v, const char *path, const void *data, size_t len);
EFI_STATUS lab_vol_mkdirs(const struct lab_vol *v, const char *path);

/* What a failed write says of the volume (": the volume is full"; "" when
 * nothing). */
const char *lab_vol_why(const struct lab_vol *v, EFI_STATUS s);

/* Loads the image a command line's first word names (a path on the
 * volume); lab_image_start starts it with the line's words as its Shell
 * parameters and the line as its LoadOptions, calling tick(tctx) every
 * period_ms meanwhile when tick is set; *ret_status is what it returned. */
enum unc_status lab_image_load(const struct lab_vol *v, const char *cmdline, EFI_HANDLE *ret_h, char *err,
			       size_t errsize);
enum unc_status lab_image_start(const struct lab_vol *v, EFI_HANDLE h, const char *cmdline, EFI_STATUS *ret_status,
				unsigned period_ms, void (*tick)(void *), void *tctx, char *err, size_t errsize);

#endif
