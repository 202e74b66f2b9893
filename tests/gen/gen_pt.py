#!/usr/bin/env python3
"""gen_pt.py - writes .pt files the way torch.save does, without torch.

A torch.save archive (PyTorch >= 1.6) is a ZIP of stored entries under one
folder: data.pkl (a protocol-2 pickle calling
torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
requires_grad, OrderedDict()), the storage a persistent id
('storage', torch.<T>Storage, key, 'cpu', numel)), data/<key> (the raw
elements, 64-byte aligned through a padding extra field), byteorder and
version.  This module builds the same bytes with the standard library: the
torch globals are stand-in objects registered under torch's module names so
that Python's own pickler writes the GLOBAL opcodes, exactly as it does for
the real ones.  Nothing here shares code with tdbg's reader.

    python3 tests/gen/gen_pt.py OUTDIR      # the fixture set, plus facts.json

Library use: write_pt(path, values, shape, dtype, ...).
"""
import collections
import json
import os
import pickle
import struct
import sys
import types
import zipfile

# ---- stand-ins for the torch globals the pickle names ------------------

def _module(name):
    mod = sys.modules.get(name)
    if mod is None:
        mod = types.ModuleType(name)
        sys.modules[name] = mod
    return mod


def _global(modname, name, obj):
    obj.__module__ = modname
    obj.__qualname__ = name
    obj.__name__ = name
    setattr(_module(modname), name, obj)
    return obj


_torch = _module("torch")
_module("torch._utils")
_torch._utils = sys.modules["torch._utils"]
_module("torch.nn")

def _rebuild_tensor_v2(*a):          # never called: only its name is pickled
    raise RuntimeError("stand-in")

def _rebuild_parameter(*a):
    raise RuntimeError("stand-in")

_global("torch._utils", "_rebuild_tensor_v2", _rebuild_tensor_v2)
_global("torch._utils", "_rebuild_parameter", _rebuild_parameter)

STORAGE = {}
# dtype name -> (storage class name, struct code, element size)
DTYPES = {
    "float32": ("FloatStorage", "f", 4),
    "float64": ("DoubleStorage", "d", 8),
    "float16": ("HalfStorage", "e", 2),
    "bfloat16": ("BFloat16Storage", None, 2),
    "int64": ("LongStorage", "q", 8),
    "int32": ("IntStorage", "i", 4),
    "int16": ("ShortStorage", "h", 2),
    "int8": ("CharStorage", "b", 1),
    "uint8": ("ByteStorage", "B", 1),
    "bool": ("BoolStorage", "?", 1),
}
for _dt, (_cls, _c, _w) in DTYPES.items():
    STORAGE[_dt] = _global("torch", _cls, type(_cls, (), {}))


def _bf16(x, order):
    bits = struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    return struct.pack(order + "H", bits)


def encode(values, dtype, order="<"):
    cls, code, width = DTYPES[dtype]
    if dtype == "bfloat16":
        return b"".join(_bf16(v, order) for v in values)
    return b"".join(struct.pack(order + code, v) for v in values)


class _Storage:
    def __init__(self, dtype, key, numel):
        self.dtype, self.key, self.numel = dtype, key, numel


class _Tensor:
    def __init__(self, storage, offset, size, stride, requires_grad):
        self.args = (storage, offset, tuple(size), tuple(stride), requires_grad,
                     collections.OrderedDict())

    def __reduce__(self):
        return (_rebuild_tensor_v2, self.args)


class _Parameter:
    def __init__(self, tensor, requires_grad):
        self.tensor, self.requires_grad = tensor, requires_grad

    def __reduce__(self):
        return (_rebuild_parameter, (self.tensor, self.requires_grad, collections.OrderedDict()))


class _Evil:
    """A pickle that would run a command: the reader must refuse it."""
    def __reduce__(self):
        return (os.system, ("echo pwned",))


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            return ("storage", STORAGE[obj.dtype], obj.key, "cpu", obj.numel)
        return None


def c_strides(shape):
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return list(reversed(out))


