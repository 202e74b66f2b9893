#!/bin/bash
# batch_hostile_small.sh - issue 23 item 20: a newline in a MindSpore
# tensor file's name cannot forge a line of `trace N`'s detail;
# operator_overflow(x=1) is refused like any condition's unknown
# parameter; --cos-min outside [0, 1] is refused; .ir input references
# %-1 and %99999999999999999999 are a problem.  Facts: the MindSpore
# sample's file names and its .ir's "%3(Conv2D-op1) = Conv2D(%2, %1)"
# line (tests/fixtures/mindspore); the conditions' table (README).
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/mindspore/sync_lenet" "$WORK/ms"
dir=$WORK/ms/rank_0/Lenet/0/0
f=$(cd "$dir" && ls OneHot*-op0.*.input.0.*.npy)
[ -n "$f" ] || die "no OneHot input file in the sample"
mv "$dir/$f" "$dir/${f/OneHot-op0/OneHot-op0
forged: line}"
tdbg_run --json -e 'traces --op forged' "$WORK/ms"
row=$(json_get '[r["index"] for r in d["rows"]][0]')
tdbg_run -e "trace $row" "$WORK/ms"
expect_rc 0 forged_trace_exit_0
if grep -q '^forged: line' "$OUT"; then
	fail newline_forges_no_line "$(grep -n '^forged' "$OUT")"
else
	ok newline_forges_no_line
fi
expect_file_has newline_shown_escaped "$OUT" 'OneHot-op0^Jforged: line.0.0.'

tdbg_run -e 'watch add x operator_overflow(x=1)' "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 operator_overflow_param_refused
expect_file_has operator_overflow_param_said "$ERR" "operator_overflow takes no parameters, not 'x'"
tdbg_run -e 'watch add x operator_overflow' "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 0 operator_overflow_plain_ok

for v in 2 1.0001 -0.5 nan; do
	tdbg_run --cos-min "$v" -e info "$FIXTURES/tfdbg2/mnist_nan" "$FIXTURES/tfdbg2/mnist_nan"
	if [ "$RC" != 0 ] && grep -q -- "--cos-min wants a number from 0 to 1" "$ERR"; then
		ok "cos_min_${v}_refused"
	else
		fail "cos_min_${v}_refused" "rc $RC: $(cat "$ERR")"
	fi
done
tdbg_run --cos-min 0.99 -e info "$FIXTURES/tfdbg2/mnist_nan" "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 0 cos_min_in_range_ok

cp -r "$FIXTURES/mindspore/sync_lenet" "$WORK/ms2"
ir=$WORK/ms2/rank_0/graphs/ms_output_trace_code_graph_0.ir
sed -i 's/= Conv2D(%2, %1)/= Conv2D(%-1, %99999999999999999999)/' "$ir"
grep -q 'Conv2D(%-1, %99999999999999999999)' "$ir" || die "the .ir line was not rewritten"
tdbg_run --json -e problems "$WORK/ms2"
json_expect ir_bad_refs_problem \
	'[p["detail"] for p in d["items"] if p["what"] == "graph .ir"] == ["2 input references to no node (first %-1)"]'
