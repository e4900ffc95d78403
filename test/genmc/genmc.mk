# test/genmc/genmc.mk - included from Makefile.am; appends to the shared variables with +=
#
# GenMC clients (RC11 and IMM) of the list, batch and free-list operations,
# and the memory-order mutants: `make check-genmc` (doc/verification.md).
