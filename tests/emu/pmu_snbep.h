/* The Xeon E5-2600 (Sandy Bridge-EP) iMC as the emulator knows it: the
 * channel functions' PCI configuration space and the iMC events, typed from
 * Intel 327043-001 (through a Chinese summary of its iMC section) with the device IDs of
 * Linux's snbep_uncore_pci_ids and the unit masks of Intel's perfmon JKT
 * uncore file, independently of the application's tables (events/,
 * drivers/pmu/). The register table and hooks are in pmu_snbep.c. */
#ifndef EMU_PMU_SNBEP_H
#define EMU_PMU_SNBEP_H

#include <stdbool.h>
#include <stdint.h>

#define EMU_SNBEP_MAX_SOCKETS 8 /* the biggest parts' (Xeon E7, Xeon Scalable) */
#define EMU_SNBEP_DEFAULT_SOCKETS 2
#define EMU_SNBEP_CHANNELS    4 /* Sandy Bridge-EP's, per socket */
#define EMU_SNBEP_MAX_CH      8 /* any generation's: box s * 8 + c is channel c of socket s */
#define EMU_SNBEP_BOXES       (EMU_SNBEP_MAX_SOCKETS * EMU_SNBEP_MAX_CH)
/* Per box (socket, channel): CTR0-3, then the fixed counter. */
#define EMU_SNBEP_BOX_CTRS    5
#define EMU_SNBEP_FIXED       4
#define EMU_SNBEP_CTRS        (EMU_SNBEP_BOXES * EMU_SNBEP_BOX_CTRS)
/* The fixed counter's DCLK when no --rate UNC_M_DCLOCKTICKS gives it:
 * DDR3-1600's 800 MHz. */
#define EMU_SNBEP_DEFAULT_DCLK 800000000ull
/* The channel functions of Sandy Bridge-EP: device 16, functions 0, 1, 4,
 * 5 = channels 0-3, on bus 0x3F (socket 0) and 0x7F (socket 1); sockets
 * 2-7 (an emulator's choice, the uncore bus at the top of each socket's
 * range as on two sockets) on 0xBF, 0xFF, 0x1F, 0x5F, 0x9F and 0xDF. */
#define EMU_SNBEP_DEV 16
extern const uint8_t emu_snbep_bus[EMU_SNBEP_MAX_SOCKETS];
extern const uint8_t emu_snbep_func[EMU_SNBEP_CHANNELS];
extern const uint16_t emu_snbep_device_id[EMU_SNBEP_CHANNELS];

/* The iMC in configuration space of each generation, typed here from
 * Linux's *_uncore_pci_ids and snbep_pci2phy_map_init calls and Intel
 * PCM's types.h (not from drivers/pmu): cfg.pci_gen, chosen by --uncore or
 * the CPU model. */
enum emu_pci_gen { EMU_GEN_SNB, EMU_GEN_IVB, EMU_GEN_HSX, EMU_GEN_BDX, EMU_GEN_SKX, EMU_NGENS };
struct emu_imc_gen {
	const char *name;   /* "Haswell-EP" */
	const char *uncore; /* its --uncore name: "hswep" */
	uint8_t channels;   /* per socket */
	uint8_t dev[EMU_SNBEP_MAX_CH], func[EMU_SNBEP_MAX_CH];
	uint16_t id[EMU_SNBEP_MAX_CH];
	uint16_t ubox_id;
	uint8_t ubox_dev, ubox_func, ubox_node, ubox_map; /* its function, CPUNODEID and GIDNIDMAP offsets */
	int8_t ubox_bus;    /* the UBox's bus: the iMC's plus this */
	bool box_rst;       /* BOX_CTL has rst_ctrl (0) and rst_ctrs (1), frz and frz_en read back */
	uint16_t ubox_fn0;  /* where the UBox is not function 0: that device's function 0's ID (read only) */
};
extern const struct emu_imc_gen emu_imc_gens[EMU_NGENS];
/* The generation of a CPU model (family 6), or -1. */
int emu_imc_gen_for(unsigned model);
/* BOX_CTL from Ivy Bridge-EP on: rst_ctrl zeroes the CTLs, rst_ctrs the
 * counters (Linux IVBEP_PMON_BOX_CTL_INT's bits). */
