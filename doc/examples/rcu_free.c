/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doc/examples/rcu_free.c - freeing removed nodes with liburcu (the recipe
 * in doc/protocol.md, "Freeing removed nodes").
 *
 * Usage: rcu_free [call_rcu|batched [threads [ops-per-thread]]]
 *        (default: both modes in turn, 4 threads, 20000 ops)
 * Prints TAP; exit 0 = every check passed.  pkg-config: libcaslist
 * liburcu-memb.
 *
 * Objects are malloc'ed, put on one shared list, removed by pops and by
 * racing deletes, and freed.  A removed object cannot be freed at once: an
 * operation still running in another thread may have read a pointer to it
 * (a deleter reads n->prev, add_tail reads the tail hint) and will touch it
 * once more.  The recipe:
 *   1. every thread that uses the list is an RCU reader (registered), and
 *      every list operation runs inside rcu_read_lock/rcu_read_unlock;
 *   2. a thread that removed an object (pop, or a del_if_linked that
 *      returned true) owns it, and frees it only after a grace period:
 *      call_rcu(obj, free) (one callback each), or collect removed objects
 *      and call synchronize_rcu() once per batch, outside any read-side
 *      critical section, then free the batch.
 * The grace period ends only after every operation that started before
 * the removal has left its critical section, and no operation that starts
 * after the removal can find the object: nothing in the list points to it
 * any more.  Built with ASan (make check in an address sanitizer build),
 * a missing grace period shows up as a heap-use-after-free.
 *
 * ThreadSanitizer: liburcu is not instrumented, so TSan cannot see that the
 * grace period orders the readers before the free.  Two annotations tell it
 * (compiled only under TSan): each reader "releases" one address as it
 * leaves its critical section, and the code that frees "acquires" it after
 * the grace period (urcu_tsan.h, beside this file).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <urcu/urcu-memb.h>

#include <caslist/caslist.h>

#include "urcu_tsan.h"	/* read_lock, read_unlock, grace_over, wait_callbacks */

struct obj {
	struct caslist_node link;
	struct rcu_head rcu;	/* for call_rcu */
	uint64_t cookie;	/* checked before the free: catches a double removal */
};

#define COOKIE 0x5ca1ab1eULL
#define BATCH 64

enum mode { MODE_CALL_RCU, MODE_BATCHED };

static struct caslist_list list;
static enum mode mode;
static unsigned long ops_per_thread;
static _Atomic long allocated, freed, bad;	/* relaxed counters, read after the joins */

static void free_obj(struct obj *o)
{
	if (o->cookie != COOKIE)
		atomic_fetch_add_explicit(&bad, 1, memory_order_relaxed);
	o->cookie = 0;
	free(o);
	atomic_fetch_add_explicit(&freed, 1, memory_order_relaxed);
}

/* call_rcu callback: runs in liburcu's call_rcu thread after a grace period. */
static void free_rcu(struct rcu_head *head)
{
	grace_over();
	free_obj(caslist_entry(head, struct obj, rcu));
}

struct thread {
	pthread_t tid;
	unsigned id;
	uint64_t rng;
	struct obj *batch[BATCH];	/* MODE_BATCHED: removed, waiting for a grace period */
	unsigned nbatch;
};

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Called outside any read-side critical section, by the object's owner. */
static void retire(struct thread *t, struct obj *o)
{
	if (mode == MODE_CALL_RCU) {
		urcu_memb_call_rcu(&o->rcu, free_rcu);
		return;
	}
	t->batch[t->nbatch++] = o;
	if (t->nbatch == BATCH) {
		urcu_memb_synchronize_rcu();	/* every reader that could see them is done */
		grace_over();
		for (unsigned i = 0; i < t->nbatch; i++)
			free_obj(t->batch[i]);
		t->nbatch = 0;
	}
}

