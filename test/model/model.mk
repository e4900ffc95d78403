# test/model/model.mk - included from Makefile.am; append to the shared variables with +=
