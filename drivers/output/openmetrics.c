/* A stored run as OpenMetrics text (openmetrics.h). Every figure comes
 * from the functions the console's report used (report_bw.c,
 * report_stat.c): the record's counts are rebuilt as the engine had them
 * (rec_count_run), as `var show` and the decoder do. */
#include "openmetrics.h"

#include <string.h>

#include "../base/pool.h"
#include "../engine/pmu.h"
#include "recmap.h"
#include "report_int.h"

/* The families, in the order they are written. Gauges all: a record's
 * counts belong to its run alone and start from zero in the next one. */
enum fam {
	F_INFO, F_STATUS, F_BOOT, F_ELAPSED, F_READ, F_WRITE, F_TOTAL, F_PEAK, F_PASSED, F_REQUIRED, F_MEASURED,
	F_COUNT, F_RATE, F_RUNNING
};

static const struct {
	const char *name, *unit, *help;
} fams[] = {
	[F_INFO] = { "uncore_info", NULL, "The run: tool, command, CPU, drivers, firmware (value 1)" },
	[F_STATUS] = { "uncore_exit_status", NULL, "The run's exit status (0: success), named in status" },
	[F_BOOT] = { "uncore_boot_sequence", NULL, "The boot number of a boot-time check" },
	[F_ELAPSED] = { "uncore_elapsed_seconds", "seconds", "Time measured" },
	[F_READ] = { "uncore_dram_read_bytes_per_second", "bytes_per_second", "DRAM reads" },
	[F_WRITE] = { "uncore_dram_write_bytes_per_second", "bytes_per_second", "DRAM writes" },
	[F_TOTAL] = { "uncore_dram_total_bytes_per_second", "bytes_per_second", "DRAM reads and writes" },
	[F_PEAK] = { "uncore_dram_peak_bytes_per_second", "bytes_per_second", "DRAM peak from SMBIOS" },
	[F_PASSED] = { "uncore_check_passed", NULL, "The bandwidth check: 1 passed, 0 failed" },
	[F_REQUIRED] = { "uncore_check_required_bytes_per_second", "bytes_per_second", "The check's bound" },
	[F_MEASURED] = { "uncore_check_measured_bytes_per_second", "bytes_per_second", "The check's figure" },
	[F_COUNT] = { "uncore_event_counted", NULL, "Events counted in the run" },
	[F_RATE] = { "uncore_event_rate", NULL, "Events counted per second" },
	[F_RUNNING] = { "uncore_event_running_ratio", NULL, "The share of the run the event was counting" },
};

/* The writer: its sink and the labels every series carries (the
 * machine's, then the caller's). */
struct om {
	struct out o;
	struct om_label id[8];
	size_t nid;
	const struct om_label *extra;
	size_t nextra;
};

static void family(struct om *m, enum fam f)
{
	out_printf(&m->o, "# TYPE %s gauge\n", fams[f].name);
	if (fams[f].unit)
		out_printf(&m->o, "# UNIT %s %s\n", fams[f].name, fams[f].unit);
	out_printf(&m->o, "# HELP %s %s\n", fams[f].name, fams[f].help);
}

/* A label value as the format quotes it: backslash, double quote and
 * line feed escaped. */
static void put_value(struct out *o, const char *s)
{
	for (; *s; s++) {
		char e[3] = { '\\', *s == '\n' ? 'n' : *s, 0 };
		out_puts(o, *s == '\\' || *s == '"' || *s == '\n' ? e : (char[2]){ *s, 0 });
	}
}

static void put_labels(struct out *o, const struct om_label *l, size_t n, char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (!l[i].value || !l[i].value[0])
			continue;
		out_printf(o, "%c%s=\"", *sep, l[i].name);
		put_value(o, l[i].value);
		out_puts(o, "\"");
		*sep = ',';
	}
}

/* One series: the family's name, its own labels l, every series' labels,
 * the value as text. */
static void sample(struct om *m, enum fam f, const struct om_label *l, size_t n, const char *value)
{
	char sep = '{';

	out_puts(&m->o, fams[f].name);
	put_labels(&m->o, l, n, &sep);
	put_labels(&m->o, m->id, m->nid, &sep);
	put_labels(&m->o, m->extra, m->nextra, &sep);
	out_printf(&m->o, "%s %s\n", sep == ',' ? "}" : "", value);
}

static void sample_u(struct om *m, enum fam f, const struct om_label *l, size_t n, uint64_t v)
{
	char t[24];

	fmt_snprintf(t, sizeof(t), "%lu", (unsigned long)v);
	sample(m, f, l, n, t);
}

/* Whether a unit's noun can name a label: a lower-case word ("socket",
 * "channel"), as the drivers' are; a record could hold any text. */
static bool word(const char *s)
{
	bool ok = *s != 0;

	for (; *s; s++)
		ok &= *s >= 'a' && *s <= 'z';
	return ok;
}

