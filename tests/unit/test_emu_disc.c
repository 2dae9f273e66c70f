/* The emulated discovery-table uncore (tests/emu/pmu_disc.c): its table
 * read back as typed from Linux's struct layouts (literals here, as in the
 * minimal recipe: global stride 4; iMC 4 regs, ctl_offset 0x40, 48 bits,
 * ctr_offset 8, MMIO = 0x4000000008304004; CHA 4 regs, ctl_offset 2, 48
 * bits, ctr_offset 8, MSR = 0x0000000008300204), its options, and
 * uncore.efi's driver and engine counting on it. */
#include <string.h>
#include "t.h"
#include "run_help.h"
#include "../emu/emu_hw.h"
#include "../../drivers/base/arith.h"
#include "../../drivers/base/fmt.h"
#include "../../drivers/engine/info.h"
#include "../../drivers/engine/pmu.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/report.h"
#include "../../drivers/pmu/disc.h"

#define S 1000000000ull
#define SPR_ID 0x000806F8u /* family 6 model 0x8F stepping 8 */
#define GNR_ID 0x000A06D1u /* family 6 model 0xAD stepping 1 */

extern const struct pmu_driver pmu_driver_disc;

static struct emu_hw eh;
static struct stat_run srun;

static void start(uint32_t id, int argc, char **argv)
{
	struct emu_config cfg;
	char err[300] = "";

	if (emu_parse_options(argc, argv, &cfg, err, sizeof(err)) != UNC_OK)
		t_fail(__FILE__, __LINE__, "options: %s", err);
	emu_hw_init_cpu(&eh, &cfg, id);
	eh.open_bus = true;
	eh.fake.now = 3 * S;
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
}
#define START(id, ...) start((id), (int)(sizeof((char *[]){ "emu", __VA_ARGS__ }) / sizeof(char *)), (char *[]){ "emu", __VA_ARGS__ })

static uint64_t q(uint64_t addr)
{
	uint32_t lo = 0, hi = 0;

	T_EQ(emu_mmio_read32(&eh.emu, addr, &lo), UNC_OK);
	T_EQ(emu_mmio_read32(&eh.emu, addr + 4, &hi), UNC_OK);
	return (uint64_t)hi << 32 | lo;
}

static void table_as_typed(void)
{
	uint32_t v = 0;

	START(SPR_ID, "--uncore", "disc");
	T_EQ(eh.emu.cfg.uncore_active, EMU_UNCORE_DISC);
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0A, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x09A78086);
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0A, 0, 0x100, &v), UNC_OK);
	T_EQ(v, 0x00010023);
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0A, 0, 0x108, &v), UNC_OK);
	T_EQ(v, 1);
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0A, 0, 0x10, &v), UNC_OK);
	T_EQ(v, 0xFE000004);
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0B, 0, 0, &v), UNC_E_NOT_FOUND); /* no second table unless asked */
	/* Every unit type in the notes' order (servers.md "Real sizes") with
	 * Linux's SPR type numbers: 1 CHA (type 0), 12 IIO (1), 12 IRP (2),
	 * 12 M2PCIe (3), 15 MDF (11), 4 UPI (8), 4 M3UPI (9), 4 M2M (7), 1 PCU
	 * (4), 1 UBox (5), 8 iMC (6): 74 units */
	T_EQ(q(0xFE000000), 0x00000000004A0400ull); /* stride 4, max_units 74 */
	T_EQ(q(0xFE000008), 0x2FF0);
	T_EQ(q(0xFE000020), 0x0000000008300204ull); /* the CHA first */
	T_EQ(q(0xFE000028), 0x2000);
	T_EQ(q(0xFE000030), 0);
	T_EQ(q(0xFE000050), 0x1);                   /* IIO box 0 */
	T_EQ(q(0xFE000050 + 11 * 0x20), 0x000B0001ull);
	T_EQ(q(0xFE000050 + 12 * 0x20), 0x2);       /* IRP box 0 */
	T_EQ(q(0xFE000050 + 36 * 0x20), 0xB);       /* MDF box 0 */
	T_EQ(q(0xFE000050 + 51 * 0x20), 0x8);       /* UPI */
	T_EQ(q(0xFE000050 + 55 * 0x20), 0x9);       /* M3UPI */
	T_EQ(q(0xFE000050 + 59 * 0x20), 0x7);       /* M2M */
	T_EQ(q(0xFE000050 + 63 * 0x20), 0x4);       /* PCU */
	T_EQ(q(0xFE000050 + 64 * 0x20), 0x5);       /* UBox */
	T_EQ(q(0xFE000860), 0x4000000008304004ull); /* entry 67: iMC channel 0 */
	T_EQ(q(0xFE000868), 0xFE010000ull);
	T_EQ(q(0xFE000870), 0x6);
	T_EQ(q(0xFE000860 + 7 * 0x20), 0x4000000008304004ull);
	T_EQ(q(0xFE000868 + 7 * 0x20), 0xFE02C000ull); /* 0xFE010000 + 7 * 0x4000 */
	T_EQ(q(0xFE000870 + 7 * 0x20), 0x00070006ull);
	T_EQ(q(0xFE000960), 0);                     /* past the last */
	/* SPR: a UBox 8086:3250 at bus 0x1E (CPUNODEID 0xC0, GIDNIDMAP 0xD4) */
	T_EQ(emu_pci_read32(&eh.emu, 0x1E, 0, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x32508086);
	/* GNR's identity chooses it too, with no UBox (Linux maps no bus on
	 * GNR); --channels and the faults shape it */
	START(GNR_ID, "--channels", "2", "--disc-fault", "all-ones", "--disc-fault", "no-ctr-offset");
	T_EQ(eh.emu.cfg.uncore_active, EMU_UNCORE_DISC);
	T_EQ(emu_pci_read32(&eh.emu, 0x1E, 0, 0, 0, &v), UNC_E_NOT_FOUND);
	T_EQ(q(0xFE000000), 0x0000000000460400ull); /* 1 + 65 + 2 + 2 broken */
	T_EQ(q(0xFE000860 + 1 * 0x20 + 8), 0xFE014000ull);
	T_EQ(q(0xFE0008A0), ~0ull);
	T_EQ(q(0xFE0008C0), 0x4000000000304004ull); /* ctr_offset 0 */
	START(SPR_ID, "--disc-fault", "bir");
	T_EQ(emu_pci_read32(&eh.emu, 0, 0x0A, 0, 0x10C, &v), UNC_OK);
	T_EQ(v, 0x8);
}

