/* The Ice Lake-SP iMC: its facts as typed from Linux's uncore_snbep.c and
 * Intel PCM (literals here, never the driver's tables), the emulator's
 * registers (tests/emu/pmu_icx.c), and uncore.efi's driver and engine
 * counting on it: two sockets of twelve channels, a controller whose
 * offset reads 0, a device hidden by the firmware. */
#include <string.h>
#include "t.h"
#include "run_help.h"
#include "../emu/emu_hw.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/counts.h"
#include "../../drivers/engine/events.h"
#include "../../drivers/engine/evsel.h"
#include "../../drivers/engine/pmu.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/report.h"
#include "../../drivers/pmu/icx.h"
#include "../../drivers/pmu/ubox.h"

#define S 1000000000ull
#define ICX_CPUID 0x000606A6u /* family 6 model 0x6A stepping 6 */

static struct emu_hw eh;
static struct stat_run srun;

static void start(int argc, char **argv)
{
	struct emu_config cfg;
	char err[300] = "";

	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "options: %s", err);
	emu_hw_init_cpu(&eh, &cfg, ICX_CPUID);
	eh.open_bus = true;
	eh.fake.now = 3 * S;
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
}
/* The run's waits: the fake clock jumps to the time asked. */
#define START(...) start((int)(sizeof((char *[]){ "emu", __VA_ARGS__ }) / sizeof(char *)), (char *[]){ "emu", __VA_ARGS__ })

/* Linux: SNR_MC_DEVICE_ID 0x3451, icx_uncore_pci_init's UBox 0x3450 with
 * SKX_CPUNODEID 0xc0 and SKX_GIDNIDMAP 0xd4; SNR_IMC_MMIO_BASE_OFFSET 0xd0,
 * _BASE_MASK 0x1FFFFFFF (<< 23), _MEM0_OFFSET 0xd8, _MEM0_MASK 0x7FF (<< 12),
 * ICX_IMC_MEM_STRIDE 4, ICX_NUMBER_IMC_CHN 3, num_boxes 12,
 * SNR_IMC_MMIO_PMON_BOX_CTL 0x22800, SNR_IMC_MMIO_OFFSET 0x4000,
 * SNR_IMC_MMIO_PMON_CTL0 0x40, _CTR0 0x8, _FIXED_CTR 0x38, _FIXED_CTL 0x54;
 * SNBEP_PMON_BOX_CTL_RST_CTRL 1, _RST_CTRS 2, _FRZ 0x100, _FRZ_EN 0x10000;
 * SNBEP_PMON_CTL_EN 0x400000; snr_uncore_imc_events cas_count_read
 * event=0x04,umask=0x0f, cas_count_write 0x04/0x30. PCM: 0xd0, 0xd8 + 4 i,
 * SERVER_MC_CH_PMON_BASE_ADDR 0x22800, _STEP 0x4000, _CTL0_OFFSET 0x40,
 * _CTR0_OFFSET 0x08, _FIXED_CTR_OFFSET 0x38, _FIXED_CTL_OFFSET 0x54. */
