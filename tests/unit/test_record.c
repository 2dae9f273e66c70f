/* Stored results: the record layout (drivers/output/record.c) and the chunked
 * variable store (drivers/output/varstore.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/base/crc32.h"
#include "../../drivers/engine/load.h"
#include "../../drivers/engine/pmu.h"
#include "../../drivers/output/recmap.h"
#include "../../drivers/output/record.h"
#include "../../drivers/output/varstore.h"
#include "fake_vars.h"
#include "t.h"

static struct rec in, out;
/* A sample as numbers (the record holds it as bytes): up to TS_BOXES boxes an event. */
#define TS_BOXES 480
struct tsample {
	uint64_t t, running[REC_MAX_EVENTS], box[REC_MAX_EVENTS][TS_BOXES];
};
static struct tsample samples[3], seen[3];
static unsigned nseen;
/* The per-box values of in's events, as the writer stores them (rec_from_run). */
static uint8_t pb[REC_MAX_EVENTS][TS_BOXES * 13];

/* Box b of event ev: its total, group, number in the group, moved and still
 * bits, all different from box to box and event to event. */
static uint64_t box_total(unsigned ev, uint32_t b)
{
	return 1000000007ull * (ev + 1) + 7919ull * b + (uint64_t)b * b;
}

static bool box_moved(unsigned ev, uint32_t b)
{
	return (b * 7 + ev) % 3 != 0;
}

static bool box_still(unsigned ev, uint32_t b)
{
	return (b + ev) % 5 == 0;
}

static void le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Event ev of in counts in n boxes; with per_group, box b is box b % per_group
 * of group b / per_group. */
static void set_boxes(unsigned ev, uint32_t n, uint32_t per_group)
{
	struct rec_event *e = &in.ev[ev];
	uint8_t *p = pb[ev];

	T_ASSERT(n <= TS_BOXES);
	memset(p, 0, sizeof(pb[ev]));
	e->nboxes = n;
	e->spans = true;
	e->pb_total = (struct rec_span){ p, 8 * n };
	for (uint32_t b = 0; b < n; b++)
		le(p + 8 * b, box_total(ev, b), 8);
	p += 8 * n;
	e->pb_group = e->pb_id = (struct rec_span){ NULL, 0 };
	if (per_group) {
		e->pb_group = (struct rec_span){ p, 2 * n };
		e->pb_id = (struct rec_span){ p + 2 * n, 2 * n };
		for (uint32_t b = 0; b < n; b++) {
			le(p + 2 * b, b / per_group, 2);
			le(p + 2 * n + 2 * b, b % per_group, 2);
		}
		p += 4 * n;
	}
	e->pb_moved = (struct rec_span){ p, (n + 7) / 8 };
	e->pb_still = (struct rec_span){ p + (n + 7) / 8, (n + 7) / 8 };
	for (uint32_t b = 0; b < n; b++) {
		p[b / 8] |= (uint8_t)(box_moved(ev, b) << (b % 8));
		p[(n + 7) / 8 + b / 8] |= (uint8_t)(box_still(ev, b) << (b % 8));
	}
}

/* Every box of a decoded event as set_boxes made it. */
static void check_boxes(const struct rec_event *e, unsigned ev, uint32_t n, uint32_t per_group)
{
	unsigned bad = 0;

	T_EQ(e->nboxes, n);
	T_EQ(rec_ev_boxes(e), n);
	for (uint32_t b = 0; b < n; b++)
		bad += rec_box(e, b) != box_total(ev, b) || rec_box_moved(e, b) != box_moved(ev, b) ||
		       rec_box_still(e, b) != box_still(ev, b) ||
		       rec_box_group(e, b) != (per_group ? b / per_group : 0) ||
		       rec_box_id(e, b) != (per_group ? b % per_group : 0);
	T_EQ(bad, 0);
	T_EQ(rec_box(e, n), 0); /* past the boxes stored */
}

/* Two records the same: every field, and the per-box values byte for byte
 * (wherever each one's bytes are). */
static void same_rec(const struct rec *a, const struct rec *b)
{
	static struct rec x, y;

	x = *a, y = *b;
	for (uint32_t i = 0; i < REC_MAX_EVENTS; i++) {
		struct rec_span *sx[] = { &x.ev[i].pb_total, &x.ev[i].pb_group, &x.ev[i].pb_id, &x.ev[i].pb_moved,
					  &x.ev[i].pb_still };
		struct rec_span *sy[] = { &y.ev[i].pb_total, &y.ev[i].pb_group, &y.ev[i].pb_id, &y.ev[i].pb_moved,
					  &y.ev[i].pb_still };
		for (int k = 0; k < 5; k++) {
			T_EQ(sx[k]->len, sy[k]->len);
			if (sx[k]->len == sy[k]->len && sx[k]->len)
				T_EQ(memcmp(sx[k]->p, sy[k]->p, sx[k]->len), 0);
			sx[k]->p = sy[k]->p = NULL;
		}
	}
	x.nintervals = y.nintervals, x.version = y.version; /* what the decoder says of the bytes */
	memcpy(x.sample_off, y.sample_off, sizeof(x.sample_off));
	x.sample_len = y.sample_len;
	T_EQ(memcmp(&x, &y, sizeof(x)), 0);
}
static uint8_t buf[1 << 20];
static char err[300];

/* Every field set, to values that differ from each other. */
static void fill(struct rec *r, uint32_t nevents)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->tool, "uncore.efi 0.1.0");
	strcpy(r->command, "stat");
	r->time = (struct rec_time){ 2026, 11, 21, 21, 45, 7, 1, 123456789, -60, 1 };
	r->status = 3;
	strcpy(r->vendor, "GenuineIntel");
	strcpy(r->brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	strcpy(r->topology, "CPUID leaf 0xB");
	strcpy(r->model_name, "Skylake (desktop)");
	r->family = 6, r->model = 0x5E, r->stepping = 3, r->cores = 4, r->threads = 8, r->phys_bits = 39;
	r->hypervisor = 1, r->msr_mode = 1;
	strcpy(r->emulator, "NO_CBO_BANKS 5, UCLK 800.000 MHz");
	r->tsc_hz = 2600000000ull;
	r->tsc = (struct hw_tsc){ .source = 3, .ref = 1, .windows = 6, .spread_ppm = 12, .measured_hz = 2600000123ull,
				  .cpuid_hz = 2600000000ull };
	r->verdict = 2;
	strcpy(r->verdict_reason, "an uncore MSR faulted");
	r->ngroups = 2, r->rotations = 99, r->per_box = 1, r->elapsed = 2600123456ull;
	r->interval = 1000;
	r->x = (struct run_extras){ .load_kind = LOAD_TRIAD + 1, .load_nt = 1, .load_cpus = 2, .load_size = 64ull << 20,
				    .load_bytes = 123456789012ull, .peak_mb_s = 51200, .check = CHECK_WRITE,
				    .check_required_kb_s = 1500000, .check_measured_kb_s = 999955,
				    .check_verdict = VERDICT_NONE, .child_status_lo = 7, .child_status_hi = 0x80000000,
				    .child_ran = 1 };
	strcpy(r->x.peak_note, "2 of 2 devices at 3200 MT/s x 64 bits");
	strcpy(r->x.child, "fs0:\\child.efi 500 7");
	strcpy(r->x.warning, "read+write 99.000 MB/s is above the SMBIOS peak of 51200 MB/s");
	r->x.core_one_cpu = 1;
	/* the drivers that matched, faults by address space, the header's box
	 * counts and where the free-running counters are */
	r->npmus = 2;
	for (uint32_t k = 0; k < r->npmus; k++) {
		struct rec_pmu *x = &r->pmus[k];
		snprintf(x->driver, sizeof(x->driver), "driver-%u", k);
		snprintf(x->model, sizeof(x->model), "Model %u", k);
		x->probed = 0xF0 | k;
		for (int u = 0; u < 8; u++) {
			x->boxes[u] = 10 * k + (uint64_t)u;
			x->found[u] = 20 * k + (uint64_t)u + 1;
			x->base[u] = 0xFED10000ull + 0x100 * k + (uint64_t)u;
			x->facts[u] = 0x123456789ull * (k + 1) + (uint64_t)u;
			for (int b = 0; b < 8; b++) /* a PCI box: bus 0xff, device 16 + b, function u */
				x->pci[u * 8 + b] = 0xff0000u | (uint32_t)(16 + b) << 8 | (uint32_t)u;
		}
		x->use_checked = 1, x->use_known = 1, x->in_use = (uint8_t)k;
		x->global_ctrl = 0x20000000 + k, x->selects_checked = 11 + k;
		x->nbusy = 3;
		x->busy[0] = (struct rec_busy2){ { PMU_MSR, 0, 0, 0, 0xE01 }, 0x20000000 };
		x->busy[1] = (struct rec_busy2){ { PMU_PCI, 0xff, 0x1f, 7, 0xF4 }, 0x10100 + k };
		x->busy[2] = (struct rec_busy2){ { PMU_MMIO, 0, 0, 0, 0xFED15040 }, 7 };
	}
	r->nfaults2 = 2;
	r->faults2[0] = (struct rec_fault2){ { PMU_MSR, 0, 0, 0, 0x396 }, 0 };
	r->faults2[1] = (struct rec_fault2){ { PMU_PCI, 0x7f, 0x10, 1, 0xD8 }, 1 };
	r->nboxinfo = 1;
	r->boxinfo[0] = (struct rec_boxinfo){ "CBo", "cbo", "MSR_UNC_CBO_CONFIG", 4, 5 };
	r->programs = 1;
	strcpy(r->where, "at MCHBAR 0xfed10000 (host bridge 8086:1910, Skylake)");
	strcpy(r->free_pmu, "imc");
	strcpy(r->req_note, "request counts x 64 bytes overstate traffic");
	r->id = (struct smbios_id){ "ACME", "SYS-1", "S\"N\\1", "Board Co", "X11DPi", "BS-9", "AMI", "3.1a", "07/25/2019" };
	memset(r->id.sys_product, 'p', SMBIOS_STR - 1); /* 64 characters, the longest */
	r->boot_seq = 4000000001u;
	r->nevents = nevents;
	for (uint32_t i = 0; i < nevents; i++) {
		struct rec_event *e = &r->ev[i];
		snprintf(e->name, sizeof(e->name), "EVENT_%u", i);
		e->running = 2600000000ull - i;
		snprintf(e->driver, sizeof(e->driver), "driver-%u", i % 2);
		unsigned n = i % 100; /* every name fits its field */
		snprintf(e->pmu, sizeof(e->pmu), "pmu%u", n);
		snprintf(e->box_label, sizeof(e->box_label), "box%u", n);
		snprintf(e->box_noun, sizeof(e->box_noun), "Box%u", n);
		snprintf(e->short_name, sizeof(e->short_name), "S%u", n);
		snprintf(e->count_word, sizeof(e->count_word), "words%u", n);
		snprintf(e->enc_prefix, sizeof(e->enc_prefix), "BAR%u+", n);
		e->encoding = 0x408f00ull + i;
		e->kind = (uint8_t)(i % 3), e->width = (uint8_t)(32 + i);
		e->role = (uint8_t)(i % 3), e->clock = (uint8_t)(i & 1);
		snprintf(e->group_noun, sizeof(e->group_noun), "grp%u", n);
		if (r == &in)
			set_boxes(i, 1 + i % 8, 4);
	}
}

