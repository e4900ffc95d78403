/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/cache.h - the LRU object cache example: its types and the
 * parts' interfaces.  doc/lru.md has the design, the invariants and the
 * figures.
 *
 * The cache: an index (a striped-lock hash table of our own, hashtable.c; see
 * doc/lru.md for why not liburcu's lfht), a fixed pool of objects
 * (type-stable memory, never unmapped while the cache exists, pool.c), and
 * an LRU list behind a small table of operations (struct lru_ops), one of
 *   mutex    one pthread mutex around a plain doubly-linked list
 *            (lru_mutex.c);
 *   caslist  a <caslist/list.h> list: no list lock (lru_caslist.c);
 *   sharded  16 (--shards) mutex lists, an object's shard from its key;
 *            eviction round-robins the shards (approximate LRU,
 *            lru_mutex.c);
 *   index    no LRU at all (random eviction, lru_index.c): the cost of the
 *            index, pool and value copy, i.e. the part that is not the
 *            subject.
 * get and set are in cache.c, reclaim (the gate, the reclaim thread, the
 * teardown of victims) in reclaim.c, the end-of-run check in audit.c, the
 * runs in main.c, the command line in cli.c, the output in report.c.
 *
 * Ownership (doc/lru.md, "Invariants"):
 *   R1  Removing an object from the LRU is the claim on it: the one thread
 *       whose pop_tail / del_if_linked took it off the list owns its
 *       teardown (index removal if still indexed, then the pool).  Rotators
 *       (move_head, second chance) never change the on-LRU state.
 *   R2  An object is added to the LRU, and a replaced object is removed
 *       from it, under the stripe lock of its key, in the same critical
 *       section that changes the index.  So, at every stripe-lock boundary:
 *       indexed <=> on the LRU, or claimed by an evictor (R1) that has not
 *       yet taken the stripe lock.
 *   R3  Readers (get) find an object and copy its value out under the
 *       stripe lock; the object is reused only after it has left the index
 *       under that lock, so no reader can see a reused object's value.
 *   R4  The caslist memory rule (doc/protocol.md, "Contracts callers must keep") holds because
 *       the pool is type-stable: a stale evictor may CAS a reused node;
 *       the CAS is harmless (I3) and the memory is still a caslist node.
 *
 * Every run ends with the conservation check (quiescent, threads joined);
 * a failure prints "lrucache: FAIL: ..." and the exit status is 1.
 * -D mutants (examples/lru/mutants.sh) each skip one step and must fail:
 *   LRU_MUTANT_SKIP_INDEX_REMOVE  the evictor frees without unindexing
 *                                 (reclaim.c, lru_index.c)
 *   LRU_MUTANT_SKIP_LRU_DEL       a replace leaves the old object on the LRU
 *                                 (cache.c)
 *   LRU_MUTANT_NO_RECLAIM         sets never reclaim (reclaim.c)
 *   LRU_MUTANT_IGNORE_DEL_RESULT  a replace frees the old object even when
 *                                 an evictor won it (two owners, cache.c)
 */
#ifndef CASLIST_EXAMPLES_LRU_CACHE_H
#define CASLIST_EXAMPLES_LRU_CACHE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <caslist/caslist.h>

#include "common/check.h"
#include "common/dlist.h"

/* ------------------------------------------------------------------ */
/* configuration                                                       */

enum impl { IMPL_INDEX, IMPL_MUTEX, IMPL_CASLIST, IMPL_SHARDED, NIMPL };

enum policy { POLICY_STRICT, POLICY_LAZY, POLICY_BATCHED };
enum reclaim { RECLAIM_INLINE, RECLAIM_THREAD };

#define MAX_RUNS 64
#define BATCH 32		/* isolate batch (the kernel's SWAP_CLUSTER_MAX) */
#define STASH_K 16		/* per-thread pool cache: refill/flush unit */
#define STASH_MAX (2 * STASH_K)
#define MAX_THREADS 1024
/* The second-chance scan gives at most this many second chances per
 * isolate call, then evicts regardless (getters keep setting bits). */
#define MAX_CHANCES (4 * BATCH)

struct config {
	int impls[NIMPL], nimpls;
	int threads[MAX_RUNS], nthreads;
	double seconds;
	long long ops;		/* per thread; 0: timed run */
	enum policy policy;
	enum reclaim reclaim;
	double zipf;
	size_t capacity;
	double get_ratio;
	size_t value_size;
	unsigned shards;
	uint64_t seed;
	bool json;
	bool widen;		/* --widen-window: yield between isolate and teardown */
	bool lockstep;		/* --lockstep: the threads take turns, one op each */
	int retries;		/* --retries: runs again of a disturbed point */
	double max_disturbed;	/* --max-disturbed: others + steal above it is disturbed */
};

/* ------------------------------------------------------------------ */
/* objects, the cache                                                  */

struct obj {
	struct caslist_node node;	/* caslist: the LRU link */
	struct dlist m;			/* mutex/sharded: under the shard lock */
	bool mlinked;			/* mutex/sharded: on the list (shard lock) */
	unsigned shard;			/* mutex/sharded: written while private */
	struct obj *hnext;		/* index chain, under the stripe lock */
	/* key + 1 while in the index, else 0.  Written only under the
	 * stripe lock of the key; read under it, except by the index impl's
	 * random evictor, which takes a snapshot and re-reads under the lock. */
	_Atomic uint64_t ikey;
	/* lazy policy: referenced since the last scan.  A hint only: relaxed
	 * everywhere, no data is published through it. */
	_Atomic int accessed;
	/* 1 while in the free pool.  Relaxed exchange: a self-check that
	 * catches an object freed by two owners; it orders nothing (the pool
	 * mutex does). */
	_Atomic int pooled;
	/* batched policy, caslist (lru_caslist.c): QSTATE_Q while a thread's
	 * queue holds o (a reference), QSTATE_DEAD once replaced while held,
	 * QSTATE_PENDING once freed while held (the flusher frees it).  0
	 * when allocated. */
	_Atomic int qstate;
	uint64_t key;			/* written while private (R1-R3) */
	uint32_t id;			/* pool index, fixed */
	unsigned char seen;		/* end check only (quiescent) */
	unsigned char value[];		/* value_size bytes, immutable while indexed */
};

struct stripe {
	pthread_mutex_t lock;
} __attribute__((aligned(64)));

struct shard {
	pthread_mutex_t lock;
	struct dlist head;
} __attribute__((aligned(64)));

/* Per-thread counters, summed after the run (all uint64_t: add_stats). */
#define QSTATE_Q 1
#define QSTATE_DEAD 2
#define QSTATE_PENDING 4

struct stats {
	uint64_t ops, gets, hits, sets, inserts, replaces;
	uint64_t isolated;	/* objects this thread took off the LRU (R1) */
	uint64_t evictions;	/* ... of which were still indexed: capacity evictions */
	uint64_t second_chances, lost_races, rotate_gone, bad_values, alloc_fail;
	uint64_t gate_waits, allocs, frees, replace_owned, double_frees;
};

struct cache;

struct tctx {
	struct cache *c;
	int id;
	uint64_t rng;
	struct obj *stash[STASH_MAX];
	int nstash;
	unsigned rr;			/* sharded eviction: next shard */
	unsigned char *buf;		/* get: copied-out value */
	/* batched policy: hits queued by this thread */
	struct caslist_batch batch;	/* caslist */
	struct obj *queued[CASLIST_BATCH_MAX];	/* remembered, rotated at the flush */
	int nqueued;
	struct stats st;
} __attribute__((aligned(64)));

/*
 * One LRU implementation.  Every call but audit runs concurrently; the
 * comments say which lock the caller holds.
 */
struct lru_ops {
	const char *name;		/* --impl */
	/* o private -> on the LRU, most recently used.  Under o's stripe
	 * lock (R2). */
	void (*add)(struct cache *c, struct obj *o);
	/* Strict policy hit: rotate o to the head if it is still on the LRU
	 * (else count rotate_gone).  Under o's stripe lock, so o is not
	 * reused meanwhile (R3). */
	void (*touch)(struct tctx *t, struct obj *o);
	/* Batched policy hit: queue o (one LRU operation per batch of hits:
	 * caslist_batch_*, or one lock hold for the mutex LRU); NULL: the
	 * implementation rotates at once (touch).  Under o's stripe lock. */
	void (*touch_batched)(struct tctx *t, struct obj *o);
	/* Apply what this thread queued.  No lock held.  NULL: nothing to do. */
	void (*flush)(struct tctx *t);
	/* A replace takes the old object off the LRU if no evictor has:
	 * true = the caller won it (R1) and owns its teardown.  Under the
	 * stripe lock. */
	bool (*del_if_linked)(struct tctx *t, struct obj *o);
	/* Evict up to n (<= BATCH) objects: returns how many.  The LRU
	 * implementations isolate victims and tear them down
	 * (reclaim_isolated); the index impl evicts at random. */
	int (*evict)(struct tctx *t, int n);
	/* Isolate up to n victims from the tail into out[] (the kernel's
	 * isolate_lru_pages).  Returns how many; each is now owned (R1). */
	int (*isolate)(struct tctx *t, struct obj **out, int n);
	/* Quiescent: check the LRU's structure (ck), mark every object on it
	 * SEEN_LRU (dups: seen twice), return how many.  NULL: no LRU. */
	size_t (*audit)(struct cache *c, struct checks *ck, size_t *dups);
};

extern const struct lru_ops lru_index_ops, lru_mutex_ops, lru_caslist_ops, lru_sharded_ops;
/* By enum impl. */
extern const struct lru_ops *const lru_impls[NIMPL];

struct cache {
	const struct config *cfg;
	enum impl impl;
	const struct lru_ops *ops;
	size_t cap, high;		/* evict above cap; setters wait above high */
	size_t slack;			/* documented bound: live <= cap + slack */
	size_t obj_size, pool_n, pool_bytes;
	unsigned char *pool;		/* pool_n objects of obj_size bytes */
	struct obj **buckets;
	size_t bucket_mask;
	struct stripe *stripes;
	size_t stripe_mask;
	_Atomic size_t live;		/* objects in the index */
	_Atomic size_t max_live;
	/* free pool: a stack under one mutex, refilled/flushed in STASH_K */
	pthread_mutex_t free_lock;
	struct obj **free_stack;
	size_t free_n;
	/* LRUs */
	struct caslist_list clru;
	struct shard *shards;
	unsigned nshards;
	/* the reclaim thread (--reclaim thread) */
	pthread_mutex_t reclaim_lock;
	pthread_cond_t reclaim_cond;
	_Atomic int reclaim_sleeping;
	_Atomic int stop;
	/* Zipf (Gray et al., "Quickly generating billion-record synthetic
	 * databases", SIGMOD 1994; the YCSB generator) */
	uint64_t nkeys;
	double zalpha, zeta_n, zeta2, zeta_eta, ztheta;
};

static inline struct obj *pool_obj(const struct cache *c, size_t i)
{
	return (struct obj *)(void *)(c->pool + i * c->obj_size);
}

static inline uint64_t khash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	return k ^ (k >> 33);
}

