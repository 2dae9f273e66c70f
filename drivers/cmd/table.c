/* Every command, in the order `uncore.efi help` lists them. A command is
 * one file in this folder, defining its struct cli_command (drivers/cmd/cli.h),
 * and one line here. */
#include "cmd.h"

const struct cli_command *const cli_commands[] = {
	&cmd_stat,     &cmd_bw,        &cmd_bench,      &cmd_list,	   &cmd_var_list,  &cmd_var_show,
	&cmd_var_delete, &cmd_regs,    &cmd_info,       &cmd_msr_read,  &cmd_msr_write, &cmd_pci_read,
	&cmd_mmio_read, &cmd_pmc_read, &cmd_lab,        &cmd_help,      &cmd_version,   NULL,
};
