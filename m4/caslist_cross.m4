# SPDX-License-Identifier: BSD-2-Clause
# m4/caslist_cross.m4 - what a build for another platform needs
# (./configure --host=TRIPLET; doc/platforms.md):
#  - CASLIST_PKG_CONFIG_HOST: pkg-config answers for the host, never from
#    the build machine's .pc files;
#  - caslist_targets_host COMPILER LANG: does COMPILER build for the host
#    that $CC builds for (the TSan variant's clang, the C++ compiler);
#  - CASLIST_TEST_RUNNER: how make check runs a host program (empty when
#    the build machine runs them; tools/qemu-run when cross compiling).

# CASLIST_PKG_CONFIG_HOST - after PKG_PROG_PKG_CONFIG.  PKG_PROG_PKG_CONFIG
# takes $host-pkg-config when there is one; when there is none, a cross
# build falls back to the build machine's pkg-config, whose .pc files
# describe the build machine's libraries (ck's -D__x86_64__ and
# -I/usr/include/x86_64-linux-gnu reached an aarch64 compile).  Then, unless
# the user set PKG_CONFIG_LIBDIR, it is set to the host's own pkgconfig
# folders that exist (Debian multiarch /usr/lib/$host/pkgconfig, the
# cross sysroot /usr/$host/lib/pkgconfig), or to nothing: what is not
# there for the host is not found, and its parts are turned off.  Any
# --host other than the build machine counts, not only cross_compiling:
# i686 programs run here when libc6-i386 is installed (configure then
# says "not cross compiling"), but the .pc files are still x86-64's.
AC_DEFUN([CASLIST_PKG_CONFIG_HOST], [
caslist_pc_note=
AS_IF([test "x$host" != "x$build" && test -n "$PKG_CONFIG"], [
  AS_CASE([`basename "$PKG_CONFIG"`],
    [$host_alias-*|$host-*], [caslist_pc_note="$PKG_CONFIG (the host's)"],
    [AS_IF([test "${PKG_CONFIG_LIBDIR+set}" = set],
      [caslist_pc_note="$PKG_CONFIG with PKG_CONFIG_LIBDIR=$PKG_CONFIG_LIBDIR (yours)"],
      [caslist_pc_libdir=
       caslist_multiarch=$host_alias
       AS_CASE([$host_cpu], [i?86], [caslist_multiarch=`echo "$host_alias" | sed 's/^i[[3-7]]86/i386/'`])
       for caslist_d in "/usr/lib/$caslist_multiarch/pkgconfig" "/usr/$host_alias/lib/pkgconfig" \
           "/usr/share/pkgconfig"; do
         AS_IF([test -d "$caslist_d"], [
           AS_IF([test "$caslist_d" = /usr/share/pkgconfig && test -z "$caslist_pc_libdir"], [],
             [caslist_pc_libdir=${caslist_pc_libdir:+$caslist_pc_libdir:}$caslist_d])])
       done
       PKG_CONFIG_LIBDIR=$caslist_pc_libdir
       export PKG_CONFIG_LIBDIR
       caslist_pc_note="$PKG_CONFIG with PKG_CONFIG_LIBDIR='$PKG_CONFIG_LIBDIR' (no $host_alias-pkg-config: the build machine's .pc files left out)"])])
])
# Not cross compiling, but $CC builds for another C library than the build
# machine's (musl-gcc on glibc Debian): the system's .pc files describe
# glibc-linked libraries, so they are left out the same way.  A musl
# system's own compiler (no glibc here) keeps them.
AS_IF([test "x$cross_compiling" != xyes && test -n "$PKG_CONFIG" &&
       test "${PKG_CONFIG_LIBDIR+set}" != set &&
       (ldd --version 2>&1 | grep -qi 'gnu libc\|glibc') &&
       ! (echo '@%:@include <limits.h>' | $CC -dM -E -x c - 2>/dev/null | grep -q '__GLIBC__')], [
  PKG_CONFIG_LIBDIR=
  export PKG_CONFIG_LIBDIR
  caslist_pc_note="$PKG_CONFIG with PKG_CONFIG_LIBDIR='' ($CC uses another C library than the build machine's .pc files)"
])
AS_IF([test -z "$caslist_pc_note"], [caslist_pc_note=${PKG_CONFIG:-none}])
# make check's scripts (installed.sh, the bench messages) ask the same
# pkg-config the same way
CASLIST_PKG_ENV=
AS_IF([test "${PKG_CONFIG_LIBDIR+set}" = set],
  [CASLIST_PKG_ENV="PKG_CONFIG_LIBDIR='$PKG_CONFIG_LIBDIR'; export PKG_CONFIG_LIBDIR;"])
AC_SUBST([CASLIST_PKG_ENV])
# a --host other than the build machine, whether or not its programs run
# here (test/memcached.sh builds memcached for the build machine)
AS_IF([test "x$host" != "x$build"], [CASLIST_OTHER_HOST=yes], [CASLIST_OTHER_HOST=no])
AC_SUBST([CASLIST_OTHER_HOST])
])

