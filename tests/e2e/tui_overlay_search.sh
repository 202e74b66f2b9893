#!/bin/bash
# tui_overlay_search.sh - issue 12 item 14: n and N go on with a / search in
# the text overlays (help, tensor view).  A text view scrolls by its top
# line, which cannot go past the last screenful, so the search must go on
# from the line it found, not from the top line: before the fix n found the
# same line again and again once the matches sat on the last screen.
. "$(dirname "$0")/lib.sh"

TUI_COLS=80 TUI_ROWS=24
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# pos PATTERN: the line number in the message "/PATTERN: L/N"
pos() { tui_screen >/dev/null; grep -oE "^/$1: [0-9]+/" "$TUI_SCREEN" | grep -oE '[0-9]+' | head -1; }
# wait_pos_not PATTERN L: until the message's line differs from L
wait_pos_not() {
	local i p
	for i in $(seq 50); do
		p=$(pos "$1")
		[ -n "$p" ] && [ "$p" != "$2" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	echo "$p"
	return 1
}

# The tensor view of trace row 0 (FULL_HEALTH): its statistics name NaN
# twice (the NaN count, and whether there is any Inf/NaN), both below the
# first screenful's top line.
tui_keys 3 t
tui_wait "Tensor: trace 0" || die "no tensor view"
tui_keys /
tui_type 'NaN'
tui_keys Enter
tui_wait '/NaN: ' || die "search did not run"
first=$(pos NaN)
tui_keys n
second=$(wait_pos_not NaN "$first") && ok tensor_n_moves_on ||
	fail tensor_n_moves_on "n stayed on line $first"
tui_keys N
back=$(wait_pos_not NaN "$second")
expect_eq tensor_N_goes_back "$back" "$first"
tui_keys q

# The help: n goes through every match and wraps to the first one, the
# matches on the last screen included.
tui_keys '?'
tui_wait "move-down" || die "no help"
tui_keys /
tui_type 'quit'
tui_keys Enter
tui_wait '/quit: ' || die "help search did not run"
first=$(pos quit)
prev=$first wrapped=no
for i in $(seq 30); do
	tui_keys n
	cur=$(wait_pos_not quit "$prev") || break
	if [ "$cur" -lt "$prev" ]; then wrapped=yes; break; fi
	prev=$cur
done
if [ "$wrapped" = yes ] && [ "$cur" = "$first" ]; then
	ok help_n_walks_every_match_and_wraps
else
	fail help_n_walks_every_match_and_wraps "stuck at $prev (first $first, last $cur)"
fi
tui_keys q q
tui_expect_exit 0 quit
