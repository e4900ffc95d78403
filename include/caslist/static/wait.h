/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/wait.h> - every wait of the library, in one module:
 * the per-wait state, the per-thread state, the backoff on a busy link,
 * the stuck-wait watch, and the hand-over of a list's head bounded by
 * time (tickets, granted by a thread whose streak has run
 * CASLIST_WAIT_STREAK_NS past the oldest one) with its parking lot.  The
 * specification is doc/wait.md; this comment says what each part is
 * for, the comments at the atomics what they pair with.
 *
 * A busy link (any link): rounds of randomised pauses whose budget grows
 * eightfold (7, 63, 511, ...) up to CASLIST_LK_BACKOFF_MAX, each round
 * at most CASLIST_LK_BACKOFF_ROUND_NS long, then sched_yield every round
 * (the holder may be preempted), with the stuck watch armed.  While
 * this thread's yields are slow (the crowding hint) the cap is
 * CASLIST_LK_CROWDED_MAX.
 *
 * A list's head, for operations that hold nothing while they wait: after
 * CASLIST_WAIT_ROUNDS rounds of backoff the waiter takes a ticket
 * (want_next) and waits for it to be granted (want_served passes it);
 * it does not touch the head's line meanwhile.  The oldest pending
 * ticket carries a stamp (want_since: the module's clock when an entry
 * first saw it the oldest; want_stamped: which ticket it is for).  An
 * operation that starts while a ticket is pending goes on (the streak)
 * until the stamp is CASLIST_WAIT_STREAK_NS old; the
 * first one that finds it so grants the oldest pending ticket and takes
 * a ticket itself: a streak ends a bounded time after a waiter announced
 * itself, and the roles swap.  The entries read the clock once every
 * CASLIST_WAIT_CLOCK_EVERY passes, so the bound is that time plus at most
 * that many operations of each passing thread.  The next in line spins
 * on its parking slot (not on the head) for CASLIST_WAIT_SPIN_NS, then
 * sleeps in the kernel; the others sleep at once; a grant wakes the
 * granted ticket and the next one.  The next in line samples the head's
 * word every CASLIST_WAIT_IDLE_NS (the module's clock, CASLIST_LK_CLOCK_NS):
 * if no operation took the head between two samples, the streak's
 * threads have left this head and nobody will grant; it grants itself.
 *
 * Who takes part: every path that locks a head.  Operations that hold no
 * link another thread could wait for (caslist_lk_lock_head, move_head,
 * touch's entry, pop_tail, and the paths that find the head as the link
 * they locked: a delete of the first node, an add at the tail of an empty
 * list, an add near a head: caslist_lk_head_over) pass, grant, take
 * tickets and wait for turns (their waits on a busy head too:
 * caslist_lk_link_wait, lock.h); the `_held` waits (the caller holds a link
 * someone may wait for) pass and grant but never take a ticket or wait
 * for a turn, so a ticket holder never waits for a thread that waits for
 * it (doc/wait.md, "The bound").
 */
#ifndef CASLIST_STATIC_WAIT_H
#define CASLIST_STATIC_WAIT_H

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <caslist/export.h>
#include <caslist/list.h>
#include "cast.h"
#include "atomic.h"
#include "word.h"
#include "debug.h"

CASLIST_LK_BEGIN

/*
 * The knobs, each a compile-time default (caslist(3), "Waiting", has the
 * table).  A measurement build (lib/stats.h, test/measure/waitstat) may
 * make the backoff's three variables; it starts them at these values.
 */
#ifndef CASLIST_LK_BACKOFF_MAX
#define CASLIST_LK_BACKOFF_MAX 32767u	/* the budget's cap: a mask 2^k - 1 */
#endif
#ifndef CASLIST_LK_CROWDED_MAX
#define CASLIST_LK_CROWDED_MAX 63u	/* the cap while crowded (a mask) */
#endif
#ifndef CASLIST_LK_BACKOFF_ROUND_NS
#define CASLIST_LK_BACKOFF_ROUND_NS 20000u	/* the longest round of pauses, in ns */
#endif
#ifndef CASLIST_WAIT_ROUNDS
#define CASLIST_WAIT_ROUNDS 2	/* head rounds of backoff before a ticket */
#endif
#ifdef CASLIST_WAIT_K
#error "CASLIST_WAIT_K (a count of operations) is now CASLIST_WAIT_STREAK_NS (time: caslist(3), Waiting)"
#endif
#ifndef CASLIST_WAIT_STREAK_NS
#define CASLIST_WAIT_STREAK_NS 20000u	/* ns a streak runs past the oldest pending ticket */
#endif
#ifndef CASLIST_WAIT_CLOCK_EVERY
#define CASLIST_WAIT_CLOCK_EVERY 16u	/* passes past a pending ticket per read of the clock */
#endif
#if defined(CASLIST_WAIT_SPIN) || defined(CASLIST_WAIT_IDLE)
#error "CASLIST_WAIT_SPIN and CASLIST_WAIT_IDLE (pauses) are now CASLIST_WAIT_SPIN_NS and CASLIST_WAIT_IDLE_NS (time: caslist(3), Waiting)"
#endif
#ifndef CASLIST_WAIT_SPIN_NS
#define CASLIST_WAIT_SPIN_NS 100000u	/* ns the next in line spins before it sleeps */
#endif
#ifndef CASLIST_WAIT_IDLE_NS
#define CASLIST_WAIT_IDLE_NS 5000u	/* ns between the next in line's samples of the head */
#endif
#ifndef CASLIST_WAIT_IDLE_US
#define CASLIST_WAIT_IDLE_US 50	/* its sleeps' length, once it sleeps */
#endif
#ifndef CASLIST_LK_STAT
#define CASLIST_LK_STAT(field, n) ((void)0)
#endif
#ifndef CASLIST_LK_STAT_YIELD	/* a sched_yield took ns; slow: over the threshold */
#define CASLIST_LK_STAT_YIELD(ns, slow) ((void)0)
#endif
/* The wait module's clock, in ns (every budget of the head's turn, the
 * stuck watch, a yield's length): the monotonic clock unless a test
 * defines it (test/unit/handover: a clock that moves only when the test
 * says, so that no emulator's or host's speed decides an outcome). */
#ifndef CASLIST_LK_CLOCK_NS
#define CASLIST_LK_CLOCK_NS() caslist_lk_clock_ns()
#endif
/* Pauses between two reads of the clock while the next in line spins. */
#define CASLIST_LK_CLOCK_EVERY 32u
/* Pauses between two reads of the clock in a backoff round. */
#define CASLIST_LK_BACKOFF_CLOCK_EVERY 256u
/* A test hook (test/unit/handover, test/stress/bypass,
 * test/genmc/fairticket): EV is ticket (the waiter, after taking ticket
 * T), grant_try (a granter, about to try to grant T), grant (the
 * granter, having granted T) or granted (the waiter, seeing T granted). */
#ifndef CASLIST_LK_FAIR_HOOK
#define CASLIST_LK_FAIR_HOOK(ev, l, t) ((void)0)
#endif

/* The longest sleep on a parking slot: the stuck watch runs between. */
#define CASLIST_LK_PARK_MAX_US 100000u
/* A sched_yield slower than this means other threads wanted the CPU. */
#define CASLIST_LK_YIELD_SLOW_NS 30000u
#define CASLIST_LK_CROWD_HOLD 8u

/*
 * The per-thread state, one object per thread for the library and every
 * inline-mode file of a program: defined once, in lib/wait.c (an
 * inline-mode program links libcaslist for the reporters already).
 * Written only by its thread: no atomics.
 */
struct caslist_lk_self {
	unsigned rng;		/* the draw's xorshift32 state (0: not seeded yet) */
	unsigned pass;		/* passes past a pending ticket since the clock's last read */
	unsigned char crowd;	/* the crowding hint: slow yields seen lately */
	/* Debug builds: the list whose head this thread's last entry was
	 * for, until the head's next release (caslist_lk_fair_note); in
	 * every build, so that the object is one size for every unit. */
	const void *entered;
	bool told;		/* the watch has reported this wait */
	const void *link;	/* the watch: the link the yielding wait is on */
	unsigned long long t0_ms;	/* the watch: since when */
};

#if defined(__GNUC__) && !defined(CASLIST_LK_SELF)
/* __thread, in C and C++: no C++ TLS wrapper, no dynamic initialisation. */
CASLIST_LK_C_BEGIN
CASLIST_API extern __thread CASLIST_LK_TLS_MODEL struct caslist_lk_self caslist_lk_self_tls;
CASLIST_LK_C_END
#define CASLIST_LK_SELF (caslist_lk_self_tls)
#endif

/*
 * The parking lot: slots hashed by (list, ticket), each on its own line.
 * seq is the futex word: a grant bumps the slots of the ticket it grants
 * and of the next; sleepers says whether the bump must wake anyone.
 */
#define CASLIST_LK_PARK_SLOTS 64
struct caslist_lk_park {
	CASLIST_LK_ATOMIC(uint32_t) seq;
	CASLIST_LK_ATOMIC(uint32_t) sleepers;
	char pad[64 - 2 * sizeof(uint32_t)];
};
CASLIST_LK_C_BEGIN
CASLIST_API extern struct caslist_lk_park caslist_lk_park_slots[CASLIST_LK_PARK_SLOTS];
/* lib/wait.c: sleep while p->seq == seen (at most timeout_us, 0: no
 * limit); wake every sleeper of p. */
CASLIST_API void caslist_lk_park_sleep(struct caslist_lk_park *p, uint32_t seen,
				       unsigned timeout_us);
CASLIST_API void caslist_lk_park_wake(struct caslist_lk_park *p);
CASLIST_LK_C_END

/*
 * One wait.  Set by one store on every path that may wait.
 */
struct caslist_lk_backoff {
	unsigned spins;		/* the budget: pauses are drawn in [0, spins] */
	unsigned char rounds;	/* head waits: rounds since the last ticket or turn */
	unsigned char armed;	/* this wait owns the watch's state */
};
#define CASLIST_LK_BACKOFF_INIT { 0, 0, 0 }

static inline void caslist_lk_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#elif defined(__riscv)
	/* Zihintpause's pause (a FENCE hint: a no-op on cores without it),
	 * by its encoding: the assembler accepts it without the extension. */
	__asm__ __volatile__(".4byte 0x0100000f" ::: "memory");
#elif defined(__powerpc64__) || defined(__powerpc__)
	/* the low-priority hint (or 27,27,27, "yield") */
	__asm__ __volatile__("or 27,27,27" ::: "memory");
#else
	/* A compiler barrier only (G1): no order between threads. */
	atomic_signal_fence(memory_order_acq_rel);
#endif
}

