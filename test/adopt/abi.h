/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test/adopt/abi.h - the layout of every public struct, as a table that a C unit
 * (test/adopt/abi_c.c) and a C++ unit (test/adopt/abi_cxx.cc) both fill in; test/adopt/abi
 * compares the two.  Add a row for every field of a new public struct.
 */
#ifndef CASLIST_TEST_ABI_H
#define CASLIST_TEST_ABI_H

#include <stddef.h>

#include <caslist/caslist.h>

struct abi_row {
	const char *what;
	size_t value;
};

#ifdef __cplusplus
#define ABI_ALIGNOF(T) alignof(T)
#else
#define ABI_ALIGNOF(T) _Alignof(T)
#endif

#define ABI_TYPE(T) { #T " size", sizeof(T) }, { #T " align", ABI_ALIGNOF(T) },
#define ABI_FIELD(T, F) { #T "." #F " offset", offsetof(T, F) }, \
			{ #T "." #F " size", sizeof(((T *)0)->F) },

#define ABI_ROWS \
	ABI_TYPE(struct caslist_node) \
	ABI_FIELD(struct caslist_node, next) \
	ABI_FIELD(struct caslist_node, prev) \
	ABI_TYPE(struct caslist_list) \
	ABI_FIELD(struct caslist_list, head) \
	ABI_FIELD(struct caslist_list, want_next) \
	ABI_FIELD(struct caslist_list, want_served) \
	ABI_FIELD(struct caslist_list, want_stamped) \
	ABI_FIELD(struct caslist_list, want_since) \
	ABI_FIELD(struct caslist_list, queue) \
	ABI_TYPE(struct caslist_batch) \
	ABI_FIELD(struct caslist_batch, l) \
	ABI_FIELD(struct caslist_batch, n) \
	ABI_FIELD(struct caslist_batch, node) \
	ABI_TYPE(struct caslist_fl_node) \
	ABI_FIELD(struct caslist_fl_node, link) \
	ABI_FIELD(struct caslist_fl_node, cluster) \
	ABI_TYPE(struct caslist_fl) \
	ABI_FIELD(struct caslist_fl, list) \
	ABI_FIELD(struct caslist_fl, batch) \
	ABI_FIELD(struct caslist_fl, disable_depth) \
	ABI_FIELD(struct caslist_fl, spare) \
	ABI_FIELD(struct caslist_fl, slabs) \
	ABI_FIELD(struct caslist_fl, ndesc) \
	ABI_FIELD(struct caslist_fl, busy) \
	ABI_FIELD(struct caslist_fl, busy[1].n) \
	ABI_FIELD(struct caslist_fl, busy[0].pad) \
	ABI_TYPE(struct caslist_fl_batch) \
	ABI_FIELD(struct caslist_fl_batch, fl) \
	ABI_FIELD(struct caslist_fl_batch, next) \
	ABI_FIELD(struct caslist_fl_batch, n) \
	ABI_FIELD(struct caslist_fl_batch, stripe) \
	ABI_FIELD(struct caslist_fl_batch, eager) \
	ABI_TYPE(struct caslist_fl_builder) \
	ABI_FIELD(struct caslist_fl_builder, fl) \
	ABI_FIELD(struct caslist_fl_builder, c) \
	ABI_FIELD(struct caslist_fl_builder, first) \
	ABI_FIELD(struct caslist_fl_builder, last) \
	ABI_FIELD(struct caslist_fl_builder, n) \
	ABI_TYPE(struct caslist_fl_cache) \
	ABI_FIELD(struct caslist_fl_cache, first) \
	ABI_FIELD(struct caslist_fl_cache, last) \
	ABI_FIELD(struct caslist_fl_cache, n)

#ifdef __cplusplus
extern "C" {
#endif
extern const struct abi_row abi_c_rows[];
extern const size_t abi_c_nrows;
#ifdef __cplusplus
}
#endif

#endif /* CASLIST_TEST_ABI_H */
