/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/main.c - the driver: workloads, tables, JSON.
 *
 *   pagepool run [--workload W[,W..]|all] [--mode M[,M..]|all] [--threads LIST]
 *                [--seconds S] [--mem SIZE] [--chunk SIZE] [--batch N] [--high N]
 *                [--delays MS[,MS..]] [--attempts N] [--churn PCT] [--wmark PCT]
 *                [--chaos MS] [--seed N] [--json] [--quiet]
 *
 * Every point (workload x mode x threads) runs on a fresh zone over the same
 * arena and ends with the audit (audit.c): with the caches full, after they
 * are drained, and after every skipped page is merged back, when the whole
 * zone must be order-10 blocks again.  A failed audit exits 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "zone.h"

enum { W_PF1, W_PFREE, W_HIGH, W_MIXED, W_N };
static const char *const wl_name[W_N] = { "page_fault1", "parallel_free", "highalloc", "mixed" };

#define MAX_LIST 32

struct opts {
	unsigned wl_mask, mode_mask;
	unsigned threads[MAX_LIST], nthreads;
	unsigned delays[MAX_LIST], ndelays;
	double seconds;
	size_t mem, chunk;
	unsigned batch, high, attempts, churn_pct, wmark_pct, chaos_ms, merge_ms;
	uint64_t seed;
	bool json, quiet;
};

/* One measured point. */
struct result {
	int wl, mode;
	unsigned threads, delay_ms;
	double rate;		/* pages/s (order 0) */
	double rate2;		/* pf1: per thread; mixed: THP pages/s; parallel_free: ms/round */
	double wait;		/* zone-lock wait / thread time */
	double success, lat_us;	/* highalloc */
	double fallback;	/* mixed: THP attempts that fell back to order 0 */
	uint64_t compactions, merged, pb_merges, ooms;
	size_t chunk;
};

static struct opts O;
static unsigned char *arena;
static size_t arena_pages;
static struct result *results;
static size_t nresults, cap_results;

static void usage(FILE *f)
{
	fputs("usage: pagepool run [--workload page_fault1,parallel_free,highalloc,mixed|all]\n"
	      "                    [--mode base,nomerge,cluster,clusterfree,caslist|all]\n"
	      "                    [--threads 1,2,4] [--seconds 1] [--mem 1G] [--chunk 128M]\n"
	      "                    [--batch 63] [--high 378] [--delays 100,1] [--attempts 20]\n"
	      "                    [--churn 30] [--wmark 12] [--merge-ms 10] [--chaos MS]\n"
	      "                    [--seed N]\n"
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

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
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

static void parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "workload", 1, 0, 'w' }, { "mode", 1, 0, 'm' },    { "threads", 1, 0, 't' },
		{ "seconds", 1, 0, 's' },  { "mem", 1, 0, 'M' },     { "chunk", 1, 0, 'c' },
		{ "batch", 1, 0, 'b' },	   { "high", 1, 0, 'H' },    { "delays", 1, 0, 'd' },
		{ "attempts", 1, 0, 'a' }, { "churn", 1, 0, 'C' },   { "wmark", 1, 0, 'W' },
		{ "chaos", 1, 0, 'x' },	   { "seed", 1, 0, 'S' },    { "json", 0, 0, 'j' },
		{ "quiet", 0, 0, 'q' },	   { "merge-ms", 1, 0, 'g' },	   { "help", 0, 0, 'h' },    { 0, 0, 0, 0 }
	};
	int ch;
	char *end;

	O = (struct opts){ .wl_mask = 1u << W_PF1, .mode_mask = (1u << PP_NMODES) - 1,
			   .threads = { 1, 2 }, .nthreads = 2, .delays = { 100, 1 }, .ndelays = 2,
			   .seconds = 1.0, .mem = (size_t)1 << 30, .chunk = (size_t)128 << 20,
			   .batch = 63, .high = 0, .attempts = 20, .churn_pct = 30,
			   .wmark_pct = 12, .merge_ms = 10, .seed = 1 };
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
		case 'w': O.wl_mask = parse_names(optarg, wl_name, W_N, "workload"); break;
		case 'm': O.mode_mask = parse_names(optarg, pp_mode_name, PP_NMODES, "mode"); break;
		case 't': O.nthreads = parse_list(optarg, O.threads, "--threads", 1, 4096); break;
		case 'd': O.ndelays = parse_list(optarg, O.delays, "--delays", 0, 10000); break;
		case 's':
			errno = 0;
			O.seconds = strtod(optarg, &end);
			if (errno || *end || !(O.seconds > 0 && O.seconds <= 3600))
				bad("--seconds: '%s' is not in (0, 3600]", optarg);
			break;
		case 'M': O.mem = parse_size(optarg, "--mem"); break;
		case 'c': O.chunk = parse_size(optarg, "--chunk"); break;
		case 'b': O.batch = parse_uint(optarg, "--batch", 1, 4096); break;
		case 'H': O.high = parse_uint(optarg, "--high", 1, 1 << 20); break;
		case 'a': O.attempts = parse_uint(optarg, "--attempts", 1, 100000); break;
		case 'C': O.churn_pct = parse_uint(optarg, "--churn", 0, 90); break;
		case 'W': O.wmark_pct = parse_uint(optarg, "--wmark", 0, 100); break;
		case 'g': O.merge_ms = parse_uint(optarg, "--merge-ms", 0, 10000); break;
		case 'x': O.chaos_ms = parse_uint(optarg, "--chaos", 1, 10000); break;
		case 'S': O.seed = strtoull(optarg, NULL, 0); break;
		case 'j': O.json = true; break;
		case 'q': O.quiet = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(64);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	if (!O.high)
		O.high = 6 * O.batch;
	if (O.high < O.batch)
		bad("--high (%u) must be at least --batch (%u)", O.high, O.batch);
	size_t block = PP_PAGE_SIZE << PP_MAX_ORDER;

	if (O.mem < block)
		bad("--mem: %zu bytes is less than one order-%d block (%zu bytes): no pages",
		    O.mem, PP_MAX_ORDER, block);
	arena_pages = O.mem / block * ((size_t)1 << PP_MAX_ORDER);
	for (unsigned i = 0; i < O.nthreads; i++)
		if ((size_t)O.threads[i] * (O.high + O.batch + 1) > arena_pages)
			bad("--threads %u: more threads than the %zu pages can serve (each cache holds up to %u)",
			    O.threads[i], arena_pages, O.high + O.batch);
	if (O.chunk < PP_PAGE_SIZE)
		bad("--chunk: at least one page");
}

