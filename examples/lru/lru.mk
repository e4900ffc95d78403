# examples/lru/lru.mk - included from Makefile.am; append to the shared variables with +=
# The LRU object cache example (doc/lru.md): the program, its tests, and
# four -D mutants of it that examples/lru/mutants.sh requires to fail.
# --disable-examples leaves the program and its tests out (configure.ac)
if EXAMPLES
noinst_PROGRAMS += examples/lru/lrucache
examples_lru_lrucache_SOURCES = examples/lru/cache.h examples/lru/main.c \
	examples/lru/cache.c examples/lru/hashtable.c examples/lru/pool.c \
	examples/lru/lru_caslist.c examples/lru/lru_mutex.c examples/lru/lru_index.c \
	examples/lru/reclaim.c examples/lru/audit.c examples/lru/cli.c examples/lru/report.c \
	$(COMMON_CLI_SOURCES)
examples_lru_lrucache_CPPFLAGS = $(EXAMPLES_CPPFLAGS)
examples_lru_lrucache_LDADD = $(TEST_LIBS) -lm

LRU_MUTANTS = examples/lru/lrucache-mutant-skipindex examples/lru/lrucache-mutant-skiplrudel \
	examples/lru/lrucache-mutant-noreclaim examples/lru/lrucache-mutant-ignoredel
check_PROGRAMS += $(LRU_MUTANTS)
examples_lru_lrucache_mutant_skipindex_SOURCES = $(examples_lru_lrucache_SOURCES)
examples_lru_lrucache_mutant_skipindex_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DLRU_MUTANT_SKIP_INDEX_REMOVE
examples_lru_lrucache_mutant_skipindex_LDADD = $(examples_lru_lrucache_LDADD)
examples_lru_lrucache_mutant_skiplrudel_SOURCES = $(examples_lru_lrucache_SOURCES)
examples_lru_lrucache_mutant_skiplrudel_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DLRU_MUTANT_SKIP_LRU_DEL
examples_lru_lrucache_mutant_skiplrudel_LDADD = $(examples_lru_lrucache_LDADD)
examples_lru_lrucache_mutant_noreclaim_SOURCES = $(examples_lru_lrucache_SOURCES)
examples_lru_lrucache_mutant_noreclaim_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DLRU_MUTANT_NO_RECLAIM
examples_lru_lrucache_mutant_noreclaim_LDADD = $(examples_lru_lrucache_LDADD)
examples_lru_lrucache_mutant_ignoredel_SOURCES = $(examples_lru_lrucache_SOURCES)
examples_lru_lrucache_mutant_ignoredel_CPPFLAGS = $(EXAMPLES_CPPFLAGS) -DLRU_MUTANT_IGNORE_DEL_RESULT
examples_lru_lrucache_mutant_ignoredel_LDADD = $(examples_lru_lrucache_LDADD)

TESTS += examples/lru/lru-test.sh examples/lru/mutants.sh
EXTRA_DIST += examples/lru/lru-test.sh examples/lru/mutants.sh
endif