static void option_errors(void)
{
	struct emu_config cfg;
	char err[300] = "";

	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--channels", "13" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '13' for --channels (want 1 to 12 per socket; --sockets N for more sockets)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--sockets", "9" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '9' for --sockets (want 1 to 8; the Xeon iMC in configuration space 1 to 8)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--chas", "61" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '61' for --chas (want N or N0,N1,... per socket, up to 8 sockets, each 1 to 60)");
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--uncore", "disc", "--chas", "4,5" }, &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--chas lists 2 sockets, but --sockets is 1");
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--uncore", "disc", "--socket-rate", "1:UNC_M_CAS_COUNT.RD=5M" }, &cfg,
			       err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--socket-rate for socket 1, but --sockets is 1 (sockets 0 to 0)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--socket-rate", "1:NOPE=5" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "unknown event 'NOPE' in --socket-rate (want a discovery-table uncore or CHA event)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--socket-rate", "8:UNC_M_CAS_COUNT.RD=5" }, &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "bad socket '8' in --socket-rate '8:UNC_M_CAS_COUNT.RD=5' (want 0 to 7)");
	/* three sockets of the Xeon iMC in configuration space are served (up to 8) */
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--uncore", "snbep", "--sockets", "3" }, &cfg, err, sizeof(err)),
	     UNC_OK);
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--disc-fault", "nope" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "bad value 'nope' for --disc-fault");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--channels", "4" }, &cfg, err, sizeof(err)), UNC_OK);
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_SNBEP, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "--channels, --chas, --dies, --socket-rate and --disc-fault are for the discovery-table uncore");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--dies", "0" }, &cfg, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad value '0' for --dies (want 1 to 8 tables per socket)");
	T_EQ(emu_parse_options(7, (char *[]){ "emu", "--uncore", "disc", "--sockets", "3", "--dies", "3" }, &cfg, err,
			       sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--dies 3 with --sockets 3 makes 9 tables; at most 8");
	T_EQ(emu_parse_options(5, (char *[]){ "emu", "--uncore", "disc", "--dies", "3" }, &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--dies 3 does not divide the 8 channels a socket has (--channels)");
	T_EQ(emu_parse_options(9, (char *[]){ "emu", "--uncore", "disc", "--dies", "2", "--channels", "12", "--chas", "3" },
			       &cfg, err, sizeof(err)),
	     UNC_E_INVALID);
	T_STREQ(err, "--dies 2 does not divide socket 0's 3 CHAs (--chas)");
	T_EQ(emu_parse_options(3, (char *[]){ "emu", "--dies", "2" }, &cfg, err, sizeof(err)), UNC_OK);
	cfg.disc_ubox = true; /* an SPR identity */
	T_EQ(emu_uncore_check(&cfg, EMU_UNCORE_DISC, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "--dies 2: this identity has a UBox per socket and one table each");
}

/* The tables against the packages the seam found. GNR with two tables a
 * socket (--dies 2) on two packages: table order ties no table to its
 * package, so the iMC rows are per table, no CHA is programmed (refused
 * naming both numbers), and the probe's warning, info and the bw header
 * say so. SPR with one socket's tables on a two-package machine: the
 * counts miss a socket, which the warning says and the run's status
 * carries (pmu_present.partial). GNR with a table a socket on two
 * packages: nothing to say. */
static void tables_against_packages(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_disc, NULL };
	static char buf[8192];
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[300] = "", warn[160] = "", name[32];
	struct strbuf sb;

	START(GNR_ID, "--sockets", "2", "--dies", "2", "--channels", "12", "--chas", "4", "--rate",
	      "UNC_M_CAS_COUNT_SCH0.RD=6M", "--socket-rate", "1:UNC_M_CAS_COUNT_SCH0.RD=3M");
	/* the emulator: 4 tables at buses 0, 0x20, 0x40, 0x60, each 6 channels and 2 CHAs */
	T_EQ(q(0xFE000000), 0x0000000000490400ull);          /* 2 + 65 + 6 = 73 units */
	T_EQ(q(0xFE100028), EMU_DISC_CHA_MSR(2));           /* table 1 (socket 0 die 1): CHA 2 */
	T_EQ(q(0xFE100030), 0x00020000ull);
	T_EQ(q(0xFE300028), EMU_DISC_CHA_MSR(2));           /* table 3 (socket 1 die 1) */
	emu_hw_pkgs(&eh, 2);
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[0], 24);
	T_EQ(p.boxes[0], 24);
	T_EQ(p.group[0][5], 0);
	T_EQ(p.group[0][6], 1); /* table 1, not socket 1 */
	T_EQ(p.group[0][23], 3);
	T_EQ(p.found[1], 8);
	T_EQ(p.boxes[1], 0);
	T_EQ(p.partial, false); /* every table counted */
	T_STREQ(warn, "4 discovery tables for 2 packages, none tied to its package: iMC rows are per table, and no CHA "
		      "is programmed");
	T_STREQ(pmu_driver_disc.ops->caveat(&p, buf, sizeof(buf)), warn);
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "cha:          0 boxes programmable of 8 found;");
	T_CONTAINS(buf, "  sockets:    not known: 4 tables in table order for 2 packages, socket numbers by table order: no "
			"UBox device\n");
	T_CONTAINS(buf, "BAR 0xfe300000, rows table3, 73 units:");
	T_CONTAINS(buf, "  no table tied to a package: 4 table(s) hold iMC or CHA units, 2 package(s) found, and no rule ties a "
			"table to its package on this model");
	strbuf_init(&sb, buf, sizeof(buf));
	out_puts(&o, "{\"x\":1");
	pmu_driver_disc.ops->info(&o, &p, true);
	out_puts(&o, "}");
	T_JSON(buf, false);
	T_CONTAINS(buf, "\"cha_boxes\":0,\"sockets\":4,\"sockets_by\":\"table_order\",\"cha_capped\":0,\"packages\":2,"
			"\"rows_per_table\":true");
	pmu_present_free(&p);
	/* info's verdict: usable, with the caveat (not "unusable": the CHAs are listed) */
	{
		static struct platform_info pi;
		T_EQ(info_gather(&eh.hw, &pi), UNC_OK);
		T_STREQ(pi.verdict_reason, "ready, but 4 discovery tables for 2 packages, none tied to its package: iMC rows "
					   "are per table, and no CHA is programmed");
		info_free(&pi);
	}
	/* a CHA event: refused, naming both numbers */
	run_add(&srun, drivers, "UNC_CHA_CLOCKTICKS");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_E_UNSUPPORTED);
	T_STREQ(srun.err, "cannot count UNC_CHA_CLOCKTICKS: a discovery table tied to its package (4 tables for 2 "
			  "packages, and no rule ties them on this model) reports no CHA");
	/* the iMC: rows per table */
	stat_free(&srun);
	memset(&srun, 0, sizeof(srun));
	run_add(&srun, drivers, "imc/event=0x05,umask=0xcf/");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	T_STREQ(srun.c.ev[0].v.group_noun, "table");
	T_STREQ(count_box_name(&srun.c.ev[0].v, 7, name, sizeof(name)), "table1.ch1");
	T_EQ(count_groups(&srun.c.ev[0].v), 4);
	T_STREQ(srun.c.where, "in 24 iMC boxes of 4 discovery tables; rows per table, not per socket");

	/* SPR: the emulator serves one socket, the machine has two packages */
	START(SPR_ID, "--sockets", "1");
	emu_hw_pkgs(&eh, 2);
	cpu_identify(&eh.hw, &cpu);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_disc;
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.partial, true);
	T_STREQ(warn, "discovery tables of 1 socket found for 2 packages (only PCI segment 0 is read): the others are not "
		      "counted");
	T_EQ(p.boxes[0], 8);
	T_EQ(p.boxes[1], 1); /* the UBox ties the table to package 0 */
	pmu_present_free(&p);
	{
		static struct platform_info pi;
		T_EQ(info_gather(&eh.hw, &pi), UNC_OK);
		T_STREQ(pi.verdict_reason, "ready, but discovery tables of 1 socket found for 2 packages (only PCI segment 0 "
					   "is read): the others are not counted");
		info_free(&pi);
	}

	/* GNR, a table a socket, two packages: nothing to say */
	START(GNR_ID, "--sockets", "2", "--channels", "12");
	emu_hw_pkgs(&eh, 2);
	cpu_identify(&eh.hw, &cpu);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_disc;
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.partial, false);
	T_STREQ(warn, "");
	T_EQ(pmu_driver_disc.ops->caveat(&p, buf, sizeof(buf)), NULL);
	T_EQ(p.boxes[1], 2);
	T_EQ(p.group[1][1], 1);
	pmu_present_free(&p);
	/* package IDs 0 and 2 (sparse), two tables in table order: table 1 is
	 * package 2, its rows socket2 */
	START(GNR_ID, "--sockets", "2", "--channels", "12");
	emu_hw_pkgs(&eh, 2);
	eh.pkgs.id[1] = eh.pkgs.mp_pkg[1] = 2;
	cpu_identify(&eh.hw, &cpu);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_disc;
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 1, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_STREQ(warn, "");
	T_EQ(p.group[0][11], 0);
	T_EQ(p.group[0][12], 2);
	strbuf_init(&sb, buf, sizeof(buf));
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "BAR 0xfe100000, socket 2, ");
	pmu_present_free(&p);
	/* and the units are named by socket again */
	T_STREQ(pmu_driver_disc.units[0].group_noun, "socket");
}

