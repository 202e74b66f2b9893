#!/usr/bin/env bash
# batch_commands.sh - the cross-format commands (compare, rank, source with
# --source-root, info extras) on the tfdbg1 and MindSpore fixtures.
#
# Facts from tests/fixtures/tfdbg1/README.md: three runs (Session.run calls);
# in run 2 cross_entropy/Log:0 holds 9 -inf, the earlier runs are finite
# (their losses are 2.50253 and 2.18158).
# Facts from tests/fixtures/mindspore/README.md: one rank (rank_0), two
# iterations (0, 1); in iteration 1 output 0 of
# Default/.../fc3-Dense/MatMul-op10 holds 2 NaN and 1 -inf; its source is
# /home/user/lenet/train_lenet.py line 26, `x = self.fc1(x)`, and
# train_lenet.py sits next to the dump.
. "$(dirname "$0")/lib.sh"

jx()
{
	json_expect "$1" "($2)" "${3:-$OUT}"
}

doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

# ---- tfdbg1: compare one op across runs ----------------------------------------
V1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e info -e 'compare cross_entropy/Log' -e 'compare cross_entropy/Log --iterations 0,1' \
	-e 'compare no/such/op' "$V1"
expect_rc 1 v1_compare_unknown_op_fails
jx v1_info_runs 'd["format"] == "tfdbg1" and d["runs"] == 3 and d["executions"] == 3' "$(doc 1)"
jx v1_compare_all_runs 'sorted({r["execution"] for r in d["rows"]}) == [0, 1, 2]
	and all(r["summary"]["neg_inf"] in (0, None) for r in d["rows"] if r["execution"] < 2)
	and any(r["summary"]["neg_inf"] == 9 for r in d["rows"] if r["execution"] == 2)' "$(doc 2)"
jx v1_compare_iterations_filter 'len(d["rows"]) >= 2
	and {r["execution"] for r in d["rows"]} == {0, 1}
	and not any(r["nonfinite"] for r in d["rows"])' "$(doc 3)"
jx v1_compare_unknown_error 'd["error"].startswith("compare: no trace rows")' "$(doc 4)"

# ---- MindSpore: ranks, iterations, source root -----------------------------------
M=$FIXTURES/mindspore/sync_lenet
OP=Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10
tdbg_run --json -e info -e 'rank 0' -e "compare $OP --iterations 1" -e 'traces --nonfinite 0:1' \
	-e 'rank all' -e 'rank 7' "$M"
expect_rc 1 ms_bad_rank_exit_1
jx ms_info_ranks 'd["format"] == "mindspore-sync" and d["hosts"] == ["rank_0"]
	and d["ranks"] == 1 and d["iterations"] == 2' "$(doc 1)"
jx ms_rank_0 'd["host"] == "rank_0"' "$(doc 2)"
jx ms_compare_iteration_1 'all(r["iteration"] == 1 and r["host"] == "rank_0" for r in d["rows"])
	and any(not r["is_input"] and r["output_slot"] == 0 and r["summary"]["nan"] == 2
	and r["summary"]["neg_inf"] == 1 for r in d["rows"])' "$(doc 3)"
jx ms_rank_restricts_traces 'd["rows"][0]["host"] == "rank_0"' "$(doc 4)"
jx ms_rank_all_clears 'd["host"] is None' "$(doc 5)"
jx ms_rank_7_error '"rank 7" in d["error"] or "\"7\"" in d["error"]' "$(doc 6)"

# two ranks (the fixture's rank copied): iteration 1 is execution row 2 on
# rank_0 and row 3 on rank_1; compare numbers rows by iteration, not by row
mkdir -p "$WORK/ms2"
cp -r "$M/rank_0" "$WORK/ms2/rank_0"
cp -r "$M/rank_0" "$WORK/ms2/rank_1"
tdbg_run --json -e "compare $OP" -e "compare $OP --iterations 1" "$WORK/ms2"
expect_rc 0 ms2_compare_exit_0
jx ms2_compare_iterations 'sorted({(r["iteration"], r["host"]) for r in d["rows"]}) ==
	[(0, "rank_0"), (0, "rank_1"), (1, "rank_0"), (1, "rank_1")]' "$(doc 1)"
jx ms2_compare_iteration_1_both_ranks 'sorted({(r["execution"], r["host"]) for r in d["rows"]}) ==
	[(2, "rank_0"), (3, "rank_1")] and all(r["iteration"] == 1 for r in d["rows"])' "$(doc 2)"

tdbg_run --json --source-root "$FIXTURES/mindspore" -e 'source /home/user/lenet/train_lenet.py 26' "$M"
expect_rc 0 ms_source_exit_0
jx ms_source_line_26 'd["line"] == 26 and "self.fc1(x)" in d["text"]'

[ "$E2E_FAILS" -eq 0 ]
