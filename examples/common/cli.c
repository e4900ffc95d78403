/* SPDX-License-Identifier: BSD-2-Clause */
/* examples/common/cli.c - see cli.h. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_init(struct cli *c, const char *prog, int argc, char **argv, int first)
{
	c->prog = prog;
	c->argc = argc;
	c->argv = argv;
	c->i = first;
	c->name[0] = 0;
}

void cli_bad(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try %s --help)\n", c->prog);
	exit(CLI_EXIT_USAGE);
}

void cli_command(struct cli *c, const char *prog, int argc, char **argv, const char *command,
		 void (*usage)(FILE *f))
{
	cli_init(c, prog, argc, argv, 2);
	if (c->argc >= 2 && (!strcmp(c->argv[1], "--help") || !strcmp(c->argv[1], "-h"))) {
		usage(stdout);
		exit(0);
	}
	if (c->argc < 2)
		cli_bad(c, "missing command '%s'", command);
	if (strcmp(c->argv[1], command) != 0)
		cli_bad(c, "unknown command '%s' (the command is '%s')", c->argv[1], command);
}

int cli_next(struct cli *c, const struct cli_opt *opts, const char **value)
{
	const char *a, *eq;
	int o;

	if (c->i >= c->argc)
		return -1;
	a = c->argv[c->i++];
	*value = NULL;
	if (a[0] == '-' && a[1] != 0 && a[1] != '-')
		cli_bad(c, "unknown option '%s' (options are --name)", a);
	if (strncmp(a, "--", 2) != 0)
		cli_bad(c, "unexpected argument '%s'", a);
	eq = strchr(a, '=');
	if (eq && (size_t)(eq - a) < sizeof(c->name)) {	/* --name=value */
		memcpy(c->name, a, (size_t)(eq - a));
		c->name[eq - a] = 0;
		a = c->name;
		*value = eq + 1;
	}
	for (o = 0; opts[o].name != NULL; o++)
		if (strcmp(a, opts[o].name) == 0)
			break;
	if (opts[o].name == NULL)
		cli_bad(c, "unknown option '%s'", a);
	if (opts[o].kind == CLI_FLAG) {
		if (*value)
			cli_bad(c, "%s takes no value", a);
		return o;
	}
	if (opts[o].kind == CLI_OPTIONAL)
		return o;
	if (*value == NULL) {
		if (c->i >= c->argc)
			cli_bad(c, "%s needs a value", a);
		*value = c->argv[c->i++];
	}
	return o;
}

long long cli_int(const struct cli *c, const char *opt, const char *s, long long lo,
		  long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))) ||
	    errno || end == s || *end || v < lo || v > hi)
		cli_bad(c, "%s: '%s' is not an integer in [%lld, %lld]", opt, s, lo, hi);
	return v;
}

uint64_t cli_u64(const struct cli *c, const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)s[0]) || errno || *end)
		cli_bad(c, "%s: '%s' is not an integer in [0, %llu]", opt, s,
			(unsigned long long)UINT64_MAX);
	return (uint64_t)v;
}

/* n in the largest of G, M, K that divides it: "64M", "1G", "4096". */
static const char *size_str(char *buf, size_t len, size_t n)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		size_t u = (size_t)1 << (10 * (3 - i));

		if (n != 0 && n % u == 0) {
			snprintf(buf, len, "%zu%c", n / u, units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%zu", n);
	return buf;
}

size_t cli_size(const struct cli *c, const char *opt, const char *s, size_t lo, size_t hi)
{
	char *end, a[32], b[32];
	unsigned long long v;
	unsigned shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (!isdigit((unsigned char)s[0]) || errno || *end || v > (SIZE_MAX >> shift) ||
	    (v << shift) < lo || (v << shift) > hi)
		cli_bad(c, "%s: '%s' is not a size in [%s, %s] (digits, then K, M or G)", opt, s,
			size_str(a, sizeof(a), lo), size_str(b, sizeof(b), hi));
	return (size_t)(v << shift);
}

double cli_double(const struct cli *c, const char *opt, const char *s, double lo, double hi,
		  int lo_open)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v != v || v < lo || v > hi || (lo_open && v == lo))
		cli_bad(c, "%s: '%s' is not a number in %s%g, %g]", opt, s, lo_open ? "(" : "[",
			lo, hi);
	return v;
}

void cli_list(const struct cli *c, const char *opt, const char *arg,
	      void (*each)(const struct cli *c, const char *tok, void *ctx), void *ctx)
{
	char buf[512], *save = NULL;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		cli_bad(c, "%s: list too long", opt);
	strcpy(buf, arg);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		each(c, tok, ctx);
		n++;
	}
	if (n == 0)
		cli_bad(c, "%s: empty list", opt);
}

struct int_list {
	const char *opt;
	int *out, max, n, lo, hi;
};

static void int_item(const struct cli *c, const char *tok, void *ctx)
{
	struct int_list *l = ctx;

	if (l->n == l->max)
		cli_bad(c, "%s: more than %d counts", l->opt, l->max);
	l->out[l->n++] = (int)cli_int(c, l->opt, tok, l->lo, l->hi);
}

int cli_int_list(const struct cli *c, const char *opt, const char *arg, int *out, int max,
		 int lo, int hi)
{
	struct int_list l = { opt, out, max, 0, lo, hi };

	cli_list(c, opt, arg, int_item, &l);
	return l.n;
}

int cli_choice(const struct cli *c, const char *opt, const char *arg, const char *const *names,
	       int n)
{
	char all[256];
	size_t len = 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	all[0] = '\0';
	for (int i = 0; i < n && len < sizeof(all); i++)
		len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
					i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
	cli_bad(c, "%s: '%s' is not %s", opt, arg, all);
}
