# SPDX-License-Identifier: BSD-2-Clause
# m4/caslist_adopt.m4 - configure checks for what a user adopting the
# library gets: <caslist/version.h>, the TSan-instrumented variant
# (libcaslist-tsan), the C++ header tests, the liburcu reclamation example
# and the man page checks.  Called once from configure.ac, after the
# sanitizer and pthread checks (it reads SANITIZER, SAN_FLAGS, PTHREAD_*).

AC_DEFUN([CASLIST_ADOPT], [
# ---- <caslist/version.h> from the package version (AC_INIT) ----
CASLIST_VERSION_MAJOR=`echo "$PACKAGE_VERSION" | cut -d. -f1`
CASLIST_VERSION_MINOR=`echo "$PACKAGE_VERSION" | cut -d. -f2`
CASLIST_VERSION_PATCH=`echo "$PACKAGE_VERSION" | cut -d. -f3 | sed 's/[[^0-9]].*//'`
AS_IF([echo "$PACKAGE_VERSION" | grep '^[[0-9]][[0-9]]*\.[[0-9]][[0-9]]*\.[[0-9]]' >/dev/null], [],
  [AC_MSG_ERROR([the package version $PACKAGE_VERSION is not MAJOR.MINOR.PATCH])])
AC_SUBST([CASLIST_VERSION_MAJOR])
AC_SUBST([CASLIST_VERSION_MINOR])
AC_SUBST([CASLIST_VERSION_PATCH])
AC_CONFIG_FILES([include/caslist/version.h libcaslist-tsan.pc])

# ---- the TSan-instrumented variant, installed beside the plain library ----
# A process must hold one TSan runtime: a program built with clang
# -fsanitize=thread against a variant built with gcc died at once (SEGV at
# pc 0).  The variant is built with TSAN_CC: clang when it can build and
# link with -fsanitize=thread (the family users run TSan with), else $CC.
# It exports caslist_tsan_cc_FAMILY and checks the program's runtime at
# start-up (lib/tsan_family.c); test/adopt/user-tsan.sh runs both families.
AC_ARG_VAR([TSAN_CC], [C compiler for libcaslist-tsan (default: $CC when it is clang, else clang when it can build with -fsanitize=thread, else $CC)])
AC_ARG_VAR([TSAN_CXX], [C++ compiler of the same family as TSAN_CC (the installed C++ example against libcaslist-tsan)])
AC_ARG_ENABLE([tsan-variant],
  [AS_HELP_STRING([--enable-tsan-variant=auto|yes|no],
    [also build and install libcaslist-tsan (the library built with
     -fsanitize=thread by TSAN_CC, pkg-config libcaslist-tsan) for users'
     TSan builds; auto: when TSAN_CC can build with -fsanitize=thread and
     the build itself uses no sanitizer (default auto)])],
  [], [enable_tsan_variant=auto])
caslist_tsan_variant=no
caslist_can_tsan() { # $[]1 = compiler: can it compile and link with -fsanitize=thread?
  echo 'int main(void) { return 0; }' >conftest-tsan.c
  $[]1 -fsanitize=thread conftest-tsan.c -o conftest-tsan$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1
  caslist_rc=$?
  rm -f conftest-tsan.c conftest-tsan$EXEEXT
  return $caslist_rc
}
caslist_is_clang() { $[]1 --version 2>/dev/null | grep -qi clang; }
AS_IF([test "x$SANITIZER" = xthread], [
  # the library itself is instrumented, by $CC: a user's TSan test links it
  TSAN_CC=$CC
  TSAN_CXX=$CXX
], [test "x$enable_tsan_variant" != xno], [
  AC_CHECK_PROGS([CASLIST_CLANG], [clang clang-16 clang-15 clang-14], [])
  AC_MSG_CHECKING([the compiler of libcaslist-tsan])
  AS_IF([test "x$TSAN_CC" != x], [],
    [caslist_is_clang "$CC" && caslist_can_tsan "$CC"], [TSAN_CC=$CC],
    [test "x$CASLIST_CLANG" != x && caslist_can_tsan "$CASLIST_CLANG"], [TSAN_CC=$CASLIST_CLANG],
    [TSAN_CC=$CC])
  AC_MSG_RESULT([$TSAN_CC])
  AS_IF([test "x$SANITIZER" != xnone], [
    AS_IF([test "x$enable_tsan_variant" = xyes],
      [AC_MSG_ERROR([--enable-tsan-variant: this build already uses --enable-sanitizer=$SANITIZER])])
  ], [
    AC_MSG_CHECKING([whether $TSAN_CC can build and link with -fsanitize=thread])
    AS_IF([caslist_can_tsan "$TSAN_CC"], [caslist_tsan_variant=yes])
    AC_MSG_RESULT([$caslist_tsan_variant])
    AS_IF([test "x$enable_tsan_variant$caslist_tsan_variant" = xyesno],
      [AC_MSG_ERROR([$TSAN_CC cannot build with -fsanitize=thread (Debian: libclang-rt-14-dev for clang, libtsan2 for gcc)])])
    # A build machine's clang next to a cross $CC (or a glibc clang next to
    # musl-gcc) would hand the host's linker objects of another target.
    AS_IF([test "x$caslist_tsan_variant" = xyes], [
      AC_MSG_CHECKING([whether $TSAN_CC builds for $host as $CC does])
      AS_IF([caslist_targets_host "$TSAN_CC" c], [], [caslist_tsan_variant=no])
      AS_IF([test "x$caslist_tsan_variant" = xyes], [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no: no TSan variant (TSAN_CC=a compiler for $host)])])
      AS_IF([test "x$enable_tsan_variant$caslist_tsan_variant" = xyesno],
        [AC_MSG_ERROR([--enable-tsan-variant: $TSAN_CC does not build for $host as $CC does])])
    ])
  ])
])
AS_CASE([$enable_tsan_variant], [auto|yes|no], [],
  [AC_MSG_ERROR([--enable-tsan-variant takes auto, yes or no])])
