# bench/bench.mk - benchmarks (included from Makefile.am; append with +=)
noinst_PROGRAMS += bench/listdemo bench/fl_bench
bench_listdemo_SOURCES = bench/listdemo.c
bench_listdemo_LDADD = $(TEST_LIBS)
bench_fl_bench_SOURCES = bench/fl_bench.c
bench_fl_bench_LDADD = $(TEST_LIBS)
