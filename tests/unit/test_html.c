/* The HTML report (drivers/output/report_html.c) and the decoder's --html and
 * --intervals: records of stat and bw runs with and without intervals and
 * of info, each page parsed by Python's html.parser (tests/html_check.py:
 * balanced tags, self-contained, each point on its axis), the plotted
 * figures against the ones computed here from the samples, and escaping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../drivers/engine/pmu.h"
#include "../../drivers/pmu/skl.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/report_html.h"
#include "t.h"

#define GUID "7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63"
#define HZ 1000000000ull /* one tick a nanosecond: rates are easy to compute here */
#define NIV 10

static char dir[] = "/tmp/uncore_html_test.XXXXXX";
static struct rec r;
static uint8_t pbx[REC_MAX_EVENTS][9]; /* each event's one box: its total (u64) and moved bit, as stored */
static uint8_t buf[1 << 18];
static size_t buflen;
static char page[1 << 20], checked[1 << 16], err[300];
static struct rec_print_ws ws;

static void event(struct rec_event *e, const char *name, const char *pmu, uint8_t kind, uint8_t role,
		  const char *word)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->driver, sizeof(e->driver), "%s", pmu_driver_skl.name);
	snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
	snprintf(e->count_word, sizeof(e->count_word), "%s", word);
	e->kind = kind, e->role = role, e->nboxes = 1, e->width = 44;
	uint8_t *p = pbx[e - r.ev];
	memset(p, 0, 9);
	p[8] = 1; /* moved */
	e->spans = true;
	e->pb_total = (struct rec_span){ p, 8 };
	e->pb_moved = (struct rec_span){ p + 8, 1 };
}

