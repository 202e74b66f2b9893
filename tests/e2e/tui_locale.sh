#!/bin/bash
# tui_locale.sh - the TUI under a locale whose decimal point is a comma
# (de_DE.UTF-8, compiled here with localedef into a private LOCPATH; make
# deps installs the locale sources): numbers in the dump are still read
# with a dot and shown with a dot.  Before the fix the TUI set every
# locale category, so the index thread's number parse stopped at the dot
# (a max of 1.828125 read as 1) and values were printed with commas.
# Facts: msprobe pt_stats_2rank trace 0 is Functional.linear.0.forward
# input.0, Max 1.828125, Min -1.453125 (its dump.json).
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/loc"
localedef -i de_DE -f UTF-8 "$WORK/loc/de_DE.UTF-8" >"$WORK/localedef.log" 2>&1 ||
	die "localedef could not build de_DE.UTF-8 (make deps installs the locales package): $(tail -1 "$WORK/localedef.log")"
[ "$(LOCPATH=$WORK/loc LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 1,5 2>&1)" = "1,5" ] ||
	die "the compiled locale does not use a decimal comma"

TUI_COLS=140 TUI_ROWS=40
export LOCPATH=$WORK/loc LC_ALL=de_DE.UTF-8
tui_start "$FIXTURES/msprobe/pt_stats_2rank"     # tdbg's environment is taken here
unset LOCPATH LC_ALL
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "trace 0"
tui_keys Enter
tui_wait "full output" || die "trace 0 did not answer"
tui_keys o
tui_expect summary_read_and_shown_with_a_dot "min=-1.45312 max=1.82812"
tui_screen >"$WORK/locale_screen.txt"
expect_file_lacks no_decimal_comma "$WORK/locale_screen.txt" "1,45312"
tui_stop
