/* msr read ADDR, msr write ADDR VALUE: one MSR, guarded against #GP. */
#include "cmd.h"

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

	(void)env;
	if (cmd->verb == CLI_MSR_READ) {
		st = hw_msr_read(hw, cmd->msr, &v);
		fmt_snprintf(what, sizeof(what), "rdmsr 0x%x%s%s%s", cmd->msr, *n ? " (" : "", n, *n ? ")" : "");
		if (st)
			return app_fail(err, st, what);
		out_printf(out, "msr 0x%x%s%s%s = 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "",
			   (unsigned long)v);
		return UNC_OK;
	}
	st = hw_msr_write(hw, cmd->msr, cmd->value);
	fmt_snprintf(what, sizeof(what), "wrmsr 0x%x%s%s%s value 0x%lx", cmd->msr, *n ? " (" : "", n,
		     *n ? ")" : "", (unsigned long)cmd->value);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "msr 0x%x%s%s%s <- 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "",
		   (unsigned long)cmd->value);
	return UNC_OK;
}

static const struct cli_opt msr_args[] = {
	CLI_UINT_ARG("ADDR", msr, "MSR address", "a 32-bit number", UINT32_MAX, 0, "the MSR's address (32 bits)"),
	CLI_UINT_ARG("VALUE", value, "MSR value", "a 64-bit number", UINT64_MAX, 0, "the value to write (64 bits)"),
};

const struct cli_command cmd_msr_read = {
	.name = "msr", .sub = "read", .verb = CLI_MSR_READ, .min_args = 1, .max_args = 1, .args = msr_args,
	.needs = "an MSR address", .run = run_msr, .help = "read an MSR (guarded against #GP)",
};

const struct cli_command cmd_msr_write = {
	.name = "msr", .sub = "write", .verb = CLI_MSR_WRITE, .min_args = 2, .max_args = 2, .args = msr_args,
	.needs = "an MSR address and a value", .run = run_msr, .help = "write an MSR (guarded against #GP)",
};
