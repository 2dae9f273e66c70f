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

#define EMU_SNBEP_MAX_SOCKETS 2
#define EMU_SNBEP_CHANNELS    4
#define EMU_SNBEP_BOXES       (EMU_SNBEP_MAX_SOCKETS * EMU_SNBEP_CHANNELS)
/* Per box (socket, channel): CTR0-3, then the fixed counter. */
#define EMU_SNBEP_BOX_CTRS    5
#define EMU_SNBEP_FIXED       4
#define EMU_SNBEP_CTRS        (EMU_SNBEP_BOXES * EMU_SNBEP_BOX_CTRS)
/* The fixed counter's DCLK when no --rate UNC_M_DCLOCKTICKS gives it:
 * DDR3-1600's 800 MHz. */
#define EMU_SNBEP_DEFAULT_DCLK 800000000ull
/* The channel functions: device 16, functions 0, 1, 4, 5 = channels 0-3,
 * on bus 0x3F (socket 0) and 0x7F (socket 1). */
#define EMU_SNBEP_DEV 16
extern const uint8_t emu_snbep_bus[EMU_SNBEP_MAX_SOCKETS];
extern const uint8_t emu_snbep_func[EMU_SNBEP_CHANNELS];
extern const uint16_t emu_snbep_device_id[EMU_SNBEP_CHANNELS];

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
/* The box of an emulated channel function, or -1. */
int emu_snbep_box_of(uint8_t bus, uint8_t dev, uint8_t func);

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