/* The monotonic clock (CASLIST_LK_CLOCK_NS's default). */
static inline unsigned long long caslist_lk_clock_ns(void)
{
	struct timespec ts;

#ifdef CLOCK_MONOTONIC
	clock_gettime(CLOCK_MONOTONIC, &ts);
#else
	/* ISO C without POSIX (-std=c11 in an inline build): the calendar
	 * clock, good enough for a yield's length and the watch's seconds. */
	timespec_get(&ts, TIME_UTC);
#endif
	return CASLIST_LK_ICAST(unsigned long long, ts.tv_sec) * 1000000000u +
	       CASLIST_LK_ICAST(unsigned long long, ts.tv_nsec);
}

/* The module's clock: every time budget and the watch read this one. */
static inline unsigned long long caslist_lk_now_ns(void)
{
	return CASLIST_LK_CLOCK_NS();
}

static inline unsigned long long caslist_lk_backoff_now_ms(void)
{
	return caslist_lk_now_ns() / 1000000u;
}

/* The crowding hint: a slow yield raises it, a quick one lowers it. */
static inline void caslist_lk_backoff_note_yield(unsigned long long ns)
{
	if (ns > CASLIST_LK_YIELD_SLOW_NS)
		CASLIST_LK_SELF.crowd = CASLIST_LK_CROWD_HOLD;
	else if (CASLIST_LK_SELF.crowd > 0)
		CASLIST_LK_SELF.crowd--;
}

