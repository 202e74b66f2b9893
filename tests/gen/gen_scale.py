#!/usr/bin/env python3
"""gen_scale.py - many-file dumps for the scale benchmark (issue 18).

Multiplies the small fixtures in tests/fixtures/ into dumps of the size of
a large job, byte for byte the fixtures' files, only the names (and the
timestamps inside statistic.csv) moved on per rank, iteration or run:

  ms-sync DIR [--ranks 64] [--iters 100] [--no-stat]
      MindSpore synchronous dump of LeNet (tests/fixtures/mindspore/
      sync_lenet): RANKS rank_N directories x ITERS iterations of 50 .npy
      files (and statistic.csv unless --no-stat).  64 x 100: 320,000 .npy.
  ms-stat DIR [--rows 10M] [--ranks 64]
      statistic-only dump (saved_data "statistic"): statistic.csv files
      only, 50 tensor rows per iteration, enough iterations per rank for
      ROWS rows in all.
  tfdbg1 DIR [--runs 20000]
      tfdbg v1 dump: RUNS run_* directories, each a copy of the fixture
      mlp_nan's first run (49 dumped tensors, the graph, 3 run files).

Prints one line of facts: files, tensor rows, bytes.  The output is a
function of the options; DIR must not exist.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures")
MS = os.path.join(FIX, "mindspore", "sync_lenet", "rank_0")
TF1_RUN = os.path.join(FIX, "tfdbg1", "mlp_nan", "run_1700000000123456_0")
# Iteration i of the fixture stamps its files 1700000000000000 + (i+1)*10^6 + k.
TS_BASE, TS_STEP = 1700000000000000, 1000000
TS_RE = re.compile(r"\.(1700000001\d{6})\.")


def parse_count(s):
    mult = {"K": 10**3, "M": 10**6}
    return int(float(s[:-1]) * mult[s[-1].upper()]) if s[-1].upper() in mult else int(s)


def read_tree(root):
    """{relative path: bytes} of every file under root."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = open(p, "rb").read()
    return out


def write(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def ms_iteration_files(stat, npy):
    """Iteration 0's files of the fixture: [(name, bytes, is_csv)]."""
    it0 = os.path.join(MS, "Lenet", "0", "0")
    out = []
    for f in sorted(os.listdir(it0)):
        if f == "statistic.csv":
            if stat:
                out.append((f, open(os.path.join(it0, f), "rb").read(), True))
        elif npy:
            out.append((f, open(os.path.join(it0, f), "rb").read(), False))
    return out


def ms_rank_common(rank_dir, saved_data):
    """Everything of a rank but its iterations (metadata, graphs, order)."""
    for rel, data in read_tree(MS).items():
        if rel.startswith("Lenet" + os.sep + "0" + os.sep) and \
                rel.split(os.sep)[2] not in ("constants",):
            continue
        p = os.path.join(rank_dir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if rel.endswith("data_dump.json"):
            data = data.replace(b'"saved_data": "full"', b'"saved_data": "%s"' % saved_data)
        write(p, data)


def ms_dump(out, ranks, iters, stat, npy):
    files = ms_iteration_files(stat, npy)
    nfiles = rows = size = 0
    for r in range(ranks):
        rank_dir = os.path.join(out, "rank_%d" % r)
        ms_rank_common(rank_dir, b"full" if npy else b"statistic")
        for i in range(iters):
            it = os.path.join(rank_dir, "Lenet", "0", str(i))
            os.makedirs(it)
            shift = i * TS_STEP
            for name, data, csv in files:
                if csv:
                    data = re.sub(rb",(1700000001\d{6}),",
                                  lambda m: b",%d," % (int(m.group(1)) + shift), data)
                    rows += data.count(b"\n") - 1
                else:
                    name = TS_RE.sub(lambda m: ".%d." % (int(m.group(1)) + shift), name)
                    rows += 0 if stat else 1
                write(os.path.join(it, name), data)
                nfiles += 1
                size += len(data)
    if stat and npy:
        rows = ranks * iters * sum(1 for f in files if not f[2])
    return nfiles, rows, size


def tfdbg1_dump(out, runs):
    tree = read_tree(TF1_RUN)
    nfiles = size = rows = 0
    dirs = sorted({os.path.dirname(rel) for rel in tree})
    for k in range(runs):
        # run_<start time in us>_<index>, 200 ms apart like the fixture's runs
        run = os.path.join(out, "run_%d_%d" % (1700000000123456 + k * 200000, k))
        for d in dirs:
            os.makedirs(os.path.join(run, d), exist_ok=True)
        for rel, data in tree.items():
            write(os.path.join(run, rel), data)
            nfiles += 1
            size += len(data)
            rows += "_Debug" in os.path.basename(rel)
    return nfiles, rows, size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["ms-sync", "ms-stat", "tfdbg1"])
    ap.add_argument("dir")
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--no-stat", action="store_true")
    ap.add_argument("--rows", default="10M")
    ap.add_argument("--runs", type=int, default=20000)
    a = ap.parse_args()
    if os.path.exists(a.dir):
        sys.exit("gen_scale: %s exists" % a.dir)
    os.makedirs(a.dir)
    if a.kind == "ms-sync":
        n, rows, size = ms_dump(a.dir, a.ranks, a.iters, not a.no_stat, True)
    elif a.kind == "ms-stat":
        per_it = len(open(os.path.join(MS, "Lenet", "0", "0", "statistic.csv")).readlines()) - 1
        iters = -(-parse_count(a.rows) // (per_it * a.ranks))
        n, rows, size = ms_dump(a.dir, a.ranks, iters, True, False)
    else:
        n, rows, size = tfdbg1_dump(a.dir, a.runs)
    print("files %d\nrows %d\nbytes %d" % (n, rows, size))


if __name__ == "__main__":
    main()
