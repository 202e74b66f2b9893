#!/bin/bash
# tui_hosts.sh - issue 12 (friction, several hosts): with more than one
# host the trace table has a Host column and the timeline labels each run
# with its rank and iteration ("r1 it0"), not "graph 0 iter 0" on every
# rank; the timeline's title names the host.  One host: no Host column.
# Facts (tests/fixtures/mindspore/README.md): sync_lenet is rank_0 with
# iterations 0 and 1; here rank_1 is a copy of it.
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/two"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_0"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_1"

TUI_COLS=160 TUI_ROWS=45
tui_start "$WORK/two"
tui_wait "InfNan MatMul" || die "tdbg did not start"
tui_expect host_column "Host"
tui_expect host_values "rank_0"
for c in "r0 it0" "r1 it0" "r0 it1" "r1 it1"; do
	expect_file_has "timeline_cell_${c// /_}" "$TUI_SCREEN" "$c"
done
expect_file_lacks no_graph_iter_cells "$TUI_SCREEN" "graph 0 iter 0  "
tui_expect timeline_title_names_host "on rank_0"
tui_keys q
tui_expect_exit 0 quit_two

tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan MatMul" || die "tdbg did not start on one rank"
tui_wait "I/O" >/dev/null
expect_file_lacks one_host_no_host_column "$TUI_SCREEN" " Host "
tui_keys q
tui_expect_exit 0 quit_one
