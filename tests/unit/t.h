/* A minimal test runner: each case prints "ok - suite.case" or
 * "FAIL - suite.case: file:line: expression (values)". tests/run-all.sh
 * counts those lines across every binary.
 *
 * A test binary runs every case, or only the cases named on its command
 * line (CASE or SUITE.CASE, one or more); --list prints the names of its
 * cases, one a line, as SUITE.CASE (tests/README.md). */
#ifndef T_H
#define T_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct t_case {
	const char *name;
	void (*fn)(void);
};

void t_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int t_main(const char *suite, const struct t_case *cases, size_t n);
/* The command line t_main reads (T_MAIN passes it; a main of its own calls
 * this before t_main). Without it, t_main runs every case. */
void t_cmdline(int argc, char **argv);
bool t_failed(void);

/* Parses text with a real JSON parser (tests/json_check.py, Python's json
 * module): one document, or JSON Lines (one document a line) when lines. */
void t_json_check(const char *file, int line, const char *text, bool lines);
#define T_JSON(text, lines) t_json_check(__FILE__, __LINE__, (text), (lines))

/* Parses OpenMetrics text with the strict OpenMetrics parser and Prometheus'
 * (they must agree) and lints it with promtool (tests/om_check.py). */
void t_om_check(const char *file, int line, const char *text);
#define T_OM(text) t_om_check(__FILE__, __LINE__, (text))

#define T_CASE(fn) { #fn, fn }
#define T_MAIN(suite, ...)                                                          \
	int main(int argc, char **argv)                                             \
	{                                                                           \
		static const struct t_case cases[] = { __VA_ARGS__ };               \
		t_cmdline(argc, argv);                                                 \
		return t_main(suite, cases, sizeof(cases) / sizeof(cases[0]));      \
	}

#define T_ASSERT(expr)                                               \
	do {                                                         \
		if (!(expr))                                         \
			t_fail(__FILE__, __LINE__, "%s", #expr);     \
	} while (0)

#define T_EQ(a, b)                                                                                  \
	do {                                                                                        \
		unsigned long long t_a = (unsigned long long)(a), t_b = (unsigned long long)(b);    \
		if (t_a != t_b)                                                                     \
			t_fail(__FILE__, __LINE__, "%s == %s (0x%llx != 0x%llx)", #a, #b, t_a, t_b); \
	} while (0)

#define T_STREQ(a, b)                                                                        \
	do {                                                                                 \
		const char *t_a = (a), *t_b = (b);                                           \
		if (!t_a || !t_b || strcmp(t_a, t_b))                                        \
			t_fail(__FILE__, __LINE__, "%s == %s (\"%s\" != \"%s\")", #a, #b,    \
			       t_a ? t_a : "(null)", t_b ? t_b : "(null)");                  \
	} while (0)

#define T_CONTAINS(hay, needle)                                                            \
	do {                                                                               \
		const char *t_h = (hay), *t_n = (needle);                                  \
		if (!strstr(t_h, t_n))                                                     \
			t_fail(__FILE__, __LINE__, "%s contains \"%s\"; it is:\n%s", #hay, t_n, t_h); \
	} while (0)

#define T_NOT_CONTAINS(hay, needle)                                                        \
	do {                                                                               \
		const char *t_h = (hay), *t_n = (needle);                                  \
		if (strstr(t_h, t_n))                                                      \
			t_fail(__FILE__, __LINE__, "%s lacks \"%s\"; it is:\n%s", #hay, t_n, t_h); \
	} while (0)

#endif
