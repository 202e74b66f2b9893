# tests/e2e/lib.sh - helpers for the end-to-end tests (bash).
#
# Every tests/e2e/*.sh except this file is one test script.  It sources this
# file, drives the real binary ($TDBG) in batch mode or in tmux, and reports
# each check as one line, "ok NAME" or "FAIL NAME: reason".  tests/run-e2e.sh
# runs them all and prints "N passed, N failed".  A script prints at least one
# result line; one that exits non-zero without a FAIL line is counted failed.
#
# Run one test alone:   TDBG=$PWD/tdbg bash tests/e2e/tui_panes.sh
# Run all:              make e2e        (or TDBG=... tests/run-e2e.sh [FILES])
#
# What this file sets up (tig's libtest.sh pins the same things):
#   - a private temp dir $WORK (removed on exit unless E2E_KEEP=1), with HOME,
#     XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_STATE_HOME in it;
#   - LC_ALL=C.UTF-8, TZ=UTC, NO_COLOR unset, COLUMNS/LINES unset;
#   - $TOP (the repo), $FIXTURES (tests/fixtures), $TEST (script name);
#   - a private tmux server (tmux -L <unique socket> -f <our conf>), so tests
#     never touch a user's tmux; status line off so tdbg gets the full size.
#
# Example, a TUI test (tests/e2e/tui_example.sh):
#
#   . "$(dirname "$0")/lib.sh"
#   tui_start "$FIXTURES/tfdbg2/mnist_nan"         # 80x24 unless TUI_COLS/ROWS
#   tui_wait "Alerts" || fail "no Alerts pane"     # polls capture-pane
#   tui_keys '?'                                   # tmux send-keys syntax
#   tui_expect help_overlay "move-down"           # ok/FAIL, waits for it
#   tui_keys q
#   tui_expect_exit 0 quit_exits_0                 # "ok"/"FAIL" by exit code
#
# Example, a batch test:
#
#   . "$(dirname "$0")/lib.sh"
#   tdbg_run --json -e info "$FIXTURES/tfdbg2/mnist_nan"
#   expect_rc 0 info_exit_0
#   json_expect info_format 'd["format"] == "tfdbg2"'
#
# Always call the binary through tdbg / tdbg_run (never "$TDBG" directly):
# `make valgrind` and `make asan` wrap it through $TDBG_WRAP and check the
# sanitizer/valgrind reports.

set -u

