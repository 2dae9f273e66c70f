/* The emulator's core PMU tables (tests/emu/pmu_p6.c, pmu_knc.c,
 * pmu_arch.c) against literals typed from their specifications: the MMX
 * Technology Developer's Guide, chapter 6,
 * and the SDM's P6 chapter, Intel 327357-001, and the SDM's
 * architectural PMU with CPUID leaf 0xA. Each is served beside the
 * Skylake-client uncore (emu_init_cpu), chosen by the CPU identity or the
 * options. */
#include <string.h>

#include "../../drivers/base/fmt.h"
#include "../emu/model.h"
#include "t.h"

#define S 1000000000ull /* ns */
#define OS (1ull << 17)
#define USR (1ull << 16)
#define EN (1ull << 22)
#define P6_ID 0x00000673u  /* family 6 model 7 (pentium3) */
#define KNC_ID 0x00000B10u /* family 0xB model 1 */
#define SKL_ID 0x000506E3u /* family 6 model 0x5E */

static struct emu e, core;

static void start(uint32_t id, int argc, char **argv)
{
	struct emu_config cfg;
	char err[200];

	T_EQ(emu_parse_options(argc, argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_init_cpu(&e, &core, &cfg, id);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = 0xdead;
	T_EQ(emu_msr_read(&e, msr, &v), UNC_OK);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	T_EQ(emu_msr_write(&e, msr, v), UNC_OK);
}

static enum unc_status wr_st(uint32_t msr, uint64_t v)
{
	return emu_msr_write(&e, msr, v);
}

static enum unc_status rd_st(uint32_t msr)
{
	uint64_t v;
	return emu_msr_read(&e, msr, &v);
}

/* Every table's bits: each bit of a register is exactly one of writable,
 * RW1C, reserved, or (read-only, or above a sign-extended counter's width)
 * none; no address answers twice; each counter has one value register (an
 * alias aside) and, for general counters, one control. */
static void check_table(const struct emu_pmu *p)
{
	unsigned values[EMU_MSR_CTRS] = { 0 };

	for (unsigned r = 0; r < p->nregs; r++) {
		const struct emu_reg *a = &p->regs[r];
		T_ASSERT(a->name && a->n >= 1 && a->stride >= 1);
		T_EQ(a->writable & a->rw1c, 0);
		T_EQ(a->writable & a->reserved, 0);
		T_EQ(a->rw1c & a->reserved, 0);
		if (a->read_only)
			T_EQ(a->writable | a->rw1c, 0);
		else if (a->sext)
			T_EQ(a->writable | a->rw1c | a->reserved, (1ull << a->width) - 1);
		else
			T_EQ(a->writable | a->rw1c | a->reserved, ~0ull);
		if (a->kind == EMU_REG_COUNTER && !a->alias)
			for (unsigned i = 0; i < a->n; i++)
				values[a->ctr + i]++;
		for (unsigned q = 0; q < r; q++) {
			const struct emu_reg *b = &p->regs[q];
			for (unsigned i = 0; i < a->n; i++)
				for (unsigned j = 0; j < b->n; j++)
					T_ASSERT(a->msr + i * a->stride != b->msr + j * b->stride);
		}
	}
	for (unsigned c = 0; c < p->nctr; c++)
		T_EQ(values[c], 1);
}

static void tables_are_consistent(void)
{
	struct emu_config cfg;

	emu_config_default(&cfg);
	check_table(&emu_pmu_p6);
	check_table(&emu_pmu_knc);
	check_table(emu_pmu_arch(&cfg));
	cfg.arch = (struct emu_arch_shape){ 2, 8, 40, 3, 40 };
	check_table(emu_pmu_arch(&cfg));
}

static void identity_selects_the_table(void)
{
	/* the P6 models of family 6 (MMX Developer's Guide, ch. 6); KNC is family 0xB model 1 */
	static const unsigned p6_models[] = { 1, 3, 5, 6, 7, 8, 0xA, 0xB };
	for (unsigned i = 0; i < 8; i++)
		T_EQ(emu_core_for(0x600 | p6_models[i] << 4), EMU_CORE_P6);
	T_EQ(emu_core_for(0x6D0), EMU_CORE_NONE);  /* Pentium M */
	/* the Skylake-client models: the architectural PMU (extended model) */
	static const uint32_t skl_ids[] = { 0x406E3, SKL_ID, 0x806E9, 0x906EA, 0xA0655, 0xA0661 };
	for (unsigned i = 0; i < 6; i++)
		T_EQ(emu_core_for(skl_ids[i]), EMU_CORE_ARCH);
	T_EQ(emu_core_for(0x10670), EMU_CORE_NONE); /* model 0x17 */
	T_EQ(emu_core_for(KNC_ID), EMU_CORE_KNC);
	T_EQ(emu_core_for(0xB20), EMU_CORE_NONE);

	/* Skylake without options: its architectural PMU beside the uncore,
	 * version 4, 4 general and 3 fixed counters of 48 bits (leaf 0xA EAX
	 * 0x07300404, EDX 0x603), RDPMC, 0x186 the model's */
	struct emu_cpuid c;
	uint64_t v;
	start(SKL_ID, 1, (char *[]){ "emu" });
	T_EQ(e.cfg.core_active, EMU_CORE_ARCH);
	T_ASSERT(emu_cpuid(&e.cfg, 0xA, 0, &c));
	T_EQ(c.eax, 0x07300404);
	T_EQ(c.edx, 0x603);
	T_EQ(emu_rdpmc(&e, 0, &v), UNC_OK);
	T_EQ(emu_rdpmc(&e, 1u << 30 | 2, &v), UNC_OK); /* fixed counter 2 */
	T_EQ(emu_msr_read(&e, 0x186, &v), UNC_OK);
	T_EQ(rd(0x396), 5); /* the uncore unchanged */
	/* --core-pmu none: the uncore alone (no leaf 0xA, no RDPMC, 0x186 not
	 * the model's) */
	start(SKL_ID, 3, (char *[]){ "emu", "--core-pmu", "none" });
	T_EQ(e.cfg.core_active, EMU_CORE_NONE);
	T_ASSERT(!emu_cpuid(&e.cfg, 0xA, 0, &c));
	T_EQ(emu_rdpmc(&e, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_msr_read(&e, 0x186, &v), UNC_E_NOT_FOUND);
	T_EQ(rd(0x396), 5);
	/* --core-pmu names one on any identity; none turns it off */
	start(SKL_ID, 3, (char *[]){ "emu", "--core-pmu", "knc" });
	T_EQ(e.cfg.core_active, EMU_CORE_KNC);
	start(P6_ID, 3, (char *[]){ "emu", "--core-pmu", "none" });
	T_EQ(e.cfg.core_active, EMU_CORE_NONE);
	/* --arch-pmu selects the architectural PMU */
	start(P6_ID, 3, (char *[]){ "emu", "--arch-pmu", "2,2,40,3,40" });
	T_EQ(e.cfg.core_active, EMU_CORE_ARCH);
}

/* P6: registers, the EN quirk, counting at the rate, the 40-bit wrap of a
 * sign-extended write, the counter restrictions, RDPMC. */
static void p6(void)
{
	uint64_t v;

	start(P6_ID, 7,
	      (char *[]){ "emu", "--rate", "INST_RETIRED=100M", "--rate", "L2_LD.M=3M", "--rate", "L2_LD.S=1M" });
	T_EQ(e.cfg.core_active, EMU_CORE_P6);
	/* PerfEvtSel0 0x186, PerfEvtSel1 0x187: bit 21 reserved in both, EN
	 * (22) only in PerfEvtSel0; 63:32 reserved */
	wr(0x186, 0xFFDFFFFF);
	T_EQ(rd(0x186), 0xFFDFFFFF);
	T_EQ(wr_st(0x186, 1ull << 21), UNC_E_FAULT);
	T_EQ(wr_st(0x186, 1ull << 32), UNC_E_FAULT);
	T_EQ(wr_st(0x187, EN), UNC_E_FAULT);
	T_EQ(wr_st(0x187, 1ull << 21), UNC_E_FAULT);
	wr(0x187, 0xFF9FFFFF);
	T_EQ(rd(0x187), 0xFF9FFFFF);
	T_EQ(rd_st(0x188), UNC_E_NOT_FOUND);
	/* PerfCtr0/1 0xC1/0xC2: 32 bits written, sign-extended to 40 */
	wr(0xC1, 0xFFFFFFFFFFFFFFF0ull);
	T_EQ(rd(0xC1), 0xFFFFFFFFF0ull);
	wr(0xC2, 0x1234567890ull); /* bits 63:32 ignored */
	T_EQ(rd(0xC2), 0x34567890ull);
	wr(0xC2, 0);

	/* INST_RETIRED (C0) on counter 1, L2_LD (29) with umask M|S on
	 * counter 0: nothing counts until PerfEvtSel0.EN */
	wr(0xC1, 0);
	wr(0x186, OS | USR | 0x0A29);
	wr(0x187, OS | USR | EN * 0 | 0x00C0);
	emu_set_time(&e, 1 * S);
	T_EQ(rd(0xC1), 0);
	T_EQ(rd(0xC2), 0);
	wr(0x186, OS | USR | EN | 0x0A29); /* EN in PerfEvtSel0 enables both */
	emu_set_time(&e, 2 * S);
	T_EQ(rd(0xC1), 4000000); /* M + S */
	T_EQ(rd(0xC2), 100000000);
	T_EQ(emu_rdpmc(&e, 1, &v), UNC_OK);
	T_EQ(v, 100000000);
	T_EQ(emu_rdpmc(&e, 2, &v), UNC_E_FAULT);
	/* USR alone counts nothing at CPL 0 */
	wr(0x187, USR | 0x00C0);
	emu_set_time(&e, 3 * S);
	T_EQ(rd(0xC2), 100000000);

	/* The 40-bit wrap: -100M written (sign-extended), 1 s at 100M/s */
	wr(0x187, OS | 0x00C0);
	wr(0xC2, (uint32_t)-100000000);
	T_EQ(rd(0xC2), (1ull << 40) - 100000000);
	emu_set_time(&e, 4 * S + S / 2);
	T_EQ(rd(0xC2), 50000000);

	/* Restrictions: FLOPS (C1) counts on counter 0 only, MUL (12) on 1 */
	start(P6_ID, 5, (char *[]){ "emu", "--rate", "FLOPS=7M", "--rate", "MUL=5M" });
	wr(0x186, OS | EN | 0x00C1);
	wr(0x187, OS | 0x00C1);
	emu_set_time(&e, 1 * S);
	T_EQ(rd(0xC1), 7000000);
	T_EQ(rd(0xC2), 0);
	wr(0xC1, 0);
	wr(0xC2, 0);
	wr(0x186, OS | EN | 0x0012);
	wr(0x187, OS | 0x0012);
	emu_set_time(&e, 2 * S);
	T_EQ(rd(0xC1), 0);
	T_EQ(rd(0xC2), 5000000);
}

static void p6_cycles_and_rates(void)
{
	char err[200];
	struct emu_config cfg;

	/* CPU_CLK_UNHALTED (79) counts the core clock its rate sets */
	start(P6_ID, 3, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=500M" });
	wr(0x186, OS | EN | 0x0079);
	emu_set_time(&e, 2 * S);
	T_EQ(rd(0xC1), 1000000000);
	/* CMASK 2 with 3M/s spread on a 500 MHz clock: no cycle has two */
	start(P6_ID, 5, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=500M", "--rate", "INST_RETIRED=3M" });
	wr(0x186, OS | EN | 2ull << 24 | 0x00C0);
	emu_set_time(&e, S);
	T_EQ(rd(0xC1), 0);
	/* The sum view of MESI takes no rate; names are case-insensitive and
	 * given once */
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--rate", "L2_LD.MESI=1M" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "L2_LD.MESI counts the sum of its states: give the rate of each (L2_LD.M, .E, .S, .I)");
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--rate", "bus_tran_any.self=1M", "--rate", "BUS_TRAN_ANY.SELF=2M" },
			       &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--rate for BUS_TRAN_ANY.SELF given twice");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--rate", "NO_SUCH_EVENT=1" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "unknown event 'NO_SUCH_EVENT' in --rate");
	/* BUS_TRAN_ANY.SELF (70/00) and .ANY (70/20) are separate rates */
	start(P6_ID, 5, (char *[]){ "emu", "--rate", "BUS_TRAN_ANY.SELF=1M", "--rate", "BUS_TRAN_ANY.ANY=3M" });
	wr(0x186, OS | EN | 0x2070);
	wr(0x187, OS | 0x0070);
	emu_set_time(&e, S);
	T_EQ(rd(0xC1), 3000000);
	T_EQ(rd(0xC2), 1000000);
}

/* Knights Corner: Table 1-2's registers, the read-only status, the
 * write-only overflow control, SPFLT, counting, 40-bit wraps, RDPMC. */
static void knc(void)
{
	uint64_t v;

	start(KNC_ID, 7,
	      (char *[]){ "emu", "--rate", "INSTRUCTIONS_EXECUTED=200M", "--rate", "VPU_ELEMENTS_ACTIVE=50M", "--rate",
			  "CPU_CLK_UNHALTED=1G" });
	T_EQ(e.cfg.core_active, EMU_CORE_KNC);
	/* selects 0x28/0x29: bit 19 and 63:32 reserved */
	wr(0x28, 0xFFF7FFFF);
	T_EQ(rd(0x28), 0xFFF7FFFF);
	T_EQ(wr_st(0x29, 1ull << 19), UNC_E_FAULT);
	T_EQ(wr_st(0x29, 1ull << 32), UNC_E_FAULT);
	wr(0x28, 0);
	/* counters 0x20/0x21: all 40 bits written, 63:40 reserved */
	wr(0x20, 0xFFFFFFFFFFull);
	T_EQ(rd(0x20), 0xFFFFFFFFFFull);
	T_EQ(wr_st(0x21, 1ull << 40), UNC_E_FAULT);
	/* SPFLT 0x2C: bits 63, 1, 0 */
	wr(0x2C, (1ull << 63) | 3);
	T_EQ(rd(0x2C), (1ull << 63) | 3);
	T_EQ(wr_st(0x2C, 4), UNC_E_FAULT);
	wr(0x2C, 0);
	/* STATUS 0x2D read-only; OVF_CTRL 0x2E write-only; GLOBAL_CTRL 0x2F bits 1:0 */
	T_EQ(rd(0x2D), 0);
	T_EQ(wr_st(0x2D, 0), UNC_E_FAULT);
	T_EQ(rd_st(0x2E), UNC_E_FAULT);
	wr(0x2E, 3);
	T_EQ(wr_st(0x2E, 4), UNC_E_FAULT);
	T_EQ(wr_st(0x2F, 4), UNC_E_FAULT);
	/* unlisted addresses in 0x20-0x2F are #GP; 0x30 is not the PMU's */
	T_EQ(rd_st(0x22), UNC_E_FAULT);
	T_EQ(rd_st(0x2A), UNC_E_FAULT);
	T_EQ(rd_st(0x30), UNC_E_NOT_FOUND);

	/* INSTRUCTIONS_EXECUTED: umask 0x00 event 0x16; VPU_ELEMENTS_ACTIVE:
	 * umask 0x20 event 0x18. Counting needs EN and the global bit. */
	wr(0x20, (1ull << 40) - 100000000);
	wr(0x28, OS | EN | 0x0016);
	wr(0x29, OS | EN | 0x2018);
	emu_set_time(&e, S);
	T_EQ(rd(0x20), (1ull << 40) - 100000000);
	wr(0x2F, 0x1);
	emu_set_time(&e, 2 * S);
	T_EQ(rd(0x20), 100000000); /* wrapped at 40 bits */
	T_EQ(rd(0x21), 0);
	T_EQ(rd(0x2D), 0x1);
	wr(0x2F, 0x3);
	emu_set_time(&e, 3 * S);
	T_EQ(rd(0x21), 50000000);
	T_EQ(emu_rdpmc(&e, 0, &v), UNC_OK);
	T_EQ(v, 300000000);
	T_EQ(emu_rdpmc(&e, 2, &v), UNC_E_FAULT);
	wr(0x2E, 0x1); /* clears status bit 0 */
	T_EQ(rd(0x2D), 0);
	/* SPFLT: counter 1 under SPFLT control counts only with USER_PREF */
	wr(0x2C, 0x2);
	emu_set_time(&e, 4 * S);
	T_EQ(rd(0x21), 50000000);
	wr(0x2C, (1ull << 63) | 0x2);
	emu_set_time(&e, 5 * S);
	T_EQ(rd(0x21), 100000000);
	/* CPU_CLK_UNHALTED: umask 0x00 event 0x2A, at the clock */
	wr(0x20, 0);
	wr(0x28, OS | EN | 0x002A);
	emu_set_time(&e, 6 * S);
	T_EQ(rd(0x20), 1000000000);
}

/* The architectural PMU: leaf 0xA, registers by version and counts, the
 * full-width aliases, GLOBAL_CTRL, fixed counters, 48-bit wraps, RDPMC. */
static void arch(void)
{
	struct emu_cpuid c;
	uint64_t v;

	start(SKL_ID, 9,
	      (char *[]){ "emu", "--core-pmu", "arch", "--rate", "INST_RETIRED.ANY=300M", "--rate",
			  "CPU_CLK_UNHALTED.THREAD=1G", "--rate", "LONGEST_LAT_CACHE.MISS=2M" });
	T_EQ(e.cfg.core_active, EMU_CORE_ARCH);
	/* leaf 1 as the guest sees it, served again with PDCM (ECX bit 15),
	 * since the architectural PMU serves IA32_PERF_CAPABILITIES */
	T_ASSERT(!emu_cpuid(&e.cfg, 1, 0, &c));
	emu_core_leaf1(&e, SKL_ID, 0x100800, 0x7ffafbbf & ~(1u << 15), 0xbfebfbff);
	T_ASSERT(emu_cpuid(&e.cfg, 1, 0, &c));
	T_EQ(c.eax, SKL_ID);
	T_EQ(c.ecx, 0x7ffafbbf);
	T_EQ(c.edx, 0xbfebfbff);
	/* default leaf 0xA: version 4, 4 x 48-bit, 7 events, 3 fixed x 48-bit */
	T_ASSERT(emu_cpuid(&e.cfg, 0xA, 0, &c));
	T_EQ(c.eax, 0x07300404);
	T_EQ(c.ebx, 0);
	T_EQ(c.edx, 0x603);
	/* IA32_PERF_CAPABILITIES bit 13 */
	T_EQ(rd(0x345), 0x2000);
	T_EQ(wr_st(0x345, 0x2000), UNC_E_FAULT);
	/* selects 0x186-0x189, counters 0xC1-0xC4 and 0x4C1-0x4C4; 0x18A, 0xC5, 0x4C5 absent */
	wr(0x189, 0xFFFFFFFF);
	T_EQ(rd(0x189), 0xFFFFFFFF);
	T_EQ(wr_st(0x186, 1ull << 32), UNC_E_FAULT);
	T_EQ(rd_st(0x18A), UNC_E_FAULT);
	T_EQ(rd_st(0xC5), UNC_E_FAULT);
	T_EQ(rd_st(0x4C5), UNC_E_FAULT);
	wr(0x189, 0);
	/* legacy write: EAX sign-extended, at 48 bits */
	wr(0xC1, 0x80000000);
	T_EQ(rd(0xC1), 0xFFFF80000000ull);
	T_EQ(rd(0x4C1), 0xFFFF80000000ull);
	/* full-width write; bits above 48 reserved there */
	wr(0x4C2, 0x123456789ABCull);
	T_EQ(rd(0xC2), 0x123456789ABCull);
	T_EQ(wr_st(0x4C2, 1ull << 48), UNC_E_FAULT);
	/* FIXED_CTR_CTRL 0x38D: 4 bits per counter (v4: AnyThread too), 3 counters */
	wr(0x38D, 0xFFF);
	T_EQ(rd(0x38D), 0xFFF);
	T_EQ(wr_st(0x38D, 0x1000), UNC_E_FAULT);
	wr(0x38D, 0);
	/* GLOBAL_CTRL 0x38F: bits 3:0 and 34:32 */
	T_EQ(wr_st(0x38F, 1ull << 4), UNC_E_FAULT);
	T_EQ(wr_st(0x38F, 1ull << 35), UNC_E_FAULT);
	/* GLOBAL_STATUS 0x38E read-only; OVF_CTRL 0x390 clears */
	T_EQ(wr_st(0x38E, 0), UNC_E_FAULT);
	T_EQ(rd(0x390), 0);
	T_EQ(rd_st(0x30C), UNC_E_NOT_FOUND);
	T_EQ(rd_st(0x391), UNC_E_NOT_FOUND);

	/* counting: INST_RETIRED.ANY_P (C0/00) on PMC0 from -100M, LLC miss
	 * (2E/41) on PMC1, fixed 0 and 1; EN alone is not enough */
	wr(0x4C1, (1ull << 48) - 100000000);
	wr(0xC2, 0);
	wr(0x186, OS | EN | 0x00C0);
	wr(0x187, OS | EN | 0x412E);
	wr(0x38D, 0x011); /* fixed 0 and 1: OS */
	emu_set_time(&e, S);
	T_EQ(rd(0xC2), 0);
	wr(0x38F, 0x300000003ull);
	emu_set_time(&e, 2 * S);
	T_EQ(rd(0xC1), 200000000); /* wrapped at 48 bits */
	T_EQ(rd(0xC2), 2000000);
	T_EQ(rd(0x309), 300000000);
	T_EQ(rd(0x30A), 1000000000);
	T_EQ(rd(0x30B), 0);
	T_EQ(rd(0x38E), 0x1);
	wr(0x390, 0x1);
	T_EQ(rd(0x38E), 0);
	/* RDPMC: ECX[30] for the fixed counters */
	T_EQ(emu_rdpmc(&e, 1, &v), UNC_OK);
	T_EQ(v, 2000000);
	T_EQ(emu_rdpmc(&e, (1u << 30) | 1, &v), UNC_OK);
	T_EQ(v, 1000000000);
	T_EQ(emu_rdpmc(&e, 4, &v), UNC_E_FAULT);
	T_EQ(emu_rdpmc(&e, (1u << 30) | 3, &v), UNC_E_FAULT);
	T_EQ(emu_rdpmc(&e, 1u << 31, &v), UNC_E_FAULT);
	/* the uncore beside it is unchanged */
	T_EQ(rd(0x396), 5);
}

static void arch_shapes(void)
{
	struct emu_cpuid c;
	char err[200];
	struct emu_config cfg;

	/* version 2, two 40-bit counters, one 40-bit fixed, no full-width */
	start(SKL_ID, 5, (char *[]){ "emu", "--arch-pmu", "2,2,40,1,40", "--perf-capabilities", "0" });
	T_ASSERT(emu_cpuid(&e.cfg, 0xA, 0, &c));
	T_EQ(c.eax, 0x07280202);
	T_EQ(c.edx, (40u << 5) | 1);
	T_EQ(rd(0x345), 0);
	T_EQ(rd_st(0x4C1), UNC_E_FAULT);
	T_EQ(rd_st(0x188), UNC_E_FAULT);
	T_EQ(rd_st(0x30A), UNC_E_FAULT);
	T_EQ(wr_st(0x186, 1ull << 21), UNC_E_FAULT); /* AnyThread from version 3 */
	T_EQ(wr_st(0x38D, 0x4), UNC_E_FAULT);
	wr(0xC1, 0x7FFFFFFF);
	T_EQ(rd(0xC1), 0x7FFFFFFF);
	/* version 1: no fixed counters, no global registers; EN alone counts */
	start(SKL_ID, 5, (char *[]){ "emu", "--arch-pmu", "1,2,40,0,40", "--rate", "INST_RETIRED.ANY_P=1M" });
	T_ASSERT(emu_cpuid(&e.cfg, 0xA, 0, &c));
	T_EQ(c.eax, 0x07280201);
	T_EQ(c.edx, 0);
	T_EQ(rd_st(0x38F), UNC_E_FAULT);
	T_EQ(rd_st(0x309), UNC_E_FAULT);
	wr(0x186, OS | EN | 0xC0);
	emu_set_time(&e, S);
	T_EQ(rd(0xC1), 1000000);
	/* bad shapes and combinations */
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--arch-pmu", "5,4,48,3,48" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad VERSION '5' in --arch-pmu '5,4,48,3,48' (want 1 to 4)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--arch-pmu", "4,4,48,3" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "--arch-pmu '4,4,48,3' needs five numbers (VERSION,GP,GPWIDTH,FIXED,FIXEDWIDTH)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--arch-pmu", "1,4,48,3,48" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "--arch-pmu '1,4,48,3,48': version 1 has no fixed counters (FIXED must be 0)");
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--arch-pmu", "4,4,48,3,48", "--core-pmu", "p6" }, &cfg, err,
			       sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--arch-pmu describes the architectural PMU, but --core-pmu is p6");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--core-pmu", "p5" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value 'p5' for --core-pmu (want auto, none, p6, knc or arch)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--perf-capabilities", "0x1" }, &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	/* INST_RETIRED.ANY and INST_RETIRED.ANY_P are one event */
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--rate", "INST_RETIRED.ANY=1", "--rate", "INST_RETIRED.ANY_P=2" },
			       &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--rate for INST_RETIRED.ANY_P given twice");
}

static void describe_names_the_core(void)
{
	char buf[320];

	start(SKL_ID, 3, (char *[]){ "emu", "--core-pmu", "none" });
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "NO_CBO_BANKS 5, UCLK 800.000 MHz, 0 event rates, 0 IMC rates, faults: none");
	start(SKL_ID, 1, (char *[]){ "emu" }); /* Skylake's own by default */
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "NO_CBO_BANKS 5, UCLK 800.000 MHz, 0 event rates, 0 IMC rates, core arch v4 4x48-bit + 3 fixed "
		      "x48-bit full-width, 0 core rates, faults: none");
	start(P6_ID, 5, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=1G", "--rate", "UNC_ARB_TRK_REQUESTS.ALL=1M" });
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "NO_CBO_BANKS 5, UCLK 800.000 MHz, 1 event rates, 0 IMC rates, core p6, 1 core rates, faults: none");
	start(SKL_ID, 3, (char *[]){ "emu", "--core-pmu", "arch" });
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_STREQ(buf, "NO_CBO_BANKS 5, UCLK 800.000 MHz, 0 event rates, 0 IMC rates, core arch v4 4x48-bit + 3 fixed "
		      "x48-bit full-width, 0 core rates, faults: none");
}

/* uncore-emu.efi's checks for identity id: at parse time, then, as the
 * driver does once it has chosen by identity, against what it serves.
 * The first error, or "" when the emulator would start. */
static const char *refused(uint32_t id, int argc, char **argv)
{
	static char err[300];
	struct emu_config cfg;

	err[0] = '\0';
	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)))
		return err;
	emu_init_cpu(&e, &core, &cfg, id);
	if (emu_uncore_check(&e.cfg, e.cfg.uncore_active, err, sizeof(err)) ||
	    emu_core_check(&e.cfg, e.cfg.core_active, err, sizeof(err)) ||
	    emu_ro_check(&e.cfg, e.cfg.uncore_active, e.cfg.core_active, err, sizeof(err)))
		return err;
	return "";
}

