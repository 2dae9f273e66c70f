/* Between the live structures of a run and a stored record, both ways, in
 * one place: the writer (efi/app.c) fills a record from them, `var show`
 * and the host decoder rebuild them from a record and print them with the
 * very report functions the console used. It links the counts and the
 * reports, never the counting engine. */
#ifndef UNC_RECMAP_H
#define UNC_RECMAP_H

#include "counts.h"
#include "fmt.h"
#include "hw.h"
#include "info.h"
#include "record.h"
#include "report.h"

void rec_from_info(struct rec *r, const struct platform_info *pi);
void rec_from_run(struct rec *r, const struct count_run *run, const struct report_opts *ro);
void rec_sample_from_run(struct rec_sample *s, const struct count_run *run, uint64_t now);

/* The most boxes any event of the run counts in (what a sample must hold). */
unsigned rec_run_boxes(const struct count_run *run);

/* Where rec_print works: large, so the caller places it. */
struct rec_print_ws {
	struct rec r;
	struct count_run run;
	struct platform_info pi;
};

/* Prints a record as the console did, in the given format (sep: the CSV
 * separator); stored_as names the variable for the first line (NULL: none;
 * JSON never has it). */
enum unc_status rec_print(struct out *o, const uint8_t *data, size_t len, enum report_format format, const char *sep,
			  const char *stored_as, struct rec_print_ws *ws, char *err, size_t errsize);

#endif