/* A box's labels: its group as the unit names groups (socket="1"), then
 * the box: by its noun where that is a word (channel="2"), else as --per-box
 * names it without the group (box="cha3"). Two labels at most. */
static size_t box_labels(struct om_label *l, char (*t)[16], const char *group_noun, int group, const char *noun,
			 const char *label, int id)
{
	size_t n = 0;
	bool w = word(noun);

	if (group >= 0 && group_noun[0]) {
		fmt_snprintf(t[n], 16, "%d", group);
		l[n] = (struct om_label){ word(group_noun) ? group_noun : "group", t[n] };
		n++;
	}
	if (id >= 0) {
		fmt_snprintf(t[n], 16, "%s%d", w ? "" : label, id);
		l[n] = (struct om_label){ w ? noun : "box", t[n] };
		n++;
	}
	return n;
}

/* bw's DRAM figures: the whole run's, each group's (socket), each box's
 * (channel) or memory controller's, for each direction whose counters moved. */
static void dram(struct om *m, const struct count_run *run, const struct hw *hw)
{
	uint64_t bps[3], ticks = count_enabled(run);
	bool mv[2] = { report_dram_moved(run, false), report_dram_moved(run, true) };
	int ird = count_find_role(run, PMU_ROLE_DRAM_READ);

	if (!report_dram_rates(run, hw, false, 0, bps))
		return;
	for (int w = 0; w < 3; w++) {
		if (w < 2 ? !mv[w] : !(mv[0] && mv[1]))
			continue;
		family(m, (enum fam)(F_READ + w));
		sample_u(m, (enum fam)(F_READ + w), NULL, 0, bps[w]);
		struct report_part p;
		for (int box = 0; box < 2; box++)
			for (unsigned k = 0; report_dram_part(run, k, box, &p); k++) {
				const struct count_view *v = &run->ev[ird].v;
				struct om_label l[2];
				char t[2][16];
				size_t n = box_labels(l, t, v->group_noun, p.group, v->box_noun, v->box_label, p.id);
				if (p.group < 0 && p.id < 0)
					l[n++] = (struct om_label){ "controller", p.name };
				sample_u(m, (enum fam)(F_READ + w), l, n,
					 report_bps(w == 0 ? p.rd : w == 1 ? p.wr : p.rd + p.wr, ticks, hw->tick_hz));
			}
	}
}

/* Every event counted: its count, rate and running share, as a row of the
 * stat table (the sum over its boxes; with --per-box each box too). */
static void events(struct om *m, const struct rec *r, const struct count_run *run, const struct hw *hw, enum fam f)
{
	uint64_t window = count_enabled(run);
	bool any = false;

	for (unsigned i = 0; i < run->nev; i++) {
		const struct count_event *e = &run->ev[i];
		int boxes = r->per_box && e->v.box_label[0] ? (int)e->v.nboxes : 0;
		unsigned nth = 1; /* the same event given again has rows of its own: nth="2" */
		char tn[12];
		if (!e->total.running) /* not counted: the table has no count */
			continue;
		for (unsigned j = 0; j < i; j++)
			nth += !strcmp(run->ev[j].name, e->name) && !strcmp(run->ev[j].v.pmu, e->v.pmu);
		fmt_snprintf(tn, sizeof(tn), "%u", nth);
		if (!any)
			family(m, f);
		any = true;
		for (int b = -1; b < boxes; b++) {
			struct om_label l[6] = { { "event", e->name }, { "pmu", e->v.pmu }, { "unit", e->v.count_word },
						 { "nth", nth > 1 ? tn : NULL } };
			char t[2][16], v[32];
			bool g = b >= 0 && e->v.group_noun[0] && e->v.group;
			size_t n = 4;
			if (b >= 0)
				n += box_labels(l + 4, t, e->v.group_noun, g ? e->v.group[b] : -1, e->v.box_noun,
						e->v.box_label, g ? e->v.box_id[b] : b);
			uint64_t c = count_total(run, i, b), x;
			if (f == F_COUNT) {
				sample_u(m, f, l, n, c);
				continue;
			}
			if (f == F_RATE) {
				x = report_rate_milli(c, window, hw->tick_hz);
				fmt_snprintf(v, sizeof(v), "%lu.%03lu", (unsigned long)(x / 1000), (unsigned long)(x % 1000));
			} else { /* the table's percent running (fmt_pct), as a ratio */
				x = window ? u64_muldiv(e->total.running, 10000, window) : 0;
				x = x > 10000 ? 10000 : x;
				fmt_snprintf(v, sizeof(v), "%lu.%04lu", (unsigned long)(x / 10000), (unsigned long)(x % 10000));
			}
			sample(m, f, l, n, v);
		}
	}
}

/* The bandwidth check: its verdict (none when the run was stopped early or
 * the figure could not be trusted; a boot check's is then 0: nobody is
 * there to look, and a board whose check gave no verdict did not pass),
 * bound and figure. */
