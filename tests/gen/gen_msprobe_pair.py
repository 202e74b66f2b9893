#!/usr/bin/env python3
"""gen_msprobe_pair.py - writes a golden and a target msprobe run of one model
whose truth is known (issue 27: compare as msprobe users do).

Standard library only.  Both runs execute the same program on every rank:

  linear(x, w1, b1) -> relu -> mul(., 2) -> linear(., w2, b2) -> tanh -> sum,
  then the backward of both linears (last first) and of relu.

The target equals the golden (bit for bit) up to the API named by --diverge
(an index into the forward calls above, on the rank --diverge-rank): there
its output is doubled (its inputs are still equal: "op diverged"), and
everything after it on that rank differs too.  --nan golden|target puts a
NaN into that output on one side instead (the other side keeps the finite
value).

The two runs spell calls as two msprobe versions do: the golden numbers an
API's backward calls by their own order (linear.0.backward is the first
backward linear that ran: the second layer's), the target by the forward
call they follow (linear.1.backward).  Matching by exact name pairs the
wrong layers; by backward ordinal the right ones.  --target-offset K adds K
to every forward count of the target (a dump started later): only --fuzzy
pairs those.  --target-framework mindspore writes the target as MindSpore
(mindspore.Tensor, Float32 dtypes, no requires_grad).

Writes OUT/golden/step0/rank{R}/dump.json, OUT/target/step0/rank{R}/...,
and OUT/truth.json: per side and rank, every entry with its logical call
("fwd:linear#1", "bwd:linear#1") and every leaf (name, dtype spelling,
shape, statistics as written, values), plus the first divergence.

  gen_msprobe_pair.py OUT [--ranks N] [--diverge I] [--diverge-rank R]
      [--nan none|golden|target] [--target-framework pytorch|mindspore]
      [--target-offset K] [--task statistics|tensor] [--late J] [--jitter]
  [--sum-dtype DTYPE] [--summary statistics|md5|xor] [--stack] [--args]
  [--rowless] [--lm-names]

--stack writes stack.json beside each dump.json (the legacy layout, entry
-> frames, innermost first): two frames per entry, one of them with a
quote in its source line; the relu entries' capture failed ("The call
stack retrieval failed."), and the golden run has no stack for its sum
entries.  truth.json keeps each entry's frames as "stack" (null: none).

--summary md5 adds each leaf's checksum as msprobe's md5 mode writes it (an
8-hex-digit CRC-32 of the float32 bytes, beside the statistics); xor writes
a 64-bit checksum "0x%016x" (the XOR of the values' 8-byte words) in its
place, without statistics (PyTorch's xor mode).  truth.json keeps it per
leaf as "md5".

--args gives calls non-tensor keyword arguments of every kind msprobe
records (int, float, bool, str, torch.dtype, torch.device, torch.Size,
slice, a process group, a peer rank "dst", a bare null), some equal on
both sides, some differing, one only in the target (KWARGS below).  The
mul's scalar operand (a float) is a non-tensor argument in every run.
truth.json lists each as a leaf with "arg": true and its "record" as
written (null for a bare null); truth_rows leaves them out (they are not
trace rows), csv_rows keeps them in msprobe's CSV order.

--rowless writes two calls that have no tensor at all, whose non-tensor
arguments are their only CSV rows (ROWLESS below): Torch.sym_max.0.forward
after the relu (two int inputs and an int output; the target's second input
and output differ) and Distributed.barrier.0.forward after the last forward
call (a process group and a bool as keyword arguments, a None output).
truth.json lists their arguments as leaves with "arg": true, as --args.

--lm-names writes construct.json and stack.json beside each dump.json for
msprobe's layer map (-lm, tests/fixtures/msprobe_maps/layer_mapping.yaml):
the forward calls sit in layers the two runs name differently (the golden's
Module.block1/block2/head, the target's first/second/tail, Cell.* for a
MindSpore target; the tanh at the top), the golden numbers its backward
calls by the forward call they follow (and writes them in the reverse
order: pairing backward calls by rank, or by place in one scope, pairs the
wrong ones; their forward calls' scopes pair them), and the tanh's stack
shows it called
through a framework function (the golden's "helper", the target's
"ms_helper").  With --target-offset the target's names pair with nothing
by name; the map's scopes restore every call but two: the tanh (its
framework function differs) and the sum (the file has no rule for
"tail").  truth.json gives each target leaf "call_lm", the golden call it
pairs with under the map (null: none).

--ms-names writes a module entry after each linear and the relu
(Module.fc1.Linear, Module.fc2.Linear, Module.act.ReLU on the golden) and
makes the target spell its names as a MindSpore run does: Functional.dense
for linear, MintFunctional.relu, Mint.tanh (Tensor.mul and Tensor.sum as
the golden), Cell.dense1.Dense, Cell.dense2.Dense and Cell.act.ReLU for
the modules.  Each leaf in truth.json then says which of msprobe's maps
gives the target's name the golden's ("fix"): "same" (none needed), "api"
(-am's built-in rules), "cell" (-cm: Cell -> Module alone) or "cell-file"
(-cm with tests/fixtures/msprobe_maps/cell_mapping.yaml: dense1.Dense ->
fc1.Linear, dense2.Dense -> fc2.Linear).

--dm-names makes the target name two calls' leaves as only msprobe's data
mapping (-dm, tests/fixtures/msprobe_maps/data_mapping.yaml) pairs them:
its tanh is NPU.npu_fast_tanh.0.forward with an extra tensor (a mask) as
input.0 and the tanh's operand as input.1, and its second linear lists its
weight as input.0 and its operand as input.1.  Those leaves say "fix":
"data" and, beside "call" (the golden leaf of the same logical value, what
the map restores), "call_nomap": the golden leaf their own name pairs with
without the map (null: none); the mask is "fix": "none" (never paired).
truth.json's "data_mapping" is the map those leaves need (target leaf name
-> golden leaf name), which the fixture file must hold.

--am-names makes the target's linears list their weight before their
operand (forward input.0 and input.1 swapped, and the backward outputs,
their gradients, likewise), which msprobe's API mapping file (-am FILE,
tests/fixtures/msprobe_maps/api_mapping.yaml: Functional.linear, ms_args
[0, 1, 2] -> pt_args [1, 0, 2]) renumbers back: those leaves say "fix":
"api-file", "call" and "call_nomap" as for --dm-names.

--late J makes rank 0 diverge too, at forward index J (later in its run
than --diverge on --diverge-rank): the rank that parts first in its own run
is then not the first rank in row order.
"""
import argparse
import collections
import json
import math
import os
import struct
import zlib


