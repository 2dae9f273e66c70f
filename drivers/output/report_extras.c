/* The extras of a run (load, SMBIOS peak, bandwidth check, child,
 * warning): as text lines and as the JSON object inside a final report;
 * and the DRAM bytes a run moved, which the load's cross-check compares. */
#include "report_int.h"

#include "../engine/load.h"
#include "../engine/pmu.h"

bool report_dram_bytes(const struct count_run *r, uint64_t *rd, uint64_t *wr)
{
	int i = count_find_role(r, PMU_ROLE_DRAM_READ), j = count_find_role(r, PMU_ROLE_DRAM_WRITE);

	if (i < 0 || j < 0)
		return false;
	*rd = count_role(r, PMU_ROLE_DRAM_READ, false, 0) * COUNT_LINE_BYTES;
	*wr = count_role(r, PMU_ROLE_DRAM_WRITE, false, 0) * COUNT_LINE_BYTES;
	return true;
}

bool has_extras(const struct run_extras *x)
{
	return x && (x->load_kind || x->peak_note[0] || x->check || x->child_ran || x->warning[0]);
}

static const char *const verdicts[] = { "FAIL", "PASS", "none" };

static void kb_fmt(char *buf, size_t size, uint64_t kb_s)
{
	fmt_fixed(buf, size, kb_s, 1000, 3); /* MB/s */
}

static void extras_json(struct out *o, const struct run_extras *x)
{
	const char *sep = ""; /* each member only when there is one */
	char a[32], b[32];

	out_puts(o, "{");
	if (x->load_kind) {
		out_printf(o, "\"load\":{\"kind\":\"%s\",\"nt\":%s,\"cpus\":%u,\"size\":%lu,\"bytes\":%lu,"
			      "\"core_events_cpus\":%s}",
			   load_kind_name((enum load_kind)(x->load_kind - 1)), x->load_nt ? "true" : "false", x->load_cpus,
			   (unsigned long)x->load_size, (unsigned long)x->load_bytes, x->core_one_cpu ? "1" : "null");
		sep = ",";
	}
	if (x->peak_note[0]) {
		out_printf(o, "%s\"peak_mb_per_s\":%lu,\"peak_note\":", sep, (unsigned long)x->peak_mb_s);
		out_json_str(o, x->peak_note);
		sep = ",";
	}
	if (x->check) {
		kb_fmt(a, sizeof(a), x->check_measured_kb_s);
		kb_fmt(b, sizeof(b), x->check_required_kb_s);
		out_printf(o, "%s\"check\":{\"verdict\":\"%s\",\"measured_mb_per_s\":%s,\"required_mb_per_s\":%s}", sep,
			   verdicts[x->check_verdict], a, b);
		sep = ",";
	}
	if (x->child_ran) {
		out_printf(o, "%s\"child\":{\"command\":", sep);
		out_json_str(o, x->child);
		if (x->child_ran == CHILD_NO_STATUS)
			out_puts(o, ",\"status\":null}");
		else
			out_printf(o, ",\"status\":\"0x%lx\"}",
				   (unsigned long)((uint64_t)x->child_status_hi << 32 | x->child_status_lo));
		sep = ",";
	}
	if (x->warning[0]) {
		out_printf(o, "%s\"warning\":", sep);
		out_json_str(o, x->warning);
	}
	out_puts(o, "}");
}

/* The end of a final JSON object: the extras inside it, so that a run
 * prints one document. */
void json_close(struct out *o, const struct run_extras *x)
{
	if (has_extras(x)) {
		out_puts(o, ",\"extras\":");
		extras_json(o, x);
	}
	out_puts(o, "}\n");
}

