/* README's example: threads share one LRU of malloc'd objects.  Build:
 * cc readme_example.c $(pkg-config --cflags --libs libcaslist liburcu-memb) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <urcu/urcu-memb.h> /* liburcu: free after a grace period */
#include <caslist/caslist.h>

enum { THREADS = 4, EACH = 10000 };
struct obj {
	int key;
	struct caslist_node lru;
	struct rcu_head rcu;
};
static struct caslist_list lru = CASLIST_LIST_INIT(lru);
static atomic_long freed;

static void free_obj(struct rcu_head *h)
{
	free(caslist_entry(h, struct obj, rcu));
	atomic_fetch_add(&freed, 1);
}

static void *worker(void *arg)
{
	urcu_memb_register_thread(); /* each thread that takes the read lock */
	for (int i = 0; i < EACH; i++) {
		struct obj *o = malloc(sizeof(*o));
		if (!o)
			abort();
		o->key = i;
		caslist_node_init(&o->lru); /* malloc'd memory is no node yet */
		urcu_memb_read_lock(); /* no node read below is freed before unlock */
		caslist_add_head(&lru, &o->lru);
		caslist_touch(&lru, &o->lru); /* a hit: to the head, unless evicted */
		struct caslist_node *n = i % 2 ? caslist_pop_tail(&lru) : NULL;
		urcu_memb_read_unlock();
		if (n) /* evicted: ours alone, freed once no reader can hold it */
			urcu_memb_call_rcu(&caslist_entry(n, struct obj, lru)->rcu, free_obj);
	}
	urcu_memb_unregister_thread();
	return arg;
}

int main(void)
{
	pthread_t t[THREADS];
	struct caslist_node *n;
	size_t linked = 0;

	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	if (caslist_check(&lru, THREADS * EACH, &linked) != 0)
		return 1;
	while ((n = caslist_pop_head(&lru))) /* one thread left: free at once */
		free_obj(&caslist_entry(n, struct obj, lru)->rcu);
	urcu_memb_barrier(); /* every call_rcu callback has run */
	return linked == THREADS * EACH / 2 && atomic_load(&freed) == THREADS * EACH ? 0 : 1;
}
