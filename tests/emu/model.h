/* A register-level model of uncore PMUs, for tests: the host unit tests
 * drive it through the hardware seam, and uncore-emu.efi serves it to
 * uncore.efi inside QEMU.
 *
 * The core (model.c) is generic: it walks a PMU's register table (struct
 * emu_pmu, one table file per PMU: pmu_skl.c for the 6th-generation Core
 * uncore of Intel 334060-001) and calls the PMU's behaviour hooks for what
 * tables cannot say (how events count, what a wrap does).
 *
 * No firmware headers. Time is given to the model (emu_set_time, in ns);
 * counts follow from time, never from how often registers are read. */
#ifndef EMU_MODEL_H
#define EMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../drivers/base/status.h"
#include "pmu_skl.h"
#include "pmu_adl.h"
#include "pmu_mtl.h"
#include "pmu_snbep.h"
#include "pmu_disc.h"
#include "pmu_icx.h"
#include "pmu_xcha.h"

#define EMU_MAX_RATES 48
#define EMU_MAX_GP    8
#define EMU_MAX_CPUID 8
#define EMU_MAX_UCLK  4294967295ull /* Hz */

#define EMU_MAX_PCI_FAULTS 8

enum emu_mchbar_fault { EMU_MCHBAR_OK, EMU_MCHBAR_DISABLED, EMU_MCHBAR_ZERO, EMU_MCHBAR_HIGH };

struct emu_rate {
	uint8_t unit, code, umask; /* enum emu_unit (or emu_core_unit) and the event select's fields */
	uint64_t per_sec;          /* CBo events: per CBo box; core events: per logical processor */
};

/* The core PMU served beside the uncore (pmu_core.h): --core-pmu, or, for
 * EMU_CORE_AUTO, the CPU identity the guest sees (emu_core_for). */
enum emu_core { EMU_CORE_AUTO, EMU_CORE_NONE, EMU_CORE_P6, EMU_CORE_KNC, EMU_CORE_ARCH };

/* The uncore served: --uncore names one; EMU_UNCORE_AUTO takes the CPU
 * identity the guest sees (emu_uncore_for). */
enum emu_uncore {
	EMU_UNCORE_AUTO, EMU_UNCORE_SKL, EMU_UNCORE_SNBEP, EMU_UNCORE_ADL, EMU_UNCORE_TGL, EMU_UNCORE_DISC, EMU_UNCORE_ICL,
	EMU_UNCORE_RKL, EMU_UNCORE_MTL, EMU_UNCORE_LNL, EMU_UNCORE_ICX
};

/* --fault pci-missing= and pci-ignore-write=: an emulated PCI function. */
enum emu_pci_fault { EMU_PCI_MISSING, EMU_PCI_IGNORE_WRITE };

/* The architectural PMU's shape, as CPUID leaf 0xA gives it (--arch-pmu). */
struct emu_arch_shape {
	uint8_t version, ngp, gp_width, nfixed, fixed_width;
};

/* A CPUID leaf the emulator answers instead of the processor (--cpuid). */
struct emu_cpuid {
	uint32_t leaf, subleaf;
	uint32_t eax, ebx, ecx, edx;
};

