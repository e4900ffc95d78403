# test/lin/lin.mk - included from Makefile.am; append to the shared variables with +=
#
# Linearizability of recorded histories (issue 26): test/lin/lin records
# short windows of concurrent operations on two small lists (2-8 threads,
# 3-6 nodes, invocation/response tickets from one atomic counter) and
# checks each history against a sequential model with a Wing-Gong / Lowe
# search.  make check: test/lin/lin.sh (a bounded count per thread count,
# smaller under sanitizers, and the planted stale-tail mutant must be
# caught); make soak: test/lin/soak.sh first (LIN_SOAK_HISTORIES per
# thread count, default 100000).
check_PROGRAMS += test/lin/lin
test_lin_lin_SOURCES = test/lin/lin.c test/util.h
test_lin_lin_LDADD = $(TEST_LIBS)
# lin-combine: the same, inline, with moves queued at a busy head
# (static/combine.h; COMBINE_CPPFLAGS: test/stress/stress.mk).
check_PROGRAMS += test/lin/lin-combine
test_lin_lin_combine_SOURCES = test/lin/lin.c test/util.h
test_lin_lin_combine_CPPFLAGS = $(AM_CPPFLAGS) $(COMBINE_CPPFLAGS)
test_lin_lin_combine_LDADD = $(TEST_LIBS)
TESTS += test/lin/lin.sh
EXTRA_DIST += test/lin/lin.sh test/lin/soak.sh

LIN_SOAK_HISTORIES = 100000
soak-lin: test/lin/lin
	CASLIST_BUILDDIR='$(abs_top_builddir)' LIN_SOAK_HISTORIES='$(LIN_SOAK_HISTORIES)' \
		$(SHELL) $(srcdir)/test/lin/soak.sh
# `make soak` runs the checker's soak before the stress soak (test/fuzz/fuzz.mk)
soak: soak-lin
.PHONY: soak-lin
