"""bench_cache.py - the persistent index in `make bench` (issue 18).

bench.py calls measure() once per dump size, after its own (cold)
measurements, which run with --no-cache.  Here tdbg runs with a private
XDG_CACHE_HOME (tests/bench/cache/xdg, emptied first):

  save            the first open: full index, then the cache file written
                  (batch `info`); the file's size is reported too;
  <cmd> warm      batch info, alerts, first-nonfinite, origins and the regex
                  filter opening the dump again (unchanged: the index comes
                  from the cache), median of RUNS;
  <cmd> cold      the same with --no-cache (bench.py's figures where it has
                  them; origins is measured here);
  TUI first rows  the TUI from the cache: fork to the first trace row drawn.

table() renders the results as one Markdown table per size.
"""
import os
import shutil
import statistics

import ptydrive

REGEX = "dense_[0-9]+/MatMul"
CMDS = [
    ("info", ["-e", "info"]),
    ("alerts", ["-e", "alerts"]),
    ("first-nonfinite", ["-e", "first-nonfinite"]),
    ("origins", ["-e", "origins"]),
    ("filter", ["-e", "traces -5: --op '%s'" % REGEX]),
]


def xdg_dir(cache):
    return os.path.join(cache, "xdg")


def measure(timed, tdbg, d, runs, res, cache, row_marker):
    """Fills res["cache"] (a dict) for dump d."""
    xdg = xdg_dir(cache)
    shutil.rmtree(xdg, ignore_errors=True)
    os.makedirs(xdg)
    os.environ["XDG_CACHE_HOME"] = xdg
    out = {}
    t = timed([tdbg, "--json", "-e", "info", d])
    out["save"], out["save.cpu"] = t[0], t[3]
    files = [os.path.join(r, f) for r, _, fs in os.walk(xdg) for f in fs if f.endswith(".tdx")]
    out["bytes"] = sum(os.path.getsize(f) for f in files)
    for name, extra in CMDS:
        vals = [timed([tdbg, "--json"] + extra + [d]) for _ in range(runs)]
        out[name + ".warm"] = statistics.median(v[0] for v in vals)
        out[name + ".warm.cpu"] = statistics.median(v[3] for v in vals)
        out[name + ".warm.rss"] = max(v[1] for v in vals)
        if name in res:
            out[name + ".cold"], out[name + ".cold.cpu"] = res[name], res.get(name + ".cpu")
        else:
            vals = [timed([tdbg, "--no-cache", "--json"] + extra + [d]) for _ in range(max(1, runs // 2))]
            out[name + ".cold"] = statistics.median(v[0] for v in vals)
            out[name + ".cold.cpu"] = statistics.median(v[3] for v in vals)
    rows = []
    for _ in range(runs):
        s = ptydrive.Session([tdbg, d])
        t = s.wait_text(row_marker, timeout=60)
        if t is not None:
            rows.append(t)
        s.close()
    out["tui rows.warm"] = statistics.median(rows) if rows else None
    out["tui rows.cold"] = res.get("first rows")
    res["cache"] = out


def _ms(v, cpu=None):
    if v is None:
        return "n/a"
    return "%.1f ms" % (v * 1e3) + ("" if cpu is None else " (cpu %.1f)" % (cpu * 1e3))


def table(r):
    c = r.get("cache")
    if not c:
        return ""
    out = ["#### Opening it again: the persistent index (%s traces; cache file %.1f MB, "
           "first open with the save %s)" % ("{:,}".format(r["n"]), c["bytes"] / 1e6,
                                             _ms(c["save"], c["save.cpu"])), "",
           "| batch command | cold (--no-cache) | warm (from the cache) | cold / warm | target | result |",
           "|---|---|---|---|---|---|"]
    for name, _ in CMDS + [("tui rows", None)]:
        cold, warm = c.get(name + ".cold"), c.get(name + ".warm")
        ratio = "%.0fx" % (cold / warm) if cold and warm else "n/a"
        ok = "n/a" if warm is None else ("ok" if warm < 0.1 else "**MISSED**")
        label = "TUI: first trace row drawn" if name == "tui rows" else name
        out.append("| %s | %s | %s | %s | < 100 ms | %s |" % (
            label, _ms(cold, c.get(name + ".cold.cpu")), _ms(warm, c.get(name + ".warm.cpu")),
            ratio, ok))
    return "\n".join(out)
