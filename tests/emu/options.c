/* uncore-emu.efi's command line. */
#include <string.h>

#include "../../drivers/base/fmt.h"
#include "../../drivers/base/parse.h"
#include "model.h"

#define MAX_RATE 1000000000000ull /* 10^12 per second */

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

/* Options that only one uncore takes (cfg->skl_opts, cfg->snbep_opts: bit
 * n is entry n): given for the other, they are an error naming them. */
enum { SKL_CBO_CONFIG, SKL_CBO_RESERVED, SKL_UCLK, SKL_GLOBAL_CTRL, SKL_RATE, SKL_MCHBAR, SKL_PMU_IN_USE, SKL_STUCK };
static const char *const skl_opt_names[] = {
	"--cbo-config", "--cbo-config-reserved", "--uclk-mhz", "--global-ctrl", "--rate of a Skylake-client event or IMC counter",
	"--fault mchbar-*", "--fault pmu-in-use", "--fault stuck",
};
enum { SNBEP_SOCKETS, SNBEP_RATE, SNBEP_PCI_FAULT };
static const char *const snbep_opt_names[] = { "--sockets", "--rate of an iMC event", "--fault pci-*" };
#define SKL_OPT(cfg, n)   ((cfg)->skl_opts |= 1u << (n))
#define SNBEP_OPT(cfg, n) ((cfg)->snbep_opts |= 1u << (n))

/* Names for --fault stuck=, in enum emu_ctr_id order. */
static const char *const ctr_names[EMU_CTR_IMC0] = {
	"fixed",  "arb0",   "arb1",   "cbo0.0", "cbo0.1", "cbo1.0", "cbo1.1", "cbo2.0", "cbo2.1", "cbo3.0",
	"cbo3.1", "cbo4.0", "cbo4.1", "cbo5.0", "cbo5.1", "cbo6.0", "cbo6.1", "cbo7.0", "cbo7.1",
};

/* --fault ro-counters=: uncore.efi's PMU names of the units. */
const char *const emu_ro_names[EMU_NRO] = {
	[EMU_RO_CBOX] = "cbox",	  [EMU_RO_ARB] = "arb",		  [EMU_RO_CLOCK] = "clock",
	[EMU_RO_HAC_ARB] = "hac_arb", [EMU_RO_HAC_CBOX] = "hac_cbox", [EMU_RO_IMC_PROG] = "imc_prog",
	[EMU_RO_IMC] = "imc",	  [EMU_RO_IMC_FIXED] = "imc_fixed", [EMU_RO_CHA] = "cha",
	[EMU_RO_P6] = "p6",	  [EMU_RO_KNC] = "knc",		  [EMU_RO_CPU] = "cpu",
	[EMU_RO_CPU_FIXED] = "cpu_fixed",
};

/* The units of each uncore and core PMU, bit emu_ro: what ro-counters
 * may name there (typed from the emulator's tables). */
#define RO(r) (1u << EMU_RO_##r)
static uint32_t ro_units_of(unsigned uncore, unsigned core, const struct emu_arch_shape *a)
{
	uint32_t m = 0;

	switch (uncore) {
	case EMU_UNCORE_SKL:
	case EMU_UNCORE_ICL:
	case EMU_UNCORE_TGL:
	case EMU_UNCORE_RKL: m = RO(CBOX) | RO(ARB) | RO(CLOCK); break;
	case EMU_UNCORE_ADL: m = RO(CBOX) | RO(ARB) | RO(CLOCK) | RO(IMC_PROG); break;
	case EMU_UNCORE_MTL: m = RO(CBOX) | RO(ARB) | RO(CLOCK) | RO(HAC_ARB) | RO(HAC_CBOX) | RO(IMC_PROG); break;
	case EMU_UNCORE_LNL: m = RO(CBOX) | RO(ARB) | RO(IMC_PROG); break;
	case EMU_UNCORE_SNBEP: m = RO(IMC) | RO(IMC_FIXED); break;
	case EMU_UNCORE_DISC: m = RO(IMC) | RO(CHA); break;
	case EMU_UNCORE_ICX: m = RO(IMC); break;
	default: break;
	}
	if (core == EMU_CORE_P6)
		m |= RO(P6);
	else if (core == EMU_CORE_KNC)
		m |= RO(KNC);
	else if (core == EMU_CORE_ARCH)
		m |= (a->ngp ? RO(CPU) : 0) | (a->version >= 2 && a->nfixed ? RO(CPU_FIXED) : 0);
	return m;
}

enum unc_status emu_ro_check(const struct emu_config *cfg, unsigned uncore, unsigned core, char *err, size_t errsize)
{
	uint32_t missing = cfg->ro_units & ~ro_units_of(uncore, core, &cfg->arch);

	for (unsigned r = 0; r < EMU_NRO; r++)
		if (missing >> r & 1)
			FAIL("--fault ro-counters=%s: the emulator serves the %s uncore and %s core PMU, which have no %s "
			     "counters", emu_ro_names[r], emu_uncore_name(uncore),
			     core == EMU_CORE_NONE ? "no" : emu_core_name(core), emu_ro_names[r]);
	return UNC_OK;
}

static int counter_by_name(const char *s)
{
	for (int i = 0; i < EMU_CTR_IMC0; i++)
		if (str_ieq(s, ctr_names[i]))
			return i;
	int imc = emu_imc_find(s);
	return imc < 0 ? -1 : EMU_CTR_IMC0 + imc;
}

static enum unc_status parse_fault(const char *arg, struct emu_config *cfg, char *err, size_t errsize)
{
	const char *eq = strchr(arg, '=');
	char kind[32];
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *val = eq ? eq + 1 : NULL;
	uint64_t v;

	if (klen >= sizeof(kind))
		FAIL("unknown fault '%s'", arg);
	memcpy(kind, arg, klen);
	kind[klen] = '\0';

	bool pci = !strcmp(kind, "pci-missing") || !strcmp(kind, "pci-ignore-write");
	bool takes_arg = !strcmp(kind, "msr-gp") || !strcmp(kind, "msr-gp-write") || !strcmp(kind, "stuck") || pci ||
			 !strcmp(kind, "slow-stall") || !strcmp(kind, "ro-counters");
	if (takes_arg && !val)
		FAIL("--fault %s needs a value (%s=...)", kind, kind);
	if (!takes_arg && val)
		FAIL("--fault %s takes no value", kind);

