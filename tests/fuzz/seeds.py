#!/usr/bin/env python3
"""seeds.py OUT - seed corpora for the fuzz targets, from tests/fixtures.

Writes OUT/<target>/<name> files (build output, not committed):
  fuzz_tfrecord        the first 64 KiB of each tfdbg v2 file (whole small ones)
  fuzz_tfdbg2_event    records of the tfdbg v2 fixtures in the target's input
                       format (role byte, 3-byte length, payload): one seed per
                       record kind and a small mixed file set per dump
  fuzz_tfdbg2_follow   the robust/clean fixture grown, then rewritten, replaced, truncated
  fuzz_tfdbg1_event    tfdbg v1 dump, graph and metadata files
  fuzz_npy             MindSpore .npy files
  fuzz_jscan           msprobe dump.json, stack.json, construct.json
  fuzz_csv             statistic.csv / mapping.csv files
  fuzz_ms_proto        MindSpore graph .pb and .ir files
  fuzz_ms_pb_nest      nesting programs: depths 0..6000 of a TypeProto chain
                       under ModelProto graph/node/output_type, around the
                       fixtures' .pb files and a small type
  fuzz_ms_ir_refs      .ir-writing programs (see the target): a few shapes
  fuzz_ms_stat_stream  a line-cap byte, then each statistic.csv
  fuzz_cache           cache files ./tdbg writes for the tfdbg v2 fixtures
  fuzz_pt              tests/fixtures/pt archives (0 byte first) and their
                       data.pkl pickles (1 byte first)
Large inputs are cut at 256 KiB (libFuzzer's -max_len in run.sh).
"""
import os
import struct
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(TOP, "tests", "fixtures")
ROLES = ["metadata", "source_files", "stack_frames", "graphs", "execution",
         "graph_execution_traces"]
CUT = 256 << 10


def files(sub, pred):
    root = os.path.join(FIX, sub)
    for dp, _, fs in os.walk(root):
        for f in sorted(fs):
            if pred(f):
                yield os.path.join(dp, f)


def nest_seed(depth, payload):
    # two bytes of depth, k = 5, fields 4 1 6 3 1 (stored as number - 1)
    return struct.pack("<HB", depth, 4) + bytes([3, 0, 5, 2, 0]) + payload


def ms_extra(out):
    """Seeds of the targets that read programs, not files."""
    small_type = bytes([0x08, 0x01])    # TypeProto.data_type = 1
    for depth in (0, 3, 50, 99, 100, 101, 5000):
        put(out, "fuzz_ms_pb_nest", "type_depth_%d" % depth, nest_seed(depth, small_type))
    for p in files("mindspore", lambda f: f.endswith(".pb")):
        data = open(p, "rb").read()
        put(out, "fuzz_ms_pb_nest", os.path.relpath(p, FIX), bytes([0, 0, 0, 0]) + data)
    put(out, "fuzz_ms_ir_refs", "chain", bytes([3]) + bytes([0, 1, 0, 0] * 40))
    put(out, "fuzz_ms_ir_refs", "misses", bytes([2]) + bytes([1, 7] + [1, 9] * 7) * 60)
    put(out, "fuzz_ms_ir_refs", "mixed", bytes(range(256)))
    for p in files("mindspore", lambda f: f == "statistic.csv"):
        data = open(p, "rb").read()
        for cap in (0, 40, 255):
            put(out, "fuzz_ms_stat_stream", "cap%d_%s" % (cap, os.path.relpath(p, FIX)),
                bytes([cap]) + data)


def put(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name.replace("/", "_")), "wb") as fp:
        fp.write(data[:CUT])


def records(path, limit):
    data = open(path, "rb").read()
    off, out = 0, []
    while off + 12 <= len(data) and len(out) < limit:
        (n,) = struct.unpack_from("<Q", data, off)
        if off + 16 + n > len(data):
            break
        out.append(data[off + 12:off + 12 + n])
        off += 16 + n
    return out


def chunk(role, payload):
    return bytes([role]) + struct.pack("<I", len(payload))[:3] + payload


def tfdbg2(out):
    per_role = {"metadata": 1, "source_files": 1, "stack_frames": 8, "graphs": 24,
                "execution": 4, "graph_execution_traces": 12}
    for path in files("tfdbg2", lambda f: f.startswith("tfdbg_events.")):
        rel = os.path.relpath(path, FIX)
        put(out, "fuzz_tfrecord", rel, open(path, "rb").read()[:64 << 10])
    dumps = sorted({os.path.dirname(p) for p in files("tfdbg2", lambda f: f.endswith(".metadata"))})
    for d in dumps:
        name = os.path.relpath(d, FIX)
        mixed = b""
        for i, role in enumerate(ROLES):
            fs = [f for f in os.listdir(d) if f.endswith("." + role)]
            if not fs:
                continue
            recs = records(os.path.join(d, fs[0]), per_role[role])
            recs = [r for r in recs if len(r) < 64 << 10]
            for k, r in enumerate(recs[:3]):
                put(out, "fuzz_tfdbg2_event", "%s_%s_%d" % (name, role, k), chunk(i, r))
            mixed += b"".join(chunk(i, r) for r in recs)
        put(out, "fuzz_tfdbg2_event", name + "_mixed", mixed)


