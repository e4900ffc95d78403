/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/cli.h - command lines of the examples and benches:
 * options from a table, numbers in a range, sizes, comma lists.  Every
 * error is reported as one line, "PROG: <what is wrong> (try PROG --help)"
 * on stderr, where PROG is the plain program name (never argv[0], which is
 * a libtool path such as .../.libs/pagepool in the build tree), and the
 * program exits with status 2.
 *
 * The exit statuses of the example tools (pagepool, lrucache):
 *	0  the run completed and every check passed (and --help);
 *	1  the run failed: an end-of-run check or audit failed, or the system
 *	   refused a resource (memory, a thread);
 *	2  the command line is wrong (CLI_EXIT_USAGE, this file);
 *	3  the watchdog fired: a hang (common/check.h).
 * A broken invariant found during the run aborts (SIGABRT, 134 in sh).
 *
 *	static const struct cli_opt opts[] = {
 *		{ "--json", CLI_FLAG }, { "--seed", CLI_VALUE }, { NULL, 0 },
 *	};
 *	struct cli c;
 *	const char *v;
 *	int o;
 *
 *	cli_init(&c, "prog", argc, argv, 1);
 *	while ((o = cli_next(&c, opts, &v)) >= 0)
 *		...  opts[o].name, and v (NULL for a flag)
 */
#ifndef CASLIST_EXAMPLES_CLI_H
#define CASLIST_EXAMPLES_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_kind {
	CLI_FLAG,	/* --name; "--name=x" is an error */
	CLI_VALUE,	/* --name x or --name=x */
	CLI_OPTIONAL,	/* --name (value NULL) or --name=x */
};

#define CLI_EXIT_USAGE 2	/* the status of every cli_bad */

struct cli_opt {
	const char *name;	/* "--name"; NULL ends the table */
	enum cli_kind kind;
};

struct cli {
	const char *prog;	/* the prefix of every message */
	int argc, i;
	char **argv;
	char name[32];		/* the option of "--name=value" */
};

/* Walk argv[first..argc-1]. */
void cli_init(struct cli *c, const char *prog, int argc, char **argv, int first);

/*
 * cli_init for a tool whose first argument is a command: "PROG --help" or
 * "PROG -h" prints usage to stdout and exits 0; a missing or other first
 * argument than command is reported ("missing command 'CMD'", "unknown
 * command 'X'"); else the options start at argv[2].
 */
void cli_command(struct cli *c, const char *prog, int argc, char **argv, const char *command,
		 void (*usage)(FILE *f));

/*
 * The next option: its index in opts (ended by a NULL name), or -1 when
 * the arguments are used up.  *value is the option's value, NULL for a
 * flag.  Reported (exit 2): an argument that is not an option ("unexpected
 * argument"), an option that is not in the table ("unknown option"), a
 * flag given a value ("takes no value"), a value option at the end
 * ("needs a value").  A CLI_OPTIONAL option takes a value only as
 * --name=x.  An unknown option is reported as unknown wherever it stands.
 */
int cli_next(struct cli *c, const struct cli_opt *opts, const char **value);

/* Report and exit 2. */
__attribute__((noreturn, format(printf, 2, 3))) void cli_bad(const struct cli *c,
							      const char *fmt, ...);

/* s as a decimal integer in [lo, hi] (an optional '-', then digits, and
 * nothing else), else "OPT: 'S' is not an integer in [LO, HI]". */
long long cli_int(const struct cli *c, const char *opt, const char *s, long long lo,
		  long long hi);

/* s as a decimal integer in [0, UINT64_MAX] (digits only: no sign, no
 * space), else "OPT: 'S' is not an integer in [0, 18446744073709551615]". */
uint64_t cli_u64(const struct cli *c, const char *opt, const char *s);

/* s as a size in bytes, digits then an optional K, M or G (binary units),
 * in [lo, hi], else "OPT: 'S' is not a size in [LO, HI] (digits, then K, M
 * or G)" with LO and HI in the largest unit that divides them. */
size_t cli_size(const struct cli *c, const char *opt, const char *s, size_t lo, size_t hi);

/* s as a number in [lo, hi] (or (lo, hi] with lo_open), else "OPT: 'S' is
 * not a number in [LO, HI]". */
double cli_double(const struct cli *c, const char *opt, const char *s, double lo, double hi,
		  int lo_open);

/*
 * Call each(c, tok, ctx) for every item of the comma list arg, in order
 * (empty items are skipped).  Reported: "OPT: list too long" (over 511
 * characters), "OPT: empty list".
 */
void cli_list(const struct cli *c, const char *opt, const char *arg,
	      void (*each)(const struct cli *c, const char *tok, void *ctx), void *ctx);

/* One of n words: the index of arg in names[0..n-1].  Reported: "OPT:
 * 'ARG' is not A, B or C". */
int cli_choice(const struct cli *c, const char *opt, const char *arg, const char *const *names,
	       int n);

/* A comma list of integers in [lo, hi] into out[0..max-1]: returns how
 * many.  Reported: a bad item (as cli_int), "OPT: more than MAX counts". */
int cli_int_list(const struct cli *c, const char *opt, const char *arg, int *out, int max,
		 int lo, int hi);

#endif /* CASLIST_EXAMPLES_CLI_H */
