#!/bin/bash
# tui_tensor.sh - the tensor overlay: on a FULL_HEALTH dump `t` shows the
# full summary of the selected row (row 88 Log:0: 1000 elements, one -Inf,
# README) and says that the mode stores no values; on the FULL_TENSOR dump
# :print ROW [SLICE] shows the sliced values and a block histogram; the
# summary lines come from the one summary field table (|mean|, l2 norm too).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_keys :
tui_type 'goto 88'
tui_keys Enter
tui_wait "89/680" || die "goto 88 failed"
tui_keys t
if tui_wait "Tensor: trace 88 Log:0 (Log)"; then
	ok t_opens_tensor_overlay
	grep -qE '^ +elements +1000$' "$TUI_SCREEN" && ok summary_elements_1000 || fail summary_elements_1000 "no 'elements 1000'"
	grep -qE '^ +-Inf +1$' "$TUI_SCREEN" && ok summary_one_neg_inf || fail summary_one_neg_inf "no '-Inf 1'"
	expect_file_has health_mode_has_no_values "$TUI_SCREEN" "stores no values"
fi
tui_keys Escape
tui_wait_gone "Tensor: trace 88" && ok esc_closes_tensor
tui_keys q
tui_expect_exit 0 quit_health
tui_stop

tui_start "$FIXTURES/tfdbg2/modes/full_tensor"
tui_wait "FULL_TENSOR" || die "tdbg did not start on full_tensor"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type 'filter type=^MatMul$'
tui_keys Enter
tui_wait "filter: type=^MatMul$" || die "filter failed"
tui_keys 3 t
if tui_wait "(MatMul)   (Esc or q closes)"; then
	ok tensor_of_filtered_row
	# the view prints the summary field table (tui/cmd/summary.h) whole:
	# the fields batch JSON has, |mean|, std and l2 norm included
	grep -qE '^ +\|mean\| +[0-9]' "$TUI_SCREEN" && ok summary_abs_mean || fail summary_abs_mean "no '|mean|' line"
	grep -qE '^ +l2 norm +[0-9]' "$TUI_SCREEN" && ok summary_l2norm || fail summary_l2norm "no 'l2 norm' line"
	tui_keys G              # the histogram is the last section
	tui_expect histogram_section "Histogram"
fi
row=$(grep -oE 'Tensor: trace [0-9]+' "$TUI_SCREEN" | grep -oE '[0-9]+$')
tui_keys Escape :
tui_type "print $row [0:2, 0:3]"
tui_keys Enter
if tui_wait "Values [0:2, 0:3]"; then
	ok print_slice_shown
	# two rows of three numbers: "[[a b c]" then " [d e f]]"
	n=$(grep -cE '^ +\[?\[ *-?[0-9.e+-]+ +-?[0-9.e+-]+ +-?[0-9.e+-]+\]\]?$' "$TUI_SCREEN")
	expect_eq slice_is_2x3 "$n" 2
	grep -q '█' "$TUI_SCREEN" && ok histogram_block_bars || fail histogram_block_bars "no block characters"
fi
tui_keys :
tui_type "print $row [0:2"
tui_keys Enter
tui_wait "print" && grep -qiE "slice|bracket|\]" "$TUI_SCREEN" && ok bad_slice_error || fail bad_slice_error "no error for a bad slice"
tui_keys q q
tui_expect_exit 0 quit_full_tensor
