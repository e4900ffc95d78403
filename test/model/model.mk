# test/model/model.mk - included from Makefile.am; append to the shared variables with +=
#
# The spin model of the link-lock protocol (test/model/list.pml; its steps
# are mapped to static/link.h and lib/list.c in doc/protocol.md, "The step map")
# and its mutants, run by test/model/run.sh when configure found spin.
EXTRA_DIST += test/model/list.pml test/model/freelist.pml test/model/wait.pml test/model/combine.pml test/model/run.sh test/model/tags.sh
TESTS += test/model/tags.sh
if HAVE_SPIN
TESTS += test/model/run.sh
endif
# run.sh: the spin binary configure found.  misuse.c: the sources, to check
# that every CASLIST_CHECK has a case.
AM_TESTS_ENVIRONMENT += \
	CASLIST_SPIN='$(SPIN)'; export CASLIST_SPIN; \
	CASLIST_SRCDIR='$(abs_top_srcdir)'; export CASLIST_SRCDIR;
