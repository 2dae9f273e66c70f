/* uncore_decode: stored uncore.efi results, read on the host.
 *
 *   uncore_decode [-x SEP | -j] FILE                an efivarfs file NAME-GUID
 *   uncore_decode [-x SEP | -j] DIR [NAME]          a directory of them (e.g. /sys/firmware/efi/efivars)
 *   uncore_decode [-x SEP | -j] --vars IMAGE [NAME] an OVMF/edk2 VARS image
 *   uncore_decode --list (DIR | --vars IMAGE)       the records there
 *   uncore_decode -x SEP --intervals SOURCE [NAME]  the interval samples as CSV
 *   uncore_decode --html OUT.html SOURCE [NAME]     an HTML page (charts for -I runs)
 *   uncore_decode --openmetrics SOURCE [NAME]       OpenMetrics text (Prometheus); without NAME
 *                                                   the latest boot check's UncoreBoot<N>, if any
 *
 * Prints the record as the console showed it (the same report code), as
 * CSV (-x) or JSON (-j). --html writes one self-contained page; from a
 * directory or a VARS image without NAME, every record there, with an
 * index of their verdicts linking to each one's section. Anything wrong with the input gets one line on
 * stderr naming the problem and exit status 1; bad usage exits 2 (one line
 * naming it, or the usage when nothing is given). --openmetrics exits 3
 * when it printed a record whose run failed: its status not success, or
 * its bandwidth check not passed. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../drivers/output/openmetrics.h"
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
			"       uncore_decode --openmetrics (FILE | DIR [NAME] | --vars IMAGE [NAME])\n"
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

/* The command line, as parse_args reads it. */
struct args {
	enum report_format format;
	const char *sep, *image, *path, *name, *html;
	bool list, named, intervals, seen_x, seen_j, om;
};

/* Reads the command line into *a; 0, or the exit status of a bad one. */
static int parse_args(int argc, char **argv, struct args *a)
{
	*a = (struct args){ .format = REPORT_HUMAN, .sep = ",", .name = VAR_DEFAULT_NAME };
	/* Each option once: a repeated one is an error, never "the last wins". */
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		bool *seen = !strcmp(w, "-j") ? &a->seen_j : !strcmp(w, "-x") ? &a->seen_x : !strcmp(w, "--list") ? &a->list
			   : !strcmp(w, "--intervals") ? &a->intervals : !strcmp(w, "--openmetrics") ? &a->om : NULL;
		if ((!strcmp(w, "--vars") && a->image) || (!strcmp(w, "--html") && a->html))
			return bad_usage("%s given twice", w);
		if (seen && *seen)
			return bad_usage("%s given twice", w);
		if (seen)
			*seen = true;
		if ((!strcmp(w, "-x") || !strcmp(w, "--vars") || !strcmp(w, "--html")) && i + 1 >= argc)
			return bad_usage("%s needs a value", w);
		if (!strcmp(w, "-j"))
			a->format = REPORT_JSON;
		else if (!strcmp(w, "-x"))
			a->format = REPORT_CSV, a->sep = argv[++i];
		else if (!strcmp(w, "--vars"))
			a->image = argv[++i];
		else if (!strcmp(w, "--html"))
			a->html = argv[++i];
		else if (seen)
			; /* --list, --intervals, --openmetrics */
		else if (w[0] == '-')
			return bad_usage("unknown option '%s'", w);
		else if (!a->path && !a->image)
			a->path = w;
		else if (!a->named)
			a->name = w, a->named = true;
		else
			return bad_usage("unexpected argument '%s'", w);
	}
	if (a->seen_x && a->seen_j)
		return bad_usage("-x and -j cannot be used together");
	if (a->list && a->named)
		return bad_usage("--list takes no NAME ('%s')", a->name);
	if (a->list && (a->seen_x || a->seen_j))
		return bad_usage("--list prints names only: no -x or -j");
	if (a->intervals && !a->seen_x)
		return bad_usage("--intervals prints CSV: give -x SEP too");
	if (a->html && (a->seen_x || a->seen_j || a->list))
		return bad_usage("--html writes a page: no -x, -j or --list with it");
	if (a->om && (a->seen_x || a->seen_j || a->list || a->html))
		return bad_usage("--openmetrics prints OpenMetrics text: no -x, -j, --list or --html with it");
	if (a->path && a->image)
		return bad_usage("'%s' and --vars %s: one source at a time", a->path, a->image);
	if (!a->path && !a->image)
		return usage();
	/* bad usage, not bad input: status 2 */
	if (!*a->sep || strlen(a->sep) > 7) {
		fprintf(stderr, "uncore_decode: bad separator '%s' for -x (1 to 7 characters)\n", a->sep);
		return 2;
	}
	if (!var_name_ok(a->name)) {
		fprintf(stderr, "uncore_decode: bad record name '%s' (1 to 24 letters, digits, '_' or '-')\n", a->name);
		return 2;
	}
	return 0;
}

/* The variables to read: an OVMF VARS image (*ret_img holds it), a
 * directory of efivarfs files, or one such file (its name then NAME).
 * 0, or the exit status. */