#define EMU_BOX_RST_CTRL (1u << 0)
#define EMU_BOX_RST_CTRS (1u << 1)

/* Units of the iMC events (struct emu_rate.unit, struct emu_ctr.unit),
 * after enum emu_core_unit's. */
enum emu_snbep_unit { EMU_UNIT_IMC = 16, EMU_UNIT_IMC_FIXED };

struct emu_snbep_event {
	const char *name;  /* Intel's perfmon name; Intel 327043-001's short name is it without UNC_M_ */
	uint8_t code, umask;
	uint8_t max_inc;   /* Intel 327043-001's "Max Inc/Cyc" */
};
extern const struct emu_snbep_event emu_snbep_events[];
extern const unsigned emu_snbep_nevents;

/* An iMC event by Intel's name or the guide's short name (any case); NULL
 * when unknown. */
const struct emu_snbep_event *emu_snbep_event_find(const char *name);
/* Whether name is the fixed counter's (UNC_M_DCLOCKTICKS, or Intel's JKT
 * name UNC_M_CLOCKTICKS, or either short name). */
bool emu_snbep_is_dclk(const char *name);
/* The box (socket * 8 + channel) of a channel function of generation g,
 * or -1. */
int emu_snbep_box_of(unsigned g, uint8_t bus, uint8_t dev, uint8_t func);
/* The PCI functions of generation g on sockets: its channels, then a UBox
 * a socket (and function 0 of its device where it is another function),
 * into d (room for EMU_SNBEP_NPCI); how many. */
#define EMU_SNBEP_NPCI (EMU_SNBEP_BOXES + 2 * EMU_SNBEP_MAX_SOCKETS)
struct emu_pci_dev;
unsigned emu_snbep_pci(unsigned g, struct emu_pci_dev *d);

/* A register of a channel function's configuration space: n dwords at
 * off, off + stride, ... Bits are read-write (rw), write-only (wo: they
 * act when written and read 0), must-be-0 (mbz: "必须为0" in the Chinese
 * summary of Intel 327043-001), or
 * reserved (the rest): reserved bits read 0 and drop writes. */
enum emu_snbep_kind {
	EMU_SNBEP_ID,        /* vendor ID 15:0, device ID 31:16; read-only */
	EMU_SNBEP_CTR_LO,    /* bits 31:0 of a 48-bit counter */
	EMU_SNBEP_CTR_HI,    /* bits 47:32 of it in 15:0 */
	EMU_SNBEP_CTL,       /* a counter's control (emu_ctr.sel) */
	EMU_SNBEP_FIXED_CTL, /* the fixed counter's control; rst clears the counter */
	EMU_SNBEP_BOX_CTL,   /* the box control: frz_en, frz */
};

struct emu_snbep_reg {
	const char *name; /* Intel 327043-001's name of the first */
	uint16_t off;
	uint8_t n, stride;
	uint8_t kind;     /* enum emu_snbep_kind */
	uint8_t ctr;      /* CTR_LO/HI, CTL, FIXED_CTL: the box's counter of the first */
	uint32_t rw, wo, mbz;
};
extern const struct emu_snbep_reg emu_snbep_regs[];
extern const unsigned emu_snbep_nregs;

/* BOX_CTL (Intel 327043-001): frz_en 16 and frz 8, both write-only; bits 17 and
 * 1:0 must be 0. FIXED_CTL: en 22, rst 19 (write-only). CTL: ev_sel 7:0,
 * umask 15:8, edge 18, en 22, invert 23, thresh 31:24; bits 17:16 must be 0. */
#define EMU_SNBEP_BOX_FRZ_EN (1u << 16)
#define EMU_SNBEP_BOX_FRZ    (1u << 8)
#define EMU_SNBEP_EN         (1u << 22)
#define EMU_SNBEP_FIXED_RST  (1u << 19)

#endif