static void facts_as_typed(void)
{
	T_EQ(ICX_MC_ID, 0x3451);
	T_EQ(ICX_UBOX_ID, 0x3450);
	T_EQ(ICX_CPUNODEID, 0xC0);
	T_EQ(ICX_GIDNIDMAP, 0xD4);
	T_EQ(ICX_MMIO_BASE, 0xD0);
	T_EQ(ICX_MEM0, 0xD8);
	T_EQ(ICX_MEM_STRIDE, 4);
	T_EQ(ICX_CHANNELS, 12);
	T_EQ(ICX_CH_PER_MC, 3);
	T_EQ(ICX_CTL0, 0x40);
	T_EQ(ICX_CTR0, 0x08);
	T_EQ(ICX_FIXED_CTR, 0x38);
	T_EQ(ICX_FIXED_CTL, 0x54);
	T_EQ(ICX_BOX_RST_CTRL, 0x1);
	T_EQ(ICX_BOX_RST_CTRS, 0x2);
	T_EQ(ICX_BOX_FRZ, 0x100);
	T_EQ(ICX_BOX_FRZ_EN, 0x10000);
	T_EQ(ICX_CTL_EN, 0x400000);
	/* ((0xd0 & 0x1FFFFFFF) << 23 | (mem & 0x7FF) << 12) + 0x22800 + 0x4000 (i % 3) */
	T_EQ(icx_box_addr(0xE00001FA, 0xFFFFF840, 0), ((0x1FAull << 23) | (0x040ull << 12)) + 0x22800);
	T_EQ(icx_box_addr(0x1FA, 0x80, 5), ((0x1FAull << 23) | (0x80ull << 12)) + 0x22800 + 0x8000);
	T_EQ(icx_box_addr(0x1FFFFFFF, 0x7FF, 11), (0x1FFFFFFFull << 23 | 0x7FFull << 12) + 0x22800 + 0x8000);
	T_EQ(icx_box_addr(0, 0x40, 0), 0);  /* no BAR */
	T_EQ(icx_box_addr(0x1FA, 0, 0), 0); /* no controller offset */
	T_EQ(icx_box_addr(0x1FA, 0x40, 12), 0);
	/* the events as Intel's file (icelakex_uncore.json) and Linux give them */
	const struct event_desc *rd = evsel_find(&pmu_driver_icx, "UNC_M_CAS_COUNT.RD");
	const struct event_desc *wr = evsel_find(&pmu_driver_icx, "UNC_M_CAS_COUNT.WR");
	T_ASSERT(rd && wr);
	T_EQ(rd->code, 0x04);
	T_EQ(rd->umask, 0x0F);
	T_EQ(wr->code, 0x04);
	T_EQ(wr->umask, 0x30);
	T_EQ(pmu_driver_icx.units[0].layout->enable, 0x400000);
	T_EQ(pmu_driver_icx.units[0].layout->rw_mask, 0xFFC4FFFF); /* SNBEP_PMON_RAW_EVENT_MASK | EN */
	/* Linux's GIDNIDMAP(config, i) and the reverse fill */
	T_EQ(ubox_socket_of(4, 0x447D63), 1);
	T_EQ(ubox_socket_of(0xB, 0x447D63), 0); /* bits 2:0 only */
	T_EQ(ubox_socket_of(3, 0), -1);
	int bus[256];
	for (unsigned b = 0; b < 256; b++)
		bus[b] = -1;
	bus[0x7E] = 0, bus[0xFE] = 1;
	ubox_fill_down(bus);
	T_EQ(bus[0], 0);
	T_EQ(bus[0x7E], 0);
	T_EQ(bus[0x7F], 1);
	T_EQ(bus[0xFF], -1);
}

