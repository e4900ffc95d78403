# test/adopt.mk - included from Makefile.am; append to the shared variables with +=
# What a user adopting the library gets, and its tests (issue 13, items 3-6):
#  - <caslist/version.h> (configure makes it from AC_INIT's version) and
#    caslist_version() in lib/version.c;
#  - the shared object exports only caslist_ names (-export-symbols-regex
#    writes a linker version script; -fvisibility=hidden already hides the
#    rest), checked with nm by test/symbols.sh for the .so and the .a;
#  - libcaslist-tsan: the library built with -fsanitize=thread, installed
#    beside the plain one with its own .pc (configure --enable-tsan-variant),
#    compiled by TSAN_CC (clang where it can; m4/caslist_adopt.m4), with a
#    start-up check that the program runs the same family's TSan runtime
#    (lib/tsan_family.c; test/user-tsan.sh runs the match and the mismatch);
#  - C++: test/abi (C and C++ units compare every public struct's layout),
#    test/cxx-headers.sh (headers as C++11..20 with g++ and clang++),
#    doc/examples/cxx_threads (std::threads on two lists, conservation);
#  - test/installed.sh: make install into a scratch DESTDIR, then the
#    installed examples built with pkg-config (C, C++, the TSan variant) run,
#    and man finds the pages.  installcheck runs it on the real prefix.
AM_CPPFLAGS += -I$(top_builddir)/include
lib_libcaslist_la_SOURCES += lib/version.c
lib_libcaslist_la_LDFLAGS += -export-symbols-regex '^caslist_'
nodist_caslistinclude_HEADERS = include/caslist/version.h

# ---- the TSan variant ----
if TSAN_VARIANT
lib_LTLIBRARIES += lib/libcaslist-tsan.la
lib_libcaslist_tsan_la_SOURCES = $(lib_libcaslist_la_SOURCES) lib/tsan_family.c
# -fsanitize=thread in CPPFLAGS: compile only.  libtool links a shared
# library with the compiler it was configured for ($CC), whatever TSAN_CC
# is; gcc -fsanitize=thread there would make a clang-built variant need
# gcc's runtime (libtsan.so), a second runtime in a clang program.  So the
# link gets -fsanitize=thread only for a gcc-built variant
# (TSAN_VARIANT_LDFLAGS); a clang-built one leaves __tsan_* to the program.
lib_libcaslist_tsan_la_CPPFLAGS = $(lib_libcaslist_la_CPPFLAGS) -fsanitize=thread
lib_libcaslist_tsan_la_CFLAGS = $(lib_libcaslist_la_CFLAGS) -g
lib_libcaslist_tsan_la_LDFLAGS = $(lib_libcaslist_la_LDFLAGS) $(TSAN_VARIANT_LDFLAGS)
lib_libcaslist_tsan_la_LIBADD = $(lib_libcaslist_la_LIBADD)
pkgconfig_DATA += libcaslist-tsan.pc
USER_TSAN_LIB = lib/libcaslist-tsan.la
else
USER_TSAN_LIB = lib/libcaslist.la
endif
# CC = $(TSAN_CC) for the variant's objects and link and for test/user_tsan
@CASLIST_TSAN_CC_RULE@

# ---- the user's TSan build (test/user-tsan.sh) ----
if USER_TSAN
check_PROGRAMS += test/user_tsan
test_user_tsan_SOURCES = test/user_tsan.c
test_user_tsan_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) -fsanitize=thread -g
test_user_tsan_LDFLAGS = -fsanitize=thread
test_user_tsan_LDADD = $(USER_TSAN_LIB) $(PTHREAD_LIBS)
endif
if TSAN_VARIANT
check_PROGRAMS += test/user_tsan_plain
test_user_tsan_plain_SOURCES = test/user_tsan.c
test_user_tsan_plain_CFLAGS = $(test_user_tsan_CFLAGS)
test_user_tsan_plain_LDFLAGS = -fsanitize=thread
test_user_tsan_plain_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
# the inline mode: the same program with CASLIST_INLINE against the PLAIN
# library: the protocol's atomics are compiled (and instrumented) in the
# program itself, so it must be clean without the TSan variant.
check_PROGRAMS += test/user_tsan_inline
test_user_tsan_inline_SOURCES = test/user_tsan.c
test_user_tsan_inline_CPPFLAGS = $(AM_CPPFLAGS) $(IMPL_CPPFLAGS)
test_user_tsan_inline_CFLAGS = $(test_user_tsan_CFLAGS)
test_user_tsan_inline_LDFLAGS = -fsanitize=thread
test_user_tsan_inline_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
endif