	if (pci) {
		struct pci_addr a;
		if (!parse_pci_bdf(val, &a))
			FAIL("bad PCI function '%s' in --fault %s (want BUS:DEV.FN in hex, e.g. 3f:10.1)", val, kind);
		bool any = false;
		for (unsigned g = 0; g < EMU_NGENS; g++)
			any |= emu_snbep_box_of(g, a.bus, a.dev, a.func) >= 0;
		if (!any)
			FAIL("--fault %s=%s: not an emulated iMC channel function (E5-2600: 3f:10.0, 3f:10.1, 3f:10.4, "
			     "3f:10.5, 7f:...; tests/emu/options.md lists each generation's)", kind, val);
		for (unsigned i = 0; i < cfg->npci_fault; i++)
			if (cfg->pci_fault[i].bus == a.bus && cfg->pci_fault[i].dev == a.dev && cfg->pci_fault[i].func == a.func)
				FAIL("--fault pci-* for %02x:%02x.%x given twice", a.bus, a.dev, a.func);
		if (cfg->npci_fault == EMU_MAX_PCI_FAULTS)
			FAIL("too many --fault pci-* (at most %d)", EMU_MAX_PCI_FAULTS);
		cfg->pci_fault[cfg->npci_fault++] = (typeof(cfg->pci_fault[0])){
			a.bus, a.dev, a.func, kind[4] == 'm' ? EMU_PCI_MISSING : EMU_PCI_IGNORE_WRITE
		};
		SNBEP_OPT(cfg, SNBEP_PCI_FAULT);
	} else if (!strcmp(kind, "msr-gp") || !strcmp(kind, "msr-gp-write")) {
		if (!parse_u64(val, UINT32_MAX, &v))
			FAIL("bad MSR address '%s' in --fault %s", val, kind);
		for (unsigned i = 0; i < cfg->ngp; i++)
			if (cfg->gp[i].msr == v)
				FAIL("--fault for MSR 0x%x given twice", (unsigned)v);
		if (cfg->ngp == EMU_MAX_GP)
			FAIL("too many --fault %s (at most %d)", kind, EMU_MAX_GP);
		cfg->gp[cfg->ngp].msr = (uint32_t)v;
		cfg->gp[cfg->ngp++].write_only = !strcmp(kind, "msr-gp-write");
	} else if (!strcmp(kind, "mchbar-disabled") || !strcmp(kind, "mchbar-zero") || !strcmp(kind, "mchbar-high")) {
		/* MCHBAR is published once, in one way */
		if (cfg->mchbar_fault != EMU_MCHBAR_OK)
			FAIL("--fault %s: only one MCHBAR fault may be given", kind);
		cfg->mchbar_fault = kind[7] == 'd' ? EMU_MCHBAR_DISABLED : kind[7] == 'z' ? EMU_MCHBAR_ZERO : EMU_MCHBAR_HIGH;
		SKL_OPT(cfg, SKL_MCHBAR);
	} else if (!strcmp(kind, "pmu-in-use")) {
		if (cfg->pmu_in_use)
			FAIL("--fault pmu-in-use given twice");
		cfg->pmu_in_use = true;
		SKL_OPT(cfg, SKL_PMU_IN_USE);
	} else if (!strcmp(kind, "stuck")) {
		int id = counter_by_name(val);
		if (id < 0)
			FAIL("unknown counter '%s' in --fault stuck (fixed, arb0, arb1, cboB.I, or an IMC counter)", val);
		if (cfg->stuck[id])
			FAIL("--fault stuck=%s given twice", val);
		cfg->stuck[id] = true;
		SKL_OPT(cfg, SKL_STUCK);
	} else if (!strcmp(kind, "ro-counters")) {
		unsigned r;
		for (r = 0; r < EMU_NRO && !str_ieq(val, emu_ro_names[r]); r++)
			;
		if (r == EMU_NRO && str_ieq(val, "cbo"))
			r = EMU_RO_CBOX;
		if (r == EMU_NRO)
			FAIL("unknown unit '%s' in --fault ro-counters (cbox, arb, clock, hac_arb, hac_cbox, imc_prog, imc, "
			     "imc_fixed, cha, p6, knc, cpu, cpu_fixed)", val);
		if (emu_ro(cfg, r))
			FAIL("--fault ro-counters=%s given twice", emu_ro_names[r]);
		cfg->ro_units |= 1u << r;
	} else if (!strcmp(kind, "slow-stall")) {
		if (cfg->slow_stall_pct)
			FAIL("--fault slow-stall given twice");
		if (!parse_u64(val, 1000, &v) || !v)
			FAIL("bad percentage '%s' in --fault slow-stall (1 to 1000)", val);
		cfg->slow_stall_pct = (unsigned)v;
	} else {
		FAIL("unknown fault '%s' (msr-gp=ADDR, msr-gp-write=ADDR, mchbar-disabled, mchbar-zero, "
		     "mchbar-high, pmu-in-use, stuck=COUNTER, pci-missing=BUS:DEV.FN, pci-ignore-write=BUS:DEV.FN, "
		     "slow-stall=PCT, ro-counters=UNIT)", kind);
	}
	return UNC_OK;
}

/* --cpuid LEAF:SUBLEAF=EAX,EBX,ECX,EDX: one leaf/subleaf answered by the
 * emulator instead of the processor; each number decimal or 0x-hex. */
static enum unc_status parse_cpuid(const char *arg, struct emu_config *cfg, char *err, size_t errsize)
{
	const char *eq = strchr(arg, '='), *colon = strchr(arg, ':');
	char num[24];
	uint64_t leaf, subleaf, r[4];

	if (!eq || !colon || colon > eq)
		FAIL("bad --cpuid '%s' (want LEAF:SUBLEAF=EAX,EBX,ECX,EDX)", arg);
	size_t n = (size_t)(colon - arg);
	if (n >= sizeof(num))
		FAIL("bad leaf in --cpuid '%s'", arg);
	memcpy(num, arg, n);
	num[n] = '\0';
	if (!parse_u64(num, UINT32_MAX, &leaf))
		FAIL("bad leaf '%s' in --cpuid '%s'", num, arg);
	n = (size_t)(eq - colon - 1);
	if (n >= sizeof(num))
		FAIL("bad subleaf in --cpuid '%s'", arg);
	memcpy(num, colon + 1, n);
	num[n] = '\0';
	if (!parse_u64(num, UINT32_MAX, &subleaf))
		FAIL("bad subleaf '%s' in --cpuid '%s'", num, arg);
	const char *p = eq + 1;
	for (unsigned i = 0; i < 4; i++) {
		const char *end = i < 3 ? strchr(p, ',') : p + strlen(p);
		if (!end)
			FAIL("--cpuid '%s' needs four registers (EAX,EBX,ECX,EDX)", arg);
		n = (size_t)(end - p);
		if (n >= sizeof(num))
			FAIL("bad register value in --cpuid '%s'", arg);
		memcpy(num, p, n);
		num[n] = '\0';
		if (!parse_u64(num, UINT32_MAX, &r[i]))
			FAIL("bad %s value '%s' in --cpuid '%s' (want a 32-bit number)", (const char *[]){ "EAX", "EBX", "ECX", "EDX" }[i],
			     num, arg);
		p = end + 1;
	}
	for (unsigned i = 0; i < cfg->ncpuid; i++)
		if (cfg->cpuid[i].leaf == leaf && cfg->cpuid[i].subleaf == subleaf)
			FAIL("--cpuid for leaf 0x%x subleaf %u given twice", (unsigned)leaf, (unsigned)subleaf);
	if (cfg->ncpuid == EMU_MAX_CPUID)
		FAIL("too many --cpuid options (at most %d)", EMU_MAX_CPUID);
	cfg->cpuid[cfg->ncpuid++] = (struct emu_cpuid){ (uint32_t)leaf, (uint32_t)subleaf, (uint32_t)r[0], (uint32_t)r[1],
							(uint32_t)r[2], (uint32_t)r[3] };
	return UNC_OK;
}

static bool rate_given(const struct emu_config *cfg, uint8_t unit, uint8_t code, uint8_t umask)
{
	for (unsigned i = 0; i < cfg->nrates; i++) {
		const struct emu_rate *r = &cfg->rates[i];
		if (r->unit == unit && r->code == code && r->umask == umask)
			return true;
	}
	return false;
}

/* A core event's rate, for every core table that has an event of that
 * name (P6 and Knights Corner both have CPU_CLK_UNHALTED): the table the
 * model serves takes its own. */
static enum unc_status parse_core_rate(const char *name, uint64_t v, struct emu_config *cfg, char *err, size_t errsize)
{
	static const uint8_t units[] = { EMU_UNIT_P6, EMU_UNIT_KNC, EMU_UNIT_ARCH };
	const struct emu_core_event *found[sizeof(units)];
	unsigned n = 0;

	for (unsigned u = 0; u < sizeof(units); u++) {
		const struct emu_core_event *ev = emu_core_event_find(units[u], name);
		if (!ev)
			continue;
		if (ev->flags & EMU_CORE_SUM)
			FAIL("%s counts the sum of its states: give the rate of each (%.*s.M, .E, .S, .I)", ev->name,
			     (int)(strlen(ev->name) - 5), ev->name);
		if (rate_given(cfg, ev->unit, ev->code, ev->umask))
			FAIL("--rate for %s given twice", ev->name);
		found[n++] = ev;
	}
	if (!n)
		FAIL("unknown event '%s' in --rate", name);
	if (cfg->nrates + n > EMU_MAX_RATES)
		FAIL("too many --rate options (at most %d)", EMU_MAX_RATES);
	uint8_t mask = 0;
	for (unsigned i = 0; i < n; i++)
		mask |= (uint8_t)(1u << (found[i]->unit - EMU_UNIT_P6));
	for (unsigned i = 0; i < n; i++) {
		unsigned nev;
		const struct emu_core_event *t = emu_core_events(found[i]->unit, &nev);
		cfg->rate_units[cfg->nrates] = mask;
		cfg->rate_ev[cfg->nrates] = (uint8_t)(found[i] - t);
		cfg->rates[cfg->nrates++] = (struct emu_rate){ found[i]->unit, found[i]->code, found[i]->umask, v };
	}
	return UNC_OK;
}