class Rng:
    """A small deterministic generator (LCG), the same on every Python."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def vals(self, n, lo=-2.0, hi=2.0):
        out = []
        for _ in range(n):
            self.s = (self.s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            u = (self.s >> 11) / float(1 << 53)
            out.append(round((lo + (hi - lo) * u) * 64) / 64.0)   # exact in float32
        return out


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0] if math.isfinite(v) else v


def stats(vals):
    """msprobe's four statistics, in float32 as torch computes them on a
    float32 tensor (NaN propagates)."""
    if any(math.isnan(v) for v in vals):
        nan = float("nan")
        return nan, nan, nan, nan
    return (f32(max(vals)), f32(min(vals)), f32(sum(vals) / len(vals)),
            f32(math.sqrt(sum(v * v for v in vals))))


FORWARD = ["linear0", "relu", "mul", "linear1", "tanh", "sum"]


JITTER = [0.0, 0.0004, 0.003, 0.02]     # relative errors around the ratio thresholds


def program(rank, scale_at, nan_at, jitter=False):
    """The forward values of one rank: a list of (api, inputs, output)
    where inputs and outputs are (values, shape); scale_at / nan_at: the
    forward index whose output is scaled / gets a NaN, or None."""
    rng = Rng(31 + rank)
    x, w1, b1 = (rng.vals(8), [2, 4]), (rng.vals(12), [3, 4]), (rng.vals(3), [3])
    w2, b2 = (rng.vals(6), [2, 3]), (rng.vals(2), [2])
    calls = []

    def out(i, vals):
        vals = [f32(v) for v in vals]
        if i == scale_at:
            vals = [f32(v * 2.0) for v in vals]
        if i == nan_at:
            vals = list(vals)
            vals[0] = float("nan")
        return vals

    def linear(i, a, w, b, m, k, n):
        y = [sum(a[0][r * k + c] * w[0][o * k + c] for c in range(k)) + b[0][o]
             for r in range(m) for o in range(n)]
        return out(i, y), [m, n]

    h = linear(0, x, w1, b1, 2, 4, 3)
    calls.append(("linear", [x, w1, b1], h))
    r = (out(1, [max(0.0, v) for v in h[0]]), h[1])
    calls.append(("relu", [h], r))
    m = (out(2, [v * 2.0 for v in r[0]]), r[1])
    calls.append(("mul", [r, ([2.0], [])], m))
    o = linear(3, m, w2, b2, 2, 3, 2)
    calls.append(("linear", [m, w2, b2], o))
    t = (out(4, [math.tanh(v) for v in o[0]]), o[1])
    if jitter:      # the target's tanh off by 0, 0.04%, 0.3%, 2% (element by element)
        t = ([f32(v * (1 + JITTER[i % 4])) for i, v in enumerate(t[0])], t[1])
    calls.append(("tanh", [o], t))
    s = (out(5, [sum(t[0])]), [])
    calls.append(("sum", [t], s))
    return calls


PREFIX = {"linear": "Functional", "relu": "Functional", "mul": "Tensor", "tanh": "Torch",
          "sum": "Tensor"}
# --ms-names: the target's (prefix, api) for each logical API, and the map
# that gives the golden's name back (gen's "fix").
MS_API = {"linear": ("Functional", "dense", "api"), "relu": ("MintFunctional", "relu", "api"),
          "mul": ("Tensor", "mul", "same"), "tanh": ("Mint", "tanh", "api"),
          "sum": ("Tensor", "sum", "same")}
# the modules: (golden name, target name, fix), by forward index they wrap
MODULES = {0: ("Module.fc1.Linear", "Cell.dense1.Dense", "cell-file"),
           1: ("Module.act.ReLU", "Cell.act.ReLU", "cell"),
           3: ("Module.fc2.Linear", "Cell.dense2.Dense", "cell-file")}


def api_entry(a, side, api, n, direction):
    """An API entry's name and the map that fixes it (--ms-names)."""
    if a.ms_names and side == "target":
        pre, name, fix = MS_API[api]
        return "%s.%s.%d.%s" % (pre, name, n, direction), fix
    return "%s.%s.%d.%s" % (PREFIX[api], api, n, direction), "same"