# ---- C++ ----
ADOPT_CXXFLAGS = -Wall -Wextra -pedantic $(PTHREAD_CFLAGS) $(SAN_FLAGS)
if HAVE_CXX
check_PROGRAMS += test/abi doc/examples/cxx_threads
test_abi_SOURCES = test/abi_cxx.cc test/abi_c.c test/abi.h
test_abi_CXXFLAGS = $(ADOPT_CXXFLAGS)
test_abi_LDADD = $(TEST_LIBS)
doc_examples_cxx_threads_SOURCES = doc/examples/cxx_threads.cc
doc_examples_cxx_threads_CXXFLAGS = $(ADOPT_CXXFLAGS)
doc_examples_cxx_threads_LDADD = $(TEST_LIBS)
TESTS += test/abi test/cxx-threads.sh
endif

TESTS += test/cxx-headers.sh test/symbols.sh test/user-tsan.sh test/installed.sh test/version.sh
# the inline mode as a layer of its own: no leaked names, ISO C, C++
TESTS += test/inline.sh
EXTRA_DIST += test/inline.sh test/inline_names.c
EXTRA_DIST += test/cxx-headers.sh test/symbols.sh test/user-tsan.sh test/installed.sh test/version.sh \
	test/cxx-threads.sh

# The scripts' view of this build (compilers, flags, what was built).
check_DATA = test/adopt-env.sh
CLEANFILES += test/adopt-env.sh
test/adopt-env.sh: Makefile
	$(AM_V_GEN)$(MKDIR_P) test && { \
	echo "SRCDIR='$(abs_top_srcdir)'"; \
	echo "CASLIST_BUILDDIR='$(abs_top_builddir)'"; \
	echo "CC='$(CC)'"; echo "CXX='$(CXX)'"; echo "SAN_FLAGS='$(SAN_FLAGS)'"; \
	echo "SANITIZER='$(SANITIZER)'"; echo "PTHREAD_CFLAGS='$(PTHREAD_CFLAGS)'"; \
	echo "HAVE_CXX='$(HAVE_CXX_YES)'"; echo "TSAN_VARIANT='$(TSAN_VARIANT_YES)'"; \
	echo "USER_TSAN='$(USER_TSAN_YES)'"; echo "USER_TSAN_LIB='$(USER_TSAN_LIB)'"; \
	echo "CC_FAMILY='$(CASLIST_CC_FAMILY)'"; echo "TSAN_CC='$(TSAN_CC)'"; echo "TSAN_CXX='$(TSAN_CXX)'"; \
	echo "LIBTOOL='$(LIBTOOL)'"; echo "HAVE_URCU_MEMB='$(HAVE_URCU_MEMB_YES)'"; \
	echo "GROFF='$(GROFF)'"; echo "MANDOC='$(MANDOC)'"; echo "MAN='$(MAN)'"; \
	echo "PKG_CONFIG='$(PKG_CONFIG)'"; echo "MAKE='$(MAKE)'"; \
	echo "VERSION='$(VERSION)'"; echo "LT_VERSION='$(CASLIST_LT_VERSION)'"; \
	echo "prefix='$(prefix)'"; echo "libdir='$(libdir)'"; echo "mandir='$(mandir)'"; \
	echo "docdir='$(docdir)'"; echo "includedir='$(includedir)'"; \
	} >$@-t && mv $@-t $@

if HAVE_CXX
HAVE_CXX_YES = yes
endif
if TSAN_VARIANT
TSAN_VARIANT_YES = yes
endif
if USER_TSAN
USER_TSAN_YES = yes
endif
if HAVE_URCU_MEMB
HAVE_URCU_MEMB_YES = yes
endif

# After `make install`: the installed library, headers, pkg-config files,
# examples and man pages work from the real prefix.
installcheck-local: test/adopt-env.sh
	CASLIST_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(srcdir)/test/installed.sh --installed