static void check(struct om *m, const struct run_extras *x, bool boot)
{
	static const char *const what[] = { "", "read+write", "read", "write" };
	const struct om_label l = { "check", x->check < 4 ? what[x->check] : "unknown" }; /* a record's byte: any value */

	if (x->check_verdict != VERDICT_NONE || boot) {
		family(m, F_PASSED);
		sample_u(m, F_PASSED, &l, 1, x->check_verdict == VERDICT_PASS);
	}
	family(m, F_REQUIRED);
	sample_u(m, F_REQUIRED, &l, 1, x->check_required_kb_s * 1000);
	family(m, F_MEASURED);
	sample_u(m, F_MEASURED, &l, 1, x->check_measured_kb_s * 1000);
}

static void info(struct om *m, const struct rec *r)
{
	char drivers[REC_MAX_PMUS * REC_STR] = "", num[3][12];
	struct strbuf sb;

	strbuf_init(&sb, drivers, sizeof(drivers));
	struct out o = strbuf_out(&sb);
	for (uint32_t k = 0; k < r->npmus; k++)
		out_printf(&o, "%s%s", k ? "," : "", r->pmus[k].driver);
	fmt_snprintf(num[0], sizeof(num[0]), "%u", r->family);
	fmt_snprintf(num[1], sizeof(num[1]), "%u", r->model);
	fmt_snprintf(num[2], sizeof(num[2]), "%u", r->stepping);
	const struct om_label l[] = {
		{ "tool", r->tool },
		{ "command", r->command },
		{ "vendor", r->vendor },
		{ "family", num[0] },
		{ "model", num[1] },
		{ "stepping", num[2] },
		{ "model_name", r->model_name },
		{ "drivers", drivers },
		{ "emulator", r->msr_mode == HW_MSR_EMULATED ? r->emulator : NULL },
		{ "system_vendor", r->id.sys_vendor },
		{ "board_vendor", r->id.board_vendor },
		{ "board_serial", r->id.board_serial },
		{ "bios_vendor", r->id.bios_vendor },
		{ "bios_date", r->id.bios_date },
	};
	family(m, F_INFO);
	sample(m, F_INFO, l, sizeof(l) / sizeof(l[0]), "1");
}

size_t om_write(char *buf, size_t cap, const struct rec *r, const struct om_label *extra, size_t nextra)
{
	char one, secs[32];
	struct strbuf sb;
	struct count_run *run = NULL;
	struct hw hw = rec_hw(r);
	bool counts = strcmp(r->command, "info") && hw.tick_hz;

	strbuf_init(&sb, cap ? buf : &one, cap ? cap : 1);
	if (counts && (!(run = unc_alloc(sizeof(*run))) || rec_count_run(run, r))) {
		if (run)
			count_free(run);
		unc_free(run);
		return 0;
	}
	struct om m = { .o = strbuf_out(&sb), .extra = extra, .nextra = nextra };
	const struct om_label id[] = {
		{ "board", r->id.board_product },
		{ "system", r->id.sys_product },
		{ "serial", r->id.sys_serial[0] ? r->id.sys_serial : r->id.board_serial },
		{ "bios", r->id.bios_version },
		{ "cpu", r->brand },
		{ "msr_access", hw_msr_mode_name(hw.msr_mode) },
	};
	memcpy(m.id, id, sizeof(id));
	m.nid = sizeof(id) / sizeof(id[0]);
	info(&m, r);
	const struct om_label st = { "status", unc_strerror((enum unc_status)r->status) };
	family(&m, F_STATUS);
	sample_u(&m, F_STATUS, &st, 1, r->status);
	if (r->boot_seq) {
		family(&m, F_BOOT);
		sample_u(&m, F_BOOT, NULL, 0, r->boot_seq);
	}
	if (run) {
		fmt_seconds(secs, sizeof(secs), ticks_ns(&hw, count_enabled(run)));
		family(&m, F_ELAPSED);
		sample(&m, F_ELAPSED, NULL, 0, secs);
		if (!strcmp(r->command, "bw"))
			dram(&m, run, &hw);
	}
	if (r->x.peak_mb_s) {
		family(&m, F_PEAK);
		sample_u(&m, F_PEAK, NULL, 0, r->x.peak_mb_s * 1000000);
	}
	if (r->x.check) {
		check(&m, &r->x, r->boot_seq != 0);
	} else if (r->boot_seq) { /* a boot check that could not run (its record says why) */
		const struct om_label l = { "check", "not run" };
		family(&m, F_PASSED);
		sample_u(&m, F_PASSED, &l, 1, 0);
	}
	for (int f = F_COUNT; run && f <= F_RUNNING; f++)
		events(&m, r, run, &hw, (enum fam)f);
	out_puts(&m.o, "# EOF\n");
	if (run)
		count_free(run);
	unc_free(run);
	return sb.len;
}