/* ---- running threads ---- */

struct worker {
	struct pp_cpu cpu;
	struct run *r;
	unsigned idx;
	int kind;			/* mixed: 0 order-0, 1 THP */
	uint64_t pages, pages2, attempts, fallbacks, ooms, ns;
	struct pp_page **arr;
	size_t narr;
	pthread_t th;
} __attribute__((aligned(64)));

struct run {
	struct pp_zone z;
	int wl;
	unsigned nworkers;
	struct worker *w;		/* nworkers + 1 (the extra one: main/chaos) */
	struct worker chaos;
	pthread_barrier_t start;
	_Atomic(bool) stop;
	size_t chunk;			/* pages per page_fault1 loop */
};

static inline bool stopped(struct run *r)
{
	/* relaxed: a flag polled between pages; nothing is published by it
	 * (results are read after pthread_join). */
	return atomic_load_explicit(&r->stop, memory_order_relaxed);
}

static uint8_t tag_byte(uint32_t tag)
{
	return (uint8_t)(tag % 251 + 1);
}

static void touch(struct pp_zone *z, struct pp_page *p, size_t npages, uint32_t tag)
{
	for (size_t i = 0; i < npages; i++)
		*(volatile uint8_t *)pp_page_mem(z, p + i) = tag_byte(tag);
}

static void verify(struct pp_zone *z, struct pp_page *p, uint32_t tag)
{
	uint8_t v = *(volatile uint8_t *)pp_page_mem(z, p);

	if (v != tag_byte(tag))
		pp_die("page %zu: byte %u, expected %u: another thread wrote it", pp_pfn(z, p), v,
		       tag_byte(tag));
}

/* page_fault1: allocate `chunk` pages one at a time, write each, free all. */
static void pf1_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;

	while (!stopped(r)) {
		size_t n = 0;

		for (; n < r->chunk && !stopped(r); n++) {
			struct pp_page *p = pp_alloc0(&w->cpu);

			if (!p) {
				/* Out of memory for now (other threads' pages,
				 * caches and blocks): free ours and go on.  Not a
				 * failure: the audit is what checks for lost pages. */
				w->ooms++;
				break;
			}
			touch(z, p, 1, w->cpu.tag);
			w->arr[n] = p;
		}
		for (size_t i = 0; i < n; i++) {
			verify(z, w->arr[i], w->cpu.tag);
			pp_free0(&w->cpu, w->arr[i]);
		}
		w->pages += n;
	}
}

