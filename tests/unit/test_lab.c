/* Lab mode's pure half: the configuration language, names, the board
 * identity from SMBIOS, the serial lines, results.json and junit.xml (the
 * last two read back by Python's json and xml.etree). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/lab/lab.h"
#include "fake_vars.h"
#include "t.h"

static struct lab_cfg cfg;

static enum unc_status parse(const char *text)
{
	return lab_parse(text, strlen(text), &cfg);
}

static void parses_every_item(void)
{
	T_EQ(parse("\xef\xbb\xbf# a lab\r\n"
		   "info   # facts first\r\n"
		   "\n"
		   "name bw check\n"
		   "\tbw -d 10 --load copy --cpus all --min-bw 25000\n"
		   "run \\uncore\\uncore-emu.efi --rate DRAM_DATA_READS=1M\n"
		   "repeat 3\n"
		   "on-pass shutdown\n"
		   "on-fail halt\n"
		   "results \\lab\\out\n"),
	     UNC_OK);
	T_STREQ(cfg.err, "");
	T_EQ(cfg.n, 3);
	T_EQ(cfg.item[0].kind, LAB_CMD);
	T_STREQ(cfg.item[0].text, "info");
	T_STREQ(cfg.item[0].name, "info");
	T_EQ(cfg.item[0].line, 2);
	T_STREQ(cfg.item[1].name, "bw check");
	T_STREQ(cfg.item[1].text, "bw -d 10 --load copy --cpus all --min-bw 25000");
	T_EQ(cfg.item[1].line, 5);
	T_EQ(cfg.item[2].kind, LAB_RUN);
	T_STREQ(cfg.item[2].text, "\\uncore\\uncore-emu.efi --rate DRAM_DATA_READS=1M");
	T_EQ(cfg.repeat, 3);
	T_EQ(cfg.on_pass, LAB_END_SHUTDOWN);
	T_EQ(cfg.on_fail, LAB_END_HALT);
	T_STREQ(cfg.results, "\\lab\\out");
	T_STREQ(lab_end_name(cfg.on_fail), "halt");
}

static void defaults(void)
{
	T_EQ(parse("info"), UNC_OK);
	T_EQ(cfg.n, 1);
	T_EQ(cfg.repeat, 1);
	T_EQ(cfg.on_pass, LAB_END_UNSET);
	T_EQ(cfg.on_fail, LAB_END_UNSET);
	T_STREQ(cfg.results, "\\uncore\\results");
}

static void bad(const char *text, unsigned line, const char *msg)
{
	T_EQ(parse(text), UNC_E_INVALID);
	T_EQ(cfg.err_line, line);
	T_STREQ(cfg.err, msg);
}

static void refuses_bad_lines(void)
{
	bad("info\non-fail nap\n", 2, "bad action 'nap' for 'on-fail' (want shutdown, reboot, exit or halt)");
	bad("info\non-pass exit\non-pass halt\n", 3, "'on-pass' given twice");
	bad("repeat 0\ninfo\n", 1, "bad count '0' for 'repeat' (want 1 to 1000)");
	bad("repeat 1001\ninfo\n", 1, "bad count '1001' for 'repeat' (want 1 to 1000)");
	bad("repeat 2\nrepeat 2\ninfo\n", 2, "'repeat' given twice");
	bad("info\nname\n", 2, "'name' needs a text");
	bad("name a\nname b\ninfo\n", 2, "a second 'name' before the test case of the one on line 1");
	bad("info\nname orphan\n", 2, "'name' with no test case after it");
	bad("run\n", 1, "'run' needs the path of an EFI image");
	bad("results uncore\ninfo\n", 1, "bad results folder 'uncore' (want an absolute path such as \\uncore\\results)");
	bad("results \\a\\..\\b\ninfo\n", 1,
	    "bad results folder '\\a\\..\\b' (want an absolute path such as \\uncore\\results)");
	bad("results \\a:b\ninfo\n", 1, "bad results folder '\\a:b' (want an absolute path such as \\uncore\\results)");
	bad("lab\n", 1, "'lab' cannot run inside lab mode");
	bad("info\nbw\x01\n", 2, "a control character (0x01)");
	bad("info \xc3\xa9\n", 1, "a character that is not ASCII (0xc3)");
	bad("# nothing\n\n", 0, "no test case (an uncore.efi command line or 'run PATH')");
	bad("", 0, "no test case (an uncore.efi command line or 'run PATH')");
}

static void long_and_many(void)
{
	static char text[LAB_MAX_ITEMS * 8 + 4096];
	size_t n = 0;

	memset(text, 'x', LAB_LINE_MAX);
	text[LAB_LINE_MAX] = '\0';
	bad(text, 1, "longer than 511 characters");
	for (unsigned i = 0; i <= LAB_MAX_ITEMS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "info\n");
	bad(text, LAB_MAX_ITEMS + 1, "more than 64 test cases");
}

/* The first problem is the one named, and an ending after it still counts:
 * a bad file ends as its on-fail line says. */
static void bad_file_keeps_its_ending(void)
{
	bad("info\nbogus-ending-below\non-fail frobnicate\non-fail reboot\non-pass halt\n", 3,
	    "bad action 'frobnicate' for 'on-fail' (want shutdown, reboot, exit or halt)");
	T_EQ(cfg.on_fail, LAB_END_REBOOT);
	T_EQ(cfg.on_pass, LAB_END_HALT);
}

