#include "record.h"
#include "record_int.h"

#include <string.h>

#include "../base/crc32.h"
#include "../base/fmt.h"
#include "../engine/load.h"
#include "../base/pool.h"
#include "../engine/pmu.h"

enum ftype { T_U8, T_U16, T_U32, T_U64, T_U64X4, T_STR, T_TIME, T_EVENT, T_U64X8, T_REG, T_BUSY2, T_FAULT2, T_PMU,
	     T_BOXINFO, T_U32X64, T_SPAN };

struct field {
	uint16_t tag;
	const char *name;
	uint8_t type;
	size_t off, size;  /* the member; for arrays, the whole array */
	size_t count_off;  /* arrays: the uint32_t count member */
	size_t max;        /* arrays: elements */
};

#define MEMBER_SIZE(type, m) sizeof(((type *)0)->m)
#define F(tag, m, t) { tag, #m, t, offsetof(struct rec, m), MEMBER_SIZE(struct rec, m), 0, 0 }
#define A(tag, m, n, t, max) { tag, #m, t, offsetof(struct rec, m), MEMBER_SIZE(struct rec, m), offsetof(struct rec, n), max }
#define E(tag, m, t) { tag, #m, t, offsetof(struct rec_event, m), MEMBER_SIZE(struct rec_event, m), 0, 0 }
#define P(tag, m, t) { tag, #m, t, offsetof(struct rec_pmu, m), MEMBER_SIZE(struct rec_pmu, m), 0, 0 }
#define B(tag, m, t) { tag, #m, t, offsetof(struct rec_boxinfo, m), MEMBER_SIZE(struct rec_boxinfo, m), 0, 0 }

/* The layout: the fields version 1 shares with version 2, and version 2's
 * own (tags 0x0080 on, and 0x10 on inside an event). Tags are never reused
 * for another meaning: version 1's others (0x001C to 0x001E, 0x0021 to
 * 0x002B, 0x002D, 0x0040, 0x0046, 0x004A; inside an event 0x02 to 0x08)
 * were one driver's, which reads them (struct rec_old). */
static const struct field top[] = {
	F(0x0001, tool, T_STR), F(0x0002, command, T_STR), F(0x0003, time, T_TIME), F(0x0004, status, T_U32),
	F(0x0010, vendor, T_STR), F(0x0011, brand, T_STR), F(0x0012, topology, T_STR), F(0x0013, model_name, T_STR),
	F(0x0014, family, T_U32), F(0x0015, model, T_U32), F(0x0016, stepping, T_U32), F(0x0017, cores, T_U32),
	F(0x0018, threads, T_U32), F(0x0019, phys_bits, T_U32), F(0x001A, hypervisor, T_U8),
	F(0x001B, msr_mode, T_U8), F(0x0020, emulator, T_STR), F(0x002C, tsc_hz, T_U64), F(0x002E, verdict, T_U32),
	F(0x002F, verdict_reason, T_STR), F(0x0041, ngroups, T_U32),
	F(0x0042, rotations, T_U32), F(0x0043, per_box, T_U8), F(0x0044, elapsed, T_U64), F(0x0045, interval, T_U64),
	A(0x0047, ev, nevents, T_EVENT, REC_MAX_EVENTS),
	F(0x0060, x.load_kind, T_U8), F(0x0061, x.load_nt, T_U8), F(0x0062, x.load_cpus, T_U32),
	F(0x0063, x.load_size, T_U64), F(0x0064, x.load_bytes, T_U64), F(0x0065, x.peak_mb_s, T_U64),
	F(0x0066, x.peak_note, T_STR), F(0x0067, x.check, T_U8), F(0x0068, x.check_required_kb_s, T_U64),
	F(0x0069, x.check_measured_kb_s, T_U64), F(0x006A, x.check_verdict, T_U8), F(0x006B, x.child, T_STR),
	F(0x006C, x.child_status_lo, T_U32), F(0x006D, x.child_status_hi, T_U32), F(0x006E, x.child_ran, T_U8),
	F(0x006F, x.warning, T_STR), F(0x0070, x.core_one_cpu, T_U8),
	A(0x0080, pmus, npmus, T_PMU, REC_MAX_PMUS), A(0x0081, faults2, nfaults2, T_FAULT2, REC_MAX_FAULTS),
	A(0x0082, boxinfo, nboxinfo, T_BOXINFO, REC_MAX_BOXINFO), F(0x0083, programs, T_U8), F(0x0084, where, T_STR),
	F(0x0085, free_pmu, T_STR), F(0x0086, req_note, T_STR),
	F(0x0087, tsc.source, T_U8), F(0x0088, tsc.ref, T_U8), F(0x0089, tsc.windows, T_U16),
	F(0x008A, tsc.spread_ppm, T_U32), F(0x008B, tsc.measured_hz, T_U64), F(0x008C, tsc.cpuid_hz, T_U64),
	/* the machine's identity (SMBIOS), and a boot check's boot number */
	F(0x0090, id.sys_vendor, T_STR), F(0x0091, id.sys_product, T_STR), F(0x0092, id.sys_serial, T_STR),
	F(0x0093, id.board_vendor, T_STR), F(0x0094, id.board_product, T_STR), F(0x0095, id.board_serial, T_STR),
	F(0x0096, id.bios_vendor, T_STR), F(0x0097, id.bios_version, T_STR), F(0x0098, id.bios_date, T_STR),
	F(0x0099, boot_seq, T_U32),
};
_Static_assert(sizeof(top) / sizeof(top[0]) <= 128, "get_fields tracks scalar fields in a 128-bit mask");

