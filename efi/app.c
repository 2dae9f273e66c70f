#include "app.h"

#include <string.h>

#include "../drivers/arith.h"
#include "../drivers/cpu.h"
#include "../drivers/info.h"
#include "../drivers/pmu.h"
#include "../drivers/report.h"
#include "../drivers/recmap.h"
#include "../drivers/stat.h"

/* The large structures, allocated when a command starts: gnu-efi's linker
 * script stores even zero-initialised data in the image, so they are not
 * static. One command at a time uses them. */
struct app_ws {
	struct stat_run run;
	struct rec rec;
	struct platform_info pi;
	struct rec_print_ws print;
};
static struct app_ws *ws;
#define the_run (ws->run)
#define the_rec (ws->rec)

static enum unc_status fail(struct out *err, enum unc_status st, const char *what)
{
	out_printf(err, "uncore: error: %s: %s\n", what, unc_strerror(st));
	return st;
}

/* The drivers that match this CPU (NULL-terminated); none is an error. */
static const struct pmu_driver *present[STAT_MAX_PMUS + 1];

static unsigned cpu_detect(const struct hw *hw, struct cpu_info *cpu)
{
	unsigned n = 0;

	cpu_identify(hw, cpu);
	for (unsigned d = 0; pmu_drivers[d] && n < STAT_MAX_PMUS; d++)
		if (pmu_match_model(pmu_drivers[d], hw, cpu))
			present[n++] = pmu_drivers[d];
	present[n] = NULL;
	return n;
}

/* An MSR's name, from the drivers that match this CPU ("" when none knows
 * it): one address means different registers on different PMUs. */
static const char *msr_desc(const struct hw *hw, uint32_t msr, char *buf, size_t size)
{
	struct cpu_info cpu;

	cpu_detect(hw, &cpu);
	for (unsigned d = 0; present[d]; d++) {
		const char *n = present[d]->ops->reg_name ? present[d]->ops->reg_name(NULL, pmu_msr(msr), buf, size) : NULL;
		if (n)
			return n;
	}
	return "";
}

