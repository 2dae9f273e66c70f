/* `uncore.efi var list/show/delete` on stores that are not what a clean
 * run leaves behind: chunks after a gap, chunks with no index, a walk of
 * the names that fails half-way, records with text a terminal would obey. */
#include <stdlib.h>
#include <string.h>

#include "../../drivers/cmd/app.h"
#include "app_run.h"
#include "fake_vars.h"
#include "t.h"

static struct fake_vars fv;
static char obuf[65536], ebuf[1024];

static const struct app_env env = { .vars = &fv.vs, .alloc = malloc, .free = free };

static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };

static enum unc_status run(int argc, const char **argv)
{
	return app_test_run(&at, NULL, &env, argc, argv);
}

#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run((int)(sizeof(av) / sizeof(av[0])), av);       \
	})

static struct rec r;

/* A small `info` record as uncore.efi writes it; `edit` may change it, and
 * `spoil` then change the encoded bytes (the writer stores neither bad text
 * nor a bad time; the CRC is made right again). */
static size_t make_record(uint8_t *buf, size_t cap, void (*edit)(struct rec *), void (*spoil)(uint8_t *body, size_t len))
{
	struct rec_buf b = { buf, 0, cap, false };

	memset(&r, 0, sizeof(r));
	strcpy(r.tool, "uncore.efi " UNC_VERSION);
	strcpy(r.command, "info");
	strcpy(r.vendor, "GenuineIntel");
	strcpy(r.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	strcpy(r.verdict_reason, "ready");
	r.time = (struct rec_time){ 2026, 11, 21, 22, 0, 0, 0, 0, 0, 1 };
	r.tsc_hz = 2600000000ull;
	if (edit)
		edit(&r);
	rec_begin(&b);
	rec_put(&b, &r);
	if (spoil)
		spoil(buf + REC_HEADER_SIZE, b.len - REC_HEADER_SIZE);
	T_EQ(rec_end(&b), UNC_OK);
	return b.len;
}

/* Stores a record under name in `chunks` chunks (0: one variable). */
static void store(const char *name, unsigned chunks)
{
	static uint8_t buf[4096];
	size_t len = make_record(buf, sizeof(buf), NULL, NULL);
	unsigned got;
	char err[200];

	T_EQ(var_save(&fv.vs, name, buf, len, chunks ? (len + chunks - 1) / chunks : 0, &got, err, sizeof(err)), UNC_OK);
	T_EQ(got, chunks);
}

static void drop(const char *name)
{
	size_t len;

	T_EQ(fv.vs.get(fv.vs.ctx, name, NULL, 0, &len), UNC_E_RANGE); /* it was there */
	fv.vs.set(fv.vs.ctx, name, NULL, 0);
}

static bool present(const char *prefix)
{
	for (unsigned i = 0; i < fv.n; i++)
		if (!strncmp(fv.v[i].name, prefix, strlen(prefix)))
			return true;
	return false;
}

/* A delete cut short by a reset: the index and the first chunks are gone,
 * Tail.0003 to Tail.0005 are left. */
static void orphan_chunks_are_listed_and_deleted(void)
{
	fake_vars_init(&fv, 100000, 1 << 20);
	store("Keep", 0);
	store("Tail", 5);
	store("Tail0", 3); /* another record whose name starts the same */
	drop("Tail");
	drop("Tail.0001");
	drop("Tail.0002");

	T_EQ(RUN("var", "list"), UNC_OK);
	T_CONTAINS(obuf, "\nKeep ");
	T_CONTAINS(obuf, "\nTail0 ");
	T_CONTAINS(obuf, "\nTail (orphan chunks: 3)\n");
	T_CONTAINS(obuf, "\n2 records (vendor GUID ");
	T_STREQ(ebuf, "");
	T_EQ(RUN("var", "show", "Tail"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: Tail: no stored record named Tail; 3 orphan chunks Tail.nnnn are left, "
		      "`var delete Tail` removes them\n");
	T_EQ(RUN("var", "delete", "Tail"), UNC_OK);
	T_STREQ(obuf, "deleted Tail: 3 orphan chunks\n");
	T_ASSERT(!present("Tail."));
	T_ASSERT(present("Tail0.0003"));
	T_EQ(fv.n, 5); /* Keep, Tail0 and its three chunks */
	T_EQ(RUN("var", "list"), UNC_OK);
	T_NOT_CONTAINS(obuf, "orphan");
	T_EQ(RUN("var", "delete", "Tail"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: no stored record named Tail\n");
	fake_vars_free(&fv);
}

/* Names under the GUID that no record can have (the firmware's walk gives
 * them with '?' for what is not ASCII, cut with "..." when long) are
 * listed as unusable, not left out; nothing of them is read or deleted. */
static void unusable_names_are_listed(void)
{
	fake_vars_init(&fv, 100000, 1 << 20);
	store("Keep", 0);
	fv.vs.set(fv.vs.ctx, "Caf?", (const uint8_t *)"x", 1);
	fv.vs.set(fv.vs.ctx, "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN...", (const uint8_t *)"x", 1);
	fv.vs.set(fv.vs.ctx, "Esc\x1b[2J", (const uint8_t *)"x", 1);
	T_EQ(RUN("var", "list"), UNC_OK);
	T_CONTAINS(obuf, "\nKeep ");
	T_CONTAINS(obuf, "\nCaf?                              -  unusable: " VAR_UNUSABLE_WHY "\n");
	T_CONTAINS(obuf, "\nNNNNNNNNNNNNNNNNNNNNNNNNNNNN...          -  unusable: ");
	T_CONTAINS(obuf, "\nEsc?[2J                           -  unusable: ");
	T_CONTAINS(obuf, "\n1 record (vendor GUID ");
	T_CONTAINS(obuf, "\n3 variables under the GUID have no record name; uncore.efi neither reads nor deletes them\n");
	T_EQ(fv.n, 4);
	fake_vars_free(&fv);
}

/* C1 with C1.0003 missing: unreadable, and deleting it takes every chunk. */
static void a_gap_does_not_stop_the_delete(void)
{
	fake_vars_init(&fv, 100000, 1 << 20);
	store("C1", 5);
	drop("C1.0003");
	T_EQ(RUN("var", "list"), UNC_OK);
	T_CONTAINS(obuf, "\nC1                                -  unreadable: truncated chunk set: C1.0003 is missing "
			 "(the index names 5 chunks)\n");
	T_NOT_CONTAINS(obuf, "orphan");
	T_EQ(RUN("var", "delete", "C1"), UNC_OK);
	T_STREQ(obuf, "deleted C1 and its 4 chunks\n");
	T_EQ(fv.n, 0);

	/* chunks past the index's count, and a chunk 0000, are orphans too */
	store("C1", 2);
	static const uint8_t junk[4] = { 1, 2, 3, 4 };
	fv.vs.set(fv.vs.ctx, "C1.0000", junk, sizeof(junk));
	fv.vs.set(fv.vs.ctx, "C1.0007", junk, sizeof(junk));
	T_EQ(RUN("var", "list"), UNC_OK);
	T_CONTAINS(obuf, "\nC1 ");
	T_CONTAINS(obuf, "  info     2026-11-21 22:00:00  0\nC1 (orphan chunks: 2)\n");
	T_EQ(RUN("var", "show", "C1"), UNC_OK); /* the record itself is whole */
	T_EQ(RUN("var", "delete", "C1"), UNC_OK);
	T_STREQ(obuf, "deleted C1 and its 4 chunks\n");
	T_EQ(fv.n, 0);
	fake_vars_free(&fv);
}

/* The walk of the names ends in an error half-way: say so, list nothing
 * that looks complete. */
static void a_failed_walk_is_an_error(void)
{
	fake_vars_init(&fv, 100000, 1 << 20);
	store("First", 0);
	store("Second", 0);
	fv.next_fail_at = 2;
	fv.next_fail = UNC_E_RANGE;
	T_ASSERT(RUN("var", "list") != UNC_OK);
	T_STREQ(ebuf, "uncore: error: cannot read the names of the variables: out of range\n");
	T_NOT_CONTAINS(obuf, "record");
	fake_vars_free(&fv);
}

static void an_event(struct rec *x)
{
	strcpy(x->command, "stat");
	x->nevents = 1;
	strcpy(x->ev[0].name, "UNC#[2J");
	x->elapsed = 1;
}

static void esc_for_hash(uint8_t *body, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (!memcmp(body + i, "UNC#", 4)) {
			body[i + 3] = 0x1b;
			return;
		}
	t_fail(__FILE__, __LINE__, "no event name in the record");
}

/* The body starts with tool, command and time: u16 tag, u32 length, value. */
static void month_255(uint8_t *body, size_t len)
{
	(void)len;
	size_t at = 6 + strlen(r.tool) + 6 + strlen(r.command);
	T_EQ(body[at], 0x03);
	body[at + 6 + 2] = 255;
}

/* Text a terminal would act on, and impossible times: refused as corrupt,
 * by show and by list, naming the field. */
static void corrupt_text_and_time_are_refused(void)
{
	static uint8_t buf[4096];
	unsigned chunks;
	char err[200];

	fake_vars_init(&fv, 100000, 1 << 20);
	size_t len = make_record(buf, sizeof(buf), an_event, esc_for_hash);
	T_EQ(var_save(&fv.vs, "Esc", buf, len, 0, &chunks, err, sizeof(err)), UNC_OK);
	len = make_record(buf, sizeof(buf), NULL, month_255);
	T_EQ(var_save(&fv.vs, "Month", buf, len, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(RUN("var", "show", "Esc"), UNC_E_INVALID);
	T_STREQ(obuf, "");
	T_STREQ(ebuf, "uncore: error: Esc: event 0: field 'name' has byte 0x1b at offset 3: not printable ASCII\n");
	T_EQ(RUN("var", "show", "Month", "-x", ","), UNC_E_INVALID);
	T_STREQ(obuf, "");
	T_STREQ(ebuf, "uncore: error: Month: field 'time' has month 255 (1 to 12)\n");
	T_EQ(RUN("var", "list"), UNC_OK);
	T_NOT_CONTAINS(obuf, "\x1b");
	T_CONTAINS(obuf, "\nEsc                               -  unreadable: event 0: field 'name' has byte 0x1b");
	T_CONTAINS(obuf, "\nMonth                             -  unreadable: field 'time' has month 255 (1 to 12)\n");
	fake_vars_free(&fv);
}

T_MAIN("var", T_CASE(orphan_chunks_are_listed_and_deleted), T_CASE(unusable_names_are_listed), T_CASE(a_gap_does_not_stop_the_delete),
       T_CASE(a_failed_walk_is_an_error), T_CASE(corrupt_text_and_time_are_refused))