struct emu_config {
	unsigned no_cbo_banks; /* raw MSR_UNC_CBO_CONFIG[3:0]; CBos = raw - 1, at most EMU_MAX_CBO */
	uint64_t uclk_hz;
	struct emu_rate rates[EMU_MAX_RATES];
	unsigned nrates;
	/* Of rates[i] for a core event: the core tables its --rate named (bit
	 * n: unit EMU_UNIT_P6 + n; a name in two tables gives a rate in each),
	 * and the event's index in its own table. 0 for the uncore's. */
	uint8_t rate_units[EMU_MAX_RATES], rate_ev[EMU_MAX_RATES];
	/* Of rates[i] for a discovery CHA event: its umask extension, select
	 * bits 63:32 (0 for every other event). */
	uint32_t rate_ext[EMU_MAX_RATES];
	uint64_t imc_per_sec[EMU_IMC_COUNTERS]; /* emu_imc order */
	uint32_t imc_start[EMU_IMC_COUNTERS];   /* the counters' values at time 0 */
	/* The Alder/Raptor Lake IMC's free-running 64-bit counters (emu_adl_imc
	 * order), and the host-bridge device ID shown at 0:0.0 (set when the
	 * model starts, from the CPU model). */
	uint64_t adl_imc_per_sec[EMU_ADL_IMC_COUNTERS], adl_imc_start[EMU_ADL_IMC_COUNTERS];
	uint16_t host_bridge_id;
	uint32_t imc_block; /* the IMC block's offset from MCHBAR (emu_adl_imc_block) */
	/* --mchbar: where the MCHBAR region is allocated (a multiple of
	 * EMU_ADL_MCHBAR_SIZE below 4 GiB); 0: wherever the firmware gives it */
	uint64_t mchbar_at;
	/* faults */
	struct { uint32_t msr; bool write_only; } gp[EMU_MAX_GP];
	unsigned ngp;
	enum emu_mchbar_fault mchbar_fault;
	bool pmu_in_use;
	/* MSR_UNC_PERF_GLOBAL_CTRL at load (--global-ctrl), after pmu_in_use */
	bool global_ctrl_set;
	uint64_t global_ctrl;
	/* Bits 63:4 of MSR_UNC_CBO_CONFIG (reserved in Table 2-6), read with
	 * NO_CBO_BANKS; the low four bits are zero */
	uint64_t cbo_config_reserved;
	bool stuck[EMU_NCTR];
	/* CPUID leaves answered instead of the processor (--cpuid) */
	struct emu_cpuid cpuid[EMU_MAX_CPUID];
	unsigned ncpuid;
	bool unload; /* --unload, alone: not a configuration, remove the emulator */
	/* The core PMU: as asked (--core-pmu), and, once the model starts
	 * (emu_init_cpu), the one it serves (never EMU_CORE_AUTO). */
	uint8_t core_pmu, core_active; /* enum emu_core */
	bool arch_set;                 /* --arch-pmu given */
	struct emu_arch_shape arch;    /* default: Skylake's, 4,4,48,3,48 */
	uint64_t perf_capabilities;    /* IA32_PERF_CAPABILITIES (0x345) of the architectural PMU */
	bool perf_capabilities_set;    /* --perf-capabilities given */
	/* CPUID leaf 1 as the guest sees it (emu_core_leaf1): served with PDCM
	 * (ECX bit 15) set when the architectural PMU is, since it serves 0x345. */
	bool leaf1_set;
	uint32_t leaf1[4];
	/* The uncore: as asked (--uncore), and, once the model starts
	 * (emu_init_cpu), the one it serves (never EMU_UNCORE_AUTO). */
	uint8_t uncore, uncore_active; /* enum emu_uncore */
	/* Options given that only one uncore takes (a bit each, options.c's
	 * tables), checked against the uncore served (emu_uncore_check). */
	uint32_t skl_opts, snbep_opts;
	/* The Xeon iMC in configuration space (pmu_snbep.c): its generation
	 * (enum emu_pci_gen: --uncore ivbep, hswep, bdx or skx, else the CPU
	 * model's when the model starts), sockets (1 to 8), DCLK (0: the
	 * default, EMU_SNBEP_DEFAULT_DCLK), faulty channel functions. */
	uint8_t pci_gen;
	bool pci_gen_set;
	unsigned sockets;
	uint64_t dclk_hz;
	struct { uint8_t bus, dev, func, kind; } pci_fault[EMU_MAX_PCI_FAULTS]; /* kind: enum emu_pci_fault */
	unsigned npci_fault;
	/* --fault slow-stall=PCT: every gBS->Stall takes PCT% longer than
	 * asked, as an SMI or a preempted virtual CPU would make it. */
	unsigned slow_stall_pct;
	/* The discovery-table uncore (pmu_disc.c): iMC channels per socket
	 * (0: 8), CHAs of each socket (0: 1), and the table's faults (enum
	 * emu_disc_fault bits). Sockets: cfg.sockets (--sockets, shared with
	 * the E5-2600 iMC; 1 unless given for this uncore). disc_ubox: the
	 * sockets have UBox devices (SPR and EMR identities; set when the model
	 * starts). */
	unsigned disc_channels;
	unsigned disc_dies; /* --dies: tables per socket (0: 1), channels and CHAs split between them */
	uint8_t disc_chas[EMU_DISC_MAX_SOCKETS], disc_chas_n; /* disc_chas_n: values --chas gave */
	bool disc_sockets_set, disc_ubox;
	uint32_t disc_faults, disc_opts;
	/* The Ice Lake-SP iMC (pmu_icx.c): --icx-fault (enum emu_icx_fault bits);
	 * its sockets, channels and rates are the discovery uncore's options. */
	uint32_t icx_faults;
	/* --fault ro-counters=UNIT: bit r (enum emu_ro) set, writes to that
	 * unit's counters (and the resets of its box controls) are ignored. */
	uint32_t ro_units;
	/* Of rates[i]: the socket a --socket-rate gives it, plus 1 (0: every
	 * socket, a --rate). A socket's own rate of an event replaces the
	 * --rate of that event on that socket. */
	uint8_t rate_socket[EMU_MAX_RATES];
	/* Of rates[i]: given as --rate of a name both the E5-2600 iMC and the
	 * discovery iMC have, with no --uncore: kept for both, each uncore
	 * counting its own (the CPU identity chooses). */
	bool rate_shared[EMU_MAX_RATES];
	/* The CHAs served beside the uncore (pmu_xcha.c): as asked (--xcha),
	 * the ones served once the model starts (enum emu_xcha), and
	 * --xcha-fault's bits. Their sockets and CHAs: --sockets and --chas. */
	uint8_t xcha, xcha_active;
	uint16_t xcha_faults;
};

