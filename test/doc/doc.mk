# test/doc/doc.mk - included from Makefile.am; append to the shared variables with +=
#
# Checks of the documentation (TAP):
#  - test/doc/doclint.sh: one home per fact (no section numbers, no copied
#    verification figures, no installed header including lib/);
#  - test/doc/man.sh: the man pages of doc/man/ (doc/doc.mk) are current
#    and render without warnings;
#  - test/doc/man-examples.sh: every page's EXAMPLES compile.
TESTS += test/doc/doclint.sh test/doc/man.sh test/doc/man-examples.sh
EXTRA_DIST += test/doc/doclint.sh test/doc/man.sh test/doc/man-examples.sh