/* The spin cap of this thread's next round. */
static inline unsigned caslist_lk_backoff_cap(void)
{
	return CASLIST_LK_SELF.crowd ? CASLIST_LK_CROWDED_MAX : CASLIST_LK_BACKOFF_MAX;
}

static inline void caslist_lk_backoff_yield(void)
{
	unsigned long long t0 = caslist_lk_now_ns(), ns;

	CASLIST_LK_STAT(yields, 1);
	sched_yield();
	ns = caslist_lk_now_ns() - t0;
	CASLIST_LK_STAT_YIELD(ns, ns > CASLIST_LK_YIELD_SLOW_NS);
	caslist_lk_backoff_note_yield(ns);
}

/* The draw: xorshift32 on the thread's own state (0: not drawn yet, and
 * xorshift's one fixed point, so it starts from a constant seed). */
static inline unsigned caslist_lk_backoff_draw(void)
{
	unsigned r = CASLIST_LK_SELF.rng;

	if (__builtin_expect(r == 0, 0))
		r = 0x9e3779b9u;
	r ^= r << 13;
	r ^= r >> 17;
	r ^= r << 5;
	return CASLIST_LK_SELF.rng = r;
}

/* The budget after one more round: eightfold, up to the cap. */
static inline unsigned caslist_lk_backoff_grow(unsigned spins, unsigned cap)
{
	return spins >= cap / 8 ? cap : spins * 8 + 7;
}

