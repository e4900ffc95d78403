/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/audit.c - the end-of-run check (doc/lru.md, "The end-of-run
 * check"): the LRU's structure, every object in exactly the structures it
 * should be in (LRU, index, free pool), and the books (live, allocs and
 * frees, claims and frees: R1).
 */
#include "cache.h"

/* Quiescent (all threads joined: pthread_join orders everything they
 * wrote before us, so every load here is relaxed or plain).  Returns the
 * number of failures. */
int cache_check(struct cache *c, const struct stats *sum, struct checks *ck)
{
	size_t n_lru = 0, n_idx = 0, n_free = 0, dups = 0, wrong_bucket = 0, bad_val = 0;
	size_t idx_not_lru = 0, lru_not_idx = 0, free_reachable = 0, lost = 0;
	size_t bad_ikey = 0;
	bool has_lru = c->ops->audit != NULL;

	for (size_t i = 0; i < c->pool_n; i++)
		pool_obj(c, i)->seen = 0;
	/* the LRU (its own structure check, then every object on it) */
	if (has_lru)
		n_lru = c->ops->audit(c, ck, &dups);
	/* the index */
	for (size_t b = 0; b <= c->bucket_mask; b++) {
		size_t steps = 0;

		for (struct obj *o = c->buckets[b]; o != NULL && steps <= c->pool_n;
		     o = o->hnext, steps++) {
			mark(o, SEEN_INDEX, &dups);
			n_idx++;
			if ((khash(o->key) & c->bucket_mask) != b)
				wrong_bucket++;
			if (atomic_load_explicit(&o->ikey, memory_order_relaxed) != o->key + 1)
				bad_ikey++;
			if (!value_ok(o->value, c->cfg->value_size, o->key))
				bad_val++;
		}
	}
	/* the free pool (every thread flushed its stash at exit) */
	for (size_t i = 0; i < c->free_n; i++) {
		mark(c->free_stack[i], SEEN_FREE, &dups);
		n_free++;
	}
	for (size_t i = 0; i < c->pool_n; i++) {
		struct obj *o = pool_obj(c, i);
		bool in_lru = o->seen & SEEN_LRU, in_idx = o->seen & SEEN_INDEX;

		if (has_lru) {
			idx_not_lru += in_idx && !in_lru;
			lru_not_idx += in_lru && !in_idx;
		}
		free_reachable += (o->seen & SEEN_FREE) && (in_lru || in_idx);
		lost += o->seen == 0;
		if (!in_idx && atomic_load_explicit(&o->ikey, memory_order_relaxed) != 0)
			bad_ikey++;
	}
	check(ck, dups == 0, "%zu objects seen twice in one structure", dups);
	check(ck, !has_lru || n_idx == n_lru,
	      "objects in index (%zu) != objects on LRU (%zu)", n_idx, n_lru);
	check(ck, idx_not_lru == 0 && lru_not_idx == 0,
	      "%zu indexed objects not on the LRU, %zu LRU objects not indexed", idx_not_lru,
	      lru_not_idx);
	check(ck, free_reachable == 0, "%zu objects both free (evicted) and reachable",
	      free_reachable);
	check(ck, lost == 0, "%zu objects neither free nor live (lost)", lost);
	check(ck, n_idx == live_now(c), "live counter %zu != objects in index %zu", live_now(c),
	      n_idx);
	check(ck, wrong_bucket == 0 && bad_ikey == 0, "%zu in a wrong bucket, %zu bad ikey",
	      wrong_bucket, bad_ikey);
	check(ck, bad_val == 0 && sum->bad_values == 0,
	      "%zu stored and %llu read values corrupt", bad_val,
	      (unsigned long long)sum->bad_values);
	check(ck, sum->allocs - sum->frees == n_idx,
	      "allocs - frees = %llu != objects in index %zu",
	      (unsigned long long)(sum->allocs - sum->frees), n_idx);
	check(ck, sum->inserts - sum->evictions == n_idx,
	      "inserts - evictions = %llu != objects in index %zu",
	      (unsigned long long)(sum->inserts - sum->evictions), n_idx);
	check(ck, sum->isolated + sum->replace_owned == sum->frees,
	      "claims: isolated + replaces won (%llu) != frees (%llu): an object with two owners",
	      (unsigned long long)(sum->isolated + sum->replace_owned),
	      (unsigned long long)sum->frees);
	check(ck, sum->double_frees == 0, "%llu objects freed by a second owner",
	      (unsigned long long)sum->double_frees);
	check(ck, sum->alloc_fail == 0, "pool ran dry %llu times",
	      (unsigned long long)sum->alloc_fail);
	check(ck, atomic_load(&c->max_live) <= c->cap + c->slack,
	      "live reached %zu > capacity %zu + slack %zu", atomic_load(&c->max_live), c->cap,
	      c->slack);
	check(ck, n_idx <= c->cap + c->slack, "%zu live at the end > capacity + slack", n_idx);
	return ck->failed;
}
