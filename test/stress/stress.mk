# test/stress/stress.mk - included from Makefile.am; append to the shared variables with +=
#
# Stress tests (TAP through the .sh drivers): many threads for a while,
# invariants checked during and after the run, and the mutants that must
# make them fail.  The drivers share test/stress/driver.sh.
check_PROGRAMS += test/stress/stress test/stress/xlist \
	test/stress/stress-mutant-skiplock test/stress/stress-mutant-relaxed \
	test/stress/stress-mutant-nokind \
	test/stress/fl_stress test/stress/fl_stress-mutant-window test/stress/fl_grow \
	test/stress/bypass test/stress/bypass-mutant-nodefer \
	test/stress/headkinds test/stress/headkinds-mutant-noheadover \
	test/stress/busyhead test/stress/busyhead-mutant-nolinkwait \
	test/stress/stress-combine test/stress/xlist-combine
TESTS += test/stress/stress.sh test/stress/xlist.sh test/stress/mutants.sh \
	test/stress/fl_grow.sh test/stress/fl_stress.sh test/stress/bypass.sh \
	test/stress/headkinds.sh test/stress/busyhead.sh test/stress/combine.sh
EXTRA_DIST += test/stress/driver.sh test/stress/stress.sh test/stress/xlist.sh \
	test/stress/mutants.sh test/stress/mutate.sh test/stress/fl_stress.sh test/stress/fl_grow.sh \
	test/stress/bypass.sh test/stress/headkinds.sh test/stress/busyhead.sh \
	test/stress/combine.sh
test_stress_stress_SOURCES = test/stress/stress.c test/util.h
test_stress_stress_LDADD = $(TEST_LIBS)
test_stress_xlist_SOURCES = test/stress/xlist.c test/util.h
test_stress_xlist_LDADD = $(TEST_LIBS)
# mix rcu (objects freed through call_rcu) needs liburcu-memb.  The
# per-target flags are defined in both branches: one defined only under
# the condition leaves the other branch with no flags at all (not even
# AM_CPPFLAGS' -I include).
test_stress_xlist_CPPFLAGS = $(AM_CPPFLAGS)
test_stress_xlist_CFLAGS = $(AM_CFLAGS)
if HAVE_URCU_MEMB
test_stress_xlist_CPPFLAGS += -DXLIST_URCU
test_stress_xlist_CFLAGS += $(URCU_MEMB_CFLAGS)
test_stress_xlist_LDADD += $(URCU_MEMB_LIBS)
endif
# combine: stress and xlist again, inline, with moves queued at a busy
# head (static/combine.h) whatever configure chose.
COMBINE_CPPFLAGS = -DCASLIST_INLINE=1 -DCASLIST_HEAD_COMBINE=1
test_stress_stress_combine_SOURCES = test/stress/stress.c test/util.h
test_stress_stress_combine_CPPFLAGS = $(AM_CPPFLAGS) $(COMBINE_CPPFLAGS)
test_stress_stress_combine_LDADD = $(TEST_LIBS)
test_stress_xlist_combine_SOURCES = test/stress/xlist.c test/util.h
test_stress_xlist_combine_CPPFLAGS = $(AM_CPPFLAGS) $(COMBINE_CPPFLAGS)
test_stress_xlist_combine_CFLAGS = $(AM_CFLAGS)
test_stress_xlist_combine_LDADD = $(TEST_LIBS)
if HAVE_URCU_MEMB
test_stress_xlist_combine_CPPFLAGS += -DXLIST_URCU
test_stress_xlist_combine_CFLAGS += $(URCU_MEMB_CFLAGS)
test_stress_xlist_combine_LDADD += $(URCU_MEMB_LIBS)
endif
test_stress_fl_stress_SOURCES = test/stress/fl_stress.c test/util.h
test_stress_fl_stress_LDADD = $(TEST_LIBS)
# fl_grow: the descriptor pool grows while a scanner probes nodes (TSan).
test_stress_fl_grow_SOURCES = test/stress/fl_grow.c test/tap.h test/util.h
test_stress_fl_grow_LDADD = $(TEST_LIBS)

# bypass: the head's bounded bypass, counted (inline: the fair layer's hook).
test_stress_bypass_SOURCES = test/stress/bypass.c test/tap.h test/util.h
test_stress_bypass_LDADD = $(TEST_LIBS)
# mutant: operations do not defer to a pending ticket.
test_stress_bypass_mutant_nodefer_SOURCES = test/stress/bypass.c
EXTRA_test_stress_bypass_mutant_nodefer_DEPENDENCIES = mut/nodefer/core.c
test_stress_bypass_mutant_nodefer_CPPFLAGS = -Imut/nodefer $(AM_CPPFLAGS)
# Its object includes the mutated headers: they must exist before it is
# compiled (with -j a missing -Imut/nodefer falls back to the real ones).
test/stress/bypass_mutant_nodefer-bypass.$(OBJEXT): mut/nodefer/core.c
test_stress_bypass_mutant_nodefer_LDADD = $(TEST_LIBS)