extern unsigned emu_cur_pkg; /* the package of the processor making the current MSR access (0: the BSP's or unknown) */

/* The units --fault ro-counters names, by uncore.efi's PMU names. */
enum emu_ro {
	EMU_RO_CBOX, EMU_RO_ARB, EMU_RO_CLOCK, EMU_RO_HAC_ARB, EMU_RO_HAC_CBOX, EMU_RO_IMC_PROG, EMU_RO_IMC,
	EMU_RO_IMC_FIXED, EMU_RO_CHA, EMU_RO_P6, EMU_RO_KNC, EMU_RO_CPU, EMU_RO_CPU_FIXED, EMU_NRO
};
extern const char *const emu_ro_names[EMU_NRO];
/* The emu_ro of a counter's unit (enum emu_unit and the PMUs' own units,
 * as an MSR or PCI counter gives it), or -1. */
int emu_ro_of_unit(unsigned unit);
/* Whether writes to the counters of unit r (enum emu_ro) are ignored. */
static inline bool emu_ro(const struct emu_config *cfg, unsigned r)
{
	return cfg->ro_units >> r & 1;
}

struct emu_ctr {
	uint64_t sel;   /* its control register: an event select, or MSR_UNC_PERF_FIXED_CTRL */
	uint64_t value; /* always below 2^width */
	uint8_t width;
	uint8_t status_bit;
	uint8_t unit;   /* enum emu_unit */
	uint8_t index;  /* counter number within its box */
	bool stuck;
};

/* ---- A PMU as the model core sees it: a register table and hooks ---- */

enum emu_reg_kind {
	EMU_REG_COUNTER, /* a counter's value (struct emu_ctr.value), width bits */
	EMU_REG_CONTROL, /* a counter's control (emu_ctr.sel), or with ctr < 0 the global control */
	EMU_REG_STATUS,  /* the global overflow status */
	EMU_REG_CONFIG,  /* a configuration register, its value computed by read() */
	EMU_REG_PLAIN,   /* a register of its own (emu.plain[slot + i]) that the hooks read */
	EMU_REG_STATUS_CLEAR, /* an overflow control: a bit written 1 clears that global status bit; reads 0 */
};

struct emu;

/* n registers at msr, msr + stride, ... A write that sets a reserved bit,
 * or any write to a read-only register, is a #GP and changes nothing.
 * Otherwise the writable bits take the value written, an RW1C bit written
 * 1 clears, and the other bits keep their value. */
