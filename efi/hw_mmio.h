/* hw_mmio.c: the native seam's MMIO, only where the firmware maps it
 * (hw_native.c puts these in its hw_ops). */
#ifndef UNC_HW_MMIO_H
#define UNC_HW_MMIO_H

#include <stddef.h>
#include <stdint.h>
#include "../drivers/base/status.h"

enum unc_status native_mmio_read32(void *ctx, uint64_t phys, uint32_t *ret_val);
enum unc_status native_mmio_write32(void *ctx, uint64_t phys, uint32_t val);
enum unc_status native_mmio_read32_n(void *ctx, const uint64_t *phys, unsigned n, uint64_t *ret_val,
				     uint64_t *ret_ticks);
enum unc_status native_mmio_check(void *ctx, uint64_t phys, uint64_t len, char *why, size_t whysize);
/* The ranges accepted so far given back (native_release). */
void mmio_forget(void);
/* The memory map's buffer, once, at start-up (native_init). */
void memmap_alloc(void);

#endif
