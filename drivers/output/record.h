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
#include "report.h"
#include "../base/status.h"

#define REC_MAGIC        0x52434E55u /* "UNCR" */
#define REC_VERSION      2 /* what the writer writes; the reader also takes version 1 (converted) */
#define REC_HEADER_SIZE  16
#define REC_MAX_EVENTS   32
#define REC_MAX_BUSY     16
#define REC_MAX_FAULTS   16
#define REC_MAX_BOXES    16
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

struct rec_event {
	char name[REC_STR];
	uint8_t moved, moved_hi; /* bit b: box b (moved_hi: box 8 + b) changed */
	uint64_t box[REC_MAX_BOXES]; /* boxes 4-7 and 8-15 in fields of their own (absent in older records: 0) */
	uint64_t running; /* ticks */
	uint8_t still, still_hi; /* programmed events: bit b, box b (still_hi: 8 + b) never changed (absent in older
				  * records: 0) */
	/* what a report needs, as the driver described the event */
	char driver[REC_STR], pmu[16], box_label[8], box_noun[12], short_name[8], count_word[12], enc_prefix[12];
	uint64_t encoding;
	uint8_t kind, nboxes, width, role, clock;
	/* boxes in groups: the group's noun, and box b's group and number in
	 * byte b (the _hi ones: box 8 + b's; absent in older records: no groups) */
	char group_noun[8];
	uint64_t groups, box_ids, groups_hi, box_ids_hi;
};

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
	/* load, SMBIOS peak, check, child */
	struct run_extras x;
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

/* An interval sample: the time since the start and every event's running
 * totals then (the report takes the difference of two). */
struct rec_sample {
	uint64_t t;
	uint64_t box[REC_MAX_EVENTS][REC_MAX_BOXES];
	uint64_t running[REC_MAX_EVENTS];
};

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
/* A sample of a run whose events count in up to 4 boxes holds 4 boxes per
 * event; with more, 8, and with more than 8, 16, each under a tag of its own. */
void rec_put_sample(struct rec_buf *b, uint32_t nevents, uint32_t nboxes, const struct rec_sample *s);
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
 * order. On error writes one line naming the problem into err. */
enum unc_status rec_decode(const uint8_t *data, size_t len, struct rec *ret,
			   void (*on_sample)(void *ctx, const struct rec *r, const struct rec_sample *s), void *ctx,
			   char *err, size_t errsize);

#endif
