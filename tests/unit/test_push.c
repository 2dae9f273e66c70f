/* -o http://...: the URL's rules (each bad piece named, before anything is
 * measured), and the push end to end against the emulated IMC with a fake
 * HTTP sender: everything local is stored first, the body is exactly the
 * -o metrics:PATH text, and a failed push is one line and the run's status;
 * lab mode's `push URL` line, its `push` case and its verdict's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/cmd/app.h"
#include "../../drivers/cmd/push.h"
#include "../emu/emu_hw.h"
#include "app_run.h"
#include "../../drivers/lab/lab.h"
#include "fake_vars.h"
#include "t.h"

static void url_rules(void)
{
	static const struct {
		const char *url, *err;
	} bad[] = {
		{ "ftp://h/metrics/job/j", "bad scheme in -o URL: 'ftp' (want http:// or https://)" },
		{ "http:///metrics/job/j", "bad host in -o URL: '' (1 to 63 characters)" },
		{ "http://a_b/metrics/job/j", "bad host in -o URL: 'a_b' (a name or an IPv4 address)" },
		{ "http://h:0/metrics/job/j", "bad port in -o URL: '0' (1 to 65535)" },
		{ "http://h:65536/metrics/job/j", "bad port in -o URL: '65536' (1 to 65535)" },
		{ "http://h:80x/metrics/job/j", "bad port in -o URL: '80x' (1 to 65535)" },
		{ "http://h:/metrics/job/j", "bad port in -o URL: '' (1 to 65535)" },
		{ "http://h/metrics/j", "bad path in -o URL: '/metrics/j' (want /metrics/job/JOB[/LABEL/VALUE...])" },
		{ "http://h", "bad path in -o URL: '' (want /metrics/job/JOB[/LABEL/VALUE...])" },
		{ "http://h/metrics/job/", "bad job in -o URL: '' (1 or more of A-Z a-z 0-9 _ - . ~)" },
		{ "http://h/metrics/job/a b", "bad job in -o URL: 'a b' (1 or more of A-Z a-z 0-9 _ - . ~)" },
		{ "http://h/metrics/job/j/board", "label 'board' in -o URL has no value or a bad one (want /LABEL/VALUE, "
						  "VALUE of A-Z a-z 0-9 _ - . ~)" },
		{ "http://h/metrics/job/j/board/", "label 'board' in -o URL has no value or a bad one (want /LABEL/VALUE, "
						   "VALUE of A-Z a-z 0-9 _ - . ~)" },
		{ "http://h/metrics/job/j/9x/v", "bad label name in -o URL: '9x' (a Prometheus label name)" },
		{ "http://h/metrics/job/j/__x/v", "bad label name in -o URL: '__x' (a Prometheus label name)" },
		{ "http://h/metrics/job/j/", "bad label name in -o URL: '' (a Prometheus label name)" },
	};
	struct push_url u;
	char err[200], longer[300];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ(push_url_parse(bad[i].url, &u, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, bad[i].err);
	}
	snprintf(longer, sizeof(longer), "http://h/metrics/job/%0190d", 7);
	T_EQ(push_url_parse(longer, &u, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "-o URL too long: 211 characters (at most 200)");
	T_EQ(push_url_parse("http://10.0.2.100:9091/metrics/job/uncore/board/B-7/case/dram_copy", &u, err, sizeof(err)),
	     UNC_OK);
	T_STREQ(u.host, "10.0.2.100");
	T_EQ(u.port, 9091);
	T_EQ(u.https, false);
	T_EQ(push_url_parse("https://gw.lab/metrics/job/j", &u, err, sizeof(err)), UNC_OK);
	T_STREQ(u.host, "gw.lab");
	T_EQ(u.port, 443);
	T_EQ(u.https, true);
	T_EQ(push_url_parse("http://gw/metrics/job/j", &u, err, sizeof(err)), UNC_OK);
	T_EQ(u.port, 80);

	/* the parser refuses it, naming the piece; and twice */
	static struct cli_cmd cmd;
	const char *port[] = { "uncore.efi", "bw", "-o", "http://h:99999/metrics/job/j" };
	T_EQ(cli_parse(4, (char **)port, &cmd, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "bad port in -o URL: '99999' (1 to 65535)");
	const char *twice[] = { "uncore.efi", "stat", "-o", "http://h/metrics/job/a", "-o", "http://h/metrics/job/b" };
	T_EQ(cli_parse(6, (char **)twice, &cmd, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "-o URL given twice");
}

static struct emu_hw h;
static struct emu_config cfg;
static struct fake_vars fv;
static char obuf[65536], ebuf[2048], file[65536], body[65536], sent_url[300], sent_type[100], fail_msg[200];
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };
static unsigned puts_seen, files_seen, ready_seen;
static enum unc_status put_result, ready_result;
static bool ready_https;