static inline void lock(pthread_mutex_t *m)
{
	pthread_mutex_lock(m);
}

static inline void unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

static inline size_t live_now(struct cache *c)
{
	/* Relaxed: a count that decides how much to evict; no data. */
	return atomic_load_explicit(&c->live, memory_order_relaxed);
}

static inline bool stopping(struct cache *c)
{
	/* Relaxed: only ends loops; results are published by pthread_join. */
	return atomic_load_explicit(&c->stop, memory_order_relaxed) != 0;
}

/* Relaxed load and exchange of the lazy policy's hint (see struct obj):
 * true if o was referenced, and the bit is now clear. */
static inline bool take_accessed(struct obj *o)
{
	return atomic_load_explicit(&o->accessed, memory_order_relaxed) &&
	       atomic_exchange_explicit(&o->accessed, 0, memory_order_relaxed);
}

/* ---- hashtable.c: the striped-lock hash table ---- */
static inline struct stripe *stripe_of(const struct cache *c, uint64_t key)
{
	return &c->stripes[khash(key) & c->stripe_mask];
}

/* The bucket mask is a multiple of the stripe mask, so a bucket's chain
 * is always under the same stripe lock. */
static inline struct obj **bucket_of(const struct cache *c, uint64_t key)
{
	return &c->buckets[khash(key) & c->bucket_mask];
}

