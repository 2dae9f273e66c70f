/* The OpenMetrics writer (drivers/output/openmetrics.c) against the
 * format's rules: the exact text of a small record (figures worked out
 * here by hand), label values escaped, units as name suffixes, # EOF last,
 * the buffer contract, and every text accepted by the strict OpenMetrics
 * parser, Prometheus' parser and promtool (T_OM); and `-o metrics:PATH`
 * end to end, against the emulated IMC: the file says what the console
 * printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/cmd/app.h"
#include "../../drivers/engine/pmu.h"
#include "../../drivers/output/openmetrics.h"
#include "../emu/emu_hw.h"
#include "app_run.h"
#include "t.h"

static struct rec r;
static char text[1 << 20];

static uint8_t le_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p[0];
}

/* Two sockets of one iMC channel each, read and write counters (layout 3's
 * per-box fields), counted for 10^9 ticks of a 2 GHz TSC: half a second.
 * Reads: 1,000,000 lines on socket 0 and 3,000,000 on socket 1; writes
 * 500,000 on each. */
static uint8_t totals[2][16], groups[4] = { 0, 0, 1, 0 }, ids[4] = { 0, 0, 0, 0 }, moved = 3, still = 0;

static void dram_event(struct rec_event *e, const char *name, uint8_t role, uint64_t s0, uint64_t s1, uint8_t *tot)
{
	memset(e, 0, sizeof(*e));
	strcpy(e->name, name);
	strcpy(e->driver, "skx-uncore");
	strcpy(e->pmu, "imc");
	strcpy(e->box_label, "ch");
	strcpy(e->box_noun, "channel");
	strcpy(e->count_word, "lines");
	strcpy(e->group_noun, "socket");
	e->kind = PMU_GENERAL;
	e->role = role;
	e->width = 48;
	e->nboxes = 2;
	e->running = 1000000000;
	le_u64(tot, s0);
	le_u64(tot + 8, s1);
	e->spans = true;
	e->pb_total = (struct rec_span){ tot, 16 };
	e->pb_group = (struct rec_span){ groups, 4 };
	e->pb_id = (struct rec_span){ ids, 4 };
	e->pb_moved = (struct rec_span){ &moved, 1 };
	e->pb_still = (struct rec_span){ &still, 1 };
}

static void bw_record(void)
{
	memset(&r, 0, sizeof(r));
	strcpy(r.tool, "uncore.efi 0.1.0");
	strcpy(r.command, "bw");
	strcpy(r.vendor, "GenuineIntel");
	strcpy(r.brand, "Xeon");
	strcpy(r.model_name, "Skylake-SP");
	r.family = 6;
	r.model = 85;
	r.stepping = 4;
	r.msr_mode = HW_MSR_EMULATED;
	strcpy(r.emulator, "emu skx");
	r.tsc_hz = 2000000000;
	r.npmus = 1;
	strcpy(r.pmus[0].driver, "skx-uncore");
	r.elapsed = 1000000000;
	r.nevents = 2;
	dram_event(&r.ev[0], "UNC_M_CAS_COUNT.RD", PMU_ROLE_DRAM_READ, 1000000, 3000000, totals[0]);
	dram_event(&r.ev[1], "UNC_M_CAS_COUNT.WR", PMU_ROLE_DRAM_WRITE, 500000, 500000, totals[1]);
	strcpy(r.id.board_product, "X11DPi");
	strcpy(r.id.sys_product, "SYS-1029");
	strcpy(r.id.sys_serial, "S1");
	strcpy(r.id.bios_version, "3.1");
	r.x.check = CHECK_TOTAL;
	r.x.check_required_kb_s = 600000;  /* 600 MB/s */
	r.x.check_measured_kb_s = 640000;  /* 640 MB/s */
	r.x.check_verdict = VERDICT_PASS;
	r.boot_seq = 7;
}

#define ID "board=\"X11DPi\",system=\"SYS-1029\",serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\",msr_access=\"emulated\",case=\"dram\"}"