struct emu_reg {
	const char *name;  /* the manual's name of the first */
	uint32_t msr;
	uint8_t n, stride;
	uint8_t kind;      /* enum emu_reg_kind */
	uint8_t width;     /* EMU_REG_COUNTER: bits that count (it wraps at 2^width) */
	int8_t box;        /* present only while box < emu.ncbo; -1: always */
	int8_t ctr;        /* COUNTER and CONTROL: the counter (enum emu_ctr_id) of the first; -1: global */
	uint8_t unit;      /* COUNTER: enum emu_unit of its counters */
	uint8_t status_bit; /* COUNTER: the global status bit a wrap sets */
	uint64_t writable, rw1c, reserved;
	bool read_only;
	uint64_t (*read)(const struct emu *e); /* EMU_REG_CONFIG */
	bool write_only;   /* a read is a #GP */
	/* Nonzero: a write takes bits sext-1:0 of the value and sign-extends
	 * them (the legacy write of a core counter); the bits above are
	 * ignored, none is reserved, and the counter keeps its width. */
	uint8_t sext;
	bool alias;        /* COUNTER: a second address of a counter (its full-width alias) */
	uint8_t slot;      /* EMU_REG_PLAIN: emu.plain[slot] is the first */
};

/* An address range a PMU owns: an address in it that no register of the
 * table (or of a present box) answers is a #GP, not the processor's MSR. */
struct emu_window {
	uint32_t first, last;
};

/* The behaviour a register table cannot say. Counting is in cycles of the
 * PMU's clock (emu.clock_hz: UCLK for the uncore, the core clock for a core PMU). */
struct emu_pmu_ops {
	/* Box count and start-up state from e->cfg (after the core has reset
	 * the counters from the table). */
	void (*init)(struct emu *e);
	bool (*enabled)(const struct emu *e);         /* the global enable */
	bool (*ctr_enabled)(const struct emu *e, const struct emu_ctr *c); /* the counter's own enable */
	bool (*ovf_forwarded)(const struct emu_ctr *c); /* a wrap sets its global status bit */
	bool (*freeze_on_ovf)(const struct emu *e);   /* a forwarded wrap stops every counter */
	void (*freeze)(struct emu *e);                /* ... by clearing the global enable */
	/* What counter c adds over PMU clock cycles [c0, c1). */
	uint64_t (*increment)(const struct emu *e, const struct emu_ctr *c, uint64_t c0, uint64_t c1);
	/* RDPMC of index; NULL: the PMU has no RDPMC path (not emulated). */
	enum unc_status (*rdpmc)(struct emu *e, uint32_t index, uint64_t *ret_val);
};

/* An emulated PCI function: config reads and writes of it are the PMU's.
 * The hooks get the function (box: the PMU's box it is). */
struct emu_pci_dev {
	uint8_t bus, dev, func;
	enum unc_status (*read32)(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t *ret_val);
	enum unc_status (*write32)(struct emu *e, const struct emu_pci_dev *d, uint16_t off, uint32_t val);
	uint8_t box;
};

struct emu_pmu {
	const char *name;
	const struct emu_reg *regs;
	unsigned nregs;
	const struct emu_window *windows;
	unsigned nwindows;
	const struct emu_pci_dev *pci;
	unsigned npci;
	unsigned nctr; /* counters behind MSRs, at most EMU_MSR_CTRS */
	struct emu_pmu_ops ops;
	/* 32-bit loads and stores of physical addresses the PMU claims
	 * (UNC_E_NOT_FOUND: not its); NULL: none. */
	enum unc_status (*mmio_read32)(struct emu *e, uint64_t addr, uint32_t *ret_val);
	enum unc_status (*mmio_write32)(struct emu *e, uint64_t addr, uint32_t val);
	/* MSRs the PMU answers itself, before its register table (per-package
	 * state, hundreds of boxes); UNC_E_NOT_FOUND: not its. NULL: none. */
	enum unc_status (*msr_read)(struct emu *e, uint32_t msr, uint64_t *ret_val);
	enum unc_status (*msr_write)(struct emu *e, uint32_t msr, uint64_t val);
	bool msr_first; /* its MSRs are answered before any other PMU's (the CHAs beside an uncore) */
};

/* The 6th-generation Core uncore (pmu_skl.c), the Xeon E5-2600 iMC
 * (pmu_snbep.c). */
