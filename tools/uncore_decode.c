/* uncore_decode: stored uncore.efi results, read on the host.
 *
 *   uncore_decode [-x SEP | -j] FILE                an efivarfs file NAME-GUID
 *   uncore_decode [-x SEP | -j] DIR [NAME]          a directory of them (e.g. /sys/firmware/efi/efivars)
 *   uncore_decode [-x SEP | -j] --vars IMAGE [NAME] an OVMF/edk2 VARS image
 *   uncore_decode --list (DIR | --vars IMAGE)       the records there
 *   uncore_decode -x SEP --intervals SOURCE [NAME]  the interval samples as CSV
 *   uncore_decode --html OUT.html SOURCE [NAME]     an HTML page (charts for -I runs)
 *
 * Prints the record as the console showed it (the same report code), as
 * CSV (-x) or JSON (-j). --html writes one self-contained page; from a
 * directory or a VARS image without NAME, every record there, with an
 * index of their verdicts linking to each one's section. Anything wrong with the input gets one line on
 * stderr naming the problem and exit status 1; bad usage exits 2 (one line
 * naming it, or the usage when nothing is given). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../drivers/output/recmap.h"
#include "../drivers/output/report_html.h"
#include "../drivers/output/varstore.h"
#include "varsrc.h"

/* Where the record is decoded and printed: large, so not on the stack. */
static struct rec_print_ws print_ws;

#define MAX_RECORD (64u << 20)

static void write_stdout(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	fwrite(s, 1, n, stdout);
}

static int die(const char *what, const char *msg)
{
	fprintf(stderr, "uncore_decode: %s: %s\n", what, msg);
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: uncore_decode [-x SEP [--intervals] | -j] (FILE | DIR [NAME] | --vars IMAGE [NAME])\n"
			"       uncore_decode --html OUT.html (FILE | DIR [NAME] | --vars IMAGE [NAME])\n"
			"       uncore_decode --list (DIR | --vars IMAGE)\n");
	return 2;
}

/* Bad usage named in one line (exit status 2, like usage()). */
__attribute__((format(printf, 1, 2))) static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uncore_decode: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 2;
}

static uint8_t *slurp(const char *path, size_t *ret_len, char *err, size_t errsize)
{
	char why[100];
	FILE *f = varsrc_open(path, why, sizeof(why));
	if (!f) {
		snprintf(err, errsize, "%s", why);
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			if (cap >= MAX_RECORD * 2) {
				snprintf(err, errsize, "larger than %u bytes", MAX_RECORD * 2);
				free(buf);
				fclose(f);
				return NULL;
			}
			uint8_t *t = realloc(buf, cap *= 2);
			if (!t)
				free(buf);
			buf = t;
		}
	}
	fclose(f);
	if (!buf)
		snprintf(err, errsize, "out of memory");
	*ret_len = n;
	return buf;
}

