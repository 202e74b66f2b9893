#!/bin/bash
# tui_keys_file.sh - issue 12 item 15: the keys file takes C-x, ^X, M-x
# and tig's key names, and reports every bad line with its number (it
# rejected C-n and named only the first bad line).
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
mkdir -p "$XDG_CONFIG_HOME/tdbg"
cat >"$XDG_CONFIG_HOME/tdbg/keys" <<'KEYS'
# issue 12: C-n and ^P as in tig and emacs
bind generic C-n move-down
bind generic Hyper-q quit
bind generic ^P move-up
bind generic <PageDown> page-down
bind generic j fly-away
bind generic M-g move-last
KEYS
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_expect first_bad_line_named "keys: line 3: unknown key 'Hyper-q'"
tui_expect more_bad_lines_said "and more (o: every bad line)"
tui_keys o
tui_expect every_bad_line_listed "line 6: unknown action 'fly-away'"
expect_file_has count_of_bad_lines "$TUI_SCREEN" "2 bad lines"
tui_keys q
tui_keys 3
tui_wait "1/680" >/dev/null
tui_keys C-n C-n
tui_expect c_n_moves_down "3/680"
tui_keys C-p
tui_expect caret_p_moves_up "2/680"
tui_keys Escape g
tui_expect m_g_moves_last "680/680"
tui_keys q
tui_expect_exit 0 quit
