/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/adopt/user_tsan.c - a correct user program, built with -fsanitize=thread
 * by test/adopt/user-tsan.sh: a producer fills in objects and hands them to a
 * consumer through a caslist list, without any lock of its own.  The only
 * thing that orders the producer's plain writes before the consumer's reads
 * is the list (add_tail's release, pop_head's acquire), so TSan sees the
 * hand-off only if the library itself is instrumented:
 *   - against libcaslist-tsan (or a TSan build of the library): no report;
 *   - against the plain library: TSan cannot see the library's atomics and
 *     reports the payload as a data race (the positive control).
 * Public API only.  Usage: user_tsan [objects [list|batch|fl]]
 * (default 2000, list).  The hand-off goes through: list - add_tail, then
 * pop_head; batch - the producer queues each object (linked on a staging
 * list it alone uses) with caslist_batch_move_head for the queue's head,
 * and the flush publishes them; fl - caslist_fl_put, then caslist_fl_take
 * and caslist_fl_batch_next.  The file also compiles as C++ (the inline
 * mode in C++, test/adopt/user-tsan.sh).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <caslist/caslist.h>

struct msg {
	struct caslist_node link;
	/* plain: written by the producer only.  One word, so that no compiler
	 * merges the accesses into a vector access (clang 14 -O2 turned four
	 * words into 16-byte accesses that its TSan does not check, and the
	 * control below then saw nothing). */
	unsigned long payload;
};

struct fmsg {
	struct caslist_fl_node fl;
	unsigned long payload;
};

static struct caslist_list queue, staging;
static struct caslist_fl freelist;
static struct msg *msgs;
static struct fmsg *fmsgs;
static unsigned long nmsgs;
static char mode = 'l';		/* l(ist), b(atch), f(ree list) */

static void *producer(void *arg)
{
	struct caslist_batch b;

	(void)arg;
	caslist_batch_init(&b);
	for (unsigned long i = 0; i < nmsgs; i++) {
		struct msg *m = &msgs[i];

		if (mode == 'f') {
			fmsgs[i].payload = 2 * i + 1;
			caslist_fl_put(&freelist, &fmsgs[i].fl);	/* publishes it */
			continue;
		}
		m->payload = 2 * i + 1;
		if (mode == 'l') {
			caslist_add_tail(&queue, &m->link);	/* publishes the payload */
			continue;
		}
		caslist_add_tail(&staging, &m->link);	/* ours alone */
		if (caslist_batch_move_head(&b, &queue, &m->link) != CASLIST_OK)
			abort();
		if (b.n == 0 || (i % 4 == 3 && b.n > 0))
			caslist_batch_flush(&b);	/* publishes the batch */
	}
	caslist_batch_flush(&b);
	return NULL;
}

/* The free list's consumer: take what is free, read each payload. */
static void *fl_consumer(void *arg)
{
	unsigned long got = 0, sum = 0;

	(void)arg;
	while (got < nmsgs) {
		struct caslist_fl_batch bt;
		struct caslist_fl_node *x;

		caslist_fl_take(&freelist, 8, &bt);
		while ((x = caslist_fl_batch_next(&bt)) != NULL) {
			sum += caslist_entry(x, struct fmsg, fl)->payload;
			got++;
		}
	}
	return (void *)sum;
}

static void *consumer(void *arg)
{
	unsigned long got = 0, sum = 0;

	(void)arg;
	while (got < nmsgs) {
		struct caslist_node *n = caslist_pop_head(&queue);

		if (n == NULL)
			continue;
		struct msg *m = caslist_entry(n, struct msg, link);
		sum += m->payload;
		got++;
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t p, c;
	void *sum;

	nmsgs = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
	if (argc > 2)
		mode = argv[2][0];
	msgs = (struct msg *)calloc(nmsgs ? nmsgs : 1, sizeof(*msgs));
	fmsgs = (struct fmsg *)calloc(nmsgs ? nmsgs : 1, sizeof(*fmsgs));
	if (msgs == NULL || fmsgs == NULL || (mode != 'l' && mode != 'b' && mode != 'f'))
		return 2;
	caslist_init(&queue);
	caslist_init(&staging);
	caslist_fl_init(&freelist, 8);
	caslist_fl_reserve(&freelist, nmsgs);	/* no descriptor grows meanwhile */
	for (unsigned long i = 0; i < nmsgs; i++) {
		caslist_node_init(&msgs[i].link);
		caslist_fl_node_init(&fmsgs[i].fl);
	}
	/* The consumer starts first, so the producer's writes all happen
	 * after both threads exist: only the list can order them. */
	if (pthread_create(&c, NULL, mode == 'f' ? fl_consumer : consumer, NULL) != 0 ||
	    pthread_create(&p, NULL, producer, NULL) != 0)
		return 2;
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	unsigned long want = nmsgs * nmsgs;	/* 1 + 3 + ... + (2n - 1) */
	printf("user_tsan %c: %lu messages, payload sum %lu (want %lu)\n", mode, nmsgs,
	       (unsigned long)sum, want);
	caslist_fl_destroy(&freelist);
	free(msgs);
	free(fmsgs);
	return (unsigned long)sum == want ? 0 : 1;
}
