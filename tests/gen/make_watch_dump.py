#!/usr/bin/env python3
"""make_watch_dump.py - a small MindSpore sync dump whose tensors hit (or
miss) each named watch condition, with values chosen here (python3, the
standard library only).

    tests/gen/make_watch_dump.py [--ints] DIR

With --ints the dump holds INT_TENSORS instead, one iteration: integer
tensors a value condition must not hit (a OneHot, masks, an argmax, an
integer step counter in a weight's place) beside float ones that must.

Layout: DIR/rank_0/{.dump_metadata/{data_dump.json,config.json},
Net/0/{0,1,2}/*.npy}: three iterations of the tensors below, one output
each.  The facts a correct reader finds (tests/e2e/batch_watches.sh checks
them) are in TENSORS: each name says what it is made to hit.
"""
import json
import os
import struct
import sys

F32, F16, I32, U8, U16, I64 = "<f4", "<f2", "<i4", "|u1", "<u2", "<i8"


def npy(path, dtype, shape, values):
    """Writes a version 1.0 .npy file."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, "".join("%d," % d for d in shape))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    fmt = {"<f4": "f", "<f2": "e", "<i4": "i", "|u1": "B", "<u2": "H", "<i8": "q"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def ramp(n, scale, it=0, grow=1.0):
    """n values around scale (alternating sign), times grow**it."""
    return [scale * (1 + i / n) * (-1 if i % 2 else 1) * grow ** it for i in range(n)]


# (op type, op name, dtype, values per iteration 0..2)
N = 8
TENSORS = [
    # weights (type Parameter): role "weight"
    ("Parameter", "w_zero_init", F32, lambda it: [0.0] * N if it == 0 else ramp(N, 0.05, it, 1.001)),
    ("Parameter", "w_big", F32, lambda it: ramp(N, 500.0, it, 1.00001)),          # abs_mean > 100
    ("Parameter", "w_ok", F32, lambda it: ramp(N, 0.05, it, 1.001)),              # no weight hit
    ("Parameter", "w_frozen", F32, lambda it: ramp(N, 0.05)),                     # unchanged
    ("Parameter", "w_jump", F32, lambda it: ramp(N, 0.05, it, 2.0)),              # ratio 1.0
    ("Parameter", "w_inf", F32, lambda it: [float("inf")] + ramp(N - 1, 0.05, it, 1.001)),
    # gradients (scope Gradients/): role "gradient"
    ("MatMul", "Gradients/Default/vanish_grad-op1", F32, lambda it: ramp(N, 1e-12)),
    ("MatMul", "Gradients/Default/big_grad-op2", F32, lambda it: ramp(N, 5000.0)),
    ("MatMul", "Gradients/Default/nan_grad-op3", F32, lambda it: [float("nan")] + ramp(N - 1, 0.1)),
    ("MatMul", "Gradients/Default/ok_grad-op4", F32, lambda it: ramp(N, 0.01)),
    # activations (type ReLU): role "activation"
    ("ReLU", "Default/act_wide-op5", F32, lambda it: [50.0 * i / N for i in range(N)]),   # 0..43.75
    ("ReLU", "Default/act_zero-op6", F32, lambda it: [0.0] * N),
    # float16 near its limit, and far from it
    ("Cast", "Default/half_near-op7", F16, lambda it: [40000.0, -1.0] + [1.0] * (N - 2)),
    ("Cast", "Default/half_far-op8", F16, lambda it: [100.0] * N),
]


# --ints: rows 0..6 in this order.  Each integer tensor has max > 5 and
# abs_mean > 1 (so tensor_too_large(max_gt=5) would hit it), each float one
# too; only the float ones may hit.
INT_TENSORS = [
    ("OneHot", "Default/one_hot-op1", I32, lambda it: [0, 0, 9, 0, 0, 0, 9, 0]),
    ("Cast", "Default/mask_u8-op2", U8, lambda it: [0, 255, 255, 0, 255, 0, 0, 255]),
    ("Cast", "Default/mask_u16-op3", U16, lambda it: [0, 1000, 0, 1000, 0, 0, 1000, 0]),
    ("Argmax", "Default/argmax-op4", I64, lambda it: [7, 3, 9, 1, 8, 6, 2, 9]),
    ("Parameter", "global_step", I64, lambda it: [1000] * N),                 # an int "weight"
    ("MatMul", "Default/logits-op5", F32, lambda it: [6.0, -2.0, 1.0, 0.5, -0.5, 2.0, 3.0, 1.0]),
    ("Parameter", "w_big_f", F32, lambda it: ramp(N, 500.0)),                  # weight_too_large
]


def main():
    args = [a for a in sys.argv[1:] if a != "--ints"]
    ints = len(args) != len(sys.argv) - 1
    if len(args) != 1:
        sys.exit(__doc__)
    rank = os.path.join(args[0], "rank_0")
    meta = os.path.join(rank, ".dump_metadata")
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
    for it in range(1 if ints else 3):
        d = os.path.join(rank, "Net", "0", str(it))
        os.makedirs(d, exist_ok=True)
        for typ, name, dt, vals in (INT_TENSORS if ints else TENSORS):
            ts += 7
            fname = "%s.%s.0.0.%d.output.0.DefaultFormat.npy" % (typ, name.replace("/", "_"), ts)
            npy(os.path.join(d, fname), dt, (N,), vals(it))


if __name__ == "__main__":
    main()