/* Read: 4,000,000 lines x 64 bytes in 0.5 s = 512,000,000 bytes/s (socket 0:
 * 128,000,000; socket 1: 384,000,000); write: 1,000,000 lines = 128,000,000
 * (64,000,000 each); total 640,000,000 (192,000,000 and 448,000,000). The
 * rate of 4,000,000 lines in 0.5 s is 8,000,000 a second. */
static const char expect_bw[] =
	"# TYPE uncore_info gauge\n"
	"# HELP uncore_info The run: tool, command, CPU, drivers, firmware (value 1)\n"
	"uncore_info{tool=\"uncore.efi 0.1.0\",command=\"bw\",vendor=\"GenuineIntel\",family=\"6\",model=\"85\","
	"stepping=\"4\",model_name=\"Skylake-SP\",drivers=\"skx-uncore\",emulator=\"emu skx\"," ID " 1\n"
	"# TYPE uncore_exit_status gauge\n"
	"# HELP uncore_exit_status The run's exit status (0: success), named in status\n"
	"uncore_exit_status{status=\"success\"," ID " 0\n"
	"# TYPE uncore_boot_sequence gauge\n"
	"# HELP uncore_boot_sequence The boot number of a boot-time check\n"
	"uncore_boot_sequence{" ID " 7\n"
	"# TYPE uncore_elapsed_seconds gauge\n"
	"# UNIT uncore_elapsed_seconds seconds\n"
	"# HELP uncore_elapsed_seconds Time measured\n"
	"uncore_elapsed_seconds{" ID " 0.500000000\n"
	"# TYPE uncore_dram_read_bytes_per_second gauge\n"
	"# UNIT uncore_dram_read_bytes_per_second bytes_per_second\n"
	"# HELP uncore_dram_read_bytes_per_second DRAM reads\n"
	"uncore_dram_read_bytes_per_second{" ID " 512000000\n"
	"uncore_dram_read_bytes_per_second{socket=\"0\"," ID " 128000000\n"
	"uncore_dram_read_bytes_per_second{socket=\"1\"," ID " 384000000\n"
	"uncore_dram_read_bytes_per_second{socket=\"0\",channel=\"0\"," ID " 128000000\n"
	"uncore_dram_read_bytes_per_second{socket=\"1\",channel=\"0\"," ID " 384000000\n"
	"# TYPE uncore_dram_write_bytes_per_second gauge\n"
	"# UNIT uncore_dram_write_bytes_per_second bytes_per_second\n"
	"# HELP uncore_dram_write_bytes_per_second DRAM writes\n"
	"uncore_dram_write_bytes_per_second{" ID " 128000000\n"
	"uncore_dram_write_bytes_per_second{socket=\"0\"," ID " 64000000\n"
	"uncore_dram_write_bytes_per_second{socket=\"1\"," ID " 64000000\n"
	"uncore_dram_write_bytes_per_second{socket=\"0\",channel=\"0\"," ID " 64000000\n"
	"uncore_dram_write_bytes_per_second{socket=\"1\",channel=\"0\"," ID " 64000000\n"
	"# TYPE uncore_dram_total_bytes_per_second gauge\n"
	"# UNIT uncore_dram_total_bytes_per_second bytes_per_second\n"
	"# HELP uncore_dram_total_bytes_per_second DRAM reads and writes\n"
	"uncore_dram_total_bytes_per_second{" ID " 640000000\n"
	"uncore_dram_total_bytes_per_second{socket=\"0\"," ID " 192000000\n"
	"uncore_dram_total_bytes_per_second{socket=\"1\"," ID " 448000000\n"
	"uncore_dram_total_bytes_per_second{socket=\"0\",channel=\"0\"," ID " 192000000\n"
	"uncore_dram_total_bytes_per_second{socket=\"1\",channel=\"0\"," ID " 448000000\n"
	"# TYPE uncore_check_passed gauge\n"
	"# HELP uncore_check_passed The bandwidth check: 1 passed, 0 failed\n"
	"uncore_check_passed{check=\"read+write\"," ID " 1\n"
	"# TYPE uncore_check_required_bytes_per_second gauge\n"
	"# UNIT uncore_check_required_bytes_per_second bytes_per_second\n"
	"# HELP uncore_check_required_bytes_per_second The check's bound\n"
	"uncore_check_required_bytes_per_second{check=\"read+write\"," ID " 600000000\n"
	"# TYPE uncore_check_measured_bytes_per_second gauge\n"
	"# UNIT uncore_check_measured_bytes_per_second bytes_per_second\n"
	"# HELP uncore_check_measured_bytes_per_second The check's figure\n"
	"uncore_check_measured_bytes_per_second{check=\"read+write\"," ID " 640000000\n"
	"# TYPE uncore_event_counted gauge\n"
	"# HELP uncore_event_counted Events counted in the run\n"
	"uncore_event_counted{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\"," ID " 4000000\n"
	"uncore_event_counted{event=\"UNC_M_CAS_COUNT.WR\",pmu=\"imc\",unit=\"lines\"," ID " 1000000\n"
	"# TYPE uncore_event_rate gauge\n"
	"# HELP uncore_event_rate Events counted per second\n"
	"uncore_event_rate{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\"," ID " 8000000.000\n"
	"uncore_event_rate{event=\"UNC_M_CAS_COUNT.WR\",pmu=\"imc\",unit=\"lines\"," ID " 2000000.000\n"
	"# TYPE uncore_event_running_ratio gauge\n"
	"# HELP uncore_event_running_ratio The share of the run the event was counting\n"
	"uncore_event_running_ratio{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\"," ID " 1.0000\n"
	"uncore_event_running_ratio{event=\"UNC_M_CAS_COUNT.WR\",pmu=\"imc\",unit=\"lines\"," ID " 1.0000\n"
	"# EOF\n";

