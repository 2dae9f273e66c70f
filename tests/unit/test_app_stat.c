/* `uncore.efi stat`, `list` and `regs` end to end on the host: the real
 * command line and reports, against the uncore model on a fake clock. */
#include <string.h>

#include "../../drivers/cmd/app.h"
#include "../../drivers/pmu/adl.h"
#include "app_run.h"
#include "../emu/emu_hw.h"
#include "fake_vars.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>

#define S 1000000000ull

static struct emu_hw h;
static struct emu_config cfg;
static char obuf[262144], ebuf[1024]; /* list --all: every driver's events */
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };

static uint64_t esc_at; /* fake TSC ticks at which ESC is pressed; 0: never */

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	if (esc_at && when >= esc_at) {
		h.fake.now = esc_at;
		return true;
	}
	h.fake.now = when;
	return false;
}

static struct fake_vars fv;
static char filebuf[65536];
static size_t filelen;

static enum unc_status write_file(void *ctx, const char *path, const void *data, size_t len, char *err, size_t errsize)
{
	(void)ctx, (void)err, (void)errsize;
	T_STREQ(path, "fs0:\\results.json");
	filelen = len < sizeof(filebuf) - 1 ? len : sizeof(filebuf) - 1;
	memcpy(filebuf, data, filelen);
	filebuf[filelen] = '\0';
	T_JSON(filebuf, at.json_lines);
	return UNC_OK;
}

static void now(struct rec_time *t)
{
	*t = (struct rec_time){ 2026, 11, 21, 22, 0, 0, 0, 0, 0, 1 };
}

static struct app_env env = { .wait_until = wait_until, .vars = &fv.vs, .write_file = write_file,
				    .alloc = malloc, .free = free, .get_time = now };

/* A child as efi/measure.c finds and runs one: child_find takes
 * "fs0:\\child.efi" (with any arguments) to its full path and refuses
 * anything else; run_child spends 300 ms on the fake clock, sampling as the
 * timer would, and returns child_status (child_known: the Shell gave one). */
static uint64_t child_status;
static bool child_known;

static enum unc_status child_find(void *ctx, const char *cmdline, char *ret_cmdline, size_t size, char *err,
				  size_t errsize)
{
	(void)ctx;
	if (strncmp(cmdline, "fs0:\\child.efi", 14)) {
		snprintf(err, errsize, "child '%s': no such file", cmdline);
		return UNC_E_NOT_FOUND;
	}
	snprintf(ret_cmdline, size, "FS0:\\child.efi%s", cmdline + 14);
	return UNC_OK;
}

static enum unc_status run_child(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				 unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize)
{
	(void)ctx, (void)err, (void)errsize;
	T_STREQ(cmdline, "FS0:\\child.efi 300 x"); /* what was found is what runs */
	for (unsigned t = 0; t < 300; t += period_ms) {
		h.fake.now += period_ms * (S / 1000);
		tick(tctx);
	}
	*ret_status = child_status;
	*ret_known = child_known;
	return UNC_OK;
}

static const struct app_env child_env = { .wait_until = wait_until, .vars = &fv.vs, .write_file = write_file,
					  .alloc = malloc, .free = free, .get_time = now, .child_find = child_find,
					  .run_child = run_child };
/* A child that exits boot services midway (an OS loader): the firmware
 * calls the notification the run armed (exit_guard), which puts the
 * registers back (stat_put_back, as efi/main.c's notify function does);
 * what the child then reads is what the OS would find. */
static struct stat_run *ebs_armed;
static unsigned ebs_arms, ebs_disarms;
static uint64_t ebs_before[3], ebs_after[3];
static unsigned ebs_nlog; /* the writes logged once the notification has run */
static const uint32_t ebs_msrs[3] = { 0xE01, 0x700, 0x706 }; /* GLOBAL_CTRL, CBo 0's select 0 and counter 0 */

static bool exit_guard(void *ctx, struct stat_run *r)
{
	(void)ctx;
	if (r)
		ebs_arms++, ebs_armed = r;
	else
		ebs_disarms++, ebs_armed = NULL;
	return true;
}

static enum unc_status run_child_ebs(void *ctx, const char *cmdline, uint64_t *ret_status, bool *ret_known,
				     unsigned period_ms, void (*tick)(void *tctx), void *tctx, char *err, size_t errsize)
{
	(void)ctx, (void)cmdline, (void)err, (void)errsize;
	h.fake.now += period_ms * (S / 1000);
	tick(tctx);
	for (unsigned i = 0; i < 3; i++)
		T_EQ(h.hw.ops->msr_read(h.hw.ctx, ebs_msrs[i], &ebs_before[i]), UNC_OK);
	T_ASSERT(ebs_armed != NULL);
	if (ebs_armed) /* ExitBootServices */
		stat_put_back(ebs_armed);
	for (unsigned i = 0; i < 3; i++)
		T_EQ(h.hw.ops->msr_read(h.hw.ctx, ebs_msrs[i], &ebs_after[i]), UNC_OK);
	ebs_nlog = h.fake.nlog;
	h.fake.now += period_ms * (S / 1000);
	tick(tctx); /* a timer that still fires samples nothing */
	*ret_status = 0;
	*ret_known = true;
	return UNC_OK;
}

static const struct app_env ebs_env = { .wait_until = wait_until, .alloc = malloc, .free = free, .get_time = now,
					.child_find = child_find, .run_child = run_child_ebs, .exit_guard = exit_guard };

static const struct app_env *use_env = &env;

static enum unc_status run(int argc, const char **argv)
{
	return app_test_run(&at, &h.hw, use_env, argc, argv);
}

#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run((int)(sizeof(av) / sizeof(av[0])), av);       \
	})

/* The emulated uncore as uncore-emu.efi would start it with these options. */
static void emulate(int argc, const char **argv)
{
	char err[100];

	T_EQ(emu_parse_options(argc, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init(&h, &cfg);
	h.hw.emulator = "test model";
}

static void setup(void)
{
	/* the uncore alone (no core PMU beside it) */
	const char *argv[] = { "uncore-emu.efi", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=1.5M", "--rate",
			       "UNC_ARB_TRK_REQUESTS.ALL=5M", "--core-pmu", "none" };

	emulate(7, argv);
}

static void human_table(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET", "-e", "unc_arb_trk_requests.all", "-d", "2"),
	     UNC_OK);
	T_CONTAINS(obuf, "uncore stat: 3 events in 1 group, 4 CBos, msr access: emulated (test model)\n");
	T_CONTAINS(obuf, "UNC_CBO_CACHE_LOOKUP.ANY_MESI                          12000000          6000000.000  events  100.00%\n");
	T_CONTAINS(obuf, "UNC_CLOCK.SOCKET                                     1600000000        800000000.000  cycles  100.00%\n");
	T_CONTAINS(obuf, "UNC_ARB_TRK_REQUESTS.ALL                               10000000          5000000.000  events  100.00%\n");
	T_CONTAINS(obuf, "elapsed: 2.000000000 s measured (2000000000 TSC ticks at 1000.000 MHz)\n");
	T_STREQ(ebuf, "");
}

static void per_box_and_csv_intervals(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "--per-box", "-I", "500", "-n", "2", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "# uncore stat: 1 event in 1 group, 4 CBos, msr access: emulated (test model)\n"
			 "0.500000000,3000000,,UNC_CBO_CACHE_LOOKUP.ANY_MESI,500000000,100.00\n"
			 "0.500000000,750000,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo0,500000000,100.00\n");
	T_CONTAINS(obuf, "1.000000000,750000,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3,500000000,100.00\n"
			 "# elapsed 1.000000000 s, TSC 1000.000 MHz\n");
}

