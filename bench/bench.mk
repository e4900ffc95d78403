# bench/bench.mk - benchmarks (included from Makefile.am; append with +=)
EXTRA_DIST += bench/peer_locked.c bench/plot bench/compare bench/readme-table bench/benchdata.py bench/smoke.sh bench/cli-test.sh \
	bench/cold-test.sh \
	bench/mkbundle.sh bench/bundle-run.sh bench/bundle-report.sh bench/bundle-test.sh \
	bench/publish-bundle bench/ab-ref bench/ab-ref-report
# the one bench bundle run README and doc/results.md cite (their figures
# are checked against its JSON: test/doc/readme-figures.sh)
EXTRA_DIST += bench/data
# the per-operation cost driver of tools/opcost (valgrind): built by make
# check so it keeps compiling; plain C, no Google Benchmark
check_PROGRAMS += bench/opcost
bench_opcost_SOURCES = bench/opcost.c bench/xlock.h bench/floor.h
bench_opcost_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
# the cold move by variant of the floor, one thread (issue 54; the
# notebook's table): a timing tool, built by make check; its test checks
# only that every variant keeps both lists whole
check_PROGRAMS += bench/coldfloor
bench_coldfloor_SOURCES = bench/coldfloor.c bench/floor.h
bench_coldfloor_LDADD = lib/libcaslist.la $(PTHREAD_LIBS)
TESTS += bench/coldfloor-test.sh
EXTRA_DIST += bench/coldfloor-test.sh
# the shape of an operation's RMWs with no list (doc/cost.md, "Batches"):
# a timing tool, built by make check and run from the build tree; its test
# checks only its form
check_PROGRAMS += bench/shape
bench_shape_SOURCES = bench/shape.c $(COMMON_CLI_SOURCES)
bench_shape_CPPFLAGS = $(EXAMPLES_CPPFLAGS)
bench_shape_LDADD = $(PTHREAD_LIBS)
TESTS += bench/shape-test.sh
EXTRA_DIST += bench/shape-test.sh
# the latency histogram (bench/latency.h) on known values; plain C, no
# Google Benchmark: built and run in every configuration
check_PROGRAMS += bench/latency-test
bench_latency_test_SOURCES = bench/latency-test.c bench/latency.c bench/latency.h test/tap.h
TESTS += bench/latency-test
CLEANFILES += bench/results.json bench/results-quick.json bench/results-cold.json bench/img/*.png bench/smoke-*.json

# bench/listbench: Google Benchmark through the C wrapper bench/cbench.h,
# libcaslist against peers (doc/bench.md).  The parts are listed in
# bench/peer.h.  The plain list under a lock (bench/peer_locked.c) is
# built once per lock: bench/peer_{plain,mutex,spin,ticket,mcs}.c each
# include it with their lock's macro.
if HAVE_BENCH
BENCH_CPPFLAGS = $(EXAMPLES_CPPFLAGS) $(BENCHMARK_CFLAGS) $(CK_CFLAGS) $(URCU_CFLAGS)
# BENCH_UBSAN_EXCLUDE: see configure.ac (a UBSan report inside Debian's ck_stack.h).
BENCH_CFLAGS = $(AM_CFLAGS) $(BENCH_UBSAN_EXCLUDE)
noinst_PROGRAMS += bench/listbench
bench_listbench_SOURCES = bench/listbench.c bench/peer.h bench/workload.c \
	bench/runstat.c bench/runstat.h bench/latency.c bench/latency.h bench/ticks.c bench/ticks.h \
	bench/peer_caslist.c bench/peer_urcu.c bench/peer_stacks.c bench/peer_xlock.c bench/xlock.h \
	bench/peer_floor.c bench/floor.h bench/peer_plain.c bench/peer_mutex.c bench/peer_spin.c \
	bench/peer_ticket.c bench/peer_mcs.c examples/common/dlist.h \
	bench/cbench.cc bench/cbench.h $(COMMON_CLI_SOURCES)
bench_listbench_CPPFLAGS = $(BENCH_CPPFLAGS) \
	-DLISTBENCH_CC='"$(CC)"' -DLISTBENCH_CFLAGS='"$(CFLAGS) $(SAN_FLAGS)"'
bench_listbench_CFLAGS = $(BENCH_CFLAGS)
# C++ only for the shim: the C warning set has C-only flags.
bench_listbench_CXXFLAGS = -Wall -Wextra $(PTHREAD_CFLAGS) $(SAN_FLAGS)
bench_listbench_LDADD = $(TEST_LIBS) $(BENCHMARK_LIBS) $(CK_LIBS) $(URCU_LIBS)
# the benchmark bodies run once each, short, checked (TSan too): no timings
TESTS += bench/smoke.sh
# bad options and files: listbench, compare and plot must say what is wrong
TESTS += bench/cli-test.sh
# the floor row (1 thread only) and the cold lists (--cold) run and check
TESTS += bench/cold-test.sh
# the bench bundle runs (--smoke) with no library of this machine, in a chroot
TESTS += bench/bundle-test.sh

# make bench-bundle: bench-bundle/, a folder that runs the whole matrix on
# another x86-64 Linux machine with nothing installed (doc/scaling.md)
bench-bundle: bench/listbench examples/pagepool/pagepool examples/lru/lrucache
	$(SHELL) $(srcdir)/bench/mkbundle.sh . $(srcdir) bench-bundle

LISTBENCH = ./bench/listbench
BENCH_ARGS =
# the commit goes into the JSON context (bench/plot puts it in the titles)
BENCH_COMMIT = `git -C $(srcdir) describe --always --dirty 2>/dev/null || echo unknown`
bench: bench/listbench
	$(LISTBENCH) $(BENCH_ARGS) --benchmark_context=commit=$(BENCH_COMMIT) \
		--benchmark_out=bench/results.json \
		--benchmark_out_format=json
	$(PYTHON3) $(srcdir)/bench/compare bench/results.json
	@if test -n "$(GNUPLOT)"; then \
		$(PYTHON3) $(srcdir)/bench/plot --gnuplot '$(GNUPLOT)' bench/results.json bench/img; \
	else echo "bench: gnuplot not found (Debian: gnuplot-nox): no charts"; fi
bench-quick: bench/listbench
	$(LISTBENCH) --quick $(BENCH_ARGS) --benchmark_context=commit=$(BENCH_COMMIT) \
		--benchmark_out=bench/results-quick.json \
		--benchmark_out_format=json
	$(PYTHON3) $(srcdir)/bench/compare bench/results-quick.json
# the cold-list rows alone (listbench --cold: lists of 16 and 64 MiB)
bench-cold: bench/listbench
	$(LISTBENCH) --cold $(BENCH_ARGS) --benchmark_context=commit=$(BENCH_COMMIT) \
		--benchmark_out=bench/results-cold.json \
		--benchmark_out_format=json
	$(PYTHON3) $(srcdir)/bench/compare bench/results-cold.json
else
bench bench-quick bench-cold bench-bundle:
	@echo "make $@: the benchmarks were not configured; missing:"; \
	pc='$(PKG_CONFIG)'; test -n "$$pc" || { pc=false; echo "  pkg-config (Debian: pkg-config)"; }; \
	$$pc --exists 'benchmark >= 1.7' || echo "  Google Benchmark >= 1.7 (Debian: libbenchmark-dev)"; \
	$$pc --exists 'ck >= 0.7' || echo "  Concurrency Kit >= 0.7 (Debian: libck-dev)"; \
	$$pc --exists 'liburcu >= 0.13 liburcu-cds >= 0.13' || echo "  liburcu >= 0.13 (Debian: liburcu-dev)"; \
	echo "  install them (tools/install-deps), then rerun configure"; exit 1
endif
clean-local: clean-bench-bundle clean-mut
clean-bench-bundle:
	rm -rf bench-bundle
.PHONY: bench bench-quick bench-cold bench-bundle clean-bench-bundle
