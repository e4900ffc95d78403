/* SPDX-License-Identifier: BSD-2-Clause */
/* test/tap.h - minimal TAP output for the test programs. */
#ifndef CASLIST_TEST_TAP_H
#define CASLIST_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* A test that does not apply to this build. */
static inline int tap_skip(const char *why)
{
	tap_n++;
	printf("ok %d # SKIP %s\n", tap_n, why);
	fflush(stdout);
	return 1;
}

/* Closing lines: the TAP plan and a count CI can read. */
static inline int tap_done(void)
{
	printf("1..%d\n# %d passed, %d failed\n", tap_n, tap_n - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif /* CASLIST_TEST_TAP_H */
