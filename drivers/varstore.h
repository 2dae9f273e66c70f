/* Records in EFI variables, chunked when one variable cannot hold them.
 *
 * A record that fits is stored as the variable NAME itself. A larger one is
 * split into NAME.0001, NAME.0002, ... and NAME then holds a 20-byte index
 * ("UNCX", u16 version, u16 0, u32 total length, u32 chunk count, u32 CRC-32
 * of the whole record). NAME is deleted first and written last, so a reader
 * never sees a half-written set. Everything lives under the project's own
 * vendor GUID; the store below sees names only. */
#ifndef UNC_VARSTORE_H
#define UNC_VARSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"

#define VAR_NAME_MAX     32
#define VAR_DEFAULT_NAME "UncoreResults"
#define VAR_INDEX_MAGIC  0x58434E55u /* "UNCX" */
#define VAR_INDEX_SIZE   20
#define VAR_MAX_CHUNKS   9999

struct varstore {
	/* UNC_E_NOT_FOUND when absent; UNC_E_RANGE when cap is too small
	 * (*ret_len then says how much is needed). */
	enum unc_status (*get)(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len);
	/* len 0 deletes (absent is fine). UNC_E_NO_MEMORY when the store is full. */
	enum unc_status (*set)(void *ctx, const char *name, const uint8_t *buf, size_t len);
	/* Names under the project's GUID: "" starts; UNC_E_NOT_FOUND ends. */
	enum unc_status (*next)(void *ctx, char *name, size_t size);
	/* The largest variable (name and data) and the space left, in bytes. */
	enum unc_status (*query)(void *ctx, uint64_t *ret_max_var, uint64_t *ret_remaining);
	void *ctx;
};

/* A valid record name: 1 to 24 letters, digits, '_' or '-'. */
bool var_name_ok(const char *name);

/* Stores data under name. chunk_max, when non-zero, caps the bytes per
 * variable below what the store allows (--var-chunk). A record that cannot
 * fit is refused before anything is touched; if the store fills up anyway
 * half-way, every chunk written is deleted (the older record of the same
 * name was deleted first and is gone). err says why. */
enum unc_status var_save(const struct varstore *vs, const char *name, const uint8_t *data, size_t len,
			 size_t chunk_max, unsigned *ret_chunks, char *err, size_t errsize);

/* Loads a record (reassembling chunks) into buf. */
enum unc_status var_load(const struct varstore *vs, const char *name, uint8_t *buf, size_t cap, size_t *ret_len,
			 char *err, size_t errsize);

/* Deletes a record and its chunks; UNC_E_NOT_FOUND when there is none. */
enum unc_status var_delete(const struct varstore *vs, const char *name, char *err, size_t errsize);

/* Whether a variable name is a chunk (NAME.nnnn), not a record. */
bool var_is_chunk(const char *name);

#endif