def step(action, role, payload):
    return bytes([action, role]) + struct.pack("<I", len(payload))[:3] + payload


def follow(out):
    """fuzz_tfdbg2_follow: the clean fixture's traces and executions
    appended, then the traces file rewritten, replaced, truncated."""
    d = os.path.join(FIX, "robust", "clean")
    fs = {role: os.path.join(d, f) for f in os.listdir(d) for role in ROLES
          if f.endswith("." + role)}
    tr = records(fs["graph_execution_traces"], 12)
    ex = records(fs["execution"], 3)
    gr = records(fs["graphs"], 8)
    grow = b"".join(step(0, 3, r) for r in gr) + b"".join(step(0, 5, r) for r in tr[:6]) + \
        b"".join(step(0, 4, r) for r in ex)
    put(out, "fuzz_tfdbg2_follow", "grow", grow)
    for action, name in ((2, "truncate"), (3, "replace"), (4, "rewrite")):
        payload = bytes(100) if action == 2 else tr[7]
        put(out, "fuzz_tfdbg2_follow", name, grow + step(action, 5, payload) +
            b"".join(step(0, 5, r) for r in tr[8:]))
    put(out, "fuzz_tfdbg2_follow", "torn", grow + step(1, 5, tr[6][:20]) + step(1, 5, tr[6][20:]))
def cache(out):
    """Cache files the built tdbg (./tdbg) writes for the tfdbg v2 fixtures,
    opened by the relative paths fuzz_cache uses (run from the top)."""
    import glob, shutil, subprocess, tempfile
    if not os.access("tdbg", os.X_OK):
        print("seeds: no ./tdbg (run make first): no fuzz_cache seeds", file=sys.stderr)
        return
    for d in sorted(glob.glob("tests/fixtures/tfdbg2/*/") + glob.glob("tests/fixtures/tfdbg2/modes/*/") +
                    glob.glob("tests/fixtures/robust/*/")):
        d = d.rstrip("/")
        if not glob.glob(d + "/tfdbg_events.*.metadata"):
            continue
        tmp = tempfile.mkdtemp()
        env = dict(os.environ, XDG_CACHE_HOME=tmp)
        subprocess.run(["./tdbg", "-e", "info", d], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        for f in glob.glob(tmp + "/tdbg/*.tdx"):
            put(out, "fuzz_cache", d.replace("/", "_"), open(f, "rb").read())
        shutil.rmtree(tmp)


def pt(out):
    import zipfile
    for p in files("pt", lambda f: f.endswith(".pt")):
        data = open(p, "rb").read()
        put(out, "fuzz_pt", os.path.relpath(p, FIX), b"\0" + data)
        try:
            z = zipfile.ZipFile(p)
            pkl = [n for n in z.namelist() if n.endswith("/data.pkl")][0]
            put(out, "fuzz_pt", os.path.relpath(p, FIX) + ".pkl", b"\1" + z.read(pkl))
        except Exception:
            pass


def main():
    out = sys.argv[1]
    tfdbg2(out)
    follow(out)
    cache(out)
    for p in files("tfdbg1", lambda f: True):
        if os.path.getsize(p) <= CUT and not p.endswith((".md", ".py")):
            put(out, "fuzz_tfdbg1_event", os.path.relpath(p, FIX), open(p, "rb").read())
    for p in files("mindspore", lambda f: f.endswith(".npy")):
        put(out, "fuzz_npy", os.path.relpath(p, FIX), open(p, "rb").read())
    for p in files("mindspore", lambda f: f.endswith(".csv")):
        put(out, "fuzz_csv", os.path.relpath(p, FIX), open(p, "rb").read())
    for p in files("mindspore", lambda f: f.endswith((".pb", ".ir"))):
        put(out, "fuzz_ms_proto", os.path.relpath(p, FIX), open(p, "rb").read())
    ms_extra(out)
    pt(out)
    for p in files("msprobe", lambda f: f.endswith(".json") and f != "facts.json"):
        if os.path.getsize(p) <= CUT:
            put(out, "fuzz_jscan", os.path.relpath(p, FIX), open(p, "rb").read())
    n = sum(len(fs) for _, _, fs in os.walk(out))
    print("seeds: %d file(s) in %s" % (n, out))


if __name__ == "__main__":
    main()
