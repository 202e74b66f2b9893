#!/usr/bin/env bash
# batch_cache_tfdbg1.sh - the persistent index of a tfdbg v1 session root
# (issue 25 item 5): the second open is served from the cache; an event
# file rewritten in place, or a dump added in a node's folder of an older
# run, means a fresh index whose answers are the dump's as it is now; a run directory that appears after the cached runs extends
# the cached index, one that sorts among them means a fresh index (row
# numbers never depend on the cache).  Facts come from the fixture's
# README (tests/fixtures/tfdbg1/README.md: 3 runs of 48 dumps; the first
# tensor with inf/NaN is cross_entropy/Log:0 of run 2, 9 -inf; runs 0 and
# 1 hold no inf or NaN).
. "$(dirname "$0")/lib.sh"

state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }
traces() { tdbg_run --json -e info "$@"; json_get 'd["graph_execution_traces"]'; }

D=$WORK/v1
cp -r "$FIXTURES/tfdbg1/mlp_nan" "$D" || die "cannot copy the fixture"
DEV='_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0'

# same_as_fresh NAME: a few answers from the cache equal --no-cache's
same_as_fresh() {
	local cmd a b bad=
	for cmd in info "traces 0:300" executions first-nonfinite problems "trace 40" alerts; do
		tdbg_run --json -e "$cmd" "$D"
		a=$(json_sans_cache "$OUT")
		tdbg_run --no-cache --json -e "$cmd" "$D"
		b=$(json_sans_cache "$OUT")
		[ -n "$a" ] && [ "$a" = "$b" ] || bad="'$cmd' differs: $(diff <(echo "$a") <(echo "$b") | head -4)"
	done
	[ -z "$bad" ] && ok "$1" || fail "$1" "$bad"
}

expect_eq first_open_is_new "$(state "$D")" new
expect_eq second_open_uses_cache "$(state "$D")" used
tdbg_run --json -e first-nonfinite "$D"
json_expect cached_first_nonfinite_is_log \
	'd["op_name"] == "cross_entropy/Log" and d["neg_inf"] == 9 and d["nan"] == 0'
same_as_fresh cached_answers_equal_fresh

# ---- an event file rewritten in place -----------------------------------------
# run 2's cross_entropy/Log DebugIdentity dump gets run 1's (finite) bytes
NEW=$(ls "$D"/run_*_2/"$DEV"/cross_entropy/Log_0_DebugIdentity_*) || die "no Log dump in run 2"
OLD=$(ls "$D"/run_*_1/"$DEV"/cross_entropy/Log_0_DebugIdentity_*) || die "no Log dump in run 1"
cat "$OLD" >"$NEW"
touch -d '2 seconds' "$NEW"
expect_eq rewritten_event_rebuilds "$(state "$D")" rebuilt
tdbg_run --json -e first-nonfinite "$D"
json_expect rewritten_event_answers_now 'd is None or d["op_name"] != "cross_entropy/Log"'
same_as_fresh rewritten_answers_equal_fresh
expect_eq rewritten_then_used "$(state "$D")" used

# ---- a dump added in a node's folder of an older run -----------------------------
M=$(ls "$D"/run_*_0/"$DEV"/dense/MatMul_0_DebugIdentity_*) || die "no MatMul dump in run 0"
cp "$M" "${M%_*}_$((${M##*_} + 1))"
expect_eq nested_dump_rebuilds "$(state "$D")" rebuilt
expect_eq nested_dump_counts "$(traces "$D")" $((3 * 48 + 1))
same_as_fresh nested_answers_equal_fresh

# ---- a run that sorts after the cached ones ------------------------------------
cp -r "$D"/run_*_1 "$D/run_1800000000000000_3"
expect_eq later_run_extends "$(state "$D")" extended
expect_eq later_run_counts "$(traces "$D")" $((4 * 48 + 1))
same_as_fresh later_run_answers_equal_fresh

# ---- a run that sorts among the cached ones --------------------------------------
cp -r "$D"/run_*_1 "$D/run_1600000000000000_9"
expect_eq earlier_run_rebuilds "$(state "$D")" rebuilt
expect_eq earlier_run_counts "$(traces "$D")" $((5 * 48 + 1))
same_as_fresh earlier_run_answers_equal_fresh
