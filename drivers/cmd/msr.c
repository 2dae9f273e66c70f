/* msr read ADDR, msr write ADDR VALUE: one MSR, guarded against #GP;
 * --pkg N: by a processor of package N. */
#include "access_options.h"
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

extern const struct cli_command cmd_msr_read;

static enum unc_status run_msr(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	const struct access_options *a = CLI_OWN(cmd);
	char name[40], what[80];
	const char *n = msr_desc(hw, a->msr, name, sizeof(name));
	enum unc_status st;
	uint64_t v;

	char on[40] = "";

	(void)env;
	if (a->pkg && !hw_pkg_known(hw, a->pkg - 1)) {
		out_printf(err, "uncore: error: --pkg %u: no processor of package %u can be reached (%s)\n", a->pkg - 1,
			   a->pkg - 1, hw->pkgs ? "see info's packages" : "no MP services");
		return UNC_E_NOT_FOUND;
	}
	if (a->pkg)
		fmt_snprintf(on, sizeof(on), " on package %u", a->pkg - 1);
	if (cmd->command == &cmd_msr_read) {
		st = a->pkg ? hw_msr_read_pkg(hw, a->pkg - 1, a->msr, &v) : hw_msr_read(hw, a->msr, &v);
		fmt_snprintf(what, sizeof(what), "rdmsr 0x%x%s%s%s%s", a->msr, *n ? " (" : "", n, *n ? ")" : "", on);
		if (st)
			return app_fail(err, st, what);
		out_printf(out, "msr 0x%x%s%s%s%s = 0x%016lx\n", a->msr, *n ? " (" : "", n, *n ? ")" : "", on,
			   (unsigned long)v);
		return UNC_OK;
	}
	st = a->pkg ? hw_msr_write_pkg(hw, a->pkg - 1, a->msr, a->value) : hw_msr_write(hw, a->msr, a->value);
	fmt_snprintf(what, sizeof(what), "wrmsr 0x%x%s%s%s%s value 0x%lx", a->msr, *n ? " (" : "", n,
		     *n ? ")" : "", on, (unsigned long)a->value);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "msr 0x%x%s%s%s%s <- 0x%016lx\n", a->msr, *n ? " (" : "", n, *n ? ")" : "", on,
		   (unsigned long)a->value);
	return UNC_OK;
}

static enum unc_status opt_pkg(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	uint64_t v;

	(void)o;
	if (!parse_u64(val, 254, &v))
		UNC_ERR(UNC_E_INVALID, "bad package '%s' for --pkg (want 0 to 254)", val);
	((struct access_options *)CLI_OWN(cmd))->pkg = (uint32_t)v + 1;
	return UNC_OK;
}

static const struct cli_opt msr_opts[] = {
	CLI_FN_OPT("--pkg", "N", opt_pkg, "by a processor of physical package N (info lists the packages)"),
	CLI_END,
};

static const struct cli_opt msr_args[] = {
	CLI_UINT_ARG("ADDR", ACCESS_FIELD(msr), "MSR address", "a 32-bit number", UINT32_MAX, 0,
		     "the MSR's address (32 bits)"),
	CLI_UINT_ARG("VALUE", ACCESS_FIELD(value), "MSR value", "a 64-bit number", UINT64_MAX, 0,
		     "the value to write (64 bits)"),
};

const struct cli_command cmd_msr_read = {
	.name = "msr", .sub = "read", .min_args = 1, .max_args = 1, .args = msr_args, .opts = msr_opts, ACCESS_OWN,
	.needs = "an MSR address", .run = run_msr, .help = "read an MSR (guarded against #GP)",
};

const struct cli_command cmd_msr_write = {
	.name = "msr", .sub = "write", .min_args = 2, .max_args = 2, .args = msr_args, .opts = msr_opts, ACCESS_OWN,
	.needs = "an MSR address and a value", .run = run_msr, .help = "write an MSR (guarded against #GP)",
};
