/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/fl_untouched.c - caslist_fl_take does not touch the taken nodes' memory
 * inside its critical section.  Each node sits alone on its own page; the
 * pages of every node strictly inside a cluster are mprotect(PROT_NONE)
 * before the take.  A SIGSEGV handler records the faulting page, unprotects
 * it and lets the access go on, so the test counts every touch.  Expected:
 * zero touches for a take of several clusters (only each cluster's first
 * and last node, and the list head, are written).  Control: the same take
 * inside a scan window fixes nodes up eagerly, so it must touch them; this
 * shows the probe sees touches.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <caslist/caslist.h>

#include "../tap.h"

#define CLUSTERS 4
#define PER 8
#define NODES (CLUSTERS * PER)

static struct caslist_fl FL;
static char *pages;
static size_t pagesz;
static volatile sig_atomic_t touches;

static struct caslist_fl_node *node(int i)
{
	return (struct caslist_fl_node *)(void *)(pages + (size_t)i * pagesz);
}

static int interior(int i)
{
	return i % PER != 0 && i % PER != PER - 1;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	char *page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)(pagesz - 1));

	(void)sig;
	(void)ctx;
	if (page < pages || page >= pages + (size_t)NODES * pagesz)
		_exit(99); /* a real crash */
	touches++;
	mprotect(page, pagesz, PROT_READ | PROT_WRITE);
}

static void fill(void)
{
	for (int c = 0; c < CLUSTERS; c++) {
		for (int i = 0; i < PER; i++) {
			caslist_fl_node_init(node(c * PER + i));
			if (i > 0)
				caslist_chain_link(&node(c * PER + i - 1)->link, &node(c * PER + i)->link);
		}
		caslist_fl_put_batch(&FL, node(c * PER), node(c * PER + PER - 1), PER);
	}
}

static void protect(int prot)
{
	for (int i = 0; i < NODES; i++)
		if (interior(i))
			mprotect(pages + (size_t)i * pagesz, pagesz, prot);
}

/* Take all clusters with the interior protected; returns touches seen. */
static int take_all(size_t *n)
{
	struct caslist_fl_batch b;
	int seen;

	touches = 0;
	protect(PROT_NONE);
	*n = caslist_fl_take(&FL, NODES, &b);
	seen = touches;
	protect(PROT_READ | PROT_WRITE);
	while (caslist_fl_batch_next(&b) != NULL) /* per-node work, unprotected */
		;
	return seen;
}

int main(void)
{
	struct sigaction sa;
	size_t n, nodes = 1;
	int seen;

	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	pages = mmap(NULL, (size_t)NODES * pagesz, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);

	caslist_fl_init(&FL, PER);
	fill();
	seen = take_all(&n);
	tap_ok(n == NODES && seen == 0,
	       "take of %d clusters x %d nodes touched %d interior node pages (want 0)", CLUSTERS,
	       PER, seen);
	tap_ok(caslist_fl_check(&FL, &nodes, NULL) == 0 && nodes == 0, "free list empty and sound");

	fill();
	caslist_fl_scan_begin(&FL);
	seen = take_all(&n);
	caslist_fl_scan_end(&FL);
	tap_ok(n == NODES && seen >= CLUSTERS * (PER - 2),
	       "control: eager take in a scan window touched %d interior pages (want >= %d)", seen,
	       CLUSTERS * (PER - 2));
	tap_ok(caslist_fl_check(&FL, NULL, NULL) == 0, "free list sound after the control");
	caslist_fl_destroy(&FL);
	return tap_done();
}
