# examples/lruvec/lruvec.mk - included from Makefile.am; appends to the shared variables.
# The seed's workload as a small program of its own: the kernel's per-node
# LRU (inactive and active lists) on libcaslist and under one lock
# (doc/scaling.md; bench/listbench runs the same mix as lruvec/N).
# --disable-examples leaves the program and its tests out (configure.ac)
if EXAMPLES
noinst_PROGRAMS += examples/lruvec/lruvec
examples_lruvec_lruvec_SOURCES = examples/lruvec/lruvec.c $(COMMON_CLI_SOURCES)
examples_lruvec_lruvec_CPPFLAGS = $(EXAMPLES_CPPFLAGS)
examples_lruvec_lruvec_LDADD = $(TEST_LIBS)
TESTS += examples/lruvec/lruvec-test.sh
EXTRA_DIST += examples/lruvec/lruvec-test.sh
endif
