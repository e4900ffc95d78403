/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/cond.c - the conditions a table was measured in: the
 * load average before and after, the share of CPU time other processes
 * (and the hypervisor) took meanwhile, and a quick cross-CPU ping-pong
 * latency.  On a small shared VM these decide the ranking of locked and
 * lock-free designs as much as the code does (doc/pagepool.md).
 * Also pinning and per-thread CPU time for the workers.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"

uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The CPUs the process may run on, as it started (cond_init): pinning
 * one thread must not shrink the choice of the next. */
static int cpus[CPU_SETSIZE], ncpus;

void cond_init(void)
{
	cpu_set_t set;

	ncpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpus[ncpus++] = i;
}

static int pin_to(unsigned i)
{
	cpu_set_t set;

	if (ncpus == 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpus[i % (unsigned)ncpus], &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void pin_self(unsigned i)
{
	if (pin_to(i))
		pp_die("cannot pin a worker to a CPU");
}

/* ---- ping-pong: a cache line bounced between two pinned threads ---- */

#define PP_ROUNDS 2000
#define PP_BURSTS 5

struct pingpong {
	_Atomic(unsigned) turn;
	char pad[64 - sizeof(unsigned)];
	_Atomic(int) give_up;
	unsigned cpu;
} __attribute__((aligned(64)));	/* sizeof a multiple of 64, for aligned_alloc */

static void *pong_main(void *arg)
{
	struct pingpong *pp = arg;

	if (pin_to(pp->cpu))
		return NULL;
	for (unsigned i = 0; i < PP_ROUNDS * PP_BURSTS; i++) {
		/* acquire: pairs with ping's release store of the odd value;
		 * nothing else is handed over, the order only makes the
		 * bounce a strict alternation. */
		while (atomic_load_explicit(&pp->turn, memory_order_acquire) != 2 * i + 1)
			/* relaxed: a give-up flag, no data behind it. */
			if (atomic_load_explicit(&pp->give_up, memory_order_relaxed))
				return NULL;
		/* release: pairs with ping's acquire load below. */
		atomic_store_explicit(&pp->turn, 2 * i + 2, memory_order_release);
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Round trip between the first two allowed CPUs: min, median and max of
 * PP_BURSTS bursts; zeros if there is only one CPU or a burst stalls (the
 * other thread descheduled for long: reported as such, not waited for). */
static void pingpong(double out[3])
{
	struct pingpong *pp;
	pthread_t th;
	double per[PP_BURSTS];
	int ok = 1;

	out[0] = out[1] = out[2] = 0;
	if (ncpus < 2)
		return;
	pp = aligned_alloc(64, sizeof(*pp));
	if (!pp)
		return;
	memset(pp, 0, sizeof(*pp));
	atomic_init(&pp->turn, 0);
	atomic_init(&pp->give_up, 0);
	pp->cpu = 1;
	cpu_set_t old;

	pthread_getaffinity_np(pthread_self(), sizeof(old), &old);
	if (pin_to(0) || pthread_create(&th, NULL, pong_main, pp)) {
		pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
		free(pp);
		return;
	}
	for (unsigned b = 0; b < PP_BURSTS && ok; b++) {
		uint64_t t0 = pp_now_ns();

		for (unsigned k = 0; k < PP_ROUNDS && ok; k++) {
			unsigned i = b * PP_ROUNDS + k;
			unsigned spins = 0;

			/* release: pairs with pong's acquire load. */
			atomic_store_explicit(&pp->turn, 2 * i + 1, memory_order_release);
			/* acquire: pairs with pong's release store. */
			while (atomic_load_explicit(&pp->turn, memory_order_acquire) != 2 * i + 2)
				if (++spins % 4096 == 0 && pp_now_ns() - t0 > 50000000u) {
					ok = 0;	/* 50 ms for a burst: pong is not running */
					break;
				}
		}
		per[b] = (double)(pp_now_ns() - t0) / PP_ROUNDS;
	}
	/* relaxed: see pong_main. */
	atomic_store_explicit(&pp->give_up, 1, memory_order_relaxed);
	pthread_join(th, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	free(pp);
	if (!ok)
		return;
	qsort(per, PP_BURSTS, sizeof(per[0]), cmp_double);
	out[0] = per[0];
	out[1] = per[PP_BURSTS / 2];
	out[2] = per[PP_BURSTS - 1];
}

void cond_begin(struct pp_cond *c)
{
	memset(c, 0, sizeof(*c));
	c->load_before = sysload_loadavg();
	pingpong(c->pingpong_ns);
	sysload_mark(&c->mark);
}

void cond_end(struct pp_cond *c)
{
	sysload_since(&c->mark, &c->others, &c->steal);
	c->load_after = sysload_loadavg();
}

void cond_print(const struct pp_cond *c)
{
	printf("  conditions: load %.2f -> %.2f, other processes %.0f%% of all CPU time, steal %.0f%%, ",
	       c->load_before, c->load_after, 100 * c->others, 100 * c->steal);
	if (c->pingpong_ns[1] > 0)
		printf("ping-pong %.0f ns [%.0f..%.0f]", c->pingpong_ns[1], c->pingpong_ns[0],
		       c->pingpong_ns[2]);
	else
		printf("ping-pong n/a (one CPU, or the other CPU was busy for 50 ms)");
	printf(", workers %s\n", pp_opt.pin == PIN_SPREAD   ? "pinned to distinct CPUs"
				 : pp_opt.pin == PIN_SHARED ? "pinned to one CPU"
							    : "not pinned");
}
