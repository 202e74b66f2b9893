#!/usr/bin/env python3
"""gen_msprobe.py - writes msprobe dumps (reader/msprobe/FORMAT.md) with known facts.

Standard library only (numpy is not needed: statistics are computed here and
.npy/.pt files are written byte by byte).  The "program" is a two-layer MLP
run on every rank for every step:

  fc1 (Linear) -> relu -> cat -> fc2 (Linear) -> sqrt -> all_reduce -> sum,
  a comparison giving a bool tensor, then backward entries and parameter
  gradients.

With --nan-rank R --nan-step S the input of the sqrt on rank R at step S
holds a negative element: the sqrt's output is the first NaN of the dump
(its inputs are finite), the all_reduce spreads it to every rank of the
group (on the other ranks the all_reduce is the first anomalous entry:
finite input, NaN output), and everything after it is NaN.

Writes OUT/step{S}/rank{R}/dump.json (+ stack.json, construct.json,
dump_tensor_data/) and OUT/facts.json + OUT/README.md: the truth tests read.

  gen_msprobe.py OUT [--framework pytorch|mindspore] [--task statistics|tensor]
      [--level L0|L1|mix] [--ranks N] [--steps N] [--nan-rank R --nan-step S]
      [--summary statistics|md5|xor] [--stack current|legacy] [--construct plain|megatron]
      [--tensor-format npy|pt] [--entries N]  (N >= 1: a big one-rank statistics dump)
"""
import argparse
import collections
import io
import json
import math
import os
import pickle
import struct
import sys
import types
import zipfile
import zlib


