# test/measure/measure.mk - included from Makefile.am; append to the shared variables with +=
#
# waitstat: a measurement tool (not run by make check; built so it keeps
# compiling): the core with the wait counters of CASLIST_STATS.
check_PROGRAMS += test/measure/waitstat
test_measure_waitstat_SOURCES = test/measure/waitstat.c test/util.h bench/xlock.h $(CORE_SOURCES) lib/stats.c lib/stats.h
test_measure_waitstat_CPPFLAGS = $(LIB_CPPFLAGS) -DCASLIST_STATS -include $(top_srcdir)/lib/stats.h
test_measure_waitstat_LDADD = $(PTHREAD_LIBS)
# headwait: test/stress/headkinds.c with HK_WALL (a measurement: the
# waiter's add_head and del on the monotonic clock against each kind of
# head operation; the library's own clock and defaults).
check_PROGRAMS += test/measure/headwait
test_measure_headwait_SOURCES = test/stress/headkinds.c test/tap.h test/util.h
test_measure_headwait_CPPFLAGS = $(AM_CPPFLAGS) -DHK_WALL
test_measure_headwait_LDADD = $(TEST_LIBS)
