/* The engine. It knows units, address spaces and ops (pmu.h), never a
 * particular PMU. This room: the run's register access (one read or write
 * in a register's space, and the error line that names it), the access the
 * drivers' ops get (struct pmu_io), and the run's loop; the other rooms are
 * listed in stat.md. */
#include "stat_int.h"

#include "../base/fmt.h"

UNC_COLD enum unc_status fail(struct stat_run *r, enum unc_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return st;
}

/* "NAME (0x706)": the driver's name for the register, then its address */
UNC_COLD const char *reg_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size)
{
	char name[48], addr[32];

	fmt_snprintf(buf, size, "%s (%s)", pmu_reg_name(drv_of(r, k), &r->pmu[k].p, reg, name, sizeof(name)),
		     pmu_reg_addr(reg, addr, sizeof(addr)));
	return buf;
}

/* "0x706 (NAME)": after an instruction's name */
UNC_COLD const char *addr_text(const struct stat_run *r, unsigned k, struct pmu_reg reg, char *buf, size_t size)
{
	char name[48], addr[32];

	fmt_snprintf(buf, size, "%s (%s)", pmu_reg_addr(reg, addr, sizeof(addr)),
		     pmu_reg_name(drv_of(r, k), &r->pmu[k].p, reg, name, sizeof(name)));
	return buf;
}

/* One access in the register's address space; PCI and MMIO are 32 bits. */
enum unc_status raw_read(const struct hw *hw, struct pmu_reg reg, uint64_t *v)
{
	uint32_t x;
	enum unc_status st;

	switch (reg.space) {
	case PMU_MSR:
		return pmu_msr_read(hw, reg, v);
	case PMU_PCI:
		if ((st = hw_pci_read32(hw, reg.pci, (uint16_t)reg.addr, &x)) == UNC_OK)
			*v = x;
		return st;
	default:
		if ((st = hw_mmio_read32(hw, reg.addr, &x)) == UNC_OK)
			*v = x;
		return st;
	}
}

enum unc_status raw_write(const struct hw *hw, struct pmu_reg reg, uint64_t v)
{
	switch (reg.space) {
	case PMU_MSR:
		return pmu_msr_write(hw, reg, v);
	case PMU_PCI:
		if (v >> 32)
			return UNC_E_RANGE;
		return hw_pci_write32(hw, reg.pci, (uint16_t)reg.addr, (uint32_t)v);
	default:
		if (v >> 32)
			return UNC_E_RANGE;
		return hw_mmio_write32(hw, reg.addr, (uint32_t)v);
	}
}

const char *op_name(struct pmu_reg reg, bool write)
{
	if (reg.space == PMU_MSR)
		return write ? "wrmsr" : "rdmsr";
	if (reg.space == PMU_PCI)
		return write ? "PCI write" : "PCI read";
	return write ? "MMIO write" : "MMIO read";
}

UNC_COLD __attribute__((noinline)) enum unc_status rd_failed(struct stat_run *r, unsigned k, struct pmu_reg reg,
							     enum unc_status st)
{
	char what[96];

	return fail(r, st, "%s %s: %s", op_name(reg, false), addr_text(r, k, reg, what, sizeof(what)),
		    unc_strerror(st));
}

enum unc_status rd(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t *v)
{
	enum unc_status st = raw_read(r->hw, reg, v);

	return st ? rd_failed(r, k, reg, st) : UNC_OK;
}

/* ---- the access the drivers' ops get (pmu.h) ---- */

static enum unc_status io_read(struct pmu_io *io, struct pmu_reg reg, uint64_t *v)
{
	return rd(io->run, io->pmu, reg, v);
}

static enum unc_status io_write(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	return wr(io->run, io->pmu, reg, v, false);
}

static enum unc_status io_write_nosave(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	struct stat_run *r = io->run;
	char what[96];
	enum unc_status st = raw_write(r->hw, reg, v);

	if (st)
		return fail(r, st, "%s %s value 0x%lx: %s", op_name(reg, true), addr_text(r, io->pmu, reg, what, sizeof(what)),
			    (unsigned long)v, unc_strerror(st));
	return UNC_OK;
}

/* Reads back what was just written. Some platforms drop writes to these
 * registers without a fault (QEMU does; a locked PMU might): counting
 * there would report zeros as if they were measurements. */