/* N pauses, or fewer: a round ends once it has run
 * CASLIST_LK_BACKOFF_ROUND_NS on the module's clock, read every
 * CASLIST_LK_BACKOFF_CLOCK_EVERY pauses (a round shorter than that reads
 * none).  A pause's cost differs from host to host (and is nothing where
 * the CPU has no hint), so the count alone bounds no time
 * (doc/notebook.md, "A busy link's backoff bounded in time").  Returns
 * the pauses made. */
static inline unsigned caslist_lk_backoff_pause(unsigned n)
{
	unsigned long long t0 = 0;
	unsigned i;

	if (n >= CASLIST_LK_BACKOFF_CLOCK_EVERY)
		t0 = caslist_lk_now_ns();
	for (i = 0; i < n; i++) {
		if (i % CASLIST_LK_BACKOFF_CLOCK_EVERY == CASLIST_LK_BACKOFF_CLOCK_EVERY - 1 &&
		    caslist_lk_now_ns() - t0 >= CASLIST_LK_BACKOFF_ROUND_NS)
			break;
		caslist_lk_cpu_relax();
	}
	return i;
}

/* One round of backoff: pause a random count below the budget (grown
 * first), for at most CASLIST_LK_BACKOFF_ROUND_NS, and yield once at the
 * cap. */
static inline void caslist_lk_backoff(struct caslist_lk_backoff *b)
{
	unsigned cap = caslist_lk_backoff_cap();
	bool at_cap = b->spins >= cap;
	unsigned n;

	/* One pause first, then the draw: a wait always waits, and a GenMC
	 * run, whose shim ends a waiting execution at its first pause, never
	 * writes the per-thread state (test/genmc/shim.h). */
	caslist_lk_cpu_relax();
	b->spins = caslist_lk_backoff_grow(b->spins, cap);
	n = caslist_lk_backoff_draw() & b->spins;
	CASLIST_LK_STAT(rounds, 1);
	n = caslist_lk_backoff_pause(n);
	CASLIST_LK_STAT(pauses, n + 1);
	if (at_cap)
		caslist_lk_backoff_yield();
}

/*
 * The stuck-wait watch, from the yielding phase of a wait only: start the
 * clock when this wait first gets there or moves to another link; past
 * caslist_lk_stuck_ms(), say so once (the waiter keeps waiting).
 */