# headkinds: a waiter served against every kind of head operation
# (inline: the wait layer's hook and a logical clock).
test_stress_headkinds_SOURCES = test/stress/headkinds.c test/tap.h test/util.h
test_stress_headkinds_LDADD = $(TEST_LIBS)
# mutant: the paths that find the head as the link they locked do not take part.
test_stress_headkinds_mutant_noheadover_SOURCES = test/stress/headkinds.c
EXTRA_test_stress_headkinds_mutant_noheadover_DEPENDENCIES = mut/noheadover/core.c
test_stress_headkinds_mutant_noheadover_CPPFLAGS = -Imut/noheadover $(AM_CPPFLAGS)
test/stress/headkinds_mutant_noheadover-headkinds.$(OBJEXT): mut/noheadover/core.c
test_stress_headkinds_mutant_noheadover_LDADD = $(TEST_LIBS)

# busyhead: a path that finds a head busy takes a ticket there, step by
# step (inline: the wait layer's hook and an injected clock).
test_stress_busyhead_SOURCES = test/stress/busyhead.c test/tap.h test/util.h
test_stress_busyhead_LDADD = $(TEST_LIBS)
# mutant: a busy head waited on by backoff only.
test_stress_busyhead_mutant_nolinkwait_SOURCES = test/stress/busyhead.c
EXTRA_test_stress_busyhead_mutant_nolinkwait_DEPENDENCIES = mut/nolinkwait/core.c
test_stress_busyhead_mutant_nolinkwait_CPPFLAGS = -Imut/nolinkwait $(AM_CPPFLAGS)
test/stress/busyhead_mutant_nolinkwait-busyhead.$(OBJEXT): mut/nolinkwait/core.c
test_stress_busyhead_mutant_nolinkwait_LDADD = $(TEST_LIBS)

# mutants: the core with one lock step skipped / one release weakened.
test_stress_stress_mutant_skiplock_SOURCES = test/stress/stress.c
nodist_test_stress_stress_mutant_skiplock_SOURCES = mut/skiplock/core.c
test_stress_stress_mutant_skiplock_CPPFLAGS = -Imut/skiplock $(AM_CPPFLAGS)
test_stress_stress_mutant_skiplock_LDADD = $(PTHREAD_LIBS)
test_stress_stress_mutant_relaxed_SOURCES = test/stress/stress.c
nodist_test_stress_stress_mutant_relaxed_SOURCES = mut/relaxed/core.c
test_stress_stress_mutant_relaxed_CPPFLAGS = -Imut/relaxed $(AM_CPPFLAGS)
test_stress_stress_mutant_relaxed_LDADD = $(PTHREAD_LIBS)
# mutant: [L6] drops the successor's head flag (I6).
test_stress_stress_mutant_nokind_SOURCES = test/stress/stress.c
nodist_test_stress_stress_mutant_nokind_SOURCES = mut/nokind/core.c
test_stress_stress_mutant_nokind_CPPFLAGS = -Imut/nokind $(AM_CPPFLAGS)
test_stress_stress_mutant_nokind_LDADD = $(PTHREAD_LIBS)
# mutant: takes ignore open scan windows (always lazy).
test_stress_fl_stress_mutant_window_SOURCES = test/stress/fl_stress.c
nodist_test_stress_fl_stress_mutant_window_SOURCES = mut/window/core.c
test_stress_fl_stress_mutant_window_CPPFLAGS = -Imut/window $(AM_CPPFLAGS)
test_stress_fl_stress_mutant_window_LDADD = $(PTHREAD_LIBS)
# The mutants' cores: lib/ copied with one line changed (test/stress/mutate.sh);
# the library's sources, installed for the inline mode, carry no switch.
MUT_DEPS = $(CORE_SOURCES) $(STATIC_FILES) \
	test/stress/mutate.sh
# One rule for all of them: the mutant's name is its folder's (mut/NAME).
mut/skiplock/core.c mut/relaxed/core.c mut/nodefer/core.c mut/window/core.c mut/nokind/core.c \
	mut/noheadover/core.c mut/nolinkwait/core.c: $(MUT_DEPS)
	$(AM_V_GEN)d='$(@D)'; \
	$(SHELL) $(srcdir)/test/stress/mutate.sh "$${d#mut/}" $(srcdir) "$$d" $(CORE_SOURCES)
# clean-local runs it (bench/bench.mk holds the one clean-local rule)
clean-mut:
	rm -rf mut
.PHONY: clean-mut