def checksum(vals, mode):
    raw = b"".join(struct.pack("<f", v) for v in vals)
    if mode == "md5":
        return "%08x" % (zlib.crc32(raw) & 0xffffffff)
    raw += b"\0" * (-len(raw) % 8)
    x = 0
    for i in range(0, len(raw), 8):
        x ^= struct.unpack_from("<Q", raw, i)[0]
    return "0x%016x" % x


def record(fw, vals, shape, rg, name, task, side_dir, files, summary="statistics"):
    mx, mn, mean, norm = stats(vals)
    if fw == "mindspore":
        rec = collections.OrderedDict([("type", "mindspore.Tensor"), ("dtype", "Float32"),
                                       ("shape", shape)])
    else:
        rec = collections.OrderedDict([("type", "torch.Tensor"), ("dtype", "torch.float32"),
                                       ("shape", shape)])
    if summary != "xor":
        rec["Max"], rec["Min"], rec["Mean"], rec["Norm"] = mx, mn, mean, norm
    if summary != "statistics":
        rec["md5"] = checksum(vals, summary)
    if fw != "mindspore":
        rec["requires_grad"] = rg
    if task == "tensor":
        rec["data_name"] = name + ".npy"
        files.append((rec["data_name"], vals, shape))
    return rec


def npy(vals, shape):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d," % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    pad = 64 - (10 + len(hdr) + 1) % 64
    hdr = hdr + " " * pad + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() +
            b"".join(struct.pack("<f", v) for v in vals))


