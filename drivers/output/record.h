/* Stored results: one versioned, self-describing binary record per run,
 * written by uncore.efi (-o var) and read back by `var show` and by the host
 * decoder (tools/uncore_decode.c).
 *
 *   header  magic "UNCR", u16 layout version, u16 header size, u32 body
 *           length, u32 CRC-32 of the body (all little-endian)
 *   body    a sequence of fields: u16 tag, u32 length, value
 *
 * Every field is declared once, in the tables below (tag, member, type);
 * the same tables drive the encoder and the decoder, so no offset or size
 * is written twice. Events and interval samples are repeated fields; an
 * event's own fields form a nested body. Unknown tags are skipped, so a
 * newer writer's extra fields do not break an older reader; a newer layout
 * version is refused. An older layout is converted to the current one as it
 * is read, by the driver that wrote it (its rec_convert op, pmu.h): its
 * fields that the current layout lacks are handed to it (struct rec_old). */
#ifndef UNC_RECORD_H
#define UNC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/hw.h"
#include "../base/smbios.h"
#include "report.h"
#include "../base/status.h"

#define REC_MAGIC        0x52434E55u /* "UNCR" */
#define REC_VERSION      3 /* what the writer writes; the reader also takes versions 1 (converted) and 2 */
#define REC_HEADER_SIZE  16
#define REC_MAX_EVENTS   32
#define REC_MAX_BUSY     16
#define REC_MAX_FAULTS   16
#define REC_OLD_BOXES    16 /* layout 2's most boxes an event (fields of 4, 4 and 8) */
#define REC_MAX_EV_BOXES 65535u /* layout 3's: the engine's box count (struct count_view) is 16 bits */
#define REC_STR          64
#define REC_LONG_STR     256
#define REC_MAX_PMUS     4
#define REC_MAX_BOXINFO  4

struct rec_time { /* EFI_TIME's fields */
	uint16_t year;
	uint8_t month, day, hour, minute, second, daylight;
	uint32_t nanosecond;
	int16_t timezone;
	uint8_t valid; /* GetTime succeeded */
};

/* Bytes stored in the record: a per-box field's value, read by rec_box and
 * co. (pointing into the record's bytes when decoded, into the writer's
 * block when written: rec_from_run). */
struct rec_span {
	const uint8_t *p;
	uint32_t len;
};

/* Layout 2's (and 1's) fields for boxes 0-15 of an event: read only, by the
 * decoder, for rec_box and co. */
struct rec_ev_old {
	uint8_t nboxes;
	uint8_t moved, moved_hi; /* bit b: box b (moved_hi: box 8 + b) changed */
	uint8_t still, still_hi; /* programmed events: bit b, box b (still_hi: 8 + b) never changed */
	uint64_t box[REC_OLD_BOXES];
	uint64_t groups, box_ids, groups_hi, box_ids_hi; /* byte b: box b's group and number (_hi: box 8 + b) */
};

struct rec_event {
	char name[REC_STR];
	uint64_t running; /* ticks */
	/* what a report needs, as the driver described the event */
	char driver[REC_STR], pmu[16], box_label[8], box_noun[12], short_name[8], count_word[12], enc_prefix[12];
	uint64_t encoding;
	uint8_t kind, width, role, clock;
	uint32_t nboxes; /* boxes it counted in (the per-box values hold rec_ev_boxes of each) */
	char group_noun[8]; /* its boxes' groups ("socket"); "": none */
	/* Layout 3: every box's value, rec_ev_boxes(e) of each, little-endian:
	 * totals u64, group u16, number in its group u16, moved and still one
	 * bit each (box b: byte b / 8, bit b % 8). An absent field (len 0) is
	 * all zero. */
	bool spans; /* the per-box values are in these (else in old) */
	struct rec_span pb_total, pb_group, pb_id, pb_moved, pb_still;
	struct rec_ev_old old;
};

