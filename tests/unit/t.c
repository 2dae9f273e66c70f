#include "t.h"

#include <stdarg.h>
#include <stdio.h>

static bool failed;
static const char *suite_name, *case_name;

void t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (!failed)
		printf("FAIL - %s.%s\n", suite_name, case_name);
	failed = true;
	printf("    %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

bool t_failed(void)
{
	return failed;
}

int t_main(const char *suite, const struct t_case *cases, size_t n)
{
	unsigned pass = 0, fail = 0;

	suite_name = suite;
	for (size_t i = 0; i < n; i++) {
		failed = false;
		case_name = cases[i].name;
		cases[i].fn();
		if (failed)
			fail++;
		else {
			pass++;
			printf("ok - %s.%s\n", suite, cases[i].name);
		}
		fflush(stdout);
	}
	printf("# %s: %u passed, %u failed\n", suite, pass, fail);
	return fail ? 1 : 0;
}
