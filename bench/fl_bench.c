/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/fl_bench.c - cluster-cut take against one-by-one pops under a lock,
 * with the nodes' memory cold (just written by another thread), for batch
 * sizes B = 8 .. 511; and put_batch against B single puts.  A plain C
 * timing harness (the Google Benchmark suite is issue 4); medians of
 * ROUNDS rounds.  Read the ratios: absolute times on a shared machine are
 * noisy.  Usage: fl_bench [rounds]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <caslist/caslist.h>

#define MAXB 511
#define NODES (4 * MAXB)

struct pg {			/* a page descriptor, 128 bytes */
	struct caslist_fl_node fl;
	struct pg *next, *prev;	/* the peer's plain list */
	char payload[128 - sizeof(struct caslist_fl_node) - 2 * sizeof(void *)];
};

static struct pg *pgs;
static struct caslist_fl fl;
static struct pg phead;
static pthread_mutex_t plock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static _Atomic int quit;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The other thread: writes every node, so its lines are cold here. */
static void *dirtier(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&bar);
		if (atomic_load(&quit))
			return NULL;
		for (int i = 0; i < NODES; i++)
			memset(pgs[i].payload, i, sizeof(pgs[i].payload));
		pthread_barrier_wait(&bar);
	}
}

static void make_cold(void)
{
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

static void peer_fill(int b)
{
	phead.next = phead.prev = &phead;
	for (int i = 0; i < b; i++) {
		struct pg *p = &pgs[i];

		p->next = &phead;
		p->prev = phead.prev;
		phead.prev->next = p;
		phead.prev = p;
	}
}

static void fl_fill(int b)
{
	for (int i = 0; i < b; i++) {
		caslist_fl_node_init(&pgs[i].fl);
		if (i > 0)
			caslist_chain_link(&pgs[i - 1].fl.link, &pgs[i].fl.link);
	}
	caslist_fl_put_batch(&fl, &pgs[0].fl, &pgs[b - 1].fl, (size_t)b);
}

int main(int argc, char **argv)
{
	static const int bs[] = { 8, 16, 31, 63, 127, 255, 511 };
	int rounds = argc > 1 ? atoi(argv[1]) : 101;
	double *t_take = calloc((size_t)rounds, sizeof(double));
	double *t_walk = calloc((size_t)rounds, sizeof(double));
	double *t_peer = calloc((size_t)rounds, sizeof(double));
	double *t_pb = calloc((size_t)rounds, sizeof(double));
	double *t_p1 = calloc((size_t)rounds, sizeof(double));
	double take8 = 0, peer8 = 0;
	pthread_t th;

	pgs = aligned_alloc(64, NODES * sizeof(struct pg));
	if (pgs == NULL || t_take == NULL || t_walk == NULL || t_peer == NULL || t_pb == NULL ||
	    t_p1 == NULL || rounds < 1)
		return 2;
	memset(pgs, 0, NODES * sizeof(struct pg));
	caslist_fl_init(&fl, MAXB);
	caslist_fl_reserve(&fl, NODES);
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&th, NULL, dirtier, NULL);

	printf("fl_bench: median of %d rounds, nodes of %zu bytes written by another thread"
	       " before each timed batch\n", rounds, sizeof(struct pg));
	printf("%5s %12s %12s %14s %10s %10s %14s %14s %8s\n", "B", "take ns", "walk ns",
	       "lock+pop ns", "take/t8", "pop/t8", "put_batch ns", "B x put ns", "ratio");
	for (size_t k = 0; k < sizeof(bs) / sizeof(bs[0]); k++) {
		int b = bs[k];

		for (int r = 0; r < rounds; r++) {
			struct caslist_fl_batch batch;
			double t0, t1, t2;
			int got = 0;

			/* cluster take: one cluster of b cold nodes */
			fl_fill(b);
			make_cold();
			t0 = now_ns();
			caslist_fl_take(&fl, (size_t)b, &batch);
			t1 = now_ns();
			while (caslist_fl_batch_next(&batch) != NULL)
				got++;
			t2 = now_ns();
			t_take[r] = t1 - t0;
			t_walk[r] = t2 - t1;

			/* peer: b pops one by one under a mutex, cold nodes */
			peer_fill(b);
			make_cold();
			t0 = now_ns();
			pthread_mutex_lock(&plock);
			for (int i = 0; i < b; i++) {
				struct pg *p = phead.next;

				p->next->prev = &phead;
				phead.next = p->next;
				p->next = p->prev = NULL;
			}
			pthread_mutex_unlock(&plock);
			t_peer[r] = now_ns() - t0;

			/* put: one put_batch vs b single puts (warm nodes) */
			for (int i = 0; i < b; i++) {
				caslist_fl_node_init(&pgs[i].fl);
				if (i > 0)
					caslist_chain_link(&pgs[i - 1].fl.link, &pgs[i].fl.link);
			}
			t0 = now_ns();
			caslist_fl_put_batch(&fl, &pgs[0].fl, &pgs[b - 1].fl, (size_t)b);
			t_pb[r] = now_ns() - t0;
			caslist_fl_take(&fl, (size_t)b, &batch);
			while (caslist_fl_batch_next(&batch) != NULL)
				;
			t0 = now_ns();
			for (int i = 0; i < b; i++)
				caslist_fl_put(&fl, &pgs[i].fl);
			t_p1[r] = now_ns() - t0;
			caslist_fl_take(&fl, (size_t)b, &batch);
			while (caslist_fl_batch_next(&batch) != NULL)
				;
			if (got != b)
				return 1;
		}
		{
			double tk = median(t_take, rounds), wk = median(t_walk, rounds);
			double pe = median(t_peer, rounds), pb = median(t_pb, rounds);
			double p1 = median(t_p1, rounds);

			if (b == 8)
				take8 = tk, peer8 = pe;
			printf("%5d %12.0f %12.0f %14.0f %10.2f %10.2f %14.0f %14.0f %8.2f\n", b, tk,
			       wk, pe, tk / take8, pe / peer8, pb, p1, p1 / pb);
		}
	}
	atomic_store(&quit, 1);
	pthread_barrier_wait(&bar);
	pthread_join(th, NULL);
	if (caslist_fl_check(&fl, NULL, NULL) != 0)
		return 1;
	caslist_fl_destroy(&fl);
	return 0;
}