class Rng:
    """A small deterministic generator (LCG), the same on every Python."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.s >> 11) / float(1 << 53)

    def vals(self, n, lo=-2.0, hi=2.0):
        # values on a 1/64 grid: exact in float16/float32 and in the JSON
        return [round((lo + (hi - lo) * self.next()) * 64) / 64.0 for _ in range(n)]


# ---- tensors -------------------------------------------------------------

class T:
    """A tensor: flat values (row-major), shape, dtype word ("float32")."""

    def __init__(self, vals, shape, dtype="float32", rg=False):
        self.vals, self.shape, self.dtype, self.rg = vals, list(shape), dtype, rg


def stats(t):
    """msprobe's statistics: Max, Min, Mean, Norm over all elements (NaN
    when any is NaN, as torch computes them); bool: any/all and nulls."""
    v = t.vals
    if not v:
        return None, None, None, None
    if t.dtype == "bool":
        return any(v), all(v), None, None
    if any(math.isnan(x) for x in v):
        return float("nan"), float("nan"), float("nan"), float("nan")
    mean = sum(v) / len(v)
    norm = math.sqrt(sum(x * x for x in v))
    return max(v), min(v), mean, norm


def crc_hex(t):
    data = pack_values(t)
    return "%08x" % (zlib.crc32(data) & 0xFFFFFFFF)


def xor_hex(t):
    data = pack_values(t)
    data += b"\0" * (-len(data) % 8)
    x = 0
    for i in range(0, len(data), 8):
        x ^= struct.unpack("<Q", data[i:i + 8])[0]
    return "0x%016x" % x


NPY_DESCR = {"float32": "<f4", "float16": "<f2", "float64": "<f8", "int64": "<i8",
             "int32": "<i4", "bool": "|b1"}
PACK = {"float32": "f", "float16": "e", "float64": "d", "int64": "q", "int32": "i", "bool": "?"}


def pack_values(t):
    return struct.pack("<%d%s" % (len(t.vals), PACK[t.dtype]), *t.vals)


def npy_bytes(t):
    shape = "(" + "".join("%d, " % d for d in t.shape).rstrip(" ") + ")" if len(t.shape) != 1 \
        else "(%d,)" % t.shape[0]
    if not t.shape:
        shape = "()"
    head = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (NPY_DESCR[t.dtype], shape)
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + " " * (pad % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() + pack_values(t)


# torch.save without torch: the classes and function the pickle names are
# stand-ins in fake modules, so pickle writes GLOBAL torch._utils
# _rebuild_tensor_v2 and torch FloatStorage exactly as torch.save does.
def _fake_torch():
    if "torch" in sys.modules and getattr(sys.modules["torch"], "_msprobe_fake", False):
        return sys.modules["torch"]
    torch = types.ModuleType("torch")
    torch._msprobe_fake = True
    utils = types.ModuleType("torch._utils")

    def _rebuild_tensor_v2(*a):
        return a
    _rebuild_tensor_v2.__module__ = "torch._utils"
    _rebuild_tensor_v2.__qualname__ = "_rebuild_tensor_v2"
    utils._rebuild_tensor_v2 = _rebuild_tensor_v2
    torch._utils = utils
    for name in ("FloatStorage", "HalfStorage", "DoubleStorage", "LongStorage", "IntStorage",
                 "BoolStorage", "BFloat16Storage"):
        cls = type(name, (), {})
        cls.__module__ = "torch"
        cls.__qualname__ = name
        setattr(torch, name, cls)
    sys.modules["torch"] = torch
    sys.modules["torch._utils"] = utils
    return torch


STORAGE = {"float32": "FloatStorage", "float16": "HalfStorage", "float64": "DoubleStorage",
           "int64": "LongStorage", "int32": "IntStorage", "bool": "BoolStorage"}


class _Storage:
    def __init__(self, cls, numel):
        self.cls, self.numel = cls, numel


class _Tensor:
    def __init__(self, t, storage):
        self.t, self.storage = t, storage

    def __reduce__(self):
        torch = _fake_torch()
        stride, acc = [], 1
        for d in reversed(self.t.shape):
            stride.insert(0, acc)
            acc *= d
        return (torch._utils._rebuild_tensor_v2,
                (self.storage, 0, tuple(self.t.shape), tuple(stride), self.t.rg,
                 collections.OrderedDict()))


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            return ("storage", obj.cls, "0", "cpu", obj.numel)
        return None


def pt_bytes(t, archive="archive"):
    """A torch.save (zip, >= 1.6) image: data.pkl protocol 2, data/0, byteorder,
    version; entries stored, each entry's data 64-byte aligned."""
    torch = _fake_torch()
    pk = io.BytesIO()
    _Pickler(pk, protocol=2).dump(_Tensor(t, _Storage(getattr(torch, STORAGE[t.dtype]),
                                                      len(t.vals))))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for name, data in (("data.pkl", pk.getvalue()), ("byteorder", b"little"),
                           ("data/0", pack_values(t)), ("version", b"3\n")):
            full = "%s/%s" % (archive, name)
            info = zipfile.ZipInfo(full, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            here = out.tell() + 30 + len(full.encode())
            pad = (-(here + 4)) % 64
            info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
            z.writestr(info, data)
    return out.getvalue()


# ---- the program -----------------------------------------------------------

class Spelling:
    def __init__(self, fw):
        self.fw = fw
        ms = fw == "mindspore"
        self.ttype = "mindspore.Tensor" if ms else "torch.Tensor"
        self.mod = "Cell" if ms else "Module"
        self.fn = "Mint" if ms else "Functional"
        self.torch = "Mint" if ms else "Torch"
        self.tensor = "Tensor"
        self.dist = "Distributed"
        self.ms = ms

    def dtype(self, d):
        if self.ms:
            return {"float32": "Float32", "float16": "Float16", "bool": "Bool",
                    "int64": "Int64", "float64": "Float64"}[d]
        return "torch." + d


class Writer:
    """Builds the entries of one rank and step, their leaves and files."""

    def __init__(self, a, sp, rank, step, rdir):
        self.a, self.sp, self.rank, self.step, self.rdir = a, sp, rank, step, rdir
        self.data = collections.OrderedDict()
        self.stack, self.construct = collections.OrderedDict(), collections.OrderedDict()
        self.leaves = []     # (entry, slot label, is_input, role, T)
        self.files = 0

    def record(self, entry, label, t, is_input, role):
        mx, mn, mean, norm = stats(t)
        r = collections.OrderedDict()
        r["type"] = self.sp.ttype
        r["dtype"] = self.sp.dtype(t.dtype)
        r["shape"] = t.shape
        if self.a.summary == "md5":
            r["Max"], r["Min"], r["Mean"], r["Norm"] = mx, mn, mean, norm
            r["md5"] = crc_hex(t)
        elif self.a.summary == "xor":
            r["md5"] = xor_hex(t)     # xor mode: no statistics (FORMAT.md §4)
        else:
            r["Max"], r["Min"], r["Mean"], r["Norm"] = mx, mn, mean, norm
        if not self.sp.ms:
            r["requires_grad"] = t.rg
        if self.a.task == "tensor":
            ext = "npy" if self.sp.ms or self.a.tensor_format == "npy" else "pt"
            name = "%s.%s.%s" % (entry, label, ext)
            d = os.path.join(self.rdir, "dump_tensor_data")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, name), "wb") as f:
                f.write(npy_bytes(t) if ext == "npy" else pt_bytes(t))
            r["data_name"] = name
            self.files += 1
        self.leaves.append((entry, label, is_input, role, t))
        return r

    def add(self, entry, body, parent=None, frames=None):
        self.data[entry] = body
        if parent is not None or self.a.level != "L1":
            self.construct[entry] = parent
        if frames:
            self.stack[entry] = frames