/* uncore.efi's driver and engine on the model: each channel's CAS count at
 * the rate asked, read over the run's own measured time. */
static void counts_on_the_model(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_disc, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };

	START(SPR_ID, "--uncore", "disc", "--rate", "UNC_M_CAS_COUNT.RD=50000000", "--rate", "UNC_M_CAS_COUNT.WR=20000000",
	      "--rate", "UNC_CHA_CLOCKTICKS=1000000000", "--rate", "UNC_CHA_TOR_INSERTS.IA_MISS=3000000");
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	run_add(&srun, drivers, "imc/event=0x05,umask=0xf0/");
	run_add(&srun, drivers, "cha/event=0x01/");
	/* a UMaskExt event: the emulator counts it only with its extension
	 * in bits 63:32, so the umask alone counts nothing */
	run_add(&srun, drivers, "UNC_CHA_TOR_INSERTS.IA_MISS");
	run_add(&srun, drivers, "cha/event=0x35,umask=0x01/");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	T_EQ(srun.c.ev[0].v.nboxes, 8);
	for (unsigned b = 0; b < 8; b++) {
		uint64_t want = 50000000ull * elapsed / S;
		uint64_t got = srun.c.ev[0].total.box[b];
		T_ASSERT(got + 2 >= want && got <= want + 2);
		uint64_t wgot = srun.c.ev[1].total.box[b], wwant = 20000000ull * elapsed / S;
		T_ASSERT(wgot + 2 >= wwant && wgot <= wwant + 2);
	}
	uint64_t cha = srun.c.ev[2].total.box[0], cwant = 1000000000ull * elapsed / S;
	T_ASSERT(cha + 2 >= cwant && cha <= cwant + 2);
	uint64_t tor = srun.c.ev[3].total.box[0], twant = 3000000ull * elapsed / S;
	T_ASSERT(tor + 2 >= twant && tor <= twant + 2);
	T_EQ(srun.c.ev[4].total.box[0], 0);
	/* every register put back: selects 0, box controls 0 */
	for (unsigned c = 0; c < 8; c++) {
		uint32_t v = 1;
		T_EQ(emu_mmio_read32(&eh.emu, 0xFE010000ull + 0x4000ull * c + 0x40, &v), UNC_OK);
		T_EQ(v, 0);
		T_EQ(emu_mmio_read32(&eh.emu, 0xFE010000ull + 0x4000ull * c, &v), UNC_OK);
		T_EQ(v, 0);
	}
}

