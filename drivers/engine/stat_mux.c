/* The engine's multiplexing: at each slice's end the group that has counted
 * least takes the next slice, and when it gives way. */
#include "stat_int.h"

/* How long group g has counted: its first programmed event's running time. */
static uint64_t group_running(const struct stat_run *r, unsigned g)
{
	for (unsigned i = 0; i < r->c.nev; i++)
		if (!is_free(r, i) && in_group(r, i, g))
			return r->c.ev[i].total.running;
	return 0;
}

/* A slice's start after a rotation, taken as start_edge takes the run's: the
 * new group's counters read after the unfreeze, each box's count from that
 * read and the slice's time from the clock read just before it. Each box
 * counts from its own unfreeze, and a sample reads its boxes in turn: with
 * the start values of the programming and the time from after the last
 * unfreeze, a box's moments between its unfreeze and its read in the first
 * sample were counted but never charged (more for each later box, and more
 * the more boxes; +9% on eight iMC boxes at 20 us an access). Read this
 * way, box b's slice runs from its b-th read to its b-th read, and the
 * clock's reads bracket both the same way. The free-running counters are
 * sampled by the same read (their deltas up to it). */
UNC_COLD static enum unc_status slice_start(struct stat_run *r)
{
	uint64_t now;
	enum unc_status st;

	/* with the slice's last read, it alone decides the slice's counts */
	if ((st = edge_read(r, &now)) || (st = free_deltas(r, now)))
		return st;
	r->t_sample = r->c.t_end = now;
	return UNC_OK;
}

/* At a slice's end: the group that has counted least so far takes the next
 * slice (the next in turn among equals), so a slice stretched by a late
 * rotation (a busy host, an SMI) is made up for instead of staying in one
 * group's share; the current group goes on without reprogramming when it is
 * that group. */
enum unc_status stat_rotate(struct stat_run *r)
{
	unsigned best = r->group;
	uint64_t least = UINT64_MAX;

	/* A slice's last read is an edge: a delay inside it (a preempted
	 * vCPU) is charged to no later delta, so it is taken again as the
	 * run's edges are (STAT_EDGE_READS). */
	r->edge = true;
	enum unc_status st = stat_sample(r);
	r->edge = false;
	if (st)
		return st;
	for (unsigned k = 1; k <= r->c.ngroups; k++) {
		unsigned g = (r->group + k) % r->c.ngroups;
		uint64_t t = group_running(r, g);
		if (t < least)
			least = t, best = g;
	}
	if (best == r->group)
		return UNC_OK;
	r->c.rotations++;
	if ((st = program(r, best)))
		return st;
	return slice_start(r);
}

/* When the group now counting gives way: on a grid of slices from the
 * start (grid), so a late rotation shortens the next slice instead of
 * lengthening every later one; and in the run's last round (less than a
 * slice per group and one more left before end), when its running time
 * reaches an even share of the run, so that every group ends with the
 * same time, whatever the rotations' lateness added on the way. */
uint64_t next_slice(const struct stat_run *r, uint64_t grid, uint64_t end, uint64_t slice)
{
	uint64_t now = r->t_sample, sum = 0;

	if (!end || end <= now || end - now >= (uint64_t)(r->c.ngroups + 1) * slice)
		return grid;
	for (unsigned g = 0; g < r->c.ngroups; g++)
		sum += group_running(r, g);
	uint64_t share = (sum + (end - now)) / r->c.ngroups, mine = group_running(r, r->group);
	return share > mine ? now + (share - mine) : end; /* mine == share: all have theirs, run out the clock */
}