static const struct om_label case_dram = { "case", "dram" };

static void bw_exact_text(void)
{
	bw_record();
	size_t n = om_write(text, sizeof(text), &r, &case_dram, 1);
	T_STREQ(text, expect_bw);
	T_EQ(n, strlen(expect_bw));
	T_OM(text);
}

/* --per-box: each box's row of every event too, named as the stat table
 * names it (socket1.ch0: socket="1",channel="0"); the running share of a
 * multiplexed event (3/4 of the run). */
static void per_box_rows(void)
{
	bw_record();
	strcpy(r.command, "stat");
	r.per_box = 1;
	r.nevents = 1;
	r.ev[0].running = 750000000;
	r.x.check = CHECK_NONE;
	r.boot_seq = 0; /* a boot check has a verdict series even without a check (info_and_failures) */
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_event_counted{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\",socket=\"1\","
			      "channel=\"0\",board=\"X11DPi\",system=\"SYS-1029\",serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\","
			      "msr_access=\"emulated\"} 4000000\n"));
	/* scaled to the whole run as the table scales it: 3,000,000 x 4/3 */
	T_ASSERT(strstr(text, "\nuncore_event_running_ratio{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\","
			      "board=\"X11DPi\",system=\"SYS-1029\",serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\","
			      "msr_access=\"emulated\"} 0.7500\n"));
	T_ASSERT(!strstr(text, "dram_read")); /* bw's figures are bw's */
	T_ASSERT(!strstr(text, "uncore_check"));
	T_OM(text);
}

/* Backslash, double quote and line feed in a label value, escaped as the
 * format says; nothing else changed. */
static void label_values_escaped(void)
{
	bw_record();
	strcpy(r.id.sys_serial, "A\"B\\C\nD");
	strcpy(r.brand, "Q \"x\" \\n");
	const struct om_label extra[] = { { "case", "two\nlines" }, { "note", "" } };
	om_write(text, sizeof(text), &r, extra, 2);
	T_ASSERT(strstr(text, "{board=\"X11DPi\",system=\"SYS-1029\",serial=\"A\\\"B\\\\C\\nD\",bios=\"3.1\","
			      "cpu=\"Q \\\"x\\\" \\\\n\",msr_access=\"emulated\",case=\"two\\nlines\"} 7\n"));
	T_ASSERT(!strstr(text, "note=")); /* empty: left out */
	T_OM(text);
}

/* Every metric with a # UNIT has that unit as its name's suffix, every
 * family a TYPE and a HELP before its samples, and # EOF ends the text. */
