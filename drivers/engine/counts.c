#include "counts.h"

#include <string.h>

#include "../base/arith.h"
#include "../base/fmt.h"
#include "../base/pool.h"

static unsigned boxes_of(const struct count_event *e)
{
	return e->v.nboxes ? e->v.nboxes : 1;
}

/* Per event: total.box, mark.box (8 bytes a box), then group, box_id and
 * moved (a byte a box), every event's u64s first so that they stay aligned. */
enum unc_status count_room(struct count_run *r)
{
	size_t n = 0;

	count_free(r);
	for (unsigned i = 0; i < r->nev; i++)
		n += boxes_of(&r->ev[i]);
	uint8_t *m = unc_alloc(n ? n * (2 * sizeof(uint64_t) + 3) : 1);
	if (!m)
		return UNC_E_NO_MEMORY;
	r->mem = m;
	uint64_t *q = (uint64_t *)(void *)m;
	uint8_t *c = m + 2 * n * sizeof(uint64_t);
	for (unsigned i = 0; i < r->nev; i++) {
		struct count_event *e = &r->ev[i];
		unsigned k = boxes_of(e);
		e->total.box = q, e->mark.box = q + k, q += 2 * k;
		e->v.group = c, e->v.box_id = c + k, e->moved = c + 2 * k, c += 3 * k;
	}
	return UNC_OK;
}

void count_free(struct count_run *r)
{
	unc_free(r->mem);
	r->mem = NULL;
	for (unsigned i = 0; i < STAT_MAX_EVENTS; i++) {
		struct count_event *e = &r->ev[i];
		e->total.box = e->mark.box = NULL;
		e->v.group = e->v.box_id = e->moved = NULL;
	}
}

void count_zero(struct count_run *r)
{
	for (unsigned i = 0; i < r->nev; i++) {
		struct count_event *e = &r->ev[i];
		unsigned k = boxes_of(e);
		e->total.running = e->mark.running = 0;
		if (!e->total.box)
			continue;
		memset(e->total.box, 0, k * sizeof(uint64_t));
		memset(e->mark.box, 0, k * sizeof(uint64_t));
		memset(e->moved, 0, k);
	}
}

bool count_moved(const struct count_event *e)
{
	for (unsigned b = 0; e->moved && b < boxes_of(e); b++)
		if (e->moved[b])
			return true;
	return false;
}

bool count_still_box(const struct count_run *r, unsigned i, unsigned b)
{
	const struct count_event *e = &r->ev[i];

	return e->total.running && e->moved && b < boxes_of(e) && !e->moved[b];
}

unsigned count_still(const struct count_run *r, unsigned i)
{
	unsigned n = 0;

	for (unsigned b = 0; b < boxes_of(&r->ev[i]); b++)
		n += count_still_box(r, i, b);
	return n;
}

uint64_t count_enabled(const struct count_run *r)
{
	return r->t_end - r->t_start;
}

static uint64_t scaled(const struct count_event *e, bool interval, int box, uint64_t enabled)
{
	const struct count_totals *c = &e->total;
	uint64_t raw = 0, running = c->running - (interval ? e->mark.running : 0);

	for (int b = 0; c->box && b < (int)boxes_of(e); b++)
		if (box < 0 || b == box)
			raw += c->box[b] - (interval ? e->mark.box[b] : 0);
	if (running == 0)
		return 0;
	if (running >= enabled)
		return raw;
	return u64_muldiv(raw, enabled, running);
}

uint64_t count_total(const struct count_run *r, unsigned i, int box)
{
	return scaled(&r->ev[i], false, box, count_enabled(r));
}

uint64_t count_interval(const struct count_run *r, unsigned i, int box, uint64_t now)
{
	return scaled(&r->ev[i], true, box, now - r->t_mark);
}

void count_mark(struct count_run *r, uint64_t now)
{
	for (unsigned i = 0; i < r->nev; i++) {
		struct count_event *e = &r->ev[i];
		if (e->total.box)
			memcpy(e->mark.box, e->total.box, boxes_of(e) * sizeof(uint64_t));
		e->mark.running = e->total.running;
	}
	r->t_mark = now;
}

int count_find_role(const struct count_run *r, unsigned role)
{
	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].v.role == role)
			return (int)i;
	return -1;
}

uint64_t count_role(const struct count_run *r, unsigned role, bool interval, uint64_t now)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < r->nev; i++)
		if (r->ev[i].v.role == role)
			n += interval ? count_interval(r, i, -1, now) : count_total(r, i, -1);
	return n;
}

uint64_t count_role_part(const struct count_run *r, unsigned role, unsigned k, bool group, bool interval, uint64_t now)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < r->nev; i++) {
		if (r->ev[i].v.role != role)
			continue;
		if (group)
			n += count_group(r, i, k, interval, now);
		else if (k < r->ev[i].v.nboxes)
			n += interval ? count_interval(r, i, (int)k, now) : count_total(r, i, (int)k);
	}
	return n;
}

const char *count_free_upper(const struct count_run *r, char *buf, size_t size)
{
	size_t n = 0;

	for (; r->free_pmu[n] && n + 1 < size; n++)
		buf[n] = r->free_pmu[n] >= 'a' && r->free_pmu[n] <= 'z' ? (char)(r->free_pmu[n] - 32) : r->free_pmu[n];
	if (size)
		buf[n] = '\0';
	return buf;
}

const char *count_box_name(const struct count_view *v, unsigned b, char *buf, size_t size)
{
	if (v->group_noun[0] && v->group && b < v->nboxes)
		fmt_snprintf(buf, size, "%s%u.%s%u", v->group_noun, v->group[b], v->box_label, v->box_id[b]);
	else
		fmt_snprintf(buf, size, "%s%u", v->box_label, b);
	return buf;
}

/* Groups that hold a box, counted once each: sparse package IDs ({0, 2})
 * make two rows, not three. */
unsigned count_groups(const struct count_view *v)
{
	unsigned n = 0;

	while (count_group_id(v, n) >= 0)
		n++;
	return n;
}

int count_group_id(const struct count_view *v, unsigned k)
{
	int prev = -1;

	if (!v->group_noun[0] || !v->group)
		return -1;
	for (unsigned i = 0; i <= k; i++) {
		int next = -1; /* the lowest group above prev that has a box */

		for (unsigned b = 0; b < v->nboxes; b++)
			if ((int)v->group[b] > prev && (next < 0 || v->group[b] < next))
				next = v->group[b];
		if (next < 0)
			return -1;
		prev = next;
	}
	return prev;
}

uint64_t count_group(const struct count_run *r, unsigned i, unsigned g, bool interval, uint64_t now)
{
	const struct count_view *v = &r->ev[i].v;
	uint64_t sum = 0;

	for (unsigned b = 0; v->group && b < v->nboxes; b++)
		if (v->group[b] == g)
			sum += interval ? count_interval(r, i, (int)b, now) : count_total(r, i, (int)b);
	return sum;
}