static inline void caslist_lk_backoff_watch(struct caslist_lk_backoff *b, const void *link,
					    const char *op)
{
	unsigned long long now = caslist_lk_backoff_now_ms();

	if (!b->armed || CASLIST_LK_SELF.link != link) {
		b->armed = 1;
		CASLIST_LK_SELF.link = link;
		CASLIST_LK_SELF.t0_ms = now;
		CASLIST_LK_SELF.told = false;
	} else if (!CASLIST_LK_SELF.told && now - CASLIST_LK_SELF.t0_ms > caslist_lk_stuck_ms()) {
		CASLIST_LK_SELF.told = true;
		caslist_lk_stuck(link, op, CASLIST_LK_ICAST(unsigned long, now - CASLIST_LK_SELF.t0_ms));
	}
}

/* One round of waiting for the lock of LINK, by operation OP. */
static inline void caslist_lk_backoff_wait(struct caslist_lk_backoff *b, const void *link,
					   const char *op)
{
	if (b->spins >= caslist_lk_backoff_cap())
		caslist_lk_backoff_watch(b, link, op);
	caslist_lk_backoff(b);
}

/* ---- The head's hand-over, bounded by time ---- */

static inline struct caslist_list *caslist_lk_list_of_head(struct caslist_node *h)
{
	/* The head is the list's first member. */
	return CASLIST_LK_VCAST(struct caslist_list *, CASLIST_LK_VCAST(void *, h));
}

/* Has ticket T been granted, with want_served at SERVED?  (Tickets wrap:
 * compare by difference.) */
static inline bool caslist_lk_fair_passed(uint32_t served, uint32_t t)
{
	return CASLIST_LK_ICAST(int32_t, served - t) > 0;
}

/* Is A below B?  (A function: a bound of 0 in the comparison itself
 * would be "always false" to -Wtype-limits.) */
static inline bool caslist_lk_wait_below(unsigned a, unsigned b)
{
	return a < b;
}

/* The stamp's clock: the module's, shifted right by
 * CASLIST_LK_STAMP_SHIFT and truncated to a uint32_t (ages are taken by
 * difference, so it may wrap). */
#define CASLIST_LK_STAMP_SHIFT 10
static inline uint32_t caslist_lk_fair_clock(void)
{
	return CASLIST_LK_ICAST(uint32_t, caslist_lk_now_ns() >> CASLIST_LK_STAMP_SHIFT);
}

/*
 * Has the oldest pending ticket of L, SERVED, waited
 * CASLIST_WAIT_STREAK_NS since an entry first saw it?  The stamp is
 * written once per ticket, by the entry that moves want_stamped to it
 * (a CAS, forward only: a stale SERVED never moves it back), so no write
 * ever restarts a ticket's time; until the winner's store of the clock
 * lands, the others read the previous ticket's older stamp and may find
 * the ticket due early, which only ends a streak sooner.  Relaxed, all:
 * the words order nothing but themselves (the CAS's atomicity makes the
 * one winner; the caller's loads of want_next and want_served say which
 * ticket is pending).
 */
static inline bool caslist_lk_fair_due(struct caslist_list *l, uint32_t served)
{
	uint32_t now = caslist_lk_fair_clock();
	uint32_t st = atomic_load_explicit(&l->want_stamped, memory_order_relaxed);

	if (st != served) {
		if (CASLIST_LK_ICAST(int32_t, served - st) > 0 &&
		    atomic_compare_exchange_strong_explicit(&l->want_stamped, &st, served,
							    memory_order_relaxed,
							    memory_order_relaxed))
			atomic_store_explicit(&l->want_since, now, memory_order_relaxed);
		/* Seen just now: due only if the streak is no time at all. */
		return !caslist_lk_wait_below(0, CASLIST_WAIT_STREAK_NS >> CASLIST_LK_STAMP_SHIFT);
	}
	return !caslist_lk_wait_below(now - atomic_load_explicit(&l->want_since,
								 memory_order_relaxed),
				      CASLIST_WAIT_STREAK_NS >> CASLIST_LK_STAMP_SHIFT);
}

static inline struct caslist_lk_park *caslist_lk_park_of(const struct caslist_list *l, uint32_t t)
{
	uintptr_t a = CASLIST_LK_PCAST(uintptr_t, l);

	return &caslist_lk_park_slots[((a >> 6) ^ (a >> 12) ^ t) % CASLIST_LK_PARK_SLOTS];
}