/* THP side of mixed: order-9 blocks, falling back to 512 order-0 pages. */
static void thp_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;
	size_t nblocks = r->chunk / PP_PAGEBLOCK ? r->chunk / PP_PAGEBLOCK : 1;

	while (!stopped(r)) {
		size_t n = 0;

		for (size_t b = 0; b < nblocks && !stopped(r); b++) {
			struct pp_page *p = pp_alloc_order(&w->cpu, PP_PAGEBLOCK_ORDER);

			w->attempts++;
			if (p) {
				touch(z, p, PP_PAGEBLOCK, w->cpu.tag);
				w->arr[n++] = p;
				w->pages2 += PP_PAGEBLOCK;
				continue;
			}
			w->fallbacks++;
			for (size_t i = 0; i < PP_PAGEBLOCK && n < w->narr; i++) {
				struct pp_page *q = pp_alloc0(&w->cpu);

				if (!q) {
					w->ooms++;	/* as in pf1_loop */
					break;
				}
				touch(z, q, 1, w->cpu.tag);
				w->arr[n++] = q;
				w->pages++;
			}
		}
		for (size_t i = 0; i < n; i++) {
			struct pp_page *p = w->arr[i];

			verify(z, p, w->cpu.tag);
			if (p->order)
				pp_free_order(&w->cpu, p);
			else
				pp_free0(&w->cpu, p);
		}
	}
}

/* highalloc churn: keep a ring of pages, replacing the oldest. */
static void churn_loop(struct worker *w)
{
	struct run *r = w->r;
	struct pp_zone *z = &r->z;
	size_t head = 0, n = 0;

	while (!stopped(r)) {
		if (n == w->narr) {
			struct pp_page *old = w->arr[head];

			verify(z, old, w->cpu.tag);
			pp_free0(&w->cpu, old);
			n--;
		}
		struct pp_page *p = pp_alloc0(&w->cpu);

		if (!p) {
			/* the zone is short (order-9 blocks held): the ring
			 * shrinks, oldest page first, until pages come back */
			if (n) {
				struct pp_page *old = w->arr[(head + w->narr - n) % w->narr];

				verify(z, old, w->cpu.tag);
				pp_free0(&w->cpu, old);
				n--;
			} else {
				sched_yield();
			}
			continue;
		}
		touch(z, p, 1, w->cpu.tag);
		w->arr[head] = p;
		head = (head + 1) % w->narr;
		n++;
		w->pages++;
	}
	/* free what the ring holds, oldest first */
	for (size_t i = 0; i < n; i++) {
		size_t k = (head + w->narr - n + i) % w->narr;

		verify(z, w->arr[k], w->cpu.tag);
		pp_free0(&w->cpu, w->arr[k]);
	}
}

/* parallel_free: free the slice this worker was given. */
static void pfree_slice(struct worker *w)
{
	for (size_t i = 0; i < w->narr; i++) {
		verify(&w->r->z, w->arr[i], 1);	/* written by the allocator, tag 1 */
		pp_free0(&w->cpu, w->arr[i]);
	}
	pp_cpu_drain(&w->cpu);
	w->pages += w->narr;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t t0;

	pthread_barrier_wait(&w->r->start);
	t0 = pp_now_ns();
	switch (w->r->wl) {
	case W_PF1: pf1_loop(w); break;
	case W_MIXED: if (w->kind) thp_loop(w); else pf1_loop(w); break;
	case W_HIGH: churn_loop(w); break;
	case W_PFREE: pfree_slice(w); break;
	default: break;
	}
	w->ns = pp_now_ns() - t0;
	return NULL;
}

/* --chaos: high-order allocations and compaction passes interleaved with
 * whatever the workload does (the tests use it). */
static void *chaos_main(void *arg)
{
	struct worker *w = arg;
	uint64_t rnd = O.seed ^ 0xc4a05;

	pthread_barrier_wait(&w->r->start);
	while (!stopped(w->r)) {
		unsigned order = 1 + (unsigned)(splitmix(&rnd) % PP_MAX_ORDER);
		struct pp_page *p = pp_alloc_order(&w->cpu, order);

		if (p) {
			touch(&w->r->z, p, 1, w->cpu.tag);
			verify(&w->r->z, p, w->cpu.tag);
			pp_free_order(&w->cpu, p);
		}
		pp_compact(&w->cpu, PP_PAGEBLOCK_ORDER);
		usleep(O.chaos_ms * 1000u);
	}
	return NULL;
}