/* The emulator's devices and boxes, as Linux reads and writes them. */
static void emulator_registers(void)
{
	uint32_t v = 0;
	uint64_t box;

	START("--sockets", "2", "--rate", "UNC_M_CAS_COUNT.RD=50000000");
	T_EQ(eh.emu.cfg.uncore_active, EMU_UNCORE_ICX);
	T_EQ(emu_pci_read32(&eh.emu, 0x7E, 0, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x34508086);
	T_EQ(emu_pci_read32(&eh.emu, 0xFE, 0, 1, 0, &v), UNC_OK);
	T_EQ(v, 0x34518086);
	T_EQ(emu_pci_read32(&eh.emu, 0x7E, 0, 1, 0xD0, &v), UNC_OK);
	T_EQ(v, 0x1FA); /* 0xfd000000 >> 23 */
	T_EQ(emu_pci_read32(&eh.emu, 0x7E, 0, 1, 0xDC, &v), UNC_OK);
	T_EQ(v, 0x80);
	/* read-only: a write is ignored and recorded */
	T_EQ(emu_pci_write32(&eh.emu, 0x7E, 0, 1, 0xD0, 0), UNC_OK);
	T_EQ(emu_pci_read32(&eh.emu, 0x7E, 0, 1, 0xD0, &v), UNC_OK);
	T_EQ(v, 0x1FA);
	T_EQ(eh.emu.mbz.n, 1);
	box = ((0x1FAull << 23) | (0x40ull << 12)) + 0x22800; /* socket 0, channel 0 */
	emu_set_time(&eh.emu, 3 * S);
	T_EQ(emu_mmio_write32(&eh.emu, box + 0x40, 0x00400F04), UNC_OK); /* CAS_COUNT.RD, EN */
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x40, &v), UNC_OK);
	T_EQ(v, 0x00400F04);
	emu_set_time(&eh.emu, 4 * S);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x08, &v), UNC_OK);
	T_EQ(v, 50000000); /* a second at 50M/s: the model's time started at 3 s */
	/* FRZ stops the box; RST_CTRS zeroes the counters, RST_CTRL the controls, both read 0 */
	T_EQ(emu_mmio_write32(&eh.emu, box, 0x100), UNC_OK);
	emu_set_time(&eh.emu, 5 * S);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x08, &v), UNC_OK);
	T_EQ(v, 50000000);
	T_EQ(emu_mmio_write32(&eh.emu, box, 0x102), UNC_OK);
	T_EQ(emu_mmio_read32(&eh.emu, box, &v), UNC_OK);
	T_EQ(v, 0x100);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x08, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x40, &v), UNC_OK);
	T_EQ(v, 0x00400F04);
	T_EQ(emu_mmio_write32(&eh.emu, box, 0x3), UNC_OK);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x40, &v), UNC_OK);
	T_EQ(v, 0);
	/* socket 1's channel 10: controller 3, second channel */
	box = ((0x1FBull << 23) | (0x100ull << 12)) + 0x22800 + 0x4000;
	T_EQ(emu_mmio_write32(&eh.emu, box + 0x54, 0x400000), UNC_OK); /* the half clock */
	emu_set_time(&eh.emu, 6 * S);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x38, &v), UNC_OK);
	T_EQ(v, 800000000u);

	/* a channel not active (by default the third of each controller):
	 * reads 0, ignores writes; --channels 12 makes it active */
	box = ((0x1FAull << 23) | (0x100ull << 12)) + 0x22800 + 0x8000; /* controller 3: box 11 */
	T_EQ(emu_mmio_write32(&eh.emu, box + 0x40, 0x00400F04), UNC_OK);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x40, &v), UNC_OK);
	T_EQ(v, 0);
	START("--channels", "12");
	T_EQ(emu_mmio_write32(&eh.emu, box + 0x40, 0x00400F04), UNC_OK);
	T_EQ(emu_mmio_read32(&eh.emu, box + 0x40, &v), UNC_OK);
	T_EQ(v, 0x00400F04);

	/* faults */
	START("--sockets", "2", "--icx-fault", "mem-zero", "--icx-fault", "hidden");
	T_EQ(emu_pci_read32(&eh.emu, 0x7E, 0, 1, 0xDC, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_pci_read32(&eh.emu, 0xFE, 0, 1, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&eh.emu, 0xFE, 0, 0, 0, &v), UNC_OK);

	struct emu_config cfg;
	char err[300] = "";
	char *bad[] = { "emu", "--uncore", "icx", "--sockets", "3" };
	T_EQ(emu_parse_options(5, bad, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "--sockets 3: Ice Lake-SP has 1 or 2");
	char *other[] = { "emu", "--icx-fault", "hidden" };
	T_EQ(emu_parse_options(3, other, &cfg, err, sizeof(err)), UNC_OK);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_SKL, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "--icx-fault is for the Ice Lake-SP iMC");
}

/* Two Ice Lake-SP sockets: the driver finds both devices, ties each to its
 * socket through the UBoxes, programs two channels of each controller (8 a
 * socket); each counts its socket's rate; rows per socket and per channel;
 * every register put back, the BARs never written. */
