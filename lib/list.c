/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/list.c - the library's list symbols: each caslist_* function is the
 * static inline caslist__* of static/list_ops.h, where the operations are
 * defined (once, for the library and for CASLIST_INLINE users alike).
 */
#include <caslist/static/list_ops.h>

void caslist_init(struct caslist_list *l)
{
	caslist__init(l);
}

void caslist_node_init(struct caslist_node *n)
{
	caslist__node_init(n);
}

bool caslist_empty(const struct caslist_list *l)
{
	return caslist__empty(l);
}

bool caslist_node_linked(const struct caslist_node *n)
{
	return caslist__node_linked(n);
}

void caslist_add_head(struct caslist_list *l, struct caslist_node *n)
{
	caslist__add_head(l, n);
}

void caslist_add_tail(struct caslist_list *l, struct caslist_node *n)
{
	caslist__add_tail(l, n);
}

void caslist_splice_head(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	caslist__splice_head(l, first, last);
}

void caslist_splice_tail(struct caslist_list *l, struct caslist_node *first,
			 struct caslist_node *last)
{
	caslist__splice_tail(l, first, last);
}

int caslist_add_after(struct caslist_node *pos, struct caslist_node *n)
{
	return caslist__add_after(pos, n);
}

int caslist_add_near(struct caslist_node *pos, struct caslist_node *n)
{
	return caslist__add_near(pos, n);
}

int caslist_del(struct caslist_node *n)
{
	return caslist__del(n);
}

bool caslist_del_if_linked(struct caslist_node *n)
{
	return caslist__del_if_linked(n);
}

int caslist_move_head(struct caslist_list *l, struct caslist_node *n)
{
	return caslist__move_head(l, n);
}

int caslist_touch(struct caslist_list *l, struct caslist_node *n)
{
	return caslist__touch(l, n);
}

struct caslist_node *caslist_pop_head(struct caslist_list *l)
{
	return caslist__pop_head(l);
}

struct caslist_node *caslist_pop_tail(struct caslist_list *l)
{
	return caslist__pop_tail(l);
}

struct caslist_node *caslist_cut_front(struct caslist_list *l, struct caslist_node *last)
{
	return caslist__cut_front(l, last);
}

void caslist_chain_link(struct caslist_node *a, struct caslist_node *b)
{
	caslist__chain_link(a, b);
}

struct caslist_node *caslist_chain_next(const struct caslist_node *n)
{
	return caslist__chain_next(n);
}

int caslist_iter_next(const struct caslist_list *l, struct caslist_node **cur)
{
	return caslist__iter_next(l, cur);
}

struct caslist_node *caslist_link_lock(struct caslist_node *x)
{
	return caslist__link_lock(x);
}

bool caslist_link_trylock(struct caslist_node *x, struct caslist_node **succ)
{
	return caslist__link_trylock(x, succ);
}

struct caslist_node *caslist_link_lock_prev(struct caslist_node *x)
{
	return caslist__link_lock_prev(x);
}

void caslist_link_unlock(struct caslist_node *x, struct caslist_node *succ)
{
	caslist__link_unlock(x, succ);
}

void caslist_link_set_prev(struct caslist_node *x, struct caslist_node *p)
{
	caslist__link_set_prev(x, p);
}

void caslist_link_retire(struct caslist_node *n)
{
	caslist__link_retire(n);
}
