#!/usr/bin/env python3
"""msprobe.py - issue 26's measure in `make bench` (run by tests/bench/run.sh):
a statistics dump.json of ENTRIES API entries, four tensor records each
(tests/gen/gen_msprobe.py --entries, kept in tests/bench/cache/ between
runs), against `cat` of the same file in the same run:

  cat              `cat dump.json > /dev/null`, page cache warm (the reference)
  index            `tdbg --no-cache -e info`: the whole index pass
  reopen           `tdbg -e info` from the persistent index (written by one
                   run before, not timed)
  cold (--cold)    cat and index again, the page cache dropped before each
                   run (`echo 1 > /proc/sys/vm/drop_caches`: root only; it
                   slows everything else on the machine, so not by default)

Medians of RUNS runs: wall and CPU seconds (user + system: the work when
other jobs share the cores), peak RSS (one more run under /usr/bin/time),
the ratios to cat and
the issue's targets beside them (index <= 3x cat and <= 64 MB, reopen
< 0.1 s), with the load average when it started and at the end.  Writes
tests/bench/msprobe.md.  This measures; it does not fail on a miss.
"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (timed, machine)

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(TOP, "tests", "gen", "gen_msprobe.py")


def ensure_dump(cache, n):
    """The n-entry dump in cache, generated again when the generator changed."""
    d = os.path.join(cache, "msprobe_%d" % n)
    stamp = hashlib.sha256(open(GEN, "rb").read() + b"%d" % n).hexdigest()
    sf = d + ".stamp"
    if not (os.path.isdir(d) and os.path.exists(sf) and open(sf).read() == stamp):
        shutil.rmtree(d, ignore_errors=True)
        subprocess.run([sys.executable, GEN, d, "--entries", str(n)], check=True,
                       stdout=subprocess.DEVNULL)
        open(sf, "w").write(stamp)
    return d


def peak_rss(argv):
    """Peak RSS of argv in bytes, from /usr/bin/time's wait4() on it: a child
    wait4()ed here directly counts the forking Python's pages (about 20 MB)
    in its peak; forked from `time`, it does not.  None without /usr/bin/time."""
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1]) * 1024


def measure(argv, runs):
    """Median wall, cpu and peak RSS of runs runs of argv."""
    vals = []
    for _ in range(runs):
        t, rss, rc, cpu = bench.timed(argv)
        if rc != 0:
            sys.exit("msprobe bench: %s exited %d" % (" ".join(argv), rc))
        vals.append((t, cpu, rss))
    rss = peak_rss(argv)
    return (statistics.median(v[0] for v in vals), statistics.median(v[1] for v in vals),
            rss if rss is not None else max(v[2] for v in vals))


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("1\n")


def measure_cold(argv, runs):
    """Median wall and cpu of runs runs of argv, each on a cold page cache."""
    vals = []
    for _ in range(runs):
        drop_caches()
        t, rss, rc, cpu = bench.timed(argv)
        if rc != 0:
            sys.exit("msprobe bench: %s exited %d" % (" ".join(argv), rc))
        vals.append((t, cpu))
    return statistics.median(v[0] for v in vals), statistics.median(v[1] for v in vals)


def verdict(ok):
    return "met" if ok else "**MISSED**"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdbg", required=True)
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--entries", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(HERE, "msprobe.md"))
    ap.add_argument("--cold", action="store_true",
                    help="also cat and index on a cold page cache (root)")
    a = ap.parse_args()
    d = ensure_dump(a.cache, a.entries)
    f = os.path.join(d, "step0", "rank0", "dump.json")
    xdg = os.path.join(a.cache, "msprobe_xdg")
    shutil.rmtree(xdg, ignore_errors=True)
    os.makedirs(xdg)
    os.environ["XDG_CACHE_HOME"] = xdg     # a private persistent index
    load0 = os.getloadavg()[0]
    subprocess.run(["cat", f], stdout=subprocess.DEVNULL, check=True)   # warm the page cache
    cat = measure(["cat", f], a.runs)
    index = measure([a.tdbg, "--no-cache", "-e", "info", d], a.runs)
    subprocess.run([a.tdbg, "-e", "info", d], stdout=subprocess.DEVNULL, check=True)
    reopen = measure([a.tdbg, "-e", "info", d], a.runs)
    cold = None
    if a.cold:
        cold = (measure_cold(["cat", f], a.runs),
                measure_cold([a.tdbg, "--no-cache", "-e", "info", d], a.runs))
    load1 = os.getloadavg()[0]
    size = os.path.getsize(f)
    mb = 1 << 20
    lines = [
        "# msprobe: index and reopen beside cat", "",
        "Machine: %s; load average %.1f when it started, %.1f at the end (the machine is"
        " shared: the ratios to cat, measured in the same run, are the figures to compare)."
        "  Medians of %d runs.  dump.json of %d entries (four tensor records each),"
        " %.0f MB, from `tests/gen/gen_msprobe.py --entries %d`.  Made by `make bench`"
        " (tests/bench/msprobe.py)." % (bench.machine(), load0, load1, a.runs, a.entries,
                                        size / mb, a.entries), "",
        "| step | wall | cpu | peak RSS | wall / cat | cpu / cat | target |",
        "|---|---|---|---|---|---|---|",
        "| cat (page cache warm) | %.2f s | %.2f s | %.0f MB | reference | reference | |"
        % (cat[0], cat[1], cat[2] / mb),
        "| index (`--no-cache -e info`) | %.2f s | %.2f s | %.0f MB | %.1fx | %.1fx |"
        " <= 3x cat, <= 64 MB: %s |"
        % (index[0], index[1], index[2] / mb, index[0] / cat[0], index[1] / max(cat[1], 1e-3),
           verdict(index[0] <= 3 * cat[0] and index[2] <= 64 * mb)),
        "| reopen (persistent index) | %.3f s | %.3f s | %.0f MB | %.1fx | %.1fx | < 0.1 s: %s |"
        % (reopen[0], reopen[1], reopen[2] / mb, reopen[0] / cat[0],
           reopen[1] / max(cat[1], 1e-3), verdict(reopen[0] < 0.1)),
    ]
    if cold:
        (ccat, cidx) = cold
        lines += [
            "| cat, page cache cold | %.2f s | %.2f s | | reference (cold) | | |" % ccat,
            "| index, page cache cold | %.2f s | %.2f s | | %.1fx cold cat | |"
            " <= 3x cold cat: %s |" % (cidx[0], cidx[1], cidx[0] / ccat[0],
                                       verdict(cidx[0] <= 3 * ccat[0])),
        ]
    lines.append("")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
