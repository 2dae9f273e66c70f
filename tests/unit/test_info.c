#include <stdio.h>
#include <string.h>

#include "../../drivers/engine/info.h"
#include "../../drivers/pmu/mchbar.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/pmu/skl_info.h"
#include "fake_hw.h"
#include "t.h"

static struct fake_hw f;
static struct platform_info pi;
static char text[8192];

/* What the Skylake-client driver's probe found: on these CPUs it is the
 * one driver that matches. */
static const struct info_pmu *skl(void)
{
	T_EQ(pi.npmu, 1);
	T_ASSERT(pi.pmu[0].drv == &pmu_driver_skl);
	T_ASSERT(pi.pmu[0].p.drv == &pmu_driver_skl);
	return &pi.pmu[0];
}

static unsigned cbo_count(void)
{
	return skl()->p.boxes[SKL_UNIT_CBO];
}

static uint64_t fact(enum skl_fact k)
{
	return skl()->p.facts[k];
}

/* MCHBAR as the driver judges what its probe read (skl_info.c). */
static enum mchbar_state mchbar_state(uint64_t *ret_base)
{
	/* 334060-001 Section 3.3: the base is bits 38:15 */
	return mchbar_judge(fact(SKL_FACT_HB_ID) & 0xffff, fact(SKL_FACT_MCHBAR_RAW), 0x7FFFFF8000ull,
			    pi.cpu.phys_addr_bits, ret_base);
}

static const char *render(bool json)
{
	struct strbuf sb;
	struct out o;

	strbuf_init(&sb, text, sizeof(text));
	o = strbuf_out(&sb);
	if (json)
		info_print_json(&o, &pi);
	else
		info_print(&o, &pi);
	return text;
}

static void skylake(unsigned no_cbo_banks, uint64_t mchbar)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	fake_skl_uncore(&f, no_cbo_banks);
	fake_host_bridge(&f, 0x8086, 0x191F, mchbar);
}

static void four_cbos_ready(void)
{
	skylake(5, 0xFED10001);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_STREQ(skl()->p.model, "Skylake (desktop)");
	T_EQ(fact(SKL_FACT_CBO_CONFIG_ST), UNC_OK);
	T_EQ(fact(SKL_FACT_CBO_CONFIG) & UNC_CBO_CONFIG_NO_CBO_BANKS, 5);
	T_EQ(cbo_count(), 4); /* Section 2.4.1: subtract one */
	T_EQ(skl()->p.found[SKL_UNIT_CBO], 4);
	T_EQ(skl()->p.boxes[SKL_UNIT_ARB], 1);
	T_EQ(skl()->p.boxes[SKL_UNIT_FIXED], 1);
	T_EQ(skl()->p.probed, 0xF); /* CBo, ARB, fixed (MSRs) and IMC (PCI, MMIO) */
	T_ASSERT(skl()->use_checked && skl()->use.known && !skl()->use.in_use);
	T_EQ(skl()->use.selects_checked, 4 * 2 + 2 + 1);
	T_EQ(fact(SKL_FACT_HB_ID), 0x191F8086u);
	T_ASSERT(skl_host_bridge_name(0x8086, 0x191F));
	T_EQ(fact(SKL_FACT_MCHBAR_RAW) & 0x1, 1);
	uint64_t base = 0;
	T_EQ(mchbar_state(&base), MCHBAR_OK);
	T_EQ(base, 0xFED10000);
	T_EQ(skl()->p.base[SKL_UNIT_IMC], 0xFED10000); /* where the IMC counters are read */
	T_EQ(skl()->p.boxes[SKL_UNIT_IMC], 1);
	T_EQ(pi.nfaults, 0);
	T_EQ(f.nlog, 0); /* info never writes */
	render(false);
	T_CONTAINS(text, "uncore:       supported: Skylake-client, Skylake (desktop)");
	T_CONTAINS(text, "raw 0x5, NO_CBO_BANKS 5, CBo count 4");
	T_NOT_CONTAINS(text, "warning");
	T_CONTAINS(text, "pmu in use:   no");
	T_CONTAINS(text, "vendor 0x8086 device 0x191f (known: Skylake)");
	T_CONTAINS(text, "enable 1, base 0xfed10000 (mask 0x7FFFFF8000): enabled");
	T_CONTAINS(text, "tsc:          1000.000 MHz");
	T_CONTAINS(text, "msr access:   native");
	T_CONTAINS(text, "verdict:      uncore PMU usable: ready");
}

/* The packages the seam found, and the processor serving each; where MP
 * services' Location.Package differs, said beside it; none without MP
 * services (JSON null). */