static void base(const char *command)
{
	memset(&r, 0, sizeof(r));
	strcpy(r.tool, "uncore.efi 0.1.0 & co");
	snprintf(r.command, sizeof(r.command), "%s", command);
	r.time = (struct rec_time){ 2026, 11, 22, 10, 30, 0, 0, 0, 0, 1 };
	strcpy(r.vendor, "GenuineIntel");
	strcpy(r.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	r.family = 6, r.model = 0x5E, r.stepping = 3, r.cores = 4, r.threads = 8;
	r.msr_mode = HW_MSR_EMULATED;
	strcpy(r.emulator, "NO_CBO_BANKS 5, UCLK <800> MHz");
	r.tsc_hz = HZ;
	r.ngroups = 1;
}

/* Counts per interval k (1 s each): stat's events and bw's lines. */
static uint64_t stat_count(unsigned e, unsigned k)
{
	return e == 0 ? 800012345ull + 1000ull * k : 1500ull + 7 * k;
}

static uint64_t bw_lines(unsigned e, unsigned k)
{
	return e == 0 ? 312500000ull + 15625ull * k : 125000000ull + 31250ull * k; /* 20000 (+1k) and 8000 (+2k) MB/s */
}

static void encode(unsigned nintervals, uint64_t (*count)(unsigned, unsigned))
{
	struct rec_buf b = { buf, 0, sizeof(buf), false };
	uint64_t tot[REC_MAX_EVENTS] = { 0 };

	r.interval = nintervals ? 1000 : 0;
	r.elapsed = (nintervals ? nintervals : 2) * HZ;
	for (unsigned k = 0; k < (nintervals ? nintervals : 2); k++)
		for (unsigned e = 0; e < r.nevents; e++)
			tot[e] += count(e, k);
	for (unsigned e = 0; e < r.nevents; e++) {
		for (int i = 0; i < 8; i++)
			pbx[e][i] = (uint8_t)(tot[e] >> (8 * i));
		r.ev[e].running = r.elapsed;
	}
	rec_begin(&b);
	rec_put(&b, &r);
	memset(tot, 0, sizeof(tot));
	for (unsigned k = 0; k < nintervals; k++) {
		uint64_t t = (k + 1) * HZ, running[REC_MAX_EVENTS];
		uint32_t one[REC_MAX_EVENTS];
		const uint64_t *box[REC_MAX_EVENTS];
		for (unsigned e = 0; e < r.nevents; e++) {
			tot[e] += count(e, k);
			box[e] = &tot[e], one[e] = 1, running[e] = t;
		}
		rec_put_sample(&b, r.nevents, one, t, running, box);
	}
	T_EQ(rec_end(&b), UNC_OK);
	buflen = b.len;
}

static void stat_record(unsigned nintervals)
{
	base("stat");
	r.nevents = 2;
	event(&r.ev[0], "UNC_CLOCK.SOCKET", "cbox", PMU_FIXED, PMU_ROLE_NONE, "cycles");
	event(&r.ev[1], "X<script>alert(1)</script>", "cbox", PMU_GENERAL, PMU_ROLE_NONE, "events");
	r.programs = 1;
	encode(nintervals, stat_count);
}

static void bw_record(unsigned nintervals)
{
	base("bw");
	r.nevents = 2;
	event(&r.ev[0], "UNC_IMC_DRAM_DATA_READS", "imc", PMU_FREE, PMU_ROLE_DRAM_READ, "lines");
	event(&r.ev[1], "UNC_IMC_DRAM_DATA_WRITES", "imc", PMU_FREE, PMU_ROLE_DRAM_WRITE, "lines");
	r.ev[0].width = r.ev[1].width = 32;
	strcpy(r.free_pmu, "imc");
	strcpy(r.where, "at MCHBAR 0xfed10000 (emulated)");
	r.x = (struct run_extras){ .check = CHECK_TOTAL, .check_required_kb_s = 25000000,
				   .check_measured_kb_s = 28009000, .check_verdict = VERDICT_PASS, .peak_mb_s = 34133 };
	strcpy(r.x.peak_note, "2 of 2 devices at 2133 MT/s x 64 bits");
	encode(nintervals, bw_lines);
}

static void info_record(void)
{
	base("info");
	r.npmus = 1;
	snprintf(r.pmus[0].driver, sizeof(r.pmus[0].driver), "%s", pmu_driver_skl.name);
	strcpy(r.pmus[0].model, "Skylake (desktop)");
	r.verdict = UNC_OK;
	strcpy(r.verdict_reason, "ready");
	encode(0, stat_count);
}

/* Renders the record in buf, then runs the checker on it; its output
 * (the figures of every polyline) lands in checked. */
static int render_and_check(const char *opts)
{
	struct strbuf sb;
	char path[300], cmd[600];

	strbuf_init(&sb, page, sizeof(page));
	struct out o = strbuf_out(&sb);
	T_EQ(report_html_page(&o, buf, buflen, "Run_1", &ws, err, sizeof(err)), UNC_OK);
	T_ASSERT(sb.len < sizeof(page));
	snprintf(path, sizeof(path), "%s/page.html", dir);
	FILE *f = fopen(path, "w");
	fputs(page, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 tests/html_check.py %s %s > %s/checked 2>&1", opts, path, dir);
	int st = system(cmd);
	snprintf(path, sizeof(path), "%s/checked", dir);
	f = fopen(path, "r");
	size_t n = f ? fread(checked, 1, sizeof(checked) - 1, f) : 0;
	checked[n] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void stat_with_intervals(void)
{
	char want[2000];
	size_t n = 0;

	stat_record(NIV);
	T_EQ(render_and_check("--points 10 --values"), 0);
	/* the clock and the rare event are 10^5 apart: a chart each */
	T_CONTAINS(page, "<h2>Charts</h2>");
	T_CONTAINS(page, "<h3>cbox: rate per event (cycles per second), the largest rates</h3>");
	T_CONTAINS(page, "<h3>cbox: rate per event (events per second), smaller rates</h3>");
	/* the figures are the counts of each interval per second */
	n += (size_t)snprintf(want + n, sizeof(want) - n, "UNC_CLOCK.SOCKET:");
	for (unsigned k = 0; k < NIV; k++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, " %llu.000", (unsigned long long)stat_count(0, k));
	n += (size_t)snprintf(want + n, sizeof(want) - n, "\nX<script>alert(1)</script>:");
	for (unsigned k = 0; k < NIV; k++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, " %llu.000", (unsigned long long)stat_count(1, k));
	snprintf(want + n, sizeof(want) - n, "\n");
	T_STREQ(checked, want);
	/* the raw name shows as text, never as markup */
	T_NOT_CONTAINS(page, "<script");
	T_CONTAINS(page, "X&lt;script&gt;alert(1)&lt;/script&gt;");
	T_CONTAINS(page, "uncore.efi 0.1.0 &amp; co");
	T_CONTAINS(page, "emulated (NO_CBO_BANKS 5, UCLK &lt;800&gt; MHz)");
	T_CONTAINS(page, "<p class=\"verdict none\">NO VERDICT</p>");
	/* the console's table, rows of the intervals included */
	T_CONTAINS(page, "<pre class=\"report\">record Run_1: `stat` by uncore.efi 0.1.0 &amp; co at 2026-11-22 10:30:00");
	T_CONTAINS(page, "\n  10.000000000  UNC_CLOCK.SOCKET ");
}

/* The values of the ticks of one class in the page's first chart, and
 * the x or y of each, in order; how many. */
static unsigned ticks(const char *cls, double *val, double *pos, unsigned max)
{
	char head[64];
	unsigned n = 0;
	const char *end = strstr(page, "</svg>");

	snprintf(head, sizeof(head), "<text class=\"%s\" data-value=\"", cls);
	for (const char *at = page; (at = strstr(at, head)) && at < end && n < max; at++, n++) {
		val[n] = atof(at + strlen(head));
		const char *c = strstr(at, cls[0] == 'x' ? " x=\"" : " y=\"");
		pos[n] = c ? atof(c + 4) : -1;
	}
	return n;
}

/* Ticks at round values: steps of 1, 2 or 5 times a power of ten from 0,
 * each where its value is on the scale the points use (a tick labelled
 * 1.0 s is where the sample at 1 s is). */
static void ticks_are_round(void)
{
	double v[16], x[16];

	stat_record(3); /* samples at 1, 2 and 3 s */
	T_EQ(render_and_check(""), 0);
	T_EQ(ticks("xtick", v, x, 16), 4);
	for (unsigned i = 0; i < 4; i++)
		T_ASSERT(v[i] == i);
	const char *pts = strstr(page, "points=\"");
	T_ASSERT(pts != NULL);
	T_ASSERT(pts && atof(pts + 8) == x[1]); /* the first point, at 1 s */
	T_ASSERT(x[3] == 740.0);
	/* y: the top is 1, 2 or 5 times a power of ten; steps of a fifth,
	 * a fourth (2: 0.5) or a fifth (5: 1) of it */
	unsigned n = ticks("ytick", v, x, 16);
	T_ASSERT(n == 5 || n == 6);
	double step = v[1] - v[0];
	for (double p = 1e-3; p < 1e15; p *= 10)
		if (step == p || step == 2 * p || step == 5 * p)
			step = -1;
	T_ASSERT(step == -1);
	bw_record(NIV); /* 10 s: 0, 2, ... 10 */
	T_EQ(render_and_check(""), 0);
	T_EQ(ticks("xtick", v, x, 16), 6);
	T_ASSERT(v[1] == 2 && v[5] == 10);
}

static void stat_without_intervals(void)
{
	stat_record(0);
	T_EQ(render_and_check(""), 0);
	T_STREQ(checked, "");
	T_NOT_CONTAINS(page, "<svg");
	T_CONTAINS(page, "No interval samples (the run had no -I): no charts.");
	T_CONTAINS(page, "UNC_CLOCK.SOCKET ");
	T_NOT_CONTAINS(page, "<script");
}

static void bw_check_with_intervals(void)
{
	char want[3000];
	size_t n = 0;

	bw_record(NIV);
	T_EQ(render_and_check("--points 10 --values"), 0);
	static const char *const what[] = { "read", "write", "total" };
	for (unsigned s = 0; s < 3; s++) {
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s:", what[s]);
		for (unsigned k = 0; k < NIV; k++) { /* lines x 64 bytes in 1 s, in MB/s */
			uint64_t lines = s == 2 ? bw_lines(0, k) + bw_lines(1, k) : bw_lines(s, k);
			uint64_t bps = lines * 64;
			n += (size_t)snprintf(want + n, sizeof(want) - n, " %llu.%03llu", (unsigned long long)(bps / 1000000),
					      (unsigned long long)(bps % 1000000 / 1000));
		}
		n += (size_t)snprintf(want + n, sizeof(want) - n, "\n");
	}
	T_STREQ(checked, want);
	T_CONTAINS(page, "<p class=\"verdict pass\">PASS</p>");
	T_CONTAINS(page, "read+write bandwidth 28009.000 MB/s &gt;= the required 25000.000 MB/s");
	T_CONTAINS(page, "<h3>IMC: read, write and total bandwidth (MB/s)</h3>");
	T_CONTAINS(page, "<line class=\"required\" data-value=\"25000.000\"");
	T_CONTAINS(page, "<line class=\"peak\" data-value=\"34133.000\"");
	T_CONTAINS(page, "data-ymax=\"50000\""); /* the peak fits under the axis' top */
	T_CONTAINS(page, ">MB/s (10^6 bytes per second)</text>");
	T_CONTAINS(page, ">time since the start (s)</text>");
	T_CONTAINS(page, "<pre class=\"extras\">peak: 34133 MB/s from SMBIOS");
	/* a failed check is a FAIL */
	r.x.check_verdict = VERDICT_FAIL;
	r.status = UNC_E_CHECK;
	encode(NIV, bw_lines);
	T_EQ(render_and_check(""), 0);
	T_CONTAINS(page, "<p class=\"verdict fail\">FAIL</p>");
}

static void info_page(void)
{
	info_record();
	T_EQ(render_and_check(""), 0);
	T_CONTAINS(page, "<p class=\"verdict pass\">PASS</p>");
	T_CONTAINS(page, "PMU usable: ready");
	T_CONTAINS(page, "Skylake (desktop)");
	T_NOT_CONTAINS(page, "Charts");
}

/* A broken record renders nothing and says why. */
static void bad_record_writes_nothing(void)
{
	struct strbuf sb;

	stat_record(2);
	buf[buflen - 1] ^= 1; /* the CRC no longer matches */
	strbuf_init(&sb, page, sizeof(page));
	struct out o = strbuf_out(&sb);
	T_EQ(report_html_page(&o, buf, buflen, "Run_1", &ws, err, sizeof(err)), UNC_E_INVALID);
	T_EQ(sb.len, 0);
	T_CONTAINS(err, "CRC");
}

static void put_file(const char *name)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/vars", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/vars/%s-" GUID, dir, name);
	FILE *f = fopen(path, "wb");
	fwrite("\7\0\0\0", 1, 4, f);
	fwrite(buf, 1, buflen, f);
	fclose(f);
}

static int run(const char *args, char *ret, size_t size)
{
	char cmd[1200], path[300];

	snprintf(cmd, sizeof(cmd), "timeout 20 build/host/uncore_decode %s > %s/out 2>&1", args, dir);
	int st = system(cmd);
	snprintf(path, sizeof(path), "%s/out", dir);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(ret, 1, size - 1, f) : 0;
	ret[n] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* uncore_decode --html: one record, or a directory's records on one page
 * with an index of verdicts; --intervals: CSV rows per interval per event. */
static void decoder(void)
{
	static char out[1 << 16];
	char args[800], cmd[800];

	bw_record(NIV);
	put_file("Bw1");
	stat_record(3);
	put_file("Stat1");
	info_record();
	put_file("Info1");

	snprintf(args, sizeof(args), "--html %s/one.html %s/vars Bw1", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 0);
	T_STREQ(out, "");
	snprintf(cmd, sizeof(cmd), "python3 tests/html_check.py --points 10 %s/one.html", dir);
	T_EQ(system(cmd), 0);

	snprintf(args, sizeof(args), "--html %s/all.html %s/vars", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 0);
	snprintf(cmd, sizeof(cmd), "python3 tests/html_check.py --outline %s/all.html > %s/outline", dir, dir);
	T_EQ(system(cmd), 0);
	snprintf(args, sizeof(args), "%s/outline", dir);
	FILE *f = fopen(args, "r");
	size_t n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	T_CONTAINS(out, "h1 Records\n");
	T_CONTAINS(out, "  h2 uncore.efi 0.1.0 & co `bw`: Bw1\n");
	T_CONTAINS(out, "  h2 uncore.efi 0.1.0 & co `info`: Info1\n");
	T_CONTAINS(out, "  h2 uncore.efi 0.1.0 & co `stat`: Stat1\n");
	T_CONTAINS(out, "polyline read: 10 points\n");
	T_CONTAINS(out, "polyline UNC_CLOCK.SOCKET: 3 points\n");
	snprintf(args, sizeof(args), "%s/all.html", dir);
	f = fopen(args, "r");
	n = f ? fread(page, 1, sizeof(page) - 1, f) : 0;
	page[n] = '\0';
	if (f)
		fclose(f);
	T_CONTAINS(page, "<tr><td><a href=\"#rec-Bw1\">Bw1</a></td><td>bw</td><td>2026-11-22 10:30:00</td>"
			 "<td class=\"pass\"><b>PASS</b></td>");
	T_CONTAINS(page, "<section id=\"rec-Stat1\">");

	/* --intervals: a header row, then one row per interval per event */
	snprintf(args, sizeof(args), "-x , --intervals %s/vars Stat1", dir);
	T_EQ(run(args, out, sizeof(out)), 0);
	T_STREQ(out, "time_s,interval_s,event,pmu,count,unit,rate_per_s,run_time_ns,percent_running,mb_per_s\n"
		     "1.000000000,1.000000000,UNC_CLOCK.SOCKET,cbox,800012345,cycles,800012345.000,1000000000,100.00,\n"
		     "1.000000000,1.000000000,X<script>alert(1)</script>,cbox,1500,events,1500.000,1000000000,100.00,\n"
		     "2.000000000,1.000000000,UNC_CLOCK.SOCKET,cbox,800013345,cycles,800013345.000,1000000000,100.00,\n"
		     "2.000000000,1.000000000,X<script>alert(1)</script>,cbox,1507,events,1507.000,1000000000,100.00,\n"
		     "3.000000000,1.000000000,UNC_CLOCK.SOCKET,cbox,800014345,cycles,800014345.000,1000000000,100.00,\n"
		     "3.000000000,1.000000000,X<script>alert(1)</script>,cbox,1514,events,1514.000,1000000000,100.00,\n");
	snprintf(args, sizeof(args), "-x ';' --intervals %s/vars Bw1", dir);
	T_EQ(run(args, out, sizeof(out)), 0);
	T_CONTAINS(out, "\n1.000000000;1.000000000;UNC_IMC_DRAM_DATA_READS;imc;312500000;lines;312500000.000;1000000000;"
			"100.00;20000.000\n");
	T_CONTAINS(out, "\n10.000000000;1.000000000;UNC_IMC_DRAM_DATA_WRITES;imc;125281250;lines;125281250.000;"
			"1000000000;100.00;8018.000\n");
	/* what --intervals and --html refuse */
	snprintf(args, sizeof(args), "-x , --intervals %s/vars Info1", dir);
	T_EQ(run(args, out, sizeof(out)), 1);
	T_STREQ(out, "uncore_decode: Info1: an info record has no intervals\n");
	snprintf(args, sizeof(args), "--intervals %s/vars Stat1", dir);
	T_EQ(run(args, out, sizeof(out)), 2);
	T_STREQ(out, "uncore_decode: --intervals prints CSV: give -x SEP too\n");
	snprintf(args, sizeof(args), "--html %s/x.html -j %s/vars Stat1", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 2);
	T_STREQ(out, "uncore_decode: --html writes a page: no -x, -j or --list with it\n");
	snprintf(args, sizeof(args), "--html %s/x.html %s/vars Nope", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 1);
	T_CONTAINS(out, "uncore_decode: Nope: ");
	snprintf(args, sizeof(args), "%s/x.html", dir);
	T_EQ(access(args, F_OK), -1); /* nothing written */
}

/* --html OUT: the page goes to a private temporary file in OUT's folder,
 * never through one planted at a name it could guess; an OUT that exists
 * and is not a regular file is refused and left as it is; nothing is left
 * behind. */
static void decoder_out_files(void)
{
	static char out[4096];
	char args[900], path[400], victim[400];
	struct stat sb;

	bw_record(NIV);
	put_file("Bw1");
	snprintf(path, sizeof(path), "%s/o", dir);
	T_EQ(mkdir(path, 0755), 0);
	/* planted: the old fixed OUT.tmp, a symlink to a file of someone else's */
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *f = fopen(victim, "w");
	fputs("keep me\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/o/page.html.tmp", dir);
	T_EQ(symlink(victim, path), 0);
	snprintf(args, sizeof(args), "--html %s/o/page.html %s/vars Bw1", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 0);
	f = fopen(victim, "r");
	T_ASSERT(f && fgets(out, sizeof(out), f));
	fclose(f);
	T_STREQ(out, "keep me\n");
	snprintf(path, sizeof(path), "%s/o/page.html", dir);
	T_EQ(lstat(path, &sb), 0);
	T_ASSERT(S_ISREG(sb.st_mode) && sb.st_size > 1000);
	snprintf(args, sizeof(args), "ls -A %s/o", dir);
	FILE *p = popen(args, "r");
	size_t n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	T_STREQ(out, "page.html\npage.html.tmp\n"); /* no temporary file left */
	/* again over the page it wrote: replaced */
	snprintf(args, sizeof(args), "--html %s/o/page.html %s/vars Bw1", dir, dir);
	T_EQ(run(args, out, sizeof(out)), 0);

	/* OUT a FIFO, a symlink, a directory: refused, left as they are */
	static const struct { const char *name, *why; } kinds[] = {
		{ "fifo", "exists and is a FIFO, not a regular file" },
		{ "link", "exists and is a symbolic link, not a regular file" },
		{ "dir", "exists and is a directory, not a regular file" },
	};
	snprintf(path, sizeof(path), "%s/o/fifo", dir);
	T_EQ(mkfifo(path, 0644), 0);
	snprintf(path, sizeof(path), "%s/o/link", dir);
	T_EQ(symlink(victim, path), 0);
	snprintf(path, sizeof(path), "%s/o/dir", dir);
	T_EQ(mkdir(path, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		char want[600];
		snprintf(args, sizeof(args), "--html %s/o/%s %s/vars Bw1", dir, kinds[i].name, dir);
		T_EQ(run(args, out, sizeof(out)), 1);
		snprintf(want, sizeof(want), "uncore_decode: %s/o/%s: %s\n", dir, kinds[i].name, kinds[i].why);
		T_STREQ(out, want);
	}
	snprintf(path, sizeof(path), "%s/o/fifo", dir);
	T_ASSERT(!lstat(path, &sb) && S_ISFIFO(sb.st_mode));
	snprintf(path, sizeof(path), "%s/o/link", dir);
	T_ASSERT(!lstat(path, &sb) && S_ISLNK(sb.st_mode));
	f = fopen(victim, "r");
	T_ASSERT(f && fgets(out, sizeof(out), f));
	fclose(f);
	T_STREQ(out, "keep me\n");
	snprintf(args, sizeof(args), "ls -A %s/o", dir);
	p = popen(args, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	T_STREQ(out, "dir\nfifo\nlink\npage.html\npage.html.tmp\n");
}

int main(int argc, char **argv)
{
	static const struct t_case cases[] = { T_CASE(stat_with_intervals), T_CASE(stat_without_intervals),
					       T_CASE(bw_check_with_intervals), T_CASE(info_page),
					       T_CASE(bad_record_writes_nothing), T_CASE(ticks_are_round), T_CASE(decoder),
					       T_CASE(decoder_out_files) };
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	t_cmdline(argc, argv);
	int rc = t_main("html", cases, sizeof(cases) / sizeof(cases[0]));
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