def frames(a, side, api, n):
    """An entry's stack.json frames (innermost first), None without."""
    if not a.stack or (side == "golden" and api == "sum"):
        return None
    if api == "relu":
        return ["The call stack retrieval failed."]
    return ["File /work/model.py, line %d, in forward, \n y = F.%s(x, name='%s')" % (10 + n, api, api),
            "File /work/train.py, line 42, in train_step, \n loss = model(batch)"]


def kwargs_of(a, api, n, side):
    """The non-tensor keyword arguments of a call with --args (None: a bare
    null); the target's differ where noted."""
    if not a.args:
        return {}
    t = side == "target"
    if api == "linear" and n == 0:
        return {"device": {"type": "torch.device", "value": "npu:0" if t else "cpu"},  # differs
                "dtype": {"type": "torch.dtype", "value": "torch.float32"}}
    if api == "linear":
        return {"scale": {"type": "float", "value": math.inf if t else 2.0}}           # differs
    if api == "relu":
        return {"inplace": {"type": "bool", "value": t}}                                 # differs
    if api == "mul":
        return {"alpha": {"type": "float", "value": 1.5 if t else 1.0}}                  # differs
    if api == "tanh":
        return {"out": None}
    kw = {"dim": {"type": "int", "value": 1 if t else 0},                                # differs
          "keepdim": {"type": "bool", "value": False},
          "size": {"type": "torch.Size", "value": [2, 3] if t else [2, 2]},            # differs
          "idx": {"type": "slice", "value": [0, 3 if t else 2, None]},                  # differs
          "reduction": {"type": "str", "value": "sum" if t else "mean"},                # differs
          "group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": 7},
          "dst": {"type": "int", "value": 0},
          "count": {"type": "int", "value": 3}}
    if t:
        kw["extra"] = {"type": "int", "value": 7}                                        # target only
    return kw


def rowless_calls(a, side):
    """--rowless: forward index -> (entry, body of records) of a call with
    no tensor, written after that forward call."""
    if not a.rowless:
        return {}
    t = side == "target"
    return {1: ("Torch.sym_max.0.forward", collections.OrderedDict([
                ("input_args", [{"type": "int", "value": 3},
                                {"type": "int", "value": 6 if t else 5}]),        # differs
                ("input_kwargs", {}),
                ("output", [{"type": "int", "value": 6 if t else 5}])])),        # differs
            5: ("Distributed.barrier.0.forward", collections.OrderedDict([
                ("input_args", []),
                ("input_kwargs", collections.OrderedDict([
                    ("group", {"type": "torch.ProcessGroup", "group_ranks": [0, 1],
                               "group_id": 7}),
                    ("async_op", {"type": "bool", "value": False})])),
                ("output", [None])]))}


# --lm-names: the layer (its name on the golden, on the target) around
# each forward call, by forward index (None: the top).
LM_LAYERS = {0: ("block1", "first"), 1: ("block1", "first"), 2: ("block2", "second"),
             3: ("block2", "second"), 4: None, 5: ("head", "tail")}


def lm_parent(side, fw, fi):
    """--lm-names: the construct.json parent of forward call fi."""
    lay = LM_LAYERS[fi]
    if lay is None:
        return None
    word = "Cell" if fw == "mindspore" else "Module"
    cls = "Head" if lay[0] == "head" else "Block"
    return "%s.%s.%s.forward.0" % (word, lay[0] if side == "golden" else lay[1], cls)


def lm_tanh_stack(side, fw):
    """--lm-names: the tanh's stack.json frames (innermost first): the
    wrapper, a framework function, the caller (msprobe's scope takes the
    framework function's name)."""
    mind = fw == "mindspore"
    lib = "/usr/lib/python3/site-packages/%s/ops/helpers.py" % ("mindspore" if mind else "torch")
    func = "helper" if side == "golden" else "ms_helper"
    return ["File /work/msprobe/hook/wrap.py, line 30, in __call__, \n return TorchOPTemplate(x)",
            "File %s, line 12, in %s, \n return tanh(x)" % (lib, func),
            "File /work/model.py, line 20, in %s, \n y = %s(x)" % (
                "construct" if mind else "forward", func)]