static void packages_and_their_processors(void)
{
	skylake(5, 0xFED10001);
	fake_pkgs(&f, 2);
	f.pkgs.cpu[1] = 3, f.pkgs.mp_pkg[1] = 0, f.pkgs.mp_agrees = false;
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	render(false);
	T_CONTAINS(text, "\npackages:     2 of 2 processors, from the fake's (MP services' Location.Package disagrees)\n"
			 "  package 0: processor 0 (this one)\n"
			 "  package 1: processor 3 (MP services: package 0)\n");
	render(true);
	T_CONTAINS(text, ",\"packages\":{\"count\":2,\"how\":\"the fake's\",\"mp_agrees\":false,\"more\":0,"
			 "\"processors\":2,\"ids\":[0,1],\"served_by\":[0,3]}");
	T_EQ(f.pkg_calls[1], 0); /* a Skylake client has no per-package unit: no trip */
	skylake(5, 0xFED10001);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	render(false);
	T_NOT_CONTAINS(text, "packages:");
	render(true);
	T_CONTAINS(text, ",\"packages\":null");
}

static void raw_zero_means_no_cbo(void)
{
	skylake(0, 0);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_UNSUPPORTED);
	T_EQ(cbo_count(), 0);
	render(false);
	T_CONTAINS(text, "CBo count 0");
	T_CONTAINS(text, "warning: NO_CBO_BANKS is 0");
	T_CONTAINS(text, "warning: CBo count 0 differs from the core count 4");
	T_CONTAINS(text, "uncore PMU unusable: MSR_UNC_CBO_CONFIG reports no CBo");
	T_CONTAINS(text, "disabled (bit 0 clear)");
}

/* Up to 8 CBos are programmed (boxes 4-7 at Linux's addresses); more is
 * said, not capped silently. */
static void raw_above_what_can_be_programmed(void)
{
	skylake(9, 0xFED10001);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_EQ(cbo_count(), 8);
	T_EQ(skl()->p.found[SKL_UNIT_CBO], 8);
	render(false);
	T_CONTAINS(text, "NO_CBO_BANKS 9, CBo count 8 (manual: subtract one)");
	T_ASSERT(!strstr(text, "implies"));
	skylake(12, 0xFED10001);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_EQ(cbo_count(), 8);
	T_EQ(skl()->p.found[SKL_UNIT_CBO], 11); /* what the hardware reports, beyond what is programmed */
	render(false);
	T_CONTAINS(text, "warning: NO_CBO_BANKS 12 implies 11 CBos; at most 8 can be programmed, so CBo events are refused");
	T_STREQ(pi.verdict_reason, "ready, but no CBo event can be counted: MSR_UNC_CBO_CONFIG reports 11 CBos; CBo MSRs "
				   "are known for 8 (Table 2-1, Linux's CFL_UNC_CBO_7): at most 8 can be counted");
}

static void count_disagrees_with_cores(void)
{
	skylake(3, 0xFED10001);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_EQ(cbo_count(), 2);
	render(false);
	T_CONTAINS(text, "warning: CBo count 2 differs from the core count 4");
}

static void pmu_in_use_is_named(void)
{
	skylake(5, 0xFED10001);
	fake_msr(&f, 0xE01, 1ull << 29);
	fake_msr(&f, 0x711, 0x408f34);
	T_EQ(info_gather(&f.hw, &pi), UNC_OK);
	T_ASSERT(skl()->use.in_use);
	T_EQ(skl()->use.nbusy, 2);
	T_ASSERT(pmu_reg_eq(skl()->use.busy[0].reg, pmu_msr(0xE01)));
	T_ASSERT(pmu_reg_eq(skl()->use.busy[1].reg, pmu_msr(0x711)));
	render(false);
	T_CONTAINS(text, "pmu in use:   yes");
	T_CONTAINS(text, "MSR_UNC_PERF_GLOBAL_CTRL (0xe01) = 0x20000000");
	T_CONTAINS(text, "MSR_UNC_CBO_1_PERFEVTSEL1 (0x711) = 0x408f34");
	render(true);
	/* the driver's members, inside its block of "drivers" */
	T_CONTAINS(text, "\"drivers\":[{\"driver\":\"skl-client-uncore\",\"cbo_config\":{");
	T_CONTAINS(text, "\"pmu_in_use\":true");
	T_CONTAINS(text, "{\"msr\":\"0x711\",\"name\":\"MSR_UNC_CBO_1_PERFEVTSEL1\",\"value\":\"0x408f34\"}");
}

