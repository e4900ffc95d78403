/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/listbench.c - list operations per thread count, libcaslist against
 * peers, in one binary and one run, through Google Benchmark
 * (bench/cbench.h): the command line, the report's context, and the
 * registration of every (workload, size, implementation).  The parts are
 * listed in bench/peer.h; doc/bench.md describes it all.
 *
 * A peer that cannot do a workload's operations is still registered (at one
 * thread) and reported as "unsupported: <why>" (error_message in the JSON).
 * Under ThreadSanitizer the ck peers and lfstack report "not run under
 * TSan": their atomics are inline asm that TSan cannot see.
 *
 * A one-thread peer (plain, floor) is registered at every thread count and
 * reported as "unsupported: ... 1 thread only" above one thread.
 *
 * The control workload alone needs no list: it is registered once, under
 * the pseudo-peer none (alone/none/R), at every thread count, in the full
 * and --quick sets (not --cold: a control for the machine, not a list
 * size).  No other pairing of either is registered, not even as
 * "unsupported".  Its fair is the machine's own (bench/workload.c).
 *
 * Usage: listbench [--quick] [--cold] [--smoke[=N]] [--pin] [--threads=N[,N...]] [--max-threads=N]
 *                  [--run-limit=S] [--lat-every=N] [--benchmark_* flags of Google Benchmark]
 * Every value is checked (examples/common/cli.h: "listbench: ... (try
 * listbench --help)", exit 2); --help lists these options, --benchmark_help
 * Google Benchmark's.  bench/cli-test.sh tries each bad input.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "peer.h"
#include "runstat.h"

#ifdef LISTBENCH_TSAN
static const int under_tsan = 1;
#else
static const int under_tsan = 0;
#endif

#ifndef LISTBENCH_CFLAGS
#define LISTBENCH_CFLAGS "?"
#endif
#ifndef LISTBENCH_CC
#define LISTBENCH_CC "cc"
#endif

static const struct peer *const peers[] = {
	&peer_caslist, &peer_caslist_cache, &peer_xlock, &peer_plain, &peer_floor, &peer_mutex,
	&peer_spin, &peer_ticket, &peer_mcs, &peer_urcu, &peer_ck_stack, &peer_lfstack,
	&peer_none,
};
#define NPEERS (sizeof(peers) / sizeof(peers[0]))

/* --cold: the cold-list rows (issue 31): each workload's cold sizes, these
 * implementations only */
static const struct peer *const cold_peers[] = {
	&peer_caslist, &peer_xlock, &peer_spin, &peer_mutex, &peer_floor,
};

static int in_cold(const struct peer *im)
{
	for (size_t i = 0; i < sizeof(cold_peers) / sizeof(cold_peers[0]); i++)
		if (cold_peers[i] == im)
			return 1;
	return 0;
}


static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Is @re a regular expression?  (Google Benchmark prints its own line
 * "Could not compile benchmark re" and runs nothing; this names it.) */
static int regex_ok(const char *re)
{
	regex_t r;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
		return 0;
	regfree(&r);
	return 1;
}

