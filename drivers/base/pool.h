/* Memory sized by what a probe finds (a machine's boxes), from the
 * platform: the firmware's pool on UEFI (efi/vars.c: AllocatePool and
 * FreePool), the C library's heap on the host (pool.c). unc_alloc's memory
 * is zero-filled; NULL: none left. unc_free(NULL) does nothing. Whatever
 * holds such memory gives it back on every exit path (pmu_present_free,
 * stat_free, info_free). */
#ifndef UNC_POOL_H
#define UNC_POOL_H

#include <stddef.h>

void *unc_alloc(size_t size);
void unc_free(void *p);

#endif
