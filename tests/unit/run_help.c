#include "run_help.h"

#include "../../drivers/engine/info.h"
#include "t.h"

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
