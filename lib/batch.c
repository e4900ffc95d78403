/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/batch.c - the library's batch symbols: each caslist_batch_* is the
 * static inline caslist__batch_* of static/batch_ops.h (defined once, for the
 * library and for CASLIST_INLINE users alike).
 */
#include <caslist/static/batch_ops.h>

#if !defined(CASLIST_INLINE) || defined(CASLIST_BUILDING)
void caslist_batch_init(struct caslist_batch *b)
{
	caslist__batch_init(b);
}

int caslist_batch_move_head(struct caslist_batch *b, struct caslist_list *l,
			    struct caslist_node *n)
{
	return caslist__batch_move_head(b, l, n);
}

size_t caslist_batch_move_head_n(struct caslist_batch *b, struct caslist_list *l,
				 struct caslist_node *const *nodes, size_t k)
{
	return caslist__batch_move_head_n(b, l, nodes, k);
}

void caslist_batch_flush(struct caslist_batch *b)
{
	caslist__batch_flush(b);
}

size_t caslist_batch_cancel(struct caslist_batch *b, struct caslist_node **out)
{
	return caslist__batch_cancel(b, out);
}
#endif
