/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/user_tsan.c - a correct user program, built with -fsanitize=thread
 * by test/user-tsan.sh: a producer fills in objects and hands them to a
 * consumer through a caslist list, without any lock of its own.  The only
 * thing that orders the producer's plain writes before the consumer's reads
 * is the list (add_tail's release, pop_head's acquire), so TSan sees the
 * hand-off only if the library itself is instrumented:
 *   - against libcaslist-tsan (or a TSan build of the library): no report;
 *   - against the plain library: TSan cannot see the library's atomics and
 *     reports the payload as a data race (the positive control).
 * Public API only.  Usage: user_tsan [objects]   (default 2000)
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

static struct caslist_list queue;
static struct msg *msgs;
static unsigned long nmsgs;

static void *producer(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < nmsgs; i++) {
		struct msg *m = &msgs[i];

		m->payload = 2 * i + 1;
		caslist_add_tail(&queue, &m->link);	/* publishes the payload */
	}
	return NULL;
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
	msgs = calloc(nmsgs ? nmsgs : 1, sizeof(*msgs));
	if (msgs == NULL)
		return 2;
	caslist_init(&queue);
	for (unsigned long i = 0; i < nmsgs; i++)
		caslist_node_init(&msgs[i].link);
	/* The consumer starts first, so the producer's writes all happen
	 * after both threads exist: only the list can order them. */
	if (pthread_create(&c, NULL, consumer, NULL) != 0 ||
	    pthread_create(&p, NULL, producer, NULL) != 0)
		return 2;
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	unsigned long want = nmsgs * nmsgs;	/* 1 + 3 + ... + (2n - 1) */
	printf("user_tsan: %lu messages, payload sum %lu (want %lu)\n", nmsgs,
	       (unsigned long)sum, want);
	free(msgs);
	return (unsigned long)sum == want ? 0 : 1;
}
