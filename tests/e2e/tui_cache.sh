#!/usr/bin/env bash
# tui_cache.sh - the persistent index in the TUI (issue 18): a dump indexed
# once (here by a batch run) opens in the TUI from the cache with all its
# rows and alerts, and --follow still picks up records appended after the
# cached index was saved.  The dump comes from tests/gen (the counts are
# the generator's).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
G="$GEN -q --ops 60"
TUI_COLS=200 TUI_ROWS=12

D=$WORK/grow
$G -n 200 --executions 9 --nan-at 50 --nan-every 0 "$D" || die "generator failed"
tdbg_run --json -e info "$D"
json_expect batch_saved_index 'd["index_cache"] == "new"'

tui_start --follow "$D"
tui_wait "200 traces" || fail opened "no status bar with 200 traces"
tdbg_run --json -e info "$D"
json_expect index_was_cached 'd["index_cache"] == "used"'
tui_expect alerts_from_cache "1 alerts"

# The job goes on: records appended after the cache was saved show up.
$G -n 300 --executions 3 --append "$D"
if tui_probe "500 traces" 3; then ok appended_rows_seen; else fail appended_rows_seen "no 500 traces"; fi
tui_keys q
tui_expect_exit 0 quit_exits_0

exit $((E2E_FAILS > 0))
