/* tools/uncore_decode end to end: efivarfs files, a directory with chunks,
 * an OVMF VARS image, and broken inputs (one line, exit 1, no crash). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../drivers/engine/evsel.h"
#include "../../drivers/pmu/disc.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/varstore.h"
#include "fake_vars.h"
#include "t.h"

#define DECODE "build/host/uncore_decode" /* the sanitized copy */
#define GUID "7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63"

static char dir[] = "/tmp/uncore_decode_test.XXXXXX";
static char out[1 << 20];
static struct fake_vars fv;
static uint8_t rec[1 << 16];
static size_t reclen;

static int run(const char *args)
{
	char cmd[1024], path[300];

	/* a decoder that hangs is a failure (status 124), not a stuck test */
	snprintf(cmd, sizeof(cmd), "timeout 10 %s %s > %s/out 2>&1", DECODE, args, dir);
	int st = system(cmd);
	snprintf(path, sizeof(path), "%s/out", dir);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A record of a small stat run (layout 2), filled as uncore.efi fills it
 * (the event resolved and viewed through the Skylake-client driver, the
 * run's counts through rec_from_run), stored through the real chunking
 * code. */
static void make_record(void)
{
	static const struct pmu_driver *const present[] = { &pmu_driver_skl, NULL };
	static struct rec r;
	static struct count_run run;
	struct rec_buf b = { rec, 0, sizeof(rec), false };
	struct report_opts ro = { .format = REPORT_HUMAN };
	struct ev_spec spec;
	char err[200];

	memset(&r, 0, sizeof(r));
	count_free(&run);
	memset(&run, 0, sizeof(run));
	T_EQ(evsel_parse("UNC_ARB_TRK_REQUESTS.ALL", present, &spec, err, sizeof(err)), UNC_OK);
	run.nev = 1;
	run.ngroups = 1;
	run.t_end = 2000000000;
	run.programs = true;
	run.nboxes = 1;
	run.boxes[0] = (struct count_boxinfo){ "CBo", "cbo", "MSR_UNC_CBO_CONFIG", 4, 4 };
	strcpy(run.ev[0].name, spec.name);
	evsel_view(&spec, 1, &run.ev[0].v);
	T_EQ(count_room(&run), UNC_OK);
	run.ev[0].moved[0] = 1;
	run.ev[0].total.box[0] = 6000000;
	run.ev[0].total.running = 2000000000;
	T_EQ(rec_from_run(&r, &run, &ro), UNC_OK);
	count_free(&run);
	strcpy(r.tool, "uncore.efi 0.1.0");
	strcpy(r.command, "stat");
	strcpy(r.vendor, "GenuineIntel");
	r.tsc_hz = 1000000000;
	rec_begin(&b);
	rec_put(&b, &r);
	rec_free(&r);
	T_EQ(rec_end(&b), UNC_OK);
	reclen = b.len;
}

/* Writes the fake store's variables as efivarfs files. */
static void dump(const char *sub)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	for (unsigned i = 0; i < fv.n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s-" GUID, dir, sub, fv.v[i].name);
		FILE *f = fopen(path, "wb");
		uint8_t attr[4] = { 7, 0, 0, 0 };
		fwrite(attr, 1, 4, f);
		fwrite(fv.v[i].data, 1, fv.v[i].len, f);
		fclose(f);
	}
}

/* --openmetrics on a source: exit status 0, the text accepted by the strict
 * OpenMetrics parser, Prometheus' parser and promtool (T_OM), and each
 * event's count the one the console printed (its -j object, the last line). */
static void om_agrees(const char *source)
{
	static char json[sizeof(out)];
	char args[700], want[200], count[32];
	unsigned n = 0;

	snprintf(args, sizeof(args), "-j %s", source);
	T_EQ(run(args), 0);
	char *last = strrchr(out, '{') ? strstr(out, "{\"tool\"") : NULL;
	T_ASSERT(last != NULL);
	snprintf(json, sizeof(json), "%s", last ? last : "");
	snprintf(args, sizeof(args), "--openmetrics %s", source);
	T_EQ(run(args), 0);
	T_OM(out);
	for (const char *p = strstr(out, "\nuncore_event_counted{"); p; p = strstr(p + 1, "\nuncore_event_counted{")) {
		char line[1000];
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
		const char *name = line + 28, *q = strchr(name, '"'), *v = strrchr(line, ' ');
		if (!q || !v || strstr(line, "socket=") || strstr(line, "box="))
			continue; /* a box's row */
		snprintf(want, sizeof(want), "{\"event\":\"%.*s\",", (int)(q - name), name);
		const char *at = strstr(json, want), *c = at ? strstr(at, "\"count\":") : NULL;
		snprintf(count, sizeof(count), "%s,", v + 1);
		T_ASSERT(c && !strncmp(c + 8, count, strlen(count)));
		n++;
	}
	T_ASSERT(n > 0);
}

static const char *table =
	"UNC_ARB_TRK_REQUESTS.ALL                                6000000          3000000.000  events  100.00%\n";

static void efivarfs_sources(void)
{
	unsigned chunks;
	char err[200], args[600];

	fake_vars_init(&fv, 100000, 1 << 20);
	T_EQ(var_save(&fv.vs, "UncoreResults", rec, reclen, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(var_save(&fv.vs, "Chunked", rec, reclen, 64, &chunks, err, sizeof(err)), UNC_OK);
	T_ASSERT(chunks > 3);
	char missing[200];
	snprintf(missing, sizeof(missing),
		 "uncore_decode: Chunked: truncated chunk set: Chunked.0002 is missing (the index names %u chunks)\n", chunks);
	dump("vars");
	fake_vars_free(&fv);

	snprintf(args, sizeof(args), "%s/vars/UncoreResults-" GUID, dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "record UncoreResults: `stat` by uncore.efi 0.1.0 at an unknown time, exit status: success\n");
	T_CONTAINS(out, table);
	snprintf(args, sizeof(args), "%s/vars Chunked", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, table);
	snprintf(args, sizeof(args), "-j %s/vars Chunked", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "\"count\":6000000,");
	T_JSON(out, true);
	snprintf(args, sizeof(args), "-x , %s/vars", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "6000000,,UNC_ARB_TRK_REQUESTS.ALL,2000000000,100.00\n");
	snprintf(args, sizeof(args), "%s/vars/UncoreResults-" GUID, dir);
	om_agrees(args);
	snprintf(args, sizeof(args), "%s/vars Chunked", dir);
	om_agrees(args);
	snprintf(args, sizeof(args), "--list %s/vars", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "Chunked ");
	T_CONTAINS(out, "UncoreResults ");
	T_NOT_CONTAINS(out, ".0001");

	/* a missing chunk, a cut file, a foreign name */
	snprintf(args, sizeof(args), "rm %s/vars/Chunked.0002-" GUID, dir);
	T_EQ(system(args), 0);
	snprintf(args, sizeof(args), "%s/vars Chunked", dir);
	T_EQ(run(args), 1);
	T_STREQ(out, missing);
	snprintf(args, sizeof(args), "truncate -s 30 %s/vars/UncoreResults-" GUID, dir);
	T_EQ(system(args), 0);
	snprintf(args, sizeof(args), "%s/vars", dir);
	T_EQ(run(args), 1);
	T_CONTAINS(out, "uncore_decode: UncoreResults: truncated: the header announces ");
	T_EQ(strchr(out, '\n'), out + strlen(out) - 1);
	snprintf(args, sizeof(args), "/etc/hostname");
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: /etc/hostname: not an uncore.efi variable: the name must end in -" GUID "\n");
	T_EQ(run("/nonexistent/x"), 1);
	T_EQ(run(""), 2);
}

/* A bad separator or record name is bad usage: status 2 (bad input is 1),
 * one line naming it, nothing read. */
static void usage_errors_exit_2(void)
{
	static const struct {
		const char *args, *want;
	} bad[] = {
		{ "-x '' /nonexistent", "uncore_decode: bad separator '' for -x (1 to 7 characters)\n" },
		{ "-x 12345678 /nonexistent", "uncore_decode: bad separator '12345678' for -x (1 to 7 characters)\n" },
		{ "/nonexistent Bad/Name",
		  "uncore_decode: bad record name 'Bad/Name' (1 to 24 letters, digits, '_' or '-')\n" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ(run(bad[i].args), 2);
		T_STREQ(out, bad[i].want);
	}
}

/* A FIFO (or any file that is not a regular one) named like a record is
 * never opened for reading: that would wait for a writer forever. */
static void only_regular_files_are_read(void)
{
	char path[300], args[700];
	unsigned chunks;
	char err[200];

	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/fifo/Pipe-" GUID, dir);
	T_EQ(mkfifo(path, 0644), 0);
	T_EQ(run(path), 1);
	snprintf(args, sizeof(args), "uncore_decode: %s: not a regular file or a directory\n", path);
	T_STREQ(out, args);
	snprintf(args, sizeof(args), "%s/fifo Pipe", dir);
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: Pipe: Pipe-" GUID ": not a regular file\n");
	snprintf(args, sizeof(args), "--list %s/fifo", dir);
	T_EQ(run(args), 0);
	T_STREQ(out, "Pipe                     unreadable: Pipe-" GUID ": not a regular file\n");
	snprintf(args, sizeof(args), "--vars %s", path);
	T_EQ(run(args), 1);
	snprintf(args, sizeof(args), "uncore_decode: %s: not a regular file\n", path);
	T_STREQ(out, args);

	/* a chunk that is a FIFO */
	fake_vars_init(&fv, 100000, 1 << 20);
	T_EQ(var_save(&fv.vs, "Chunked", rec, reclen, 64, &chunks, err, sizeof(err)), UNC_OK);
	dump("fifo2");
	fake_vars_free(&fv);
	snprintf(path, sizeof(path), "%s/fifo2/Chunked.0002-" GUID, dir);
	T_EQ(unlink(path), 0);
	T_EQ(mkfifo(path, 0644), 0);
	snprintf(args, sizeof(args), "%s/fifo2/Chunked-" GUID, dir);
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: Chunked: Chunked.0002-" GUID ": not a regular file\n");
}

/* Orphan chunks (no index, or past the index's count) are listed. */
static void orphan_chunks_are_listed(void)
{
	char args[600];
	unsigned chunks, none;
	char err[200];

	fake_vars_init(&fv, 100000, 1 << 20);
	T_EQ(var_save(&fv.vs, "Tail", rec, reclen, 64, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(var_save(&fv.vs, "Whole", rec, reclen, 0, &none, err, sizeof(err)), UNC_OK);
	fv.vs.set(fv.vs.ctx, "Tail", NULL, 0);
	fv.vs.set(fv.vs.ctx, "Tail.0001", NULL, 0);
	fv.vs.set(fv.vs.ctx, "Whole.0003", rec, 10);
	dump("orphans");
	fake_vars_free(&fv);
	snprintf(args, sizeof(args), "--list %s/orphans", dir);
	T_EQ(run(args), 0);
	char want[100];
	snprintf(want, sizeof(want), "Tail (orphan chunks: %u)\n", chunks - 1);
	T_CONTAINS(out, want);
	T_CONTAINS(out, "Whole (orphan chunks: 1)\n");
	T_CONTAINS(out, "Whole                          ");
	snprintf(args, sizeof(args), "%s/orphans Tail", dir);
	T_EQ(run(args), 1);
	snprintf(want, sizeof(want), "uncore_decode: Tail: no stored record named Tail; %u orphan chunks", chunks - 1);
	T_CONTAINS(out, want);
}

/* efivarfs files cannot be sized by seeking (Linux gives -1): a file read
 * to its end. /proc/version is such a file; its text is no record, and
 * that is what is said, with no size of 2^64 - 5. Names under the GUID
 * that no record can have (not ASCII, too long) are listed as unusable. */
static void unseekable_files_and_unusable_names(void)
{
	char args[600], path[600], want[200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/Proc-" GUID, dir);
	T_EQ(symlink("/proc/version", path), 0);
	snprintf(args, sizeof(args), "%s/proc Proc", dir);
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: Proc: not an uncore record (magic 0x65762078, want 0x52434e55)\n"); /* "x ve" */
	static const char *const odd[] = { "Caf\xc3\xa9", "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN", "a b" };
	for (unsigned i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/proc/%s-" GUID, dir, odd[i]);
		T_ASSERT((f = fopen(path, "wb")) != NULL);
		fwrite("\x07\0\0\0xyz", 1, 7, f);
		fclose(f);
	}
	snprintf(args, sizeof(args), "--list %s/proc", dir);
	T_EQ(run(args), 0);
	snprintf(want, sizeof(want), "Caf??                    unusable: %s\n", VAR_UNUSABLE_WHY);
	T_CONTAINS(out, want);
	snprintf(want, sizeof(want), "NNNNNNNNNNNNNNNNNNNNNNNNNNNN... unusable: %s\n", VAR_UNUSABLE_WHY);
	T_CONTAINS(out, want);
	snprintf(want, sizeof(want), "a?b                      unusable: %s\n", VAR_UNUSABLE_WHY);
	T_CONTAINS(out, want);
	T_CONTAINS(out, "Proc                     unreadable: not an uncore record");
}

/* A record with text a terminal would obey is refused, not printed. */
static void control_characters_are_refused(void)
{
	static struct rec r;
	static uint8_t bad[4096];
	struct rec_buf b = { bad, 0, sizeof(bad), false };
	char args[600], path[400];

	memset(&r, 0, sizeof(r));
	strcpy(r.command, "stat");
	strcpy(r.tool, "uncore.efi\r\n0.1.0");
	r.tsc_hz = 1;
	rec_begin(&b);
	rec_put(&b, &r);
	rec_end(&b);
	b.p[REC_HEADER_SIZE + 6 + 10] = '\r'; /* the encoder writes '?': spoil it afterwards */
	b.p[REC_HEADER_SIZE + 6 + 11] = '\n';
	rec_end(&b);
	snprintf(path, sizeof(path), "%s/ctl", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/ctl/UncoreResults-" GUID, dir);
	FILE *f = fopen(path, "wb");
	fwrite("\7\0\0\0", 1, 4, f);
	fwrite(bad, 1, b.len, f);
	fclose(f);
	snprintf(args, sizeof(args), "%s/ctl", dir);
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: UncoreResults: field 'tool' has byte 0x0d at offset 10: not printable ASCII\n");
}

/* A VARS image made here, in the layout of ../shared/notes/platform.md. */
static size_t put_var(uint8_t *img, size_t at, const char *name, const uint8_t guid[16], uint8_t state,
		      const uint8_t *data, size_t len)
{
	uint8_t *v = img + at;
	size_t nsize = 2 * (strlen(name) + 1);

	memset(v, 0, 60);
	v[0] = 0xAA, v[1] = 0x55, v[2] = state, v[4] = 7;
	memcpy(v + 36, &(uint32_t){ (uint32_t)nsize }, 4);
	memcpy(v + 40, &(uint32_t){ (uint32_t)len }, 4);
	memcpy(v + 44, guid, 16);
	for (size_t i = 0; i <= strlen(name); i++)
		v[60 + 2 * i] = (uint8_t)name[i], v[61 + 2 * i] = 0;
	memcpy(v + 60 + nsize, data, len);
	return at + ((60 + nsize + len + 3) & ~(size_t)3);
}

static void vars_image(void)
{
	static uint8_t img[1 << 18];
	static const uint8_t ours[16] = { 0x91, 0x5e, 0x3a, 0x7c, 0x4d, 0x2b, 0x86, 0x4f,
					  0x9e, 0x1a, 0x5d, 0x0c, 0x8b, 0x7f, 0x2a, 0x63 };
	static const uint8_t other[16] = { 1, 2, 3 };
	static const uint8_t fs[16] = { 0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c,
					0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };
	static const uint8_t auth[16] = { 0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43,
					  0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };
	char path[300], args[400];

	memset(img, 0xff, sizeof(img));
	memcpy(img + 16, fs, 16);
	memcpy(img + 40, "_FVH", 4);
	img[48] = 72, img[49] = 0;
	memcpy(img + 72, auth, 16);
	memcpy(img + 88, &(uint32_t){ 0x20000 }, 4);
	img[92] = 0x5A, img[93] = 0xFE;
	size_t at = 72 + 28;
	uint8_t junk[10] = { 0 };
	at = put_var(img, at, "UncoreResults", ours, 0x3C, junk, sizeof(junk)); /* deleted: not live */
	at = put_var(img, at, "UncoreResults", other, 0x3F, junk, sizeof(junk)); /* someone else's */
	at = put_var(img, at, "UncoreResults", ours, 0x3F, rec, reclen);
	snprintf(path, sizeof(path), "%s/vars.fd", dir);
	FILE *f = fopen(path, "wb");
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
	snprintf(args, sizeof(args), "--vars %s", path);
	T_EQ(run(args), 0);
	T_CONTAINS(out, table);
	snprintf(args, sizeof(args), "--list --vars %s", path);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "UncoreResults ");
	snprintf(args, sizeof(args), "--vars %s", path);
	om_agrees(args);

	/* a variable header that is corrupt: the store is corrupt there, not
	 * ended (only erased flash, all 0xff, ends it) */
	static uint8_t bad[sizeof(img)];
	static const struct {
		size_t off;
		uint8_t val;
		const char *want;
	} spoil[] = {
		{ 100, 0x00, "VARS image: the variable store is corrupt at offset 0x64: no variable header (StartId 0x5500) and not erased\n" },
		{ 102, 0xAA, "VARS image: the variable store is corrupt at offset 0x64: variable state 0xaa\n" },
		{ 100 + 36, 3, "VARS image: the variable store is corrupt at offset 0x64: a name of 3 bytes\n" },
	};
	for (unsigned i = 0; i < sizeof(spoil) / sizeof(spoil[0]); i++) {
		memcpy(bad, img, sizeof(img));
		bad[spoil[i].off] = spoil[i].val;
		f = fopen(path, "wb");
		fwrite(bad, 1, sizeof(bad), f);
		fclose(f);
		snprintf(args, sizeof(args), "--list --vars %s", path);
		T_EQ(run(args), 1);
		T_CONTAINS(out, spoil[i].want);
		T_EQ(strchr(out, '\n'), out + strlen(out) - 1);
	}
	memcpy(bad, img, sizeof(img));
	bad[at + 7] = 0; /* a stray byte after the last variable */
	f = fopen(path, "wb");
	fwrite(bad, 1, sizeof(bad), f);
	fclose(f);
	snprintf(args, sizeof(args), "--list --vars %s", path);
	T_EQ(run(args), 1);
	char want[500];
	snprintf(want, sizeof(want),
		 "uncore_decode: %s: VARS image: the variable store is corrupt at offset 0x%zx: no variable header "
		 "(StartId 0xffff) and not erased\n",
		 path, at);
	T_STREQ(out, want);

	img[40] = 'X'; /* not a firmware volume */
	f = fopen(path, "wb");
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
	snprintf(args, sizeof(args), "--vars %s", path);
	T_EQ(run(args), 1);
	T_CONTAINS(out, "not an OVMF VARS image: no firmware volume signature _FVH at offset 40\n");
}

/* Writes one record as the efivarfs file DIR/NAME-GUID. */
static void put_file(const char *sub, const char *name, const uint8_t *data, size_t len)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s-" GUID, dir, sub, name);
	FILE *f = fopen(path, "wb");
	fwrite("\7\0\0\0", 1, 4, f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void put_tlv(struct rec_buf *b, uint16_t tag, const void *v, uint32_t len)
{
	uint8_t tl[6] = { (uint8_t)tag, (uint8_t)(tag >> 8), (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
			  (uint8_t)(len >> 24) };

	rec_put_raw(b, tl, sizeof(tl));
	rec_put_raw(b, v, len);
}

static void put_u64(struct rec_buf *b, uint16_t tag, uint64_t v, unsigned n)
{
	uint8_t le[32] = { 0 };

	for (unsigned i = 0; i < 8; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	put_tlv(b, tag, le, n);
}

/* The same run as make_record's, as uncore.efi wrote it before drivers
 * (layout 1, typed from the old tags): the decoder prints it as it did. */
static void layout_1_and_4(void)
{
	static uint8_t v1[4096], ev[256];
	struct rec_buf b = { v1, 0, sizeof(v1), false }, e = { ev, 0, sizeof(ev), false };
	char args[600];

	put_tlv(&e, 0x01, "UNC_ARB_TRK_REQUESTS.ALL", 24);
	put_u64(&e, 0x02, 1, 1);    /* unit: ARB */
	put_u64(&e, 0x03, 0x81, 1); /* event */
	put_u64(&e, 0x04, 0x01, 1); /* umask */
	put_u64(&e, 0x0A, 6000000, 32); /* boxes 0-3 */
	put_u64(&e, 0x0B, 2000000000, 8);
	rec_begin(&b);
	put_tlv(&b, 0x0001, "uncore.efi 0.1.0", 16);
	put_tlv(&b, 0x0002, "stat", 4);
	put_tlv(&b, 0x0010, "GenuineIntel", 12);
	put_u64(&b, 0x002C, 1000000000, 8); /* tsc_hz */
	put_u64(&b, 0x0040, 4, 4);          /* ncbo */
	put_u64(&b, 0x0041, 1, 4);          /* ngroups */
	put_u64(&b, 0x0044, 2000000000, 8); /* elapsed */
	put_tlv(&b, 0x0047, ev, (uint32_t)e.len);
	T_EQ(rec_end(&b), UNC_OK);
	v1[4] = 1; /* layout 1 (the CRC covers the body only) */
	put_file("layouts", "Old", v1, b.len);
	snprintf(args, sizeof(args), "%s/layouts Old", dir);
	T_EQ(run(args), 0);
	/* what the decoder before drivers printed of these bytes */
	T_STREQ(out, "record Old: `stat` by uncore.efi 0.1.0 at an unknown time, exit status: success\n"
		     "uncore stat: 1 event in 1 group, 4 CBos, msr access: native\n"
		     "event                                                     count               rate/s  unit    running\n"
		     "UNC_ARB_TRK_REQUESTS.ALL                                6000000          3000000.000  events  100.00%\n"
		     "elapsed: 2.000000000 s measured (2000000000 TSC ticks at 1000.000 MHz)\n");
	snprintf(args, sizeof(args), "-x , %s/layouts Old", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "6000000,,UNC_ARB_TRK_REQUESTS.ALL,2000000000,100.00\n");
	snprintf(args, sizeof(args), "%s/layouts Old", dir);
	om_agrees(args);
	/* and the current layout's record of the same run prints the same */
	put_file("layouts", "New", rec, reclen);
	snprintf(args, sizeof(args), "%s/layouts New", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "record New: `stat` by uncore.efi 0.1.0 at an unknown time, exit status: success\n"
			"uncore stat: 1 event in 1 group, 4 CBos, msr access: native\n");
	T_CONTAINS(out, table);

	/* layout 2 (the previous writer's bytes, kept as the fuzzer's seed):
	 * two sockets of eight channels, every channel's row */
	static uint8_t v2[4096];
	FILE *f = fopen("tests/fuzz/corpus/decode/record_v2_16boxes", "rb");
	T_ASSERT(f != NULL);
	size_t v2len = fread(v2, 1, sizeof(v2), f);
	fclose(f);
	put_file("layouts", "Two", v2 + 1, v2len - 1); /* after the fuzzer's mode byte */
	snprintf(args, sizeof(args), "%s/layouts Two", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "UNC_M_CAS_COUNT.RD@socket0.ch0 ");
	T_CONTAINS(out, "UNC_M_CAS_COUNT.WR@socket1.ch7 ");
	T_CONTAINS(out, "elapsed: 1.000000000 s");
	om_agrees(args);

	/* a layout this decoder does not know: refused, naming its version */
	static uint8_t v4[sizeof(rec)];
	memcpy(v4, rec, reclen);
	v4[4] = 4;
	put_file("layouts", "Newer", v4, reclen);
	snprintf(args, sizeof(args), "%s/layouts Newer", dir);
	T_EQ(run(args), 1);
	T_STREQ(out, "uncore_decode: Newer: record layout version 4; this reader knows versions 1 to 3\n");
	snprintf(args, sizeof(args), "--list %s/layouts", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "Newer                    unreadable: record layout version 4; this reader knows versions 1 to 3\n");
	T_CONTAINS(out, "New                 ");
	T_CONTAINS(out, "Old                 ");
}

/* Bad usage is one line naming the problem and exit status 2: an option
 * given twice, -x with -j, an option without its value, a NAME or a format
 * with --list. Nothing is read. */
static void usage_errors_name_the_problem(void)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "-x , -j /nonexistent", "uncore_decode: -x and -j cannot be used together\n" },
		{ "-j -x , /nonexistent", "uncore_decode: -x and -j cannot be used together\n" },
		{ "-x , -x ';' /nonexistent", "uncore_decode: -x given twice\n" },
		{ "-j -j /nonexistent", "uncore_decode: -j given twice\n" },
		{ "--vars /a --vars /b", "uncore_decode: --vars given twice\n" },
		{ "--list --list /nonexistent", "uncore_decode: --list given twice\n" },
		{ "/nonexistent -x", "uncore_decode: -x needs a value\n" },
		{ "--vars", "uncore_decode: --vars needs a value\n" },
		{ "--list /nonexistent Name", "uncore_decode: --list takes no NAME ('Name')\n" },
		{ "--list -j /nonexistent", "uncore_decode: --list prints names only: no -x or -j\n" },
		{ "--bogus /nonexistent", "uncore_decode: unknown option '--bogus'\n" },
		{ "/a Name Extra", "uncore_decode: unexpected argument 'Extra'\n" },
		{ "/a --vars /b", "uncore_decode: '/a' and --vars /b: one source at a time\n" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ(run(bad[i].args), 2);
		T_STREQ(out, bad[i].msg);
	}
}

/* Lines of text that start with prefix and hold word. */
static unsigned rows_with(const char *text, const char *prefix, const char *word)
{
	unsigned n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		bool has = false;
		for (size_t i = 0; !has && i + strlen(word) <= len; i++)
			has = !strncmp(l + i, word, strlen(word));
		n += !strncmp(l, prefix, strlen(prefix)) && has;
	}
	return n;
}

/* A run on `sockets` sockets of `per` channels (an event counted in every
 * channel, each socket's numbered from 0), stored with --per-box in chunked
 * variables: the decoder prints a row per channel, with its count, in text,
 * CSV, JSON and HTML. */
static void many_boxes(unsigned sockets, unsigned per)
{
	static const struct pmu_driver *const present[] = { &pmu_driver_disc, NULL };
	static struct rec r;
	static struct count_run crun;
	static uint8_t rbuf[1 << 16];
	struct rec_buf b = { rbuf, 0, sizeof(rbuf), false };
	struct report_opts ro = { .format = REPORT_HUMAN, .per_box = true };
	struct ev_spec spec;
	char err[200], args[600], sub[32], want[120];
	unsigned n = sockets * per, chunks;
	uint64_t sum = 0;

	memset(&r, 0, sizeof(r));
	memset(&crun, 0, sizeof(crun));
	T_EQ(evsel_parse("imc/event=0x05,umask=0xcf/", present, &spec, err, sizeof(err)), UNC_OK);
	crun.nev = 1;
	crun.ngroups = 1;
	crun.t_end = 1000000000;
	crun.programs = true;
	strcpy(crun.ev[0].name, spec.name);
	evsel_view(&spec, n, &crun.ev[0].v);
	T_STREQ(crun.ev[0].v.group_noun, "socket");
	T_EQ(count_room(&crun), UNC_OK);
	for (unsigned k = 0; k < n; k++) {
		crun.ev[0].v.group[k] = (uint8_t)(k / per), crun.ev[0].v.box_id[k] = (uint8_t)(k % per);
		crun.ev[0].total.box[k] = 1000 * (k + 1);
		crun.ev[0].moved[k] = 1;
		sum += 1000 * (k + 1);
	}
	crun.ev[0].total.running = 1000000000;
	T_EQ(rec_from_run(&r, &crun, &ro), UNC_OK);
	count_free(&crun);
	strcpy(r.tool, "uncore.efi 0.1.0");
	strcpy(r.command, "stat");
	r.tsc_hz = 1000000000;
	rec_begin(&b);
	rec_put(&b, &r);
	rec_free(&r);
	T_EQ(rec_end(&b), UNC_OK);
	/* in chunks of 1000 bytes, as efivarfs files */
	fake_vars_init(&fv, 100000, 1 << 22);
	T_EQ(var_save(&fv.vs, "Many", rbuf, b.len, 1000, &chunks, err, sizeof(err)), UNC_OK);
	T_ASSERT(chunks >= b.len / 1000);
	snprintf(sub, sizeof(sub), "many%u", n);
	dump(sub);
	fake_vars_free(&fv);
	const char *ev = "imc/event=0x05,umask=0xcf/";
	snprintf(args, sizeof(args), "%s/%s Many", dir, sub);
	T_EQ(run(args), 0);
	snprintf(want, sizeof(want), " %lu ", (unsigned long)sum);
	T_CONTAINS(out, want);
	T_EQ(rows_with(out, "imc/event=0x05,umask=0xcf/@socket", " "), n);
	unsigned bad = 0;
	for (unsigned k = 0; k < n; k++) { /* each channel's row holds its own count */
		snprintf(want, sizeof(want), "%s@socket%u.ch%u ", ev, k / per, k % per);
		char count[32];
		snprintf(count, sizeof(count), " %u ", 1000 * (k + 1));
		bad += rows_with(out, want, count) != 1;
	}
	T_EQ(bad, 0);
	T_NOT_CONTAINS(out, "did not change");
	snprintf(args, sizeof(args), "-x , %s/%s Many", dir, sub);
	T_EQ(run(args), 0);
	snprintf(want, sizeof(want), "%u,,%s@socket%u.ch%u,", 1000 * n, ev, sockets - 1, per - 1);
	T_CONTAINS(out, want);
	T_EQ(rows_with(out, "", "@socket"), n);
	snprintf(args, sizeof(args), "%s/%s Many", dir, sub);
	om_agrees(args);
	snprintf(args, sizeof(args), "-j %s/%s Many", dir, sub);
	T_EQ(run(args), 0);
	T_JSON(out, true);
	snprintf(want, sizeof(want), "socket%u.ch%u", sockets - 1, per - 1);
	T_CONTAINS(out, want);
	snprintf(want, sizeof(want), "\"count\":%u,", 1000 * n);
	T_CONTAINS(out, want);
	char page[300];
	snprintf(page, sizeof(page), "%s/many%u.html", dir, n);
	snprintf(args, sizeof(args), "--html %s %s/%s Many", page, dir, sub);
	T_EQ(run(args), 0);
	FILE *f = fopen(page, "r");
	T_ASSERT(f != NULL);
	size_t len = fread(out, 1, sizeof(out) - 1, f);
	out[len] = '\0';
	fclose(f);
	snprintf(want, sizeof(want), "%s@socket%u.ch%u ", ev, sockets - 1, per - 1);
	T_CONTAINS(out, want);
	T_EQ(rows_with(out, "imc/event=0x05,umask=0xcf/@socket", " "), n);
}

/* Two sockets of eight channels (16 boxes, the previous layout's most),
 * eight of twelve (Granite Rapids' iMC channels on eight sockets) and eight
 * of sixty (Sapphire Rapids' CHAs on eight sockets). */
static void sixteen_boxes(void)
{
	many_boxes(2, 8);
}

static void ninety_six_boxes(void)
{
	many_boxes(8, 12);
}

static void four_hundred_eighty_boxes(void)
{
	many_boxes(8, 60);
}

/* --openmetrics without NAME: the latest boot check, UncoreBoot<N> of the
 * highest N (names that are not such a number are not boot checks), else
 * UncoreResults; exit status 3 for a run that failed, 1 for a corrupt
 * record, 2 for bad usage. */
static void openmetrics_latest_boot_and_status(void)
{
	static const struct {
		const char *name;
		uint32_t seq, status;
	} recs[] = { { "UncoreResults", 0, 0 }, { "UncoreBoot2", 2, 0 }, { "UncoreBoot10", 10, UNC_E_CHECK },
		     { "UncoreBoot9", 9, 0 }, { "UncoreBoot010", 99, 0 }, { "UncoreBootX", 98, 0 } };
	static struct rec r;
	static uint8_t b2[1 << 16];
	unsigned chunks;
	char err[200], args[600];

	fake_vars_init(&fv, 100000, 1 << 20);
	for (unsigned i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		struct rec_buf b = { b2, 0, sizeof(b2), false };
		if (i == 1)
			dump("noboot"); /* UncoreResults alone */
		T_EQ(rec_decode(rec, reclen, &r, NULL, NULL, err, sizeof(err)), UNC_OK);
		r.boot_seq = recs[i].seq;
		r.status = recs[i].status;
		rec_begin(&b);
		rec_put(&b, &r);
		T_EQ(rec_end(&b), UNC_OK);
		T_EQ(var_save(&fv.vs, recs[i].name, b2, b.len, 0, &chunks, err, sizeof(err)), UNC_OK);
	}
	dump("boots");
	fake_vars_free(&fv);
	snprintf(args, sizeof(args), "--openmetrics %s/boots", dir);
	T_EQ(run(args), 3); /* boot 10's run failed */
	T_CONTAINS(out, "\nuncore_boot_sequence{msr_access=\"native\"} 10\n");
	T_CONTAINS(out, "\nuncore_exit_status{status=\"bandwidth check failed\",msr_access=\"native\"} 11\n");
	T_OM(out);
	snprintf(args, sizeof(args), "--openmetrics %s/boots UncoreBoot9", dir);
	T_EQ(run(args), 0);
	T_CONTAINS(out, "\nuncore_boot_sequence{msr_access=\"native\"} 9\n");
	snprintf(args, sizeof(args), "--openmetrics %s/noboot", dir); /* no boot check there */
	T_EQ(run(args), 0);
	T_NOT_CONTAINS(out, "uncore_boot_sequence");
	T_CONTAINS(out, "\nuncore_event_counted{event=\"UNC_ARB_TRK_REQUESTS.ALL\",pmu=\"arb\",unit=\"events\","
			"msr_access=\"native\"} 6000000\n");
	put_file("boots", "Cut", rec, 10);
	static const struct {
		const char *args, *said;
		int status;
	} bad[] = {
		{ "--openmetrics %s/boots Cut", "uncore_decode: Cut: truncated: 10 bytes, shorter than the 16-byte header\n", 1 },
		{ "--openmetrics -j %s/boots",
		  "uncore_decode: --openmetrics prints OpenMetrics text: no -x, -j, --list or --html with it\n", 2 },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args), bad[i].args, dir);
		T_EQ(run(args), bad[i].status);
		T_STREQ(out, bad[i].said);
	}
}

int main(int argc, char **argv)
{
	static const struct t_case cases[] = { T_CASE(efivarfs_sources), T_CASE(usage_errors_exit_2),
					       T_CASE(only_regular_files_are_read), T_CASE(orphan_chunks_are_listed),
					       T_CASE(unseekable_files_and_unusable_names),
					       T_CASE(control_characters_are_refused), T_CASE(vars_image), T_CASE(layout_1_and_4),
					       T_CASE(usage_errors_name_the_problem), T_CASE(sixteen_boxes),
					       T_CASE(ninety_six_boxes), T_CASE(four_hundred_eighty_boxes),
					       T_CASE(openmetrics_latest_boot_and_status) };
	if (!mkdtemp(dir))
		return 1;
	make_record();
	t_cmdline(argc, argv);
	int rc = t_main("decode", cases, sizeof(cases) / sizeof(cases[0]));
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
