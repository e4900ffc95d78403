/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/cli.c - the command line: options, lists, sizes, and
 * the checks that reject what the zone cannot serve (exit 64).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

struct pp_opts pp_opt;
size_t pp_arena_pages;

static void usage(FILE *f)
{
	fputs("usage: pagepool run [--workload page_fault1,parallel_free,highalloc,mixed|all]\n"
	      "                    [--mode base,nomerge,cluster,clusterfree,caslist|all]\n"
	      "                    [--threads 1,2,4] [--seconds 1] [--mem 1G] [--chunk 128M]\n"
	      "                    [--batch 63] [--high 378] [--delays 100,1] [--attempts 20]\n"
	      "                    [--churn 30] [--wmark 12] [--merge-ms 10] [--chaos MS]\n"
	      "                    [--seed N] [--rounds 1] [--stash PAGES] [--pin[=spread|shared]]\n"
	      "                    [--json] [--quiet]\n",
	      f);
}

static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("pagepool: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	usage(stderr);
	exit(64);
}

static size_t parse_size(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		bad("%s: '%s' is not a size", what, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end)
		bad("%s: '%s' is not a size (digits, then K, M or G)", what, s);
	return (size_t)v;
}

static unsigned parse_uint(const char *s, const char *what, unsigned lo, unsigned hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi)
		bad("%s: '%s' is not a number in %u..%u", what, s, lo, hi);
	return (unsigned)v;
}

static unsigned parse_list(const char *s, unsigned *out, const char *what, unsigned lo,
			   unsigned hi)
{
	char buf[256], *save, *tok;
	unsigned n = 0;

	if (strlen(s) >= sizeof(buf))
		bad("%s: list too long", what);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			bad("%s: at most %d values", what, MAX_LIST);
		out[n++] = parse_uint(tok, what, lo, hi);
	}
	if (!n)
		bad("%s: empty list", what);
	return n;
}

static unsigned parse_names(const char *s, const char *const *names, int nnames, const char *what)
{
	char buf[256], *save, *tok;
	unsigned mask = 0;

	if (strcmp(s, "all") == 0)
		return (1u << nnames) - 1;
	if (strlen(s) >= sizeof(buf))
		bad("%s: list too long", what);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < nnames; i++)
			if (strcmp(tok, names[i]) == 0)
				break;
		if (i == nnames) {
			fprintf(stderr, "pagepool: unknown %s '%s'; one of:", what, tok);
			for (i = 0; i < nnames; i++)
				fprintf(stderr, " %s", names[i]);
			fputs(", all\n", stderr);
			exit(64);
		}
		mask |= 1u << i;
	}
	if (!mask)
		bad("%s: empty list", what);
	return mask;
}

