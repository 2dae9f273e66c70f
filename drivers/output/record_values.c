/* What a decoded record gives (record.h): its times checked and printed,
 * each event's per-box values in any layout, each sample's values, and
 * the record's memory given back. Encoding and decoding are record.c's. */
#include "record.h"
#include "record_int.h"

#include "../base/fmt.h"
#include "../base/pool.h"

/* ---- time ---- */

/* EFI_TIME's ranges (UEFI 2.10, 8.3): the day within its month, the
 * timezone in minutes or EFI_UNSPECIFIED_TIMEZONE, daylight two flags.
 * A time not set (GetTime failed) is all zeros. */
bool rec_time_check(const struct rec_time *t, char *why, size_t size)
{
	static const uint8_t mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (t->valid > 1)
		return fmt_snprintf(why, size, "has valid %u (0 or 1)", t->valid), false;
	if (!t->valid) {
		if (t->year || t->month || t->day || t->hour || t->minute || t->second || t->daylight || t->nanosecond ||
		    t->timezone)
			return fmt_snprintf(why, size, "is marked not set but holds a time"), false;
		return true;
	}
	if (t->year < 1900 || t->year > 9999)
		return fmt_snprintf(why, size, "has year %u (1900 to 9999)", t->year), false;
	if (t->month < 1 || t->month > 12)
		return fmt_snprintf(why, size, "has month %u (1 to 12)", t->month), false;
	bool leap = (t->year % 4 == 0 && t->year % 100 != 0) || t->year % 400 == 0;
	unsigned last = mdays[t->month - 1] + (t->month == 2 && leap);
	if (t->day < 1 || t->day > last)
		return fmt_snprintf(why, size, "has day %u (1 to %u in %04u-%02u)", t->day, last, t->year, t->month), false;
	if (t->hour > 23)
		return fmt_snprintf(why, size, "has hour %u (0 to 23)", t->hour), false;
	if (t->minute > 59)
		return fmt_snprintf(why, size, "has minute %u (0 to 59)", t->minute), false;
	if (t->second > 59)
		return fmt_snprintf(why, size, "has second %u (0 to 59)", t->second), false;
	if (t->nanosecond > 999999999)
		return fmt_snprintf(why, size, "has nanosecond %u (0 to 999999999)", t->nanosecond), false;
	if ((t->timezone < -1440 || t->timezone > 1440) && t->timezone != 2047)
		return fmt_snprintf(why, size, "has timezone %d (-1440 to 1440, or 2047)", t->timezone), false;
	if (t->daylight > 3)
		return fmt_snprintf(why, size, "has daylight %u (0 to 3)", t->daylight), false;
	return true;
}

bool rec_time_ok(const struct rec_time *t)
{
	char why[80];

	return rec_time_check(t, why, sizeof(why));
}

void rec_time_text(const struct rec_time *t, char *buf, size_t size)
{
	fmt_snprintf(buf, size, "%04u-%02u-%02u %02u:%02u:%02u", t->year, t->month, t->day, t->hour, t->minute,
		     t->second);
}

/* ---- per-box values ---- */

uint64_t rec_box(const struct rec_event *e, uint32_t b)
{
	if (!e->spans)
		return b < REC_OLD_BOXES ? e->old.box[b] : 0;
	return (size_t)b * 8 + 8 <= e->pb_total.len ? get_le(e->pb_total.p + (size_t)b * 8, 8) : 0;
}

static unsigned old_byte(uint64_t lo, uint64_t hi, uint32_t b)
{
	return b < 16 ? (uint8_t)((b < 8 ? lo : hi) >> (8 * (b % 8))) : 0;
}

unsigned rec_box_group(const struct rec_event *e, uint32_t b)
{
	if (!e->spans)
		return old_byte(e->old.groups, e->old.groups_hi, b);
	return (size_t)b * 2 + 2 <= e->pb_group.len ? (unsigned)get_le(e->pb_group.p + (size_t)b * 2, 2) : 0;
}

unsigned rec_box_id(const struct rec_event *e, uint32_t b)
{
	if (!e->spans)
		return old_byte(e->old.box_ids, e->old.box_ids_hi, b);
	return (size_t)b * 2 + 2 <= e->pb_id.len ? (unsigned)get_le(e->pb_id.p + (size_t)b * 2, 2) : 0;
}

static bool bit(const struct rec_span *x, uint8_t lo, uint8_t hi, bool spans, uint32_t b)
{
	if (!spans)
		return b < 16 && ((b < 8 ? lo : hi) >> (b % 8) & 1);
	return b / 8 < x->len && (x->p[b / 8] >> (b % 8) & 1);
}

bool rec_box_moved(const struct rec_event *e, uint32_t b)
{
	return bit(&e->pb_moved, e->old.moved, e->old.moved_hi, e->spans, b);
}

bool rec_box_still(const struct rec_event *e, uint32_t b)
{
	return bit(&e->pb_still, e->old.still, e->old.still_hi, e->spans, b);
}

uint64_t rec_sample_running(const struct rec *r, const struct rec_sample *s, uint32_t ev)
{
	if (ev >= r->nevents)
		return 0;
	if (s->tag == TAG_SAMPLE_N)
		return get_le(s->v + r->sample_off[ev], 8);
	return get_le(s->v + 8 + (8 + 8 * sample_boxes(s->tag)) * ev, 8);
}

uint64_t rec_sample_box(const struct rec *r, const struct rec_sample *s, uint32_t ev, uint32_t b)
{
	if (ev >= r->nevents)
		return 0;
	if (s->tag == TAG_SAMPLE_N)
		return b < rec_ev_boxes(&r->ev[ev]) ? get_le(s->v + r->sample_off[ev] + 8 + 8 * (size_t)b, 8) : 0;
	return b < sample_boxes(s->tag) ? get_le(s->v + 16 + (8 + 8 * sample_boxes(s->tag)) * ev + 8 * b, 8) : 0;
}

void rec_free(struct rec *r)
{
	unc_free(r->mem);
	r->mem = NULL;
}
