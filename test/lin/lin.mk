# test/lin/lin.mk - included from Makefile.am; append to the shared variables with +=
#
# Linearizability of recorded histories (issue 26): test/lin/lin.c records
# short windows of concurrent operations on small lists and checks each
# history against a sequential model with a Wing-Gong / Lowe search.
