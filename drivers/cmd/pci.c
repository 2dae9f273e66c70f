/* pci read B:D.F OFFSET: one 32-bit PCI configuration register. */
#include "access_options.h"
#include "app.h"

#include "../base/parse.h"

static enum unc_status run_pci(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
			       struct out *out, struct out *err)
{
	const struct access_options *a = CLI_OWN(cmd);
	char what[64];
	uint32_t v;
	enum unc_status st = hw_pci_read32(hw, a->pci, a->offset, &v);

	(void)env;
	fmt_snprintf(what, sizeof(what), "pci read %02x:%02x.%x offset 0x%x", a->pci.bus, a->pci.dev,
		     a->pci.func, a->offset);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "pci %02x:%02x.%x [0x%03x] = 0x%08x\n", a->pci.bus, a->pci.dev, a->pci.func,
		   a->offset, v);
	return UNC_OK;
}

static enum unc_status opt_bdf(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err, size_t errsize)
{
	(void)o;
	if (!parse_pci_bdf(val, &((struct access_options *)CLI_OWN(cmd))->pci))
		UNC_ERR(UNC_E_INVALID, "bad PCI address '%s' (want B:D.F in hex, e.g. 0:0.0)", val);
	return UNC_OK;
}

static const struct cli_opt pci_args[] = {
	CLI_FN_ARG("B:D.F", opt_bdf, "bus, device and function, in hex as lspci prints them"),
	CLI_UINT_ARG("OFFSET", ACCESS_FIELD(offset), "PCI offset", "a multiple of 4 below 0x1000", 0xFFF, 4,
		     "the register's offset, a multiple of 4 below 0x1000"),
};

const struct cli_command cmd_pci_read = {
	.name = "pci", .sub = "read", .min_args = 2, .max_args = 2, .args = pci_args, ACCESS_OWN,
	.needs = "B:D.F and an offset", .run = run_pci, .help = "read a 32-bit PCI configuration register",
};