void cli_parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "workload", 1, 0, 'w' }, { "mode", 1, 0, 'm' },    { "threads", 1, 0, 't' },
		{ "seconds", 1, 0, 's' },  { "mem", 1, 0, 'M' },     { "chunk", 1, 0, 'c' },
		{ "batch", 1, 0, 'b' },	   { "high", 1, 0, 'H' },    { "delays", 1, 0, 'd' },
		{ "attempts", 1, 0, 'a' }, { "churn", 1, 0, 'C' },   { "wmark", 1, 0, 'W' },
		{ "chaos", 1, 0, 'x' },	   { "seed", 1, 0, 'S' },    { "json", 0, 0, 'j' },
		{ "quiet", 0, 0, 'q' },	   { "merge-ms", 1, 0, 'g' }, { "help", 0, 0, 'h' },
		{ "rounds", 1, 0, 'r' },   { "stash", 1, 0, 'T' },   { "pin", 2, 0, 'p' },
		{ 0, 0, 0, 0 }
	};
	int ch;
	char *end;

	pp_opt = (struct pp_opts){ .wl_mask = 1u << W_PF1, .mode_mask = (1u << PP_NMODES) - 1,
				   .threads = { 1, 2 }, .nthreads = 2, .delays = { 100, 1 },
				   .ndelays = 2, .seconds = 1.0, .mem = (size_t)1 << 30,
				   .chunk = (size_t)128 << 20, .batch = 63, .high = 0,
				   .attempts = 20, .churn_pct = 30, .wmark_pct = 12, .merge_ms = 10,
				   .seed = 1, .rounds = 1, .stash = -1, .pin = PIN_NONE };
	if (argc < 2 || strcmp(argv[1], "run") != 0) {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			exit(0);
		}
		bad("the first argument must be 'run'");
	}
	optind = 2;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'w': pp_opt.wl_mask = parse_names(optarg, pp_wl_name, W_N, "workload"); break;
		case 'm': pp_opt.mode_mask = parse_names(optarg, pp_mode_name, PP_NMODES, "mode"); break;
		case 't': pp_opt.nthreads = parse_list(optarg, pp_opt.threads, "--threads", 1, 4096); break;
		case 'd': pp_opt.ndelays = parse_list(optarg, pp_opt.delays, "--delays", 0, 10000); break;
		case 's':
			errno = 0;
			pp_opt.seconds = strtod(optarg, &end);
			if (errno || *end || !(pp_opt.seconds > 0 && pp_opt.seconds <= 3600))
				bad("--seconds: '%s' is not in (0, 3600]", optarg);
			break;
		case 'M': pp_opt.mem = parse_size(optarg, "--mem"); break;
		case 'c': pp_opt.chunk = parse_size(optarg, "--chunk"); break;
		case 'b': pp_opt.batch = parse_uint(optarg, "--batch", 1, 4096); break;
		case 'H': pp_opt.high = parse_uint(optarg, "--high", 1, 1 << 20); break;
		case 'a': pp_opt.attempts = parse_uint(optarg, "--attempts", 1, 100000); break;
		case 'C': pp_opt.churn_pct = parse_uint(optarg, "--churn", 0, 90); break;
		case 'W': pp_opt.wmark_pct = parse_uint(optarg, "--wmark", 0, 100); break;
		case 'g': pp_opt.merge_ms = parse_uint(optarg, "--merge-ms", 0, 10000); break;
		case 'x': pp_opt.chaos_ms = parse_uint(optarg, "--chaos", 1, 10000); break;
		case 'S': pp_opt.seed = strtoull(optarg, NULL, 0); break;
		case 'r': pp_opt.rounds = parse_uint(optarg, "--rounds", 1, 100); break;
		case 'T': pp_opt.stash = (long)parse_uint(optarg, "--stash", 0, 1u << 24); break;
		case 'p':
			if (!optarg || strcmp(optarg, "spread") == 0)
				pp_opt.pin = PIN_SPREAD;
			else if (strcmp(optarg, "shared") == 0)
				pp_opt.pin = PIN_SHARED;
			else
				bad("--pin: '%s' is not spread or shared", optarg);
			break;
		case 'j': pp_opt.json = true; break;
		case 'q': pp_opt.quiet = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(64);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	if (!pp_opt.high)
		pp_opt.high = 6 * pp_opt.batch;
	if (pp_opt.high < pp_opt.batch)
		bad("--high (%u) must be at least --batch (%u)", pp_opt.high, pp_opt.batch);
	size_t block = PP_PAGE_SIZE << PP_MAX_ORDER;

	if (pp_opt.mem < block)
		bad("--mem: %zu bytes is less than one order-%d block (%zu bytes): no pages",
		    pp_opt.mem, PP_MAX_ORDER, block);
	pp_arena_pages = pp_opt.mem / block * ((size_t)1 << PP_MAX_ORDER);
	for (unsigned i = 0; i < pp_opt.nthreads; i++)
		if ((size_t)pp_opt.threads[i] * (pp_opt.high + pp_opt.batch + 1) > pp_arena_pages)
			bad("--threads %u: more threads than the %zu pages can serve (each cache holds up to %u)",
			    pp_opt.threads[i], pp_arena_pages, pp_opt.high + pp_opt.batch);
	if (pp_opt.chunk < PP_PAGE_SIZE)
		bad("--chunk: at least one page");
}

