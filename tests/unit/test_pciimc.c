/* The Xeon iMC in PCI configuration space from Ivy Bridge-EP to Cooper Lake
 * (drivers/pmu/pciimc.c on snbep.c's ops) and the emulator's generations
 * (tests/emu/pmu_snbep.c), each against literals typed here from Linux's
 * arch/x86/events/intel/uncore_snbep.c (the *_uncore_pci_ids tables,
 * snbep_pci2phy_map_init's arguments, SNBEP_PMON_BOX_CTL_*, the CAS
 * events) and Intel PCM's src/types.h (*_MC*_CH*_REGISTER_DEV/FUNC_ADDR);
 * then the driver counting on the emulator on 2 and 8 sockets. */
#include <stdio.h>
#include <string.h>

#include "../../drivers/base/arith.h"
#include "../../drivers/pmu/snbep.h"
#include "../emu/emu_hw.h"
#include "../emu/model.h"
#include "run_help.h"
#include "t.h"

#define S 1000000000ull /* ns */
/* CPUID leaf 1 EAX: family 6 and the model (extended model in 19:16) */
#define IVB_ID 0x000306E4u /* 0x3E stepping 4 */
#define HSX_ID 0x000306F2u /* 0x3F */
#define BDX_ID 0x000406F1u /* 0x4F */
#define BDE_ID 0x00050663u /* 0x56 */
#define SKX_ID 0x00050654u /* 0x55 stepping 4 */
#define CLX_ID 0x00050657u /* 0x55 stepping 7 */
#define CPX_ID 0x0005065Bu /* 0x55 stepping 11 */

/* Linux uncore_snbep.c and PCM, per generation: the channels in Linux's
 * order (box 0, 1, ...), where PCM puts them, and the UBox. */
static const struct {
	uint32_t cpuid;
	unsigned channels;
	uint8_t dev[8], func[8];
	uint16_t id[8];
	uint16_t ubox;
	uint8_t node, map;
} want[] = {
	/* ivbep_uncore_pci_ids "MC0 Channel 0/1/3/4", "MC1 Channel 0/1/3/4";
	 * PCM JKTIVT_MC0_CH0-3 16.4 16.5 16.0 16.1, JKTIVT_MC1 30.x;
	 * snbep_pci2phy_map_init(0x0e1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54) */
	{ IVB_ID, 8, { 16, 16, 16, 16, 30, 30, 30, 30 }, { 4, 5, 0, 1, 4, 5, 0, 1 },
	  { 0x0eb4, 0x0eb5, 0x0eb0, 0x0eb1, 0x0ef4, 0x0ef5, 0x0ef0, 0x0ef1 }, 0x0e1e, 0x40, 0x54 },
	/* hswep_uncore_pci_ids MC0/MC1 Channel 0-3; PCM HSX_MC0_CH0-3 20.0 20.1
	 * 21.0 21.1, HSX_MC1 23.0 23.1 24.0 24.1; snbep_pci2phy_map_init(0x2f1e, ...) */
	{ HSX_ID, 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
	  { 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5, 0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5 }, 0x2f1e, 0x40, 0x54 },
	/* bdx_uncore_pci_ids; PCM's HSX locations; snbep_pci2phy_map_init(0x6f1e, ...) */
	{ BDX_ID, 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
	  { 0x6fb0, 0x6fb1, 0x6fb4, 0x6fb5, 0x6fd0, 0x6fd1, 0x6fd4, 0x6fd5 }, 0x6f1e, 0x40, 0x54 },
	{ BDE_ID, 8, { 20, 20, 21, 21, 23, 23, 24, 24 }, { 0, 1, 0, 1, 0, 1, 0, 1 },
	  { 0x6fb0, 0x6fb1, 0x6fb4, 0x6fb5, 0x6fd0, 0x6fd1, 0x6fd4, 0x6fd5 }, 0x6f1e, 0x40, 0x54 },
	/* skx_uncore_pci_ids UNCORE_PCI_DEV_FULL_DATA(10, 2 / 10, 6 / 11, 2 /
	 * 12, 2 / 12, 6 / 13, 2); snbep_pci2phy_map_init(0x2014, SKX_CPUNODEID
	 * 0xc0, SKX_GIDNIDMAP 0xd4, false) */
	{ SKX_ID, 6, { 10, 10, 11, 12, 12, 13 }, { 2, 6, 2, 2, 6, 2 }, { 0x2042, 0x2046, 0x204a, 0x2042, 0x2046, 0x204a },
	  0x2014, 0xc0, 0xd4 },
};

