#!/usr/bin/env python3
"""ms_edit.py SRC DST OPNAME ITER MODE VALUES... - copies the MindSpore
sync dump SRC to DST (DST may be SRC's copy already: then it edits in
place) with OPNAME's output 0 in iteration ITER changed, and its
statistic.csv row recomputed to match:
  MODE "finite": the non-finite elements replaced, in order, by VALUES;
  MODE "set": the tensor becomes VALUES followed by zeros.
Prints one JSON line of facts: {"file", "elements", "positions": [flat
indices changed], "was": [their old values as repr]}.
Plain Python (no numpy): float32 .npy, little-endian, version 1.

Used by tests/e2e/batch_stats.sh (issue 22.5)."""
import ast, csv, io, json, math, os, shutil, struct, sys

src, dst, opname, it, mode = sys.argv[1:6]
repl = [float(v) for v in sys.argv[6:]]
if not os.path.exists(dst):
    shutil.copytree(src, dst)
fname = opname.replace("/", "_")
found = None
for root, _, files in os.walk(dst):
    if os.path.basename(root) != it:
        continue
    for name in files:
        p = name[:-4].split(".")
        if name.endswith(".npy") and p[1] == fname and p[-3] == "output" and p[-2] == "0":
            found = (root, name)
root, name = found
path = os.path.join(root, name)
data = bytearray(open(path, "rb").read())
assert data[:6] == b"\x93NUMPY" and data[6] == 1
hlen = struct.unpack("<H", bytes(data[8:10]))[0]
header = ast.literal_eval(data[10:10 + hlen].decode("latin-1"))
assert header["descr"] == "<f4", header
n = 1
for d in header["shape"]:
    n *= d
off = 10 + hlen
vals = list(struct.unpack("<%df" % n, bytes(data[off:off + 4 * n])))
if mode == "finite":
    pos = [i for i, v in enumerate(vals) if not math.isfinite(v)]
    assert len(pos) == len(repl), (pos, repl)
else:
    assert mode == "set" and len(repl) <= n, mode
    repl = repl + [0.0] * (n - len(repl))
    pos = list(range(n))
was = [vals[i] for i in pos]
for i, v in zip(pos, repl):
    vals[i] = struct.unpack("<f", struct.pack("<f", v))[0]
data[off:off + 4 * n] = struct.pack("<%df" % n, *vals)
open(path, "wb").write(bytes(data))

# statistic.csv: the row of this file (op name, io, slot, timestamp)
ts = name.split(".")[4]
stat = os.path.join(root, "statistic.csv")
rows = list(csv.reader(open(stat, newline="")))
head = rows[0]
col = {h: i for i, h in enumerate(head)}
for r in rows[1:]:
    if r[col["Op Name"]] == fname and r[col["IO"]] == "output" and r[col["Slot"]] == "0" and \
            r[col["Timestamp"]] == ts:
        fin = [v for v in vals if math.isfinite(v)]
        r[col["Max Value"]] = repr(max(fin))
        r[col["Min Value"]] = repr(min(fin))
        r[col["Avg Value"]] = repr(math.fsum(fin) / len(fin))
        r[col["NaN Count"]] = str(sum(1 for v in vals if math.isnan(v)))
        r[col["Negative Inf Count"]] = str(sum(1 for v in vals if v == -math.inf))
        r[col["Positive Inf Count"]] = str(sum(1 for v in vals if v == math.inf))
        # FORMAT.md §7: these two count < 0 and > 0, infinities included
        r[col["Negative Zero Count"]] = str(sum(1 for v in vals if v < 0))
        r[col["Positive Zero Count"]] = str(sum(1 for v in vals if v > 0))
        r[col["Zero Count"]] = str(sum(1 for v in fin if v == 0))
        break
else:
    raise SystemExit("no statistic.csv row for " + name)
buf = io.StringIO()
csv.writer(buf, lineterminator="\n").writerows(rows)
open(stat, "w").write(buf.getvalue())
print(json.dumps({"file": path, "elements": n, "positions": pos,
                  "was": [repr(v) for v in was]}))