static void usage(void)
{
	puts("usage: listbench [OPTION]... [--benchmark_*=VALUE]...\n"
	     "List operations per thread count, libcaslist against peers (doc/bench.md).\n"
	     "\n"
	     "listbench options:\n"
	     "  --quick          fewer sizes, min_time 0.02 s, run limit 0.3 s (make bench-quick)\n"
	     "  --cold           only the cold lists: lru_all, lruvec and del_head at 262144\n"
	     "                   and 1048576 nodes (64 MiB), caslist, xlock, spin, mutex and\n"
	     "                   floor (make bench-cold)\n"
	     "  --pin            pin benchmark thread i to CPU i mod the online CPUs\n"
	     "  --threads=L      run these thread counts too: a comma list of integers\n"
	     "                   in [1, 4096], e.g. 3,64,256\n"
	     "  --max-threads=N  cap the default counts 1, 2, 4, ...: an integer in\n"
	     "                   [1, 4096] (default: twice the online cores)\n"
	     "  --run-limit=S    end a run after S seconds as \"too slow\": a number in\n"
	     "                   (0, 86400] (default 2, quick 0.3, or 8 x min_time)\n"
	     "  --lat-every=N    time one iteration in N (on average) for the latency\n"
	     "                   percentiles: an integer in [0, 1000000], 0 = none (default 64)\n"
	     "  --smoke[=N]      N iterations per run, no estimation: the correctness\n"
	     "                   smoke test (bench/smoke.sh); N in [1, 1000000000], 2048\n"
	     "  --plant-bug=lost-node  drop one node of caslist's queue (the end-of-run\n"
	     "                   check must catch it: bench/smoke.sh)\n"
	     "  -h, --help       this text\n"
	     "\n"
	     "Google Benchmark options: see --benchmark_help\n"
	     "(e.g. --benchmark_filter=REGEX, --benchmark_list_tests=true,\n"
	     "--benchmark_min_time=S, --benchmark_out=FILE --benchmark_out_format=json)\n"
	     "A bad option prints \"listbench: <what is wrong> (try listbench --help)\" and exits 2.");
}

