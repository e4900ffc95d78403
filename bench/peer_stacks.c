/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer_stacks.c - two LIFO stacks as listbench peers, for the stack
 * workload only (every other workload reports them as unsupported):
 *   ck_stack  Concurrency Kit's ck_stack_push_mpmc / ck_stack_pop_mpmc;
 *   lfstack   liburcu's cds_lfs_push / cds_lfs_pop_blocking (pops are
 *             serialised by its internal mutex, which makes immediate node
 *             reuse ABA-safe).
 * Neither runs under TSan: ck_pr and liburcu's uatomic are inline asm.
 */
#include "peer.h"

static struct ck_stack ck_stk LINE;
static struct cds_lfs_stack lf_stk LINE;

static void cks_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	ck_stk.head = NULL;
	ck_stk.generation = NULL;
}

static void cks_push(struct bnode *n)
{
	ck_stack_push_mpmc(&ck_stk, &n->s);
}

static struct bnode *cks_pop(void)
{
	struct ck_stack_entry *e = ck_stack_pop_mpmc(&ck_stk);

	return e ? caslist_entry(e, struct bnode, s) : NULL;
}

static long cks_count(size_t max, const char **err)
{
	long n = 0;

	for (struct ck_stack_entry *e = ck_stk.head; e; e = e->next)
		if ((size_t)++n > max) {
			*err = "ck_stack: cycle";
			return -1;
		}
	return n;
}

static void lfs_global_init(void)
{
	cds_lfs_init(&lf_stk);
}

static void lfs_init(size_t fl_batch, size_t nodes)
{
	(void)fl_batch;
	(void)nodes;
	while (cds_lfs_pop_blocking(&lf_stk) != NULL)
		;
}

static void lfs_push(struct bnode *n)
{
	cds_lfs_node_init(&n->l);
	cds_lfs_push(&lf_stk, &n->l);
}

static struct bnode *lfs_pop(void)
{
	struct cds_lfs_node *x = cds_lfs_pop_blocking(&lf_stk);

	return x ? caslist_entry(x, struct bnode, l) : NULL;
}

static long lfs_count(size_t max, const char **err)
{
	long n = 0;

	/* quiescent: pop everything (the next run's init starts empty) */
	while (cds_lfs_pop_blocking(&lf_stk) != NULL)
		if ((size_t)++n > max) {
			*err = "lfstack: more nodes than pushed";
			return -1;
		}
	return n;
}

const struct peer peer_ck_stack = {
	.name = "ck_stack", .tsan_ok = 0, .init = cks_init,
	.why = "a LIFO stack: push and pop at the top only", .add_head = cks_push,
	.pop_head = cks_pop, .count = cks_count,
};

const struct peer peer_lfstack = {
	.name = "lfstack", .tsan_ok = 0, .global_init = lfs_global_init, .init = lfs_init,
	.why = "a LIFO stack: push and pop at the top only", .add_head = lfs_push,
	.pop_head = lfs_pop, .count = lfs_count,
};