static void on_sample(void *ctx, const struct rec *r, const struct rec_sample *s)
{
	(void)ctx;
	if (nseen < 3) {
		struct tsample *x = &seen[nseen];
		memset(x, 0, sizeof(*x));
		x->t = s->t;
		for (uint32_t i = 0; i < r->nevents; i++) {
			x->running[i] = rec_sample_running(r, s, i);
			for (uint32_t b = 0; b < rec_ev_boxes(&r->ev[i]) && b < TS_BOXES; b++)
				x->box[i][b] = rec_sample_box(r, s, i, b);
		}
	}
	nseen++;
}

static void put_sample(struct rec_buf *b, const struct rec *r, const struct tsample *s)
{
	uint32_t n[REC_MAX_EVENTS];
	const uint64_t *box[REC_MAX_EVENTS];

	for (uint32_t i = 0; i < r->nevents; i++)
		n[i] = rec_ev_boxes(&r->ev[i]), box[i] = s->box[i];
	rec_put_sample(b, r->nevents, n, s->t, s->running, box);
}

static size_t encode(const struct rec *r, unsigned nsamples)
{
	struct rec_buf b = { buf, 0, sizeof(buf), false };

	rec_begin(&b);
	rec_put(&b, r);
	for (unsigned i = 0; i < nsamples; i++)
		put_sample(&b, r, &samples[i]);
	T_EQ(rec_end(&b), UNC_OK);
	return b.len;
}

/* Sample i's values for events of n boxes. */
static void make_samples(unsigned count, uint32_t nevents)
{
	for (unsigned i = 0; i < count; i++) {
		memset(&samples[i], 0, sizeof(samples[i]));
		samples[i].t = 1000000000ull * (i + 1);
		for (unsigned e = 0; e < nevents; e++) {
			samples[i].running[e] = 1000 * i + e;
			for (uint32_t k = 0; k < rec_ev_boxes(&in.ev[e]); k++)
				samples[i].box[e][k] = 77777ull * i + 100000 * e + k;
		}
	}
}

