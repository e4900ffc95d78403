/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/adopt/inline_names.c - a user file (C, and C++ by test/adopt/inline.sh) that
 * defines every short name the inline mode put into the user's translation
 * unit before 0.3 (node_t, LOCK, backoff, cpu_relax, head_of, ...), then
 * uses the list inline.  It must compile clean (ISO C11/C17 -pedantic
 * -Wcast-qual -Werror; C++11..20) and exit 0.
 */
typedef int node_t;
#define LOCK 12345
#define HEAD_FLAG 1
#define BATCH_TAG 1
#define CLAIMED 1
#define NOT_INIT 1
#define BACKOFF_INIT 1
#define BACKOFF_MIN 1
#define BACKOFF_MAX 1
#define POLL_MAX 1
#define CROWDED_MAX 1
#define YIELD_SLOW_NS 1
#define CROWD_HOLD 1
struct backoff { int x; };
static int backoff(int x) { return x; }
static int cpu_relax(void) { return 0; }
static int head_of(void) { return 0; }
static int lock_tail(void) { return 0; }
static int splice_head(void) { return 0; }
static int splice_tail(void) { return 0; }
static int check_addable(void) { return 0; }
static int check_list(void) { return 0; }
static int pos_gone(void) { return 0; }
static int w_of(void) { return 0; }
static int node_of(void) { return 0; }
static int w_locked(void) { return 0; }
static int w_unlinked(void) { return 0; }
static int prev_hint(void) { return 0; }
static int prev_valid(void) { return 0; }
static int is_head(void) { return 0; }
static int link_unlock(void) { return 0; }
static int link_lock_op(void) { return 0; }
static int set_prev_checked(void) { return 0; }
static int backoff_wait(void) { return 0; }
#define CASLIST_INLINE 1
#include <caslist/caslist.h>
int main(void)
{
	static struct caslist_list l = CASLIST_LIST_INIT(l);
	struct caslist_node n, *cur;
	int k = 0;
	caslist_node_init(&n);
	caslist_add_head(&l, &n);
	caslist_for_each(cur, &l) k++;
	return (k == 1 && caslist_pop_tail(&l) == &n) ? backoff(0) + cpu_relax() + head_of() + lock_tail()
		+ splice_head() + splice_tail() + check_addable() + check_list() + pos_gone() + w_of() + node_of()
		+ w_locked() + w_unlinked() + prev_hint() + prev_valid() + is_head() + link_unlock() + link_lock_op()
		+ set_prev_checked() + backoff_wait() + (LOCK - 12345) : 1;
}
