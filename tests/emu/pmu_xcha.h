/* The CHAs of Skylake-SP/Cascade Lake/Cooper Lake and Ice Lake-SP, as the
 * emulator serves them beside whatever uncore it serves (pmu_xcha.c): per
 * package MSRs (emu_cur_pkg), and per socket the PCU function with CAPID6
 * (and CAPID7) and the UBox. Typed from Linux uncore_snbep.c and Intel PCM
 * (src/types.h), independently of drivers/pmu/. */
#ifndef EMU_PMU_XCHA_H
#define EMU_PMU_XCHA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../drivers/base/status.h"

/* --xcha: which CHAs (auto: by the CPU model, 0x55 SKX, 0x6A/0x6C ICX). */
enum emu_xcha { EMU_XCHA_AUTO, EMU_XCHA_NONE, EMU_XCHA_SKX, EMU_XCHA_ICX };

#define EMU_XCHA_MAX_SOCKETS 8
#define EMU_XCHA_SKX_CHAS    28 /* CAPID6 bits 27:0 (Linux skx_count_chabox) */
#define EMU_XCHA_ICX_CHAS    40 /* Linux icx_cha_msr_offsets[] */
/* Socket s's PCU (device 30 function 3) is on its UBox's bus: the
 * uncore's when the uncore served beside has UBoxes (the Skylake-SP iMC,
 * Ice Lake-SP), else EMU_XCHA_BUS(s), with a UBox of this emulator's own
 * (SKX device 8, ICX device 0, function 0): this emulator's choice. */
#define EMU_XCHA_BUS(s) ((uint8_t)(0x10 + 0x20 * (s)))
#define EMU_UNIT_XCHA 30 /* struct emu_rate.unit of its events */

/* --xcha-fault: bit s (0-7) hides socket s's PCU function (all ones, as
 * firmware that hides it); EMU_XCHA_NO_UBOX: no socket has its UBox. */
#define EMU_XCHA_NO_UBOX (1u << 8)

struct emu;
struct emu_config;
struct emu_disc_event;

/* The CHAs a configuration serves for CPUID leaf 1 EAX (never AUTO). */
uint8_t emu_xcha_for(const struct emu_config *cfg, uint32_t leaf1_eax);
/* The CHAs' model, reset for cfg (cfg->xcha_active set): NULL when none is
 * served. One at a time: its state is the file's own (static), as the
 * resident driver holds one model. */
struct emu *emu_xcha_attach(const struct emu_config *cfg);
/* Whether CHAs are served: chosen when the model starts, or named by
 * --xcha (while the options are parsed). */
bool emu_xcha_on(const struct emu_config *cfg);
/* Sockets served (--sockets, 1 unless given) and socket s's CHAs (--chas; the generation's most unless given). */
unsigned emu_xcha_sockets(const struct emu_config *cfg);
unsigned emu_xcha_chas(const struct emu_config *cfg, unsigned s);
/* --rate names of its events (the encodings Skylake-SP and Ice Lake-SP share). */
const struct emu_disc_event *emu_xcha_event_find(const char *name);
/* --xcha and --xcha-fault; UNC_E_NOT_FOUND: opt is neither. */
enum unc_status emu_xcha_option(const char *opt, const char *val, struct emu_config *cfg, char *err, size_t errsize);
/* Whether cfg's --chas, --sockets and --socket-rate fit the CHAs served. */
enum unc_status emu_xcha_check(const struct emu_config *cfg, char *err, size_t errsize);
/* ", skx CHAs on 2 sockets (28,26)" for emu_describe. */
void emu_xcha_describe(const struct emu_config *cfg, char *buf, size_t size);

#endif
