/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/latency.h - a log-linear histogram of latencies (HdrHistogram's
 * layout, fixed size, no allocation): one per benchmark thread, merged at
 * the end of a run, read as percentiles.
 *
 * Values are unsigned integers in any unit (listbench records clock ticks
 * and converts the percentiles to ns).  Values below 2 * LAT_SUB (128) each
 * have a bucket of their own; above, every power of two [2^k, 2^(k+1)) is
 * cut into LAT_SUB (64) equal buckets, so a bucket is at most 1/64 of its
 * values wide: a percentile is exact to 1.6 %.  Values at or above
 * LAT_LIMIT (2^36: 23 s of a 3 GHz TSC) share the last bucket; the
 * largest value is kept exactly whatever its size.
 *
 * A percentile is the highest value of the bucket that holds the sample of
 * rank ceil(q * count) (HdrHistogram's "highest equivalent value"),
 * capped at the largest value recorded: lat_hist_value_at(h, 1.0) is the
 * maximum, and for values < 128 every percentile is exact.
 *
 * lat_hist_add is inline (the recording thread's hot path: a count, a
 * compare, one increment); the rest is bench/latency.c.  A histogram is
 * written by one thread; merge and read it once its writer is done.
 * bench/latency-test.c checks the percentiles on known data.
 */
#ifndef CASLIST_BENCH_LATENCY_H
#define CASLIST_BENCH_LATENCY_H

#include <stdint.h>

#define LAT_SUB_BITS 6
#define LAT_SUB (1u << LAT_SUB_BITS)		/* buckets per power of two */
#define LAT_LIMIT_BITS 36
#define LAT_LIMIT ((uint64_t)1 << LAT_LIMIT_BITS)	/* larger: the last bucket */
/* buckets: the one of LAT_LIMIT - 1, plus one */
#define LAT_BUCKETS ((LAT_LIMIT_BITS - LAT_SUB_BITS + 1) * LAT_SUB)

struct lat_hist {
	uint64_t count;			/* values recorded */
	uint64_t max;			/* the largest (exact) */
	uint64_t min;			/* the smallest (exact); UINT64_MAX if none */
	uint64_t bucket[LAT_BUCKETS];
};

/* The bucket of @v: v itself below 2 * LAT_SUB, then LAT_SUB per octave. */
static inline unsigned lat_bucket_of(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * LAT_SUB)
		return (unsigned)v;
	if (v >= LAT_LIMIT)
		return LAT_BUCKETS - 1;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - LAT_SUB_BITS;
	return shift * LAT_SUB + (unsigned)(v >> shift);
}

static inline void lat_hist_add(struct lat_hist *h, uint64_t v)
{
	h->count++;
	if (v > h->max)
		h->max = v;
	if (v < h->min)
		h->min = v;
	h->bucket[lat_bucket_of(v)]++;
}

/** lat_hist_init - empty @h. */
void lat_hist_init(struct lat_hist *h);
/** lat_hist_merge - add every value of @src to @dst. */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);
/** lat_hist_value_at - the @q quantile (0 < q <= 1, e.g. 0.999; q is
 * taken to a millionth), as described above; 0 for an empty histogram. */
uint64_t lat_hist_value_at(const struct lat_hist *h, double q);
/** lat_bucket_low, lat_bucket_high - the smallest and largest value of
 * bucket @b (the last bucket's high is UINT64_MAX). */
uint64_t lat_bucket_low(unsigned b);
uint64_t lat_bucket_high(unsigned b);

#endif /* CASLIST_BENCH_LATENCY_H */
