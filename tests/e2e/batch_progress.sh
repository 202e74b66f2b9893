#!/usr/bin/env bash
# batch_progress.sh - issue 24 item 11: a long first open in batch mode
# shows a progress line on stderr when stderr is a terminal (here a pty):
# bytes done of the total, rows per second, redrawn in place with \r and
# cleared at the end; nothing with --quiet, nothing when stderr is not a
# terminal, and stdout keeps only the command's answer.  TDBG_PROGRESS_AFTER=0
# shows it from the start (the default waits a second, longer than this
# dump takes).  Facts: the generator's --facts (traces_valid).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
D=$WORK/big
"$GEN" -q -n 300000 --facts "$WORK/facts" "$D" || die "generator failed"
N=$(awk '$1 == "traces_valid" { print $2 }' "$WORK/facts")

# pty_run OUT ERR ARGS...: runs tdbg with stderr on a pty (stdout to OUT),
# the pty's bytes to ERR
pty_run()
{
	python3 - "$@" <<'PY'
import os, pty, subprocess, sys
out, err, args = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(args, stdout=o, stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
p.wait()
open(err, "wb").write(data)
sys.exit(p.returncode)
PY
}

export TDBG_PROGRESS_AFTER=0
pty_run "$WORK/out" "$WORK/err" "$TDBG" --no-cache --json -e info "$D"
expect_rc 0 progress_run_exit_0
expect_file_has progress_line_shown "$WORK/err" "tdbg: indexing "
check progress_says_bytes grep -qE 'indexing [0-9]+%: [0-9.]+ (MB|KB|bytes|GB) of [0-9.]+ (MB|KB|GB)' "$WORK/err"
check progress_says_rate grep -qE '[0-9.]+M? rows/s' "$WORK/err"
check progress_redrawn_in_place grep -q $'\r' "$WORK/err"
check progress_cleared_at_the_end python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(0 if d.endswith(b"\r\x1b[K") else 1)' "$WORK/err"
json_expect stdout_only_the_answer "d[\"graph_execution_traces\"] == $N" "$WORK/out"

pty_run "$WORK/out" "$WORK/err" "$TDBG" --no-cache --quiet --json -e info "$D"
check quiet_no_progress test ! -s "$WORK/err"

"$TDBG" --no-cache --json -e info "$D" >"$WORK/out" 2>"$WORK/err"
check not_a_terminal_no_progress test ! -s "$WORK/err"

# a cached open reads the index, not the dump: no line.  The runs above
# were --no-cache, so one open first writes the index; then the open
# under test must find it.  (Under make tsan or asan every open is
# several times slower, so the threshold is 5 s here rather than the
# default second.)
"$TDBG" --quiet --json -e info "$D" >"$WORK/first" 2>&1 ||
	fail cached_open_index_written "the first cached open failed"
TDBG_PROGRESS_AFTER=5000 pty_run "$WORK/out" "$WORK/err" "$TDBG" --json -e info "$D"
json_expect cached_open_used_the_index 'd["index_cache"] == "used"' "$WORK/out"
check cached_open_no_progress test ! -s "$WORK/err"
unset TDBG_PROGRESS_AFTER

[ "$E2E_FAILS" -eq 0 ]
