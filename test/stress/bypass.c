/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/stress/bypass.c - the head's bounded bypass (<caslist/static/wait.h>),
 * per waiter, on a logical clock: no timing decides the outcome.
 *
 * Usage: bypass <threads> <seconds> <seed>
 *
 * The claim (doc/wait.md, "The bound"): a streak runs past the oldest
 * pending ticket until its stamp is CASLIST_WAIT_STREAK_NS old on the
 * module's clock.  Here that clock is logical: every read of it moves it
 * one unit of the stamp (1024 ns), and every pass past a pending ticket
 * reads it (CASLIST_WAIT_CLOCK_EVERY 1), so a streak is at most S passes
 * (S = CASLIST_WAIT_STREAK_NS / 1024; other reads only end it sooner).
 * A waiter with j tickets ahead of it sees j + 1 oldest-ticket periods,
 * each at most S passes after the stamp, plus per thread one pass that
 * found the ticket unstamped, one that read want_served as the grant
 * changed it, and one operation in flight: between its ticket and its
 * grant the others complete at most (j + 1)(S + 3 threads) head
 * operations.  Built inline with
 * CASLIST_WAIT_ROUNDS 0 (every head wait takes a ticket at once) and the
 * wait layer's hook: after its ticket's fetch_add the waiter records the
 * count of completed head operations and j (its ticket less want_served)
 * under the ticket's number; just before a grant's CAS the granter reads
 * the count again (and uses it if the CAS grants); the difference must be
 * within that waiter's bound.  Every access to
 * the count, the record and the ticket words is seq_cst, so the reads
 * and every completion are in one total order.  A grant that comes
 * before its waiter has recorded (between the fetch_add and the hook) is
 * not measured; the test requires measured grants.  No timing decides
 * the outcome: a slow machine makes fewer tickets, never a false failure.
 *
 * Workers run head operations only: move_head and touch of random nodes,
 * pop_head then add_head of the popped node.  Checks: the bound at every
 * measured grant; grants were measured (else the run proved nothing); at
 * the end caslist_check passes and every node is on the list once.
 * The mutant bypass-mutant-nodefer (operations never see a pending
 * ticket) must fail the bound (test/stress/mutate.sh).
 * TAP output; exit 0 = pass.
 */
#include <time.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct caslist_list;
static void bypass_ticket(struct caslist_list *l, uint32_t t);
static void bypass_grant(struct caslist_list *l, uint32_t t);
static void bypass_grant_try(struct caslist_list *l, uint32_t t);
static void bypass_granted(struct caslist_list *l, uint32_t t) { (void)l; (void)t; }

/* The logical clock: one unit of the stamp's clock (1024 ns) a read. */
static _Atomic unsigned long long logical_ns;
#define CASLIST_LK_CLOCK_NS() atomic_fetch_add_explicit(&logical_ns, 1024, memory_order_relaxed)
#define S 8u		/* the streak, in reads of the clock */

#define CASLIST_INLINE 1
#define CASLIST_WAIT_STREAK_NS (S * 1024u)
#define CASLIST_WAIT_CLOCK_EVERY 1
#define CASLIST_WAIT_ROUNDS 0
#define CASLIST_LK_FAIR_HOOK(ev, l, t) bypass_##ev(l, t)
#include <caslist/caslist.h>

#include "../tap.h"
#include "../util.h"

#define NODES 64

struct item {
	struct caslist_node link;
	int seen;
};

static CASLIST_LIST(list);
static struct item items[NODES];
static int nthreads;
static pthread_barrier_t start;
static _Atomic int stop;

static _Atomic unsigned long done;	/* head operations completed */
static _Atomic unsigned long tickets, measured, over_bound, max_over;
#define RECORDS 1024	/* more than the tickets that can be pending at once */
static _Atomic unsigned long at_ticket[RECORDS];
static _Atomic uint32_t ahead_of[RECORDS];	/* j: tickets ahead at the ticket */
static _Atomic uint32_t record_of[RECORDS];	/* ticket + 1 whose count is there */

static void bypass_ticket(struct caslist_list *l, uint32_t t)
{
	/* j first, then the count: grants between the two reads (this
	 * thread preempted) make j only larger than the periods the count
	 * sees, never smaller.  seq_cst: in the total order with the
	 * completions (see above). */
	uint32_t j = t - atomic_load_explicit(&l->want_served, memory_order_seq_cst);

	atomic_store_explicit(&at_ticket[t % RECORDS], atomic_load_explicit(&done, memory_order_seq_cst),
			      memory_order_seq_cst);
	atomic_store_explicit(&ahead_of[t % RECORDS], j, memory_order_seq_cst);
	atomic_store_explicit(&record_of[t % RECORDS], t + 1, memory_order_seq_cst);
	atomic_fetch_add_explicit(&tickets, 1, memory_order_relaxed);
	/* Widen the window: the bound must hold however long the waiter
	 * takes to reach its turn.  Meanwhile the others run: a layer whose
	 * entries do not count themselves past the ticket lets them complete
	 * many head operations, with nothing to stop them. */
	nanosleep(&(struct timespec){ 0, 20000 }, NULL);
}

