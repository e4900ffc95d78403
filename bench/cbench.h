/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/cbench.h - a small C API over Google Benchmark (libbenchmark, C++).
 *
 * Google Benchmark has no C API, and <caslist/list.h> cannot be included
 * from C++ (C11 _Atomic in its structs), so benchmark bodies are C
 * functions registered through this header; bench/cbench.cc is the thin
 * extern "C" shim that forwards every call to benchmark::State and
 * benchmark::internal::Benchmark.  To reuse it: copy cbench.h and
 * cbench.cc, build the .cc with a C++ compiler, link with
 * $(pkg-config --libs benchmark).  doc/bench.md has a worked example.
 *
 * A body runs once per thread per measurement run:
 *
 *	static void body(cbench_state *s, void *user)
 *	{
 *		// per-thread setup; thread 0 may set up shared state here:
 *		// every thread waits at a barrier inside the first keep_running
 *		while (cbench_keep_running_batch(s, 64))
 *			for (int i = 0; i < 64; i++)
 *				op(user);
 *		cbench_set_items_processed(s, cbench_iterations(s));
 *		// thread 0 runs after every thread's loop has ended
 *	}
 *
 * Facts that matter (measured, see doc/bench.md): an out-of-line
 * keep_running() costs about 1.3 ns per iteration, keep_running_batch(64)
 * with an inner loop about 0.17 ns: batch operations of a few ns.  Rates
 * divide by the summed CPU time of all threads unless real time is used:
 * use cbench_use_real_time() for scaling runs.  Iterations and counters
 * are summed over threads (unless CBENCH_AVG_THREADS).  Every thread must
 * call the keep_running loop, even after cbench_skip_with_error (the loop
 * then ends at once): the start and stop barriers live inside it.
 */
#ifndef CBENCH_H
#define CBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cbench_state cbench_state;	/* one thread's benchmark::State */
typedef struct cbench cbench;			/* a registered benchmark */
typedef void (*cbench_fn)(cbench_state *s, void *user);

/* ---- registration (before cbench_run); each returns @b for chaining ---- */

/** cbench_register - register @fn under @name; @user is passed to it. */
cbench *cbench_register(const char *name, cbench_fn fn, void *user);
cbench *cbench_arg(cbench *b, int64_t x);			/* one run per Arg */
cbench *cbench_args(cbench *b, const int64_t *x, size_t n);	/* one run, n args */
cbench *cbench_range(cbench *b, int64_t lo, int64_t hi);	/* lo, lo*8, ..., hi */
cbench *cbench_dense_range(cbench *b, int64_t lo, int64_t hi, int step);
cbench *cbench_arg_name(cbench *b, const char *name);
cbench *cbench_threads(cbench *b, int n);			/* run with n threads */
cbench *cbench_thread_range(cbench *b, int lo, int hi);	/* lo, 2lo, 4lo, ..., hi */
cbench *cbench_use_real_time(cbench *b);			/* rates over wall time */
cbench *cbench_min_time(cbench *b, double seconds);
cbench *cbench_iterations_fixed(cbench *b, int64_t n);	/* no estimation */
cbench *cbench_repetitions(cbench *b, int n);
/* unit of the console's time column: 'n' ns, 'u' us, 'm' ms, 's' s */
cbench *cbench_unit(cbench *b, char unit);

/* ---- inside a body ---------------------------------------------------- */

bool cbench_keep_running(cbench_state *s);
/** cbench_keep_running_batch - like keep_running, @n iterations at a time
 * (the last batch may overshoot; cbench_iterations counts what ran). */
bool cbench_keep_running_batch(cbench_state *s, uint64_t n);
int cbench_thread_index(const cbench_state *s);
int cbench_thread_count(const cbench_state *s);
int64_t cbench_range_arg(const cbench_state *s, size_t i);	/* the i-th Arg */
int64_t cbench_iterations(const cbench_state *s);	/* this thread's, so far */
/* the iterations every thread of this run does (the same for all): a
 * thread whose count reached it is in its last batch */
int64_t cbench_max_iterations(const cbench_state *s);
void cbench_pause(cbench_state *s);	/* PauseTiming (costly: not per op) */
void cbench_resume(cbench_state *s);
/** cbench_skip_with_error - mark this run failed with @msg (kept in the
 * report as error_occurred / error_message); the loop ends at once. */
void cbench_skip_with_error(cbench_state *s, const char *msg);
bool cbench_error_occurred(const cbench_state *s);
void cbench_set_items_processed(cbench_state *s, int64_t n);	/* items_per_second */
void cbench_set_bytes_processed(cbench_state *s, int64_t n);
void cbench_set_label(cbench_state *s, const char *label);

/* counter flags (benchmark::Counter::Flags) */
#define CBENCH_RATE 1u		/* divide by the run's time: a per-second rate */
#define CBENCH_AVG_THREADS 2u	/* average over threads instead of summing */
#define CBENCH_AVG_ITERATIONS 4u /* divide by the iteration count */
/** cbench_counter - set the user counter @name (summed over threads). */
void cbench_counter(cbench_state *s, const char *name, double value, unsigned flags);

/* ---- running ---------------------------------------------------------- */

/** cbench_initialize - parse and remove --benchmark_* flags from argv. */
void cbench_initialize(int *argc, char **argv);
/** cbench_report_unrecognized - print leftover arguments; true if any. */
bool cbench_report_unrecognized(int argc, char **argv);
/** cbench_add_context - a key/value line in the report's context (JSON
 * "context" object and the console header). */
void cbench_add_context(const char *key, const char *value);
/** cbench_set_pin - when on, each benchmark thread pins itself to CPU
 * (thread index mod the online CPUs) before its body runs. */
void cbench_set_pin(bool on);
/** cbench_num_cpus - online CPUs, as Google Benchmark counts them. */
int cbench_num_cpus(void);
/** cbench_run - run the benchmarks selected by --benchmark_filter; returns
 * how many ran. */
size_t cbench_run(void);
void cbench_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif /* CBENCH_H */
