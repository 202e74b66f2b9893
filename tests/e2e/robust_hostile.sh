#!/usr/bin/env bash
# robust_hostile.sh - terminal safety (issue 6): op names, types, function
# names and source text from a dump may hold escape sequences, control bytes,
# invalid UTF-8 and very long lines; batch output and the TUI show them
# escaped or cut, never raw.  Fixture: tests/fixtures/robust/hostile (rows 1-4
# are the hostile ops: "evil/ESC[2J ESC[H ESC]0;PWNED BEL title" of type
# "ESC[5mBlink", "ctl/CR BS DEL SOH tab TAB here", "utf8/" + invalid bytes,
# "long/" + 5000 x "L" + "/MatMul").
. "$(dirname "$0")/lib.sh"

# wait_ok NAME TEXT [SECONDS]: ok NAME when TEXT shows in time, else FAIL.
wait_ok()
{
	if tui_probe "$2" "${3:-$E2E_TIMEOUT}"; then ok "$1"; else fail "$1" "'$2' not on screen"; fi
}

D=$FIXTURES/robust/hostile

# no_raw NAME FILE: no ESC, no C0 control but newline, valid UTF-8.
no_raw()
{
	local why
	if why=$(python3 - "$2" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
bad = sorted({c for c in b if (c < 32 and c != 10) or c == 127})
if bad:
    print("raw control bytes %s" % bad); sys.exit(1)
try:
    b.decode("utf-8")
except UnicodeDecodeError as e:
    print("invalid UTF-8: %s" % e); sys.exit(1)
PY
	); then ok "$1"; else fail "$1" "$why"; fi
}

# Batch text: rows, the op, its stack and the source line with the ESC.
tdbg_run -e "traces 0:6" "$D"
expect_rc 0 batch_traces_exit_0
no_raw batch_traces_clean "$OUT"
expect_file_has batch_traces_esc_visible "$OUT" '^[[2J^[[H^[]0;PWNED^Gtitle'
expect_file_has batch_traces_type_visible "$OUT" '^[[5mBlink'
check batch_traces_utf8_escaped grep -qF 'utf8/\xff\xfe' "$OUT"
check batch_long_name_cut test "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$OUT")" -lt 1000
tdbg_run -e "trace 1" "$D"
expect_rc 0 batch_trace_exit_0
no_raw batch_trace_clean "$OUT"
tdbg_run -e "stack trace 1" "$D"
no_raw batch_stack_clean "$OUT"
expect_file_has batch_stack_func_visible "$OUT" 'evil^[[7m_func'
tdbg_run -e "source /home/tdbg/project/model.py" "$D"
no_raw batch_source_clean "$OUT"
expect_file_has batch_source_esc_visible "$OUT" '^[[31mred^[[0m ^[]0;PWNED^G'

# JSON: the exact name, escaped the JSON way (no raw bytes on the wire).
tdbg_run --json -e "traces 0:6" "$D"
no_raw json_clean "$OUT"
json_expect json_exact_name 'd["rows"][1]["op_name"] == "evil/\x1b[2J\x1b[H\x1b]0;PWNED\x07title"'

# TUI: the screen shows the escapes as text, the title is not set, the
# screen is not cleared under tdbg's feet.
TUI_COLS=120 TUI_ROWS=30
tui_start "$D"
tui_wait "? help" || fail tui_started "no status bar"
# The name is cut to its column, from the left or the right.
tui_wait "ctl/^M^H^?^Atab" >/dev/null
if tui_screen | grep -qE 'evil/\^\[\[2J|\^\[\]0;PWNED\^Gtitle'; then
	ok tui_esc_shown_as_text
else
	fail tui_esc_shown_as_text "the ESC op name is not shown as ^[ text"
	sed 's/^/    | /' "$TUI_SCREEN" | head -8
fi
tui_screen >/dev/null
check tui_ctl_shown_as_text grep -qF 'ctl/^M^H^?^Atab' "$TUI_SCREEN"
check tui_status_bar_intact grep -qF '? help' "$TUI_SCREEN"
title=$(tmx display-message -p -t t '#{pane_title}')
case $title in *PWNED*) fail tui_title_untouched "the dump set the window title: $title" ;;
	*) ok tui_title_untouched ;; esac
tmx capture-pane -p -e -t t >"$WORK/screen.esc"
check tui_no_blink_attr test "$(grep -c $'\e\\[5m' "$WORK/screen.esc")" -eq 0
tui_keys q
tui_expect_exit 0 tui_quit
