#!/usr/bin/env python3
"""make_trend_dump.py - a small MindSpore sync dump whose tensors move over
the iterations along series chosen here, for `history` and the trend view
(python3, the standard library only).

    tests/gen/make_trend_dump.py DIR [--facts FILE]

Layout: DIR/rank_{0,1}/{.dump_metadata/{data_dump.json,config.json},
Net/0/<iteration>/*.npy}, ITERATIONS iterations, one output per tensor:

  Parameter fc.weight      8 values (k - 3.5) / 10 * 1.5**it * (1 + rank);
                           on rank 1 at iteration NAN_AT element 0 is NaN
  MatMul    grad-op1  8 values 10**-it (the same on both ranks):
                           spans 11 decades
  Add       loop-op2  rank 0 only, two files per iteration (the op
                           ran twice): first all it, then all 2 * it

--facts FILE writes what a correct reader finds, from the values written
(float32-rounded, statistics over the finite elements as numpy computes
them): {"iterations", "nan_at", "series": {"OP NAME": {"RANK": [{"step",
"l2norm", "abs_mean", "mean", "min", "max", "nan", "inf", "rows"}, ...]}}}.
"""
import json
import math
import os
import struct
import sys

ITERATIONS = 12
NAN_AT = 9
N = 8


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def npy(path, values):
    """Writes a version 1.0 float32 .npy file of shape (len(values),)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def weight(it, rank):
    v = [(k - 3.5) / 10 * 1.5 ** it * (1 + rank) for k in range(N)]
    if rank == 1 and it == NAN_AT:
        v[0] = float("nan")
    return v


def grad(it, rank):
    return [10.0 ** -it] * N


# (op type, op name, ranks, values per call: list of lists per (it, rank))
TENSORS = [
    ("Parameter", "fc.weight", (0, 1), lambda it, r: [weight(it, r)]),
    ("MatMul", "grad-op1", (0, 1), lambda it, r: [grad(it, r)]),
    ("Add", "loop-op2", (0,), lambda it, r: [[float(it)] * N, [2.0 * it] * N]),
]


def stats(values):
    x = [f32(v) for v in values]
    fin = [v for v in x if math.isfinite(v)]
    n = len(fin)
    out = {"nan": sum(1 for v in x if math.isnan(v)),
           "inf": sum(1 for v in x if math.isinf(v))}
    if n:
        out.update(l2norm=math.sqrt(sum(v * v for v in fin)), abs_mean=sum(abs(v) for v in fin) / n,
                   mean=sum(fin) / n, min=min(fin), max=max(fin))
    return out


def main():
    args = sys.argv[1:]
    facts = None
    if "--facts" in args:
        i = args.index("--facts")
        facts = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    series = {}
    for rank in (0, 1):
        rdir = os.path.join(args[0], "rank_%d" % rank)
        meta = os.path.join(rdir, ".dump_metadata")
        os.makedirs(meta, exist_ok=True)
        with open(os.path.join(meta, "data_dump.json"), "w") as f:
            json.dump({"common_dump_settings": {"dump_mode": 0, "path": "/tmp/dump", "net_name": "Net",
                                                "iteration": "all", "saved_data": "tensor",
                                                "input_output": 2, "kernels": [],
                                                "support_device": [0], "op_debug_mode": 0},
                       "e2e_dump_settings": {"enable": True, "trans_flag": True}}, f, indent=4)
        with open(os.path.join(meta, "config.json"), "w") as f:
            json.dump({"device_target": "GPU"}, f)
        ts = 1700000000000000
        for it in range(ITERATIONS):
            d = os.path.join(rdir, "Net", "0", str(it))
            os.makedirs(d, exist_ok=True)
            for typ, name, ranks, calls in TENSORS:
                if rank not in ranks:
                    continue
                vals = calls(it, rank)
                for v in vals:
                    ts += 7
                    fname = "%s.%s.0.0.%d.output.0.DefaultFormat.npy" % (typ, name.replace("/", "_"), ts)
                    npy(os.path.join(d, fname), v)
                point = stats(vals[-1])
                point.update(step=it, rows=len(vals))
                series.setdefault(name, {}).setdefault("rank_%d" % rank, []).append(point)
    if facts:
        with open(facts, "w") as f:
            json.dump({"iterations": ITERATIONS, "nan_at": NAN_AT, "series": series}, f, indent=1)


if __name__ == "__main__":
    main()