void extras_text(struct out *o, const struct report_opts *ro, const struct hw *hw, const struct count_run *r,
		 const struct run_extras *x)
{
	const char *c = ro->format == REPORT_CSV ? "# " : "";
	char a[32], b[32], pct[16];
	uint64_t ticks = count_enabled(r), rd = 0, wr = 0;
	bool imc = report_dram_bytes(r, &rd, &wr);

	if (x->load_kind) {
		enum load_kind k = (enum load_kind)(x->load_kind - 1);
		uint64_t bps = ticks ? u64_muldiv(x->load_bytes, hw->tick_hz, ticks) : 0;
		fmt_fixed(a, sizeof(a), bps, 1000000, 3);
		out_printf(o, "%sload: %s%s on %u processor%s, %lu MiB working set: %lu bytes moved (STREAM counts %u per "
			      "element) = %s MB/s\n",
			   c, load_kind_name(k), x->load_nt ? " with non-temporal stores" : "", x->load_cpus,
			   x->load_cpus == 1 ? "" : "s", (unsigned long)(x->load_size >> 20), (unsigned long)x->load_bytes,
			   load_bytes_per_element(k), a);
		if (x->core_one_cpu)
			out_printf(o, "%s  (core events count on the processor running uncore.efi only, not on the load's "
				      "other %u)\n", c, x->load_cpus - 1);
		if (imc && x->load_bytes) {
			fmt_fixed(b, sizeof(b), rd + wr, x->load_bytes, 3);
			char up[16];
			count_free_upper(r, up, sizeof(up));
			out_printf(o, "%scross-check: the %s moved %lu bytes (read %lu + write %lu) in the same window: %s x "
				      "the load's count\n",
				   c, up, (unsigned long)(rd + wr), (unsigned long)rd, (unsigned long)wr, b);
			if (k != LOAD_READ && !x->load_nt)
				out_printf(o, "%s  (without --nt every line the load writes is first read into the cache "
					      "(write-allocate), which STREAM does not count: expect about %s)\n",
					   c, k == LOAD_WRITE ? "2" : k == LOAD_COPY ? "1.5" : "1.33");
			if (hw->msr_mode == HW_MSR_EMULATED)
				out_printf(o, "%s  (the %s is emulated: its counts follow the emulator's rates, not this load)\n", c,
					   up);
		}
	}
	if (x->peak_mb_s) {
		uint64_t total = ticks ? u64_muldiv(rd + wr, hw->tick_hz, ticks) : 0;
		pct_text(pct, sizeof(pct), total / 1000000, x->peak_mb_s, false); /* above 100: see x->warning */
		out_printf(o, "%speak: %lu MB/s from SMBIOS (%s)%s%s%s\n", c, (unsigned long)x->peak_mb_s, x->peak_note,
			   imc ? "; measured " : "", imc ? pct : "", imc ? "% of it" : "");
	} else if (x->peak_note[0]) {
		out_printf(o, "%speak: %s\n", c, x->peak_note);
	}
	if (x->check) {
		static const char *what[] = { "", "read+write", "read", "write" };
		kb_fmt(a, sizeof(a), x->check_measured_kb_s);
		kb_fmt(b, sizeof(b), x->check_required_kb_s);
		if (x->check_verdict == VERDICT_NONE && x->warning[0])
			out_printf(o, "%sNO VERDICT: the figure is above the SMBIOS peak (see the warning); %s bandwidth %s "
				      "MB/s, %s MB/s required\n", c, what[x->check], a, b);
		else if (x->check_verdict == VERDICT_NONE)
			out_printf(o, "%sNO VERDICT: the run was stopped early; %s bandwidth %s MB/s until then, %s MB/s "
				      "required\n", c, what[x->check], a, b);
		else
			out_printf(o, "%s%s: %s bandwidth %s MB/s %s the required %s MB/s\n", c,
				   verdicts[x->check_verdict], what[x->check], a,
				   x->check_verdict == VERDICT_PASS ? ">=" : "<", b);
	}
	if (x->child_ran) {
		uint64_t cs = (uint64_t)x->child_status_hi << 32 | x->child_status_lo;
		unsigned long ms = (unsigned long)u64_muldiv(ticks, 1000, hw->tick_hz);
		char hex[20];
		if (x->child_ran == CHILD_NO_STATUS)
			out_printf(o, "%schild: %s ran for %lu ms; its status is UNKNOWN: the Shell left no %%lasterror%% for "
				      "it\n", c, x->child, ms);
		else if (cs == 0)
			out_printf(o, "%schild: %s returned %s after %lu ms\n", c, x->child, efi_status_str(cs, hex), ms);
		else if (efi_status_name(cs))
			out_printf(o, "%schild: %s FAILED: %s (0x%lx) after %lu ms\n", c, x->child, efi_status_name(cs),
				   (unsigned long)cs, ms);
		else
			out_printf(o, "%schild: %s FAILED: status 0x%lx after %lu ms\n", c, x->child, (unsigned long)cs, ms);
	}
	if (x->warning[0])
		out_printf(o, "%swarning: %s\n", c, x->warning);
}
