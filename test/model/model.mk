# test/model/model.mk - included from Makefile.am; append to the shared variables with +=
# misuse.c checks that every CASLIST_CHECK in the sources has a case.
AM_TESTS_ENVIRONMENT += \
	CASLIST_SRCDIR='$(abs_top_srcdir)'; export CASLIST_SRCDIR;
