/* SPDX-License-Identifier: BSD-2-Clause */
/* lib/debug.c - the cold misuse reporter (see debug.h). */
#include <stdio.h>
#include <stdlib.h>

#include "debug.h"

void caslist__misuse(const char *op, const void *node, const char *what)
{
	fprintf(stderr, "caslist: %s(%p): %s\n", op, node, what);
	fflush(stderr);
	abort();
}
