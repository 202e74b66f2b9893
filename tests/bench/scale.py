"""scale.py - the many-file part of `make bench` (issue 18); bench.py runs it.

Dumps from tests/gen/gen_scale.py (cached in tests/bench/cache/ with a
stamp of the generator and its options):

  MindSpore sync, 64 ranks x 100 iterations of LeNet, with statistic.csv
  MindSpore sync, the same without statistic.csv (every .npy header read)
  MindSpore statistic-only, 10M tensor rows in statistic.csv files
  tfdbg v1, 20,000 runs of 48 dumped tensors (about 1M files)

For each, as the median of RUNS runs: the reference (a warm `find DIR -type
f`, or `cat` of the statistic.csv files for the statistic-only dump),
batch `info` (the full index), the TUI's first screen, and peak RSS.  The
system calls per file come from `strace -f -c` of batch `info` on a small
dump of the same kind (the count per file does not depend on the size;
strace slows a million-file run by minutes), and for tfdbg v2 on the 100K
trace dump.
"""
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
GEN = os.path.join(TOP, "tests", "gen", "gen_scale.py")

# name, gen_scale.py arguments, reference kind, small arguments for strace
DUMPS = [
    ("ms_sync_64x100", ["ms-sync", "--ranks", "64", "--iters", "100"], "find",
     ["ms-sync", "--ranks", "4", "--iters", "10"]),
    ("ms_sync_64x100_nostat", ["ms-sync", "--no-stat", "--ranks", "64", "--iters", "100"], "find",
     ["ms-sync", "--no-stat", "--ranks", "4", "--iters", "10"]),
    ("ms_stat_10M", ["ms-stat", "--rows", "10M"], "cat-csv",
     ["ms-stat", "--rows", "100K", "--ranks", "4"]),
    ("tfdbg1_20000", ["tfdbg1", "--runs", "20000"], "find",
     ["tfdbg1", "--runs", "200"]),
]
# issue 25's memory targets (peak RSS of the index pass)
RSS_TARGET_MB = {"ms_sync_64x100": 48, "ms_sync_64x100_nostat": 48, "ms_stat_10M": 1000,
                 "tfdbg1_20000": 256}
TITLES = {
    "ms_sync_64x100": "MindSpore sync 64 ranks x 100 iterations (LeNet, statistic.csv)",
    "ms_sync_64x100_nostat": "MindSpore sync 64 x 100, no statistic.csv (.npy headers read)",
    "ms_stat_10M": "MindSpore statistic-only, 10M tensor rows",
    "tfdbg1_20000": "tfdbg v1, 20,000 runs x 48 tensors",
}


def stamp(args):
    h = hashlib.sha256(open(GEN, "rb").read())
    h.update(" ".join(args).encode())
    return h.hexdigest()


def ensure(cache, name, args, need_gb):
    """Generates (or reuses) a dump; returns (dir, facts)."""
    d = os.path.join(cache, name)
    sf = d + ".stamp"
    if not (os.path.isdir(d) and os.path.exists(sf) and open(sf).read() == stamp(args)):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(cache, exist_ok=True)
        free = shutil.disk_usage(cache).free
        if free < need_gb * 1e9:
            return None, "needs %.0f GB free, %.1f GB left" % (need_gb, free / 1e9)
        print("bench: generating %s ..." % name, file=sys.stderr, flush=True)
        with open(d + ".facts", "w") as f:
            subprocess.run([sys.executable, GEN] + args + [d], stdout=f, check=True)
        open(sf, "w").write(stamp(args))
    facts = dict(l.split(" ", 1) for l in open(d + ".facts").read().splitlines())
    return d, {k: int(v) for k, v in facts.items()}


def timed(argv, stdout=subprocess.DEVNULL, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                         env=env)
    _, status, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), \
        ru.ru_utime + ru.ru_stime


