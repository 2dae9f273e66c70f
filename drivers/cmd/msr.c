/* msr read ADDR, msr write ADDR VALUE: one MSR, guarded against #GP;
 * --pkg N: by a processor of package N. */
#include "app.h"

#include "../base/parse.h"

/* An MSR's name, from the drivers that match this CPU ("" when none knows
 * it): one address means different registers on different PMUs. */
static const char *msr_desc(const struct hw *hw, uint32_t msr, char *buf, size_t size)
{
	struct cpu_info cpu;

	app_cpu_detect(hw, &cpu);
	for (unsigned d = 0; app_present[d]; d++) {
		const char *n = app_present[d]->ops->reg_name ? app_present[d]->ops->reg_name(NULL, pmu_msr(msr), buf, size) : NULL;
		if (n)
			return n;
	}
	return "";
}

static enum unc_status run_msr(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	char name[40], what[80];
	const char *n = msr_desc(hw, cmd->msr, name, sizeof(name));
	enum unc_status st;
	uint64_t v;

	char on[40] = "";

	(void)env;
	if (cmd->msr_pkg && !hw_pkg_known(hw, cmd->msr_pkg - 1)) {
		out_printf(err, "uncore: error: --pkg %u: no processor of package %u can be reached (%s)\n", cmd->msr_pkg - 1,
			   cmd->msr_pkg - 1, hw->pkgs ? "see info's packages" : "no MP services");
		return UNC_E_NOT_FOUND;
	}
	if (cmd->msr_pkg)
		fmt_snprintf(on, sizeof(on), " on package %u", cmd->msr_pkg - 1);
	if (cmd->verb == CLI_MSR_READ) {
		st = cmd->msr_pkg ? hw_msr_read_pkg(hw, cmd->msr_pkg - 1, cmd->msr, &v) : hw_msr_read(hw, cmd->msr, &v);
		fmt_snprintf(what, sizeof(what), "rdmsr 0x%x%s%s%s%s", cmd->msr, *n ? " (" : "", n, *n ? ")" : "", on);
		if (st)
			return app_fail(err, st, what);
		out_printf(out, "msr 0x%x%s%s%s%s = 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "", on,
			   (unsigned long)v);
		return UNC_OK;
	}
	st = cmd->msr_pkg ? hw_msr_write_pkg(hw, cmd->msr_pkg - 1, cmd->msr, cmd->value) : hw_msr_write(hw, cmd->msr, cmd->value);
	fmt_snprintf(what, sizeof(what), "wrmsr 0x%x%s%s%s%s value 0x%lx", cmd->msr, *n ? " (" : "", n,
		     *n ? ")" : "", on, (unsigned long)cmd->value);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "msr 0x%x%s%s%s%s <- 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "", on,
		   (unsigned long)cmd->value);
	return UNC_OK;
}

static enum unc_status opt_pkg(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	uint64_t v;

	(void)o;
	if (!parse_u64(val, 254, &v))
		UNC_ERR(UNC_E_INVALID, "bad package '%s' for --pkg (want 0 to 254)", val);
	cmd->msr_pkg = (uint32_t)v + 1;
	return UNC_OK;
}

static const struct cli_opt msr_opts[] = {
	CLI_FN_OPT("--pkg", "N", opt_pkg, "by a processor of physical package N (info lists the packages)"),
	CLI_END,
};

static const struct cli_opt msr_args[] = {
	CLI_UINT_ARG("ADDR", msr, "MSR address", "a 32-bit number", UINT32_MAX, 0, "the MSR's address (32 bits)"),
	CLI_UINT_ARG("VALUE", value, "MSR value", "a 64-bit number", UINT64_MAX, 0, "the value to write (64 bits)"),
};

const struct cli_command cmd_msr_read = {
	.name = "msr", .sub = "read", .verb = CLI_MSR_READ, .min_args = 1, .max_args = 1, .args = msr_args, .opts = msr_opts,
	.needs = "an MSR address", .run = run_msr, .help = "read an MSR (guarded against #GP)",
};

const struct cli_command cmd_msr_write = {
	.name = "msr", .sub = "write", .verb = CLI_MSR_WRITE, .min_args = 2, .max_args = 2, .args = msr_args, .opts = msr_opts,
	.needs = "an MSR address and a value", .run = run_msr, .help = "write an MSR (guarded against #GP)",
};
