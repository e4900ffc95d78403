/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/fairloss.c - a thread's run of lost head waits carries to its
 * next wait's ticket clock (<caslist/static/fair.h>, heat.h), on a fake
 * clock: no timing decides the outcome.
 *
 * Built inline with CASLIST_FAIR_US 100 and the fair layer's hook, which
 * counts the tickets taken and served in each phase.  The program defines
 * clock_gettime itself (it interposes libc's, as test/genmc/shim.h does
 * for GenMC): CLOCK_MONOTONIC reads a fake time that only the controller
 * (main) advances, and the waiter's reads are counted and their value
 * kept, so the controller knows when the waiter is inside a wait and when
 * it has read the time the controller set.
 *
 * Each of the four phases: the controller takes L(head) with the
 * library's own step (caslist_lk_lock_head_held, which neither defers nor
 * takes a ticket); the waiter calls caslist_add_head, which waits; once
 * the waiter has read the clock (the first read of a wait starts its
 * ticket clock), the controller advances it by WAIT_US (60), waits until
 * the waiter has read the new time (its round then checks the bound with
 * it, before it can try the head again) and releases the head.  Expected:
 *
 *  1. a wait of 60 us with nothing carried: no ticket;
 *  2. the same after it: 60 carried + 60 >= 100, a ticket (and it is
 *     served).  The code before 6a12e35 carried nothing: no ticket;
 *  3. after the served ticket: the run of losses is over, no ticket;
 *  then 20 add_head/del pairs without a wait (no clock read: checked):
 *     the heat halves to 0 and the run of losses ends with it;
 *  4. a wait of 60 us: no ticket.
 *
 * The handshakes never count the clock reads of a round (the watch and
 * sched_yield of backoff.h read it too): "has read once" and "has read
 * the new value" only.  The fake time starts on a whole second and moves
 * 240 us in all, so the stuck watch's millisecond clock (watch.h) never
 * moves and cannot fire whatever CASLIST_STUCK_MS says.  Every handshake
 * gives up after WAIT_MS of real time (read by syscall, past the fake
 * clock_gettime): a bug fails the test, and the watchdog (util.h) ends
 * a wait inside the library that would never end.
 * TAP output; exit 0 = pass.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define OPS 4			/* the waits, phases 1..OPS */
#define COOL (OPS + 1)		/* the phase of the acquisitions without a wait */

/*
 * The fair layer's hook (fair.h): count each ticket taken and served in
 * the waiter's phase.  Plain words: the hook runs in the thread that
 * takes or serves a ticket, the waiter (the controller's step takes
 * none), which alone writes phase; main reads the counts after the join.
 */
static int phase;
static unsigned count_ticket[COOL + 1], count_served[COOL + 1];

#define CASLIST_INLINE 1
#define CASLIST_FAIR_US 100
#define CASLIST_LK_FAIR_HOOK(ev, l, t) ((void)(l), (void)(t), count_##ev[phase]++)
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define COOL_PAIRS 20		/* > log2(CASLIST_LK_BACKOFF_MAX + 1): heat 0 */
#define WAIT_US 60ull		/* each wait's length on the fake clock */
#define WAIT_MS 10000ull	/* a handshake's limit, real time */

struct item {
	struct caslist_node link;
};

static CASLIST_LIST(list);
static struct item items[OPS], cool;

/*
 * The fake clock (ns).  Relaxed: the controller's store and the waiter's
 * loads carry nothing but the value; what must come before the store is
 * ordered through w_calls (below), and a load that has seen the new value
 * is followed only by loads that see it too (coherence).
 */
static _Atomic unsigned long long fake_ns = 1000000000000ull;

/*
 * The waiter's clock reads: how many (release: pairs with the controller's
 * acquire load in wait_at_least, so the read that started the wait's
 * ticket clock happens before the controller advances the clock, and
 * cannot see the new time) and the value of the last one (release, the
 * same acquire: only the value matters).
 */
static _Atomic unsigned long long w_calls, w_seen;
static _Thread_local bool is_waiter;

/*
 * The handshakes.  w_ready = k: the waiter is ready for phase k, its
 * phase k - 1 done (release: pairs with the controller's acquire in
 * wait_at_least; w_calls is final for the phase before).  h_go = k: the
 * controller holds L(head) for phase k (release: pairs with the waiter's
 * acquire in wait_at_least, so the waiter's add_head finds the head
 * locked).
 */
static _Atomic unsigned long long w_ready, h_go;

/* The waiter's clock reads in cool_down: its own, read after the join. */
static unsigned long long cool_calls;

/* Handshakes that gave up: either thread (relaxed: a count, read after
 * the join). */
static _Atomic unsigned timeouts;

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	unsigned long long ns;

	if (clk != CLOCK_MONOTONIC)
		return (int)syscall(SYS_clock_gettime, clk, ts);
	/* Relaxed: fake_ns (above). */
	ns = atomic_load_explicit(&fake_ns, memory_order_relaxed);
	if (is_waiter) {
		/* Release: pair with the controller's acquires (w_calls). */
		atomic_fetch_add_explicit(&w_calls, 1, memory_order_release);
		atomic_store_explicit(&w_seen, ns, memory_order_release);
	}
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

static unsigned long long real_ms(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000u + (unsigned long long)ts.tv_nsec / 1000000u;
}

/*
 * Wait until *W >= WANT: true, or false after WAIT_MS (counted in
 * timeouts, and said on stderr).  Acquire: pairs with the release store
 * or RMW that wrote the value (each variable's comment names it).
 */
