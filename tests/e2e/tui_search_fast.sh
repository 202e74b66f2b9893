#!/bin/bash
# tui_search_fast.sh - / in the trace table and the timeline goes through
# the model's filters (the regex runs once per distinct op), so a search
# that matches nothing answers at once on a large generated dump; a match
# on the op type alone is found; the search stays inside :filter.
# TDBG_TRACE_KEYS logs the time from each key to its screen update.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || { fail generator "tests/gen/build.sh failed"; exit 1; }
# under valgrind or a sanitizer ($TDBG_WRAP) times mean nothing: a small
# dump, and the behaviour checks only
rows=300000
[ -n "${TDBG_WRAP:-}" ] && rows=30000
"$GEN" -q -n "$rows" "$WORK/big" || { fail generator "gen_tfdbg2 failed"; exit 1; }
export TDBG_TRACE_KEYS=$WORK/keys.log

# us_of KEY: the time of the last KEY line in the key log
us_of() { awk -v k="$1" '$1 == k { t = $2 } END { print t + 0 }' "$TDBG_TRACE_KEYS"; }

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$WORK/big"
tui_wait "$rows traces" 60 || die "tdbg did not start"
tui_wait_gone "indexing" 120 || die "index did not finish"

tui_keys 3 /
tui_type 'zz_no_such_op'
tui_keys Enter
tui_wait "not found" && ok no_match_says_not_found
tui_keys n
tui_wait "not found" >/dev/null
sleep 0.3
us=$(us_of n)
if [ -n "${TDBG_WRAP:-}" ]; then
	[ "$us" -gt 0 ] && ok key_time_logged
elif [ "$us" -gt 0 ] && [ "$us" -lt 300000 ]; then
	ok no_match_search_under_300ms
else
	fail no_match_search_under_300ms "n took ${us} us over $rows rows"
fi

# a type match: ReluGrad rows have names ending in Relu_grad/ReluGrad, so
# ^ReluGrad$ only matches the type column
tui_keys /
tui_type '^ReluGrad$'
tui_keys Enter
tui_wait '/^ReluGrad$: ' && ok type_only_match_found
expect_file_has type_match_row_on_screen "$TUI_SCREEN" "Relu_grad/ReluGrad"

# inside a filter: only MatMul rows show, so a ReluGrad search finds none
tui_keys :
tui_type 'filter type=^MatMul$'
tui_keys Enter
tui_wait "type=^MatMul" || fail filter_set "no filter in the status bar"
tui_keys 3 n
tui_wait "not found" && ok search_stays_inside_filter
tui_keys :
tui_type 'filter off'
tui_keys Enter
tui_wait_gone "type=^MatMul"

# the timeline: labels are searched the same way
tui_keys 2 /
tui_type 'train_step'
tui_keys Enter
tui_wait '/train_step: 2/' && ok timeline_search_finds_function
tui_keys n
tui_wait '/train_step: 5/' && ok timeline_n_next_match
tui_keys N
tui_wait '/train_step: 2/' && ok timeline_N_previous_match

tui_keys q
tui_expect_exit 0 quit
