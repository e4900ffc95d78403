/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * examples/common/sysload.h - what else ran while a point was measured:
 * between two marks, the share of all CPUs' time that other processes
 * took (busy time less this process's own), and the share the hypervisor
 * stole; and the 1-minute load average.  From /proc/stat and
 * /proc/self/stat (Linux); where they cannot be read the shares are 0 and
 * the load -1.  Tick resolution (USER_HZ, 10 ms): a point of a second is
 * read to about 1%.
 *
 *	struct sysload_mark m;
 *	double others, steal;
 *
 *	sysload_mark(&m);
 *	... the measured point ...
 *	sysload_since(&m, &others, &steal);
 */
#ifndef CASLIST_EXAMPLES_SYSLOAD_H
#define CASLIST_EXAMPLES_SYSLOAD_H

#include <stdio.h>
#include <string.h>

struct sysload_mark {
	unsigned long long busy, total, steal;	/* all CPUs, /proc/stat ticks */
	unsigned long long self;		/* this process: user + system ticks */
};

/* /proc/stat's first line: busy, total and steal ticks of all CPUs. */
static inline void sysload_cpu_ticks(struct sysload_mark *m)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	m->busy = m->total = m->steal = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) >= 8) {
		/* user nice system idle iowait irq softirq steal (guest*
		 * are inside user) */
		m->busy = v[0] + v[1] + v[2] + v[5] + v[6];
		m->steal = v[7];
		m->total = m->busy + v[3] + v[4] + v[7];
	}
	fclose(f);
}

/* This process's user + system ticks (all its threads). */
static inline unsigned long long sysload_self_ticks(void)
{
	char buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f = fopen("/proc/self/stat", "r");

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) != NULL) {
		/* after ") ": state ppid pgrp session tty tpgid flags minflt
		 * cminflt majflt cmajflt utime stime */
		if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			   &st) != 2)
			ut = st = 0;
	}
	fclose(f);
	return ut + st;
}

static inline void sysload_mark(struct sysload_mark *m)
{
	sysload_cpu_ticks(m);
	m->self = sysload_self_ticks();
}

/* Since @m: other processes' share of all CPU time, and steal's share,
 * each in [0, 1]. */
static inline void sysload_since(const struct sysload_mark *m, double *others, double *steal)
{
	struct sysload_mark now;
	double total, other;

	sysload_mark(&now);
	*others = *steal = 0;
	if (now.total <= m->total)
		return;
	total = (double)(now.total - m->total);
	other = (double)(now.busy - m->busy) - (double)(now.self - m->self);
	*others = other > 0 ? (other < total ? other / total : 1) : 0;
	*steal = (double)(now.steal - m->steal) / total;
}

/* The 1-minute load average, or -1. */
static inline double sysload_loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

#endif /* CASLIST_EXAMPLES_SYSLOAD_H */
