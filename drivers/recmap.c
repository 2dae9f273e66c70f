#include "recmap.h"

#include <string.h>

#include "fmt.h"
#include "pmu.h"
#include "skl.h"

#define COPY(dst, src) fmt_snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

void rec_from_info(struct rec *r, const struct platform_info *pi)
{
	COPY(r->vendor, pi->cpu.vendor);
	COPY(r->brand, pi->cpu.brand);
	COPY(r->topology, pi->cpu.topology_source);
	COPY(r->model_name, pi->model_name);
	r->family = pi->cpu.family;
	r->model = pi->cpu.model;
	r->stepping = pi->cpu.stepping;
	r->cores = pi->cpu.cores;
	r->threads = pi->cpu.threads;
	r->phys_bits = pi->cpu.phys_addr_bits;
	r->hypervisor = pi->cpu.hypervisor;
	r->msr_mode = (uint8_t)pi->msr_mode;
	COPY(r->emulator, pi->emulator);
	r->msrs_probed = pi->msrs_probed;
	r->cbo_config_st = pi->cbo_config_st;
	r->cbo_config_raw = pi->cbo_config_raw;
	r->cbo_count = pi->cbo_count;
	r->in_use_known = pi->use.known;
	r->in_use = pi->use.in_use;
	r->global_ctrl = pi->use.global_ctrl;
	r->selects_checked = pi->use.selects_checked;
	r->nbusy = pi->use.nbusy < REC_MAX_BUSY ? pi->use.nbusy : REC_MAX_BUSY;
	for (uint32_t i = 0; i < r->nbusy; i++)
		r->busy[i] = (struct rec_busy){ pi->use.busy[i].msr, pi->use.busy[i].value };
	r->host_bridge_st = pi->host_bridge_st;
	r->mchbar_st = pi->mchbar_st;
	r->hb_vendor = pi->hb_vendor;
	r->hb_device = pi->hb_device;
	r->mchbar_raw = pi->mchbar_raw;
	r->tsc_hz = pi->tsc_hz;
	r->nfaults = pi->nfaults < REC_MAX_FAULTS ? pi->nfaults : REC_MAX_FAULTS;
	for (uint32_t i = 0; i < r->nfaults; i++)
		r->faults[i] = (struct rec_fault){ pi->faults[i].msr, pi->faults[i].write };
	r->verdict = pi->verdict;
	COPY(r->verdict_reason, pi->verdict_reason);
}

static void info_from_rec(struct platform_info *pi, const struct rec *r)
{
	static char vendor_model[REC_STR];

	memset(pi, 0, sizeof(*pi));
	COPY(pi->cpu.vendor, r->vendor);
	COPY(pi->cpu.brand, r->brand);
	pi->cpu.topology_source = r->topology;
	pi->cpu.family = r->family;
	pi->cpu.model = r->model;
	pi->cpu.stepping = r->stepping;
	pi->cpu.cores = r->cores;
	pi->cpu.threads = r->threads;
	pi->cpu.phys_addr_bits = r->phys_bits;
	pi->cpu.hypervisor = r->hypervisor;
	pi->cpu.is_intel = !strcmp(r->vendor, "GenuineIntel");
	COPY(vendor_model, r->model_name);
	pi->model_name = vendor_model[0] ? vendor_model : NULL;
	pi->msr_mode = (enum hw_msr_mode)r->msr_mode;
	pi->emulator = r->emulator;
	pi->msrs_probed = r->msrs_probed;
	pi->cbo_config_st = (enum unc_status)r->cbo_config_st;
	pi->cbo_config_raw = r->cbo_config_raw;
	pi->no_cbo_banks = r->cbo_config_raw & UNC_CBO_CONFIG_NO_CBO_BANKS;
	pi->cbo_count = r->cbo_count;
	pi->use.known = r->in_use_known;
	pi->use.in_use = r->in_use;
	pi->use.global_ctrl = r->global_ctrl;
	pi->use.selects_checked = r->selects_checked;
	pi->use.nbusy = r->nbusy;
	for (uint32_t i = 0; i < r->nbusy; i++)
		pi->use.busy[i] = (struct msr_value){ r->busy[i].msr, r->busy[i].value };
	pi->host_bridge_st = (enum unc_status)r->host_bridge_st;
	pi->mchbar_st = (enum unc_status)r->mchbar_st;
	pi->hb_vendor = r->hb_vendor;
	pi->hb_device = r->hb_device;
	pi->hb_generation = skl_host_bridge_name(r->hb_vendor, r->hb_device);
	pi->mchbar_raw = r->mchbar_raw;
	pi->mchbar_enabled = r->mchbar_raw & SKL_MCHBAR_ENABLE;
	pi->mchbar_state = imc_check(r->hb_vendor, r->mchbar_raw, r->phys_bits, &pi->mchbar_base);
	pi->tsc_hz = r->tsc_hz;
	pi->nfaults = r->nfaults;
	for (uint32_t i = 0; i < r->nfaults; i++)
		pi->faults[i] = (struct msr_access){ r->faults[i].msr, r->faults[i].write };
	pi->verdict = (enum unc_status)r->verdict;
	COPY(pi->verdict_reason, r->verdict_reason);
}

