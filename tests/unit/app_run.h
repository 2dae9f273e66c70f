/* uncore.efi's command line run on the host, as efi/main.c runs it: the
 * parser, then app_run, with the output in the caller's buffers. Every -j
 * output goes through a real JSON parser (T_JSON): one document, or JSON
 * Lines under -I and for `var show` (a record prints as its run did). */
#ifndef APP_RUN_H
#define APP_RUN_H

#include <stdbool.h>
#include "../../drivers/cmd/app.h"

struct app_test {
	char *obuf, *ebuf;
	size_t osize, esize;
	bool json_lines; /* the running command prints JSON Lines (also for -o FILE) */
};

/* A command line the parser refuses fails the running test. */
enum unc_status app_test_run(struct app_test *t, const struct hw *hw, const struct app_env *env, int argc,
			     const char **argv);

#endif
