#!/bin/bash
# tui_help_small.sh - the help overlay and the status bar on small screens:
# help lines wrap to the width instead of running off the edge, the help
# scrolls to its last line, a resize re-wraps it; the status bar gives up
# its least useful parts first (path -> base name, host, format) so the
# row counts and an active filter stay readable at 80x24 and 40x12.
# Facts: mnist_nan has 224 executions, 680 traces, 568 alerts (README).
. "$(dirname "$0")/lib.sh"

# status_line: the screen's second-to-last line (the last is the prompt)
status_line() { tui_screen | tail -n 2 | head -n 1; }

TUI_COLS=80 TUI_ROWS=24 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "568 alerts" || die "tdbg did not start"
# the first screen may come while the index pass still runs: its
# "indexing N%" takes the room the base name needs, so read the status
# once the pass has ended
tui_wait_gone "indexing" || die "the index pass did not end"
st=$(status_line)
case $st in *" mnist_nan  tfdbg2 FULL_HEALTH  "*"680 traces 568 alerts"*) ok status_80_base_name_and_counts ;;
	*) fail status_80_base_name_and_counts "status: $st" ;; esac
tui_keys :
tui_type 'filter type=^Log$'
tui_keys Enter
tui_wait "(10 traces" >/dev/null
st=$(status_line)
case $st in *"568 alerts  filter: type=^Log\$"*) ok status_80_keeps_filter ;;
	*) fail status_80_keeps_filter "status: $st" ;; esac
tui_keys : ; tui_type 'filter off'; tui_keys Enter

tui_keys '?'
tui_wait "Help" || die "no help"
# a help line longer than the width wraps under its column
tui_wait "Move left (timeline cells; scrolls" && ok help_80_first_part
expect_file_has help_80_wrapped_rest "$TUI_SCREEN" "                                           source and overlays)"
tui_keys G
tui_wait "Leave tdbg" && ok help_scrolls_to_end
pos=$(head -n 1 "$TUI_SCREEN" | grep -oE '[0-9]+/[0-9]+ *$' | tr -d ' ')
case $pos in "") fail help_position "no position in: $(head -n 1 "$TUI_SCREEN")" ;;
	*) ok help_position ;; esac

# resize with the help open: it is wrapped again for 40 columns
tui_resize 40 12
tui_keys g
tui_wait "j/k, PgDn/PgUp, g/G scroll this help;" && ok help_40_rewrapped
tui_keys j j j j j j j j j j
tui_wait "      Move the cursor down" && ok help_40_text_below_keys
over=$(tui_screen | awk 'length($0) > 40' | wc -l)
expect_eq help_40_no_line_overflows "$over" 0
tui_keys Escape
tui_wait_gone "Help" >/dev/null
st=$(status_line)
case $st in *"224 exec 680 traces 568 alerts"*"?:help"*) ok status_40_counts_and_help_hint ;;
	*) fail status_40_counts_and_help_hint "status: $st" ;; esac
tui_keys q
tui_expect_exit 0 quit
