#!/usr/bin/env bash
# tui_did_you_mean.sh - issue 24 item 8 at the prompt: an unknown op or
# command gets the nearest names on the message line.  Facts
# (tests/fixtures/tfdbg2/README.md): mnist_nan has an op Log (row 88).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

tui_keys :
tui_type 'op Lgo'
tui_keys Enter
tui_expect prompt_op_typo 'no op "Lgo"; did you mean Log?'

tui_keys :
tui_type 'trcaes'
tui_keys Enter
tui_expect prompt_command_typo 'did you mean traces'

tui_keys q
tui_expect_exit 0 quit_exits_0
