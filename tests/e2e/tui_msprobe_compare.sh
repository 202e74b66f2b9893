#!/bin/bash
# tui_msprobe_compare.sh - the diff layout on two msprobe runs (issue 27
# item 5): `tdbg GOLDEN TARGET` lists the pairs in the trace table, the
# Alerts pane leads with the first divergence, Enter on it selects that
# pair, Enter on the pair shows both tensors side by side.
#
# The runs come from tests/gen/gen_msprobe_pair.py: two ranks, the target
# parting from the golden at the second linear on rank 1 (op diverged);
# the row numbers are computed from its truth.json.
. "$(dirname "$0")/lib.sh"

D=$WORK/pair
"$PYNUM" "$TOP/tests/gen/gen_msprobe_pair.py" "$D" --ranks 2 --diverge 3 --diverge-rank 1 ||
	die "generator failed"
read -r npairs first < <("$PYNUM" - "$D" <<'PY'
import json, sys
T = json.load(open(sys.argv[1] + "/truth.json"))
G = []
for u in T["units"]:
    if u["side"] != "golden":
        continue
    for e in u["entries"]:
        # tensor leaves only: non-tensor arguments ("arg") are not rows
        ls = [dict(l, host=u["host"]) for l in u["leaves"]
              if l["entry"] == e["entry"] and not l.get("arg")]
        G += [l for l in ls if l["is_input"]] + [l for l in ls if not l["is_input"]]
f = next(i for i, l in enumerate(G) if l["host"] == "rank%d" % T["first"]["rank"]
         and l["call"].startswith(T["first"]["call"] + ".output"))
print(len(G), f)
PY
)
[ -n "$first" ] || die "no first divergence in truth.json"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$D/golden" "$D/target"
tui_expect title_counts_pairs "diff: $npairs pairs, only A 0, only B 0"
tui_expect alerts_lead_with_first_divergence "First divergence: A $first"
tui_keys 1 Enter
tui_expect enter_selects_first_pair "$((first + 1))/$npairs"
tui_keys Enter
tui_expect pair_view_opens "A trace $first, B trace $first, Functional.linear.1.forward"
tui_keys q
tui_wait_gone "A trace $first, B trace" && ok pair_view_closes
tui_keys q
tui_expect_exit 0 quit