extern const struct emu_pmu emu_pmu_skl;
extern const struct emu_pmu emu_pmu_snbep;
extern const struct emu_pmu emu_pmu_adl; /* Alder/Raptor Lake (pmu_adl.c) */
extern const struct emu_pmu emu_pmu_tgl; /* Tiger Lake, and Rocket Lake's MSRs (pmu_adl.c) */
extern const struct emu_pmu emu_pmu_icl; /* Ice Lake client (pmu_adl.c) */
extern const struct emu_pmu emu_pmu_disc;
extern const struct emu_pmu emu_pmu_icx; /* Ice Lake-SP iMC (pmu_icx.c) */
extern const struct emu_pmu emu_pmu_mtl; /* Meteor/Arrow Lake (pmu_mtl.c) */
/* The PCI function every client uncore serves (pmu_adl.c): 0:0.0's ID, the
 * generation's host bridge (emu_config.host_bridge_id). */
extern const struct emu_pci_dev emu_client_pci[1];
extern const struct emu_pmu emu_pmu_lnl; /* Lunar Lake (pmu_mtl.c) */

/* Counters of one PMU: the Skylake-client uncore's behind MSRs, the
 * E5-2600 iMC's eight boxes of five, or the discovery table's sixteen
 * channels of four and a CHA. */
#define EMU_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define EMU_MAX_CTRS                                                                                                  \
	EMU_MAX2(EMU_MAX2(EMU_MAX2(EMU_SNBEP_CTRS, EMU_MSR_CTRS), EMU_DISC_CTRS), EMU_MAX2((unsigned)EMU_ADL_NCTR, (unsigned)EMU_MTL_NCTR))

#define EMU_PLAIN 4

/* One PMU's state. The model serves several PMUs at once, each a struct
 * emu with its own table and state, chained through next: an MSR that
 * one's table does not claim goes to the next (emu_init_cpu links the
 * uncore to the core PMU). */
struct emu {
	struct emu_config cfg;
	const struct emu_pmu *pmu;
	unsigned ncbo; /* boxes present: registers of a box beyond it are absent (#GP) */
	uint64_t global_ctrl, global_status;
	uint64_t plain[EMU_PLAIN]; /* EMU_REG_PLAIN registers */
	struct emu_ctr ctr[EMU_MAX_CTRS]; /* enum emu_ctr_id, or the PMU's own numbering */
	/* A PCI PMU's boxes (the E5-2600 iMC): each box control's last write
	 * (its write-only bits), and the writes that set a must-be-0 bit: how
	 * many, and the first. */
	uint32_t box_ctl[EMU_SNBEP_BOXES];
	/* The PCI functions served when the PMU builds them (the iMC of the
	 * generation cfg.pci_gen); NULL: the PMU's table (emu_pmu.pci). */
	const struct emu_pci_dev *pci;
	unsigned npci;
	struct emu_pci_dev pci_own[EMU_SNBEP_NPCI];
	/* The discovery-table uncore's per-socket state: each iMC channel's and
	 * CHA's box control (FRZ, bit 0), each CHA's filter, each socket's
	 * global control (MSR 0x2FF0), and the cycle each counter was brought
	 * up to: these counters count lazily, one at a time (pmu_disc.c). */
	struct {
		uint32_t imc_box[EMU_DISC_MAX_SOCKETS][EMU_DISC_MAX_CH];
		uint64_t cha_box[EMU_DISC_MAX_SOCKETS][EMU_DISC_MAX_CHA];
		uint64_t cha_filter[EMU_DISC_MAX_SOCKETS][EMU_DISC_MAX_CHA];
		uint64_t global[EMU_DISC_MAX_SOCKETS];
		uint64_t since[EMU_DISC_CTRS]; /* each counter's count is up to this clock cycle */
	} disc;
	struct {
		unsigned n;
		uint8_t bus, dev, func;
		uint16_t off;
		uint32_t val;
	} mbz;
	/* The programmable IMC counters (pmu_adl.c; Alder/Raptor, Meteor/Arrow and
	 * Lunar Lake), at
	 * MCHBAR + 0xD900 + 0x10000 x MC: MCHBAR as the host of the model
	 * publishes it (0: none, nothing claimed), each controller's global
	 * control, box control, event controls and counters, the time they
	 * were brought up to, and how many stores they took. */
	struct {
		uint64_t mchbar, ns;
		uint32_t global[EMU_ADL_IMCP_BOXES], box[EMU_ADL_IMCP_BOXES];
		uint32_t ctl[EMU_ADL_IMCP_BOXES][EMU_ADL_IMCP_CTRS];
		uint64_t ctr[EMU_ADL_IMCP_BOXES][EMU_ADL_IMCP_CTRS];
		unsigned writes;
	} imcp;
	uint64_t clock_hz; /* the PMU's clock: cfg.uclk_hz unless its init sets another */
	uint64_t now_ns;
	uint64_t synced; /* PMU clock cycles since time 0 already applied to the counters */
	struct emu *next; /* the next PMU served; NULL: none */
};

