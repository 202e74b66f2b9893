#!/usr/bin/env bash
# robust_missing.sh - missing or unreadable parts (issue 6): open with what
# is there and say clearly what is missing; refuse what is no dump with one
# clear line (exit 2), never hang.
#
# Unreadable files: CI runs as root, where chmod 000 does not deny reading,
# so the unreadable file is made with tricks that work for root too: a
# directory in place of a file (read fails with EISDIR) and a FIFO in place
# of a file (opening it for reading would block forever if tdbg opened it
# like a file).  The chmod variant runs only when not root.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust
fact()
{
	sed -n "s/^$2 //p" "$R/$1.facts"
}

# A file set without .source_files.
tdbg_run --json -e info "$R/no_source_files"
expect_rc 0 no_sources/exit_0
json_expect no_sources/missing 'd["missing_files"] == 1 and d["source_files"] == 0'
json_expect no_sources/rest_intact "d['graph_execution_traces'] == $(fact no_source_files traces_valid) and d['executions'] == $(fact no_source_files executions) and d['ops'] == $(fact no_source_files ops)"
tdbg_run --json -e problems "$R/no_source_files"
json_expect no_sources/problem_names_file 'any(p["kind"] == "missing-file" and p["file"].endswith(".source_files") for p in d["items"])'
tdbg_run --json -e first-nonfinite "$R/no_source_files"
json_expect no_sources/first_nonfinite "d['index'] == $(fact no_source_files first_nonfinite_row)"
# The stack still shows its frames (line and function; the file names were
# only in .source_files): trace 0 (op "x") was made at train.py:30 <module>
# -> :25 main -> :15 train_step.
tdbg_run --json -e "stack trace 0" "$R/no_source_files"
expect_rc 0 no_sources/stack_exit_0
json_expect no_sources/stack_frames '[(f["line"], f["function"]) for f in d] == [(30, "<module>"), (25, "main"), (15, "train_step")]'

# Not a dump at all: one line on stderr, exit 2.
mkdir "$WORK/empty"
tdbg_run -e info "$WORK/empty"
expect_rc 2 empty_dir/exit_2
check empty_dir/says_what_it_looked_for grep -q 'tfdbg_events' "$ERR"
check empty_dir/one_line test "$(wc -l <"$ERR")" -le 2

: >"$WORK/afile"
tdbg_run -e info "$WORK/afile"
expect_rc 2 file_not_dir/exit_2
check file_not_dir/says_so grep -qi 'not a directory' "$ERR"

tdbg_run -e info "$WORK/does-not-exist"
expect_rc 2 no_such_dir/exit_2
check no_such_dir/says_so grep -qi 'no such file' "$ERR"

# A directory where .graphs should be: the rest is read, the file reported.
cp -r "$R/clean" "$WORK/eisdir"
chmod -R u+w "$WORK/eisdir"
g=$(echo "$WORK"/eisdir/*.graphs)
rm "$g" && mkdir "$g"
tdbg_run --json -e info "$WORK/eisdir"
expect_rc 0 dir_as_file/exit_0
json_expect dir_as_file/traces "d['graph_execution_traces'] == $(fact clean traces_valid) and d['executions'] == $(fact clean executions)"
tdbg_run --json -e problems "$WORK/eisdir"
json_expect dir_as_file/reported 'any(p["file"].endswith(".graphs") for p in d["items"])'

# A FIFO where .execution should be: must not block.
cp -r "$R/clean" "$WORK/fifo"
chmod -R u+w "$WORK/fifo"
x=$(echo "$WORK"/fifo/*.execution)
rm "$x" && mkfifo "$x"
RC=0
timeout 10 "$TDBG" --json -e info "$WORK/fifo" >"$OUT" 2>"$ERR" </dev/null || RC=$?
if [ "$RC" = 124 ]; then
	fail fifo/no_hang "tdbg blocked opening a FIFO in the dump (killed after 10 s)"
else
	ok fifo/no_hang
	json_expect fifo/traces "d['graph_execution_traces'] == $(fact clean traces_valid)"
fi

# chmod 000: only meaningful when not root.
if [ "$(id -u)" != 0 ]; then
	cp -r "$R/clean" "$WORK/denied"
	chmod -R u+w "$WORK/denied"
	chmod 000 "$WORK"/denied/*.stack_frames
	tdbg_run --json -e info "$WORK/denied"
	expect_rc 0 denied/exit_0
	json_expect denied/traces "d['graph_execution_traces'] == $(fact clean traces_valid)"
	tdbg_run --json -e problems "$WORK/denied"
	json_expect denied/reported 'any(p["file"].endswith(".stack_frames") for p in d["items"])'
	chmod -R u+rw "$WORK/denied"
else
	echo "    (running as root: chmod 000 does not deny; the EISDIR and FIFO cases cover unreadable files)"
fi