def _aligned_info(zf, name):
    """A stored ZipInfo whose data starts on a 64-byte boundary (as
    PyTorch's writer pads its records)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    start = zf.fp.tell() + 30 + len(name.encode())
    pad = (-(start + 4)) % 64
    info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad
    return info


def write_pt(path, values, shape, dtype="float32", stride=None, storage_offset=0,
             storage_values=None, storage_numel=None, parameter=False,
             requires_grad=False, byteorder="little", prefix=None, compress=False,
             evil=False, key="0"):
    """Writes one tensor.  values are the storage's elements unless
    storage_values gives them (then values is unused); storage_numel may
    lie about the storage's size."""
    store = list(storage_values if storage_values is not None else values)
    numel = len(store) if storage_numel is None else storage_numel
    stor = _Storage(dtype, key, numel)
    obj = _Tensor(stor, storage_offset, shape, stride if stride is not None else c_strides(shape),
                  requires_grad)
    if parameter:
        obj = _Parameter(obj, requires_grad)
    if evil:
        obj = _Evil()
    import io
    buf = io.BytesIO()
    _Pickler(buf, protocol=2).dump(obj)
    order = ">" if byteorder == "big" else "<"
    if prefix is None:
        prefix = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(_aligned_info(zf, prefix + "/data.pkl"), buf.getvalue())
        zf.writestr(_aligned_info(zf, prefix + "/byteorder"), byteorder.encode())
        info = _aligned_info(zf, prefix + "/data/" + key)
        if compress:
            info = zipfile.ZipInfo(prefix + "/data/" + key)
            info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, encode(store, dtype, order))
        zf.writestr(_aligned_info(zf, prefix + "/version"), b"3\n")


# ---- the fixture set ------------------------------------------------------

def fixtures(outdir):
    """Writes the fixtures and returns their facts: per file the dtype,
    shape, requires_grad and the values in C order (or the error kind)."""
    os.makedirs(outdir, exist_ok=True)
    facts = {}

    def add(name, values_c, shape, dtype, **kw):
        write_pt(os.path.join(outdir, name), values_c if "storage_values" not in kw else None,
                 shape, dtype, **kw)
        facts[name] = {"dtype": dtype, "shape": shape, "values": values_c,
                       "requires_grad": kw.get("requires_grad", False)}

    six = [0.5 * i - 1.0 for i in range(6)]
    add("f32_2x3.pt", six, [2, 3], "float32")
    # a transposed view: storage is 2x3 row-major, the tensor its 3x2 transpose
    add("f32_transposed.pt", [six[0], six[3], six[1], six[4], six[2], six[5]], [3, 2], "float32",
        storage_values=six, stride=[1, 3])
    # a view starting inside its storage
    add("f32_offset.pt", [3.0, 4.0, 5.0], [3], "float32",
        storage_values=[1.0, 2.0, 3.0, 4.0, 5.0], storage_offset=2)
    add("f64.pt", [1e300, -2.5, float("inf"), float("nan")], [2, 2], "float64")
    add("f16.pt", [1.0, -0.5, 65504.0, float("-inf")], [4], "float16")
    add("bf16.pt", [1.0, -2.0, 0.5, 3.0e38], [2, 2], "bfloat16")
    add("i64.pt", [-(2 ** 40), 0, 7], [3], "int64")
    add("i32.pt", [1, -2, 3, -4], [2, 2], "int32")
    add("i8.pt", [-128, 127], [2], "int8")
    add("u8.pt", [0, 255, 3], [3], "uint8")
    add("bool.pt", [True, False, True], [3], "bool")
    add("scalar.pt", [42.0], [], "float32")
    add("empty.pt", [], [0, 4], "float32")
    add("param.pt", [0.25, 0.75], [2], "float32", parameter=True, requires_grad=True)
    add("big_endian.pt", [1.5, -3.0, 1e-3], [3], "float32", byteorder="big")

    bad = {}

    def add_bad(name, error, **kw):
        write_pt(os.path.join(outdir, name), kw.pop("values", [1.0, 2.0]), kw.pop("shape", [2]),
                 kw.pop("dtype", "float32"), **kw)
        bad[name] = error

    add_bad("bad_evil.pt", "unsupported", evil=True)
    add_bad("bad_storage_short.pt", "truncated", storage_numel=1000)
    add_bad("bad_view_past.pt", "corrupt", shape=[4])
    add_bad("bad_stride_past.pt", "corrupt", shape=[2, 2], values=[1.0, 2.0, 3.0, 4.0],
            stride=[3, 1])
    add_bad("bad_compressed.pt", "unsupported", compress=True)
    add_bad("bad_negative_size.pt", "corrupt", shape=[-1])
    with open(os.path.join(outdir, "facts.json"), "w") as f:
        json.dump({"tensors": facts, "errors": bad}, f, indent=1, sort_keys=True,
                  allow_nan=True)
        f.write("\n")
    return facts, bad


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_pt.py OUTDIR")
    fixtures(sys.argv[1])
