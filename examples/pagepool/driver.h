/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/driver.h - what the driver's files share: the options
 * (cli.c), the worker threads (workers.c), the measured points and rounds
 * (points.c), the machine conditions (cond.c) and the tables (report.c).
 * The zone itself is behind zone.h; nothing here reaches inside it.
 */
#ifndef PAGEPOOL_DRIVER_H
#define PAGEPOOL_DRIVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/rng.h"
#include "common/sysload.h"
#include "zone.h"

enum { W_PF1, W_PFREE, W_HIGH, W_MIXED, W_N };
extern const char *const pp_wl_name[W_N];

#define MAX_LIST 32

enum pin_mode { PIN_NONE, PIN_SPREAD, PIN_SHARED };

struct pp_opts {
	unsigned wl_mask, mode_mask;
	unsigned threads[MAX_LIST], nthreads;
	unsigned delays[MAX_LIST], ndelays;
	double seconds;
	size_t mem, chunk;
	unsigned batch, high, attempts, churn_pct, wmark_pct, chaos_ms, merge_ms;
	unsigned rounds;		/* alternated rounds per point */
	long stash;			/* pages per thread stash; -1: default */
	enum pin_mode pin;
	uint64_t seed;
	bool json, quiet;
};

extern struct pp_opts pp_opt;
extern unsigned char *pp_arena;
extern size_t pp_arena_pages;

/* cli.c */
void cli_parse(int argc, char **argv);

/* The machine's conditions over a stretch of runs (cond.c). */
struct pp_cond {
	double load_before, load_after;	/* 1-minute load average */
	double others;			/* other processes' share of all CPU time */
	double steal;			/* share stolen by the hypervisor */
	double pingpong_ns[3];		/* cross-CPU round trip: min, median, max; 0: n/a */
	struct sysload_mark mark;	/* at cond_begin */
};
void cond_init(void);			/* once, before any thread is pinned */
void cond_begin(struct pp_cond *c);
void cond_end(struct pp_cond *c);
void cond_print(const struct pp_cond *c);
/* Pin the calling thread to the @i-th CPU it may run on (mod their count). */
void pin_self(unsigned i);
/* CPU time of the calling thread, ns. */
uint64_t thread_cpu_ns(void);

/* One measured run: a (workload, mode, threads, delay) point in one round. */
struct result {
	int wl, mode;
	unsigned threads, delay_ms, round;
	uint64_t pages, pages2;		/* order-0 pages; mixed: THP pages */
	uint64_t wall_ns;		/* the measured interval */
	uint64_t cpu_ns;		/* the workers' CPU time in it */
	double rate;			/* pages / wall (order 0) */
	double rate2;			/* mixed: THP pages/s; parallel_free: ms/round */
	double wait;			/* zone-lock wait / thread time */
	double success, lat_us;		/* highalloc */
	double fallback;		/* mixed: THP attempts that fell back to order 0 */
	uint64_t compactions, merged, pb_merges, ooms;
	size_t chunk;
};

/* A group of points measured together (one table): conditions around it. */
struct group {
	int wl;
	unsigned threads, delay_ms;
	struct pp_cond cond;
};

extern struct result *pp_results;
extern size_t pp_nresults;
extern struct group *pp_groups;
extern size_t pp_ngroups;

/* ---- worker threads (workers.c) ---- */

struct run;

struct worker {
	struct pp_cpu cpu;
	struct run *r;
	unsigned idx;
	int kind;			/* mixed: 0 order-0, 1 THP */
	uint64_t pages, pages2, attempts, fallbacks, ooms;
	uint64_t t0, ns, cpu_ns;	/* start, wall and CPU time of its loop */
	struct pp_page **arr;
	size_t narr;
	pthread_t th;
} __attribute__((aligned(64)));

struct run {
	struct pp_zone z;
	int wl;
	unsigned nworkers;
	struct worker *w;		/* nworkers + 1 (the extra one: main) */
	struct worker chaos;
	pthread_barrier_t start;
	_Atomic(bool) stop;
	size_t chunk;			/* pages per page_fault1 loop */
	uint64_t t_start, t_end;	/* the measured interval: first worker
					 * started, last worker finished */
};

static inline bool stopped(struct run *r)
{
	/* relaxed: a flag polled between pages; nothing is published by it
	 * (results are read after pthread_join). */
	return atomic_load_explicit(&r->stop, memory_order_relaxed);
}

static inline void run_stop(struct run *r)
{
	/* relaxed: see stopped(). */
	atomic_store_explicit(&r->stop, true, memory_order_relaxed);
}

void touch(struct pp_zone *z, struct pp_page *p, size_t npages, uint32_t tag);
void verify(struct pp_zone *z, struct pp_page *p, uint32_t tag);
void run_setup(struct run *r, int wl, int mode, unsigned nworkers, size_t stash);
void threads_start(struct run *r);
void threads_join(struct run *r);
/* Start, run for @seconds (0: until the workers finish), join; returns
 * the wall time of the measured interval in ns. */
uint64_t run_threads(struct run *r, double seconds);
void sum_stats(struct run *r, struct result *res, double *wait_ns, double *thread_ns);
void run_finish(struct run *r, const char *what);
struct pp_page **page_array(size_t n);

/* ---- points (points.c) and the report (report.c) ---- */

void points_run_all(void);
void report_tables(void);
void report_json(void);

#endif /* PAGEPOOL_DRIVER_H */