/* --arch-pmu VERSION,GP,GPWIDTH,FIXED,FIXEDWIDTH, as CPUID leaf 0xA gives them. */
static enum unc_status parse_arch(const char *arg, struct emu_config *cfg, char *err, size_t errsize)
{
	static const struct { const char *what; uint64_t lo, hi; } f[5] = {
		{ "VERSION", 1, EMU_ARCH_MAX_VERSION }, { "GP", 0, EMU_ARCH_MAX_GP },	     { "GPWIDTH", 32, 48 },
		{ "FIXED", 0, EMU_ARCH_MAX_FIXED },	  { "FIXEDWIDTH", 32, 48 },
	};
	uint64_t v[5];
	char num[24];
	const char *p = arg;

	for (unsigned i = 0; i < 5; i++) {
		const char *end = i < 4 ? strchr(p, ',') : p + strlen(p);
		if (!end)
			FAIL("--arch-pmu '%s' needs five numbers (VERSION,GP,GPWIDTH,FIXED,FIXEDWIDTH)", arg);
		size_t n = (size_t)(end - p);
		if (n >= sizeof(num))
			FAIL("bad %s in --arch-pmu '%s'", f[i].what, arg);
		memcpy(num, p, n);
		num[n] = '\0';
		if (!parse_u64(num, f[i].hi, &v[i]) || v[i] < f[i].lo)
			FAIL("bad %s '%s' in --arch-pmu '%s' (want %u to %u)", f[i].what, num, arg, (unsigned)f[i].lo,
			     (unsigned)f[i].hi);
		p = end + 1;
	}
	if (v[0] < 2 && v[3])
		FAIL("--arch-pmu '%s': version 1 has no fixed counters (FIXED must be 0)", arg);
	cfg->arch = (struct emu_arch_shape){ (uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2], (uint8_t)v[3], (uint8_t)v[4] };
	cfg->arch_set = true;
	return UNC_OK;
}

static enum unc_status parse_core(const char *val, struct emu_config *cfg, char *err, size_t errsize)
{
	for (unsigned c = EMU_CORE_AUTO; c <= EMU_CORE_ARCH; c++) {
		if (!strcmp(val, emu_core_name(c))) {
			cfg->core_pmu = (uint8_t)c;
			return UNC_OK;
		}
	}
	FAIL("bad value '%s' for --core-pmu (want auto, none, p6, knc or arch)", val);
}

/* An iMC event's rate (pmu_snbep.c), the same in every channel: the rates
 * of one event code are given on disjoint unit masks, so that a select
 * counts the sum of those its unit mask covers. UNC_M_DCLOCKTICKS is the
 * DCLK, which the fixed counter counts. */
static enum unc_status parse_snbep_rate(const char *name, uint64_t v, struct emu_config *cfg, char *err, size_t errsize)
{
	if (emu_snbep_is_dclk(name)) {
		if (cfg->dclk_hz)
			FAIL("--rate for UNC_M_DCLOCKTICKS given twice");
		if (v > EMU_MAX_UCLK)
			FAIL("bad rate %lu for %s (the DCLK: at most 4294967295 per second)", (unsigned long)v, name);
		cfg->dclk_hz = v;
		SNBEP_OPT(cfg, SNBEP_RATE);
		return UNC_OK;
	}
	const struct emu_snbep_event *ev = emu_snbep_event_find(name);
	if (!ev)
		FAIL("unknown event '%s' in --rate", name);
	for (unsigned i = 0; i < cfg->nrates; i++) {
		const struct emu_rate *r = &cfg->rates[i];
		if (r->unit != EMU_UNIT_IMC || r->code != ev->code)
			continue;
		if (r->umask == ev->umask)
			FAIL("--rate for %s given twice", ev->name);
		if (r->umask & ev->umask) {
			const struct emu_snbep_event *o = NULL;
			for (unsigned k = 0; k < emu_snbep_nevents && !o; k++)
				if (emu_snbep_events[k].code == r->code && emu_snbep_events[k].umask == r->umask)
					o = &emu_snbep_events[k];
			FAIL("--rate for %s overlaps the one for %s (unit masks 0x%02x and 0x%02x): give each unit-mask bit "
			     "one rate", ev->name, o ? o->name : "?", ev->umask, r->umask);
		}
	}
	if (cfg->nrates == EMU_MAX_RATES)
		FAIL("too many --rate options (at most %d)", EMU_MAX_RATES);
	cfg->rates[cfg->nrates++] = (struct emu_rate){ EMU_UNIT_IMC, ev->code, ev->umask, v };
	SNBEP_OPT(cfg, SNBEP_RATE);
	return UNC_OK;
}

/* Intel 327043-001's "Max Inc/Cyc": an event code adds at most that many per DCLK
 * cycle, so the sum of its rates is at most that times the DCLK. */
static enum unc_status check_max_inc(const struct emu_config *cfg, char *err, size_t errsize)
{
	uint64_t dclk = cfg->dclk_hz ? cfg->dclk_hz : EMU_SNBEP_DEFAULT_DCLK;
	char mhz[24];

	for (unsigned i = 0; i < emu_snbep_nevents; i++) {
		const struct emu_snbep_event *ev = &emu_snbep_events[i];
		if (i && emu_snbep_events[i - 1].code == ev->code)
			continue; /* each code once */
		uint64_t sum = 0;
		for (unsigned k = 0; k < cfg->nrates; k++)
			if (cfg->rates[k].unit == EMU_UNIT_IMC && cfg->rates[k].code == ev->code)
				sum += cfg->rates[k].per_sec;
		if (sum > (uint64_t)ev->max_inc * dclk) {
			fmt_fixed(mhz, sizeof(mhz), dclk, 1000000, 3);
			const char *sym = ev->name + 6; /* the guide's symbol: no UNC_M_, no subevent */
			const char *dot = strchr(sym, '.');
			FAIL("--rate: %.*s (event 0x%02x) at %lu per second adds more than %u per DCLK cycle (DCLK %s MHz; "
			     "Intel 327043-001's Max Inc/Cyc)", dot ? (int)(dot - sym) : (int)strlen(sym), sym, ev->code,
			     (unsigned long)sum, ev->max_inc, mhz);
		}
	}
	return UNC_OK;
}

/* A rate is given once per counter, whatever name it is given by. */
/* A discovery-uncore rate: for every socket (socket 0) or socket - 1's own. */
static enum unc_status add_disc_rate(const struct emu_disc_event *dev, unsigned socket, uint64_t v,
				     struct emu_config *cfg, char *err, size_t errsize)
{
	for (unsigned i = 0; i < cfg->nrates; i++)
		if (cfg->rates[i].unit == dev->unit && cfg->rates[i].code == dev->code &&
		    cfg->rates[i].umask == dev->umask && cfg->rate_ext[i] == dev->umask_ext &&
		    cfg->rate_socket[i] == socket) {
			if (socket)
				FAIL("--socket-rate for %s on socket %u given twice (or under another name)", dev->name,
				     socket - 1);
			FAIL("--rate for %s given twice (or under another name)", dev->name);
		}
	if (cfg->nrates == EMU_MAX_RATES)
		FAIL("too many --rate options (at most %d)", EMU_MAX_RATES);
	cfg->rate_ext[cfg->nrates] = dev->umask_ext;
	cfg->rate_socket[cfg->nrates] = (uint8_t)socket;
	cfg->rates[cfg->nrates++] = (struct emu_rate){ dev->unit, dev->code, dev->umask, v };
	return UNC_OK;
}

/* --socket-rate S:NAME=PER_SECOND: a discovery-uncore event's rate on socket S alone. */
static enum unc_status parse_socket_rate(const char *arg, struct emu_config *cfg, char *err, size_t errsize)
{
	const char *colon = strchr(arg, ':'), *eq = strchr(arg, '=');
	char name[96], num[8];
	uint64_t sock, v;