/* Wake whoever sleeps on P, after its seq was bumped.  seq_cst on both
 * sides of the sleepers count (with caslist_lk_fair_sleep's): either the
 * sleeper's increment comes first in the total order and we see it, or
 * our bump comes first and its check of seq sees it. */
static inline void caslist_lk_park_bump(struct caslist_lk_park *p)
{
	/* seq_cst RMW: the bump the sleeper's seq_cst load or the kernel's
	 * futex check sees; release too, for caslist_lk_fair_sleep's acquire
	 * load of seq (which then sees the grant before it). */
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&p->sleepers, memory_order_seq_cst) != 0)
		caslist_lk_park_wake(p);
}

/*
 * Grant ticket S of L (want_served S -> S + 1) if it is issued and still
 * the oldest pending one: the CAS makes two granters grant two tickets,
 * never one twice.  Then wake the slots of S (it may sleep) and of S + 1 (next in
 * line now: it spins from here on).  Returns whether this thread granted.
 */
static __attribute__((noinline, cold, unused)) bool
caslist_lk_fair_grant(struct caslist_list *l, uint32_t s)
{
	/* Only an issued ticket: want_next only grows, so one seen past S
	 * stays past it.  (A stale want_served equal to the entry's
	 * want_next would otherwise grant a ticket nobody holds yet.)
	 * Relaxed: the CAS below decides; this only keeps S issued. */
	if (!caslist_lk_fair_passed(atomic_load_explicit(&l->want_next, memory_order_relaxed), s))
		return false;
	CASLIST_LK_FAIR_HOOK(grant_try, l, s);
	/* seq_cst: the grant is in the total order with the tickets'
	 * fetch_adds and the entries' loads (caslist_lk_fair_pending); the
	 * waiter's acquire load of want_served or of its slot's seq pairs
	 * with it (no list data comes with it: the head's lock orders that). */
	if (!atomic_compare_exchange_strong_explicit(&l->want_served, &s, s + 1,
						     memory_order_seq_cst, memory_order_relaxed))
		return false;
	CASLIST_LK_FAIR_HOOK(grant, l, s);
	CASLIST_LK_STAT(grants, 1);
	caslist_lk_park_bump(caslist_lk_park_of(l, s));
	caslist_lk_park_bump(caslist_lk_park_of(l, s + 1));
	return true;
}

/*
 * Wait, holding nothing, until ticket T of L is granted.  The next in
 * line (want_served == T) spins on its slot's seq, not on the list's line
 * (which the streak's thread is writing), and every CASLIST_WAIT_IDLE_NS
 * (the module's clock) samples the head's word: a head whose word is
 * free and did not change in that time has no streak running on it
 * (every operation that takes the head writes its word), so nobody will
 * grant; the next in line grants itself.  CASLIST_WAIT_SPIN_NS after it
 * became next in line it sleeps, waking every CASLIST_WAIT_IDLE_US to
 * sample again.  The others sleep until a grant makes them next.  Both
 * budgets are time, not pauses: a pause's cost differs from host to
 * host, and where the CPU has no hint a pause is no wait at all.
 */