/* An option for something the emulator does not serve is an error naming
 * it, never taken in silence. */
static void options_for_what_is_not_served(void)
{
	/* a core event of a table not served */
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--rate", "FLOPS=1M" }),
		"--rate FLOPS is an event of the P6 core PMU, but the emulator serves the architectural core PMU (CPUID "
		"leaf 1, --core-pmu)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--core-pmu", "none", "--rate", "INST_RETIRED.ANY=1G" }),
		"--rate INST_RETIRED.ANY is an event of the architectural core PMU, but the emulator serves no core PMU "
		"(CPUID leaf 1, --core-pmu)");
	T_STREQ(refused(0x6D0, 3, (char *[]){ "emu", "--rate", "FLOPS=1M" }), /* Pentium M: none by identity */
		"--rate FLOPS is an event of the P6 core PMU, but the emulator serves no core PMU (CPUID leaf 1, "
		"--core-pmu)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--core-pmu", "knc", "--rate", "INST_RETIRED.ANY=1G" }),
		"--rate INST_RETIRED.ANY is an event of the architectural core PMU, but the emulator serves the Knights "
		"Corner core PMU (CPUID leaf 1, --core-pmu)");
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=1G" }),
		"--rate CPU_CLK_UNHALTED is an event of the P6 or Knights Corner core PMU, but the emulator serves the "
		"architectural core PMU (CPUID leaf 1, --core-pmu)");
	T_STREQ(refused(P6_ID, 3, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=1G" }), "");
	T_STREQ(refused(KNC_ID, 3, (char *[]){ "emu", "--rate", "CPU_CLK_UNHALTED=1G" }), "");
	/* an architectural event no counter of the shape counts */
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--arch-pmu", "2,2,40,1,40", "--rate", "CPU_CLK_UNHALTED.REF_TSC=1G" }),
		"--rate CPU_CLK_UNHALTED.REF_TSC: no counter of the architectural PMU served counts it (version 2, 2 "
		"general, 1 fixed counters)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--arch-pmu", "4,0,48,3,48", "--rate", "LONGEST_LAT_CACHE.MISS=1M" }),
		"--rate LONGEST_LAT_CACHE.MISS: no counter of the architectural PMU served counts it (version 4, 0 "
		"general, 3 fixed counters)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--arch-pmu", "4,0,48,3,48", "--rate", "INST_RETIRED.ANY_P=1M" }),
		""); /* fixed counter 0 counts it */
	/* IA32_PERF_CAPABILITIES with no architectural PMU */
	T_STREQ(refused(P6_ID, 3, (char *[]){ "emu", "--perf-capabilities", "0" }),
		"--perf-capabilities is the architectural PMU's, but the emulator serves the P6 core PMU (CPUID leaf 1, "
		"--core-pmu)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--core-pmu", "none", "--perf-capabilities", "0" }),
		"--perf-capabilities is the architectural PMU's, but --core-pmu is none");
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--perf-capabilities", "0" }), "");
	/* leaf 0xA given over the architectural PMU served */
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--cpuid", "0xA:0=0,0,0,0", "--core-pmu", "arch" }),
		"--cpuid 0xa:0 overrides CPUID leaf 0xA of the architectural PMU served (version 4, 4 general, 3 fixed "
		"counters): give its shape with --arch-pmu, or --core-pmu none");
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--cpuid", "0xA:0=0x07300403,0,0,0x603" }),
		"--cpuid 0xa:0 overrides CPUID leaf 0xA of the architectural PMU served (version 4, 4 general, 3 fixed "
		"counters): give its shape with --arch-pmu, or --core-pmu none");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--cpuid", "0xA:0=0x07300403,0,0,0x603", "--core-pmu", "none" }), "");
	/* a CBo that is not emulated */
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--fault", "stuck=cbo7.1" }),
		"--fault stuck=cbo7.1: CBo 7 is not emulated (NO_CBO_BANKS 5: 4 CBos)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--fault", "stuck=cbo3.1", "--cbo-config", "2" }),
		"--fault stuck=cbo3.1: CBo 3 is not emulated (NO_CBO_BANKS 2: 1 CBo)");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--fault", "stuck=cbo7.1", "--cbo-config", "9" }), "");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--cbo-config", "1", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M" }),
		"--rate UNC_CBO_CACHE_LOOKUP.ANY_MESI: no CBo is emulated (NO_CBO_BANKS 1)");
	/* a rate of 0 (for the DCLK it meant the default) */
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--rate", "UNC_ARB_TRK_REQUESTS.ALL=0" }),
		"a rate of 0 for UNC_ARB_TRK_REQUESTS.ALL: an event without --rate counts nothing already (want at least 1 "
		"per second)");
	T_STREQ(refused(0x206D7, 3, (char *[]){ "emu", "--rate", "UNC_M_DCLOCKTICKS=0" }),
		"a rate of 0 for UNC_M_DCLOCKTICKS: an event without --rate counts nothing already (want at least 1 per "
		"second)");
	T_STREQ(refused(P6_ID, 3, (char *[]){ "emu", "--rate", "MUL=0k" }),
		"a rate of 0 for MUL: an event without --rate counts nothing already (want at least 1 per second)");
}