# caslist_targets_host COMPILER LANG (c or c++): 0 when COMPILER builds
# for the host $CC builds for.  Two checks, both cheap: an object of $CC
# links with COMPILER (a build machine's clang or g++ cannot link an
# aarch64 object), and both compilers see the same target and C library in
# their predefined macros (musl-gcc's objects link with a glibc g++, but
# the program would hold two C libraries).
AC_DEFUN([CASLIST_TARGETS_HOST_FN], [
caslist_target_sig() { # $[]1 compiler, $[]2 language (@%:@ is a quadrigraph for the hash)
  echo '@%:@include <limits.h>' | $[]1 -x $[]2 -dM -E - 2>/dev/null |
    grep -E '^#define (__GLIBC__|__SIZEOF_POINTER__|__BYTE_ORDER__|__x86_64__|__i386__|__aarch64__|__arm__|__s390x__|__riscv|__powerpc64__|__ILP32__) ' |
    sort | tr '\n' ' '
}
caslist_targets_host() { # $[]1 compiler, $[]2 language
  echo 'int caslist_conftest_fn(void) { return 0; }' >conftest-host.c
  # C linkage when COMPILER compiles it as C++
  printf '%s\n' '@%:@ifdef __cplusplus' 'extern "C"' '@%:@endif' \
    'int caslist_conftest_fn(void);' 'int main(void) { return caslist_conftest_fn(); }' >conftest-main.c
  caslist_rc=1
  AS_IF([$CC -c conftest-host.c -o conftest-host.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1 &&
         $[]1 -x $[]2 conftest-main.c -x none conftest-host.$OBJEXT -o conftest-host$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1], [
    caslist_sig_cc=`caslist_target_sig "$CC" c`
    caslist_sig_other=`caslist_target_sig "$[]1" $[]2`
    echo "target of $CC: $caslist_sig_cc; of $[]1: $caslist_sig_other" >&AS_MESSAGE_LOG_FD
    AS_IF([test -n "$caslist_sig_cc" && test "x$caslist_sig_cc" = "x$caslist_sig_other"], [caslist_rc=0])])
  rm -f conftest-host.c conftest-main.c conftest-host.$OBJEXT conftest-host$EXEEXT
  return $caslist_rc
}
])

