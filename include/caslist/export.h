/* SPDX-License-Identifier: BSD-2-Clause */
/* caslist/export.h - symbol visibility for the public API. */
#ifndef CASLIST_EXPORT_H
#define CASLIST_EXPORT_H

/* The library is built with -fvisibility=hidden; only CASLIST_API names are
 * exported from the shared object. */
#if defined(CASLIST_BUILDING) && defined(__GNUC__)
#define CASLIST_API __attribute__((visibility("default")))
#else
#define CASLIST_API
#endif

#endif /* CASLIST_EXPORT_H */
