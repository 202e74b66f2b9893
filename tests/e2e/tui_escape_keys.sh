#!/bin/bash
# tui_escape_keys.sh - issue 12 item 6: inside tmux with
# TERM=xterm-256color, Home and End arrive as ESC [ 1 ~ and ESC [ 4 ~,
# which that terminfo does not list; they were read as Esc, '[' (back) and
# '4' (Graph pane).  The usual xterm, vt220 and rxvt forms of Home, End,
# PgUp, PgDn and F1 must act as those keys.  mnist_nan has 680 trace rows
# (tests/fixtures/tfdbg2/README.md).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=xterm-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys 3
tui_wait "1/680" || die "the trace table is not focused on row 1"

# tmux's own End and Home keys
tui_keys End
tui_expect tmux_end_goes_to_last_row "680/680"
tui_keys Home
tui_expect tmux_home_goes_to_first_row "1/680"

# each form typed raw: ESC [ 4 ~ (vt220), ESC O H (xterm application),
# ESC [ F (xterm), ESC [ 7 ~ (rxvt), ESC [ 6 ~ then ESC [ 5 ~ (pages)
tui_type $'\033[4~'
tui_expect vt220_end "680/680"
tui_type $'\033OH'
tui_expect xterm_app_home "1/680"
tui_type $'\033[F'
tui_expect xterm_end "680/680"
tui_type $'\033[7~'
tui_expect rxvt_home "1/680"
tui_type $'\033[6~'
tui_wait_gone " 1/680" >/dev/null
tui_screen >/dev/null
if grep -qE ' ([2-9]|[1-9][0-9]+)/680' "$TUI_SCREEN"; then ok pgdn_moves_down; else fail pgdn_moves_down "no move after ESC [ 6 ~"; fi
tui_type $'\033[5~'
tui_expect pgup_moves_back "1/680"
# F1 in its vt220 form opens the help
tui_type $'\033[11~'
tui_expect vt220_f1_opens_help "move-down"
tui_keys q
tui_wait_gone "move-down" >/dev/null
tui_keys q
tui_expect_exit 0 quit