static void run_setup(struct run *r, int wl, int mode, unsigned nworkers)
{
	memset(r, 0, sizeof(*r));
	r->wl = wl;
	r->nworkers = nworkers;
	pp_zone_init(&r->z, (enum pp_mode)mode, arena, arena_pages, O.batch, O.high,
		     arena_pages * O.wmark_pct / 100, O.merge_ms);
	pp_zone_start(&r->z);
	r->w = aligned_alloc(64, sizeof(*r->w) * (nworkers + 1));
	if (!r->w)
		pp_die("out of memory for %u workers", nworkers);
	memset(r->w, 0, sizeof(*r->w) * (nworkers + 1));
	for (unsigned i = 0; i <= nworkers; i++) {
		r->w[i].r = r;
		r->w[i].idx = i;
		pp_cpu_init(&r->w[i].cpu, &r->z, i + 1);
	}
	r->chaos.r = r;
	pp_cpu_init(&r->chaos.cpu, &r->z, nworkers + 2);
	atomic_init(&r->stop, false);
}

/* Start the workers (and the chaos thread), let them run, stop them. */
/* Start the workers (and the chaos thread); they run once all are up. */
static void threads_start(struct run *r)
{
	bool chaos = O.chaos_ms != 0;
	unsigned n = r->nworkers + (chaos ? 1 : 0);

	/* relaxed: see stopped(); pthread_create orders it for the threads. */
	atomic_store_explicit(&r->stop, false, memory_order_relaxed);
	pthread_barrier_init(&r->start, NULL, n + 1);
	for (unsigned i = 0; i < r->nworkers; i++)
		if (pthread_create(&r->w[i].th, NULL, worker_main, &r->w[i]))
			pp_die("pthread_create failed (thread %u)", i);
	if (chaos && pthread_create(&r->chaos.th, NULL, chaos_main, &r->chaos))
		pp_die("pthread_create failed (chaos)");
	pthread_barrier_wait(&r->start);
}

/* Join the workers (they stop on their own or on r->stop), then the
 * chaos thread, which runs until r->stop. */
static void threads_join(struct run *r)
{
	for (unsigned i = 0; i < r->nworkers; i++)
		pthread_join(r->w[i].th, NULL);
	/* relaxed: see stopped(). */
	atomic_store_explicit(&r->stop, true, memory_order_relaxed);
	if (O.chaos_ms)
		pthread_join(r->chaos.th, NULL);
	pthread_barrier_destroy(&r->start);
}

/* Start the threads, let them run for @seconds (0: until they finish). */
static void run_threads(struct run *r, double seconds)
{
	threads_start(r);
	if (seconds > 0) {
		usleep((useconds_t)(seconds * 1e6));
		/* relaxed: see stopped(). */
		atomic_store_explicit(&r->stop, true, memory_order_relaxed);
	}
	threads_join(r);
}

static void sum_stats(struct run *r, struct result *res, double *wait_ns, double *thread_ns)
{
	pp_zone_stop(&r->z);	/* the merger's counters are final after this */
	res->compactions += r->z.merger_cpu.st.compactions;
	res->merged += r->z.merger_cpu.st.merged_pages;
	res->pb_merges += r->z.merger_cpu.st.pb_merges;
	for (unsigned i = 0; i <= r->nworkers; i++) {
		*wait_ns += (double)r->w[i].cpu.st.lock_wait_ns;
		*thread_ns += (double)r->w[i].ns;
		res->compactions += r->w[i].cpu.st.compactions;
		res->merged += r->w[i].cpu.st.merged_pages;
		res->pb_merges += r->w[i].cpu.st.pb_merges;
		res->ooms += r->w[i].ooms;
	}
	res->compactions += r->chaos.cpu.st.compactions;
	res->merged += r->chaos.cpu.st.merged_pages;
}

