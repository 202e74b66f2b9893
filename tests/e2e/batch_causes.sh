#!/usr/bin/env bash
# batch_causes.sh - origins and their causes on generated dumps, one per way
# of making NaN/Inf (tests/gen/gen_tfdbg2 --cause NAME).
#
# The generator computes the tensors with the C library and writes, as
# facts, the origin's row, op, type and step and the input holding the bad
# value; the cause wording expected for each program is listed here.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"

fact()
{
	sed -n "s/^$1 //p" "$2"
}

declare -A WANT=(
	[log-zero]="log of a zero in x:0"
	[log-negative]="log of a negative in x:0"
	[div-zero]="division by a zero in y:0"
	[reciprocal-zero]="reciprocal of a zero in x:0"
	[rsqrt-zero]="rsqrt of a zero in x:0"
	[sqrt-negative]="sqrt of a negative in x:0"
	[pow-negative]="pow of a negative in x:0"
	[exp-overflow]="exp overflow: x:0 reaches 100"
	[square-overflow]="square overflow: x:0 reaches 300"
	[matmul-overflow]="MatMul overflow: 100 x 100 x 8 passes float16's range (65504)"
	[softmax-extreme]="softmax/cross-entropy of extreme logits in x:0"
	[source]="came in from outside the graph"
)

for c in "${!WANT[@]}"; do
	D=$WORK/$c
	"$GEN" -q -m FULL_TENSOR --cause "$c" --facts "$D.facts" "$D" || die "generator failed on $c"
	tdbg_run --json -e origins "$D"
	json_expect "cause_${c}" '(d["total"] == 1 and d["first"]["index"] == '"$(fact origin_row "$D.facts")"'
		and d["first"]["op_name"] == "'"$(fact origin_op "$D.facts")"'"
		and d["first"]["op_type"] == "'"$(fact origin_type "$D.facts")"'"
		and d["first"]["step"] == '"$(fact origin_step "$D.facts")"'
		and "'"${WANT[$c]}"'" in d["first"]["cause"])'
	IN=$(fact origin_input "$D.facts")
	if [ -n "$IN" ]; then
		json_expect "cause_${c}_input_finite" '(any(i["op_name"] == "'"$IN"'" and i["state"] == "finite"
			for i in d["first"]["inputs"]))'
	else
		json_expect "cause_${c}_no_inputs" 'd["first"]["inputs"] == []'
	fi
	json_expect "cause_${c}_path" '(d["first"]["path"][0] == d["first"]["index"]
		and len(d["first"]["path"]) == 3)'
done

# The same log of a zero in modes with fewer counts.
D=$WORK/health
"$GEN" -q -m FULL_HEALTH --cause log-zero --facts "$D.facts" "$D" || die "generator failed"
tdbg_run --json -e origins "$D"
json_expect health_counts_zero '(d["first"]["cause"] == "log of a zero in x:0"
	and "input 0 x:0 has 1 zero in 32 elements" in d["first"]["evidence"])'
D=$WORK/curt
"$GEN" -q -m CURT_HEALTH --cause log-zero --facts "$D.facts" "$D" || die "generator failed"
tdbg_run --json -e origins "$D"
json_expect curt_says_unknown '(d["first"]["index"] == '"$(fact origin_row "$D.facts")"'
	and "likely" in d["first"]["cause"]
	and any(e.startswith("unknown: the dump'"'"'s mode does not count zeros") for e in d["first"]["evidence"]))'
D=$WORK/concise
"$GEN" -q -m CONCISE_HEALTH --cause log-zero --facts "$D.facts" "$D" || die "generator failed"
tdbg_run --json -e origins "$D"
json_expect concise_infers_zero_from_inf '"log of a zero in x:0, likely" in d["first"]["cause"]'
D=$WORK/shape
"$GEN" -q -m SHAPE --cause log-zero --facts "$D.facts" "$D" || die "generator failed"
tdbg_run --json -e origins "$D"
json_expect shape_has_no_origin '(d["total"] == 0 and d["first"] is None)'
tdbg_run --check "$D"
expect_rc 5 shape_check_exit_5_cannot_tell
expect_file_has shape_check_says_unknown "$OUT" "unknown"
# structure only (graphs, no trace or execution): cannot tell either
D=$WORK/structure
"$GEN" -q -n 0 --executions 0 "$D" || die "generator failed"
tdbg_run --check "$D"
expect_rc 5 structure_only_check_exit_5_cannot_tell
# and a clean dump whose mode counts NaN/Inf is an all-clear
D=$WORK/clean
"$GEN" -q -n 300 --ops 30 --nan-at -1 "$D" || die "generator failed"
tdbg_run --check "$D"
expect_rc 0 clean_check_exit_0

[ "$E2E_FAILS" -eq 0 ]
