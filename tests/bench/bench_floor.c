/* The least a sample of an MSR or RDPMC run can cost the engine, for
 * `make bench` to print beside what sample_fast costs (bench_sample.c):
 * a sample that makes the same tests and nothing else, written as plainly
 * as C allows, every state beside its counter and nothing behind a
 * pointer. It is a yardstick, not the engine: it leaves out what
 * sample_fast does besides (the dispatch of stat_sample, each event's
 * running time, the status explained after a wrap) and has no slow paths
 * (each ends the program).
 *
 * A sample, as sample_fast's: one seam call that reads the clock, the
 * list, and the clock again (seam_read, which run.sh leaves out as it
 * leaves out bench_sample's seam_*); the read not stretched (its length
 * against the quickest one's, with slack); the gap since the last sample
 * in the window the bounds are for; each other checked register one
 * masked compare; each counter's select compared, its step taken within
 * its bound and counted; the sample's time kept.
 *
 *   bench_floor CHECKS COUNTERS N   N samples of a run with CHECKS checked
 *                                   registers besides COUNTERS counters
 *                                   (each with its select) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct check {
	uint64_t mask, want;
	uint32_t at;
};

struct counter {
	uint64_t bound, keep, last, total, want;
	uint32_t at, sel_at;
};

struct floor_run {
	int (*read)(void *ctx, const uint32_t *list, unsigned n, uint64_t *val, uint64_t *t);
	void *ctx;
	const uint32_t *list;
	unsigned n;
	uint64_t *val;
	const struct check *chk, *chk_end;
	struct counter *ctr, *ctr_end;
	uint64_t read_best, read_span, t_sample, gap_lo, gap_span;
};

static uint64_t model_ns;

/* The hardware: the clock, then each register of the list (a select or
 * checked register reads what was written, counter k counts at k + 1 a
 * nanosecond), then the clock. */
__attribute__((noipa)) static int seam_read(void *ctx, const uint32_t *list, unsigned n, uint64_t *val, uint64_t *t)
{
	(void)ctx;
	t[0] = model_ns;
	for (unsigned i = 0; i < n; i++)
		val[i] = list[i] >= 1000 ? model_ns * (list[i] - 999) : list[i];
	t[1] = model_ns + 40;
	return 0;
}

__attribute__((noinline, cold)) static int odd(const char *what)
{
	fprintf(stderr, "bench_floor: %s\n", what);
	exit(1);
}

__attribute__((noipa)) static int floor_sample(struct floor_run *f)
{
	uint64_t t[2], diff = 0;

	if (__builtin_expect(f->read(f->ctx, f->list, f->n, f->val, t), 0))
		return odd("a read failed");
	if (__builtin_expect(t[1] - t[0] - f->read_best >= f->read_span, 0))
		return odd("a stretched read");
	if (__builtin_expect(t[1] - f->t_sample - f->gap_lo > f->gap_span, 0))
		return odd("a gap outside the window");
	const uint64_t *val = f->val;
	for (const struct check *c = f->chk, *end = f->chk_end; c < end; c++)
		diff |= (val[c->at] & c->mask) ^ c->want;
	for (struct counter *c = f->ctr, *end = f->ctr_end; c < end; c++) {
		uint64_t v = val[c->at] & c->keep, d = v - c->last;
		diff |= val[c->sel_at] ^ c->want;
		if (__builtin_expect(d > c->bound, 0))
			return odd("a step beyond its bound");
		c->total += d;
		c->last = v;
	}
	if (__builtin_expect(diff != 0, 0))
		return odd("a register that reads otherwise");
	f->t_sample = t[0];
	return 0;
}

__attribute__((noipa)) static int one_sample(struct floor_run *f)
{
	return floor_sample(f);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: bench_floor CHECKS COUNTERS N\n");
		return 2;
	}
	unsigned nchk = (unsigned)strtoul(argv[1], NULL, 10), nctr = (unsigned)strtoul(argv[2], NULL, 10);
	unsigned long n = strtoul(argv[3], NULL, 10);
	unsigned nlist = nchk + 2 * nctr, k = 0;
	uint32_t *list = calloc(nlist + 1, sizeof(*list));
	uint64_t *val = calloc(nlist + 1, sizeof(*val));
	struct check *chk = calloc(nchk + 1, sizeof(*chk));
	struct counter *ctr = calloc(nctr + 1, sizeof(*ctr));

	if (!list || !val || !chk || !ctr || nctr > 64)
		return odd("out of memory, or more than 64 counters");
	for (unsigned i = 0; i < nchk; i++, k++)
		list[k] = 5, chk[i] = (struct check){ .mask = ~0ull, .want = 5, .at = k };
	for (unsigned i = 0; i < nctr; i++, k += 2) {
		list[k] = 7, list[k + 1] = 1000 + i;
		ctr[i] = (struct counter){ .bound = (i + 1) * 200ull, .keep = ~0ull >> 16, .want = 7, .at = k + 1, .sel_at = k };
	}
	struct floor_run f = { seam_read, NULL, list, nlist, val, chk, chk + nchk, ctr, ctr + nctr, 0, 100, 0, 0, 200 };
	for (unsigned long i = 0; i < n; i++) {
		model_ns += 100;
		one_sample(&f);
	}
	printf("floor %u checked registers, %u counters: counter 0 counted %llu in %lu samples\n", nchk, nctr,
	       (unsigned long long)ctr[0].total, n);
	free(list), free(val), free(chk), free(ctr);
	return 0;
}
