/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/listdemo.c - the demonstration: an LRU-style mix on one shared list
 * (60% move-to-head of a random node, 20% pop tail + add head, 20% delete
 * a random node + add it at the tail), run at 1, 2, 4, ... threads up to
 * twice the cores, for libcaslist and for the same list under one
 * pthread mutex, in the same run.  Prints ops/s and the ratio.
 * This is a plain C timing harness; the Google Benchmark suite is bench/
 * proper (issue 4).  Absolute figures on a shared 2-core machine are
 * noisy: read the ratio.
 *
 * Usage: listdemo [seconds-per-point] [nodes] [max-threads]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <caslist/caslist.h>

struct mnode {			/* the peer: a plain list under a mutex */
	struct mnode *next, *prev;
	int linked;
};

struct item {
	struct caslist_node link;
	struct mnode m;
};

static struct caslist_list clist;
static struct mnode mhead;
static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
static struct item *items;
static size_t nitems;
static _Atomic int stop;
static pthread_barrier_t start;
static int use_mutex;

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void m_unlink(struct mnode *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->linked = 0;
}

static void m_after(struct mnode *pos, struct mnode *n)
{
	n->next = pos->next;
	n->prev = pos;
	pos->next->prev = n;
	pos->next = n;
	n->linked = 1;
}

static unsigned long long run_caslist(uint64_t *rng)
{
	unsigned long long ops = 0;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		unsigned r = (unsigned)(next_rand(rng) % 10);
		struct item *it = &items[next_rand(rng) % nitems];
		struct caslist_node *n;

		if (r < 6) {
			caslist_move_head(&clist, &it->link);
		} else if (r < 8) {
			n = caslist_pop_tail(&clist);
			if (n)
				caslist_add_head(&clist, n);
		} else if (caslist_del_if_linked(&it->link)) {
			caslist_add_tail(&clist, &it->link);
		}
		ops++;
	}
	return ops;
}

static unsigned long long run_mutex(uint64_t *rng)
{
	unsigned long long ops = 0;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		unsigned r = (unsigned)(next_rand(rng) % 10);
		struct mnode *n = &items[next_rand(rng) % nitems].m;

		pthread_mutex_lock(&mlock);
		if (r < 6) {
			if (n->linked) {
				m_unlink(n);
				m_after(&mhead, n);
			}
		} else if (r < 8) {
			if (mhead.prev != &mhead) {
				n = mhead.prev;
				m_unlink(n);
				m_after(&mhead, n);
			}
		} else if (n->linked) {
			m_unlink(n);
			m_after(mhead.prev, n);
		}
		pthread_mutex_unlock(&mlock);
		ops++;
	}
	return ops;
}

struct arg {
	pthread_t t;
	uint64_t rng;
	unsigned long long ops;
};

static void *worker(void *p)
{
	struct arg *a = p;

	pthread_barrier_wait(&start);
	a->ops = use_mutex ? run_mutex(&a->rng) : run_caslist(&a->rng);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double measure(int nthreads, double seconds, int mutex)
{
	struct arg *a = calloc((size_t)nthreads, sizeof(*a));
	unsigned long long total = 0;
	struct timespec ts;
	double t0, t1;

	caslist_init(&clist);
	mhead.next = mhead.prev = &mhead;
	for (size_t i = 0; i < nitems; i++) {
		caslist_node_init(&items[i].link);
		caslist_add_tail(&clist, &items[i].link);
		m_after(mhead.prev, &items[i].m);
	}
	use_mutex = mutex;
	atomic_store(&stop, 0);
	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++) {
		a[i].rng = 0x1234u + (uint64_t)i * 7919u;
		pthread_create(&a[i].t, NULL, worker, &a[i]);
	}
	pthread_barrier_wait(&start);
	t0 = now();
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < nthreads; i++) {
		pthread_join(a[i].t, NULL);
		total += a[i].ops;
	}
	t1 = now();
	pthread_barrier_destroy(&start);
	free(a);
	if (!mutex && caslist_check(&clist, nitems, NULL) != 0) {
		fprintf(stderr, "listdemo: list corrupted at %d threads\n", nthreads);
		exit(1);
	}
	return (double)total / (t1 - t0);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int maxt;

	nitems = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
	maxt = argc > 3 ? atoi(argv[3]) : (int)(ncpu > 0 ? ncpu : 1) * 2;
	items = calloc(nitems, sizeof(*items));
	if (items == NULL || seconds <= 0 || maxt < 1)
		return 2;
	printf("libcaslist listdemo: LRU mix (60%% move_head, 20%% pop_tail+add_head, "
	       "20%% del+add_tail), %zu nodes, %.1f s per point, %ld cores online\n",
	       nitems, seconds, ncpu);
	printf("%8s %16s %16s %8s\n", "threads", "caslist ops/s", "mutex ops/s", "ratio");
	for (int t = 1; t <= maxt; t *= 2) {
		double c = measure(t, seconds, 0);
		double m = measure(t, seconds, 1);

		printf("%8d %16.0f %16.0f %8.2f%s\n", t, c, m, c / m,
		       t > ncpu ? "  (oversubscribed)" : "");
		fflush(stdout);
	}
	return 0;
}
