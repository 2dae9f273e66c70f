/* Where the host decoder finds stored records: efivarfs files (one file or
 * a directory of them) or an OVMF/edk2 VARS image. Each source is a
 * struct varstore (read only), so chunked records reassemble exactly as
 * they do in the firmware (drivers/output/varstore.c). */
#ifndef UNC_VARSRC_H
#define UNC_VARSRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../drivers/output/varstore.h"

#define UNC_GUID_TEXT "7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63"

/* Opens path for reading if it is a regular file, without waiting (a FIFO
 * would wait for a writer forever). Else NULL, errno set (ENOENT: absent)
 * and why in words. */
FILE *varsrc_open(const char *path, char *why, size_t size);

/* A directory of efivarfs files, NAME-GUID, each a 4-byte attribute
 * prefix followed by the data. */
void varsrc_dir(struct varstore *vs, const char *dir);

/* An OVMF VARS image in memory: the firmware volume header ("_FVH" at 40,
 * its length at 48), the authenticated variable store header, then 60-byte
 * variable headers (StartId 0x55AA), name, data, each padded to 4 bytes;
 * only State 0x3F is live. On error writes one line into err. */
enum unc_status varsrc_image(struct varstore *vs, const uint8_t *img, size_t len, char *err, size_t errsize);

#endif