/* The end-of-point audit: caches full, caches drained, everything merged. */
static void run_finish(struct run *r, const char *what)
{
	struct pp_cpu *cpus[MAX_LIST * 128 + 2];
	size_t ncpu = 0;
	struct pp_census cs;

	if (r->nworkers + 2 > sizeof(cpus) / sizeof(cpus[0]))
		pp_die("too many workers to audit");
	for (unsigned i = 0; i <= r->nworkers; i++)
		cpus[ncpu++] = &r->w[i].cpu;
	cpus[ncpu++] = &r->chaos.cpu;
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs))
		goto fail;
	if (cs.alloc)
		pp_die("%s: %zu pages still allocated after the run", what, cs.alloc);
	for (size_t i = 0; i < ncpu; i++)
		pp_cpu_drain(cpus[i]);
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs) || cs.cached)
		goto fail;
	pp_zone_merge_all(&r->w[0].cpu);
	if (pp_zone_audit(&r->z, cpus, ncpu, &cs))
		goto fail;
	if (r->z.area[PP_MAX_ORDER].nr << PP_MAX_ORDER != r->z.nr_pages)
		pp_die("%s: all pages free but only %zu of %zu in order-%d blocks: a merge was lost",
		       what, r->z.area[PP_MAX_ORDER].nr << PP_MAX_ORDER, r->z.nr_pages,
		       PP_MAX_ORDER);
	pp_zone_destroy(&r->z);
	for (unsigned i = 0; i <= r->nworkers; i++)
		free(r->w[i].arr);
	free(r->w);
	free(r->chaos.arr);
	return;
fail:
	fprintf(stderr, "pagepool: %s: audit FAILED\n", what);
	exit(2);
}

static struct pp_page **page_array(size_t n)
{
	struct pp_page **a = malloc((n ? n : 1) * sizeof(*a));

	if (!a)
		pp_die("out of memory for a page array of %zu", n);
	return a;
}

/* Pages each page_fault1 worker may hold: the chunk asked for, cut down so
 * that the workers' pages and caches fit in 3/4 of the zone. */
static size_t fit_chunk(unsigned nworkers)
{
	size_t want = O.chunk / PP_PAGE_SIZE;
	size_t slack = (size_t)nworkers * (O.high + O.batch);
	size_t room = arena_pages * 3 / 4 > slack ? (arena_pages * 3 / 4 - slack) / nworkers : 1;

	return want < room ? want : (room ? room : 1);
}

static struct result *new_result(void)
{
	if (nresults == cap_results) {
		cap_results = cap_results ? cap_results * 2 : 64;
		results = realloc(results, cap_results * sizeof(*results));
		if (!results)
			pp_die("out of memory");
	}
	memset(&results[nresults], 0, sizeof(*results));
	return &results[nresults++];
}

static void progress(const char *wl, int mode, unsigned threads, const char *extra)
{
	if (!O.quiet)
		fprintf(stderr, "pagepool: %-13s %-11s threads=%-4u %s\n", wl, pp_mode_name[mode],
			threads, extra);
}

static void point_pf1(int wl, int mode, unsigned threads)
{
	struct run r;
	struct result *res = new_result();
	double wait = 0, tns = 0;

	progress(wl_name[wl], mode, threads, "");
	run_setup(&r, wl, mode, threads);
	r.chunk = fit_chunk(threads);
	for (unsigned i = 0; i < threads; i++) {
		r.w[i].kind = wl == W_MIXED ? (int)(i & 1) : 0;
		r.w[i].narr = r.chunk + PP_PAGEBLOCK;
		r.w[i].arr = page_array(r.w[i].narr);
	}
	run_threads(&r, O.seconds);
	res->wl = wl;
	res->mode = mode;
	res->threads = threads;
	res->chunk = r.chunk;
	uint64_t att = 0, fb = 0;

	for (unsigned i = 0; i < threads; i++) {
		struct worker *w = &r.w[i];
		double s = (double)w->ns / 1e9;

		res->rate += (double)w->pages / s;
		res->rate2 += (double)w->pages2 / s;
		att += w->attempts;
		fb += w->fallbacks;
	}
	if (wl == W_PF1)
		res->rate2 = res->rate / threads;
	res->fallback = att ? (double)fb / (double)att : 0;
	sum_stats(&r, res, &wait, &tns);
	res->wait = tns > 0 ? wait / tns : 0;
	run_finish(&r, wl_name[wl]);
}

