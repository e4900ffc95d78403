/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/ticks.c - bench/ticks.h's calibration: ticks per nanosecond over
 * 20 ms of CLOCK_MONOTONIC, the cost of an empty timed interval, and the
 * clock's resolution (the smallest step between two reads: 1 tick on most
 * CPUs, tens on some virtual machines).
 */
#include <time.h>

#include "ticks.h"

static double ns_per_tick = 1.0, overhead_ns, step_ns;
static int calibrated;

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void bench_ticks_calibrate(void)
{
	uint64_t best = UINT64_MAX;

	if (calibrated)
		return;
	calibrated = 1;
	if (BENCH_TICKS_TSC) {
		int64_t n0 = mono_ns(), n1;
		uint64_t t0 = bench_ticks_start(), t1;

		do	/* spin, not sleep: the TSC and the clock side by side */
			n1 = mono_ns();
		while (n1 - n0 < 20 * 1000 * 1000);
		t1 = bench_ticks_end();
		if (t1 > t0)
			ns_per_tick = (double)(n1 - n0) / (double)(t1 - t0);
	}
	for (int i = 0; i < 10000; i++) {
		uint64_t a = bench_ticks_start(), b = bench_ticks_end();

		if (b - a < best)
			best = b - a;
	}
	overhead_ns = (double)best * ns_per_tick;
	best = UINT64_MAX;
	for (int i = 0; i < 10000; i++) {	/* the clock's own resolution */
		uint64_t a = bench_ticks(), b;

		while ((b = bench_ticks()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	step_ns = (double)best * ns_per_tick;
}

double bench_ticks_step_ns(void)
{
	return step_ns;
}

double bench_ns_per_tick(void)
{
	return ns_per_tick;
}

double bench_ticks_overhead_ns(void)
{
	return overhead_ns;
}

const char *bench_ticks_source(void)
{
	return BENCH_TICKS_NAME;
}