static void units_and_eof(void)
{
	bw_record();
	size_t n = om_write(text, sizeof(text), &r, NULL, 0);
	unsigned units = 0;
	for (const char *p = strstr(text, "# UNIT "); p; p = strstr(p + 1, "# UNIT ")) {
		char name[80], unit[40];
		T_EQ(sscanf(p, "# UNIT %79s %39s", name, unit), 2);
		size_t ln = strlen(name), lu = strlen(unit);
		T_ASSERT(ln > lu + 1 && name[ln - lu - 1] == '_' && !strcmp(name + ln - lu, unit));
		units++;
	}
	T_EQ(units, 6);
	T_ASSERT(n > 6 && !strcmp(text + n - 6, "# EOF\n"));
	T_EQ(strstr(text, "# EOF") - text, (long)n - 6);
}

/* snprintf's contract: the length the whole text needs, at most cap-1
 * bytes and a NUL written; cap 0 writes nothing. */
static void buffer_contract(void)
{
	bw_record();
	size_t n = om_write(text, sizeof(text), &r, NULL, 0);
	char small[40], *whole = malloc(n + 1);
	memset(small, 'x', sizeof(small));
	T_EQ(om_write(small, 21, &r, NULL, 0), n);
	T_EQ(small[20], 0);
	T_EQ(small[21], 'x');
	T_ASSERT(!strncmp(small, text, 20));
	T_EQ(om_write(NULL, 0, &r, NULL, 0), n);
	T_EQ(om_write(whole, n + 1, &r, NULL, 0), n);
	T_STREQ(whole, text);
	free(whole);
}

/* A record may hold nouns that cannot name a label, and the same event
 * twice: the text stays valid, group="1" and box="ch0" for such nouns, the
 * second copy's rows marked nth="2". */
static void odd_records_stay_valid(void)
{
	bw_record();
	strcpy(r.command, "stat");
	r.per_box = 1;
	r.x.check = CHECK_NONE;
	strcpy(r.ev[0].group_noun, "tbl-1");
	strcpy(r.ev[0].box_noun, "Chan");
	r.ev[1] = r.ev[0];
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_event_counted{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\",group=\"1\","
			      "box=\"ch0\",board=\"X11DPi\","));
	T_ASSERT(strstr(text, "\nuncore_event_counted{event=\"UNC_M_CAS_COUNT.RD\",pmu=\"imc\",unit=\"lines\",nth=\"2\","
			      "group=\"1\",box=\"ch0\",board=\"X11DPi\","));
	T_OM(text);
}

/* An `info` record: identity and status only; a failed check says 0; an
 * event that never counted has no series (the table prints <not counted>). */
static void info_and_failures(void)
{
	bw_record();
	strcpy(r.command, "info");
	r.boot_seq = 0;
	r.msr_mode = HW_MSR_NATIVE;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "msr_access=\"native\"} 1\n"));
	T_ASSERT(!strstr(text, "emulator="));
	T_ASSERT(!strstr(text, "uncore_boot_sequence"));
	T_ASSERT(!strstr(text, "uncore_elapsed_seconds"));
	T_ASSERT(!strstr(text, "uncore_event_"));
	T_OM(text);

	bw_record();
	r.x.check_verdict = VERDICT_FAIL;
	r.x.check_measured_kb_s = 500000;
	r.status = UNC_E_CHECK;
	r.ev[1].running = 0;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_check_passed{check=\"read+write\",board=\"X11DPi\",system=\"SYS-1029\","
			      "serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\",msr_access=\"emulated\"} 0\n"));
	T_ASSERT(strstr(text, "\nuncore_check_measured_bytes_per_second{check=\"read+write\",board=\"X11DPi\","
			      "system=\"SYS-1029\",serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\",msr_access=\"emulated\"} "
			      "500000000\n"));
	T_ASSERT(!strstr(text, "UNC_M_CAS_COUNT.WR"));
	T_OM(text);
	/* stopped early: no verdict, the figures stay */
	r.x.check_verdict = VERDICT_NONE;
	r.boot_seq = 0;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(!strstr(text, "uncore_check_passed"));
	T_ASSERT(strstr(text, "\nuncore_check_required_bytes_per_second{"));
	T_OM(text);
	/* a boot check without a verdict did not pass: 0, for the alert on 0 */
	r.boot_seq = 4;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_check_passed{check=\"read+write\",board=\"X11DPi\",system=\"SYS-1029\","
			      "serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\",msr_access=\"emulated\"} 0\n"));
	T_OM(text);
	/* one that could not run at all (no check in its record): 0, check="not run" */
	r.x.check = CHECK_NONE;
	r.status = UNC_E_UNSUPPORTED;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_check_passed{check=\"not run\",board=\"X11DPi\",system=\"SYS-1029\","
			      "serial=\"S1\",bios=\"3.1\",cpu=\"Xeon\",msr_access=\"emulated\"} 0\n"));
	T_ASSERT(!strstr(text, "uncore_check_required_bytes_per_second"));
	T_OM(text);
	r.boot_seq = 0; /* not a boot check: no verdict, no series */
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(!strstr(text, "uncore_check_passed"));	/* a check kind no writer stores (a corrupt record's byte) labels as "unknown", read in bounds */
	r.x.check = 9;
	r.x.check_verdict = VERDICT_FAIL;
	om_write(text, sizeof(text), &r, NULL, 0);
	T_ASSERT(strstr(text, "\nuncore_check_passed{check=\"unknown\",board=\"X11DPi\""));
	T_OM(text);
}