/* The lines of text that start with `prefix` and hold `also`. */
static unsigned lines_with(const char *text, const char *prefix, const char *also)
{
	unsigned n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		char line[256];
		fmt_snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), l);
		n += !strncmp(line, prefix, strlen(prefix)) && strstr(line, also);
	}
	return n;
}

/* Two SPR sockets of eight channels and 3 CHAs (--sockets 2): socket 1's
 * table on bus 0x20 with its UBox on bus 0x3E, its channels numbered from
 * 0 as on a second die; the driver ties each table to its socket through
 * the UBoxes, the engine programs all sixteen channels, counts each at its
 * socket's rate (--socket-rate), sums the roles per socket and in all,
 * prints a row per channel, puts every register back, and a record keeps
 * boxes 8-15. */
static void sixteen_channels_two_sockets(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_disc, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	static uint8_t rbuf[16384];
	static struct rec_print_ws ws;
	static char text[16384];
	char err[300] = "", name[32];
	uint32_t v = 0;

	START(SPR_ID, "--uncore", "disc", "--channels", "8");
	T_EQ(emu_pci_read32(&eh.emu, 0x20, 0x0A, 0, 0, &v), UNC_E_NOT_FOUND); /* one socket */
	T_EQ(emu_pci_read32(&eh.emu, 0x3E, 0, 0, 0, &v), UNC_E_NOT_FOUND);
	START(SPR_ID, "--sockets", "2", "--chas", "3", "--rate", "UNC_M_CAS_COUNT.RD=50000000", "--socket-rate",
	      "1:UNC_M_CAS_COUNT.RD=30000000", "--rate", "UNC_M_CAS_COUNT.WR=20000000");
	T_EQ(emu_pci_read32(&eh.emu, 0x20, 0x0A, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x09A78086);
	T_EQ(emu_pci_read32(&eh.emu, 0x20, 0x0A, 0, 0x10, &v), UNC_OK);
	T_EQ(v, 0xFE100004);
	T_EQ(emu_pci_read32(&eh.emu, 0x20, 0x0A, 0, 0x100, &v), UNC_OK);
	T_EQ(v, 0x00010023);
	/* the UBoxes: node IDs 3 and 4; GIDNIDMAP's field i the node ID of package i */
	T_EQ(emu_pci_read32(&eh.emu, 0x3E, 0, 0, 0, &v), UNC_OK);
	T_EQ(v, 0x32508086);
	T_EQ(emu_pci_read32(&eh.emu, 0x3E, 0, 0, 0xC0, &v), UNC_OK);
	T_EQ(v & 7, 4);
	T_EQ(emu_pci_read32(&eh.emu, 0x3E, 0, 0, 0xD4, &v), UNC_OK);
	T_EQ(v >> 3 & 7, 4);
	T_EQ(v & 7, 3);
	T_EQ(q(0xFE000000), 0x00000000004C0400ull); /* socket 0: 3 CHAs + 65 + 8 channels */
	T_EQ(q(0xFE100000), 0x00000000004C0400ull); /* socket 1 the same */
	T_EQ(q(0xFE100008), 0x2FF0);
	T_EQ(q(0xFE100068), 0x2020);                /* its CHA 2: the same MSRs on each package */
	T_EQ(q(0xFE100070), 0x00020000ull);
	T_EQ(q(0xFE100020 + 68 * 0x20), 0x4000000008304004ull); /* entry 69: channel 0 */
	T_EQ(q(0xFE100028 + 68 * 0x20), 0xFE110000ull);
	T_EQ(q(0xFE100030 + 68 * 0x20), 0x6);
	T_EQ(q(0xFE100028 + 75 * 0x20), 0xFE12C000ull);
	T_EQ(q(0xFE100030 + 75 * 0x20), 0x00070006ull);

	run_add(&srun, drivers, "UNC_M_CAS_COUNT.RD");
	run_add(&srun, drivers, "UNC_M_CAS_COUNT.WR");
	T_EQ(run_schedule(&srun, &eh.hw, false), UNC_OK);
	T_EQ(srun.pmu[0].p.boxes[0], 16);
	T_EQ(srun.pmu[0].p.found[0], 16);
	T_EQ(srun.pmu[0].p.box_base[0][8], 0xFE110000ull);
	T_EQ(srun.pmu[0].p.facts[DISC_FACT_SOCKETS] & 0xFF, DISC_TIE_UBOX);
	struct stat_opts o = { .duration = S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start, wr = 20000000ull * elapsed / S;
	uint64_t rds[2] = { 50000000ull * elapsed / S, 30000000ull * elapsed / S }, rd = rds[1];
	T_EQ(srun.c.ev[0].v.nboxes, 16);
	T_EQ(count_moved(&srun.c.ev[0]), true);
	T_EQ(count_still(&srun.c, 0), 0);
	for (unsigned b = 0; b < 16; b++) {
		uint64_t got = srun.c.ev[0].total.box[b], wgot = srun.c.ev[1].total.box[b];
		T_ASSERT(got + 2 >= rds[b / 8] && got <= rds[b / 8] + 2);
		T_ASSERT(wgot + 2 >= wr && wgot <= wr + 2);
		T_EQ(srun.c.ev[0].v.group[b], b / 8);
		T_EQ(srun.c.ev[0].v.box_id[b], b % 8);
	}
	uint64_t all = count_role(&srun.c, PMU_ROLE_DRAM_READ, false, 0);
	T_ASSERT(all + 32 >= 8 * rds[0] + 8 * rds[1] && all <= 8 * rds[0] + 8 * rds[1] + 32);
	for (unsigned g = 0; g < 2; g++) {
		uint64_t s = count_role_part(&srun.c, PMU_ROLE_DRAM_WRITE, g, true, false, 0);
		T_ASSERT(s + 16 >= 8 * wr && s <= 8 * wr + 16);
		uint64_t r = count_role_part(&srun.c, PMU_ROLE_DRAM_READ, g, true, false, 0);
		T_ASSERT(r + 16 >= 8 * rds[g] && r <= 8 * rds[g] + 16);
	}
	uint64_t b15 = count_role_part(&srun.c, PMU_ROLE_DRAM_READ, 15, false, false, 0);
	T_ASSERT(b15 + 2 >= rd && b15 <= rd + 2);
	T_STREQ(count_box_name(&srun.c.ev[0].v, 9, name, sizeof(name)), "socket1.ch1");
	T_EQ(count_still(&srun.c, 0), 0);
	/* every register put back */
	for (unsigned c = 0; c < 16; c++) {
		uint64_t at = 0xFE010000ull + 0x100000ull * (c / 8) + 0x4000ull * (c % 8);
		v = 1;
		T_EQ(emu_mmio_read32(&eh.emu, at + 0x4C, &v), UNC_OK);
		T_EQ(v, 0);
		v = 1;
		T_EQ(emu_mmio_read32(&eh.emu, at, &v), UNC_OK);
		T_EQ(v, 0);
	}
	/* bw --per-box: a row per socket and per channel */
	struct report_opts ro = { .per_box = true };
	struct strbuf sb;
	strbuf_init(&sb, text, sizeof(text));
	struct out out = strbuf_out(&sb);
	report_bw_final(&out, &ro, &eh.hw, &srun.c, NULL);
	T_EQ(lines_with(text, "socket", ".ch"), 16);
	T_EQ(lines_with(text, "socket1.ch7 ", "read"), 1);
	T_EQ(lines_with(text, "socket1 ", "read"), 1);
	/* the record: boxes 8-15 stored and read back, printed as the run was */
	size_t len = run_record(&srun.c, &ro, rbuf, sizeof(rbuf), &ws);
	T_EQ(ws.run.ev[0].v.nboxes, 16);
	T_EQ(count_still(&ws.run, 0), 0);
	T_EQ(memcmp(ws.run.ev[0].total.box, srun.c.ev[0].total.box, 16 * sizeof(uint64_t)), 0);
	T_EQ(memcmp(ws.run.ev[1].total.box, srun.c.ev[1].total.box, 16 * sizeof(uint64_t)), 0);
	T_EQ(memcmp(ws.run.ev[0].v.group, srun.c.ev[0].v.group, 16), 0);
	T_EQ(memcmp(ws.run.ev[0].v.box_id, srun.c.ev[0].v.box_id, 16), 0);
	strbuf_init(&sb, text, sizeof(text));
	struct out out2 = strbuf_out(&sb);
	T_EQ(rec_print(&out2, rbuf, len, REPORT_HUMAN, ",", NULL, &ws, err, sizeof(err)), UNC_OK);
	T_EQ(lines_with(text, "socket", ".ch"), 16);
	T_EQ(lines_with(text, "socket1.ch7 ", "read"), 1);
}

/* The per-package MSRs: each package (emu_cur_pkg) has its own CHAs at the
 * same MSR numbers, its own 0x2FFE count; a package with no socket, or a
 * CHA beyond its socket's count, is a #GP. GNR: tables in table order. */
static void per_package_msrs(void)
{
	uint64_t v = 0;

	START(SPR_ID, "--sockets", "2", "--chas", "60,40", "--channels", "12");
	emu_cur_pkg = 0;
	T_EQ(emu_msr_read(&eh.emu, 0x2FFE, &v), UNC_OK);
	T_EQ(v, 60);
	T_EQ(emu_msr_write(&eh.emu, 0x2FFE, 1), UNC_E_FAULT); /* read-only */
	T_EQ(emu_msr_write(&eh.emu, 0x2000 + 0x10 * 59 + 2, 0x0101), UNC_OK); /* CHA 59's CTL0 */
	T_EQ(emu_msr_write(&eh.emu, 0x2000 + 0x10 * 59 + 8, 1ull << 48), UNC_E_FAULT); /* above 48 bits */
	emu_cur_pkg = 1;
	T_EQ(emu_msr_read(&eh.emu, 0x2FFE, &v), UNC_OK);
	T_EQ(v, 40);
	T_EQ(emu_msr_read(&eh.emu, 0x2000 + 0x10 * 59 + 2, &v), UNC_E_FAULT); /* socket 1 has 40 */
	T_EQ(emu_msr_read(&eh.emu, 0x2000 + 0x10 * 39 + 2, &v), UNC_OK);
	T_EQ(v, 0);
	T_EQ(emu_msr_write(&eh.emu, 0x2000 + 0x10 * 39 + 2, 0x0201), UNC_OK);
	emu_cur_pkg = 0;
	T_EQ(emu_msr_read(&eh.emu, 0x2000 + 0x10 * 59 + 2, &v), UNC_OK);
	T_EQ(v, 0x0101);
	T_EQ(emu_msr_read(&eh.emu, 0x2000 + 0x10 * 39 + 2, &v), UNC_OK);
	T_EQ(v, 0);
	emu_cur_pkg = 2; /* QEMU with more sockets than --sockets */
	T_EQ(emu_msr_read(&eh.emu, 0x2FFE, &v), UNC_E_FAULT);
	T_EQ(emu_msr_read(&eh.emu, 0x2002, &v), UNC_E_FAULT);
	emu_cur_pkg = 0;
	/* socket 1's table lists 40 CHAs and 12 channels: 40 + 65 + 12 */
	T_EQ(q(0xFE100000), 0x0000000000750400ull);
	T_EQ(q(0xFE000000), 0x0000000000890400ull); /* 60 + 65 + 12 = 137 */

	/* SPR, sockets of 60 and 40 CHAs, no MP services: 0x2FFE is read on
	 * package 0 (60); package 1 cannot be reached, so its socket is left
	 * uncapped (not capped by package 0's count), and info says so */
	{
		struct cpu_info c2;
		struct pmu_present p2 = { .drv = &pmu_driver_disc };
		char e2[300] = "", w2[100] = "";
		static char b2[8192];
		struct strbuf s2;
		START(SPR_ID, "--sockets", "2", "--chas", "60,40");
		emu_cur_pkg = 0;
		cpu_identify(&eh.hw, &c2);
		T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &c2, 3, &p2, e2, sizeof(e2), w2, sizeof(w2)), UNC_OK);
		T_EQ(p2.found[1], 100);
		strbuf_init(&s2, b2, sizeof(b2));
		struct out o2 = strbuf_out(&s2);
		pmu_driver_disc.ops->info(&o2, &p2, false);
		T_CONTAINS(b2, "  CHA count from MSR 0x2FFE, each socket's read by a processor of its package: socket 0: 60, "
			       "socket 1: unreadable, its CHAs not capped\n");
		T_NOT_CONTAINS(b2, "differs");
		T_EQ(p2.boxes[1], 100);
		pmu_present_free(&p2);
		/* with both packages reachable: each socket's own count */
		memset(&p2, 0, sizeof(p2));
		p2.drv = &pmu_driver_disc;
		emu_hw_pkgs(&eh, 2);
		T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &c2, 3, &p2, e2, sizeof(e2), w2, sizeof(w2)), UNC_OK);
		T_STREQ(w2, "");
		strbuf_init(&s2, b2, sizeof(b2));
		pmu_driver_disc.ops->info(&o2, &p2, false);
		T_CONTAINS(b2, "package: socket 0: 60, socket 1: 40\n");
		T_NOT_CONTAINS(b2, "differs");
		T_EQ(p2.boxes[1], 100);
		pmu_present_free(&p2);
	}

	/* GNR, 2 sockets of 12 channels: no UBox, the driver numbers the
	 * tables in order and says so */
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[300] = "", warn[100] = "";
	static char buf[8192];
	struct strbuf sb;
	START(GNR_ID, "--sockets", "2", "--channels", "12", "--chas", "2");
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.found[0], 24);
	T_EQ(p.found[1], 4);
	/* 24 channels: all programmed */
	T_EQ(p.boxes[0], 24);
	T_EQ(p.group[0][11], 0);
	T_EQ(p.group[0][12], 1);
	T_EQ(p.box_id[0][12], 0);
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "  sockets:    2, socket numbers by table order: no UBox device\n");
	T_CONTAINS(buf, "  table 1: 20:0a.0 (8086:09a7) capability 0x100, BIR 0, BAR 0xfe100000, socket 1, 79 units: 2 cha (type 0), ");
	pmu_present_free(&p);
}

