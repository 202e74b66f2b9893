#!/usr/bin/env bash
# batch_source_ops.sh - issue 17 item 3: `source-ops PATH [LINE]`, the ops
# created at a source line with their trace rows, on the three formats.
#
# Facts from the fixtures' READMEs: tfdbg2 mnist_nan's Log op was created
# at debug_mnist_v2.py line 216 (`diff = -labels * tf.math.log(probs)`),
# row 88 is Log:0; MindSpore sync_lenet's fc3-Dense/MatMul-op10 comes from
# train_lenet.py line 26 (`x = self.fc1(x)`) and holds the first NaN/Inf;
# async_small's source lines are train.py 12, 13 and 14 (3 kernels);
# tfdbg v1 dumps hold no source or stacks.
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

T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e 'source-ops debug_mnist_v2.py 216' -e 'source-ops debug_mnist_v2.py' "$T2"
expect_rc 0 tfdbg2_exit_0
jx tfdbg2_line_216 'd["line"] == 216 and d["path"].endswith("debug_mnist_v2.py")
	and d["text"].strip() == "diff = -labels * tf.math.log(probs)"' "$(doc 1)"
jx tfdbg2_log_made_at_216 'any(o["op_name"] == "Log" and o["op_type"] == "Log" and 88 in o["trace_rows"]
	for o in d["ops"])' "$(doc 1)"
jx tfdbg2_rows_in_order 'all(o["trace_rows"] == sorted(o["trace_rows"]) for o in d["ops"])' "$(doc 1)"
jx tfdbg2_file_lists_216 'any(l["line"] == 216 and l["ops"] == '"$(json_get 'len(d["ops"])' "$WORK/doc.1")"'
	for l in d["lines"]) and all(l["ops"] > 0 for l in d["lines"])' "$(doc 2)"
tdbg_run -e 'source-ops debug_mnist_v2.py 216' "$T2"
# a row of the ops table: type, name, more (yes/no), then the trace rows
check tfdbg2_text_names_log grep -qE '^ +Log +Log +(no|yes) +([0-9]+, )*88(,|$)' "$OUT"

tdbg_run --json -e 'source-ops debug_mnist_v2.py 0' -e 'source-ops debug_mnist_v2.py 99999' \
	-e 'source-ops no_such_file.py 1' "$T2"
expect_rc 1 bad_lines_exit_1
jx line_0_error '"line number" in d["error"]' "$(doc 1)"
jx past_end_error '"lines, not 99999" in d["error"]' "$(doc 2)"
jx unknown_file_error 'd["error"].startswith("source-ops: no_such_file.py")' "$(doc 3)"

# stack --user: the user's frames only (the Stack pane's u); TensorFlow's
# own files (def_function.py ...) are the framework's
tdbg_run --json -e 'stack trace 88 --user' -e 'stack trace 88' "$T2"
jx tfdbg2_stack_user_only 'all(f["user_code"] for f in d) and any(f["line"] == 216
	and f["function"] == "loss" for f in d)' "$(doc 1)"
jx tfdbg2_stack_all_has_framework 'any(f["file"].endswith("def_function.py") and not f["user_code"]
	for f in d) and len(d) > '"$(json_get 'len(d)' "$WORK/doc.1")"'' "$(doc 2)"

S=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e first-nonfinite "$S"
FIRST=$(json_get 'd["index"]')
tdbg_run --json -e 'source-ops train_lenet.py 26' "$S"
expect_rc 0 mindspore_exit_0
jx mindspore_line_26 'd["text"].strip() == "x = self.fc1(x)" and any(
	o["op_name"].endswith("fc3-Dense/MatMul-op10") and '"$FIRST"' in o["trace_rows"] for o in d["ops"])'
# the framework frame is basic.py line 624, the user's train_lenet.py line 26
tdbg_run --json -e "stack trace $FIRST --user" "$S"
jx mindspore_stack_user_only '[(f["file"].endswith("train_lenet.py"), f["line"]) for f in d] == [(True, 26)]'

A=$FIXTURES/mindspore/async_small
tdbg_run --json -e 'source-ops train.py' "$A"
jx async_lines_12_13_14 '[l["line"] for l in d["lines"]] == [12, 13, 14]'

T1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e 'source-ops model.py 1' "$T1"
expect_rc 1 tfdbg1_exit_1
jx tfdbg1_says_no_source '"no source or stack" in d["error"]'

[ "$E2E_FAILS" -eq 0 ]
