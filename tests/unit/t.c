#include "t.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Runs `cmd ARG < a temporary file holding text`; a failure names what cmd printed. */
static void t_tool_check(const char *file, int line, const char *text, const char *cmd_fmt, const char *arg)
{
	char path[] = "/tmp/uncore_check.XXXXXX", cmd[300], why[400] = "";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		t_fail(file, line, "cannot write a temporary file for %s", cmd_fmt);
		return;
	}
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), cmd_fmt, arg, path);
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(why, 1, sizeof(why) - 1, p) : 0;
	why[n] = '\0';
	int st = p ? pclose(p) : -1;
	remove(path);
	if (st != 0)
		t_fail(file, line, "%s; the text is:\n%s", why[0] ? why : "the check failed to run", text);
}

void t_json_check(const char *file, int line, const char *text, bool lines)
{
	t_tool_check(file, line, text, "python3 tests/json_check.py %s < %s", lines ? "lines" : "doc");
}

void t_om_check(const char *file, int line, const char *text)
{
	t_tool_check(file, line, text, "%s%s 2>&1", "/usr/bin/python3 tests/om_check.py ");
}

bool t_failed(void)
{
	return failed;
}

static int t_argc;
static char **t_argv;

void t_cmdline(int argc, char **argv)
{
	t_argc = argc;
	t_argv = argv;
}

/* Whether the command line names case `name` of `suite` (as CASE or SUITE.CASE). */
static bool named(const char *suite, const char *name, const char *arg)
{
	size_t len = strlen(suite);

	if (!strncmp(arg, suite, len) && arg[len] == '.')
		arg += len + 1;
	return !strcmp(arg, name);
}

int t_main(const char *suite, const struct t_case *cases, size_t n)
{
	unsigned pass = 0, fail = 0;
	bool all = t_argc < 2;

	suite_name = suite;
	for (int a = 1; a < t_argc; a++) {
		size_t i = 0;
		if (!strcmp(t_argv[a], "--list")) {
			for (i = 0; i < n; i++)
				printf("%s.%s\n", suite, cases[i].name);
			return 0;
		}
		while (i < n && !named(suite, cases[i].name, t_argv[a]))
			i++;
		if (i == n) {
			printf("FAIL - %s: no case named %s (--list names them)\n", suite, t_argv[a]);
			return 2;
		}
	}
	for (size_t i = 0; i < n; i++) {
		bool run = all;
		for (int a = 1; a < t_argc && !run; a++)
			run = named(suite, cases[i].name, t_argv[a]);
		if (!run)
			continue;
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
