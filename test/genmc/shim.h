/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/genmc/shim.h - the whole shim between lib/ and GenMC.  run.py
 * force-includes it (-include) ahead of every client, so it comes before
 * any line of lib/.  lib/ itself is compiled unchanged (its copy under the
 * run's staging folder, byte for byte, except in a mutant: one order).
 *
 * What GenMC cannot interpret, and what replaces it:
 *
 *  1. PAUSE (__builtin_ia32_pause, static/wait.h cpu_relax): the first
 *     instruction of every wait round.  Replaced by genmc_wait(): a pause
 *     past the thread's budget (GENMC_WAIT_PAUSES, default 0) ends the
 *     execution with __VERIFIER_assume(0) (GenMC counts it as blocked).
 *  2. sched_yield, clock_gettime (static/wait.h, at the cap of a wait, and
 *     the stuck-link clock): only a waiting thread calls them.  Both end
 *     the execution the same way.  A client compiled with GENMC_CLOCK
 *     reads a clock that stays at 0 instead (a clock too coarse to move
 *     during the run); the stuck-link watch never fires.
 *  3. prefetchw (inline asm, static/link.h): CASLIST_NO_PREFETCHW, which lib/
 *     provides, selects __builtin_prefetch; GenMC drops it.
 *  4. calloc (lib/cluster.c grow): GenMC's libc has malloc only; its
 *     malloc'd memory reads as zero, so calloc is malloc here.
 *  5. caslist_lk_misuse and the stuck-link reporters (lib/debug.c, which
 *     prints with stdio and reads the environment): client.h defines them
 *     as a failed assert(), so a misuse check that fires is an error.
 *
 * Why a cut at a wait keeps the property checked.  Every wait loop of lib/
 * retries an attempt whose failed round only reads (a load, a failed CAS),
 * or takes and releases a lock leaving the word as it was (pop_head's head
 * link, the cluster lock): no other thread can tell such a round from no
 * round at all except by waiting itself.  So every execution of the real
 * program, with its failed rounds removed, is an execution in which each
 * wait's attempt succeeded at once - an execution GenMC explores with the
 * cut - with the same reads in the successful round, the same writes and
 * so the same final state; removing the failed rounds' reads only drops
 * happens-before edges, which can add races or errors but never hide one.
 * Conversely every execution that survives the cut is an execution of the
 * real program (the waits that did not happen cost nothing).  The budget
 * (GENMC_WAIT_PAUSES > 0) lets a thread go round a wait a few times, so
 * the re-load after a wait (chain_next, iter_next) is executed too.
 * What the cut cannot show: a thread that waits for ever (a deadlock)
 * is one more blocked execution, not an error; deadlock freedom is the
 * spin model's job (doc/verification.md, "Model checking (spin)"), and every client checks
 * that its complete executions are more than zero and that each of its
 * probes is reached.
 */
#ifndef CASLIST_GENMC_SHIM_H
#define CASLIST_GENMC_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#define CASLIST_NO_PREFETCHW 1

void __VERIFIER_assume(bool) __attribute__((__nothrow__));

#ifndef GENMC_WAIT_PAUSES
#define GENMC_WAIT_PAUSES 0
#endif
#define GENMC_MAX_THREADS 8

/* Pauses so far, per thread (each thread writes only its own slot). */
static unsigned genmc_pauses[GENMC_MAX_THREADS];

static inline void genmc_wait(void)
{
	unsigned long t = (unsigned long)pthread_self() % GENMC_MAX_THREADS;

	if (++genmc_pauses[t] > GENMC_WAIT_PAUSES)
		__VERIFIER_assume(false);
}

/* 1: static/wait.h's cpu_relax on x86-64 (the only GenMC host here). */
#define __builtin_ia32_pause() genmc_wait()

/* 2: reached only by a waiting thread. */
int sched_yield(void)
{
	__VERIFIER_assume(false);
	return 0;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	(void)clk;
#ifndef GENMC_CLOCK
	__VERIFIER_assume(false);
#endif
	ts->tv_sec = 0;
	ts->tv_nsec = 0;
	return 0;
}

/* 4: GenMC's malloc'd memory reads as zero until written (its initial
 * value), so malloc is calloc there; zeroing it by hand made every
 * free-list client several times slower under IMM. */
static inline void *genmc_calloc(size_t n, size_t size)
{
	return malloc(n * size);
}
#define calloc(n, size) genmc_calloc((n), (size))

/*
 * 6: static/wait.h's per-thread state is a __thread struct defined in
 * lib/wait.c; GenMC cannot set up a thread-local struct, and the clients
 * do not compile lib/wait.c (its futex calls).  Each thread gets a slot
 * of a plain array (each thread writes only its own, as genmc_pauses);
 * client.h defines it, the parking lot's storage and its two calls (a
 * sleep ends the execution, as 2; a wake does nothing), after wait.h,
 * which the shim does not include: a client's hooks (fairticket's) must
 * be defined before wait.h is read.
 */
struct caslist_lk_self;
static struct caslist_lk_self *genmc_self_of(void);
#define CASLIST_LK_SELF (*genmc_self_of())

#endif /* CASLIST_GENMC_SHIM_H */