static int open_source(struct args *a, struct varstore *vs, uint8_t **ret_img, char *namebuf, size_t namesize)
{
	static char dirbuf[4096];
	char err[300];
	size_t len;

	if (a->image) {
		if (!(*ret_img = slurp(a->image, &len, err, sizeof(err))))
			return die(a->image, err);
		if (varsrc_image(vs, *ret_img, len, err, sizeof(err))) {
			free(*ret_img);
			return die(a->image, err);
		}
		return 0;
	}
	struct stat sb;
	if (stat(a->path, &sb))
		return die(a->path, strerror(errno));
	if (S_ISDIR(sb.st_mode)) {
		varsrc_dir(vs, a->path);
		return 0;
	}
	if (!S_ISREG(sb.st_mode))
		return die(a->path, "not a regular file or a directory"); /* a FIFO would wait for a writer */
	/* one efivarfs file NAME-GUID: its directory holds any chunks */
	static const char suffix[] = "-" UNC_GUID_TEXT;
	const char *path = a->path, *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base), s = sizeof(suffix) - 1;
	if (n <= s || strcmp(base + n - s, suffix))
		return die(path, "not an uncore.efi variable: the name must end in -" UNC_GUID_TEXT);
	if (a->named || n - s >= namesize)
		return usage();
	memcpy(namebuf, base, n - s);
	namebuf[n - s] = '\0';
	a->name = namebuf;
	snprintf(dirbuf, sizeof(dirbuf), "%.*s", base == path ? 1 : (int)(base - path - 1), base == path ? "." : path);
	varsrc_dir(vs, dirbuf);
	return 0;
}

/* --list: each record's name, size, command and events, and its orphan chunks. */
static int list_records(struct varstore *vs, const char *source, uint8_t *buf)
{
	static struct rec r;
	static struct var_entry e[VAR_LIST_MAX];
	char err[300];
	size_t count, len;
	int rc = 0;

	if (var_entries(vs, e, VAR_LIST_MAX, &count, err, sizeof(err))) {
		rc = die(source, err);
		count = 0;
	}
	for (size_t i = 0; i < count; i++) {
		if (e[i].unusable) {
			printf("%-24s unusable: %s\n", e[i].name, VAR_UNUSABLE_WHY);
			continue;
		}
		if (e[i].present) {
			if (var_load(vs, e[i].name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
			    rec_decode(buf, len, &r, NULL, NULL, err, sizeof(err)))
				printf("%-24s unreadable: %s\n", e[i].name, err);
			else
				printf("%-24s %10zu bytes  %-5s %u events\n", e[i].name, len, r.command, r.nevents);
		}
		unsigned orphans = var_orphans(vs, &e[i]);
		if (orphans)
			printf("%s (orphan chunks: %u)\n", e[i].name, orphans);
	}
	return rc;
}

/* --openmetrics without NAME, from a directory or an image: the latest
 * boot check's record, UncoreBoot<N> of the highest N, when there is one. */
static void latest_boot(struct varstore *vs, const char **name)
{
	static struct var_entry e[VAR_LIST_MAX];
	static char best[VAR_NAME_MAX];
	unsigned long top = 0;
	size_t count;
	char err[300];

	if (var_entries(vs, e, VAR_LIST_MAX, &count, err, sizeof(err)))
		return; /* loading the default then names the problem */
	for (size_t i = 0; i < count; i++) {
		const char *d = e[i].name + 10;
		char *end;
		if (!e[i].present || strncmp(e[i].name, "UncoreBoot", 10) || *d < '1' || *d > '9')
			continue;
		unsigned long n = strtoul(d, &end, 10);
		if (!*end && n > top) {
			top = n;
			memcpy(best, e[i].name, sizeof(best));
		}
	}
	if (top)
		*name = best;
}

/* --openmetrics: the record as OpenMetrics text; 3 when its run failed. */
static int print_om(const uint8_t *buf, size_t len, const char *name)
{
	struct rec *r = &print_ws.r;
	char err[300];

	if (rec_decode(buf, len, r, NULL, NULL, err, sizeof(err)))
		return die(name, err);
	size_t n = om_write(NULL, 0, r, NULL, 0);
	char *text = n ? malloc(n + 1) : NULL;
	if (!text)
		return die(name, "out of memory");
	om_write(text, n + 1, r, NULL, 0);
	fwrite(text, 1, n, stdout);
	free(text);
	bool failed = r->status || (r->x.check && r->x.check_verdict != VERDICT_PASS);
	return failed ? 3 : 0;
}

int main(int argc, char **argv)
{
	static char namebuf[VAR_NAME_MAX + 8];
	struct args a;
	struct varstore vs;
	uint8_t *img = NULL;
	char err[300];
	size_t len;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) || (rc = open_source(&a, &vs, &img, namebuf, sizeof(namebuf))))
		return rc;
	const char *source = a.image ? a.image : a.path;
	struct out o = { write_stdout, NULL };
	uint8_t *buf = malloc(MAX_RECORD);
	if (!buf) {
		free(img);
		return die("uncore_decode", "out of memory");
	}
	if (a.om && !a.named && !namebuf[0])
		latest_boot(&vs, &a.name);
	if (a.list)
		rc = list_records(&vs, source, buf);
	else if (a.om)
		rc = var_load(&vs, a.name, buf, MAX_RECORD, &len, err, sizeof(err)) ? die(a.name, err)
										     : print_om(buf, len, a.name);
	else if (a.html) /* a directory or an image without NAME: every record on one page */
		rc = write_html(a.html, &vs, (a.named || namebuf[0]) ? a.name : NULL, source, buf);
	else if (var_load(&vs, a.name, buf, MAX_RECORD, &len, err, sizeof(err)) ||
		 (a.intervals ? rec_print_intervals(&o, buf, len, a.sep, &print_ws, err, sizeof(err))
			      : rec_print(&o, buf, len, a.format, a.sep, a.name, &print_ws, err, sizeof(err))))
		rc = die(a.name, err);
	free(buf);
	free(img);
	return rc;
}
