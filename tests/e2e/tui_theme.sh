#!/bin/bash
# tui_theme.sh - themes: the dark default draws colours, :theme light
# switches at once, an unknown theme is one clear error, NO_COLOR=1 draws
# no colour at all but keeps the selection visible (reverse video).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
export TDBG_THEMES=$TOP/themes
ansi() { tmx capture-pane -p -e -t t >"$WORK/ansi.txt"; }
has_colour() { grep -aqE $'\e\\[(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)m' "$WORK/ansi.txt"; }

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
ansi
has_colour && ok dark_theme_has_colours || fail dark_theme_has_colours "no colour SGR on screen"
grep -aqF $'\e[48;5;255m' "$WORK/ansi.txt" && fail dark_is_not_light "light background in dark theme" || ok dark_is_not_light

tui_keys :
tui_type 'theme light'
tui_keys Enter
tui_wait "theme light" && ok theme_switch_message
sleep 0.3
ansi
grep -aqF $'\e[48;5;255m' "$WORK/ansi.txt" && ok light_theme_background || fail light_theme_background "no colour255 background after :theme light"

tui_keys :
tui_type 'theme no-such-theme'
tui_keys Enter
tui_wait "theme 'no-such-theme' not found" && ok unknown_theme_error
# issue 12 (friction): the error lists the themes there are (themes/*.theme)
tui_expect unknown_theme_lists_themes "themes: dark, mono"
for th in "$TOP"/themes/*.theme; do
	th=$(basename "$th" .theme)
	expect_file_has "unknown_theme_lists_$th" "$TUI_SCREEN" "$th"
done

tui_keys q
tui_expect_exit 0 quit_themed
tui_stop

# NO_COLOR: attributes only.
export NO_COLOR=1
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start with NO_COLOR"
ansi
has_colour && fail no_color_has_no_colours "colour SGR with NO_COLOR=1" || ok no_color_has_no_colours
grep -aqF $'\e[7m' "$WORK/ansi.txt" && ok no_color_keeps_reverse_video || fail no_color_keeps_reverse_video "no reverse video"
tui_keys q
tui_expect_exit 0 quit_no_color
tui_stop

# An 8-colour terminal (TERM=screen): no 256-colour codes are sent, and the
# greys it cannot show become attributes (blurred titles in reverse video).
unset NO_COLOR
TUI_TERM=screen
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start with TERM=screen"
ansi
grep -aqE $'\e\\[(38|48);5;' "$WORK/ansi.txt" && fail eight_colours_only "256-colour codes on an 8-colour terminal" ||
	ok eight_colours_only
has_colour && ok eight_colours_has_colour || fail eight_colours_has_colour "no colour at all"
grep -aF "[2] Timeline" "$WORK/ansi.txt" | grep -aqF $'\e[7m' && ok eight_colours_blur_title_reverse ||
	fail eight_colours_blur_title_reverse "unfocused title not in reverse video"
tui_keys q
tui_expect_exit 0 quit_eight_colours