static void point_pfree(int mode, unsigned threads)
{
	struct run r;
	struct result *res = new_result();
	size_t total = arena_pages / 2;
	double free_ns = 0, wait = 0, tns = 0;
	unsigned rounds = 0;
	uint64_t t_end = pp_now_ns() + (uint64_t)(O.seconds * 1e9);

	progress("parallel_free", mode, threads, "");
	run_setup(&r, W_PFREE, mode, threads);
	struct worker *alloc = &r.w[threads];	/* tag threads+1 */
	struct pp_page **all = page_array(total);

	alloc->cpu.tag = 1;	/* pfree_slice verifies the allocator's byte */
	r.w[0].cpu.tag = threads + 1;
	do {
		for (size_t i = 0; i < total; i++) {
			all[i] = pp_alloc0(&alloc->cpu);
			if (!all[i])
				pp_die("parallel_free: out of pages");
			touch(&r.z, all[i], 1, 1);
		}
		for (unsigned t = 0; t < threads; t++) {
			struct worker *w = &r.w[t];
			size_t lo = total * t / threads, hi = total * (t + 1) / threads;

			w->arr = all + lo;
			w->narr = hi - lo;
			for (size_t i = lo; i < hi; i++)
				pp_page_give(all[i], 1, &w->cpu);
		}
		uint64_t t0 = pp_now_ns();

		run_threads(&r, 0);
		free_ns += (double)(pp_now_ns() - t0);
		for (unsigned t = 0; t < threads; t++)
			tns += (double)r.w[t].ns;	/* per round: add them up */
		rounds++;
	} while (pp_now_ns() < t_end || rounds < 2);
	for (unsigned t = 0; t < threads; t++)
		r.w[t].arr = NULL;
	free(all);
	res->wl = W_PFREE;
	res->mode = mode;
	res->threads = threads;
	res->rate = (double)total * rounds / (free_ns / 1e9);
	res->rate2 = free_ns / rounds / 1e6;
	for (unsigned t = 0; t < threads; t++)
		wait += (double)r.w[t].cpu.st.lock_wait_ns;
	res->wait = tns > 0 ? wait / tns : 0;
	double dummy_w = 0, dummy_t = 0;

	sum_stats(&r, res, &dummy_w, &dummy_t);
	run_finish(&r, "parallel_free");
}