def frame(line, func, code, path="/home/user/mlp/train.py"):
    return "File %s, line %d, in %s, \n %s" % (path, line, func, code)


FW_FRAME = "File /usr/lib/python3/site-packages/torch/nn/modules/module.py, line 1518, in _call_impl, \n return forward_call(*args, **kwargs)"


def run_rank(a, sp, rank, step, rdir):
    w = Writer(a, sp, rank, step, rdir)
    rng = Rng(1000 * step + rank + 7)
    bad_here = a.nan_rank == rank and a.nan_step == step
    bad_step = a.nan_rank is not None and a.nan_step == step
    nan = float("nan")
    api = a.level in ("L1", "mix")
    mod = a.level in ("L0", "mix")
    M = sp.mod

    def t(n, shape, lo=-2.0, hi=2.0, dtype="float32", rg=False):
        return T(rng.vals(n, lo, hi), shape, dtype, rg)

    def rec(entry, label, x, is_input, role="activation"):
        return w.record(entry, label, x, is_input, role)

    x = t(8, [2, 4])
    w1, b1 = t(12, [3, 4], rg=True), t(3, [3], rg=True)
    h1 = t(6, [2, 3], rg=True)
    fc1 = "%s.fc1.Linear.forward.0" % M
    fc2 = "%s.fc2.Linear.forward.0" % M
    lin0 = "%s.linear.0.forward" % sp.fn
    if api:
        w.add(lin0, collections.OrderedDict([
            ("input_args", [rec(lin0, "input.0", x, True), rec(lin0, "input.1", w1, True),
                            rec(lin0, "input.2", b1, True)]),
            ("input_kwargs", {}),
            ("output", [rec(lin0, "output.0", h1, False)])]),
            parent=fc1 if mod else None,
            frames=[frame(12, "forward", "return F.linear(x, self.weight, self.bias)"), FW_FRAME,
                    frame(30, "train_step", "y = model(x)")])
    if mod:
        w.add(fc1, collections.OrderedDict([
            ("input_args", [rec(fc1, "input.0", x, True)]),
            ("input_kwargs", {}),
            ("output", [rec(fc1, "output.0", h1, False)]),
            ("parameters", collections.OrderedDict([
                ("weight", rec(fc1, "parameters.weight", w1, False, "weight")),
                ("bias", rec(fc1, "parameters.bias", b1, False, "weight"))])),
            ("is_recompute", False)]), parent=None,
            frames=[frame(30, "train_step", "y = model(x)")])
    r1 = T([max(0.0, v) for v in h1.vals], [2, 3], rg=True)
    relu = "%s.relu.0.forward" % sp.fn
    cat_in = None
    if api:
        w.add(relu, collections.OrderedDict([
            ("input_args", [rec(relu, "input.0", h1, True)]),
            ("input_kwargs", {"inplace": {"type": "bool", "value": False}}),
            ("output", [rec(relu, "output.0", r1, False)])]),
            parent=None if not mod else None,
            frames=[frame(14, "forward", "h = F.relu(h)"), frame(30, "train_step", "y = model(x)")])
        # nested positional argument: cat([r1, r1], dim=0)
        cat = "%s.cat.0.forward" % sp.torch
        c = T(r1.vals + r1.vals, [4, 3], rg=True)
        w.add(cat, collections.OrderedDict([
            ("input_args", [[rec(cat, "input.0.0", r1, True), rec(cat, "input.0.1", r1, True)],
                            {"type": "int", "value": 0}]),
            ("input_kwargs", {}),
            ("output", [rec(cat, "output.0", c, False)])]),
            frames=[frame(15, "forward", "h = torch.cat([h, h], dim=0)")])
        cat_in = c
    w2, b2 = t(6, [2, 3], rg=True), t(2, [2], rg=True)
    o = t(8, [4, 2], 0.25, 2.0, rg=True)
    if bad_here:
        o.vals[5] = -0.5     # the sqrt's input goes negative here: NaN is born in sqrt
    lin1 = "%s.linear.1.forward" % sp.fn
    if api:
        w.add(lin1, collections.OrderedDict([
            ("input_args", [rec(lin1, "input.0", cat_in, True), rec(lin1, "input.1", w2, True),
                            rec(lin1, "input.2", b2, True)]),
            ("input_kwargs", {}),
            ("output", [rec(lin1, "output.0", o, False)])]),
            parent=fc2 if mod else None,
            frames=[frame(16, "forward", "return self.fc2(h)")])
    if mod:
        w.add(fc2, collections.OrderedDict([
            ("input_args", [rec(fc2, "input.0", cat_in or r1, True)]),
            ("input_kwargs", {}),
            ("output", [rec(fc2, "output.0", o, False)]),
            ("parameters", collections.OrderedDict([
                ("weight", rec(fc2, "parameters.weight", w2, False, "weight")),
                ("bias", rec(fc2, "parameters.bias", b2, False, "weight"))]))]), parent=None)
    s = T([math.sqrt(v) if v >= 0 else nan for v in o.vals], [4, 2], rg=True)
    sq = "%s.sqrt.0.forward" % sp.torch
    ar = "%s.all_reduce.0.forward" % sp.dist
    red = T([nan] * 8 if bad_step else [v * a.ranks for v in s.vals], [4, 2], rg=True)
    if api:
        w.add(sq, collections.OrderedDict([
            ("input_args", [rec(sq, "input.0", o, True)]),
            ("input_kwargs", {}),
            ("output", [rec(sq, "output.0", s, False)])]),
            frames=[frame(31, "train_step", "s = torch.sqrt(y)")])
        group = ({"type": "str", "value": "hccl_world_group"} if sp.ms else
                 {"type": "torch.ProcessGroup", "group_ranks": list(range(a.ranks)),
                  "group_id": "140063527123456"})
        w.add(ar, collections.OrderedDict([
            ("input_args", [rec(ar, "input.0", s, True)]),
            ("input_kwargs", collections.OrderedDict([
                ("group", group),
                ("op", {"type": "torch.distributed.ReduceOp", "value": "RedOpType.SUM"}),
                ("async_op", {"type": "bool", "value": False})])),
            ("output", [rec(ar, "output.0", red, False)])]),
            frames=[frame(32, "train_step", "dist.all_reduce(s)")])
        loss = T([nan if bad_step else sum(red.vals)], [], rg=True)
        sm = "%s.sum.0.forward" % sp.tensor
        w.add(sm, collections.OrderedDict([
            ("input_args", [rec(sm, "input.0", red, True)]),
            ("input_kwargs", {}),
            ("output", [rec(sm, "output.0", loss, False)])]),
            frames=[frame(33, "train_step", "loss = s.sum()")])
        gt = "%s.__gt__.0.forward" % sp.tensor
        mask = T([v > 1.0 for v in red.vals], [4, 2], "bool")
        w.add(gt, collections.OrderedDict([
            ("input_args", [rec(gt, "input.0", red, True), {"type": "float", "value": 1.0}]),
            ("input_kwargs", {}),
            ("output", [rec(gt, "output.0", mask, False)])]),
            frames=[frame(34, "train_step", "mask = s > 1.0")])
    # backward
    g = (lambda n, shape: T([nan] * n, shape)) if bad_step else (lambda n, shape: t(n, shape, -0.5, 0.5))
    lin1b = "%s.linear.1.backward" % sp.fn
    go, gc, gw2, gb2 = g(8, [4, 2]), g(12, [4, 3]), g(6, [2, 3]), g(2, [2])
    if api:
        w.add(lin1b, collections.OrderedDict([
            ("input", [rec(lin1b, "input.0", go, True, "gradient")]),
            ("output", [rec(lin1b, "output.0", gc, False, "gradient"),
                        rec(lin1b, "output.1", gw2, False, "gradient"),
                        rec(lin1b, "output.2", gb2, False, "gradient")])]),
            parent=fc2.replace("forward", "backward") if mod else None)
    if mod:
        fc2b = fc2.replace("forward", "backward")
        w.add(fc2b, collections.OrderedDict([
            ("input", [rec(fc2b, "input.0", go, True, "gradient")]),
            ("output", [rec(fc2b, "output.0", gc, False, "gradient")])]), parent=None)
        pg = "%s.fc2.Linear.parameters_grad.0" % M
        w.add(pg, collections.OrderedDict([
            ("weight", [rec(pg, "weight.0", gw2, False, "gradient")]),
            ("bias", [rec(pg, "bias.0", gb2, False, "gradient")])]), parent=None)
    return w


