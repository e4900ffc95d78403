/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * caslist/list.h - sentinel-locked intrusive circular doubly-linked list.
 *
 * Every link "X -> succ(X)" has its own lock, held in X->next itself: a thread
 * takes it by CASing the lock bit into X->next (the sentinel), changes the
 * link, and releases it by storing the new successor.  There is no list-wide
 * lock; the head node's link is locked like any other.  The protocol, its
 * invariants and the pairing of every atomic are in doc/protocol.md.
 *
 * Argument order: the list first, then the node (caslist_add_head(l, n));
 * liburcu and the kernel put the node first (cds_list_add(new, head),
 * list_add(new, head)).
 *
 * Concurrency contract (all functions, unless noted):
 *  - Any number of threads may call any operation on the same list at once.
 *  - Memory rule: a node's memory must stay valid *as a caslist node* while
 *    any operation that may have read a pointer to it is still running (ops
 *    read neighbours' pointers without pinning them).  Type-stable memory
 *    (pools, arrays of descriptors, struct-page style) satisfies this; so does
 *    freeing removed nodes after an RCU/epoch grace period.  A removed node
 *    may be re-added to this or another caslist list at once.
 *  - Many lists: nodes may move between any number of lists at any time
 *    (move_head from another list, or remove then add elsewhere); every
 *    operation is deadlock-free across lists (doc/protocol.md, "Lock order").
 *  - Node states (doc/protocol.md, "Objects and the lock word" has the full table):
 *      FRESH   never added, or re-initialised by caslist_node_init: anyone
 *              may add it; of several racing caslist_touch calls exactly
 *              one adds it.
 *      LINKED  on a list (in transit between lists counts as linked).
 *      OWNED   taken off by a successful pop, caslist_del,
 *              caslist_del_if_linked, the last node of a cut, a free-list
 *              take or a batch cancel: it belongs to the thread that took
 *              it.  Only that thread may add it again (add_head, add_tail,
 *              add_after, add_near, splice), re-initialise it (making it
 *              FRESH, for others to touch) or free it.  caslist_touch on
 *              an OWNED node adds nothing and returns CASLIST_TOUCH_GONE,
 *              so a remover may free what it removed (after a grace
 *              period: the memory rule) while other threads still touch it.
 *      QUEUED  in a batch (caslist_batch_move_head): owned by the batch's
 *              thread until caslist_batch_flush or caslist_batch_cancel.
 *    Any thread may call caslist_touch, caslist_move_head,
 *    caslist_del_if_linked, caslist_batch_move_head and
 *    caslist_add_after/near (as position) on any node in any state; the
 *    removals report CASLIST_ENOENT / false on a node that is not linked.
 *  - Chains: the nodes of a private chain (built with caslist_chain_link,
 *    or cut off with caslist_cut_front) look linked; only the chain's last
 *    node is marked (OWNED after a cut).  Other threads must not target a
 *    chain's other nodes by pointer while it is private - a cut is O(1)
 *    and cannot mark them.  A thread that targets one after the splice
 *    must synchronise with the splice: it reached the node through the
 *    list, or got its pointer through a lock, a join, or a release store
 *    made after the splice and read with acquire.  A pointer read with a
 *    relaxed load is not enough (such a thread may still see the node as
 *    it was before the chain).  Lists whose nodes other threads reach by
 *    pointer (an LRU with touch hits) isolate with pops, deletes or
 *    batches, which mark every node.
 *  - Not async-signal-safe: a signal handler must not operate on a list
 *    (or node) that the interrupted code may be operating on.
 *  - Fairness at a head (bounded bypass, in time): a head wait that has
 *    lost CASLIST_WAIT_ROUNDS rounds takes a ticket; once an operation
 *    has seen it the oldest pending one, the others' streak on that head
 *    ends CASLIST_WAIT_STREAK_NS later (plus CASLIST_WAIT_CLOCK_EVERY
 *    operations per running thread): the next operation grants it and
 *    queues behind it.  With j tickets ahead, j + 1 such periods.  Every
 *    path that locks a head takes part: the ones that hold nothing else
 *    queue; touches that add, cuts, flushes and the link primitives on a
 *    head grant without queuing (doc/wait.md, "Who takes part", "The
 *    bound").  Waiters past a short spin sleep in the kernel.  Waits for
 *    other links are bounded only in probability (randomised backoff).
 *  - Kept in every build (abort naming the operation): adding a node that
 *    is linked, using a list that was never initialised, and passing a
 *    list's head (of any list) where a node is wanted - to an add (as the
 *    node added), del, del_if_linked, move_head, touch, cut_front,
 *    batch_move_head(_n) or link_retire; add_after and add_near take a
 *    head as their position.  A wait on
 *    one link longer than CASLIST_STUCK_MS milliseconds (environment,
 *    default 5000) prints one line on stderr naming the link (and its word
 *    or address by name when it is a lock-word state, e.g.
 *    CASLIST_POISON_PREV), the waiting operation and the likely causes
 *    (a node added twice among them), and keeps waiting.
 *
 * Which calls may run together (doc/protocol.md, "Which calls may run
 * together", gives each case's reason).  On the same node n, two calls
 * serialise on n's link lock: one wins, and each returns what its page
 * says for the state it found.
 *  - Removals of n (del_if_linked, a pop that reaches n): one removes it;
 *    the others return false (a pop takes another node, or NULL).
 *    caslist_del claims the right to remove: racing it with another
 *    removal of n is the caller's error (CASLIST_ENOENT in release
 *    builds, an abort in debug builds); racing removers use
 *    caslist_del_if_linked.
 *  - move_head(n) beside a removal of n: a removal first makes the move
 *    return CASLIST_ENOENT; a move first, and the removal takes n from its
 *    new list.  Two move_heads of n both return CASLIST_OK: n ends first
 *    on the list of the one that runs last.
 *  - touch(n) beside touch(n): on a FRESH node exactly one returns
 *    CASLIST_TOUCH_ADDED and the others move it (CASLIST_OK); on an OWNED
 *    node all return CASLIST_TOUCH_GONE.  Beside a removal: the removal
 *    first makes the touch return CASLIST_TOUCH_GONE.  Beside a plain add
 *    of the same FRESH node: not allowed (a double add).
 *  - batch_move_head(n) beside a removal or a move of n: the batch first
 *    leaves n QUEUED, not linked, and the other returns CASLIST_ENOENT
 *    (or false); the other first, and the batch queues n from its new
 *    place, or returns CASLIST_ENOENT if it was removed.  Beside another thread's batch_move_head(n): one queues it, the other
 *    returns CASLIST_OK.  Beside touch(n): the touch returns CASLIST_OK.
 *  - add_after or add_near at position n, beside a removal or a move of
 *    n: the add first, or CASLIST_ENOENT; while n is in transit the add
 *    waits and puts its node next to n's new place.
 *  - cut_front(l, n) beside a removal of n: the removal first makes the
 *    cut return NULL.  Not allowed beside a move or add of n to another
 *    list, or beside any call that targets by pointer a node strictly
 *    inside the cut segment: the caller keeps them apart.
 *  - A walk whose cursor is on n, beside a removal or a move of n:
 *    caslist_iter_next returns CASLIST_EAGAIN, or goes on from n's new
 *    place.
 *  - caslist_node_init(n) by n's owner, beside touch, del_if_linked,
 *    move_head, batch_move_head or add_after at n: they find n OWNED
 *    before it and FRESH after it.  Never on a linked or queued node.
 *  - Freeing n beside any call that may have read a pointer to n: not
 *    allowed (the memory rule).
 *
 * On the same list, different nodes: any calls at once, except
 * caslist_init and caslist_check (no other call on the list), the cut and
 * chain rules, and one list per batch; a list whose only node is in
 * transit (move_head) may be seen empty.
 *
 * Across lists: any calls at once, nodes moving between any lists; no combination deadlocks and no
 * node is ever on two lists.  The one exception is the cut's: its last
 * node must not be re-added to another list while the cut runs.
 */
#ifndef CASLIST_LIST_H
#define CASLIST_LIST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The casts (CASLIST_LK_PCAST and the others): <caslist/static/cast.h>. */
#include <caslist/static/cast.h>

#include <caslist/export.h>

/*
 * The words the library changes concurrently.  In C they are _Atomic; in
 * C++ (which has no _Atomic before C++23) they are the plain integer or
 * pointer type.  Only the library's C code ever reads or writes them, so C++
 * code needs no atomic type for them, and the plain type has the same size
 * and alignment as the _Atomic one on every gcc/clang target (_Atomic raises
 * the alignment only of types whose alignment is below their size; pointer-
 * sized words have none).  std::atomic<T> would be layout-identical with
 * libstdc++ and libc++ too, but C++11 does not promise it, and it would make
 * the structs non-copyable and non-trivial.  test/adopt/abi.sh compares sizeof,
 * alignof and offsetof of every public struct between a C and a C++ unit.
 * A C++ unit in inline mode (CASLIST_INLINE) compiles the operations
 * itself on these plain words, with the compiler's atomic builtins
 * (<caslist/static/atomic.h>): the same layout, objects stay copyable.
 */
#ifdef __cplusplus
#define CASLIST_ATOMIC(type) type
extern "C" {
#else
#include <stdatomic.h>
#define CASLIST_ATOMIC(type) _Atomic(type)
#endif


/* A list node, embedded in the user's object (intrusive, like list_head).
 * 8-aligned everywhere: the successor word keeps three low bits (where
 * pointers are 4 bytes the attribute adds the alignment; on LP64 it is
 * the words' own, and the layout is unchanged). */
#if UINTPTR_MAX == 0xffffffffu
#define CASLIST_LK_NODE_ALIGN __attribute__((aligned(8)))
#else
#define CASLIST_LK_NODE_ALIGN
#endif
struct CASLIST_LK_NODE_ALIGN caslist_node {
	/* Successor, with bit 0 = lock of the link "this -> successor" and
	 * bit 2 = "the successor is a list's head".  Unlinked nodes hold 0
	 * (never linked) or CASLIST_POISON_NEXT. */
	CASLIST_ATOMIC(uintptr_t) next;
	/* Predecessor: a hint when read without the predecessor's link lock;
	 * exact when read under it.  Poisoned on removal. */
	CASLIST_ATOMIC(uintptr_t) prev;
};
/* The three low bits of every node's and head's address are the words'
 * flags: a target where the type is less aligned is refused here (an
 * address that is not, in a packed embedding, by caslist_node_init and
 * caslist_init). */
#ifdef __cplusplus
static_assert(alignof(caslist_node) >= 8, "struct caslist_node must be 8-aligned");
#else
_Static_assert(_Alignof(struct caslist_node) >= 8, "struct caslist_node must be 8-aligned");
#endif

/* A list: a head node that is never removed, the two ticket counters of
 * its hand-over and the oldest ticket's stamp (<caslist/static/wait.h>,
 * doc/wait.md), and the queue of moves waiting at a busy head
 * (<caslist/static/combine.h>, doc/combine.md: 0 unless the library or
 * the inline code is built with CASLIST_HEAD_COMBINE).  An empty list's are as CASLIST_LIST_INIT and
 * caslist_init set them. */
struct caslist_list {
	struct caslist_node head;
	CASLIST_ATOMIC(uint32_t) want_next;	/* tickets issued */
	CASLIST_ATOMIC(uint32_t) want_served;	/* tickets granted */
	CASLIST_ATOMIC(uint32_t) want_stamped;	/* the ticket want_since is for */
	CASLIST_ATOMIC(uint32_t) want_since;	/* when an entry first saw it pending */
	CASLIST_ATOMIC(uintptr_t) queue;	/* moves queued at a busy head (static/combine.h) */
};

/* Values left in a removed node (never valid addresses, bit 0 clear). */
#define CASLIST_POISON_NEXT CASLIST_LK_ICAST(uintptr_t, 0x100)
#define CASLIST_POISON_PREV CASLIST_LK_ICAST(uintptr_t, 0x122)

/* Return codes.  The errors are negated errno values, as in the kernel:
 * `rc == -ENOENT` and `rc == CASLIST_ENOENT` mean the same.  (In 0.2 and
 * before they were -1 and -2, and -2 is -ENOENT: programs compiled
 * against those headers must be recompiled.) */
#define CASLIST_OK 0
#define CASLIST_ENOENT (-ENOENT)	/* the node is not (or no longer) linked */
#define CASLIST_EAGAIN (-EAGAIN)	/* iteration lost its place: restart */
#define CASLIST_NEAR_AFTER 0	/* caslist_add_near placed the node after pos */
#define CASLIST_NEAR_BEFORE 1	/* ... before pos */
#define CASLIST_TOUCH_ADDED 1	/* caslist_touch added the node (it was FRESH) */
#define CASLIST_TOUCH_GONE 2	/* caslist_touch: the node is OWNED by a remover; nothing done */
#define CASLIST_BATCH_QUEUED 1	/* caslist_batch_move_head: already queued in this batch */

/*
 * Static initializer: `static struct caslist_list l = CASLIST_LIST_INIT(l);`
 * is an empty list, as after caslist_init(&l) (the head points to itself,
 * with bit 2 of its next word: "the successor is a head"; its prev word
 * carries the head flag, bit 1).
 */
/* (&name is &name.head: the head is the first member; the whole object's
 * address is what compilers accept in its own initializer.) */
#define CASLIST_LIST_INIT(name)                                                \
	{ { CASLIST_LK_PCAST(uintptr_t, &(name)) + 4u, CASLIST_LK_PCAST(uintptr_t, &(name)) + 2u }, 0u, 0u, 0xffffffffu, 0u, 0u }

/*
 * CASLIST_LIST(name) - declare and initialise an empty list, like the
 * kernel's LIST_HEAD(name): `static CASLIST_LIST(lru);` is
 * `static struct caslist_list lru = CASLIST_LIST_INIT(lru);`.
 */
#define CASLIST_LIST(name) struct caslist_list name = CASLIST_LIST_INIT(name)

/* container_of for list nodes. */
#ifdef __cplusplus
#define caslist_entry(ptr, type, member)                                       \
	reinterpret_cast<type *>(const_cast<char *>(                           \
		reinterpret_cast<const volatile char *>(ptr)) - offsetof(type, member))
#else
#define caslist_entry(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

/* ---- init and state (not concurrent with operations on the same object) */

/** caslist_init - make @l an empty list (or use CASLIST_LIST_INIT). */
CASLIST_API void caslist_init(struct caslist_list *l);
/** caslist_node_init - make @n FRESH: not linked, and free for any thread
 * to add (racing caslist_touch calls elect one adder).  Zeroed memory is
 * FRESH too.  On an OWNED node only its owner may call it (it hands the
 * node back to everyone); never on a linked or queued node. */
CASLIST_API void caslist_node_init(struct caslist_node *n);

/* ---- snapshots (any thread, concurrent with every operation) ---------- */

/** caslist_empty - true if @l was empty at some instant during the call. */
CASLIST_API bool caslist_empty(const struct caslist_list *l);
/** caslist_node_linked - true if @n was linked (or being linked/unlinked)
 * at some instant during the call.  A snapshot, useful for assertions. */
CASLIST_API bool caslist_node_linked(const struct caslist_node *n);

/* ---- adding (@n FRESH and known to the caller alone, or OWNED by it) -- */

/** caslist_add_head - link @n first. Locks the head's link. */
CASLIST_API void caslist_add_head(struct caslist_list *l, struct caslist_node *n);
/** caslist_add_tail - link @n last. Locks the tail node's link. */
CASLIST_API void caslist_add_tail(struct caslist_list *l, struct caslist_node *n);
/** caslist_add_after - link @n right after @pos (a node or &l->head).
 * Returns CASLIST_OK, or CASLIST_ENOENT if @pos is not linked. */
CASLIST_API int caslist_add_after(struct caslist_node *pos, struct caslist_node *n);
/** caslist_add_near - link @n next to @pos, on whichever side is free:
 * tries the link after @pos and the link before it, each once, and takes
 * the first that is free (for @pos = &l->head: head or tail); while both
 * are busy it backs off and tries both again.  Returns
 * CASLIST_NEAR_AFTER, CASLIST_NEAR_BEFORE, or CASLIST_ENOENT if @pos is
 * not linked. */
CASLIST_API int caslist_add_near(struct caslist_node *pos, struct caslist_node *n);

/* ---- removing ------------------------------------------------------ */

/** caslist_del - remove @n, which the caller knows to be linked (it holds
 * the right to remove it); @n is then OWNED by the caller.  Debug builds
 * abort if @n is not linked.  Returns CASLIST_OK or CASLIST_ENOENT. */
CASLIST_API int caslist_del(struct caslist_node *n);
/** caslist_del_if_linked - remove @n if it is linked.  Several threads may
 * race to remove the same node (with each other, with pops, with
 * move_head): exactly one call removes it and returns true, and owns it
 * (OWNED: touch will not bring it back). */
CASLIST_API bool caslist_del_if_linked(struct caslist_node *n);
/** caslist_move_head - LRU rotate: move linked @n to the front of @l in one
 * call.  @n may be on @l or on any other list (active/inactive
 * promotion): it leaves its list and enters @l without ever being on two
 * lists.  It is two steps, not one atomic move: between them @n is on no
 * list (in transit, locked: removers wait for it), so a concurrent pop of
 * its old list may find that list without it - even empty, if @n was its
 * only node - before @n appears at @l's head (doc/protocol.md, "Lock order").  Returns CASLIST_OK or CASLIST_ENOENT (n not linked: FRESH,
 * OWNED or QUEUED; it adds nothing). */
CASLIST_API int caslist_move_head(struct caslist_list *l, struct caslist_node *n);
/** caslist_touch - move @n to the front of @l if it is linked (on any
 * list); add it there if it is FRESH; do nothing if it is OWNED.
 * Returns CASLIST_OK (moved, or QUEUED in a batch: on its way to a head),
 * CASLIST_TOUCH_ADDED (it was FRESH and this call added it) or
 * CASLIST_TOUCH_GONE (a pop or delete took it: it belongs to that thread,
 * which may be freeing it).  Several threads may race to touch the same
 * FRESH node, with each other and with removals of it: exactly one adds
 * it; the others see it linked and move it.  A touch never brings back a
 * node that a removal handed to its caller.  Where several threads may
 * add the same FRESH node, every one of them must add it with
 * caslist_touch (a plain add of a node another thread may be touching is
 * a double add: it can corrupt the list or hang a later operation, whose
 * stuck-link line names "a node added twice").  A stale pointer - to an
 * object freed without the grace period of the memory rule - is not
 * detected: if the memory is reused, touch may add the new object's
 * bytes as a node, wait for ever on a word that looks locked (the stuck
 * line then names the link, or CASLIST_POISON_PREV when it followed a
 * removed node's prev word), or corrupt the list it moves to. */
CASLIST_API int caslist_touch(struct caslist_list *l, struct caslist_node *n);
/** caslist_pop_head / caslist_pop_tail - remove and return the first / last
 * node (now OWNED by the caller), or NULL if the list is empty. */
CASLIST_API struct caslist_node *caslist_pop_head(struct caslist_list *l);
CASLIST_API struct caslist_node *caslist_pop_tail(struct caslist_list *l);

/* ---- chains: private, pre-linked runs of nodes (O(1) splice and cut) - */

/** caslist_chain_link - make @b follow @a in a private chain.  What the
 * caller wrote to @a and @b before is published by the splice, to every
 * thread that synchronises with it (caslist(3); the concurrency contract
 * at the top of <caslist/list.h>, "Chains").  A chain's last node's next
 * is ignored by splices. */
CASLIST_API void caslist_chain_link(struct caslist_node *a, struct caslist_node *b);
/** caslist_chain_next - successor of @n in a chain the caller owns, or NULL
 * after the chain's last node (as returned by caslist_cut_front). */
CASLIST_API struct caslist_node *caslist_chain_next(const struct caslist_node *n);
/** caslist_splice_head / _tail - link the private chain @first..@last
 * (built with caslist_chain_link) at the front / back of @l in O(1). */
CASLIST_API void caslist_splice_head(struct caslist_list *l, struct caslist_node *first,
				     struct caslist_node *last);
CASLIST_API void caslist_splice_tail(struct caslist_list *l, struct caslist_node *first,
				     struct caslist_node *last);
/** caslist_cut_front - cut the prefix first..@last off @l in O(1) (two link
 * locks, touching only first, @last and last's successor).  Returns first;
 * the cut chain ends at @last (caslist_chain_next(last) == NULL), which is
 * OWNED (a touch of it adds nothing); the chain belongs to the caller, and
 * other threads must not target its other nodes by pointer.
 * Returns NULL if @last is not linked (removed by another thread, a race
 * the caller may lose).  @last must not be re-added to ANOTHER list while
 * the cut runs: that is caught (NULL; debug builds abort) when @l is empty
 * or @last is the other list's tail, and undetectable elsewhere. */
CASLIST_API struct caslist_node *caslist_cut_front(struct caslist_list *l,
						   struct caslist_node *last);

/* ---- batches: many moves to the head, one head-lock ------------------
 * What the kernel's per-CPU folio batches do for LRU rotation: a thread
 * queues nodes in its own batch - each is removed from its list in place,
 * at once, in parallel with other threads - and the batch goes to the
 * head of one list in a single splice (one L(head) per batch instead of
 * one per node).  Given up: a queued node reaches the head only at the
 * flush, and is on no list meanwhile (a pop cannot evict it; removers see
 * it as not linked).  Any thread may target a queued node: removals
 * report ENOENT, caslist_touch reports it moved, a second batch_move_head
 * (another batch) reports CASLIST_OK.  A batch belongs to one thread.
 * A batch must END: every batch that holds nodes is flushed
 * (caslist_batch_flush) or cancelled (caslist_batch_cancel) before its
 * memory goes or its thread exits; until then its nodes are QUEUED, on no
 * list, and nobody else can add them.  The library keeps no per-thread
 * state and cannot do this for you: a batch kept in thread-local storage
 * is flushed in a pthread key destructor. */

#define CASLIST_BATCH_MAX 31	/* nodes per batch (the kernel's folio batch size) */

struct caslist_batch {
	struct caslist_list *l;	/* where the queued nodes go (NULL: none) */
	unsigned n;
	struct caslist_node *node[CASLIST_BATCH_MAX];
};

/** caslist_batch_init - an empty batch. */
CASLIST_API void caslist_batch_init(struct caslist_batch *b);
/** caslist_batch_move_head - queue linked @n (on any list) in @b, for the
 * head of @l: @n is removed from its list now and reaches @l's head at the
 * next flush; a full batch flushes itself.  Returns CASLIST_OK (queued
 * here, or already queued in another thread's batch),
 * CASLIST_BATCH_QUEUED (already queued in @b: nothing done, so an LRU hit
 * path needs no de-duplication) or CASLIST_ENOENT (n is not linked).
 * Aborts if @b holds nodes for another list. */
CASLIST_API int caslist_batch_move_head(struct caslist_batch *b, struct caslist_list *l,
					struct caslist_node *n);
/** caslist_batch_move_head_n - queue @k nodes in @b for the head of @l:
 * exactly the calls caslist_batch_move_head(b, l, nodes[i]) for i = 0 ..
 * @k-1 in order (so the same rules: distinct nodes, one list per batch,
 * flushes as the batch fills), but faster on nodes that are not in this
 * CPU's cache: the lines of a window of 16 nodes and of their neighbours
 * are fetched before their removals, so the misses overlap.  Returns how
 * many of the calls returned CASLIST_OK. */
CASLIST_API size_t caslist_batch_move_head_n(struct caslist_batch *b, struct caslist_list *l,
					     struct caslist_node *const *nodes, size_t k);
/** caslist_batch_flush - splice the queued nodes at the head of their
 * list, the most recently queued first, under one head-link lock. */
CASLIST_API void caslist_batch_flush(struct caslist_batch *b);
/** caslist_batch_cancel - end @b without a splice: every queued node
 * becomes OWNED by the caller (in no list, as after a pop), and @b is
 * empty.  Stores the nodes, in queueing order, in @out (room for
 * CASLIST_BATCH_MAX; may be NULL) and returns how many there were. */
CASLIST_API size_t caslist_batch_cancel(struct caslist_batch *b, struct caslist_node **out);

/* ---- traversal ----------------------------------------------------- */

/** caslist_iter_next - step a cursor.  Start with *cur = &l->head.  Returns
 * 1 and moves *cur to the next node; 0 at the end of the list; or
 * CASLIST_EAGAIN if the node at *cur was removed, or moved to another list
 * and the walk reached that list's head (restart from the head).
 * Waits, with backoff, while the link after *cur is locked.  Safe against
 * concurrent deletion under the memory rule (caslist(3); the concurrency
 * contract at the top of <caslist/list.h>).  What a walk that
 * returns 0 has seen: every node that was on @l, unmoved, for the whole
 * walk - unless the node at the cursor was removed and re-added (or moved
 * within @l) between two calls: the walk then goes on from the cursor's
 * new place and may skip nodes between the old and the new place, or see
 * some twice.  doc/protocol.md, "Traversal" has the exact rule. */
CASLIST_API int caslist_iter_next(const struct caslist_list *l, struct caslist_node **cur);

/* ---- lock-word primitives, for building your own operations ---------
 * L(x) is the lock of the link x -> succ(x), held in x->next.  Holding L(x)
 * gives the exclusive right to write x->next and succ(x)->prev.  Lock order
 * (deadlock freedom): a thread may *wait* for L(x) only while every link
 * lock it holds belongs to a node after x in list order (the head is first),
 * and a holder of the head's link must never wait.  Otherwise use trylock
 * and release on failure. */

/** caslist_link_lock - wait for and take L(@x); returns succ(@x), or NULL
 * if @x is not linked. */
CASLIST_API struct caslist_node *caslist_link_lock(struct caslist_node *x);
/** caslist_link_trylock - take L(@x) if it is free; stores succ(@x) in
 * *@succ.  Returns false if the link is locked or @x is not linked. */
CASLIST_API bool caslist_link_trylock(struct caslist_node *x, struct caslist_node **succ);
/** caslist_link_lock_prev - wait for and take the lock of the link that
 * points to @x (L(pred(@x))); returns pred(@x).  @x must stay linked while
 * this waits: the caller holds L(@x), or otherwise guarantees it. */
CASLIST_API struct caslist_node *caslist_link_lock_prev(struct caslist_node *x);
/** caslist_link_unlock - release L(@x), setting its successor to @succ
 * (the old one, or a new one whose ->prev the caller has set).  Reads
 * @succ's prev word to tell a head from a node (bit 2 of the word it
 * stores says which). */
CASLIST_API void caslist_link_unlock(struct caslist_node *x, struct caslist_node *succ);
/** caslist_link_set_prev - set @x's predecessor word to @p, keeping the
 * head flag (bit 1 of a list head's prev word, which marks it a head for
 * every walk and cut: never write a prev word yourself).  The caller
 * holds the lock of the link that points to @x (L(pred(@x))), or @x is a
 * node in transit whose own link the caller holds. */
CASLIST_API void caslist_link_set_prev(struct caslist_node *x, struct caslist_node *p);
/** caslist_link_retire - end a delete built from these primitives: @n,
 * whose link the caller holds (L(@n)) and which is no longer in any list
 * (its predecessor's link was unlocked past it), becomes OWNED; L(@n) is
 * consumed.  A delete: s = caslist_link_lock(n); p =
 * caslist_link_lock_prev(n); caslist_link_set_prev(s, p);
 * caslist_link_unlock(p, s); caslist_link_retire(n). */
CASLIST_API void caslist_link_retire(struct caslist_node *n);

/* ---- checking (quiescent: no concurrent operations on @l) ----------- */

/** caslist_check - walk @l and verify its structure: every next->prev ==
 * self, no lock bit set, at most @max_nodes nodes.  Stores the node count
 * in *@count (if not NULL).  Returns 0, or a negative code naming the first
 * fault (see caslist_check_strerror). */
CASLIST_API int caslist_check(const struct caslist_list *l, size_t max_nodes, size_t *count);
CASLIST_API const char *caslist_check_strerror(int code);

#ifdef __cplusplus
}
#endif

/*
 * Inline mode.  `#define CASLIST_INLINE` before including <caslist/list.h>
 * (C11 or C++11 and later) and the list operations it declares become
 * static inline functions in your translation unit, from the same source the library compiles
 * (<caslist/static/list_ops.h>, installed from static/list_ops.h): no call,
 * and under -fsanitize=thread every atomic of the protocol is instrumented
 * in your own build, so a correct hand-off through a list is not reported
 * (the installed library is not instrumented).  The batches come inline
 * too (<caslist/static/batch_ops.h>), and with <caslist/freelist.h> the
 * free list.  caslist_check comes inline as well, so that a user's
 * -fsanitize=address build checks every node the walk reads (the inline
 * mode is ASan's route into the operations, as it is TSan's).  Link with
 * the library as usual: caslist_check_strerror, the free list's check and
 * its descriptor pool stay out of line.
 */
#if defined(CASLIST_INLINE) && !defined(CASLIST_BUILDING)
#include <caslist/static/list_ops.h>
#ifdef __cplusplus	/* the layer lives in a namespace of its own there */
#define CASLIST_LK_NS(name) caslist_lk_cxx::name
#else
#define CASLIST_LK_NS(name) name
#endif
#define caslist_init CASLIST_LK_NS(caslist__init)
#define caslist_node_init CASLIST_LK_NS(caslist__node_init)
#define caslist_empty CASLIST_LK_NS(caslist__empty)
#define caslist_node_linked CASLIST_LK_NS(caslist__node_linked)
#define caslist_add_head CASLIST_LK_NS(caslist__add_head)
#define caslist_add_tail CASLIST_LK_NS(caslist__add_tail)
#define caslist_splice_head CASLIST_LK_NS(caslist__splice_head)
#define caslist_splice_tail CASLIST_LK_NS(caslist__splice_tail)
#define caslist_add_after CASLIST_LK_NS(caslist__add_after)
#define caslist_add_near CASLIST_LK_NS(caslist__add_near)
#define caslist_del CASLIST_LK_NS(caslist__del)
#define caslist_del_if_linked CASLIST_LK_NS(caslist__del_if_linked)
#define caslist_move_head CASLIST_LK_NS(caslist__move_head)
#define caslist_touch CASLIST_LK_NS(caslist__touch)
#define caslist_pop_head CASLIST_LK_NS(caslist__pop_head)
#define caslist_pop_tail CASLIST_LK_NS(caslist__pop_tail)
#define caslist_cut_front CASLIST_LK_NS(caslist__cut_front)
#define caslist_chain_link CASLIST_LK_NS(caslist__chain_link)
#define caslist_chain_next CASLIST_LK_NS(caslist__chain_next)
#define caslist_iter_next CASLIST_LK_NS(caslist__iter_next)
#define caslist_link_lock CASLIST_LK_NS(caslist__link_lock)
#define caslist_link_trylock CASLIST_LK_NS(caslist__link_trylock)
#define caslist_link_lock_prev CASLIST_LK_NS(caslist__link_lock_prev)
#define caslist_link_unlock CASLIST_LK_NS(caslist__link_unlock)
#define caslist_link_set_prev CASLIST_LK_NS(caslist__link_set_prev)
#define caslist_link_retire CASLIST_LK_NS(caslist__link_retire)
#define caslist_check CASLIST_LK_NS(caslist__check)
#include <caslist/static/batch_ops.h>
#define caslist_batch_init CASLIST_LK_NS(caslist__batch_init)
#define caslist_batch_move_head CASLIST_LK_NS(caslist__batch_move_head)
#define caslist_batch_move_head_n CASLIST_LK_NS(caslist__batch_move_head_n)
#define caslist_batch_flush CASLIST_LK_NS(caslist__batch_flush)
#define caslist_batch_cancel CASLIST_LK_NS(caslist__batch_cancel)
#endif /* CASLIST_INLINE */

/* ---- walking a list: the restart on CASLIST_EAGAIN done for you ------ */

/** caslist_iter_step - caslist_iter_next that restarts the walk from the
 * head when it returns CASLIST_EAGAIN (the cursor's node was removed, or
 * moved to another list): returns true with *@cur on the next node, false
 * at the end of @l.  After a restart the walk sees again nodes it has
 * already seen.  The guarantees are caslist_iter_next's (doc/protocol.md,
 * "Traversal"): every node that stays on @l unmoved for the whole walk is
 * seen, unless the cursor's node is moved within @l between two steps;
 * a walk whose cursor keeps being removed may not end, so bound it. */
static inline bool caslist_iter_step(const struct caslist_list *l, struct caslist_node **cur)
{
	for (;;) {
		int rc = caslist_iter_next(l, cur);

		if (rc != CASLIST_EAGAIN)
			return rc == 1;
		*cur = CASLIST_LK_UNCONST(struct caslist_node *, &l->head); /* the walk starts over */
	}
}

/** caslist_iter_after - the node after @n on @l, or NULL at the end:
 * caslist_iter_step from a cursor on @n (so, when @n has left @l, the
 * first node of a walk restarted from the head).  The step of
 * caslist_for_each_entry_safe. */
static inline struct caslist_node *caslist_iter_after(const struct caslist_list *l,
						      const struct caslist_node *n)
{
	struct caslist_node *cur = CASLIST_LK_UNCONST(struct caslist_node *, n);

	return caslist_iter_step(l, &cur) ? cur : NULL;
}

/*
 * caslist_for_each(cur, l) - walk @l with the node cursor @cur (a
 * struct caslist_node * variable), restarting on CASLIST_EAGAIN:
 *     struct caslist_node *cur;
 *     caslist_for_each(cur, &lru) use(caslist_entry(cur, struct obj, lru));
 * caslist_for_each_entry(obj, cur, l, member) - the same, with @obj (a
 * pointer to the type that embeds the node as @member) set to each
 * node's object.  Like liburcu's cds_list_for_each_entry(pos, head,
 * member) with one more argument: the node cursor, because a cursor must
 * be able to stand on the list's head (at the start, and after a
 * restart), which is no object.  The body may break out at any time; it
 * must not free @cur's object (memory rule), and if it removes or moves
 * @obj's node the next step restarts the walk from the head.  See
 * caslist_iter_step for what the walk sees: after a restart it sees again
 * nodes it has already seen, so a body that must act once per node keeps
 * its own mark (or uses caslist_iter_next, which reports the restart).
 * caslist_for_each_entry_safe(obj, cur, l, member) - the same walk with
 * the cursor one node ahead: @cur is already on the node after @obj's
 * when the body runs, so the body may remove @obj's node (caslist_del,
 * caslist_del_if_linked, caslist_move_head to another list) and the walk
 * goes on from there without a restart.  @obj is the node the walk
 * stepped onto before the previous body ran, so it may have left @l since
 * (as any walk's node may, the moment after its step).  The walk restarts
 * from the head only if @cur's node - the next one - leaves @l before the
 * walk steps from it (another thread, or the body removing it).  A body that re-adds @obj's node
 * further on (caslist_add_tail) meets it again: bound such a walk.
 * caslist_for_each_entry_continue(obj, cur, l, member) - go on with a
 * walk from @cur (a node of @l reached by an earlier walk, or &l->head),
 * starting at the node after it; if @cur's node has left @l meanwhile,
 * from the head.
 * There is no reverse walk: only the next words are locked; a node's
 * prev word is a hint that a walk cannot validate without taking the
 * lock of the link before it (caslist_link_lock_prev), so a backward
 * walk could step onto a removed or recycled node and miss nodes that
 * never moved.  Walk forward, or take the tail with caslist_pop_tail.
 */
#define caslist_for_each(cur, l)                                               \
	for ((cur) = &(l)->head; caslist_iter_step((l), &(cur));)
#define caslist_for_each_entry(obj, cur, l, member)                            \
	for ((cur) = &(l)->head;                                               \
	     caslist_iter_step((l), &(cur)) &&                                 \
	     ((obj) = caslist_entry((cur), __typeof__(*(obj)), member), 1);)
#define caslist_for_each_entry_safe(obj, cur, l, member)                       \
	for ((cur) = caslist_iter_after((l), &(l)->head);                      \
	     (cur) != NULL &&                                                  \
	     ((obj) = caslist_entry((cur), __typeof__(*(obj)), member),       \
	      (cur) = caslist_iter_after((l), (cur)), 1);)
#define caslist_for_each_entry_continue(obj, cur, l, member)                   \
	for (; caslist_iter_step((l), &(cur)) &&                               \
	       ((obj) = caslist_entry((cur), __typeof__(*(obj)), member), 1);)

#endif /* CASLIST_LIST_H */
