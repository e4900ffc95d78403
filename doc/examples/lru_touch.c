/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doc/examples/lru_touch.c - README's example (readme_example.c) grown
 * into a cache's three calls, with the TSan annotations: an LRU of
 * malloc'ed objects shared by every thread, with hits that touch,
 * evictions from the tail, and the freeing step.
 *
 * touch(), evict() and retire() are what a cache calls.  Any thread may
 * touch any object it found (in the index, or by a walk of the list),
 * while another thread evicts and frees it: evict() hands the object to
 * its caller alone (OWNED: no touch brings it back, caslist_touch says
 * CASLIST_TOUCH_GONE), and retire() frees it after an RCU grace period,
 * once no thread can still hold a pointer to it.
 *
 * main() runs it from 2, 4 and 64 threads (or `lru_touch THREADS SECONDS`)
 * and checks after each run: the list's structure, 0 resurrections (an
 * object that was retired, linked again or still linked when freed),
 * allocated == retired + live, retired == freed after rcu_barrier.  TAP.
 *
 * Build: cc lru_touch.c $(pkg-config --cflags --libs libcaslist liburcu-memb)
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <urcu/urcu-memb.h>

#include <caslist/caslist.h>

/* ---- ThreadSanitizer and liburcu (compiled only under TSan) ---- */

/* read_lock, read_unlock, grace_over, wait_callbacks (urcu_tsan.h, beside this file) */
#include "urcu_tsan.h"

#ifdef URCU_TSAN
/* Every read-side section ends with the release, the three calls'
 * included (the macro's own name is not expanded again inside it). */
#define urcu_memb_read_unlock() (reader_done(), urcu_memb_read_unlock())
#endif

/* ---- the three calls ---- */

struct obj {
	int key;
	struct caslist_node lru;
	struct rcu_head rcu;
};

static struct caslist_list lru = CASLIST_LIST_INIT(lru);

int touch(struct obj *o);	/* (the prototypes a header would hold) */
struct obj *evict(void);
void retire(struct obj *o);

/* Any thread, inside rcu_read_lock(), on an object it found: move it to
 * the front if it is on the list, add it if it is new (FRESH: of several
 * racing touches one adds it); an evicted object stays evicted
 * (CASLIST_TOUCH_GONE). */
int touch(struct obj *o)
{
	return caslist_touch(&lru, &o->lru);
}

/* Any thread: take the coldest object.  It is the caller's alone now. */
struct obj *evict(void)
{
	struct caslist_node *n;

	urcu_memb_read_lock();
	n = caslist_pop_tail(&lru);
	urcu_memb_read_unlock();
	return n ? caslist_entry(n, struct obj, lru) : NULL;
}

static void free_obj(struct rcu_head *h);

/* The evictor, once the object is out of its index: free it after every
 * thread that may still hold a pointer to it has left its read-side
 * critical section. */
void retire(struct obj *o)
{
	urcu_memb_call_rcu(&o->rcu, free_obj);
}

/* ---- the driver: an index of slots, hits, producers, evictors ---- */

#define NSLOT 256
#define ALIVE 0x11feULL

struct tracked {
	struct obj o;		/* first: free_obj frees the whole struct */
	_Atomic int retired;
	uint64_t cookie;
};

static _Atomic(struct tracked *) slot[NSLOT];
static _Atomic long allocated, retired_n, freed, resurrected, bad;
static _Atomic int stop;

static void free_obj(struct rcu_head *h)
{
	struct tracked *t = (struct tracked *)caslist_entry(h, struct obj, rcu);

	grace_over();
	if (caslist_node_linked(&t->o.lru))	/* a touch brought it back */
		atomic_fetch_add(&resurrected, 1);
	if (t->cookie != ALIVE)
		atomic_fetch_add(&bad, 1);
	t->cookie = 0;
	free(t);
	atomic_fetch_add_explicit(&freed, 1, memory_order_relaxed);
}

/* A hit on t (inside read_lock).  Retired before the touch began means
 * evicted before it: the touch must not add it. */