/* The fuzzer's seed records (layouts 1, 2 and 3, 96 boxes; the decoder
 * tests compare counts with the console's): each one's text passes T_OM. */
static void seed_records(void)
{
	static const char *const seeds[] = { "record_stat", "record_json", "record_v2_16boxes", "record_v3_96boxes" };
	static uint8_t raw[1 << 16];
	char path[200], err[200];

	for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		snprintf(path, sizeof(path), "tests/fuzz/corpus/decode/%s", seeds[i]);
		FILE *f = fopen(path, "rb");
		size_t n = f ? fread(raw, 1, sizeof(raw), f) : 0;
		if (f)
			fclose(f);
		T_ASSERT(n > 1);
		T_EQ(rec_decode(raw + 1, n - 1, &r, NULL, NULL, err, sizeof(err)), UNC_OK); /* after the mode byte */
		T_ASSERT(om_write(text, sizeof(text), &r, NULL, 0) < sizeof(text));
		T_ASSERT(strstr(text, "\nuncore_event_counted{"));
		T_OM(text);
	}
}

/* ---- uncore.efi -o metrics:PATH ---- */

static struct emu_hw h;
static struct emu_config cfg;
static char obuf[65536], ebuf[1024], file[65536], path[300];
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

static enum unc_status write_file(void *ctx, const char *p, const void *data, size_t len, char *err, size_t errsize)
{
	(void)ctx, (void)err, (void)errsize;
	snprintf(path, sizeof(path), "%s", p);
	T_ASSERT(len < sizeof(file));
	memcpy(file, data, len < sizeof(file) - 1 ? len : sizeof(file) - 1);
	file[len < sizeof(file) - 1 ? len : sizeof(file) - 1] = '\0';
	return UNC_OK;
}

/* What SMBIOS types 0, 1 and 2 would give (base/smbios.c reads them). */
static enum unc_status smbios_id(struct smbios_id *ret, char *err, size_t errsize)
{
	(void)err, (void)errsize;
	*ret = (struct smbios_id){ .sys_product = "Lab PC", .sys_serial = "SN \"7\"", .board_product = "B-1",
				   .bios_version = "1.2" };
	return UNC_OK;
}

static struct app_env env = { .wait_until = wait_until, .write_file = write_file, .alloc = malloc, .free = free,
			      .smbios_id = smbios_id };

#define RUN(...)                                                                      \
	({                                                                            \
		const char *av[] = { "uncore.efi", __VA_ARGS__ };                     \
		app_test_run(&at, &h.hw, &env, (int)(sizeof(av) / sizeof(av[0])), av); \
	})

#define L "{board=\"B-1\",system=\"Lab PC\",serial=\"SN \\\"7\\\"\",bios=\"1.2\",cpu=\"Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz\",msr_access=\"emulated\"}"

/* The Skylake client's IMC at 2,343,750,000 lines/s read and 781,250,000
 * written: the console's 150000.000 and 50000.000 MB/s are 150,000,000,000
 * and 50,000,000,000 bytes a second. */
