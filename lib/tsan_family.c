/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lib/tsan_family.c - linked into libcaslist-tsan only (test/adopt/adopt.mk).
 *
 * gcc and clang each ship their own ThreadSanitizer runtime, and a process
 * must hold exactly one: gcc links libtsan.so.N into the program (and into
 * a library built with gcc -fsanitize=thread), clang links its runtime
 * statically into the executable.  A clang program against a gcc-built
 * variant gets both and dies in its first thread ("ThreadSanitizer: SEGV on
 * unknown address 0x000000000000 (pc 0x000000000000)"); a gcc program
 * against a clang-built variant runs clang-instrumented code on gcc's
 * runtime.  So the variant:
 *  - exports caslist_tsan_cc_clang or caslist_tsan_cc_gcc (the compiler's
 *    version string), named after the family it was compiled with; the
 *    .pc's Libs require it (-Wl,--require-defined), which also pulls this
 *    file out of the static archive;
 *  - checks at start-up, before main, which runtime the process runs (the
 *    object that defines __tsan_init: gcc's libtsan.so.N, or clang's, in
 *    the executable or libclang_rt.tsan) and, on a mismatch, prints one
 *    line naming both and the fix, then exits with status 1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#include <caslist/export.h>

#if defined(__clang__)
#define CASLIST_TSAN_FAMILY "clang"
#define CASLIST_TSAN_CC_SYMBOL caslist_tsan_cc_clang
#define CASLIST_TSAN_CC_VERSION "clang " __clang_version__
#else
#define CASLIST_TSAN_FAMILY "gcc"
#define CASLIST_TSAN_CC_SYMBOL caslist_tsan_cc_gcc
#define CASLIST_TSAN_CC_VERSION "gcc " __VERSION__
#endif

CASLIST_API extern const char CASLIST_TSAN_CC_SYMBOL[];
const char CASLIST_TSAN_CC_SYMBOL[] = CASLIST_TSAN_CC_VERSION;

static void cat(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf);

	while (*s != 0 && n + 1 < size)
		buf[n++] = *s++;
	buf[n] = 0;
}

__attribute__((constructor)) static void caslist_tsan_family_check(void)
{
	void *init = dlsym(RTLD_DEFAULT, "__tsan_init");
	const char *family = NULL, *where = "no ThreadSanitizer runtime";
	Dl_info di;

	if (init != NULL && dladdr(init, &di) && di.dli_fname != NULL) {
		const char *base = strrchr(di.dli_fname, '/');

		base = base != NULL ? base + 1 : di.dli_fname;
		family = strncmp(base, "libtsan.so", 10) == 0 ? "gcc" : "clang";
		where = strncmp(base, "lib", 3) == 0 ? base : "linked into the program";
	}
	if (family != NULL && strcmp(family, CASLIST_TSAN_FAMILY) == 0)
		return;
	char msg[320] = "libcaslist-tsan: built with " CASLIST_TSAN_FAMILY "'s ThreadSanitizer,"
			 " but this program runs ";
	cat(msg, sizeof(msg), family != NULL ? family : "none");
	cat(msg, sizeof(msg), family != NULL ? "'s (" : " (");
	cat(msg, sizeof(msg), where);
	cat(msg, sizeof(msg), "): build it with " CASLIST_TSAN_FAMILY " -fsanitize=thread\n");
	if (write(2, msg, strlen(msg)) < 0)
		_exit(1);
	_exit(1);
}