def write_rank(a, sp, w, rdir):
    top = collections.OrderedDict([("task", a.task), ("level", a.level),
                                   ("framework", sp.fw),
                                   ("dump_data_dir", "/home/user/msprobe_dump/step%d/rank%d/dump_tensor_data"
                                    % (w.step, w.rank) if a.task == "tensor" else None),
                                   ("data", w.data)])
    with open(os.path.join(rdir, "dump.json"), "w") as f:
        json.dump(top, f, indent=1)   # allow_nan: NaN, Infinity as bare tokens
    if a.stack == "legacy":
        st = w.stack
    else:
        st, groups = collections.OrderedDict(), collections.OrderedDict()
        for name, frames in w.stack.items():
            groups.setdefault(json.dumps(frames), (frames, []))[1].append(name)
        for i, (frames, names) in enumerate(groups.values()):
            st[str(i)] = [names, frames]
    with open(os.path.join(rdir, "stack.json"), "w") as f:
        json.dump(st, f, indent=1)
    if a.construct == "megatron":
        con = collections.OrderedDict((k, [v, 0]) for k, v in w.construct.items())
        con["megatron_micro_step_number"] = 1
    else:
        con = w.construct if a.level != "L1" else {}
    with open(os.path.join(rdir, "construct.json"), "w") as f:
        json.dump(con, f, indent=1)


