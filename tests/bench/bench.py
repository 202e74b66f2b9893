#!/usr/bin/env python3
"""bench.py - tdbg's scale benchmark (issue 5); tests/bench/run.sh runs it.

For each size (graph execution traces in a FULL_HEALTH dump written by
tests/gen/gen_tfdbg2 and cached in tests/bench/cache/) it measures, as the
median of RUNS runs:

  cat            reading every file of the dump to /dev/null, page cache warm
                 (the physical reference);
  start          `tdbg --version` (process start, for reference);
  info           batch `tdbg --json -e info DUMP` (batch mode waits for the
                 index, so today this includes the full scan);
  alerts         batch `-e alerts`: full background index and alerts;
  first-nonfinite, batch `-e first-nonfinite`;
  filter         batch `-e "traces -5: --op 'dense_[0-9]+/MatMul'"`: counts
                 every match of the regex over all rows, prints the last 5;
  first screen   TUI in a pty (120x40): fork to the first status bar paint;
  first rows     TUI: fork to the first trace row on screen;
  key G          TUI, after the index is done: jump to the last row;
  key PgDn       TUI, page-down in the middle (after `:goto trace N/2`);
  TUI filter     TUI: `:filter op=REGEX` then Enter, to the end of the redraw;
  peak RSS       from wait4(): the batch alerts run and the TUI session;
  system calls   `strace -f -c` of batch info (when strace is installed).

Then (unless --no-scale) the many-file dumps of scale.py: MindSpore 64
ranks x 100 iterations, a statistic-only dump of 10M rows, tfdbg v1 with
20,000 runs, each against a warm `find` (or `cat` of its CSV files).

All of the above run with --no-cache (they measure the index).  Then
bench_cache.py measures opening the dump again from the persistent index
(warm) against --no-cache (cold), with a private XDG_CACHE_HOME.

Batch times are wall-clock from fork to exit, process start included.  Key
times run from writing the key to the last byte of the screen update (see
ptydrive.py).  Results go to stdout and to a Markdown file.
"""
import argparse
import hashlib
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptydrive  # noqa: E402
import scale  # noqa: E402
import bench_cache  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
REGEX = "dense_[0-9]+/MatMul"
ROW_MARKER = "Placeholder"     # op type of trace row 0 in generated dumps
BYTES_PER_TRACE = 250          # FULL_HEALTH record size, for the disk check


def parse_size(s):
    mult = {"K": 10**3, "M": 10**6, "G": 10**9}
    return int(float(s[:-1]) * mult[s[-1].upper()]) if s[-1].upper() in mult else int(s)


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem = [l for l in open("/proc/meminfo") if l.startswith("MemTotal")][0].split()[1]
        mem = "%.1f GiB" % (int(mem) / 1024 / 1024)
    except OSError:
        mem = "?"
    return "%d cores (%s), %s RAM, %s %s" % (os.cpu_count(), cpu, mem, platform.system(),
                                              platform.release())


def gen_stamp(gen, args):
    h = hashlib.sha256()
    for f in sorted(os.listdir(os.path.join(TOP, "tests", "gen"))):
        if f.endswith((".c", ".h")):
            h.update(open(os.path.join(TOP, "tests", "gen", f), "rb").read())
    h.update(" ".join(args).encode())
    return h.hexdigest()


def ensure_dump(gen, cache, n):
    """Generates (or reuses) the n-trace dump; returns (dir, facts dict)."""
    d = os.path.join(cache, "full_health_%d" % n)
    args = ["-n", str(n), "-m", "FULL_HEALTH", "--seed", "1"]
    stamp = gen_stamp(gen, args)
    sf = d + ".stamp"
    if not (os.path.isdir(d) and os.path.exists(sf) and open(sf).read() == stamp):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(cache, exist_ok=True)
        need = n * BYTES_PER_TRACE * 1.2 + (64 << 20)
        free = shutil.disk_usage(cache).free
        if free < need:
            sys.exit("bench: %s needs %.1f GB free for the %d-trace dump, %.1f GB left"
                     % (cache, need / 1e9, n, free / 1e9))
        subprocess.run([gen] + args + ["--facts", d + ".facts", d], check=True)
        open(sf, "w").write(stamp)
    facts = dict(l.split(" ", 1) for l in open(d + ".facts").read().splitlines())
    return d, facts