/* The table's faults as the driver reports them. */
static void faults_as_the_driver_sees_them(void)
{
	struct cpu_info cpu;
	struct pmu_present p = { .drv = &pmu_driver_disc };
	char err[300] = "", warn[100] = "", buf[4096];
	struct strbuf sb;

	START(SPR_ID, "--disc-fault", "all-ones", "--disc-fault", "no-ctr-offset", "--disc-fault", "second-table");
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_OK);
	T_EQ(p.boxes[0], 8);
	T_EQ(p.boxes[1], 1);
	strbuf_init(&sb, buf, sizeof(buf));
	struct out o = strbuf_out(&sb);
	pmu_driver_disc.ops->info(&o, &p, false);
	T_CONTAINS(buf, "discovery:    2 tables, 75 units kept, 2 entries skipped (devices 8086:09a7)");
	T_CONTAINS(buf, "  sockets:    1, by the UBox of each bus (8086:3250, CPUNODEID 0xc0 node ID looked up in GIDNIDMAP 0xd4;");
	T_CONTAINS(buf, "  table 0: 00:0a.0 (8086:09a7) capability 0x100, BIR 0, BAR 0xfe000000, socket 0, 74 units: 1 cha (type 0), "
			"12 type 1, 12 type 2, 12 type 3, 15 type 11, 4 type 8, 4 type 9, 4 type 7, 1 type 4, 1 type 5, 8 imc (type 6)\n");
	T_CONTAINS(buf, "  ubox 1e:00.0: node ID 3, GIDNIDMAP 0x447d63: socket 0\n");
	T_CONTAINS(buf, "  skipped: table 0 entry 74 (type 65535, box 65535): all-ones qword\n");
	T_CONTAINS(buf, "  skipped: table 0 entry 75 (imc (type 6), box 8): no counter offset\n");
	T_CONTAINS(buf, "  table 1: 00:0b.0 (8086:09a7) capability 0x100, BIR 0, BAR 0xfe900000, no socket (no iMC or CHA unit), 1 unit: 1 type 12\n");

	START(SPR_ID, "--disc-fault", "bir");
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_disc;
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_E_UNSUPPORTED);
	T_CONTAINS(err, "has BIR dword 0x00000008 (bits 31:3 must be 0)");
	/* info says why as regs, stat and bw do: its verdict and its in-use line */
	{
		static struct platform_info pi;
		static const char why[] =
			"uncore discovery: 00:0a.0 capability at 0x100 has BIR dword 0x00000008 (bits 31:3 must be 0)";
		T_EQ(info_gather(&eh.hw, &pi), UNC_E_UNSUPPORTED);
		T_STREQ(pi.verdict_reason, why);
		strbuf_init(&sb, buf, sizeof(buf));
		struct out o2 = strbuf_out(&sb);
		info_print(&o2, &pi);
		char line[200];
		fmt_snprintf(line, sizeof(line), "pmu in use:   unknown (not checked: %s)\n", why);
		T_CONTAINS(buf, line);
		fmt_snprintf(line, sizeof(line), "verdict:      uncore PMU unusable: %s\n", why);
		T_CONTAINS(buf, line);
		info_free(&pi);
	}

	START(SPR_ID, "--disc-fault", "bar-zero");
	pmu_present_free(&p);
	memset(&p, 0, sizeof(p));
	p.drv = &pmu_driver_disc;
	cpu_identify(&eh.hw, &cpu);
	T_EQ(pmu_driver_disc.ops->probe(&eh.hw, &cpu, 3, &p, err, sizeof(err), warn, sizeof(warn)), UNC_E_UNSUPPORTED);
	T_STREQ(err, "uncore discovery: 00:0a.0's table BAR (BIR 0, config 0x10) is 0, unassigned: nothing read there");
	pmu_present_free(&p);
}

