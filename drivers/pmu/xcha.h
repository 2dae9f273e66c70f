/* The CHA (caching and home agent) units of Skylake-SP, Cascade Lake and
 * Cooper Lake (skx-cha) and of Ice Lake-SP and Ice Lake-D (icx-cha), in
 * MSRs of each package, with the layout of Linux uncore_snbep.c
 * (skx_uncore_chabox, icx_uncore_chabox). Only drivers/pmu/xcha*.c and the
 * tests include it. Notes and sources: xcha.md. */
#ifndef UNC_PMU_XCHA_H
#define UNC_PMU_XCHA_H

#include "../engine/pmu.h"

extern const struct pmu_driver pmu_driver_skxcha;
extern const struct pmu_driver pmu_driver_icxcha;

enum { XCHA_UNIT_CHA, XCHA_NUNITS };

/* Box control (Linux SNBEP_PMON_BOX_CTL_*): the CHA's has no FRZ_EN
 * (skx_uncore_chabox_ops). */
#define XCHA_BOX_RST_CTRL (1u << 0)
#define XCHA_BOX_RST_CTRS (1u << 1)
#define XCHA_BOX_FRZ      (1u << 8)
#define XCHA_CTL_EN       (1u << 22) /* SNBEP_PMON_CTL_EN */

/* Skylake-SP: CHA n's box control at 0xE00 + 0x10 n (HSWEP_C0_MSR_PMON_BOX_CTL,
 * HSWEP_CBO_MSR_OFFSET), its selects at +1..+4, its counters at +8..+0xB. */
#define XCHA_SKX_BOX0   0xE00u
#define XCHA_SKX_STRIDE 0x10u
#define XCHA_SKX_CHAS   28 /* CAPID6 bits 27:0 */
/* Ice Lake-SP: CHA n's at 0xB60 (ICX_C34_MSR_PMON_BOX_CTL) + icx_cha_msr_offsets[n]. */
#define XCHA_ICX_BASE   0xB60u
#define XCHA_ICX_CHAS   40
extern const uint16_t xcha_icx_offsets[XCHA_ICX_CHAS];
#define XCHA_SEL_OFF 1 /* CTL0 from the box control */
#define XCHA_CTR_OFF 8 /* CTR0 */

/* The CHA count: each socket's PCU function 3 (device 30), CAPID6 at 0x9C
 * (SKX 8086:2083, bits 27:0; skx_count_chabox), with CAPID7 at 0xA0 on
 * ICX (8086:345B; icx_count_chabox), popcount. The socket from the UBox
 * on the same bus (SKX 8086:2014 device 8 function 0, ICX 8086:3450
 * device 0 function 0): CPUNODEID 0xC0 and GIDNIDMAP 0xD4 (SKX_CPUNODEID,
 * SKX_GIDNIDMAP; snbep_pci2phy_map_init). */
#define XCHA_PCU_DEV   30
#define XCHA_PCU_FUNC  3
#define XCHA_CAPID6    0x9C
#define XCHA_CAPID7    0xA0
#define XCHA_CPUNODEID 0xC0
#define XCHA_GIDNIDMAP 0xD4
#define XCHA_MAX_SOCKETS 8 /* GIDNIDMAP maps 8 node IDs; SKX and CLX reach 8 sockets */

/* facts[] */
enum xcha_fact {
	XCHA_FACT_SUMMARY, /* sockets 7:0, bit 8 numbered by node ID, packages known 23:16, bit 24 a socket
			      not reached (partial), bits 47:32 family << 8 | model, 55:48 stepping */
	XCHA_FACT_SOCK0,   /* sockets 2k (31:0) and 2k+1 (63:32), k = fact - XCHA_FACT_SOCK0: bus 7:0, CHAs
			      15:8, its number 18:16 (GIDNIDMAP's field, else bus order), bit 19 a UBox, bit 20 its
			      package reached, bit 21 CAPID read failed */
	XCHA_FACT_CAPID = XCHA_FACT_SOCK0 + XCHA_MAX_SOCKETS / 2, /* the first socket found's CAPID6 31:0 and (ICX) CAPID7 63:32, as read */
};
#define XCHA_S_UBOX    (1u << 19)
#define XCHA_S_REACHED (1u << 20)
#define XCHA_S_FAILED  (1u << 21)

static inline uint32_t xcha_sock(const struct pmu_present *p, unsigned s)
{
	return (uint32_t)(p->facts[XCHA_FACT_SOCK0 + s / 2] >> (32 * (s % 2)));
}

bool xcha_is_icx(const struct pmu_present *p);
void xcha_info(struct out *o, const struct pmu_present *p, bool json);
const char *xcha_caveat(const struct pmu_present *p, char *buf, size_t size);

#endif