static void setup_imc(const char *);

/* -d not a multiple of -I: the last interval, shorter, is printed too
 * (marked, with its length), so the intervals add up to the total. */
static void last_shorter_interval(void)
{
	setup();
	static char run_out[8192];

	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-d", "0.25"), UNC_OK);
	T_CONTAINS(obuf, "   0.200000000  UNC_CLOCK.SOCKET                                       80000000        800000000.000  cycles  100.00%\n"
			 "   0.250000000  last interval, 0.050000000 s: shorter, the run ended first\n"
			 "   0.250000000  UNC_CLOCK.SOCKET                                       40000000        800000000.000  cycles  100.00%\n"
			 "total:\n");
	/* 80000000 + 80000000 + 40000000 */
	T_CONTAINS(obuf, "\nUNC_CLOCK.SOCKET                                      200000000        800000000.000  cycles  100.00%\n"
			 "elapsed: 0.250000000 s measured");
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-d", "0.25", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "0.200000000,80000000,,UNC_CLOCK.SOCKET,100000000,100.00\n"
			 "# 0.250000000: last interval, 0.050000000 s: shorter, the run ended first\n"
			 "0.250000000,40000000,,UNC_CLOCK.SOCKET,50000000,100.00\n");
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-d", "0.25", "-j"), UNC_OK);
	T_CONTAINS(obuf, "{\"interval\":0.200000000,\"msr_access\"");
	T_CONTAINS(obuf, "{\"interval\":0.250000000,\"shorter_interval_s\":0.050000000,\"msr_access\"");
	/* a multiple of -I: no shorter interval; -n: none either */
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-d", "0.2"), UNC_OK);
	T_NOT_CONTAINS(obuf, "shorter");
	T_CONTAINS(obuf, "   0.200000000  UNC_CLOCK.SOCKET ");
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-n", "2"), UNC_OK);
	T_NOT_CONTAINS(obuf, "shorter");
	/* stored, and shown as run */
	fake_vars_free(&fv);
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-d", "0.25", "-o", "var:Short"), UNC_OK);
	strcpy(run_out, obuf);
	T_CONTAINS(run_out, "last interval, 0.050000000 s");
	T_EQ(RUN("var", "show", "Short"), UNC_OK);
	T_STREQ(strchr(obuf, '\n') + 1, run_out);
	fake_vars_free(&fv);
	setup_imc(NULL);
	T_EQ(RUN("bw", "-I", "100", "-d", "0.25"), UNC_OK);
	T_CONTAINS(obuf, "\n   0.250000000  last interval, 0.050000000 s: shorter, the run ended first\n   0.250000000  read ");
}

static void json(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_ARB_TRK_REQUESTS.ALL", "-j"), UNC_OK);
	T_STREQ(obuf, "{\"tool\":\"uncore.efi\",\"msr_access\":\"emulated\",\"emulator\":\"test model\",\"cbo_count\":4,"
		      "\"cbo_derived\":4,\"groups\":1,\"elapsed_ns\":1000000000,\"tsc_hz\":1000000000,\"events\":[{\"event\":"
		      "\"UNC_ARB_TRK_REQUESTS.ALL\",\"unit\":\"events\",\"pmu\":\"arb\",\"encoding\":\"0x400181\","
		      "\"count\":5000000,\"rate_per_s\":5000000.000,\"run_time_ns\":1000000000,\"percent_running\":100.00,"
		      "\"moved\":true}]}\n");
}

/* More than the manual's four CBos: up to 8 are programmed, box 7 at its
 * own MSRs (0xF70/0xF76); a count beyond 8 refuses CBo events. */
static void eight_cbos_and_more(void)
{
	static char run_out[65536];
	const char *argv[] = { "uncore-emu.efi", "--cbo-config", "9", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=1.5M" };

	emulate(5, argv);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "--per-box"), UNC_OK);
	T_CONTAINS(obuf, "uncore stat: 1 event in 1 group, 8 CBos, msr access: emulated (test model)\n");
	T_CONTAINS(obuf, "UNC_CBO_CACHE_LOOKUP.ANY_MESI                          12000000         12000000.000  events  100.00%\n");
	T_CONTAINS(obuf, "UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo4                      1500000          1500000.000  events  100.00%\n");
	T_CONTAINS(obuf, "UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo7                      1500000          1500000.000  events  100.00%\n");
	T_EQ(RUN("regs"), UNC_OK);
	T_CONTAINS(obuf, "0x767 MSR_UNC_CBO_6_PERFCTR1       0x0000000000000000\n"
			 "0xf70 MSR_UNC_CBO_7_PERFEVTSEL0    0x0000000000000000\n"
			 "0xf76 MSR_UNC_CBO_7_PERFCTR0       0x");
	T_CONTAINS(obuf, "0xf77 MSR_UNC_CBO_7_PERFCTR1       0x0000000000000000\n");
	T_ASSERT(!strstr(obuf, "0x770"));

	/* stored with boxes 4-7 and shown as run, intervals included */
	fake_vars_free(&fv);
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "--per-box", "-I", "250", "-n", "2", "-o", "var:Eight"), UNC_OK);
	strcpy(run_out, obuf);
	T_CONTAINS(run_out, "UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo7 ");
	T_EQ(RUN("var", "show", "Eight"), UNC_OK);
	T_STREQ(strchr(obuf, '\n') + 1, run_out);
	fake_vars_free(&fv);

	argv[2] = "15"; /* 14 CBos by the manual's rule, MSRs known for 8: refused, naming the limit */
	emulate(5, argv);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: cannot count UNC_CBO_CACHE_LOOKUP.ANY_MESI: MSR_UNC_CBO_CONFIG reports 14 CBos; CBo "
		      "MSRs are known for 8 (Table 2-1, Linux's CFL_UNC_CBO_7): at most 8 can be counted\n");
	T_ASSERT(!strstr(obuf, "uncore stat:"));
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET"), UNC_OK); /* the other units still count */
}

static void multiplexing_and_its_refusal(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "--no-multiplex"),
	     UNC_E_INVALID);
	T_CONTAINS(ebuf, "uncore: error: the events need 2 rounds of counters");
	T_EQ(h.fake.nlog, 0);
	T_EQ(RUN("-e", "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,UNC_ARB_TRK_REQUESTS.ALL"),
	     UNC_OK);
	T_CONTAINS(obuf, "in 2 groups (multiplexed)");
	T_CONTAINS(obuf, "; 2 groups multiplexed, ");
	T_CONTAINS(obuf, "UNC_ARB_TRK_REQUESTS.ALL                                5000000          5000000.000  events   50.00%");
}

