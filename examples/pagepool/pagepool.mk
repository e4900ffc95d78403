# examples/pagepool/pagepool.mk - the page-pool example (included from
# Makefile.am; appends to the shared variables).
# --disable-examples leaves the program and its tests out (configure.ac)
if EXAMPLES
PAGEPOOL_SOURCES = examples/pagepool/main.c examples/pagepool/cli.c \
	examples/pagepool/points.c examples/pagepool/workers.c examples/pagepool/cond.c \
	examples/pagepool/report.c examples/pagepool/driver.h examples/pagepool/zone.c \
	examples/pagepool/buddy.c examples/pagepool/order0.c examples/pagepool/pcp.c \
	examples/pagepool/audit.c examples/pagepool/zone.h examples/pagepool/zlock.h \
	examples/pagepool/internal.h $(COMMON_CLI_SOURCES)
noinst_PROGRAMS += examples/pagepool/pagepool
examples_pagepool_pagepool_SOURCES = $(PAGEPOOL_SOURCES)
examples_pagepool_pagepool_CPPFLAGS = $(EXAMPLES_CPPFLAGS)
examples_pagepool_pagepool_LDADD = $(TEST_LIBS)
# mutant: compaction merges skipped pages without taking them off the
# order-0 list; the end-of-run audit must catch it.
check_PROGRAMS += examples/pagepool/pagepool-mutant-noremove
examples_pagepool_pagepool_mutant_noremove_SOURCES = $(PAGEPOOL_SOURCES)
examples_pagepool_pagepool_mutant_noremove_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DPP_MUTANT_NO_REMOVE
examples_pagepool_pagepool_mutant_noremove_LDADD = $(TEST_LIBS)
# mutant: a thread that exits keeps its stash; run_finish must catch it.
check_PROGRAMS += examples/pagepool/pagepool-mutant-keepstash
examples_pagepool_pagepool_mutant_keepstash_SOURCES = $(PAGEPOOL_SOURCES)
examples_pagepool_pagepool_mutant_keepstash_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DPP_MUTANT_KEEP_STASH
examples_pagepool_pagepool_mutant_keepstash_LDADD = $(TEST_LIBS)
TESTS += examples/pagepool/pagepool-test.sh
EXTRA_DIST += examples/pagepool/pagepool-test.sh

# The main demonstration (README's first command runs it via tools/demo).
demo: examples/pagepool/pagepool
	./examples/pagepool/pagepool run $(DEMO_ARGS)
endif
.PHONY: demo