: "${TDBG:?TDBG must name the tdbg binary (make e2e sets it)}"
case $TDBG in /*) ;; *) TDBG=$(cd "$(dirname "$TDBG")" && pwd)/$(basename "$TDBG") ;; esac
export TDBG

TEST=$(basename "$0" .sh)
E2E_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$E2E_DIR/../.." && pwd)
FIXTURES=$TOP/tests/fixtures
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tdbg-e2e.$TEST.XXXXXX")
E2E_TIMEOUT=${E2E_TIMEOUT:-10}      # seconds for each wait
E2E_FAILS=0
E2E_OKS=0
# The results channel: a wait's FAIL goes here even when its caller sends
# the wait's stdout to /dev/null (`tui_wait X >/dev/null` hides the screen
# of a success, never a failure).
exec {E2E_OUT}>&1

export HOME=$WORK/home
export XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data
export XDG_CACHE_HOME=$WORK/cache XDG_STATE_HOME=$WORK/state
# $PYNUM: a python3 with numpy (Debian's python3-numpy, which make deps
# installs), for tests that compute expected values; the first python3 on
# PATH may be another installation (pyenv) without it.
PYNUM=python3
if ! python3 -c 'import numpy' 2>/dev/null && [ -x /usr/bin/python3 ] &&
	/usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	PYNUM=/usr/bin/python3
fi
export LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC
unset NO_COLOR COLUMNS LINES TMUX TMUX_PANE LANGUAGE
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME"

# ---- results ---------------------------------------------------------

# ok NAME: one passed check.
ok()
{
	E2E_OKS=$((E2E_OKS + 1))
	if [ $# -ge 1 ]; then echo "ok $TEST/$1"; else echo "ok $TEST"; fi
}

# fail [NAME:] REASON: one failed check; the script goes on and exits 1.
# With one argument the check is named after the script.
fail()
{
	E2E_FAILS=$((E2E_FAILS + 1))
	if [ $# -ge 2 ]; then
		echo "FAIL $TEST/$1: $2"
	else
		echo "FAIL $TEST: $1"
	fi
	return 1
}

# die REASON: fail and stop the script now.
die()
{
	fail "$1"
	exit 1
}

# check NAME CMD...: ok NAME when CMD succeeds, else FAIL naming CMD.
check()
{
	local name=$1
	shift
	if "$@"; then ok "$name"; else fail "$name" "failed: $*"; fi
}

# expect_eq NAME ACTUAL EXPECTED
expect_eq()
{
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}

# expect_file_has NAME FILE TEXT: FILE contains TEXT (fixed string).  When
# FILE is the screen capture ($TUI_SCREEN) and tdbg's screen is still up, a
# missing TEXT is waited for on the live screen (up to E2E_TIMEOUT): panes
# fill in as the background index goes, so a capture taken the moment one
# marker appeared may be a little early for the next.
expect_file_has()
{
	if grep -qF -- "$3" "$2" || _screen_catches_up "$2" "$3"; then
		ok "$1"
	else
		fail "$1" "'$3' not found in $(basename "$2")"
		sed 's/^/    | /' "$2" | head -40
		return 1
	fi
}

_screen_catches_up()
{
	[ "$1" = "${TUI_SCREEN:-}" ] || return 1
	tmx has-session -t t 2>/dev/null || return 1
	_tui_poll present "$2" "$E2E_TIMEOUT" >/dev/null
}

# expect_file_lacks NAME FILE TEXT
expect_file_lacks()
{
	if grep -qF -- "$3" "$2"; then
		fail "$1" "'$3' found in $(basename "$2")"
	else
		ok "$1"
	fi
}

# ---- batch mode ------------------------------------------------------
# TDBG_WRAP is a command prefix (valgrind ...) set by `make valgrind`.

# tdbg ARGS...: runs the binary (through $TDBG_WRAP), stdio untouched.
tdbg()
{
	# shellcheck disable=SC2086
	${TDBG_WRAP:-} "$TDBG" "$@"
}

# tdbg_run ARGS...: runs it with stdin from /dev/null; stdout goes to $OUT,
# stderr to $ERR (files), the exit code to $RC.  Never fails itself.
OUT=$WORK/out
ERR=$WORK/err
RC=0
E2E_RUNS=0
tdbg_run()
{
	E2E_RUNS=$((E2E_RUNS + 1))
	RC=0
	tdbg "$@" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	_wrap_check "$@"
	return 0
}

# Under valgrind or a sanitizer, a report is a failure whatever the exit code.
_wrap_check()
{
	# valgrind -q prints "==PID== ..." lines only for errors and leaks.
	if grep -qE '^==[0-9]+== ?[^ ]|ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$ERR" ||
		{ [ -n "${TDBG_WRAP:-}" ] && [ "$RC" = 99 ]; }; then
		fail "memcheck" "report from tdbg $*"
		sed 's/^/    | /' "$ERR" | head -60
	fi
}

# expect_rc CODE NAME: the last tdbg_run exited CODE.
expect_rc()
{
	if [ "$RC" = "$1" ]; then
		ok "$2"
	else
		fail "$2" "exit $RC, expected $1; stderr: $(head -c 300 "$ERR")"
	fi
}

# ---- JSON (python3) --------------------------------------------------
# In EXPR the parsed document is `d`.  With several -e commands, --json
# prints one JSON document per line: then `d` is the list of them (d[0] is
# the first command's result).

_JSON_PY='
import json, sys
def load(path):
    text = open(path).read()
    try:
        return json.loads(text)
    except ValueError:
        lines = [l for l in text.splitlines() if l.strip()]
        if len(lines) < 2:
            raise
        return [json.loads(l) for l in lines]
'

# json_valid [FILE]: FILE (default $OUT) is JSON (one document, or one a line).
json_valid()
{
	python3 -c "$_JSON_PY"'
load(sys.argv[1])' "${1:-$OUT}" 2>/dev/null
}

# json_sans_cache FILE: the JSON document in FILE with its keys sorted and
# the index_cache* keys (which say how the index was found) left out, so a
# warm answer can be compared with a --no-cache one.
json_sans_cache()
{
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
if isinstance(d, dict):
    [d.pop(k, None) for k in ("index_cache", "index_cache_why", "index_cache_path", "index_cache_bytes")]
print(json.dumps(d, sort_keys=True))' "$1"
}

# json_get EXPR [FILE]: prints EXPR (strings raw, the rest as JSON).
json_get()
{
	python3 -c "$_JSON_PY"'
v = eval(sys.argv[1], {"d": load(sys.argv[2])})
print(v if isinstance(v, str) else json.dumps(v))' "$1" "${2:-$OUT}"
}

# json_expect NAME EXPR [FILE]: ok when EXPR is true for the document.
json_expect()
{
	local why
	if why=$(python3 -c "$_JSON_PY"'
try:
    d = load(sys.argv[2])
except Exception as e:
    print("not JSON: %s" % e); sys.exit(1)
try:
    r = eval(sys.argv[1], {"d": d})
except Exception as e:
    print("%s: %r" % (type(e).__name__, e)); sys.exit(1)
if not r:
    print("false: " + sys.argv[1]); sys.exit(1)' "$2" "${3:-$OUT}" 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

# ---- TUI in tmux -----------------------------------------------------
# One tdbg per test script, in session "t" of a private server.

TUI_COLS=${TUI_COLS:-80}
TUI_ROWS=${TUI_ROWS:-24}
TUI_TERM=${TUI_TERM:-tmux-256color}
TMUX_SOCK=${E2E_SOCK_PREFIX:-tdbg-e2e}-$$-$RANDOM
TUI_EXIT=$WORK/tui.exit         # "EXIT=<code>" once tdbg has exited
TUI_ERR=$WORK/tui.stderr        # tdbg's stderr (the screen is stdout)
TUI_SCREEN=$WORK/screen.txt     # last capture

# tmx ARGS...: tmux on our private server.
tmx()
{
	tmux -L "$TMUX_SOCK" -f "$WORK/tmux.conf" "$@"
}

# tui_start ARGS...: starts tdbg ARGS in a detached TUI_COLSxTUI_ROWS session.
# One tdbg at a time: a tdbg started earlier in the script is killed first.
tui_start()
{
	local q
	printf -v q ' %q' "$@"
	tui_stop
	cat >"$WORK/tmux.conf" <<EOF
set -g status off
set -g remain-on-exit on
set -g default-terminal "$TUI_TERM"
set -sg escape-time 0
set -g history-limit 0
EOF
	# The environment tdbg sees: ours, without the outer terminal's.
	export -p | grep -vE '^declare -x (TERM|TMUX|TMUX_PANE|COLUMNS|LINES)=' >"$WORK/env.sh"
	cat >"$WORK/run.sh" <<EOF
. "$WORK/env.sh"
rm -f "$TUI_EXIT"
${TDBG_WRAP:-} "$TDBG"$q 2>"$TUI_ERR"
echo "EXIT=\$?" >"$TUI_EXIT"
EOF
	rm -f "$TUI_EXIT"
	local try
	for try in 1 2 3 4 5; do
		tmx new-session -d -s t -x "$TUI_COLS" -y "$TUI_ROWS" "bash $WORK/run.sh" && return 0
		sleep 0.3
		tui_stop
	done
	die "tmux new-session failed"
}

# tui_keys KEYS...: tmux send-keys (names such as Enter, Escape, C-l, Down).
tui_keys()
{
	tmx send-keys -t t "$@"
}

# tui_type TEXT: types TEXT literally.
tui_type()
{
	tmx send-keys -t t -l -- "$1"
}

# tui_screen: prints the screen now (also saved to $TUI_SCREEN).
tui_screen()
{
	tmx capture-pane -p -t t >"$TUI_SCREEN" 2>/dev/null
	cat "$TUI_SCREEN"
}

# tui_capture FILE: saves the screen to FILE.
tui_capture()
{
	tmx capture-pane -p -t t >"$1"
}

# tui_wait TEXT [SECONDS]: waits until TEXT (fixed string) is on screen.
# On timeout it is a failed check (FAIL NAME/lineN, N the caller's line:
# a wait that times out can never pass in silence), prints the screen and
# returns 1.  `tui_wait X && ok name` is therefore a real check.
tui_wait()
{
	_tui_poll present "$1" "${2:-$E2E_TIMEOUT}" >&"$E2E_OUT" && return 0
	fail "line${BASH_LINENO[0]}" "waited ${2:-$E2E_TIMEOUT}s for '$1' on screen" >&"$E2E_OUT"
}

# tui_probe TEXT [SECONDS]: as tui_wait, but a timeout is no failure: for a
# screen that may or may not come (the caller decides what either means).
tui_probe()
{
	_tui_poll present "$1" "${2:-$E2E_TIMEOUT}" >/dev/null
}

# tui_expect NAME TEXT [SECONDS]: ok NAME once TEXT is on screen, FAIL (with
# the screen) if it never comes.  Prefer it to expect_file_has on a capture:
# the background index may still be filling the panes.
tui_expect()
{
	if _tui_poll present "$2" "${3:-$E2E_TIMEOUT}"; then
		ok "$1"
	else
		fail "$1" "'$2' never appeared on screen"
	fi
}

# tui_settle [SECONDS]: waits until two captures 0.2 s apart are the same
# (a redraw that tui_wait caught half way, under load, has finished);
# leaves the settled screen in $TUI_SCREEN.  Returns 1 if the screen is
# still changing after SECONDS (default 5).
tui_settle()
{
	local i=0 n prev
	n=$(awk -v s="${1:-5}" 'BEGIN { print int(s * 5) }')
	prev=$(tmx capture-pane -p -t t 2>/dev/null)
	while [ "$i" -le "$n" ]; do
		sleep 0.2
		tmx capture-pane -p -t t >"$TUI_SCREEN" 2>/dev/null
		[ "$(cat "$TUI_SCREEN")" = "$prev" ] && return 0
		prev=$(cat "$TUI_SCREEN")
		i=$((i + 1))
	done
	return 1
}

# tui_alert_group REGEX: focuses the Alerts pane and puts its cursor on the
# first group whose kind or op type REGEX matches (the origins' lines that
# lead the pane are not searched), ready for Enter.
tui_alert_group()
{
	tui_keys 1 g /
	tui_type "$1"
	tui_keys Enter
	tui_wait "/$1" >/dev/null
	tui_settle
}

# tui_wait_gone TEXT [SECONDS]: waits until TEXT is no longer on screen.
tui_wait_gone()
{
	_tui_poll absent "$1" "${2:-$E2E_TIMEOUT}" >&"$E2E_OUT" && return 0
	fail "line${BASH_LINENO[0]}" "waited ${2:-$E2E_TIMEOUT}s for '$1' to leave the screen" >&"$E2E_OUT"
}

# tui_probe_gone TEXT [SECONDS]: as tui_wait_gone without the failure.
tui_probe_gone()
{
	_tui_poll absent "$1" "${2:-$E2E_TIMEOUT}" >/dev/null
}

_tui_poll()
{
	local want=$1 text=$2 limit=$3 i=0 n
	n=$(awk -v s="$limit" 'BEGIN { print int(s * 10) }')
	while [ "$i" -le "$n" ]; do
		tmx capture-pane -p -t t >"$TUI_SCREEN" 2>/dev/null
		if grep -qF -- "$text" "$TUI_SCREEN"; then
			[ "$want" = present ] && return 0
		else
			[ "$want" = absent ] && return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "    timeout (${limit}s) waiting for '$text' ($want); screen:"
	_indent_screen <"$TUI_SCREEN"
	if [ -s "$TUI_ERR" ]; then
		echo "    stderr:"
		sed 's/^/    | /' "$TUI_ERR" | head -40
	fi
	return 1
}

# Prints stdin indented, without the trailing blank lines.
_indent_screen()
{
	awk '{ l[NR] = $0; if ($0 ~ /[^ ]/) last = NR }
	     END { for (i = 1; i <= last; i++) print "    | " l[i] }'
}

# tui_resize COLS ROWS: resizes the window (tdbg gets SIGWINCH).
tui_resize()
{
	tmx resize-window -t t -x "$1" -y "$2"
}

# tui_wait_exit [SECONDS]: waits for tdbg to exit; prints its exit code.
# Returns 1 (printing nothing) when it is still running at the deadline.
tui_wait_exit()
{
	local i=0 n
	n=$(awk -v s="${1:-$E2E_TIMEOUT}" 'BEGIN { print int(s * 10) }')
	while [ "$i" -le "$n" ]; do
		if [ -s "$TUI_EXIT" ]; then
			sed -n 's/^EXIT=//p' "$TUI_EXIT"
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# tui_expect_exit CODE NAME: ok when tdbg exits with CODE in time.  Also
# checks its stderr for sanitizer/valgrind reports.
tui_expect_exit()
{
	local code
	if ! code=$(tui_wait_exit); then
		fail "$2" "tdbg still running after ${E2E_TIMEOUT}s"
		tui_screen | _indent_screen
		return 1
	fi
	cp "$TUI_ERR" "$ERR" 2>/dev/null && _wrap_check "(tui)"
	if [ "$code" = "$1" ]; then
		ok "$2"
	else
		fail "$2" "exit $code, expected $1; stderr: $(head -c 300 "$TUI_ERR" 2>/dev/null)"
	fi
}

# tui_stop: kills the tmux server (done on exit anyway).
tui_stop()
{
	local i
	tmx kill-server 2>/dev/null || return 0
	# kill-server returns before the server is gone; wait for it.
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		tmx list-sessions >/dev/null 2>&1 || return 0
		sleep 0.1
	done
	return 0
}

# ---- exit ------------------------------------------------------------

_e2e_exit()
{
	local rc=$?
	trap - EXIT
	tui_stop
	if [ "$rc" -ne 0 ] && [ "$E2E_FAILS" -eq 0 ]; then
		echo "FAIL $TEST: script exited $rc"
	fi
	if [ "$E2E_OKS" -eq 0 ] && [ "$E2E_FAILS" -eq 0 ] && [ "$rc" -eq 0 ]; then
		echo "FAIL $TEST: no check ran"
		rc=1
	fi
	[ "$E2E_FAILS" -gt 0 ] && rc=1
	if [ "${E2E_KEEP:-0}" = 1 ]; then
		echo "    kept $WORK"
	else
		# Tests may have made dumps read-only (chmod -R a-w).
		chmod -R u+w "$WORK" 2>/dev/null
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap _e2e_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