static void hit(struct tracked *t)
{
	int was = atomic_load(&t->retired);

	if (touch(&t->o) == CASLIST_TOUCH_ADDED && was)
		atomic_fetch_add(&resurrected, 1);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *worker(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;

	urcu_memb_register_thread();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint64_t r = next(&s);
		int k = (int)((r >> 8) % NSLOT);
		struct tracked *t;

		if (r % 100 < 45) {		/* a hit by key */
			read_lock();
			t = atomic_load_explicit(&slot[k], memory_order_acquire);
			if (t != NULL)
				hit(t);
			read_unlock();
		} else if (r % 100 < 60) {	/* a hit on an object a walk found */
			struct caslist_node *cur = &lru.head;
			int steps = 1 + (int)(r >> 40) % 8, rc = 1;

			read_lock();
			while (steps-- > 0 && (rc = caslist_iter_next(&lru, &cur)) == 1)
				;
			if (rc == 1)
				hit((struct tracked *)caslist_entry(cur, struct obj, lru));
			read_unlock();
		} else if (r % 100 < 80) {	/* evict, unpublish, retire */
			struct obj *o = evict();

			if (o == NULL)
				continue;
			t = (struct tracked *)o;
			atomic_store(&slot[o->key], NULL);
			atomic_store(&t->retired, 1);
			atomic_fetch_add_explicit(&retired_n, 1, memory_order_relaxed);
			reader_done();	/* TSan: our writes to o happen before its free */
			retire(o);
		} else {			/* a new object for an empty slot */
			struct tracked *z = NULL;

			if (atomic_load_explicit(&slot[k], memory_order_relaxed) != NULL)
				continue;
			t = malloc(sizeof(*t));
			if (t == NULL)
				abort();
			t->o.key = k;
			caslist_node_init(&t->o.lru);
			atomic_init(&t->retired, 0);
			t->cookie = ALIVE;
			/* Read-side section first: once published, t may be
			 * found, evicted and retired by others at once, and
			 * only our section keeps it from being freed under
			 * our own touch.  Release: a hit that finds t sees
			 * it initialised. */
			read_lock();
			if (!atomic_compare_exchange_strong_explicit(&slot[k], &z, t,
								     memory_order_release,
								     memory_order_relaxed)) {
				read_unlock();
				free(t);
				continue;
			}
			atomic_fetch_add_explicit(&allocated, 1, memory_order_relaxed);
			hit(t);		/* this touch, or a racing hit's, adds it */
			read_unlock();
		}
	}
	urcu_memb_unregister_thread();
	return NULL;
}

static int run(int threads, double seconds, int num)
{
	pthread_t *th = calloc((size_t)threads, sizeof(*th));
	struct timespec ts = { (time_t)seconds, (long)((seconds - (long)seconds) * 1e9) };
	size_t n = 0;
	long live = 0;
	int rc, ok;

	if (th == NULL)
		return 1;
	atomic_store(&allocated, 0);
	atomic_store(&retired_n, 0);
	atomic_store(&freed, 0);
	atomic_store(&resurrected, 0);
	atomic_store(&bad, 0);
	atomic_store(&stop, 0);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(i + 1)) != 0)
			return 1;
	nanosleep(&ts, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	free(th);
	wait_callbacks(&freed, &retired_n);
	rc = caslist_check(&lru, NSLOT, &n);
	for (int k = 0; k < NSLOT; k++)
		live += atomic_load(&slot[k]) != NULL;
	ok = rc == 0 && (long)n == live && atomic_load(&resurrected) == 0 &&
	     atomic_load(&bad) == 0 && atomic_load(&allocated) == atomic_load(&retired_n) + live &&
	     atomic_load(&freed) == atomic_load(&retired_n);
	printf("%s %d - lru_touch threads=%d: allocated %ld, retired %ld, freed %ld, live %ld, "
	       "%zu on the list (%s), resurrections %ld\n",
	       ok ? "ok" : "not ok", num, threads, atomic_load(&allocated),
	       atomic_load(&retired_n), atomic_load(&freed), live, n, caslist_check_strerror(rc),
	       atomic_load(&resurrected));
	/* the objects left: off the list and freed (no thread runs now) */
	for (int k = 0; k < NSLOT; k++) {
		struct tracked *t = atomic_load(&slot[k]);

		atomic_store(&slot[k], NULL);
		if (t != NULL && caslist_del_if_linked(&t->o.lru))
			free(t);
	}
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const int threads[] = { 2, 4, 64 };
	int failed = 0;

	if (argc == 3) {
		printf("1..1\n");
		return run(atoi(argv[1]), atof(argv[2]), 1);
	}
	printf("1..3\n");
	for (int i = 0; i < 3; i++)
		failed += run(threads[i], 0.5, i + 1);
	return failed ? 1 : 0;
}