/* A multiplexed event that did not run in an interval has no count. */
static void not_counted_in_an_interval(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "-I", "10", "-n", "2",
		 "-x", ","),
	     UNC_OK);
	T_CONTAINS(obuf, "0.010000000,<not counted>,,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,0,0.00\n");
	T_EQ(RUN("-e", "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "-I", "10", "-n", "1",
		 "-j"),
	     UNC_OK);
	T_CONTAINS(obuf, "\"count\":null,\"rate_per_s\":null,\"run_time_ns\":0,\"percent_running\":0.00,\"moved\":false}");
}

static void refusals(void)
{
	setup();
	h.emu.global_ctrl = 1ull << 29;
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET"), UNC_E_BUSY);
	T_STREQ(ebuf, "uncore: error: the uncore PMU is in use (MSR_UNC_PERF_GLOBAL_CTRL = 0x20000000); --force takes "
		      "it over and restores it\n");
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--force"), UNC_OK);
	T_CONTAINS(ebuf, "uncore: note: the PMU was in use (--force)");
	T_EQ(h.emu.global_ctrl, 1ull << 29);

	cfg.no_cbo_banks = 0;
	emu_hw_init(&h, &cfg);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: cannot count UNC_CBO_CACHE_LOOKUP.ANY_MESI: MSR_UNC_CBO_CONFIG reports no CBo\n");
}

/* A CPU no driver matches (CPUID leaf 0 says AuthenticAMD): each event is
 * refused naming the PMU it needs, before anything is read or written. */