/* The boxes an event's per-box values hold: nboxes, at least 1. */
static inline uint32_t rec_ev_boxes(const struct rec_event *e)
{
	return e->nboxes ? e->nboxes : 1;
}

/* Box b's total, group (socket), number in its group, whether its counter
 * changed, and (programmed events) whether it never changed; 0 past the
 * boxes stored. */
uint64_t rec_box(const struct rec_event *e, uint32_t b);
unsigned rec_box_group(const struct rec_event *e, uint32_t b);
unsigned rec_box_id(const struct rec_event *e, uint32_t b);
bool rec_box_moved(const struct rec_event *e, uint32_t b);
bool rec_box_still(const struct rec_event *e, uint32_t b);

/* A register in its address space (layout 2). */
struct rec_reg {
	uint8_t space, bus, dev, func;
	uint64_t addr;
};

struct rec_busy2 {
	struct rec_reg reg;
	uint64_t value;
};

struct rec_fault2 {
	struct rec_reg reg;
	uint8_t write;
};

/* One driver that matched the CPU, and what its probe found (layout 2):
 * the facts are the driver's own, read back by its info op. */
struct rec_pmu {
	char driver[REC_STR], model[REC_STR];
	uint32_t probed;
	uint64_t boxes[8], found[8], base[8], facts[8];
	uint32_t pci[64];  /* unit u, box b at [u * 8 + b]: bus << 16 | device << 8 | function */
	uint8_t use_checked, use_known, in_use;
	uint64_t global_ctrl;
	uint32_t selects_checked;
	uint32_t nbusy;
	struct rec_busy2 busy[REC_MAX_BUSY];
};

/* A header's box count (layout 2): "8 CBos (REGISTER gives 14; ...)". */
struct rec_boxinfo {
	char noun[12], label[8], from[32];
	uint32_t n, found;
};

/* Everything a record holds except the interval samples (see rec_walk). */
struct rec {
	/* identity */
	char tool[REC_STR];
	char command[16];         /* "stat", "bw", "info" */
	struct rec_time time;
	uint32_t status;          /* the run's enum unc_status */
	uint16_t version;         /* the layout it was read in (1: converted, or 2) */
	/* the platform facts of `info` */
	char vendor[16], brand[REC_STR], topology[REC_STR], model_name[REC_STR];
	uint32_t family, model, stepping, cores, threads, phys_bits;
	uint8_t hypervisor, msr_mode;
	char emulator[REC_LONG_STR];
	uint64_t tsc_hz;
	struct hw_tsc tsc;        /* where tsc_hz came from (absent in older records: all 0) */
	uint32_t verdict;
	char verdict_reason[REC_LONG_STR];
	/* the drivers that matched, and faults by address space */
	uint32_t npmus;
	struct rec_pmu pmus[REC_MAX_PMUS];
	uint32_t nfaults2;
	struct rec_fault2 faults2[REC_MAX_FAULTS];
	/* the measurement (stat, bw) */
	uint32_t ngroups, rotations;
	uint8_t per_box;
	uint64_t elapsed;          /* ticks, first enable to last sample */
	uint64_t interval;         /* -I in milliseconds; 0 without -I */
	uint32_t nevents;
	struct rec_event ev[REC_MAX_EVENTS];
	/* the header's box counts, and where the free-running counters are */
	uint32_t nboxinfo;
	struct rec_boxinfo boxinfo[REC_MAX_BOXINFO];
	uint8_t programs;
	char where[96], free_pmu[16], req_note[160];
	uint32_t nintervals;       /* interval samples in the record */
	uint32_t sample_off[REC_MAX_EVENTS]; /* layout 3: event i's place in a sample (after t) */
	size_t sample_len;         /* layout 3: a sample's bytes */
	void *mem;                 /* the writer's per-box block (rec_from_run; rec_free), NULL when decoded */
	/* load, SMBIOS peak, check, child */
	struct run_extras x;
	/* the machine as SMBIOS names it when the record was stored ("": absent) */
	struct smbios_id id;
	uint32_t boot_seq;         /* 0: not a boot-time check; else the boot number of a boot-check record */
};

