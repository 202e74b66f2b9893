#!/bin/bash
# tui_timeline.sh - the Timeline pane: executions as cells labelled the
# Debugger V2 way (function names shortened), h/l and j/k move by cell and
# line with the position in the title, / finds a function call, Enter on it
# filters the trace table to its graph (README: Log:0 at row 88 and probs:0
# at row 85 belong to graph `loss`), Enter on an eager op shows its details.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# function calls are labelled without __inference_ and the id suffix
# (issue 24 item 1: the Timeline sits beside the Graph, below the top row,
# so the cells are found under its title, and the call is scrolled to)
tui_keys :
tui_type 'goto execution 32'
tui_keys Enter
tui_expect function_label_shortened "loss (bwd)"
ty=$(grep -n -F "[2] Timeline" "$TUI_SCREEN" | head -1 | cut -d: -f1)
cells=$(awk -F'│' -v t="$ty" 'NR > t && NR < t + 10 { print $1 }' "$TUI_SCREEN")
if [ -z "$ty" ] || [ -z "$cells" ]; then
	fail no_raw_function_names_in_cells "no timeline cells found"
elif echo "$cells" | grep -qF "__inference"; then
	fail no_raw_function_names_in_cells "a cell shows __inference"
else
	ok no_raw_function_names_in_cells
fi

tui_keys 2 g
# (the title may carry a note, e.g. "(rows not linked)")
tui_wait " 1/224 #0 " && ok position_in_title
tui_keys l
tui_wait " 2/224 #1 " && ok l_moves_one_cell
tui_keys j
# three cells per line at this width: j moves three executions on
tui_wait " 5/224 #4 " && ok j_moves_one_line
tui_keys h
tui_wait " 4/224 #3 " && ok h_moves_back

tui_keys /
tui_type '^__inference_loss_'
tui_keys Enter
tui_wait "__inference_loss_" && ok search_finds_loss_call
tui_keys Enter
if tui_wait "filter: graph="; then
	ok enter_filters_traces_to_graph
	tui_keys :
	tui_type 'goto 88'
	tui_keys Enter
	tui_wait "Log (Log)" && ok row_88_in_loss_graph
	tui_keys :
	tui_type 'goto 85'
	tui_keys Enter
	tui_wait "probs (Placeholder)" && ok row_85_in_loss_graph
fi
tui_keys :
tui_type 'filter off'
tui_keys Enter
tui_wait "filter off" >/dev/null

# an eager op (execution 0 is not a function call): Enter shows details
tui_keys 2 g Enter
tui_wait "Execution 0 " && ok enter_on_eager_op_shows_details
tui_keys Escape
tui_keys q
tui_expect_exit 0 quit