def write_side(a, out, side, rank, fw, calls, offset):
    """Writes one rank of one side; returns its truth (entries, leaves)."""
    data = collections.OrderedDict()
    entries, leaves, files = [], [], []
    seen = collections.Counter()
    fwd_names = []

    fixes = {}
    data_map = collections.OrderedDict()
    construct = collections.OrderedDict()

    def leaf(entry, label, v, rg, call, is_input, fix=None, nomap=None):
        name = entry + "." + label
        vals, shape = v
        rec = record(fw, vals, shape, rg, name, a.task, side, files, a.summary)
        if side == "target" and a.sum_dtype and entry.startswith("Tensor.sum.") and \
                label == "output.0":
            rec["dtype"] = a.sum_dtype      # what the target's sum says it returned
        leaves.append({"name": name, "entry": entry, "call": call + "." + label,
                       "dtype": rec["dtype"], "shape": shape, "is_input": is_input,
                       "requires_grad": rec.get("requires_grad"),
                       "stats": [rec.get(k) for k in ("Max", "Min", "Mean", "Norm")],
                       "md5": rec.get("md5"), "fix": fix or fixes.get(entry, "same"),
                       "values": vals})
        if fix:
            leaves[-1]["call_nomap"] = nomap
        return rec

    def arg(entry, label, rec, call, is_input):
        leaves.append({"name": entry + "." + label, "entry": entry, "call": call + "." + label,
                       "is_input": is_input, "arg": True, "record": rec,
                       "requires_grad": None, "fix": fixes.get(entry, "same")})
        return rec

    for fi, (api, ins, o) in enumerate(calls):
        n = seen[api]
        seen[api] += 1
        entry, fixes_entry = api_entry(a, side, api, n + offset, "forward")
        fixes[entry] = fixes_entry
        call = "fwd:%s#%d" % (api, n)
        dm = a.dm_names and side == "target" and (api, n) in (("tanh", 0), ("linear", 1))
        if dm and api == "tanh":
            entry = "NPU.npu_fast_tanh.%d.forward" % (n + offset)
        fwd_names.append((api, n, entry))
        if a.lm_names:
            construct[entry] = lm_parent(side, fw, fi)
            fixes[entry] = "layer" if api not in ("tanh", "sum") else "lm-none"
        args = []
        if dm:      # the leaves only the data map pairs (--dm-names)
            golden_entry = api_entry(a, "golden", api, n, "forward")[0]
            order = [1, 0, 2] if api == "linear" else [0]
            if api == "tanh":
                args.append(leaf(entry, "input.0", ([1.0] * len(ins[0][0]), ins[0][1]), True,
                                 call + ".mask", True, "none"))
            base = len(args)
            for k, i in enumerate(order):
                label = "input.%d" % (k + base)
                same = entry == golden_entry and label != "input.%d" % i
                args.append(leaf(entry, label, ins[i], True, call, True,
                                 "data" if same or entry != golden_entry else "same",
                                 (call + "." + label) if entry == golden_entry else None))
                leaves[-1]["call"] = call + ".input.%d" % i
                if leaves[-1]["fix"] == "data":
                    data_map[entry + "." + label] = golden_entry + ".input.%d" % i
            ins = []
        if a.am_names and side == "target" and api == "linear" and not dm:
            for k, i in enumerate([1, 0, 2]):   # weight first (--am-names)
                label = "input.%d" % k
                args.append(leaf(entry, label, ins[i], True, call, True,
                                 "api-file" if k != i else "same", call + "." + label))
                leaves[-1]["call"] = call + ".input.%d" % i
            ins = []
        for i, v in enumerate(ins):
            if v[1] == [] and api == "mul":
                args.append(arg(entry, "input.%d" % i, {"type": "float", "value": v[0][0]},
                                call, True))
            else:
                args.append(leaf(entry, "input.%d" % i, v, True, call, True))
        kwargs = collections.OrderedDict((k, arg(entry, "input." + k, r, call, True))
                                         for k, r in kwargs_of(a, api, n, side).items())
        if dm and api == "tanh":
            outs = [leaf(entry, "output.0", o, True, call, False, "data", None)]
            data_map[entry + ".output.0"] = golden_entry + ".output.0"
        else:
            outs = [leaf(entry, "output.0", o, True, call, False)]
        body = collections.OrderedDict([("input_args", args), ("input_kwargs", kwargs),
                                        ("output", outs)])
        data[entry] = body
        entries.append({"entry": entry, "call": call, "stack": frames(a, side, api, n)})
        if a.ms_names and fi in MODULES:
            gname, tname, fix = MODULES[fi]
            mod = (tname if side == "target" else gname) + ".forward.0"
            fixes[mod] = fix if side == "target" else "same"
            mcall = "mod:%s" % gname.split(".")[1]
            data[mod] = collections.OrderedDict([
                ("input_args", [leaf(mod, "input.0", ins[0], True, mcall, True)]),
                ("input_kwargs", {}), ("output", [leaf(mod, "output.0", o, True, mcall, False)])])
            entries.append({"entry": mod, "call": mcall, "stack": None})
        if fi in rowless_calls(a, side):
            rentry, rbody = rowless_calls(a, side)[fi]
            rcall = "fwd:%s" % rentry
            for key in ("input_args", "input_kwargs", "output"):
                items = rbody[key].items() if isinstance(rbody[key], dict) else \
                    enumerate(rbody[key])
                for k, rec in items:
                    arg(rentry, "%s.%s" % ("output" if key == "output" else "input", k), rec,
                        rcall, key != "output")
            data[rentry] = rbody
            entries.append({"entry": rentry, "call": rcall,
                            "stack": frames(a, side, rentry.split(".")[1], 90)})
    # backward: the second linear, relu, the first linear (execution order)
    rng = Rng(77 + rank)
    bw = [("linear", 1, [2, 2], [[2, 3], [2, 3], [2]]), ("relu", 0, [2, 3], [[2, 3]]),
          ("linear", 0, [2, 3], [[2, 4], [3, 4], [3]])]
    bseen = collections.Counter()
    if a.lm_names and side == "golden":
        bw = bw[::-1]       # its backward calls in another order: only scopes pair them
    for api, fcount, gshape, oshapes in bw:
        k = bseen[api]
        bseen[api] += 1
        # golden: own backward order; target: the forward call's count
        n = k if side == "golden" and not a.lm_names else fcount + (offset if side == "target" else 0)
        entry, fix = api_entry(a, side, api, n, "backward")
        fixes[entry] = "layer" if a.lm_names else fix
        if a.lm_names:
            construct[entry] = None
        call = "bwd:%s#%d" % (api, fcount)
        g = (rng.vals(int(math.prod(gshape)), -0.5, 0.5), gshape)
        outs = [(rng.vals(int(math.prod(s)), -0.5, 0.5), s) for s in oshapes]
        gin = [leaf(entry, "input.0", g, False, call, True)]
        order = list(range(len(outs)))
        if a.am_names and side == "target" and api == "linear":
            order = [1, 0, 2]       # the inputs' gradients as the forward lists them
        gouts = []
        for j, i in enumerate(order):
            label = "output.%d" % j
            if j != i:
                gouts.append(leaf(entry, label, outs[i], False, call, False, "api-file",
                                  call + "." + label))
                leaves[-1]["call"] = call + ".output.%d" % i
            else:
                gouts.append(leaf(entry, label, outs[i], False, call, False))
        body = collections.OrderedDict([
            ("input", gin), ("output", gouts)])
        data[entry] = body
        entries.append({"entry": entry, "call": call, "stack": frames(a, side, api, k + 50)})
    rdir = os.path.join(out, side, "step0", "rank%d" % rank)
    os.makedirs(rdir, exist_ok=True)
    top = collections.OrderedDict([("task", a.task), ("level", "L1"), ("framework", fw),
                                   ("dump_data_dir", None), ("data", data)])
    with open(os.path.join(rdir, "dump.json"), "w") as f:
        json.dump(top, f, indent=1)        # NaN as the bare token, as msprobe writes it
    if a.lm_names:
        for e in entries:
            if e["entry"].startswith("Torch.tanh.") and e["entry"].endswith(".forward"):
                e["stack"] = lm_tanh_stack(side, fw)
        with open(os.path.join(rdir, "construct.json"), "w") as f:
            json.dump(construct, f, indent=1)
        for l in leaves:
            if side == "target":
                l["call_lm"] = l["call"] if l["fix"] == "layer" else None
    if a.stack or a.lm_names:
        with open(os.path.join(rdir, "stack.json"), "w") as f:
            json.dump(collections.OrderedDict((e["entry"], e["stack"]) for e in entries
                                              if e["stack"] is not None), f, indent=1)
    if files:
        os.makedirs(os.path.join(rdir, "dump_tensor_data"), exist_ok=True)
        for fname, vals, shape in files:
            with open(os.path.join(rdir, "dump_tensor_data", fname), "wb") as f:
                f.write(npy(vals, shape))
    return {"side": side, "rank": rank, "host": "rank%d" % rank, "framework": fw,
            "entries": entries, "leaves": leaves, "data_mapping": data_map}