# CASLIST_CHECK_RUNNER - how make check runs the host's programs.  Natively:
# nothing.  Cross compiling: tools/qemu-run (qemu-user with the cross
# sysroot as its -L prefix; i386 on an x86-64 build machine natively
# through the sysroot's loader, or, where the kernel cannot execute it,
# qemu-i386 with every test program linked -all-static: tools/i386-route).  CASLIST_TEST_RUNNER=CMD overrides it;
# automake's LOG_COMPILER runs the test programs with it and the test
# scripts run every program through it ($CASLIST_RUN).
AC_DEFUN([CASLIST_CHECK_RUNNER], [
CASLIST_RUN_STATIC=
CASLIST_PROG_LDFLAGS=
AC_ARG_VAR([CASLIST_TEST_RUNNER], [command that runs a host program in make check (default: none natively; when cross compiling, tools/qemu-run with the host's qemu and sysroot)])
AC_MSG_CHECKING([how make check runs the host's programs])
AS_IF([test "x$cross_compiling" != xyes || test -n "$CASLIST_TEST_RUNNER"], [
  caslist_runner_note=${CASLIST_TEST_RUNNER:-natively}
], [
  # the cross sysroot: where the host's libc.so.6 lies, two folders up
  caslist_libc=`$CC -print-file-name=libc.so.6 2>/dev/null`
  caslist_sysroot=
  AS_CASE([$caslist_libc], [/*],
    [caslist_sysroot=`cd "$(dirname "$caslist_libc")/.." 2>/dev/null && pwd -P`])
  caslist_qemu_cpu=$host_cpu
  AS_CASE([$host_cpu],
    [arm*], [caslist_qemu_cpu=arm],
    [i?86], [caslist_qemu_cpu=i386],
    [powerpc64le], [caslist_qemu_cpu=ppc64le],
    [powerpc64], [caslist_qemu_cpu=ppc64])
  CASLIST_TEST_RUNNER="$ac_abs_confdir/tools/qemu-run --cpu $caslist_qemu_cpu${caslist_sysroot:+ --sysroot $caslist_sysroot} --"
  caslist_runner_note="tools/qemu-run --cpu $caslist_qemu_cpu --sysroot ${caslist_sysroot:-none}"
  AS_IF([test "$caslist_qemu_cpu" = i386 && test "x$build_cpu" = xx86_64], [
    # 32-bit x86 on x86-64: natively where the kernel executes it, else
    # static under qemu-i386 (tools/i386-route says which, and why)
    # (CASLIST_I386_ROUTE: the answer of a probe already made, by
    # tools/cross-check)
    AS_IF([test -n "${CASLIST_I386_ROUTE:-}"],
      [caslist_i386_route=$CASLIST_I386_ROUTE; : >conftest.i386],
      [caslist_i386_route=`"$ac_abs_confdir/tools/i386-route" "$CC" 2>conftest.i386`])
    caslist_i386_why=`tr '
' ' ' <conftest.i386`
    rm -f conftest.i386
    AS_CASE([$caslist_i386_route],
      [native], [caslist_runner_note="$caslist_runner_note (natively, through the sysroot's loader)"],
      [qemu], [CASLIST_TEST_RUNNER="$ac_abs_confdir/tools/qemu-run --cpu i386 --static --"
               CASLIST_RUN_STATIC=yes
               CASLIST_PROG_LDFLAGS=-all-static
               caslist_runner_note="tools/qemu-run --cpu i386 --static (${caslist_i386_why}qemu-i386, test programs linked -all-static)"],
      [caslist_runner_note="$caslist_runner_note (${caslist_i386_why}make check will fail)"])
  ], [AS_IF([command -v "qemu-$caslist_qemu_cpu" >/dev/null 2>&1 || command -v "qemu-$caslist_qemu_cpu-static" >/dev/null 2>&1], [],
      [caslist_runner_note="$caslist_runner_note (qemu-$caslist_qemu_cpu not found: Debian package qemu-user; make check will fail)"])])
])
AC_MSG_RESULT([$caslist_runner_note])
AC_SUBST([CASLIST_TEST_RUNNER])
# the qemu-i386 route: every program make check runs is static (no shared
# library, no loader); the tests that exist for the shared library skip
AC_SUBST([CASLIST_RUN_STATIC])
AC_SUBST([CASLIST_PROG_LDFLAGS])
AM_CONDITIONAL([CROSS_RUN], [test -n "$CASLIST_TEST_RUNNER"])
])
