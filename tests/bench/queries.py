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
                   from the middle on, beside indexing both dumps

Wall and CPU seconds (user + system, the work when other jobs share the
cores) and the ratio of each to the index of the same run.  Writes
tests/bench/queries.md.
"""
import argparse
import os
import statistics
import subprocess
import sys

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdbg", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--sizes", default="1M")
    ap.add_argument("--runs", type=int, default=3)
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
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
