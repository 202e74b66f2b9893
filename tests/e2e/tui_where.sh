#!/bin/bash
# tui_where.sh - conditions in the TUI (issue 15): "/where EXPR" goes to the
# next row the condition holds for, ":filter where=EXPR" keeps those rows
# and the wide trace table shows each row's role.  Facts from
# tests/fixtures/tfdbg2/README.md: 680 trace rows, row 88 (Log:0) is the
# first with Inf/NaN, row 85 is probs:0 whose 1000 elements hold one zero;
# ops under "gradients/" are gradients (e.g. gradients/Log_grad/Reciprocal).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

pos() { grep -F "[3] Graph executions" "$TUI_SCREEN" | grep -oE '[0-9]+/[0-9]+' | tail -1; }
# wait_pos_not P: polls until the trace table's position is no longer P
wait_pos_not() {
	local i
	for i in $(seq 100); do
		tui_screen >/dev/null
		[ "$(pos)" != "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

tui_keys 3 g /
tui_type 'where neg_inf > 0 or nan > 0'
tui_keys Enter
if tui_wait '/where neg_inf > 0 or nan > 0: '; then
	tui_wait "89/680" >/dev/null
	expect_eq where_search_finds_row_88 "$(pos)" "89/680"
fi

tui_keys :
tui_type "filter where='op == \"probs\" and zero == 1'"
tui_keys Enter
tui_wait "where=op" >/dev/null
tui_wait "1/1" >/dev/null
expect_eq filter_where_keeps_row_85 "$(pos)" "1/1"
expect_file_has filter_where_row_85 "$TUI_SCREEN" "     85"

# every op named under "gradients" is a gradient: the role filter keeps
# exactly the rows the name regex keeps
tui_keys :
tui_type 'filter op=^gradients'
tui_keys Enter
tui_wait "op=^gradients" >/dev/null
wait_pos_not "1/1"
by_name=$(pos)
tui_keys :
tui_type "filter where='role == \"gradient\"'"
tui_keys Enter
tui_wait "where=role" >/dev/null
by_role=$(pos)
if [ -n "$by_name" ] && [ "$by_name" != "1/680" ]; then
	expect_eq filter_where_role_gradient "$by_role" "$by_name"
else
	fail filter_where_role_gradient "name filter shows '$by_name'"
fi

tui_keys :
tui_type 'filter where=meen > 0'
tui_keys Enter
tui_wait "column 1" >/dev/null
expect_file_has filter_where_error_names_column "$TUI_SCREEN" 'column 1: unknown field "meen"'

tui_keys :
tui_type 'quit'
tui_keys Enter
tui_expect_exit 0 quit_exits_0

# a wide trace table shows the role column
TUI_COLS=240 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start (wide)"
tui_keys :
tui_type 'filter op=^gradients/Relu_grad/ReluGrad$'
tui_keys Enter
tui_wait "Role" >/dev/null
tui_wait "grad ReluGrad" >/dev/null   # the filter has applied
expect_file_has role_column_header "$TUI_SCREEN" "Role"
if grep -E "gradients/Relu_grad/ReluGrad +grad +ReluGrad" "$TUI_SCREEN" >/dev/null; then
	ok role_column_says_grad
else
	fail role_column_says_grad "no 'grad' cell on the ReluGrad rows"
fi
tui_keys :
tui_type 'quit'
tui_keys Enter
tui_expect_exit 0 wide_quit_exits_0
[ "$E2E_FAILS" -eq 0 ]
