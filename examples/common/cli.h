/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/cli.h - command lines of the examples and benches:
 * options from a table, numbers in a range, comma lists.  Every error is
 * reported as "PROG: <what is wrong> (try PROG --help)" on stderr, and the
 * program exits with status 2.
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

#include <stdint.h>

enum cli_kind {
	CLI_FLAG,	/* --name; "--name=x" is an error */
	CLI_VALUE,	/* --name x or --name=x */
};

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
 * The next option: its index in opts (ended by a NULL name), or -1 when
 * the arguments are used up.  *value is the option's value, NULL for a
 * flag.  Reported (exit 2): an argument that is not an option ("unexpected
 * argument"), an option that is not in the table ("unknown option"), a
 * flag given a value ("takes no value"), a value option at the end
 * ("needs a value").  An unknown option is reported as unknown wherever
 * it stands.
 */
int cli_next(struct cli *c, const struct cli_opt *opts, const char **value);

/* Report and exit 2. */
__attribute__((noreturn, format(printf, 2, 3))) void cli_bad(const struct cli *c,
							      const char *fmt, ...);

/* s as an integer in [lo, hi], else "OPT: 'S' is not an integer in [LO, HI]". */
long long cli_int(const struct cli *c, const char *opt, const char *s, long long lo,
		  long long hi);

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

/* A comma list of integers in [lo, hi] into out[0..max-1]: returns how
 * many.  Reported: a bad item (as cli_int), "OPT: more than MAX counts". */
int cli_int_list(const struct cli *c, const char *opt, const char *arg, int *out, int max,
		 int lo, int hi);

#endif /* CASLIST_EXAMPLES_CLI_H */
