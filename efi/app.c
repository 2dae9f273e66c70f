#include "app.h"

#include "../drivers/cpu.h"
#include "../drivers/info.h"
#include "../drivers/skl.h"

static enum unc_status fail(struct out *err, enum unc_status st, const char *what)
{
	out_printf(err, "uncore: error: %s: %s\n", what, unc_strerror(st));
	return st;
}

static const char *msr_desc(uint32_t msr, char *buf, size_t size)
{
	const char *n = skl_msr_name(msr, buf, size);

	return n ? n : "";
}

static enum unc_status run_msr(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	char name[40], what[80];
	const char *n = msr_desc(cmd->msr, name, sizeof(name));
	enum unc_status st;
	uint64_t v;

	if (cmd->verb == CLI_MSR_READ) {
		st = hw_msr_read(hw, cmd->msr, &v);
		fmt_snprintf(what, sizeof(what), "rdmsr 0x%x%s%s%s", cmd->msr, *n ? " (" : "", n, *n ? ")" : "");
		if (st)
			return fail(err, st, what);
		out_printf(out, "msr 0x%x%s%s%s = 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "",
			   (unsigned long)v);
		return UNC_OK;
	}
	st = hw_msr_write(hw, cmd->msr, cmd->value);
	fmt_snprintf(what, sizeof(what), "wrmsr 0x%x%s%s%s value 0x%lx", cmd->msr, *n ? " (" : "", n,
		     *n ? ")" : "", (unsigned long)cmd->value);
	if (st)
		return fail(err, st, what);
	out_printf(out, "msr 0x%x%s%s%s <- 0x%016lx\n", cmd->msr, *n ? " (" : "", n, *n ? ")" : "",
		   (unsigned long)cmd->value);
	return UNC_OK;
}

static enum unc_status run_pci(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	char what[64];
	uint32_t v;
	enum unc_status st = hw_pci_read32(hw, cmd->pci, cmd->offset, &v);

	fmt_snprintf(what, sizeof(what), "pci read %02x:%02x.%x offset 0x%x", cmd->pci.bus, cmd->pci.dev,
		     cmd->pci.func, cmd->offset);
	if (st)
		return fail(err, st, what);
	out_printf(out, "pci %02x:%02x.%x [0x%03x] = 0x%08x\n", cmd->pci.bus, cmd->pci.dev, cmd->pci.func,
		   cmd->offset, v);
	return UNC_OK;
}

static enum unc_status run_mmio(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	struct cpu_info cpu;
	char what[64];
	uint32_t v;

	/* A load beyond the physical address width would fault (#PF or #GP)
	 * with nothing to catch it: refuse it up front. */
	cpu_identify(hw, &cpu);
	if (cpu.phys_addr_bits < 64 && cmd->addr >= (uint64_t)1 << cpu.phys_addr_bits) {
		out_printf(err, "uncore: error: mmio read 0x%lx: above the CPU's %u-bit physical address width\n",
			   (unsigned long)cmd->addr, cpu.phys_addr_bits);
		return UNC_E_RANGE;
	}
	enum unc_status st = hw_mmio_read32(hw, cmd->addr, &v);
	fmt_snprintf(what, sizeof(what), "mmio read 0x%lx", (unsigned long)cmd->addr);
	if (st)
		return fail(err, st, what);
	out_printf(out, "mmio 0x%lx = 0x%08x\n", (unsigned long)cmd->addr, v);
	return UNC_OK;
}

bool app_needs_clock(const struct cli_cmd *cmd)
{
	return cmd->verb == CLI_INFO;
}

enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	switch (cmd->verb) {
	case CLI_HELP:
		out_puts(out, cli_usage);
		return UNC_OK;
	case CLI_VERSION:
		out_printf(out, "uncore.efi %s\n", UNC_VERSION);
		return UNC_OK;
	case CLI_INFO: {
		static struct platform_info pi; /* large: keep it off the firmware stack */
		enum unc_status st = info_gather(hw, &pi);
		if (cmd->json)
			info_print_json(out, &pi);
		else
			info_print(out, &pi);
		if (st)
			out_printf(err, "uncore: error: uncore PMU unusable: %s\n", pi.verdict_reason);
		return st;
	}
	case CLI_MSR_READ:
	case CLI_MSR_WRITE:
		return run_msr(cmd, hw, out, err);
	case CLI_PCI_READ:
		return run_pci(cmd, hw, out, err);
	case CLI_MMIO_READ:
		return run_mmio(cmd, hw, out, err);
	}
	return UNC_E_INVALID;
}