def timed_info(tdbg, d, cache, want):
    """timed() of batch `info` on d with the persistent index in cache (None:
    --no-cache); the run's own `index_cache` must be want ("off": an index
    pass, "used": a reopen), else the figure would time the other path."""
    out = tempfile.TemporaryFile()
    argv = [tdbg, "--json", "-q"] + (["--no-cache"] if cache is None else []) + ["-e", "info", d]
    # the 10M dumps' index and columns pass the cache's default 1 GiB
    env = dict(os.environ, XDG_CACHE_HOME=cache, TDBG_CACHE_MAX="8G") if cache else None
    v = timed(argv, stdout=out, env=env)
    out.seek(0)
    got = json.loads(out.read().decode() or "{}").get("index_cache")
    if got != want:
        raise SystemExit("bench: %s: index_cache %r, wanted %r" % (d, got, want))
    return v


def med(vals, i):
    return statistics.median(v[i] for v in vals)


def csv_list(d):
    """A NUL-separated list of d's statistic.csv files, for xargs."""
    fd, path = tempfile.mkstemp(prefix="tdbg-bench-", suffix=".list")
    with os.fdopen(fd, "wb") as f:
        for root, _, files in os.walk(d):
            if "statistic.csv" in files:
                f.write(os.path.join(root, "statistic.csv").encode() + b"\0")
    return path


def reference(d, kind, runs):
    if kind == "find":
        argv = ["find", d, "-type", "f"]
        label = "warm `find DIR -type f`"
    else:
        argv = ["xargs", "-0", "-a", csv_list(d), "cat"]
        label = "`cat` of the statistic.csv files (warm)"
    timed(argv)                             # warm the caches
    vals = [timed(argv) for _ in range(runs)]
    if kind != "find":
        os.unlink(argv[3])
    return label, med(vals, 0), med(vals, 3)


def first_screen(tdbg, d, marker):
    sys.path.insert(0, HERE)
    import ptydrive
    s = ptydrive.Session([tdbg, "--no-cache", d])
    t = s.wait_text(marker, timeout=120)
    s.close(timeout=30)
    return t


