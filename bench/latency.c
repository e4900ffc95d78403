/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/latency.c - the log-linear latency histogram of bench/latency.h:
 * empty, merge, and the value at a quantile.
 */
#include <string.h>

#include "latency.h"

void lat_hist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	if (src->count == 0)
		return;
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->min < dst->min)
		dst->min = src->min;
	for (unsigned b = 0; b < LAT_BUCKETS; b++)
		dst->bucket[b] += src->bucket[b];
}

uint64_t lat_bucket_low(unsigned b)
{
	unsigned shift;

	if (b < 2 * LAT_SUB)
		return b;
	shift = b / LAT_SUB - 1;
	return (uint64_t)(b - shift * LAT_SUB) << shift;
}

uint64_t lat_bucket_high(unsigned b)
{
	if (b >= LAT_BUCKETS - 1)
		return UINT64_MAX;
	return lat_bucket_low(b + 1) - 1;
}

uint64_t lat_hist_value_at(const struct lat_hist *h, double q)
{
	uint64_t ppm, rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (!(q > 0))	/* NaN too */
		q = 1e-6;
	ppm = q >= 1 ? 1000000 : (uint64_t)(q * 1e6 + 0.5);
	if (ppm == 0)
		ppm = 1;
	/* rank = ceil(count * ppm / 10^6), without overflow */
	rank = h->count / 1000000 * ppm + (h->count % 1000000 * ppm + 999999) / 1000000;
	if (rank < 1)
		rank = 1;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank) {
			uint64_t hi = lat_bucket_high(b);

			return hi < h->max ? hi : h->max;
		}
	}
	return h->max;	/* not reached: the buckets hold count values */
}
