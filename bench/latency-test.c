/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/latency-test.c - bench/latency.h's histogram on known values
 * (TAP, deterministic, no clock): the percentiles of 1..1000, of a
 * distribution with a rare tail, of values past LAT_LIMIT; the bucket
 * bounds against the 1/64 width promise; merging two halves.  The
 * expected percentiles are worked out by hand in the comments.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../test/tap.h"
#include "latency.h"

static struct lat_hist a, b, c;

static int eq(uint64_t got, uint64_t want, const char *what)
{
	return tap_ok(got == want, "%s: %llu (want %llu)", what, (unsigned long long)got,
		      (unsigned long long)want);
}

int main(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int bad = 0;

	lat_hist_init(&a);
	eq(lat_hist_value_at(&a, 0.5), 0, "empty: p50");
	eq(a.count, 0, "empty: count");

	/* 1..100: each value its own bucket, so every percentile is exact */
	for (uint64_t v = 1; v <= 100; v++)
		lat_hist_add(&a, v);
	eq(lat_hist_value_at(&a, 0.5), 50, "1..100: p50");
	eq(lat_hist_value_at(&a, 0.99), 99, "1..100: p99");
	eq(lat_hist_value_at(&a, 0.999), 100, "1..100: p99.9 (rank ceil(99.9) = 100)");
	eq(a.min, 1, "1..100: min");

	/* 1..1000: above 127 a bucket is 1/64 of its octave wide; a percentile
	 * is its bucket's highest value, capped at the maximum */
	lat_hist_init(&a);
	for (uint64_t v = 1; v <= 1000; v++)
		lat_hist_add(&a, v);
	eq(lat_hist_value_at(&a, 0.5), 503, "1..1000: p50 (rank 500, bucket 500..503)");
	eq(lat_hist_value_at(&a, 0.99), 991, "1..1000: p99 (rank 990, bucket 984..991)");
	eq(lat_hist_value_at(&a, 0.999), 999,
	   "1..1000: p99.9 (rank 999 exactly, not 1000: bucket 992..999)");
	eq(lat_hist_value_at(&a, 0.9999), 1000,
	   "1..1000: p99.99 (rank 1000, bucket 1000..1007 capped at the max)");
	eq(lat_hist_value_at(&a, 1.0), 1000, "1..1000: p100 = max");

	/* merging the halves 1..500 and 501..1000 gives the same histogram */
	lat_hist_init(&b);
	lat_hist_init(&c);
	for (uint64_t v = 1; v <= 1000; v++)
		lat_hist_add(v <= 500 ? &b : &c, v);
	lat_hist_merge(&b, &c);
	tap_ok(memcmp(&a, &b, sizeof(a)) == 0 && b.min == 1 && b.max == 1000 && b.count == 1000,
	       "merge of 1..500 and 501..1000 equals 1..1000 (count %llu, min %llu, max %llu)",
	       (unsigned long long)b.count, (unsigned long long)b.min,
	       (unsigned long long)b.max);
	lat_hist_init(&c);
	lat_hist_merge(&b, &c);
	tap_ok(memcmp(&a, &b, sizeof(a)) == 0, "merging an empty histogram changes nothing");

	/* a rare tail: 9990 x 10, 9 x 5000, 1 x 10^6 (10000 values) */
	lat_hist_init(&a);
	for (int i = 0; i < 9990; i++)
		lat_hist_add(&a, 10);
	for (int i = 0; i < 9; i++)
		lat_hist_add(&a, 5000);
	lat_hist_add(&a, 1000000);
	eq(lat_hist_value_at(&a, 0.5), 10, "tail: p50");
	eq(lat_hist_value_at(&a, 0.99), 10, "tail: p99");
	eq(lat_hist_value_at(&a, 0.999), 10, "tail: p99.9 (rank 9990, the last 10)");
	eq(lat_hist_value_at(&a, 0.9995), 5055, "tail: p99.95 (rank 9995, bucket 4992..5055)");
	eq(lat_hist_value_at(&a, 0.9999), 5055, "tail: p99.99 (rank 9999)");
	eq(lat_hist_value_at(&a, 1.0), 1000000, "tail: max");

	/* past LAT_LIMIT: the last bucket, the maximum exact */
	lat_hist_init(&a);
	lat_hist_add(&a, 3);
	lat_hist_add(&a, LAT_LIMIT - 1);
	lat_hist_add(&a, (uint64_t)1 << 50);
	eq(lat_bucket_of(LAT_LIMIT - 1), LAT_BUCKETS - 1, "LAT_LIMIT - 1: the last bucket");
	eq(lat_bucket_of(UINT64_MAX), LAT_BUCKETS - 1, "UINT64_MAX: the last bucket");
	eq(lat_hist_value_at(&a, 0.5), (uint64_t)1 << 50,
	   "p50 of 3, 2^36 - 1, 2^50: the last bucket, capped at the max 2^50");
	eq(lat_hist_value_at(&a, 0.3), 3, "p30 of the same: 3");

	/* every bucket: its bounds map back to it, they tile the values with
	 * no gap, and a bucket is at most 1/64 of its lowest value wide */
	for (unsigned k = 0; k < LAT_BUCKETS - 1; k++) {
		uint64_t lo = lat_bucket_low(k), hi = lat_bucket_high(k);

		if (lat_bucket_of(lo) != k || lat_bucket_of(hi) != k ||
		    lat_bucket_low(k + 1) != hi + 1 ||
		    (lo >= 2 * LAT_SUB && (hi - lo + 1) * LAT_SUB > lo))
			bad++;
	}
	tap_ok(bad == 0 && lat_bucket_low(0) == 0, "%u buckets: bounds consistent, width <= 1/64 "
	       "(%d bad)", LAT_BUCKETS - 1, bad);
	/* random values land in a bucket that holds them */
	bad = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t v;
		unsigned k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 40 + 24);
		k = lat_bucket_of(v);
		if (v < LAT_LIMIT && (v < lat_bucket_low(k) || v > lat_bucket_high(k)))
			bad++;
	}
	tap_ok(bad == 0, "100000 pseudo-random values: each within its bucket (%d outside)", bad);
	return tap_done();
}