static void firmware_writes_metrics(void)
{
	const char *argv[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=2343750000", "--rate", "DRAM_DATA_WRITES=781.25M",
			       "--rate", "DRAM_IA_REQUESTS=3G", "--rate", "DRAM_GT_REQUESTS=100M", "--core-pmu", "none" };
	char err[100];

	T_EQ(emu_parse_options(11, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init(&h, &cfg);
	h.hw.emulator = "test model";
	T_EQ(RUN("bw", "-d", "6", "--min-bw", "1000", "-o", "metrics:fs0:\\m.prom"), UNC_OK);
	T_ASSERT(strstr(obuf, "read       150000.000 MB/s "));
	T_STREQ(path, "fs0:\\m.prom");
	char said[200];
	snprintf(said, sizeof(said), "uncore: results written to fs0:\\m.prom: %zu bytes of OpenMetrics text\n",
		 strlen(file));
	T_STREQ(ebuf, said);
	T_ASSERT(strstr(file, "\nuncore_dram_read_bytes_per_second" L " 150000000000\n"));
	T_ASSERT(strstr(file, "\nuncore_dram_write_bytes_per_second" L " 50000000000\n"));
	T_ASSERT(strstr(file, "\nuncore_dram_total_bytes_per_second" L " 200000000000\n"));
	T_ASSERT(strstr(file, "\nuncore_elapsed_seconds" L " 6.000000000\n"));
	T_ASSERT(strstr(file, "\nuncore_check_required_bytes_per_second{check=\"read+write\","));
	T_ASSERT(strstr(file, "\"} 1000000000\n"));
	T_ASSERT(strstr(file, "\nuncore_check_passed{check=\"read+write\","));
	T_ASSERT(strstr(file, ",emulator=\"test model\","));
	T_OM(file);

	/* stat and info write it too; once only; nowhere to write: said */
	T_EQ(RUN("-e", "DRAM_DATA_READS", "-d", "2", "-o", "metrics:m.prom"), UNC_OK);
	T_ASSERT(strstr(file, "\nuncore_event_counted{event=\"DRAM_DATA_READS\",pmu=\"imc\",unit=\"lines\","));
	T_ASSERT(strstr(file, "\"} 4687500000\n"));
	T_OM(file);
	/* the caller's labels (lab mode: the case) on every series */
	const struct om_label lab_case = { "case", "info \"1\"" };
	env.om_labels = &lab_case;
	env.om_nlabels = 1;
	T_EQ(RUN("info", "-o", "metrics:m.prom"), UNC_OK);
	T_ASSERT(strstr(file, "\nuncore_info{tool=\"uncore.efi "));
	T_ASSERT(strstr(file, "\nuncore_exit_status{status=\"success\",board=\"B-1\",system=\"Lab PC\",serial=\"SN "
			      "\\\"7\\\"\",bios=\"1.2\",cpu=\"Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz\",msr_access=\"emulated\","
			      "case=\"info \\\"1\\\"\"} 0\n"));
	T_OM(file);
	env.om_nlabels = 0;
	static struct cli_cmd cmd;
	const char *twice[] = { "uncore.efi", "bw", "-o", "metrics:a", "-o", "metrics:b" };
	T_EQ(cli_parse(6, (char **)twice, &cmd, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "-o metrics:PATH given twice");
	const char *empty[] = { "uncore.efi", "bw", "-o", "metrics:" };
	T_EQ(cli_parse(4, (char **)empty, &cmd, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "-o metrics: needs a file path");
	env.write_file = NULL;
	T_EQ(RUN("bw", "-d", "1", "-o", "metrics:m.prom"), UNC_E_NOT_FOUND);
	T_STREQ(ebuf, "uncore: error: results not stored: no storage on this platform\n");
	env.write_file = write_file;
}

T_MAIN("openmetrics", T_CASE(bw_exact_text), T_CASE(per_box_rows), T_CASE(odd_records_stay_valid), T_CASE(label_values_escaped), T_CASE(units_and_eof),
       T_CASE(buffer_contract), T_CASE(info_and_failures), T_CASE(seed_records),
       T_CASE(firmware_writes_metrics))