static void two_sockets_of_eight_channels(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_icx, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	static char text[16384];
	char name[32];

	START("--sockets", "2", "--rate", "UNC_M_CAS_COUNT.RD=50000000", "--socket-rate", "1:UNC_M_CAS_COUNT.RD=30000000",
	      "--rate", "UNC_M_CAS_COUNT.WR=20000000");
	emu_hw_pkgs(&eh, 2);
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.WR");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	const struct pmu_present *p = &srun.pmu[0].p;
	T_EQ(p->boxes[0], 16);
	T_EQ(p->box_base[0][0], 0xFD062800ull);
	T_EQ(p->box_base[0][15], 0xFD800000ull + 0x100000 + 0x22800 + 0x4000);
	T_EQ(p->facts[ICX_FACT_SOCKETS] & ICX_SOCKETS_BY_NODE, ICX_SOCKETS_BY_NODE);
	T_EQ(p->partial, false);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start, wr = 20000000ull * elapsed / S;
	uint64_t rds[2] = { 50000000ull * elapsed / S, 30000000ull * elapsed / S };
	T_EQ(srun.c.ev[0].v.nboxes, 16);
	for (unsigned b = 0; b < 16; b++) {
		uint64_t got = srun.c.ev[0].total.box[b], wgot = srun.c.ev[1].total.box[b];
		T_ASSERT(got + 2 >= rds[b / 8] && got <= rds[b / 8] + 2);
		T_ASSERT(wgot + 2 >= wr && wgot <= wr + 2);
		T_EQ(srun.c.ev[0].v.group[b], b / 8);
		T_EQ(srun.c.ev[0].v.box_id[b], b % 8 / 2 * 3 + b % 2); /* boxes 0, 1, 3, 4, ... */
	}
	for (unsigned g = 0; g < 2; g++) {
		uint64_t r = count_role_part(&srun.c, PMU_ROLE_DRAM_READ, g, true, false, 0);
		T_ASSERT(r + 16 >= 8 * rds[g] && r <= 8 * rds[g] + 16);
	}
	T_STREQ(count_box_name(&srun.c.ev[0].v, 15, name, sizeof(name)), "socket1.ch10");
	/* every register as found: controls 0, box controls 0; the BARs never written */
	for (unsigned b = 0; b < 16; b++) {
		uint32_t v = 1;
		T_EQ(emu_mmio_read32(&eh.emu, p->box_base[0][b] + 0x4C, &v), UNC_OK);
		T_EQ(v, 0);
		v = 1;
		T_EQ(emu_mmio_read32(&eh.emu, p->box_base[0][b], &v), UNC_OK);
		T_EQ(v, 0);
	}
	T_EQ(eh.emu.mbz.n, 0);
	struct report_opts ro = { .per_box = true };
	struct strbuf sb;
	strbuf_init(&sb, text, sizeof(text));
	struct out out = strbuf_out(&sb);
	report_bw_final(&out, &ro, &eh.hw, &srun.c, NULL);
	T_CONTAINS(text, "socket1.ch10 ");
	T_NOT_CONTAINS(text, "socket1.ch11 ");
	T_CONTAINS(text, "socket1        read      15360.000 MB/s  write      10240.000 MB/s");
	/* a stored record keeps every box, read back as the run was */
	static uint8_t rbuf[16384];
	static struct rec_print_ws ws;
	run_record(&srun.c, &ro, rbuf, sizeof(rbuf), &ws);
	T_EQ(ws.run.ev[0].v.nboxes, 16);
	T_EQ(memcmp(ws.run.ev[0].total.box, srun.c.ev[0].total.box, 16 * sizeof(uint64_t)), 0);
	T_EQ(memcmp(ws.run.ev[0].v.box_id, srun.c.ev[0].v.box_id, 16), 0);
	/* info: how the sockets were found, each device, its BAR */
	strbuf_init(&sb, text, sizeof(text));
	struct out oi = strbuf_out(&sb);
	pmu_driver_icx.ops->info(&oi, p, false);
	T_CONTAINS(text, "imc:          2 sockets, 16 channels (MMIO of device 8086:3451); 4 counters, 48 bits\n");
	T_CONTAINS(text, "  box 2 of each controller not programmed (PCM counts 2 channels a controller here;");
	T_CONTAINS(text, "  sockets numbered by their buses' UBoxes (8086:3450: CPUNODEID 0xc0 in GIDNIDMAP 0xd4) (2 UBoxes found)\n");
	T_CONTAINS(text, "  socket 0: 8086:3451 at 7e:00.1, BAR 0xfd000000, controllers 0 at +0x40000, 1 at +0x80000, "
			 "2 at +0xc0000, 3 at +0x100000; 8 channels\n");
	T_CONTAINS(text, "  socket 1: 8086:3451 at fe:00.1, BAR 0xfd800000,");
	T_NOT_CONTAINS(text, "missing");
	/* info -j: its members, valid JSON */
	strbuf_init(&sb, text, sizeof(text));
	struct out oj = strbuf_out(&sb);
	out_puts(&oj, "{\"driver\":\"icx\"");
	pmu_driver_icx.ops->info(&oj, p, true);
	out_puts(&oj, "}");
	T_JSON(text, false);
	T_CONTAINS(text, "\"sockets_numbered_by\":\"ubox_node_id\",\"sockets\":[{\"socket\":0,\"device\":\"7e:00.1\","
			 "\"bar\":\"0xfd000000\",\"controllers\":[\"0x40000\",\"0x80000\",\"0xc0000\",\"0x100000\"],"
			 "\"channels\":[0,1,3,4,6,7,9,10]}");
	char reg[64];
	struct pmu_reg r = { .space = PMU_MMIO, .addr = p->box_base[0][15] + 0x4C };
	T_STREQ(pmu_driver_icx.ops->reg_name(p, r, reg, sizeof(reg)), "MC3_CH1_PMON_CTL3 (socket 1)");
	r.addr = p->box_base[0][3] + 0x0C;
	T_STREQ(pmu_driver_icx.ops->reg_name(p, r, reg, sizeof(reg)), "MC1_CH1_PMON_CTR0[63:32] (socket 0)");
}