void rec_from_run(struct rec *r, const struct stat_run *run, const struct report_opts *ro)
{
	r->ncbo = run->ncbo;
	r->ncbo_found = run->ncbo_found;
	r->ngroups = run->ngroups;
	r->rotations = run->rotations;
	r->per_box = ro->per_box;
	r->elapsed = stat_enabled(run);
	r->imc_base = run->imc_base;
	r->nevents = run->nev < REC_MAX_EVENTS ? run->nev : REC_MAX_EVENTS;
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct stat_event *e = &run->ev[i];
		struct rec_event *x = &r->ev[i];
		COPY(x->name, e->spec.name);
		x->unit = e->spec.unit;
		x->code = e->spec.code;
		x->umask = e->spec.umask;
		x->thr = e->spec.thr;
		x->inv = e->spec.inv;
		x->edge = e->spec.edge;
		x->imc = e->spec.imc;
		x->moved = e->moved;
		x->still = e->spec.unit == EV_UNIT_IMC ? 0 : stat_still(run, i);
		memcpy(x->box, e->total.box, sizeof(x->box));
		x->running = e->total.running;
	}
}

void rec_sample_from_run(struct rec_sample *s, const struct stat_run *run, uint64_t now)
{
	s->t = now - run->t_start;
	for (unsigned i = 0; i < run->nev && i < REC_MAX_EVENTS; i++) {
		memcpy(s->box[i], run->ev[i].total.box, sizeof(s->box[i]));
		s->running[i] = run->ev[i].total.running;
	}
}

static void run_from_rec(struct stat_run *run, const struct rec *r)
{
	memset(run, 0, sizeof(*run));
	run->ncbo = r->ncbo;
	run->ncbo_found = r->ncbo_found ? r->ncbo_found : r->ncbo; /* older records: as programmed */
	run->ngroups = r->ngroups;
	run->rotations = r->rotations;
	run->imc_base = r->imc_base;
	run->nev = r->nevents;
	run->t_start = run->t_mark = 0;
	run->t_end = r->elapsed;
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct rec_event *x = &r->ev[i];
		struct stat_event *e = &run->ev[i];
		COPY(e->spec.name, x->name);
		e->spec.unit = x->unit;
		e->spec.code = x->code;
		e->spec.umask = x->umask;
		e->spec.thr = x->thr;
		e->spec.inv = x->inv;
		e->spec.edge = x->edge;
		e->spec.imc = x->imc;
		/* IMC: moved as stored; MSR events: every box but the still ones,
		 * so a record written before `still` existed shows none. */
		e->moved = x->unit == EV_UNIT_IMC ? x->moved
			   : (uint8_t)(~x->still & ((1u << (x->unit == EV_UNIT_CBO ? run->ncbo : 1)) - 1));
		memcpy(e->total.box, x->box, sizeof(e->total.box));
		e->total.running = x->running;
	}
}

struct replay {
	struct out *o;
	const struct report_opts *ro;
	const struct hw *hw;
	struct stat_run *run;
	bool bw;
};

/* Intervals: each sample holds the totals then; the report prints the
 * difference from the previous one, as it did during the run. */
static void replay_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	struct replay *p = ctx;
	struct stat_run *run = p->run;

	for (uint32_t i = 0; i < r->nevents; i++) {
		memcpy(run->ev[i].total.box, s->box[i], sizeof(s->box[i]));
		run->ev[i].total.running = s->running[i];
	}
	if (p->bw)
		report_bw_interval(p->o, p->ro, p->hw, run, s->t);
	else
		report_interval(p->o, p->ro, p->hw, run, s->t);
	stat_mark(run, s->t);
}

enum unc_status rec_print(struct out *o, const uint8_t *data, size_t len, enum report_format format, const char *sep,
			  const char *stored_as, char *err, size_t errsize)
{
	static struct rec r;
	static struct stat_run run;
	static struct platform_info pi;
	enum unc_status st;

	if ((st = rec_decode(data, len, &r, NULL, NULL, err, errsize)))
		return st;
	struct hw hw = { .tick_hz = r.tsc_hz, .msr_mode = (enum hw_msr_mode)r.msr_mode,
			 .emulator = r.msr_mode == HW_MSR_EMULATED ? r.emulator : NULL };
	struct report_opts ro = { .format = format, .per_box = r.per_box, .intervals = r.nintervals > 0 };
	fmt_snprintf(ro.sep, sizeof(ro.sep), "%s", sep && *sep ? sep : ",");
	if (!hw.tick_hz) {
		fmt_snprintf(err, errsize, "the record has no TSC frequency");
		return UNC_E_INVALID;
	}
	if (format != REPORT_JSON) {
		char when[40] = "an unknown time";
		if (r.time.valid)
			rec_time_text(&r.time, when, sizeof(when));
		out_printf(o, "%srecord%s%s: `%s` by %s at %s, exit status: %s\n", format == REPORT_CSV ? "# " : "",
			   stored_as ? " " : "", stored_as ? stored_as : "", r.command, r.tool, when,
			   unc_strerror((enum unc_status)r.status));
	}
	if (!strcmp(r.command, "info")) {
		info_from_rec(&pi, &r);
		if (format == REPORT_JSON)
			info_print_json(o, &pi);
		else
			info_print(o, &pi);
		return UNC_OK;
	}
	bool bw = !strcmp(r.command, "bw");
	struct imc m = { .vendor = r.hb_vendor, .device = r.hb_device, .mchbar_raw = r.mchbar_raw, .base = r.imc_base,
			 .generation = skl_host_bridge_name(r.hb_vendor, r.hb_device) };
	run_from_rec(&run, &r);
	if (bw)
		report_bw_header(o, &ro, &hw, &run, &m);
	else
		report_header(o, &ro, &hw, &run);
	if (r.nintervals) {
		struct replay p = { o, &ro, &hw, &run, bw };
		if ((st = rec_decode(data, len, &r, replay_sample, &p, err, errsize))) /* the same again, then the samples */
			return st;
		run_from_rec(&run, &r); /* the totals again, for the final report */
	}
	if (bw)
		report_bw_final(o, &ro, &hw, &run, &m, &r.x);
	else
		report_final(o, &ro, &hw, &run, &r.x);
	return UNC_OK;
}
