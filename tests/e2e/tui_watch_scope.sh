#!/usr/bin/env bash
# tui_watch_scope.sh - issue 24 item 4: a watch added at the prompt belongs
# to the open dump (its saved state) and does not fire on other dumps; with
# --global it goes to the watches file and every dump has it; watch list
# says where each lives (scope: dump, global, session).
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/tfdbg2/mnist_nan" "$WORK/a"
cp -r "$FIXTURES/tfdbg2/mnist_nan" "$WORK/b"
F=$XDG_CONFIG_HOME/tdbg/watches

TUI_COLS=160 TUI_ROWS=45
tui_start "$WORK/a"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_keys :
tui_type "watch add mine 'abs_mean > 1'"
tui_keys Enter
tui_expect prompt_add_is_the_dumps "added for this dump (--global: every dump)"
tui_keys :
tui_type "watch add every 'nan > 0' --global"
tui_keys Enter
tui_expect prompt_add_global "added for every dump (the watches file)"
tui_keys q
tui_expect_exit 0 quit_a

check global_in_the_file grep -qx 'every nan > 0' "$F"
check dump_watch_not_in_the_file test "$(grep -c '^mine ' "$F")" -eq 0

# another dump: the global watch, not the first dump's
tdbg_run --json -e 'watch list' "$WORK/b"
json_expect other_dump_has_global_only '[(w["name"], w["scope"]) for w in d["watches"] if not w["recommended"]] == [("every", "global")]'
json_expect recommended_are_global 'all(w["scope"] == "global" for w in d["watches"] if w["recommended"])'
tdbg_run --json -e "watch add s 'max > 1'" -e 'watch list' "$WORK/b"
json_expect batch_add_is_the_sessions '[w["scope"] for w in d[1]["watches"] if w["name"] == "s"] == ["session"]'

# the first dump again: its watch comes back with its state
tui_start "$WORK/a"
tui_wait "InfNan Log" || die "tdbg did not start again"
tui_keys :
tui_type "watch list"
tui_keys Enter
tui_wait "every" >/dev/null
tui_settle
check reopened_dump_has_its_watch grep -qE 'mine +no +dump +abs_mean > 1' "$TUI_SCREEN"
check reopened_dump_has_global grep -qE 'every +no +global +nan > 0' "$TUI_SCREEN"
tui_keys Escape q
tui_expect_exit 0 quit_a_again

[ "$E2E_FAILS" -eq 0 ]