static void faulting_msr_is_named(void)
{
	skylake(5, 0xFED10001);
	fake_msr_gp(&f, 0x396, true, true);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_FAULT);
	T_EQ(pi.nfaults, 1);
	T_EQ(pi.faults[0].reg.space, PMU_MSR);
	T_EQ(pi.faults[0].reg.addr, 0x396);
	T_ASSERT(!pi.faults[0].write);
	T_EQ(fact(SKL_FACT_CBO_CONFIG_ST), UNC_E_FAULT);
	render(false);
	/* The in-use check needs the CBo count: it does not run, so whether
	 * the PMU is in use is not known. */
	T_ASSERT(!skl()->use_checked && !skl()->use.known);
	T_CONTAINS(text, "MSR_UNC_CBO_CONFIG (0x396): read failed: general-protection fault");
	T_CONTAINS(text, "pmu in use:   unknown (not checked: rdmsr 0x396 (MSR_UNC_CBO_CONFIG): general-protection fault)\n");
	T_CONTAINS(text, "fault:        rdmsr 0x396 (MSR_UNC_CBO_CONFIG) raised #GP");
	T_CONTAINS(text, "uncore PMU unusable: an uncore MSR faulted");
	/* each address space is probed on its own: the IMC is still found */
	T_EQ(skl()->p.base[SKL_UNIT_IMC], 0xFED10000);
	T_CONTAINS(text, "host bridge:  00:00.0 vendor 0x8086 device 0x191f (known: Skylake)\n");
	render(true);
	T_CONTAINS(text, "\"faults\":[{\"op\":\"rdmsr\",\"msr\":\"0x396\",\"name\":\"MSR_UNC_CBO_CONFIG\"}]");
}

/* What bw records: the platform without reading any MSR. */
static void without_msrs(void)
{
	skylake(5, 0xFED10001);
	T_EQ(info_gather_opt(&f.hw, &pi, false), UNC_OK);
	T_EQ(f.msr_reads, 0);
	T_EQ(skl()->p.probed, 1u << SKL_UNIT_IMC);
	T_ASSERT(!skl()->use_checked);
	T_EQ(skl()->p.base[SKL_UNIT_IMC], 0xFED10000);
	render(false);
	T_CONTAINS(text, "MSR_UNC_CBO_CONFIG: not read (this command reads no MSR)\n");
	T_CONTAINS(text, "pmu in use:   not checked (this command reads no MSR)\n");
	T_CONTAINS(text, "host bridge:  00:00.0 vendor 0x8086 device 0x191f (known: Skylake)\n");
	T_CONTAINS(text, "verdict:      uncore PMU usable: not checked (no MSR read)\n");
	render(true);
	T_CONTAINS(text, "\"cbo_config\":null,\"host_bridge\":{");
	T_CONTAINS(text, "\"pmu_in_use\":null,\"global_ctrl\":null,\"pmu_busy_registers\":[]}]");
}

static void non_intel_touches_no_msr(void)
{
	fake_init(&f);
	fake_cpu_epyc(&f);
	fake_host_bridge(&f, 0x8086, 0x29C0, 0); /* what q35 shows */
	T_EQ(info_gather(&f.hw, &pi), UNC_E_UNSUPPORTED);
	T_EQ(f.msr_reads, 0);
	/* No driver matches: none of its registers is read, MSR or PCI, and
	 * none of its lines is printed (before drivers, info printed
	 * "MSR_UNC_CBO_CONFIG: not read (unsupported CPU)" and the host
	 * bridge it read here). */
	T_EQ(pi.npmu, 0);
	T_EQ(f.reads, 0);
	render(false);
	T_CONTAINS(text, "uncore:       unsupported: not an Intel CPU (vendor AuthenticAMD)");
	T_NOT_CONTAINS(text, "MSR_UNC_CBO_CONFIG");
	T_NOT_CONTAINS(text, "host bridge:");
	T_NOT_CONTAINS(text, "MCHBAR:");
	T_CONTAINS(text, "verdict:      uncore PMU unusable: not an Intel CPU\n");
	render(true);
	T_CONTAINS(text, "\"supported\":false,\"model_name\":null,");
	T_CONTAINS(text, "\"drivers\":[],");
}

static void unsupported_intel_model(void)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x57, 4, 8); /* Knights Landing: no driver */
	fake_host_bridge(&f, 0x8086, 0x2020, 0);
	T_EQ(info_gather(&f.hw, &pi), UNC_E_UNSUPPORTED);
	T_EQ(f.msr_reads, 0);
	T_EQ(pi.npmu, 0);
	T_EQ(f.reads, 0);
	render(false);
	/* every driver's title, in registry order (Skylake-client among
	 * them), on a line of its own: however many there are, none is cut */
	char titles[2048] = "", line[2200];
	unsigned n = 0;
	for (; pmu_drivers[n]; n++)
		snprintf(titles + strlen(titles), sizeof(titles) - strlen(titles), "%s%s", n ? ", " : "", pmu_drivers[n]->title);
	T_CONTAINS(titles, "Skylake-client");
	T_CONTAINS(titles, "Lunar Lake");
	T_ASSERT(n >= 13);
	snprintf(line, sizeof(line), "\ndrivers:      %s\n", titles);
	T_CONTAINS(text, line);
	snprintf(line, sizeof(line), "uncore:       unsupported model: no driver matches family 0x6 model 0x57 (of the %u "
		 "uncore.efi has)\n", n);
	T_CONTAINS(text, line);
	snprintf(line, sizeof(line), "verdict:      uncore PMU unusable: no driver matches family 0x6 model 0x57 (of the %u "
		 "uncore.efi has)\n", n);
	T_CONTAINS(text, line);
	T_ASSERT(strlen(pi.verdict_reason) < sizeof(pi.verdict_reason) - 1);
	T_NOT_CONTAINS(text, "MSR_UNC_CBO_CONFIG");
}

