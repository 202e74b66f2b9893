#!/usr/bin/env bash
# robust_readonly.sh - tdbg never creates, changes or locks anything in a
# dump directory (issue 6).
#
# A copy of two fixtures is made read-only (chmod -R a-w).  Root ignores
# that, and CI runs as root, so the proof is the comparison: sha256 of every
# file, and the directory listing (names, sizes, modes, mtimes), before and
# after batch commands and a TUI session, must be identical.  When strace is
# installed, the batch run is also traced and every open of a dump file must
# be read-only, with no create/rename/unlink/lock call on the dump.
. "$(dirname "$0")/lib.sh"

snap()
{
	(cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%n %s %a %Y %F' &&
		find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

for name in clean torn; do
	D=$WORK/ro_$name
	cp -rp "$FIXTURES/robust/$name" "$D"
	chmod -R a-w "$D"
	snap "$D" >"$WORK/$name.before"

	for cmd in info alerts first-nonfinite "traces 0:50" "traces --op dense_[0-9]+/MatMul" \
		"trace 160" "execution 1" "stack trace 160" "inputs 160" "consumers 160" \
		"source /home/tdbg/project/model.py" problems graphs sources; do
		tdbg_run --json -e "$cmd" "$D"
		[ "$RC" -le 1 ] || fail "$name/batch_rc" "'$cmd' exited $RC"
	done
	tdbg_run --strict -e info "$D"

	TUI_COLS=100 TUI_ROWS=30
	tui_start "$D"
	if tui_probe "? help"; then
		tui_keys 3 G g Enter
		tui_keys 5 Tab Tab 1 Enter
		tui_keys / dense Enter
		tui_wait "? help" >/dev/null
		tui_keys q
		tui_expect_exit 0 "$name/tui_quit"
	else
		fail "$name/tui_started" "no status bar"
	fi
	tui_stop

	snap "$D" >"$WORK/$name.after"
	if cmp -s "$WORK/$name.before" "$WORK/$name.after"; then
		ok "$name/unchanged"
	else
		fail "$name/unchanged" "the dump directory changed:"
		diff "$WORK/$name.before" "$WORK/$name.after" | sed 's/^/    | /' | head -20
	fi
	chmod -R u+w "$D"
done

if command -v strace >/dev/null 2>&1; then
	D=$WORK/ro_clean
	strace -f -qq -o "$WORK/strace" -e trace=open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,flock,fcntl,truncate,ftruncate \
		"$TDBG" --json -e info -e alerts -e "trace 160" -e "source /home/tdbg/project/model.py" "$D" \
		>/dev/null 2>&1 </dev/null
	grep -F "$D" "$WORK/strace" >"$WORK/strace.dump"
	if grep -qE 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat\(|rename|unlink|mkdir|truncate' "$WORK/strace.dump"; then
		fail strace_read_only "a dump path was opened for writing or changed:"
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat\(|rename|unlink|mkdir|truncate' "$WORK/strace.dump" | head -5 | sed 's/^/    | /'
	else
		ok strace_read_only
	fi
	if grep -qE 'flock\(|F_SETLK|F_OFD_SETLK' "$WORK/strace"; then
		fail strace_no_locks "tdbg takes a file lock: $(grep -E 'flock\(|F_SETLK' "$WORK/strace" | head -1)"
	else
		ok strace_no_locks
	fi
	check strace_opened_dump test -s "$WORK/strace.dump"
fi