/* Each --fault the emulator lists is applied on every identity that takes
 * it, or refused there with one line. ro-counters: on each identity, the
 * units it has (typed from the emulator's tables and uncore.efi's PMU
 * names) are taken and a write to one of their counters (the addresses
 * typed from Linux's uncore_snb.c, uncore_snbep.c and the SDM) leaves it as
 * it was, while without the fault the write takes; every other unit is
 * refused. stuck: Skylake-client counters, applied there and (IMC ones)
 * on Ice Lake and Rocket Lake, refused elsewhere. */
static void faults_applied_or_refused_on_every_identity(void)
{
	static const struct {
		const char *uncore; /* --uncore */
		uint32_t id;
		const char *units;  /* the units it takes, space-separated */
		struct { const char *unit; uint32_t msr; } ctr[6];
	} ids[] = {
		{ "skl", SKL_ID, "cbox arb clock cpu cpu_fixed",
		  { { "cbox", 0x706 }, { "arb", 0x3B0 }, { "clock", 0x395 }, { "cpu", 0xC1 }, { "cpu_fixed", 0x309 } } },
		{ "icl", SKL_ID, "cbox arb clock cpu cpu_fixed", { { "cbox", 0x702 }, { "arb", 0x3B1 }, { "clock", 0x395 } } },
		{ "tgl", SKL_ID, "cbox arb clock cpu cpu_fixed", { { "cbox", 0x702 }, { "arb", 0x3B0 }, { "clock", 0x395 } } },
		{ "rkl", SKL_ID, "cbox arb clock cpu cpu_fixed", { { "cbox", 0x702 }, { "arb", 0x3B0 }, { "clock", 0x395 } } },
		{ "adl", SKL_ID, "cbox arb clock imc_prog cpu cpu_fixed",
		  { { "cbox", 0x2002 }, { "arb", 0x2FD2 }, { "clock", 0x2FDF } } },
		{ "mtl", SKL_ID, "cbox arb clock hac_arb hac_cbox imc_prog cpu cpu_fixed",
		  { { "cbox", 0x2448 }, { "arb", 0x2418 }, { "clock", 0x2408 }, { "hac_arb", 0x2018 }, { "hac_cbox", 0x2048 } } },
		{ "lnl", SKL_ID, "cbox arb imc_prog cpu cpu_fixed", { { "cbox", 0x2448 }, { "arb", 0x2418 } } },
		{ "disc", SKL_ID, "imc cha cpu cpu_fixed", { { "cha", 0x2008 } } },
		{ "snbep", SKL_ID, "imc imc_fixed cpu cpu_fixed", { { NULL, 0 } } },
		{ "skl", P6_ID, "cbox arb clock p6", { { "p6", 0xC1 } } },
		{ "skl", KNC_ID, "cbox arb clock knc", { { "knc", 0x20 } } },
	};
	char want[400];

	for (unsigned i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		for (unsigned r = 0; r < EMU_NRO; r++) {
			char arg[40], units[80];
			fmt_snprintf(arg, sizeof(arg), "ro-counters=%s", emu_ro_names[r]);
			fmt_snprintf(units, sizeof(units), " %s ", ids[i].units);
			char name[24];
			fmt_snprintf(name, sizeof(name), " %s ", emu_ro_names[r]);
			const char *got = refused(ids[i].id, 5, (char *[]){ "emu", "--uncore", (char *)ids[i].uncore, "--fault", arg });
			if (strstr(units, name)) {
				T_STREQ(got, "");
				continue;
			}
			const char *core = ids[i].id == P6_ID ? "p6" : ids[i].id == KNC_ID ? "knc" : "arch";
			fmt_snprintf(want, sizeof(want), "--fault ro-counters=%s: the emulator serves the %s uncore and %s core "
				     "PMU, which have no %s counters", emu_ro_names[r], ids[i].uncore, core, emu_ro_names[r]);
			T_STREQ(got, want);
		}
		for (unsigned c = 0; c < 6 && ids[i].ctr[c].unit; c++) {
			for (int ro = 0; ro < 2; ro++) {
				char arg[40];
				uint64_t before = 0, after = 0;
				fmt_snprintf(arg, sizeof(arg), "ro-counters=%s", ids[i].ctr[c].unit);
				char *argv[] = { "emu", "--uncore", (char *)ids[i].uncore, "--fault", arg };
				T_STREQ(refused(ids[i].id, ro ? 5 : 3, argv), "");
				struct emu *m = emu_msr_read(&e, ids[i].ctr[c].msr, &before) == UNC_OK ? &e : &core;
				T_EQ(emu_msr_read(m, ids[i].ctr[c].msr, &before), UNC_OK);
				T_EQ(emu_msr_write(m, ids[i].ctr[c].msr, 0x1234), UNC_OK);
				T_EQ(emu_msr_read(m, ids[i].ctr[c].msr, &after), UNC_OK);
				if (after != (ro ? before : 0x1234))
					t_fail(__FILE__, __LINE__, "%s %s 0x%x: 0x%llx after writing 0x1234 (ro-counters %s)",
					       ids[i].uncore, ids[i].ctr[c].unit, (unsigned)ids[i].ctr[c].msr,
					       (unsigned long long)after, ro ? "on" : "off");
			}
		}
	}
	/* ro-counters on the counters in configuration space and MMIO: the
	 * E5-2600 iMC's CTR0 (D16:F0 0xA0) and FIXED_CTR (0xD0) with the fixed
	 * counter's rst (FIXED_CTL bit 19), the discovery iMC's counter 0
	 * (unit control + 8) with its box control's RST_CTRS (bit 9), and
	 * imc_prog's MC0 CTR0 (MCHBAR + 0xD9E8) with MC1's global RST_CTRS. */
	for (int ro = 0; ro < 2; ro++) {
		uint32_t v = 0;
		T_STREQ(refused(SKL_ID, ro ? 7 : 3, (char *[]){ "emu", "--uncore", "snbep", "--fault", "ro-counters=imc", "--fault",
							  "ro-counters=imc_fixed" }), "");
		T_EQ(emu_pci_write32(&e, 0x3F, 16, 0, 0xA0, 0x1234), UNC_OK);
		T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0xA0, &v), UNC_OK);
		T_EQ(v, ro ? 0 : 0x1234);
		T_EQ(emu_pci_write32(&e, 0x3F, 16, 0, 0xD0, 0x99), UNC_OK);
		T_EQ(emu_pci_write32(&e, 0x3F, 16, 0, 0xF0, 1u << 19), UNC_OK);
		T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0xD0, &v), UNC_OK);
		T_EQ(v, 0); /* written 0x99, then reset by rst; or never written */
		e.ctr[EMU_SNBEP_FIXED].value = 0x55; /* box 0's fixed counter */
		T_EQ(emu_pci_write32(&e, 0x3F, 16, 0, 0xF0, 1u << 19), UNC_OK);
		T_EQ(emu_pci_read32(&e, 0x3F, 16, 0, 0xD0, &v), UNC_OK);
		T_EQ(v, ro ? 0x55 : 0);

		T_STREQ(refused(SKL_ID, ro ? 5 : 3, (char *[]){ "emu", "--uncore", "disc", "--fault", "ro-counters=imc" }), "");
		T_EQ(emu_mmio_write32(&e, EMU_DISC_IMC(0) + 8, 0x1234), UNC_OK);
		T_EQ(emu_mmio_read32(&e, EMU_DISC_IMC(0) + 8, &v), UNC_OK);
		T_EQ(v, ro ? 0 : 0x1234);
		T_EQ(emu_mmio_write32(&e, EMU_DISC_IMC(0), 0x201), UNC_OK);
		T_EQ(emu_mmio_read32(&e, EMU_DISC_IMC(0) + 8, &v), UNC_OK);
		T_EQ(v, 0);
		e.ctr[0].value = 0x77;
		T_EQ(emu_mmio_write32(&e, EMU_DISC_IMC(0), 0x201), UNC_OK);
		T_EQ(emu_mmio_read32(&e, EMU_DISC_IMC(0) + 8, &v), UNC_OK);
		T_EQ(v, ro ? 0x77 : 0);

		T_STREQ(refused(SKL_ID, ro ? 5 : 3, (char *[]){ "emu", "--uncore", "adl", "--fault", "ro-counters=imc_prog" }), "");
		e.imcp.mchbar = 0x40000000;
		T_EQ(emu_mmio_write32(&e, 0x40000000 + 0xD9E8, 0x1234), UNC_OK);
		T_EQ(emu_mmio_read32(&e, 0x40000000 + 0xD9E8, &v), UNC_OK);
		T_EQ(v, ro ? 0 : 0x1234);
		T_EQ(emu_mmio_write32(&e, 0x40000000 + 0x1D9C0, 0x4), UNC_OK);
		T_EQ(emu_mmio_read32(&e, 0x40000000 + 0xD9E8, &v), UNC_OK);
		T_EQ(v, 0);
		e.imcp.ctr[0][0] = 0x88;
		T_EQ(emu_mmio_write32(&e, 0x40000000 + 0x1D9C0, 0x4), UNC_OK);
		T_EQ(emu_mmio_read32(&e, 0x40000000 + 0xD9E8, &v), UNC_OK);
		T_EQ(v, ro ? 0x88 : 0);
	}
	/* stuck: the Skylake-client counters */
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--fault", "stuck=DRAM_DATA_READS" }), "");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--uncore", "icl", "--fault", "stuck=DRAM_DATA_READS" }), "");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--uncore", "rkl", "--fault", "stuck=DRAM_DATA_READS" }), "");
	static const char *const imc_refused[] = { "tgl", "adl", "mtl", "lnl" };
	for (unsigned i = 0; i < 4; i++) {
		fmt_snprintf(want, sizeof(want), "--fault stuck=DRAM_DATA_READS is a counter of the Skylake-client uncore (and "
			     "of the Ice Lake and Rocket Lake IMC), but the emulator serves the %s uncore (CPUID leaf 1, or "
			     "--uncore)", imc_refused[i]);
		T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--uncore", (char *)imc_refused[i], "--fault",
						      "stuck=DRAM_DATA_READS" }), want);
	}
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--uncore", "icl", "--fault", "stuck=fixed" }),
		"--fault stuck=fixed is a counter of the Skylake-client uncore, but the emulator serves the icl uncore "
		"(CPUID leaf 1, or --uncore)");
	/* applied where taken: the fixed counter of Skylake-client does not count */
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--fault", "stuck=fixed" }), "");
	T_ASSERT(e.ctr[EMU_CTR_FIXED].stuck);
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--fault", "ro-counters=clock" }), "");
	char buf[300];
	emu_describe(&e.cfg, buf, sizeof(buf));
	T_CONTAINS(buf, "faults: ro-counters=clock");
	T_STREQ(refused(SKL_ID, 5, (char *[]){ "emu", "--fault", "ro-counters=clock", "--fault", "ro-counters=clock" }),
		"--fault ro-counters=clock given twice");
	T_STREQ(refused(SKL_ID, 3, (char *[]){ "emu", "--fault", "ro-counters=ubox" }),
		"unknown unit 'ubox' in --fault ro-counters (cbox, arb, clock, hac_arb, hac_cbox, imc_prog, imc, imc_fixed, "
		"cha, p6, knc, cpu, cpu_fixed)");
}

T_MAIN("emu_core_pmus", T_CASE(faults_applied_or_refused_on_every_identity), T_CASE(tables_are_consistent), T_CASE(identity_selects_the_table), T_CASE(p6),
       T_CASE(p6_cycles_and_rates), T_CASE(knc), T_CASE(arch), T_CASE(arch_shapes), T_CASE(describe_names_the_core),
       T_CASE(options_for_what_is_not_served))