static void mchbar_checks(void)
{
	skylake(5, 0x0000000000000001ull); /* enabled, base zero */
	info_gather(&f.hw, &pi);
	render(false);
	T_CONTAINS(text, "enabled but base is zero");

	skylake(5, 0x0000001000008001ull); /* base bit 36, on a CPU with 36 address bits */
	fake_cpuid(&f, 0x80000008, 0, 0x3024, 0, 0, 0);
	info_gather(&f.hw, &pi);
	uint64_t base = 0;
	T_EQ(mchbar_state(&base), MCHBAR_HIGH);
	T_EQ(base, 0x1000008000ull);
	T_EQ(skl()->p.boxes[SKL_UNIT_IMC], 0); /* not usable: no IMC counters */
	render(false);
	T_CONTAINS(text, "enabled but base is above the physical address width");

	skylake(5, 0xFFFFFFFFFFFFFFFFull); /* mask keeps bits 38:15 only */
	info_gather(&f.hw, &pi);
	mchbar_state(&base);
	T_EQ(base, 0x7FFFFF8000ull);
	T_EQ(fact(SKL_FACT_MCHBAR_RAW), 0xFFFFFFFFFFFFFFFFull);
}

static void absent_host_bridge(void)
{
	fake_init(&f);
	fake_cpu_skylake(&f, 0x5E, 4, 8);
	fake_skl_uncore(&f, 5);
	fake_pci(&f, (struct pci_addr){ 0, 0, 0 }, 0, 0xFFFFFFFF);
	info_gather(&f.hw, &pi);
	/* All ones: no device, so its MCHBAR (offsets 0x48, 0x4C, which the
	 * strict fake does not declare) is not read. */
	T_EQ(fact(SKL_FACT_HB_ID) & 0xffff, 0xffff);
	T_EQ(fact(SKL_FACT_MCHBAR_ST), UNC_E_NOT_FOUND);
	T_EQ(skl()->p.boxes[SKL_UNIT_IMC], 0);
	render(false);
	T_CONTAINS(text, "host bridge:  00:00.0 not readable: not found");
	T_CONTAINS(text, "MCHBAR:       not read: not found");
}

static void json_is_one_object(void)
{
	skylake(5, 0xFED10001);
	info_gather(&f.hw, &pi);
	render(true);
	T_EQ(text[0], '{');
	T_EQ(text[strlen(text) - 2], '}');
	T_EQ(text[strlen(text) - 1], '\n');
	T_CONTAINS(text, "\"drivers\":[{\"driver\":\"skl-client-uncore\",\"cbo_config\":{\"raw\":\"0x5\",\"no_cbo_banks\":5,"
			 "\"cbo_count\":4},");
	T_CONTAINS(text, "\"mchbar\":{\"raw\":\"0xfed10001\",\"enabled\":true,\"base\":\"0xfed10000\",\"usable\":true},"
			 "\"pmu_in_use\":false,\"global_ctrl\":\"0x0\",\"pmu_busy_registers\":[]}]");
	T_CONTAINS(text, "\"msr_access\":\"native\"");
	T_CONTAINS(text, "\"usable\":true");
	T_CONTAINS(text, "\"tsc_hz\":1000000000");
	/* balanced braces and brackets outside strings */
	int depth = 0;
	bool in_str = false;
	for (const char *p = text; *p; p++) {
		if (*p == '"' && p[-1] != '\\')
			in_str = !in_str;
		else if (!in_str && (*p == '{' || *p == '['))
			depth++;
		else if (!in_str && (*p == '}' || *p == ']'))
			depth--;
		T_ASSERT(depth >= 0);
	}
	T_EQ(depth, 0);
}

T_MAIN("info", T_CASE(four_cbos_ready), T_CASE(packages_and_their_processors), T_CASE(raw_zero_means_no_cbo), T_CASE(raw_above_what_can_be_programmed),
       T_CASE(count_disagrees_with_cores), T_CASE(pmu_in_use_is_named), T_CASE(faulting_msr_is_named), T_CASE(without_msrs),
       T_CASE(non_intel_touches_no_msr), T_CASE(unsupported_intel_model), T_CASE(mchbar_checks),
       T_CASE(absent_host_bridge), T_CASE(json_is_one_object))
