/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/shape.c - the memory traffic of a list operation with no list: how
 * fast can any design go that does R atomic read-modify-writes on random
 * cache lines per operation (and one on a line every thread shares, every
 * H operations), on this machine, at T threads?  No lock and no list, so
 * nothing favours one thread over another: the threads' split of the
 * operations is the machine's own, and the rate is a ceiling for every
 * design whose operation needs those RMWs (doc/cost.md, "Batches";
 * doc/notebook.md, "Not kept: a lease for the thread that falls behind").
 *
 * Each operation: R acq_rel fetch_adds on lines drawn at random (xorshift,
 * per thread) from an array of LINES 64-byte lines, then, every H
 * operations (H = 0: never), one on the shared line.  T threads start
 * together and stop after S seconds; one line is printed:
 *
 *   shape lines=4096 rmw=2 shared_every=16 threads=2 seconds=0.50: 55.31 M ops/s, fair 0.92
 *
 * fair = the fewest operations any thread did / the most.  A timing tool,
 * so never run by a test except for its form (bench/shape-test.sh); built
 * by make check (check_PROGRAMS), run from the build tree.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/cli.h"

struct line {
	_Atomic uint64_t w;
	char pad[64 - sizeof(uint64_t)];
};

struct worker {
	pthread_t tid;
	uint64_t ops;
	uint64_t rng;
} __attribute__((aligned(64)));

static struct line *lines;
static struct line shared __attribute__((aligned(64)));
static unsigned nlines, rmw, every;
static _Atomic int go, stop;

static void *run(void *arg)
{
	struct worker *w = arg;
	uint64_t x = w->rng, n = 0;

	/* Relaxed: a start and a stop flag; nothing is published with them
	 * (the counts are read after pthread_join). */
	while (!atomic_load_explicit(&go, memory_order_relaxed))
		;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (unsigned r = 0; r < rmw; r++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* acq_rel, as a lock's CAS: the RMW under test. */
			atomic_fetch_add_explicit(&lines[x % nlines].w, 1, memory_order_acq_rel);
		}
		n++;
		if (every && n % every == 0)
			atomic_fetch_add_explicit(&shared.w, 1, memory_order_acq_rel);
	}
	w->ops = n;
	return NULL;
}

static void usage(FILE *f)
{
	fputs("usage: shape [--lines=N] [--rmw=R] [--shared-every=H] [--threads=T] [--seconds=S]\n"
	      "The rate of R atomic RMWs on random 64-byte lines of N per operation (and one\n"
	      "on a shared line every H operations; 0: never) at T threads, with no list and\n"
	      "no lock: a ceiling for any list whose operation needs those RMWs.\n"
	      "  --lines=N         lines to draw from, in [1, 16777216] (default 4096)\n"
	      "  --rmw=R           random-line RMWs per operation, in [0, 16] (default 2)\n"
	      "  --shared-every=H  one RMW on the shared line every H operations,\n"
	      "                    in [0, 1000000] (default 16)\n"
	      "  --threads=T       in [1, 256] (default 2)\n"
	      "  --seconds=S       in (0, 60] (default 0.5)\n"
	      "Prints: shape lines=N rmw=R shared_every=H threads=T seconds=S: M M ops/s, fair F\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{ "--lines", CLI_VALUE }, { "--rmw", CLI_VALUE }, { "--shared-every", CLI_VALUE },
		{ "--threads", CLI_VALUE }, { "--seconds", CLI_VALUE }, { "--help", CLI_FLAG },
		{ NULL, 0 },
	};
	unsigned threads = 2;
	double seconds = 0.5;
	struct worker *w;
	struct timespec ts;
	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
	struct cli c;
	const char *v;
	int o;

	nlines = 4096;
	rmw = 2;
	every = 16;
	cli_init(&c, "shape", argc, argv, 1);
	while ((o = cli_next(&c, opts, &v)) >= 0) {
		switch (o) {
		case 0: nlines = (unsigned)cli_int(&c, "--lines", v, 1, 16777216); break;
		case 1: rmw = (unsigned)cli_int(&c, "--rmw", v, 0, 16); break;
		case 2: every = (unsigned)cli_int(&c, "--shared-every", v, 0, 1000000); break;
		case 3: threads = (unsigned)cli_int(&c, "--threads", v, 1, 256); break;
		case 4: seconds = cli_double(&c, "--seconds", v, 0, 60, 1); break;
		default: usage(stdout); return 0;
		}
	}
	lines = aligned_alloc(64, (size_t)nlines * sizeof(*lines));
	w = aligned_alloc(64, threads * sizeof(*w));
	if (lines == NULL || w == NULL) {
		fputs("shape: out of memory\n", stderr);
		return 1;
	}
	for (unsigned i = 0; i < nlines; i++)
		atomic_init(&lines[i].w, 0);
	for (unsigned t = 0; t < threads; t++) {
		w[t].ops = 0;
		w[t].rng = 0x9e3779b97f4a7c15ULL * (t + 1);
		if (pthread_create(&w[t].tid, NULL, run, &w[t]) != 0) {
			fputs("shape: cannot create a thread\n", stderr);
			return 1;
		}
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	atomic_store_explicit(&go, 1, memory_order_relaxed);
	nanosleep(&ts, NULL);
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
	for (unsigned t = 0; t < threads; t++) {
		pthread_join(w[t].tid, NULL);
		sum += w[t].ops;
		lo = w[t].ops < lo ? w[t].ops : lo;
		hi = w[t].ops > hi ? w[t].ops : hi;
	}
	printf("shape lines=%u rmw=%u shared_every=%u threads=%u seconds=%.2f: %.2f M ops/s, "
	       "fair %.2f\n", nlines, rmw, every, threads, seconds, (double)sum / seconds / 1e6,
	       hi ? (double)lo / (double)hi : 0.0);
	free(w);
	free(lines);
	return 0;
}