static unsigned model_of(uint32_t id)
{
	return (id >> 4 & 0xF) | (id >> 12 & 0xF0);
}

/* The driver's table and the emulator's each hold Linux's and PCM's
 * values, and the models are Linux's (INTEL_IVYBRIDGE_X 62, HASWELL_X 63,
 * BROADWELL_X 79, BROADWELL_D 86, SKYLAKE_X 85). */
static void conformance_generations(void)
{
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned model = model_of(want[i].cpuid);
		int eg = emu_imc_gen_for(model);
		T_ASSERT(eg > 0);
		const struct emu_imc_gen *x = &emu_imc_gens[eg];
		const struct snbep_gen *g = NULL;
		for (unsigned k = 0; k < SNBEP_NGENS; k++)
			if (snbep_gens[k].ubox_id == want[i].ubox)
				g = &snbep_gens[k];
		T_ASSERT(g != NULL);
		if (!g)
			continue;
		bool matched = false;
		for (const struct pmu_model *m = pmu_driver_pciimc.models; m->family; m++)
			matched |= m->family == 6 && m->model == model;
		T_ASSERT(matched);
		T_EQ(g->channels, want[i].channels);
		T_EQ(x->channels, want[i].channels);
		for (unsigned c = 0; c < want[i].channels; c++) {
			T_EQ(g->dev[c], want[i].dev[c]);
			T_EQ(g->func[c], want[i].func[c]);
			T_EQ(g->id[c], want[i].id[c]);
			T_EQ(x->dev[c], want[i].dev[c]);
			T_EQ(x->func[c], want[i].func[c]);
			T_EQ(x->id[c], want[i].id[c]);
		}
		T_EQ(g->ubox_node, want[i].node);
		T_EQ(g->ubox_map, want[i].map);
		T_EQ(x->ubox_id, want[i].ubox);
		T_EQ(x->ubox_node, want[i].node);
		T_EQ(x->ubox_map, want[i].map);
		T_ASSERT(x->box_rst);
		/* Linux's reverse argument is false on SKX only */
		T_EQ(g->ubox_below, want[i].ubox == 0x2014);
	}
}

/* Linux: SNBEP_PCI_PMON_BOX_CTL 0xf4, SNBEP_PCI_PMON_CTL0 0xd8,
 * SNBEP_PCI_PMON_CTR0 0xa0, SNBEP_MC_CHy_PCI_PMON_FIXED_CTL 0xf0 and
 * _CTR 0xd0 for every generation's imc; IVBEP_PMON_BOX_CTL_INT =
 * RST_CTRL (bit 0) | RST_CTRS (bit 1) | FRZ_EN (bit 16), SNBEP_PMON_BOX_CTL_FRZ
 * bit 8; the counters are reset through the box control, never written. */
static void conformance_registers(void)
{
	const struct pmu_unit *g = &pmu_driver_pciimc.units[SNBEP_UNIT_IMC];
	const struct pmu_unit *x = &pmu_driver_pciimc.units[SNBEP_UNIT_FIXED];

	T_EQ(g->box_ctl, 0xF4);
	T_EQ(g->sel_base, 0xD8);
	T_EQ(g->ctr_base, 0xA0);
	T_EQ(g->sel_step, 4);
	T_EQ(g->ctr_step, 8);
	T_EQ(g->counters, 4);
	T_EQ(g->width, 48);
	T_EQ(g->max_boxes, PMU_BOXES_ANY);
	T_EQ(g->ctr_write, PMU_CTR_BOX_RESET);
	T_EQ(x->sel_base, 0xF0);
	T_EQ(x->ctr_base, 0xD0);
	T_EQ(x->fixed_ctrl, 1u << 22);
	T_EQ(x->ctr_write, PMU_CTR_BOX_RESET);
	T_EQ(g->layout->enable, 1u << 22);
	T_EQ(g->layout->edge, 1u << 18);
	T_EQ(g->layout->inv, 1u << 23);
	T_EQ(SNBEP_BOX_RST_CTRS, 1u << 1);
	T_EQ(SNBEP_BOX_FRZ, 1u << 8);
	T_EQ(SNBEP_BOX_FRZ_EN, 1u << 16);
	T_EQ(EMU_BOX_RST_CTRL, 1u << 0);
	T_EQ(EMU_BOX_RST_CTRS, 1u << 1);
	T_STREQ(g->role_events[0].event, "UNC_M_CAS_COUNT.RD");
	T_STREQ(g->role_events[1].event, "UNC_M_CAS_COUNT.WR");
}

