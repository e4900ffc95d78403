# test/fuzz/fuzz.mk - included from Makefile.am; append to the shared variables with +=
#
# The API fuzz target (test/fuzz/fuzz_list.c) in two builds:
#  - test/fuzz/fuzz_replay: part of make check in every configuration; runs
#    the seed corpus and seeded random inputs against the reference model.
#  - test/fuzz/fuzz_list: the libFuzzer build, made only by `make fuzz`, with
#    clang directly (the normal build does not need clang):
#      make fuzz [FUZZ_SECONDS=60] [FUZZ_CC=clang]
#    runs it for FUZZ_SECONDS on a scratch copy of the seed corpus and
#    prints libFuzzer's final stats (executions).
#  - `make soak [SOAK_MINUTES=10]`: test/fuzz/soak.sh runs test/stress/stress and
#    test/stress/fl_stress across mixes, thread counts and seeds; non-zero exit on
#    any discrepancy; prints the total operations.
check_PROGRAMS += test/fuzz/fuzz_replay
test_fuzz_fuzz_replay_SOURCES = test/fuzz/fuzz_list.c $(CORE_SOURCES)
test_fuzz_fuzz_replay_CPPFLAGS = $(AM_CPPFLAGS) -DCASLIST_DEBUG=1
test_fuzz_fuzz_replay_LDADD = $(PTHREAD_LIBS)
TESTS += test/fuzz/replay.sh
EXTRA_DIST += test/fuzz/replay.sh test/fuzz/soak.sh test/fuzz/corpus

FUZZ_SECONDS = 60
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# the core's sources (CORE_SOURCES in Makefile.am), with the srcdir
FUZZ_SRCS = $(srcdir)/test/fuzz/fuzz_list.c $(srcdir)/lib/list.c $(srcdir)/lib/batch.c \
	$(srcdir)/lib/check.c $(srcdir)/lib/debug.c $(srcdir)/lib/freelist.c $(srcdir)/lib/wait.c
CLEANFILES += test/fuzz/fuzz_list

test/fuzz/fuzz_list: $(FUZZ_SRCS) $(STATIC_FILES)
	@$(MKDIR_P) test/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -DCASLIST_LIBFUZZER -DCASLIST_DEBUG=1 \
		-I$(top_srcdir)/include -I$(top_builddir)/include -o $@ $(FUZZ_SRCS) -pthread

fuzz: test/fuzz/fuzz_list
	@work=$$(mktemp -d "$${TMPDIR:-/tmp}/caslist-fuzz.XXXXXX") && \
	cp $(srcdir)/test/fuzz/corpus/* "$$work"/ && \
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	./test/fuzz/fuzz_list -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-max_len=2048 -artifact_prefix=test/fuzz/ "$$work" 2>&1 | tee test/fuzz/fuzz.log | grep -E \
		'^(#[0-9]+ +(INITED|DONE)|stat::|==[0-9]+==|SUMMARY|Done)|fuzz_list:'; \
	rc=$$?; st=$$(grep -c -E 'ERROR|deadly signal|SUMMARY' test/fuzz/fuzz.log); \
	rm -rf "$$work"; \
	if [ "$$st" -ne 0 ]; then echo "fuzz: FAILED (test/fuzz/fuzz.log)"; exit 1; fi; \
	grep -q '^Done' test/fuzz/fuzz.log || { echo "fuzz: did not finish"; exit 1; }; \
	echo "fuzz: passed, $$(sed -n 's/^stat::number_of_executed_units: *//p' test/fuzz/fuzz.log) executions"

SOAK_MINUTES = 10
soak: test/stress/stress test/stress/fl_stress
	CASLIST_BUILDDIR='$(abs_top_builddir)' SOAK_MINUTES='$(SOAK_MINUTES)' \
		$(SHELL) $(srcdir)/test/fuzz/soak.sh

CLEANFILES += test/fuzz/fuzz.log
.PHONY: fuzz soak