static enum unc_status run_msr(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	char name[40], what[80];
	const char *n = msr_desc(hw, cmd->msr, name, sizeof(name));
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

/* RDPMC's #UD gets its own words: the instruction, not the index, is what
 * is missing (QEMU's TCG raises it for every RDPMC). */
static enum unc_status run_pmc(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	char what[32];
	uint64_t v;
	enum unc_status st = hw_rdpmc(hw, cmd->pmc, &v);

	fmt_snprintf(what, sizeof(what), "rdpmc 0x%x", cmd->pmc);
	if (st == UNC_E_UNSUPPORTED) {
		out_printf(err, "uncore: error: %s: invalid opcode (#UD): RDPMC is not available on this processor\n", what);
		return st;
	}
	if (st)
		return fail(err, st, what);
	out_printf(out, "pmc 0x%x = 0x%016lx\n", cmd->pmc, (unsigned long)v);
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
static enum unc_status mmio_in_memory_map(const struct cli_cmd *cmd, const struct app_env *env, struct out *err)
{
	struct mem_range *map = NULL;
	size_t n = 0;
	char msg[160] = "no memory map service";
	enum unc_status st = UNC_E_NOT_FOUND;
	unsigned long addr = (unsigned long)cmd->addr;

	if (env && env->memory_map && env->free)
		st = env->memory_map(&map, &n, msg, sizeof(msg));
	bool covered = !st && memmap_covers(map, n, cmd->addr, 4);
	if (map)
		env->free(map);
	if (covered)
		return UNC_OK;
	if (st && !cmd->force) {
		out_printf(err, "uncore: error: mmio read 0x%lx: cannot check it against the UEFI memory map (%s); "
				"--force reads it unchecked\n", addr, msg);
		return st;
	}
	if (!cmd->force) {
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
	struct cpu_info cpu;
	char what[64];
	uint32_t v;

	/* A load beyond the physical address width would fault (#PF or #GP)
	 * with nothing to catch it: refuse it up front, --force or not. */
	cpu_identify(hw, &cpu);
	if (cpu.phys_addr_bits < 64 && cmd->addr >= (uint64_t)1 << cpu.phys_addr_bits) {
		out_printf(err, "uncore: error: mmio read 0x%lx: above the CPU's %u-bit physical address width\n",
			   (unsigned long)cmd->addr, cpu.phys_addr_bits);
		return UNC_E_RANGE;
	}
	enum unc_status st = mmio_in_memory_map(cmd, env, err);
	if (st)
		return st;
	st = hw_mmio_read32(hw, cmd->addr, &v);
	fmt_snprintf(what, sizeof(what), "mmio read 0x%lx", (unsigned long)cmd->addr);
	if (st)
		return fail(err, st, what);
	out_printf(out, "mmio 0x%lx = 0x%08x\n", (unsigned long)cmd->addr, v);
	return UNC_OK;
}

bool app_needs_clock(const struct cli_cmd *cmd)
{
	return cmd->verb == CLI_INFO || cmd->verb == CLI_STAT || cmd->verb == CLI_BW || cmd->verb == CLI_BENCH;
}

static enum unc_status cpu_ready(const struct hw *hw, struct cpu_info *cpu, struct out *err)
{
	if (!cpu_detect(hw, cpu)) {
		out_printf(err, "uncore: error: %s family 0x%x model 0x%x matches no PMU driver (see 'uncore.efi info' "
				"and 'uncore.efi list --all')\n",
			   cpu->vendor, cpu->family, cpu->model);
		return UNC_E_UNSUPPORTED;
	}
	return UNC_OK;
}

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
static enum unc_status run_regs(const struct hw *hw, struct out *out, struct out *err)
{
	enum unc_status st, first = UNC_OK;
	struct cpu_info cpu;
	char name[48], addr[32], msg[200], warn[200];
	uint64_t v;

	if ((st = cpu_ready(hw, &cpu, err)))
		return st;
	for (unsigned d = 0; present[d]; d++) {
		const struct pmu_driver *drv = present[d];
		struct pmu_present p = { .drv = drv };
		uint32_t want = 0;
		for (unsigned u = 0; u < drv->nunits; u++)
			if (drv->units[u].kind != PMU_FREE)
				want |= 1u << u;
		if ((st = drv->ops->probe(hw, &cpu, want, &p, msg, sizeof(msg), warn, sizeof(warn)))) {
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
					out_printf(out, "%-5s %-28s 0x%016lx\n", addr, nm, (unsigned long)v);
				}
			}
		}
	}
	if (first)
		out_printf(err, "uncore: error: some PMU registers could not be read\n");
	return first;
}

/* Adds a free-running counter unless the run has it already; a run that
 * has no room left fails (run->err). */
static enum unc_status want_free(struct stat_run *run, const struct pmu_driver *drv, unsigned unit, unsigned k)
{
	struct ev_spec e = { .drv = drv, .unit = (uint8_t)unit, .free = (uint8_t)k };

	for (unsigned i = 0; i < run->c.nev; i++)
		if (evsel_same(&run->spec[i], &e))
			return UNC_OK;
	fmt_snprintf(e.name, sizeof(e.name), "%s", drv->units[unit].free[k].name);
	return stat_add(run, &e);
}

/* Adds a general unit's role event (by its name, as evsel resolves it)
 * unless the run has it already. */
static enum unc_status want_event(struct stat_run *run, const struct pmu_driver *drv, const char *name)
{
	const struct pmu_driver *const only[] = { drv, NULL };
	struct ev_spec e;
	enum unc_status st;

	if ((st = evsel_parse(name, only, &e, run->err, sizeof(run->err))))
		return st;
	for (unsigned i = 0; i < run->c.nev; i++)
		if (evsel_same(&run->spec[i], &e))
			return UNC_OK;
	return stat_add(run, &e);
}

/* Whether a driver's general units name role events (bw programs them in
 * every box instead of reading its free-running counters). */
static bool has_role_events(const struct pmu_driver *drv)
{
	for (unsigned u = 0; u < drv->nunits; u++)
		if (drv->units[u].kind == PMU_GENERAL && drv->units[u].role_events)
			return true;
	return false;
}

/* Adds the counters of a role (or, role 0, every counter of each unit that
 * has DRAM roles: bw's whole table), from the drivers this CPU has: a
 * general unit's role events where it has them, else the free-running
 * counters; *ret_n says how many there are. */
static enum unc_status want_role(struct stat_run *run, unsigned role, unsigned *ret_n)
{
	enum unc_status st;

	*ret_n = 0;
	for (unsigned d = 0; present[d]; d++) {
		bool programmed = has_role_events(present[d]);
		for (unsigned u = 0; u < present[d]->nunits; u++) {
			const struct pmu_unit *pu = &present[d]->units[u];
			bool dram = false;
			for (const struct pmu_role_event *x = pu->role_events; pu->kind == PMU_GENERAL && x && x->event; x++) {
				if (role && x->role != role)
					continue;
				if ((st = want_event(run, present[d], x->event)))
					return st;
				++*ret_n;
			}
			for (unsigned k = 0; !programmed && pu->kind == PMU_FREE && k < pu->counters; k++)
				dram |= pu->free[k].role != PMU_ROLE_NONE;
			for (unsigned k = 0; dram && k < pu->counters; k++) {
				if (role && pu->free[k].role != role)
					continue;
				if ((st = want_free(run, present[d], u, k)))
					return st;
				++*ret_n;
			}
		}
	}
	return UNC_OK;
}

/* N reads of one register (rdmsr) or counter (rdpmc), timed with the TSC;
 * the first read's failure is returned. */
static enum unc_status time_reads(const struct hw *hw, bool pmc, uint32_t which, unsigned n, uint64_t *ret_ticks)
{
	uint64_t v, t0;
	enum unc_status st = pmc ? hw_rdpmc(hw, which, &v) : hw_msr_read(hw, which, &v);

	if (st)
		return st;
	t0 = hw_ticks(hw);
	for (unsigned i = 0; i < n; i++)
		st = pmc ? hw_rdpmc(hw, which, &v) : hw_msr_read(hw, which, &v);
	*ret_ticks = hw_ticks(hw) - t0;
	return st;
}

/* What reading a core counter costs here, both ways the drivers read them:
 * rdmsr of general counter 0 and RDPMC 0 (each n times). Read only. */
static enum unc_status bench_core_reads(const struct cli_cmd *cmd, const struct hw *hw, const struct cpu_info *cpu,
					const struct pmu_driver *drv, unsigned *ret_n, struct out *out, struct out *err)
{
	char msg[200], warn[200], name[48], ns[32];

	for (unsigned u = 0; u < drv->nunits; u++) {
		const struct pmu_unit *pu = &drv->units[u];
		struct pmu_present p = { .drv = drv };
		if (!pu->per_cpu || pu->kind != PMU_GENERAL || pu->space != PMU_MSR)
			continue;
		if (drv->ops->probe(hw, cpu, 1u << u, &p, msg, sizeof(msg), warn, sizeof(warn)) || !p.boxes[u])
			continue;
		struct pmu_reg ctr = pmu_unit_ctr(pu, &p, u, 0, 0);
		for (int pmc = 0; pmc < 2; pmc++) {
			uint64_t ticks = 0;
			enum unc_status st = time_reads(hw, pmc, pmc ? 0 : (uint32_t)ctr.addr, cmd->max_intervals, &ticks);
			if (pmc)
				out_printf(out, "%s rdpmc 0x0: ", pu->pmu);
			else
				out_printf(out, "%s rdmsr 0x%lx (%s): ", pu->pmu, (unsigned long)ctr.addr,
					   pmu_reg_name(drv, &p, ctr, name, sizeof(name)));
			if (st) {
				out_printf(out, "not available (%s)\n", st == UNC_E_UNSUPPORTED ? "it raised #UD"
									  : st == UNC_E_FAULT	     ? "it raised #GP"
												     : unc_strerror(st));
				continue;
			}
			fmt_fixed(ns, sizeof(ns), u64_muldiv(ticks, 10000000000ull, (uint64_t)cmd->max_intervals * hw->tick_hz),
				  10, 1);
			out_printf(out, "%u reads, %lu TSC cycles each (%s ns); %s\n", cmd->max_intervals,
				   (unsigned long)(ticks / cmd->max_intervals), ns, hw_msr_mode_name(hw->msr_mode));
		}
		++*ret_n;
	}
	(void)err;
	return UNC_OK;
}

/* What one full sample of the DRAM counters costs here: every counter of
 * bw's table, each its own 32-bit read, plus the bookkeeping. Read only. */
static enum unc_status run_bench(const struct cli_cmd *cmd, const struct hw *hw, struct out *out, struct out *err)
{
	struct stat_run *run = &the_run;
	struct cpu_info cpu;
	char warn[200], ns[32];
	enum unc_status st;

	if ((st = cpu_ready(hw, &cpu, err)))
		return st;
	*run = (struct stat_run){ 0 };
	unsigned n, ncore = 0;
	if ((st = want_role(run, 0, &n))) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	for (unsigned d = 0; present[d]; d++)
		if ((st = bench_core_reads(cmd, hw, &cpu, present[d], &ncore, out, err)))
			return st;
	if (!n && !ncore) {
		out_printf(err, "uncore: error: no PMU of this CPU has DRAM counters or core counters to time\n");
		return UNC_E_UNSUPPORTED;
	}
	if (!n)
		return UNC_OK;
	if ((st = stat_probe(run, hw, &cpu, warn, sizeof(warn))) || (st = stat_schedule(run, false)) ||
	    (st = stat_start(run, hw, false))) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	uint64_t t0 = hw_ticks(hw);
	for (unsigned i = 0; i < cmd->max_intervals && !st; i++)
		st = stat_sample(run);
	uint64_t ticks = hw_ticks(hw) - t0;
	stat_stop(run, st);
	if (st) {
		out_printf(err, "uncore: error: %s\n", run->err);
		return st;
	}
	/* Tenths of a ns per sample, in one exact step: ticks * 10^9 alone
	 * overflows 64 bits after 18 s at 1 GHz. */
	fmt_fixed(ns, sizeof(ns), u64_muldiv(ticks, 10000000000ull, (uint64_t)cmd->max_intervals * hw->tick_hz), 10, 1);
	out_printf(out, "%s sample: %u samples of %u counters, %lu TSC cycles each (%s ns); %s: %s\n", run->c.free_pmu,
		   cmd->max_intervals, run->c.nev, (unsigned long)(ticks / cmd->max_intervals), ns, run->c.free_pmu,
		   hw->msr_mode == HW_MSR_EMULATED ? "emulated" : "native");
	return UNC_OK;
}

static bool wants_output(const struct cli_cmd *cmd, const struct app_env *env)
{
	return cmd->out_var || cmd->out_file[0] || (env && env->json_copy);
}

/* -o: the record of this run into an EFI variable and/or the JSON form of
 * it into a file. The console output is already printed and stays, whatever
 * happens here. */
static enum unc_status store_results(const struct cli_cmd *cmd, const struct app_env *env, const char *command,
				     const struct platform_info *pi, const struct stat_run *run,
				     const struct run_extras *x, const struct rec_buf *samples, enum unc_status run_status,
				     struct out *err)
{
	struct rec *r = &the_rec;
	char msg[240];
	enum unc_status st = UNC_OK, fst;

	if (!env || !env->alloc || !env->free || (cmd->out_var && !env->vars) || (cmd->out_file[0] && !env->write_file)) {
		out_printf(err, "uncore: error: results not stored: no storage on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	memset(r, 0, sizeof(*r));
	fmt_snprintf(r->tool, sizeof(r->tool), "uncore.efi %s", UNC_VERSION);
	fmt_snprintf(r->command, sizeof(r->command), "%s", command);
	if (env->get_time)
		env->get_time(&r->time);
	r->status = run_status;
	rec_from_info(r, pi);
	if (run) {
		rec_from_run(r, &run->c, &cmd->report);
		r->interval = cmd->interval_ms;
	}
	if (x)
		r->x = *x;
	size_t cap = 65536 + (samples ? samples->len : 0);
	struct rec_buf b = { env->alloc(cap), 0, cap, false };
	if (!b.p) {
		out_printf(err, "uncore: error: results not stored: out of memory for %zu bytes\n", cap);
		return UNC_E_NO_MEMORY;
	}
	rec_begin(&b);
	rec_put(&b, r);
	if (samples)
		rec_put_raw(&b, samples->p, samples->len);
	if ((st = rec_end(&b))) {
		out_printf(err, "uncore: error: results not stored: the record is larger than %zu bytes\n", cap);
		env->free(b.p);
		return st;
	}
	if (cmd->out_var) {
		unsigned chunks = 0;
		st = var_save(env->vars, cmd->var_name, b.p, b.len, cmd->var_chunk, &chunks, msg, sizeof(msg));
		if (st)
			out_printf(err, "uncore: error: results not stored in %s: %s\n", cmd->var_name, msg);
		else if (chunks)
			out_printf(err, "uncore: results stored in EFI variable %s: %zu bytes in %u chunks %s.0001..%04u "
					"(vendor GUID " UNC_VAR_GUID_TEXT ")\n",
				   cmd->var_name, b.len, chunks, cmd->var_name, chunks);
		else
			out_printf(err, "uncore: results stored in EFI variable %s: %zu bytes (vendor GUID " UNC_VAR_GUID_TEXT ")\n",
				   cmd->var_name, b.len);
	}
	if (cmd->out_file[0] || env->json_copy) {
		size_t tcap = 8 * b.len + 65536;
		char *text = env->alloc(tcap);
		struct strbuf sb;
		if (!text) {
			out_printf(err, "uncore: error: %s not written: out of memory\n", cmd->out_file);
			fst = UNC_E_NO_MEMORY;
		} else {
			strbuf_init(&sb, text, tcap);
			struct out o = strbuf_out(&sb);
			fst = rec_print(&o, b.p, b.len, REPORT_JSON, NULL, NULL, &ws->print, msg, sizeof(msg));
			if (!fst && sb.len >= tcap)
				fst = UNC_E_NO_MEMORY, fmt_snprintf(msg, sizeof(msg), "the JSON text is too long");
			if (!fst && env->json_copy)
				env->json_copy(env->ctx, text, sb.len, x);
			if (!fst && cmd->out_file[0])
				fst = env->write_file(env->ctx, cmd->out_file, text, sb.len, msg, sizeof(msg));
			if (fst)
				out_printf(err, "uncore: error: %s not written: %s\n", cmd->out_file[0] ? cmd->out_file : "the JSON", msg);
			else if (cmd->out_file[0])
				out_printf(err, "uncore: results written to %s: %zu bytes of JSON\n", cmd->out_file, sb.len);
			env->free(text);
		}
		if (!st)
			st = fst;
	}
	env->free(b.p);
	return st;
}

static enum unc_status run_var(const struct cli_cmd *cmd, const struct app_env *env, struct out *out, struct out *err)
{
	char msg[240];
	enum unc_status st;

	if (!env || !env->vars || !env->alloc) {
		out_printf(err, "uncore: error: no variable store on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	const struct varstore *vs = env->vars;
	if (cmd->verb == CLI_VAR_DELETE) {
		bool record;
		unsigned chunks;
		if ((st = var_delete(vs, cmd->var_name, &record, &chunks, msg, sizeof(msg)))) {
			out_printf(err, "uncore: error: %s\n", msg);
			return st;
		}
		if (!record)
			out_printf(out, "deleted %s: %u orphan chunk%s\n", cmd->var_name, chunks, chunks == 1 ? "" : "s");
		else if (chunks)
			out_printf(out, "deleted %s and its %u chunk%s\n", cmd->var_name, chunks, chunks == 1 ? "" : "s");
		else
			out_printf(out, "deleted %s\n", cmd->var_name);
		return UNC_OK;
	}
	size_t cap = 16u << 20, len;
	uint8_t *buf = env->alloc(cap);
	if (!buf) {
		out_printf(err, "uncore: error: out of memory\n");
		return UNC_E_NO_MEMORY;
	}
	if (cmd->verb == CLI_VAR_SHOW) {
		st = var_load(vs, cmd->var_name, buf, cap, &len, msg, sizeof(msg));
		if (!st)
			st = rec_print(out, buf, len, cmd->report.format, cmd->report.sep, cmd->var_name, &ws->print, msg,
				      sizeof(msg));
		if (st)
			out_printf(err, "uncore: error: %s: %s\n", cmd->var_name, msg);
		env->free(buf);
		return st;
	}
	/* list: every record under our GUID, chunks folded into their record;
	 * chunks that no record claims (a store or delete cut short) shown as
	 * orphans, so that `var delete NAME` can be asked to remove them */
	struct rec *r = &the_rec;
	size_t max = VAR_LIST_MAX, count;
	struct var_entry *e = env->alloc(max * sizeof(*e));
	if (!e) {
		env->free(buf);
		out_printf(err, "uncore: error: out of memory\n");
		return UNC_E_NO_MEMORY;
	}
	if ((st = var_entries(vs, e, max, &count, msg, sizeof(msg)))) {
		out_printf(err, "uncore: error: %s\n", msg);
		goto done;
	}
	unsigned n = 0, orphaned = 0, unusable = 0;
	out_printf(out, "%-24s %10s  %-8s %-19s  %s\n", "name", "bytes", "command", "stored", "events");
	for (size_t i = 0; i < count; i++) {
		if (e[i].unusable) {
			out_printf(out, "%-24s %10s  unusable: %s\n", e[i].name, "-", VAR_UNUSABLE_WHY);
			unusable++;
			continue;
		}
		if (e[i].present) {
			n++;
			if (var_load(vs, e[i].name, buf, cap, &len, msg, sizeof(msg)) ||
			    rec_decode(buf, len, r, NULL, NULL, msg, sizeof(msg))) {
				out_printf(out, "%-24s %10s  unreadable: %s\n", e[i].name, "-", msg);
			} else {
				char when[24] = "-";
				if (r->time.valid)
					rec_time_text(&r->time, when, sizeof(when));
				out_printf(out, "%-24s %10zu  %-8s %-19s  %u\n", e[i].name, len, r->command, when, r->nevents);
			}
		}
		unsigned orphans = var_orphans(vs, &e[i]);
		if (orphans) {
			out_printf(out, "%s (orphan chunks: %u)\n", e[i].name, orphans);
			orphaned++;
		}
	}
	out_printf(out, "%u record%s (vendor GUID " UNC_VAR_GUID_TEXT ")\n", n, n == 1 ? "" : "s");
	if (orphaned)
		out_printf(out, "orphan chunks are what a store or delete cut short left behind; `var delete NAME` removes them\n");
	if (unusable)
		out_printf(out, "%u variable%s under the GUID %s no record name; uncore.efi neither reads nor deletes %s\n",
			   unusable, unusable == 1 ? "" : "s", unusable == 1 ? "has" : "have", unusable == 1 ? "it" : "them");
done:
	env->free(e);
	env->free(buf);
	return st;
}

/* One stat or bw run, from its plan to its stored record. run_stat takes
 * it through four steps: plan (events, CPU, discovery, schedule, the
 * child's file, the SMBIOS peak), measure (the header, the load, the child
 * or the sampling loop), judge (verdicts, warnings, the report, what never
 * moved, the child's status) and store (-o). */
struct stat_ctx {
	const struct cli_cmd *cmd;
	const struct app_env *env;
	const struct hw *hw;
	const struct report_opts *ro;
	struct out *out, *err;
	bool bw;
	struct stat_run *run;
	struct run_extras x;     /* load, peak, check, child, warning */
	char child_cmd[2 * CLI_MAX_ARG_LEN + 64]; /* the child's command line, its file's full path first */
	struct rec_buf *samples; /* -o with -I: the interval samples */
	struct rec_sample *smp;  /* with samples: one being stored (from the pool) */
	uint32_t nevents;
	unsigned stored, dropped;
	bool load, load_marked;  /* --load: its byte count at the start of the window */
	uint64_t load_bytes0;
	enum unc_status tick_st; /* a child: the first failure of a timer sample */
	uint64_t max_bps;        /* the highest DRAM read+write rate of an interval */
};

static bool stat_wait(void *ctx, uint64_t when)
{
	struct stat_ctx *c = ctx;

	if (c->load && !c->load_marked) { /* the first wait follows the start of counting */
		c->load_bytes0 = c->env->load_bytes();
		c->load_marked = true;
	}
	return c->env->wait_until(c->env->ctx, when);
}

/* While a child runs: the counters are read on a timer, so that none wraps
 * unseen. The first failure is kept and ends the run afterwards. */
static void child_tick(void *ctx)
{
	struct stat_ctx *c = ctx;

	if (!c->tick_st)
		c->tick_st = stat_sample(c->run);
}

static void stat_interval(void *ctx, struct stat_run *r, uint64_t now)
{
	struct stat_ctx *c = ctx;
	uint64_t bps;

	if (report_dram_rate(&r->c, c->hw, true, now, &bps) && bps > c->max_bps)
		c->max_bps = bps;
	if (c->bw)
		report_bw_interval(c->out, c->ro, c->hw, &r->c, now);
	else
		report_interval(c->out, c->ro, c->hw, &r->c, now);
	if (c->samples && !c->samples->overflow) {
		size_t before = c->samples->len;
		rec_sample_from_run(c->smp, &r->c, now);
		rec_put_sample(c->samples, c->nevents, rec_run_boxes(&r->c), c->smp);
		if (c->samples->overflow)
			c->samples->len = before;
		else
			c->stored++;
	}
	if (c->samples && c->samples->overflow)
		c->dropped++;
}

/* Progress on a long run without -I: one ordinary line (no carriage
 * return: serial logs stay clean) every APP_PROGRESS_S seconds on standard
 * error, so -x and -j output never holds it. The rate is over the last
 * period (the marks are free: -I, their other user, excludes progress). */
static void stat_progress(void *ctx, struct stat_run *r, uint64_t now, unsigned k)
{
	struct stat_ctx *c = ctx;
	uint64_t ns = c->cmd->duration_ns, bps[3];
	char total[32];

	if (ns % 1000000000)
		fmt_fixed(total, sizeof(total), ns, 1000000000, 3);
	else
		fmt_snprintf(total, sizeof(total), "%lu", (unsigned long)(ns / 1000000000));
	out_printf(c->err, "%4u s of %s s: ", k * APP_PROGRESS_S, total);
	if (c->bw && report_dram_rates(&r->c, c->hw, true, now, bps)) {
		out_printf(c->err, "read %lu MB/s, write %lu MB/s", (unsigned long)((bps[0] + 500000) / 1000000),
			   (unsigned long)((bps[1] + 500000) / 1000000));
	} else {
		uint64_t milli = report_rate_milli(count_interval(&r->c, 0, -1, now), now - r->c.t_mark, c->hw->tick_hz);
		out_printf(c->err, "%s %lu/s", r->c.ev[0].name, (unsigned long)((milli + 500) / 1000));
	}
	out_printf(c->err, " (last %u s)\n", APP_PROGRESS_S);
	count_mark(&r->c, now);
}

/* A child (-- COMMAND), before anything runs: something the Shell can run
 * as a child must be there, or it is one line and nothing else. */
static enum unc_status child_ready(const struct cli_cmd *cmd, const struct app_env *env, char *ret_cmdline, size_t size,
				   struct out *err)
{
	char msg[300];
	enum unc_status st;

	if (!env || !env->child_find || !env->run_child) {
		out_printf(err, "uncore: error: cannot run a child image on this platform\n");
		return UNC_E_NOT_FOUND;
	}
	if ((st = env->child_find(env->ctx, cmd->child, ret_cmdline, size, msg, sizeof(msg))))
		out_printf(err, "uncore: error: %s\n", msg);
	return st;
}

/* A child that ran, judged after the report (whose child line has said what
 * it returned): a success or warning status is a good run; an error is the
 * run's failure, with the child's own status as the exit status (efi/main.c);
 * no status at all is not vouched for. */
static enum unc_status child_judge(const struct run_extras *x, struct out *err)
{
	uint64_t cs = (uint64_t)x->child_status_hi << 32 | x->child_status_lo;
	char hex[20];

	if (x->child_ran == CHILD_NO_STATUS) {
		out_printf(err, "uncore: error: the Shell gave no status for the child, so nothing vouches for its run\n");
		return UNC_E_DEVICE;
	}
	if (cs == 0) /* as the Shell does, any other status is a failure */
		return UNC_OK;
	out_printf(err, "uncore: error: the child failed with %s; the exit status is its own\n", efi_status_str(cs, hex));
	return UNC_E_CHILD;
}

static uint64_t ms_ticks(const struct hw *hw, uint64_t ms)
{
	return u64_muldiv(ms, hw->tick_hz, 1000);
}

/* Plan: the events (bw's five, -e, the DATA counters a load or a check
 * reads), the CPU, the MSR and IMC discovery, the schedule, the child's
 * file and the SMBIOS peak. Nothing is written to the hardware. A failure
 * in run->err is UNC_E_INVALID and the like; the caller prints it. */
static enum unc_status stat_plan(struct stat_ctx *c, bool *ret_run_err)
{
	const struct cli_cmd *cmd = c->cmd;
	struct stat_run *run = c->run;
	struct cpu_info cpu;
	char msg[200], warn[200];
	enum unc_status st;

	*ret_run_err = false;
	/* Events are looked up in the drivers this CPU has: on a CPU that has
	 * none, each is refused naming the PMU it needs. */
	cpu_detect(c->hw, &cpu);
	unsigned n = 0;
	if (cmd->verb == CLI_BW) {
		if ((st = want_role(run, 0, &n))) {
			*ret_run_err = true;
			return st;
		}
		if (!n) {
			out_printf(c->err, "uncore: error: no PMU of this CPU has DRAM counters: nothing for bw to read\n");
			return UNC_E_UNSUPPORTED;
		}
	}
	for (unsigned i = 0; i < cmd->nevents; i++) {
		struct ev_spec e;
		if ((st = evsel_parse(cmd->events[i], present, &e, msg, sizeof(msg)))) {
			out_printf(c->err, "uncore: error: %s\n", msg);
			return st;
		}
		*ret_run_err = true;
		if ((st = stat_add(run, &e)))
			return st;
		*ret_run_err = false;
	}
	/* the cross-check and the verdict read the DRAM counters */
	if (cmd->load_kind >= 0 || cmd->check) {
		unsigned nrd = 0, nwr = 0;
		if ((st = want_role(run, PMU_ROLE_DRAM_READ, &nrd)) || (st = want_role(run, PMU_ROLE_DRAM_WRITE, &nwr))) {
			*ret_run_err = true;
			return st;
		}
		/* a load without them runs without its cross-check; a check cannot */
		if (cmd->check && (!nrd || !nwr)) {
			out_printf(c->err, "uncore: error: a bandwidth check needs DRAM counters, which no PMU of this CPU "
					   "has\n");
			return UNC_E_UNSUPPORTED;
		}
	}
	bool dram = false;
	for (unsigned i = 0; i < run->c.nev; i++)
		dram |= evsel_role(&run->spec[i]) != PMU_ROLE_NONE;
	if ((st = stat_probe(run, c->hw, &cpu, warn, sizeof(warn)))) {
		out_printf(c->err, "uncore: error: %s\n", run->err);
		return st;
	}
	if (warn[0])
		out_printf(c->err, "uncore: warning: %s\n", warn);
	if ((st = stat_schedule(run, !cmd->no_multiplex))) {
		*ret_run_err = true;
		return st;
	}
	if (cmd->child[0] && run->c.ngroups > 1) {
		out_printf(c->err, "uncore: error: the events need %u rounds of counters; around a child they must fit "
				   "at once\n", run->c.ngroups);
		return UNC_E_INVALID;
	}
	if (cmd->child[0] && (st = child_ready(cmd, c->env, c->child_cmd, sizeof(c->child_cmd), c->err)))
		return st;
	/* The peak, for every run that measures DRAM data (bw, --load, checks,
	 * the DATA counters in -e): a figure above it cannot be right. */
	if (dram && c->env && c->env->smbios) {
		struct smbios_mem mem;
		char msg[200];
		if (c->env->smbios(&mem, msg, sizeof(msg)) == UNC_OK) {
			c->x.peak_mb_s = mem.peak_mb_s;
			fmt_snprintf(c->x.peak_note, sizeof(c->x.peak_note), "%s", mem.note);
		} else {
			fmt_snprintf(c->x.peak_note, sizeof(c->x.peak_note), "%s", msg);
		}
	}
	return UNC_OK;
}

/* Measure: the header, then the load (if any) and the child under a
 * sampling timer, or the sampling loop; the counters are restored when it
 * returns. UNC_E_ABORTED (ESC) keeps the counts so far. *ret_run_err says
 * whether a failure is explained in run->err. */
static enum unc_status stat_measure(struct stat_ctx *c, bool *ret_run_err)
{
	const struct cli_cmd *cmd = c->cmd;
	const struct app_env *env = c->env;
	const struct hw *hw = c->hw;
	struct stat_run *run = c->run;
	struct stat_env senv = { stat_wait, stat_interval, c, stat_progress };
	enum unc_status st;

	*ret_run_err = false;
	/* -d alone, or the default second; with -I: -d if given, else -n
	 * intervals, else until ESC. */
	struct stat_opts o = {
		.duration = cmd->duration_ns ? u64_muldiv(cmd->duration_ns, hw->tick_hz, 1000000000)
			    : cmd->interval_ms ? 0 : hw->tick_hz,
		.interval = cmd->interval_ms ? ms_ticks(hw, cmd->interval_ms) : 0,
		.max_intervals = cmd->max_intervals,
		.slice = ms_ticks(hw, APP_SLICE_MS),
		.sample = ms_ticks(hw, APP_SAMPLE_MS),
	};
	/* a run longer than one progress period, without -I (whose lines show it alive) */
	if (!cmd->quiet && !cmd->interval_ms && cmd->duration_ns > (uint64_t)APP_PROGRESS_S * 1000000000)
		o.progress = ms_ticks(hw, APP_PROGRESS_S * 1000);
	if (c->bw)
		report_bw_header(c->out, c->ro, hw, &run->c);
	else
		report_header(c->out, c->ro, hw, &run->c);
	if (cmd->load_kind >= 0) {
		char msg[200];
		uint32_t cpus;
		uint64_t size;
		if (!env || !env->load_start) {
			out_printf(c->err, "uncore: error: no load generator on this platform\n");
			return UNC_E_NOT_FOUND;
		}
		/* The default working set follows the largest cache, which CPUID
		 * leaf 4 gives through the seam (an emulator may override it). */
		if ((st = env->load_start(cmd->load_kind, cmd->load_nt, (uint64_t)cmd->load_size_mib << 20, cmd->load_cpus,
					  cpu_llc_bytes(hw), &cpus, &size, msg, sizeof(msg)))) {
			out_printf(c->err, "uncore: error: --load: %s\n", msg);
			return st;
		}
		/* Core PMUs count on the processor that runs uncore.efi (and its
		 * child), not on the load's other processors: the header says so. */
		bool core = false;
		for (unsigned i = 0; i < run->c.nev; i++)
			core |= ev_unit(&run->spec[i])->per_cpu;
		if (core && cpus > 1 && c->ro->format != REPORT_JSON)
			out_printf(c->out, "%score events count on the processor running uncore.efi only, not on the load's "
					   "other %u\n", c->ro->format == REPORT_CSV ? "# " : "", cpus - 1);
		c->x.core_one_cpu = core && cpus > 1; /* in the extras too: JSON and stored records */
		c->x.load_kind = (uint8_t)(cmd->load_kind + 1);
		c->x.load_nt = cmd->load_nt;
		c->x.load_cpus = cpus;
		c->x.load_size = size;
		c->load = true;
	}
	if (cmd->child[0]) {
		char msg[240];
		uint64_t cst = 0;
		bool known = false;
		if (!(st = stat_start(run, hw, cmd->force))) {
			enum unc_status cs = env->run_child(env->ctx, c->child_cmd, &cst, &known, APP_SAMPLE_MS, child_tick, c,
							    msg, sizeof(msg));
			st = stat_stop(run, c->tick_st);
			if (cs) {
				out_printf(c->err, "uncore: error: %s; the counters are stopped and restored\n", msg);
				st = cs;
				goto out;
			}
			c->x.child_ran = known ? CHILD_RAN : CHILD_NO_STATUS;
			fmt_snprintf(c->x.child, sizeof(c->x.child), "%s", cmd->child);
			c->x.child_status_lo = known ? (uint32_t)cst : 0;
			c->x.child_status_hi = known ? (uint32_t)(cst >> 32) : 0;
		}
	} else {
		st = stat_loop(run, hw, cmd->force, &o, &senv);
	}
	*ret_run_err = st && st != UNC_E_ABORTED;
out:
	if (c->load) {
		c->x.load_bytes = env->load_bytes() - c->load_bytes0;
		env->load_stop();
		c->load = false;
	}
	return st;
}

/* Each register that reads otherwise after it was put back, one note each
 * (after a failed run too). */
static void restore_notes(struct out *err, const struct stat_run *run)
{
	for (const char *l = run->restore_note; *l;) {
		const char *nl = strchr(l, '\n');
		int len = nl ? (int)(nl - l) : (int)strlen(l);
		out_printf(err, "uncore: note: %.*s\n", len, l);
		l += len + (nl != NULL);
	}
	if (run->restore_more)
		out_printf(err, "uncore: note: %u more registers read otherwise after they were put back\n",
			   run->restore_more);
}

/* Judge: the check's verdict, a figure above the SMBIOS peak, the report,
 * counters that never moved, the child's status, and the notes. Returns
 * the run's status, st (OK or UNC_E_ABORTED) or worse. */
static enum unc_status stat_judge(struct stat_ctx *c, enum unc_status st)
{
	const struct cli_cmd *cmd = c->cmd;
	const struct hw *hw = c->hw;
	struct stat_run *run = c->run;
	struct run_extras *x = &c->x;

	if (cmd->check) {
		uint64_t rd = 0, wr = 0, t = count_enabled(&run->c);
		if (!report_dram_bytes(&run->c, &rd, &wr)) { /* stat_plan added them: never without */
			out_printf(c->err, "uncore: error: the run has no DRAM counters to judge the check by\n");
			return UNC_E_INVALID;
		}
		uint64_t bytes = cmd->check == CHECK_TOTAL ? rd + wr : cmd->check == CHECK_READ ? rd : wr;
		x->check = cmd->check;
		x->check_required_kb_s = cmd->check_kb_s;
		/* kB/s rounded half up: the figure the bw table prints, so the
		 * verdict and the table never disagree in the last digit. */
		x->check_measured_kb_s = t ? (u64_muldiv(bytes, hw->tick_hz, t) + 500) / 1000 : 0;
		x->check_verdict = st == UNC_E_ABORTED ? VERDICT_NONE
				 : x->check_measured_kb_s >= x->check_required_kb_s ? VERDICT_PASS : VERDICT_FAIL;
	}
	/* 32-bit IMC counters that move 2^32 lines between two samples alias
	 * unseen; no DRAM moves data faster than its SMBIOS peak, so a figure
	 * above it is either aliased or the peak is wrong. */
	uint64_t bps = 0;
	bool measured = report_dram_rate(&run->c, hw, false, 0, &bps);
	if (c->max_bps > bps)
		bps = c->max_bps, measured = true;
	if (x->peak_mb_s && measured && bps / 1000000 > x->peak_mb_s) {
		char mb[32], up[16];
		fmt_fixed(mb, sizeof(mb), bps, 1000000, 3);
		fmt_snprintf(x->warning, sizeof(x->warning),
			     "read+write %s MB/s is above the SMBIOS peak of %lu MB/s: the %s counts may alias "
			     "(beyond %lu MB/s per counter) or the SMBIOS data is wrong",
			     mb, (unsigned long)x->peak_mb_s, count_free_upper(&run->c, up, sizeof(up)), (unsigned long)report_dram_max_mb_s(&run->c, APP_SAMPLE_MS));
	}
	/* Neither PASS nor FAIL rests on such a figure: an aliased count reads
	 * low, so the true one is higher still, and a wrong SMBIOS peak is
	 * for a person to look at, not for a verdict to hide. */
	if (x->warning[0] && x->check)
		x->check_verdict = VERDICT_NONE;
	if (c->bw)
		report_bw_final(c->out, c->ro, hw, &run->c, x);
	else
		report_final(c->out, c->ro, hw, &run->c, x);
	/* Counters that never moved: a DATA counter gives no bandwidth, a clock
	 * cannot stand still (the report notes the others, which may be idle). */
	for (unsigned i = 0; i < run->c.nev; i++) {
		const struct count_event *e = &run->c.ev[i];
		bool data = e->v.role != PMU_ROLE_NONE;
		if (!count_still(&run->c, i) || !(e->v.clock || (data && c->bw)))
			continue;
		if (data)
			out_printf(c->err, "uncore: error: %s did not change in the whole run: a stuck counter, or no "
					   "DRAM traffic at all; no bandwidth figure\n", e->name);
		else
			out_printf(c->err, "uncore: error: %s did not change in the whole run: it counts a clock, which never "
					   "stops while its PMU counts, so the counter is stuck; its count is no measurement\n",
				   e->name);
		if (!st)
			st = data ? UNC_E_DEVICE : UNC_E_STUCK;
	}
	if (x->child_ran && !st) /* before the check: a failed child's run is no test of bandwidth */
		st = child_judge(x, c->err);
	if (x->check && (x->check_verdict == VERDICT_FAIL || x->warning[0]) && !st) /* no pass either way */
		st = UNC_E_CHECK;
	if (run->any_in_use)
		out_printf(c->err, "uncore: note: the PMU was in use (--force); its registers are restored, "
				   "but what it counted during this run is lost\n");
	restore_notes(c->err, run);
	for (unsigned k = 0; k < run->npmu; k++)
		if (run->pmu[k].programs && run->pmu[k].p.drv->ops->notes)
			run->pmu[k].p.drv->ops->notes(c->err, &run->pmu[k].p, &run->pmu[k].s);
	if (st == UNC_E_ABORTED)
		out_printf(c->err, "uncore: stopped by ESC; the counts above cover the time until then\n");
	return st;
}

/* Store (-o): the record, with the interval samples kept during the run. */
static enum unc_status stat_store(struct stat_ctx *c, enum unc_status st)
{
	struct platform_info *pi = &ws->pi;

	if (c->dropped)
		out_printf(c->err, "uncore: note: only the first %u interval samples fit the %u-byte buffer; %u are not "
				   "stored\n", c->stored, APP_SAMPLE_BUF, c->dropped);
	info_gather_opt(c->hw, pi, !c->bw); /* bw reads no MSR, even here */
	return store_results(c->cmd, c->env, c->bw ? "bw" : "stat", pi, c->run, &c->x, c->samples, st, c->err);
}

static enum unc_status run_stat(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	static struct stat_ctx sc; /* large: off the firmware stack, as the_run */
	struct rec_buf samples = { 0 };
	bool run_err;
	enum unc_status st;

	the_run = (struct stat_run){ 0 };
	sc = (struct stat_ctx){ .cmd = cmd, .env = env, .hw = hw, .ro = &cmd->report, .out = out, .err = err,
				.bw = cmd->verb == CLI_BW, .run = &the_run };
	if ((st = stat_plan(&sc, &run_err)))
		goto out;
	if (wants_output(cmd, env) && cmd->interval_ms && env && env->alloc) {
		samples = (struct rec_buf){ env->alloc(APP_SAMPLE_BUF), 0, APP_SAMPLE_BUF, false };
		sc.smp = samples.p ? env->alloc(sizeof(*sc.smp)) : NULL;
		if (sc.smp) {
			memset(sc.smp, 0, sizeof(*sc.smp));
			sc.nevents = the_run.c.nev;
			sc.samples = &samples;
		}
	}
	st = stat_measure(&sc, &run_err);
	if (st && st != UNC_E_ABORTED)
		goto out;
	st = stat_judge(&sc, st);
	if (wants_output(cmd, env)) {
		enum unc_status sst = stat_store(&sc, st);
		if (!st)
			st = sst;
	}
out:
	if (st && run_err) {
		out_printf(err, "uncore: error: %s\n", the_run.err);
		restore_notes(err, &the_run);
	}
	if (samples.p)
		env->free(samples.p);
	if (sc.smp)
		env->free(sc.smp);
	return st;
}

static enum unc_status app_dispatch(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				    struct out *out, struct out *err)
{
	switch (cmd->verb) {
	case CLI_LIST:
	{
		struct cpu_info cpu;
		if (!cmd->list_all)
			cpu_detect(hw, &cpu); /* no driver: an empty list that says so */
		report_list(out, cmd->json, cmd->list_all ? pmu_drivers : present, cmd->list_all);
		return UNC_OK;
	}
	case CLI_REGS:
		return run_regs(hw, out, err);
	case CLI_STAT:
	case CLI_BW:
		return run_stat(cmd, hw, env, out, err);
	case CLI_BENCH:
		return run_bench(cmd, hw, out, err);
	case CLI_VAR_LIST:
	case CLI_VAR_SHOW:
	case CLI_VAR_DELETE:
		return run_var(cmd, env, out, err);
	case CLI_LAB: /* efi/main.c runs lab mode itself */
		out_printf(err, "uncore: error: lab mode is not available here\n");
		return UNC_E_UNSUPPORTED;
	case CLI_HELP:
		out_puts(out, cli_usage);
		return UNC_OK;
	case CLI_VERSION:
		out_printf(out, "uncore.efi %s\n", UNC_VERSION);
		return UNC_OK;
	case CLI_INFO: {
		struct platform_info *pi = &ws->pi;
		enum unc_status st = info_gather(hw, pi);
		if (cmd->json)
			info_print_json(out, pi);
		else
			info_print(out, pi);
		if (st)
			out_printf(err, "uncore: error: %s unusable: %s\n", info_what(pi), pi->verdict_reason);
		if (wants_output(cmd, env)) {
			enum unc_status sst = store_results(cmd, env, "info", pi, NULL, NULL, NULL, st, err);
			if (!st)
				st = sst;
		}
		return st;
	}
	case CLI_MSR_READ:
	case CLI_MSR_WRITE:
		return run_msr(cmd, hw, out, err);
	case CLI_PCI_READ:
		return run_pci(cmd, hw, out, err);
	case CLI_MMIO_READ:
		return run_mmio(cmd, hw, env, out, err);
	case CLI_PMC_READ:
		return run_pmc(cmd, hw, out, err);
	}
	return UNC_E_INVALID;
}

enum unc_status app_run(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env, struct out *out,
			struct out *err)
{
	if (!env || !env->alloc || !env->free) {
		out_printf(err, "uncore: error: no memory allocator on this platform\n");
		return UNC_E_NO_MEMORY;
	}
	if (!(ws = env->alloc(sizeof(*ws)))) {
		out_printf(err, "uncore: error: out of memory for %zu bytes of work space\n", sizeof(*ws));
		return UNC_E_NO_MEMORY;
	}
	memset(ws, 0, sizeof(*ws));
	enum unc_status st = app_dispatch(cmd, hw, env, out, err);
	env->free(ws);
	ws = NULL;
	return st;
}