static void write_file(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

/* --html: one record's page (name given), or every record of the source
 * on one page, an index of their verdicts first. The file is written only
 * when everything decoded; an unreadable record is named and fails the
 * run, as without --html. */
/* OUT may be replaced only when it is absent or a regular file: renaming
 * over a device node, a FIFO, a symlink or a directory would replace it
 * (or fail after all the work). */
static const char *not_replaceable(const char *path)
{
	struct stat sb;

	if (lstat(path, &sb))
		return errno == ENOENT ? NULL : strerror(errno);
	return S_ISREG(sb.st_mode)    ? NULL
	       : S_ISDIR(sb.st_mode)  ? "exists and is a directory, not a regular file"
	       : S_ISLNK(sb.st_mode)  ? "exists and is a symbolic link, not a regular file"
	       : S_ISFIFO(sb.st_mode) ? "exists and is a FIFO, not a regular file"
	       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "exists and is a device, not a regular file"
							 : "exists and is not a regular file";
}

/* A private temporary file in OUT's folder (created with O_EXCL by
 * mkstemp, so nothing planted there is followed), renamed over OUT when
 * the page is whole. */
static FILE *open_temp(const char *outpath, char *tmp, size_t size)
{
	const char *slash = strrchr(outpath, '/');
	int dlen = slash ? (int)(slash - outpath + 1) : 0;

	if (snprintf(tmp, size, "%.*s.%s.XXXXXX", dlen, outpath, slash ? slash + 1 : outpath) >= (int)size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) ? NULL : fdopen(fd, "w"); /* as a file made by open() would be */
	if (!f) {
		int e = errno;
		close(fd);
		remove(tmp);
		errno = e;
	}
	return f;
}

static int write_html(const char *outpath, struct varstore *vs, const char *name, const char *source, uint8_t *buf)
{
	static struct var_entry e[VAR_LIST_MAX];
	char err[300], tmp[4200];
	const char *why;
	size_t len, count = 0;
	int rc = 0;

	if ((why = not_replaceable(outpath)))
		return die(outpath, why);
	FILE *f = open_temp(outpath, tmp, sizeof(tmp));
	if (!f)
		return die(outpath, strerror(errno));
	struct out o = { write_file, f };
	if (name) {
		if (var_load(vs, name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
		    report_html_page(&o, buf, len, name, &print_ws, err, sizeof(err)))
			rc = die(name, err);
	} else if (var_entries(vs, e, VAR_LIST_MAX, &count, err, sizeof(err))) {
		rc = die(source, err);
	} else {
		char title[300];
		snprintf(title, sizeof(title), "uncore.efi records in %s", source);
		report_html_begin(&o, title);
		report_html_index_begin(&o);
		unsigned n = 0;
		for (size_t i = 0; i < count; i++) {
			if (!e[i].present)
				continue;
			n++;
			if (var_load(vs, e[i].name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
			    report_html_index_row(&o, buf, len, e[i].name, &print_ws, err, sizeof(err))) {
				fprintf(stderr, "uncore_decode: %s: %s\n", e[i].name, err);
				rc = 1;
			}
		}
		report_html_index_end(&o);
		if (!n)
			rc = die(source, "no uncore.efi records there");
		for (size_t i = 0; i < count && !rc; i++)
			if (e[i].present && (var_load(vs, e[i].name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
					     report_html_section(&o, buf, len, e[i].name, &print_ws, err, sizeof(err))))
				rc = die(e[i].name, err);
		report_html_end(&o);
	}
	if (fclose(f) && !rc)
		rc = die(outpath, strerror(errno));
	if (!rc && (why = not_replaceable(outpath))) /* changed meanwhile */
		rc = die(outpath, why);
	if (!rc && rename(tmp, outpath))
		rc = die(outpath, strerror(errno));
	if (rc)
		remove(tmp);
	return rc;
}

int main(int argc, char **argv)
{
	enum report_format format = REPORT_HUMAN;
	const char *sep = ",";
	const char *image = NULL, *path = NULL, *name = VAR_DEFAULT_NAME, *html = NULL;
	bool list = false, named = false, intervals = false;
	char err[300];
	struct varstore vs;
	static char dirbuf[4096], namebuf[VAR_NAME_MAX + 8];
	uint8_t *img = NULL;
	size_t len;

	/* Each option once: a repeated one is an error, never "the last wins". */
	bool seen_x = false, seen_j = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool *seen = !strcmp(a, "-j") ? &seen_j : !strcmp(a, "-x") ? &seen_x : !strcmp(a, "--list") ? &list
			   : !strcmp(a, "--intervals") ? &intervals : NULL;
		if ((!strcmp(a, "--vars") && image) || (!strcmp(a, "--html") && html))
			return bad_usage("%s given twice", a);
		if (seen && *seen)
			return bad_usage("%s given twice", a);
		if (seen)
			*seen = true;
		if ((!strcmp(a, "-x") || !strcmp(a, "--vars") || !strcmp(a, "--html")) && i + 1 >= argc)
			return bad_usage("%s needs a value", a);
		if (!strcmp(a, "-j"))
			format = REPORT_JSON;
		else if (!strcmp(a, "-x"))
			format = REPORT_CSV, sep = argv[++i];
		else if (!strcmp(a, "--vars"))
			image = argv[++i];
		else if (!strcmp(a, "--html"))
			html = argv[++i];
		else if (seen)
			; /* --list, --intervals */
		else if (a[0] == '-')
			return bad_usage("unknown option '%s'", a);
		else if (!path && !image)
			path = a;
		else if (!named)
			name = a, named = true;
		else
			return bad_usage("unexpected argument '%s'", a);
	}
	if (seen_x && seen_j)
		return bad_usage("-x and -j cannot be used together");
	if (list && named)
		return bad_usage("--list takes no NAME ('%s')", name);
	if (list && (seen_x || seen_j))
		return bad_usage("--list prints names only: no -x or -j");
	if (intervals && !seen_x)
		return bad_usage("--intervals prints CSV: give -x SEP too");
	if (html && (seen_x || seen_j || list))
		return bad_usage("--html writes a page: no -x, -j or --list with it");
	if (path && image)
		return bad_usage("'%s' and --vars %s: one source at a time", path, image);
	if (!path && !image)
		return usage();
	/* bad usage, not bad input: status 2 */
	if (!*sep || strlen(sep) > 7) {
		fprintf(stderr, "uncore_decode: bad separator '%s' for -x (1 to 7 characters)\n", sep);
		return 2;
	}
	if (!var_name_ok(name)) {
		fprintf(stderr, "uncore_decode: bad record name '%s' (1 to 24 letters, digits, '_' or '-')\n", name);
		return 2;
	}

	if (image) {
		if (!(img = slurp(image, &len, err, sizeof(err))))
			return die(image, err);
		if (varsrc_image(&vs, img, len, err, sizeof(err))) {
			free(img);
			return die(image, err);
		}
	} else {
		struct stat sb;
		if (stat(path, &sb))
			return die(path, strerror(errno));
		if (S_ISDIR(sb.st_mode)) {
			varsrc_dir(&vs, path);
		} else if (!S_ISREG(sb.st_mode)) {
			return die(path, "not a regular file or a directory"); /* a FIFO would wait for a writer */
		} else {
			/* one efivarfs file NAME-GUID: its directory holds any chunks */
			static const char suffix[] = "-" UNC_GUID_TEXT;
			const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
			size_t n = strlen(base), s = sizeof(suffix) - 1;
			if (n <= s || strcmp(base + n - s, suffix))
				return die(path, "not an uncore.efi variable: the name must end in -" UNC_GUID_TEXT);
			if (named || n - s >= sizeof(namebuf))
				return usage();
			memcpy(namebuf, base, n - s);
			namebuf[n - s] = '\0';
			name = namebuf;
			snprintf(dirbuf, sizeof(dirbuf), "%.*s", base == path ? 1 : (int)(base - path - 1),
				 base == path ? "." : path);
			varsrc_dir(&vs, dirbuf);
		}
	}

	struct out o = { write_stdout, NULL };
	uint8_t *buf = malloc(MAX_RECORD);
	if (!buf) {
		free(img);
		return die("uncore_decode", "out of memory");
	}
	int rc = 0;
	if (list) {
		static struct rec r;
		static struct var_entry e[VAR_LIST_MAX];
		size_t count;
		if (var_entries(&vs, e, VAR_LIST_MAX, &count, err, sizeof(err))) {
			rc = die(image ? image : path, err);
			count = 0;
		}
		for (size_t i = 0; i < count; i++) {
			if (e[i].unusable) {
				printf("%-24s unusable: %s\n", e[i].name, VAR_UNUSABLE_WHY);
				continue;
			}
			if (e[i].present) {
				if (var_load(&vs, e[i].name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
				    rec_decode(buf, len, &r, NULL, NULL, err, sizeof(err)))
					printf("%-24s unreadable: %s\n", e[i].name, err);
				else
					printf("%-24s %10zu bytes  %-5s %u events\n", e[i].name, len, r.command, r.nevents);
			}
			unsigned orphans = var_orphans(&vs, &e[i]);
			if (orphans)
				printf("%s (orphan chunks: %u)\n", e[i].name, orphans);
		}
	} else if (html) {
		/* a directory or an image without NAME: every record on one page */
		rc = write_html(html, &vs, (named || namebuf[0]) ? name : NULL, image ? image : path, buf);
	} else if (var_load(&vs, name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
		   (intervals ? rec_print_intervals(&o, buf, len, sep, &print_ws, err, sizeof(err))
			      : rec_print(&o, buf, len, format, sep, name, &print_ws, err, sizeof(err)))) {
		rc = die(name, err);
	}
	free(buf);
	free(img);
	return rc;
}