static void round_trip_every_field(void)
{
	fill(&in, 3);
	make_samples(3, 3);
	size_t len = encode(&in, 3);
	nseen = 0;
	T_EQ(rec_decode(buf, len, &out, on_sample, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(out.nintervals, 3); /* counted by the decoder */
	T_EQ(out.version, REC_VERSION); /* the layout it was read in */
	same_rec(&in, &out);
	T_EQ(nseen, 3);
	T_EQ(memcmp(seen, samples, sizeof(seen)), 0);
	for (unsigned e = 0; e < 3; e++)
		check_boxes(&out.ev[e], e, 1 + e % 8, 4);
	/* spot checks, field by field */
	T_STREQ(out.emulator, "NO_CBO_BANKS 5, UCLK 800.000 MHz");
	T_EQ(out.time.timezone == -60, 1);
	T_EQ(rec_box(&out.ev[2], 2), 3000000021ull + 2 * 7919 + 4);
	T_EQ(out.tsc.spread_ppm, 12);
	T_EQ(out.tsc.measured_hz, 2600000123ull);
	T_STREQ(out.pmus[1].driver, "driver-1");
	T_EQ(out.pmus[1].busy[1].reg.space, PMU_PCI);
	T_EQ(out.pmus[1].busy[1].reg.func, 7);
	T_EQ(out.pmus[0].facts[7], 0x123456789ull + 7);
	T_EQ(out.faults2[1].reg.bus, 0x7f);
	T_EQ(out.faults2[1].write, 1);
	T_STREQ(out.boxinfo[0].from, "MSR_UNC_CBO_CONFIG");
	T_STREQ(out.ev[2].count_word, "words2");
	T_STREQ(out.id.sys_serial, "S\"N\\1");
	T_EQ(strlen(out.id.sys_product), 64);
	T_STREQ(out.id.bios_date, "07/25/2019");
	T_EQ(out.boot_seq, 4000000001u);
	T_EQ(out.ev[2].encoding, 0x408f02);
	/* the header, as documented */
	T_EQ(buf[0], 'U');
	T_EQ(buf[3], 'R');
	T_EQ(buf[4] | buf[5] << 8, REC_VERSION);
	T_EQ(REC_VERSION, 3);
	T_EQ(crc32_ieee("123456789", 9), 0xCBF43926); /* the check value of CRC-32 */
}

#define BAD(mutate, want)                                                              \
	do {                                                                           \
		size_t len_ = encode(&in, 2);                                          \
		mutate;                                                                \
		err[0] = '\0';                                                         \
		T_EQ(rec_decode(buf, len_, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID); \
		T_CONTAINS(err, want);                                                 \
	} while (0)

static const uint8_t *find_bytes(const uint8_t *p, size_t len, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(p + i, want, n))
			return p + i;
	return NULL;
}

/* An event of n boxes in groups of per_group (8 sockets of 60 CHAs, of 12
 * channels): every box's total, group, number, moved and still bit, and
 * every sample's box, survive exactly; the bytes as record.md gives them
 * (inside an event 0x25: the boxes, u32; 0x26: the totals, n u64; a sample
 * under 0x004C: t, then per event its running and its n boxes). Then through
 * chunked variables. */
static void round_trip_boxes(uint32_t n, uint32_t per_group)
{
	fill(&in, 2);
	set_boxes(0, n, per_group);
	set_boxes(1, 3, 0); /* another event, of few boxes and no groups */
	make_samples(3, 2);
	size_t len = encode(&in, 3);
	nseen = 0;
	err[0] = '\0';
	T_EQ(rec_decode(buf, len, &out, on_sample, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	same_rec(&in, &out);
	check_boxes(&out.ev[0], 0, n, per_group);
	check_boxes(&out.ev[1], 1, 3, 0);
	T_EQ(rec_box_group(&out.ev[0], n - 1), 7); /* socket 7 */
	T_EQ(rec_box_id(&out.ev[0], n - 1), per_group - 1);
	T_EQ(nseen, 3);
	T_EQ(memcmp(seen, samples, sizeof(seen)), 0);
	T_EQ(seen[2].box[0][n - 1], 77777ull * 2 + n - 1);
	/* the last sample: tag 0x004C, its last u64 box 2 of event 1 */
	size_t slen = 8 + (8 + 8 * n) + (8 + 8 * 3), at = len - slen - 6;
	T_EQ(buf[at] | buf[at + 1] << 8, 0x004C);
	T_EQ(buf[at + 2] | buf[at + 3] << 8 | buf[at + 4] << 16, slen);
	T_EQ(buf[len - 8] | buf[len - 7] << 8 | buf[len - 6] << 16, 77777ull * 2 + 100000 + 2);
	/* event 0's box count and totals */
	const uint8_t count[] = { 0x25, 0, 4, 0, 0, 0, (uint8_t)n, (uint8_t)(n >> 8), 0, 0,
				  0x26, 0, (uint8_t)(8 * n), (uint8_t)(8 * n >> 8), 0, 0 };
	const uint8_t *p = find_bytes(buf, len, count, sizeof(count));
	T_ASSERT(p != NULL);
	T_EQ(p[sizeof(count)] | p[sizeof(count) + 1] << 8, (uint16_t)box_total(0, 0));
	/* through chunked variables (chunks of 1000 bytes), then decoded again */
	static struct fake_vars v;
	static uint8_t back[1 << 20];
	unsigned chunks;
	size_t blen;
	fake_vars_init(&v, 100000, 1 << 22);
	T_EQ(var_save(&v.vs, "Many", buf, len, 1000, &chunks, err, sizeof(err)), UNC_OK);
	T_ASSERT(chunks >= len / 1000);
	T_EQ(var_load(&v.vs, "Many", back, sizeof(back), &blen, err, sizeof(err)), UNC_OK);
	fake_vars_free(&v);
	T_EQ(blen, len);
	T_EQ(rec_decode(back, blen, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
	check_boxes(&out.ev[0], 0, n, per_group);
	/* a per-box field of the wrong length is refused, naming it */
	in.ev[0].pb_group.len -= 2;
	BAD((void)0, "event 0: box groups have");
	set_boxes(0, n, per_group);
	in.ev[0].nboxes = n + 1;
	char want[80];
	snprintf(want, sizeof(want), "event 0: box totals have %u bytes, not %u for %u boxes", 8 * n, 8 * (n + 1), n + 1);
	BAD((void)0, want);
}

/* 8 sockets x 60 CHAs, and 8 sockets x 12 iMC channels. */
static void round_trip_480_boxes(void)
{
	round_trip_boxes(480, 60);
}

static void round_trip_96_boxes(void)
{
	round_trip_boxes(96, 12);
}

/* Layout 2 (the previous writer's; two events of 16 boxes, two sockets of
 * eight channels, samples under 0x004B): the bytes the previous writer
 * stored, kept as a fuzzer seed (its first byte is the fuzzer's mode), still
 * decode to every box, group, number, moved and still bit as written. */
static size_t read_seed(const char *name)
{
	char path[200];
	static uint8_t raw[1 << 16];

	snprintf(path, sizeof(path), "tests/fuzz/corpus/decode/%s", name);
	FILE *f = fopen(path, "rb");
	T_ASSERT(f != NULL);
	size_t n = fread(raw, 1, sizeof(raw), f);
	fclose(f);
	T_ASSERT(n > 1);
	memcpy(buf, raw + 1, n - 1);
	return n - 1;
}

static void layout_2_sixteen_boxes_decode(void)
{
	size_t len = read_seed("record_v2_16boxes");
	nseen = 0;
	err[0] = '\0';
	T_EQ(rec_decode(buf, len, &out, on_sample, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(out.version, 2);
	T_EQ(out.nevents, 2);
	unsigned bad = 0;
	for (unsigned e = 0; e < 2; e++) {
		const struct rec_event *x = &out.ev[e];
		T_EQ(x->nboxes, 16);
		T_EQ(x->running, 2000000000ull - e);
		T_STREQ(x->group_noun, "socket");
		for (uint32_t b = 0; b < 16; b++)
			bad += rec_box(x, b) != 1000 * e + 10 * b + 1 || rec_box_group(x, b) != b / 8 ||
			       rec_box_id(x, b) != b % 8 || rec_box_moved(x, b) != (b != 15) ||
			       rec_box_still(x, b) != (b == 15);
	}
	T_EQ(bad, 0);
	T_EQ(nseen, 2);
	for (unsigned i = 0; i < 2; i++)
		for (unsigned e = 0; e < 2; e++) {
			T_EQ(seen[i].t, 1000000000ull * (i + 1));
			T_EQ(seen[i].running[e], 1000000000ull * (i + 1) - e);
			for (uint32_t b = 0; b < 16; b++)
				bad += seen[i].box[e][b] != 333ull * (i + 1) + 10 * e + b + 1;
		}
	T_EQ(bad, 0);
	/* a layout-2 event of more than 16 boxes is refused (the byte of 0x19) */
	static const uint8_t nb[] = { 0x19, 0, 1, 0, 0, 0, 16 };
	uint8_t *p = (uint8_t *)find_bytes(buf, len, nb, sizeof(nb));
	T_ASSERT(p != NULL);
	p[6] = 17;
	uint32_t crc = crc32_ieee(buf + REC_HEADER_SIZE, len - REC_HEADER_SIZE);
	le(buf + 12, crc, 4);
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "event 0 has kind 0, 17 boxes, role 1, clock 0, width 48");
}

/* The fuzzer's seeds decode: layout 1 (the Skylake client's record) and
 * layout 3 (two events of 8 sockets x 12 channels, two samples). */
static void fuzzer_seeds_decode(void)
{
	size_t len = read_seed("record_stat");
	err[0] = '\0';
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(out.version, 1);
	T_ASSERT(out.nevents > 0);
	len = read_seed("record_v3_96boxes");
	nseen = 0;
	T_EQ(rec_decode(buf, len, &out, on_sample, NULL, err, sizeof(err)), UNC_OK);
	T_EQ(out.version, 3);
	T_EQ(out.nevents, 2);
	T_EQ(out.ev[1].nboxes, 96);
	T_EQ(rec_box(&out.ev[1], 95), 125000000ull + 95000);
	T_EQ(rec_box_group(&out.ev[1], 95), 7);
	T_EQ(rec_box_id(&out.ev[1], 95), 11);
	T_EQ(nseen, 2);
	T_EQ(seen[1].box[1][95], 125000000ull + 95000);
	T_EQ(seen[0].box[0][95], (62500000ull + 95000) / 2);
}

static void put_tlv(struct rec_buf *b, uint16_t tag, const void *v, uint32_t len)
{
	uint8_t tl[6] = { (uint8_t)tag, (uint8_t)(tag >> 8), (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
			  (uint8_t)(len >> 24) };

	rec_put_raw(b, tl, sizeof(tl));
	rec_put_raw(b, v, len);
}

static void put_u64s(uint8_t *p, const uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			p[8 * i + k] = (uint8_t)(v[i] >> (8 * k));
}

/* A version-1 record as written before boxes 4-7 existed, typed from the
 * layout (record.h): no ncbo_found, no box_hi, samples with 4 boxes. */
static void version_1_record_with_four_boxes_decodes(void)
{
	struct rec_buf b = { buf, 0, sizeof(buf), false };
	uint8_t ncbo[4] = { 4, 0, 0, 0 }, ev[6 + 3 + 6 + 32], sample[8 + 40];
	const uint64_t boxes[4] = { 11, 12, 13, 14 }, smp[5] = { 7, 99, 1, 2, 3 }; /* t; running, boxes 0-2 */

	rec_begin(&b);
	put_tlv(&b, 0x0002, "stat", 4);
	put_tlv(&b, 0x0040, ncbo, 4);
	memcpy(ev, "\x01\x00\x03\x00\x00\x00" "EVX" "\x0a\x00\x20\x00\x00\x00", 15); /* name, then box (32 bytes) */
	put_u64s(ev + 15, boxes, 4);
	put_tlv(&b, 0x0047, ev, sizeof(ev));
	memset(sample, 0, sizeof(sample));
	put_u64s(sample, smp, 5);
	put_tlv(&b, 0x0048, sample, sizeof(sample));
	T_EQ(rec_end(&b), UNC_OK);
	buf[4] = 1; /* layout version 1 (rec_end writes the current one; the CRC covers the body only) */
	nseen = 0;
	err[0] = '\0';
	T_EQ(rec_decode(buf, b.len, &out, on_sample, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(err, "");
	T_EQ(out.version, 1);
	/* converted by the driver that wrote it: 4 CBos, the count register's
	 * figure absent, so as programmed; the event counts in the 4 CBos */
	T_EQ(out.nboxinfo, 1);
	T_EQ(out.boxinfo[0].n, 4);
	T_EQ(out.boxinfo[0].found, 4);
	T_EQ(out.ev[0].nboxes, 4);
	T_STREQ(out.ev[0].name, "EVX");
	T_EQ(rec_box(&out.ev[0], 3), 14);
	T_EQ(rec_box(&out.ev[0], 4), 0);
	T_EQ(nseen, 1);
	T_EQ(seen[0].t, 7);
	T_EQ(seen[0].running[0], 99);
	T_EQ(seen[0].box[0][2], 3);
	T_EQ(seen[0].box[0][4], 0);
}

/* ---- layout 1: records written before drivers, typed by hand ---- */

/* A layout-1 field writer: tag, length, little-endian value. */
static void v1_num(struct rec_buf *b, uint16_t tag, uint64_t v, unsigned n)
{
	uint8_t le[8];

	for (unsigned i = 0; i < n; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	put_tlv(b, tag, le, n);
}

static void v1_str(struct rec_buf *b, uint16_t tag, const char *s)
{
	put_tlv(b, tag, s, (uint32_t)strlen(s));
}

static void v1_boxes(struct rec_buf *b, uint16_t tag, const uint64_t *v)
{
	uint8_t x[32];

	put_u64s(x, v, 4);
	put_tlv(b, tag, x, sizeof(x));
}

struct v1_event {
	const char *name;
	uint8_t unit, code, umask, thr, imc, moved, still;
	uint64_t box[8], running;
};

/* One event, its fields nested under tag 0x0047 (record.c, event_fields
 * 0x01 to 0x0D). */
static void v1_event(struct rec_buf *b, const struct v1_event *e)
{
	static uint8_t body[512];
	struct rec_buf eb = { body, 0, sizeof(body), false };

	v1_str(&eb, 0x01, e->name);
	v1_num(&eb, 0x02, e->unit, 1);
	v1_num(&eb, 0x03, e->code, 1);
	v1_num(&eb, 0x04, e->umask, 1);
	v1_num(&eb, 0x05, e->thr, 1);
	v1_num(&eb, 0x06, 0, 1); /* inv */
	v1_num(&eb, 0x07, 0, 1); /* edge */
	v1_num(&eb, 0x08, e->imc, 1);
	v1_num(&eb, 0x09, e->moved, 1);
	v1_boxes(&eb, 0x0A, e->box);
	v1_num(&eb, 0x0B, e->running, 8);
	v1_num(&eb, 0x0C, e->still, 1);
	v1_boxes(&eb, 0x0D, e->box + 4);
	put_tlv(b, 0x0047, body, (uint32_t)eb.len);
}

/* The platform fields every layout-1 record carried (record.c, top 0x0001
 * to 0x002F): a Skylake desktop part, 4 CBos, host bridge 8086:191F. */
static void v1_platform(struct rec_buf *b, const char *command)
{
	static const uint8_t time[15] = { 0xEA, 0x07, 11, 21, 21, 45, 7, 0, 0, 0, 0, 0, 0xC4, 0xFF, 1 };

	v1_str(b, 0x0001, "uncore.efi 0.1.0");
	v1_str(b, 0x0002, command);
	put_tlv(b, 0x0003, time, sizeof(time)); /* 2026-11-21 21:45:07, UTC-60 */
	v1_num(b, 0x0004, UNC_OK, 4);
	v1_str(b, 0x0010, "GenuineIntel");
	v1_str(b, 0x0011, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	v1_str(b, 0x0012, "CPUID leaf 0xB");
	v1_str(b, 0x0013, "Skylake (desktop)");
	v1_num(b, 0x0014, 6, 4);
	v1_num(b, 0x0015, 0x5E, 4);
	v1_num(b, 0x0016, 3, 4);
	v1_num(b, 0x0017, 4, 4);
	v1_num(b, 0x0018, 8, 4);
	v1_num(b, 0x0019, 39, 4);
	v1_num(b, 0x001A, 0, 1);
	v1_num(b, 0x001B, 0, 1); /* native MSRs */
	v1_num(b, 0x001C, 1, 1); /* MSRs probed */
	v1_num(b, 0x001D, 1, 1);
	v1_num(b, 0x001E, 1, 1); /* in use: */
	v1_num(b, 0x0021, UNC_OK, 4);
	v1_num(b, 0x0022, 0x5, 8);
	v1_num(b, 0x0023, 4, 4);
	v1_num(b, 0x0024, 11, 4);
	v1_num(b, 0x0025, 0x20000000, 8);
	uint8_t busy[12] = { 0x11, 0x07, 0, 0, 0x34, 0x8f, 0x40, 0, 0, 0, 0, 0 }; /* 0x711 = 0x408f34 */
	put_tlv(b, 0x0026, busy, sizeof(busy));
	v1_num(b, 0x0027, UNC_OK, 4);
	v1_num(b, 0x0028, UNC_OK, 4);
	v1_num(b, 0x0029, 0x8086, 2);
	v1_num(b, 0x002A, 0x191F, 2);
	v1_num(b, 0x002B, 0xFED10001, 8);
	v1_num(b, 0x002C, 1000000000, 8);
	uint8_t fault[5] = { 0x02, 0x0E, 0, 0, 0 }; /* rdmsr 0xE02 */
	put_tlv(b, 0x002D, fault, sizeof(fault));
	v1_num(b, 0x002E, UNC_E_FAULT, 4);
	v1_str(b, 0x002F, "an uncore MSR faulted");
}

/* `stat -e ... --per-box -I 1000` as uncore.efi wrote it before drivers:
 * CBo, ARB, fixed and IMC events, 4 CBos of 5 found, one interval. */
static size_t v1_stat_record(void)
{
	static const struct v1_event ev[] = {
		{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 0, 0x34, 0x8f, 0, 0, 0, 0x4, { 1000, 2000, 0, 4000 }, 2000000000 },
		{ "UNC_ARB_TRK_REQUESTS.ALL", 1, 0x81, 0x01, 0, 0, 0, 0, { 6000000 }, 2000000000 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 1, 0x80, 0x01, 1, 0, 0, 0, { 700000 }, 2000000000 },
		{ "UNC_CLOCK.SOCKET", 2, 0x00, 0x01, 0, 0, 0, 0, { 1600000000 }, 2000000000 },
		{ "DRAM_DATA_READS", 3, 0, 0, 0, 3, 1, 0, { 31250000 }, 2000000000 },
	};
	struct rec_buf b = { buf, 0, sizeof(buf), false };
	uint8_t sample[8 + 5 * 40] = { 0 };
	uint64_t s[1 + 5 * 5] = { 1000000000 }; /* t, then per event: running, boxes 0-3 */

	rec_begin(&b);
	v1_platform(&b, "stat");
	v1_num(&b, 0x0040, 4, 4);  /* ncbo */
	v1_num(&b, 0x0041, 1, 4);  /* ngroups */
	v1_num(&b, 0x0042, 0, 4);  /* rotations */
	v1_num(&b, 0x0043, 1, 1);  /* --per-box */
	v1_num(&b, 0x0044, 2000000000, 8);
	v1_num(&b, 0x0045, 1000000000, 8);
	v1_num(&b, 0x0046, 0xFED10000, 8);
	for (unsigned i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		v1_event(&b, &ev[i]);
	v1_num(&b, 0x004A, 5, 4);  /* ncbo_found */
	for (unsigned i = 0; i < 5; i++) {
		s[1 + 5 * i] = 1000000000;
		for (unsigned k = 0; k < 4; k++)
			s[2 + 5 * i + k] = ev[i].box[k] / 2;
	}
	put_u64s(sample, s, 1 + 5 * 5);
	put_tlv(&b, 0x0048, sample, sizeof(sample));
	T_EQ(rec_end(&b), UNC_OK);
	buf[4] = 1; /* layout version 1 (rec_end writes the current one; the CRC covers the body only) */
	buf[5] = 0;
	return b.len;
}

/* `bw` as uncore.efi wrote it before drivers: the five IMC counters. */
static size_t v1_bw_record(void)
{
	static const struct v1_event ev[] = {
		{ "DRAM_GT_REQUESTS", 3, 0, 0, 0, 0, 1, 0, { 1000 }, 2000000000 },
		{ "DRAM_IA_REQUESTS", 3, 0, 0, 0, 1, 1, 0, { 40000000 }, 2000000000 },
		{ "DRAM_IO_REQUESTS", 3, 0, 0, 0, 2, 1, 0, { 2000 }, 2000000000 },
		{ "DRAM_DATA_READS", 3, 0, 0, 0, 3, 1, 0, { 31250000 }, 2000000000 },
		{ "DRAM_DATA_WRITES", 3, 0, 0, 0, 4, 1, 0, { 15625000 }, 2000000000 },
	};
	struct rec_buf b = { buf, 0, sizeof(buf), false };

	rec_begin(&b);
	v1_platform(&b, "bw");
	v1_num(&b, 0x0041, 1, 4);
	v1_num(&b, 0x0044, 2000000000, 8);
	v1_num(&b, 0x0046, 0xFED10000, 8);
	for (unsigned i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		v1_event(&b, &ev[i]);
	T_EQ(rec_end(&b), UNC_OK);
	buf[4] = 1;
	buf[5] = 0;
	return b.len;
}

static size_t v1_info_record(void)
{
	struct rec_buf b = { buf, 0, sizeof(buf), false };

	rec_begin(&b);
	v1_platform(&b, "info");
	T_EQ(rec_end(&b), UNC_OK);
	buf[4] = 1;
	buf[5] = 0;
	return b.len;
}

/* What the decoder printed of these records before drivers, byte for byte
 * (uncore_decode at the commit before the drivers, on the same bytes). */
static const char v1_stat_human[] =
	"record Stat: `stat` by uncore.efi 0.1.0 at 2026-11-21 21:45:07, exit status: success\n"
	"uncore stat: 5 events in 1 group, 4 CBos (MSR_UNC_CBO_CONFIG gives 5; at most 4 can be programmed), msr access: native\n"
	"   1.000000000  UNC_CBO_CACHE_LOOKUP.ANY_MESI                              3500             3500.000  events  100.00%\n"
	"   1.000000000  UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo0                          500              500.000  events  100.00%\n"
	"   1.000000000  UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo1                         1000             1000.000  events  100.00%\n"
	"   1.000000000  UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo2                            0                0.000  events  100.00%\n"
	"   1.000000000  UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3                         2000             2000.000  events  100.00%\n"
	"   1.000000000  UNC_ARB_TRK_REQUESTS.ALL                                3000000          3000000.000  events  100.00%\n"
	"   1.000000000  UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST            350000           350000.000  cycles  100.00%\n"
	"   1.000000000  UNC_CLOCK.SOCKET                                      800000000        800000000.000  cycles  100.00%\n"
	"   1.000000000  DRAM_DATA_READS                                        15625000         15625000.000  lines   100.00%  = 1000000000 bytes\n"
	"total:\n"
	"event                                                     count               rate/s  unit    running\n"
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI                              7000             3500.000  events  100.00%\n"
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo0                         1000              500.000  events  100.00%\n"
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo1                         2000             1000.000  events  100.00%\n"
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo2                            0                0.000  events  100.00%\n"
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3                         4000             2000.000  events  100.00%\n"
	"UNC_ARB_TRK_REQUESTS.ALL                                6000000          3000000.000  events  100.00%\n"
	"UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST            700000           350000.000  cycles  100.00%\n"
	"UNC_CLOCK.SOCKET                                     1600000000        800000000.000  cycles  100.00%\n"
	"DRAM_DATA_READS                                        31250000         15625000.000  lines   100.00%  = 2000000000 bytes\n"
	"elapsed: 2.000000000 s measured (2000000000 TSC ticks at 1000.000 MHz)\n"
	"note: UNC_CBO_CACHE_LOOKUP.ANY_MESI did not change on CBo 2 during the run while the other CBos counted it (a stuck counter?)\n";
static const char v1_stat_csv[] =
	"# record Stat: `stat` by uncore.efi 0.1.0 at 2026-11-21 21:45:07, exit status: success\n"
	"# uncore stat: 5 events in 1 group, 4 CBos (MSR_UNC_CBO_CONFIG gives 5; at most 4 can be programmed), msr access: native\n"
	"1.000000000,3500,,UNC_CBO_CACHE_LOOKUP.ANY_MESI,1000000000,100.00\n"
	"1.000000000,500,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo0,1000000000,100.00\n"
	"1.000000000,1000,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo1,1000000000,100.00\n"
	"1.000000000,0,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo2,1000000000,100.00\n"
	"1.000000000,2000,,UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3,1000000000,100.00\n"
	"1.000000000,3000000,,UNC_ARB_TRK_REQUESTS.ALL,1000000000,100.00\n"
	"1.000000000,350000,,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,1000000000,100.00\n"
	"1.000000000,800000000,,UNC_CLOCK.SOCKET,1000000000,100.00\n"
	"1.000000000,15625000,lines,DRAM_DATA_READS,1000000000,100.00\n"
	"# elapsed 2.000000000 s, TSC 1000.000 MHz\n"
	"# note: UNC_CBO_CACHE_LOOKUP.ANY_MESI did not change on CBo 2 during the run while the other CBos counted it (a stuck counter?)\n";
static const char v1_bw_human[] =
	"record Bw: `bw` by uncore.efi 0.1.0 at 2026-11-21 21:45:07, exit status: success\n"
	"uncore bw: IMC counters at MCHBAR 0xfed10000 (host bridge 8086:191f, Skylake), native hardware\n"
	"read         1000.000 MB/s        953.674 MiB/s         2000000000 bytes       31250000 lines\n"
	"write         500.000 MB/s        476.837 MiB/s         1000000000 bytes       15625000 lines\n"
	"total        1500.000 MB/s       1430.511 MiB/s         3000000000 bytes       46875000 lines\n"
	"requests:  GT 1000 (0.00%)  IA 40000000 (99.99%)  IO 2000 (0.00%)\n"
	"  (request counts x 64 bytes overstate traffic: partial writes to one line count each but are merged into one transfer; Table 3-3)\n"
	"elapsed: 2.000000000 s measured (2000000000 TSC ticks at 1000.000 MHz); sampled every 100 ms at most: exact up to 1374389 MB/s per counter\n";
static const char v1_bw_csv[] =
	"# record Bw: `bw` by uncore.efi 0.1.0 at 2026-11-21 21:45:07, exit status: success\n"
	"# uncore bw: IMC counters at MCHBAR 0xfed10000 (host bridge 8086:191f, Skylake), native hardware\n"
	"1000,requests,DRAM_GT_REQUESTS,2000000000,100.00\n"
	"40000000,requests,DRAM_IA_REQUESTS,2000000000,100.00\n"
	"2000,requests,DRAM_IO_REQUESTS,2000000000,100.00\n"
	"31250000,lines,DRAM_DATA_READS,2000000000,100.00\n"
	"15625000,lines,DRAM_DATA_WRITES,2000000000,100.00\n"
	"1000.000,MB/s,dram_read_bandwidth,2000000000,100.00\n"
	"500.000,MB/s,dram_write_bandwidth,2000000000,100.00\n"
	"1500.000,MB/s,dram_total_bandwidth,2000000000,100.00\n"
	"# elapsed 2.000000000 s, TSC 1000.000 MHz\n";
static const char v1_info_human[] =
	"record Info: `info` by uncore.efi 0.1.0 at 2026-11-21 21:45:07, exit status: success\n"
	"cpu:          GenuineIntel family 0x6 model 0x5e stepping 3\n"
	"brand:        Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz\n"
	"topology:     4 cores, 8 threads per package (CPUID leaf 0xB)\n"
	"phys address: 39 bits\n"
	"uncore:       supported: Skylake-client, Skylake (desktop)\n"
	"msr access:   native\n"
	"MSR_UNC_CBO_CONFIG (0x396): raw 0x5, NO_CBO_BANKS 5, CBo count 4 (manual: subtract one)\n"
	"host bridge:  00:00.0 vendor 0x8086 device 0x191f (known: Skylake)\n"
	"MCHBAR:       raw 0x00000000fed10001 (0x4C:0x48), enable 1, base 0xfed10000 (mask 0x7FFFFF8000): enabled\n"
	"pmu in use:   yes\n"
	"  MSR_UNC_CBO_1_PERFEVTSEL1 (0x711) = 0x408f34\n"
	"tsc:          1000.000 MHz\n"
	"fault:        rdmsr 0xe02 (MSR_UNC_PERF_GLOBAL_STATUS) raised #GP\n"
	"verdict:      uncore PMU unusable: an uncore MSR faulted\n";

static char text[16384];
static struct rec_print_ws ws;

/* The record in buf, printed as `var show` and the decoder print it. */
static enum unc_status print(size_t len, enum report_format format, const char *stored_as)
{
	struct strbuf sb;
	struct out o;

	strbuf_init(&sb, text, sizeof(text));
	o = strbuf_out(&sb);
	err[0] = '\0';
	return rec_print(&o, buf, len, format, ",", stored_as, &ws, err, sizeof(err));
}

/* A record uncore.efi wrote before drivers (layout 1, its bytes typed here
 * from the old tags) still decodes, and prints as it did then: the old
 * event names, the per-CBo rows, the CBo header, the notes, the IMC's
 * place and the info lines, through the driver that wrote it. */
static void layout_1_records_print_as_before(void)
{
	size_t len = v1_stat_record();
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
	T_EQ(out.version, 1);
	T_EQ(out.nevents, 5);
	T_STREQ(out.ev[3].name, "UNC_CLOCK.SOCKET");
	/* converted to layout 2 by the driver that wrote it: IMC counter 3 is
	 * DRAM_DATA_READS at MCHBAR+0x5050, the CBo count register gave 5 */
	T_STREQ(out.ev[4].pmu, "imc");
	T_STREQ(out.ev[4].enc_prefix, "MCHBAR+");
	T_EQ(out.ev[4].encoding, 0x5050);
	T_EQ(out.boxinfo[0].found, 5);
	T_EQ(out.nintervals, 1);
	T_EQ(out.npmus, 1);
	T_STREQ(out.pmus[0].driver, "skl-client-uncore");

	T_EQ(print(len, REPORT_HUMAN, "Stat"), UNC_OK);
	T_STREQ(err, "");
	T_STREQ(text, v1_stat_human);
	T_EQ(print(len, REPORT_CSV, "Stat"), UNC_OK);
	T_STREQ(text, v1_stat_csv);
	/* JSON: the same rows under the drivers' PMU names (perf's: cbox,
	 * clock; before drivers cbo, fixed) */
	T_EQ(print(len, REPORT_JSON, "Stat"), UNC_OK);
	T_JSON(text, true);
	T_CONTAINS(text, "\"cbo_count\":4,\"cbo_derived\":5,\"groups\":1,\"elapsed_ns\":2000000000,");
	T_CONTAINS(text, "{\"event\":\"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo2\",\"unit\":\"events\",\"pmu\":\"cbox\","
			 "\"encoding\":\"0x408f34\",\"count\":0,\"rate_per_s\":0.000,\"run_time_ns\":2000000000,"
			 "\"percent_running\":100.00,\"moved\":false}");
	T_CONTAINS(text, "{\"event\":\"UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST\",\"unit\":\"cycles\",\"pmu\":\"arb\","
			 "\"encoding\":\"0x1400180\",\"count\":700000,");
	T_CONTAINS(text, "{\"event\":\"UNC_CLOCK.SOCKET\",\"unit\":\"cycles\",\"pmu\":\"clock\",");
	T_CONTAINS(text, "{\"event\":\"DRAM_DATA_READS\",\"unit\":\"lines\",\"pmu\":\"imc\",\"encoding\":\"MCHBAR+0x5050\","
			 "\"count\":31250000,\"rate_per_s\":15625000.000,\"run_time_ns\":2000000000,"
			 "\"percent_running\":100.00,\"moved\":true,\"bytes\":2000000000}");

	len = v1_bw_record();
	T_EQ(print(len, REPORT_HUMAN, "Bw"), UNC_OK);
	T_STREQ(text, v1_bw_human);
	T_EQ(print(len, REPORT_CSV, "Bw"), UNC_OK);
	T_STREQ(text, v1_bw_csv);
	T_EQ(print(len, REPORT_JSON, NULL), UNC_OK);
	T_JSON(text, false);
	T_CONTAINS(text, "\"counters\":\"at MCHBAR 0xfed10000 (host bridge 8086:191f, Skylake)\",");
	T_CONTAINS(text, "\"requests\":{\"GT\":{\"count\":1000,\"share_pct\":0.00},\"IA\":{\"count\":40000000,"
			 "\"share_pct\":99.99},\"IO\":{\"count\":2000,\"share_pct\":0.00}}");

	len = v1_info_record();
	T_EQ(print(len, REPORT_HUMAN, "Info"), UNC_OK);
	T_STREQ(text, v1_info_human);
	T_EQ(print(len, REPORT_JSON, NULL), UNC_OK);
	T_JSON(text, false);
	T_CONTAINS(text, "\"drivers\":[{\"driver\":\"skl-client-uncore\",\"cbo_config\":{\"raw\":\"0x5\",\"no_cbo_banks\":5,"
			 "\"cbo_count\":4},\"host_bridge\":{");
	T_CONTAINS(text, "\"usable\":true},\"pmu_in_use\":true,\"global_ctrl\":\"0x20000000\",\"pmu_busy_registers\":[{\"msr\":"
			 "\"0x711\",\"name\":\"MSR_UNC_CBO_1_PERFEVTSEL1\",\"value\":\"0x408f34\"}]}]");
	T_CONTAINS(text, "\"faults\":[{\"op\":\"rdmsr\",\"msr\":\"0xe02\",\"name\":\"MSR_UNC_PERF_GLOBAL_STATUS\"}]");
}

/* Layout 1's own checks: its units were 0 CBo, 1 ARB, 2 fixed, 3 IMC, and
 * the IMC had five counters. */
static void layout_1_units_are_checked(void)
{
	static const struct v1_event bad[] = {
		{ "X", 4, 0x34, 0x8f, 0, 0, 0, 0, { 1 }, 1 },
		{ "DRAM_DATA_READS", 3, 0, 0, 0, 5, 1, 0, { 1 }, 1 },
	};
	static const char *want[] = { "event 0 has unit 4", "event 0 names IMC counter 5" };

	for (unsigned i = 0; i < 2; i++) {
		struct rec_buf b = { buf, 0, sizeof(buf), false };
		rec_begin(&b);
		v1_str(&b, 0x0002, "stat");
		v1_num(&b, 0x002C, 1000000000, 8);
		v1_event(&b, &bad[i]);
		T_EQ(rec_end(&b), UNC_OK);
		buf[4] = 1;
		err[0] = '\0';
		T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, want[i]);
		/* the same bytes as layout 2: an event must say what it is */
		buf[4] = 2;
		T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, "event 0 names no PMU or what it counts");
	}
	/* the CBo counts: at most 8 programmed, and no more than the count
	 * register gave */
	static const struct {
		uint32_t ncbo, found;
		const char *want;
	} cbos[] = { { 9, 0, "the record says 9 CBos; at most 8" }, { 8, 7, "the record says 8 CBos programmed of 7" } };
	for (unsigned i = 0; i < 2; i++) {
		struct rec_buf b = { buf, 0, sizeof(buf), false };
		rec_begin(&b);
		v1_str(&b, 0x0002, "stat");
		v1_num(&b, 0x0040, cbos[i].ncbo, 4);
		if (cbos[i].found)
			v1_num(&b, 0x004A, cbos[i].found, 4);
		T_EQ(rec_end(&b), UNC_OK);
		buf[4] = 1;
		err[0] = '\0';
		T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, cbos[i].want);
	}
}

/* A layout this reader does not know is refused, naming its version,
 * before anything is printed. */
static void layout_4_is_refused(void)
{
	fill(&in, 1);
	size_t len = encode(&in, 0);
	buf[4] = 4;
	T_EQ(print(len, REPORT_HUMAN, "Newer"), UNC_E_INVALID);
	T_STREQ(err, "record layout version 4; this reader knows versions 1 to 3");
	T_STREQ(text, "");
	len = v1_stat_record();
	buf[4] = 4;
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "record layout version 4; this reader knows versions 1 to 3");
}

/* Layout 2's own checks: what each event is (its PMU, what it counts, its
 * kind, boxes, role, width), the header's box counts, register spaces. */
static void layout_2_fields_are_checked(void)
{
	fill(&in, 2);
	in.ev[0].pmu[0] = '\0';
	BAD((void)0, "event 0 names no PMU or what it counts");
	fill(&in, 2);
	in.ev[1].count_word[0] = '\0';
	BAD((void)0, "event 1 names no PMU or what it counts");
	fill(&in, 2);
	in.ev[1].kind = 3;
	BAD((void)0, "event 1 has kind 3, 2 boxes, role 1, clock 1, width 33");
	T_STREQ(err, "event 1 has kind 3, 2 boxes, role 1, clock 1, width 33");
	fill(&in, 2);
	in.ev[0].nboxes = 65536; /* the engine's box count is 16 bits */
	T_EQ(rec_decode(buf, encode(&in, 0), &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "event 0 has kind 0, 65536 boxes, role 0, clock 0, width 32");
	fill(&in, 2);
	in.ev[0].role = 3;
	BAD((void)0, "event 0 has kind 0, 1 boxes, role 3, clock 0, width 32");
	fill(&in, 2);
	in.ev[0].clock = 2;
	BAD((void)0, "event 0 has kind 0, 1 boxes, role 0, clock 2, width 32");
	fill(&in, 2);
	in.ev[0].width = 65;
	BAD((void)0, "event 0 has kind 0, 1 boxes, role 0, clock 0, width 65");
	fill(&in, 2);
	in.boxinfo[0].found = 3;
	BAD((void)0, "box count 0 says 4 programmed of 3");
	fill(&in, 2);
	in.faults2[1].reg.space = 3;
	BAD((void)0, "field 'faults2' names address space 3");
	fill(&in, 2);
	in.pmus[1].busy[2].reg.space = 7;
	BAD((void)0, "pmus 1: field 'busy' names address space 7");
	/* the edges that are allowed */
	fill(&in, 2);
	set_boxes(0, 480, 60);
	in.ev[0].width = 64, in.ev[0].kind = 2, in.ev[0].role = 2;
	in.boxinfo[0].n = 480, in.boxinfo[0].found = 0; /* found 0: as programmed; no cap at 16 in layout 3 */
	size_t len = encode(&in, 0);
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
}

static void fix_crc(size_t len)
{
	uint32_t c = crc32_ieee(buf + REC_HEADER_SIZE, len - REC_HEADER_SIZE);
	for (int i = 0; i < 4; i++)
		buf[12 + i] = (uint8_t)(c >> (8 * i));
}

static void header_crc_and_version_errors(void)
{
	fill(&in, 2);
	BAD(buf[20] ^= 1, "CRC mismatch: the header says 0x");
	BAD(buf[4] = 4, "record layout version 4; this reader knows versions 1 to 3");
	T_STREQ(err, "record layout version 4; this reader knows versions 1 to 3");
	BAD(buf[4] = 0, "record layout version 0; this reader knows versions 1 to 3");
	BAD((buf[4] = 3, buf[5] = 1), "record layout version 259; this reader knows versions 1 to 3");
	/* layout 3's samples in a record that says layout 2 */
	BAD(buf[4] = 2, "an interval sample under tag 0x004c in a record of layout 2");
	BAD(buf[0] = 'X', "not an uncore record (magic 0x52434e58");
	BAD(len_ -= 1, "truncated: the header announces");
	BAD(len_ = 10, "truncated: 10 bytes, shorter than the 16-byte header");
	BAD((buf[len_] = 0, len_ += 1), "trailing bytes: the header announces");
	BAD(buf[6] = 20, "header size 20");
	/* enumerations out of range: a record from a newer or broken writer */
	in.x.check = CHECK_WRITE + 1;
	BAD((void)0, "the record names bandwidth check 4 with verdict 2");
	in.x.check = CHECK_READ, in.x.check_verdict = VERDICT_NONE + 1;
	BAD((void)0, "the record names bandwidth check 2 with verdict 3");
	in.x.check_verdict = VERDICT_PASS, in.x.load_kind = LOAD_NKINDS + 1;
	BAD((void)0, "the record names load kind 5");
	in.x.load_kind = 0, in.x.child_ran = CHILD_NO_STATUS + 1;
	BAD((void)0, "the record names child outcome 3");
}

static void malformed_fields(void)
{
	fill(&in, 2);
	/* the first field is tool (tag 1): make its length run past the end */
	BAD((buf[18] = 0xff, buf[19] = 0xff, buf[20] = 0xff, fix_crc(len_)), "field 0x0001 claims");
	/* status (tag 4) with the wrong length: write a record by hand */
	struct rec_buf b = { buf, 0, sizeof(buf), false };
	rec_begin(&b);
	uint8_t bad_status[] = { 4, 0, 3, 0, 0, 0, 1, 2, 3 };
	rec_put_raw(&b, bad_status, sizeof(bad_status));
	rec_end(&b);
	T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "field 'status' has 3 bytes, not 4");
	/* a repeated scalar */
	rec_begin(&b);
	uint8_t twice[] = { 2, 0, 1, 0, 0, 0, 'x', 2, 0, 1, 0, 0, 0, 'y' };
	rec_put_raw(&b, twice, sizeof(twice));
	rec_end(&b);
	T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "field 'command' appears twice");
	/* a string longer than its field */
	rec_begin(&b);
	uint8_t longcmd[6 + 20] = { 2, 0, 20, 0, 0, 0 };
	memset(longcmd + 6, 'a', 20);
	rec_put_raw(&b, longcmd, sizeof(longcmd));
	rec_end(&b);
	T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "field 'command' is 20 bytes long, at most 15");
	/* an unknown tag is skipped; no command is an error */
	rec_begin(&b);
	uint8_t unknown[] = { 0x99, 0x77, 2, 0, 0, 0, 1, 2 };
	rec_put_raw(&b, unknown, sizeof(unknown));
	rec_end(&b);
	T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "the record names no command");
	/* samples must follow the events they describe */
	fill(&in, 0);
	rec_begin(&b);
	rec_put(&b, &in);
	memset(&samples[0], 0, sizeof(samples[0]));
	put_sample(&b, &in, &samples[0]);
	uint8_t late_event[] = { 0x47, 0, 0, 0, 0, 0 }; /* an (empty) event TLV */
	rec_put_raw(&b, late_event, sizeof(late_event));
	rec_end(&b);
	T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "an event after the interval samples");
}

/* The writer stores neither bad text nor a bad time, so the tests spoil an
 * encoded record: byte `at` of the first `text` becomes `to`, or the value
 * of field `tag` is replaced; the CRC is made right again. */
static void spoil_text(size_t len, const char *text, size_t at, char to)
{
	size_t n = strlen(text);

	for (size_t i = REC_HEADER_SIZE; i + n <= len; i++) {
		if (!memcmp(buf + i, text, n)) {
			buf[i + at] = (uint8_t)to;
			fix_crc(len);
			return;
		}
	}
	t_fail(__FILE__, __LINE__, "no \"%s\" in the record", text);
}

static void spoil_field(size_t len, uint16_t tag, const uint8_t *value, size_t n)
{
	for (size_t at = REC_HEADER_SIZE; at + 6 <= len;) {
		size_t flen = buf[at + 2] | buf[at + 3] << 8 | (size_t)buf[at + 4] << 16 | (size_t)buf[at + 5] << 24;
		if ((buf[at] | buf[at + 1] << 8) == tag) {
			T_EQ(flen, n);
			memcpy(buf + at + 6, value, n);
			fix_crc(len);
			return;
		}
		at += 6 + flen;
	}
	t_fail(__FILE__, __LINE__, "no field 0x%04x", tag);
}

/* Every string field holds printable ASCII, and a time is a possible one:
 * anything else is a corrupt record, refused with the field named. */
static void text_and_time_must_be_sane(void)
{
	static const struct {
		const char *bytes;
		const char *want;
	} strings[] = {
		{ "stat\x1b[2J", "field 'command' has byte 0x1b at offset 4: not printable ASCII" },
		{ "st\r\nat", "field 'command' has byte 0x0d at offset 2: not printable ASCII" },
		{ "st\x7f", "field 'command' has byte 0x7f at offset 2: not printable ASCII" },
		{ "\x80stat", "field 'command' has byte 0x80 at offset 0: not printable ASCII" },
		{ "st\xc3\xa9", "field 'command' has byte 0xc3 at offset 2: not printable ASCII" },
	};
	struct rec_buf b = { buf, 0, sizeof(buf), false };

	for (unsigned i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		uint8_t f[64] = { 2, 0, (uint8_t)strlen(strings[i].bytes), 0, 0, 0 };
		memcpy(f + 6, strings[i].bytes, strlen(strings[i].bytes));
		rec_begin(&b);
		rec_put_raw(&b, f, 6 + strlen(strings[i].bytes));
		rec_end(&b);
		err[0] = '\0';
		T_EQ(rec_decode(buf, b.len, &out, NULL, NULL, err, sizeof(err)), UNC_E_INVALID);
		T_STREQ(err, strings[i].want);
	}
	/* the same check for every string field, nested ones included */
	fill(&in, 2);
	BAD(spoil_text(len_, "Intel(R)", 3, '\n'), "field 'brand' has byte 0x0a at offset 3: not printable ASCII");
	BAD(spoil_text(len_, "2 of 2 devices", 0, '\t'),
	    "field 'x.peak_note' has byte 0x09 at offset 0: not printable ASCII");
	BAD(spoil_text(len_, "EVENT_1", 2, '\x1b'), "event 1: field 'name' has byte 0x1b at offset 2: not printable ASCII");

	static const struct {
		struct rec_time t;
		const char *want;
	} times[] = {
		{ { 2026, 255, 21, 21, 45, 7, 0, 0, 0, 1 }, "field 'time' has month 255 (1 to 12)" },
		{ { 2026, 0, 21, 21, 45, 7, 0, 0, 0, 1 }, "field 'time' has month 0 (1 to 12)" },
		{ { 2026, 2, 29, 21, 45, 7, 0, 0, 0, 1 }, "field 'time' has day 29 (1 to 28 in 2026-02)" },
		{ { 2026, 4, 31, 21, 45, 7, 0, 0, 0, 1 }, "field 'time' has day 31 (1 to 30 in 2026-04)" },
		{ { 2026, 1, 0, 21, 45, 7, 0, 0, 0, 1 }, "field 'time' has day 0 (1 to 31 in 2026-01)" },
		{ { 1899, 1, 1, 0, 0, 0, 0, 0, 0, 1 }, "field 'time' has year 1899 (1900 to 9999)" },
		{ { 2026, 1, 1, 24, 0, 0, 0, 0, 0, 1 }, "field 'time' has hour 24 (0 to 23)" },
		{ { 2026, 1, 1, 0, 60, 0, 0, 0, 0, 1 }, "field 'time' has minute 60 (0 to 59)" },
		{ { 2026, 1, 1, 0, 0, 60, 0, 0, 0, 1 }, "field 'time' has second 60 (0 to 59)" },
		{ { 2026, 1, 1, 0, 0, 0, 4, 0, 0, 1 }, "field 'time' has daylight 4 (0 to 3)" },
		{ { 2026, 1, 1, 0, 0, 0, 0, 1000000000, 0, 1 }, "field 'time' has nanosecond 1000000000 (0 to 999999999)" },
		{ { 2026, 1, 1, 0, 0, 0, 0, 0, 1441, 1 }, "field 'time' has timezone 1441 (-1440 to 1440, or 2047)" },
		{ { 2026, 1, 1, 0, 0, 0, 0, 0, -1441, 1 }, "field 'time' has timezone -1441 (-1440 to 1440, or 2047)" },
		{ { 2026, 1, 1, 0, 0, 0, 0, 0, 0, 2 }, "field 'time' has valid 2 (0 or 1)" },
		{ { 0, 0, 0, 0, 0, 5, 0, 0, 0, 0 }, "field 'time' is marked not set but holds a time" },
	};
	for (unsigned i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		const struct rec_time *t = &times[i].t;
		uint8_t v[15] = { (uint8_t)t->year, (uint8_t)(t->year >> 8), t->month, t->day, t->hour, t->minute,
				  t->second, t->daylight, (uint8_t)t->nanosecond, (uint8_t)(t->nanosecond >> 8),
				  (uint8_t)(t->nanosecond >> 16), (uint8_t)(t->nanosecond >> 24), (uint8_t)t->timezone,
				  (uint8_t)((uint16_t)t->timezone >> 8), t->valid };
		fill(&in, 0);
		BAD(spoil_field(len_, 0x0003, v, sizeof(v)), times[i].want);
		T_STREQ(err, times[i].want);
	}
	/* the edges that are possible */
	static const struct rec_time good[] = {
		{ 2024, 2, 29, 23, 59, 59, 3, 999999999, 2047, 1 }, { 2000, 2, 29, 0, 0, 0, 0, 0, -1440, 1 },
		{ 1900, 12, 31, 0, 0, 0, 0, 0, 1440, 1 },	     { 0 },
	};
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		fill(&in, 0);
		in.time = good[i];
		size_t len = encode(&in, 0);
		T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
		T_EQ(rec_time_ok(&good[i]), true);
	}
	T_EQ(rec_time_ok(&times[0].t), false);
}

/* What uncore.efi stores is always readable: a string from the platform
 * (a brand from CPUID, say) with bytes outside printable ASCII is stored
 * with '?' in their place. */
static void the_writer_stores_printable_text(void)
{
	fill(&in, 1);
	strcpy(in.brand, "Caf\xc3\xa9 CPU\x1b[0m\r\n");
	size_t len = encode(&in, 0);
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
	T_STREQ(out.brand, "Caf?? CPU?[0m??");
	/* and a time the firmware got wrong is stored as not set */
	in.time.month = 13;
	len = encode(&in, 0);
	T_EQ(rec_decode(buf, len, &out, NULL, NULL, err, sizeof(err)), UNC_OK);
	T_EQ(out.time.valid, 0);
	T_EQ(out.time.month, 0);
}

/* ---- the chunked store ---- */

static struct fake_vars fv;
static uint8_t data[200000], back[200000];

static void fill_data(size_t n)
{
	for (size_t i = 0; i < n; i++)
		data[i] = (uint8_t)(i * 131 + 7);
}

static unsigned our_vars(void)
{
	return fv.n;
}

/* max_var 1000 and the name "R": a chunk R.0001 takes 2*(1+6) = 14 bytes
 * of name, so a chunk carries 986 bytes. */
static void chunking_boundaries(void)
{
	static const struct {
		size_t len;
		unsigned chunks;
	} cases[] = { { 986, 0 }, { 987, 2 }, { 1972, 2 }, { 1973, 3 }, { 20, 0 }, { 98600, 100 } };
	size_t len;
	unsigned chunks;

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		fake_vars_init(&fv, 1000, 1 << 20);
		fill_data(cases[c].len);
		T_EQ(var_save(&fv.vs, "R", data, cases[c].len, 0, &chunks, err, sizeof(err)), UNC_OK);
		if (chunks != cases[c].chunks)
			t_fail(__FILE__, __LINE__, "%zu bytes: %u chunks, want %u", cases[c].len, chunks, cases[c].chunks);
		T_EQ(our_vars(), chunks ? chunks + 1 : 1);
		T_EQ(var_load(&fv.vs, "R", back, sizeof(back), &len, err, sizeof(err)), UNC_OK);
		T_EQ(len, cases[c].len);
		T_EQ(memcmp(back, data, len), 0);
		fake_vars_free(&fv);
	}
	/* --var-chunk caps the chunk size */
	fake_vars_init(&fv, 1000, 1 << 20);
	fill_data(1000);
	T_EQ(var_save(&fv.vs, "R", data, 1000, 100, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 10);
	/* a smaller record replaces a chunked one: no chunk is left over */
	T_EQ(var_save(&fv.vs, "R", data, 50, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(our_vars(), 1);
	fake_vars_free(&fv);
}

static void truncated_chunk_sets(void)
{
	size_t len;
	unsigned chunks;
	bool record;

	fake_vars_init(&fv, 1000, 1 << 20);
	fill_data(3000);
	T_EQ(var_save(&fv.vs, "Run1", data, 3000, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 4);
	fv.vs.set(fv.vs.ctx, "Run1.0002", NULL, 0);
	T_EQ(var_load(&fv.vs, "Run1", back, sizeof(back), &len, err, sizeof(err)), UNC_E_INVALID);
	T_STREQ(err, "truncated chunk set: Run1.0002 is missing (the index names 4 chunks)");
	/* a short last chunk */
	T_EQ(var_save(&fv.vs, "Run1", data, 3000, 0, &chunks, err, sizeof(err)), UNC_OK);
	fv.vs.set(fv.vs.ctx, "Run1.0004", data, 10);
	T_EQ(var_load(&fv.vs, "Run1", back, sizeof(back), &len, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "truncated chunk set: 2950 bytes in 4 chunks, the index announces 3000");
	/* a changed byte */
	T_EQ(var_save(&fv.vs, "Run1", data, 3000, 0, &chunks, err, sizeof(err)), UNC_OK);
	uint8_t one = 0;
	fv.vs.set(fv.vs.ctx, "Run1.0004", &one, 1);
	T_EQ(var_load(&fv.vs, "Run1", back, sizeof(back), &len, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "truncated chunk set");
	T_EQ(var_save(&fv.vs, "Run1", data, 3000, 0, &chunks, err, sizeof(err)), UNC_OK);
	uint8_t *p = fv.v[0].data;
	for (unsigned i = 0; i < fv.n; i++)
		if (!strcmp(fv.v[i].name, "Run1.0003"))
			p = fv.v[i].data;
	p[5] ^= 0xff;
	T_EQ(var_load(&fv.vs, "Run1", back, sizeof(back), &len, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "the chunks of Run1 do not match the index's CRC");
	/* delete takes the chunks too */
	T_EQ(var_delete(&fv.vs, "Run1", &record, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 4);
	T_EQ(record, true);
	T_EQ(our_vars(), 0);
	T_EQ(var_delete(&fv.vs, "Run1", &record, &chunks, err, sizeof(err)), UNC_E_NOT_FOUND);
	T_STREQ(err, "no stored record named Run1");
	fake_vars_free(&fv);
}

/* Chunks after a gap (a delete cut short, a chunk lost): overwriting and
 * deleting take every NAME.nnnn there is, not those before the gap. */
static void chunks_after_a_gap_go_too(void)
{
	size_t len;
	unsigned chunks;
	bool record;

	fake_vars_init(&fv, 1000, 1 << 20);
	fill_data(5000);
	T_EQ(var_save(&fv.vs, "R", data, 5000, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 6);
	T_EQ(var_save(&fv.vs, "R1", data, 3000, 0, &chunks, err, sizeof(err)), UNC_OK); /* a neighbour */
	fv.vs.set(fv.vs.ctx, "R.0003", NULL, 0);
	fv.vs.set(fv.vs.ctx, "R.0000", data, 10); /* and a chunk no writer makes */
	T_EQ(var_save(&fv.vs, "R", data, 1500, 0, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 2);
	for (unsigned i = 0; i < fv.n; i++)
		if (!strncmp(fv.v[i].name, "R.", 2) && strcmp(fv.v[i].name, "R.0001") && strcmp(fv.v[i].name, "R.0002"))
			t_fail(__FILE__, __LINE__, "%s is left over", fv.v[i].name);
	T_EQ(var_load(&fv.vs, "R", back, sizeof(back), &len, err, sizeof(err)), UNC_OK);
	T_EQ(len, 1500);
	T_EQ(our_vars(), 3 + 5); /* R, R.0001, R.0002; R1 and its four chunks */

	/* only chunks, no index: a delete cut short after the index went */
	fv.vs.set(fv.vs.ctx, "R", NULL, 0);
	fv.vs.set(fv.vs.ctx, "R.0001", NULL, 0);
	T_EQ(var_load(&fv.vs, "R", back, sizeof(back), &len, err, sizeof(err)), UNC_E_NOT_FOUND);
	T_STREQ(err, "no stored record named R; 1 orphan chunk R.nnnn is left, `var delete R` removes it");
	T_EQ(var_delete(&fv.vs, "R", &record, &chunks, err, sizeof(err)), UNC_OK);
	T_EQ(chunks, 1);
	T_EQ(record, false);
	T_EQ(our_vars(), 5);
	T_EQ(var_delete(&fv.vs, "R", &record, &chunks, err, sizeof(err)), UNC_E_NOT_FOUND);

	/* a failed deletion is said, not ignored */
	T_EQ(var_save(&fv.vs, "R", data, 5000, 0, &chunks, err, sizeof(err)), UNC_OK);
	fv.fail_delete = "R.0004";
	T_EQ(var_delete(&fv.vs, "R", &record, &chunks, err, sizeof(err)), UNC_E_DEVICE);
	T_STREQ(err, "cannot delete R.0004: firmware service failed");
	T_EQ(var_save(&fv.vs, "R", data, 500, 0, &chunks, err, sizeof(err)), UNC_E_DEVICE);
	T_STREQ(err, "cannot delete the old R.0004: firmware service failed; not stored");
	fake_vars_free(&fv);
}

static void store_full(void)
{
	unsigned chunks;
	size_t len;

	/* too large for the store: refused before anything changes */
	fake_vars_init(&fv, 1000, 8000);
	fill_data(500);
	T_EQ(var_save(&fv.vs, "Keep", data, 500, 0, &chunks, err, sizeof(err)), UNC_OK);
	fill_data(20000);
	T_EQ(var_save(&fv.vs, "Keep", data, 20000, 0, &chunks, err, sizeof(err)), UNC_E_NO_MEMORY);
	T_CONTAINS(err, "the variable store has ");
	T_CONTAINS(err, " bytes free; the record needs about ");
	T_EQ(var_load(&fv.vs, "Keep", back, sizeof(back), &len, err, sizeof(err)), UNC_OK);
	T_EQ(len, 500); /* the old record stays */
	fake_vars_free(&fv);

	/* full half-way: every chunk written is deleted again */
	fake_vars_init(&fv, 1000, 1 << 20);
	fv.fail_after = 3;
	fill_data(5000);
	T_EQ(var_save(&fv.vs, "Big", data, 5000, 0, &chunks, err, sizeof(err)), UNC_E_NO_MEMORY);
	T_STREQ(err, "the variable store is full after 2 of 6 chunks (out of memory); the 2 written were deleted, "
		     "nothing is stored");
	T_EQ(our_vars(), 0);
	fake_vars_free(&fv);

	/* the index write fails: the chunks go too */
	fake_vars_init(&fv, 1000, 1 << 20);
	fv.fail_after = 7;
	T_EQ(var_save(&fv.vs, "Big", data, 5000, 0, &chunks, err, sizeof(err)), UNC_E_NO_MEMORY);
	T_CONTAINS(err, "cannot write the index variable Big");
	T_EQ(our_vars(), 0);
	fake_vars_free(&fv);

	fake_vars_init(&fv, 1000, 1 << 20);
	T_EQ(var_save(&fv.vs, "bad name", data, 5, 0, &chunks, err, sizeof(err)), UNC_E_INVALID);
	T_CONTAINS(err, "bad variable name 'bad name'");
	fake_vars_free(&fv);
}

/* An emulator's description longer than the record's field is cut between
 * its items and marked, never cut mid-word unseen. */
static void long_emulator_description_marked(void)
{
	static struct platform_info pi;
	char desc[400] = "Alder/Raptor Lake uncore";

	for (unsigned i = 0; strlen(desc) < 300; i++)
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), ", item%u", i);
	memset(&in, 0, sizeof(in));
	pi.emulator = desc;
	rec_from_info(&in, &pi);
	T_EQ(strlen(in.emulator), 252);
	T_ASSERT(!strncmp(in.emulator, desc, 246));
	T_ASSERT(strstr(in.emulator, ", item27, item28 [cut]") == in.emulator + 230);
	pi.emulator = "Skylake, faults: none";
	rec_from_info(&in, &pi);
	T_STREQ(in.emulator, "Skylake, faults: none");
}

T_MAIN("record", T_CASE(long_emulator_description_marked), T_CASE(round_trip_every_field), T_CASE(round_trip_480_boxes), T_CASE(round_trip_96_boxes),
       T_CASE(layout_2_sixteen_boxes_decode), T_CASE(fuzzer_seeds_decode),
       T_CASE(version_1_record_with_four_boxes_decodes), T_CASE(layout_1_records_print_as_before),
       T_CASE(layout_1_units_are_checked), T_CASE(layout_4_is_refused), T_CASE(layout_2_fields_are_checked),
       T_CASE(header_crc_and_version_errors), T_CASE(malformed_fields),
       T_CASE(text_and_time_must_be_sane), T_CASE(the_writer_stores_printable_text), T_CASE(chunking_boundaries),
       T_CASE(truncated_chunk_sets), T_CASE(chunks_after_a_gap_go_too), T_CASE(store_full))
