#!/usr/bin/env python3
"""npy_stats.py - the truth of a MindSpore dump's .npy files, without tdbg
or numpy: reads every tensor file under DIR (format: the .npy spec, v1-3,
little-endian numeric dtypes) and prints one JSON object mapping
"OPNAME|io|slot|iteration" (op name with '/' as the file name writes it:
'_') to its statistics over the finite elements: elements, zero, nan,
neg_inf, pos_inf, abs_mean, std (population), l2norm, mean, min, max, and
whether the dtype is a floating-point one ("float").
Constants (the "constants" folder) get iteration "constants".

Used by tests/e2e/batch_stats.sh (issue 22.4)."""
import ast, json, math, os, struct, sys

CODES = {"f2": "e", "f4": "f", "f8": "d", "i1": "b", "i2": "h", "i4": "i", "i8": "q",
         "u1": "B", "u2": "H", "u4": "I", "u8": "Q", "b1": "?"}


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin-1"))
    descr = header["descr"]
    assert descr[0] in "<|", descr
    code = CODES[descr[1:]]
    n = 1
    for d in header["shape"]:
        n *= d
    body = data[start + hlen:]
    return ([float(v) for v in struct.unpack("<%d%s" % (n, code), body[:n * struct.calcsize(code)])],
            descr[1] == "f")


def stats(read):
    vals, is_float = read
    fin = [v for v in vals if math.isfinite(v)]
    s = {"float": is_float, "elements": len(vals), "zero": sum(1 for v in fin if v == 0),
         "nan": sum(1 for v in vals if math.isnan(v)),
         "neg_inf": sum(1 for v in vals if v == -math.inf),
         "pos_inf": sum(1 for v in vals if v == math.inf)}
    if fin:
        mean = math.fsum(fin) / len(fin)
        s.update(abs_mean=math.fsum(abs(v) for v in fin) / len(fin),
                 std=math.sqrt(math.fsum((v - mean) ** 2 for v in fin) / len(fin)),
                 l2norm=math.sqrt(math.fsum(v * v for v in fin)),
                 mean=mean, min=min(fin), max=max(fin))
    return s


def main():
    out = {}
    for root, _, files in os.walk(sys.argv[1]):
        it = os.path.basename(root)
        for name in files:
            if not name.endswith(".npy"):
                continue
            # TYPE.NAME.TASK.STREAM.TS.(input|output).SLOT.FORMAT.npy
            parts = name[:-4].split(".")
            op, io, slot = parts[1], parts[-3], parts[-2]
            key = "%s|%s|%s|%s" % (op, io, slot, it)
            assert key not in out, key
            out[key] = stats(read_npy(os.path.join(root, name)))
    json.dump(out, sys.stdout)


main()