def csv_rows(truth, side):
    """The leaves and non-tensor arguments of one side of truth.json in
    msprobe's CSV order (ranks in order, each entry's inputs then its
    outputs, each in file order), each with its "host"."""
    out = []
    for u in truth["units"]:
        if u["side"] != side:
            continue
        for e in u["entries"]:
            ls = [dict(l, host=u["host"]) for l in u["leaves"] if l["entry"] == e["entry"]]
            out += [l for l in ls if l["is_input"]] + [l for l in ls if not l["is_input"]]
    return out


def truth_rows(truth, side):
    """The tensor leaves of one side of truth.json in tdbg's row order
    (csv_rows without the non-tensor arguments: they are not rows)."""
    return [l for l in csv_rows(truth, side) if not l.get("arg")]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--diverge", type=int, default=3)
    p.add_argument("--diverge-rank", type=int, default=1)
    p.add_argument("--nan", default="none", choices=["none", "golden", "target"])
    p.add_argument("--target-framework", default="pytorch", choices=["pytorch", "mindspore"])
    p.add_argument("--target-offset", type=int, default=0)
    p.add_argument("--task", default="statistics", choices=["statistics", "tensor"])
    p.add_argument("--sum-dtype", default=None,
                   help="the dtype the target's sum output is spelled with (torch.float16, torch.int64)")
    p.add_argument("--jitter", action="store_true",
                   help="the target's tanh outputs off by 0, 0.04%%, 0.3%%, 2%%")
    p.add_argument("--summary", default="statistics", choices=["statistics", "md5", "xor"])
    p.add_argument("--stack", action="store_true")
    p.add_argument("--args", action="store_true",
                   help="non-tensor keyword arguments of every kind (kwargs_of)")
    p.add_argument("--rowless", action="store_true",
                   help="two calls without a tensor, their arguments their only rows")
    p.add_argument("--lm-names", action="store_true",
                   help="layers named differently on each side, construct.json and stack.json "
                        "(msprobe's -lm)")
    p.add_argument("--ms-names", action="store_true",
                   help="modules on both sides; the target spells APIs and cells as MindSpore")
    p.add_argument("--dm-names", action="store_true",
                   help="the target names a tanh's and a linear's leaves as only -dm pairs them")
    p.add_argument("--am-names", action="store_true",
                   help="the target lists the linears' weight before the operand (forward "
                        "inputs, backward outputs): -am with a file renumbers them")
    p.add_argument("--late", type=int, default=None,
                   help="rank 0 diverges too, later, at this forward index")
    a = p.parse_args()
    units = []
    for r in range(a.ranks):
        hit = r == a.diverge_rank
        g = program(r, None, a.diverge if hit and a.nan == "golden" else None)
        scale = a.diverge if hit and a.nan == "none" else None
        if r == 0 and a.late is not None and not hit:
            scale = a.late
        t = program(r, scale, a.diverge if hit and a.nan == "target" else None, a.jitter)
        units.append(write_side(a, a.out, "golden", r, "pytorch", g, 0))
        units.append(write_side(a, a.out, "target", r, a.target_framework, t, a.target_offset))
    truth = {"args": vars(a), "units": units,
             "data_mapping": units[1]["data_mapping"] if a.ranks else {},
             "first": {"rank": a.diverge_rank, "call": "fwd:%s#%d" % (
                 FORWARD[a.diverge].rstrip("01"), 1 if FORWARD[a.diverge] == "linear1" else 0)}}
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
