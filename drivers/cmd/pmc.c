/* pmc read INDEX: RDPMC, guarded against #GP and #UD. */
#include "access_options.h"
#include "app.h"

/* RDPMC's #UD gets its own words: the instruction, not the index, is what
 * is missing (QEMU's TCG raises it for every RDPMC). */
static enum unc_status run_pmc(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	const struct access_options *a = CLI_OWN(cmd);
	char what[32];
	uint64_t v;
	enum unc_status st = hw_rdpmc(hw, a->pmc, &v);

	(void)env;
	fmt_snprintf(what, sizeof(what), "rdpmc 0x%x", a->pmc);
	if (st == UNC_E_UNSUPPORTED) {
		out_printf(err, "uncore: error: %s: invalid opcode (#UD): RDPMC is not available on this processor\n", what);
		return st;
	}
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "pmc 0x%x = 0x%016lx\n", a->pmc, (unsigned long)v);
	return UNC_OK;
}

static const struct cli_opt pmc_args[] = {
	CLI_UINT_ARG("INDEX", ACCESS_FIELD(pmc), "RDPMC index", "a 32-bit number", UINT32_MAX, 0, "RDPMC's index (ECX, 32 bits)"),
};

const struct cli_command cmd_pmc_read = {
	.name = "pmc", .sub = "read", .min_args = 1, .max_args = 1, .args = pmc_args, ACCESS_OWN,
	.needs = "a counter index", .run = run_pmc, .help = "RDPMC of INDEX (guarded against #GP and #UD)",
};
