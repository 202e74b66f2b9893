#!/usr/bin/env python3
"""verify_dump.py - an independent check of gen_tfdbg2's output.

Reads a tfdbg v2 dump directory with nothing but the format notes
(reader/parse/FORMAT.md §2, reader/tfdbg2/FORMAT.md §1-§4, §6): TFRecord framing and
masked CRC32C, a generic protobuf wire walk, the DebugEvent fields.  Prints
the facts a reader must find (traces, executions, ops, first non-finite row,
bad records) as "key value" lines, so the generator's own --facts can be
compared with a second opinion.  It is slow (pure Python) and meant for small
dumps.  Not used by tdbg.

usage: verify_dump.py DIR
"""
import os
import struct
import sys

POLY = 0x82F63B78
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ (POLY if c & 1 else 0)
    TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ TABLE[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def mask(c):
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    """Yields (ok, payload); ok False for a bad record; stops at a torn tail."""
    data = open(path, "rb").read()
    off = 0
    while off < len(data):
        if len(data) - off < 12:
            yield "torn", None
            return
        n, lcrc = struct.unpack_from("<QI", data, off)
        if mask(crc32c(data[off:off + 8])) != lcrc:
            yield "bad-length-crc", None
            return
        if off + 12 + n + 4 > len(data):
            yield "torn" if n < 1 << 30 else "bad-length", None
            return
        payload = data[off + 12:off + 12 + n]
        (dcrc,) = struct.unpack_from("<I", data, off + 12 + n)
        off += 12 + n + 4
        if mask(crc32c(payload)) != dcrc:
            yield "bad-data-crc", None
            continue
        yield "ok", payload


def varint(buf, i):
    v = shift = 0
    while True:
        if i >= len(buf) or shift > 63:
            raise ValueError("bad varint")
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def fields(buf):
    """Generic wire walk: {field: [values]} (bytes for wt 2, ints, raw 8/4 bytes)."""
    out = {}
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v = buf[i:i + 8]
            i += 8
        elif wt == 2:
            n, i = varint(buf, i)
            if i + n > len(buf):
                raise ValueError("length past the end")
            v = buf[i:i + n]
            i += n
        elif wt == 5:
            v = buf[i:i + 4]
            i += 4
        else:
            raise ValueError("bad wire type %d" % wt)
        if f == 0:
            raise ValueError("field 0")
        out.setdefault(f, []).append(v)
    return out


def nonfinite(tp, mode):
    t = fields(tp)
    content = t.get(4, [b""])[0]
    if mode in (2, 3, 4):
        v = struct.unpack("<%dd" % (len(content) // 8), content)
        if mode == 2:
            return len(v) == 2 and v[1] != 0
        if mode == 3:
            return len(v) == 5 and any(v[2:5])
        return len(v) == 11 and any(v[5:8])
    if mode == 7 and t.get(1, [0])[0] == 1:
        v = struct.unpack("<%df" % (len(content) // 4), content)
        return any(x != x or x in (float("inf"), float("-inf")) for x in v)
    return False


def main():
    d = sys.argv[1]
    sets = sorted(f[:-len(".metadata")] for f in os.listdir(d) if f.endswith(".metadata"))
    facts = {"traces": 0, "executions": 0, "ops": 0, "bad_records": 0, "torn": 0,
             "nonfinite": 0, "first_nonfinite_row": -1, "hosts": len(sets)}
    row = 0
    for prefix in sets:
        for role, key in (("graphs", None), ("execution", "executions"),
                          ("graph_execution_traces", "traces")):
            path = os.path.join(d, prefix + "." + role)
            if not os.path.exists(path):
                continue
            for status, payload in records(path):
                if status == "torn":
                    facts["torn"] += 1
                    continue
                if status != "ok":
                    facts["bad_records"] += 1
                    continue
                try:
                    ev = fields(payload)
                    if role == "graphs":
                        facts["ops"] += 7 in ev
                        continue
                    inner = fields(ev[9 if role == "execution" else 10][0])
                    if role == "graph_execution_traces":
                        bad = nonfinite(inner[5][0], inner.get(4, [0])[0]) if 5 in inner else False
                except (ValueError, KeyError, struct.error):
                    facts["bad_records"] += 1
                    continue
                facts[key] += 1
                if role == "graph_execution_traces":
                    if bad:
                        facts["nonfinite"] += 1
                        if facts["first_nonfinite_row"] < 0:
                            facts["first_nonfinite_row"] = row
                    row += 1
    for k in sorted(facts):
        print(k, facts[k])


if __name__ == "__main__":
    main()
