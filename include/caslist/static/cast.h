/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/cast.h> - the casts of the public headers and of the
 * inline layer, on their own: <caslist/list.h> includes this, and so do
 * the static/ headers that need a cast but nothing else of list.h
 * (debug.h).  Were those to include list.h, a first inclusion of a
 * static/ header before CASLIST_INLINE is defined would take list.h
 * without its inline mode, and its include guard would keep the inline
 * mode out for good (GenMC's shim, which includes wait.h first, defines
 * CASLIST_INLINE before it).
 */
#ifndef CASLIST_STATIC_CAST_H
#define CASLIST_STATIC_CAST_H

#include <stdint.h>

/* The casts of the public headers' inline functions and macros, and of
 * the inline layer (the static/ headers): C's in C, the named casts in
 * C++, so that a C++ user's -Wold-style-cast stays quiet, in inline mode
 * too (test/adopt/cxx-headers.sh).  PCAST: a pointer to or from an
 * integer; ICAST: between integers; VCAST: from void * to an object
 * pointer, or to void *; UNCONST: a const pointer to a writable one (in C
 * through uintptr_t, which -Wcast-qual accepts).  In C each is the plain
 * cast it replaced: the compiled code is the same. */
#ifdef __cplusplus
#define CASLIST_LK_PCAST(type, v) reinterpret_cast<type>(v)
#define CASLIST_LK_ICAST(type, v) static_cast<type>(v)
#define CASLIST_LK_VCAST(type, v) static_cast<type>(v)
#define CASLIST_LK_UNCONST(type, v) const_cast<type>(v)
#else
#define CASLIST_LK_PCAST(type, v) ((type)(v))
#define CASLIST_LK_ICAST(type, v) ((type)(v))
#define CASLIST_LK_VCAST(type, v) ((type)(v))
#define CASLIST_LK_UNCONST(type, v) ((type)(uintptr_t)(v))
#endif

#endif /* CASLIST_STATIC_CAST_H */
