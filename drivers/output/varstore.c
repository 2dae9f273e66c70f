#include "varstore.h"

#include <string.h>

#include "../base/crc32.h"
#include "../base/fmt.h"

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

/* NAME.nnnn: NAME into base and nnnn into *ret_k; false for any other name,
 * and for a chunk of a name no record can have. */
static bool chunk_of(const char *name, char *base, unsigned *ret_k)
{
	if (!var_is_chunk(name))
		return false;
	size_t n = strlen(name) - 5;
	if (n >= VAR_NAME_MAX)
		return false;
	memcpy(base, name, n);
	base[n] = '\0';
	*ret_k = 0;
	for (size_t i = n + 1; i < n + 5; i++)
		*ret_k = *ret_k * 10 + (unsigned)(name[i] - '0');
	return var_name_ok(base);
}

/* Calls fn for every name under the GUID. Nothing is written meanwhile: a
 * store's walk is undefined once its variables change. */
static enum unc_status walk(const struct varstore *vs, void (*fn)(void *ctx, const char *name), void *ctx, char *err,
			    size_t errsize)
{
	char name[VAR_NAME_MAX + 8] = "";
	enum unc_status st;

	while ((st = vs->next(vs->ctx, name, sizeof(name))) == UNC_OK)
		fn(ctx, name);
	if (st != UNC_E_NOT_FOUND)
		FAIL(st, "cannot read the names of the variables: %s", unc_strerror(st));
	return UNC_OK;
}

/* The chunks NAME.nnnn of one name, by nnnn (0000 to 9999). */
struct chunk_set {
	const char *name;
	uint8_t has[(VAR_MAX_CHUNKS + 8) / 8];
	unsigned n;
};

static bool chunk_in(const struct chunk_set *c, unsigned k)
{
	return c->has[k / 8] >> (k % 8) & 1;
}

static void chunk_seen(void *ctx, const char *name)
{
	struct chunk_set *c = ctx;
	char base[VAR_NAME_MAX];
	unsigned k;

	if (chunk_of(name, base, &k) && !strcmp(base, c->name) && !chunk_in(c, k)) {
		c->has[k / 8] |= (uint8_t)(1u << (k % 8));
		c->n++;
	}
}

/* Every chunk of name there is, wherever the gaps are. */
static enum unc_status find_chunks(const struct varstore *vs, const char *name, struct chunk_set *ret, char *err,
				   size_t errsize)
{
	memset(ret, 0, sizeof(*ret));
	ret->name = name;
	return walk(vs, chunk_seen, ret, err, errsize);
}

/* Deletes the chunks of c; the first that cannot be deleted is named in
 * err as "cannot delete WHAT NAME.nnnn: why TAIL". */
static enum unc_status delete_chunks(const struct varstore *vs, const struct chunk_set *c, const char *what,
				     const char *tail, char *err, size_t errsize)
{
	char cn[VAR_NAME_MAX + 8];
	enum unc_status st;

	for (unsigned k = 0; k <= VAR_MAX_CHUNKS; k++) {
		if (!chunk_in(c, k))
			continue;
		chunk_name(cn, sizeof(cn), c->name, k);
		if ((st = vs->set(vs->ctx, cn, NULL, 0)))
			FAIL(st, "cannot delete %s%s: %s%s", what, cn, unc_strerror(st), tail);
	}
	return UNC_OK;
}

/* Deletes NAME.0001 to NAME.upto, which this writer has just written. */
static void delete_written(const struct varstore *vs, const char *name, size_t upto)
{
	char cn[VAR_NAME_MAX + 8];

	for (size_t k = 1; k <= upto; k++) {
		chunk_name(cn, sizeof(cn), name, (unsigned)k);
		vs->set(vs->ctx, cn, NULL, 0);
	}
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
	 * name, and every chunk of that name, is gone; the old record then
	 * stays. */
	struct chunk_set oldc;
	if ((st = find_chunks(vs, name, &oldc, err, errsize)))
		return st;
	uint64_t old = 0;
	size_t n;
	if (vs->get(vs->ctx, name, NULL, 0, &n) != UNC_E_NOT_FOUND)
		old += n;
	for (unsigned k = 0; k <= VAR_MAX_CHUNKS; k++) {
		chunk_name(cn, sizeof(cn), name, k);
		if (chunk_in(&oldc, k) && vs->get(vs->ctx, cn, NULL, 0, &n) != UNC_E_NOT_FOUND)
			old += n;
	}
	if (need > remaining + old)
		FAIL(UNC_E_NO_MEMORY, "the variable store has %lu bytes free; the record needs about %lu: not stored",
		     (unsigned long)remaining, (unsigned long)need);
	/* The old record goes first, its index before its chunks. */
	if ((st = vs->set(vs->ctx, name, NULL, 0)))
		FAIL(st, "cannot delete the old %s: %s; not stored", name, unc_strerror(st));
	if ((st = delete_chunks(vs, &oldc, "the old ", "; not stored", err, errsize)))
		return st;
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
			delete_written(vs, name, k);
			FAIL(st, "the variable store is full after %zu of %zu chunks (%s); the %zu written were deleted, "
				 "nothing is stored",
			     k, nchunks, unc_strerror(st), k);
		}
	}
	uint8_t index[VAR_INDEX_SIZE];
	le32(index, VAR_INDEX_MAGIC);
	le32(index + 4, 1); /* version 1, then 16 reserved bits */
	le32(index + 8, (uint32_t)len);
	le32(index + 12, (uint32_t)nchunks);
	le32(index + 16, crc32_ieee(data, len));
	if ((st = vs->set(vs->ctx, name, index, sizeof(index)))) {
		delete_written(vs, name, nchunks);
		FAIL(st, "cannot write the index variable %s (%s); its chunks were deleted, nothing is stored", name,
		     unc_strerror(st));
	}
	return UNC_OK;
}

