#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""test/genmc/run.py - run the GenMC clients and the memory-order mutants.

1. Copies the inline layer (include/caslist/static/*.h) to a staging
   folder as caslist/static/, and lib/'s .c files beside it, unchanged:
   with -I staging first, <caslist/list.h>'s inline mode and the clients'
   #include "check.c" find the copies.
2. Runs every client (test/genmc/*.c) under RC11 and IMM: GenMC must say
   "No errors" with more than zero complete executions; then once per
   PROBE(k, ...) in the client, with -DGENMC_PROBE=k, where GenMC must
   report the planted assertion (the interleaving is reached).
3. Mutants: every memory_order_{seq_cst,acq_rel,acquire,release} argument in
   the staged copy (comments skipped), weakened one step (seq_cst -> acq_rel / acquire /
   release by the access's kind, acq_rel -> acquire and -> release, acquire
   and release -> relaxed), one mutant per weakening, in a copy of the
   staging folder.  Each mutant must be killed (GenMC reports an error under
   RC11 in some client), or be listed in test/genmc/survivors with the
   argument's place in doc/protocol.md, "Memory orders".  A listed mutant that is
   killed, or a listed key that matches no site, fails too (the list is
   stale).  A listed reason that starts with "TODO" marks an order no
   client catches yet and no argument covers: reported "not ok ... # TODO"
   (TAP: not a failure) and counted on a line of its own.
Prints TAP and a closing "N passed, N failed" line; --report writes the
tables (per client and model: executions, blocked, seconds; per mutant:
the killer and its error) as Markdown.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ORDERS = ("seq_cst", "acq_rel", "acquire", "release")
TOKEN = re.compile(r"memory_order_(seq_cst|acq_rel|acquire|release)\b")
CALL = re.compile(r"\b(atomic_\w+)\s*\(")


def strip_comments(text):
    """The text with every comment blanked (same length, newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text[i] in "\"'":
            q = text[i]
            j = i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return "".join(out)


def enclosing_call(code, pos):
    """(name, arg index, call text) of the atomic_* call whose argument
    list holds position pos."""
    best = None
    for m in CALL.finditer(code, 0, pos):
        depth, arg, k = 0, 0, m.end() - 1
        end = None
        while k < len(code):
            c = code[k]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    end = k + 1
                    break
            elif c == "," and depth == 1 and k < pos:
                arg += 1
            k += 1
        if end is not None and m.start() < pos < end:
            best = (m.group(1), arg, " ".join(code[m.start():end].split()))
    return best


def kind_of(name, arg):
    if name.startswith("atomic_load"):
        return "load"
    if name.startswith("atomic_store"):
        return "store"
    if name.startswith("atomic_compare_exchange"):
        return "rmw" if arg == 3 else "cas-failure"
    if name.endswith("_fence"):
        return "fence"
    return "rmw"


WEAKER = {
    "load": {"seq_cst": ["acquire"], "acquire": ["relaxed"]},
    "cas-failure": {"seq_cst": ["acquire"], "acquire": ["relaxed"]},
    "store": {"seq_cst": ["release"], "release": ["relaxed"]},
    "rmw": {"seq_cst": ["acq_rel"], "acq_rel": ["acquire", "release"],
            "acquire": ["relaxed"], "release": ["relaxed"]},
    "fence": {"seq_cst": ["acq_rel"], "acq_rel": ["acquire", "release"],
              "acquire": ["relaxed"], "release": ["relaxed"]},
}


def function_at(lines, lineno):
    """Name of the C function defined around line lineno (1-based): the
    last line before it that starts in column 0 with an identifier and
    holds a '('."""
    for i in range(lineno - 1, -1, -1):
        ln = lines[i]
        if ln[:1].isalpha() or ln[:1] == "_":
            m = re.search(r"(\w+)\s*\(", ln)
            if m and not ln.startswith(("typedef", "struct", "enum")):
                return m.group(1)
            if ln.startswith(("struct", "enum")) and "(" in ln:
                m = re.findall(r"(\w+)\s*\(", ln)
                return m[0] if m else "?"
    return "?"


def staged_files(base):
    """(relative path, basename) of every staged .c and .h file."""
    out = []
    for sub in ("", os.path.join("caslist", "static")):
        d = os.path.join(base, sub)
        for fn in sorted(os.listdir(d)):
            if fn.endswith((".c", ".h")):
                out.append((os.path.join(sub, fn), fn))
    return sorted(out, key=lambda x: x[1])


def find_sites(root, unplaced):
    """Every weakening of every order in the staged .c/.h files (orders
    found outside an atomic_* call go to unplaced)."""
    sites = []
    for rel, fn in staged_files(root):
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        code = strip_comments(text)
        lines = text.split("\n")
        seen = {}
        for m in TOKEN.finditer(code):
            order = m.group(1)
            call = enclosing_call(code, m.start())
            if call is None:
                # an enumerator's definition (static/atomic.h's C++ branch) is
                # no access; any other order outside an atomic_* call is
                # one the runner cannot weaken: say so (a failure)
                if not re.match(r"\s*=", code[m.end():]):
                    unplaced.append("%s:%d" % (fn, text.count("\n", 0, m.start()) + 1))
                continue
            name, arg, ctext = call
            kind = kind_of(name, arg)
            lineno = text.count("\n", 0, m.start()) + 1
            func = function_at(lines, lineno)
            site = "%s %s: %s" % (fn, func, ctext)
            if kind == "cas-failure":
                site += " [failure]"
            seen[site] = seen.get(site, 0) + 1
            if seen[site] > 1:
                site += " #%d" % seen[site]
            for weaker in WEAKER[kind].get(order, []):
                sites.append({
                    "file": fn, "rel": rel, "line": lineno, "func": func, "kind": kind,
                    "order": order, "weaker": weaker, "start": m.start(),
                    "end": m.end(), "call": ctext,
                    "key": "%s -> %s" % (site, weaker),
                })
    return sites


def stage(srcdir, dest):
    static = os.path.join(dest, "caslist", "static")
    os.makedirs(static)
    src_static = os.path.join(srcdir, "include", "caslist", "static")
    for fn in os.listdir(src_static):
        if fn.endswith(".h"):
            shutil.copy(os.path.join(src_static, fn), static)
    lib = os.path.join(srcdir, "lib")
    for fn in os.listdir(lib):
        if fn.endswith((".c", ".h")):
            shutil.copy(os.path.join(lib, fn), dest)
    return dest


def mutate(base, dest, site):
    shutil.copytree(base, dest)
    path = os.path.join(dest, site["rel"])
    text = open(path, encoding="utf-8").read()
    assert text[site["start"]:site["end"]] == "memory_order_" + site["order"]
    text = text[:site["start"]] + "memory_order_" + site["weaker"] + text[site["end"]:]
    open(path, "w", encoding="utf-8").write(text)


def client_meta(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^ \* genmc-flags:(.*)$", text, re.M)
    flags = m.group(1).split() if m else []
    probes = sorted({int(k) for k in re.findall(r"\bPROBE\((\d+),", text)})
    m = re.search(r"^ \* genmc-models:(.*)$", text, re.M)
    models = m.group(1).split() if m else None
    return flags, probes, models


class Runner:
    def __init__(self, args):
        self.args = args
        self.genmc = args.genmc
        self.testdir = os.path.join(args.srcdir, "test", "genmc")

    def run(self, stagedir, client, model, extra=()):
        flags = client_meta(client)[0]
        gflags = [f for f in flags if not f.startswith("-D")]
        cflags = [f for f in flags if f.startswith("-D")]
        # -disable-instruction-caching: GenMC 0.11's instruction cache reuses
        # the address of a stack object freed in an earlier iteration of a
        # loop (a wait's struct backoff in touch's retry loop) and reports
        # "Attempt to access freed memory"; without the cache it does not.
        # -disable-function-inliner: GenMC 0.11 inlines every call into
        # each thread function before its spin-assume pass; on lib/'s
        # nested inline helpers that step took 95% of a run (headpop:
        # 16 s compiling against 0.02 s exploring; the fair layer's run of
        # lost waits had tripled it).  Without it every client explores
        # the same executions (complete and blocked counts identical,
        # every model; doc/verification.md) and every mutant ends the same.
        cmd = [self.genmc, "-" + model, "-disable-estimation",
               "-disable-instruction-caching", "-disable-function-inliner"] + gflags + [
            "--", "-I", stagedir,
            "-I", os.path.join(self.args.srcdir, "include"),
            "-include", os.path.join(self.testdir, "shim.h")] + cflags + list(extra) + [client]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=self.args.timeout, cwd=stagedir)
            out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace")
            rc = None
        res = {"rc": rc, "out": out, "wall": time.time() - t0, "cmd": cmd}
        m = re.search(r"Number of complete executions explored: (\d+)", out)
        res["execs"] = int(m.group(1)) if m else None
        m = re.search(r"Number of blocked executions seen: (\d+)", out)
        res["blocked"] = int(m.group(1)) if m else 0
        m = re.search(r"Total wall-clock time: ([\d.]+)s", out)
        res["time"] = float(m.group(1)) if m else None
        res["compiled"] = "*** Compilation complete." in out
        res["clean"] = rc == 0 and "No errors were detected" in out
        m = re.search(r"^Error(?: detected)?: (.*)$", out, re.M)
        res["error"] = m.group(1).strip().rstrip("!") if m else None
        m = re.search(r"^Assertion violation: (.*)$", out, re.M)
        if res["error"] and m:
            res["error"] = "assertion " + m.group(1).strip()
        return res


def remove_genmc_ll(started):
    """GenMC 0.11 compiles each input to /tmp/__genmc.ll.XXXXXX (a fixed
    directory, not $TMPDIR) and never removes it: about 0.5 MB per run,
    hundreds of runs per check.  Remove those made since this check
    started.  Ours have all exited; another GenMC of the same user reads
    its file right after clang writes it, so wait until the youngest is
    5 s old (at most 5 s) before removing."""
    def ours():
        found = []
        for f in glob.glob("/tmp/__genmc.ll.*"):
            try:
                st = os.stat(f)
            except OSError:
                continue
            if st.st_uid == os.getuid() and st.st_mtime >= started - 1:
                found.append((f, st.st_mtime))
        return found
    found = ours()
    if not found:
        return
    wait = max(m for _, m in found) + 5 - time.time()
    if wait > 0:
        time.sleep(min(wait, 5))
    for f, _ in found:
        try:
            os.unlink(f)
        except OSError:
            pass


def describe(res):
    if res["rc"] is None:
        return "timed out"
    if not res["compiled"]:
        return "did not compile"
    if res["error"]:
        return res["error"]
    return "rc %s" % res["rc"]


def tail(text, n=25):
    return "\n".join("# " + ln for ln in text.strip().split("\n")[-n:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--genmc", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--models", default="rc11,imm")
    ap.add_argument("--clients", default="", help="comma-separated names (default: all)")
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--mutants-only", action="store_true")
    ap.add_argument("--mutant", default="", help="only mutants whose key contains this")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--report", default="")
    ap.add_argument("--list-sites", action="store_true")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    args.srcdir = os.path.abspath(args.srcdir)
    args.genmc = os.path.abspath(args.genmc) if os.sep in args.genmc else args.genmc

    testdir = os.path.join(args.srcdir, "test", "genmc")
    started = time.time()
    tmp = tempfile.mkdtemp(prefix="caslist-genmc.")
    base = os.path.join(tmp, "base")
    impl = stage(args.srcdir, base)
    unplaced = []
    sites = find_sites(impl, unplaced)
    if args.list_sites:
        for s in sites:
            print("%s:%d %s" % (s["file"], s["line"], s["key"]))
        shutil.rmtree(tmp)
        return 0
    names = sorted(f[:-2] for f in os.listdir(testdir) if f.endswith(".c"))
    if args.clients:
        want = args.clients.split(",")
        names = [n for n in names if n in want]
    clients = [os.path.join(testdir, n + ".c") for n in names]
    models = args.models.split(",")
    r = Runner(args)
    results = []          # (ok, description)
    table = []            # client rows
    n_ok = n_fail = n_todo = 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)

    def report(ok, desc, detail=None, todo=False):
        nonlocal n_ok, n_fail, n_todo
        if todo:
            n_todo += 1
            print("not ok %d - %s # TODO" % (n_ok + n_fail + n_todo, desc))
            return
        if ok:
            n_ok += 1
        else:
            n_fail += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n_ok + n_fail + n_todo, desc))
        if detail and not ok:
            print(detail)
        sys.stdout.flush()

    if not args.mutants_only:
        jobs = []
        for c, name in zip(clients, names):
            _, probes, only = client_meta(c)
            for model in models:
                if only is not None and model not in only:
                    print("# %s: not run under %s (genmc-models in %s.c says why)" % (
                        name, model, name))
                    continue
                jobs.append((name, model, None, pool.submit(r.run, base, c, model)))
                for k in probes:
                    jobs.append((name, model, k, pool.submit(
                        r.run, base, c, model, ["-DGENMC_PROBE=%d" % k])))
        for name, model, k, fut in jobs:
            res = fut.result()
            if k is None:
                ok = res["clean"] and (res["execs"] or 0) > 0
                desc = "%s %s: %s complete executions, %s blocked, %s s" % (
                    name, model, res["execs"], res["blocked"], res["time"])
                if not ok:
                    desc += " (%s)" % ("no complete execution" if res["clean"] else describe(res))
                table.append((name, model, res["execs"], res["blocked"], res["time"]))
                report(ok, desc, tail(res["out"]))
            else:
                ok = res["compiled"] and res["rc"] not in (0, None) and \
                    "probe reached" in res["out"]
                report(ok, "%s %s: probe %d reached (%s)" % (name, model, k, describe(res)),
                       tail(res["out"]))

    mutants = []
    if not args.no_mutants:
        surv_path = os.path.join(testdir, "survivors")
        survivors = {}
        for ln in open(surv_path, encoding="utf-8"):
            ln = ln.rstrip("\n")
            if ln.strip() and not ln.startswith("#"):
                key, _, why = ln.partition("\t")
                survivors[key.strip()] = why.strip()
        # A key matches with its function name or without it (a renamed
        # helper keeps its arguments).
        def loose(k):
            f, _, rest = k.partition(" ")
            return f + " " + rest.partition(": ")[2]
        for site in sites:
            if site["key"] not in survivors:
                for k in list(survivors):
                    if loose(k) == loose(site["key"]):
                        survivors[site["key"]] = survivors.pop(k)
                        print("# survivors: %r matched as %r" % (k, site["key"]))
                        break
        todo = [s for s in sites if args.mutant in s["key"]]
        for u in unplaced:
            report(False, "%s: a memory order outside an atomic_* call: no mutant made" % u)
        # cheapest clients first (by their RC11 time above, when known)
        cost = {row[0]: row[4] or 0 for row in table if row[1] == "rc11"}
        order = sorted(range(len(names)), key=lambda i: (cost.get(names[i], 0), names[i]))
        clients[:] = [clients[i] for i in order]
        names[:] = [names[i] for i in order]

        def kill(i, s):
            d = os.path.join(tmp, "m%d" % i)
            mutate(base, d, s)
            tried = []
            for c, name in zip(clients, names):
                res = r.run(d, c, "rc11")
                tried.append((name, res))
                if not res["compiled"] or res["rc"] is None:
                    continue
                if not res["clean"] and res["error"]:
                    if not args.keep:
                        shutil.rmtree(d, ignore_errors=True)
                    return name, res, tried
            if not args.keep:
                shutil.rmtree(d, ignore_errors=True)
            return None, None, tried

        futs = [(s, pool.submit(kill, i, s)) for i, s in enumerate(todo)]
        for s, fut in futs:
            killer, res, tried = fut.result()
            where = "%s:%d %s()" % (s["file"], s["line"], s["func"])
            listed = s["key"] in survivors
            broken = [n for n, t in tried if not t["compiled"] or t["rc"] is None]
            if killer:
                mutants.append((s, killer, res["error"], res["execs"]))
                ok = not listed
                desc = "mutant %s %s -> %s: killed by %s (%s)" % (
                    where, s["order"], s["weaker"], killer, res["error"])
                if listed:
                    desc += " but listed in test/genmc/survivors: stale argument"
                report(ok, desc)
            else:
                why = survivors.get(s["key"], "")
                mutants.append((s, None, why or None, None))
                ok = listed and not broken
                if ok and why.startswith("TODO"):
                    report(False, "mutant %s %s -> %s: survives every client; %s" % (
                        where, s["order"], s["weaker"], why), todo=True)
                    continue
                desc = "mutant %s %s -> %s: survives every client" % (
                    where, s["order"], s["weaker"])
                if broken:
                    desc += " (did not compile or timed out: %s)" % ", ".join(broken)
                desc += "; argued: %s" % survivors[s["key"]] if listed else \
                    "; not in test/genmc/survivors (key: %s)" % s["key"]
                report(ok, desc)
        if not args.mutant:
            keys = {s["key"] for s in sites}
            for k in survivors:
                if k not in keys:
                    report(False, "test/genmc/survivors lists %r, which is no site in the library" % k)

    pool.shutdown()
    remove_genmc_ll(started)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("| client | model | complete executions | blocked | seconds |\n")
            f.write("|---|---|---|---|---|\n")
            for row in table:
                f.write("| %s | %s | %s | %s | %s |\n" % row)
            f.write("\n| site | order | mutant | killed by | error, or why the weaker order is enough |\n")
            f.write("|---|---|---|---|---|\n")
            for s, killer, err, _ in mutants:
                f.write("| %s:%d `%s` | %s | %s | %s | %s |\n" % (
                    s["file"], s["line"], s["func"], s["order"], s["weaker"],
                    killer or "-", err or "?"))
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    if n_todo:
        print("# %d mutants survive with no client and no argument yet (TODO in "
              "test/genmc/survivors)" % n_todo)
    print("%d passed, %d failed" % (n_ok, n_fail))
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
