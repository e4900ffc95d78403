# test/adopt/adopt.mk - included from Makefile.am; append to the shared variables with +=
# What a user adopting the library gets, tested (issue 13, items 3-6); the
# products themselves (lib/version.c, the export list, libcaslist-tsan)
# are defined in Makefile.am's library section:
#  - test/adopt/version.sh: the version numbers a user sees agree;
#  - test/adopt/symbols.sh: only caslist_ names exported, .so and .a (nm);
#  - test/adopt/user-tsan.sh: a user's TSan program against libcaslist-tsan
#    (or the TSan build), the family match and the mismatch;
#  - test/adopt/user-asan.sh: a user's ASan build in inline mode reports a
#    freed node popped back, and a correct program runs clean;
#  - C++: test/adopt/abi (C and C++ units compare every public struct's
#    layout), test/adopt/cxx-headers.sh (headers as C++11..20 with g++ and
#    clang++), doc/examples/cxx_threads (std::threads on two lists);
#  - test/adopt/inline.sh: the inline mode leaks no names, ISO C, C++;
#  - test/adopt/installed.sh: make install into a scratch DESTDIR, then the
#    installed examples built with pkg-config (C, C++, the TSan variant) run,
#    and man finds the pages.  installcheck runs it on the real prefix.
if TSAN_VARIANT
USER_TSAN_LIB = lib/libcaslist-tsan.la
else
USER_TSAN_LIB = lib/libcaslist.la
endif

# ---- the user's TSan build (test/adopt/user-tsan.sh) ----
if USER_TSAN
check_PROGRAMS += test/adopt/user_tsan
test_adopt_user_tsan_SOURCES = test/adopt/user_tsan.c
test_adopt_user_tsan_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) -fsanitize=thread -g
test_adopt_user_tsan_LDFLAGS = -fsanitize=thread
test_adopt_user_tsan_LDADD = $(USER_TSAN_LIB) $(PTHREAD_LIBS)
endif
if TSAN_VARIANT
check_PROGRAMS += test/adopt/user_tsan_plain
test_adopt_user_tsan_plain_SOURCES = test/adopt/user_tsan.c
test_adopt_user_tsan_plain_CFLAGS = $(test_adopt_user_tsan_CFLAGS)
test_adopt_user_tsan_plain_LDFLAGS = -fsanitize=thread
test_adopt_user_tsan_plain_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
# the inline mode: the same program with CASLIST_INLINE against the PLAIN
# library: the protocol's atomics are compiled (and instrumented) in the
# program itself, so it must be clean without the TSan variant.
check_PROGRAMS += test/adopt/user_tsan_inline
test_adopt_user_tsan_inline_SOURCES = test/adopt/user_tsan.c
test_adopt_user_tsan_inline_CPPFLAGS = $(AM_CPPFLAGS) $(IMPL_CPPFLAGS)
test_adopt_user_tsan_inline_CFLAGS = $(test_adopt_user_tsan_CFLAGS)
test_adopt_user_tsan_inline_LDFLAGS = -fsanitize=thread
test_adopt_user_tsan_inline_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
endif

# ---- C++ ----
ADOPT_CXXFLAGS = -Wall -Wextra -pedantic $(PTHREAD_CFLAGS) $(SAN_FLAGS)
if HAVE_CXX
check_PROGRAMS += test/adopt/abi doc/examples/cxx_threads
test_adopt_abi_SOURCES = test/adopt/abi_cxx.cc test/adopt/abi_c.c test/adopt/abi.h
test_adopt_abi_CXXFLAGS = $(ADOPT_CXXFLAGS)
test_adopt_abi_LDADD = $(TEST_LIBS)
doc_examples_cxx_threads_SOURCES = doc/examples/cxx_threads.cc
doc_examples_cxx_threads_CXXFLAGS = $(ADOPT_CXXFLAGS)
doc_examples_cxx_threads_LDADD = $(TEST_LIBS)
TESTS += test/adopt/abi test/adopt/cxx-threads.sh
endif

TESTS += test/adopt/cxx-headers.sh test/adopt/symbols.sh test/adopt/user-tsan.sh test/adopt/user-asan.sh test/adopt/installed.sh test/adopt/version.sh
# the inline mode as a layer of its own: no leaked names, ISO C, C++
TESTS += test/adopt/inline.sh
EXTRA_DIST += test/adopt/prologue.sh test/adopt/inline.sh test/adopt/inline_names.c test/adopt/user_asan.c
EXTRA_DIST += test/adopt/cxx-headers.sh test/adopt/symbols.sh test/adopt/user-tsan.sh test/adopt/user-asan.sh test/adopt/installed.sh test/adopt/version.sh \
	test/adopt/cxx-threads.sh

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
	echo "NM='$(NM)'"; echo "OBJDUMP='$(OBJDUMP)'"; echo "CASLIST_RUN='$(CASLIST_TEST_RUNNER)'"; \
	echo "TSAN_HOST='$(CASLIST_TSAN_HOST)'"; echo "HOST='$(host)'"; \
	echo "OTHER_HOST='$(CASLIST_OTHER_HOST)'"; echo "RUN_STATIC='$(CASLIST_RUN_STATIC)'"; \
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
	CASLIST_BUILDDIR='$(abs_top_builddir)' $(SHELL) $(srcdir)/test/adopt/installed.sh --installed
