/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/misuse.c - debug-build misuse checks abort with a message naming the
 * operation and the node address.  Built with the core compiled in and
 * CASLIST_DEBUG=1 whatever the configuration.  Each case runs in a forked
 * child; the parent checks it died of SIGABRT and what it printed.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <caslist/caslist.h>

#include "tap.h"

static struct caslist_list L;
static struct caslist_node a, b, c;

static void setup(void)
{
	caslist_init(&L);
	caslist_node_init(&a);
	caslist_node_init(&b);
	caslist_node_init(&c);
}

static void add_linked(void)
{
	caslist_add_head(&L, &a);
	caslist_add_head(&L, &a);
}

static void add_tail_linked(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &a);
}

static void del_unlinked(void)
{
	caslist_del(&a);
}

static void double_del(void)
{
	caslist_add_head(&L, &a);
	caslist_del(&a);
	caslist_del(&a);
}

static void cut_unlinked(void)
{
	caslist_add_head(&L, &b);
	caslist_cut_front(&L, &a);
}

static void corrupt_del(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&b.prev, (uintptr_t)&c); /* b->prev should be &a */
	caslist_del(&a);
}

static void corrupt_add(void)
{
	caslist_add_tail(&L, &a);
	caslist_add_tail(&L, &b);
	atomic_store(&b.prev, (uintptr_t)&L.head); /* b->prev should be &a */
	caslist_add_after(&a, &c);
}

/* Run fn in a child; 1 if it died of SIGABRT printing "op(node)" and what. */
static int aborts(void (*fn)(void), const char *op, const void *node, const char *what)
{
	int fd[2], status;
	char buf[512] = "", want[128];
	ssize_t len, got = 0;
	pid_t pid;

	if (pipe(fd) != 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		setup();
		fn();
		_exit(0); /* not caught: the parent sees exit 0 */
	}
	close(fd[1]);
	while ((len = read(fd[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += len;
	buf[got] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	snprintf(want, sizeof(want), "caslist: %s(%p): ", op, node);
	if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) || !strstr(buf, want) ||
	    !strstr(buf, what)) {
		printf("# child status %d, stderr: %s", status, buf);
		return 0;
	}
	return 1;
}

int main(void)
{
	tap_ok(aborts(add_linked, "caslist_add_head", &a, "already linked"),
	       "add_head of a linked node aborts");
	tap_ok(aborts(add_tail_linked, "caslist_add_tail", &a, "already linked"),
	       "add_tail of a linked node aborts");
	tap_ok(aborts(del_unlinked, "caslist_del", &a, "not linked"),
	       "del of a never-linked node aborts");
	tap_ok(aborts(double_del, "caslist_del", &a, "double delete"), "double del aborts");
	tap_ok(aborts(cut_unlinked, "caslist_cut_front", &a, "not linked"),
	       "cut_front with last not on the list aborts");
	tap_ok(aborts(corrupt_del, "caslist_del", &a, "next->prev != self"),
	       "del with a corrupted neighbour link aborts");
	tap_ok(aborts(corrupt_add, "caslist_add_after", &a, "next->prev != self"),
	       "add_after with a corrupted neighbour link aborts");
	return tap_done();
}
