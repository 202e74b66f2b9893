#!/usr/bin/env python3
"""nodes.py - many nodes at scale (issue 28), run by tests/bench/run.sh.

1,024 ranks on 128 pseudo-nodes on this machine: node folder nK holds the
MindSpore ranks rank_(8(K-1)) .. rank_(8(K-1)+7), each a hard-linked copy
of tests/fixtures/mindspore/sync_lenet/rank_0 (no disk space; tdbg only
reads), rank 517 made to go bad one step earlier (its own copy).  Then:

  nodes    pdsh -R exec -w n[1-128] -f FANOUT tdbg --node DIR/%h, each node's
           tdbg under a wrapper that reports its peak RSS (wait4): wall time
           of the whole fan-out, and the largest and median peak RSS of a
           node's answer (8 ranks)
  merge    tdbg --merge --json of the 1,024 lines, the median wall time of
           RUNS runs and its peak RSS

The load average is printed beside the figures (other jobs share the
cores).  Checks the merge names 1,024 ranks and rank 517 first; exits 1 if
not, or when the merge takes 1 s or more.  Writes tests/bench/nodes.md.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
NODES, PER_NODE, BAD = 128, 8, 517


def child(argv):
    """--child: run argv, pass its output on, print its peak RSS on stderr."""
    p = subprocess.Popen(argv)
    _, status, ru = os.wait4(p.pid, 0)
    sys.stderr.write("tdbg-rss-kb %d\n" % ru.ru_maxrss)
    return os.waitstatus_to_exitcode(status)


def run_rss(argv):
    """Runs argv: (wall seconds, peak RSS in KB, stdout)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, _, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t0, ru.ru_maxrss, out


def make_layout(d):
    src = os.path.join(TOP, "tests/fixtures/mindspore/sync_lenet/rank_0")
    stamp = os.path.join(d, ".stamp")
    if os.path.exists(stamp):
        return
    shutil.rmtree(d, ignore_errors=True)
    for k in range(1, NODES + 1):
        for r in range(PER_NODE * (k - 1), PER_NODE * k):
            dst = os.path.join(d, "n%d" % k, "rank_%d" % r)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if r == BAD:
                shutil.copytree(src, dst)
            else:
                subprocess.check_call(["cp", "-al", src, dst])
    # rank BAD: the iteration 1 NaN moved to iteration 0 (make_nodes.sh does
    # the same for one rank): NaN Count in statistic.csv
    bad = os.path.join(d, "n%d" % (BAD // PER_NODE + 1), "rank_%d" % BAD, "Lenet/0/0/statistic.csv")
    lines = open(bad).read().split("\n")
    for i, l in enumerate(lines):
        if l.startswith("MatMul,") and "fc3-Dense_MatMul-op10," in l and ",output,0," in l:
            cols = l.split(",")
            cols[-4] = str(int(cols[-4]) + 1)
            lines[i] = ",".join(cols)
    open(bad, "w").write("\n".join(lines))
    open(stamp, "w").write("1")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        return child(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--tdbg", required=True)
    ap.add_argument("--cache", default=os.path.join(HERE, "cache"))
    ap.add_argument("--fanout", type=int, default=16)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not shutil.which("pdsh"):
        print("bench nodes: pdsh is not installed (make deps)", file=sys.stderr)
        return 1
    d = os.path.join(a.cache, "nodes_%dx%d" % (NODES, PER_NODE))
    make_layout(d)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(a.cache, "nodes_xdg_cache"))
    load0 = os.getloadavg()
    t0 = time.monotonic()
    p = subprocess.run(["pdsh", "-R", "exec", "-w", "n[1-%d]" % NODES, "-f", str(a.fanout),
                        "-u", "600", sys.executable, os.path.abspath(__file__), "--child",
                        a.tdbg, "--node", os.path.join(d, "%h")],
                       env=env, capture_output=True, text=True)
    fan = time.monotonic() - t0
    rss = [int(l.split()[-1]) for l in p.stderr.splitlines() if "tdbg-rss-kb" in l]
    lines = os.path.join(a.cache, "nodes_lines.txt")
    open(lines, "w").write(p.stdout)
    walls, merge_rss = [], 0
    for _ in range(a.runs):
        wall, kb, mout = run_rss([a.tdbg, "--merge", "--json", "--ranks", str(NODES * PER_NODE),
                                  "--nodes", "n[1-%d]" % NODES, lines])
        walls.append(wall)
        merge_rss = max(merge_rss, kb)
    doc = json.loads(mout)
    ok = (doc["ranks_found"] == NODES * PER_NODE and doc["missing"] == [] and
          doc["failed_nodes"] == [] and doc["first"] and doc["first"]["rank"] == BAD)
    merge_s = statistics.median(walls)
    out = ["# Many nodes at scale (tests/bench/nodes.py)", "",
           "%d ranks on %d pseudo-nodes (%d MindSpore ranks each), pdsh -R exec -f %d; "
           "load average before: %.2f %.2f %.2f, after: %.2f %.2f %.2f; %d cores." %
           ((NODES * PER_NODE, NODES, PER_NODE, a.fanout) + load0 + os.getloadavg() +
            (os.cpu_count(),)), "",
           "| what | figure |", "|---|---|",
           "| fan-out, every node's answer (wall) | %.2f s |" % fan,
           "| node answers received | %d of %d nodes, %d lines |" %
           (len(rss), NODES, len([l for l in p.stdout.splitlines() if l.strip()])),
           "| peak RSS of one node's tdbg --node (8 ranks): largest / median | %.1f / %.1f MB |" %
           (max(rss) / 1024 if rss else 0, statistics.median(rss) / 1024 if rss else 0),
           "| tdbg --merge --json of the %d lines (median of %d) | %.3f s |" %
           (NODES * PER_NODE, a.runs, merge_s),
           "| peak RSS of the merge | %.1f MB |" %
           (merge_rss / 1024),
           "| merge names every rank and rank %d first | %s |" % (BAD, "yes" if ok else "NO"), ""]
    text = "\n".join(out)
    print(text)
    open(os.path.join(HERE, "nodes.md"), "w").write(text)
    return 0 if ok and merge_s < 1.0 and len(rss) == NODES else 1


if __name__ == "__main__":
    sys.exit(main())
