/* What the engine's host tests share: an event added to a run by name (a
 * name that does not resolve, or an add that fails, fails the test), and a
 * run probed and scheduled as drivers/cmd/pipeline.c does it. */
#ifndef TESTS_RUN_HELP_H
#define TESTS_RUN_HELP_H

#include "../../drivers/engine/stat.h"

void run_add(struct stat_run *r, const struct pmu_driver *const *present, const char *name);

/* Each driver's probe on this CPU (CPUID through hw), then the schedule. */
enum unc_status run_schedule(struct stat_run *r, const struct hw *hw, bool allow_mux);

/* A `bw` record of c (ro's options) encoded into buf (size bytes), then
 * decoded into ws and counted (ws->run), as the decoder reads a stored
 * one; any step that fails fails the test. The encoded length. */
struct count_run;
struct report_opts;
struct rec_print_ws;
size_t run_record(const struct count_run *c, const struct report_opts *ro, uint8_t *buf, size_t size,
		  struct rec_print_ws *ws);

/* info's text (or JSON) of pi, into buf. */
struct platform_info;
const char *render_info(const struct platform_info *pi, bool json, char *buf, size_t size);

#endif