static const struct event_desc *find(const struct event_table *t, const char *name)
{
	for (unsigned i = 0; t && i < t->count; i++)
		if (!strcmp(t->events[i].name, name))
			return &t->events[i];
	return NULL;
}

/* Each model's events: Intel's perfmon file as its mapfile.csv maps the
 * model (6-3E IVT, 6-3F HSX, 6-4F BDX, 6-56 BDW-DE, 6-55 steppings 0-4 SKX,
 * 5-F CLX) with its count of iMC events, and in each UNC_M_CAS_COUNT.RD /
 * .WR as those files and Linux's hswep_uncore_imc_events and
 * skx_uncore_imc_events give them: event 0x04, umask 0x03 and 0x0c. The
 * DRAM clock as each file gives it: IVT's and HSX's UNC_M_DCLOCKTICKS
 * event 0x00 on counters 0-3, BDX's UNC_M_CLOCKTICKS the fixed counter. */
static void conformance_events(void)
{
	static const struct {
		uint32_t id;
		const char *file;
		unsigned count;
		const char *clock;
		uint8_t clock_counters;
	} files[] = {
		{ SKX_ID, "skylakex_uncore.json", 16, "UNC_M_CLOCKTICKS", 0x0F },
		{ CLX_ID, "cascadelakex_uncore.json", 27, "UNC_M_CLOCKTICKS", 0x0F },
		{ CPX_ID, "cascadelakex_uncore.json", 27, "UNC_M_CLOCKTICKS", 0x0F },
		{ IVB_ID, "ivytown_uncore.json", 198, "UNC_M_DCLOCKTICKS", 0x0F },
		{ HSX_ID, "haswellx_uncore.json", 323, "UNC_M_DCLOCKTICKS", 0x0F },
		{ BDX_ID, "broadwellx_uncore.json", 324, "UNC_M_CLOCKTICKS", EV_COUNTER_FIXED },
		{ BDE_ID, "broadwellde_uncore.json", 322, "UNC_M_DCLOCKTICKS", 0x0F },
	};
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct cpu_info cpu = { .family = 6, .model = model_of(files[i].id), .stepping = files[i].id & 0xF };
		const struct event_table *t = pmu_driver_pciimc.events_for(&cpu);
		T_ASSERT(t != NULL);
		if (!t)
			continue;
		T_STREQ(t->file, files[i].file);
		T_EQ(t->count, files[i].count);
		const struct event_desc *rd = find(t, "UNC_M_CAS_COUNT.RD"), *wr = find(t, "UNC_M_CAS_COUNT.WR");
		const struct event_desc *clk = find(t, files[i].clock);
		T_ASSERT(rd && wr && clk);
		if (!rd || !wr || !clk)
			continue;
		T_EQ(rd->code, 0x04);
		T_EQ(rd->umask, 0x03);
		T_EQ(wr->code, 0x04);
		T_EQ(wr->umask, 0x0C);
		T_STREQ(rd->unit, "iMC");
		T_EQ(clk->code, 0x00);
		T_EQ(clk->counters, files[i].clock_counters);
	}
	struct cpu_info other = { .family = 6, .model = 0x2D };
	T_ASSERT(pmu_driver_pciimc.events_for(&other) == NULL);
}

static struct emu e, core;

static void start(uint32_t id, int argc, char **argv)
{
	struct emu_config cfg;
	char err[300] = "";

	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "options: %s", err);
	emu_init_cpu(&e, &core, &cfg, id);
}

/* From Ivy Bridge-EP on, BOX_CTL's rst_ctrs zeroes the box's five
 * counters and rst_ctrl its controls, both reading 0; frz_en and frz read
 * back. Sandy Bridge-EP's BOX_CTL reads 0 and has no reset. */
