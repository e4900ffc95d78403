/* SPDX-License-Identifier: BSD-2-Clause */
/* lib/version.c - the library's version, for comparison with the headers'. */
#include <caslist/version.h>

int caslist_version(void)
{
	return CASLIST_VERSION;
}
