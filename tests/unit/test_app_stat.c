/* `uncore.efi stat`, `list` and `regs` end to end on the host: the real
 * command line and reports, against the uncore model on a fake clock. */
#include <string.h>

#include "../../efi/app.h"
#include "../emu/emu_hw.h"
#include "t.h"

#define S 1000000000ull

static struct emu_hw h;
static struct emu_config cfg;
static char obuf[16384], ebuf[1024];

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

static const struct app_env env = { wait_until, NULL };

static enum unc_status run(int argc, const char **argv)
{
	static struct cli_cmd cmd;
	struct strbuf so, se;
	char msg[200];

	strbuf_init(&so, obuf, sizeof(obuf));
	strbuf_init(&se, ebuf, sizeof(ebuf));
	struct out o = strbuf_out(&so), e = strbuf_out(&se);
	enum unc_status st = cli_parse(argc, (char **)argv, &cmd, msg, sizeof(msg));
	if (st) {
		t_fail(__FILE__, __LINE__, "cli: %s", msg);
		return st;
	}
	return app_run(&cmd, &h.hw, &env, &o, &e);
}

#define RUN(...)                                                  \
	({                                                        \
		const char *av[] = { "uncore.efi", __VA_ARGS__ }; \
		run((int)(sizeof(av) / sizeof(av[0])), av);       \
	})

static void setup(void)
{
	char err[100];
	const char *argv[] = { "uncore-emu.efi", "--rate", "UNC_CBO_CACHE_LOOKUP.ANY_MESI=1.5M", "--rate",
			       "UNC_ARB_TRK_REQUESTS.ALL=5M" };

	T_EQ(emu_parse_options(5, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init(&h, &cfg);
	h.hw.emulator = "test model";
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

static void json(void)
{
	setup();
	T_EQ(RUN("-e", "UNC_ARB_TRK_REQUESTS.ALL", "-j"), UNC_OK);
	T_STREQ(obuf, "{\"tool\":\"uncore.efi\",\"msr_access\":\"emulated\",\"emulator\":\"test model\",\"cbo_count\":4,"
		      "\"groups\":1,\"elapsed_ns\":1000000000,\"tsc_hz\":1000000000,\"events\":[{\"event\":"
		      "\"UNC_ARB_TRK_REQUESTS.ALL\",\"unit\":\"events\",\"pmu\":\"arb\",\"encoding\":\"0x400181\","
		      "\"count\":5000000,\"rate_per_s\":5000000.000,\"run_time_ns\":1000000000,\"percent_running\":100.00}]}\n");
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

static void list_and_regs(void)
{
	setup();
	T_EQ(RUN("list"), UNC_OK);
	T_CONTAINS(obuf, "CBOX   0x34  0x8f   0,1       UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	T_CONTAINS(obuf, "ARB    0x80  0x01   0         UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST   [threshold 1]");
	T_CONTAINS(obuf, "CLOCK  0x00  0x01   FIXED     UNC_CLOCK.SOCKET");
	T_CONTAINS(obuf, "20 events.");
	T_EQ(RUN("list", "-j"), UNC_OK);
	T_CONTAINS(obuf, "{\"Unit\":\"ARB\",\"EventCode\":\"0x80\",\"UMask\":\"0x01\",\"EventName\":"
			 "\"UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST\",");
	T_CONTAINS(obuf, "\"Counter\":\"0\",\"CounterMask\":\"1\",\"Invert\":\"0\",\"EdgeDetect\":\"0\"}");
	T_EQ(obuf[0], '[');

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

T_MAIN("app_stat", T_CASE(human_table), T_CASE(per_box_and_csv_intervals), T_CASE(json),
       T_CASE(multiplexing_and_its_refusal), T_CASE(refusals), T_CASE(list_and_regs))