static bool wait_until(void *ctx, uint64_t when)
{
	(void)ctx;
	h.fake.now = when;
	return false;
}

static enum unc_status write_file(void *ctx, const char *p, const void *data, size_t len, char *err, size_t errsize)
{
	(void)ctx, (void)p, (void)err, (void)errsize;
	T_ASSERT(len < sizeof(file));
	memcpy(file, data, len);
	file[len] = '\0';
	files_seen++;
	return UNC_OK;
}

static enum unc_status http_ready(void *ctx, bool https, char *err, size_t errsize)
{
	(void)ctx;
	ready_seen++;
	ready_https = https;
	if (ready_result)
		snprintf(err, errsize, "https refused: the firmware has no TLS");
	return ready_result;
}

/* Everything local is stored before the push: the variable and the file. */
static enum unc_status http_put(void *ctx, const char *url, const char *ctype, const void *data, size_t len,
				unsigned dhcp_ms, unsigned timeout_ms, unsigned *ret_code, char *err, size_t errsize)
{
	(void)ctx;
	T_EQ(fv.n, 1);
	T_EQ(files_seen, 1);
	T_ASSERT(dhcp_ms > 0 && timeout_ms > 0);
	snprintf(sent_url, sizeof(sent_url), "%s", url);
	snprintf(sent_type, sizeof(sent_type), "%s", ctype);
	T_ASSERT(len < sizeof(body));
	memcpy(body, data, len);
	body[len] = '\0';
	puts_seen++;
	*ret_code = put_result ? 500 : 200;
	if (put_result)
		snprintf(err, errsize, "%s", fail_msg);
	return put_result;
}

static struct app_env env = { .wait_until = wait_until, .write_file = write_file, .alloc = malloc, .free = free,
			      .http_ready = http_ready, .http_put = http_put };

#define RUN(...)                                                                      \
	({                                                                            \
		const char *av[] = { "uncore.efi", __VA_ARGS__ };                     \
		app_test_run(&at, &h.hw, &env, (int)(sizeof(av) / sizeof(av[0])), av); \
	})

static void reset(void)
{
	fake_vars_free(&fv);
	fake_vars_init(&fv, 65536, 1 << 20);
	env.vars = &fv.vs;
	puts_seen = files_seen = ready_seen = 0;
	file[0] = body[0] = '\0';
}

#define URL "http://10.0.2.100:9091/metrics/job/uncore/board/B-7"

static void push_after_store(void)
{
	const char *argv[] = { "uncore-emu.efi", "--rate", "DRAM_DATA_READS=2343750000", "--rate", "DRAM_DATA_WRITES=781.25M",
			       "--rate", "DRAM_IA_REQUESTS=3G", "--rate", "DRAM_GT_REQUESTS=100M", "--core-pmu", "none" };
	char err[100], said[400];

	T_EQ(emu_parse_options(11, (char **)argv, &cfg, err, sizeof(err)), UNC_OK);
	emu_hw_init(&h, &cfg);
	reset();
	T_EQ(RUN("bw", "-d", "2", "-o", "var:BwRun", "-o", "metrics:m.prom", "-o", URL), UNC_OK);
	T_ASSERT(strstr(obuf, "read       150000.000 MB/s "));
	T_EQ(puts_seen, 1);
	T_EQ(ready_seen, 1);
	T_EQ(ready_https, false);
	T_STREQ(sent_url, URL);
	T_STREQ(sent_type, "text/plain; version=0.0.4");
	T_STREQ(body, file); /* the same text as -o metrics:PATH */
	T_ASSERT(strstr(body, "\nuncore_dram_read_bytes_per_second{"));
	T_ASSERT(strstr(body, "} 150000000000\n"));
	snprintf(said, sizeof(said), "uncore: results pushed to " URL ": %zu bytes of OpenMetrics text (HTTP 200)\n",
		 strlen(body));
	T_ASSERT(strstr(ebuf, said));
	T_ASSERT(strstr(ebuf, "uncore: results stored in EFI variable BwRun: ") < strstr(ebuf, said));

	/* a failed push: one line, the run's status; the local record intact */
	reset();
	put_result = UNC_E_DEVICE;
	snprintf(fail_msg, sizeof(fail_msg), "HTTP error status 500 from 10.0.2.100:9091");
	T_EQ(RUN("bw", "-d", "2", "-o", "var:BwRun", "-o", "metrics:m.prom", "-o", URL), UNC_E_DEVICE);
	T_ASSERT(strstr(obuf, "read       150000.000 MB/s "));
	T_ASSERT(strstr(ebuf, "uncore: results stored in EFI variable BwRun: "));
	T_ASSERT(strstr(ebuf, "\nuncore: error: push to " URL " failed: HTTP error status 500 from 10.0.2.100:9091\n"));
	T_EQ(fv.n, 1);
	T_STREQ(body, file);
	put_result = UNC_OK;

	/* stat pushes as well */
	reset();
	T_EQ(RUN("-e", "DRAM_DATA_READS", "-d", "2", "-o", "metrics:m.prom", "-o", "http://gw/metrics/job/j", "-o", "var"),
	     UNC_OK);
	T_ASSERT(strstr(body, "\nuncore_event_counted{event=\"DRAM_DATA_READS\""));
	T_STREQ(body, file);
	fake_vars_free(&fv);
}

