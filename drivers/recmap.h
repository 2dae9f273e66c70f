/* Between the live structures of a run and a stored record, both ways, in
 * one place: the writer (efi/app.c) fills a record from them, `var show`
 * and the host decoder rebuild them from a record and print them with the
 * very report functions the console used. */
#ifndef UNC_RECMAP_H
#define UNC_RECMAP_H

#include "fmt.h"
#include "hw.h"
#include "imc.h"
#include "info.h"
#include "record.h"
#include "report.h"
#include "stat.h"

void rec_from_info(struct rec *r, const struct platform_info *pi);
void rec_from_run(struct rec *r, const struct stat_run *run, const struct report_opts *ro);
void rec_sample_from_run(struct rec_sample *s, const struct stat_run *run, uint64_t now);

/* Prints a record as the console did, in the given format (sep: the CSV
 * separator); stored_as names the variable for the first line (NULL: none;
 * JSON never has it). */
enum unc_status rec_print(struct out *o, const uint8_t *data, size_t len, enum report_format format, const char *sep,
			  const char *stored_as, char *err, size_t errsize);

#endif
