/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/cli.c - the command line: options, lists, sizes, and
 * the checks that reject what the zone cannot serve.  A bad argument
 * prints "pagepool: <what is wrong> (try pagepool --help)" and exits 2
 * (examples/common/cli.h, shared with lrucache).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "driver.h"

struct pp_opts pp_opt;
size_t pp_arena_pages;

static void usage(FILE *f)
{
	fputs("usage: pagepool run [options]     (pagepool --help: this text)\n"
	      "  --workload LIST  comma list of page_fault1, parallel_free, highalloc, mixed,\n"
	      "                   or all (default page_fault1)\n"
	      "  --mode LIST      comma list of base, nomerge, cluster, clusterfree, caslist,\n"
	      "                   or all (default all)\n"
	      "  --threads LIST   comma list of worker counts, 1..4096, at most 32 of them\n"
	      "                   (default 1,2)\n"
	      "  --seconds S      measured time per point, 0 < S <= 3600 (default 1)\n"
	      "  --rounds N       runs of every point, modes alternated, 1..100 (default 1)\n"
	      "  --mem SIZE       the zone: bytes, K, M or G, 4M (one order-10 block)..1024G,\n"
	      "                   rounded down to whole blocks (default 1G)\n"
	      "  --chunk SIZE     page_fault1: bytes each worker allocates per loop, 4K..1024G,\n"
	      "                   cut down to fit the zone (default 128M)\n"
	      "  --batch N        per-thread cache: pages per refill or return, 1..4096\n"
	      "                   (default 63)\n"
	      "  --high N         per-thread cache: pages held at most, --batch..1048576\n"
	      "                   (default 6 x batch)\n"
	      "  --stash PAGES    caslist mode: pages in each thread's stash, 0..16777216\n"
	      "                   (default one chunk, at most a quarter of the zone in all)\n"
	      "  --delays LIST    highalloc: comma list of ms between order-9 attempts,\n"
	      "                   0..10000 (default 100,1)\n"
	      "  --attempts N     highalloc: order-9 attempts per delay, 1..100000 (default 20)\n"
	      "  --churn PCT      highalloc: percent of the zone the churn threads hold, 0..90\n"
	      "                   (default 30)\n"
	      "  --wmark PCT      skip modes: merge a full pageblock on free while fewer than\n"
	      "                   PCT percent of the pages are in order >= 9 blocks, 0..100\n"
	      "                   (default 12)\n"
	      "  --merge-ms MS    skip modes: background merger period, 0 (off)..10000\n"
	      "                   (default 10)\n"
	      "  --chaos MS       a thread making random order 1..10 allocations and a\n"
	      "                   compaction every MS ms, 1..10000 (default off)\n"
	      "  --seed N         random seed, 0..18446744073709551615 (default 1)\n"
	      "  --pin[=spread|shared]  spread: worker i on the i-th allowed CPU; shared:\n"
	      "                   every worker on the first one (default: not pinned)\n"
	      "  --json           JSON lines instead of the tables\n"
	      "  --quiet          no progress lines\n"
	      "  --help           this text\n"
	      "Exit status: 0 every point passed its audit, 1 an audit or the run failed,\n"
	      "2 a bad command line; a broken invariant aborts.\n",
	      f);
}

/* A comma list of counts in [lo, hi] into out[0..MAX_LIST-1]. */
static unsigned uint_list(const struct cli *c, const char *opt, const char *v, unsigned *out,
			  int lo, int hi)
{
	int tmp[MAX_LIST];
	int n = cli_int_list(c, opt, v, tmp, MAX_LIST, lo, hi);

	for (int i = 0; i < n; i++)
		out[i] = (unsigned)tmp[i];
	return (unsigned)n;
}

struct names {
	const char *opt, *what;
	const char *const *names;
	int n;
	unsigned mask;
};

static void name_item(const struct cli *c, const char *tok, void *ctx)
{
	struct names *l = ctx;
	char all[160] = "";

	if (strcmp(tok, "all") == 0) {
		l->mask = (1u << l->n) - 1;
		return;
	}
	for (int i = 0; i < l->n; i++)
		if (strcmp(tok, l->names[i]) == 0) {
			l->mask |= 1u << i;
			return;
		}
	for (int i = 0; i < l->n; i++) {
		strcat(all, l->names[i]);
		strcat(all, ", ");
	}
	cli_bad(c, "%s: unknown %s '%s' (one of %sall)", l->opt, l->what, tok, all);
}

static unsigned name_list(const struct cli *c, const char *opt, const char *what, const char *v,
			  const char *const *names, int n)
{
	struct names l = { opt, what, names, n, 0 };

	cli_list(c, opt, v, name_item, &l);
	return l.mask;
}

enum {
	O_WORKLOAD, O_MODE, O_THREADS, O_SECONDS, O_MEM, O_CHUNK, O_BATCH, O_HIGH, O_DELAYS,
	O_ATTEMPTS, O_CHURN, O_WMARK, O_CHAOS, O_SEED, O_JSON, O_QUIET, O_MERGE_MS, O_HELP,
	O_ROUNDS, O_STASH, O_PIN,
};

/* --pin's words, in the order of enum pin_mode from PIN_SPREAD */
static const char *const pins[] = { "spread", "shared" };