static void *worker(void *arg)
{
	struct thread *t = arg;

	urcu_memb_register_thread();
	for (unsigned long i = 0; i < ops_per_thread; i++) {
		uint64_t r = next_rand(&t->rng);
		unsigned op = (unsigned)(r % 100);
		struct obj *o = NULL;
		struct caslist_node *n = NULL;

		if (op < 45) {			/* a new object at either end */
			struct obj *x = malloc(sizeof(*x));
			if (x == NULL)
				abort();
			x->cookie = COOKIE;
			caslist_node_init(&x->link);
			atomic_fetch_add_explicit(&allocated, 1, memory_order_relaxed);
			read_lock();
			if (r & (1u << 20))
				caslist_add_head(&list, &x->link);
			else
				caslist_add_tail(&list, &x->link);
			read_unlock();
		} else if (op < 80) {		/* pop from either end */
			read_lock();
			n = (r & (1u << 21)) ? caslist_pop_head(&list) : caslist_pop_tail(&list);
			read_unlock();
			if (n != NULL)
				o = caslist_entry(n, struct obj, link);
		} else {			/* walk a few steps, then rotate or delete */
			unsigned steps = 1 + (unsigned)((r >> 24) % 8);
			read_lock();		/* the walk's pointers stay valid until unlock */
			n = &list.head;
			while (steps-- > 0 && caslist_iter_next(&list, &n) == 1)
				;
			if (n != &list.head) {
				if (op < 90) {
					caslist_move_head(&list, n);	/* ENOENT if just removed */
					n = NULL;
				} else if (!caslist_del_if_linked(n)) {
					n = NULL;	/* another thread removed it: theirs */
				}
			} else {
				n = NULL;
			}
			read_unlock();
			if (n != NULL)
				o = caslist_entry(n, struct obj, link);
		}
		if (o != NULL)
			retire(t, o);	/* we removed it: ours to free, after a grace period */
	}
	if (t->nbatch > 0) {
		urcu_memb_synchronize_rcu();
		grace_over();
		for (unsigned i = 0; i < t->nbatch; i++)
			free_obj(t->batch[i]);
		t->nbatch = 0;
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	tap_failed += !cond;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void run(enum mode m, unsigned nthreads, unsigned long ops)
{
	const char *name = m == MODE_CALL_RCU ? "call_rcu" : "batched synchronize_rcu";
	struct thread *ts = calloc(nthreads, sizeof(*ts));

	if (ts == NULL)
		abort();
	mode = m;
	ops_per_thread = ops;
	atomic_store(&allocated, 0);
	atomic_store(&freed, 0);
	atomic_store(&bad, 0);
	caslist_init(&list);
	for (unsigned i = 0; i < nthreads; i++) {
		ts[i].id = i;
		ts[i].rng = 0x1234567ULL * (i + 1) + m;
		if (pthread_create(&ts[i].tid, NULL, worker, &ts[i]) != 0)
			abort();
	}
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(ts[i].tid, NULL);

	/* Quiescent now: drain what is left; no reader remains, free at once. */
	size_t left = 0;
	int structure = caslist_check(&list, (size_t)-1, &left);
	struct caslist_node *n;
	while ((n = caslist_pop_head(&list)) != NULL)
		free_obj(caslist_entry(n, struct obj, link));
	wait_callbacks(&freed, &allocated);

	printf("# %s: %u threads x %lu ops: %ld allocated, %ld freed (%zu left on the list)\n",
	       name, nthreads, ops, atomic_load(&allocated), atomic_load(&freed), left);
	ok(structure == 0, "%s: the list passes caslist_check at the end", name);
	ok(atomic_load(&allocated) == atomic_load(&freed),
	   "%s: every object freed exactly once (allocated %ld, freed %ld)", name,
	   atomic_load(&allocated), atomic_load(&freed));
	ok(atomic_load(&bad) == 0, "%s: no object freed twice or corrupted (%ld bad)", name,
	   atomic_load(&bad));
	free(ts);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "both";
	unsigned nthreads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 4;
	unsigned long ops = argc > 3 ? strtoul(argv[3], NULL, 10) : 20000;

	if (nthreads < 1 || nthreads > 256 ||
	    (strcmp(which, "both") && strcmp(which, "call_rcu") && strcmp(which, "batched"))) {
		fprintf(stderr, "usage: rcu_free [both|call_rcu|batched [threads [ops]]]\n");
		return 2;
	}
	if (strcmp(which, "batched") != 0)
		run(MODE_CALL_RCU, nthreads, ops);
	if (strcmp(which, "call_rcu") != 0)
		run(MODE_BATCHED, nthreads, ops);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
