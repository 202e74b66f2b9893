#!/usr/bin/env bash
# batch_cache_big.sh - a persistent index big enough that its load takes
# the paths small fixtures never reach (issue 26's reopen): full trace
# chunks (65,536 rows) used in place in the loaded file, and sections
# (strings, ops, executions, runs) given back to the system page by page
# once copied into the model's tables (model_cache.c, mc_release).  A
# warm open must answer as a fresh one, and as the generator says: a
# 20,000-entry statistics dump (tests/gen/gen_msprobe.py --entries) has
# four tensor records per entry, in file order, so row r belongs to the
# r/4-th entry of dump.json's "data".
. "$(dirname "$0")/lib.sh"

D=$WORK/big
python3 "$TOP/tests/gen/gen_msprobe.py" "$D" --entries 20000 >/dev/null ||
	die "cannot generate the dump"
J=$D/step0/rank0/dump.json

state() { tdbg_run --json -e info "$D"; json_get 'd["index_cache"]'; }
expect_eq first_open_is_new "$(state)" new
expect_eq second_open_uses_cache "$(state)" used

# the generator's truth: entry names in file order, four rows each
ENTRIES=$WORK/entries
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["data"]
print("\n".join(d))' "$J" >"$ENTRIES" || die "cannot read dump.json"
expect_eq warm_rows_are_four_per_entry \
	"$(tdbg_run --json -e info "$D"; json_get 'd["graph_execution_traces"]')" $((4 * $(wc -l <"$ENTRIES")))
# rows of the first chunk (in place in the loaded file), of the second
# (partial, copied) and the last one
for r in 0 5 65535 65536 79999; do
	tdbg_run --json -e "trace $r" "$D"
	expect_eq "warm_trace_${r}_op_is_its_entry" "$(json_get 'd["op_name"]')" \
		"$(sed -n "$((r / 4 + 1))p" "$ENTRIES")"
done

LAST=$(tail -1 "$ENTRIES")
CMDS=(info "traces 0:300" "traces 65400:65700" "traces 79700:80000"
	"traces --where 'max > 0' 65000:65100" "executions 0:100" "executions 19900:20000"
	"op $LAST" "stack op $LAST" "inputs 79999" "trace 65535" first-nonfinite)
# watches check reads every row (2 s here, two minutes under memcheck):
# batch_watches.sh runs it under make valgrind on its small dumps
[ -n "${TDBG_WRAP:-}" ] || CMDS+=("watches check")
# one warm run and one fresh (--no-cache) run of every command, a JSON
# line each (a fresh index of this dump is the slow part under memcheck
# and TSan: once, not once a command).  The fresh answers are the
# reference: under a wrapper (make valgrind) only the warm run, the load
# paths this test is for, runs wrapped.
EARGS=()
for cmd in "${CMDS[@]}"; do EARGS+=(-e "$cmd"); done
tdbg_run --json "${EARGS[@]}" "$D"
cp "$OUT" "$WORK/warm"
saved_wrap=${TDBG_WRAP:-}
TDBG_WRAP=
tdbg_run --no-cache --json "${EARGS[@]}" "$D"
TDBG_WRAP=$saved_wrap
cp "$OUT" "$WORK/fresh"
k=0
for cmd in "${CMDS[@]}"; do
	k=$((k + 1))
	sed -n "${k}p" "$WORK/warm" >"$WORK/line"
	a=$(json_sans_cache "$WORK/line" 2>/dev/null)
	sed -n "${k}p" "$WORK/fresh" >"$WORK/line"
	b=$(json_sans_cache "$WORK/line" 2>/dev/null)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "warm_equals_fresh/$cmd"
	else fail "warm_equals_fresh/$cmd" "$(diff <(echo "$a") <(echo "$b") | head -4)"; fi
done
expect_eq still_used "$(state)" used

# opened as the first of two dumps (a compare: its ops decoded at open,
# the op section, 2 MB here, read a piece of 1 MB at a time with ops
# across the pieces' ends, model_cache_ops.c mc_get_ops_streamed): the
# same answers as the fresh index
tdbg_run --json "${EARGS[@]}" "$D" "$D"
cp "$OUT" "$WORK/pair"
k=0
for cmd in "${CMDS[@]}"; do
	k=$((k + 1))
	sed -n "${k}p" "$WORK/pair" >"$WORK/line"
	a=$(json_sans_cache "$WORK/line" 2>/dev/null)
	sed -n "${k}p" "$WORK/fresh" >"$WORK/line"
	b=$(json_sans_cache "$WORK/line" 2>/dev/null)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "opened_as_a_pair_equals_fresh/$cmd"
	else fail "opened_as_a_pair_equals_fresh/$cmd" "$(diff <(echo "$a") <(echo "$b") | head -4)"; fi
done
expect_eq still_used_after_the_pair "$(state)" used