static const struct cli_opt opts[] = {
	[O_WORKLOAD] = { "--workload", CLI_VALUE }, [O_MODE] = { "--mode", CLI_VALUE },
	[O_THREADS] = { "--threads", CLI_VALUE },   [O_SECONDS] = { "--seconds", CLI_VALUE },
	[O_MEM] = { "--mem", CLI_VALUE },	    [O_CHUNK] = { "--chunk", CLI_VALUE },
	[O_BATCH] = { "--batch", CLI_VALUE },	    [O_HIGH] = { "--high", CLI_VALUE },
	[O_DELAYS] = { "--delays", CLI_VALUE },	    [O_ATTEMPTS] = { "--attempts", CLI_VALUE },
	[O_CHURN] = { "--churn", CLI_VALUE },	    [O_WMARK] = { "--wmark", CLI_VALUE },
	[O_CHAOS] = { "--chaos", CLI_VALUE },	    [O_SEED] = { "--seed", CLI_VALUE },
	[O_JSON] = { "--json", CLI_FLAG },	    [O_QUIET] = { "--quiet", CLI_FLAG },
	[O_MERGE_MS] = { "--merge-ms", CLI_VALUE }, [O_HELP] = { "--help", CLI_FLAG },
	[O_ROUNDS] = { "--rounds", CLI_VALUE },	    [O_STASH] = { "--stash", CLI_VALUE },
	[O_PIN] = { "--pin", CLI_OPTIONAL },	    { NULL, CLI_FLAG },
};

/* 1024G; 2G where size_t has 32 bits (no 32-bit process maps more) */
#if SIZE_MAX >> 31 >> 9
#define SIZE_MAX_ARG ((size_t)1 << 40)
#else
#define SIZE_MAX_ARG ((size_t)1 << 31)
#endif
#define PP_BLOCK_BYTES ((size_t)PP_PAGE_SIZE << PP_MAX_ORDER)	/* 4M: one order-10 block */

void cli_parse(int argc, char **argv)
{
	struct cli c;
	const char *v;
	int o;

	pp_opt = (struct pp_opts){ .wl_mask = 1u << W_PF1, .mode_mask = (1u << PP_NMODES) - 1,
				   .threads = { 1, 2 }, .nthreads = 2, .delays = { 100, 1 },
				   .ndelays = 2, .seconds = 1.0, .mem = (size_t)1 << 30,
				   .chunk = (size_t)128 << 20, .batch = 63, .high = 0,
				   .attempts = 20, .churn_pct = 30, .wmark_pct = 12, .merge_ms = 10,
				   .seed = 1, .rounds = 1, .stash = -1, .pin = PIN_NONE };
	cli_command(&c, "pagepool", argc, argv, "run", usage);
	while ((o = cli_next(&c, opts, &v)) >= 0) {
		const char *a = opts[o].name;

		switch (o) {
		case O_WORKLOAD:
			pp_opt.wl_mask = name_list(&c, a, "workload", v, pp_wl_name, W_N);
			break;
		case O_MODE:
			pp_opt.mode_mask = name_list(&c, a, "mode", v, pp_mode_name, PP_NMODES);
			break;
		case O_THREADS: pp_opt.nthreads = uint_list(&c, a, v, pp_opt.threads, 1, 4096); break;
		case O_DELAYS: pp_opt.ndelays = uint_list(&c, a, v, pp_opt.delays, 0, 10000); break;
		case O_SECONDS: pp_opt.seconds = cli_double(&c, a, v, 0, 3600, 1); break;
		case O_MEM: pp_opt.mem = cli_size(&c, a, v, PP_BLOCK_BYTES, SIZE_MAX_ARG); break;
		case O_CHUNK: pp_opt.chunk = cli_size(&c, a, v, PP_PAGE_SIZE, SIZE_MAX_ARG); break;
		case O_BATCH: pp_opt.batch = (unsigned)cli_int(&c, a, v, 1, 4096); break;
		case O_HIGH: pp_opt.high = (unsigned)cli_int(&c, a, v, 1, 1 << 20); break;
		case O_ATTEMPTS: pp_opt.attempts = (unsigned)cli_int(&c, a, v, 1, 100000); break;
		case O_CHURN: pp_opt.churn_pct = (unsigned)cli_int(&c, a, v, 0, 90); break;
		case O_WMARK: pp_opt.wmark_pct = (unsigned)cli_int(&c, a, v, 0, 100); break;
		case O_MERGE_MS: pp_opt.merge_ms = (unsigned)cli_int(&c, a, v, 0, 10000); break;
		case O_CHAOS: pp_opt.chaos_ms = (unsigned)cli_int(&c, a, v, 1, 10000); break;
		case O_SEED: pp_opt.seed = cli_u64(&c, a, v); break;
		case O_ROUNDS: pp_opt.rounds = (unsigned)cli_int(&c, a, v, 1, 100); break;
		case O_STASH: pp_opt.stash = (long)cli_int(&c, a, v, 0, 1 << 24); break;
		case O_PIN:
			pp_opt.pin = !v ? PIN_SPREAD
				     : (enum pin_mode)(PIN_SPREAD + cli_choice(&c, a, v, pins, 2));
			break;
		case O_JSON: pp_opt.json = true; break;
		case O_QUIET: pp_opt.quiet = true; break;
		case O_HELP: usage(stdout); exit(0);
		}
	}
	if (!pp_opt.high)
		pp_opt.high = 6 * pp_opt.batch;
	if (pp_opt.high < pp_opt.batch)
		cli_bad(&c, "--high (%u) must be at least --batch (%u)", pp_opt.high, pp_opt.batch);
	/* --mem >= one block: whole order-10 blocks, at least one */
	pp_arena_pages = pp_opt.mem / PP_BLOCK_BYTES * ((size_t)1 << PP_MAX_ORDER);
	for (unsigned i = 0; i < pp_opt.nthreads; i++)
		if ((size_t)pp_opt.threads[i] * (pp_opt.high + pp_opt.batch + 1) > pp_arena_pages)
			cli_bad(&c, "--threads %u: more threads than the %zu pages can serve (each cache holds up to %u)",
				pp_opt.threads[i], pp_arena_pages, pp_opt.high + pp_opt.batch);
}