#define EO(tag, m, t) { tag, #m, t, offsetof(struct rec_event, old.m), MEMBER_SIZE(struct rec_event, old.m), 0, 0 }
static const struct field event_fields[] = {
	E(0x01, name, T_STR), EO(0x09, moved, T_U8), EO(0x0A, box, T_U64X4), E(0x0B, running, T_U64),
	EO(0x0C, still, T_U8),
	/* boxes 4-7 (more than the manual's four CBos) */
	{ 0x0D, "box_hi", T_U64X4, offsetof(struct rec_event, old.box) + 4 * sizeof(uint64_t), 4 * sizeof(uint64_t), 0, 0 },
	/* version 2: the event as its driver described it */
	E(0x10, driver, T_STR), E(0x11, pmu, T_STR), E(0x12, box_label, T_STR), E(0x13, box_noun, T_STR),
	E(0x14, short_name, T_STR), E(0x15, count_word, T_STR), E(0x16, enc_prefix, T_STR), E(0x17, encoding, T_U64),
	E(0x18, kind, T_U8), EO(0x19, nboxes, T_U8), E(0x1A, width, T_U8), E(0x1B, role, T_U8), E(0x1C, clock, T_U8),
	/* boxes in groups (a socket's channels) */
	E(0x1D, group_noun, T_STR), EO(0x1E, groups, T_U64), EO(0x1F, box_ids, T_U64),
	/* boxes 8-15 (two sockets of eight channels) */
	{ 0x20, "box_8_15", T_U64X8, offsetof(struct rec_event, old.box) + 8 * sizeof(uint64_t), 8 * sizeof(uint64_t), 0, 0 },
	EO(0x21, moved_hi, T_U8), EO(0x22, still_hi, T_U8), EO(0x23, groups_hi, T_U64), EO(0x24, box_ids_hi, T_U64),
	/* version 3: every box, in fields as long as the boxes */
	E(0x25, nboxes, T_U32), E(0x26, pb_total, T_SPAN), E(0x27, pb_group, T_SPAN), E(0x28, pb_id, T_SPAN),
	E(0x29, pb_moved, T_SPAN), E(0x2A, pb_still, T_SPAN),
};
_Static_assert(REC_OLD_BOXES == 16, "layout 2 stores an event's boxes in fields of 4, 4 and 8");

/* A driver's block (layout 2): what its probe found; the facts are its own. */
static const struct field pmu_fields[] = {
	P(0x01, driver, T_STR), P(0x02, model, T_STR), P(0x03, probed, T_U32), P(0x04, boxes, T_U64X8),
	P(0x05, found, T_U64X8), P(0x06, base, T_U64X8), P(0x07, facts, T_U64X8), P(0x08, use_checked, T_U8),
	P(0x09, use_known, T_U8), P(0x0A, in_use, T_U8), P(0x0B, global_ctrl, T_U64), P(0x0C, selects_checked, T_U32),
	{ 0x0D, "busy", T_BUSY2, offsetof(struct rec_pmu, busy), MEMBER_SIZE(struct rec_pmu, busy),
	  offsetof(struct rec_pmu, nbusy), REC_MAX_BUSY },
	P(0x0E, pci, T_U32X64),
};

