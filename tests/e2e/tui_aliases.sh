#!/usr/bin/env bash
# tui_aliases.sh - issue 17 item 4 at the prompt: the older debugger CLI's
# verbs run their commands, Tab completes them, the help overlay lists
# them.  Facts (tests/fixtures/tfdbg2/README.md): row 85 is probs:0 (a
# Placeholder) and row 88 Log:0 reads it.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

tui_keys :
tui_type 'l'
tui_keys Tab
tui_expect tab_completes_aliases "4 matches: lt li lo ls"
tui_keys C-u Escape

tui_keys :
tui_type 'ni probs'
tui_keys Enter
tui_expect ni_shows_the_op "[4] Graph  probs (Placeholder)"

tui_keys :
tui_type 'lo 85'
tui_keys Enter
# (a table: op_name, op_type, input, trace: the Log row ends with 88)
tui_wait "input  trace" >/dev/null
if tui_screen | grep -qE '^ *Log +Log +0 +88 *$'; then ok lo_lists_log_row_88; else
	fail lo_lists_log_row_88 "no 'Log Log 0 88' row on screen"; fi

tui_keys :
tui_type 'lt --bogus'
tui_keys Enter
tui_expect alias_error_names_command "traces: "

tui_keys '?'
tui_wait "Keys" || fail help_opens "no help overlay"
tui_keys /
tui_type 'Aliases'
tui_keys Enter
tui_expect help_lists_aliases "Aliases (the verbs of the older debugger CLI)"
tui_keys j
tui_expect help_alias_row "lt   traces       list tensors"
tui_keys Escape q
tui_expect_exit 0 quit_exits_0
