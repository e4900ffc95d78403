/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/unit/hang.c - misuse that hangs says why, in every build (TAP).
 *
 * Each case runs in a forked child that misuses the list in a way no
 * check can catch at once and that leaves an operation waiting for ever:
 *   freed    a linked node's memory is overwritten (freed and reused) while
 *            it is linked: a pop waits on its lock bit for ever;
 *   garbage  a list header full of garbage (0xff bytes): add_head waits
 *            on a "locked" head word;
 *   sig-add  a signal handler calls caslist_add_head while the code it
 *            interrupted holds the head's link (here: taken with
 *            caslist_link_lock, as an add would hold it);
 *   sig-pop  the same with caslist_pop_tail while the tail's link is held;
 *   twice    a node added twice: a plain add racing a caslist_touch that
 *            claimed the node (its word CLAIMED, POISON_NEXT|1) and whose
 *            insert the add overwrote: the claim is never completed, and
 *            a delete waits on it; the line names the word and the cause;
 *   stale    a linked node whose prev word reads CASLIST_POISON_PREV (as
 *            through a stale pointer to a node removed and freed): the
 *            delete waits on "link" 0x122, and the line names it.
 * Each child must print the stuck-wait line ("caslist: stuck link ...",
 * with the waiting operation and the likely causes) within 10 s with the
 * DEFAULT threshold (CASLIST_STUCK_MS unset), and keep waiting: the
 * parent reads its stderr, then kills it.  The children run at once, so
 * the test takes about the default threshold (5 s).
 *
 * Under ThreadSanitizer the signal cases are skipped: TSan defers signals
 * and reports a handler's unsafe calls - the misuse itself - before the
 * line can come.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <caslist/caslist.h>

#include "tap.h"

#if defined(__SANITIZE_THREAD__)
#define HANG_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HANG_TSAN 1
#endif
#endif

static struct caslist_list L;
static struct caslist_node nodes[4];

static void setup(void)
{
	caslist_init(&L);
	for (int i = 0; i < 4; i++) {
		caslist_node_init(&nodes[i]);
		caslist_add_tail(&L, &nodes[i]);
	}
}

static void freed(void)
{
	setup();
	/* The first node "freed" and its memory reused: its words are now
	 * whatever the new owner wrote (an odd value: looks locked). */
	memset(&nodes[0], 0xa5, sizeof(nodes[0]));
	(void)caslist_pop_head(&L);
}

static void garbage(void)
{
	static struct caslist_node n;

	memset(&L, 0xff, sizeof(L));
	caslist_node_init(&n);
	caslist_add_head(&L, &n);
}

static void on_sig_add(int sig)
{
	static struct caslist_node n;

	(void)sig;
	caslist_node_init(&n);
	caslist_add_head(&L, &n);	/* the interrupted code holds the head */
}

static void sig_add(void)
{
	setup();
	signal(SIGUSR1, on_sig_add);
	(void)caslist_link_lock(&L.head);	/* as an add holds it, interrupted */
	raise(SIGUSR1);
}

static void on_sig_pop(int sig)
{
	(void)sig;
	(void)caslist_pop_tail(&L);	/* the interrupted code holds the tail */
}

static void sig_pop(void)
{
	setup();
	signal(SIGUSR1, on_sig_pop);
	(void)caslist_link_lock(&nodes[3]);	/* the tail's link */
	raise(SIGUSR1);
}

static void twice(void)
{
	setup();
	/* What the lost race leaves: the touch's claim (CLAIMED) on a node
	 * the plain add linked; nobody will ever complete it. */
	atomic_store(&nodes[1].next, CASLIST_POISON_NEXT | 1u);
	(void)caslist_del(&nodes[1]);
}

static void stale(void)
{
	setup();
	atomic_store(&nodes[1].prev, CASLIST_POISON_PREV);
	(void)caslist_del(&nodes[1]);
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *waiter;
	int signal;
	const char *also;	/* must be in the line too (NULL: nothing more) */
} cases[] = {
	{ "a linked node freed and overwritten", freed, "caslist_pop_head", 0, NULL },
	{ "a list header full of garbage", garbage, "caslist_add_head", 0, NULL },
	{ "add_head from a signal handler that interrupted the head's holder", sig_add,
	  "caslist_add_head", 1, NULL },
	{ "pop_tail from a signal handler that interrupted the tail's holder", sig_pop,
	  "caslist_pop_tail", 1, NULL },
	{ "a node added twice (plain add racing a touch)", twice, "caslist_del", 0,
	  "its word is CASLIST_LK_CLAIMED" },
	{ "a stale prev word (a node removed and freed)", stale, "caslist_del", 0,
	  "stuck link 0x122 (CASLIST_POISON_PREV" },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(void)
{
	pid_t pid[NCASES];
	int fd[NCASES];
	char buf[NCASES][2048];
	size_t got[NCASES] = { 0 };
	struct timespec t0, t;

	unsetenv("CASLIST_STUCK_MS");	/* the default threshold */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < NCASES; i++) {
		int p[2];

		pid[i] = -1;
		fd[i] = -1;
		buf[i][0] = '\0';
#ifdef HANG_TSAN
		if (cases[i].signal)
			continue;
#endif
		if (pipe(p) != 0)
			return 99;
		fflush(stdout);
		pid[i] = fork();
		if (pid[i] == 0) {
			dup2(p[1], 2);
			close(p[0]);
			close(p[1]);
			cases[i].fn();
			_exit(0);	/* must not get here: the op waits for ever */
		}
		close(p[1]);
		fd[i] = p[0];
		fcntl(fd[i], F_SETFL, O_NONBLOCK);
	}
	/* Read every child's stderr until it printed its line, or 10 s. */
	for (;;) {
		int waiting = 0;

		for (size_t i = 0; i < NCASES; i++) {
			ssize_t n;

			if (fd[i] < 0 || strchr(buf[i], '\n') != NULL)
				continue;
			n = read(fd[i], buf[i] + got[i], sizeof(buf[i]) - 1 - got[i]);
			if (n > 0) {
				got[i] += (size_t)n;
				buf[i][got[i]] = '\0';
			}
			if (strchr(buf[i], '\n') == NULL && n != 0)
				waiting++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (waiting == 0 || t.tv_sec - t0.tv_sec >= 10)
			break;
		usleep(20000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (size_t i = 0; i < NCASES; i++) {
		int status = 0, alive;

		if (pid[i] < 0) {
			char why[160];

			snprintf(why, sizeof(why), "%s: TSan build (signals)", cases[i].name);
			tap_skip(why);
			continue;
		}
		alive = waitpid(pid[i], &status, WNOHANG) == 0;	/* still waiting */
		kill(pid[i], SIGKILL);
		waitpid(pid[i], &status, 0);
		close(fd[i]);
		if (!tap_ok(alive && strstr(buf[i], "caslist: stuck link ") != NULL &&
				    strstr(buf[i], cases[i].waiter) != NULL &&
				    strstr(buf[i], "likely causes") != NULL &&
				    strstr(buf[i], "a node added twice (caslist_add_* of a node another"
						   " thread may caslist_touch") != NULL &&
				    (cases[i].also == NULL || strstr(buf[i], cases[i].also) != NULL),
			    "%s: one line naming %s and the likely causes, within 10 s",
			    cases[i].name, cases[i].waiter))
			printf("# child %s, stderr: %s\n", alive ? "waiting" : "ended", buf[i]);
		else
			printf("# %s", buf[i]);
	}
	printf("# all lines within %ld s\n", (long)(t.tv_sec - t0.tv_sec));
	return tap_done();
}
