/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/peer.h - the interface every part of bench/listbench shares:
 * libcaslist against peers, in one binary and one run, through Google
 * Benchmark (bench/cbench.h).  doc/bench.md describes the workloads, the
 * peers, the options and the checks.
 *
 * Every implementation works on the same node array (one 64-byte node per
 * cache line, as an object with a payload) and is called through the same
 * table of function pointers (struct peer), so each pays the same indirect
 * call.  The parts:
 *   peer_caslist.c  libcaslist: the list, and the cluster free list for
 *                   splice_cut and fl_put (caslist, caslist_cache)
 *   peer_locked.c   the plain list (examples/common/dlist.h), built once
 *                   per lock by peer_plain.c (no lock: the floor, 1
 *                   thread only), peer_mutex.c, peer_spin.c (pthread),
 *                   peer_ticket.c, peer_mcs.c (Concurrency Kit)
 *   peer_urcu.c     liburcu's cds_list, updates serialised by a mutex (as
 *                   liburcu requires of list updaters)
 *   peer_xlock.c    a list of libcaslist's family (HAProxy mt_list's
 *                   algorithm, written here): exchange-locked words, no
 *                   waiting while holding (issue 23's same-family peer)
 *   peer_stacks.c   ck_stack push/pop_mpmc and liburcu's lfstack (the
 *                   stack workload only)
 *   peer_floor.c    the floor of bench/floor.h: one CAS per word the
 *                   protocol locks and the unlocking stores, nothing else
 *                   (rotate, del_head, lruvec; 1 thread only; issue 31)
 *   workload.c      the workloads, the per-run setup and end-of-run check,
 *                   the run limit ("too slow"); the control workload alone
 *                   and its pseudo-peer none (no list: the machine's own
 *                   fairness, against which a list's is read)
 *   runstat.c       each run's per-operation latency and per-thread share
 *                   of the operations (the lat_* and share counters)
 *   latency.c       the latency histogram (latency.h)
 *   ticks.c         the clock (ticks.h: rdtsc, calibrated to ns)
 *   listbench.c     the command line, the report's context, registration
 */
#ifndef CASLIST_BENCH_LISTBENCH_H
#define CASLIST_BENCH_LISTBENCH_H

#include <stddef.h>
#include <stdint.h>

#include <caslist/caslist.h>

#include <ck_stack.h>
#include <urcu/lfstack.h>
#include <urcu/list.h>

#include "cbench.h"
#include "common/dlist.h"
#include "floor.h"
#include "ticks.h"

#if defined(__SANITIZE_THREAD__)
#define LISTBENCH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LISTBENCH_TSAN 1
#endif
#endif

/* Keep the shared words of each structure on lines of their own. */
#define LINE __attribute__((aligned(64)))

/* ---- the node: one cache line, whatever the implementation ---------- */

struct plink {			/* the plain list's links (peer_locked.c) */
	struct dlist d;
	int linked;
};

struct bnode {
	union {
		struct caslist_fl_node fl;	/* fl.link: the caslist node */
		struct plink p;
		struct cds_list_head u;
		struct ck_stack_entry s;
		struct cds_lfs_node l;
		struct floor_link f;	/* laid out as fl.link */
	};
	/* lruvec: on the active list (a hint, written by whoever links the
	 * node; hits read it to skip nodes already active, as PG_active) */
	_Atomic unsigned char lv_active;
} __attribute__((aligned(64)));

/* The caslist node of a bnode, and back. */
static inline struct caslist_node *bnode_cas(struct bnode *n)
{
	return &n->fl.link;
}

static inline struct bnode *bnode_of_cas(struct caslist_node *c)
{
	return caslist_entry(caslist_entry(c, struct caslist_fl_node, link), struct bnode, fl);
}

/* ---- an implementation: libcaslist or a peer ------------------------- */

struct peer {
	const char *name;
	int tsan_ok;		/* its synchronisation is visible to TSan */
	int variant;		/* a libcaslist variant: no "unsupported" rows */
	int one_thread;		/* no synchronisation: run at 1 thread only */
	const char *why;	/* what it lacks, for "unsupported" rows */
	void (*global_init)(void);			/* once, before any run */
	void (*init)(size_t fl_batch, size_t nodes);	/* empty structure */
	void (*node_init)(struct bnode *n);	/* a detached node (default:
						   caslist_node_init) */
	void (*add_head)(struct bnode *n);
	void (*add_tail)(struct bnode *n);
	struct bnode *(*pop_head)(void);
	struct bnode *(*pop_tail)(void);
	int (*add_after)(struct bnode *pos, struct bnode *n);	/* 0, or -1: pos unlinked */
	int (*add_near)(struct bnode *pos, struct bnode *n);	/* same */
	void (*del)(struct bnode *n);
	int (*del_if_linked)(struct bnode *n);			/* 1 if this call removed it */
	void (*move_head)(struct bnode *n);
	/* v[0..k-1] (k <= 16) to the head as one batch: each one that is
	 * linked is taken out, then all go in at the head with one lock (or,
	 * for caslist, one head-link lock: caslist_batch_*) */
	void (*batch_move_head)(struct bnode **v, size_t k);
	void (*put_batch)(struct bnode **v, size_t k);		/* v[0..k-1] -> one chain */
	size_t (*take)(size_t want, struct bnode **out, size_t cap);
	void (*put1)(struct bnode *n);
	void (*put_flush)(void);
	/* lruvec, the kernel's per-node LRU: two lists, inactive and active
	 * (the lock peers take one lock for both, as lru_lock, once per call) */
	void (*lv_add)(struct bnode **v, size_t k);	/* k new nodes, inactive head */
	void (*lv_activate)(struct bnode **v, size_t k); /* those on inactive -> active head */
	size_t (*lv_isolate)(struct bnode **out, size_t k); /* up to k off the inactive tail */
	void (*lv_putback)(struct bnode **v, size_t k);	/* kept ones -> active head */
	size_t (*lv_demote)(size_t k);	/* up to k: active tail -> inactive head */
	int (*lv_free)(struct bnode *n);	/* 1 if this call removed it */
	uint64_t (*lv_wait)(void);	/* this thread's lock-wait ticks (peers) */
	/* quiescent: node count (every list), or -1 with *err set */
	long (*count)(size_t max, const char **err);
};

extern const struct peer peer_caslist, peer_caslist_cache, peer_plain, peer_mutex, peer_spin,
	peer_ticket, peer_mcs, peer_urcu, peer_ck_stack, peer_lfstack, peer_xlock, peer_floor;
/* "none": no list, the pseudo-peer of the control workload alone (workload.c) */
extern const struct peer peer_none;

/* ---- workload.c ---- */

enum kind { LRU_SLICE, LRU_ALL, LRU_READ, LRU_BATCH, LRUVEC, DEL_HEAD, QUEUE, STACK,
	    DEL_DISJOINT, DEL_OVERLAP, ADD_NEAR, SPLICE_CUT, FL_PUT, ALONE };

struct workload {
	const char *name;
	enum kind kind;
	const char *what;	/* one iteration, for the report's context */
	int64_t args[8], quick[8];	/* 0-terminated */
	unsigned batch;		/* iterations per keep_running_batch */
	int64_t cold[8];	/* listbench --cold: the lists beyond the caches (0-terminated) */
};

extern const struct workload workloads[];
extern const size_t nworkloads;

/* One registered benchmark: a workload on an implementation. */
struct spec {
	const struct workload *w;
	const struct peer *im;
	char why[160];		/* non-empty: report this instead of running */
	int slow_at;		/* stopped as too slow at this many threads */
};

/* Can im run w's operations? */
int supports(const struct workload *w, const struct peer *im);
/* The benchmark body (cbench_register's fn; user: the struct spec). */
void body(cbench_state *s, void *user);
/* Start the run-limit watchdog thread: 0, or -1. */
int run_limit_start(double seconds);
/* Runs that failed their end-of-run check. */
int failed_runs(void);
/* --plant-bug=lost-node: one popped node of caslist's queue is dropped. */
void plant_lost_node(void);

#endif /* CASLIST_BENCH_LISTBENCH_H */
