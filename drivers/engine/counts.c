#include "counts.h"

#include "../base/arith.h"
#include "../base/fmt.h"

_Static_assert(COUNT_MAX_BOXES <= 16, "count_event.moved has one bit per box");

uint16_t count_still(const struct count_run *r, unsigned i)
{
	const struct count_event *e = &r->ev[i];
	unsigned boxes = e->v.nboxes ? e->v.nboxes : 1;

	if (e->total.running == 0)
		return 0;
	return (uint16_t)(((1u << boxes) - 1) & ~e->moved);
}

uint64_t count_enabled(const struct count_run *r)
{
	return r->t_end - r->t_start;
}

static uint64_t scaled(const struct count_totals *c, const struct count_totals *mark, int box, uint64_t enabled)
{
	uint64_t raw = 0, running = c->running - mark->running;

	for (int b = 0; b < COUNT_MAX_BOXES; b++)
		if (box < 0 || b == box)
			raw += c->box[b] - mark->box[b];
	if (running == 0)
		return 0;
	if (running >= enabled)
		return raw;
	return u64_muldiv(raw, enabled, running);
}

uint64_t count_total(const struct count_run *r, unsigned i, int box)
{
	static const struct count_totals zero;

	return scaled(&r->ev[i].total, &zero, box, count_enabled(r));
}

uint64_t count_interval(const struct count_run *r, unsigned i, int box, uint64_t now)
{
	return scaled(&r->ev[i].total, &r->ev[i].mark, box, now - r->t_mark);
}

void count_mark(struct count_run *r, uint64_t now)
{
	for (unsigned i = 0; i < r->nev; i++)
		r->ev[i].mark = r->ev[i].total;
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
		else if (k < r->ev[i].v.nboxes && k < COUNT_MAX_BOXES)
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
	if (v->group_noun[0] && b < COUNT_MAX_BOXES)
		fmt_snprintf(buf, size, "%s%u.%s%u", v->group_noun, v->group[b], v->box_label, v->box_id[b]);
	else
		fmt_snprintf(buf, size, "%s%u", v->box_label, b);
	return buf;
}

unsigned count_groups(const struct count_view *v)
{
	unsigned n = 0;

	for (unsigned b = 0; v->group_noun[0] && b < v->nboxes && b < COUNT_MAX_BOXES; b++)
		if (v->group[b] + 1u > n)
			n = v->group[b] + 1u;
	return n;
}

uint64_t count_group(const struct count_run *r, unsigned i, unsigned g, bool interval, uint64_t now)
{
	const struct count_view *v = &r->ev[i].v;
	uint64_t sum = 0;

	for (unsigned b = 0; b < v->nboxes && b < COUNT_MAX_BOXES; b++)
		if (v->group[b] == g)
			sum += interval ? count_interval(r, i, (int)b, now) : count_total(r, i, (int)b);
	return sum;
}
