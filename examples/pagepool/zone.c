/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/zone.c - zone and thread-cache set-up, mode names.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

const char *const pp_mode_name[PP_NMODES] = {
	[PP_BASE] = "base",
	[PP_NOMERGE] = "nomerge",
	[PP_CLUSTER] = "cluster",
	[PP_CLUSTERFREE] = "clusterfree",
	[PP_CASLIST] = "caslist",
};

int pp_mode_parse(const char *s)
{
	for (int m = 0; m < PP_NMODES; m++)
		if (strcmp(s, pp_mode_name[m]) == 0)
			return m;
	return -1;
}

void pp_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("pagepool: FATAL: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

void pp_zone_init(struct pp_zone *z, enum pp_mode mode, unsigned char *mem, size_t nr_pages,
		  unsigned batch, unsigned high, size_t merge_wmark, unsigned merge_ms,
		  size_t stash_max)
{
	size_t block = (size_t)1 << PP_MAX_ORDER;

	if (nr_pages == 0 || nr_pages % block)
		pp_die("zone size %zu pages is not a multiple of %zu", nr_pages, block);
	memset(z, 0, sizeof(*z));
	z->mode = mode;
	z->mem = mem;
	z->nr_pages = nr_pages;
	z->batch = batch;
	z->high = high;
	z->pages = calloc(nr_pages, sizeof(*z->pages));
	if (!z->pages)
		pp_die("out of memory for %zu page descriptors", nr_pages);
	zlock_init(&z->lock);
	for (unsigned o = 0; o <= PP_MAX_ORDER; o++)
		area_init(&z->area[o]);
	area_init(&z->skip0);
	/* One cluster per returned batch; reserve descriptors so that no put
	 * allocates (live clusters never outnumber free pages). */
	caslist_fl_init(&z->fl0, batch);
	if (mode_clusters(z))
		caslist_fl_reserve(&z->fl0, nr_pages / 8 + 64);
	z->merge_wmark = merge_wmark;
	z->merge_ms = merge_ms;
	z->stash_max = mode == PP_CASLIST ? stash_max : 0;
	atomic_init(&z->drain_gen, 0);
	atomic_init(&z->merger_stop, false);
	pp_cpu_init(&z->merger_cpu, z, UINT32_MAX);
	z->pb_skip = aligned_alloc(64, nr_pages / PP_PAGEBLOCK * sizeof(*z->pb_skip));
	if (z->pb_skip)
		memset(z->pb_skip, 0, nr_pages / PP_PAGEBLOCK * sizeof(*z->pb_skip));
	if (!z->pb_skip)
		pp_die("out of memory for pageblock counters");
	atomic_init(&z->high_free, nr_pages);
	for (size_t i = 0; i < nr_pages; i++) {
		struct pp_page *p = &z->pages[i];

		caslist_fl_node_init(&p->fl);
		atomic_init(&p->state, PG_TAIL);
		atomic_init(&p->owner, 0);
	}
	for (size_t i = 0; i < nr_pages; i += block) {
		struct pp_page *p = &z->pages[i];

		pg_set_state(p, PG_FREE_BUDDY);
		p->order = PP_MAX_ORDER;
		area_add(&z->area[PP_MAX_ORDER], p);
	}
}

void pp_zone_destroy(struct pp_zone *z)
{
	caslist_fl_destroy(&z->fl0);
	free(z->pages);
	free(z->pb_skip);
	pp_cpu_destroy(&z->merger_cpu);
	z->pages = NULL;
	z->pb_skip = NULL;
}

void pp_cpu_init(struct pp_cpu *c, struct pp_zone *z, uint32_t tag)
{
	memset(c, 0, sizeof(*c));
	c->z = z;
	c->tag = tag;
	/* relaxed: see stash_check_drain (order0.c). */
	c->drain_seen = atomic_load_explicit(&z->drain_gen, memory_order_relaxed);
}

void pp_cpu_destroy(struct pp_cpu *c)
{
	free(c->stash.ring);
	c->stash.ring = NULL;
}

/* The background merger: see pp_zone.merge_ms. */
static void *merger_main(void *arg)
{
	struct pp_zone *z = arg;
	size_t npb = z->nr_pages / PP_PAGEBLOCK;
	unsigned char *seen = calloc(npb, 1);

	if (!seen)
		pp_die("out of memory for the merger");
	/* relaxed: a stop flag; pthread_join orders what matters. */
	while (!atomic_load_explicit(&z->merger_stop, memory_order_relaxed)) {
		usleep(z->merge_ms * 1000u);
		for (size_t pb = 0; pb < npb; pb++) {
			/* relaxed: a hint; the merge decides page by page
			 * with the order-0 list's remove, under the zone lock. */
			if (atomic_load_explicit(&z->pb_skip[pb].n, memory_order_relaxed) !=
			    (int32_t)PP_PAGEBLOCK) {
				seen[pb] = 0;
			} else if (++seen[pb] < PP_MERGE_SCANS) {
				continue;
			} else {
				seen[pb] = 0;
				zone_lock(&z->merger_cpu);
				z->merger_cpu.st.merged_pages += pb_merge_locked(z, pb);
				zone_unlock(&z->merger_cpu);
				z->merger_cpu.st.pb_merges++;
			}
		}
	}
	free(seen);
	return NULL;
}

void pp_zone_start(struct pp_zone *z)
{
	if (!mode_skips(z) || z->merge_ms == 0)
		return;
	if (pthread_create(&z->merger, NULL, merger_main, z))
		pp_die("cannot start the merger thread");
	z->merger_running = true;
}

void pp_zone_stop(struct pp_zone *z)
{
	if (!z->merger_running)
		return;
	/* relaxed: see merger_main. */
	atomic_store_explicit(&z->merger_stop, true, memory_order_relaxed);
	pthread_join(z->merger, NULL);
	z->merger_running = false;
}