/* Defaults: NO_CBO_BANKS 5 (four CBos), UCLK 800 MHz, no events, IMC counters
 * still, no faults; the uncore by CPU identity; for the E5-2600 iMC two
 * sockets and DCLK 800 MHz. */
void emu_config_default(struct emu_config *cfg);

/* Parses the uncore-emu.efi options (documented in tests/emu/options.md) into cfg,
 * or sets cfg->unload for a lone --unload. argv[0] is the program name. An
 * option given twice (a rate for one counter by two names, two MCHBAR
 * faults) is an error. On error writes one line naming the bad option into
 * err and returns UNC_E_INVALID. */
enum unc_status emu_parse_options(int argc, char **argv, struct emu_config *cfg, char *err, size_t errsize);

/* One-line description of a configuration, for `info` and logs. */
void emu_describe(const struct emu_config *cfg, char *buf, size_t size);
/* The same for a running model: its configuration, then what it has seen
 * that the configuration does not say (writes that set a must-be-0 bit). */
void emu_describe_model(const struct emu *e, char *buf, size_t size);

/* Whether v sets only GLOBAL_CTRL bits the model takes (Table 2-2, plus
 * bit 4, which Linux writes). */
bool emu_global_ctrl_valid(uint64_t v);

/* The Skylake-client model (emu_pmu_skl) in its start-up state, alone. */
void emu_init(struct emu *e, const struct emu_config *cfg);
/* The uncore of a CPU identity (CPUID leaf 1 EAX): the Xeon E5-2600 iMC
 * for family 6 model 0x2D, else Skylake-client. */
enum emu_uncore emu_uncore_for(uint32_t leaf1_eax);
const char *emu_uncore_name(unsigned uncore); /* "auto", "skl", "snbep" */
/* Whether cfg's options fit the uncore (enum emu_uncore, not AUTO): an
 * option of the other uncore is an error naming it, written into err. */
enum unc_status emu_uncore_check(const struct emu_config *cfg, unsigned uncore, char *err, size_t errsize);
/* Whether cfg's options fit the core PMU served (enum emu_core, not AUTO):
 * a rate of another core table's event, or of an event no counter of the
 * architectural PMU's shape counts, --perf-capabilities without the
 * architectural PMU, or a --cpuid of the leaf 0xA it serves, is an error
 * naming it, written into err. */
enum unc_status emu_core_check(const struct emu_config *cfg, unsigned core, char *err, size_t errsize);
/* --fault ro-counters: each unit named is one the uncore or the core PMU
 * served has (else one line naming it). Checked when the model starts. */
enum unc_status emu_ro_check(const struct emu_config *cfg, unsigned uncore, unsigned core, char *err, size_t errsize);
/* Family and model (with the extended fields) of CPUID leaf 1 EAX. */
void emu_family_model(uint32_t leaf1_eax, unsigned *ret_family, unsigned *ret_model);
/* Any PMU's model, alone. */
void emu_init_pmu(struct emu *e, const struct emu_pmu *pmu, const struct emu_config *cfg);

/* The uncore (cfg->uncore, or for EMU_UNCORE_AUTO emu_uncore_for) in e and, beside it in core, the core PMU that
 * cfg->core_pmu names or, for EMU_CORE_AUTO, the architectural PMU if
 * --arch-pmu was given, else the one the CPU identity selects (emu_core_for,
 * from CPUID leaf 1 EAX as the guest sees it). e->cfg.core_active says
 * which; with none, core is unused and e serves alone, as emu_init. */
