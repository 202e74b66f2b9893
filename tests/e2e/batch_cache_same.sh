#!/usr/bin/env bash
# batch_cache_same.sh - a dump opened from the persistent index answers
# every batch command exactly as a fresh index does (issues 18, 21): the
# JSON of every command of the command table (taken from `help`, so a new
# command cannot be missed: one without invocations below fails), on every
# tfdbg v2 sample and a generated dump, is the same with --no-cache, on the
# first open (which writes the cache) and on the second (which reads it),
# but for info's "index_cache"; the same for the msprobe, MindSpore and
# tfdbg v1 samples (issue 25 item 5: every format keeps its index).  A field the model gains and the cache
# forgets (op attributes, control inputs, ...) shows here.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 3000 --ops 80 "$WORK/gen" || die "generator failed"
python3 "$TOP/tests/gen/gen_scale.py" tfdbg1 --runs 12 "$WORK/gen_v1" >/dev/null ||
	die "tfdbg1 generator failed"

# Invocations of each batch command, one per line.  @ROW@ is the dump's
# first non-finite row (else 5), @OP@ the op of row 5, @SRC@ its first
# source file, @OUT@ a file in the scratch directory.
declare -A calls=(
	[info]='info'
	[alerts]=$'alerts\nalerts --limit 3'
	[first-nonfinite]='first-nonfinite'
	[origins]=$'origins\norigins --by-host\norigins --step 0'
	[why]='why @ROW@'
	[traces]=$'traces 0:300\ntraces --where \'nan > 0\' -5:\ntraces --sort -nonfinite 0:10\ntraces --nonfinite 0:50\ntraces --op Log --sort size\ntraces --where \'requires_grad or prefix == "Torch" or role == "weight"\' 0:300'
	[executions]=$'executions 0:100\nexecutions --nonfinite'
	[trace]=$'trace @ROW@\ntrace 5'
	[execution]='execution 3'
	[print]='print @ROW@ [0:3]'
	[export]='export @ROW@ @OUT@.npy --force'
	[op]='op @OP@'
	[inputs]=$'inputs @ROW@\ninputs @ROW@ --depth 3\ninputs --op @OP@'
	[consumers]=$'consumers @ROW@\nconsumers 5 --depth 2'
	[module]=$'module @ROW@\nmodule --op @OP@'
	[stack]=$'stack trace @ROW@\nstack op @OP@ --user\nstack execution 3'
	[sources]='sources'
	[source]='source @SRC@ 1:20'
	[source-ops]='source-ops @SRC@'
	[graphs]='graphs'
	[watch]=$'watch list\nwatch conditions'
	[watches]='watches check'
	[problems]='problems'
	[compare]='compare @OP@'
	[diff]=$'diff --first\ndiff 0:50'
	[rank]='rank all'
	[tensor]='tensor @ROW@'
	[help]=$'help\nhelp traces'
	[history]=$'history @ROW@\nhistory --op @OP@ --field nan'
)

mapfile -t batch_cmds < <("$TDBG" --no-cache --json -e help "$FIXTURES/tfdbg2/mnist_nan" |
	python3 -c 'import json,sys; [print(c["name"]) for c in json.load(sys.stdin)["commands"] if c["batch"]]')
[ "${#batch_cmds[@]}" -gt 20 ] || die "help listed ${#batch_cmds[@]} batch commands"
for c in "${batch_cmds[@]}"; do
	[ -n "${calls[$c]:-}" ] || fail "invocations/$c" "no invocation of batch command '$c' in this test: add one"
done

# run_all OUT EXTRA DUMP [DUMP2]: every invocation, JSON normalised to OUT
run_all() {
	local out=$1 extra=$2 dump=$3 args=() c line row op src
	shift 3
	row=$("$TDBG" --no-cache --json -e first-nonfinite "$dump" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["index"] if d else 5)' 2>/dev/null)
	op=$("$TDBG" --no-cache --json -e 'trace 5' "$dump" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["op_name"])' 2>/dev/null)
	src=$("$TDBG" --no-cache --json -e sources "$dump" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[0]["path"] if d else "none.py")' 2>/dev/null)
	for c in "${batch_cmds[@]}"; do
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			line=${line//@ROW@/${row:-5}}
			line=${line//@OP@/${op:-none}}
			line=${line//@SRC@/${src:-none.py}}
			line=${line//@OUT@/$WORK/export}
			args+=(-e "$line")
		done <<<"${calls[$c]:-}"
	done
	"$TDBG" $extra --json "${args[@]}" "$dump" "$@" 2>/dev/null |
		python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if isinstance(d, dict):
        d.pop("index_cache", None); d.pop("index_cache_why", None)
        d.pop("index_cache_path", None); d.pop("index_cache_bytes", None)
    print(json.dumps(d, sort_keys=True))' >"$out"
	[ "$(wc -l <"$out")" -eq $((${#args[@]} / 2)) ] ||
		fail "$(basename "$dump")/one_answer_per_command" "$(wc -l <"$out") answers to $((${#args[@]} / 2)) commands"
}

# same NAME DUMP [DUMP2]: cold, first and warm answers are the same
same() {
	local name=$1
	shift
	run_all "$WORK/cold" --no-cache "$@"
	run_all "$WORK/first" "" "$@"
	run_all "$WORK/warm" "" "$@"
	if cmp -s "$WORK/cold" "$WORK/first" && cmp -s "$WORK/cold" "$WORK/warm"; then
		ok "$name/same_json_cold_first_warm"
	else
		fail "$name/same_json_cold_first_warm" "$(diff "$WORK/cold" "$WORK/warm" | head -c 600)"
	fi
}

for d in "$FIXTURES"/tfdbg2/mnist_nan "$FIXTURES"/tfdbg2/modes/* "$FIXTURES"/tfdbg2/torn \
	 "$FIXTURES"/robust/clean "$FIXTURES"/robust/bad_crc "$WORK/gen" \
	 "$FIXTURES"/msprobe/pt_stats_2rank "$FIXTURES"/msprobe/ms_tensor_npy \
	 "$FIXTURES"/mindspore/sync_lenet "$FIXTURES"/mindspore/async_small \
	 "$FIXTURES"/mindspore/async_npy "$FIXTURES"/tfdbg1/mlp_nan \
	 "$FIXTURES"/tfdbg1/mlp_nan/run_1700000000491002_2 "$WORK/gen_v1"; do
	[ -d "$d" ] || fail "$(basename "$d")/fixture" "missing fixture $d"
	name=$(basename "$d")
	same "$name" "$d"
	# every format keeps its index now (issue 25 item 5): "off" is a miss
	state=$("$TDBG" --json -e info "$d" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("index_cache"))')
	[ "$state" = used ] || fail "$name/cache_used" "index_cache is $state"
done
# two dumps (diff pairs them): both from their indexes
same two_dumps "$FIXTURES/tfdbg2/mnist_nan" "$FIXTURES/tfdbg2/torn"
