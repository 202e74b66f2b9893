"""msprobe_arg_rules.py - what msprobe's compare writes for a non-tensor
argument's row, computed the way msprobe does it in Python (type(),
str(), numpy's shape of the value, zlib's CRC-32), for the e2e checks of
tdbg's diff --csv (tests/e2e/batch_msprobe_compare.sh).  The leaf is one
of gen_msprobe_pair.py's truth leaves with "arg": true.

cells(leaf) -> (dtype, shape, stat, md5, number): the Dtype and Shape cells
(None: msprobe has none, and such a row pairs with nothing), the text of the
four statistics cells, the md5-mode checksum, and the value as a float when
msprobe reads it as a number (else None).

stat_pair(n, b) -> (diff, rel): the "X diff" and "XRelativeErr" cells of a
paired argument (the same for the four statistics).
"""
import math
import re
import zlib

import numpy as np


def _crc(s):
    return "%08x" % (zlib.crc32(s.encode()) & 0xffffffff)


def cells(leaf):
    rec = leaf["record"]
    if rec is None:                                      # a bare null
        return None, None, "None", None, None
    t = rec["type"]
    last = leaf["name"].split(".")[-1]
    if t == "torch.Size":
        return t, str(rec["value"]), "None", _crc(str(rec["value"])), None
    if t == "slice":
        return t, str(np.shape(np.array(rec["value"]))), "None", _crc(str(rec["value"])), None
    if last in ("src", "dst", "group_src", "group_dst"):
        v = str(rec["value"])
        return t, "[]", v, v, float(v)
    if t == "torch.ProcessGroup":
        v = str(rec.get("group_ranks"))
        return t, "[]", v, v, None
    v = rec.get("value")
    num = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    return str(type(v)), "[]", str(v), _crc(str(v)), num


def _cls(s):
    low = s.lower()
    if low in ("nan", "inf", "-inf"):
        return low
    if low not in ("true", "false"):
        try:
            float(s)
            return "num"
        except ValueError:
            pass
    if re.search("npu|cpu|cuda", s, re.I):
        return "device"
    return "na" if s == "N/A" else "other"


def stat_pair(n, b):
    if n == b:
        return "0", "0"
    x, y = _cls(n), _cls(b)
    if x == "num" and y == "num":
        d = float(n) - float(b)
        return repr(d), ("inf" if float(b) == 0 else repr(abs(d / float(b) * 100)) + "%")
    if "na" in (x, y) or (x == "device" and y == "device"):
        w = "N/A"
    elif "device" in (x, y) or "other" in (x, y):
        w = "Diff"
    elif "nan" in (x, y):
        w = "Nan"
    elif x == "inf" or y == "-inf":
        w = "inf"
    else:
        w = "-inf"
    return w, w


def raw(leaf):
    """The NPU/Bench max..l2norm cell of an argument: str() of the value,
    a float as repr() with tdbg's " inf" for infinities (as its tensor
    cells)."""
    rec = leaf["record"]
    v = rec.get("value") if rec else None
    if isinstance(v, float) and rec["type"] == "float":
        return (" inf" if v > 0 else " -inf") if math.isinf(v) else repr(v)
    return cells(leaf)[2]
