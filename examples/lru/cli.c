/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/cli.c - the command line of lrucache.  A bad argument
 * prints "lrucache: <what is wrong> (try lrucache --help)" and exits 2
 * (examples/common/cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "common/cli.h"

static void usage(FILE *f)
{
	fputs("usage: lrucache run --impl LIST --threads LIST (--seconds S | --ops N)\n"
	      "                    [--policy strict|lazy|batched] [--reclaim inline|thread]\n"
	      "                    [--zipf S] [--capacity N] [--get-ratio R]\n"
	      "                    [--value-size B] [--shards N] [--seed N] [--json]\n"
	      "                    [--retries N] [--max-disturbed F]\n"
	      "  --impl      comma list of index, mutex, caslist, sharded, or all\n"
	      "              (default mutex,caslist)\n"
	      "  --threads   comma list of thread counts, 1..1024 (default 1,2,64)\n"
	      "  --seconds   per (impl, threads) point, 0 < S <= 3600 (default 1)\n"
	      "  --ops       operations per thread instead of a timed run,\n"
	      "              1..1099511627776\n"
	      "  --policy    strict: a hit rotates to the head; lazy: a hit sets a bit,\n"
	      "              eviction gives second chances; batched: hits are queued and\n"
	      "              rotated 14 at a time, one LRU operation per batch (caslist:\n"
	      "              caslist_batch_*; mutex: one lock hold) (default strict)\n"
	      "  --reclaim   inline: the setter evicts; thread: a reclaim thread (default\n"
	      "              inline)\n"
	      "  --zipf      key skew, 0 <= S < 1 (default 0.99); keys: 10 x capacity\n"
	      "  --capacity  objects, 64..16777216 (default 65536)\n"
	      "  --get-ratio fraction of gets, 0..1 (default 0.9)\n"
	      "  --value-size bytes per value, 24..65536 (default 64)\n"
	      "  --shards    lists of the sharded impl, 1..1024 (default 16)\n"
	      "  --seed      workload seed, 0..18446744073709551615 (default 1)\n"
	      "  --json      JSON instead of the table\n"
	      "  --retries   runs again of a point that other processes or steal\n"
	      "              disturbed, 0..10; the least disturbed run is kept (default 2)\n"
	      "  --max-disturbed  the share of all CPU time that other processes and\n"
	      "              steal may take during a point, 0..1 (default 0.1)\n"
	      "  --widen-window  test knob: evictors yield while holding claimed victims\n"
	      "  --lockstep  test knob (--ops, inline reclaim): the threads take turns, one\n"
	      "              operation each, so every run does the same sequence\n"
	      "  --help      this text\n"
	      "Exit status: 0 every check passed, 1 a check or the run failed, 2 a bad\n"
	      "command line, 3 the watchdog fired (a hang).\n",
	      f);
}

/* One item of --impl: a name, or "all". */
static void impl_item(const struct cli *c, const char *tok, void *ctx)
{
	struct config *cfg = ctx;
	int found = -1;

	if (strcmp(tok, "all") == 0) {
		for (int i = 0; i < NIMPL; i++)
			cfg->impls[i] = i;
		cfg->nimpls = NIMPL;
		return;
	}
	for (int i = 0; i < NIMPL; i++)
		if (strcmp(tok, lru_impls[i]->name) == 0)
			found = i;
	if (found < 0)
		cli_bad(c, "--impl: unknown implementation '%s' (index, mutex, caslist, sharded, all)",
			tok);
	for (int i = 0; i < cfg->nimpls; i++)
		if (cfg->impls[i] == found)
			cli_bad(c, "--impl: '%s' given twice", tok);
	if (cfg->nimpls == NIMPL)
		cli_bad(c, "--impl: too many");
	cfg->impls[cfg->nimpls++] = found;
}

enum {
	OPT_JSON, OPT_WIDEN, OPT_LOCKSTEP, OPT_HELP, OPT_IMPL, OPT_THREADS, OPT_SECONDS, OPT_OPS, OPT_POLICY,
	OPT_RECLAIM, OPT_ZIPF, OPT_CAPACITY, OPT_GET_RATIO, OPT_VALUE_SIZE, OPT_SHARDS, OPT_SEED,
	OPT_RETRIES, OPT_MAX_DISTURBED,
};

/* --policy's and --reclaim's words, indexed by their enums */
static const char *const policies[] = { [POLICY_STRICT] = "strict", [POLICY_LAZY] = "lazy",
					[POLICY_BATCHED] = "batched" };
static const char *const reclaims[] = { [RECLAIM_INLINE] = "inline", [RECLAIM_THREAD] = "thread" };

static const struct cli_opt opts[] = {
	[OPT_JSON] = { "--json", CLI_FLAG },
	[OPT_WIDEN] = { "--widen-window", CLI_FLAG },
	[OPT_LOCKSTEP] = { "--lockstep", CLI_FLAG },
	[OPT_HELP] = { "--help", CLI_FLAG },
	[OPT_IMPL] = { "--impl", CLI_VALUE },
	[OPT_THREADS] = { "--threads", CLI_VALUE },
	[OPT_SECONDS] = { "--seconds", CLI_VALUE },
	[OPT_OPS] = { "--ops", CLI_VALUE },
	[OPT_POLICY] = { "--policy", CLI_VALUE },
	[OPT_RECLAIM] = { "--reclaim", CLI_VALUE },
	[OPT_ZIPF] = { "--zipf", CLI_VALUE },
	[OPT_CAPACITY] = { "--capacity", CLI_VALUE },
	[OPT_GET_RATIO] = { "--get-ratio", CLI_VALUE },
	[OPT_VALUE_SIZE] = { "--value-size", CLI_VALUE },
	[OPT_SHARDS] = { "--shards", CLI_VALUE },
	[OPT_SEED] = { "--seed", CLI_VALUE },
	[OPT_RETRIES] = { "--retries", CLI_VALUE },
	[OPT_MAX_DISTURBED] = { "--max-disturbed", CLI_VALUE },
	{ NULL, CLI_FLAG },
};

void parse_args(struct config *cfg, int argc, char **argv)
{
	struct cli c;
	bool have_secs = false;
	const char *v;
	int o;

	cli_command(&c, "lrucache", argc, argv, "run", usage);
	while ((o = cli_next(&c, opts, &v)) >= 0) {
		const char *a = opts[o].name;

		switch (o) {
		case OPT_JSON:
			cfg->json = true;
			break;
		case OPT_WIDEN:
			cfg->widen = true;
			break;
		case OPT_LOCKSTEP:
			cfg->lockstep = true;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		case OPT_IMPL:
			cfg->nimpls = 0;
			cli_list(&c, a, v, impl_item, cfg);
			break;
		case OPT_THREADS:
			cfg->nthreads = cli_int_list(&c, a, v, cfg->threads, MAX_RUNS, 1, MAX_THREADS);
			break;
		case OPT_SECONDS:
			cfg->seconds = cli_double(&c, a, v, 0, 3600, 1);
			have_secs = true;
			break;
		case OPT_OPS:
			cfg->ops = cli_int(&c, a, v, 1, 1LL << 40);
			break;
		case OPT_POLICY:
			cfg->policy = (enum policy)cli_choice(&c, a, v, policies, 3);
			break;
		case OPT_RECLAIM:
			cfg->reclaim = (enum reclaim)cli_choice(&c, a, v, reclaims, 2);
			break;
		case OPT_ZIPF:
			cfg->zipf = cli_double(&c, a, v, 0, 0.9999, 0);
			break;
		case OPT_CAPACITY:
			cfg->capacity = (size_t)cli_int(&c, a, v, 64, 1 << 24);
			break;
		case OPT_GET_RATIO:
			cfg->get_ratio = cli_double(&c, a, v, 0, 1, 0);
			break;
		case OPT_VALUE_SIZE:
			cfg->value_size = (size_t)cli_int(&c, a, v, 24, 65536);
			break;
		case OPT_SHARDS:
			cfg->shards = (unsigned)cli_int(&c, a, v, 1, 1024);
			break;
		case OPT_SEED:
			cfg->seed = cli_u64(&c, a, v);
			break;
		case OPT_RETRIES:
			cfg->retries = (int)cli_int(&c, a, v, 0, 10);
			break;
		case OPT_MAX_DISTURBED:
			cfg->max_disturbed = cli_double(&c, a, v, 0, 1, 0);
			break;
		}
	}
	if (have_secs && cfg->ops)
		cli_bad(&c, "--seconds and --ops exclude each other");
	if (cfg->lockstep && (!cfg->ops || cfg->reclaim != RECLAIM_INLINE))
		cli_bad(&c, "--lockstep needs --ops and --reclaim inline");
}
