/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/ticks.h - listbench's cheap clock: the TSC on x86 (rdtsc, and the
 * fenced pair rdtsc/rdtscp that brackets one operation; 32-bit x86 only
 * with SSE2, for lfence), the generic timer's virtual count on aarch64
 * (cntvct_el0 between isb barriers), CLOCK_MONOTONIC nanoseconds
 * elsewhere; bench/ticks.c calibrates ticks to nanoseconds.
 *
 *   bench_ticks()        unfenced: for ratios of long intervals (lruvec's
 *                        lock-wait share)
 *   bench_ticks_start()  lfence; rdtsc; lfence: earlier work done before it
 *                        reads, later work not begun
 *   bench_ticks_end()    rdtscp; lfence: the timed work done before it reads
 *
 * An invariant TSC (every x86-64 CPU of the last decade: constant_tsc,
 * nonstop_tsc) ticks at one rate on every core, so a start on one core and
 * an end on another (a migration inside the interval) still subtract.
 */
#ifndef CASLIST_BENCH_TICKS_H
#define CASLIST_BENCH_TICKS_H

#include <stdint.h>

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#include <x86intrin.h>
#define BENCH_TICKS_TSC 1
#define BENCH_TICKS_NAME "rdtsc"
static inline uint64_t bench_ticks(void)
{
	return __rdtsc();
}

static inline uint64_t bench_ticks_start(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

static inline uint64_t bench_ticks_end(void)
{
	unsigned aux;
	uint64_t t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}
#elif defined(__aarch64__)
/* cntvct_el0 runs at cntfrq_el0 (tens of MHz) on every core alike; isb
 * keeps the read from moving across the timed work. */
#define BENCH_TICKS_TSC 1
#define BENCH_TICKS_NAME "cntvct_el0"
static inline uint64_t bench_ticks(void)
{
	uint64_t t;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(t));
	return t;
}

static inline uint64_t bench_ticks_start(void)
{
	uint64_t t;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0; isb" : "=r"(t) : : "memory");
	return t;
}

static inline uint64_t bench_ticks_end(void)
{
	uint64_t t;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0; isb" : "=r"(t) : : "memory");
	return t;
}
#else
#include <time.h>
#define BENCH_TICKS_TSC 0
#define BENCH_TICKS_NAME "clock_gettime"
static inline uint64_t bench_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bench_ticks_start(void)
{
	return bench_ticks();
}

static inline uint64_t bench_ticks_end(void)
{
	return bench_ticks();
}
#endif

/** bench_ticks_calibrate - measure the ticks' rate against CLOCK_MONOTONIC
 * (20 ms, once; later calls return at once) and the cost of an empty
 * start/end pair.  Call it before any thread reads the results. */
void bench_ticks_calibrate(void);
/** bench_ns_per_tick - nanoseconds per tick (1 without a TSC). */
double bench_ns_per_tick(void);
/** bench_ticks_overhead_ns - the smallest interval an empty
 * bench_ticks_start/bench_ticks_end pair measures, in ns: part of every
 * timed operation's latency (not subtracted). */
double bench_ticks_overhead_ns(void);
/** bench_ticks_step_ns - the clock's resolution: the smallest step
 * between two reads that differ, in ns. */
double bench_ticks_step_ns(void);
/** bench_ticks_source - "rdtsc", "cntvct_el0" or "clock_gettime". */
const char *bench_ticks_source(void);

#endif /* CASLIST_BENCH_TICKS_H */
