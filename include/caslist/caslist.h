/* SPDX-License-Identifier: BSD-2-Clause */
/* caslist/caslist.h - everything libcaslist offers. */
#ifndef CASLIST_CASLIST_H
#define CASLIST_CASLIST_H

#include <caslist/version.h>
#include <caslist/list.h>
#include <caslist/freelist.h>

#endif /* CASLIST_CASLIST_H */
