# test/doc/doc.mk - included from Makefile.am; append to the shared variables with +=
#
# Checks of the documentation (TAP):
#  - test/doc/doclint.sh: one home per fact (no section numbers, no copied
#    verification figures, no installed header including lib/);
#  - test/doc/man.sh: the man pages of doc/man/ (doc/doc.mk) are current
#    and render without warnings;
#  - test/doc/man-examples.sh: every page's EXAMPLES compile;
#  - test/doc/readme-example.sh: README's example is
#    doc/examples/readme_example.c verbatim, and that program (doc/doc.mk)
#    runs and passes its own check;
#  - test/doc/readme-figures.sh: every figure of README's and
#    doc/results.md's generated blocks is what bench/readme-table computes
#    from the bench bundle run under bench/data/ they name; README is at
#    most 200 lines.
TESTS += test/doc/doclint.sh test/doc/man.sh test/doc/man-examples.sh \
	test/doc/readme-example.sh test/doc/readme-figures.sh
EXTRA_DIST += test/doc/doclint.sh test/doc/man.sh test/doc/man-examples.sh \
	test/doc/readme-example.sh test/doc/readme-figures.sh