static __attribute__((noinline, cold, unused)) void
caslist_lk_fair_turn(struct caslist_list *l, uint32_t t, struct caslist_lk_backoff *watch,
		     const char *op)
{
	struct caslist_lk_park *p = caslist_lk_park_of(l, t);
	/* The head's word at the last sample (taken once next in line). */
	uintptr_t head = 0;
	unsigned long long t_next = 0, t_sample = 0;	/* when it became next; its last sample */
	bool next = false;

	for (;;) {
		/* Acquire: pairs with the release half of the bump's RMW
		 * (caslist_lk_park_bump): a bump seen means the grant before
		 * it is seen by the load below. */
		uint32_t seen = atomic_load_explicit(&p->seq, memory_order_acquire);
		/* Acquire: pairs with the grant's CAS; nothing is published
		 * by it but the turn itself. */
		uint32_t served = atomic_load_explicit(&l->want_served, memory_order_acquire);
		unsigned left = CASLIST_LK_PARK_MAX_US;
		unsigned long long clk;
		uintptr_t now;

		if (caslist_lk_fair_passed(served, t))
			break;
		if (served == t) {	/* next in line */
			clk = caslist_lk_now_ns();
			if (!next) {	/* the first sample, and the spin's start */
				next = true;
				t_next = t_sample = clk;
				/* Relaxed, as every sample: compared with
				 * later samples, nothing is read through it. */
				head = atomic_load_explicit(&l->head.next, memory_order_relaxed);
			}
			if (clk - t_next < CASLIST_WAIT_SPIN_NS) {
				for (unsigned i = 0; i < CASLIST_LK_CLOCK_EVERY; i++) {
					caslist_lk_cpu_relax();
					if (atomic_load_explicit(&p->seq, memory_order_relaxed) != seen)
						break;
				}
				if (atomic_load_explicit(&p->seq, memory_order_relaxed) != seen)
					continue;
				clk = caslist_lk_now_ns();
			}
			if (clk - t_sample >= CASLIST_WAIT_IDLE_NS) {
				now = atomic_load_explicit(&l->head.next, memory_order_relaxed);
				if (now == head && !caslist_lk_w_locked(now)) {
					/* No operation took the head meanwhile,
					 * and none holds it: grant ourselves (we
					 * are the oldest pending ticket).  A head
					 * held that long is waited for as it is. */
					caslist_lk_fair_grant(l, t);
					continue;
				}
				head = now;
				t_sample = clk;
			}
			if (clk - t_next < CASLIST_WAIT_SPIN_NS)
				continue;
			left = CASLIST_WAIT_IDLE_US;
		}
		/* Asleep, a wait still reports when it is stuck: its sleeps
		 * are bounded, and each starts with the watch. */
		caslist_lk_backoff_watch(watch, &l->head, op);
		/* seq_cst: with caslist_lk_park_bump's load of sleepers (the
		 * store-buffering pair: one of the two sees the other). */
		atomic_fetch_add_explicit(&p->sleepers, 1, memory_order_seq_cst);
		if (atomic_load_explicit(&p->seq, memory_order_seq_cst) == seen) {
			CASLIST_LK_STAT(sleeps, 1);
			caslist_lk_park_sleep(p, seen, left);
		}
		atomic_fetch_sub_explicit(&p->sleepers, 1, memory_order_relaxed);
	}
	CASLIST_LK_FAIR_HOOK(granted, l, t);
}

/* Take a ticket of L and wait for its turn (WATCH: the wait's, for the
 * stuck watch).  The ticket's fetch_add is
 * seq_cst: it orders the ticket before every later entry's load of
 * want_next (caslist_lk_fair_pending), which is what makes those
 * entries see it pending. */
static __attribute__((noinline, cold, unused)) uint32_t
caslist_lk_fair_take(struct caslist_list *l, struct caslist_lk_backoff *watch, const char *op)
{
	uint32_t t = atomic_fetch_add_explicit(&l->want_next, 1, memory_order_seq_cst);

	CASLIST_LK_FAIR_HOOK(ticket, l, t);
	CASLIST_LK_STAT(tickets, 1);
	caslist_lk_fair_turn(l, t, watch, op);
	return t;
}

/*
 * Is a ticket of L pending?  *SERVEDP: tickets granted (the oldest
 * pending one, if any).
 * want_next's load is seq_cst: one that follows a ticket's fetch_add in
 * the total order sees it (test/genmc/fairticket kills its weakening).
 * want_served's is relaxed: a stale value, being smaller, only makes an
 * entry count itself when it need not.
 */
static inline bool caslist_lk_fair_pending(struct caslist_list *l, uint32_t *servedp)
{
	uint32_t next = atomic_load_explicit(&l->want_next, memory_order_seq_cst);

	*servedp = atomic_load_explicit(&l->want_served, memory_order_relaxed);
	/* [mutant nodefer] the mutant never defers (test/stress/mutate.sh) */
	return __builtin_expect(next != *servedp, 0);
}

/* Debug builds: this thread has entered L's head (caslist_lk_unlock of
 * a head checks it, so that no path locks a head without the entry). */