static bool wait_at_least(_Atomic unsigned long long *w, unsigned long long want, const char *what)
{
	unsigned long long t0 = real_ms();

	while (atomic_load_explicit(w, memory_order_acquire) < want) {
		if (real_ms() - t0 > WAIT_MS) {
			fprintf(stderr, "fairloss: gave up waiting: %s\n", what);
			/* Relaxed: timeouts (above). */
			atomic_fetch_add_explicit(&timeouts, 1, memory_order_relaxed);
			return false;
		}
		sched_yield();
	}
	return true;
}

/* Acquisitions of the head without a wait: the heat cools to 0. */
static void cool_down(void)
{
	/* Relaxed: the waiter's own counter, read by its only writer. */
	unsigned long long c0 = atomic_load_explicit(&w_calls, memory_order_relaxed);

	for (int i = 0; i < COOL_PAIRS; i++) {
		caslist_add_head(&list, &cool.link);
		if (caslist_del(&cool.link) != CASLIST_OK)
			fprintf(stderr, "fairloss: del of the cooling node failed\n");
	}
	cool_calls = atomic_load_explicit(&w_calls, memory_order_relaxed) - c0;
}

static void *waiter(void *arg)
{
	(void)arg;
	is_waiter = true;
	for (int k = 1; k <= OPS; k++) {
		if (k == OPS) {
			phase = COOL;
			cool_down();
		}
		phase = k;
		/* Release: pairs with the controller's acquire (w_ready). */
		atomic_store_explicit(&w_ready, (unsigned long long)k, memory_order_release);
		if (!wait_at_least(&h_go, (unsigned long long)k,
				   "the controller's hold of the head"))
			return NULL;
		caslist_add_head(&list, &items[k - 1].link);
	}
	/* Release: as above; the controller does not wait for it. */
	atomic_store_explicit(&w_ready, OPS + 1, memory_order_release);
	return NULL;
}

/* Phase K: hold L(head) while the waiter waits WAIT_US on the fake clock. */
static void control(int k)
{
	uintptr_t first;	/* the head's successor word (static/word.h) */
	unsigned long long c0, now;

	if (!wait_at_least(&w_ready, (unsigned long long)k, "the waiter's readiness"))
		return;
	first = caslist_lk_lock_head_held(&list.head, "fairloss");
	/* Relaxed: after the acquire of w_ready k, nothing the waiter does
	 * until h_go k reads the clock. */
	c0 = atomic_load_explicit(&w_calls, memory_order_relaxed);
	/* Release: pairs with the waiter's acquire (h_go). */
	atomic_store_explicit(&h_go, (unsigned long long)k, memory_order_release);
	if (wait_at_least(&w_calls, c0 + 1, "the waiter's first clock read")) {
		/* Relaxed: fake_ns (above); the RMW keeps its one writer's
		 * values in order. */
		now = atomic_fetch_add_explicit(&fake_ns, WAIT_US * 1000u, memory_order_relaxed) +
		      WAIT_US * 1000u;
		wait_at_least(&w_seen, now, "the waiter's read of the advanced clock");
	}
	caslist_lk_unlock(&list.head, first);
}

int main(void)
{
	static const unsigned want[COOL + 1] = { [2] = 1 };
	static const char *const what[COOL + 1] = {
		[1] = "a first wait of 60 us: no ticket",
		[2] = "60 us lost before + 60 us >= 100: a ticket, served",
		[3] = "after a served ticket (the losses reset): no ticket",
		[4] = "after acquisitions without a wait (heat 0, the losses reset): no ticket",
	};
	pthread_t w;
	size_t count = 0;
	unsigned long long calls;
	unsigned gave_up;
	int rc;

	watchdog_arm(6);
	if (pthread_create(&w, NULL, waiter, NULL) != 0) {
		fprintf(stderr, "fairloss: pthread_create failed\n");
		return 2;
	}
	for (int k = 1; k <= OPS; k++)
		control(k);
	pthread_join(w, NULL);

	for (int k = 1; k <= OPS; k++)
		tap_ok(count_ticket[k] == want[k] && count_served[k] == want[k],
		       "wait %d, %s (tickets %u, served %u)", k, what[k], count_ticket[k],
		       count_served[k]);
	tap_ok(cool_calls == 0 && count_ticket[COOL] == 0,
	       "%d add_head/del pairs without a wait before wait 4 (clock reads %llu, tickets %u)",
	       COOL_PAIRS, cool_calls, count_ticket[COOL]);
	/* Relaxed, here and below: read after the join. */
	gave_up = atomic_load_explicit(&timeouts, memory_order_relaxed);
	calls = atomic_load_explicit(&w_calls, memory_order_relaxed);
	tap_ok(gave_up == 0, "every handshake completed (%u gave up)", gave_up);
	rc = caslist_check(&list, OPS + 2, &count);
	tap_ok(rc == 0 && count == OPS, "list intact: %s, %zu of %d nodes",
	       caslist_check_strerror(rc), count, OPS);
	printf("# fairloss fair_us=%d wait_us=%llu tickets=%u,%u,%u,%u served=%u,%u,%u,%u "
	       "waiter_clock_reads=%llu timeouts=%u\n",
	       CASLIST_FAIR_US, WAIT_US, count_ticket[1], count_ticket[2], count_ticket[3],
	       count_ticket[4], count_served[1], count_served[2], count_served[3], count_served[4],
	       calls, gave_up);
	return tap_done();
}