static enum unc_status read_failed(const struct varstore *vs, const char *name, enum unc_status st, char *err,
				   size_t errsize)
{
	const char *why = vs->why ? vs->why(vs->ctx) : NULL;

	if (why)
		FAIL(st, "%s", why);
	FAIL(st, "cannot read %s: %s", name, unc_strerror(st));
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
	if (st == UNC_E_NOT_FOUND) {
		struct chunk_set c;
		if (!find_chunks(vs, name, &c, err, errsize) && c.n)
			FAIL(st, "no stored record named %s; %u orphan chunk%s %s.nnnn %s left, `var delete %s` removes %s",
			     name, c.n, c.n == 1 ? "" : "s", name, c.n == 1 ? "is" : "are", name, c.n == 1 ? "it" : "them");
		FAIL(st, "no stored record named %s", name);
	}
	if (st == UNC_E_RANGE)
		FAIL(st, "%s holds %zu bytes; at most %zu can be read", name, len, cap);
	if (st)
		return read_failed(vs, name, st, err, errsize);
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
			return read_failed(vs, cn, st, err, errsize);
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

enum unc_status var_delete(const struct varstore *vs, const char *name, bool *ret_record, unsigned *ret_chunks,
			   char *err, size_t errsize)
{
	struct chunk_set c;
	enum unc_status st;
	size_t len;

	*ret_record = false;
	*ret_chunks = 0;
	if (!var_name_ok(name))
		FAIL(UNC_E_INVALID, "bad variable name '%s' (1 to 24 letters, digits, '_' or '-')", name);
	if ((st = find_chunks(vs, name, &c, err, errsize)))
		return st;
	bool record = vs->get(vs->ctx, name, NULL, 0, &len) != UNC_E_NOT_FOUND;
	if (!record && !c.n)
		FAIL(UNC_E_NOT_FOUND, "no stored record named %s", name);
	/* The index first: a delete cut short then leaves chunks that
	 * var_entries still finds, never an index without its chunks. */
	if (record && (st = vs->set(vs->ctx, name, NULL, 0)))
		FAIL(st, "cannot delete %s: %s", name, unc_strerror(st));
	*ret_record = record;
	if ((st = delete_chunks(vs, &c, "", "", err, errsize)))
		return st;
	*ret_chunks = c.n;
	return UNC_OK;
}

struct entries {
	struct var_entry *e;
	size_t max, n;
	bool full;
};

static void entry_seen(void *ctx, const char *name)
{
	struct entries *x = ctx;
	char base[VAR_NAME_MAX];
	unsigned k;
	bool chunk = chunk_of(name, base, &k);

	bool unusable = !chunk && !var_name_ok(name);
	if (unusable) { /* printable, and cut to fit */
		size_t n = 0, len = strlen(name);
		for (; n < len && n + 1 < sizeof(base); n++)
			base[n] = name[n] > ' ' && name[n] <= '~' ? name[n] : '?';
		if (n < len)
			memcpy(base + sizeof(base) - 4, "...", 3);
		base[n] = '\0';
	} else if (!chunk) {
		fmt_snprintf(base, sizeof(base), "%s", name);
	}
	size_t i = 0;
	while (!unusable && i < x->n && (x->e[i].unusable || strcmp(x->e[i].name, base)))
		i++;
	if (unusable)
		i = x->n;
	if (i == x->n) {
		if (x->n == x->max) {
			x->full = true;
			return;
		}
		x->e[x->n] = (struct var_entry){ .unusable = unusable };
		fmt_snprintf(x->e[x->n++].name, sizeof(x->e[0].name), "%s", base);
	}
	if (unusable)
		return;
	if (chunk)
		x->e[i].chunks++;
	else
		x->e[i].present = true;
}

enum unc_status var_entries(const struct varstore *vs, struct var_entry *ret, size_t max, size_t *ret_n, char *err,
			    size_t errsize)
{
	struct entries x = { ret, max, 0, false };
	enum unc_status st;

	*ret_n = 0;
	if ((st = walk(vs, entry_seen, &x, err, errsize)))
		return st;
	if (x.full)
		FAIL(UNC_E_NO_MEMORY, "more than %zu record names under the GUID", max);
	*ret_n = x.n;
	return UNC_OK;
}

unsigned var_orphans(const struct varstore *vs, const struct var_entry *e)
{
	uint8_t index[VAR_INDEX_SIZE];
	char cn[VAR_NAME_MAX + 8];
	unsigned claimed = 0;
	size_t len;

	if (!e->chunks)
		return 0;
	if (e->present) {
		enum unc_status st = vs->get(vs->ctx, e->name, index, sizeof(index), &len);
		if (st != UNC_OK && st != UNC_E_RANGE)
			return 0; /* NAME cannot be read: which chunks it claims is unknown */
		bool is_index = st == UNC_OK && len == VAR_INDEX_SIZE && get32(index) == VAR_INDEX_MAGIC;
		if (is_index && get32(index + 4) != 1)
			return 0; /* an index of a layout this reader does not know */
		uint32_t count = is_index ? get32(index + 12) : 0;
		for (uint32_t k = 1; k <= count && k <= VAR_MAX_CHUNKS && claimed < e->chunks; k++) {
			chunk_name(cn, sizeof(cn), e->name, k);
			if (vs->get(vs->ctx, cn, NULL, 0, &len) != UNC_E_NOT_FOUND)
				claimed++;
		}
	}
	return e->chunks - claimed;
}