UNC_COLD enum unc_status check_reads(struct stat_run *r, unsigned k, struct pmu_reg reg, uint64_t want)
{
	char what[96];
	uint64_t v;
	enum unc_status st = rd(r, k, reg, &v);

	if (st)
		return st;
	if (v != want)
		return fail(r, UNC_E_DEVICE, "%s reads 0x%lx after writing 0x%lx: the %s ignored the programming",
			    reg_text(r, k, reg, what, sizeof(what)), (unsigned long)v, (unsigned long)want,
			    drv_of(r, k)->what);
	return UNC_OK;
}

UNC_COLD static enum unc_status io_write_check(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	enum unc_status st = io_write(io, reg, v);

	return st ? st : check_reads(io->run, io->pmu, reg, v);
}

UNC_COLD static enum unc_status io_vfail(struct pmu_io *io, enum unc_status st, const char *fmt, va_list ap)
{
	struct stat_run *r = io->run;

	fmt_vsnprintf(r->err, sizeof(r->err), fmt, ap);
	return st;
}

UNC_COLD static enum unc_status io_set_found(struct pmu_io *io, struct pmu_reg reg, uint64_t v)
{
	struct stat_saved *s;
	enum unc_status st = save(io->run, io->pmu, reg, false, &s);

	if (!st)
		s->value = v, s->dirty = true;
	return st;
}

const struct pmu_io_ops io_ops = { io_read, io_write, io_write_nosave, io_write_check, io_vfail, io_set_found };

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

enum unc_status stat_loop(struct stat_run *r, const struct hw *hw, bool force, const struct stat_opts *o,
			  const struct stat_env *env)
{
	enum unc_status st = stat_start(r, hw, force);
	unsigned intervals = 0;

	if (st)
		return st;
	uint64_t t0 = r->c.t_start, never = UINT64_MAX;
	uint64_t end = o->duration ? t0 + o->duration : never;
	uint64_t next_iv = o->interval ? t0 + o->interval : never;
	uint64_t next_rot = r->c.ngroups > 1 ? t0 + o->slice : never;
	uint64_t next_prog = o->progress && env->on_progress ? t0 + o->progress : never;
	uint64_t last_iv = 0; /* the run's last interval: its boundary; reported after the run's last read */
	unsigned progress = 0;

	for (;;) {
		uint64_t next_sample = r->t_sample + o->sample;
		if (env->wait_until(env->ctx, min3(end, next_iv, min3(next_rot, next_sample, next_prog)))) {
			st = fail(r, UNC_E_ABORTED, "stopped by the user");
			break;
		}
		uint64_t now = hw_ticks(hw);
		if (now >= next_rot) {
			if ((st = stat_rotate(r)))
				break;
			next_rot = next_slice(r, next_rot + o->slice, end == never ? 0 : end, o->slice);
		} else if ((st = stat_sample(r))) {
			break;
		}
		if (now >= next_iv) {
			if (now >= end || (o->max_intervals && intervals + 1 >= o->max_intervals)) {
				last_iv = next_iv;
				break;
			}
			if (env->on_interval)
				env->on_interval(env->ctx, r, r->t_sample);
			count_mark(&r->c, r->t_sample);
			next_iv += o->interval;
			intervals++;
		}
		if (now >= end) { /* before the next boundary: a shorter last interval */
			last_iv = o->interval ? next_iv : 0;
			break;
		}
		if (now >= next_prog) { /* never at the end: the report follows */
			env->on_progress(env->ctx, r, r->t_sample, ++progress);
			next_prog += o->progress;
		}
	}
	/* On ESC the counts so far are still good: sample them before the
	 * restore, and report the abort. */
	if (st == UNC_E_ABORTED) {
		r->edge = r->edge_last = true;
		enum unc_status sst = stat_sample(r);
		r->edge = r->edge_last = false;
		return restore(r, sst ? sst : UNC_E_ABORTED);
	}
	st = stat_stop(r, st);
	/* The last interval ends where the totals do, so the intervals add up
	 * to them; one that ends before its boundary is marked shorter. */
	if (!st && last_iv && env->on_interval && r->t_sample > r->c.t_mark) {
		r->c.iv_short = r->t_sample < last_iv;
		env->on_interval(env->ctx, r, r->t_sample);
		count_mark(&r->c, r->t_sample);
		r->c.iv_short = false;
	}
	return st;
}
