/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/adopt/user_asan.c - a user's AddressSanitizer build, run by
 * test/adopt/user-asan.sh.  Public API only.  Usage: user_asan MODE
 *   clean     a correct program: two threads hand objects over through a
 *             list (add_tail, pop_head), with touch, move_head, del and
 *             a batch on the way, caslist_check on the quiet list, every
 *             object freed only once it is off the list: must run clean;
 *   pop-freed an object freed while still linked, then popped back: the
 *             pop reads the freed node, a heap-use-after-free that ASan
 *             reports when the operations are compiled into the program
 *             (CASLIST_INLINE) and cannot see inside the plain library;
 *   check-freed the same freed node found by caslist_check.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caslist/caslist.h>

struct obj {
	struct caslist_node lru;
	unsigned long payload;
};

#define NOBJ 1000
static struct caslist_list queue = CASLIST_LIST_INIT(queue);
static struct caslist_list lru = CASLIST_LIST_INIT(lru);

static void *producer(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < NOBJ; i++) {
		struct obj *o = malloc(sizeof(*o));

		if (o == NULL)
			abort();
		caslist_node_init(&o->lru);
		o->payload = 2 * i + 1;
		caslist_add_tail(&queue, &o->lru);
	}
	return NULL;
}

static int clean(void)
{
	struct caslist_batch b;
	struct obj *first = NULL, *o;
	struct caslist_node *n;
	pthread_t t;
	unsigned long got = 0, sum = 0;
	size_t count = 0;
	int rc;

	if (pthread_create(&t, NULL, producer, NULL) != 0)
		return 2;
	while (got < NOBJ) {	/* the consumer: take, use, keep on lru */
		if ((n = caslist_pop_head(&queue)) == NULL)
			continue;
		o = caslist_entry(n, struct obj, lru);
		sum += o->payload;
		got++;
		caslist_add_head(&lru, n);
		if (first == NULL)
			first = o;
		if (got % 3 == 0 && caslist_touch(&lru, n) != CASLIST_OK)
			return 3;
		if (got % 5 == 0 && caslist_move_head(&lru, &first->lru) != CASLIST_OK)
			return 3;
	}
	pthread_join(t, NULL);
	caslist_batch_init(&b);
	if (caslist_batch_move_head(&b, &lru, &first->lru) != CASLIST_OK)
		return 3;
	caslist_batch_flush(&b);
	n = caslist_pop_tail(&lru);	/* one off, then freed */
	if (n == NULL || caslist_del(&first->lru) != CASLIST_OK)
		return 3;
	free(caslist_entry(n, struct obj, lru));
	free(first);
	rc = caslist_check(&lru, NOBJ, &count);
	if (rc != 0 || count + 2 != NOBJ || sum != (unsigned long)NOBJ * NOBJ) {
		fprintf(stderr, "clean: check: %s, %zu nodes, sum %lu\n",
			caslist_check_strerror(rc), count, sum);
		return 1;
	}
	while ((n = caslist_pop_tail(&lru)) != NULL)
		free(caslist_entry(n, struct obj, lru));
	puts("clean: ok");
	return 0;
}

/* Two objects linked, the second freed while still on the list (the bug),
 * then the list popped or checked: both read the freed node. */
static int freed(char what)
{
	struct obj *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t count = 0;

	if (a == NULL || b == NULL)
		abort();
	caslist_node_init(&a->lru);
	caslist_node_init(&b->lru);
	caslist_add_head(&lru, &a->lru);
	caslist_add_tail(&lru, &b->lru);
	free(b);	/* linked: the use after free is the next call's */
	if (what == 'p')
		printf("pop-freed: popped %p\n", (void *)caslist_pop_tail(&lru));
	else
		printf("check-freed: %s\n", caslist_check_strerror(caslist_check(&lru, 8, &count)));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "clean";

	if (strcmp(mode, "pop-freed") == 0)
		return freed('p');
	if (strcmp(mode, "check-freed") == 0)
		return freed('c');
	return clean();
}