static void point_high(int mode, unsigned threads, unsigned delay_ms)
{
	struct run r;
	struct result *res = new_result();
	struct pp_page **held = page_array(O.attempts);
	size_t nheld = 0;
	uint64_t rnd = O.seed, lat = 0;
	char extra[32];

	snprintf(extra, sizeof(extra), "delay=%ums", delay_ms);
	progress("highalloc", mode, threads, extra);
	run_setup(&r, W_HIGH, mode, threads);
	struct pp_cpu *main_cpu = &r.w[threads].cpu;
	/* 1. break every high-order page: fill the zone with order-0 pages,
	 *    free them in random order */
	struct pp_page **all = page_array(arena_pages + 1);
	size_t n = 0;

	while ((all[n] = pp_alloc0(main_cpu)) != NULL)
		n++;
	for (size_t i = n; i > 1; i--) {
		size_t j = splitmix(&rnd) % i;
		struct pp_page *t = all[i - 1];

		all[i - 1] = all[j];
		all[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		pp_free0(main_cpu, all[i]);
	pp_cpu_drain(main_cpu);
	free(all);
	/* The memory hog has exited; the system idles a moment before the
	 * churn starts (mmtests waits minutes).  Base has merged everything
	 * already; skip modes' background merger uses the pause. */
	usleep(100000);
	/* 2. order-0 churn holds churn% of the zone, replaced continually */
	for (unsigned i = 0; i < threads; i++) {
		r.w[i].narr = arena_pages * O.churn_pct / 100 / threads + 1;
		r.w[i].arr = page_array(r.w[i].narr);
	}
	threads_start(&r);
	usleep(100000);	/* let the churn fragment the zone */
	/* 3. order-9 attempts with a delay between them; successes are held */
	for (unsigned a = 0; a < O.attempts; a++) {
		uint64_t t0 = pp_now_ns();
		struct pp_page *p = pp_alloc_order(main_cpu, PP_PAGEBLOCK_ORDER);

		lat += pp_now_ns() - t0;
		if (p)
			held[nheld++] = p;
		if (delay_ms)
			usleep(delay_ms * 1000u);
	}
	/* relaxed: see stopped(). */
	atomic_store_explicit(&r.stop, true, memory_order_relaxed);
	threads_join(&r);
	for (size_t i = 0; i < nheld; i++)
		pp_free_order(main_cpu, held[i]);
	free(held);
	res->wl = W_HIGH;
	res->mode = mode;
	res->threads = threads;
	res->delay_ms = delay_ms;
	res->success = (double)nheld / O.attempts;
	res->lat_us = (double)lat / O.attempts / 1e3;
	double wait = 0, tns = 0;

	for (unsigned i = 0; i < threads; i++)
		res->rate += (double)r.w[i].pages / ((double)r.w[i].ns / 1e9);
	sum_stats(&r, res, &wait, &tns);
	res->wait = tns > 0 ? wait / tns : 0;
	run_finish(&r, "highalloc");
}

/* ---- output ---- */

static const struct result *find(int wl, int mode, unsigned threads, unsigned delay)
{
	for (size_t i = 0; i < nresults; i++)
		if (results[i].wl == wl && results[i].mode == mode &&
		    results[i].threads == threads && results[i].delay_ms == delay)
			return &results[i];
	return NULL;
}

static void fmt_rate(char *buf, size_t n, double v)
{
	if (v >= 1e9)
		snprintf(buf, n, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

static void ratio(char *buf, size_t n, double v, double base)
{
	if (base > 0)
		snprintf(buf, n, "%.2fx", v / base);
	else
		snprintf(buf, n, "-");
}

static void print_tables(void)
{
	char a[32], b[32], c[32], d[32];

	for (int wl = 0; wl < W_N; wl++) {
		if (!(O.wl_mask & (1u << wl)))
			continue;
		for (unsigned ti = 0; ti < O.nthreads; ti++) {
			unsigned t = O.threads[ti];

			for (unsigned di = 0; di < (wl == W_HIGH ? O.ndelays : 1); di++) {
				unsigned dl = wl == W_HIGH ? O.delays[di] : 0;
				const struct result *base = find(wl, PP_BASE, t, dl);

				if (wl == W_MIXED && t < 2)
					continue;
				switch (wl) {
				case W_PF1:
					printf("\npage_fault1, %u thread%s%s, %.1f s, %zu MiB per loop per thread\n",
					       t, t > 1 ? "s" : "",
					       t > (unsigned)sysconf(_SC_NPROCESSORS_ONLN) ? " (oversubscribed)" : "",
					       O.seconds, find(wl, __builtin_ctz(O.mode_mask), t, 0)->chunk * PP_PAGE_SIZE >> 20);
					printf("  %-12s %12s %12s %10s %8s\n", "mode", "pages/s", "per thread",
					       "lock wait", "vs base");
					break;
				case W_PFREE:
					printf("\nparallel_free, %u thread%s free %zu MiB\n", t, t > 1 ? "s" : "",
					       arena_pages / 2 * PP_PAGE_SIZE >> 20);
					printf("  %-12s %12s %12s %10s %8s\n", "mode", "pages/s", "ms/round",
					       "lock wait", "vs base");
					break;
				case W_HIGH:
					printf("\nhighalloc, order-9 attempts %u with a delay of %u ms, %u churn thread%s holding %u%%\n",
					       O.attempts, dl, t, t > 1 ? "s" : "", O.churn_pct);
					printf("  %-12s %12s %14s %12s %10s\n", "mode", "success", "avg alloc us",
					       "churn pg/s", "merged");
					break;
				case W_MIXED:
					printf("\nmixed, %u threads: %u order-0 page_fault1, %u order-9 (THP)\n", t,
					       (t + 1) / 2, t / 2);
					printf("  %-12s %12s %8s %12s %8s %10s\n", "mode", "order0", "vs base",
					       "THP", "vs base", "fallback");
					break;
				}
				for (int m = 0; m < PP_NMODES; m++) {
					const struct result *x = find(wl, m, t, dl);

					if (!x)
						continue;
					switch (wl) {
					case W_PF1:
						fmt_rate(a, sizeof(a), x->rate);
						fmt_rate(b, sizeof(b), x->rate2);
						ratio(c, sizeof(c), x->rate, base ? base->rate : 0);
						printf("  %-12s %12s %12s %9.1f%% %8s\n", pp_mode_name[m], a, b,
						       100 * x->wait, c);
						break;
					case W_PFREE:
						fmt_rate(a, sizeof(a), x->rate);
						ratio(c, sizeof(c), x->rate, base ? base->rate : 0);
						printf("  %-12s %12s %12.2f %9.1f%% %8s\n", pp_mode_name[m], a,
						       x->rate2, 100 * x->wait, c);
						break;
					case W_HIGH:
						fmt_rate(a, sizeof(a), x->rate);
						printf("  %-12s %11.0f%% %14.0f %12s %10" PRIu64 "\n", pp_mode_name[m],
						       100 * x->success, x->lat_us, a, x->merged);
						break;
					case W_MIXED:
						fmt_rate(a, sizeof(a), x->rate);
						fmt_rate(b, sizeof(b), x->rate2);
						ratio(c, sizeof(c), x->rate, base ? base->rate : 0);
						ratio(d, sizeof(d), x->rate2, base ? base->rate2 : 0);
						printf("  %-12s %12s %8s %12s %8s %9.1f%%\n", pp_mode_name[m], a, c, b,
						       d, 100 * x->fallback);
						break;
					}
				}
				for (int m = 0; m < PP_NMODES; m++) {
					const struct result *x = find(wl, m, t, dl);

					if (x && x->ooms)
						printf("  (%s: %" PRIu64 " allocation loops cut short by an empty zone)\n",
						       pp_mode_name[m], x->ooms);
				}
			}
		}
	}
	fflush(stdout);
}

static void print_json(void)
{
	printf("{\"cores\": %ld, \"pages\": %zu, \"batch\": %u, \"high\": %u, \"seconds\": %g, \"points\": [",
	       sysconf(_SC_NPROCESSORS_ONLN), arena_pages, O.batch, O.high, O.seconds);
	for (size_t i = 0; i < nresults; i++) {
		const struct result *x = &results[i];

		printf("%s\n  {\"workload\": \"%s\", \"mode\": \"%s\", \"threads\": %u, "
		       "\"delay_ms\": %u, \"pages_per_s\": %.0f, \"rate2\": %.3f, "
		       "\"lock_wait_fraction\": %.4f, \"success_rate\": %.4f, \"avg_alloc_us\": %.1f, "
		       "\"thp_fallback\": %.4f, \"compactions\": %" PRIu64 ", \"merged_pages\": %" PRIu64
		       ", \"pageblock_merges\": %" PRIu64 ", \"out_of_memory\": %" PRIu64
		       ", \"chunk_pages\": %zu}",
		       i ? "," : "", wl_name[x->wl], pp_mode_name[x->mode], x->threads, x->delay_ms,
		       x->rate, x->rate2, x->wait, x->success, x->lat_us, x->fallback, x->compactions,
		       x->merged, x->pb_merges, x->ooms, x->chunk);
	}
	printf("\n]}\n");
}

int main(int argc, char **argv)
{
	parse(argc, argv);
	arena = mmap(NULL, arena_pages * PP_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		fprintf(stderr, "pagepool: cannot map %zu MiB: %s\n",
			arena_pages * PP_PAGE_SIZE >> 20, strerror(errno));
		return 1;
	}
	/* Back the arena with huge pages where the kernel allows it, then
	 * fault it all in: the runs then measure the allocator, not the
	 * kernel's page faults or a TLB miss that varies from run to run. */
	bool thp = madvise(arena, arena_pages * PP_PAGE_SIZE, MADV_HUGEPAGE) == 0;

	for (size_t i = 0; i < arena_pages; i++)
		arena[i << PP_PAGE_SHIFT] = 0;
	if (!O.json)
		printf("pagepool: %zu MiB zone (%zu pages), %ld cores, batch %u, high %u, wmark %u%%\n"
		       "  zone lock: test-and-test-and-set spinlock (yields after 128 spins); "
		       "arena madvise(MADV_HUGEPAGE) %s\n",
		       arena_pages * PP_PAGE_SIZE >> 20, arena_pages, sysconf(_SC_NPROCESSORS_ONLN),
		       O.batch, O.high, O.wmark_pct, thp ? "ok" : "refused");
	fflush(stdout);
	for (int wl = 0; wl < W_N; wl++) {
		if (!(O.wl_mask & (1u << wl)))
			continue;
		for (unsigned ti = 0; ti < O.nthreads; ti++) {
			unsigned t = O.threads[ti];

			for (int m = 0; m < PP_NMODES; m++) {
				if (!(O.mode_mask & (1u << m)))
					continue;
				switch (wl) {
				case W_PF1: point_pf1(wl, m, t); break;
				case W_MIXED: if (t >= 2) point_pf1(wl, m, t); break;
				case W_PFREE: point_pfree(m, t); break;
				case W_HIGH:
					for (unsigned d = 0; d < O.ndelays; d++)
						point_high(m, t, O.delays[d]);
					break;
				}
			}
		}
	}
	if (O.json) {
		print_json();
	} else {
		print_tables();
		printf("\npagepool: %zu points, every audit passed (pages conserved, buddy invariants, "
		       "zone fully re-merged)\n", nresults);
	}
	munmap(arena, arena_pages * PP_PAGE_SIZE);
	free(results);
	return 0;
}
