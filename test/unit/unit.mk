# test/unit/unit.mk - included from Makefile.am; append to the shared variables with +=
#
# Unit tests (TAP): one thread, or a few threads on one scenario, each case
# checked against a model or a stated outcome.  Which operation each file
# covers: test/README.md.
check_PROGRAMS += test/unit/seq test/unit/batch test/unit/seq-inline test/unit/batch-inline \
	test/unit/misuse test/unit/misuse-release test/unit/hang test/unit/backoff \
	test/unit/fl_seq test/unit/fl_untouched test/unit/handover test/unit/park test/unit/movemove
TESTS += test/unit/seq test/unit/batch test/unit/seq-inline test/unit/batch-inline \
	test/unit/misuse test/unit/misuse-release test/unit/fl_seq test/unit/fl_untouched \
	test/unit/backoff test/unit/hang test/unit/handover test/unit/park test/unit/movemove
test_unit_seq_SOURCES = test/unit/seq.c test/tap.h test/util.h
test_unit_seq_LDADD = $(TEST_LIBS)
test_unit_batch_SOURCES = test/unit/batch.c test/tap.h test/util.h
test_unit_batch_LDADD = $(TEST_LIBS)
# the same sequential tests with the list operations inline (CASLIST_INLINE)
test_unit_seq_inline_SOURCES = test/unit/seq.c test/tap.h test/util.h
test_unit_seq_inline_CPPFLAGS = $(AM_CPPFLAGS) $(IMPL_CPPFLAGS)
test_unit_seq_inline_LDADD = $(TEST_LIBS)
test_unit_batch_inline_SOURCES = test/unit/batch.c test/tap.h test/util.h
test_unit_batch_inline_CPPFLAGS = $(AM_CPPFLAGS) $(IMPL_CPPFLAGS)
test_unit_batch_inline_LDADD = $(TEST_LIBS)
# misuse: the core compiled in with the debug checks on, whatever the build,
# and with moves queued at a busy head (its check has a case).
# (misuse.c and hang.c include "tap.h": -I test finds the shared harness.)
test_unit_misuse_SOURCES = test/unit/misuse.c test/tap.h $(CORE_SOURCES)
# MISUSE_SRCDIR: where the check sites are read when CASLIST_SRCDIR is unset
MISUSE_SRCDIR_FLAGS = -DMISUSE_SRCDIR='"$(abs_top_srcdir)"'
test_unit_misuse_CPPFLAGS = $(LIB_CPPFLAGS) -I$(top_srcdir)/test -DCASLIST_DEBUG=1 -DCASLIST_HEAD_COMBINE=1 $(MISUSE_SRCDIR_FLAGS)
test_unit_misuse_LDADD = $(PTHREAD_LIBS)
# misuse-release: the same cases without CASLIST_DEBUG: the checks release
# builds keep (CASLIST_REQUIRE) must abort there too.
test_unit_misuse_release_SOURCES = test/unit/misuse.c test/tap.h $(CORE_SOURCES)
test_unit_misuse_release_CPPFLAGS = $(LIB_CPPFLAGS) -I$(top_srcdir)/test -DCASLIST_HEAD_COMBINE=1 $(MISUSE_SRCDIR_FLAGS)
test_unit_misuse_release_LDADD = $(PTHREAD_LIBS)
# hang: misuse that would wait for ever prints the stuck-wait line (every build)
test_unit_hang_SOURCES = test/unit/hang.c test/tap.h
test_unit_hang_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test
test_unit_hang_LDADD = $(TEST_LIBS)
# backoff: the wait policy's crowding hint and backoff (static/wait.h).
test_unit_backoff_SOURCES = test/unit/backoff.c test/tap.h include/caslist/static/wait.h
test_unit_backoff_CPPFLAGS = $(LIB_CPPFLAGS)
test_unit_backoff_LDADD = $(TEST_LIBS)
# handover: the head's hand-over by count (static/wait.h), two threads
# step by step (inline: the wait layer's hook).
test_unit_handover_SOURCES = test/unit/handover.c test/tap.h test/util.h
test_unit_handover_LDADD = $(TEST_LIBS)
# park: the parking lot's futex calls (lib/wait.c), a timed park's timeout
# among them (the 64-bit time_t layout of 32-bit targets).
test_unit_park_SOURCES = test/unit/park.c test/tap.h test/util.h
test_unit_park_CPPFLAGS = $(LIB_CPPFLAGS)
test_unit_park_LDADD = $(TEST_LIBS)
# movemove: two move_heads of one node racing both return CASLIST_OK
test_unit_movemove_SOURCES = test/unit/movemove.c test/tap.h
test_unit_movemove_LDADD = $(TEST_LIBS)
test_unit_fl_seq_SOURCES = test/unit/fl_seq.c test/tap.h test/util.h
test_unit_fl_seq_LDADD = $(TEST_LIBS)
test_unit_fl_untouched_SOURCES = test/unit/fl_untouched.c test/tap.h
test_unit_fl_untouched_LDADD = $(TEST_LIBS)
