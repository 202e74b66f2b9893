#!/bin/bash
# batch_sort.sh - issue 17: traces --sort FIELD (row, op, type, size, time,
# nonfinite; -FIELD descending), the slice taken over the sorted list.
# Facts from the fixtures' READMEs: tfdbg1 mlp_nan, the first tensor in
# time order with inf/NaN is cross_entropy/Log:0 (DebugIdentity) and the
# largest tensors are 64x32 (inputs 64, hidden 32); tfdbg2 mnist_nan, row
# 88 Log:0 is the first trace with Inf or NaN.
. "$(dirname "$0")/lib.sh"

T1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e 'traces --sort time --nonfinite 0:1' "$T1"
expect_rc 0 sort_exit_0
json_expect tfdbg1_first_in_time 'd["rows"][0]["op_name"] == "cross_entropy/Log" and d["rows"][0]["debug_op"] == "DebugIdentity"'
json_expect sort_echoed 'd["sort"] == "time"'

tdbg_run --json -e 'traces --sort -size 0:1' "$T1"
json_expect tfdbg1_largest_64x32 'd["rows"][0]["summary"]["shape"] == [64, 32]'

tdbg_run --json -e 'traces --sort op' "$T1"
json_expect op_names_ascending '[r["op_name"] for r in d["rows"]] == sorted(r["op_name"] for r in d["rows"])'
json_expect all_rows_kept 'sorted(r["index"] for r in d["rows"]) == list(range(d["total"]))'
tdbg_run --json -e 'traces --sort -type' "$T1"
json_expect op_types_descending '[r["op_type"] for r in d["rows"]] == sorted((r["op_type"] for r in d["rows"]), reverse=True)'

tdbg_run --json -e 'traces --sort -nonfinite' "$T1"
# a DebugNanCount row knows NaN alone: the counts it knows are added
json_expect nonfinite_counts_descending \
	'[sum(s[k] or 0 for k in ("nan", "neg_inf", "pos_inf")) for s in (r["summary"] for r in d["rows"]) if any(s[k] is not None for k in ("nan", "neg_inf", "pos_inf"))] == sorted((sum(s[k] or 0 for k in ("nan", "neg_inf", "pos_inf")) for s in (r["summary"] for r in d["rows"]) if any(s[k] is not None for k in ("nan", "neg_inf", "pos_inf"))), reverse=True)'

tdbg_run --json -e 'traces --sort row --nonfinite' "$T1"
json_expect row_order_is_the_dumps '[r["index"] for r in d["rows"]] == sorted(r["index"] for r in d["rows"])'

T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e 'traces --sort time --nonfinite 0:1' "$T2"
json_expect tfdbg2_first_in_time_is_88 'd["rows"][0]["index"] == 88 and d["rows"][0]["op_type"] == "Log"'

MS=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e 'traces --sort -size 0:3' "$MS"
json_expect ms_sizes_descending '[r["summary"]["elements"] for r in d["rows"]] == sorted((r["summary"]["elements"] for r in d["rows"]), reverse=True)'
tdbg_run --json -e 'traces --sort -nonfinite --op "MatMul-op10$" 0:1' "$MS"
json_expect ms_matmul_output_worst 'd["rows"][0]["summary"]["nan"] == 2 and d["rows"][0]["summary"]["neg_inf"] == 1'

tdbg_run -e 'traces --sort bogus' "$T1"
expect_rc 1 bad_field_exit_1
expect_file_has bad_field_lists_fields "$ERR" "row, op, type, size, time, nonfinite"
tdbg_run -e 'executions --sort time' "$T1"
expect_rc 1 executions_have_no_sort
