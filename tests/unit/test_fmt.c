#include <stdio.h>
#include <string.h>

#include "../../drivers/base/fmt.h"
#include "t.h"

/* fmt_snprintf must agree with the C library on everything it supports. */
#define SAME(...)                                                              \
	do {                                                                   \
		char want[128], got[128];                                      \
		size_t wn = (size_t)snprintf(want, sizeof(want), __VA_ARGS__); \
		size_t gn = fmt_snprintf(got, sizeof(got), __VA_ARGS__);       \
		T_STREQ(got, want);                                            \
		T_EQ(gn, wn);                                                  \
	} while (0)

static void matches_libc(void)
{
	SAME("plain");
	SAME("%d %i %u", -42, 7, 4000000000u);
	SAME("%x %X %08x %-6x|", 0xbeefu, 0xbeefu, 0x12u, 0xau);
	SAME("%lx %lu %ld", 0xfedcba9876543210ul, 18446744073709551615ul, -9223372036854775807l - 1);
	SAME("%zu", (size_t)12345);
	SAME("%s|%10s|%-10s|%.3s", "abc", "right", "left", "truncate");
	SAME("%c%c%%", 'o', 'k');
	SAME("%016lx", 0x1ul);
	SAME("%*d|%-*d|%.*s", 5, 42, 4, 7, 2, "xyz");
	SAME("%d", 0);
	SAME("%05d", -42);
}

static void truncates_and_counts(void)
{
	char buf[8];
	size_t n = fmt_snprintf(buf, sizeof(buf), "%s", "0123456789");

	T_EQ(n, 10);
	T_STREQ(buf, "0123456");
	T_EQ(fmt_snprintf(NULL, 0, "%d", 12345), 5);
}

static void fixed_point(void)
{
	char buf[32];

	fmt_fixed(buf, sizeof(buf), 2600045123ull, 1000000, 3);
	T_STREQ(buf, "2600.045");
	fmt_fixed(buf, sizeof(buf), 2600045500ull, 1000000, 3);
	T_STREQ(buf, "2600.046"); /* half rounds up */
	fmt_fixed(buf, sizeof(buf), 999999, 1000000, 3);
	T_STREQ(buf, "1.000"); /* carry into the integer part */
	fmt_fixed(buf, sizeof(buf), 5, 2, 0);
	T_STREQ(buf, "3");
	fmt_fixed(buf, sizeof(buf), 1, 0, 2);
	T_STREQ(buf, "nan");
	fmt_fixed(buf, sizeof(buf), UINT64_MAX, UINT64_MAX, 2);
	T_STREQ(buf, "1.00");
	fmt_fixed(buf, sizeof(buf), 1, 3, 4);
	T_STREQ(buf, "0.3333");
}

static void json_escapes(void)
{
	char buf[64];
	struct strbuf sb;
	struct out o;

	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	out_json_str(&o, "a\"b\\c\n\x01");
	T_STREQ(buf, "\"a\\\"b\\\\c\\u000a\\u0001\"");
}

static void out_chunks_long_output(void)
{
	static char buf[2048];
	char want[1100];
	struct strbuf sb;
	struct out o;

	memset(want, 'x', 1000);
	want[1000] = '\0';
	strbuf_init(&sb, buf, sizeof(buf));
	o = strbuf_out(&sb);
	out_printf(&o, "[%s]", want);
	T_EQ(strlen(buf), 1002);
	T_EQ(buf[0], '[');
	T_EQ(buf[1001], ']');
}

/* A text cut to fit says so, at a space: never a word cut short unseen. */
static void cut_marked_at_a_clean_boundary(void)
{
	char b[24];

	T_EQ(fmt_copy_marked(b, sizeof(b), "faults: none"), 12);
	T_STREQ(b, "faults: none");
	T_EQ(fmt_copy_marked(b, sizeof(b), "Skylake uncore, 4 CBos, faults: none"), 20);
	T_STREQ(b, "Skylake uncore [cut]");
	T_EQ(fmt_copy_marked(b, sizeof(b), "a, b; c, faults: none pmu-in-use"), 13);
	T_STREQ(b, "a, b; c [cut]");
	T_EQ(fmt_copy_marked(b, sizeof(b), "one two three four five six"), 19);
	T_STREQ(b, "one two three [cut]");
	T_EQ(fmt_copy_marked(b, sizeof(b), "abcdefghijklmnopqrstuvwxyz"), 23);
	T_STREQ(b, "abcdefghijklmnopq [cut]");
	T_EQ(fmt_copy_marked(b, 5, "abcdefghij"), 4);
	T_STREQ(b, "[cut");
	T_EQ(fmt_copy_marked(b, sizeof(b), NULL), 0);
	T_STREQ(b, "");
}

T_MAIN("fmt", T_CASE(cut_marked_at_a_clean_boundary), T_CASE(matches_libc), T_CASE(truncates_and_counts), T_CASE(fixed_point), T_CASE(json_escapes),
       T_CASE(out_chunks_long_output))