/* Multiplexing on many boxes, with a clock that moves at each register
 * access (as a trapped MMIO access takes its time): six iMC events on four
 * counters take turns, and each box's slice is charged from that box's own
 * start, so every box's rate is within 0.5% of the model's whatever its
 * place in the order of reads and unfreezes. */
static void multiplexed_many_boxes(void)
{
	static const struct pmu_driver *const drivers[] = { &pmu_driver_disc, NULL };
	static const struct stat_env env = { .wait_until = emu_hw_wait_until, .ctx = &eh };
	static const char *const names[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", "imc/event=0x06,umask=0xcf/",
					     "imc/event=0x06,umask=0xf0/", "imc/event=0x01/", "imc/event=0x02/" };
	static const uint64_t rates[] = { 160000000, 80000000, 40000000, 20000000, 0, 0 };

	START(SPR_ID, "--uncore", "disc", "--channels", "8", "--rate", "UNC_M_CAS_COUNT.RD=160M", "--rate",
	      "UNC_M_CAS_COUNT.WR=80M", "--rate", "UNC_M_CAS_COUNT_SCH1.RD=40M", "--rate", "UNC_M_CAS_COUNT_SCH1.WR=20M");
	eh.access_ns = 20000; /* 20 us an access: a sample of the eight boxes takes about a millisecond */
	for (unsigned i = 0; i < 6; i++)
		run_add(&srun, drivers, names[i]);
	T_EQ(run_schedule(&srun, &eh.hw, true), UNC_OK);
	T_EQ(srun.c.ngroups, 2);
	struct stat_opts o = { .duration = 2 * S, .slice = 20 * 1000000ull, .sample = 100 * 1000000ull };
	T_EQ(stat_loop(&srun, &eh.hw, false, &o, &env), UNC_OK);
	T_ASSERT(srun.c.rotations >= 50);
	uint64_t elapsed = srun.c.t_end - srun.c.t_start;
	for (unsigned i = 0; i < 6; i++) {
		T_EQ(srun.c.ev[i].v.nboxes, 8);
		for (unsigned b = 0; b < 8; b++) {
			uint64_t got = count_total(&srun.c, i, (int)b), want = u64_muldiv(rates[i], elapsed, S);
			if (!rates[i]) {
				T_EQ(got, 0);
				continue;
			}
			if (got * 1000 < want * 995 || got * 1000 > want * 1005)
				t_fail(__FILE__, __LINE__, "%s box %u: %lu for %lu (%+.2f%%)", names[i], b, (unsigned long)got,
				       (unsigned long)want, 100.0 * ((double)got - (double)want) / (double)want);
		}
	}
}