	if (!colon || !eq || eq < colon || colon == arg || (size_t)(colon - arg) >= sizeof(num) ||
	    (size_t)(eq - colon - 1) >= sizeof(name) || eq == colon + 1)
		FAIL("bad --socket-rate '%s' (want SOCKET:NAME=PER_SECOND)", arg);
	memcpy(num, arg, (size_t)(colon - arg));
	num[colon - arg] = '\0';
	memcpy(name, colon + 1, (size_t)(eq - colon - 1));
	name[eq - colon - 1] = '\0';
	if (!parse_u64(num, EMU_DISC_MAX_SOCKETS - 1, &sock))
		FAIL("bad socket '%s' in --socket-rate '%s' (want 0 to %d)", num, arg, EMU_DISC_MAX_SOCKETS - 1);
	const struct emu_disc_event *dev = emu_disc_event_find(name);
	if (!dev)
		dev = emu_xcha_event_find(name); /* the CHAs beside the uncore (pmu_xcha.c) */
	if (!dev)
		FAIL("unknown event '%s' in --socket-rate (want a discovery-table uncore or CHA event)", name);
	if (!parse_decimal(eq + 1, 1, MAX_RATE, &v) || v == 0)
		FAIL("bad rate '%s' for %s (want a whole number per second, 1 to 10^12; k, M, G allowed)", eq + 1, name);
	cfg->disc_opts |= 16;
	return add_disc_rate(dev, (unsigned)sock + 1, v, cfg, err, errsize);
}

/* --chas N or N0,N1,...: each socket's CHAs (one value: every socket). */
static enum unc_status parse_chas(const char *val, struct emu_config *cfg, char *err, size_t errsize)
{
	unsigned n = 0;
	const char *p = val;
	uint8_t chas[EMU_DISC_MAX_SOCKETS];

	for (;;) {
		char num[8];
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t v;
		if (n == EMU_DISC_MAX_SOCKETS || len == 0 || len >= sizeof(num))
			FAIL("bad value '%s' for --chas (want N or N0,N1,... per socket, up to %d sockets, each 1 to %d)", val,
			     EMU_DISC_MAX_SOCKETS, EMU_DISC_MAX_CHA);
		memcpy(num, p, len);
		num[len] = '\0';
		if (!parse_u64(num, EMU_DISC_MAX_CHA, &v) || v == 0)
			FAIL("bad value '%s' for --chas (want N or N0,N1,... per socket, up to %d sockets, each 1 to %d)", val,
			     EMU_DISC_MAX_SOCKETS, EMU_DISC_MAX_CHA);
		chas[n++] = (uint8_t)v;
		if (!comma)
			break;
		p = comma + 1;
	}
	for (unsigned s = 0; s < EMU_DISC_MAX_SOCKETS; s++)
		cfg->disc_chas[s] = n == 1 ? chas[0] : s < n ? chas[s] : 0;
	cfg->disc_chas_n = (uint8_t)n;
	cfg->disc_opts |= 8;
	return UNC_OK;
}

