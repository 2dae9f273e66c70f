/* regs: every programmable register of this CPU's PMUs, read only. */
#include "app.h"

#include <string.h>

/* Whether register k of a unit's box (selects even, counters odd) was
 * listed already as one of the box's earlier registers: one control shared
 * by several counters (the architectural PMU's fixed-counter control) is
 * one line. */
static bool listed_before(const struct pmu_unit *pu, const struct pmu_present *p, unsigned u, unsigned box, unsigned k,
			  struct pmu_reg reg)
{
	for (unsigned j = 0; j < k; j++)
		if (pmu_reg_eq(reg, j % 2 ? pmu_unit_ctr(pu, p, u, box, j / 2) : pmu_unit_sel(pu, p, u, box, j / 2)))
			return true;
	return false;
}

/* Every programmable register of the PMUs this CPU has, read only: each
 * driver's global registers, then each unit's selects and counters for the
 * boxes its probe finds. */
static enum unc_status run_regs(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	(void)cmd, (void)env;
	enum unc_status st, first = UNC_OK;
	struct cpu_info cpu;
	char name[48], addr[32], msg[200], warn[200];
	uint64_t v;

	if ((st = app_cpu_ready(hw, &cpu, err)))
		return st;
	for (unsigned d = 0; app_present[d]; d++) {
		const struct pmu_driver *drv = app_present[d];
		struct pmu_present p = { .drv = drv };
		uint32_t want = 0;
		for (unsigned u = 0; u < drv->nunits; u++)
			if (drv->units[u].kind != PMU_FREE)
				want |= 1u << u;
		if ((st = drv->ops->probe(hw, &cpu, want, &p, msg, sizeof(msg), warn, sizeof(warn)))) {
			pmu_present_free(&p);
			out_printf(err, "uncore: error: %s\n", msg);
			return st;
		}
		for (int u = -1; u < (int)drv->nunits; u++) {
			const struct pmu_unit *pu = u < 0 ? NULL : &drv->units[u];
			if (pu && pu->kind == PMU_FREE)
				continue;
			unsigned boxes = pu ? p.boxes[u] : 1, n = pu ? pmu_counters_of(pu, &p, (unsigned)u) * 2u : drv->nglobals;
			for (unsigned box = 0; box < boxes; box++) {
				for (unsigned k = 0; k < n; k++) {
					if (!pu && (p.globals_absent >> k & 1)) /* this CPU lacks it */
						continue;
					struct pmu_reg reg = !pu ? drv->globals[k]
							     : k % 2 ? pmu_unit_ctr(pu, &p, (unsigned)u, box, k / 2)
								     : pmu_unit_sel(pu, &p, (unsigned)u, box, k / 2);
					if (pu && listed_before(pu, &p, (unsigned)u, box, k, reg))
						continue;
					const char *nm = pmu_reg_name(drv, &p, reg, name, sizeof(name));
					/* a counter wider than 32 bits outside MSR space: two dwords, one value */
					unsigned width = pu && k % 2 ? pmu_width_of(pu, &p, (unsigned)u) : 32;
					uint64_t x = 0;
					st = stat_read_reg(hw, reg, width, &x);
					v = reg.space == PMU_MSR ? x : x & pmu_width_mask(width > 32 ? width : 32);
					pmu_reg_addr(reg, addr, sizeof(addr));
					if (st) {
						out_printf(out, "%-5s %-28s %s\n", addr, nm, unc_strerror(st));
						if (!first)
							first = st;
						continue;
					}
					/* a counter no run writes (its unit's ctr_write): it keeps what it counts */
					bool never = pu && k % 2 && pu->ctr_write != PMU_CTR_WRITE;
					out_printf(out, "%-5s %-28s 0x%016lx%s\n", addr, nm, (unsigned long)v,
						   never ? "  (never written)" : "");
				}
			}
		}
		pmu_present_free(&p);
	}
	if (first)
		out_printf(err, "uncore: error: some PMU registers could not be read\n");
	return first;
}

const struct cli_command cmd_regs = {
	.name = "regs", .run = run_regs,
	.help = "every programmable register of this CPU's PMUs, read only",
};
