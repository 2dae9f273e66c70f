/* pci read B:D.F OFFSET: one 32-bit PCI configuration register. */
#include "app.h"

#include "../base/parse.h"

static enum unc_status run_pci(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	char what[64];
	uint32_t v;
	enum unc_status st = hw_pci_read32(hw, cmd->pci, cmd->offset, &v);

	(void)env;
	fmt_snprintf(what, sizeof(what), "pci read %02x:%02x.%x offset 0x%x", cmd->pci.bus, cmd->pci.dev,
		     cmd->pci.func, cmd->offset);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "pci %02x:%02x.%x [0x%03x] = 0x%08x\n", cmd->pci.bus, cmd->pci.dev, cmd->pci.func,
		   cmd->offset, v);
	return UNC_OK;
}

static enum unc_status opt_bdf(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	(void)o;
	if (!parse_pci_bdf(val, &cmd->pci))
		UNC_ERR(UNC_E_INVALID, "bad PCI address '%s' (want B:D.F in hex, e.g. 0:0.0)", val);
	return UNC_OK;
}

static const struct cli_opt pci_args[] = {
	CLI_FN_ARG("B:D.F", opt_bdf, "bus, device and function, in hex as lspci prints them"),
	CLI_UINT_ARG("OFFSET", offset, "PCI offset", "a multiple of 4 below 0x1000", 0xFFF, 4,
		     "the register's offset, a multiple of 4 below 0x1000"),
};

const struct cli_command cmd_pci_read = {
	.name = "pci", .sub = "read", .verb = CLI_PCI_READ, .min_args = 2, .max_args = 2, .args = pci_args,
	.needs = "B:D.F and an offset", .run = run_pci, .help = "read a 32-bit PCI configuration register",
};
