#!/bin/bash
# tui_debug_op_column.sh - issue 12 item 3: the rows of one tensor written
# by several debug ops (tfdbg1) no longer look alike in the trace table: a
# Debug column names the debug op (ident, numsum, nancnt), at 120x40 and
# 160x45.  Facts (tests/fixtures/tfdbg1/README.md): cross_entropy/Log:0 is
# dumped by DebugIdentity and DebugNumericSummary, cross_entropy/mul:0 by
# DebugIdentity and DebugNanCount; Log:0 is the first tensor with inf/NaN.
. "$(dirname "$0")/lib.sh"

for size in 120x40 160x45; do
	TUI_COLS=${size%x*} TUI_ROWS=${size#*x}
	tui_start "$FIXTURES/tfdbg1/mlp_nan"
	tui_wait "144 traces" || die "tdbg did not start at $size"
	tui_alert_group '^Log$'; tui_keys Enter
	tui_wait "InfNan Log: alert 1 of" >/dev/null || die "no Log alert at $size"
	tui_expect "debug_header_$size" " Debug "
	if grep -qE 'cross_entropy/Log +ident ' "$TUI_SCREEN" &&
	   grep -qE 'cross_entropy/Log +numsum ' "$TUI_SCREEN"; then
		ok "log_rows_told_apart_$size"
	else
		fail "log_rows_told_apart_$size" "no ident and numsum rows for cross_entropy/Log"
	fi
	grep -qE 'cross_entropy/mul +nancnt ' "$TUI_SCREEN" && ok "nancount_row_$size" ||
		fail "nancount_row_$size" "no nancnt row for cross_entropy/mul"
	tui_keys q
	tui_expect_exit 0 "quit_$size"
done
