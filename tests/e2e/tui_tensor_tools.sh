#!/bin/bash
# tui_tensor_tools.sh - issue 17, tensor values as tfdbg's print_tensor:
# --range highlighting, / for a value with n/N, @[i,j], percentiles and std,
# the heatmap (256 colours; shade characters in mono).  Facts from the
# fixtures' READMEs: tfdbg1 run 2 cross_entropy/Log:0 (trace 122) is
# float32[8,10] with 9 -inf, all in row 3 (Softmax row 3 is one-hot at
# class 7, so [3,7] is log(1) = 0, the only zero), var 0.305468 (std
# 0.5527); MindSpore MatMul-op10 output 0 (iteration 1) holds 2 NaN and 1
# -inf; tfdbg2 mnist_nan is FULL_HEALTH (no values); a generated 50x60
# array checks the elements the view elides.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "tensor 122 --range '[[-inf,-inf]]'"
tui_keys Enter
tui_expect range_count "in range [[-inf, -inf]]: 9 of 80 elements"
grep -qE '^ +std +0\.5526' "$TUI_SCREEN" && ok std_from_var || fail std_from_var "no 'std 0.5526...' (README var 0.305468)"
grep -qE '^ +p50 ' "$TUI_SCREEN" && ok percentiles_shown || fail percentiles_shown "no p50 line"
# the highlighted -inf cells: capture with escapes, count styled "-inf"
tmx capture-pane -e -p -t t >"$WORK/esc"
n=$(grep -o $'\e\[[0-9;]*m *-inf' "$WORK/esc" | wc -l)
[ "$n" -ge 9 ] && ok range_cells_styled || fail range_cells_styled "only $n styled -inf cells"
tui_keys /
tui_type "Heatmap"
tui_keys Enter
tui_wait "/Heatmap:" || fail heatmap_search "no Heatmap section"
grep -qE '^ +-------█--$' "$TUI_SCREEN" && ok heatmap_row3_neg_inf || fail heatmap_row3_neg_inf "row 3 of the heatmap is not nine -Inf and one high cell"
tmx capture-pane -e -p -t t >"$WORK/esc"
grep -q '38;5;' "$WORK/esc" && ok heatmap_256_colours || fail heatmap_256_colours "no 256-colour heat cells"
tui_keys /
tui_type "-inf"
tui_keys Enter
tui_expect search_first_neg_inf "[3,0] = -inf (1 of 9)"
tui_keys n
tui_expect search_next_neg_inf "[3,1] = -inf (2 of 9)"
tui_keys N N
tui_expect search_prev_wraps "[3,9] = -inf (9 of 9)"
tui_keys /
tui_type "0"
tui_keys Enter
tui_expect search_value_zero "[3,7] = 0 (1 of 1)"
tui_keys @
tui_type "[3,7]"
tui_keys Enter
tui_expect jump_element "@[3,7] = 0"
tui_keys @
tui_type "[9,0]"
tui_keys Enter
tui_expect jump_out_of_bounds "out of bounds for axis 0"
tui_keys Escape q
tui_expect_exit 0 quit_tfdbg1

# MindSpore: NaN search over the .npy values; mono theme: shade characters
tui_start --theme mono "$FIXTURES/mindspore/sync_lenet"
tui_wait "Alerts" || die "tdbg did not start on sync_lenet"
tui_wait_gone "indexing" || die "the index pass did not finish"
row=$(tdbg -e 'traces --op "MatMul-op10$" --nonfinite' "$FIXTURES/mindspore/sync_lenet" | awk '/^ +[0-9]+ +!/ { print $1; exit }')
tui_keys :
tui_type "tensor $row"
tui_keys Enter
tui_wait "Heatmap" || fail ms_tensor "no tensor view"
tui_keys /
tui_type nan
tui_keys Enter
tui_expect ms_nan_first "(1 of 2)"
tui_keys n
tui_expect ms_nan_second "(2 of 2)"
tmx capture-pane -e -p -t t >"$WORK/esc2"
grep -q '38;5;' "$WORK/esc2" && fail mono_no_heat_colours "mono theme drew 256-colour cells" || ok mono_no_heat_colours
grep -qE '[░▒▓█·]{8}' "$TUI_SCREEN" && ok mono_shade_characters || fail mono_shade_characters "no shade characters"
tui_keys Escape q
tui_expect_exit 0 quit_mindspore

# generated data: a MindSpore copy whose MatMul-op10 output file holds a
# 50x60 float32 array (3000 elements: the view elides its middle) with NaN
# at [30,40] and [45,50] and -inf at [10,5]; / and @ reach elided elements
cp -r "$FIXTURES/mindspore/sync_lenet" "$WORK/big"
npy=$(ls "$WORK"/big/rank_0/Lenet/0/1/MatMul.*MatMul-op10.*.output.0.*.npy)
python3 - "$npy" <<'PY'
import struct, sys
rows, cols = 50, 60
vals = [float((r * cols + c) % 97) / 10.0 for r in range(rows) for c in range(cols)]
vals[30 * cols + 40] = vals[45 * cols + 50] = float("nan")
vals[10 * cols + 5] = float("-inf")
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode()
                              + struct.pack("<%df" % len(vals), *vals))
PY
brow=$(tdbg -e 'traces --op "MatMul-op10$" --nonfinite' "$WORK/big" | awk '/^ +[0-9]+ +!/ { print $1; exit }')
tui_start "$WORK/big"
tui_wait "Alerts" || die "tdbg did not start on the generated dump"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "tensor $brow"
tui_keys Enter
tui_wait "..." || fail elided_view "the 50x60 view is not elided"
tui_keys /
tui_type nan
tui_keys Enter
tui_expect elided_nan_found "[30,40] = nan (1 of 2)"
tui_keys n
tui_expect elided_nan_next "[45,50] = nan (2 of 2)"
tui_keys N
tui_expect elided_nan_prev "[30,40] = nan (1 of 2)"
tui_keys @
tui_type "[10,5]"
tui_keys Enter
tui_expect elided_jump "@[10,5] = -inf"
tui_keys Escape q
tui_expect_exit 0 quit_generated

# tfdbg2 FULL_HEALTH: no values, says so
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start on mnist_nan"
tui_keys :
tui_type "tensor 88 --range '[[-inf,-1]]'"
tui_keys Enter
tui_expect health_no_values "--range: no values to look at in this row"
tui_keys Escape q
tui_expect_exit 0 quit_tfdbg2
