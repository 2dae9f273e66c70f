/* Records in EFI variables, chunked when one variable cannot hold them.
 *
 * A record that fits is stored as the variable NAME itself. A larger one is
 * split into NAME.0001, NAME.0002, ... and NAME then holds a 20-byte index
 * ("UNCX", u16 version, u16 0, u32 total length, u32 chunk count, u32 CRC-32
 * of the whole record). NAME is deleted first and written last, so a reader
 * never sees a half-written set. Everything lives under the project's own
 * vendor GUID; the store below sees names only.
 *
 * A store or delete cut short (a reset, a full store) can leave chunks
 * that no index claims. Overwriting and deleting NAME therefore remove
 * every NAME.nnnn under the GUID, found by walking all the names, not
 * only NAME.0001 up to the first one missing; `var list` shows the rest
 * as orphan chunks. */
#ifndef UNC_VARSTORE_H
#define UNC_VARSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/status.h"

#define VAR_NAME_MAX     32
#define VAR_DEFAULT_NAME "UncoreResults"
#define VAR_INDEX_MAGIC  0x58434E55u /* "UNCX" */
#define VAR_INDEX_SIZE   20
#define VAR_MAX_CHUNKS   9999
#define VAR_LIST_MAX     1024 /* record names a listing handles */
/* What a listing says of an unusable name. */
#define VAR_UNUSABLE_WHY "not a record name (1 to 24 letters, digits, '_' or '-')"

struct varstore {
	/* UNC_E_NOT_FOUND when absent; UNC_E_RANGE when cap is too small
	 * (*ret_len then says how much is needed). */
	enum unc_status (*get)(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len);
	/* len 0 deletes (absent is fine). UNC_E_NO_MEMORY when the store is full. */
	enum unc_status (*set)(void *ctx, const char *name, const uint8_t *buf, size_t len);
	/* Names under the project's GUID: "" starts; UNC_E_NOT_FOUND ends;
	 * any other status is a walk that failed. Nothing may be written
	 * during a walk. */
	enum unc_status (*next)(void *ctx, char *name, size_t size);
	/* The largest variable (name and data) and the space left, in bytes. */
	enum unc_status (*query)(void *ctx, uint64_t *ret_max_var, uint64_t *ret_remaining);
	void *ctx;
	/* Optional: why the last get failed, in words naming what it read
	 * (NULL: the status says it all). */
	const char *(*why)(void *ctx);
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

/* Loads a record (reassembling chunks) into buf. When NAME is absent but
 * chunks of it are left, err says how many. */
enum unc_status var_load(const struct varstore *vs, const char *name, uint8_t *buf, size_t cap, size_t *ret_len,
			 char *err, size_t errsize);

/* Deletes a record and every chunk NAME.nnnn there is, the index first;
 * says whether NAME itself was there and how many chunks went.
 * UNC_E_NOT_FOUND when there is neither. */
enum unc_status var_delete(const struct varstore *vs, const char *name, bool *ret_record, unsigned *ret_chunks,
			   char *err, size_t errsize);

/* Whether a variable name is a chunk (NAME.nnnn), not a record. */
bool var_is_chunk(const char *name);

/* What the store holds under one record name. */
struct var_entry {
	char name[VAR_NAME_MAX];
	bool present;    /* the variable NAME itself */
	unsigned chunks; /* variables NAME.nnnn, whatever nnnn */
	bool unusable;   /* a name neither a record's nor a chunk's (e.g. not ASCII, too long): name is
			  * printable, other characters '?', a long one cut with "..." */
};

/* Walks the names once and groups them by record name, in the order first
 * seen; each name that is neither a record's nor a chunk's is an entry of
 * its own, unusable.
 * Fails, saying why, when the walk fails or more than max names are
 * found. */
enum unc_status var_entries(const struct varstore *vs, struct var_entry *ret, size_t max, size_t *ret_n, char *err,
			    size_t errsize);

/* How many of e's chunks no record claims: all of them when NAME is
 * absent or is a whole record, else those outside NAME.0001 to the count
 * its index gives. */
unsigned var_orphans(const struct varstore *vs, const struct var_entry *e);

#endif