static void emulated_box_control(void)
{
	uint32_t v;

	start(HSX_ID, 1, (char *[]){ "emu" });
	T_EQ(e.cfg.pci_gen, EMU_GEN_HSX);
	T_EQ(emu_pci_read32(&e, 0x7F, 24, 1, 0, &v), UNC_OK);
	T_EQ(v, 0x2FD58086u);
	/* the UBox at 10.5 (16.5) behind function 0, 8086:2F1D, as public
	 * Linux boot logs of Haswell-EP list them ("ff:10.0: [8086:2f1d]",
	 * "ff:10.5: [8086:2f1e]") */
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 5, 0, &v), UNC_OK);
	T_EQ(v, 0x2F1E8086u);
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 5, 0x40, &v), UNC_OK);
	T_EQ(v, 1); /* socket 1's node ID */
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x2F1D8086u);
	T_EQ(emu_pci_write32(&e, 0x7F, 16, 0, 0x40, 0x1234), UNC_OK);
	T_EQ(emu_pci_read32(&e, 0x7F, 16, 0, 0x40, &v), UNC_OK);
	T_EQ(v, 0); /* read only */
	T_EQ(emu_pci_write32(&e, 0x3F, 21, 1, 0xA0, 0x1234), UNC_OK); /* channel 3's CTR0 */
	T_EQ(emu_pci_write32(&e, 0x3F, 21, 1, 0xD0, 0x99), UNC_OK);   /* its FIXED_CTR */
	T_EQ(emu_pci_write32(&e, 0x3F, 21, 1, 0xD8, 0x400304), UNC_OK);
	T_EQ(emu_pci_write32(&e, 0x3F, 21, 1, 0xF4, 1u << 16 | 1u << 8 | 1u << 1), UNC_OK);
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0xF4, &v), UNC_OK);
	T_EQ(v, 1u << 16 | 1u << 8);
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0xA0, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0xD0, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0xD8, &v), UNC_OK);
	T_EQ(v, 0x400304); /* rst_ctrs leaves the controls */
	T_EQ(emu_pci_write32(&e, 0x3F, 21, 1, 0xF4, 1u << 0), UNC_OK);
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0xD8, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(e.mbz.n, 0);
	/* The same function on another generation is not there */
	start(SKX_ID, 1, (char *[]){ "emu" });
	T_EQ(emu_pci_read32(&e, 0x3F, 21, 1, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(emu_pci_read32(&e, 0x3F, 13, 2, 0, &v), UNC_OK);
	T_EQ(v, 0x204A8086u);
	T_EQ(emu_pci_read32(&e, 0x3E, 8, 0, 0, &v), UNC_OK); /* the UBox, a bus below */
	T_EQ(v, 0x20148086u);
	T_EQ(emu_pci_read32(&e, 0x3E, 8, 0, 0xC0, &v), UNC_OK);
	T_EQ(v, 0);
	/* --uncore names the generation whatever the CPU */
	start(HSX_ID, 3, (char *[]){ "emu", "--uncore", "ivbep" });
	T_EQ(e.cfg.pci_gen, EMU_GEN_IVB);
	T_EQ(emu_pci_read32(&e, 0x3F, 30, 4, 0, &v), UNC_OK);
	T_EQ(v, 0x0EF48086u);
	/* --sockets 8: the eighth socket's last channel */
	start(BDX_ID, 3, (char *[]){ "emu", "--sockets", "8" });
	T_EQ(emu_pci_read32(&e, 0xDF, 24, 1, 0, &v), UNC_OK);
	T_EQ(v, 0x6FD58086u);
}

static struct emu_hw eh;
static struct stat_run srun;

/* The driver on the emulated generation: every channel of every socket a
 * box, numbered by the UBoxes, each counting its rate exactly; every
 * control the run wrote put back (the counters, reset through the box
 * control as Linux resets them, are not). */
static void count_on(uint32_t id, const char *sockets, const char *model_name)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_pciimc, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	struct emu_config cfg;
	char err[300] = "";
	unsigned ns = (unsigned)sockets[0] - '0';

	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--sockets", (char *)sockets, "--rate", "UNC_M_CAS_COUNT.RD=10M" },
			       &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init_cpu(&eh, &cfg, id);
	eh.open_bus = true;
	eh.fake.now = 7 * S;
	struct cpu_info cpu;
	cpu_identify(&eh.hw, &cpu);
	pmu_events_cpu(&cpu);
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	/* the DRAM clock by the name of Intel's file for the model: BDX's
	 * UNC_M_CLOCKTICKS the fixed counter; SKX's and CLX's UNC_M_CLOCKTICKS
	 * and the others' UNC_M_DCLOCKTICKS event 0x00 on a general counter */
	unsigned m = model_of(id);
	run_add(&srun, drivers, m == 0x4F || m == 0x55 ? "UNC_M_CLOCKTICKS" : "UNC_M_DCLOCKTICKS");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	const struct pmu_present *p = &srun.pmu[0].p;
	unsigned ch = emu_imc_gens[eh.emu.cfg.pci_gen].channels;
	T_STREQ(p->model, model_name);
	T_EQ(p->boxes[SNBEP_UNIT_IMC], ns * ch);
	T_EQ(p->facts[SNBEP_FACT_SOCKETS] & 0x1FF, ns | 0x100); /* numbered by the UBoxes' node IDs */
	T_EQ(p->group[SNBEP_UNIT_IMC][ns * ch - 1], ns - 1);
	T_EQ(p->box_id[SNBEP_UNIT_IMC][ns * ch - 1], ch - 1);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	T_STREQ(srun.err, "");
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	for (unsigned b = 0; b < ns * ch; b++) {
		T_EQ(srun.c.ev[0].total.box[b], u64_muldiv(elapsed, 10000000, S));
		T_EQ(srun.c.ev[1].total.box[b], u64_muldiv(elapsed, 800000000, S));
	}
	/* as found: every CTL, FIXED_CTL and BOX_CTL reads 0 again */
	for (unsigned b = 0; b < EMU_SNBEP_BOXES; b++) {
		T_EQ(eh.emu.box_ctl[b], 0);
		for (unsigned i = 0; i < EMU_SNBEP_BOX_CTRS; i++)
			T_EQ(eh.emu.ctr[b * EMU_SNBEP_BOX_CTRS + i].sel, 0);
	}
	unsigned ctr_writes = 0, box_writes = 0;
	for (unsigned i = 0; i < eh.fake.nlog; i++) {
		unsigned off = (unsigned)(eh.fake.log[i].addr >> 24) & 0xFFF;
		if (eh.fake.log[i].kind != FAKE_PCI)
			continue;
		ctr_writes += (off >= 0xA0 && off < 0xC0) || (off >= 0xD0 && off < 0xD8);
		box_writes += off == 0xF4;
	}
	T_EQ(ctr_writes, 0); /* never written, as Linux never writes them */
	T_ASSERT(box_writes >= 4 * ns * ch);
	pmu_events_cpu(NULL);
}

