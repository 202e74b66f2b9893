#!/usr/bin/env python3
"""queries.py - what the questions cost beside the index (issues 15 and 16),
run by tests/bench/run.sh after bench.py.

On the FULL_HEALTH dumps bench.py generates (tests/bench/cache/), as the
median of RUNS runs, each with --no-cache (so every run indexes):

  index            batch `first-nonfinite`: the full index and alerts (the
                   reference of the rows below)
  where op         `traces --where 'type ~ "MatMul"' -1:`: decided per op
  where summary    `traces --where 'nan > 0' -1:`: decided per row from
                   its summary (decodes every row)
  watches          `watches check`: the recommended set over every row
  diff             `diff --first` of the dump against the same run with NaN
                   from the middle on, beside indexing both dumps; then
                   the same on a first open with the persistent index (the
                   default), beside each dump's own first open

Wall and CPU seconds (user + system, the work when other jobs share the
cores) and the ratio of each to the index of the same run.

Then the questions of issue 25 warm: the dump opened from the persistent
index and its summary columns (a private cache directory; a first run
builds them and is not counted), with peak RSS and issue 25's target:

  where zero_fraction   `traces --where 'zero_fraction > 0.5' -1:`
  watches check         the recommended set
  sort -time, size      `traces --sort -time 0:10`, `--sort size`

`origins` warm (JSON, every origin written) on both dumps at --origins-sizes
(default 1M and 10M): issue 25's target is < 0.3 s and <= 128 MB at 10M;
the NaN dump's origins reach the listing's work budget.

And, at --sort-sizes (default 10M) alone, the sorts warm: a slice's head
and tail and a whole sort; the warm `--where` alone at
--warm-where-sizes (default 10M, the size of its target; bench.py's dump of
that size, generated if missing); and `watches check` warm alone at
--watch-sizes (run.sh: 10M).

Writes tests/bench/queries.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (ensure_dump, timed, machine, parse_size)

HERE = os.path.dirname(os.path.abspath(__file__))


def ensure_nan_dump(gen, cache, n):
    """The same run as bench.py's n-trace dump, with NaN from row n/2 on."""
    d = os.path.join(cache, "full_health_%d_nan" % n)
    args = ["-n", str(n), "-m", "FULL_HEALTH", "--seed", "1", "--nan-at", str(n // 2),
            "--nan-every", "1"]
    stamp = bench.gen_stamp(gen, args)
    sf = d + ".stamp"
    if not (os.path.isdir(d) and os.path.exists(sf) and open(sf).read() == stamp):
        subprocess.run(["rm", "-rf", d], check=True)
        subprocess.run([gen, "-q"] + args + [d], check=True)
        open(sf, "w").write(stamp)
    return d


def measure(tdbg, args, runs):
    walls, cpus = [], []
    for _ in range(runs):
        t, _, rc, cpu = bench.timed([tdbg, "--no-cache", "--json"] + args)
        if rc not in (0, 4):
            sys.exit("queries: %s exited %d" % (" ".join(args), rc))
        walls.append(t)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


# issue 25's targets (seconds, warm) by size; None: none set
WARM = [
    ("where zero_fraction > 0.5", ["-e", "traces --where 'zero_fraction > 0.5' -1:"],
     {10**7: 0.3}),
    ("watches check (recommended)", ["-e", "watches check"], {10**6: 1.0, 10**7: 5.0}),
    ("traces --sort -time", ["-e", "traces --sort -time 0:10"], {10**7: 0.5}),
    ("traces --sort size", ["-e", "traces --sort size 0:10"], {}),
]


def measure_warm(tdbg, args, runs, xdg):
    """Median wall, CPU and peak RSS of runs opened from the index in xdg."""
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    walls, cpus, rss = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen([tdbg, "--json"] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        walls.append(time.perf_counter() - t0)
        cpus.append(ru.ru_utime + ru.ru_stime)
        rss.append(ru.ru_maxrss * 1024)
        if os.waitstatus_to_exitcode(status) not in (0, 4):
            sys.exit("queries: %s failed" % " ".join(args))
    return statistics.median(walls), statistics.median(cpus), max(rss)


def measure_first(tdbg, args, runs, cache):
    """Median wall and CPU of runs that each open with an empty private
    cache directory: the first open, which indexes and writes the
    persistent index and its summary columns (what a user's first
    question costs by default)."""
    walls, cpus = [], []
    for k in range(runs):
        xdg = os.path.join(cache, "xdg-first")
        subprocess.run(["rm", "-rf", xdg], check=True)
        os.makedirs(xdg)
        w, c, _ = measure_warm(tdbg, args, 1, xdg)
        walls.append(w)
        cpus.append(c)
    subprocess.run(["rm", "-rf", os.path.join(cache, "xdg-first")], check=True)
    return statistics.median(walls), statistics.median(cpus)


def first_open_diff(tdbg, d, dn, runs, cache):
    """issue 25's diff row by default (the persistent index on): `diff
    --first` of the two dumps on a first open against each dump's own first
    open (`first-nonfinite`), both indexes written."""
    a = measure_first(tdbg, ["-e", "first-nonfinite", d], runs, cache)
    b = measure_first(tdbg, ["-e", "first-nonfinite", dn], runs, cache)
    x = measure_first(tdbg, ["-e", "diff --first", d, dn], runs, cache)
    return ["First open with the persistent index (the default: each run starts from an "
            "empty cache directory and writes the index and its summary columns; load "
            "average %.1f):" % os.getloadavg()[0], "",
            "| query | wall s | cpu s | wall / both | cpu / both | target |",
            "|---|---|---|---|---|---|",
            "| first open of the dump | %.2f | %.2f | | | |" % a,
            "| first open of the second dump | %.2f | %.2f | | | |" % b,
            "| diff --first, first open of both | %.2f | %.2f | %.1fx | %.1fx | <= 2x both: %s |"
            % (x[0], x[1], x[0] / (a[0] + b[0]), x[1] / (a[1] + b[1]),
               "met" if x[0] <= 2 * (a[0] + b[0]) else "missed"), ""]


def warm_table(tdbg, d, n, runs, cache, only=None):
    xdg = os.path.join(cache, "xdg-warm")
    os.makedirs(xdg, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    subprocess.run([tdbg, "-e", "info", d], env=env, stdout=subprocess.DEVNULL, check=True)
    lines = ["Warm (the persistent index and its summary columns; load average %.1f):"
             % os.getloadavg()[0], "",
             "| query | wall s | cpu s | peak RSS MB | target |", "|---|---|---|---|---|"]
    for name, args, target in WARM:
        if only and name not in only:
            continue
        w, c, r = measure_warm(tdbg, args + [d], runs, xdg)
        t = target.get(n)
        lines.append("| %s | %.2f | %.2f | %.0f | %s |" % (
            name, w, c, r / 2**20, "< %g s: %s" % (t, "met" if w < t else "missed") if t else ""))
    return lines + [""]


def origins_table(tdbg, d, dn, n, runs, cache, size):
    """`origins --json` warm on the dump and on its NaN twin."""
    xdg = os.path.join(cache, "xdg-warm")
    os.makedirs(xdg, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    lines = ["## %s traces: `origins` warm (load average %.1f)" % (size, os.getloadavg()[0]), "",
             "| dump | origins | partial | wall s | cpu s | peak RSS MB | target |",
             "|---|---|---|---|---|---|---|"]
    for name, dump in (("FULL_HEALTH", d), ("NaN from the middle on", dn)):
        subprocess.run([tdbg, "-e", "info", dump], env=env, stdout=subprocess.DEVNULL, check=True)
        out = subprocess.run([tdbg, "--json", "-e", "origins", dump], env=env, check=False,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        ans = json.loads(out)
        w, c, r = measure_warm(tdbg, ["-e", "origins", dump], runs, xdg)
        ok = w < 0.3 and r <= 128 * 2**20
        lines.append("| %s | %d | %s | %.2f | %.2f | %.0f | %s |" % (
            name, ans["total"], "yes" if ans["partial"] else "no", w, c, r / 2**20,
            ("< 0.3 s, <= 128 MB: %s" % ("met" if ok else "missed")) if n >= 10**7 else ""))
    return lines + [""]


# traces --sort alone at the bigger sizes (the other warm questions take
# minutes there): a slice's head and tail (heaps) and a middle slice (the
# whole sort), with issue 25's target
SORTS = [
    ("traces --sort -time 0:10", lambda n: "traces --sort -time 0:10", {10**7: 0.5}),
    ("traces --sort size 5:15", lambda n: "traces --sort size 5:15", {}),
    ("traces --sort -time -10:", lambda n: "traces --sort -time -10:", {}),
    ("traces --sort size N/2:N/2+10 (whole sort)",
     lambda n: "traces --sort size %d:%d" % (n // 2, n // 2 + 10), {}),
]


def sort_table(tdbg, d, n, runs, cache, size):
    xdg = os.path.join(cache, "xdg-warm")
    os.makedirs(xdg, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    subprocess.run([tdbg, "-e", "info", d], env=env, stdout=subprocess.DEVNULL, check=True)
    lines = ["## %s traces, traces --sort warm (load average %.1f)" % (size, os.getloadavg()[0]),
             "", "| query | wall s | cpu s | peak RSS MB | target |", "|---|---|---|---|---|"]
    for name, cmd, target in SORTS:
        w, c, r = measure_warm(tdbg, ["-e", cmd(n), d], runs, xdg)
        t = target.get(n)
        lines.append("| %s | %.2f | %.2f | %.0f | %s |" % (
            name, w, c, r / 2**20, "< %g s: %s" % (t, "met" if w < t else "missed") if t else ""))
    return lines + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdbg", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--sizes", default="1M")
    ap.add_argument("--sort-sizes", default="10M",
                    help="sizes at which only the sorts are measured, warm")
    ap.add_argument("--watch-sizes", default="",
                    help="sizes at which only `watches check` is measured, warm (e.g. 10M)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warm-where-sizes", default="10M",
                    help="sizes (not in --sizes) whose warm `--where` alone is measured "
                         "(issue 25's target is at 10M); '' for none")
    ap.add_argument("--origins-sizes", default="1M,10M",
                    help="sizes at which `origins` is measured warm on both dumps; '' for none")
    ap.add_argument("--out", default=os.path.join(HERE, "queries.md"))
    a = ap.parse_args()
    env_cache = os.path.join(a.cache, "xdg")
    os.environ["XDG_CONFIG_HOME"] = env_cache      # no user watches file: the defaults
    lines = ["# Queries beside the index", "",
             "Machine: %s; load average %.1f when it started.  Medians of %d runs, "
             "`--no-cache` (each run indexes).  Made by `make bench` (tests/bench/queries.py)."
             % (bench.machine(), os.getloadavg()[0], a.runs), ""]
    for size in a.sizes.split(","):
        n = bench.parse_size(size)
        d, _ = bench.ensure_dump(a.gen, a.cache, n)
        dn = ensure_nan_dump(a.gen, a.cache, n)
        rows = [
            ("index (first-nonfinite)", ["-e", "first-nonfinite", d]),
            ("where op (type ~ \"MatMul\")", ["-e", "traces --where 'type ~ \"MatMul\"' -1:", d]),
            ("where summary (nan > 0)", ["-e", "traces --where 'nan > 0' -1:", d]),
            ("watches check (recommended)", ["-e", "watches check", d]),
            ("index of the second dump", ["-e", "first-nonfinite", dn]),
            ("diff --first (both dumps)", ["-e", "diff --first", d, dn]),
        ]
        res = [(name, measure(a.tdbg, args, a.runs)) for name, args in rows]
        base_w, base_c = res[0][1]
        both_w = res[0][1][0] + res[4][1][0]
        both_c = res[0][1][1] + res[4][1][1]
        lines += ["## %s traces" % size, "",
                  "| query | wall s | cpu s | wall / index | cpu / index |", "|---|---|---|---|---|"]
        for name, (w, c) in res:
            if name.startswith("diff"):
                lines.append("| %s | %.2f | %.2f | %.1fx both indexes | %.1fx both indexes |"
                             % (name, w, c, w / both_w, c / both_c))
            else:
                lines.append("| %s | %.2f | %.2f | %.1fx | %.1fx |" % (name, w, c, w / base_w, c / base_c))
        lines.append("")
        lines += first_open_diff(a.tdbg, d, dn, a.runs, a.cache)
        lines += warm_table(a.tdbg, d, n, a.runs, a.cache)
    for size in [x for x in a.warm_where_sizes.split(",") if x and x not in a.sizes.split(",")]:
        n = bench.parse_size(size)
        d, _ = bench.ensure_dump(a.gen, a.cache, n)
        lines += ["## %s traces: `--where` warm" % size, ""]
        lines += warm_table(a.tdbg, d, n, a.runs, a.cache, only=(WARM[0][0],))
    for size in [x for x in a.sort_sizes.split(",") if x and x not in a.sizes.split(",")]:
        n = bench.parse_size(size)
        d, _ = bench.ensure_dump(a.gen, a.cache, n)
        lines += sort_table(a.tdbg, d, n, a.runs, a.cache, size)
    for size in [x for x in a.origins_sizes.split(",") if x]:
        n = bench.parse_size(size)
        d, _ = bench.ensure_dump(a.gen, a.cache, n)
        dn = ensure_nan_dump(a.gen, a.cache, n)
        lines += origins_table(a.tdbg, d, dn, n, a.runs, a.cache, size)
    for size in [x for x in a.watch_sizes.split(",") if x and x not in a.sizes.split(",")]:
        n = bench.parse_size(size)
        d, _ = bench.ensure_dump(a.gen, a.cache, n)
        lines += ["## %s traces: `watches check` warm" % size, ""] + warm_table(
            a.tdbg, d, n, a.runs, a.cache, only=[q[0] for q in WARM if q[0].startswith("watches")])
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