def strace_counts(argv):
    """(total calls, {name: calls}) of argv under strace -f -c."""
    out = tempfile.mktemp(prefix="tdbg-bench-", suffix=".strace")
    subprocess.run(["strace", "-f", "-c", "-o", out] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    calls, total = {}, 0
    for line in open(out):
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
            try:
                calls[f[-1]] = int(f[3])
            except ValueError:
                continue
        elif f and f[-1] == "total" and len(f) >= 5:
            total = int(f[3])           # % time, seconds, usecs/call, calls [, errors]
    os.unlink(out)
    return total, calls


def syscalls(tdbg, d, nfiles):
    """(calls, {name: calls}) of batch info on d beyond those of process
    start (`tdbg --version`: libraries, locale, terminal), or None."""
    if not shutil.which("strace"):
        return None
    total, calls = strace_counts([tdbg, "--json", "--no-cache", "-e", "info", d])
    t0, c0 = strace_counts([tdbg, "--version"])
    return total - t0, {k: v - c0.get(k, 0) for k, v in calls.items()}


def calls_text(sc, nfiles, ndirs):
    if sc is None:
        return "n/a (no strace)"
    total, calls = sc
    parts = ["%.2f per file (%d calls beyond process start, %d files, %d dirs)" % (
        total / max(nfiles, 1), total, nfiles, ndirs)]
    for k in ("openat", "newfstatat", "getdents64", "read", "pread64", "fcntl", "mmap"):
        if calls.get(k, 0) > 0:
            parts.append("%s %.2f" % (k, calls[k] / max(nfiles, 1)))
    return "; ".join(parts)


def count_tree(d):
    nf = nd = 0
    for _, dirs, files in os.walk(d):
        nd += len(dirs)
        nf += len(files)
    return nf, nd + 1


def bench_dump(args, name, gen_args, kind, small_args):
    need = {"ms_sync_64x100": 5, "ms_sync_64x100_nostat": 5, "ms_stat_10M": 4,
            "tfdbg1_20000": 6}[name]
    d, facts = ensure(args.cache, name, gen_args, need)
    r = {"name": name, "title": TITLES[name]}
    if d is None:
        r["skipped"] = facts
        return r
    r["facts"] = facts
    r["ref.label"], r["ref"], r["ref.cpu"] = reference(d, kind, args.scale_runs)
    vals = [timed_info(args.tdbg, d, None, "off") for _ in range(args.scale_runs)]
    r["index"], r["index.cpu"], r["rss"], r["rc"] = med(vals, 0), med(vals, 3), \
        max(v[1] for v in vals), max(v[2] for v in vals)
    # the persistent index: written by a first open, then reopened
    cache = tempfile.mkdtemp(prefix="tdbg-bench-cache-")
    try:
        env = dict(os.environ, XDG_CACHE_HOME=cache, TDBG_CACHE_MAX="8G")
        subprocess.run([args.tdbg, "-q", "-e", "info", d], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        vals = [timed_info(args.tdbg, d, cache, "used") for _ in range(args.scale_runs)]
        r["reopen"], r["reopen.cpu"], r["reopen.rss"] = med(vals, 0), med(vals, 3), \
            max(v[1] for v in vals)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if not args.no_tui:
        r["first"] = statistics.median(
            [first_screen(args.tdbg, d, args.marker) or float("nan") for _ in range(args.scale_runs)])
    sd, _ = ensure(args.cache, name + "_small", small_args, 1)
    nf, nd = count_tree(sd)
    r["calls"] = calls_text(syscalls(args.tdbg, sd, nf), nf, nd)
    return r


def ms(v):
    return "n/a" if v is None else "%.1f ms" % (v * 1e3)


def verdict(ok):
    return "n/a" if ok is None else ("ok" if ok else "**MISSED**")


def table(r):
    out = ["### %s" % r["title"], ""]
    if "skipped" in r:
        return "\n".join(out + ["Skipped: " + r["skipped"], ""])
    f = r["facts"]
    rows_ = f.get("rows", 0)
    limit = 2 if r["name"] == "ms_stat_10M" else 3
    ratio = r["index"] / r["ref"]
    out += ["%d files, %d tensor rows, %.0f MB." % (f["files"], rows_, f["bytes"] / 1e6), "",
            "| measure | median | target | result |", "|---|---|---|---|",
            "| %s | %s (cpu %.1f) | reference | |" % (r["ref.label"], ms(r["ref"]), r["ref.cpu"] * 1e3),
            "| index (batch info) | %s (cpu %.1f) | <= %dx reference | %s (%.1fx) |" % (
                ms(r["index"]), r["index.cpu"] * 1e3, limit, verdict(ratio <= limit), ratio)]
    if "first" in r:
        out.append("| first screen (TUI) | %s | < 100 ms | %s |" % (
            ms(r["first"]), verdict(r["first"] == r["first"] and r["first"] < 0.1)))
    # issue 25 item 5: as instant as tfdbg v2's reopen (0.07 s at 10M traces)
    out.append("| reopen from the persistent index (batch info) | %s (cpu %.1f), %.1f MB | "
               "<= 100 ms | %s |" % (ms(r["reopen"]), r["reopen.cpu"] * 1e3,
                                     r["reopen.rss"] / 1e6, verdict(r["reopen"] <= 0.1)))
    rss_mb = RSS_TARGET_MB.get(r["name"])
    out.append("| peak RSS, batch info | %.1f MB (%.0f bytes per row) | %s | %s |" % (
        r["rss"] / 1e6, r["rss"] / max(rows_, 1), "<= %d MB" % rss_mb if rss_mb else "",
        verdict(r["rss"] <= rss_mb * 1e6) if rss_mb else ""))
    out.append("| system calls (strace -c, batch info, small dump of this kind) | %s | "
               "minimum | |" % r["calls"])
    if r["rc"]:
        out += ["", "Non-zero exit of batch info: %d" % r["rc"]]
    return "\n".join(out + [""])


def tfdbg2_calls(args, d, nfiles):
    sc = syscalls(args.tdbg, d, nfiles)
    return calls_text(sc, nfiles, 1)


def run(args):
    """Returns the Markdown section of the scale benchmark."""
    out = ["## Scale: many files (issue 18)", "",
           "Dumps from `tests/gen/gen_scale.py` (the fixtures multiplied); medians of %d runs."
           % args.scale_runs, ""]
    for name, gen_args, kind, small in DUMPS:
        if args.scale_only and name not in args.scale_only.split(","):
            continue
        print("bench: scale %s ..." % name, file=sys.stderr, flush=True)
        t = table(bench_dump(args, name, gen_args, kind, small))
        print(t, flush=True)
        out.append(t)
    return "\n".join(out)