/* Under the stripe lock of key. */
struct obj *index_find(struct cache *c, uint64_t key);
/* Under the stripe lock of key: unlink o (which is in the chain). */
void index_unlink(struct cache *c, uint64_t key, struct obj *o);
/* Under the stripe lock of key: index o in place of old (in the chain). */
void index_replace(struct cache *c, uint64_t key, struct obj *old, struct obj *o);
/* Under the stripe lock of key: index o (key not indexed); counts live. */
void index_insert(struct cache *c, uint64_t key, struct obj *o);

/* ---- pool.c: objects and their values ---- */
struct obj *pool_alloc(struct tctx *t);
void pool_flush(struct tctx *t, int keep);
void pool_free(struct tctx *t, struct obj *o);
void value_fill(unsigned char *v, size_t n, uint64_t key, uint64_t ver);
bool value_ok(const unsigned char *v, size_t n, uint64_t key);

/* ---- cache.c: setup, get, set, the key distribution ---- */
int cache_init(struct cache *c, const struct config *cfg, enum impl impl, int nthreads);
void cache_destroy(struct cache *c);
void cache_get(struct tctx *t, uint64_t key);
void cache_set(struct tctx *t, uint64_t key);
uint64_t zipf_next(const struct cache *c, uint64_t r);

/* ---- reclaim.c ---- */
/* Teardown of an isolated victim (owned, R1). */
void teardown(struct tctx *t, struct obj *o);
/* lru_ops.evict of the LRU implementations: isolate, then teardown. */
int reclaim_isolated(struct tctx *t, int n);
/* After an insert: evict inline, or wait for the reclaim thread. */
void reclaim_gate(struct tctx *t);
void reclaim_wake(struct cache *c);
void *reclaimer(void *arg);

/* ---- audit.c ---- */
enum { SEEN_LRU = 1, SEEN_INDEX = 2, SEEN_FREE = 4 };
/* Mark bit on o; count a duplicate if it was already set. */
static inline void mark(struct obj *o, unsigned char bit, size_t *dups)
{
	if (o->seen & bit)
		(*dups)++;
	o->seen |= bit;
}
int cache_check(struct cache *c, const struct stats *sum, struct checks *ck);

/* ---- main.c / report.c / cli.c ---- */
struct result {
	int threads;
	enum impl impl;
	double secs;
	struct stats st;
	size_t max_live, end_live, slack;
	int checks, failed;
	/* the timed part's conditions (common/sysload.h): other processes'
	 * and steal's shares of all CPU time; the runs this point took, and
	 * whether the one kept (the least disturbed) was still disturbed */
	double others, steal;
	int tries;
	bool disturbed;
};

void parse_args(struct config *cfg, int argc, char **argv);
void print_table(const struct config *cfg, const struct result *r, int n);
void print_json(const struct config *cfg, const struct result *r, int n);

#endif /* CASLIST_EXAMPLES_LRU_CACHE_H */