def first_anomaly(w):
    """The first entry in file order whose tensor inputs are all finite and
    some output is not (FORMAT.md: msprobe's overflow_check rule)."""
    ins, outs = collections.OrderedDict(), collections.OrderedDict()
    for entry, label, is_in, role, t in w.leaves:
        bad = t.dtype != "bool" and any(math.isnan(v) or math.isinf(v) for v in t.vals)
        (ins if is_in else outs).setdefault(entry, []).append(bad)
        ins.setdefault(entry, [])
    for entry in w.data:
        if not any(ins.get(entry, [])) and any(outs.get(entry, [])):
            return entry
    return None


def leaf_facts(t):
    mx, mn, mean, norm = stats(t)
    return {"dtype": t.dtype, "shape": t.shape, "max": mx, "min": mn, "mean": mean, "l2norm": norm,
            "requires_grad": t.rg, "values": t.vals}


def nan_safe(o):
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return repr(o)
    if isinstance(o, dict):
        return {k: nan_safe(v) for k, v in o.items()}
    if isinstance(o, list):
        return [nan_safe(v) for v in o]
    return o


def big(a):
    """--entries N: one rank, one step, N API entries (statistics), streamed."""
    rdir = os.path.join(a.out, "step0", "rank0")
    os.makedirs(rdir, exist_ok=True)
    rng = Rng(42)
    with open(os.path.join(rdir, "dump.json"), "w") as f:
        f.write('{\n "task": "statistics",\n "level": "L1",\n "framework": "pytorch",\n'
                ' "dump_data_dir": null,\n "data": {\n')
        for i in range(a.entries):
            name = "Functional.linear.%d.forward" % i
            recs = []
            for k in range(4):
                v = rng.vals(4)
                recs.append(' {\n    "type": "torch.Tensor",\n    "dtype": "torch.float32",\n'
                            '    "shape": [\n     64,\n     1024\n    ],\n    "Max": %r,\n'
                            '    "Min": %r,\n    "Mean": %r,\n    "Norm": %r,\n'
                            '    "requires_grad": true\n   }' % (max(v), min(v), sum(v) / 4,
                                                               math.sqrt(sum(x * x for x in v))))
            f.write('  "%s": {\n   "input_args": [\n   %s,\n   %s,\n   %s\n   ],\n'
                    '   "input_kwargs": {},\n   "output": [\n   %s\n   ]\n  }%s\n'
                    % (name, recs[0], recs[1], recs[2], recs[3],
                       "," if i + 1 < a.entries else ""))
        f.write(" }\n}\n")
    with open(os.path.join(a.out, "facts.json"), "w") as f:
        json.dump({"entries": a.entries, "leaves": 4 * a.entries}, f)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--framework", default="pytorch", choices=["pytorch", "mindspore"])
    p.add_argument("--task", default="statistics", choices=["statistics", "tensor"])
    p.add_argument("--level", default="mix", choices=["L0", "L1", "mix"])
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--nan-rank", type=int, default=None)
    p.add_argument("--nan-step", type=int, default=None)
    p.add_argument("--summary", default="statistics", choices=["statistics", "md5", "xor"])
    p.add_argument("--stack", default="current", choices=["current", "legacy"])
    p.add_argument("--construct", default="plain", choices=["plain", "megatron"])
    p.add_argument("--tensor-format", default="npy", choices=["npy", "pt"])
    p.add_argument("--entries", type=int, default=0)
    a = p.parse_args()
    if a.entries:
        return big(a)
    sp = Spelling(a.framework)
    facts = {"framework": a.framework, "task": a.task, "level": a.level, "ranks": a.ranks,
             "steps": a.steps, "nan_rank": a.nan_rank, "nan_step": a.nan_step, "units": []}
    for step in range(a.steps):
        for rank in range(a.ranks):
            rdir = os.path.join(a.out, "step%d" % step, "rank%d" % rank)
            os.makedirs(rdir, exist_ok=True)
            w = run_rank(a, sp, rank, step, rdir)
            write_rank(a, sp, w, rdir)
            facts["units"].append({
                "step": step, "rank": rank, "host": "rank%d" % rank,
                "entries": list(w.data.keys()),
                "leaves": [{"entry": e, "slot": l, "is_input": i, "role": r, **leaf_facts(t)}
                           for e, l, i, r, t in w.leaves],
                "first_anomaly": first_anomaly(w),
                "construct": {k: v for k, v in w.construct.items()},
                "stack": {k: v for k, v in w.stack.items()},
                "files": w.files})
    with open(os.path.join(a.out, "facts.json"), "w") as f:
        json.dump(nan_safe(facts), f, indent=1, allow_nan=False)
    with open(os.path.join(a.out, "README.md"), "w") as f:
        f.write("# %s\n\nWritten by tests/gen/gen_msprobe.py %s (do not edit; regenerate).\n\n"
                % (os.path.basename(os.path.normpath(a.out)), " ".join(sys.argv[2:])))
        f.write("- framework %s, task %s, level %s, %d rank(s) x %d step(s)\n"
                % (a.framework, a.task, a.level, a.ranks, a.steps))
        for u in facts["units"]:
            f.write("- step%d/rank%d: %d entries, %d tensor leaves, %d tensor files; "
                    "first anomalous entry: %s\n"
                    % (u["step"], u["rank"], len(u["entries"]), len(u["leaves"]), u["files"],
                       u["first_anomaly"]))
        if a.nan_rank is not None:
            f.write("- NaN born at %s.sqrt.0.forward on rank %d, step %d (input -0.5), spread to "
                    "every rank by %s.all_reduce.0.forward\n" % (sp.torch, a.nan_rank, a.nan_step,
                                                                sp.dist))
        f.write("\nEvery fact per leaf (dtype, shape, statistics, values) is in facts.json.\n")


if __name__ == "__main__":
    main()
