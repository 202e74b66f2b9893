#!/usr/bin/env bash
# many_nodes.sh - issue 28: many pseudo-nodes on one machine through the
# real launchers (pdsh's exec module, clush's exec worker), tdbg --node on
# each, then tdbg --merge, tdbg --via and the ranks view.
#
# The layout is tests/gen/make_nodes.sh's; the expected facts are the ones
# it states (by construction): MindSpore nodes n[1-16] with n4 failing
# (no folder), rank 6 unreadable on n7, rank 9 on n10 bad first at step 0,
# rank 14 twice (n15, n16), n17 expected but never asked (silent); tfdbg v2
# nodes t[1-4] (rank 2 on t3 bad first); tfdbg v1 nodes v[1-2].
#
# The launchers are Debian's pdsh and clustershell (make deps).  With
# CI=true a missing launcher is a FAIL; elsewhere the script says it skips.
# Every launcher run is bounded (timeout), and a timeout is a FAIL.
. "$(dirname "$0")/lib.sh"

need()
{
	command -v "$1" >/dev/null && return 0
	if [ "${CI:-}" = true ]; then
		die "$1 is not installed (make deps installs it)"
	fi
	echo "ok $TEST: skipped, $1 is not installed (make deps installs it)"
	exit 0
}
need pdsh
need clush

L=$WORK/layout
"$TOP/tests/gen/make_nodes.sh" "$L" >/dev/null 2>&1 || die "make_nodes.sh failed"
LIMIT=${E2E_LAUNCH_TIMEOUT:-120}

# launch NAME CMD...: runs a launcher (stdout+stderr to $WORK/NAME), bounded.
launch()
{
	local name=$1 rc=0
	shift
	timeout "$LIMIT" "$@" >"$WORK/$name" 2>&1 || rc=$?
	if [ "$rc" = 124 ]; then
		fail "$name" "timed out after ${LIMIT}s: $*"
	fi
}

# jx NAME EXPR: json_expect with EXPR in parentheses (it spans lines).
jx()
{
	json_expect "$1" "($2)"
}

ms_facts='d["ranks_found"] == 15 and d["missing"] == [3] and d["duplicated"] == [14]
	and d["failed_nodes"] == ["n4"] and d["silent_nodes"] == ["n17"]
	and d["first"]["rank"] == 9 and d["first"]["node"] == "n10" and d["first"]["step"] == 0
	and d["first"]["op_name"].endswith("fc3-Dense/MatMul-op10") and d["first"]["via"] is None'

# ---- pdsh -R exec: the README's recipe, then the merge --------------------
launch pdsh_ms pdsh -R exec -w 'n[1-16]' -f 64 -u 60 "$TDBG" --node "$L/ms/%h"
expect_eq pdsh_every_node_said_something "$(cut -d: -f1 "$WORK/pdsh_ms" | grep -c '^n[0-9]*$' | tr -d ' ')" 17
tdbg_run --merge --json --ranks 16 --nodes 'n[1-17]' "$WORK/pdsh_ms"
expect_rc 0 pdsh_merge_exit_0
jx pdsh_ms_merge "$ms_facts"
jx pdsh_ms_rank6_unreadable 'any(r["rank"] == 6 and r["node"] == "n7" and r["error"] for r in d["ranks"])'
jx pdsh_ms_lines_by_rank '[r["rank"] for r in d["ranks"] if r["rank"] is not None] ==
	[0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 15]'
jx pdsh_ms_groups 'sorted((g["ranks"], g["count"]) for g in d["groups"]
	if g["outcome"].startswith("NaN/Inf")) == [("0-2,4-5,7-8,10-15", 14), ("9", 1)]
	and [g["nodes"] for g in d["groups"] if g["ranks"] == "9"] == ["n10"]'
jx pdsh_ms_node_lines_hold_the_contract 'all(set(r) >= {"tdbg_node", "node", "dump",
	"format", "rank", "host", "rows", "executions", "steps", "first_bad", "origin", "comm",
	"watch_hits", "problems", "error"} for r in d["ranks"])
	and all(r["format"] == "mindspore-sync" and r["rows"] == 104 and r["steps"] == [0, 1]
	and r["origin"]["op_name"].endswith("MatMul-op10") for r in d["ranks"] if not r["error"])'