def timed(argv, stdout=subprocess.DEVNULL):
    """Runs argv; returns (seconds, peak RSS bytes, exit status, CPU seconds)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    t = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return t, ru.ru_maxrss * 1024, p.returncode, ru.ru_utime + ru.ru_stime


def files_of(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d))


def bench_batch(tdbg, d, runs, res):
    cmds = {
        "info": ["-e", "info"],
        "alerts": ["-e", "alerts"],
        "first-nonfinite": ["-e", "first-nonfinite"],
        "filter": ["-e", "traces -5: --op '%s'" % REGEX],
    }
    for name, extra in cmds.items():
        vals = [timed([tdbg, "--json", "--no-cache"] + extra + [d]) for _ in range(runs)]
        res[name] = statistics.median(v[0] for v in vals)
        res[name + ".cpu"] = statistics.median(v[3] for v in vals)
        res[name + ".rc"] = max(v[2] for v in vals)
        res[name + ".rss"] = max(v[1] for v in vals)


def bench_tui(tdbg, d, runs, n, index_time, marker, res):
    firsts, rows, lasts, pgdns, filters, rss, notes = [], [], [], [], [], [], []
    for _ in range(runs):
        s = ptydrive.Session([tdbg, "--no-cache", d])
        t = s.wait_text(marker, timeout=60)
        if t is None:
            notes.append("marker %r never shown" % marker)
            s.close()
            continue
        firsts.append(t)
        # First rows: the first trace row (op "x", a Placeholder) is drawn.
        t = s.wait_text(ROW_MARKER, timeout=60)
        if t is not None:
            rows.append(t)
        else:
            notes.append("no trace row drawn")
        # Let the background index finish before timing keys.
        time.sleep(max(0.2, index_time * 1.5))
        s.drain(0.2, 5)
        s.key("3", 0.05)            # focus the traces pane
        for _ in range(3):
            s.key("g", 0.05)
            at = len(s.out)
            k = s.key("G")
            # The answer must show the last row's index, else it is no jump.
            if k is not None and str(n - 1).encode() in ptydrive.strip(bytes(s.out[at:])):
                lasts.append(k)
            else:
                notes.append("G did not show row %d" % (n - 1))
        s.key(":goto trace %d\r" % (n // 2), 0.1)
        for _ in range(5):
            at = len(s.out)
            k = s.key(" ")
            if k is not None and len(s.out) - at > 100:
                pgdns.append(k)
            else:
                notes.append("page-down drew (almost) nothing")
        # The regex filter over every row: type the command, time Enter.
        s.key(":filter op=%s" % REGEX, 0.05)
        k = s.key_until("\r", "filter: op=", 0.05, 30)
        if k is not None:
            filters.append(k)
        else:
            notes.append("the filter did not report its matches")
        status, ru = s.close()
        if ru is not None:
            rss.append(ru.ru_maxrss * 1024)
    res["first screen"] = statistics.median(firsts) if firsts else None
    res["first rows"] = statistics.median(rows) if rows else None
    res["key G"] = statistics.median(lasts) if lasts else None
    res["tui filter"] = statistics.median(filters) if filters else None
    res["key PgDn"] = statistics.median(pgdns) if pgdns else None
    res["tui.rss"] = max(rss) if rss else None
    res["tui.notes"] = "; ".join(sorted(set(notes)))


def bench_size(args, n):
    d, facts = ensure_dump(args.gen, args.cache, n)
    files = files_of(d)
    size = sum(os.path.getsize(f) for f in files)
    res = {"n": n, "bytes": size, "facts": facts}
    for _ in range(2):       # warm the page cache
        subprocess.run(["cat"] + files, stdout=subprocess.DEVNULL, check=True)
    cats = [timed(["cat"] + files) for _ in range(args.runs)]
    res["cat"] = statistics.median(v[0] for v in cats)
    res["cat.cpu"] = statistics.median(v[3] for v in cats)
    res["start"] = statistics.median(timed([args.tdbg, "--version"])[0] for _ in range(args.runs))
    bench_batch(args.tdbg, d, args.runs, res)
    res["calls"] = scale.tfdbg2_calls(args, d, len(files)) if n <= 10**6 else None
    if not args.no_tui:
        bench_tui(args.tdbg, d, args.runs, n, res["alerts"], args.marker, res)
    bench_cache.measure(timed, args.tdbg, d, args.runs, res, args.cache, ROW_MARKER)
    return res


# ---- report -------------------------------------------------------------------

def ms(v):
    return "n/a" if v is None else "%.1f ms" % (v * 1e3)


def ms_cpu(r, k):
    """Wall median, with the CPU time (user + sys) median when known."""
    if r.get(k + ".cpu") is None:
        return ms(r.get(k))
    return "%s (cpu %.1f)" % (ms(r.get(k)), r[k + ".cpu"] * 1e3)


def mb(v):
    return "n/a" if v is None else "%.1f MB" % (v / 1e6)


def verdict(ok):
    return "n/a" if ok is None else ("ok" if ok else "**MISSED**")


def size_table(r):
    n = r["n"]
    lt = lambda v, lim: None if v is None else v < lim
    rows = [
        ("cat (page cache warm)", ms_cpu(r, "cat"), "reference", "%.0f MB/s" % (r["bytes"] / r["cat"] / 1e6)),
        ("process start (--version)", ms(r["start"]), "reference", ""),
        ("first screen (TUI)", ms(r.get("first screen")), "< 100 ms", verdict(lt(r.get("first screen"), 0.1))),
        ("first rows drawn (TUI)", ms(r.get("first rows")), "", ""),
        ("batch info", ms_cpu(r, "info"), "< 100 ms", verdict(lt(r["info"], 0.1))),
        ("full index + alerts (batch alerts)", ms_cpu(r, "alerts"), "<= 2x cat = %s" % ms(2 * r["cat"]),
         verdict(r["alerts"] <= 2 * r["cat"]) + " (%.1fx cat%s)" % (
             r["alerts"] / r["cat"],
             "; cpu %.1fx" % (r["alerts.cpu"] / r["cat.cpu"]) if r.get("cat.cpu") else "")),
        ("first-nonfinite (batch)", ms_cpu(r, "first-nonfinite"), "", ""),
        ("regex filter `%s` (batch, index included)" % REGEX, ms_cpu(r, "filter"), "", ""),
        ("regex filter in the TUI (`:filter op=...` Enter to redraw)", ms(r.get("tui filter")),
         "< 300 ms at 10M" if n >= 10**7 else "",
         verdict(lt(r.get("tui filter"), 0.3)) if n >= 10**7 else ""),
        ("key G: jump to last row (TUI)", ms(r.get("key G")), "< 16 ms", verdict(lt(r.get("key G"), 0.016))),
        ("key PgDn in the middle (TUI)", ms(r.get("key PgDn")), "< 16 ms", verdict(lt(r.get("key PgDn"), 0.016))),
        ("peak RSS, batch alerts", mb(r["alerts.rss"]), "< 128 MB at 10M" if n >= 10**7 else "",
         verdict(r["alerts.rss"] < 128e6) if n >= 10**7 else ""),
        ("peak RSS, TUI session", mb(r.get("tui.rss")), "", ""),
    ]
    if r.get("calls"):
        rows.append(("system calls (strace -c, batch info)", r["calls"], "minimum", ""))
    out = ["### %s traces (%.0f MB on disk, %s executions)" %
           ("{:,}".format(n), r["bytes"] / 1e6, r["facts"].get("executions", "?")), "",
           "| measure | median | target | result |", "|---|---|---|---|"]
    out += ["| %s | %s | %s | %s |" % row for row in rows]
    if r.get("cache"):
        out += ["", bench_cache.table(r)]
    bad = [k for k in ("info", "alerts", "first-nonfinite", "filter") if r.get(k + ".rc")]
    if bad:
        out.append("")
        out.append("Non-zero exit: " + ", ".join("%s (%d)" % (k, r[k + ".rc"]) for k in bad))
    if r.get("tui.notes"):
        out.append("")
        out.append("TUI: " + r["tui.notes"])
    return "\n".join(out)


def growth(results):
    if len(results) < 2:
        return ""
    a, b = results[0], results[-1]
    out = ["### Growth from %s to %s traces" % ("{:,}".format(a["n"]), "{:,}".format(b["n"])), ""]
    for k in ("first screen", "info"):
        if a.get(k) and b.get(k):
            x = b[k] / a[k]
            out.append("- %s: %.2fx (target <= 2x): %s" % (k, x, verdict(x <= 2)))
    per_row = (b["alerts.rss"] - a["alerts.rss"]) / (b["n"] - a["n"])
    out.append("- memory growth, batch alerts: %.1f bytes/row (target <= 8): %s"
               % (per_row, verdict(per_row <= 8)))
    if a.get("tui.rss") and b.get("tui.rss"):
        per_row = (b["tui.rss"] - a["tui.rss"]) / (b["n"] - a["n"])
        out.append("- memory growth, TUI: %.1f bytes/row (target <= 8): %s"
                   % (per_row, verdict(per_row <= 8)))
    return "\n".join(out)


def report(args, results):
    head = ["## Benchmark results", "",
            "Machine: %s; load average %.1f when it started, %.1f at the end (the machine is"
            " shared: ratios to the reference, measured in the same run, are the figures to"
            " compare).  Medians of %d runs; dumps from"
            " `tests/gen/gen_tfdbg2 -m FULL_HEALTH` (%s).  Made by `make bench` on %s."
            % (machine(), args.load, os.getloadavg()[0], args.runs, "about 3,000 ops, 4 graphs, 1 host",
               time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
            "",
            "Times are wall clock from fork to exit (process start included); `cpu` is the"
            " median user + system time of the same runs (it shows the work when other jobs"
            " compete for the cores).  Keys: from writing the key to the pty to the last byte"
            " of tdbg's screen update.  RSS: peak resident set from wait4().",
            ""]
    body = [size_table(r) for r in results]
    return "\n".join(head + ["\n\n".join(body), "", growth(results), "", args.scale_text or ""])


def update_readme(path, text):
    """Puts text between <!-- bench --> and <!-- /bench --> in path, or
    appends a Performance section holding the markers."""
    try:
        doc = open(path).read()
    except OSError:
        doc = ""
    how = ("Reproduce with `make bench` (generates the dumps into tests/bench/cache/ on the "
           "first run: about 2.5 GB for 10M traces and 15 GB for the many-file dumps; "
           "`BENCH_SIZES=100K,1M BENCH_NO_SCALE=1 make bench` for a quick run).  Method: "
           "tests/bench/bench.py, scale.py and ptydrive.py; the misses, their profiles and "
           "what would close them: tests/bench/NOTES.md.\n\n")
    block = "<!-- bench -->\n" + how + text.replace("## Benchmark results", "### Results", 1) + \
        "<!-- /bench -->"
    a, b = doc.find("<!-- bench -->"), doc.find("<!-- /bench -->")
    if a >= 0 and b > a:
        doc = doc[:a] + block + doc[b + len("<!-- /bench -->"):]
    else:
        doc = doc.rstrip("\n") + "\n\n## Performance\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tdbg", default=os.path.join(TOP, "tdbg"))
    ap.add_argument("--gen", required=True)
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--sizes", default="100K,1M,10M")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    ap.add_argument("--marker", default=os.environ.get("BENCH_MARKER", "? help"),
                    help="status bar text that means the first screen is painted")
    ap.add_argument("--no-tui", action="store_true")
    ap.add_argument("--readme", help="README to fill between the bench markers")
    ap.add_argument("--no-scale", action="store_true", help="skip the many-file dumps")
    ap.add_argument("--scale-runs", type=int, default=3)
    ap.add_argument("--scale-only", help="comma-separated scale dump names (scale.py DUMPS)")
    args = ap.parse_args()
    args.load = os.getloadavg()[0]
    args.scale_text = None
    results = []
    for s in (args.sizes.split(",") if args.sizes else []):
        n = parse_size(s)
        print("bench: %s traces ..." % "{:,}".format(n), file=sys.stderr, flush=True)
        results.append(bench_size(args, n))
        print(size_table(results[-1]) + "\n", flush=True)
    print(growth(results))
    if not args.no_scale:
        args.scale_text = scale.run(args)
    text = report(args, results)
    with open(args.out, "w") as f:
        f.write(text)
    print("bench: wrote %s" % args.out, file=sys.stderr)
    if args.readme:
        update_readme(args.readme, text)
        print("bench: updated %s" % args.readme, file=sys.stderr)


if __name__ == "__main__":
    main()
