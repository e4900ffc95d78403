/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * doc/examples/lru_touch.c - README's LRU example, compiled and run.
 *
 * touch() and evict() are exactly the README's; any thread may call either
 * on any object, the same object included: caslist_touch makes racing adds
 * of one object safe (exactly one adds it, the others move it).  main()
 * runs them from 2, 8 and 64 threads (or `lru_touch THREADS SECONDS`) and
 * checks the list after each run: its structure, and that it holds exactly
 * (objects added) - (objects evicted), counted from the return values.
 *
 * Build: cc lru_touch.c $(pkg-config --cflags --libs libcaslist) -pthread
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <caslist/caslist.h>

/* ---- the README example ---- */

struct obj {
	int key;
	struct caslist_node lru;
};

static struct caslist_list lru; /* caslist_init(&lru) once */

int touch(struct obj *o);	/* (the prototypes a header would hold) */
struct obj *evict(void);

int touch(struct obj *o) /* any thread; 1 if it added o */
{
	return caslist_touch(&lru, &o->lru) == CASLIST_TOUCH_ADDED;
}

struct obj *evict(void) /* any thread */
{
	struct caslist_node *n = caslist_pop_tail(&lru);

	return n ? caslist_entry(n, struct obj, lru) : NULL;
}

/* ---- the driver ---- */

#define NOBJ 64	/* few objects: threads collide on the same ones */

static struct obj objs[NOBJ];
static _Atomic long added, evicted;
static _Atomic int stop;

static void *worker(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;
	long a = 0, e = 0;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		if (s % 4 == 0)
			e += evict() != NULL;
		else
			a += touch(&objs[(s >> 8) % NOBJ]);
	}
	atomic_fetch_add(&added, a);
	atomic_fetch_add(&evicted, e);
	return NULL;
}

static int run(int threads, double seconds, int num)
{
	pthread_t *t = calloc((size_t)threads, sizeof(*t));
	struct timespec ts = { (time_t)seconds, (long)((seconds - (long)seconds) * 1e9) };
	size_t n = 0;
	int rc;

	if (t == NULL)
		return 1;
	caslist_init(&lru);
	for (int i = 0; i < NOBJ; i++) {
		objs[i].key = i;
		caslist_node_init(&objs[i].lru);
	}
	atomic_store(&added, 0);
	atomic_store(&evicted, 0);
	atomic_store(&stop, 0);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1)) != 0)
			return 1;
	nanosleep(&ts, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	rc = caslist_check(&lru, NOBJ, &n);
	printf("%s %d - lru_touch threads=%d: %ld added, %ld evicted, %zu on the list (%s)\n",
	       rc == 0 && (long)n == atomic_load(&added) - atomic_load(&evicted) ? "ok" : "not ok",
	       num, threads, atomic_load(&added), atomic_load(&evicted), n, caslist_check_strerror(rc));
	return rc == 0 && (long)n == atomic_load(&added) - atomic_load(&evicted) ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const int threads[] = { 2, 8, 64 };
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
