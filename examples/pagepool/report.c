/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/report.c - the tables and the JSON.  Each table is one
 * group of points (points.c): per mode, the median and [min..max] over the
 * rounds; ratios to base are taken round by round (the same stretch of
 * machine time) and then summarised the same way.  Under each table: the
 * conditions it was measured in (cond.c) and one line saying why the
 * modes differ, with the CPU time per page and the zone-lock wait.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"

const char *const pp_wl_name[W_N] = { "page_fault1", "parallel_free", "highalloc", "mixed" };

/* What differs between the modes, per workload (the fixed part of the
 * line under each table; the figures follow it). */
static const char *const why[W_N] = {
	[W_PF1] = "caslist refills from its own stash of warm pages, no zone lock; "
		  "base splits and merges under the lock",
	[W_PFREE] = "returns in batches: base merges page by page under the zone lock, "
		    "caslist splices a batch (its stash is handed back at exit)",
	[W_HIGH] = "skip modes merge freed pages in the background and on demand; "
		   "every mode must keep 100%",
	[W_MIXED] = "THP blocks come from the buddy areas under the zone lock in every mode; "
		    "order-0 as in page_fault1",
};

static const struct result *find(const struct group *g, int mode, unsigned round)
{
	for (size_t i = 0; i < pp_nresults; i++) {
		const struct result *x = &pp_results[i];

		if (x->wl == g->wl && x->mode == mode && x->threads == g->threads &&
		    x->delay_ms == g->delay_ms && x->round == round)
			return x;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of a field over the rounds (optionally divided by
 * base's value in the same round).  Returns the number of values. */
struct spread {
	double med, min, max;
	unsigned n;
};

enum field { F_RATE, F_RATE2, F_WAIT, F_CPU, F_SUCCESS, F_LAT, F_MERGED, F_FALLBACK };

static double get(const struct result *x, enum field f)
{
	switch (f) {
	case F_RATE: return x->rate;
	case F_RATE2: return x->rate2;
	case F_WAIT: return x->wait;
	case F_CPU: {
		uint64_t pages = x->pages + x->pages2;

		return pages ? (double)x->cpu_ns / (double)pages : 0;
	}
	case F_SUCCESS: return x->success;
	case F_LAT: return x->lat_us;
	case F_MERGED: return (double)x->merged;
	case F_FALLBACK: return x->fallback;
	}
	return 0;
}

static struct spread spread_of(const struct group *g, int mode, enum field f, bool vs_base)
{
	double v[100];
	struct spread s = { 0, 0, 0, 0 };

	for (unsigned r = 0; r < pp_opt.rounds && r < 100; r++) {
		const struct result *x = find(g, mode, r), *b = find(g, PP_BASE, r);

		if (!x)
			continue;
		if (vs_base) {
			if (!b || get(b, f) <= 0)
				continue;
			v[s.n++] = get(x, f) / get(b, f);
		} else {
			v[s.n++] = get(x, f);
		}
	}
	if (!s.n)
		return s;
	qsort(v, s.n, sizeof(v[0]), cmp_double);
	s.med = s.n % 2 ? v[s.n / 2] : (v[s.n / 2 - 1] + v[s.n / 2]) / 2;
	s.min = v[0];
	s.max = v[s.n - 1];
	return s;
}

/* "12.14M [11.90..12.52]": the unit of the median for all three. */
static void fmt_rate(char *buf, size_t n, struct spread s)
{
	double div = 1;
	const char *u = "";

	if (s.med >= 1e9)
		div = 1e9, u = "G";
	else if (s.med >= 1e6)
		div = 1e6, u = "M";
	else if (s.med >= 1e3)
		div = 1e3, u = "k";
	if (s.n > 1)
		snprintf(buf, n, "%.2f%s [%.2f..%.2f]", s.med / div, u, s.min / div, s.max / div);
	else
		snprintf(buf, n, "%.2f%s", s.med / div, u);
}

static void fmt_ratio(char *buf, size_t n, struct spread s)
{
	if (!s.n)
		snprintf(buf, n, "-");
	else if (s.n > 1)
		snprintf(buf, n, "%.2fx [%.2f..%.2f]", s.med, s.min, s.max);
	else
		snprintf(buf, n, "%.2fx", s.med);
}

static void header(const struct group *g)
{
	unsigned t = g->threads;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	const char *over = t > (unsigned)cores ? " (oversubscribed)" : "";

	switch (g->wl) {
	case W_PF1: {
		const struct result *x = NULL;

		for (int m = 0; m < PP_NMODES && !x; m++)
			x = find(g, m, 0);
		size_t chunk = x ? x->chunk : 0;
		char per[32];

		/* the chunk is cut to fit the zone: at high thread counts it can
		 * be a few pages, a different workload (say so) */
		if (chunk * PP_PAGE_SIZE >= (1u << 20))
			snprintf(per, sizeof(per), "%zu MiB", chunk * PP_PAGE_SIZE >> 20);
		else
			snprintf(per, sizeof(per), "%zu page%s", chunk, chunk == 1 ? "" : "s");
		printf("\npage_fault1, %u thread%s%s, %.1f s x %u rounds, %s per loop per thread\n",
		       t, t > 1 ? "s" : "", over, pp_opt.seconds, pp_opt.rounds, per);
		printf("  %-12s %-24s %10s %9s %9s  %s\n", "mode", "pages/s", "per thread",
		       "CPU/page", "lock wait", "vs base (same round)");
		break;
	}
	case W_PFREE:
		printf("\nparallel_free, %u thread%s%s free %zu MiB, %u rounds\n", t, t > 1 ? "s" : "",
		       over, pp_arena_pages / 2 * PP_PAGE_SIZE >> 20, pp_opt.rounds);
		printf("  %-12s %-24s %10s %9s %9s  %s\n", "mode", "pages/s", "ms/round", "CPU/page",
		       "lock wait", "vs base (same round)");
		break;
	case W_HIGH:
		printf("\nhighalloc, %u order-9 attempts %u ms apart, %u churn thread%s holding %u%%, %u round%s\n",
		       pp_opt.attempts, g->delay_ms, t, t > 1 ? "s" : "", pp_opt.churn_pct,
		       pp_opt.rounds, pp_opt.rounds > 1 ? "s" : "");
		printf("  %-12s %-18s %12s %-24s %10s\n", "mode", "success", "avg alloc us",
		       "churn pages/s", "merged");
		break;
	case W_MIXED:
		printf("\nmixed, %u threads%s: %u order-0 page_fault1, %u order-9 (THP), %u rounds\n", t,
		       over, (t + 1) / 2, t / 2, pp_opt.rounds);
		printf("  %-12s %-24s %-20s %-24s %-20s %8s\n", "mode", "order0 pages/s", "vs base",
		       "THP pages/s", "vs base", "fallback");
		break;
	}
}

static void row(const struct group *g, int m)
{
	char a[64], b[64], c[64], d[64];
	struct spread rate = spread_of(g, m, F_RATE, false);
	struct spread cpu = spread_of(g, m, F_CPU, false);
	struct spread wait = spread_of(g, m, F_WAIT, false);

	switch (g->wl) {
	case W_PF1:
		fmt_rate(a, sizeof(a), rate);
		fmt_ratio(c, sizeof(c), spread_of(g, m, F_RATE, true));
		snprintf(b, sizeof(b), "%.2fM", rate.med / g->threads / 1e6);
		printf("  %-12s %-24s %10s %6.0f ns %8.1f%%  %s\n", pp_mode_name[m], a, b, cpu.med,
		       100 * wait.med, c);
		break;
	case W_PFREE:
		fmt_rate(a, sizeof(a), rate);
		fmt_ratio(c, sizeof(c), spread_of(g, m, F_RATE, true));
		printf("  %-12s %-24s %10.2f %6.0f ns %8.1f%%  %s\n", pp_mode_name[m], a,
		       spread_of(g, m, F_RATE2, false).med, cpu.med, 100 * wait.med, c);
		break;
	case W_HIGH: {
		struct spread s = spread_of(g, m, F_SUCCESS, false);

		if (s.n > 1)
			snprintf(b, sizeof(b), "%.0f%% [%.0f..%.0f]", 100 * s.med, 100 * s.min,
				 100 * s.max);
		else
			snprintf(b, sizeof(b), "%.0f%%", 100 * s.med);
		fmt_rate(a, sizeof(a), rate);
		printf("  %-12s %-18s %12.0f %-24s %10.0f\n", pp_mode_name[m], b,
		       spread_of(g, m, F_LAT, false).med, a, spread_of(g, m, F_MERGED, false).med);
		break;
	}
	case W_MIXED:
		fmt_rate(a, sizeof(a), rate);
		fmt_ratio(b, sizeof(b), spread_of(g, m, F_RATE, true));
		fmt_rate(c, sizeof(c), spread_of(g, m, F_RATE2, false));
		fmt_ratio(d, sizeof(d), spread_of(g, m, F_RATE2, true));
		printf("  %-12s %-24s %-20s %-24s %-20s %7.1f%%\n", pp_mode_name[m], a, b, c, d,
		       100 * spread_of(g, m, F_FALLBACK, false).med);
		break;
	}
}

static void why_line(const struct group *g)
{
	const struct result *cas = find(g, PP_CASLIST, 0), *base = find(g, PP_BASE, 0);

	printf("  why: %s", why[g->wl]);
	if (cas && base && g->wl != W_HIGH)
		printf("; CPU/page caslist %.0f ns, base %.0f ns; lock wait caslist %.1f%%, base %.1f%%",
		       spread_of(g, PP_CASLIST, F_CPU, false).med,
		       spread_of(g, PP_BASE, F_CPU, false).med,
		       100 * spread_of(g, PP_CASLIST, F_WAIT, false).med,
		       100 * spread_of(g, PP_BASE, F_WAIT, false).med);
	printf("\n");
}

void report_tables(void)
{
	for (size_t gi = 0; gi < pp_ngroups; gi++) {
		const struct group *g = &pp_groups[gi];

		header(g);
		for (int m = 0; m < PP_NMODES; m++)
			if (find(g, m, 0))
				row(g, m);
		for (int m = 0; m < PP_NMODES; m++) {
			uint64_t ooms = 0;

			for (unsigned r = 0; r < pp_opt.rounds; r++) {
				const struct result *x = find(g, m, r);

				ooms += x ? x->ooms : 0;
			}
			if (ooms)
				printf("  (%s: %" PRIu64 " allocation loops cut short by an empty zone)\n",
				       pp_mode_name[m], ooms);
		}
		cond_print(&g->cond);
		why_line(g);
	}
	fflush(stdout);
}

void report_json(void)
{
	printf("{\"cores\": %ld, \"pages\": %zu, \"batch\": %u, \"high\": %u, \"seconds\": %g, "
	       "\"rounds\": %u, \"pin\": \"%s\", \"points\": [",
	       sysconf(_SC_NPROCESSORS_ONLN), pp_arena_pages, pp_opt.batch, pp_opt.high,
	       pp_opt.seconds, pp_opt.rounds,
	       pp_opt.pin == PIN_SPREAD ? "spread" : pp_opt.pin == PIN_SHARED ? "shared" : "none");
	for (size_t i = 0; i < pp_nresults; i++) {
		const struct result *x = &pp_results[i];

		printf("%s\n  {\"workload\": \"%s\", \"mode\": \"%s\", \"threads\": %u, "
		       "\"delay_ms\": %u, \"round\": %u, \"pages\": %" PRIu64 ", \"wall_ns\": %" PRIu64
		       ", \"cpu_ns\": %" PRIu64 ", \"pages_per_s\": %.0f, \"cpu_ns_per_page\": %.1f, "
		       "\"rate2\": %.3f, \"lock_wait_fraction\": %.4f, \"success_rate\": %.4f, "
		       "\"avg_alloc_us\": %.1f, \"thp_fallback\": %.4f, \"compactions\": %" PRIu64
		       ", \"merged_pages\": %" PRIu64 ", \"pageblock_merges\": %" PRIu64
		       ", \"out_of_memory\": %" PRIu64 ", \"chunk_pages\": %zu}",
		       i ? "," : "", pp_wl_name[x->wl], pp_mode_name[x->mode], x->threads,
		       x->delay_ms, x->round, x->pages, x->wall_ns, x->cpu_ns, x->rate,
		       get(x, F_CPU), x->rate2, x->wait, x->success, x->lat_us, x->fallback,
		       x->compactions, x->merged, x->pb_merges, x->ooms, x->chunk);
	}
	printf("\n], \"conditions\": [");
	for (size_t i = 0; i < pp_ngroups; i++) {
		const struct pp_cond *c = &pp_groups[i].cond;

		printf("%s\n  {\"workload\": \"%s\", \"threads\": %u, \"delay_ms\": %u, "
		       "\"load_before\": %.2f, \"load_after\": %.2f, \"others\": %.3f, "
		       "\"steal\": %.3f, \"pingpong_ns\": [%.0f, %.0f, %.0f]}",
		       i ? "," : "", pp_wl_name[pp_groups[i].wl], pp_groups[i].threads,
		       pp_groups[i].delay_ms, c->load_before, c->load_after, c->others, c->steal,
		       c->pingpong_ns[0], c->pingpong_ns[1], c->pingpong_ns[2]);
	}
	printf("\n]}\n");
}
