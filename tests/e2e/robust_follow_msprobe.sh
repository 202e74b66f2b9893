#!/usr/bin/env bash
# robust_follow_msprobe.sh - `tdbg --follow` on an msprobe dump being
# written (issue 26): msprobe rewrites dump.json whole at each flush,
# truncating it and then writing it under an exclusive flock
# (reader/msprobe/FORMAT.md §2).  tdbg must show the previous flush until
# the new one is whole, never part of it, then its new entries.  Facts from
# tests/fixtures/msprobe/pt_stats_2rank/facts.json: step0/rank0 has 13
# entries and 37 tensor leaves; the first 4 entries hold 13 leaves.
. "$(dirname "$0")/lib.sh"

wait_ok()
{
	if tui_wait "$2" "${3:-$E2E_TIMEOUT}"; then ok "$1"; else fail "$1" "'$2' not on screen"; fi
}

TUI_COLS=200 TUI_ROWS=10
D=$WORK/live/step0/rank0
mkdir -p "$D"
SRC=$FIXTURES/msprobe/pt_stats_2rank/step0/rank0/dump.json
# flush 1: the first 4 entries (written by the generator's data, cut by entry)
python3 - "$SRC" "$D/dump.json" 4 <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]), object_pairs_hook=collections.OrderedDict)
keep = list(d["data"].items())[:int(sys.argv[3])]
d["data"] = collections.OrderedDict(keep)
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY

tui_start --follow "$WORK/live"
wait_ok first_flush "13 traces"

# flush 2, the way msprobe writes it: truncate, lock, write slowly, unlock
python3 - "$SRC" "$D/dump.json" <<'PY' &
import fcntl, sys, time
text = open(sys.argv[1]).read()
with open(sys.argv[2], "w") as f:
    time.sleep(1.0)                 # truncated, not locked yet
    fcntl.flock(f, fcntl.LOCK_EX)
    half = len(text) // 2
    f.write(text[:half]); f.flush()
    time.sleep(2.0)                 # half written, under the lock
    f.write(text[half:]); f.flush()
    fcntl.flock(f, fcntl.LOCK_UN)
PY
writer=$!
half=0
for _ in $(seq 1 25); do
	sleep 0.1
	tui_screen >/dev/null
	grep -qE "\b13 traces" "$TUI_SCREEN" || grep -qE "\b37 traces" "$TUI_SCREEN" || half=1
	if ! kill -0 $writer 2>/dev/null; then break; fi
done
wait $writer
if [ $half = 1 ]; then
	fail never_half_a_flush "the trace count showed part of a flush: $(grep -o '[0-9]* traces' "$TUI_SCREEN")"
else
	ok never_half_a_flush
fi
wait_ok whole_flush_after_unlock "37 traces" 8
tui_keys q
tui_expect_exit 0 quit
tui_stop
