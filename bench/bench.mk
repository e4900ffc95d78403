# bench/bench.mk - benchmarks (included from Makefile.am; append with +=)
noinst_PROGRAMS += bench/listdemo bench/fl_bench
bench_listdemo_SOURCES = bench/listdemo.c
bench_listdemo_LDADD = $(TEST_LIBS)
bench_fl_bench_SOURCES = bench/fl_bench.c
bench_fl_bench_LDADD = $(TEST_LIBS)

EXTRA_DIST += bench/plot bench/compare bench/smoke.sh
CLEANFILES += bench/results.json bench/results-quick.json bench/img/*.png bench/smoke-*.json

# bench/listbench: Google Benchmark through the C wrapper bench/cbench.h,
# libcaslist against peers (doc/bench.md).
if HAVE_BENCH
noinst_PROGRAMS += bench/listbench
bench_listbench_SOURCES = bench/listbench.c bench/cbench.cc bench/cbench.h
bench_listbench_CPPFLAGS = $(AM_CPPFLAGS) $(BENCHMARK_CFLAGS) $(CK_CFLAGS) $(URCU_CFLAGS) \
	-DLISTBENCH_CC='"$(CC)"' -DLISTBENCH_CFLAGS='"$(CFLAGS) $(SAN_FLAGS)"'
# BENCH_UBSAN_EXCLUDE: see configure.ac (a UBSan report inside Debian's ck_stack.h).
bench_listbench_CFLAGS = $(AM_CFLAGS) $(BENCH_UBSAN_EXCLUDE)
# C++ only for the shim: the C warning set has C-only flags.
bench_listbench_CXXFLAGS = -Wall -Wextra $(PTHREAD_CFLAGS) $(SAN_FLAGS)
bench_listbench_LDADD = $(TEST_LIBS) $(BENCHMARK_LIBS) $(CK_LIBS) $(URCU_LIBS)
# the benchmark bodies run once each, short, checked (TSan too): no timings
TESTS += bench/smoke.sh

LISTBENCH = ./bench/listbench
BENCH_ARGS =
bench: bench/listbench
	$(LISTBENCH) $(BENCH_ARGS) --benchmark_out=bench/results.json \
		--benchmark_out_format=json
	$(PYTHON3) $(srcdir)/bench/compare bench/results.json
	@if test -n "$(GNUPLOT)"; then \
		$(PYTHON3) $(srcdir)/bench/plot --gnuplot '$(GNUPLOT)' bench/results.json bench/img; \
	else echo "bench: gnuplot not found (Debian: gnuplot-nox): no charts"; fi
bench-quick: bench/listbench
	$(LISTBENCH) --quick $(BENCH_ARGS) --benchmark_out=bench/results-quick.json \
		--benchmark_out_format=json
	$(PYTHON3) $(srcdir)/bench/compare bench/results-quick.json
else
bench bench-quick:
	@echo "make $@: the benchmarks were not configured; missing:"; \
	pc='$(PKG_CONFIG)'; test -n "$$pc" || { pc=false; echo "  pkg-config (Debian: pkg-config)"; }; \
	$$pc --exists 'benchmark >= 1.7' || echo "  Google Benchmark >= 1.7 (Debian: libbenchmark-dev)"; \
	$$pc --exists 'ck >= 0.7' || echo "  Concurrency Kit >= 0.7 (Debian: libck-dev)"; \
	$$pc --exists 'liburcu >= 0.13 liburcu-cds >= 0.13' || echo "  liburcu >= 0.13 (Debian: liburcu-dev)"; \
	echo "  install them (tools/install-deps), then rerun configure"; exit 1
endif
.PHONY: bench bench-quick