int main(int argc, char **argv)
{
	int counts[64], ncounts = 0, quick = 0, cold = 0, pin = 0, smoke = 0, maxt = -1, min_time_given = 0;
	double limit_s = -1;	/* default: 2 s, --quick 0.3 s */
	struct cli cl;
	int cores = (int)sysconf(_SC_NPROCESSORS_ONLN), oversub = 0;
	struct spec *specs;
	size_t nspecs = 0;
	char buf[512];
	double min_time = 0;
	int j = 1;
	size_t nrun;
	const char *filter = NULL;	/* --benchmark_filter's value */

	cli_init(&cl, "listbench", argc, argv, 1);
	/* Before Google Benchmark sees argv: our --help (its own is
	 * --benchmark_help), and --benchmark_min_time checked (1.7.1 takes
	 * a plain double and would read "abc" as 0). */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage();
			return 0;
		}
		if (strcmp(argv[i], "--benchmark_help") == 0) {
			char *gb[] = { argv[0], (char *)"--help", NULL };
			int gbc = 2;

			cbench_initialize(&gbc, gb);	/* prints its flags, exits */
			return 0;
		}
		if (strncmp(argv[i], "--benchmark_filter=", 19) == 0)
			filter = argv[i] + 19;
		if (strncmp(argv[i], "--benchmark_min_time=", 21) == 0) {
			min_time_given = 1;
			min_time = cli_double(&cl, "--benchmark_min_time", argv[i] + 21, 0, 86400, 1);
		}
	}
	cbench_initialize(&argc, argv);
	cli_init(&cl, "listbench", argc, argv, 1);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--quick") == 0) {
			quick = 1;
		} else if (strcmp(a, "--cold") == 0) {
			cold = 1;
		} else if (strcmp(a, "--pin") == 0) {
			pin = 1;
		} else if (strncmp(a, "--quick=", 8) == 0 || strncmp(a, "--pin=", 6) == 0 ||
			   strncmp(a, "--cold=", 7) == 0) {
			cli_bad(&cl, "%.*s takes no value", (int)(strchr(a, '=') - a), a);
		} else if (strncmp(a, "--max-threads=", 14) == 0) {
			maxt = (int)cli_int(&cl, "--max-threads", a + 14, 1, 4096);
		} else if (strncmp(a, "--threads=", 10) == 0) {
			ncounts += cli_int_list(&cl, "--threads", a + 10, counts + ncounts,
						32 - ncounts, 1, 4096);
		} else if (strcmp(a, "--smoke") == 0) {
			smoke = 2048;
		} else if (strncmp(a, "--smoke=", 8) == 0) {
			smoke = (int)cli_int(&cl, "--smoke", a + 8, 1, 1000000000);
		} else if (strncmp(a, "--lat-every=", 12) == 0) {
			runstat_every = (unsigned)cli_int(&cl, "--lat-every", a + 12, 0, 1000000);
		} else if (strncmp(a, "--run-limit=", 12) == 0) {
			limit_s = cli_double(&cl, "--run-limit", a + 12, 0, 86400, 1);
		} else if (strcmp(a, "--plant-bug=lost-node") == 0) {
			plant_lost_node();
		} else if (strncmp(a, "--plant-bug=", 12) == 0) {
			cli_bad(&cl, "--plant-bug: '%s' is not lost-node", a + 12);
		} else if (strcmp(a, "--max-threads") == 0 || strcmp(a, "--threads") == 0 ||
			   strcmp(a, "--run-limit") == 0 || strcmp(a, "--plant-bug") == 0 ||
			   strcmp(a, "--lat-every") == 0) {
			cli_bad(&cl, "%s needs a value: %s=VALUE", a, a);
		} else if (strncmp(a, "--benchmark_", 12) == 0) {
			/* left by Google Benchmark: unknown to it, or a bad value */
			cli_bad(&cl, "unknown or bad Google Benchmark flag '%s' (its flags: --benchmark_help)", a);
		} else if (a[0] == '-') {
			cli_bad(&cl, "unknown option '%s'", a);
		} else {
			cli_bad(&cl, "unexpected argument '%s'", a);
		}
	}
	if (cores < 1)
		cores = 1;
	if (limit_s <= 0)	/* generous against min_time: only pathologies hit it */
		limit_s = min_time * 8 > (quick ? 0.3 : 2.0) ? min_time * 8 : (quick ? 0.3 : 2.0);
	if (smoke > 0 && limit_s < 60)	/* a correctness run: let it finish */
		limit_s = 60;
	if (maxt < 1)
		maxt = 2 * cores;
	for (int t = 1; t <= maxt && ncounts < 64; t *= 2)
		counts[ncounts++] = t;
	qsort(counts, (size_t)ncounts, sizeof(int), cmp_int);
	j = 0;
	for (int i = 0; i < ncounts; i++)
		if (j == 0 || counts[i] != counts[j - 1])
			counts[j++] = counts[i];
	ncounts = j;
	for (int i = 0; i < ncounts; i++)
		oversub += counts[i] > cores;

	/* the report's context: what a reader needs to trust the ratios */
	snprintf(buf, sizeof(buf), "%d online", cores);
	cbench_add_context("cores", buf);
	cbench_add_context("compiler", LISTBENCH_CC " " __VERSION__);
	cbench_add_context("cflags", LISTBENCH_CFLAGS);
	cbench_add_context("libbenchmark",
			   "Debian libbenchmark 1.7.1: the shared library is a DEBUG build "
			   "(library_build_type); the timing loop is inlined into bench/cbench.cc");
	buf[0] = 0;
	for (int i = 0; i < ncounts; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "",
			 counts[i]);
	cbench_add_context("thread_counts", buf);
	if (oversub)
		snprintf(buf, sizeof(buf), "yes: %d of %d thread counts exceed %d cores", oversub,
			 ncounts, cores);
	else
		snprintf(buf, sizeof(buf), "no");
	cbench_add_context("oversubscribed", buf);
	cbench_add_context("pinned", pin ? "yes: thread i on CPU i mod cores" : "no");
	cbench_add_context("mode", cold ? (quick ? "cold, quick" : "cold") : quick ? "quick" : "full");
	if (smoke > 0)
		snprintf(buf, sizeof(buf), "yes: %d fixed iterations per run",
			 smoke);
	else
		snprintf(buf, sizeof(buf), "no");
	cbench_add_context("smoke", buf);
	cbench_add_context("sanitizer", under_tsan ? "thread (ck peers and lfstack not run)"
						   : "none");
	bench_ticks_calibrate();
	if (runstat_every)
		snprintf(buf, sizeof(buf),
			 "one iteration in %u timed (random gaps 1..%u), %s at %.3f GHz "
			 "(calibrated against CLOCK_MONOTONIC), resolution %.1f ns; an empty "
			 "timed interval measures %.1f ns (included, not subtracted)",
			 runstat_every, 2 * runstat_every - 1, bench_ticks_source(),
			 1 / bench_ns_per_tick(), bench_ticks_step_ns(), bench_ticks_overhead_ns());
	else
		snprintf(buf, sizeof(buf), "off (--lat-every=0)");
	cbench_add_context("latency", buf);
	cbench_add_context("shares", "each thread's iterations when the first thread finished "
				     "its own (fair = min/max; zero_threads: threads at 0)");
	snprintf(buf, sizeof(buf), "%zu bytes, one per cache line", sizeof(struct bnode));
	cbench_add_context("node", buf);
	for (size_t w = 0; w < nworkloads; w++) {
		snprintf(buf, sizeof(buf), "workload %s", workloads[w].name);
		cbench_add_context(buf, workloads[w].what);
	}
	cbench_set_pin(pin);
	for (size_t i = 0; i < NPEERS; i++)
		if (peers[i]->global_init)
			peers[i]->global_init();

	specs = calloc(nworkloads * 8 * NPEERS, sizeof(*specs));
	if (specs == NULL)
		return 2;
	for (size_t w = 0; w < nworkloads; w++) {
		const struct workload *wl = &workloads[w];
		const int64_t *args = cold ? wl->cold : quick ? wl->quick : wl->args;

		for (int a = 0; a < 8 && args[a]; a++) {
			for (size_t i = 0; i < NPEERS; i++) {
				const struct peer *im = peers[i];
				struct spec *sp = &specs[nspecs];
				int only1 = 0;
				cbench *b;

				if (cold && !in_cold(im))
					continue;
				if ((wl->kind == ALONE) != (im == &peer_none))
					continue;	/* the control: once, under none */

				if (!supports(wl, im)) {
					if (im->variant)
						continue;
					snprintf(sp->why, sizeof(sp->why), "unsupported: %s",
						 im->why ? im->why : "lacks the operation");
					only1 = 1;
				} else if (under_tsan && !im->tsan_ok) {
					snprintf(sp->why, sizeof(sp->why),
						 "not run under TSan: its atomics are inline asm "
						 "TSan cannot see");
					only1 = 1;
				}
				sp->w = wl;
				sp->im = im;
				nspecs++;
				snprintf(buf, sizeof(buf), "%s/%s", wl->name, im->name);
				b = cbench_register(buf, body, sp);
				cbench_arg(b, args[a]);
				cbench_use_real_time(b);
				if (wl->kind == SPLICE_CUT || wl->kind == FL_PUT)
					cbench_unit(b, 'u');
				if (smoke > 0)	/* one short run each: a correctness test */
					cbench_iterations_fixed(b, smoke);
				else if (!min_time_given)
					cbench_min_time(b, quick ? 0.02 : 0.25);
				for (int c = 0; c < ncounts && !(only1 && c > 0); c++)
					cbench_threads(b, only1 ? 1 : counts[c]);
			}
		}
	}
	if (run_limit_start(limit_s) != 0)
		return 2;
	nrun = cbench_run();
	cbench_shutdown();
	if (nrun == 0) {	/* a --benchmark_filter that selects nothing */
		if (filter && !regex_ok(filter))
			fprintf(stderr, "listbench: --benchmark_filter: '%s' is not a regular "
				"expression\n", filter);
		else
			fprintf(stderr, "listbench: --benchmark_filter: '%s' matches no benchmark "
				"(the names: --benchmark_list_tests=true)\n", filter ? filter : "");
		free(specs);
		return 2;
	}
	free(specs);
	if (failed_runs()) {
		fprintf(stderr, "listbench: %d run(s) FAILED their end-of-run check\n",
			failed_runs());
		return 1;
	}
	return 0;
}