static void absent_pmu_refused(void)
{
	const char *argv[] = { "uncore-emu.efi", "--cpuid", "0:0=0xd,0x68747541,0x444d4163,0x69746e65" };

	emulate(3, argv);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: UNC_CBO_CACHE_LOOKUP.ANY_MESI is a cbox event; this CPU has no cbox PMU\n");
	T_EQ(RUN("-e", "cbo/event=0x34,umask=0x8f/"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: cbo/event=0x34,umask=0x8f/ is a cbox event; this CPU has no cbox PMU\n");
	T_EQ(RUN("-e", "imc/data_reads/"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: imc/data_reads/ is an imc event; this CPU has no imc PMU\n");
	T_EQ(RUN("-e", "NO_SUCH_EVENT"), UNC_E_INVALID);
	T_STREQ(ebuf, "uncore: error: unknown event 'NO_SUCH_EVENT' (see 'uncore.efi list')\n");
	T_EQ(RUN("bw"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: no PMU of this CPU has DRAM counters: nothing for bw to read\n");
	T_EQ(RUN("list"), UNC_OK);
	T_STREQ(obuf, "no driver matches this CPU: no events (see 'uncore.efi list --all' and 'uncore.efi info')\n");
	T_EQ(RUN("list", "--all"), UNC_OK); /* columns as wide as every driver's widest: cpu_fixed, 0,1,2,3,4,5,6 */
	T_CONTAINS(obuf, "\ncbox       0x34  0x8f   0,1            UNC_CBO_CACHE_LOOKUP.ANY_MESI                     LLC lookup");
	/* a register is named only by a driver that matches the CPU */
	T_EQ(RUN("msr", "read", "0x396"), UNC_OK);
	T_CONTAINS(obuf, "msr 0x396 = 0x");
	T_EQ(RUN("regs"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: AuthenticAMD family 0x6 model 0x5e matches no PMU driver (see 'uncore.efi info' and "
		      "'uncore.efi list --all')\n");
}

static void list_and_regs(void)
{
	setup();
	T_EQ(RUN("list"), UNC_OK);
	/* grouped by PMU, each with its heading */
	T_CONTAINS(obuf, "cbox PMU (Skylake-client, skl-client-uncore); raw: cbox/event=N,umask=N[,thresh=N][,inv][,edge]/\n");
	T_CONTAINS(obuf, "\ncbox   0x34  0x8f   0,1       UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	T_CONTAINS(obuf, "\narb PMU (Skylake-client, skl-client-uncore); raw: arb/event=N,umask=N[,thresh=N][,inv][,edge]/\n");
	T_CONTAINS(obuf, "\narb    0x80  0x01   0         UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST  [threshold 1]");
	T_CONTAINS(obuf, "\nclock PMU (Skylake-client, skl-client-uncore)\n");
	T_CONTAINS(obuf, "\nclock  0x00  0x01   FIXED     UNC_CLOCK.SOCKET");
	T_CONTAINS(obuf, "\nimc PMU (Skylake-client, skl-client-uncore)\n");
	T_CONTAINS(obuf, "\nimc                 free      DRAM_DATA_READS ");
	T_CONTAINS(obuf, "\n20 events, 5 free-running counters, in 4 PMUs (this CPU's; --all lists every driver's).");
	T_EQ(RUN("list", "--all"), UNC_OK);
	/* a fixed counter named by its number (Intel's "Fixed counter 1") */
	T_CONTAINS(obuf, "\npmu        code  umask  counters       event                                             description\n");
	T_CONTAINS(obuf, "\ncpu_fixed  0x00  0x02   FIXED 1        CPU_CLK_UNHALTED.THREAD                           Core cycles");
	/* an event with a UMaskExt (Intel's SPR and EMR files: 0x00c001fe) */
	T_CONTAINS(obuf, "\ncha        0x35  0x01   0,1,2,3        UNC_CHA_TOR_INSERTS.IA_MISS                       [UMaskExt 0x00c001fe] TOR Inserts; misses from Local IA\n");
	/* every driver's: as many as the registry holds */
	unsigned nev = 0, nfree = 0, npmus = 0;
	for (unsigned d = 0; pmu_drivers[d]; d++) {
		nev += *pmu_drivers[d]->nevents;
		npmus += pmu_drivers[d]->nunits;
		for (unsigned u = 0; u < pmu_drivers[d]->nunits; u++)
			if (pmu_drivers[d]->units[u].kind == PMU_FREE)
				nfree += pmu_drivers[d]->units[u].counters;
	}
	T_EQ(nev >= 20 && nfree >= 5 && npmus >= 4, true);
	char all[120];
	snprintf(all, sizeof(all), "\n%u events, %u free-running counters, in %u PMUs (every driver's; this CPU may have fewer).",
		 nev, nfree, npmus);
	T_CONTAINS(obuf, all);
	T_EQ(RUN("list", "-j"), UNC_OK);
	T_CONTAINS(obuf, "{\"PMU\":\"arb\",\"Unit\":\"ARB\",\"EventCode\":\"0x80\",\"UMask\":\"0x01\",\"EventName\":"
			 "\"UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST\",");
	T_CONTAINS(obuf, "\"Counter\":\"0\",\"CounterMask\":\"1\",\"Invert\":\"0\",\"EdgeDetect\":\"0\"}");
	T_EQ(obuf[0], '[');
	T_EQ(RUN("list", "--all", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"EventCode\":\"0x35\",\"UMask\":\"0x01\",\"UMaskExt\":\"0x00c001fe\",\"EventName\":"
			 "\"UNC_CHA_TOR_INSERTS.IA_MISS\",");

	T_EQ(RUN("regs"), UNC_OK);
	T_CONTAINS(obuf, "0x396 MSR_UNC_CBO_CONFIG           0x0000000000000005\n");
	T_CONTAINS(obuf, "0x737 MSR_UNC_CBO_3_PERFCTR1       0x0000000000000000\n");
	cfg.ngp = 1;
	cfg.gp[0].msr = 0x3B1;
	emu_hw_init(&h, &cfg);
	T_EQ(RUN("regs"), UNC_E_FAULT);
	T_CONTAINS(obuf, "0x3b1 MSR_UNC_ARB_PERFCTR1         general-protection fault\n");
	T_CONTAINS(obuf, "0x395 MSR_UNC_PERF_FIXED_CTR       0x");
}

/* MSR_UNC_CBO_CONFIG with its reserved bits 63:4 all set
 * gives the CBo count from bits 3:0 alone; and a GLOBAL_CTRL found with
 * FRZ_ON_PMI and bit 4 (0x8000001F) is written back exactly after a run
 * through a wrap. */
static void restore_paths_with_reserved_and_pmi_bits(void)
{
	const char *argv[] = { "uncore-emu.efi", "--cbo-config", "5", "--cbo-config-reserved", "0xfffffffffffffff0",
			       "--global-ctrl", "0x8000001F", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=8G" };

	emulate((int)(sizeof(argv) / sizeof(argv[0])), argv);
	T_EQ(RUN("info"), UNC_OK);
	T_CONTAINS(obuf, "MSR_UNC_CBO_CONFIG (0x396): raw 0xfffffffffffffff5, NO_CBO_BANKS 5, CBo count 4 "
			 "(manual: subtract one)\n");
	T_EQ(RUN("regs"), UNC_OK);
	T_CONTAINS(obuf, "0x396 MSR_UNC_CBO_CONFIG           0xfffffffffffffff5\n");
	T_CONTAINS(obuf, "0x737 MSR_UNC_CBO_3_PERFCTR1       0x0000000000000000\n");
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "-d", "1800"), UNC_OK); /* wraps from 2^42 after 1649 s */
	T_CONTAINS(obuf, "uncore stat: 1 event in 1 group, 4 CBos, msr access: emulated (test model)\n");
	T_CONTAINS(obuf, "UNC_CBO_CACHE_LOOKUP.ANY_MESI                    57600000000000      32000000000.000  events  100.00%\n");
	T_EQ(RUN("msr", "read", "0xE01"), UNC_OK);
	T_CONTAINS(obuf, "msr 0xe01 (MSR_UNC_PERF_GLOBAL_CTRL) = 0x000000008000001f\n");
}

static void setup_imc(const char *fault)
{
	const char *argv[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=2343750000", "--rate", "DRAM_DATA_WRITES=781.25M",
			       "--rate", "DRAM_IA_REQUESTS=3G", "--rate", "DRAM_GT_REQUESTS=100M", "--core-pmu", "none",
			       "--fault", fault };

	emulate(fault ? 13 : 11, argv);
}

/* regs lists what this CPU has: the architectural PMU with 2 general
 * counters (of the driver's 7) shows 2, each register once, and nothing
 * faults. */
static void regs_follow_the_probe(void)
{
	const char *argv[] = { "uncore-emu.efi", "--core-pmu", "arch", "--arch-pmu", "2,2,48,3,48" };

	emulate(5, argv);
	T_EQ(RUN("regs"), UNC_OK);
	T_CONTAINS(obuf, "\n0xc2  IA32_PMC1 ");
	T_NOT_CONTAINS(obuf, "IA32_PMC2");
	/* IA32_FIXED_CTR_CTRL is the three fixed counters' one control: one line */
	const char *x = strstr(obuf, "0x38d IA32_FIXED_CTR_CTRL ");
	T_ASSERT(x != NULL);
	T_ASSERT(x && !strstr(x + 10, "IA32_FIXED_CTR_CTRL"));
	T_CONTAINS(obuf, "0x30b IA32_FIXED_CTR2 ");
	T_NOT_CONTAINS(obuf, "fault");
	T_STREQ(ebuf, "");
}

/* A bandwidth check adds the DRAM counters to the events given: with no
 * room left for them the run is refused, never judged on counters it lacks. */
static void check_needs_room_for_its_counters(void)
{
	static char lists[4][400];

	setup_imc(NULL);
	for (int extra = 30; extra <= 31; extra++) {
		const char *argv[16];
		int n = 0;
		argv[n++] = "uncore.efi";
		for (int l = 0; l < 4; l++) {
			lists[l][0] = '\0';
			for (int i = l * 8; i < (l + 1) * 8 && i < extra; i++)
				snprintf(lists[l] + strlen(lists[l]), sizeof(lists[l]) - strlen(lists[l]),
					 "%scbo/event=0x34,umask=0x%02x/", lists[l][0] ? "," : "", i + 1);
			argv[n++] = "-e";
			argv[n++] = lists[l];
		}
		argv[n++] = "--min-bw";
		argv[n++] = "1000";
		enum unc_status st = run(n, argv);
		if (extra == 30) { /* 30 + DRAM_DATA_READS + DRAM_DATA_WRITES = 32 */
			T_EQ(st, UNC_OK);
			T_CONTAINS(obuf, "\nPASS: read+write bandwidth ");
		} else {
			T_EQ(st, UNC_E_INVALID);
			T_STREQ(ebuf, "uncore: error: too many events (at most 32)\n");
			T_NOT_CONTAINS(obuf, "FAIL");
		}
	}
}

/* SMBIOS type 17 as a board might publish it: two DDR4-3200 channels. */
static enum unc_status smbios_two_channels(struct smbios_mem *ret, char *err, size_t errsize)
{
	(void)err, (void)errsize;
	*ret = (struct smbios_mem){ .devices = 2, .populated = 2, .peak_mb_s = 51200 };
	strcpy(ret->note, "2 populated devices x 3200 MT/s x 64 bits");
	return UNC_OK;
}

/* At 10^12 lines/s (64 TB/s) each 32-bit counter moves 10^11 lines between
 * two samples, 23 times its range: the counts alias to a lower figure that
 * still exceeds the SMBIOS peak. The warning says so, in the report, on the
 * console and in the record; a figure under the peak gets none. */
static void aliased_reading_above_the_smbios_peak(void)
{
	const char *argv[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=1000G", "--rate", "DRAM_DATA_WRITES=1000G" };

	emulate(5, argv);
	fake_vars_init(&fv, 2000, 1 << 20);
	env.smbios = smbios_two_channels;
	T_EQ(RUN("bw", "-o", "var:Alias"), UNC_OK);
	T_CONTAINS(obuf, "\nwarning: read+write ");
	T_CONTAINS(obuf, " MB/s is above the SMBIOS peak of 51200 MB/s: the IMC counts may alias (beyond 1374389 MB/s "
			 "per counter) or the SMBIOS data is wrong\n");
	T_NOT_CONTAINS(ebuf, "warning"); /* once on the console: in the report */
	T_CONTAINS(obuf, "; measured 3039.37% of it\n"); /* not capped at 100% */
	T_EQ(RUN("var", "show", "Alias", "-j"), UNC_OK);
	T_CONTAINS(obuf, ",\"warning\":\"read+write ");
	T_EQ(RUN("bw", "-I", "100", "-n", "3", "-j"), UNC_OK); /* every interval line is checked too */
	T_CONTAINS(obuf, "\"warning\":\"read+write ");
	/* a check gets no verdict from such a figure, PASS or FAIL, and does not pass */
	T_EQ(RUN("bw", "--min-bw", "1000"), UNC_E_CHECK);
	T_CONTAINS(obuf, "\nNO VERDICT: the figure is above the SMBIOS peak (see the warning); read+write bandwidth ");
	T_NOT_CONTAINS(obuf, "PASS");
	T_EQ(RUN("bw", "--min-bw", "9999999", "-j"), UNC_E_CHECK);
	T_CONTAINS(obuf, "\"check\":{\"verdict\":\"none\",");
	/* stat with the DATA counters is judged against the peak too */
	T_EQ(RUN("-e", "DRAM_DATA_READS,DRAM_DATA_WRITES"), UNC_OK);
	T_CONTAINS(obuf, "\nwarning: read+write ");

	/* 64-bit counters (Alder Lake's) cannot alias: no limit no memory reaches */
	const char *adl[] = { "uncore-emu.efi", "--rate", "UNC_MC0_RDCAS_COUNT_FREERUN=1000G", "--rate",
			      "UNC_MC0_WRCAS_COUNT_FREERUN=1000G", "--rate", "UNC_MC1_RDCAS_COUNT_FREERUN=1G", "--rate",
			      "UNC_MC1_WRCAS_COUNT_FREERUN=1G" };
	emulate(9, adl);
	emu_hw_init_cpu(&h, &cfg, 0x00090670u);
	h.hw.emulator = "test model";
	env.smbios = smbios_two_channels;
	T_EQ(RUN("bw"), UNC_OK);
	T_CONTAINS(obuf, "; sampled every 100 ms at most: the 64-bit counters cannot wrap between samples at any real "
			 "bandwidth\n");
	T_CONTAINS(obuf, "\nwarning: read+write 128128000.000 MB/s is above the SMBIOS peak of 51200 MB/s: the IMC counters "
			 "cannot wrap between samples, so the SMBIOS data is wrong or they count something else\n");
	T_NOT_CONTAINS(obuf, "5902958103587056");

	setup_imc(NULL); /* 200 GB/s: above 51.2 GB/s, but no alias is needed to say so */
	env.smbios = smbios_two_channels;
	T_EQ(RUN("bw"), UNC_OK);
	T_CONTAINS(obuf, "is above the SMBIOS peak of 51200 MB/s");
	const char *slow[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=100M", "--rate", "DRAM_DATA_WRITES=100M" };
	emulate(5, slow); /* 12.8 GB/s */
	T_EQ(RUN("bw"), UNC_OK);
	T_STREQ(ebuf, "");
	T_NOT_CONTAINS(obuf, "warning");
	T_CONTAINS(obuf, "peak: 51200 MB/s from SMBIOS");
	env.smbios = NULL;
	fake_vars_free(&fv);
}

/* A clock that does not move cannot be idle: an error and its own status.
 * Any other still counter is a note (an idle source counts 0 too), per box
 * when only some CBos moved. */
static void still_counters(void)
{
	const char *stuck[] = { "uncore-emu.efi", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M", "--fault", "stuck=fixed",
				"--fault", "stuck=cbo1.0" };

	emulate(7, stuck);
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET"), UNC_E_STUCK);
	T_CONTAINS(obuf, "UNC_CLOCK.SOCKET                                              0");
	T_STREQ(ebuf, "uncore: error: UNC_CLOCK.SOCKET did not change in the whole run: it counts a clock, which never stops "
		      "while its PMU counts, so the counter is stuck; its count is no measurement\n");
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL"), UNC_OK);
	T_CONTAINS(obuf, "note: UNC_CBO_CACHE_LOOKUP.ANY_MESI did not change on CBo 1 during the run while the other CBos "
			 "counted it (a stuck counter?)\n");
	T_CONTAINS(obuf, "note: UNC_ARB_TRK_REQUESTS.ALL did not change during the run (an idle source, or a stuck "
			 "counter)\n");
	T_STREQ(ebuf, "");
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "\n# note: UNC_ARB_TRK_REQUESTS.ALL did not change during the run (an idle source, or a stuck "
			 "counter)\n");
	/* what moved and what did not survives a stored record */
	static char live[8192];
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL", "--per-box", "-j", "-o", "var:Still"),
	     UNC_OK);
	strcpy(live, obuf);
	T_CONTAINS(live, "\"event\":\"UNC_ARB_TRK_REQUESTS.ALL\",\"unit\":\"events\",\"pmu\":\"arb\",\"encoding\":"
			 "\"0x400181\",\"count\":0,\"rate_per_s\":0.000,\"run_time_ns\":1000000000,\"percent_running\":"
			 "100.00,\"moved\":false}");
	T_EQ(RUN("var", "show", "Still", "-j"), UNC_OK);
	T_STREQ(obuf, live);
	fake_vars_free(&fv);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "--per-box", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"event\":\"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo1\",");
	T_CONTAINS(obuf, "\"count\":0,\"rate_per_s\":0.000,\"run_time_ns\":1000000000,\"percent_running\":100.00,"
			 "\"moved\":false}");
}

static void bw_report(void)
{
	setup_imc(NULL);
	T_EQ(RUN("bw", "-d", "6"), UNC_OK);
	T_CONTAINS(obuf, "uncore bw: IMC counters at MCHBAR 0xfed10000 (host bridge 8086:1910, Skylake), emulated uncore "
			 "(test model)\n");
	T_CONTAINS(obuf, "read       150000.000 MB/s     143051.147 MiB/s       900000000000 bytes    14062500000 lines\n");
	T_CONTAINS(obuf, "write       50000.000 MB/s      47683.716 MiB/s       300000000000 bytes     4687500000 lines\n");
	T_CONTAINS(obuf, "total      200000.000 MB/s     190734.863 MiB/s      1200000000000 bytes    18750000000 lines\n");
	T_CONTAINS(obuf, "requests:  GT 600000000 (3.22%)  IA 18000000000 (96.77%)  IO 0 (0.00%)\n");
	T_CONTAINS(obuf, "exact up to 1374389 MB/s per counter\n");
	T_STREQ(ebuf, "");
	T_EQ(h.fake.msr_reads, 0);

	T_EQ(RUN("bw", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"read\":{\"lines\":2343750000,\"bytes\":150000000000,\"mb_per_s\":150000.000,"
			 "\"mib_per_s\":143051.147,\"moved\":true}");
	T_CONTAINS(obuf, "\"IA\":{\"count\":3000000000,\"share_pct\":96.77}");

	T_EQ(RUN("bw", "-x", ","), UNC_OK);
	T_CONTAINS(obuf, "2343750000,lines,DRAM_DATA_READS,1000000000,100.00\n");
	T_CONTAINS(obuf, "150000.000,MB/s,dram_read_bandwidth,1000000000,100.00\n");
}

/* A run longer than 10 s without -I: a line every 10 s on stderr, none at
 * the end, none in the report (-x, -j); --quiet and -I have none. */
static void progress_lines(void)
{
	static const char bw_line[] = "  10 s of 25 s: read 150000 MB/s, write 50000 MB/s (last 10 s)\n"
				      "  20 s of 25 s: read 150000 MB/s, write 50000 MB/s (last 10 s)\n";

	setup_imc(NULL);
	T_EQ(RUN("bw", "-d", "25", "-x", ","), UNC_OK);
	T_STREQ(ebuf, bw_line);
	T_NOT_CONTAINS(obuf, " s of ");
	T_CONTAINS(obuf, "150000.000,MB/s,dram_read_bandwidth,25000000000,100.00\n");
	T_EQ(RUN("bw", "-d", "25", "-j"), UNC_OK);
	T_STREQ(ebuf, bw_line);
	T_EQ(RUN("bw", "-d", "20"), UNC_OK); /* the line at the end would say what the report says */
	T_STREQ(ebuf, "  10 s of 20 s: read 150000 MB/s, write 50000 MB/s (last 10 s)\n");
	T_EQ(RUN("bw", "-d", "10"), UNC_OK);
	T_STREQ(ebuf, "");
	T_EQ(RUN("bw", "-d", "25", "--quiet"), UNC_OK);
	T_STREQ(ebuf, "");
	T_EQ(RUN("bw", "-d", "25", "-I", "5000"), UNC_OK);
	T_STREQ(ebuf, "");
	/* --progress sets the period: every second of 2.5 s */
	T_EQ(RUN("bw", "-d", "2.5", "--progress", "1", "-x", ","), UNC_OK);
	T_STREQ(ebuf, "   1 s of 2.500 s: read 150000 MB/s, write 50000 MB/s (last 1 s)\n"
		      "   2 s of 2.500 s: read 150000 MB/s, write 50000 MB/s (last 1 s)\n");
	T_CONTAINS(obuf, "150000.000,MB/s,dram_read_bandwidth,2500000000,100.00\n");

	setup();
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET,UNC_ARB_TRK_REQUESTS.ALL", "-d", "30.5"), UNC_OK);
	T_STREQ(ebuf, "  10 s of 30.500 s: UNC_CLOCK.SOCKET 800000000/s (last 10 s)\n"
		      "  20 s of 30.500 s: UNC_CLOCK.SOCKET 800000000/s (last 10 s)\n"
		      "  30 s of 30.500 s: UNC_CLOCK.SOCKET 800000000/s (last 10 s)\n");
	T_CONTAINS(obuf, "UNC_CLOCK.SOCKET                                    24400000000        800000000.000  cycles");
}

static void bw_stuck_and_refused(void)
{
	setup_imc("stuck=DRAM_DATA_WRITES");
	T_EQ(RUN("bw"), UNC_E_DEVICE);
	T_CONTAINS(obuf, "write  DRAM_DATA_WRITES did not change: stuck, or no DRAM traffic; no bandwidth\n");
	T_NOT_CONTAINS(obuf, "write          0.000 MB/s");
	T_STREQ(ebuf, "uncore: error: DRAM_DATA_WRITES did not change in the whole run: a stuck counter, or no DRAM "
		      "traffic at all; no bandwidth figure\n");

	setup_imc("mchbar-disabled");
	T_EQ(RUN("bw"), UNC_E_UNSUPPORTED);
	T_STREQ(ebuf, "uncore: error: MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x00000000fed10000 (bit 0 clear); "
		      "uncore.efi never enables it\n");
	T_STREQ(obuf, "");
	setup_imc("mchbar-zero");
	T_EQ(RUN("bw"), UNC_E_UNSUPPORTED);
	T_CONTAINS(ebuf, "MCHBAR base is zero");
}

/* --min-bw and friends: PASS, FAIL with its own status, and no verdict at
 * all when ESC ends the run early, on the console and in stored results. */
static void bandwidth_check_verdicts(void)
{
	setup_imc(NULL); /* read 150000 MB/s, write 50000 MB/s */
	T_EQ(RUN("bw", "--min-bw", "199999"), UNC_OK);
	T_CONTAINS(obuf, "\nPASS: read+write bandwidth 200000.000 MB/s >= the required 199999.000 MB/s\n");
	T_EQ(RUN("bw", "--min-read-bw", "150001"), UNC_E_CHECK);
	T_CONTAINS(obuf, "\nFAIL: read bandwidth 150000.000 MB/s < the required 150001.000 MB/s\n");
	T_EQ(RUN("bw", "--min-write-bw", "1000", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"check\":{\"verdict\":\"PASS\",\"measured_mb_per_s\":50000.000,\"required_mb_per_s\":1000.000}");

	/* 15625015 lines/s = 1000000960 bytes/s: the table prints 1000.001 MB/s,
	 * and the check judges and prints that same figure. */
	const char *odd[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=15625015", "--rate", "DRAM_DATA_WRITES=1" };
	emulate(5, odd);
	T_EQ(RUN("bw", "--min-read-bw", "1000.001"), UNC_OK);
	T_CONTAINS(obuf, "\nread         1000.001 MB/s ");
	T_CONTAINS(obuf, "\nPASS: read bandwidth 1000.001 MB/s >= the required 1000.001 MB/s\n");
	T_EQ(RUN("bw", "--min-read-bw", "1000.002"), UNC_E_CHECK);
	T_CONTAINS(obuf, "\nFAIL: read bandwidth 1000.001 MB/s < the required 1000.002 MB/s\n");

	setup_imc(NULL);
	esc_at = h.fake.now + 2 * S; /* 2 s into a 6-second run */
	T_EQ(RUN("bw", "-d", "6", "--min-bw", "1000", "-o", "var:Esc"), UNC_E_ABORTED);
	T_CONTAINS(obuf, "elapsed: 2.000000000 s measured");
	T_CONTAINS(obuf, "\nNO VERDICT: the run was stopped early; read+write bandwidth 200000.000 MB/s until then, "
			 "1000.000 MB/s required\n");
	T_NOT_CONTAINS(obuf, "PASS");
	T_CONTAINS(ebuf, "uncore: stopped by ESC; the counts above cover the time until then\n");
	esc_at = h.fake.now + 1 * S;
	T_EQ(RUN("bw", "-d", "6", "--min-bw", "1000", "-j"), UNC_E_ABORTED);
	T_CONTAINS(obuf, "\"check\":{\"verdict\":\"none\",\"measured_mb_per_s\":200000.000,");
	esc_at = 0;
	T_EQ(RUN("var", "show", "Esc"), UNC_OK);
	T_CONTAINS(obuf, ", exit status: stopped by the user\n");
	T_CONTAINS(obuf, "\nNO VERDICT: the run was stopped early; read+write bandwidth 200000.000 MB/s until then, "
			 "1000.000 MB/s required\n");
}

/* A run that cannot start its load or child frees what it allocated for
 * -o (LeakSanitizer checks at exit) and programs nothing. */
static void no_load_generator_no_child_runner(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "100", "-o", "var", "--load", "copy"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: no load generator on this platform\n");
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-o", "var", "--", "fs0:\\child.efi"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: cannot run a child image on this platform\n");
	T_EQ(h.fake.nlog, 0);
}

/* A child that ran: its status decoded and named; an error is said plainly,
 * is the run's status and is stored; no status at all is not vouched for. */
static void child_status_judged(void)
{
	setup();
	use_env = &child_env;
	child_known = true, child_status = 0;
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--", "fs0:\\child.efi", "300", "x"), UNC_OK);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x returned EFI_SUCCESS after 300 ms\n");
	T_STREQ(ebuf, "");

	child_status = 0x8000000000000007ull;
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-o", "var:Child", "--", "fs0:\\child.efi", "300", "x"), UNC_E_CHILD);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x FAILED: EFI_DEVICE_ERROR (0x8000000000000007) after 300 ms\n");
	T_CONTAINS(obuf, "\nUNC_CLOCK.SOCKET ");
	T_CONTAINS(ebuf, "uncore: error: the child failed with EFI_DEVICE_ERROR; the exit status is its own\n");
	T_EQ(RUN("var", "show", "Child"), UNC_OK);
	T_CONTAINS(obuf, ", exit status: the child failed\n");
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x FAILED: EFI_DEVICE_ERROR (0x8000000000000007) after 300 ms\n");
	T_EQ(RUN("var", "show", "Child", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"child\":{\"command\":\"fs0:\\\\child.efi 300 x\",\"status\":\"0x8000000000000007\"}");

	child_status = 0x8000000000000099ull; /* no name in the specification */
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--", "fs0:\\child.efi", "300", "x"), UNC_E_CHILD);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x FAILED: status 0x8000000000000099 after 300 ms\n");
	T_CONTAINS(ebuf, "uncore: error: the child failed with 0x8000000000000099; the exit status is its own\n");

	/* The Shell gives 5 for EFIERR(5) and for the warning 5 alike: any
	 * non-zero status is a failure, as the Shell takes it. */
	child_status = efi_status_from_shell(5);
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--", "fs0:\\child.efi", "300", "x"), UNC_E_CHILD);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x FAILED: EFI_BUFFER_TOO_SMALL (0x8000000000000005) after 300 ms\n");
	child_status = 5; /* a warning, should a firmware report one */
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--", "fs0:\\child.efi", "300", "x"), UNC_E_CHILD);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x FAILED: EFI_WARN_STALE_DATA (0x5) after 300 ms\n");

	child_known = false;
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-o", "var:Child", "--", "fs0:\\child.efi", "300", "x"), UNC_E_DEVICE);
	T_CONTAINS(obuf, "\nchild: fs0:\\child.efi 300 x ran for 300 ms; its status is UNKNOWN: the Shell left no "
			 "%lasterror% for it\n");
	T_CONTAINS(ebuf, "uncore: error: the Shell gave no status for the child, so nothing vouches for its run\n");
	T_EQ(RUN("var", "show", "Child", "-j"), UNC_OK);
	T_CONTAINS(obuf, "\"child\":{\"command\":\"fs0:\\\\child.efi 300 x\",\"status\":null}");

	/* a failed child and a failed check: the child's failure is the run's */
	setup_imc(NULL);
	child_known = true, child_status = 0x8000000000000007ull;
	T_EQ(RUN("bw", "--min-bw", "999999", "--", "fs0:\\child.efi", "300", "x"), UNC_E_CHILD);
	T_CONTAINS(obuf, "\nFAIL: read+write bandwidth 200000.000 MB/s < the required 999999.000 MB/s\n");
	use_env = &env;
	T_EQ(RUN("var", "delete", "Child"), UNC_OK);
}

/* What cannot be a child is one line before anything runs: no report, no
 * register written. */
/* ExitBootServices while the child runs: every register as found, once. */
static void child_exiting_boot_services_finds_the_pmu_as_found(void)
{
	setup();
	use_env = &ebs_env;
	ebs_arms = ebs_disarms = 0;
	T_EQ(h.hw.ops->msr_write(h.hw.ctx, 0x706, 0x1234), UNC_OK); /* a counter as someone left it */
	unsigned nlog = h.fake.nlog;
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "--", "fs0:\\child.efi", "300", "x"), UNC_OK);
	T_EQ(ebs_arms, 1);
	T_EQ(ebs_disarms, 1);
	T_ASSERT(ebs_armed == NULL);
	T_ASSERT(ebs_before[0] != 0); /* programmed while the child ran */
	T_ASSERT(ebs_before[1] != 0);
	T_EQ(ebs_after[0], 0);
	T_EQ(ebs_after[1], 0);
	T_EQ(ebs_after[2], 0x1234);
	/* nothing written after the notification put them back: the run's
	 * end restores nothing twice */
	T_ASSERT(ebs_nlog > nlog);
	T_EQ(h.fake.nlog, ebs_nlog);
	use_env = &env;
}

static void child_refused_before_anything_runs(void)
{
	setup();
	use_env = &child_env;
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "--", "frobnicate", "1"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: child 'frobnicate 1': no such file\n");
	T_STREQ(obuf, "");
	T_EQ(h.fake.nlog, 0);
	use_env = &env;
}

static void imc_events_mix_with_msr_events(void)
{
	setup_imc(NULL);
	T_EQ(RUN("-e", "DRAM_DATA_READS,UNC_CLOCK.SOCKET,imc/gt_requests/,DRAM_IO_REQUESTS"), UNC_OK);
	T_CONTAINS(obuf, "DRAM_DATA_READS                                      2343750000       2343750000.000  lines   100.00%  = 150000000000 bytes\n");
	T_CONTAINS(obuf, "DRAM_GT_REQUESTS                                      100000000        100000000.000  requests  100.00%\n");
	T_CONTAINS(obuf, "UNC_CLOCK.SOCKET                                      800000000        800000000.000  cycles  100.00%\n");
	T_CONTAINS(obuf, "note: DRAM_IO_REQUESTS did not change during the run (an idle source, or a stuck counter)\n");
	T_EQ(RUN("-e", "DRAM_DATA_READS", "-x", ";"), UNC_OK);
	T_CONTAINS(obuf, "# uncore stat: 1 event, IMC only (free-running, nothing written), imc: emulated (test model)\n");
	T_CONTAINS(obuf, "2343750000;lines;DRAM_DATA_READS;1000000000;100.00\n"); /* the raw count */
}

/* -o var, then var show: the same table, with a first line naming it. */
static void stored_results_show_as_run(void)
{
	static char run_out[65536];

	setup();
	fake_vars_init(&fv, 2000, 1 << 20);
	T_EQ(RUN("-e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET", "-I", "250", "-n", "8", "--per-box", "-o", "var",
		 "-o", "fs0:\\results.json", "--var-chunk", "512"),
	     UNC_OK);
	strcpy(run_out, obuf);
	T_CONTAINS(ebuf, "uncore: results stored in EFI variable UncoreResults: ");
	T_CONTAINS(ebuf, " chunks UncoreResults.0001..");
	T_CONTAINS(ebuf, "uncore: results written to fs0:\\results.json: ");
	T_ASSERT(fv.n > 2); /* chunked: --var-chunk 512 */
	T_EQ(RUN("var", "show"), UNC_OK);
	T_CONTAINS(obuf, "record UncoreResults: `stat` by uncore.efi " UNC_VERSION " at 2026-11-21 22:00:00, exit status: success\n");
	T_STREQ(strchr(obuf, '\n') + 1, run_out); /* the rest, to the character */
	T_EQ(RUN("var", "show", "-j"), UNC_OK);
	T_STREQ(obuf, filebuf); /* the file holds the JSON form */
	T_CONTAINS(filebuf, "{\"interval\":0.250000000,");
	T_EQ(RUN("var", "list"), UNC_OK);
	T_CONTAINS(obuf, "UncoreResults ");
	T_CONTAINS(obuf, "  stat     2026-11-21 22:00:00  2\n1 record (vendor GUID 7c3a5e91");

	setup_imc(NULL); /* bw needs moving DRAM counters */
	T_EQ(RUN("bw", "-o", "var:Bw1"), UNC_OK);
	strcpy(run_out, obuf);
	T_EQ(RUN("var", "show", "Bw1"), UNC_OK);
	T_STREQ(strchr(obuf, '\n') + 1, run_out);
	h.emulated = (struct hw_emulated){ 0 }; /* a new uncore.efi: bw's MMIO reads are not its */
	T_EQ(RUN("info", "-o", "var:Plat"), UNC_OK);
	strcpy(run_out, obuf);
	T_EQ(RUN("var", "show", "Plat"), UNC_OK);
	T_STREQ(strchr(obuf, '\n') + 1, run_out);

	T_EQ(RUN("var", "delete", "Bw1"), UNC_OK);
	T_EQ(RUN("var", "show", "Bw1"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: Bw1: no stored record named Bw1\n");
	T_EQ(RUN("var", "delete"), UNC_OK);
	T_EQ(RUN("var", "delete", "Plat"), UNC_OK);
	T_EQ(fv.n, 0); /* nothing left, chunks included */

	/* a full store: the console output stays, nothing is stored */
	fake_vars_free(&fv);
	fake_vars_init(&fv, 2000, 3000);
	T_EQ(RUN("-e", "UNC_CLOCK.SOCKET", "-I", "10", "-n", "100", "-o", "var"), UNC_E_NO_MEMORY);
	T_CONTAINS(obuf, "UNC_CLOCK.SOCKET");
	T_CONTAINS(ebuf, "uncore: error: results not stored in UncoreResults: the variable store has ");
	T_EQ(fv.n, 0);
	fake_vars_free(&fv);
}

/* The write log of a Tiger Lake run (TGL-H, family 6 model 0x8D), from the
 * emulator's record of every store uncore.efi makes (`bw` writes nothing
 * there: the IMC counters are free-running, read only; the QEMU boots show
 * it with `regs`): `stat` of the ARB, the
 * clock and a CBo event writes only the global control, the event selects
 * and the fixed counter's control, each for a reason a source gives, and
 * never a counter (no manual for Tiger Lake; Linux's uncore_snb.c writes no
 * client counter). Each write is printed with the driver's name for the
 * register and its reason; any other register written fails. */
static void tgl_write_log(void)
{
	const char *argv[] = { "uncore-emu.efi", "--rate", "UNC_ARB_TRK_REQUESTS.ALL=5M", "--core-pmu", "none" };
	char err[100], name[64];
	struct pmu_present p = { .drv = &pmu_driver_tgl };

	T_EQ(emu_parse_options(5, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init_cpu(&h, &cfg, 0x806D1); /* family 6 model 0x8D */
	h.hw.emulator = "test model";
	T_EQ(RUN("-e", "UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,cbox/event=0x34,umask=0x8f/", "-d", "1"), UNC_OK);
	T_CONTAINS(obuf, "UNC_ARB_TRK_REQUESTS.ALL");
	printf("    Tiger Lake `stat -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,cbox/event=0x34,umask=0x8f/ -d 1`: "
	       "%u writes\n", h.fake.nlog);
	bool counting = false, ended = false;
	for (unsigned i = 0; i < h.fake.nlog; i++) {
		const struct fake_write *w = &h.fake.log[i];
		uint64_t a = w->addr;
		const char *why;
		T_EQ(w->kind, FAKE_MSR);
		if (a == 0xE01) {
			bool en = w->value >> 29 & 1;
			why = en ? "bit 29 (EN) set to start counting: Linux's rkl_uncore_msr_init_box writes bit 29"
			    : !counting ? "EN clear while the run programs (found 0x0)"
					: "EN clear to stop, then the value found put back last";
			counting |= en;
			ended |= counting && !en;
		} else if (a >= 0x700 && a < 0x700 + 8 * 16 && (a & 7) <= 1) {
			why = ended ? "CBo event select put back as found"
			    : w->value ? "CBo event select: the event, EN (bit 22) set (snb_uncore_msr_enable_event)"
				       : "CBo event select: 0, no event on this counter (the run sets every select of a unit it uses)";
		} else if (a == 0x3B2 || a == 0x3B3) {
			why = ended ? "ARB event select put back as found"
			    : w->value ? "ARB event select: the event, EN (bit 22) set (snb_uncore_msr_enable_event)"
				       : "ARB event select: 0, no event on this counter";
		} else if (a == 0x394) {
			why = !ended ? "fixed counter control: EN (bit 22) starts UNC_CLOCK.SOCKET (snb_uncore_msr_enable_event)"
				     : "fixed counter control: 0 to stop, then put back as found";
		} else {
			t_fail(__FILE__, __LINE__, "write %u: MSR 0x%llx = 0x%llx, not a register the run has a source for", i,
			       (unsigned long long)a, (unsigned long long)w->value);
			continue;
		}
		const char *n = pmu_reg_name(&pmu_driver_tgl, &p, pmu_msr(a), name, sizeof(name));
		printf("    %2u  MSR 0x%03llx %-26s = 0x%-9llx %s\n", i + 1, (unsigned long long)a, n,
		       (unsigned long long)w->value, why);
	}
	T_ASSERT(counting && ended);
	T_EQ(h.fake.log[h.fake.nlog - 1].addr, 0xE01);
	T_EQ(h.fake.log[h.fake.nlog - 1].value, 0);
}

T_MAIN("app_stat", T_CASE(tgl_write_log), T_CASE(progress_lines), T_CASE(aliased_reading_above_the_smbios_peak), T_CASE(still_counters), T_CASE(not_counted_in_an_interval), T_CASE(stored_results_show_as_run), T_CASE(bw_report), T_CASE(bw_stuck_and_refused), T_CASE(bandwidth_check_verdicts), T_CASE(no_load_generator_no_child_runner), T_CASE(child_status_judged), T_CASE(child_refused_before_anything_runs), T_CASE(child_exiting_boot_services_finds_the_pmu_as_found), T_CASE(imc_events_mix_with_msr_events), T_CASE(human_table), T_CASE(per_box_and_csv_intervals), T_CASE(last_shorter_interval), T_CASE(json),
       T_CASE(eight_cbos_and_more), T_CASE(multiplexing_and_its_refusal), T_CASE(refusals), T_CASE(list_and_regs), T_CASE(absent_pmu_refused), T_CASE(check_needs_room_for_its_counters), T_CASE(regs_follow_the_probe), T_CASE(restore_paths_with_reserved_and_pmi_bits))
