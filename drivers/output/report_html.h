/* Stored records as one self-contained HTML page: no external CSS,
 * JavaScript, fonts or images, charts in inline SVG. Built for the host
 * decoder (uncore_decode --html) and for the application, so it renders
 * from the encoded record (what `-o var:` stores) through the same report
 * code the console uses: the table on the page is the console's text.
 *
 * A page holds, per record: the verdict, the identity (tool, time, CPU,
 * access mode), the load, check and child lines, one SVG line chart per PMU
 * group for interval runs (bw: read, write and total MB/s with lines for
 * the --min-* requirement and the SMBIOS peak; stat: each event's rate,
 * events of very different magnitudes on separate charts), and the report
 * as the console printed it. Every text taken from a record is escaped.
 *
 * Each polyline carries data-values, the figures it plots exactly as the
 * text report prints them, one per point; its svg carries data-ymax (the
 * top of the y axis in the same unit), so a reader can check the plot. */
#ifndef UNC_REPORT_HTML_H
#define UNC_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include "../base/fmt.h"
#include "recmap.h"
#include "../base/status.h"

/* One record as a whole page: the one call that writes a report.html.
 * name: the record's name (NULL: none). On error (a record that does not
 * decode) writes one line into err and nothing to o. */
enum unc_status report_html_page(struct out *o, const uint8_t *data, size_t len, const char *name,
				 struct rec_print_ws *ws, char *err, size_t errsize);

/* A page of several records: begin, an index (index_begin, one index_row
 * per record, index_end) linking to the sections, one section per
 * readable record, end. title is escaped. */
void report_html_begin(struct out *o, const char *title);
void report_html_index_begin(struct out *o);
/* A row with the record's command, time and verdict, linked to its section;
 * an unreadable record gets a row saying why (err) and returns the error. */
enum unc_status report_html_index_row(struct out *o, const uint8_t *data, size_t len, const char *name,
				      struct rec_print_ws *ws, char *err, size_t errsize);
void report_html_index_end(struct out *o);
enum unc_status report_html_section(struct out *o, const uint8_t *data, size_t len, const char *name,
				    struct rec_print_ws *ws, char *err, size_t errsize);
void report_html_end(struct out *o);

/* The id of a record's section: "rec-" and its name (names are letters,
 * digits, '_' and '-'). */
void report_html_id(char *buf, size_t size, const char *name);

/* Text as HTML: the five characters markup uses escaped. */
void report_html_text(struct out *o, const char *s);

#endif