/* A small machine (the shape of the spr16 boot, whose info once said "cha:
 * 1 box programmable of 2 found"): two or four sockets of one or two CHAs,
 * each a package of its own. Every CHA of every socket is programmable,
 * each socket's count read from its own package's MSR 0x2FFE. */
static void small_machine_counts_every_cha(void)
{
	static struct {
		char *sockets, *chas;
		unsigned npk;
		const char *line, *counts;
	} cases[] = {
		{ "2", "1", 2, "cha:          2 boxes programmable of 2 found;",
		  "each socket's read by a processor of its package: socket 0: 1, socket 1: 1\n" },
		{ "4", "2", 4, "cha:          8 boxes programmable of 8 found;",
		  "each socket's read by a processor of its package: socket 0: 2, socket 1: 2, socket 2: 2, socket 3: 2\n" },
	};
	static struct platform_info pi;
	static char text[16384];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		START(SPR_ID, "--sockets", cases[c].sockets, "--chas", cases[c].chas);
		emu_hw_pkgs(&eh, cases[c].npk);
		T_EQ(info_gather(&eh.hw, &pi), UNC_OK);
		struct strbuf sb;
		strbuf_init(&sb, text, sizeof(text));
		struct out o = strbuf_out(&sb);
		info_print(&o, &pi);
		T_CONTAINS(text, cases[c].line);
		T_CONTAINS(text, cases[c].counts);
		T_NOT_CONTAINS(text, "CHA count differs");
		T_STREQ(pi.verdict_reason, "ready");
		info_free(&pi);
	}
}

T_MAIN("emu_disc", T_CASE(small_machine_counts_every_cha), T_CASE(table_as_typed), T_CASE(option_errors), T_CASE(tables_against_packages), T_CASE(counts_on_the_model),
       T_CASE(faults_as_the_driver_sees_them), T_CASE(sixteen_channels_two_sockets),
       T_CASE(per_package_msrs), T_CASE(multiplexed_many_boxes))
