#!/usr/bin/env bash
# robust_inject.sh - no text from a dump reaches the terminal raw (issue 13):
# host names, the run id, op names, device names, source paths and
# function names holding OSC 0 (window title), OSC 52 (clipboard write),
# ESC[2J, C1 CSI (as UTF-8 and as a raw byte), BEL and newlines
# (tests/fixtures/robust/make_hostile.py inject, made here: the file names
# hold escapes).  Batch text, stderr (open errors, command errors,
# --strict, the no-terminal note) and the TUI show them as visible escapes;
# a newline inside a name never starts a line of its own; JSON is valid and
# carries the strings exactly.
. "$(dirname "$0")/lib.sh"

python3 "$FIXTURES/robust/make_hostile.py" inject "$WORK/inj" || die "make_hostile.py inject failed"
D=$WORK/inj/one

# raw_free FILE: no ESC, BEL, raw C1 byte or UTF-8 C1 CSI in FILE, and no
# line that starts with the forged row text
raw_free()
{
	python3 - "$1" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
bad = [b for b in (b"\x1b", b"\x07", b"\x9b", b"\xc2\x9b", b"\r") if b in d]
forged = [l for l in d.split(b"\n") if l.lstrip().startswith((b"forged_row", b"]0;", b"]52;"))]
if bad or forged:
    print("raw bytes %r, forged lines %r" % (bad, forged[:2]))
    sys.exit(1)
PY
}

for c in info alerts traces "trace 0" "trace 1" "trace 2" "trace 3" "execution 0" executions \
	 problems "stack trace 0" sources "source 0" graphs "op c1" "inputs 0" "consumers 0" \
	 first-nonfinite origins "why 0" "why 2" "rank evil" "compare nosuch"; do
	name=$(echo "$c" | tr ' ' _)
	tdbg_run -e "$c" "$D"
	why=$(raw_free "$OUT") && ok "text/$name/stdout" || fail "text/$name/stdout" "$why"
	why=$(raw_free "$ERR") && ok "text/$name/stderr" || fail "text/$name/stderr" "$why"
	tdbg_run --json -e "$c" "$D"
	json_valid "json/$name/valid"
done

# The newline in "Log\nforged_row  0  FakeOp" stays inside its field.
tdbg_run -e alerts "$D"
expect_file_has alerts/newline_escaped "$OUT" 'Log^Jforged_row'
tdbg_run -e "trace 0" "$D"
expect_file_has trace/op_newline_escaped "$OUT" 'Log^Jforged_row  0  FakeOp'
expect_file_has trace/path_newline_escaped "$OUT" '/src/train^J^[]0;PWNED-TITLE^G'
# JSON keeps the exact strings.
tdbg_run --json -e "trace 0" -e info "$D"
json_expect json/op_name_exact "d[0]['op_name'] == 'Log\nforged_row  0  FakeOp'"
json_expect json/host_exact "d[1]['hosts'] == ['evil\x1b]0;PWNED-TITLE\x07\x1b[2Jhost']"
json_expect json/run_id_exact "d[1]['run_id'] == 'run\x1b]0;PWNED-TITLE\x07\x1b]52;c;UFdORUQ=\x07\x1b[2J'"

# stderr: the summary note, --strict, a failing command, an open error.
tdbg_run --strict "$D"
why=$(raw_free "$OUT") && ok summary/stdout || fail summary/stdout "$why"
why=$(raw_free "$ERR") && ok summary/stderr || fail summary/stderr "$why"
expect_rc 3 summary/strict_exit_3
tdbg_run -e "op osc52" "$D"
why=$(raw_free "$ERR") && ok command_error/stderr || fail command_error/stderr "$why"
tdbg_run -e info "$WORK/inj/mixed"
expect_rc 2 open_error/exit_2
expect_file_has open_error/names_run_ids "$ERR" 'tfdbg run ids "run-a^[]0;PWNED-TITLE^G'
why=$(raw_free "$ERR") && ok open_error/stderr || fail open_error/stderr "$why"
tdbg_run --json -e info "$WORK/inj/mixed"
json_valid open_error/json_valid
tdbg_run --pair "a=$(printf 'b\033]0;PWNED\007')" -e diff "$D" "$D"
why=$(raw_free "$ERR") && ok diff_error/stderr || fail diff_error/stderr "$why"

# The TUI: no title change, no clipboard write, the screen not cleared.
TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$D"
tui_wait "[6] Stack" || die "tdbg did not start"
tui_keys 2
tui_wait "forged_row" && expect_file_has tui/newline_shown "$TUI_SCREEN" 'Log^Jforged_row'
expect_file_has tui/screen_not_cleared "$TUI_SCREEN" "[1] Alerts"
tui_keys :
tui_type 'info'
tui_keys Enter
tui_wait "run_id" && expect_file_has tui/run_id_escaped "$TUI_SCREEN" 'run^[]0;PWNED-TITLE^G^[]52;c;UFdORUQ=^G^[[2J'
title=$(tmx display-message -p -t t '#{pane_title}')
case $title in *PWNED*) fail tui/title_not_changed "pane title is '$title'" ;; *) ok tui/title_not_changed ;; esac
if tmx show-buffer >/dev/null 2>&1 && tmx show-buffer | grep -q PWNED; then
	fail tui/no_clipboard_write "the tmux buffer holds the OSC 52 payload"
else
	ok tui/no_clipboard_write
fi
tui_keys Escape
tui_wait "[1] Alerts"
tui_keys q
tui_expect_exit 0 tui/quit