static const struct field boxinfo_fields[] = {
	B(0x01, noun, T_STR), B(0x02, label, T_STR), B(0x03, from, T_STR), B(0x04, n, T_U32), B(0x05, found, T_U32),
};

#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* The nested bodies: their field tables. */
static const struct field *nested(uint8_t type, size_t *ret_n)
{
	switch (type) {
	case T_EVENT: *ret_n = NFIELDS(event_fields); return event_fields;
	case T_PMU: *ret_n = NFIELDS(pmu_fields); return pmu_fields;
	case T_BOXINFO: *ret_n = NFIELDS(boxinfo_fields); return boxinfo_fields;
	default: *ret_n = 0; return NULL;
	}
}

#define REG_BYTES 12 /* space, bus, dev, func, addr */

/* ---- encoding ---- */

static void put(struct rec_buf *b, const void *p, size_t n)
{
	if (b->overflow || n > b->cap - b->len) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_le(struct rec_buf *b, uint64_t v, unsigned n)
{
	uint8_t le[8];

	for (unsigned i = 0; i < n; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	put(b, le, n);
}

static void put_tl(struct rec_buf *b, uint16_t tag, size_t len)
{
	put_le(b, tag, 2);
	put_le(b, len, 4);
}

static uint64_t load_uint(const void *p, uint8_t type)
{
	switch (type) {
	case T_U8: return *(const uint8_t *)p;
	case T_U16: return *(const uint16_t *)p;
	case T_U32: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static const unsigned uint_size[] = { [T_U8] = 1, [T_U16] = 2, [T_U32] = 4, [T_U64] = 8 };

static void put_fields(struct rec_buf *b, const struct field *t, size_t n, const uint8_t *base);

static void put_one(struct rec_buf *b, const struct field *f, const uint8_t *p)
{
	switch (f->type) {
	case T_U8:
	case T_U16:
	case T_U32:
	case T_U64:
		put_tl(b, f->tag, uint_size[f->type]);
		put_le(b, load_uint(p, f->type), uint_size[f->type]);
		break;
	case T_U64X4:
		put_tl(b, f->tag, 32);
		for (int i = 0; i < 4; i++)
			put_le(b, ((const uint64_t *)p)[i], 8);
		break;
	case T_STR: {
		/* Text is stored as printable ASCII, which is all a reader
		 * accepts: anything else (a brand string from CPUID, say) is
		 * stored as '?'. */
		size_t len = strnlen((const char *)p, f->size - 1);
		put_tl(b, f->tag, len);
		for (size_t i = 0; i < len; i++)
			put_le(b, rec_printable(p[i]) ? p[i] : '?', 1);
		break;
	}
	case T_TIME: {
		/* A time the firmware got wrong (month 255, say) is stored as
		 * not set: a reader refuses it. */
		static const struct rec_time unset;
		const struct rec_time *t = rec_time_ok((const struct rec_time *)p) ? (const struct rec_time *)p : &unset;
		put_tl(b, f->tag, 15);
		put_le(b, t->year, 2);
		put_le(b, t->month, 1);
		put_le(b, t->day, 1);
		put_le(b, t->hour, 1);
		put_le(b, t->minute, 1);
		put_le(b, t->second, 1);
		put_le(b, t->daylight, 1);
		put_le(b, t->nanosecond, 4);
		put_le(b, (uint16_t)t->timezone, 2);
		put_le(b, t->valid, 1);
		break;
	}
	case T_U64X8:
		put_tl(b, f->tag, 64);
		for (int i = 0; i < 8; i++)
			put_le(b, ((const uint64_t *)p)[i], 8);
		break;
	case T_U32X64:
		put_tl(b, f->tag, 256);
		for (int i = 0; i < 64; i++)
			put_le(b, ((const uint32_t *)p)[i], 4);
		break;
	case T_REG:
	case T_BUSY2:
	case T_FAULT2: {
		const struct rec_reg *x = (const struct rec_reg *)p;
		put_tl(b, f->tag, REG_BYTES + (f->type == T_BUSY2 ? 8 : f->type == T_FAULT2 ? 1 : 0));
		put_le(b, x->space, 1);
		put_le(b, x->bus, 1);
		put_le(b, x->dev, 1);
		put_le(b, x->func, 1);
		put_le(b, x->addr, 8);
		if (f->type == T_BUSY2)
			put_le(b, ((const struct rec_busy2 *)p)->value, 8);
		if (f->type == T_FAULT2)
			put_le(b, ((const struct rec_fault2 *)p)->write, 1);
		break;
	}
	case T_SPAN: {
		const struct rec_span *x = (const struct rec_span *)p;
		put_tl(b, f->tag, x->len);
		put(b, x->p, x->len);
		break;
	}
	case T_EVENT:
	case T_PMU:
	case T_BOXINFO: {
		/* A nested body: its length is known only once written. */
		size_t nsub;
		const struct field *sub = nested(f->type, &nsub);
		put_tl(b, f->tag, 0);
		size_t at = b->len;
		put_fields(b, sub, nsub, p);
		if (!b->overflow) {
			size_t len = b->len - at;
			for (int i = 0; i < 4; i++)
				b->p[at - 4 + i] = (uint8_t)(len >> (8 * i));
		}
		break;
	}
	}
}

static size_t elem_size(uint8_t type)
{
	switch (type) {
	case T_EVENT: return sizeof(struct rec_event);
	case T_BUSY2: return sizeof(struct rec_busy2);
	case T_FAULT2: return sizeof(struct rec_fault2);
	case T_PMU: return sizeof(struct rec_pmu);
	case T_BOXINFO: return sizeof(struct rec_boxinfo);
	default: return 0;
	}
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A field whose value is all zeros (a 0, an empty text, a time not set)
 * is left out: a reader takes an absent field as zero, and an EFI variable
 * has little room. */
static void put_fields(struct rec_buf *b, const struct field *t, size_t n, const uint8_t *base)
{
	for (size_t i = 0; i < n; i++) {
		const struct field *f = &t[i];
		if (!f->max) {
			if (!all_zero(base + f->off, f->size))
				put_one(b, f, base + f->off);
			continue;
		}
		uint32_t count = *(const uint32_t *)(base + f->count_off);
		for (uint32_t k = 0; k < count && k < f->max; k++)
			put_one(b, f, base + f->off + k * elem_size(f->type));
	}
}

void rec_begin(struct rec_buf *b)
{
	b->len = 0;
	b->overflow = false;
	uint8_t zero[REC_HEADER_SIZE] = { 0 };
	put(b, zero, sizeof(zero));
}

void rec_put(struct rec_buf *b, const struct rec *r)
{
	put_fields(b, top, NFIELDS(top), (const uint8_t *)r);
}

/* Layout 1 and 2's samples: the same boxes for every event. */
static size_t sample_size(uint16_t tag, uint32_t nevents)
{
	return 8 + (8 + 8 * sample_boxes(tag)) * (size_t)nevents;
}

void rec_put_sample(struct rec_buf *b, uint32_t nevents, const uint32_t *nboxes, uint64_t t, const uint64_t *running,
		    const uint64_t *const *box)
{
	size_t len = 8;

	for (uint32_t i = 0; i < nevents; i++)
		len += 8 + 8 * (size_t)(nboxes[i] ? nboxes[i] : 1);
	put_tl(b, TAG_SAMPLE_N, len);
	put_le(b, t, 8);
	for (uint32_t i = 0; i < nevents; i++) {
		put_le(b, running[i], 8);
		for (uint32_t k = 0; k < (nboxes[i] ? nboxes[i] : 1); k++)
			put_le(b, box[i] ? box[i][k] : 0, 8);
	}
}

void rec_put_raw(struct rec_buf *b, const void *p, size_t n)
{
	put(b, p, n);
}

enum unc_status rec_end(struct rec_buf *b)
{
	if (b->overflow || b->len < REC_HEADER_SIZE)
		return UNC_E_NO_MEMORY;
	size_t body = b->len - REC_HEADER_SIZE;
	struct rec_buf h = { b->p, 0, REC_HEADER_SIZE, false };
	put_le(&h, REC_MAGIC, 4);
	put_le(&h, REC_VERSION, 2);
	put_le(&h, REC_HEADER_SIZE, 2);
	put_le(&h, body, 4);
	put_le(&h, crc32_ieee(b->p + REC_HEADER_SIZE, body), 4);
	return UNC_OK;
}

/* ---- decoding ---- */

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

static void store_uint(void *p, uint8_t type, uint64_t v)
{
	switch (type) {
	case T_U8: *(uint8_t *)p = (uint8_t)v; break;
	case T_U16: *(uint16_t *)p = (uint16_t)v; break;
	case T_U32: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

static const struct field *find(const struct field *t, size_t n, uint16_t tag)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].tag == tag)
			return &t[i];
	return NULL;
}

static enum unc_status get_fields(const uint8_t *p, size_t len, const struct field *t, size_t n, uint8_t *base,
				  const char *where, char *err, size_t errsize);

static enum unc_status get_one(const struct field *f, const uint8_t *v, size_t len, uint8_t *dst, const char *where,
			       char *err, size_t errsize)
{
	size_t want;

	switch (f->type) {
	case T_U8:
	case T_U16:
	case T_U32:
	case T_U64:
		want = uint_size[f->type];
		break;
	case T_U64X4: want = 32; break;
	case T_TIME: want = 15; break;
	case T_U64X8: want = 64; break;
	case T_U32X64: want = 256; break;
	case T_REG: want = REG_BYTES; break;
	case T_BUSY2: want = REG_BYTES + 8; break;
	case T_FAULT2: want = REG_BYTES + 1; break;
	default: want = 0; break;
	}
	if (want && len != want)
		FAIL("%sfield '%s' has %zu bytes, not %zu", where, f->name, len, want);
	switch (f->type) {
	case T_U8:
	case T_U16:
	case T_U32:
	case T_U64:
		store_uint(dst, f->type, get_le(v, (unsigned)want));
		break;
	case T_U64X4:
		for (int i = 0; i < 4; i++)
			((uint64_t *)dst)[i] = get_le(v + 8 * i, 8);
		break;
	case T_STR:
		if (len >= f->size)
			FAIL("%sfield '%s' is %zu bytes long, at most %zu", where, f->name, len, f->size - 1);
		if (memchr(v, 0, len))
			FAIL("%sfield '%s' has a NUL byte inside", where, f->name);
		/* Reports print text as it is: an ESC sequence, a CR or LF, or
		 * a byte the terminal takes for UTF-8 would act on the screen
		 * or split a row. The writer never stores one. */
		for (size_t i = 0; i < len; i++)
			if (!rec_printable(v[i]))
				FAIL("%sfield '%s' has byte 0x%02x at offset %zu: not printable ASCII", where, f->name, v[i], i);
		memcpy(dst, v, len);
		dst[len] = '\0';
		break;
	case T_TIME: {
		struct rec_time *t = (struct rec_time *)dst;
		t->year = (uint16_t)get_le(v, 2);
		t->month = v[2];
		t->day = v[3];
		t->hour = v[4];
		t->minute = v[5];
		t->second = v[6];
		t->daylight = v[7];
		t->nanosecond = (uint32_t)get_le(v + 8, 4);
		t->timezone = (int16_t)get_le(v + 12, 2);
		t->valid = v[14];
		char why[80];
		if (!rec_time_check(t, why, sizeof(why)))
			FAIL("%sfield '%s' %s", where, f->name, why);
		break;
	}
	case T_U64X8:
		for (int i = 0; i < 8; i++)
			((uint64_t *)dst)[i] = get_le(v + 8 * i, 8);
		break;
	case T_U32X64:
		for (int i = 0; i < 64; i++) {
			((uint32_t *)dst)[i] = (uint32_t)get_le(v + 4 * i, 4);
			if (((uint32_t *)dst)[i] >> 24)
				FAIL("%sfield '%s' has 0x%x at %d: not bus << 16 | device << 8 | function", where, f->name,
				     ((uint32_t *)dst)[i], i);
		}
		break;
	case T_REG:
	case T_BUSY2:
	case T_FAULT2: {
		struct rec_reg *x = (struct rec_reg *)dst;
		x->space = v[0];
		x->bus = v[1];
		x->dev = v[2];
		x->func = v[3];
		x->addr = get_le(v + 4, 8);
		if (x->space > 2)
			FAIL("%sfield '%s' names address space %u", where, f->name, x->space);
		if (f->type == T_BUSY2)
			((struct rec_busy2 *)dst)->value = get_le(v + REG_BYTES, 8);
		if (f->type == T_FAULT2)
			((struct rec_fault2 *)dst)->write = v[REG_BYTES];
		break;
	}
	case T_SPAN:
		((struct rec_span *)dst)->p = v;
		((struct rec_span *)dst)->len = (uint32_t)len;
		break;
	case T_EVENT:
	case T_PMU:
	case T_BOXINFO: {
		size_t nsub;
		const struct field *sub = nested(f->type, &nsub);
		memset(dst, 0, elem_size(f->type));
		return get_fields(v, len, sub, nsub, dst, where, err, errsize);
	}
	}
	return UNC_OK;
}

/* Walks one body of fields. Samples are only counted here (see rec_decode). */
static enum unc_status get_fields(const uint8_t *p, size_t len, const struct field *t, size_t n, uint8_t *base,
				  const char *where, char *err, size_t errsize)
{
	uint64_t seen[2] = { 0, 0 }; /* scalar fields seen, by table index (tables have < 128 entries) */
	bool samples = false;
	size_t at = 0;
	enum unc_status st;

	while (at < len) {
		if (len - at < 6)
			FAIL("%struncated field header at byte %zu", where, at);
		uint16_t tag = (uint16_t)get_le(p + at, 2);
		size_t flen = (size_t)get_le(p + at + 2, 4);
		at += 6;
		if (flen > len - at)
			FAIL("%sfield 0x%04x claims %zu bytes, only %zu remain", where, tag, flen, len - at);
		const struct field *f = find(t, n, tag);
		if (f && f->type == T_EVENT && samples)
			FAIL("an event after the interval samples");
		if (t == top && (OLD_SAMPLE(tag) || tag == TAG_SAMPLE_N)) {
			struct rec *r = (struct rec *)base;
			bool v3 = r->version >= 3;
			if (v3 != (tag == TAG_SAMPLE_N))
				FAIL("an interval sample under tag 0x%04x in a record of layout %u", tag, r->version);
			if (!samples && v3) { /* every event is read: each one's place in a sample */
				r->sample_len = 8;
				for (uint32_t i = 0; i < r->nevents; i++) {
					if (r->ev[i].nboxes > REC_MAX_EV_BOXES)
						FAIL("event %u has %u boxes (at most %u)", i, r->ev[i].nboxes, REC_MAX_EV_BOXES);
					r->sample_off[i] = (uint32_t)r->sample_len;
					r->sample_len += 8 + 8 * (size_t)rec_ev_boxes(&r->ev[i]);
				}
			}
			samples = true;
			size_t want = v3 ? r->sample_len : sample_size(tag, r->nevents);
			if (flen != want)
				FAIL("interval sample %u has %zu bytes, not %zu for %u events", r->nintervals, flen, want,
				     r->nevents);
			r->nintervals++;
		} else if (f && f->max) {
			uint32_t *count = (uint32_t *)(base + f->count_off);
			if (*count >= f->max)
				FAIL("%stoo many '%s' fields (at most %zu)", where, f->name, f->max);
			char w[24]; /* errors inside a nested body name it */
			fmt_snprintf(w, sizeof(w), "%s %u: ", f->type == T_EVENT ? "event" : f->name, *count);
			size_t nsub;
			if ((st = get_one(f, p + at, flen, base + f->off + *count * elem_size(f->type),
					  nested(f->type, &nsub) ? w : where, err, errsize)))
				return st;
			++*count;
		} else if (f) {
			size_t ix = (size_t)(f - t);
			uint64_t bit = 1ull << (ix % 64);
			if (seen[ix / 64] & bit)
				FAIL("%sfield '%s' appears twice", where, f->name);
			seen[ix / 64] |= bit;
			if ((st = get_one(f, p + at, flen, base + f->off, where, err, errsize)))
				return st;
		}
		/* an unknown tag: a newer writer's field, skipped (in an older
		 * layout, one of its own: rec_old_walk) */
		at += flen;
	}
	return UNC_OK;
}

enum unc_status rec_old_uint(const struct rec_old_field *f, const char *name, unsigned size, uint64_t *ret, char *err,
			     size_t errsize)
{
	char where[24] = "";

	if (f->event >= 0)
		fmt_snprintf(where, sizeof(where), "event %d: ", f->event);
	if (f->len != size)
		FAIL("%sfield '%s' has %u bytes, not %u", where, name, (unsigned)f->len, size);
	*ret = get_le(f->v, size);
	return UNC_OK;
}

/* The fields of one body that table t does not declare (get_fields has
 * checked the body is well formed). */
static enum unc_status old_walk(const uint8_t *p, size_t len, const struct field *t, size_t n, int event,
				enum unc_status (*fn)(void *ctx, const struct rec_old_field *f), void *ctx)
{
	enum unc_status st;
	int nev = 0;

	for (size_t at = 0; at + 6 <= len;) {
		uint16_t tag = (uint16_t)get_le(p + at, 2);
		uint32_t flen = (uint32_t)get_le(p + at + 2, 4);
		const uint8_t *v = p + at + 6;
		const struct field *f = find(t, n, tag);
		at += 6 + (size_t)flen;
		if (f && f->type == T_EVENT) {
			size_t nsub;
			const struct field *sub = nested(T_EVENT, &nsub);
			if ((st = old_walk(v, flen, sub, nsub, nev++, fn, ctx)))
				return st;
		} else if (!f && !(t == top && OLD_SAMPLE(tag))) {
			struct rec_old_field of = { tag, (int16_t)event, flen, v };
			if ((st = fn(ctx, &of)))
				return st;
		}
	}
	return UNC_OK;
}

enum unc_status rec_old_walk(const struct rec_old *old, enum unc_status (*fn)(void *ctx, const struct rec_old_field *f),
			     void *ctx)
{
	return old_walk(old->body, old->len, top, NFIELDS(top), -1, fn, ctx);
}

/* Layout 3's per-box fields: each as long as the event's boxes (the
 * totals always there; the others absent, taken as zero, or whole). */
static enum unc_status spans_check(struct rec_event *e, uint32_t i, char *err, size_t errsize)
{
	uint32_t n = rec_ev_boxes(e);
	const struct {
		const struct rec_span *x;
		const char *name;
		size_t want;
		bool required;
	} f[] = {
		{ &e->pb_total, "box totals", 8 * (size_t)n, true }, { &e->pb_group, "box groups", 2 * (size_t)n, false },
		{ &e->pb_id, "box ids", 2 * (size_t)n, false },       { &e->pb_moved, "moved bits", (n + 7) / 8, false },
		{ &e->pb_still, "still bits", (n + 7) / 8, false },
	};

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
		if (f[k].x->len != f[k].want && (f[k].required || f[k].x->len))
			FAIL("event %u: %s have %u bytes, not %zu for %u boxes", i, f[k].name, f[k].x->len, f[k].want, n);
	e->spans = true;
	return UNC_OK;
}

/* An older layout, converted by the driver that wrote it. */
static enum unc_status convert(const struct rec_old *old, struct rec *r, char *err, size_t errsize)
{
	for (unsigned d = 0; pmu_drivers[d]; d++) {
		const struct pmu_ops *ops = pmu_drivers[d]->ops;
		enum unc_status st = ops->rec_convert ? ops->rec_convert(pmu_drivers[d], old, r, err, errsize)
						      : UNC_E_UNSUPPORTED;
		if (st != UNC_E_UNSUPPORTED)
			return st;
	}
	FAIL("record layout version %u: no driver of this reader converts it", old->version);
}

enum unc_status rec_decode(const uint8_t *data, size_t len, struct rec *r,
			   void (*on_sample)(void *ctx, const struct rec *r, const struct rec_sample *s), void *ctx,
			   char *err, size_t errsize)
{
	enum unc_status st;

	memset(r, 0, sizeof(*r));
	if (len < REC_HEADER_SIZE)
		FAIL("truncated: %zu bytes, shorter than the %d-byte header", len, REC_HEADER_SIZE);
	uint32_t magic = (uint32_t)get_le(data, 4);
	uint16_t version = (uint16_t)get_le(data + 4, 2), hsize = (uint16_t)get_le(data + 6, 2);
	uint32_t body = (uint32_t)get_le(data + 8, 4), crc = (uint32_t)get_le(data + 12, 4);
	if (magic != REC_MAGIC)
		FAIL("not an uncore record (magic 0x%08x, want 0x%08x)", magic, REC_MAGIC);
	if (version < 1 || version > REC_VERSION)
		FAIL("record layout version %u; this reader knows versions 1 to %d", version, REC_VERSION);
	if (hsize != REC_HEADER_SIZE)
		FAIL("header size %u; version %u has %d", hsize, version, REC_HEADER_SIZE);
	if ((size_t)body != len - REC_HEADER_SIZE)
		FAIL("%s: the header announces %u bytes of fields, %zu are present",
		     (size_t)body > len - REC_HEADER_SIZE ? "truncated" : "trailing bytes", body, len - REC_HEADER_SIZE);
	uint32_t got = crc32_ieee(data + REC_HEADER_SIZE, body);
	if (got != crc)
		FAIL("CRC mismatch: the header says 0x%08x, the fields give 0x%08x", crc, got);
	r->version = version;
	if ((st = get_fields(data + REC_HEADER_SIZE, body, top, NFIELDS(top), (uint8_t *)r, "", err, errsize)))
		return st;
	if (!r->command[0])
		FAIL("the record names no command");
	if (r->x.load_kind > LOAD_NKINDS)
		FAIL("the record names load kind %u", r->x.load_kind);
	if (r->x.check > CHECK_WRITE || r->x.check_verdict > VERDICT_NONE)
		FAIL("the record names bandwidth check %u with verdict %u", r->x.check, r->x.check_verdict);
	if (r->x.child_ran > CHILD_NO_STATUS)
		FAIL("the record names child outcome %u", r->x.child_ran);
	struct rec_old old = { version, data + REC_HEADER_SIZE, body };
	if (version == 1 && (st = convert(&old, r, err, errsize)))
		return st;
	for (uint32_t i = 0; i < r->nevents && version >= 2; i++) {
		struct rec_event *e = &r->ev[i];
		if (!e->pmu[0] || !e->count_word[0])
			FAIL("event %u names no PMU or what it counts", i);
		if (version == 2)
			e->nboxes = e->old.nboxes;
		uint32_t most = version == 2 ? REC_OLD_BOXES : REC_MAX_EV_BOXES;
		if (e->kind > 2 || e->nboxes > most || e->role > 2 || e->clock > 1 || e->width > 64)
			FAIL("event %u has kind %u, %u boxes, role %u, clock %u, width %u", i, e->kind, e->nboxes, e->role,
			     e->clock, e->width);
		if (version >= 3 && (st = spans_check(e, i, err, errsize)))
			return st;
	}
	for (uint32_t i = 0; i < r->nboxinfo; i++)
		if ((version < 3 && r->boxinfo[i].n > REC_OLD_BOXES) ||
		    (r->boxinfo[i].found && r->boxinfo[i].found < r->boxinfo[i].n))
			FAIL("box count %u says %u programmed of %u", i, r->boxinfo[i].n, r->boxinfo[i].found);
	if (!on_sample)
		return UNC_OK;
	/* Second pass: hand each interval sample over, in order. */
	struct rec_sample s;
	size_t at = REC_HEADER_SIZE;
	while (at < len) {
		uint16_t tag = (uint16_t)get_le(data + at, 2);
		size_t flen = (size_t)get_le(data + at + 2, 4);
		const uint8_t *v = data + at + 6;
		at += 6 + flen;
		if (!(version >= 3 ? tag == TAG_SAMPLE_N : OLD_SAMPLE(tag))) /* sizes checked in the first pass */
			continue;
		s = (struct rec_sample){ get_le(v, 8), tag, v };
		on_sample(ctx, r, &s);
	}
	return UNC_OK;
}
