#include "fake_vars.h"

#include <stdlib.h>
#include <string.h>

static size_t cost(const char *name, size_t len)
{
	return 2 * (strlen(name) + 1) + len + 32; /* a header, like edk2's */
}

size_t fake_vars_used(const struct fake_vars *f)
{
	size_t used = 0;

	for (unsigned i = 0; i < f->n; i++)
		used += cost(f->v[i].name, f->v[i].len);
	return used;
}

static int find(struct fake_vars *f, const char *name)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return (int)i;
	return -1;
}

static enum unc_status f_get(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len)
{
	struct fake_vars *f = ctx;
	int i = find(f, name);

	if (i < 0)
		return UNC_E_NOT_FOUND;
	*ret_len = f->v[i].len;
	if (!buf || f->v[i].len > cap)
		return UNC_E_RANGE;
	memcpy(buf, f->v[i].data, f->v[i].len);
	return UNC_OK;
}

static enum unc_status f_set(void *ctx, const char *name, const uint8_t *buf, size_t len)
{
	struct fake_vars *f = ctx;
	int i = find(f, name);

	if (len == 0) {
		if (f->fail_delete && !strcmp(name, f->fail_delete))
			return UNC_E_DEVICE;
		if (i >= 0) {
			free(f->v[i].data);
			f->v[i] = f->v[--f->n];
		}
		return UNC_OK;
	}
	f->sets++;
	if (f->fail_after && f->sets >= f->fail_after)
		return UNC_E_NO_MEMORY;
	if (cost(name, len) - 32 > f->max_var)
		return UNC_E_INVALID;
	size_t old = i >= 0 ? cost(name, f->v[i].len) : 0;
	if (fake_vars_used(f) - old + cost(name, len) > f->capacity)
		return UNC_E_NO_MEMORY;
	if (i < 0) {
		if (f->n == FAKE_VARS)
			return UNC_E_NO_MEMORY;
		i = (int)f->n++;
		strcpy(f->v[i].name, name);
		f->v[i].data = NULL;
	}
	free(f->v[i].data);
	f->v[i].data = malloc(len);
	memcpy(f->v[i].data, buf, len);
	f->v[i].len = len;
	return UNC_OK;
}

static unsigned walk;

static enum unc_status f_next(void *ctx, char *name, size_t size)
{
	struct fake_vars *f = ctx;

	if (!name[0])
		walk = 0, f->nexts = 0;
	if (++f->nexts == f->next_fail_at)
		return f->next_fail;
	if (walk >= f->n)
		return UNC_E_NOT_FOUND;
	strncpy(name, f->v[walk++].name, size - 1);
	name[size - 1] = '\0';
	return UNC_OK;
}

static enum unc_status f_query(void *ctx, uint64_t *max_var, uint64_t *remaining)
{
	struct fake_vars *f = ctx;

	*max_var = f->max_var;
	*remaining = f->capacity - fake_vars_used(f);
	return UNC_OK;
}

void fake_vars_init(struct fake_vars *f, size_t max_var, size_t capacity)
{
	memset(f, 0, sizeof(*f));
	f->max_var = max_var;
	f->capacity = capacity;
	f->vs = (struct varstore){ f_get, f_set, f_next, f_query, f, NULL };
}

void fake_vars_free(struct fake_vars *f)
{
	for (unsigned i = 0; i < f->n; i++)
		free(f->v[i].data);
	f->n = 0;
}