/* Whether a time is one EFI_TIME can hold (each field in its range, the
 * day within its month), or not set at all (valid 0, all zero). The
 * decoder refuses any other; the writer stores no other. */
bool rec_time_ok(const struct rec_time *t);
/* "YYYY-MM-DD hh:mm:ss" */
void rec_time_text(const struct rec_time *t, char *buf, size_t size);

/* The only bytes a record's text may hold: printable ASCII. */
static inline bool rec_printable(uint8_t c)
{
	return c >= 0x20 && c <= 0x7e;
}

/* An interval sample as stored: the time since the start and every
 * event's running totals then (the report takes the difference of two),
 * read with rec_sample_running and rec_sample_box (the bytes are the
 * record's). */
struct rec_sample {
	uint64_t t;
	uint16_t tag;
	const uint8_t *v;
};
uint64_t rec_sample_running(const struct rec *r, const struct rec_sample *s, uint32_t ev);
uint64_t rec_sample_box(const struct rec *r, const struct rec_sample *s, uint32_t ev, uint32_t b);

/* A growable byte buffer; `cap` is fixed by the caller. */
struct rec_buf {
	uint8_t *p;
	size_t len, cap;
	bool overflow;
};

/* Encoding: rec_begin, rec_put (the fields of r), rec_put_sample per
 * interval, rec_end (which fills in the header). */
void rec_begin(struct rec_buf *b);
void rec_put(struct rec_buf *b, const struct rec *r);
/* A sample (layout 3): t, then per event its running ticks and the totals
 * of its nboxes[i] boxes (at least 1; box[i] NULL: zeros). */
void rec_put_sample(struct rec_buf *b, uint32_t nevents, const uint32_t *nboxes, uint64_t t, const uint64_t *running,
		    const uint64_t *const *box);
/* Appends bytes encoded elsewhere (samples gathered during the run). */
void rec_put_raw(struct rec_buf *b, const void *p, size_t n);
enum unc_status rec_end(struct rec_buf *b);

/* An older layout's field that the current layout does not declare: its
 * tag, its bytes, and the event whose body holds it (-1: the top level). */
struct rec_old_field {
	uint16_t tag;
	int16_t event;
	uint32_t len;
	const uint8_t *v;
};

/* A record of an older layout, for the driver that wrote it to convert
 * (pmu.h, rec_convert): its version and its fields as stored (checked to
 * be well formed), which rec_old_walk goes through. */
struct rec_old {
	uint16_t version;
	const uint8_t *body;
	size_t len;
};

/* Calls fn for each field of the record that the current layout does not
 * declare, in order (at the top level, and in each event's body); stops at
 * the first status fn returns other than UNC_OK, and returns it. */
enum unc_status rec_old_walk(const struct rec_old *old, enum unc_status (*fn)(void *ctx, const struct rec_old_field *f),
			     void *ctx);

/* An older field's unsigned value of `size` bytes (1, 2, 4 or 8, little
 * endian); on another length one line in err ("event 2: field 'unit' has 2
 * bytes, not 1"), naming it `name`. */
enum unc_status rec_old_uint(const struct rec_old_field *f, const char *name, unsigned size, uint64_t *ret, char *err,
			     size_t errsize);

/* Decoding: checks the header, the CRC and every field, fills *ret (a
 * record of an older layout converted to the current one, version saying
 * which it was); calls on_sample (may be NULL) for each interval sample in
 * order. On error writes one line naming the problem into err. The per-box
 * values and samples point into data: keep it while *ret is read. */
enum unc_status rec_decode(const uint8_t *data, size_t len, struct rec *ret,
			   void (*on_sample)(void *ctx, const struct rec *r, const struct rec_sample *s), void *ctx,
			   char *err, size_t errsize);

/* Gives back the writer's per-box block (rec_from_run), if any. */
void rec_free(struct rec *r);

#endif