/* The count just before the grant's CAS: read after it, a granter
 * preempted between the two (64 threads on 2 CPUs) would count the
 * others' operations of its time off the CPU against the bound. */
static _Thread_local unsigned long before_grant, its_ticket, its_bound;
static _Thread_local bool recorded;

static void bypass_grant_try(struct caslist_list *l, uint32_t t)
{
	(void)l;
	/* The record first, then the count: a record seen here was made
	 * before this read of the count, so the difference is not negative. */
	recorded = atomic_load_explicit(&record_of[t % RECORDS], memory_order_seq_cst) == t + 1;
	/* Here too, not after the CAS: a granter preempted after it would
	 * find the record of a ticket RECORDS later in the slot. */
	its_ticket = atomic_load_explicit(&at_ticket[t % RECORDS], memory_order_seq_cst);
	its_bound = (atomic_load_explicit(&ahead_of[t % RECORDS], memory_order_seq_cst) + 1ul) *
		    (S + 3ul * (unsigned long)nthreads);
	before_grant = atomic_load_explicit(&done, memory_order_seq_cst);
}

static void bypass_grant(struct caslist_list *l, uint32_t t)
{
	unsigned long now = before_grant, d;
	unsigned long m = atomic_load_explicit(&max_over, memory_order_relaxed);

	(void)l;
	(void)t;
	if (!recorded)
		return;		/* granted before its waiter recorded: not measured */
	d = now - its_ticket;
	atomic_fetch_add_explicit(&measured, 1, memory_order_relaxed);
	while (d > m && !atomic_compare_exchange_weak_explicit(&max_over, &m, d,
							       memory_order_relaxed,
							       memory_order_relaxed))
		;
	if (d > its_bound)
		atomic_fetch_add_explicit(&over_bound, 1, memory_order_relaxed);
}

static void completed(void)
{
	atomic_fetch_add_explicit(&done, 1, memory_order_seq_cst);
}

struct thr {
	uint64_t rng;
	unsigned long ops;
};

static void *worker(void *arg)
{
	struct thr *t = arg;

	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		struct item *it = &items[rng_below(&t->rng, NODES)];
		struct caslist_node *n;

		switch (rng_below(&t->rng, 3)) {
		case 0:
			caslist_move_head(&list, &it->link);
			completed();
			break;
		case 1:
			/* GONE: the node is a popper's; touch took no head. */
			if (caslist_touch(&list, &it->link) != CASLIST_TOUCH_GONE)
				completed();
			break;
		default:
			n = caslist_pop_head(&list);
			completed();
			if (n != NULL) {
				/* OWNED by us: touches of it add nothing, so the
				 * add races with none (no caslist_node_init). */
				caslist_add_head(&list, n);
				completed();
			}
			break;
		}
		t->ops++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds;
	struct thr *thr;
	unsigned long ops = 0;
	size_t count = 0;
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: bypass <threads> <seconds> <seed>\n");
		return 2;
	}
	nthreads = atoi(argv[1]);
	seconds = atof(argv[2]);
	if (nthreads < 2 || seconds <= 0) {
		fprintf(stderr, "bypass: want threads >= 2 and seconds > 0\n");
		return 2;
	}
	thr = calloc((size_t)nthreads, sizeof(*thr));
	if (thr == NULL)
		return 2;
	for (int i = 0; i < nthreads; i++)
		thr[i].rng = strtoull(argv[3], NULL, 0) * 1000003u + (uint64_t)i;
	for (int i = 0; i < NODES; i++) {
		caslist_node_init(&items[i].link);
		caslist_add_tail(&list, &items[i].link);
	}
	watchdog_arm(seconds + 60);
	if (run_threads(nthreads, worker, thr, sizeof(*thr), &start, &stop, seconds) != 0)
		return 2;
	for (int i = 0; i < nthreads; i++)
		ops += thr[i].ops;
	rc = caslist_check(&list, NODES + 1, &count);
	tap_ok(rc == 0 && count == NODES, "list intact: %s, %zu of %d nodes",
	       caslist_check_strerror(rc), count, NODES);
	tap_ok(atomic_load(&measured) > 0, "grants measured: %lu of %lu tickets",
	       atomic_load(&measured), atomic_load(&tickets));
	tap_ok(atomic_load(&over_bound) == 0,
	       "bypass bound: at most (j + 1)(%u + 3 * %d) head operations by others between a "
	       "ticket with j ahead and its grant (max seen %lu, over the bound %lu times)",
	       S, nthreads, atomic_load(&max_over), atomic_load(&over_bound));
	printf("# bypass threads=%d seconds=%g seed=%s ops=%lu tickets=%lu measured=%lu "
	       "max_overtakes=%lu over_bound=%lu\n",
	       nthreads, seconds, argv[3], ops, atomic_load(&tickets), atomic_load(&measured),
	       atomic_load(&max_over), atomic_load(&over_bound));
	free(thr);
	return tap_done();
}
