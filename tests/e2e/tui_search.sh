#!/bin/bash
# tui_search.sh - / searches the focused pane with a PCRE2 regex, n and N
# go to the next and previous match; a regex that matches nothing says so;
# in the Alerts pane n walks the selected group's alerts.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

pos() { grep -F "[3] Graph executions" "$TUI_SCREEN" | grep -oE '[0-9]+/680' | cut -d/ -f1; }
# wait_pos_not N: polls until the trace table's position is no longer N
wait_pos_not() {
	local i
	for i in $(seq 100); do
		tui_screen >/dev/null
		[ "$(pos)" != "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

tui_keys 3 /
tui_type '^probs$'
tui_keys Enter
if tui_wait '/^probs$: '; then
	first=$(pos)
	expect_file_has search_selects_probs "$TUI_SCREEN" "probs (Placeholder)"
	tui_keys n
	wait_pos_not "$first"
	tui_wait "probs (Placeholder)" >/dev/null
	second=$(pos)
	if [ -n "$first" ] && [ -n "$second" ] && [ "$second" -gt "$first" ]; then
		ok n_goes_to_next_match
	else
		fail n_goes_to_next_match "positions $first then $second"
	fi
	tui_keys N
	wait_pos_not "$second"
	expect_eq N_goes_back "$(pos)" "$first"
fi

tui_keys /
tui_type 'no_such_op_zz'
tui_keys Enter
tui_wait "not found" && ok no_match_says_not_found

# Alerts pane: Enter on the Log group goes to its first alert (9 alerts in
# the README's story, the first is row 88), then n/N walk the group.
tui_alert_group '^Log$'
tui_keys Enter
if tui_wait "alert 1 of"; then
	tui_wait "89/680" && ok alerts_n_starts_at_first
	tui_keys n
	tui_wait "alert 2 of" && ok alerts_n_next_in_group
	tui_keys N
	tui_wait "alert 1 of" && ok alerts_N_previous_in_group
fi

tui_keys q
tui_expect_exit 0 quit
