#!/bin/bash
# tui_save_display_borders.sh - issue 12 item 13: :save-display wrote the
# pane separators as 'x', the alternate-charset letter curses keeps for a
# vertical line.  In a UTF-8 locale the TUI draws Unicode box characters
# and the file has them; in the C locale the file has plain ASCII '|'.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
# save FILE: runs :save-display FILE and waits for the message
save()
{
	tui_keys :
	tui_type "save-display $1"
	tui_keys Enter
	tui_wait "screen saved" >/dev/null || fail "save_$2" "no 'screen saved' message"
}

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_expect utf8_screen_has_box_line "│[3] Graph executions"
save "$WORK/utf8.txt" utf8
if [ -s "$WORK/utf8.txt" ]; then
	expect_file_has utf8_file_has_box_line "$WORK/utf8.txt" "│[3] Graph executions"
	expect_file_lacks utf8_file_has_no_acs_letter "$WORK/utf8.txt" "x[3] Graph executions"
else
	fail utf8_file_written "no file"
fi
tui_keys q
tui_expect_exit 0 quit_utf8

export LC_ALL=C LANG=C
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start in the C locale"
save "$WORK/ascii.txt" ascii
if [ -s "$WORK/ascii.txt" ]; then
	expect_file_has ascii_file_has_bar "$WORK/ascii.txt" "|[3] Graph executions"
	if LC_ALL=C grep -q $'[\x80-\xff]' "$WORK/ascii.txt"; then
		fail ascii_file_is_ascii "non-ASCII bytes in the C locale's screen dump"
	else
		ok ascii_file_is_ascii
	fi
else
	fail ascii_file_written "no file"
fi
tui_keys q
tui_expect_exit 0 quit_c_locale
