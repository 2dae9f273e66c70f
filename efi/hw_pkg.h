/* hw_pkg.c: the native seam's MSRs of another package, through MP
 * services (hw_native.c puts these in its hw_ops and calls the rest). */
#ifndef UNC_HW_PKG_H
#define UNC_HW_PKG_H

#include <stdbool.h>
#include <stdint.h>
#include "../drivers/base/fmt.h"
#include "../drivers/base/status.h"

enum unc_status native_msr_read_pkg(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val);
enum unc_status native_msr_read_pkg_t(void *ctx, uint32_t pkg, const uint32_t *msr, unsigned n, uint64_t *ret_val,
				      uint64_t *ret_ticks);
enum unc_status native_msr_write_pkg(void *ctx, uint32_t pkg, uint32_t msr, uint64_t val);
/* Ends each serving processor's loop; close: also its completion event. */
void pkg_stop_all(bool close);
/* Forgets what the last run could not put back (at native_init). */
void pkg_reset(void);
/* native.pkgs from MP services and the x2APIC topology. */
void find_packages(struct out *err);

#endif
