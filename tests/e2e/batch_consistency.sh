#!/bin/bash
# batch_consistency.sh - issue 12 (friction, consistency): an unknown host
# is an error naming the hosts, as an unknown graph is (traces --host gave
# "0 of 680 rows match" and exit 0); a rank number picks the host whose
# name ends in it, as "rank N" does; compare finds an op by a unique suffix
# of its name, as op does.
# Facts (tests/fixtures/tfdbg2/README.md): one host, tfdbg-host-a; row 88
# is Log:0.  The op gradients/Log_grad/mul exists (its name in the graph).
. "$(dirname "$0")/lib.sh"

D=$FIXTURES/tfdbg2/mnist_nan
for c in 'traces --host nope' 'executions --host nope' 'origins --host nope'; do
	name=$(echo "$c" | cut -d' ' -f1)
	tdbg_run -e "$c" "$D"
	expect_rc 1 "${name}_unknown_host_exit_1"
	check "${name}_unknown_host_names_hosts" grep -qF 'no host or rank "nope" (the dump has 1: tfdbg-host-a)' "$ERR"
done
tdbg_run --json -e 'traces --host tfdbg-host-a 88:89' "$D"
expect_rc 0 known_host_rc
json_expect known_host_rows 'd["rows"][0]["index"] == 88'

# two MindSpore ranks: --host 1 is rank_1
mkdir -p "$WORK/two"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_0"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_1"
tdbg_run --json -e 'traces --host 1' "$WORK/two"
expect_rc 0 rank_number_rc
json_expect rank_number_picks_rank_1 'len(d["rows"]) > 0 and all(r["host"] == "rank_1" for r in d["rows"])'

# compare by suffix, as op
tdbg_run --json -e 'op Log_grad/mul' "$D"
expect_rc 0 op_by_suffix_rc
tdbg_run --json -e 'compare Log_grad/mul' "$D"
expect_rc 0 compare_by_suffix_rc
json_expect compare_by_suffix_rows 'len(d["rows"]) > 0'

# issue 12 (friction, several hosts): info after "rank N" counts that rank
# only; the two ranks hold the same tensors, so half of everything
tdbg_run --json -e info -e 'rank 1' -e info "$WORK/two"
expect_rc 0 rank_info_rc
python3 - "$OUT" <<'PY' && ok rank_info_counts_that_rank || fail rank_info_counts_that_rank "$(cat "$OUT")"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
a, b = docs[0], docs[2]
ok = (b["restricted_to_host"] == "rank_1" and 2 * b["graph_execution_traces"] == a["graph_execution_traces"]
      and 2 * b["executions"] == a["executions"] and 2 * b["alerts"] == a["alerts"] and b["alerts"] > 0)
sys.exit(0 if ok else 1)
PY