/* Refused before anything is measured: https without TLS or a CA, or no
 * HTTP sender at all. */
static void refused_before_measuring(void)
{
	emu_hw_init(&h, &cfg);
	reset();
	ready_result = UNC_E_UNSUPPORTED;
	T_EQ(RUN("bw", "-d", "2", "-o", "var", "-o", "https://gw/metrics/job/j"), UNC_E_UNSUPPORTED);
	T_EQ(ready_https, true);
	T_STREQ(obuf, "");
	T_STREQ(ebuf, "uncore: error: cannot push to https://gw/metrics/job/j: https refused: the firmware has no TLS\n");
	T_EQ(fv.n, 0);
	T_EQ(puts_seen, 0);
	ready_result = UNC_OK;
	env.http_ready = NULL;
	T_EQ(RUN("bw", "-d", "2", "-o", "http://gw/metrics/job/j"), UNC_E_UNSUPPORTED);
	T_STREQ(obuf, "");
	T_STREQ(ebuf, "uncore: error: cannot push to http://gw/metrics/job/j: no HTTP sender on this platform\n");
	env.http_ready = http_ready;
	fake_vars_free(&fv);
}

#define PARSE(t) lab_parse(t, strlen(t), &cfg)

/* `push URL`: kept as written (-o's rules check it where it runs); a case
 * whose push failed is followed by a case `push` in error; the verdict's
 * text. */
static void fake_push_fails(void *ctx, const struct lab_item *it, unsigned round, unsigned idx, struct lab_case *c)
{
	lab_case_begin(c, it, round, ctx, idx);
	lab_case_image(c, 0);
	if (!idx)
		snprintf(c->push_error, sizeof(c->push_error), "uncore: error: push to U failed: timeout");
}

static void push_line(void)
{
	struct lab_case c[8];
	char etext[64], body[600];
	static char text[256];
	static struct lab_cfg cfg;
	struct strbuf sb, esb;
	strbuf_init(&sb, text, sizeof(text));
	struct out o = strbuf_out(&sb);

	T_EQ(PARSE("push http://10.0.2.100:9091/metrics/job/lab\nname a\ninfo\nbw\n"), UNC_OK);
	T_STREQ(cfg.push, "http://10.0.2.100:9091/metrics/job/lab");
	T_EQ(cfg.push_line, 1);
	T_EQ(PARSE("info\npush\n"), UNC_E_INVALID);
	T_EQ(cfg.err_line, 2);
	T_STREQ(cfg.err, "'push' needs a URL of 1 to 200 characters");
	T_EQ(PARSE("push a\ninfo\npush b\n"), UNC_E_INVALID);
	T_EQ(cfg.err_line, 3);
	T_STREQ(cfg.err, "'push' given twice");
	T_EQ(PARSE("push U\nname a\ninfo\nbw\n"), UNC_OK);
	strbuf_init(&esb, etext, sizeof(etext));
	struct out e = strbuf_out(&esb);
	T_EQ(lab_run_cases(&cfg, c, 8, fake_push_fails, c, &o, &e), 3);
	T_STREQ(text, "UNCORE-LAB RESULT name=a result=pass\n"
		      "UNCORE-LAB RESULT name=push result=error\n"
		      "UNCORE-LAB RESULT name=bw result=pass\n");
	T_STREQ(c[1].command, "U");
	T_STREQ(c[1].status_name, "EFI_DEVICE_ERROR");
	T_STREQ(c[1].verdict_line, "uncore: error: push to U failed: timeout");
	struct lab_run r = { .cases = c, .ncases = 3 };
	lab_run_count(&r);
	T_EQ(r.failed, 1);
	T_EQ(lab_write_metrics(body, sizeof(body), &r), strlen(body));
	T_STREQ(body, "# TYPE uncore_lab_passed gauge\n# HELP uncore_lab_passed Whether every case of the lab run passed\n"
		      "uncore_lab_passed 0\n# TYPE uncore_lab_cases gauge\n# HELP uncore_lab_cases The lab run's cases\n"
		      "uncore_lab_cases{result=\"passed\"} 2\nuncore_lab_cases{result=\"failed\"} 1\n# EOF\n");
}

T_MAIN("push", T_CASE(push_line), T_CASE(url_rules), T_CASE(push_after_store), T_CASE(refused_before_measuring))
