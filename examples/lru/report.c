/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/lru/report.c - the results: a table (ops/s, hit ratio,
 * evictions/s, the ratio to mutex at the same thread count, the highest
 * live count, the checks), or --json with every counter, one result
 * object per line.
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

/* The mutex run at the same thread count, or NULL. */
static const struct result *mutex_peer(const struct result *r, int n, int threads)
{
	for (int i = 0; i < n; i++)
		if (r[i].impl == IMPL_MUTEX && r[i].threads == threads)
			return &r[i];
	return NULL;
}

void print_table(const struct config *cfg, const struct result *r, int n)
{
	printf("lrucache: capacity=%zu keys=%zu zipf=%.2f get=%.2f value=%zuB policy=%s "
	       "reclaim=%s %s=%g seed=%llu\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim),
	       cfg->ops ? "ops/thread" : "seconds",
	       cfg->ops ? (double)cfg->ops : cfg->seconds, (unsigned long long)cfg->seed);
	printf("%7s %-8s %12s %7s %11s %8s %9s  %s\n", "threads", "impl", "ops/s", "hit%",
	       "evict/s", "vs mutex", "max live", "checks");
	for (int i = 0; i < n; i++) {
		const struct result *m = mutex_peer(r, n, r[i].threads);
		double ops = rate(r[i].st.ops, r[i].secs);
		char vs[16] = "-";

		if (m && rate(m->st.ops, m->secs) > 0)
			snprintf(vs, sizeof(vs), "%.2fx", ops / rate(m->st.ops, m->secs));
		printf("%7d %-8s %12.0f %7.2f %11.0f %8s %9zu  %d/%d %s\n", r[i].threads,
		       lru_impls[r[i].impl]->name, ops, hit_pct(&r[i].st),
		       rate(r[i].st.evictions, r[i].secs), vs, r[i].max_live,
		       r[i].checks - r[i].failed, r[i].checks, r[i].failed ? "FAIL" : "ok");
	}
}

void print_json(const struct config *cfg, const struct result *r, int n)
{
	printf("{\"config\":{\"capacity\":%zu,\"keys\":%zu,\"zipf\":%g,\"get_ratio\":%g,"
	       "\"value_size\":%zu,\"policy\":\"%s\",\"reclaim\":\"%s\",\"seconds\":%g,"
	       "\"ops_per_thread\":%lld,\"shards\":%u,\"seed\":%llu},\n\"results\":[\n",
	       cfg->capacity, 10 * cfg->capacity, cfg->zipf, cfg->get_ratio, cfg->value_size,
	       policy_name(cfg->policy), reclaim_name(cfg->reclaim), cfg->ops ? 0 : cfg->seconds,
	       cfg->ops, cfg->shards, (unsigned long long)cfg->seed);
	for (int i = 0; i < n; i++) {
		const struct result *m = mutex_peer(r, n, r[i].threads);
		const struct stats *s = &r[i].st;
		double ops = rate(s->ops, r[i].secs);

		printf("{\"threads\":%d,\"impl\":\"%s\",\"seconds\":%.6f,\"ops\":%llu,"
		       "\"ops_per_s\":%.0f,\"gets\":%llu,\"hits\":%llu,\"hit_ratio\":%.6f,"
		       "\"sets\":%llu,\"inserts\":%llu,\"replaces\":%llu,\"evictions\":%llu,"
		       "\"evictions_per_s\":%.0f,\"second_chances\":%llu,\"lost_races\":%llu,"
		       "\"rotate_gone\":%llu,\"gate_waits\":%llu,\"max_live\":%zu,"
		       "\"slack\":%zu,\"ratio_to_mutex\":",
		       r[i].threads, lru_impls[r[i].impl]->name, r[i].secs, (unsigned long long)s->ops,
		       ops, (unsigned long long)s->gets, (unsigned long long)s->hits,
		       s->gets ? (double)s->hits / (double)s->gets : 0,
		       (unsigned long long)s->sets, (unsigned long long)s->inserts,
		       (unsigned long long)s->replaces, (unsigned long long)s->evictions,
		       rate(s->evictions, r[i].secs), (unsigned long long)s->second_chances,
		       (unsigned long long)s->lost_races, (unsigned long long)s->rotate_gone,
		       (unsigned long long)s->gate_waits, r[i].max_live, r[i].slack);
		if (m && rate(m->st.ops, m->secs) > 0)
			printf("%.4f", ops / rate(m->st.ops, m->secs));
		else
			printf("null");
		printf(",\"checks\":%d,\"failed\":%d}%s\n", r[i].checks, r[i].failed,
		       i + 1 < n ? "," : "");
	}
	printf("]}\n");
}
