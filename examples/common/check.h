/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/check.h - end-of-run checks that count themselves and
 * print each failure as "PROG: FAIL: ...", and a watchdog that turns a hang
 * into a failure (exit 3).
 */
#ifndef CASLIST_EXAMPLES_CHECK_H
#define CASLIST_EXAMPLES_CHECK_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct checks {
	const char *prog;
	int n, failed;
};

__attribute__((format(printf, 3, 4))) static inline void check(struct checks *c, int cond,
							       const char *fmt, ...)
{
	va_list ap;

	c->n++;
	if (cond)
		return;
	c->failed++;
	fprintf(stderr, "%s: FAIL: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static inline void watchdog_fire(int sig)
{
	static const char msg[] = "TIMEOUT (deadlock or livelock?)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

/* Exit 3 after CASLIST_STRESS_WATCHDOG seconds (default: 10x the run +
 * 120 s): a hang is a failure, never a stuck test. */
static inline void watchdog_arm(double seconds)
{
	const char *wd = getenv("CASLIST_STRESS_WATCHDOG");

	signal(SIGALRM, watchdog_fire);
	alarm(wd ? (unsigned)atoi(wd) : (unsigned)(seconds * 10) + 120);
}

#endif /* CASLIST_EXAMPLES_CHECK_H */
