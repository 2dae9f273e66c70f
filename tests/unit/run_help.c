#include "run_help.h"

#include <string.h>
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "t.h"

size_t run_record(const struct count_run *c, const struct report_opts *ro, uint8_t *buf, size_t size,
		  struct rec_print_ws *ws)
{
	static struct rec rec;
	struct rec_buf rb = { buf, 0, size, false };
	char err[300] = "";

	memset(&rec, 0, sizeof(rec));
	fmt_snprintf(rec.command, sizeof(rec.command), "bw");
	rec.tsc_hz = 1000000000ull;
	T_EQ(rec_from_run(&rec, c, ro), UNC_OK);
	rec_begin(&rb);
	rec_put(&rb, &rec);
	rec_free(&rec);
	T_EQ(rec_end(&rb), UNC_OK);
	memset(ws, 0, sizeof(*ws));
	if (rec_decode(buf, rb.len, &ws->r, NULL, NULL, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "decode: %s", err);
	rec_count_run(&ws->run, &ws->r);
	return rb.len;
}

void run_add(struct stat_run *r, const struct pmu_driver *const *present, const char *name)
{
	struct ev_spec e;
	char err[200];

	if (evsel_parse(name, present, &e, err, sizeof(err)))
		t_fail(__FILE__, __LINE__, "%s: %s", name, err);
	else
		T_EQ(stat_add(r, &e), UNC_OK);
}

enum unc_status run_schedule(struct stat_run *r, const struct hw *hw, bool allow_mux)
{
	struct cpu_info cpu;
	char warn[200];
	enum unc_status st;

	cpu_identify(hw, &cpu);
	if ((st = stat_probe(r, hw, &cpu, warn, sizeof(warn))))
		return st;
	return stat_schedule(r, allow_mux);
}

const char *render_info(const struct platform_info *pi, bool json, char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	if (json)
		info_print_json(&o, pi);
	else
		info_print(&o, pi);
	return buf;
}
