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
AC_ARG_ENABLE([tsan-variant],
  [AS_HELP_STRING([--enable-tsan-variant=auto|yes|no],
    [also build and install libcaslist-tsan (the library built with
     -fsanitize=thread, pkg-config libcaslist-tsan) for users' TSan builds;
     auto: when $CC can build with -fsanitize=thread and the build itself
     uses no sanitizer (default auto)])],
  [], [enable_tsan_variant=auto])
caslist_tsan_variant=no
AS_CASE([$enable_tsan_variant],
  [no], [],
  [yes|auto], [
    AS_IF([test "x$SANITIZER" != xnone], [
      AS_IF([test "x$enable_tsan_variant" = xyes],
        [AC_MSG_ERROR([--enable-tsan-variant: this build already uses --enable-sanitizer=$SANITIZER])])
    ], [
      AC_MSG_CHECKING([whether $CC can build and link with -fsanitize=thread])
      save_CFLAGS=$CFLAGS
      save_LDFLAGS=$LDFLAGS
      CFLAGS="$CFLAGS -fsanitize=thread"
      LDFLAGS="$LDFLAGS -fsanitize=thread"
      AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [caslist_tsan_variant=yes])
      CFLAGS=$save_CFLAGS
      LDFLAGS=$save_LDFLAGS
      AC_MSG_RESULT([$caslist_tsan_variant])
      AS_IF([test "x$enable_tsan_variant$caslist_tsan_variant" = xyesno],
        [AC_MSG_ERROR([$CC cannot build with -fsanitize=thread (Debian: libtsan2 for gcc, libclang-rt-14-dev for clang)])])
    ])
  ],
  [AC_MSG_ERROR([--enable-tsan-variant takes auto, yes or no])])
AM_CONDITIONAL([TSAN_VARIANT], [test "x$caslist_tsan_variant" = xyes])
# test/user-tsan.sh: a user's TSan program against the variant, or against
# the library itself in a TSan build of the project.
AM_CONDITIONAL([USER_TSAN], [test "x$caslist_tsan_variant" = xyes || test "x$SANITIZER" = xthread])
# Which runtime the variant needs: the user must build with the same family.
AS_IF([$CC --version 2>/dev/null | grep -qi clang], [CASLIST_CC_FAMILY=clang], [CASLIST_CC_FAMILY=gcc])
AC_SUBST([CASLIST_CC_FAMILY])

# ---- C++: the header and ABI tests, the std::thread test ----
AC_LANG_PUSH([C++])
AC_MSG_CHECKING([whether $CXX compiles C++11 with std::thread])
caslist_have_cxx=no
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <thread>]], [[std::thread t([]{}); t.join();]])],
  [caslist_have_cxx=yes])
AC_MSG_RESULT([$caslist_have_cxx])
AC_LANG_POP([C++])
AM_CONDITIONAL([HAVE_CXX], [test "x$caslist_have_cxx" = xyes])

# ---- liburcu (urcu-memb): the node-freeing example doc/examples/rcu_free.c ----
PKG_CHECK_MODULES([URCU_MEMB], [liburcu-memb >= 0.13], [have_urcu_memb=yes], [have_urcu_memb=no])
AM_CONDITIONAL([HAVE_URCU_MEMB], [test "x$have_urcu_memb" = xyes])

# ---- man page checkers (test/man.sh uses what it finds) ----
AC_PATH_PROG([GROFF], [groff], [])
AC_PATH_PROG([MANDOC], [mandoc], [])
AC_PATH_PROG([MAN], [man], [])
])
