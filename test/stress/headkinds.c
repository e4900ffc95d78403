/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/headkinds.c - a waiter queued at a head is served whatever
 * kind of head operation another thread loops on (doc/wait.md, "Who takes
 * part"), on a logical clock: no timing decides the outcome.
 *
 * Usage: headkinds <threads> <seconds> <seed>
 *
 * threads / 2 pairs, each on a list of its own, L: per kind in turn
 * (seconds / kinds each), the pair's looper runs that kind of head
 * operation on a node of its own, and its waiter runs add_head then del
 * of its own node (both take the head: the del is a delete of the first
 * node unless the looper's node was added before it).  One looper per
 * list, so that every operation it completes takes L's head (with two,
 * one's add at the tail and delete of a middle node take no head at all).
 * The kinds: add_tail then del (an add at an empty list's tail, a delete
 * of the first node), add_after at the head then del, add_near at the
 * head then del, move_head between L and a list of the looper's own (a
 * move out of another list's first place), touch that adds then del
 * (a `_held` entry), caslist_link_lock of L's head then unlock (the link
 * primitives), a batch's flush onto L then del.
 *
 * Built inline with the wait module's clock injected: every read moves it
 * one unit of the stamp (1024 ns), CASLIST_WAIT_CLOCK_EVERY 1 and
 * CASLIST_WAIT_ROUNDS 0, as test/stress/bypass.  The wait layer's hook
 * records, at each ticket the waiter takes in its add_head, the looper's completed
 * operations and the tickets ahead (j); at the grant of that ticket the
 * loopers' operations since must be within (j + 1)(S + 3 threads)
 * (doc/wait.md, "The bound").  A path that locks the head without taking
 * part lets its looper run on past a ticket until the head goes idle,
 * which a looper never lets happen: the bound breaks (the mutant
 * noheadover, test/stress/headkinds.sh, must fail it).  Checks per kind:
 * the bound at every measured grant, and the waiter completed operations
 * while the loopers ran; at the end caslist_check passes and every node
 * is where it belongs.  One summary line.  TAP output; exit 0 = pass.
 *
 * Built again with HK_WALL as test/measure/headwait, a measurement (not
 * run by make check): the library's own clock and defaults, no bound
 * checked; the waiter times each of its add_head and del calls on the
 * monotonic clock, and each kind prints its waiter's operations, the
 * longest call and how many took over 1 ms and over 10 ms (issue 52:
 * no head operation waits 10 ms at 2 threads), and where each call over
 * 1 ms spent most of its time: in ticket waits (timed through the hook),
 * off the CPU, or on it outside ticket waits (wall_note).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

struct caslist_list;
static void hk_ticket(struct caslist_list *l, uint32_t t);
static void hk_grant(struct caslist_list *l, uint32_t t);
static void hk_grant_try(struct caslist_list *l, uint32_t t);
static __attribute__((unused)) void hk_granted(struct caslist_list *l, uint32_t t)
{
	(void)l;
	(void)t;
}

#define S 8u		/* the streak, in reads of the clock */
#define CASLIST_INLINE 1
#ifndef HK_WALL
/* The logical clock: one unit of the stamp's clock (1024 ns) a read. */
static _Atomic unsigned long long logical_ns;
#define CASLIST_LK_CLOCK_NS() atomic_fetch_add_explicit(&logical_ns, 1024, memory_order_relaxed)
#define CASLIST_WAIT_STREAK_NS (S * 1024u)
#define CASLIST_WAIT_CLOCK_EVERY 1
#define CASLIST_WAIT_ROUNDS 0
#define CASLIST_LK_FAIR_HOOK(ev, l, t) hk_##ev(l, t)
#else
#define HK_UNUSED __attribute__((unused))
static HK_UNUSED void hk_ticket(struct caslist_list *l, uint32_t t);
static HK_UNUSED void hk_grant(struct caslist_list *l, uint32_t t);
static HK_UNUSED void hk_grant_try(struct caslist_list *l, uint32_t t);
/* headwait: the hook times the waiter's ticket waits (ticket to granted). */
static void hw_ticket(void);
static void hw_granted(void);
#define hw_grant() ((void)0)
#define hw_grant_try() ((void)0)
#define CASLIST_LK_FAIR_HOOK(ev, l, t) ((void)(l), (void)(t), hw_##ev())
#endif
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

enum kind { K_TAIL, K_AFTER, K_NEAR, K_MOVE, K_TOUCH, K_LINK, K_FLUSH, NKINDS };
static const char *const kind_name[NKINDS] = {
	"add_tail+del", "add_after(head)+del", "add_near(head)+del", "move_head between lists",
	"touch(add)+del", "link_lock(head)", "batch_flush+del",
};

static int nthreads;
static _Atomic int kind, stop_loopers, stop_waiter;

static _Atomic unsigned long measured, over_bound, max_over;
static _Thread_local bool is_waiter;

#define RECORDS 8	/* more than the tickets pending at once on one list */
struct pair {
	struct caslist_list L;
	struct caslist_node wnode;	/* the waiter's */
	_Atomic unsigned long looped;	/* the looper's completed head operations */
	_Atomic unsigned long waited;	/* the waiter's completed operations */
	_Atomic unsigned long at_ticket[RECORDS];
	_Atomic uint32_t ahead_of[RECORDS];
	_Atomic uint32_t record_of[RECORDS];	/* ticket + 1 recorded there */
	struct looper *lp;
};
static struct pair *pairs;
static int npairs;

static struct pair *pair_of(struct caslist_list *l)
{
	for (int i = 0; i < npairs; i++)
		if (&pairs[i].L == l)
			return &pairs[i];
	return NULL;	/* a looper's own list */
}

static void hk_ticket(struct caslist_list *l, uint32_t t)
{
	struct pair *pr = pair_of(l);
	uint32_t j;

	if (!is_waiter || pr == NULL)
		return;
	/* j before the count (test/stress/bypass.c says why); seq_cst: in
	 * the total order with the looper's completions. */
	j = t - atomic_load_explicit(&l->want_served, memory_order_seq_cst);
	atomic_store_explicit(&pr->at_ticket[t % RECORDS],
			      atomic_load_explicit(&pr->looped, memory_order_seq_cst),
			      memory_order_seq_cst);
	atomic_store_explicit(&pr->ahead_of[t % RECORDS], j, memory_order_seq_cst);
	atomic_store_explicit(&pr->record_of[t % RECORDS], t + 1, memory_order_seq_cst);
}

static _Thread_local unsigned long before_grant, its_ticket, its_bound;
static _Thread_local bool recorded;

static void hk_grant_try(struct caslist_list *l, uint32_t t)
{
	struct pair *pr = pair_of(l);

	recorded = pr != NULL &&
		   atomic_load_explicit(&pr->record_of[t % RECORDS], memory_order_seq_cst) == t + 1;
	if (!recorded)
		return;
	its_ticket = atomic_load_explicit(&pr->at_ticket[t % RECORDS], memory_order_seq_cst);
	/* two threads on the list: (j + 1)(S + 3 * 2) */
	its_bound = (atomic_load_explicit(&pr->ahead_of[t % RECORDS], memory_order_seq_cst) + 1ul) *
		    (S + 6ul);
	before_grant = atomic_load_explicit(&pr->looped, memory_order_seq_cst);
}

static void hk_grant(struct caslist_list *l, uint32_t t)
{
	unsigned long d, m = atomic_load_explicit(&max_over, memory_order_relaxed);

	if (!recorded)
		return;		/* not a waiter's ticket, or granted before it recorded */
	atomic_store_explicit(&pair_of(l)->record_of[t % RECORDS], 0, memory_order_seq_cst);
	d = before_grant - its_ticket;
	atomic_fetch_add_explicit(&measured, 1, memory_order_relaxed);
	while (d > m && !atomic_compare_exchange_weak_explicit(&max_over, &m, d,
							       memory_order_relaxed,
							       memory_order_relaxed))
		;
	if (d > its_bound)
		atomic_fetch_add_explicit(&over_bound, 1, memory_order_relaxed);
}

struct looper {
	struct pair *pr;
	struct caslist_list own;	/* K_MOVE: x's other list */
	struct caslist_node x;
	struct caslist_batch b;
	unsigned long ops;
	int bad;			/* an operation's result was not the expected one */
};

static void one_op(struct looper *me, enum kind k)
{
	struct caslist_node *x = &me->x, *succ;
	struct caslist_list *l = &me->pr->L;

	switch (k) {
	case K_TAIL:
		caslist_add_tail(l, x);
		me->bad |= caslist_del(x) != CASLIST_OK;
		caslist_node_init(x);
		break;
	case K_AFTER:
		me->bad |= caslist_add_after(&l->head, x) != CASLIST_OK;
		me->bad |= caslist_del(x) != CASLIST_OK;
		caslist_node_init(x);
		break;
	case K_NEAR:
		me->bad |= caslist_add_near(&l->head, x) < 0;
		me->bad |= caslist_del(x) != CASLIST_OK;
		caslist_node_init(x);
		break;
	case K_MOVE:	/* x starts on me->own (set up by the phase) */
		me->bad |= caslist_move_head(l, x) != CASLIST_OK;
		me->bad |= caslist_move_head(&me->own, x) != CASLIST_OK;
		break;
	case K_TOUCH:
		me->bad |= caslist_touch(l, x) != CASLIST_TOUCH_ADDED;
		me->bad |= caslist_del(x) != CASLIST_OK;
		caslist_node_init(x);
		break;
	case K_LINK:
		succ = caslist_link_lock(&l->head);
		caslist_link_unlock(&l->head, succ);
		break;
	case K_FLUSH:	/* x starts on me->own */
		me->bad |= caslist_batch_move_head(&me->b, l, x) != CASLIST_OK;
		caslist_batch_flush(&me->b);
		me->bad |= caslist_del(x) != CASLIST_OK;
		caslist_node_init(x);
		caslist_add_tail(&me->own, x);
		break;
	default:
		break;
	}
}

static void *looper_fn(void *arg)
{
	struct looper *me = arg;
	enum kind k = (enum kind)atomic_load(&kind);

	while (!atomic_load_explicit(&stop_loopers, memory_order_relaxed)) {
		one_op(me, k);
		atomic_fetch_add_explicit(&me->pr->looped, 1, memory_order_seq_cst);
		me->ops++;
	}
	return NULL;
}

#ifdef HK_WALL
/* The waiter's calls on the monotonic clock (HK_WALL): the longest, and
 * how many took over 1 ms and 10 ms, per kind.  Each call over 1 ms is
 * put where most of its time went: in ticket waits (half of it or more,
 * from the hook), off the CPU (its thread's CPU time under half of it:
 * preempted, or asleep), or else on the CPU outside ticket waits (a busy
 * link's backoff, or the operation's own retries). */
static _Atomic unsigned long long wall_max_ns, wall_over1, wall_over10, wall_calls;
static _Atomic unsigned long long wall_over1_ticket, wall_over1_off, wall_over1_cpu;
static _Thread_local bool hw_on;		/* in a timed call of the waiter */
static _Thread_local unsigned long long hw_tk_t0, hw_tk_ns, hw_cpu0;
static unsigned long long wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
static void hw_ticket(void)
{
	if (hw_on)
		hw_tk_t0 = wall_ns();
}
static void hw_granted(void)
{
	if (hw_on && hw_tk_t0 != 0) {
		hw_tk_ns += wall_ns() - hw_tk_t0;
		hw_tk_t0 = 0;
	}
}
static unsigned long long wall_start(void)
{
	hw_on = true;
	hw_tk_t0 = 0;
	hw_tk_ns = 0;
	hw_cpu0 = cpu_ns();
	return wall_ns();
}
static void wall_note(unsigned long long t0)
{
	unsigned long long d = wall_ns() - t0, m = atomic_load_explicit(&wall_max_ns, memory_order_relaxed);

	hw_on = false;
	atomic_fetch_add_explicit(&wall_calls, 1, memory_order_relaxed);
	if (d > 1000000ull) {
		unsigned long long cpu = cpu_ns() - hw_cpu0;

		atomic_fetch_add_explicit(&wall_over1, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(2 * hw_tk_ns >= d ? &wall_over1_ticket :
					  2 * cpu < d ? &wall_over1_off : &wall_over1_cpu,
					  1, memory_order_relaxed);
	}
	if (d > 10000000ull)
		atomic_fetch_add_explicit(&wall_over10, 1, memory_order_relaxed);
	while (d > m && !atomic_compare_exchange_weak_explicit(&wall_max_ns, &m, d, memory_order_relaxed,
							       memory_order_relaxed))
		;
}
#define WALL_START() unsigned long long wall_t0 = wall_start()
#define WALL_NOTE() wall_note(wall_t0)
#else
#define WALL_START() ((void)0)
#define WALL_NOTE() ((void)0)
#endif

static void *waiter_fn(void *arg)
{
	struct pair *pr = arg;

	while (!atomic_load_explicit(&stop_waiter, memory_order_relaxed)) {
		/* Only the add's tickets are measured: while the waiter waits
		 * to add, its node is not on L, so every operation of the
		 * looper takes L's head.  (Waiting to delete its node, the
		 * waiter leaves it on L, and the looper's add at the tail and
		 * delete of its own node then take no head at all.) */
		is_waiter = true;
		{
			WALL_START();
			caslist_add_head(&pr->L, &pr->wnode);
			WALL_NOTE();
		}
		is_waiter = false;
		{
			int rc;
			WALL_START();
			rc = caslist_del(&pr->wnode);
			WALL_NOTE();
			if (rc != CASLIST_OK)
				return (void *)1;
		}
		caslist_node_init(&pr->wnode);
		atomic_fetch_add_explicit(&pr->waited, 1, memory_order_relaxed);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct looper *lp;
	double seconds, per;
	uint64_t seed;
	unsigned long total_ops = 0, total_measured = 0, worst = 0;
	int all_ok = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: headkinds <threads> <seconds> <seed>\n");
		return 2;
	}
	nthreads = atoi(argv[1]);
	seconds = atof(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	if (nthreads < 2 || nthreads % 2 != 0 || seconds <= 0) {
		fprintf(stderr, "headkinds: want an even thread count >= 2 (a looper and a waiter "
				"per list) and seconds > 0\n");
		return 2;
	}
	npairs = nthreads / 2;
	pairs = calloc((size_t)npairs, sizeof(*pairs));
	lp = calloc((size_t)npairs, sizeof(*lp));
	if (pairs == NULL || lp == NULL)
		return 2;
	per = seconds / NKINDS;
	watchdog_arm(seconds + 120);
	for (int k = 0; k < NKINDS; k++) {
		/* The order of kinds comes from the seed: each kind runs once. */
		enum kind kk = (enum kind)((k + seed) % NKINDS);
		unsigned long w_min = ~0ul;
		pthread_t *thr = calloc((size_t)nthreads, sizeof(*thr));
		int bad = 0;
		size_t count = 0;

		if (thr == NULL)
			return 2;
		atomic_store(&kind, kk);
		atomic_store(&stop_loopers, 0);
		atomic_store(&stop_waiter, 0);
		atomic_store(&measured, 0);
		atomic_store(&over_bound, 0);
		atomic_store(&max_over, 0);
#ifdef HK_WALL
		atomic_store(&wall_max_ns, 0);
		atomic_store(&wall_over1, 0);
		atomic_store(&wall_over10, 0);
		atomic_store(&wall_calls, 0);
		atomic_store(&wall_over1_ticket, 0);
		atomic_store(&wall_over1_off, 0);
		atomic_store(&wall_over1_cpu, 0);
#endif
		for (int i = 0; i < npairs; i++) {
			struct pair *pr = &pairs[i];

			memset(pr, 0, sizeof(*pr));
			caslist_init(&pr->L);
			caslist_node_init(&pr->wnode);
			lp[i].pr = pr;
			caslist_init(&lp[i].own);
			caslist_node_init(&lp[i].x);
			caslist_batch_init(&lp[i].b);
			lp[i].ops = 0;
			lp[i].bad = 0;
			if (kk == K_MOVE || kk == K_FLUSH)
				caslist_add_tail(&lp[i].own, &lp[i].x);
		}
		for (int i = 0; i < npairs; i++)
			if (pthread_create(&thr[2 * i], NULL, waiter_fn, &pairs[i]) != 0 ||
			    pthread_create(&thr[2 * i + 1], NULL, looper_fn, &lp[i]) != 0)
				return 2;
		nanosleep(&(struct timespec){ (time_t)per, (long)((per - (double)(time_t)per) * 1e9) },
			  NULL);
		/* The waiters' counts while the loopers still loop: each must
		 * have had turns against its looper, not only after it stopped. */
		for (int i = 0; i < npairs; i++) {
			unsigned long w = atomic_load(&pairs[i].waited);

			if (w < w_min)
				w_min = w;
		}
		atomic_store(&stop_loopers, 1);
		for (int i = 0; i < npairs; i++)
			pthread_join(thr[2 * i + 1], NULL);
		atomic_store(&stop_waiter, 1);
		for (int i = 0; i < npairs; i++) {
			void *wret = NULL;

			pthread_join(thr[2 * i], &wret);
			bad |= wret != NULL || lp[i].bad;
			total_ops += lp[i].ops;
			if (kk == K_MOVE || kk == K_FLUSH)	/* x is back on its own list */
				bad |= caslist_check(&lp[i].own, 2, &count) != 0 || count != 1;
			bad |= caslist_check(&pairs[i].L, 1, &count) != 0 || count != 0;
		}
		free(thr);
		total_measured += atomic_load(&measured);
		if (atomic_load(&max_over) > worst)
			worst = atomic_load(&max_over);
		all_ok &= !bad && atomic_load(&over_bound) == 0 && w_min > 0;
		tap_ok(!bad, "%s: every operation's result as expected, the lists whole",
		       kind_name[kk]);
#ifdef HK_WALL
		printf("# headwait kind=%s threads=%d seconds=%g looper_ops=%lu waiter_calls=%llu "
		       "waiter_ops_while_looping=%lu max_us=%.1f over_1ms=%llu over_10ms=%llu "
		       "over_1ms_ticket=%llu over_1ms_offcpu=%llu over_1ms_oncpu=%llu\n",
		       kind_name[kk], nthreads, per, lp[0].ops, atomic_load(&wall_calls), w_min,
		       (double)atomic_load(&wall_max_ns) / 1e3, atomic_load(&wall_over1),
		       atomic_load(&wall_over10), atomic_load(&wall_over1_ticket),
		       atomic_load(&wall_over1_off), atomic_load(&wall_over1_cpu));
		continue;
#endif
		tap_ok(atomic_load(&over_bound) == 0 && w_min > 0,
		       "%s: each waiter completed operations while its looper ran (fewest %lu); "
		       "its grants within (j + 1)(%u + 3 * 2) looper operations (max seen %lu, "
		       "%lu measured, over %lu)",
		       kind_name[kk], w_min, S, atomic_load(&max_over), atomic_load(&measured),
		       atomic_load(&over_bound));
	}
#ifndef HK_WALL
	tap_ok(total_measured > 0, "grants measured: %lu", total_measured);
	printf("# headkinds threads=%d seconds=%g seed=%s looper_ops=%lu measured=%lu "
	       "max_overtakes=%lu %s\n",
	       nthreads, seconds, argv[3], total_ops, total_measured, worst,
	       all_ok ? "ok" : "FAILED");
#else
	(void)all_ok;
	(void)worst;
	(void)total_measured;
	(void)total_ops;
#endif
	free(lp);
	free(pairs);
	return tap_done();
}
