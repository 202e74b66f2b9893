#!/bin/bash
# batch_text.sh - issue 12 (friction, batch text for people): the count
# line says how many rows are shown ("3 of 102 rows shown", not "102 of
# 102 rows match"); a long MindSpore op name loses the middle of its scope,
# never the op's own name; compare on a dump without iterations prints no
# "iter -1"; first-nonfinite names the graph beside its id.
# Facts: tests/fixtures/mindspore/README.md (the NaN is output 0 of
# Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10, whose
# inputs are Reshape-op9 and fc1.weight); tests/fixtures/tfdbg2/README.md
# (row 88 is Log:0; tfdbg v2 dumps name no iterations).
. "$(dirname "$0")/lib.sh"

S=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e 'traces' "$S"
total=$(json_get 'd["total"]')
tdbg_run -e 'traces 0:3' "$S"
expect_rc 0 traces_rc
check count_line_says_shown grep -qxF "3 of $total rows shown" "$OUT"
tdbg_run -e 'traces --op MatMul-op10' "$S"
check op_name_kept_whole grep -qE '^ +[0-9]+ +!? +Default/.*/fc3-Dense/MatMul-op10 ' "$OUT"
check scope_elided_in_the_middle grep -qE 'Default/(…|~)' "$OUT"
check filtered_count_line grep -qE '^[0-9]+ of [0-9]+ rows shown \([0-9]+ of '"$total"' match\)$' "$OUT"
tdbg_run --json -e 'first-nonfinite' "$S"
row=$(json_get 'd["index"]')
tdbg_run -e "inputs $row" "$S"
check inputs_name_reshape_whole grep -qE 'Reshape-op9 ' "$OUT"

D=$FIXTURES/tfdbg2/mnist_nan
tdbg_run -e 'compare Log' "$D"
expect_rc 0 compare_rc
check compare_row_88 grep -qE '^ +88 ' "$OUT"
check compare_no_iter_minus_1 bash -c "! grep -q 'iter -1' '$OUT'"

# graph names beside graph ids (README: Log:0 is in graph `loss`)
tdbg_run -e first-nonfinite "$D"
check first_nonfinite_names_the_graph grep -qE '^trace 88 .* graph loss \([0-9a-f-]+\)' "$OUT"

# numbers for people: 6 significant digits, --precision N for more; JSON
# keeps every digit (modes/full_tensor stores values: min, max and mean
# are computed from float32 data)
F=$FIXTURES/tfdbg2/modes/full_tensor
tdbg_run -e 'traces --nonfinite 0:1' "$F"
check six_digits_by_default bash -c "grep -oE '(min|max|mean)=[-0-9.e+]+' '$OUT' | sed 's/.*=//; s/^-//; s/e.*//; s/\\.//; s/^0*//' | awk 'length(\$0) > 6 { bad = 1 } END { exit bad }'"
tdbg_run --precision 10 -e 'traces --nonfinite 0:1' "$F"
check precision_10_gives_more grep -qE 'mean=-?[0-9]\.[0-9]{9}' "$OUT"
tdbg_run --precision 0 -e info "$F"
expect_rc 1 precision_0_is_a_usage_error
