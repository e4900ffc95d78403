/* SPDX-License-Identifier: BSD-2-Clause */
/* test/adopt/abi_c.c - the public structs' layout as C sees it (test/adopt/abi.h). */
#include "abi.h"

const struct abi_row abi_c_rows[] = { ABI_ROWS };
const size_t abi_c_nrows = sizeof(abi_c_rows) / sizeof(abi_c_rows[0]);
