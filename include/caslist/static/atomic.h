/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <caslist/static/atomic.h> - the atomics of the protocol layer, for C and for C++.
 * Installed as <caslist/static/atomic.h>: the inline mode compiles the
 * layer in the user's translation unit, which may be C11 or C++11..20.
 *
 * C: <stdatomic.h>, _Atomic, _Thread_local; the layer calls the C11
 * generic functions (atomic_load_explicit, ...) with memory_order_*.
 *
 * C++: the same source, unchanged, in the namespace caslist_lk_cxx.  The
 * public structs keep their plain words in C++ (list.h: objects that
 * embed a node stay copyable, the layout is the C one), so the namespace
 * has its own atomic_load_explicit & co. over plain words: the compiler's
 * __atomic builtins (gcc and clang), which are the C11 operations with
 * the same memory orders, and which ThreadSanitizer instruments as such.
 * Nothing of it is visible outside the namespace; list.h's caslist_*
 * macros name the namespace's operations.
 */
#ifndef CASLIST_STATIC_ATOMIC_H
#define CASLIST_STATIC_ATOMIC_H

#ifdef __cplusplus
#define CASLIST_LK_ATOMIC(type) type
#ifndef CASLIST_LK_TLS_MODEL
#define CASLIST_LK_TLS_MODEL __attribute__((tls_model("initial-exec")))
#endif
#define CASLIST_LK_THREAD_LOCAL thread_local CASLIST_LK_TLS_MODEL
#define CASLIST_LK_BEGIN namespace caslist_lk_cxx {
#define CASLIST_LK_END }
#define CASLIST_LK_C_BEGIN extern "C" {
#define CASLIST_LK_C_END }

namespace caslist_lk_cxx {
enum caslist_lk_memory_order {
	memory_order_relaxed = __ATOMIC_RELAXED,
	memory_order_acquire = __ATOMIC_ACQUIRE,
	memory_order_release = __ATOMIC_RELEASE,
	memory_order_acq_rel = __ATOMIC_ACQ_REL,
	memory_order_seq_cst = __ATOMIC_SEQ_CST
};

/* The value argument's type is T, not deduced from the argument: the
 * argument converts to T implicitly, as in C's generic functions (NULL
 * to a pointer word, 0 to an integer one), with no cast to warn about
 * under -Wold-style-cast. */
template <class T> struct caslist_lk_arg {
	typedef T type;
};

template <class T>
static inline T atomic_load_explicit(const T *p, caslist_lk_memory_order mo)
{
	return __atomic_load_n(p, mo);
}

template <class T>
static inline void atomic_store_explicit(T *p, typename caslist_lk_arg<T>::type v,
					 caslist_lk_memory_order mo)
{
	__atomic_store_n(p, v, mo);
}

template <class T>
static inline bool atomic_compare_exchange_strong_explicit(T *p, T *expected,
							   typename caslist_lk_arg<T>::type desired,
							   caslist_lk_memory_order ok,
							   caslist_lk_memory_order fail)
{
	return __atomic_compare_exchange_n(p, expected, desired, false, ok, fail);
}

template <class T>
static inline bool atomic_compare_exchange_weak_explicit(T *p, T *expected,
							 typename caslist_lk_arg<T>::type desired,
							 caslist_lk_memory_order ok,
							 caslist_lk_memory_order fail)
{
	return __atomic_compare_exchange_n(p, expected, desired, true, ok, fail);
}

template <class T>
static inline T atomic_exchange_explicit(T *p, typename caslist_lk_arg<T>::type v,
					 caslist_lk_memory_order mo)
{
	return __atomic_exchange_n(p, v, mo);
}

template <class T>
static inline T atomic_fetch_add_explicit(T *p, typename caslist_lk_arg<T>::type v,
					  caslist_lk_memory_order mo)
{
	return __atomic_fetch_add(p, v, mo);
}

template <class T>
static inline T atomic_fetch_sub_explicit(T *p, typename caslist_lk_arg<T>::type v,
					  caslist_lk_memory_order mo)
{
	return __atomic_fetch_sub(p, v, mo);
}
} /* namespace caslist_lk_cxx */
#else
#include <stdatomic.h>
#define CASLIST_LK_ATOMIC(type) _Atomic(type)
/* initial-exec: in libcaslist.so a thread-local is otherwise reached
 * through a __tls_get_addr call, and the wait state (wait.h) is read on
 * the paths that wait.  The cost: a program that dlopen()s libcaslist needs
 * static TLS room for these few words (glibc keeps a surplus for that). */
#ifndef CASLIST_LK_TLS_MODEL
#define CASLIST_LK_TLS_MODEL __attribute__((tls_model("initial-exec")))
#endif
#define CASLIST_LK_THREAD_LOCAL _Thread_local CASLIST_LK_TLS_MODEL
#define CASLIST_LK_BEGIN
#define CASLIST_LK_END
#define CASLIST_LK_C_BEGIN
#define CASLIST_LK_C_END
#endif

/* A step shared by several operations whose fast path must stay in each
 * caller: the compiler would otherwise call it once it has three callers
 * (doc/notebook.md, "The first attempt inline: what one loop costs"). */
#define CASLIST_LK_STEP static inline __attribute__((always_inline))

#endif /* CASLIST_STATIC_ATOMIC_H */
