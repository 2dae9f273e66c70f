#include "varstore.h"

#include <string.h>

#include "crc32.h"
#include "fmt.h"

#define FAIL UNC_ERR

bool var_name_ok(const char *name)
{
	size_t n = 0;

	for (; name[n]; n++) {
		char c = name[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return n >= 1 && n <= 24;
}

bool var_is_chunk(const char *name)
{
	size_t n = strlen(name);

	if (n < 6 || name[n - 5] != '.')
		return false;
	for (size_t i = n - 4; i < n; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

static void chunk_name(char *buf, size_t size, const char *name, unsigned k)
{
	fmt_snprintf(buf, size, "%s.%04u", name, k);
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Deletes NAME.0001, NAME.0002, ... up to the first that is absent. */
static unsigned delete_chunks(const struct varstore *vs, const char *name, unsigned from)
{
	char cn[VAR_NAME_MAX + 8];
	unsigned n = 0;
	size_t len;

	for (unsigned k = from; k <= VAR_MAX_CHUNKS; k++) {
		chunk_name(cn, sizeof(cn), name, k);
		if (vs->get(vs->ctx, cn, NULL, 0, &len) == UNC_E_NOT_FOUND)
			break;
		vs->set(vs->ctx, cn, NULL, 0);
		n++;
	}
	return n;
}

enum unc_status var_save(const struct varstore *vs, const char *name, const uint8_t *data, size_t len,
			 size_t chunk_max, unsigned *ret_chunks, char *err, size_t errsize)
{
	uint64_t max_var, remaining;
	char cn[VAR_NAME_MAX + 8];
	enum unc_status st;

	if (!var_name_ok(name))
		FAIL(UNC_E_INVALID, "bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", name);
	if ((st = vs->query(vs->ctx, &max_var, &remaining)))
		FAIL(st, "QueryVariableInfo failed: %s", unc_strerror(st));
	/* A variable's size counts its UCS-2 name as well as its data. */
	size_t name_bytes = 2 * (strlen(name) + 6);
	if (max_var <= name_bytes + VAR_INDEX_SIZE)
		FAIL(UNC_E_NO_MEMORY, "the variable store allows only %lu bytes per variable", (unsigned long)max_var);
	size_t per = (size_t)(max_var - name_bytes);
	if (chunk_max && chunk_max < per)
		per = chunk_max;
	if (per < VAR_INDEX_SIZE)
		per = VAR_INDEX_SIZE;
	size_t nchunks = len <= per ? 0 : (len + per - 1) / per;
	if (nchunks > VAR_MAX_CHUNKS)
		FAIL(UNC_E_NO_MEMORY, "the record (%zu bytes) needs more than %d chunks of %zu bytes", len, VAR_MAX_CHUNKS,
		     per);
	uint64_t need = len + (nchunks ? VAR_INDEX_SIZE : 0) + (nchunks + 1) * (name_bytes + 64);

	/* Refuse up front what cannot fit even once the old record of this
	 * name is gone; the old record then stays. */
	uint64_t old = 0;
	size_t n;
	if (vs->get(vs->ctx, name, NULL, 0, &n) != UNC_E_NOT_FOUND)
		old += n;
	for (unsigned k = 1; k <= VAR_MAX_CHUNKS; k++) {
		chunk_name(cn, sizeof(cn), name, k);
		if (vs->get(vs->ctx, cn, NULL, 0, &n) == UNC_E_NOT_FOUND)
			break;
		old += n;
	}
	if (need > remaining + old)
		FAIL(UNC_E_NO_MEMORY, "the variable store has %lu bytes free; the record needs about %lu: not stored",
		     (unsigned long)remaining, (unsigned long)need);
	/* The old record goes first, its index before its chunks. */
	vs->set(vs->ctx, name, NULL, 0);
	delete_chunks(vs, name, 1);
	*ret_chunks = (unsigned)nchunks;
	if (!nchunks) {
		if ((st = vs->set(vs->ctx, name, data, len)))
			FAIL(st, "SetVariable(%s, %zu bytes) failed: %s; not stored", name, len, unc_strerror(st));
		return UNC_OK;
	}
	for (size_t k = 0; k < nchunks; k++) {
		size_t off = k * per, n = len - off < per ? len - off : per;
		chunk_name(cn, sizeof(cn), name, (unsigned)k + 1);
		if ((st = vs->set(vs->ctx, cn, data + off, n))) {
			unsigned gone = delete_chunks(vs, name, 1);
			FAIL(st, "the variable store is full after %zu of %zu chunks (%s); the %u written were deleted, "
				 "nothing is stored",
			     k, nchunks, unc_strerror(st), gone);
		}
	}
	uint8_t index[VAR_INDEX_SIZE];
	le32(index, VAR_INDEX_MAGIC);
	le32(index + 4, 1); /* version 1, then 16 reserved bits */
	le32(index + 8, (uint32_t)len);
	le32(index + 12, (uint32_t)nchunks);
	le32(index + 16, crc32_ieee(data, len));
	if ((st = vs->set(vs->ctx, name, index, sizeof(index)))) {
		delete_chunks(vs, name, 1);
		FAIL(st, "cannot write the index variable %s (%s); its chunks were deleted, nothing is stored", name,
		     unc_strerror(st));
	}
	return UNC_OK;
}

enum unc_status var_load(const struct varstore *vs, const char *name, uint8_t *buf, size_t cap, size_t *ret_len,
			 char *err, size_t errsize)
{
	char cn[VAR_NAME_MAX + 8];
	size_t len = 0, n;
	enum unc_status st;

	if (!var_name_ok(name))
		FAIL(UNC_E_INVALID, "bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", name);
	st = vs->get(vs->ctx, name, buf, cap, &len);
	if (st == UNC_E_NOT_FOUND)
		FAIL(st, "no stored record named %s", name);
	if (st == UNC_E_RANGE)
		FAIL(st, "%s holds %zu bytes; at most %zu can be read", name, len, cap);
	if (st)
		FAIL(st, "cannot read %s: %s", name, unc_strerror(st));
	if (len < 4 || get32(buf) != VAR_INDEX_MAGIC) {
		*ret_len = len;
		return UNC_OK; /* a record in one variable */
	}
	if (len != VAR_INDEX_SIZE || get32(buf + 4) != 1)
		FAIL(UNC_E_INVALID, "%s is a chunk index of %zu bytes, version %u; this reader knows 20 bytes, version 1",
		     name, len, len >= 8 ? get32(buf + 4) : 0);
	uint32_t total = get32(buf + 8), nchunks = get32(buf + 12), crc = get32(buf + 16);
	if (total > cap)
		FAIL(UNC_E_RANGE, "%s holds a %u-byte record; at most %zu can be read", name, total, cap);
	if (nchunks == 0 || nchunks > VAR_MAX_CHUNKS)
		FAIL(UNC_E_INVALID, "%s's index names %u chunks", name, nchunks);
	size_t at = 0;
	for (uint32_t k = 1; k <= nchunks; k++) {
		chunk_name(cn, sizeof(cn), name, k);
		st = vs->get(vs->ctx, cn, buf + at, total - at, &n);
		if (st == UNC_E_NOT_FOUND)
			FAIL(UNC_E_INVALID, "truncated chunk set: %s is missing (the index names %u chunks)", cn, nchunks);
		if (st == UNC_E_RANGE)
			FAIL(UNC_E_INVALID, "chunk %s runs past the %u bytes the index announces", cn, total);
		if (st)
			FAIL(st, "cannot read %s: %s", cn, unc_strerror(st));
		if (n == 0)
			FAIL(UNC_E_INVALID, "chunk %s is empty", cn);
		at += n;
	}
	if (at != total)
		FAIL(UNC_E_INVALID, "truncated chunk set: %zu bytes in %u chunks, the index announces %u", at, nchunks, total);
	if (crc32_ieee(buf, total) != crc)
		FAIL(UNC_E_INVALID, "the chunks of %s do not match the index's CRC (0x%08x)", name, crc);
	*ret_len = total;
	return UNC_OK;
}

enum unc_status var_delete(const struct varstore *vs, const char *name, char *err, size_t errsize)
{
	size_t len;

	if (!var_name_ok(name))
		FAIL(UNC_E_INVALID, "bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", name);
	if (vs->get(vs->ctx, name, NULL, 0, &len) == UNC_E_NOT_FOUND && delete_chunks(vs, name, 1) == 0)
		FAIL(UNC_E_NOT_FOUND, "no stored record named %s", name);
	vs->set(vs->ctx, name, NULL, 0);
	delete_chunks(vs, name, 1);
	return UNC_OK;
}