/* A controller whose offset reads 0 (its three channels absent) and the
 * second socket's device hidden: each said, the run partial. */
static void missing_channels_said(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_icx };
	char err[300] = "", warn[400] = "", buf[4096];
	struct strbuf sb;

	START("--sockets", "2", "--icx-fault", "mem-zero");
	emu_hw_pkgs(&eh, 2);
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_icx.ops->probe(&eh.hw, &cpu, 1, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 14);
	T_EQ(p.box_id[0][2], 6); /* channels 3-5 absent on socket 0 */
	T_EQ(p.partial, false);
	T_STREQ(warn, "socket 0 controller 1 (channels 3-5): its offset reads 0 (0xdc): not counted (iMC totals and bw "
		      "lack its traffic)");
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_icx.ops->info(&o, &p, false);
	T_CONTAINS(buf, "imc:          2 sockets, 14 channels (");
	T_CONTAINS(buf, "  missing: socket 0 controller 1 (channels 3-5): its offset reads 0 (0xdc)\n");
	pmu_present_free(&p);

	START("--sockets", "2", "--icx-fault", "hidden");
	emu_hw_pkgs(&eh, 2);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_icx;
	T_EQ(pmu_driver_icx.ops->probe(&eh.hw, &cpu, 1, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 8);
	T_EQ(p.partial, true);
	T_CONTAINS(warn, "socket 1 has a UBox (8086:3450) but no 8086:3451 on its buses");
	pmu_present_free(&p);
}

/* Ice Lake-D (model 0x6C): three channels a controller, as PCM counts them. */
static void icx_d_three_a_controller(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_icx };
	char err[300] = "", warn[100] = "";
	struct emu_config cfg;
	char *argv[] = { "emu", "--channels", "12" };

	T_EQ(emu_parse_options(3, argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init_cpu(&eh, &cfg, 0x000606C1u); /* family 6 model 0x6C */
	eh.open_bus = true;
	T_EQ(eh.emu.cfg.uncore_active, EMU_UNCORE_ICX);
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_icx.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 12);
	T_EQ(p.boxes[1], 12);
	T_EQ(p.box_base[1][11], 0xFD000000ull + 0x100000 + 0x22800 + 0x8000);
	T_STREQ(warn, "");
	pmu_present_free(&p);
}

T_MAIN("icx", T_CASE(facts_as_typed), T_CASE(emulator_registers), T_CASE(two_sockets_of_eight_channels), T_CASE(icx_d_three_a_controller),
       T_CASE(missing_channels_said))
