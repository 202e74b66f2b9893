#!/usr/bin/env bash
# robust_rewrite.sh - follow mode tells the truth about a traces file that
# changes under it (issue 13): truncated and rewritten in place (a
# restarted job reopening it), renamed over, or rewritten in place with
# more bytes than before.  Each time tdbg reports an "inconsistent"
# problem, keeps the rows it had (marked stale: `trace N` says the file
# changed instead of decoding the new bytes under the old op's name) and
# reads the new file from its start.  Dumps from tests/gen/gen_tfdbg2: the
# first has 200 traces (--ops 60), the rewrites come from dumps of another
# program (--ops 20 --seed 2) with 120 or 300 traces.
. "$(dirname "$0")/lib.sh"

wait_ok()
{
	if tui_probe "$2" "${3:-$E2E_TIMEOUT}"; then ok "$1"; else fail "$1" "'$2' not on screen"; fi
}

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
TUI_COLS=200 TUI_ROWS=40
$GEN -q --ops 20 --seed 2 --nan-at -1 -n 120 "$WORK/small" || die "generator failed"
$GEN -q --ops 20 --seed 2 --nan-at -1 -n 300 "$WORK/big" || die "generator failed"
traces_of()
{
	echo "$1"/*.graph_execution_traces
}

# run NAME HOW NEW_COUNT SAYS: a fresh 200-trace dump followed, its traces
# file changed by HOW (inplace: truncate and write; rename: mv over); then
# the rows are 200 stale + NEW_COUNT new, and the problem says SAYS.
run()
{
	local name=$1 how=$2 new=$3 says=$4 src d f
	d=$WORK/$name
	src=$WORK/small
	[ "$new" = 300 ] && src=$WORK/big
	rm -rf "$d"
	$GEN -q --ops 60 --nan-at -1 -n 200 --executions 9 "$d" || die "generator failed"
	f=$(traces_of "$d")
	ino=$(stat -c %i "$f")
	tui_start --follow "$d"
	tui_wait "200 traces" || fail "$name/started" "no status bar with 200 traces"
	wait_ok "$name/following" "[follow]" 2
	case $how in
	inplace) cat "$(traces_of "$src")" >"$f"
		 check "$name/same_inode" test "$(stat -c %i "$f")" = "$ino" ;;
	rename)  cp "$(traces_of "$src")" "$f.new" && mv "$f.new" "$f" ;;
	esac
	wait_ok "$name/new_rows_read" "$((200 + new)) traces" 3
	tui_keys :
	tui_type 'problems'
	tui_keys Enter
	tui_probe "o: full output" 3 && tui_keys o   # short output: on the message line
	wait_ok "$name/problem_reported" "$says" 3
	tui_keys Escape
	tui_keys :
	tui_type 'trace 0'
	tui_keys Enter
	tui_probe "o: full output" 3 && tui_keys o   # short output: on the message line
	wait_ok "$name/old_row_is_stale" "file changed since this row was read" 3
	tui_keys Escape
	tui_keys q
	tui_expect_exit 0 "$name/quit"
	tui_stop
}

run truncated inplace 120 "file truncated"
run renamed rename 120 "file replaced"
run rewritten_longer inplace 300 "file rewritten"

# A second host whose .metadata file is still empty when tdbg starts (its
# writer has created it, nothing more): a problem, not a host; once its
# writer writes the record and the other files, follow mode reads it.
H=$WORK/twohosts
L=$WORK/late
$GEN -q --ops 20 --nan-at -1 -n 200 --hosts 2 --executions 3 "$H" || die "generator failed"
mkdir "$L"
cp "$H"/*worker-0* "$L"/
: >"$L/$(basename "$H"/*worker-1*.metadata)"
tui_start --follow "$L"
tui_wait "100 traces" || fail late_host/started "no status bar with 100 traces"
check late_host/one_host_first grep -qF "host worker-0.tdbg.test" "$TUI_SCREEN"
for f in "$H"/*worker-1*; do
	case $f in *.metadata) ;; *) cp "$f" "$L"/ ;; esac
done
cat "$H"/*worker-1*.metadata >"$L/$(basename "$H"/*worker-1*.metadata)"
wait_ok late_host/rows_read "200 traces" 3
wait_ok late_host/two_hosts "2 hosts" 3
tui_keys q
tui_expect_exit 0 late_host/quit
