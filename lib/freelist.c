/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/freelist.c - the library's free-list symbols: each caslist_fl_* is
 * the static inline caslist__fl_* of static/fl_ops.h (defined once, for the
 * library and for CASLIST_INLINE users alike).
 */
#include <caslist/static/fl_ops.h>

#if !defined(CASLIST_INLINE) || defined(CASLIST_BUILDING)

void caslist_fl_init(struct caslist_fl *fl, unsigned batch)
{
	caslist__fl_init(fl, batch);
}

void caslist_fl_destroy(struct caslist_fl *fl)
{
	caslist__fl_destroy(fl);
}

void caslist_fl_reserve(struct caslist_fl *fl, size_t n)
{
	caslist__fl_reserve(fl, n);
}

void caslist_fl_node_init(struct caslist_fl_node *x)
{
	caslist__fl_node_init(x);
}

size_t caslist_fl_take(struct caslist_fl *fl, size_t want, struct caslist_fl_batch *b)
{
	return caslist__fl_take(fl, want, b);
}

struct caslist_fl_node *caslist_fl_batch_next(struct caslist_fl_batch *b)
{
	return caslist__fl_batch_next(b);
}

void caslist_fl_put_batch(struct caslist_fl *fl, struct caslist_fl_node *first,
			  struct caslist_fl_node *last, size_t n)
{
	caslist__fl_put_batch(fl, first, last, n);
}

void caslist_fl_build_begin(struct caslist_fl *fl, struct caslist_fl_builder *b)
{
	caslist__fl_build_begin(fl, b);
}

void caslist_fl_build_add(struct caslist_fl_builder *b, struct caslist_fl_node *x)
{
	caslist__fl_build_add(b, x);
}

void caslist_fl_build_put(struct caslist_fl_builder *b)
{
	caslist__fl_build_put(b);
}

void caslist_fl_put(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	caslist__fl_put(fl, x);
}

void caslist_fl_cache_put(struct caslist_fl *fl, struct caslist_fl_cache *c,
			  struct caslist_fl_node *x)
{
	caslist__fl_cache_put(fl, c, x);
}

void caslist_fl_cache_flush(struct caslist_fl *fl, struct caslist_fl_cache *c)
{
	caslist__fl_cache_flush(fl, c);
}

int caslist_fl_remove(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	return caslist__fl_remove(fl, x);
}

int caslist_fl_node_state(struct caslist_fl *fl, struct caslist_fl_node *x)
{
	return caslist__fl_node_state(fl, x);
}

void caslist_fl_scan_begin(struct caslist_fl *fl)
{
	caslist__fl_scan_begin(fl);
}

void caslist_fl_scan_end(struct caslist_fl *fl)
{
	caslist__fl_scan_end(fl);
}

#endif
