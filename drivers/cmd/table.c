/* Every command, in the order `uncore.efi help` lists them. A command is
 * one file in this folder, defining its struct cli_command (drivers/cmd/cli.h),
 * and one line here: the descriptor's name in COMMANDS, which declares it
 * and lists it. */
#include "cli.h"

#define COMMANDS(X)                                                                                                  \
	X(cmd_stat)                                                                                                  \
	X(cmd_bw)                                                                                                    \
	X(cmd_bench)                                                                                                 \
	X(cmd_list)                                                                                                  \
	X(cmd_var_list)                                                                                              \
	X(cmd_var_show)                                                                                              \
	X(cmd_var_delete)                                                                                            \
	X(cmd_regs)                                                                                                  \
	X(cmd_info)                                                                                                  \
	X(cmd_msr_read)                                                                                              \
	X(cmd_msr_write)                                                                                             \
	X(cmd_pci_read)                                                                                              \
	X(cmd_mmio_read)                                                                                             \
	X(cmd_pmc_read)                                                                                              \
	X(cmd_lab)                                                                                                   \
	X(cmd_boot_install) X(cmd_boot_remove) X(cmd_boot_show)                                                      \
	X(cmd_help)                                                                                                  \
	X(cmd_version)

#define DECLARE(c) extern const struct cli_command c;
#define LIST(c)    &c,

COMMANDS(DECLARE)

const struct cli_command *const cli_commands[] = { COMMANDS(LIST) NULL };
