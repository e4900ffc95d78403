# examples/common/common.mk - included from Makefile.am before the examples
# and benches that use it; append to the shared variables with +=
# What the examples and benches share (public API only, no lib/ or test/
# headers): splitmix randomness (rng.h), a plain doubly-linked list for the
# lock-based peers (dlist.h), end-of-run checks and a watchdog (check.h),
# the command line (cli.h, cli.c), and what else ran during a point
# (sysload.h).  A program includes "common/..."
# with EXAMPLES_CPPFLAGS and lists COMMON_CLI_SOURCES if it uses cli.h.
# test/util.h includes rng.h and check.h as well (one copy of each).
EXAMPLES_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/examples
COMMON_INCLUDES = examples/common/rng.h examples/common/dlist.h examples/common/check.h \
	examples/common/cli.h examples/common/sysload.h
COMMON_CLI_SOURCES = examples/common/cli.c $(COMMON_INCLUDES)