# the AllReduce beside the first bad step: finite for rank 9 (step 0 only),
# once finite and once not for the others (steps 0 and 1); peers not recorded
AR=Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_AllReduce-op300
jx pdsh_ms_comm '[(r["rank"], r["comm"]) for r in d["ranks"] if r["rank"] in (8, 9)] ==
	[(8, [{"op": "'$AR'", "type": "AllReduce", "calls": 2, "nonfinite": 1, "finite": False,
	       "peers": None}]),
	 (9, [{"op": "'$AR'", "type": "AllReduce", "calls": 1, "nonfinite": 0, "finite": True,
	       "peers": None}])]'
# a line is at most 64 KiB
expect_eq pdsh_lines_at_most_64k "$(awk 'length($0) > 65536' "$WORK/pdsh_ms" | wc -l | tr -d ' ')" 0

# text for people: the first rank and the command to look closer
tdbg_run --merge --ranks 16 --nodes 'n[1-17]' "$WORK/pdsh_ms"
expect_file_has pdsh_text_first "$OUT" "first bad rank: 9 on n10 (host rank_9), step 0"
# (the command to look closer names "tdbg", the program on the node, whatever
# binary did the merging: under make asan that is tdbg-asan)
expect_file_has pdsh_text_drill_ssh "$OUT" "ssh n10 tdbg $L/ms/n10"
expect_file_has pdsh_text_drill_srun "$OUT" "srun -w n10 --pty tdbg $L/ms/n10"
expect_file_has pdsh_text_missing "$OUT" "missing ranks: 3"
expect_file_has pdsh_text_silent "$OUT" "silent nodes: n17"

# standard input, as in `pdsh ... | tdbg --merge`
RC=0
tdbg --merge --json --ranks 16 --nodes 'n[1-17]' <"$WORK/pdsh_ms" >"$OUT" 2>"$ERR" || RC=$?
expect_rc 0 stdin_merge_exit_0
jx stdin_merge_same_facts "$ms_facts"

# ---- clush's exec worker, with and without -b ----------------------------
launch clush_ms clush -R exec -w 'n[1-16]' -f 64 -u 60 "$TDBG" --node "$L/ms/%h"
tdbg_run --merge --json --ranks 16 --nodes 'n[1-17]' "$WORK/clush_ms"
jx clush_ms_merge "$ms_facts"
launch clush_b clush -R exec -w 'n[1-16]' -f 64 -u 60 -b "$TDBG" --node "$L/ms/%h"
tdbg_run --merge --json --ranks 16 --nodes 'n[1-17]' "$WORK/clush_b"
jx clush_b_merge "$ms_facts"

# ---- --via: tdbg runs the launcher itself --------------------------------
RC=0
timeout "$LIMIT" "$TDBG" --via "pdsh -R exec -w n[1-16] -f 64 -u 60" --via-tdbg "$TDBG" \
	--json --ranks 16 --nodes 'n[1-17]' "$L/ms/%h" </dev/null >"$OUT" 2>"$ERR" || RC=$?
expect_rc 0 via_pdsh_exit_0
jx via_pdsh_merge "$ms_facts"
expect_eq via_no_progress_when_not_a_terminal "$(grep -c 'nodes answered' "$ERR")" 0
RC=0
timeout "$LIMIT" "$TDBG" --via "clush -R exec -w n[1-16] -f 64 -u 60" --via-tdbg "$TDBG" \
	--json --ranks 16 --nodes 'n[1-17]' "$L/ms/%h" </dev/null >"$OUT" 2>"$ERR" || RC=$?
