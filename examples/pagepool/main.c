/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/pagepool/main.c - the driver's entry: map the arena, run the
 * points, print the tables or the JSON.
 *
 *   pagepool run [--workload W[,W..]|all] [--mode M[,M..]|all] [--threads LIST]
 *                [--seconds S] [--rounds N] [--mem SIZE] [--chunk SIZE]
 *                [--batch N] [--high N] [--stash PAGES] [--delays MS[,MS..]]
 *                [--attempts N] [--churn PCT] [--wmark PCT] [--chaos MS]
 *                [--pin[=spread|shared]] [--seed N] [--json] [--quiet]
 *
 * The parts: cli.c (options), points.c (the points and their rounds),
 * workers.c (the threads and the audit at the end of each point), cond.c
 * (the machine's conditions), report.c (tables, JSON).  Every point
 * (workload x mode x threads) runs on a fresh zone over the same arena and
 * ends with the audit (audit.c): with the caches full, after they are
 * drained, and after every skipped page is merged back, when the whole
 * zone must be order-10 blocks again.  A failed audit exits 1
 * (examples/common/cli.h lists the statuses).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "driver.h"

unsigned char *pp_arena;

int main(int argc, char **argv)
{
	cli_parse(argc, argv);
	cond_init();
	pp_arena = mmap(NULL, pp_arena_pages * PP_PAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pp_arena == MAP_FAILED) {
		fprintf(stderr, "pagepool: cannot map %zu MiB: %s\n",
			pp_arena_pages * PP_PAGE_SIZE >> 20, strerror(errno));
		return 1;
	}
	/* Back the arena with huge pages where the kernel allows it, then
	 * fault it all in: the runs then measure the allocator, not the
	 * kernel's page faults or a TLB miss that varies from run to run. */
	bool thp = madvise(pp_arena, pp_arena_pages * PP_PAGE_SIZE, MADV_HUGEPAGE) == 0;

	for (size_t i = 0; i < pp_arena_pages; i++)
		pp_arena[i << PP_PAGE_SHIFT] = 0;
	if (!pp_opt.json)
		printf("pagepool: %zu MiB zone (%zu pages), %ld cores, batch %u, high %u, wmark %u%%\n"
		       "  zone lock: test-and-test-and-set spinlock (yields after 128 spins); "
		       "arena madvise(MADV_HUGEPAGE) %s\n",
		       pp_arena_pages * PP_PAGE_SIZE >> 20, pp_arena_pages,
		       sysconf(_SC_NPROCESSORS_ONLN), pp_opt.batch, pp_opt.high, pp_opt.wmark_pct,
		       thp ? "ok" : "refused");
	fflush(stdout);
	points_run_all();
	if (pp_opt.json) {
		report_json();
	} else {
		report_tables();
		printf("\npagepool: %zu points, every audit passed (pages conserved, buddy invariants, "
		       "zone fully re-merged)\n", pp_nresults);
	}
	munmap(pp_arena, pp_arena_pages * PP_PAGE_SIZE);
	free(pp_results);
	free(pp_groups);
	return 0;
}
