/* mmio read ADDR [--force]: one 32-bit read of physical memory. */
#include "access_options.h"
#include "app.h"

/* Whether one range holds all of [addr, addr + len). */
static bool memmap_covers(const struct mem_range *map, size_t n, uint64_t addr, uint64_t len)
{
	for (size_t i = 0; i < n; i++)
		if (addr >= map[i].base && addr - map[i].base < map[i].size && len <= map[i].size - (addr - map[i].base))
			return true;
	return false;
}

/* A load from an address the firmware's page tables leave unmapped faults
 * (#PF) with nothing to catch it, and OVMF maps less than the CPU's
 * physical address width. UEFI identity-maps what its memory map
 * describes, so an address that no descriptor covers is refused unless
 * --force. Some MMIO (the local APIC on OVMF) is mapped but not described:
 * --force is for that. */
static enum unc_status mmio_in_memory_map(const struct access_options *a, const struct app_env *env, struct out *err)
{
	struct mem_range *map = NULL;
	size_t n = 0;
	char msg[160] = "no memory map service";
	enum unc_status st = UNC_E_NOT_FOUND;
	unsigned long addr = (unsigned long)a->addr;

	if (env && env->memory_map && env->free)
		st = env->memory_map(&map, &n, msg, sizeof(msg));
	bool covered = !st && memmap_covers(map, n, a->addr, 4);
	if (map)
		env->free(map);
	if (covered)
		return UNC_OK;
	if (st && !a->force) {
		out_printf(err, "uncore: error: mmio read 0x%lx: cannot check it against the UEFI memory map (%s); "
				"--force reads it unchecked\n", addr, msg);
		return st;
	}
	if (!a->force) {
		out_printf(err, "uncore: error: mmio read 0x%lx: no UEFI memory map descriptor covers it, so it may be "
				"unmapped and a load would fault the firmware; --force reads it anyway\n", addr);
		return UNC_E_RANGE;
	}
	out_printf(err, "uncore: warning: mmio read 0x%lx: %s; reading it because of --force\n", addr,
		   st ? "not checked against the UEFI memory map" : "no UEFI memory map descriptor covers it");
	return UNC_OK;
}

static enum unc_status run_mmio(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	const struct access_options *a = CLI_OWN(cmd);
	struct cpu_info cpu;
	char what[64];
	uint32_t v;

	/* A load beyond the physical address width would fault (#PF or #GP)
	 * with nothing to catch it: refuse it up front, --force or not. */
	cpu_identify(hw, &cpu);
	if (cpu.phys_addr_bits < 64 && a->addr >= (uint64_t)1 << cpu.phys_addr_bits) {
		out_printf(err, "uncore: error: mmio read 0x%lx: above the CPU's %u-bit physical address width\n",
			   (unsigned long)a->addr, cpu.phys_addr_bits);
		return UNC_E_RANGE;
	}
	/* The memory map's check, then the seam's own (drivers/base/hw.md,
	 * MMIO), --force or not: system memory, or memory the firmware has not
	 * mapped, is refused with its reason, and nothing is loaded. With
	 * --force the seam's comes first, so that no "reading it" warning
	 * precedes a refusal. */
	char why[160];
	enum unc_status st = a->force ? UNC_OK : mmio_in_memory_map(a, env, err);
	if (!st && (st = hw_mmio_check(hw, a->addr, 4, why, sizeof(why))))
		out_printf(err, "uncore: error: mmio read 0x%lx: %s\n", (unsigned long)a->addr, why);
	if (!st && a->force)
		st = mmio_in_memory_map(a, env, err);
	if (st)
		return st;
	st = hw_mmio_read32(hw, a->addr, &v);
	fmt_snprintf(what, sizeof(what), "mmio read 0x%lx", (unsigned long)a->addr);
	if (st)
		return app_fail(err, st, what);
	out_printf(out, "mmio 0x%lx = 0x%08x\n", (unsigned long)a->addr, v);
	return UNC_OK;
}

static const struct cli_opt mmio_opts[] = {
	CLI_FLAG_OPT("--force", ACCESS_FIELD(force), "read an address no UEFI memory map descriptor covers"),
	CLI_END,
};

static const struct cli_opt mmio_args[] = {
	CLI_UINT_ARG("ADDR", ACCESS_FIELD(addr), "MMIO address", "a 4-byte-aligned physical address", UINT64_MAX, 4,
		     "a 4-byte-aligned physical address"),
};

const struct cli_command cmd_mmio_read = {
	.name = "mmio", .sub = "read", .min_args = 1, .max_args = 1, .opts = mmio_opts, ACCESS_OWN,
	.args = mmio_args, .needs = "a physical address", .run = run_mmio,
	.help = "one 32-bit read of physical memory (--force: outside the memory map)",
};