void emu_init_cpu(struct emu *e, struct emu *core, const struct emu_config *cfg, uint32_t leaf1_eax);
/* After emu_init_cpu: the guest's whole leaf 1 (EAX, EBX, ECX, EDX), which
 * the architectural PMU serves again with PDCM set (SDM: IA32_PERF_CAPABILITIES
 * exists when CPUID.1:ECX.PDCM is 1). */
void emu_core_leaf1(struct emu *e, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx);

/* What counter events over clock cycles [c0, c1) add, for an event of
 * rate r per second on a clock of f Hz spread evenly over the cycles
 * (each cycle adds floor(r/f) or one more), through the usual per-cycle
 * select fields: thr (a counter mask / threshold; 0: the increment
 * itself), inv, edge. See pmu_skl.c's skl_increment. */
uint64_t emu_spread(uint64_t f, uint64_t r, uint64_t c0, uint64_t c1, unsigned thr, bool inv, bool edge);

/* Moves model time forward (never back), for every PMU served. Counting
 * is applied lazily. */
void emu_set_time(struct emu *e, uint64_t now_ns);

/* MSR access as the hardware does it, by whichever PMU served claims the
 * address. UNC_E_FAULT is a #GP; UNC_E_NOT_FOUND means the address is not
 * an MSR the model covers. */
enum unc_status emu_msr_read(struct emu *e, uint32_t msr, uint64_t *ret_val);
enum unc_status emu_msr_write(struct emu *e, uint32_t msr, uint64_t val);

/* PCI configuration space (32-bit, off 4-byte aligned) of the functions the
 * PMU emulates; UNC_E_NOT_FOUND for any other function, which the caller
 * then reaches through the real root bridge. */
enum unc_status emu_pci_read32(struct emu *e, uint8_t bus, uint8_t dev, uint8_t func, uint16_t off,
			       uint32_t *ret_val);
enum unc_status emu_pci_write32(struct emu *e, uint8_t bus, uint8_t dev, uint8_t func, uint16_t off, uint32_t val);

/* RDPMC, by the first PMU served that has an RDPMC path (the core PMU):
 * UNC_E_FAULT is the #GP of a bad index; UNC_E_NOT_FOUND means the model
 * has no RDPMC path, and the processor's own instruction runs. */
enum unc_status emu_rdpmc(struct emu *e, uint32_t index, uint64_t *ret_val);

/* 32-bit MMIO of the addresses a PMU served claims (the discovery table
 * and its MMIO units), with the model brought up to now; UNC_E_NOT_FOUND
 * for any other address. */
enum unc_status emu_mmio_read32(struct emu *e, uint64_t addr, uint32_t *ret_val);
enum unc_status emu_mmio_write32(struct emu *e, uint64_t addr, uint32_t val);

/* CPUID leaf/subleaf as configured by --cpuid, and leaf 0xA when the
 * architectural PMU is served (cfg->core_active; a --cpuid for 0xA wins):
 * true and *ret filled when the leaf is answered, false when the processor
 * answers. */
bool emu_cpuid(const struct emu_config *cfg, uint32_t leaf, uint32_t subleaf, struct emu_cpuid *ret);

/* The value of IMC counter i (Table 3-3 order) at time t. Pure: it does not
 * change the model, so a timer can call it while MSR calls are running. */
uint32_t emu_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns);

/* A 32-bit read at offset off of MCHBAR at time t: true and *ret_val for an
 * IMC counter of Table 3-3, false for any other offset. Pure, as
 * emu_imc_value. */
bool emu_imc_read32(const struct emu_config *cfg, uint32_t off, uint64_t t_ns, uint32_t *ret_val);

/* The Alder/Raptor Lake IMC counter i (emu_adl_imc order) at time t, and a
 * 32-bit read at MCHBAR offset off (either dword of a counter). Pure. */
uint64_t emu_adl_imc_value(const struct emu_config *cfg, unsigned i, uint64_t t_ns);
bool emu_adl_imc_read32(const struct emu_config *cfg, uint32_t off, uint64_t t_ns, uint32_t *ret_val);

/* MCHBAR as the platform shows it, for a region at `base` (32 KiB aligned),
 * with the configured fault applied. */
uint64_t emu_mchbar_value(const struct emu_config *cfg, uint64_t base);

#include "pmu_core.h"

extern unsigned emu_cur_pkg; /* the package of the processor making the current MSR access (0: the BSP's or unknown) */

#endif
