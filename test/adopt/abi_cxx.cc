// SPDX-License-Identifier: BSD-2-Clause
// test/adopt/abi_cxx.cc - the public structs' layout as C++ sees it, compared
// row by row with the C unit's table (test/adopt/abi.h).  TAP output.
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <caslist/version.h>

#include "abi.h"

namespace {
const abi_row cxx_rows[] = { ABI_ROWS };
}

// C++ users may copy and zero-initialise these as in C.
static_assert(std::is_standard_layout<caslist_node>::value, "caslist_node standard layout");
static_assert(std::is_trivially_copyable<caslist_list>::value, "caslist_list trivially copyable");
static_assert(std::is_standard_layout<caslist_fl>::value, "caslist_fl standard layout");

int main()
{
	const size_t n = sizeof(cxx_rows) / sizeof(cxx_rows[0]);
	int failed = 0, t = 0;

	std::printf("# C++ %ld, compiled against headers %s, library %d\n", (long)__cplusplus,
		    CASLIST_VERSION_STRING, caslist_version());
	std::printf("%sok %d - both units have %zu rows\n", n == abi_c_nrows ? "" : "not ", ++t, n);
	failed += n != abi_c_nrows;
	for (size_t i = 0; i < n && i < abi_c_nrows; i++) {
		bool same = std::strcmp(cxx_rows[i].what, abi_c_rows[i].what) == 0 &&
			    cxx_rows[i].value == abi_c_rows[i].value;
		std::printf("%sok %d - %s: C %zu, C++ %zu\n", same ? "" : "not ", ++t,
			    abi_c_rows[i].what, abi_c_rows[i].value, cxx_rows[i].value);
		failed += !same;
	}
	bool ver = caslist_version() == CASLIST_VERSION;
	std::printf("%sok %d - caslist_version() %d == CASLIST_VERSION %d\n", ver ? "" : "not ",
		    ++t, caslist_version(), CASLIST_VERSION);
	failed += !ver;
	std::printf("1..%d\n", t);
	return failed ? 1 : 0;
}
