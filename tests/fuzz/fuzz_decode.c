/* libFuzzer harness for stored-results decoding: the record decoder and
 * printers (drivers/output/record.c, drivers/output/recmap.c, the OpenMetrics
 * text of drivers/output/openmetrics.c) and the VARS image parser
 * (tools/varsrc.c). Any input must give a result or a one-line error; never
 * a crash, an out-of-bounds access or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/output/openmetrics.h"
#include "../../drivers/output/recmap.h"
#include "../../tools/varsrc.h"

static char text[1 << 20];
static struct rec_print_ws print_ws;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[300];
	struct strbuf sb;
	struct varstore vs;

	if (size < 1)
		return 0;
	uint8_t mode = data[0];
	data++, size--;
	if (mode & 1) {
		/* a VARS image, then every record found in it and its orphan
		 * chunks, as --list walks them */
		if (varsrc_image(&vs, data, size, err, sizeof(err)))
			return 0;
		static struct var_entry e[VAR_LIST_MAX];
		static uint8_t buf[1 << 16];
		size_t n, len;
		if (var_entries(&vs, e, VAR_LIST_MAX, &n, err, sizeof(err)))
			return 0;
		for (size_t i = 0; i < n; i++) {
			if (var_orphans(&vs, &e[i]) > e[i].chunks)
				abort(); /* more orphans than chunks */
			if (!var_load(&vs, e[i].name, buf, sizeof(buf), &len, err, sizeof(err)))
				;
		}
		return 0;
	}
	if (mode & 2) {
		/* The input as the fields of a record with a valid header and
		 * CRC, so that the field parser itself gets fuzzed. */
		static uint8_t wrapped[1 << 16];
		if (size > sizeof(wrapped) - REC_HEADER_SIZE)
			size = sizeof(wrapped) - REC_HEADER_SIZE;
		struct rec_buf b = { wrapped, 0, sizeof(wrapped), false };
		rec_begin(&b);
		rec_put_raw(&b, data, size);
		rec_end(&b);
		data = wrapped;
		size = b.len;
	}
	strbuf_init(&sb, text, sizeof(text));
	struct out o = strbuf_out(&sb);
	enum report_format fmt = (mode >> 2) % 3 == 0 ? REPORT_HUMAN : (mode >> 2) % 3 == 1 ? REPORT_CSV : REPORT_JSON;
	err[0] = 'x';
	if (rec_print(&o, data, size, fmt, ";", "Fuzz", &print_ws, err, sizeof(err)) != UNC_OK && err[0] == '\0')
		abort(); /* a failure always says why */
	/* a record that decodes has OpenMetrics text, ending in # EOF */
	if (!rec_decode(data, size, &print_ws.r, NULL, NULL, err, sizeof(err))) {
		size_t n = om_write(text, sizeof(text), &print_ws.r, NULL, 0);
		if (n && n < sizeof(text) && strcmp(text + n - 6, "# EOF\n"))
			abort();
	}
	return 0;
}
