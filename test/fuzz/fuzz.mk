# test/fuzz/fuzz.mk - included from Makefile.am; append to the shared variables with +=
