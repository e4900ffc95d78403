/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/report.c - the results: a table (ops/s, hit ratio,
 * evictions/s; the ratios formed inside this invocation: to mutex and to
 * sharded at the same thread count, and to the same impl at 1 thread; the
 * point's conditions: other processes' and steal's share of all CPU time,
 * the runs it took, "!" where it stayed disturbed; the highest live count,
 * the checks), or --json with every counter, one result object per line.
 */
#include <stdio.h>

#include "cache.h"

static const char *policy_name(enum policy p)
{
	return p == POLICY_LAZY ? "lazy" : p == POLICY_BATCHED ? "batched" : "strict";
}

static const char *reclaim_name(enum reclaim r)
{
	return r == RECLAIM_THREAD ? "thread" : "inline";
}

static double rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0;
}

static double hit_pct(const struct stats *s)
{
	return s->gets ? 100.0 * (double)s->hits / (double)s->gets : 0;
}

/* The run of @impl at @threads threads, or NULL. */
static const struct result *find_run(const struct result *r, int n, enum impl impl, int threads)
{
	for (int i = 0; i < n; i++)
		if (r[i].impl == impl && r[i].threads == threads)
			return &r[i];
	return NULL;
}

/* x's rate over the rate of @impl at @threads threads; < 0: none. */
static double ratio_to(const struct result *x, const struct result *r, int n, enum impl impl,
		       int threads)
{
	const struct result *m = find_run(r, n, impl, threads);
	double base = m ? rate(m->st.ops, m->secs) : 0;

	return base > 0 ? rate(x->st.ops, x->secs) / base : -1;
}

/* The ratios a row shows, in the order of the table's columns. */
enum { VS_MUTEX, VS_SHARDED, VS_1T, NVS };

static void ratios(const struct result *x, const struct result *r, int n, double vs[NVS])
{
	vs[VS_MUTEX] = ratio_to(x, r, n, IMPL_MUTEX, x->threads);
	vs[VS_SHARDED] = ratio_to(x, r, n, IMPL_SHARDED, x->threads);
	vs[VS_1T] = ratio_to(x, r, n, x->impl, 1);
}

void print_table(const struct config *cfg, const struct result *r, int n)
{
	printf("lrucache: capacity=%zu keys=%zu zipf=%.2f get=%.2f value=%zuB policy=%s "
	       "reclaim=%s %s=%g seed=%llu\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim),
	       cfg->ops ? "ops/thread" : "seconds",
	       cfg->ops ? (double)cfg->ops : cfg->seconds, (unsigned long long)cfg->seed);
	printf("%7s %-8s %12s %7s %11s %8s %8s %8s %18s %9s  %s\n", "threads", "impl", "ops/s",
	       "hit%", "evict/s", "vs mutex", "vs shard", "vs 1t", "others/steal runs", "max live",
	       "checks");
	for (int i = 0; i < n; i++) {
		double vs[NVS];
		char col[NVS][16], cond[32];

		ratios(&r[i], r, n, vs);
		for (int k = 0; k < NVS; k++)
			if (vs[k] < 0)
				snprintf(col[k], sizeof(col[k]), "-");
			else
				snprintf(col[k], sizeof(col[k]), "%.2fx", vs[k]);
		snprintf(cond, sizeof(cond), "%.0f%%/%.0f%% %d%s", 100 * r[i].others, 100 * r[i].steal,
			 r[i].tries, r[i].disturbed ? "!" : "");
		printf("%7d %-8s %12.0f %7.2f %11.0f %8s %8s %8s %18s %9zu  %d/%d %s\n", r[i].threads,
		       lru_impls[r[i].impl]->name, rate(r[i].st.ops, r[i].secs), hit_pct(&r[i].st),
		       rate(r[i].st.evictions, r[i].secs), col[VS_MUTEX], col[VS_SHARDED], col[VS_1T],
		       cond, r[i].max_live, r[i].checks - r[i].failed, r[i].checks,
		       r[i].failed ? "FAIL" : "ok");
	}
	printf("others/steal runs: other processes' and steal's share of all CPU time in the timed part, "
	       "then the runs the point took (--retries), \"!\": still over --max-disturbed %.2f\n",
	       cfg->max_disturbed);
}

/* A ratio as JSON: the number, or null. */
static void json_ratio(const char *key, double v)
{
	if (v < 0)
		printf(",\"%s\":null", key);
	else
		printf(",\"%s\":%.4f", key, v);
}

void print_json(const struct config *cfg, const struct result *r, int n)
{
	printf("{\"config\":{\"capacity\":%zu,\"keys\":%zu,\"zipf\":%g,\"get_ratio\":%g,"
	       "\"value_size\":%zu,\"policy\":\"%s\",\"reclaim\":\"%s\",\"seconds\":%g,"
	       "\"ops_per_thread\":%lld,\"shards\":%u,\"seed\":%llu,\"retries\":%d,"
	       "\"max_disturbed\":%g},\n\"results\":[\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim), cfg->ops ? 0 : cfg->seconds,
	       cfg->ops, cfg->shards, (unsigned long long)cfg->seed, cfg->retries,
	       cfg->max_disturbed);
	for (int i = 0; i < n; i++) {
		const struct stats *s = &r[i].st;
		double ops = rate(s->ops, r[i].secs);
		double vs[NVS];

		ratios(&r[i], r, n, vs);
		printf("{\"threads\":%d,\"impl\":\"%s\",\"seconds\":%.6f,\"ops\":%llu,"
		       "\"ops_per_s\":%.0f,\"gets\":%llu,\"hits\":%llu,\"hit_ratio\":%.6f,"
		       "\"sets\":%llu,\"inserts\":%llu,\"replaces\":%llu,\"evictions\":%llu,"
		       "\"evictions_per_s\":%.0f,\"second_chances\":%llu,\"lost_races\":%llu,"
		       "\"rotate_gone\":%llu,\"gate_waits\":%llu,\"max_live\":%zu,"
		       "\"slack\":%zu,\"others\":%.4f,\"steal\":%.4f,\"tries\":%d,"
		       "\"disturbed\":%s",
		       r[i].threads, lru_impls[r[i].impl]->name, r[i].secs, (unsigned long long)s->ops,
		       ops, (unsigned long long)s->gets, (unsigned long long)s->hits,
		       s->gets ? (double)s->hits / (double)s->gets : 0,
		       (unsigned long long)s->sets, (unsigned long long)s->inserts,
		       (unsigned long long)s->replaces, (unsigned long long)s->evictions,
		       rate(s->evictions, r[i].secs), (unsigned long long)s->second_chances,
		       (unsigned long long)s->lost_races, (unsigned long long)s->rotate_gone,
		       (unsigned long long)s->gate_waits, r[i].max_live, r[i].slack, r[i].others,
		       r[i].steal, r[i].tries, r[i].disturbed ? "true" : "false");
		json_ratio("ratio_to_mutex", vs[VS_MUTEX]);
		json_ratio("ratio_to_sharded", vs[VS_SHARDED]);
		json_ratio("ratio_to_own_1t", vs[VS_1T]);
		printf(",\"checks\":%d,\"failed\":%d}%s\n", r[i].checks, r[i].failed,
		       i + 1 < n ? "," : "");
	}
	printf("]}\n");
}
