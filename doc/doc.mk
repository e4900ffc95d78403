# doc/doc.mk - included from Makefile.am; append to the shared variables with +=
# Installed documentation (issue 13, items 6 and 7):
#  - man pages, section 3: one per public function, one per macro group
#    (caslist_entry, CASLIST_LIST_INIT, CASLIST_OK and the other codes,
#    CASLIST_BATCH_MAX, CASLIST_VERSION, CASLIST_INLINE) plus caslist(3),
#    and an alias page (".so man3/PAGE.3") for every other name a page
#    documents (CASLIST_ENOENT, caslist_for_each_entry, ...), made by
#    tools/gen-man from the headers (SYNOPSIS, DESCRIPTION, the
#    header sections' notes) and doc/man/pages.txt (summaries, RETURN
#    VALUE, ERRORS, THREAD SAFETY, EXAMPLES, SEE ALSO), committed in
#    doc/man/ (doc/man/man.mk lists them).  `make man` regenerates them;
#    test/doc/man.sh fails when they are stale or incomplete (a section
#    missing, a summary cut off or shared, markup leaked, a bare SEE ALSO,
#    a macro on no page, a name or macro without a page of its own, an
#    alias to no page) and renders each one, in a man tree as installed,
#    with groff -ww, man -l and mandoc -T lint (those installed),
#    requiring no warnings;
#  - README, ChangeLog, LICENSE and doc/*.md under $(docdir) (doc/ keeps its
#    name, so README's links work), the runnable examples in
#    $(docdir)/examples with a Makefile that builds them with pkg-config;
#  - doc/examples/rcu_free: freeing removed nodes through liburcu, built
#    and run by make check (clean under ASan; TSan with two annotations,
#    doc/examples/urcu_tsan.h, which lru_touch and test/stress/xlist share).
include $(srcdir)/doc/man/man.mk

man:
	$(PYTHON3) $(srcdir)/tools/gen-man --srcdir $(srcdir) --out $(srcdir)/doc/man
.PHONY: man

nobase_doc_DATA = README.md ChangeLog LICENSE \
	doc/protocol.md doc/wait.md doc/combine.md doc/cluster.md doc/lru.md doc/pagepool.md doc/bench.md doc/verification.md \
	doc/verification-figures.md doc/bench-history.md doc/notebook.md doc/abi.md \
	doc/scaling.md doc/cost.md doc/results.md doc/testing.md doc/platforms.md \
	doc/img/add_near_4096.png doc/img/del_disjoint_4096.png doc/img/del_overlap_4096.png \
	doc/img/fl_put_64.png doc/img/lru_all_262144.png doc/img/lru_all_4096.png \
	doc/img/lru_all_64.png doc/img/lru_slice_262144.png doc/img/lru_slice_4096.png \
	doc/img/lru_slice_64.png doc/img/queue_1024.png doc/img/splice_cut_127.png \
	doc/img/splice_cut_16.png doc/img/splice_cut_255.png doc/img/splice_cut_31.png \
	doc/img/splice_cut_511.png doc/img/splice_cut_63.png doc/img/splice_cut_8.png \
	doc/img/stack_1024.png \
	doc/img/scaling/lru_all_4096.png doc/img/scaling/lruvec_4096.png \
	doc/img/scaling/del_disjoint_4096.png doc/img/scaling/queue_1024.png \
	doc/img/scaling/pagepool_page_fault1.png \
	doc/img/results/lru_all_4096.png doc/img/results/lru_all_4096_lat.png \
	doc/img/results/lru_all_1048576.png doc/img/results/del_head_4096_lat.png \
	doc/img/results/queue_1024.png doc/img/results/lruvec_4096.png \
	doc/img/results/lru_batch_4096.png doc/img/results/del_disjoint_4096.png
examplesdir = $(docdir)/examples
examples_DATA = doc/examples/Makefile.example doc/examples/cxx_threads.cc \
	doc/examples/rcu_free.c doc/examples/lru_touch.c doc/examples/urcu_tsan.h \
	doc/examples/readme_example.c

if EXAMPLES
if HAVE_URCU_MEMB
# README's LRU example (touch, evict and free through call_rcu from any
# thread), run at 2, 4 and 64 threads.
check_PROGRAMS += doc/examples/lru_touch
doc_examples_lru_touch_SOURCES = doc/examples/lru_touch.c
doc_examples_lru_touch_CFLAGS = $(AM_CFLAGS) $(URCU_MEMB_CFLAGS)
doc_examples_lru_touch_LDADD = $(TEST_LIBS) $(URCU_MEMB_LIBS)
TESTS += doc/examples/lru_touch
check_PROGRAMS += doc/examples/rcu_free
doc_examples_rcu_free_SOURCES = doc/examples/rcu_free.c
doc_examples_rcu_free_CFLAGS = $(AM_CFLAGS) $(URCU_MEMB_CFLAGS)
doc_examples_rcu_free_LDADD = $(TEST_LIBS) $(URCU_MEMB_LIBS)
TESTS += doc/examples/rcu_free
# README's first example, verbatim (test/doc/readme-example.sh compares
# the two and runs it)
check_PROGRAMS += doc/examples/readme_example
doc_examples_readme_example_SOURCES = doc/examples/readme_example.c
doc_examples_readme_example_CFLAGS = $(AM_CFLAGS) $(URCU_MEMB_CFLAGS)
doc_examples_readme_example_LDADD = $(TEST_LIBS) $(URCU_MEMB_LIBS)
endif
endif

# EXTRA_DIST carries doc/ as a directory, which automake copies from the
# build tree too: keep only the sources of doc/examples in the tarball,
# not the example programs make check builds there.
dist-hook:
	cd $(distdir)/doc/examples && \
	for f in * .[!.]*; do \
		case $$f in *.c|*.cc|*.h|Makefile.example|README*|'*'|'.[!.]*') ;; *) rm -rf "$$f" ;; esac; \
	done