static inline void caslist_lk_fair_note(struct caslist_list *l)
{
	if (CASLIST_LK_DEBUG_ON)
		CASLIST_LK_SELF.entered = l;
}

/*
 * May an operation that takes L(head) go on without handing over?  The
 * inline test of every first attempt, with no call in it (a call would
 * make each caller save its registers on the fast path): true if no
 * ticket is pending, or if one is and this is not the pass in
 * CASLIST_WAIT_CLOCK_EVERY that reads the clock (a per-thread count, for
 * any list: it only spaces the reads).  False: a ticket is pending and the
 * clock must decide; the caller goes to its out-of-line path, which asks
 * caslist_lk_fair_enter (or _enter_held) for the verdict.
 */
static inline bool caslist_lk_fair_pass(struct caslist_list *l)
{
	uint32_t served;

	caslist_lk_fair_note(l);
	if (__builtin_expect(!caslist_lk_fair_pending(l, &served), 1))
		return true;
	return caslist_lk_wait_below(++CASLIST_LK_SELF.pass, CASLIST_WAIT_CLOCK_EVERY);
}

/* The clock's verdict, out of line: has the streak past L's oldest
 * pending ticket run CASLIST_WAIT_STREAK_NS since an entry first saw it
 * (caslist_lk_fair_due)?  False if no ticket is pending any more. */
static __attribute__((noinline, cold, unused)) bool caslist_lk_fair_over(struct caslist_list *l)
{
	uint32_t served;

	CASLIST_LK_SELF.pass = 0;
	if (!caslist_lk_fair_pending(l, &served))
		return false;
	return caslist_lk_fair_due(l, served);
}

/* Grant the oldest pending ticket of L: this thread's streak has run
 * its time past it. */
static __attribute__((noinline, cold, unused)) void caslist_lk_fair_hand_over(struct caslist_list *l)
{
	/* The oldest pending ticket, if any is still pending (grant checks
	 * it was issued); relaxed: the grant's CAS decides. */
	caslist_lk_fair_grant(l, atomic_load_explicit(&l->want_served, memory_order_relaxed));
}

/*
 * The entry of an operation that takes L(head) holding nothing: past its
 * streak, it hands the head over and queues behind the waiter (a ticket
 * of its own, and its turn).
 */
/* The end of this thread's streak at L's head: grant the oldest pending
 * ticket, take one and wait for its turn.  The caller holds nothing. */
static __attribute__((noinline, cold, unused)) void caslist_lk_fair_yield(struct caslist_list *l,
									   const char *op)
{
	struct caslist_lk_backoff watch = CASLIST_LK_BACKOFF_INIT;

	caslist_lk_fair_hand_over(l);
	caslist_lk_fair_take(l, &watch, op);
}

static inline void caslist_lk_fair_enter(struct caslist_list *l, const char *op)
{
	if (__builtin_expect(!caslist_lk_fair_pass(l), 0) && caslist_lk_fair_over(l))
		caslist_lk_fair_yield(l, op);
}

/*
 * The entry of an operation that takes L(head) holding a link another
 * thread may wait for (caslist_lk_lock_head_held): past its streak it
 * grants, but it may not wait for a turn, so it goes on.
 */
static inline void caslist_lk_fair_enter_held(struct caslist_list *l)
{
	if (__builtin_expect(!caslist_lk_fair_pass(l), 0) && caslist_lk_fair_over(l))
		caslist_lk_fair_hand_over(l);
}

static inline void caslist_lk_fair_wait(struct caslist_list *l, struct caslist_lk_backoff *b,
					const void *link, const char *op)
{
	if (caslist_lk_wait_below(b->rounds, CASLIST_WAIT_ROUNDS)) {
		b->rounds++;
		caslist_lk_backoff_wait(b, link, op);
		return;
	}
	/* The watch goes on across tickets: a wait that takes ticket after
	 * ticket on a link that stays held is still one stuck wait. */
	caslist_lk_backoff_watch(b, link, op);
	caslist_lk_fair_take(l, b, op);
	b->rounds = 0;
	b->spins = 0;
}

CASLIST_LK_END

#endif /* CASLIST_STATIC_WAIT_H */