static void ivybridge_ep_two_sockets(void)
{
	count_on(IVB_ID, "2", "Ivy Bridge-EP");
}

static void haswell_ep_eight_sockets(void)
{
	count_on(HSX_ID, "8", "Haswell-EP"); /* 64 channels */
}

static void broadwell_two_sockets(void)
{
	count_on(BDX_ID, "2", "Broadwell-EP");
	count_on(BDE_ID, "1", "Broadwell-DE");
}

static void skylake_sp_family_by_stepping(void)
{
	count_on(SKX_ID, "2", "Skylake-SP");
	count_on(CLX_ID, "8", "Cascade Lake"); /* 48 channels, each UBox a bus below its iMC's */
	count_on(CPX_ID, "2", "Cooper Lake");
}

/* Nine uncore buses (an Ivy Bridge-EP channel 0, 8086:0EB4 at 16.4, on
 * buses 0x10 to 0x18; nothing else answers): more sockets than a UBox's
 * GIDNIDMAP maps, refused in one line naming the limit, no box kept. */
static enum unc_status nine_read(void *ctx, struct pci_addr a, uint16_t off, uint32_t *ret_val)
{
	(void)ctx;
	*ret_val = a.bus >= 0x10 && a.bus <= 0x18 && a.dev == 16 && a.func == 4 && off == 0 ? 0x0EB48086u : 0xFFFFFFFFu;
	return UNC_OK;
}

static void nine_sockets_refused(void)
{
	static const struct hw_ops ops = { .pci_read32 = nine_read };
	struct hw hw = { .ops = &ops };
	struct cpu_info cpu = { .family = 6, .model = 0x3E };
	struct pmu_present p = { .drv = &pmu_driver_pciimc };
	char err[200] = "", warn[100] = "";

	T_EQ(pmu_driver_pciimc.ops->probe(&hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "found iMC channels on more than 8 uncore buses: at most 8 sockets can be counted (the UBox's "
		     "GIDNIDMAP maps 8 node IDs)");
	T_EQ(p.boxes[SNBEP_UNIT_IMC], 0);
	pmu_present_free(&p);
}

T_MAIN("pciimc", T_CASE(nine_sockets_refused), T_CASE(conformance_generations), T_CASE(conformance_registers), T_CASE(conformance_events),
       T_CASE(emulated_box_control), T_CASE(ivybridge_ep_two_sockets), T_CASE(haswell_ep_eight_sockets),
       T_CASE(broadwell_two_sockets), T_CASE(skylake_sp_family_by_stepping))
