# SPDX-License-Identifier: BSD-2-Clause
"""bench/benchdata.py - the benchmarks' JSON, read the same way for
bench/compare and bench/plot (and the bench bundle's run script).

Three producers, one shape.  Each file is read into "runs": one run is
one measurement of every point it holds, so ratios are formed inside a run
and several runs give a spread.

  bench/listbench (Google Benchmark JSON, "benchmarks"): one run per file;
      workload key (name, arg), e.g. ("lru_all", "4096"); rate:
      items_per_second, or with several threads ips_all where the run has
      it (the rate while every thread ran).
  examples/pagepool (--json, "points"): one run per --rounds round; key
      ("pagepool.<workload>", "-"); rate: pages_per_s.
  examples/lru/lrucache (--json, "results"): one run per file; key
      ("lrucache.<policy>", "<capacity>"); rate: ops_per_s.

A run is a dict: ctx (the file's context, with --context values added),
rows {key: {threads: {impl: [rate, ...]}}}, errors {key: {impl: {threads:
message}}}, counters {key: {threads: {impl: {name: value}}}} (COUNTERS:
lock_wait, the lat_*_ns percentiles, fair, share_min, share_max,
zero_threads, late_threads).

Errors are raised as InputError with a message that names the file; the
scripts print "PROG: error: MESSAGE" and exit 2, never a traceback.
Python 3 standard library only.
"""
import json
import os

__all__ = ["InputError", "load", "load_context", "is_caslist", "peers_of", "smoke_of",
           "COUNTERS", "LATENCY", "CONTROL"]

# listbench's user counters kept in a run's "counters" (doc/bench.md):
# the lock peers' lock-wait share (lruvec), the latency percentiles of
# single iterations in ns, and each thread's share of the iterations
LATENCY = ("lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_p9999_ns", "lat_max_ns")
COUNTERS = ("lock_wait",) + LATENCY + ("lat_samples", "fair", "share_min", "share_max",
                                       "zero_threads", "late_threads")

# listbench's control workload and its pseudo-peer: no list, nothing shared;
# its fair is the machine's own (doc/bench.md, "The control: alone")
CONTROL = ("alone", "none")


class InputError(Exception):
    pass


