# test/genmc/genmc.mk - included from Makefile.am; appends to the shared variables with +=
#
# GenMC (a stateless model checker for C under RC11 and IMM; a tool, not
# part of the library): client programs that run lib/'s list operations,
# batches and free-list operations unchanged, and the memory-order mutants
# of lib/ (doc/verification.md, "GenMC").  `make check-genmc` runs them;
# not part of `make check` (a few minutes).  GenMC: $(GENMC) from
# configure, else /opt/genmc-0.11.0/genmc (tools/build-genmc builds it);
# without it the target says what is missing and skips, unless
# GENMC_REQUIRED is set (CI), when it fails.
GENMC_CLIENTS = test/genmc/headpop.c test/genmc/prim.c test/genmc/trylock.c \
	test/genmc/walk.c test/genmc/touch.c test/genmc/touchrace.c test/genmc/near.c \
	test/genmc/nearnew.c test/genmc/delnew.c test/genmc/splicetouch.c \
	test/genmc/cutchain.c test/genmc/cutflag.c test/genmc/batching.c test/genmc/flput.c \
	test/genmc/flremove.c test/genmc/flscan.c test/genmc/flgrow.c \
	test/genmc/flgrow2.c test/genmc/fairticket.c
EXTRA_DIST += test/genmc/run.py test/genmc/shim.h test/genmc/client.h \
	test/genmc/survivors $(GENMC_CLIENTS)
CLEANFILES += test/genmc/report.md
# extra run.py options, e.g. GENMC_FLAGS='--no-mutants' or '--clients walk'
GENMC_FLAGS =

check-genmc:
	@genmc='$(GENMC)'; \
	if test -z "$$genmc" && test -x /opt/genmc-0.11.0/genmc; then \
		genmc=/opt/genmc-0.11.0/genmc; fi; \
	missing=; \
	if test -z "$$genmc" || test ! -x "$$genmc"; then \
		missing="GenMC (tools/build-genmc builds it at /opt/genmc-0.11.0, or make check-genmc GENMC=/path/to/genmc)"; \
	elif test -z '$(PYTHON3)'; then \
		missing="python3 (Debian package: python3)"; \
	elif ! command -v clang-14 >/dev/null 2>&1; then \
		missing="clang-14, which GenMC runs (Debian package: clang-14)"; \
	fi; \
	if test -n "$$missing"; then \
		echo "check-genmc: missing $$missing: skipped"; \
		test -z '$(GENMC_REQUIRED)' || exit 1; \
		exit 0; \
	fi; \
	$(MKDIR_P) test/genmc && \
	'$(PYTHON3)' '$(srcdir)/test/genmc/run.py' --genmc "$$genmc" \
		--srcdir '$(abs_top_srcdir)' --report test/genmc/report.md $(GENMC_FLAGS)
.PHONY: check-genmc
