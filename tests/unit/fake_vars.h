/* An in-memory variable store with a size limit per variable and in all,
 * for the host tests of drivers/output/varstore.c. */
#ifndef FAKE_VARS_H
#define FAKE_VARS_H

#include "../../drivers/output/varstore.h"

#define FAKE_VARS 256

struct fake_vars {
	struct varstore vs;
	struct { char name[VAR_NAME_MAX + 8]; uint8_t *data; size_t len; } v[FAKE_VARS];
	unsigned n;
	size_t max_var, capacity; /* a variable's name + data; the whole store */
	unsigned sets, fail_after; /* fail_after: the Nth write fails as full (0: never) */
	/* next_fail_at: the Nth call of a walk of the names returns next_fail (0: never) */
	unsigned nexts, next_fail_at;
	enum unc_status next_fail;
	const char *fail_delete; /* deleting this name fails (UNC_E_DEVICE) */
};

void fake_vars_init(struct fake_vars *f, size_t max_var, size_t capacity);
void fake_vars_free(struct fake_vars *f);
size_t fake_vars_used(const struct fake_vars *f);

#endif