jx via_clush_merge "$ms_facts"
# on a terminal (stderr a pty), the progress line counts the nodes
RC=0
timeout "$LIMIT" python3 - "$TDBG" "$L/ms/%h" >"$WORK/progress" <<'EOF' || RC=$?
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen([sys.argv[1], "--via", "pdsh -R exec -w n[1-16] -f 64 -u 60",
                      "--via-tdbg", sys.argv[1], "--json", "--nodes", "n[1-17]", sys.argv[2]],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
out = b""
while True:
    try:
        b = os.read(m, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
p.wait()
sys.stdout.write(out.decode(errors="replace").replace("\r", "\n"))
EOF
expect_rc 0 via_progress_run
expect_file_has via_progress_on_a_terminal "$WORK/progress" "tdbg: 16 of 17 nodes answered"
RC=0
"$TDBG" --via "no-such-launcher-xyz -w n1" "$L/ms/%h" </dev/null >"$OUT" 2>"$ERR" || RC=$?
expect_rc 1 via_missing_launcher_exit_1
expect_file_has via_missing_launcher_says_so "$ERR" "cannot run the launcher no-such-launcher-xyz"

# ---- tfdbg v2 and v1 nodes: ranks from the launcher (--rank %n) -----------
rm -rf "$XDG_CACHE_HOME/tdbg"
launch pdsh_tf2 pdsh -R exec -w 't[1-4]' -f 64 -u 60 "$TDBG" --node --rank %n "$L/tf2/%h"
# each node saved the persistent index like any open (the tfdbg v2 reader
# keeps one; XDG_CACHE_HOME/tdbg, one index file per dump, its summary
# columns beside it)
expect_eq tf2_nodes_saved_the_index "$(find "$XDG_CACHE_HOME/tdbg" -type f -name '*.tdx' 2>/dev/null | grep -c .)" 4
tdbg_run --merge --json --ranks 4 --nodes 't[1-4]' "$WORK/pdsh_tf2"
jx tf2_merge 'd["ranks_found"] == 4 and d["missing"] == [] and d["failed_nodes"] == []
	and d["first"]["rank"] == 2 and d["first"]["node"] == "t3"
	and all(r["format"] == "tfdbg2" and r["rows"] == 2000 for r in d["ranks"])
	and [r["first_bad"]["index"] for r in d["ranks"]] == [1500, 1500, 400, 1500]'
launch pdsh_tf1 pdsh -R exec -w 'v[1-2]' -u 60 "$TDBG" --node --rank %n "$L/tf1/%h"
tdbg_run --merge --json --nodes 'v[1-2]' "$WORK/pdsh_tf1"
jx tf1_merge 'd["ranks_found"] == 2 and d["first"]["rank"] == 0
	and d["first"]["op_name"] == "cross_entropy/Log" and d["first"]["step"] == 2
	and all(r["format"] == "tfdbg1" for r in d["ranks"])'

# ---- the ranks view: tdbg MERGED.jsonl ------------------------------------
tdbg --merge --json --ranks 16 --nodes 'n[1-17]' "$WORK/pdsh_ms" >"$WORK/merged.jsonl"
tui_start "$WORK/merged.jsonl"
tui_wait "tdbg ranks" || fail ranks_view_opens "no ranks view"
tui_expect ranks_view_first "first bad rank 9"
tui_expect ranks_view_legend "! NaN/Inf from step 0 (the first)"
tui_expect ranks_view_missing_cell "?  3"
tui_expect ranks_view_error_cell "E  6"
tui_expect ranks_view_duplicate_cells "* 14 * 14"
tui_expect ranks_view_bad_first_cell "!  9"
tui_keys End
tui_expect ranks_view_cursor_last_is_unranked "rank ? on n4: error"
tui_keys Home Right Right Right Right Right Right Right Right Right
tui_expect ranks_view_cursor_rank9 "rank 9 on n10: NaN/Inf from step 0"
tui_keys Enter
tui_expect ranks_view_detail_drill "ssh n10 tdbg $L/ms/n10"
tui_keys Escape
tui_expect ranks_view_back "Enter: its line"
tui_keys q
tui_expect_exit 0 ranks_view_quits_0

# without a terminal the file is merged as text
tdbg_run "$WORK/merged.jsonl"
expect_file_has lines_file_without_terminal "$OUT" "first bad rank: 9 on n10"

# a JSON file of a dump is not a file of node lines: the usual message
tdbg_run "$FIXTURES/mindspore/sync_lenet/rank_0/.dump_metadata/data_dump.json"
expect_rc 2 dump_json_file_is_not_ranks_exit_2
expect_file_has dump_json_file_is_not_ranks "$ERR" "open that directory"

[ "$E2E_FAILS" = 0 ]
