#include "varsrc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../drivers/base/fmt.h"

FILE *varsrc_open(const char *path, char *why, size_t size)
{
	struct stat sb;
	int fd;

	/* Look before opening: opening a FIFO waits for a writer, and a
	 * device may do anything. */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fmt_snprintf(why, size, "not a regular file");
		errno = EINVAL;
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) {
		fmt_snprintf(why, size, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) { /* replaced since the stat */
		close(fd);
		fmt_snprintf(why, size, "not a regular file");
		errno = EINVAL;
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		fmt_snprintf(why, size, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

/* ---- efivarfs directory ---- */

static char dir_path[4096];
static DIR *dir_walk;
static char d_why[4400]; /* why the last d_get failed */

static enum unc_status d_get(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len)
{
	char path[4200], why[100];
	uint8_t attr[4];

	(void)ctx;
	d_why[0] = '\0';
	fmt_snprintf(path, sizeof(path), "%s/%s-%s", dir_path, name, UNC_GUID_TEXT);
	FILE *f = varsrc_open(path, why, sizeof(why));
	if (!f && errno == ENOENT)
		return UNC_E_NOT_FOUND;
	if (!f) {
		fmt_snprintf(d_why, sizeof(d_why), "%s-%s: %s", name, UNC_GUID_TEXT, why);
		return UNC_E_DEVICE;
	}
	if (fread(attr, 1, 4, f) != 4) { /* efivarfs: the attributes come first */
		fclose(f);
		fmt_snprintf(d_why, sizeof(d_why), "%s-%s: shorter than the 4-byte attribute prefix", name, UNC_GUID_TEXT);
		return UNC_E_INVALID;
	}
	/* Read to the end of the file: efivarfs cannot size a file by seeking
	 * (its files have no size before they are read). What does not fit
	 * in buf is counted, for *ret_len. */
	static uint8_t scratch[65536];
	size_t total = 0;
	for (;;) {
		bool into_buf = buf && total < cap;
		size_t room = into_buf ? cap - total : sizeof(scratch);
		size_t got = fread(into_buf ? buf + total : scratch, 1, room, f);
		total += got;
		if (got < room)
			break;
	}
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		fmt_snprintf(d_why, sizeof(d_why), "%s-%s: %s", name, UNC_GUID_TEXT, "cannot be read to its end");
		return UNC_E_DEVICE;
	}
	*ret_len = total;
	return !buf || total > cap ? UNC_E_RANGE : UNC_OK;
}

static enum unc_status ro_set(void *ctx, const char *name, const uint8_t *buf, size_t len)
{
	(void)ctx, (void)name, (void)buf, (void)len;
	return UNC_E_UNSUPPORTED; /* the decoder never writes */
}

static enum unc_status d_next(void *ctx, char *name, size_t size)
{
	static const char suffix[] = "-" UNC_GUID_TEXT;
	struct dirent *de;

	(void)ctx;
	if (!name[0]) {
		if (dir_walk)
			closedir(dir_walk);
		dir_walk = opendir(dir_path);
	}
	if (!dir_walk)
		return UNC_E_NOT_FOUND;
	while ((de = readdir(dir_walk))) {
		size_t n = strlen(de->d_name), s = sizeof(suffix) - 1;
		if (n <= s || strcmp(de->d_name + n - s, suffix))
			continue;
		if (n - s < size) {
			memcpy(name, de->d_name, n - s);
			name[n - s] = '\0';
		} else if (size > 4) { /* longer than any record's name: cut, and said so */
			memcpy(name, de->d_name, size - 4);
			memcpy(name + size - 4, "...", 4);
		}
		return UNC_OK;
	}
	closedir(dir_walk);
	dir_walk = NULL;
	return UNC_E_NOT_FOUND;
}

static enum unc_status ro_query(void *ctx, uint64_t *max_var, uint64_t *remaining)
{
	(void)ctx;
	*max_var = *remaining = 0;
	return UNC_E_UNSUPPORTED;
}

static const char *d_failed(void *ctx)
{
	(void)ctx;
	return d_why[0] ? d_why : NULL;
}

void varsrc_dir(struct varstore *vs, const char *dir)
{
	fmt_snprintf(dir_path, sizeof(dir_path), "%s", dir);
	*vs = (struct varstore){ d_get, ro_set, d_next, ro_query, NULL, d_failed };
}

/* ---- OVMF VARS image ---- */

#define MAX_VARS 4096

struct img_var {
	char name[VAR_NAME_MAX + 8];
	const uint8_t *data;
	size_t len;
};

static struct img_var vars[MAX_VARS];
static unsigned nvars, walk;

static const uint8_t our_guid[16] = { 0x91, 0x5e, 0x3a, 0x7c, 0x4d, 0x2b, 0x86, 0x4f,
				      0x9e, 0x1a, 0x5d, 0x0c, 0x8b, 0x7f, 0x2a, 0x63 };
static const uint8_t fs_guid[16] = { 0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c,
				     0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };
static const uint8_t auth_guid[16] = { 0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43,
				       0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };

static uint32_t le(const uint8_t *p, int n)
{
	uint32_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static enum unc_status i_get(void *ctx, const char *name, uint8_t *buf, size_t cap, size_t *ret_len)
{
	(void)ctx;
	for (unsigned i = 0; i < nvars; i++) {
		if (strcmp(vars[i].name, name))
			continue;
		*ret_len = vars[i].len;
		if (!buf || vars[i].len > cap)
			return UNC_E_RANGE;
		memcpy(buf, vars[i].data, vars[i].len);
		return UNC_OK;
	}
	return UNC_E_NOT_FOUND;
}

static enum unc_status i_next(void *ctx, char *name, size_t size)
{
	(void)ctx;
	if (!name[0])
		walk = 0;
	if (walk >= nvars)
		return UNC_E_NOT_FOUND;
	fmt_snprintf(name, size, "%s", vars[walk++].name);
	return UNC_OK;
}

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

enum unc_status varsrc_image(struct varstore *vs, const uint8_t *img, size_t len, char *err, size_t errsize)
{
	nvars = 0;
	if (len < 64 || memcmp(img + 40, "_FVH", 4))
		FAIL("not an OVMF VARS image: no firmware volume signature _FVH at offset 40");
	if (memcmp(img + 16, fs_guid, 16))
		FAIL("not an OVMF VARS image: the firmware volume is not an NV variable store");
	size_t hdr = le(img + 48, 2);
	if (hdr < 56 || hdr + 28 > len)
		FAIL("VARS image: firmware volume header length %zu is impossible for a %zu-byte image", hdr, len);
	const uint8_t *vsh = img + hdr;
	if (memcmp(vsh, auth_guid, 16))
		FAIL("VARS image: the variable store is not the authenticated format this decoder reads");
	size_t store = le(vsh + 16, 4);
	if (vsh[20] != 0x5A || vsh[21] != 0xFE)
		FAIL("VARS image: variable store format 0x%02x / state 0x%02x (want 0x5a / 0xfe)", vsh[20], vsh[21]);
	if (store < 28 || store > len - hdr)
		FAIL("VARS image: variable store of %zu bytes does not fit the %zu-byte image", store, len);
	size_t at = hdr + 28, end = hdr + store;
	for (;;) {
		const uint8_t *v = img + at;
		if (at + 60 > end || le(v, 2) != 0x55AA) {
			/* The variables end where erased flash (all 0xff) begins;
			 * anything else there is damage, not the end. */
			for (size_t i = at; i < end; i++)
				if (img[i] != 0xff)
					FAIL("VARS image: the variable store is corrupt at offset 0x%zx: no variable header "
					     "(StartId 0x%04x) and not erased",
					     at, at + 2 <= end ? le(v, 2) : 0xffffu);
			break;
		}
		uint8_t state = v[2];
		size_t nsize = le(v + 36, 4), dsize = le(v + 40, 4);
		/* State changes only clear bits 0, 1, 6 and 7 (added, deleted,
		 * header valid): bits 2 to 5 are set in every state. */
		if ((state & 0x3C) != 0x3C)
			FAIL("VARS image: the variable store is corrupt at offset 0x%zx: variable state 0x%02x", at, state);
		if (nsize < 2 || nsize % 2)
			FAIL("VARS image: the variable store is corrupt at offset 0x%zx: a name of %zu bytes", at, nsize);
		if (nsize > end - at - 60 || dsize > end - at - 60 - nsize)
			FAIL("VARS image: the variable at offset 0x%zx runs past the store", at);
		const uint8_t *nm = v + 60, *data = nm + nsize;
		if (state == 0x3F && le(nm + nsize - 2, 2) != 0)
			FAIL("VARS image: the variable store is corrupt at offset 0x%zx: its name does not end in NUL", at);
		if (state == 0x3F && !memcmp(v + 44, our_guid, 16)) {
			if (nvars == MAX_VARS)
				FAIL("VARS image: more than %d variables of ours", MAX_VARS);
			struct img_var *x = &vars[nvars];
			size_t k = 0, chars = nsize / 2 - 1;
			for (; k < chars && k < sizeof(x->name) - 1; k++) {
				uint32_t c = le(nm + 2 * k, 2);
				x->name[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
			}
			x->name[k] = '\0';
			x->data = data;
			x->len = dsize;
			nvars++;
		}
		at += (60 + nsize + dsize + 3) & ~(size_t)3;
	}
	*vs = (struct varstore){ i_get, ro_set, i_next, ro_query, NULL, NULL };
	return UNC_OK;
}
