# test/measure/measure.mk - included from Makefile.am; append to the shared variables with +=
#
# waitstat: a measurement tool (not run by make check; built so it keeps
# compiling): the core with the wait counters of CASLIST_STATS.
check_PROGRAMS += test/measure/waitstat
test_measure_waitstat_SOURCES = test/measure/waitstat.c test/util.h bench/xlock.h $(CORE_SOURCES) lib/stats.c lib/stats.h
test_measure_waitstat_CPPFLAGS = $(LIB_CPPFLAGS) -DCASLIST_STATS -include $(top_srcdir)/lib/stats.h
test_measure_waitstat_LDADD = $(PTHREAD_LIBS)