static void splits_words(void)
{
	char line[128], *argv[8], err[100];
	int argc;

	strcpy(line, "  bw  -d 1\t\"a b\" x\"y z\"w ");
	T_EQ(lab_split(line, argv, 8, &argc, err, sizeof(err)), UNC_OK);
	T_EQ(argc, 5);
	T_STREQ(argv[0], "bw");
	T_STREQ(argv[1], "-d");
	T_STREQ(argv[2], "1");
	T_STREQ(argv[3], "a b");
	T_STREQ(argv[4], "xy zw");
	strcpy(line, "a \"b");
	T_EQ(lab_split(line, argv, 8, &argc, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "a quote that is not closed");
	strcpy(line, "a b c");
	T_EQ(lab_split(line, argv, 2, &argc, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "more than 2 words");
	strcpy(line, "   ");
	T_EQ(lab_split(line, argv, 2, &argc, err, sizeof(err)), UNC_OK);
	T_EQ(argc, 0);
}

static void sanitises_names(void)
{
	char out[16], id[LAB_ID_MAX];

	lab_sanitize("  LabBoard-7 ", out, sizeof(out));
	T_STREQ(out, "LabBoard-7");
	lab_sanitize("Z390 AORUS/Pro.v2", out, sizeof(out));
	T_STREQ(out, "Z390_AORUS_Pro_");
	lab_sanitize("   ", out, sizeof(out));
	T_STREQ(out, "");
	lab_sanitize("a\\b:c*d", out, sizeof(out));
	T_STREQ(out, "a_b_c_d");
	lab_case_id("bw -d 1 --min-bw 1.5k", 1, NULL, 0, id, sizeof(id));
	T_STREQ(id, "bw_d_1_min_bw_1_5k");
	lab_case_id("", 1, NULL, 0, id, sizeof(id));
	T_STREQ(id, "case");
	lab_case_id("BW Check", 3, NULL, 0, id, sizeof(id));
	T_STREQ(id, "bw_check_r3");
}

/* What LAVA's test monitor does to a test_case_id: strip, lowercase, each
 * run of non-word characters (Python's \W) made '_'. */
static void lava_id(const char *in, char *out)
{
	size_t n = 0;
	bool gap = false;

	for (; *in; in++) {
		char c = (char)tolower((unsigned char)*in);
		if (isalnum((unsigned char)c) || c == '_')
			out[n++] = c, gap = false;
		else if (!gap)
			out[n++] = '_', gap = true;
	}
	out[n] = '\0';
}

/* Names LAVA would make one id: each id is one LAVA keeps as it is, and
 * the ids of a run differ. */
static void case_ids_lava_keeps(void)
{
	static const char *const names[] = { "bw-pass", "bw pass", "BW_PASS", "bw..pass", "bw_pass_2", "x",
					     "x", "", "--", "a.b", "a b", "Ünïcode name" };
	static struct lab_case c[2 * 12];
	unsigned n = 0;
	char lava[LAB_ID_MAX];

	for (unsigned round = 1; round <= 2; round++)
		for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++, n++) {
			lab_case_id(names[i], round, c, n, c[n].id, sizeof(c[n].id));
			lava_id(c[n].id, lava);
			T_STREQ(lava, c[n].id);
			for (unsigned k = 0; k < n; k++)
				T_ASSERT(strcmp(c[k].id, c[n].id));
		}
	T_STREQ(c[0].id, "bw_pass");
	T_STREQ(c[1].id, "bw_pass_2");
	T_STREQ(c[2].id, "bw_pass_3");
	T_STREQ(c[4].id, "bw_pass_2_2"); /* "bw_pass_2" was taken by the second */
	T_STREQ(c[12].id, "bw_pass_r2");
	/* the longest name still leaves room for a round and a count */
	char name[LAB_NAME_MAX];
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	lab_case_id(name, 1000, NULL, 0, c[0].id, sizeof(c[0].id));
	lab_case_id(name, 1000, c, 1, c[1].id, sizeof(c[1].id));
	T_ASSERT(strstr(c[1].id, "_r1000_2") != NULL);
}

/* -o in lab mode: a plain file name of the run's folder, never a path
 * (the boot image, the configuration, the root) nor one of the run's own. */
static void out_names(void)
{
	static const char *const good[] = { "info.json", "bw-1_a.JSON", "x" };
	static const char *const bad[] = { "\\EFI\\BOOT\\BOOTX64.EFI", "\\uncore\\uncore.cfg", "\\uncore\\..\\owned.json",
					   "..", ".hidden", "sub\\x.json", "fs0:x.json", "a/b", "a b", "", "Results.JSON",
					   "junit.xml", "CONSOLE.TXT", "report.html", "caf\xc3\xa9.json",
					   "0123456789012345678901234567890123456789012345678901234567890123" };
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		T_ASSERT(lab_out_name_ok(good[i]));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		T_ASSERT(!lab_out_name_ok(bad[i]));
}

/* ---- SMBIOS ---- */

static uint8_t tbl[512];
static size_t tlen;

static void put(uint8_t type, const char *const *strings, unsigned n)
{
	uint8_t *s = tbl + tlen;

	memset(s, 0, 8);
	s[0] = type;
	s[1] = 8;
	s[4] = n >= 1 ? 1 : 0; /* manufacturer */
	s[5] = n >= 2 ? 2 : 0; /* product */
	s[7] = n >= 3 ? 3 : 0; /* serial */
	tlen += 8;
	for (unsigned i = 0; i < n; i++) {
		size_t l = strlen(strings[i]) + 1;
		memcpy(tbl + tlen, strings[i], l);
		tlen += l;
	}
	if (!n)
		tbl[tlen++] = 0;
	tbl[tlen++] = 0;
}

static void board_from_smbios(void)
{
	struct smbios_id b;
	char err[120];
	static const char *const sys[] = { "QEMU", "Standard PC", "SN-42" };
	static const char *const brd[] = { "ACME", "LabBoard-7" };

	tlen = 0;
	put(0, NULL, 0);
	put(1, sys, 3);
	put(2, brd, 2);
	put(127, NULL, 0);
	T_EQ(smbios_identity(tbl, tlen, &b, err, sizeof(err)), UNC_OK);
	T_STREQ(b.sys_vendor, "QEMU");
	T_STREQ(b.sys_product, "Standard PC");
	T_STREQ(b.sys_serial, "SN-42");
	T_STREQ(b.board_product, "LabBoard-7");
	T_STREQ(b.board_serial, "");
	T_STREQ(lab_board_name(&b), "LabBoard-7");
	T_STREQ(lab_board_serial(&b), "SN-42");
	/* cut short: an error naming the offset, nothing read beyond */
	T_EQ(smbios_identity(tbl, 12, &b, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "SMBIOS structure at offset 0xa: cut short");
	T_EQ(smbios_identity(tbl, 20, &b, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "SMBIOS structure at offset 0xa: its strings are not terminated");
	/* no type 1 or 2: unknown */
	tlen = 0;
	put(0, NULL, 0);
	T_EQ(smbios_identity(tbl, tlen, &b, err, sizeof(err)), UNC_OK);
	T_STREQ(lab_board_name(&b), "unknown");
	T_STREQ(lab_board_serial(&b), "");
}

/* ---- what a run writes ---- */

static struct smbios_id brd = { .sys_vendor = "QEMU", .sys_product = "Standard PC", .sys_serial = "SN \"42\"", .board_vendor = "ACME", .board_product = "LabBoard-7" };
static struct lab_case cs[3];
static struct lab_run run;

static void make_run(void)
{
	static const char json[] = "{\"tool\":\"uncore.efi 0.1.0\",\"command\":\"bw\"}\n";
	static const char out1[] = "uncore: lab: bw\nPASS: read+write bandwidth 1501.140 MB/s >= the required 1000.000 MB/s\n";
	static const char out2[] = "FAIL: read+write bandwidth 1499.640 MB/s < the required 100000.000 MB/s\n<&>'\"\x01\n";

	memset(cs, 0, sizeof(cs));
	strcpy(cs[0].name, "bw pass");
	lab_case_id(cs[0].name, 1, NULL, 0, cs[0].id, sizeof(cs[0].id));
	cs[0].command = "bw -d 1 --min-bw 1000";
	cs[0].round = 1;
	cs[0].result = LAB_PASS;
	strcpy(cs[0].status_name, "EFI_SUCCESS");
	cs[0].check = cs[0].measured = true;
	cs[0].kb_s = 1501140;
	strcpy(cs[0].verdict, "PASS");
	T_ASSERT(lab_find_verdict(out1, strlen(out1), cs[0].verdict_line, sizeof(cs[0].verdict_line)));
	cs[0].json = json;
	cs[0].json_len = strlen(json);
	cs[0].output = out1;
	cs[0].output_len = strlen(out1);
	cs[0].ms = 1109;
	cs[1] = cs[0];
	strcpy(cs[1].name, "bw-fail");
	strcpy(cs[1].id, "bw_fail");
	cs[1].result = LAB_FAIL;
	cs[1].status = 0x8000000000000021ull;
	strcpy(cs[1].status_name, "EFI_COMPROMISED_DATA");
	cs[1].kb_s = 1499640;
	strcpy(cs[1].verdict, "FAIL");
	T_ASSERT(lab_find_verdict(out2, strlen(out2), cs[1].verdict_line, sizeof(cs[1].verdict_line)));
	cs[1].output = out2;
	cs[1].output_len = strlen(out2);
	strcpy(cs[2].name, "emu");
	strcpy(cs[2].id, "emu");
	cs[2].kind = LAB_RUN;
	cs[2].command = "\\uncore\\missing.efi";
	cs[2].round = 2;
	cs[2].result = LAB_ERROR;
	cs[2].status = 0x800000000000000eull;
	strcpy(cs[2].status_name, "EFI_NOT_FOUND");
	strcpy(cs[2].verdict_line, "uncore: error: '\\uncore\\missing.efi': no such file");
	T_EQ(parse("bw -d 1 --min-bw 1000\non-fail shutdown\n"), UNC_OK);
	run = (struct lab_run){ .board = &brd, .config_path = "\\uncore\\LabBoard-7.cfg",
				.config_text = "bw -d 1 --min-bw 1000\non-fail shutdown\n", .config_len = 39, .cfg = &cfg,
				.started = "2026-11-22T08:59:26", .tool = "uncore.efi 0.1.0", .cases = cs, .ncases = 3,
				.passed = 1, .failed = 2, .ms = 2655 };
}

static char text[16384];

static struct out buf_out(struct strbuf *sb)
{
	strbuf_init(sb, text, sizeof(text));
	return strbuf_out(sb);
}

static void serial_lines(void)
{
	struct strbuf sb;
	struct out o = buf_out(&sb);

	make_run();
	lab_line_start(&o, &brd, "\\uncore\\LabBoard-7.cfg");
	for (unsigned i = 0; i < 3; i++)
		lab_line_result(&o, &cs[i]);
	lab_line_end(&o, &run);
	T_STREQ(text, "UNCORE-LAB START board=\"LabBoard-7\" serial=\"SN '42'\" config=\\uncore\\LabBoard-7.cfg\n"
		      "UNCORE-LAB RESULT name=bw_pass result=pass measurement=1501.140 units=MB/s\n"
		      "UNCORE-LAB RESULT name=bw_fail result=fail measurement=1499.640 units=MB/s\n"
		      "UNCORE-LAB RESULT name=emu result=error\n"
		      "UNCORE-LAB END result=fail passed=1 failed=2\n");
	T_STREQ(cs[1].verdict_line, "FAIL: read+write bandwidth 1499.640 MB/s < the required 100000.000 MB/s");
	run.passed = 3, run.failed = 0;
	o = buf_out(&sb);
	lab_line_end(&o, &run);
	T_STREQ(text, "UNCORE-LAB END result=pass passed=3 failed=0\n");
	run.passed = 0;
	T_ASSERT(!lab_run_passed(&run)); /* nothing run is no pass */
}

static void results_json(void)
{
	struct strbuf sb;
	struct out o = buf_out(&sb);

	make_run();
	lab_write_json(&o, &run);
	T_ASSERT(sb.len < sizeof(text));
	T_JSON(text, false);
	T_CONTAINS(text, "\"board\":{\"system\":{\"manufacturer\":\"QEMU\",\"product\":\"Standard PC\",\"serial\":\"SN \\\"42\\\"\"}");
	T_CONTAINS(text, "\"config\":{\"path\":\"\\\\uncore\\\\LabBoard-7.cfg\",\"text\":\"bw -d 1 --min-bw 1000\\u000aon-fail shutdown\\u000a\"");
	T_CONTAINS(text, "\"on_fail\":\"shutdown\"");
	T_CONTAINS(text, "\"result\":\"fail\",\"exit_status\":\"EFI_COMPROMISED_DATA\",\"exit_code\":\"0x8000000000000021\","
			 "\"verdict\":\"FAIL\"");
	T_CONTAINS(text, "\"measured_mb_per_s\":1501.140,\"duration_ms\":1109,\"json\":{\"tool\":\"uncore.efi 0.1.0\",\"command\":\"bw\"}}");
	T_CONTAINS(text, "\"kind\":\"run\"");
	T_CONTAINS(text, "\"verdict\":null");
	T_CONTAINS(text, "\"json\":null");
	T_CONTAINS(text, "],\"result\":\"fail\",\"passed\":1,\"failed\":2,");
	/* -I: one object per interval, made one array */
	static const char lines[] = "{\"interval\":1,\"s\":\"}{\\\"\"}\r\n{\"interval\":2,\"e\":[1,{}]}\n\n";
	cs[0].json = lines;
	cs[0].json_len = strlen(lines);
	cs[1].json = " 42 ";
	cs[1].json_len = 4;
	cs[2].json = " \n";
	cs[2].json_len = 2;
	o = buf_out(&sb);
	lab_write_json(&o, &run);
	T_JSON(text, false);
	T_CONTAINS(text, "\"json\":[{\"interval\":1,\"s\":\"}{\\\"\"},{\"interval\":2,\"e\":[1,{}]}]}");
	T_CONTAINS(text, "\"json\":42}");
	T_CONTAINS(text, "\"json\":null}");
}

/* junit.xml through Python's xml.etree, with the attributes the JUnit
 * schema requires (testsuite: name, tests, failures, errors, time,
 * timestamp, hostname; testcase: name, classname, time; failure and
 * error: type), and the counts agreeing with the cases. */
static void junit_xml(void)
{
	struct strbuf sb;
	struct out o = buf_out(&sb);
	char path[] = "/tmp/test_lab_junit_XXXXXX", cmd[2048];

	make_run();
	lab_write_junit(&o, &run);
	T_ASSERT(sb.len < sizeof(text));
	T_CONTAINS(text, "<failure message=\"FAIL: read+write bandwidth 1499.640 MB/s &lt; the required 100000.000 MB/s\" "
			 "type=\"check\">");
	T_CONTAINS(text, "<error message=\"uncore: error: &apos;\\uncore\\missing.efi&apos;: no such file\" type=\"EFI_NOT_FOUND\">");
	T_CONTAINS(text, "<property name=\"bw_fail.measurement\" value=\"1499.640\"/>");
	T_CONTAINS(text, "<property name=\"bw_fail.units\" value=\"MB/s\"/>");
	T_CONTAINS(text, "<property name=\"emu.exit_status\" value=\"EFI_NOT_FOUND\"/>");
	T_CONTAINS(text, "<system-out>measured: 1501.140 MB/s\n");
	T_CONTAINS(text, "&lt;&amp;&gt;&apos;&quot;\n"); /* and no 0x01: XML 1.0 has no place for it */
	T_NOT_CONTAINS(text, "\x01");
	int fd = mkstemp(path);
	T_ASSERT(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import sys, xml.etree.ElementTree as E\n"
		 "s = E.parse(sys.argv[1]).getroot()\n"
		 "assert s.tag == \"testsuite\", s.tag\n"
		 "for a in (\"name\", \"tests\", \"failures\", \"errors\", \"time\", \"timestamp\", \"hostname\"): assert a in s.attrib, a\n"
		 "cs = s.findall(\"testcase\")\n"
		 "assert len(cs) == int(s.get(\"tests\")) == 3\n"
		 "for c in cs:\n"
		 "  for a in (\"name\", \"classname\", \"time\"): assert a in c.attrib, a\n"
		 "  for x in c.findall(\"failure\") + c.findall(\"error\"): assert \"type\" in x.attrib\n"
		 "assert sum(len(c.findall(\"failure\")) for c in cs) == int(s.get(\"failures\")) == 1\n"
		 "assert sum(len(c.findall(\"error\")) for c in cs) == int(s.get(\"errors\")) == 1\n"
		 "' %s",
		 path);
	T_EQ(system(cmd), 0);
	/* the rules of Jenkins' junit-10.xsd: no <properties> in a <testcase> */
	snprintf(cmd, sizeof(cmd), "python3 tests/qemu/lab_check.py junit %s 3 1 1", path);
	T_EQ(system(cmd), 0);
	remove(path);
}

/* ---- the run's rules (run.c) ---- */

static void config_names(void)
{
	struct smbios_id b = { .board_product = "LabBoard-7", .sys_product = "Standard PC (Q35 + ICH9, 2009)" };
	char names[LAB_CFG_NAMES][LAB_CFG_PATH_MAX], msg[LAB_ERR_MAX + LAB_PATH_MAX + 64];

	T_EQ(lab_config_names(NULL, &b, names), 3);
	T_STREQ(names[0], "\\uncore\\LabBoard-7.cfg");
	T_STREQ(names[1], "\\uncore\\Standard_PC__Q35___ICH9__2009_.cfg");
	T_STREQ(names[2], "\\uncore\\uncore.cfg");
	lab_config_missing(names, 3, msg, sizeof(msg));
	T_STREQ(msg, "uncore: error: no configuration: neither \\uncore\\LabBoard-7.cfg, "
		     "\\uncore\\Standard_PC__Q35___ICH9__2009_.cfg nor \\uncore\\uncore.cfg exists");
	/* a product of blanks names no file */
	b = (struct smbios_id){ .board_product = "  ", .sys_product = "Q35" };
	T_EQ(lab_config_names("", &b, names), 2);
	T_STREQ(names[0], "\\uncore\\Q35.cfg");
	T_STREQ(names[1], "\\uncore\\uncore.cfg");
	lab_config_missing(names, 2, msg, sizeof(msg));
	T_STREQ(msg, "uncore: error: no configuration: neither \\uncore\\Q35.cfg nor \\uncore\\uncore.cfg exists");
	/* the one given, alone */
	T_EQ(lab_config_names("\\shell.cfg", &b, names), 1);
	T_STREQ(names[0], "\\shell.cfg");
	lab_config_missing(names, 1, msg, sizeof(msg));
	T_STREQ(msg, "uncore: error: no configuration: neither \\shell.cfg exists");
	lab_config_error("\\uncore\\uncore.cfg", 3, "bad count 'many' for 'repeat' (want 1 to 1000)", msg, sizeof(msg));
	T_STREQ(msg, "uncore: error: \\uncore\\uncore.cfg line 3: bad count 'many' for 'repeat' (want 1 to 1000)");
	lab_config_error("\\uncore\\uncore.cfg", 0, "larger than 65536 bytes", msg, sizeof(msg));
	T_STREQ(msg, "uncore: error: \\uncore\\uncore.cfg: larger than 65536 bytes");
}

static void run_lines_checked(void)
{
	char err[200];

	T_EQ(lab_check_run("\\uncore\\uncore-emu.efi --rate DRAM_DATA_READS=1M", err, sizeof(err)), UNC_OK);
	T_EQ(lab_check_run("\"\\uncore\\a b.efi\" x", err, sizeof(err)), UNC_OK);
	T_EQ(lab_check_run("tool.efi", err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "'run tool.efi': want the path of an EFI image on uncore.efi's volume, such as \\uncore\\tool.efi");
	T_EQ(lab_check_run("fs0:\\tool.efi", err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "'run fs0:\\tool.efi': want the path of an EFI image on uncore.efi's volume, such as "
		     "\\uncore\\tool.efi");
	T_EQ(lab_check_run("\"\\uncore\\a.efi", err, sizeof(err)), UNC_E_INVALID);
	T_ASSERT(lab_image_path_ok("\\EFI\\BOOT\\BOOTX64.EFI"));
	T_ASSERT(!lab_image_path_ok("BOOTX64.EFI"));
	T_ASSERT(!lab_image_path_ok("\\fs0:x.efi"));
}

static void results_folder(void)
{
	struct rec_time t = { .year = 2026, .month = 11, .day = 22, .hour = 8, .minute = 59, .second = 26, .valid = 1 };
	struct smbios_id b = { .sys_serial = "SN-1234", .board_serial = "B 9" };
	char buf[LAB_DIR_MAX], path[LAB_DIR_MAX + 16];

	lab_started(&t, buf, sizeof(buf));
	T_STREQ(buf, "2026-11-22T08:59:26");
	lab_run_dir("\\uncore\\results", &t, &b, buf, sizeof(buf));
	T_STREQ(buf, "\\uncore\\results\\20261122-085926-SN-1234");
	lab_file_path(buf, "results.json", path, sizeof(path));
	T_STREQ(path, "\\uncore\\results\\20261122-085926-SN-1234\\results.json");
	/* type 2's serial when type 1 has none, made a file name */
	b.sys_serial[0] = '\0';
	lab_run_dir("\\lab\\out", &t, &b, buf, sizeof(buf));
	T_STREQ(buf, "\\lab\\out\\20261122-085926-B_9");
	/* no serial; no time of day */
	b.board_serial[0] = '\0';
	t.valid = 0;
	lab_run_dir("\\uncore\\results", &t, &b, buf, sizeof(buf));
	T_STREQ(buf, "\\uncore\\results\\19700101-000000-noserial");
	lab_started(&t, buf, sizeof(buf));
	T_STREQ(buf, "1970-01-01T00:00:00");
}

static void console_kept(void)
{
	char buf[8], line[64];
	struct lab_console k = { buf, 0, sizeof(buf), false };

	lab_keep(&k, "hello", 5);
	T_EQ(k.len, 5);
	T_ASSERT(!k.cut);
	lab_keep(&k, "world", 5);
	T_EQ(k.len, 8);
	T_ASSERT(k.cut);
	T_ASSERT(!memcmp(buf, "hellowor", 8));
	lab_keep(&k, "!", 1);
	T_EQ(k.len, 8);
	k = (struct lab_console){ NULL, 0, 0, false }; /* nothing kept */
	lab_keep(&k, "x", 1);
	T_EQ(k.len, 0);

	static const char out[] = "uncore: lab: bw\nuncore: warning: x\nuncore: error: counter 0 stuck\r\n"
				  "uncore: error: second\n";
	T_ASSERT(lab_first_error(out, strlen(out), line, sizeof(line)));
	T_STREQ(line, "uncore: error: counter 0 stuck");
	T_ASSERT(!lab_first_error(out, 16, line, sizeof(line)));
	T_STREQ(line, "");
}

static const struct lab_item item_bw = { LAB_CMD, 4, "bw check", "bw -d 1 --min-bw 1000" };

static void case_results(void)
{
	static const char pass_out[] = "uncore: lab: bw -d 1 --min-bw 1000\n"
				       "PASS: read+write bandwidth 1501.140 MB/s >= the required 1000.000 MB/s\n";
	static const char fail_out[] = "FAIL: read+write bandwidth 999.000 MB/s < the required 1000.000 MB/s\n";
	static const char stuck_out[] = "PASS: read+write bandwidth 1501.140 MB/s >= the required 1000.000 MB/s\r\n"
					"uncore: error: counter 2 of imc did not move\n";
	struct run_extras x = { .check = 1, .check_measured_kb_s = 1501140, .check_verdict = VERDICT_PASS };
	struct lab_case c[2];

	/* a check that passed */
	lab_case_begin(&c[0], &item_bw, 1, NULL, 0);
	T_STREQ(c[0].name, "bw check");
	T_STREQ(c[0].id, "bw_check");
	T_STREQ(c[0].command, "bw -d 1 --min-bw 1000");
	T_EQ(c[0].round, 1);
	lab_case_status(&c[0], 0);
	lab_case_ran(&c[0], UNC_OK, true, &x, pass_out, strlen(pass_out));
	lab_case_end(&c[0], pass_out, strlen(pass_out), 1109);
	T_EQ(c[0].result, LAB_PASS);
	T_STREQ(c[0].status_name, "EFI_SUCCESS");
	T_ASSERT(c[0].check && c[0].measured);
	T_EQ(c[0].kb_s, 1501140);
	T_STREQ(c[0].verdict, "PASS");
	T_STREQ(c[0].verdict_line, "PASS: read+write bandwidth 1501.140 MB/s >= the required 1000.000 MB/s");
	T_EQ(c[0].ms, 1109);
	T_EQ(c[0].output_len, strlen(pass_out));

	/* the same line in round 2, after round 1's */
	lab_case_begin(&c[1], &item_bw, 2, c, 1);
	T_STREQ(c[1].id, "bw_check_r2");

	/* a check that failed: fail, not error */
	x.check_measured_kb_s = 999000, x.check_verdict = VERDICT_FAIL;
	lab_case_begin(&c[1], &item_bw, 1, c, 1);
	T_STREQ(c[1].id, "bw_check_2");
	lab_case_status(&c[1], 0x8000000000000021ull);
	lab_case_ran(&c[1], UNC_E_CHECK, true, &x, fail_out, strlen(fail_out));
	lab_case_end(&c[1], fail_out, strlen(fail_out), 0);
	T_EQ(c[1].result, LAB_FAIL);
	T_STREQ(c[1].status_name, "EFI_COMPROMISED_DATA");
	T_STREQ(c[1].verdict, "FAIL");
	T_STREQ(c[1].verdict_line, "FAIL: read+write bandwidth 999.000 MB/s < the required 1000.000 MB/s");

	/* an error after the PASS line: the error is the message */
	x.check_verdict = VERDICT_PASS;
	lab_case_begin(&c[1], &item_bw, 1, NULL, 0);
	lab_case_status(&c[1], 0x8000000000000007ull);
	lab_case_ran(&c[1], UNC_E_STUCK, true, &x, stuck_out, strlen(stuck_out));
	lab_case_end(&c[1], stuck_out, strlen(stuck_out), 0);
	T_EQ(c[1].result, LAB_ERROR);
	T_STREQ(c[1].status_name, "EFI_DEVICE_ERROR");
	T_STREQ(c[1].verdict, "PASS");
	T_STREQ(c[1].verdict_line, "uncore: error: counter 2 of imc did not move");

	/* ... and a PASS line stays when no error line says more */
	lab_case_begin(&c[1], &item_bw, 1, NULL, 0);
	lab_case_ran(&c[1], UNC_E_STUCK, true, &x, pass_out, strlen(pass_out));
	lab_case_end(&c[1], pass_out, strlen(pass_out), 0);
	T_EQ(c[1].result, LAB_ERROR);
	T_STREQ(c[1].verdict_line, "PASS: read+write bandwidth 1501.140 MB/s >= the required 1000.000 MB/s");

	/* a check that stopped before a record: no verdict, in error */
	lab_case_begin(&c[1], &item_bw, 1, NULL, 0);
	lab_case_ran(&c[1], UNC_E_DEVICE, true, NULL, "uncore: error: no IMC\n", 21);
	lab_case_end(&c[1], "uncore: error: no IMC\n", 21, 0);
	T_EQ(c[1].result, LAB_ERROR);
	T_ASSERT(!c[1].measured);
	T_STREQ(c[1].verdict, "none");
	T_STREQ(c[1].verdict_line, "uncore: error: no IMC");
	/* ... or whose record gave no verdict */
	x.check_verdict = VERDICT_NONE;
	lab_case_begin(&c[1], &item_bw, 1, NULL, 0);
	lab_case_ran(&c[1], UNC_E_CHECK, true, &x, "NO VERDICT: x\n", 14);
	T_EQ(c[1].result, LAB_FAIL);
	T_STREQ(c[1].verdict, "none");
	T_STREQ(c[1].verdict_line, "NO VERDICT: x");

	/* not a check: success passes, anything else is an error; a
	 * UNC_E_CHECK without --min-* is no check failure */
	lab_case_begin(&c[1], &item_bw, 1, NULL, 0);
	lab_case_ran(&c[1], UNC_OK, false, NULL, "", 0);
	T_EQ(c[1].result, LAB_PASS);
	T_STREQ(c[1].verdict, "");
	lab_case_ran(&c[1], UNC_E_CHECK, false, NULL, "", 0);
	T_EQ(c[1].result, LAB_ERROR);
	T_ASSERT(!c[1].check);

	/* run PATH: the image's status; a warning passes */
	lab_case_image(&c[1], 0);
	T_EQ(c[1].result, LAB_PASS);
	lab_case_image(&c[1], 1);
	T_EQ(c[1].result, LAB_PASS);
	T_STREQ(c[1].status_name, "EFI_WARN_UNKNOWN_GLYPH");
	lab_case_image(&c[1], 0x800000000000000eull);
	T_EQ(c[1].result, LAB_ERROR);
	T_STREQ(c[1].status_name, "EFI_NOT_FOUND");
	lab_case_image(&c[1], 0x80000000000000ffull);
	T_STREQ(c[1].status_name, "0x80000000000000ff");
}

static void config_case(void)
{
	struct lab_case c;

	lab_case_config(&c, "\\uncore\\uncore.cfg", true, "uncore: error: \\uncore\\uncore.cfg line 3: bad");
	T_STREQ(c.name, "config");
	T_STREQ(c.id, "config");
	T_STREQ(c.command, "\\uncore\\uncore.cfg");
	T_EQ(c.round, 1);
	T_EQ(c.result, LAB_ERROR);
	T_EQ(c.status, 0x8000000000000002ull);
	T_STREQ(c.status_name, "EFI_INVALID_PARAMETER");
	T_STREQ(c.verdict_line, "uncore: error: \\uncore\\uncore.cfg line 3: bad");
	lab_case_config(&c, "", false, "uncore: error: no configuration: neither \\uncore\\uncore.cfg exists");
	T_STREQ(c.command, "none");
	T_EQ(c.status, 0x800000000000000eull);
	T_STREQ(c.status_name, "EFI_NOT_FOUND");
}

static void record_names(void)
{
	char name[VAR_NAME_MAX + 1] = "mine";

	T_ASSERT(!lab_record_name(false, false, 0, name, sizeof(name))); /* var list, msr, ...: none */
	T_ASSERT(!lab_record_name(true, true, 0, name, sizeof(name)));   /* -o var:NAME: its own */
	T_STREQ(name, "mine");
	T_ASSERT(lab_record_name(true, false, 0, name, sizeof(name)));
	T_STREQ(name, "Lab001");
	T_ASSERT(lab_record_name(true, false, 41, name, sizeof(name)));
	T_STREQ(name, "Lab042");
	T_ASSERT(lab_record_name(true, false, LAB_MAX_CASES - 1, name, sizeof(name)));
	T_STREQ(name, "Lab256");
	T_ASSERT(var_name_ok(name));
}

/* A case's record is the variable this run wrote last, whole. */
static void record_written(void)
{
	static struct fake_vars fv;
	static uint8_t data[300];
	struct lab_rec_watch w;
	struct lab_case c;
	char err[160];
	unsigned chunks;

	fake_vars_init(&fv, 1024, 1 << 20);
	struct varstore vs = lab_rec_store(&w, &fv.vs);
	T_EQ(fv.vs.set(fv.vs.ctx, "Lab002", (const uint8_t *)"old", 3), UNC_OK); /* an earlier boot's */
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;

	memset(&c, 0, sizeof(c));
	lab_rec_watch(&w, "Lab001");
	T_EQ(var_save(&vs, "Lab001", data, sizeof(data), 120, &chunks, err, sizeof(err)), UNC_OK);
	T_ASSERT(chunks > 1);
	lab_rec_end(&w, &c);
	T_STREQ(c.record, "Lab001");
	size_t len;
	uint8_t back[sizeof(data)];
	T_EQ(var_load(&vs, "Lab001", back, sizeof(back), &len, err, sizeof(err)), UNC_OK); /* reads pass through */
	T_EQ(len, sizeof(data));

	/* the case ran but stored nothing: Lab002 is not its */
	memset(&c, 0, sizeof(c));
	lab_rec_watch(&w, "Lab002");
	T_EQ(vs.set(vs.ctx, "Other", (const uint8_t *)"x", 1), UNC_OK);
	lab_rec_end(&w, &c);
	T_STREQ(c.record, "");
	/* written, then deleted */
	lab_rec_watch(&w, "Lab002");
	T_EQ(vs.set(vs.ctx, "Lab002", (const uint8_t *)"new", 3), UNC_OK);
	T_EQ(vs.set(vs.ctx, "Lab002", NULL, 0), UNC_OK);
	lab_rec_end(&w, &c);
	T_STREQ(c.record, "");
	/* a write that failed (the store full) */
	fv.fail_after = fv.sets + 1;
	lab_rec_watch(&w, "Lab003");
	T_ASSERT(vs.set(vs.ctx, "Lab003", (const uint8_t *)"x", 1) != UNC_OK);
	lab_rec_end(&w, &c);
	T_STREQ(c.record, "");
	T_ASSERT(w.name == NULL);
	fake_vars_free(&fv);
}

static unsigned ran_idx[8], ran_round[8], ran_n;

static void fake_case(void *ctx, const struct lab_item *it, unsigned round, unsigned idx, struct lab_case *c)
{
	struct lab_case *all = ctx;

	ran_idx[ran_n] = idx, ran_round[ran_n++] = round;
	lab_case_begin(c, it, round, all, idx);
	lab_case_image(c, idx % 2 ? 0x8000000000000003ull : 0);
}

static void every_round(void)
{
	struct lab_case c[8];
	char etext[256];
	struct strbuf sb, esb;
	struct out o = buf_out(&sb);

	T_EQ(parse("name a\ninfo\nrun \\x.efi\nrepeat 2\n"), UNC_OK);
	ran_n = 0;
	strbuf_init(&esb, etext, sizeof(etext));
	struct out e = strbuf_out(&esb);
	T_EQ(lab_run_cases(&cfg, c, 8, fake_case, c, &o, &e), 4);
	T_EQ(ran_n, 4);
	T_EQ(ran_idx[3], 3);
	T_EQ(ran_round[1], 1);
	T_EQ(ran_round[2], 2);
	T_STREQ(text, "UNCORE-LAB RESULT name=a result=pass\n"
		      "UNCORE-LAB RESULT name=run_x_efi result=error\n"
		      "UNCORE-LAB RESULT name=a_r2 result=pass\n"
		      "UNCORE-LAB RESULT name=run_x_efi_r2 result=error\n");
	T_EQ(esb.len, 0);
	/* more than fit: the rest not run, and said */
	o = buf_out(&sb);
	ran_n = 0;
	T_EQ(lab_run_cases(&cfg, c, 3, fake_case, c, &o, &e), 3);
	T_EQ(ran_n, 3);
	T_STREQ(etext, "uncore: error: more than 3 test cases in one run; the rest are not run\n");
}

static void verdict(void)
{
	struct lab_case c[3];
	struct lab_run r = { .cases = c, .ncases = 0 };

	memset(c, 0, sizeof(c));
	lab_run_count(&r);
	T_ASSERT(!lab_run_passed(&r)); /* no case: no pass */
	T_EQ(lab_run_status(&r), 0x800000000000000eull);
	r.ncases = 3;
	lab_run_count(&r);
	T_EQ(r.passed, 3);
	T_EQ(r.failed, 0);
	T_ASSERT(lab_run_passed(&r));
	T_EQ(lab_run_status(&r), 0);
	/* the first case not passed gives the status */
	c[1].result = LAB_FAIL, c[1].status = 0x8000000000000021ull;
	c[2].result = LAB_ERROR, c[2].status = 0x8000000000000003ull;
	lab_run_count(&r);
	T_EQ(r.passed, 1);
	T_EQ(r.failed, 2);
	T_ASSERT(!lab_run_passed(&r));
	T_EQ(lab_run_status(&r), 0x8000000000000021ull);
	c[1].status = 0; /* none of its own */
	T_EQ(lab_run_status(&r), 0x8000000000000021ull);
	c[1].result = LAB_PASS;
	T_EQ(lab_run_status(&r), 0x8000000000000003ull);

	/* how it ends */
	T_EQ(parse("info\n"), UNC_OK);
	T_EQ(lab_run_ending(&cfg, true, false), LAB_END_SHUTDOWN);
	T_EQ(lab_run_ending(&cfg, false, false), LAB_END_SHUTDOWN);
	T_EQ(lab_run_ending(&cfg, true, true), LAB_END_EXIT);
	T_EQ(parse("info\non-pass reboot\non-fail halt\n"), UNC_OK);
	T_EQ(lab_run_ending(&cfg, true, true), LAB_END_REBOOT);
	T_EQ(lab_run_ending(&cfg, false, false), LAB_END_HALT);
}

static void fill_abc(struct out *o, void *arg)
{
	out_printf(o, "abc %u", *(unsigned *)arg);
}

static void *no_alloc(size_t n)
{
	(void)n;
	return NULL;
}

static void renders_to_size(void)
{
	unsigned v = 42;
	size_t len = 0;
	char *buf = lab_render(fill_abc, &v, malloc, &len);

	T_ASSERT(buf != NULL);
	T_EQ(len, 6);
	T_STREQ(buf, "abc 42");
	free(buf);
	T_ASSERT(lab_render(fill_abc, &v, no_alloc, &len) == NULL);
}

/* report.html: a record it cannot read is said once, on the second
 * rendering (the one written). */
static void report_records(void)
{
	static struct fake_vars fv;
	static uint8_t rec[LAB_RECORD_MAX];
	static struct rec_print_ws pws;
	char etext[512];
	struct strbuf sb, esb;
	struct out o = buf_out(&sb);

	make_run();
	strcpy(cs[0].record, "Lab001");
	fake_vars_init(&fv, 1024, 1 << 20);
	strbuf_init(&esb, etext, sizeof(etext));
	struct out e = strbuf_out(&esb);
	struct lab_html h = { &run, &fv.vs, rec, &pws, &e, 0, 0 };
	lab_write_html(&o, &h);
	T_EQ(h.records, 1);
	T_EQ(esb.len, 0);
	T_CONTAINS(text, "lab run: FAIL");
	o = buf_out(&sb);
	lab_write_html(&o, &h);
	T_EQ(h.records, 1);
	T_EQ(h.pass, 2);
	T_ASSERT(!strncmp(etext, "uncore: error: report.html: record Lab001: ", 43));
	T_EQ(strchr(etext, '\n') - etext + 1, (long)esb.len); /* one line */
	fake_vars_free(&fv);
}

T_MAIN("lab", T_CASE(parses_every_item), T_CASE(defaults), T_CASE(refuses_bad_lines), T_CASE(long_and_many),
       T_CASE(bad_file_keeps_its_ending), T_CASE(splits_words), T_CASE(sanitises_names), T_CASE(case_ids_lava_keeps), T_CASE(out_names), T_CASE(board_from_smbios),
       T_CASE(serial_lines), T_CASE(results_json), T_CASE(junit_xml), T_CASE(config_names), T_CASE(run_lines_checked),
       T_CASE(results_folder), T_CASE(console_kept), T_CASE(case_results), T_CASE(config_case), T_CASE(record_names),
       T_CASE(record_written), T_CASE(every_round), T_CASE(verdict), T_CASE(renders_to_size), T_CASE(report_records))