: "${TSAN_CC:=$CC}"
# Whether TSAN_CC builds TSan programs for this host (a user's TSan build
# in installed.sh's tsan-inline route): not in a cross build, nor beside
# another C library (musl-gcc).
CASLIST_TSAN_HOST=no
AS_IF([test "x$SANITIZER" = xthread || test "x$caslist_tsan_variant" = xyes], [CASLIST_TSAN_HOST=yes],
  [test "x$cross_compiling" != xyes && caslist_can_tsan "$TSAN_CC" && caslist_targets_host "$TSAN_CC" c],
  [CASLIST_TSAN_HOST=yes])
AC_SUBST([CASLIST_TSAN_HOST])
# Which runtime the variant needs: the user must build with the same family.
AS_IF([caslist_is_clang "$TSAN_CC"], [CASLIST_CC_FAMILY=clang], [CASLIST_CC_FAMILY=gcc])
AS_IF([test "x$TSAN_CXX" = x], [
  AS_IF([test "x$TSAN_CC" = "x$CC"], [TSAN_CXX=$CXX],
    [test $CASLIST_CC_FAMILY = clang], [TSAN_CXX=`echo "$TSAN_CC" | sed 's/clang\([[^\/]]*\)$/clang++\1/'`],
    [TSAN_CXX=$CXX])
])
AM_CONDITIONAL([TSAN_VARIANT], [test "x$caslist_tsan_variant" = xyes])
# test/adopt/user-tsan.sh: a user's TSan program against the variant, or against
# the library itself in a TSan build of the project.
AM_CONDITIONAL([USER_TSAN], [test "x$caslist_tsan_variant" = xyes || test "x$SANITIZER" = xthread])
AC_SUBST([CASLIST_CC_FAMILY])
AS_IF([test $CASLIST_CC_FAMILY = gcc], [TSAN_VARIANT_LDFLAGS=-fsanitize=thread], [TSAN_VARIANT_LDFLAGS=])
AC_SUBST([TSAN_VARIANT_LDFLAGS])
AC_SUBST([TSAN_CC])
AC_SUBST([TSAN_CXX])
# The variant's objects, its link and the user TSan test program are
# compiled by TSAN_CC: a GNU make target-specific variable, passed through
# automake as one substituted line (automake would read it as a rule).
CASLIST_TSAN_CC_RULE='$(lib_libcaslist_tsan_la_OBJECTS) lib/libcaslist-tsan.la $(test_adopt_user_tsan_OBJECTS) test/adopt/user_tsan$(EXEEXT): CC = $(TSAN_CC)'
AC_SUBST([CASLIST_TSAN_CC_RULE])
AM_SUBST_NOTMAKE([CASLIST_TSAN_CC_RULE])

# ---- C++: the header and ABI tests, the std::thread test ----
AC_LANG_PUSH([C++])
AC_MSG_CHECKING([whether $CXX compiles C++11 with std::thread])
caslist_have_cxx=no
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <thread>]], [[std::thread t([]{}); t.join();]])],
  [caslist_have_cxx=yes])
AC_MSG_RESULT([$caslist_have_cxx])
AC_LANG_POP([C++])
# AC_PROG_CXX falls back to the build machine's g++ when there is no
# $host-g++: it compiles, but for another target (or another C library).
AS_IF([test "x$caslist_have_cxx" = xyes], [
  AC_MSG_CHECKING([whether $CXX builds for $host as $CC does])
  AS_IF([caslist_targets_host "$CXX" c++], [AC_MSG_RESULT([yes])],
    [caslist_have_cxx=no; AC_MSG_RESULT([no: C++ tests and examples off])])
])
AM_CONDITIONAL([HAVE_CXX], [test "x$caslist_have_cxx" = xyes])

# ---- liburcu (urcu-memb): the node-freeing example doc/examples/rcu_free.c ----
PKG_CHECK_MODULES([URCU_MEMB], [liburcu-memb >= 0.13], [have_urcu_memb=yes], [have_urcu_memb=no])
AM_CONDITIONAL([HAVE_URCU_MEMB], [test "x$have_urcu_memb" = xyes])

# ---- man page checkers (test/doc/man.sh uses what it finds) ----
AC_PATH_PROG([GROFF], [groff], [])
AC_PATH_PROG([MANDOC], [mandoc], [])
AC_PATH_PROG([MAN], [man], [])
])