def read_json(path):
    """The parsed object of one benchmark file, or InputError."""
    if not os.path.exists(path):
        raise InputError("%s: no such file" % path)
    if os.path.isdir(path):
        raise InputError("%s: is a directory, not a JSON file" % path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError("%s: cannot read: %s" % (path, e))
    if not text.strip():
        raise InputError("%s: empty file (did the run write nothing?)" % path)
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise InputError("%s: not JSON: %s" % (path, e))
    if not isinstance(doc, dict):
        raise InputError("%s: not benchmark JSON: the top level is a %s, not an object"
                         % (path, type(doc).__name__))
    if not any(k in doc for k in ("benchmarks", "points", "results")):
        raise InputError("%s: not benchmark JSON: no 'benchmarks' (listbench), 'points' "
                         "(pagepool) or 'results' (lrucache)" % path)
    return doc


def load_context(path):
    """--context FILE: a JSON object of strings/numbers added to every run's
    context (cores, commit, date, load, pinned: what the bundle's run
    script records)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise InputError("%s: not JSON: %s" % (path, e))
    if not isinstance(doc, dict):
        raise InputError("%s: --context wants a JSON object" % path)
    return doc


def _run(ctx):
    return {"ctx": ctx, "rows": {}, "errors": {}, "counters": {}}


def _add(run, key, threads, impl, rate):
    run["rows"].setdefault(key, {}).setdefault(threads, {}).setdefault(impl, []).append(rate)


def _entries(doc, path, key, need, what):
    """doc[key], a list of objects each holding the keys in need, or InputError."""
    entries = doc.get(key)
    if not isinstance(entries, list):
        raise InputError("%s: '%s' is not a list" % (path, key))
    for e in entries:
        if not isinstance(e, dict) or any(k not in e for k in need):
            raise InputError("%s: %s" % (path, what))
    return entries


def _listbench(doc, path):
    run = _run(dict(doc.get("context") or {}))
    for b in _entries(doc, path, "benchmarks", ("name",), "a benchmark entry without a name"):
        if b.get("run_type", "iteration") != "iteration":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) < 3:
            continue
        key, impl = (parts[0], parts[2]), parts[1]
        t = int(b.get("threads", 1))
        if b.get("error_occurred"):
            run["errors"].setdefault(key, {}).setdefault(impl, {})[t] = \
                b.get("error_message", "error")
            continue
        # the rate: with several threads, that of the stretch in which
        # every thread ran (ips_all), where the run has it; the whole run's
        # items_per_second counts the slower threads finishing alone
        # (doc/bench.md, "The rate while every thread runs")
        ips = b.get("ips_all") if t > 1 and b.get("ips_all") else b.get("items_per_second")
        if ips is None:
            continue
        _add(run, key, t, impl, float(ips))
        extra = {k: v for k, v in b.items() if k in COUNTERS}
        if extra:
            run["counters"].setdefault(key, {}).setdefault(t, {})[impl] = extra
    return [run]


def _pagepool(doc, path):
    ctx = {k: v for k, v in doc.items() if not isinstance(v, (list, dict))}
    if "cores" in ctx:
        ctx.setdefault("num_cpus", ctx["cores"])
    conds = doc.get("conditions") or []
    loads = [c.get("load_before") for c in conds if isinstance(c, dict)
             and c.get("load_before") is not None]
    if loads:
        ctx.setdefault("load_avg", "%.2f..%.2f" % (min(loads), max(loads)))
    runs = {}
    for p in _entries(doc, path, "points", ("workload", "mode"),
                      "a point without workload or mode"):
        r = runs.setdefault(int(p.get("round", 0)), _run(dict(ctx)))
        key = ("pagepool." + p["workload"], "-")
        rate = p.get("pages_per_s")
        if rate is None:
            continue
        _add(r, key, int(p.get("threads", 1)), p["mode"], float(rate))
        if "lock_wait_fraction" in p:
            r["counters"].setdefault(key, {}).setdefault(int(p.get("threads", 1)), {})[
                p["mode"]] = {"lock_wait": p["lock_wait_fraction"]}
    return [runs[k] for k in sorted(runs)]


def _lrucache(doc, path):
    cfg = doc.get("config") or {}
    run = _run({"lrucache_config": cfg})
    key = ("lrucache." + str(cfg.get("policy", "?")), str(cfg.get("capacity", "-")))
    for x in _entries(doc, path, "results", ("impl",), "a result without impl"):
        t = int(x.get("threads", 1))
        if x.get("failed"):
            run["errors"].setdefault(key, {}).setdefault(x["impl"], {})[t] = \
                "FAIL: %s end-of-run check(s) failed" % x["failed"]
            continue
        if x.get("ops_per_s") is not None:
            _add(run, key, t, x["impl"], float(x["ops_per_s"]))
    return [run]


def load(path, extra_ctx=None):
    """The runs of one file (a list, at least one), or InputError."""
    doc = read_json(path)
    if "benchmarks" in doc:
        runs = _listbench(doc, path)
    elif "points" in doc:
        runs = _pagepool(doc, path)
    else:
        runs = _lrucache(doc, path)
    if not runs or not any(r["rows"] or r["errors"] for r in runs):
        raise InputError("%s: no results in it" % path)
    for r in runs:
        r["file"] = path
        if extra_ctx:
            r["ctx"].update(extra_ctx)
    return runs


def is_caslist(name):
    """libcaslist's rows: 'caslist' and its variants (caslist_cache)."""
    return name.startswith("caslist")


def peers_of(key, impls):
    """The implementations a caslist row is compared with: every other one,
    except the references that are no list a program could use at more than
    one thread (listbench 'plain', the unlocked list, and 'floor', the bare
    three-CAS move) and the cache that keeps no LRU at all (lrucache
    'index')."""
    out = [i for i in impls if not is_caslist(i) and i not in ("plain", "floor")]
    if key[0].startswith("lrucache."):
        out = [i for i in out if i != "index"]
    return out


def smoke_of(run):
    """A reason the run is not a measurement (listbench --smoke), or None."""
    ctx = run["ctx"]
    s = str(ctx.get("smoke", ""))
    if s and not s.startswith("no"):
        return "--smoke run (%s)" % s.split(": ", 1)[-1]
    return None