static enum unc_status parse_rate(const char *arg, struct emu_config *cfg, bool imc_seen[EMU_IMC_COUNTERS], char *err,
				  size_t errsize)
{
	const char *eq = strchr(arg, '=');
	char name[96];
	uint64_t v;

	if (!eq || eq == arg)
		FAIL("bad --rate '%s' (want NAME=PER_SECOND)", arg);
	if ((size_t)(eq - arg) >= sizeof(name))
		FAIL("unknown event in --rate '%s'", arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (!parse_decimal(eq + 1, 1, MAX_RATE, &v))
		FAIL("bad rate '%s' for %s (want a whole number per second, at most 10^12; k, M, G allowed)", eq + 1,
		     name);
	if (v == 0)
		FAIL("a rate of 0 for %s: an event without --rate counts nothing already (want at least 1 per second)",
		     name);

	/* The discovery-table uncore's events (CAS counts per channel, the CHA's clock) */
	const struct emu_disc_event *dev = emu_disc_event_find(name);
	if (!dev && (dev = emu_xcha_event_find(name))) /* the CHAs beside the uncore (pmu_xcha.c) */
		return add_disc_rate(dev, 0, v, cfg, err, errsize);
	/* a name the E5-2600 iMC also has (UNC_M_CAS_COUNT.RD) is the
	 * discovery uncore's after --uncore disc */
	/* A name both the E5-2600 iMC and the discovery iMC have
	 * (UNC_M_CAS_COUNT.RD): with --uncore, that uncore's; without, both
	 * (the CPU identity chooses the uncore, each counts its own). */
	bool shared = dev && emu_snbep_event_find(name) && cfg->uncore == EMU_UNCORE_AUTO;
	enum unc_status st;
	if (dev && (cfg->uncore == EMU_UNCORE_DISC || cfg->uncore == EMU_UNCORE_ICX || !emu_snbep_event_find(name) ||
		    shared)) {
		if ((st = add_disc_rate(dev, 0, v, cfg, err, errsize)))
			return st;
		if (!shared) {
			cfg->disc_opts |= 1;
			return UNC_OK;
		}
		cfg->rate_shared[cfg->nrates - 1] = true;
		uint32_t before = cfg->snbep_opts;
		if ((st = parse_snbep_rate(name, v, cfg, err, errsize)))
			return st;
		cfg->snbep_opts = before; /* not the E5-2600 iMC's alone */
		cfg->rate_shared[cfg->nrates - 1] = true;
		return UNC_OK;
	}
	if (emu_snbep_event_find(name) || emu_snbep_is_dclk(name))
		return parse_snbep_rate(name, v, cfg, err, errsize);
	int adl = emu_adl_imc_find(name);
	if (adl >= 0) {
		if (cfg->adl_imc_per_sec[adl])
			FAIL("--rate for %s given twice", emu_adl_imc[adl].name);
		cfg->adl_imc_per_sec[adl] = v;
		return UNC_OK;
	}
	int imc = emu_imc_find(name);
	if (imc >= 0) {
		SKL_OPT(cfg, SKL_RATE);
		if (imc_seen[imc])
			FAIL("--rate for %s given twice", emu_imc[imc].name);
		imc_seen[imc] = true;
		cfg->imc_per_sec[imc] = v;
		return UNC_OK;
	}
	const struct emu_event *ev = emu_event_find(name);
	if (!ev)
		ev = emu_adl_event_find(name);
	if (!ev)
		ev = emu_mtl_event_find(name);
	if (!ev)
		return parse_core_rate(name, v, cfg, err, errsize);
	if (ev->unit == EMU_UNIT_FIXED)
		FAIL("%s counts UCLK cycles: set --uclk-mhz instead", ev->name);
	if (ev->threshold)
		FAIL("%s is a threshold view of event 0x%02x umask 0x%02x; give the rate of the plain event", ev->name,
		     ev->code, ev->umask);
	for (unsigned i = 0; i < cfg->nrates; i++) {
		struct emu_rate *r = &cfg->rates[i];
		if (r->unit == ev->unit && r->code == ev->code && r->umask == ev->umask)
			FAIL("--rate for %s given twice", ev->name);
	}
	if (cfg->nrates == EMU_MAX_RATES)
		FAIL("too many --rate options (at most %d)", EMU_MAX_RATES);
	cfg->rates[cfg->nrates++] = (struct emu_rate){ ev->unit, ev->code, ev->umask, v };
	SKL_OPT(cfg, SKL_RATE);
	return UNC_OK;
}

static enum unc_status parse_uncore(const char *val, struct emu_config *cfg, char *err, size_t errsize)
{
	for (unsigned u = EMU_UNCORE_AUTO; u <= EMU_UNCORE_ICX; u++) {
		if (!strcmp(val, emu_uncore_name(u))) {
			cfg->uncore = (uint8_t)u;
			cfg->pci_gen_set = u == EMU_UNCORE_SNBEP;
			cfg->pci_gen = EMU_GEN_SNB;
			return UNC_OK;
		}
	}
	for (unsigned g = EMU_GEN_IVB; g < EMU_NGENS; g++) /* the later Xeon iMCs in configuration space */
		if (!strcmp(val, emu_imc_gens[g].uncore)) {
			cfg->uncore = EMU_UNCORE_SNBEP;
			cfg->pci_gen = (uint8_t)g;
			cfg->pci_gen_set = true;
			return UNC_OK;
		}
	FAIL("bad value '%s' for --uncore (want auto, skl, snbep, ivbep, hswep, bdx, skx, adl, tgl, disc, icl, rkl, mtl, "
	     "lnl or icx)", val);
}

enum unc_status emu_uncore_check(const struct emu_config *cfg, unsigned uncore, char *err, size_t errsize)
{
	if (uncore == EMU_UNCORE_ICX || cfg->icx_faults)
		return emu_icx_check(cfg, uncore, err, errsize) ? UNC_E_INVALID : emu_xcha_check(cfg, err, errsize);
	if (uncore == EMU_UNCORE_DISC) {
		if (cfg->skl_opts || cfg->snbep_opts)
			FAIL("an option of the %s is given, but the emulator serves the discovery-table uncore (CPUID leaf 1, "
			     "or --uncore)",
			     cfg->skl_opts ? "Skylake-client uncore" : "Xeon E5-2600 iMC");
		unsigned sockets = cfg->disc_sockets_set ? cfg->sockets : 1;
		if (cfg->disc_chas_n > 1 && cfg->disc_chas_n != sockets)
			FAIL("--chas lists %u sockets, but --sockets is %u", cfg->disc_chas_n, sockets);
		unsigned dies = cfg->disc_dies ? cfg->disc_dies : 1;
		unsigned nch = cfg->disc_channels ? cfg->disc_channels : EMU_DISC_SOCKET_CH;
		if (sockets * dies > EMU_DISC_MAX_SOCKETS)
			FAIL("--dies %u with --sockets %u makes %u tables; at most %d", dies, sockets, sockets * dies,
			     EMU_DISC_MAX_SOCKETS);
		if (dies > 1 && cfg->disc_ubox)
			FAIL("--dies %u: this identity has a UBox per socket and one table each (SPR, EMR); tables per die "
			     "are Granite Rapids' and Sierra Forest's", dies);
		if (nch % dies)
			FAIL("--dies %u does not divide the %u channels a socket has (--channels)", dies, nch);
		for (unsigned s = 0; s < sockets; s++)
			if ((cfg->disc_chas[s] ? cfg->disc_chas[s] : 1) % dies)
				FAIL("--dies %u does not divide socket %u's %u CHAs (--chas)", dies, s,
				     cfg->disc_chas[s] ? cfg->disc_chas[s] : 1);
		for (unsigned i = 0; i < cfg->nrates; i++)
			if (cfg->rate_socket[i] > sockets)
				FAIL("--socket-rate for socket %u, but --sockets is %u (sockets 0 to %u)", cfg->rate_socket[i] - 1u,
				     sockets, sockets - 1);
		return UNC_OK;
	}
	if (emu_xcha_check(cfg, err, errsize))
		return UNC_E_INVALID;
	bool xcha = emu_xcha_on(cfg); /* takes --chas, --socket-rate, --sockets */
	if (cfg->disc_opts & ~(xcha ? 1u | 8u | 16u : 1u))
		FAIL("--channels, --chas, --dies, --socket-rate and --disc-fault are for the discovery-table uncore, but the emulator "
		     "serves the %s",
		     uncore == EMU_UNCORE_SNBEP ? "Xeon E5-2600 iMC" : "Skylake-client uncore");
	/* --fault stuck names Skylake-client counters (the IMC's are also Ice
	 * Lake's and Rocket Lake's): refused where it would not apply. */
	for (unsigned i = 0; uncore != EMU_UNCORE_SKL && uncore != EMU_UNCORE_SNBEP && i < EMU_NCTR; i++) {
		bool skl_imc = uncore == EMU_UNCORE_ICL || uncore == EMU_UNCORE_RKL;
		if (cfg->stuck[i] && (i < EMU_CTR_IMC0 || !skl_imc))
			FAIL("--fault stuck=%s is a counter of the Skylake-client uncore%s, but the emulator serves the %s "
			     "uncore (CPUID leaf 1, or --uncore)",
			     i < EMU_CTR_IMC0 ? ctr_names[i] : emu_imc[i - EMU_CTR_IMC0].name,
			     i < EMU_CTR_IMC0 ? "" : " (and of the Ice Lake and Rocket Lake IMC)", emu_uncore_name(uncore));
	}
	_Static_assert(EMU_SNBEP_MAX_SOCKETS == EMU_DISC_MAX_SOCKETS, "--sockets takes 1 to 8 for either uncore");
	for (unsigned i = 0; uncore == EMU_UNCORE_SNBEP && i < cfg->npci_fault; i++) {
		int box = emu_snbep_box_of(cfg->pci_gen, cfg->pci_fault[i].bus, cfg->pci_fault[i].dev, cfg->pci_fault[i].func);
		if (box < 0)
			FAIL("--fault pci-*=%02x:%02x.%x: not a channel function of the emulated %s iMC", cfg->pci_fault[i].bus,
			     cfg->pci_fault[i].dev, cfg->pci_fault[i].func, emu_imc_gens[cfg->pci_gen].name);
	}
	if (uncore != EMU_UNCORE_SNBEP && cfg->disc_sockets_set && !xcha)
		FAIL("--sockets is for the Xeon E5-2600 iMC or the discovery-table uncore, but the emulator serves the "
		     "Skylake-client uncore (CPUID leaf 1, or --uncore)");
	if (uncore == EMU_UNCORE_ICL && cfg->global_ctrl_set)
		FAIL("--global-ctrl: the Ice Lake uncore has no global control (Linux's icl_uncore_msr_ops), and the "
		     "emulator serves it (CPUID leaf 1, or --uncore)");
	bool snbep = uncore == EMU_UNCORE_SNBEP;
	uint32_t other = snbep ? cfg->skl_opts : cfg->snbep_opts;
	const char *const *names = snbep ? skl_opt_names : snbep_opt_names;

	for (unsigned n = 0; other; n++, other >>= 1)
		if (other & 1)
			FAIL("%s is for the %s, but the emulator serves the %s (CPUID leaf 1, or --uncore)", names[n],
			     snbep ? "Skylake-client uncore" : "Xeon E5-2600 iMC",
			     snbep ? "Xeon E5-2600 iMC" : "Skylake-client uncore");
	return UNC_OK;
}

/* Skylake-client: a stuck counter or a CBo event rate needs its CBo. */
static enum unc_status check_cbos(const struct emu_config *cfg, char *err, size_t errsize)
{
	unsigned ncbo = emu_skl_cbos(cfg->no_cbo_banks);

	for (unsigned b = ncbo; b < EMU_MAX_CBO; b++)
		for (unsigned i = 0; i < 2; i++)
			if (cfg->stuck[EMU_CTR_CBO0 + 2 * b + i])
				FAIL("--fault stuck=%s: CBo %u is not emulated (NO_CBO_BANKS %u: %u CBo%s)",
				     ctr_names[EMU_CTR_CBO0 + 2 * b + i], b, cfg->no_cbo_banks, ncbo, ncbo == 1 ? "" : "s");
	for (unsigned i = 0; i < cfg->nrates && !ncbo; i++) {
		const struct emu_rate *r = &cfg->rates[i];
		if (r->unit != EMU_UNIT_CBO)
			continue;
		const char *name = "?";
		for (unsigned k = 0; k < EMU_NEVENTS; k++)
			if (emu_events[k].unit == r->unit && emu_events[k].code == r->code &&
			    emu_events[k].umask == r->umask && !emu_events[k].threshold)
				name = emu_events[k].name;
		FAIL("--rate %s: no CBo is emulated (NO_CBO_BANKS %u)", name, cfg->no_cbo_banks);
	}
	return UNC_OK;
}

static const char *core_title(unsigned unit)
{
	return unit == EMU_UNIT_P6 ? "P6" : unit == EMU_UNIT_KNC ? "Knights Corner" : "architectural";
}

/* Whether a counter of the architectural PMU's shape counts the event of
 * that key: a general counter (any, when there is one) or its fixed
 * counter (version 2 on). */
static bool arch_counts(const struct emu_arch_shape *a, uint8_t code, uint8_t umask)
{
	for (unsigned i = 0; i < emu_arch_nevents; i++) {
		const struct emu_core_event *ev = &emu_arch_events[i];
		if (ev->code != code || ev->umask != umask)
			continue;
		if ((ev->counters && a->ngp) || (ev->fixed >= 0 && a->version >= 2 && ev->fixed < a->nfixed))
			return true;
	}
	return false;
}

enum unc_status emu_core_check(const struct emu_config *cfg, unsigned core, char *err, size_t errsize)
{
	static const char *const served[] = { [EMU_CORE_NONE] = "no core PMU", [EMU_CORE_P6] = "the P6 core PMU",
					      [EMU_CORE_KNC] = "the Knights Corner core PMU",
					      [EMU_CORE_ARCH] = "the architectural core PMU" };
	unsigned unit = core == EMU_CORE_P6 ? EMU_UNIT_P6 : core == EMU_CORE_KNC ? EMU_UNIT_KNC : EMU_UNIT_ARCH;
	const struct emu_arch_shape *a = &cfg->arch;

	if (core == EMU_CORE_AUTO || core >= sizeof(served) / sizeof(served[0]))
		return UNC_OK;
	for (unsigned i = 0; i < cfg->nrates; i++) {
		const struct emu_rate *r = &cfg->rates[i];
		unsigned units = cfg->rate_units[i], nev;
		if (!units)
			continue;
		const char *name = emu_core_events(r->unit, &nev)[cfg->rate_ev[i]].name;
		if (core == EMU_CORE_NONE || !(units >> (unit - EMU_UNIT_P6) & 1)) {
			char tables[64] = "";
			for (unsigned u = EMU_UNIT_P6; u <= EMU_UNIT_ARCH; u++)
				if (units >> (u - EMU_UNIT_P6) & 1)
					fmt_snprintf(tables + strlen(tables), sizeof(tables) - strlen(tables), "%s%s",
						     tables[0] ? " or " : "", core_title(u));
			FAIL("--rate %s is an event of the %s core PMU, but the emulator serves %s (CPUID leaf 1, "
			     "--core-pmu)", name, tables, served[core]);
		}
		if (core == EMU_CORE_ARCH && r->unit == EMU_UNIT_ARCH && !arch_counts(a, r->code, r->umask))
			FAIL("--rate %s: no counter of the architectural PMU served counts it (version %u, %u general, "
			     "%u fixed counters)", name, a->version, a->ngp, a->version >= 2 ? a->nfixed : 0);
	}
	if (cfg->perf_capabilities_set && core != EMU_CORE_ARCH)
		FAIL("--perf-capabilities is the architectural PMU's, but the emulator serves %s (CPUID leaf 1, "
		     "--core-pmu)", served[core]);
	for (unsigned i = 0; i < cfg->ncpuid && core == EMU_CORE_ARCH; i++)
		if (cfg->cpuid[i].leaf == 0xA)
			FAIL("--cpuid 0xa:%u overrides CPUID leaf 0xA of the architectural PMU served (version %u, %u general, "
			     "%u fixed counters): give its shape with --arch-pmu, or --core-pmu none", cfg->cpuid[i].subleaf,
			     a->version, a->ngp, a->version >= 2 ? a->nfixed : 0);
	return UNC_OK;
}

enum unc_status emu_parse_options(int argc, char **argv, struct emu_config *cfg, char *err, size_t errsize)
{
	enum unc_status st;
	uint64_t v;
	bool imc_seen[EMU_IMC_COUNTERS] = { false }, cbo_seen = false, uclk_seen = false, rsvd_seen = false;
	bool core_seen = false, caps_seen = false, uncore_seen = false, sockets_seen = false;

	emu_config_default(cfg);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--unload"))
			continue;
		if (argc > 2)
			FAIL("--unload takes nothing else: unexpected '%s'", argv[i == 1 ? 2 : 1]);
		cfg->unload = true;
		return UNC_OK;
	}
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		bool known = !strcmp(opt, "--cbo-config") || !strcmp(opt, "--uclk-mhz") || !strcmp(opt, "--rate") ||
			     !strcmp(opt, "--fault") || !strcmp(opt, "--global-ctrl") ||
			     !strcmp(opt, "--cbo-config-reserved") || !strcmp(opt, "--cpuid") ||
			     !strcmp(opt, "--core-pmu") || !strcmp(opt, "--arch-pmu") || !strcmp(opt, "--perf-capabilities") ||
			     !strcmp(opt, "--uncore") || !strcmp(opt, "--sockets") ||
			     !strcmp(opt, "--channels") || !strcmp(opt, "--disc-fault") || !strcmp(opt, "--mchbar") ||
			     !strcmp(opt, "--chas") || !strcmp(opt, "--socket-rate") || !strcmp(opt, "--dies") ||
			     !strcmp(opt, "--icx-fault") || !strcmp(opt, "--xcha") || !strcmp(opt, "--xcha-fault");
		if (!known)
			FAIL("unknown option '%s' (--cbo-config N, --cbo-config-reserved V, --uclk-mhz F, --global-ctrl V, "
			     "--rate NAME=N, --cpuid LEAF:SUBLEAF=EAX,EBX,ECX,EDX, --core-pmu CORE, "
			     "--arch-pmu V,GP,GPW,FIXED,FIXEDW, --perf-capabilities V, --uncore auto|skl|snbep|disc, --sockets N, --channels N, --chas N[,N...], --socket-rate S:NAME=N, --disc-fault F, --icx-fault F, "
			     "--mchbar ADDR, --xcha G, --xcha-fault F, --fault KIND[=ARG], --unload)",
			     opt);
		if (i + 1 >= argc)
			FAIL("%s needs a value", opt);
		const char *val = argv[++i];
		if (!strcmp(opt, "--cbo-config")) {
			if (cbo_seen)
				FAIL("--cbo-config given twice");
			cbo_seen = true;
			if (!parse_u64(val, 15, &v))
				FAIL("bad value '%s' for --cbo-config (want 0 to 15: the raw NO_CBO_BANKS field)", val);
			cfg->no_cbo_banks = (unsigned)v;
			SKL_OPT(cfg, SKL_CBO_CONFIG);
		} else if (!strcmp(opt, "--cbo-config-reserved")) {
			if (rsvd_seen)
				FAIL("--cbo-config-reserved given twice");
			rsvd_seen = true;
			if (!parse_u64(val, UINT64_MAX, &v) || (v & EMU_SKL_NO_CBO_BANKS))
				FAIL("bad value '%s' for --cbo-config-reserved (want bits 63:4 only, e.g. 0xfffffffffffffff0; "
				     "bits 3:0 are --cbo-config)",
				     val);
			cfg->cbo_config_reserved = v;
			SKL_OPT(cfg, SKL_CBO_RESERVED);
		} else if (!strcmp(opt, "--global-ctrl")) {
			if (cfg->global_ctrl_set)
				FAIL("--global-ctrl given twice");
			if (!parse_u64(val, UINT64_MAX, &v) || !emu_global_ctrl_valid(v))
				FAIL("bad value '%s' for --global-ctrl (want bits 31:29 and 4:0 only, e.g. 0x8000001f: Table 2-2)",
				     val);
			cfg->global_ctrl_set = true;
			cfg->global_ctrl = v;
			SKL_OPT(cfg, SKL_GLOBAL_CTRL);
		} else if (!strcmp(opt, "--uclk-mhz")) {
			if (uclk_seen)
				FAIL("--uclk-mhz given twice");
			uclk_seen = true;
			/* MHz already: no k/M/G suffix */
			if (!parse_plain_decimal(val, 1000000, EMU_MAX_UCLK, &v) || v == 0)
				FAIL("bad value '%s' for --uclk-mhz (want MHz above 0, at most 4294.967295, whole Hz)", val);
			cfg->uclk_hz = v;
			SKL_OPT(cfg, SKL_UCLK);
		} else if (!strcmp(opt, "--uncore")) {
			if (uncore_seen)
				FAIL("--uncore given twice");
			uncore_seen = true;
			if ((st = parse_uncore(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--sockets")) {
			if (sockets_seen)
				FAIL("--sockets given twice");
			sockets_seen = true;
			if (!parse_u64(val, EMU_DISC_MAX_SOCKETS, &v) || v == 0)
				FAIL("bad value '%s' for --sockets (want 1 to %d; the Xeon iMC in configuration space 1 to %d)", val,
				     EMU_DISC_MAX_SOCKETS, EMU_SNBEP_MAX_SOCKETS);
			cfg->sockets = (unsigned)v;
			cfg->disc_sockets_set = true;
		} else if (!strcmp(opt, "--mchbar")) {
			if (cfg->mchbar_at)
				FAIL("--mchbar given twice");
			if (!parse_u64(val, 0xFFFFFFFFull, &v) || !v || v & (EMU_ADL_MCHBAR_SIZE - 1))
				FAIL("bad value '%s' for --mchbar (want an address below 4 GiB, a multiple of 0x%x)", val,
				     EMU_ADL_MCHBAR_SIZE);
			cfg->mchbar_at = v;
		} else if (!strcmp(opt, "--channels")) {
			if (cfg->disc_channels)
				FAIL("--channels given twice");
			if (!parse_u64(val, EMU_DISC_MAX_CH, &v) || v == 0)
				FAIL("bad value '%s' for --channels (want 1 to %d per socket; --sockets N for more sockets)", val,
				     EMU_DISC_MAX_CH);
			cfg->disc_channels = (unsigned)v;
			cfg->disc_opts |= 2;
		} else if (!strcmp(opt, "--disc-fault")) {
			unsigned bit = emu_disc_fault_find(val);
			if (!bit)
				FAIL("bad value '%s' for --disc-fault (want all-ones, no-ctr-offset, bir, second-table or bar-zero)",
				     val);
			if (cfg->disc_faults & bit)
				FAIL("--disc-fault %s given twice", val);
			cfg->disc_faults |= bit;
			cfg->disc_opts |= 4;
		} else if (!strcmp(opt, "--icx-fault")) {
			unsigned bit = emu_icx_fault_find(val);
			if (!bit)
				FAIL("bad value '%s' for --icx-fault (want mem-zero or hidden)", val);
			if (cfg->icx_faults & bit)
				FAIL("--icx-fault %s given twice", val);
			cfg->icx_faults |= bit;
		} else if (!strcmp(opt, "--dies")) {
			if (cfg->disc_dies)
				FAIL("--dies given twice");
			if (!parse_u64(val, EMU_DISC_MAX_SOCKETS, &v) || v == 0)
				FAIL("bad value '%s' for --dies (want 1 to %d tables per socket)", val, EMU_DISC_MAX_SOCKETS);
			cfg->disc_dies = (unsigned)v;
			cfg->disc_opts |= 32;
		} else if ((st = emu_xcha_option(opt, val, cfg, err, errsize)) != UNC_E_NOT_FOUND) {
			if (st)
				return st;
		} else if (!strcmp(opt, "--chas")) {
			if (cfg->disc_opts & 8)
				FAIL("--chas given twice");
			if ((st = parse_chas(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--socket-rate")) {
			if ((st = parse_socket_rate(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--core-pmu")) {
			if (core_seen)
				FAIL("--core-pmu given twice");
			core_seen = true;
			if ((st = parse_core(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--arch-pmu")) {
			if (cfg->arch_set)
				FAIL("--arch-pmu given twice");
			if ((st = parse_arch(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--perf-capabilities")) {
			if (caps_seen)
				FAIL("--perf-capabilities given twice");
			caps_seen = true;
			if (!parse_u64(val, UINT64_MAX, &v) || (v & ~EMU_ARCH_FW_WRITE))
				FAIL("bad value '%s' for --perf-capabilities (want 0 or 0x2000: only FW_WRITE, bit 13, is "
				     "modelled)",
				     val);
			cfg->perf_capabilities = v;
			cfg->perf_capabilities_set = true;
		} else if (!strcmp(opt, "--cpuid")) {
			if ((st = parse_cpuid(val, cfg, err, errsize)))
				return st;
		} else if (!strcmp(opt, "--rate")) {
			if ((st = parse_rate(val, cfg, imc_seen, err, errsize)))
				return st;
		} else if ((st = parse_fault(val, cfg, err, errsize))) {
			return st;
		}
	}
	if (cfg->arch_set && cfg->core_pmu != EMU_CORE_AUTO && cfg->core_pmu != EMU_CORE_ARCH)
		FAIL("--arch-pmu describes the architectural PMU, but --core-pmu is %s", emu_core_name(cfg->core_pmu));
	if (caps_seen && cfg->core_pmu != EMU_CORE_AUTO && cfg->core_pmu != EMU_CORE_ARCH)
		FAIL("--perf-capabilities is the architectural PMU's, but --core-pmu is %s", emu_core_name(cfg->core_pmu));
	/* The core PMU named (or --arch-pmu's): its options only (auto:
	 * checked when the model starts, emu_core_check) */
	unsigned core = cfg->core_pmu != EMU_CORE_AUTO ? cfg->core_pmu : cfg->arch_set ? EMU_CORE_ARCH : EMU_CORE_AUTO;
	if (core != EMU_CORE_AUTO && (st = emu_core_check(cfg, core, err, errsize)))
		return st;
	for (unsigned i = 0; i < cfg->npci_fault; i++) { /* a socket beyond --sockets, in any generation */
		int box = -1;
		for (unsigned g = 0; g < EMU_NGENS && box < 0; g++)
			box = emu_snbep_box_of(g, cfg->pci_fault[i].bus, cfg->pci_fault[i].dev, cfg->pci_fault[i].func);
		if (box >= (int)(cfg->sockets * EMU_SNBEP_MAX_CH))
			FAIL("--fault pci-*=%02x:%02x.%x: socket %d is absent with --sockets %u", cfg->pci_fault[i].bus,
			     cfg->pci_fault[i].dev, cfg->pci_fault[i].func, box / EMU_SNBEP_MAX_CH, cfg->sockets);
	}
	if ((st = check_max_inc(cfg, err, errsize)))
		return st;
	/* An uncore named: its options only (auto: checked when the model
	 * starts, emu_uncore_check) */
	if (cfg->uncore != EMU_UNCORE_AUTO && (st = emu_uncore_check(cfg, cfg->uncore, err, errsize)))
		return st;
	return check_cbos(cfg, err, errsize);
}

/* The Skylake-client uncore's part of the description. */
static void describe_skl(const struct emu_config *cfg, struct out *o)
{
	char mhz[24];
	unsigned nimc = 0, nunc = 0;

	bool adl = emu_client_imc(cfg->uncore_active);
	static const char *const gen[] = { [EMU_UNCORE_ADL] = "Alder/Raptor Lake", [EMU_UNCORE_TGL] = "Tiger Lake",
					   [EMU_UNCORE_ICL] = "Ice Lake", [EMU_UNCORE_RKL] = "Rocket Lake",
					   [EMU_UNCORE_MTL] = "Meteor/Arrow Lake", [EMU_UNCORE_LNL] = "Lunar Lake" };

	for (unsigned i = 0; i < EMU_IMC_COUNTERS; i++)
		nimc += !adl && cfg->imc_per_sec[i] != 0;
	for (unsigned i = 0; i < EMU_ADL_IMC_COUNTERS; i++)
		nimc += adl && cfg->adl_imc_per_sec[i] != 0;
	for (unsigned i = 0; i < cfg->nrates; i++)
		nunc += cfg->rates[i].unit < EMU_UNIT_P6;
	fmt_fixed(mhz, sizeof(mhz), cfg->uclk_hz, 1000000, 3);
	if (cfg->uncore_active < sizeof(gen) / sizeof(gen[0]) && gen[cfg->uncore_active])
		out_printf(o, "%s uncore, host bridge 8086:%04x, ", gen[cfg->uncore_active], cfg->host_bridge_id);
	out_printf(o, "NO_CBO_BANKS %u", cfg->no_cbo_banks);
	if (cfg->cbo_config_reserved)
		out_printf(o, " (bits 63:4 0x%lx)", (unsigned long)cfg->cbo_config_reserved);
	out_printf(o, ", UCLK %s MHz, %u event rates, %u IMC rates", mhz, nunc, nimc);
}

/* The E5-2600 iMC's: sockets and their buses, the DCLK, how many rates
 * (not which: `info` shows the first 159 characters, and the faults come
 * after). */
static void describe_snbep(const struct emu_config *cfg, struct out *o)
{
	char mhz[24];
	unsigned n = 0;

	for (unsigned i = 0; i < cfg->nrates; i++)
		n += cfg->rates[i].unit == EMU_UNIT_IMC;
	fmt_fixed(mhz, sizeof(mhz), cfg->dclk_hz ? cfg->dclk_hz : EMU_SNBEP_DEFAULT_DCLK, 1000000, 3);
	const struct emu_imc_gen *g = &emu_imc_gens[cfg->pci_gen < EMU_NGENS ? cfg->pci_gen : 0];
	if (cfg->pci_gen == EMU_GEN_SNB)
		out_puts(o, "Xeon E5-2600 iMC");
	else
		out_printf(o, "Xeon iMC (%s)", g->name);
	out_printf(o, ", %u socket%s (bus", cfg->sockets, cfg->sockets == 1 ? "" : "s");
	for (unsigned i = 0; i < cfg->sockets; i++)
		out_printf(o, "%s0x%02x", i ? ", " : cfg->sockets == 1 ? " " : "es ", emu_snbep_bus[i]);
	out_printf(o, "), %u channels, DCLK %s MHz, %u iMC rates", cfg->sockets * g->channels, mhz, n);
}

/* The discovery-table uncore's: channels, rates, table faults. */
static void describe_disc(const struct emu_config *cfg, struct out *o)
{
	unsigned n = 0;

	unsigned nsock = 0;
	for (unsigned i = 0; i < cfg->nrates; i++) {
		n += cfg->rates[i].unit == EMU_UNIT_DISC_IMC || cfg->rates[i].unit == EMU_UNIT_DISC_CHA;
		nsock += cfg->rate_socket[i] != 0;
	}
	unsigned nch = cfg->disc_channels ? cfg->disc_channels : EMU_DISC_SOCKET_CH;
	unsigned sockets = cfg->disc_sockets_set ? cfg->sockets : 1;

	unsigned tables = sockets * (cfg->disc_dies ? cfg->disc_dies : 1);
	out_printf(o, "discovery tables (8086:09a7) of %u socket%s at bus", sockets, sockets == 1 ? "" : "s");
	for (unsigned t = 0; t < tables; t++)
		out_printf(o, "%s0x%02x", t ? ", " : tables == 1 ? " " : "es ", EMU_DISC_BUS(t));
	out_printf(o, ", UBoxes (8086:%04x): %s, %u iMC channels and ", EMU_DISC_UBOX_ID,
		   cfg->disc_ubox ? "yes" : "none", nch);
	for (unsigned s = 0; s < sockets; s++)
		out_printf(o, "%s%u", s ? "," : "", cfg->disc_chas[s] ? cfg->disc_chas[s] : 1);
	out_printf(o, " CHAs per socket, ");
	if (cfg->disc_dies > 1)
		out_printf(o, "%u tables per socket (dies; channels and CHAs split between them), ", cfg->disc_dies);
	out_printf(o, "%u rates (%u per socket), ", n, nsock);
	out_puts(o, "table faults:");
	if (!cfg->disc_faults)
		out_puts(o, " none");
	if (cfg->disc_faults & EMU_DISC_ALL_ONES)
		out_puts(o, " all-ones");
	if (cfg->disc_faults & EMU_DISC_NO_CTR)
		out_puts(o, " no-ctr-offset");
	if (cfg->disc_faults & EMU_DISC_BIR)
		out_puts(o, " bir");
	if (cfg->disc_faults & EMU_DISC_SECOND)
		out_puts(o, " second-table");
	if (cfg->disc_faults & EMU_DISC_BAR_ZERO)
		out_puts(o, " bar-zero");
}

/* The description into o; the length it wanted is the strbuf's. */
static void describe(const struct emu_config *cfg, struct out *po)
{
	struct out o = *po;
	static const char *mchbar[] = { "", " mchbar-disabled", " mchbar-zero", " mchbar-high" };
	unsigned uncore = cfg->uncore_active != EMU_UNCORE_AUTO ? cfg->uncore_active : cfg->uncore;
	unsigned ncore = 0;
	for (unsigned i = 0; i < cfg->nrates; i++) {
		uint8_t u = cfg->rates[i].unit;
		ncore += (u == EMU_UNIT_P6 && cfg->core_active == EMU_CORE_P6) ||
			 (u == EMU_UNIT_KNC && cfg->core_active == EMU_CORE_KNC) ||
			 (u == EMU_UNIT_ARCH && cfg->core_active == EMU_CORE_ARCH);
	}
	if (uncore == EMU_UNCORE_SNBEP)
		describe_snbep(cfg, &o);
	else if (uncore == EMU_UNCORE_DISC)
		describe_disc(cfg, &o);
	else if (uncore == EMU_UNCORE_ICX)
		emu_icx_describe(cfg, &o);
	else
		describe_skl(cfg, &o);
	char xb[80]; /* the CHAs beside it (pmu_xcha.c) */
	emu_xcha_describe(cfg, xb, sizeof(xb));
	out_puts(&o, xb);
	/* The core PMU served (once the model has chosen it) */
	if (cfg->core_active == EMU_CORE_ARCH) {
		const struct emu_arch_shape *a = &cfg->arch;
		out_printf(&o, ", core arch v%u %ux%u-bit", a->version, a->ngp, a->gp_width);
		if (a->version >= 2)
			out_printf(&o, " + %u fixed x%u-bit", a->nfixed, a->fixed_width);
		out_printf(&o, "%s, %u core rates", cfg->perf_capabilities & EMU_ARCH_FW_WRITE ? " full-width" : "", ncore);
	} else if (cfg->core_active == EMU_CORE_P6 || cfg->core_active == EMU_CORE_KNC) {
		out_printf(&o, ", core %s, %u core rates", emu_core_name(cfg->core_active), ncore);
	}
	if (cfg->global_ctrl_set)
		out_printf(&o, ", GLOBAL_CTRL 0x%lx", (unsigned long)cfg->global_ctrl);
	for (unsigned i = 0; i < cfg->ncpuid; i++)
		out_printf(&o, "%s0x%x:%u", i ? " " : ", cpuid ", cfg->cpuid[i].leaf, cfg->cpuid[i].subleaf);
	out_puts(&o, ", faults:");
	const struct strbuf *sb = o.ctx;
	size_t before = sb->len;
	for (unsigned i = 0; i < cfg->ngp; i++)
		out_printf(&o, " msr-gp%s=0x%x", cfg->gp[i].write_only ? "-write" : "", cfg->gp[i].msr);
	out_puts(&o, mchbar[cfg->mchbar_fault]);
	if (cfg->pmu_in_use)
		out_puts(&o, " pmu-in-use");
	if (cfg->slow_stall_pct)
		out_printf(&o, " slow-stall=%u%%", cfg->slow_stall_pct);
	for (unsigned i = 0; i < cfg->npci_fault; i++)
		out_printf(&o, " pci-%s=%02x:%02x.%x", cfg->pci_fault[i].kind == EMU_PCI_MISSING ? "missing" : "ignore-write",
			   cfg->pci_fault[i].bus, cfg->pci_fault[i].dev, cfg->pci_fault[i].func);
	for (unsigned i = 0; i < EMU_NCTR; i++)
		if (cfg->stuck[i])
			out_printf(&o, " stuck=%s", i < EMU_CTR_IMC0 ? ctr_names[i] : emu_imc[i - EMU_CTR_IMC0].name);
	for (unsigned r = 0; r < EMU_NRO; r++)
		if (emu_ro(cfg, r))
			out_printf(&o, " ro-counters=%s", emu_ro_names[r]);
	if (sb->len == before)
		out_puts(&o, " none");
}

void emu_describe(const struct emu_config *cfg, char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	describe(cfg, &o);
	fmt_mark_cut(buf, size, sb.len); /* too long for buf: said at its end, cut between items */
}

void emu_describe_model(const struct emu *e, char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	struct out o = strbuf_out(&sb);
	describe(&e->cfg, &o);
	if (e->mbz.n)
		out_printf(&o, "; must-be-0 writes: %u, first %02x:%02x.%x [0x%03x] = 0x%08x", e->mbz.n, e->mbz.bus,
			   e->mbz.dev, e->mbz.func, e->mbz.off, e->mbz.val);
	fmt_mark_cut(buf, size, sb.len);
}
