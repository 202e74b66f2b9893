#!/bin/bash
# tui_options.sh - what the TUI does with its options and files:
#   - ~/.config/tdbg/keys rebinds keys (the help overlay shows the change);
#   - --theme picks a theme file; :save-display writes the screen as text;
#   - a SHAPE-mode dump has no NaN/Inf information and the Alerts pane says
#     so (tests/fixtures/tfdbg2/README.md) instead of showing nothing;
#   - --follow picks up records appended to a growing dump: the torn dump
#     (679 complete traces, README) grows back to mnist_nan's 680.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color

# -- key file
mkdir -p "$XDG_CONFIG_HOME/tdbg"
printf 'bind generic x quit\nbind generic q none\nbind generic Z no-such-action\n' \
	>"$XDG_CONFIG_HOME/tdbg/keys"
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_wait "unknown action 'no-such-action'" && ok bad_key_line_reported
tui_keys '?'
tui_wait "move-down" >/dev/null
tui_settle     # the overlay drawn whole, not caught half way (seen under ASan, two scripts at once)
grep -qE '^ +x +quit ' "$TUI_SCREEN" && ok help_shows_rebound_key || fail help_shows_rebound_key "no 'x quit' in help"
tui_keys Escape q
sleep 0.3
tui_wait_exit 1 >/dev/null && fail q_unbound "q still quits" || ok q_unbound
tui_keys x
tui_expect_exit 0 x_quits
tui_stop
rm -f "$XDG_CONFIG_HOME/tdbg/keys"

# -- --theme and :save-display
tui_start --theme "$TOP/themes/high-contrast.theme" "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start with --theme"
tmx capture-pane -p -e -t t >"$WORK/ansi.txt"
# high-contrast: the focused title is black on bright yellow (colour 11)
grep -aqE $'\e\\[(103|48;5;11)m' "$WORK/ansi.txt" && ok theme_option_applied ||
	fail theme_option_applied "no bright-yellow background"
tui_keys :
tui_type "save-display $WORK/screen-dump.txt"
tui_keys Enter
tui_wait "screen saved" && ok save_display_message
if [ -f "$WORK/screen-dump.txt" ]; then
	expect_file_has save_display_titles "$WORK/screen-dump.txt" "[3] Graph executions"
	expect_file_has save_display_status "$WORK/screen-dump.txt" "tfdbg2 FULL_HEALTH"
	expect_eq save_display_rows "$(wc -l <"$WORK/screen-dump.txt")" 45
else
	fail save_display_file "no file written"
fi
tui_keys q
tui_expect_exit 0 quit_theme
tui_stop

# -- SHAPE mode: nothing to alert about, and the pane says why
tui_start "$FIXTURES/tfdbg2/modes/shape"
tui_wait "SHAPE" || die "tdbg did not start on the SHAPE dump"
tui_wait "no alerts: this dump's" && tui_wait "mode (SHAPE) records no" && ok shape_mode_alerts_explained
tui_keys q
tui_expect_exit 0 quit_shape
tui_stop

# -- --follow: a dump that grows while tdbg watches it
mkdir -p "$WORK/grow"
cp "$FIXTURES"/tfdbg2/torn/* "$WORK/grow/"
chmod u+w "$WORK"/grow/*
tui_start --follow "$WORK/grow"
tui_wait "679 traces" || die "tdbg did not start on the torn copy"
tui_wait "[follow]" && ok follow_indicator
tui_keys 3 G
tui_wait "679/679" >/dev/null
cp "$FIXTURES"/tfdbg2/mnist_nan/*.graph_execution_traces "$WORK"/grow/
tui_wait "680 traces" 15 && ok follow_picks_up_appended_record
tui_wait "680/680" && ok follow_keeps_cursor_on_newest_row
tui_keys q
tui_expect_exit 0 quit_follow
