#!/usr/bin/env bash
# robust_sizes.sh - declared sizes never drive allocation or time (issue 13).
# Reproducers: tests/fixtures/robust/make_hostile.py (facts in its header
# and in tests/fixtures/robust/README.md).  Outside the sanitizer and
# valgrind runs every command runs with its address space capped at 1 GiB,
# so a 16 GiB allocation that the kernel would lazily grant fails here
# instead of passing unnoticed.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust

# the subshell cannot set RC for us: keep it in a file
tdbg_run_rc() { tdbg_run "$@"; echo "$RC" >"$WORK/rc"; }
capped_run()
{
	if [ -z "${TDBG_WRAP:-}" ] && [ -z "${ASAN_OPTIONS:-}" ]; then
		( ulimit -v 1048576; tdbg_run_rc "$@" )
		RC=$(cat "$WORK/rc")
	else
		tdbg_run "$@"
	fi
}

B=$R/bigshape

# A FULL_TENSOR trace declaring 2^32 elements with one value (TensorFlow
# repeats the last value) is summarised arithmetically during indexing.
capped_run --json -e info "$B"
expect_rc 0 bigshape/info_exit_0
json_expect bigshape/all_traces_kept 'd["graph_execution_traces"] == 4'
json_expect bigshape/overflowing_shape_is_one_problem 'd["corrupt_records"] == 1'
json_expect bigshape/one_alert 'd["alerts"] == 1'

# The overflowing trace's problem says why in words (its reason was once
# left unset: stack bytes, different on every run).
capped_run --json -e problems "$B"
json_expect bigshape/problem_detail_in_words \
	'd["items"][0]["detail"].startswith("FULL_TENSOR value does not decode") and d["items"][0]["record"] == 3'

capped_run --json -e "trace 1" "$B"
expect_rc 0 bigshape/repeat_exit_0
json_expect bigshape/repeat_elements 'd["summary"]["elements"] == 2**32 and d["summary"]["shape"] == [2**32]'
json_expect bigshape/repeat_counts 'd["summary"]["positive"] == 2**32 and d["summary"]["zero"] == 0'
json_expect bigshape/repeat_stats 'd["summary"]["min"] == 1.5 and d["summary"]["max"] == 1.5 and d["summary"]["mean"] == 1.5'
json_expect bigshape/repeat_no_value 'd["value"] is None'

# No values at all: zeros, 2^32 of them, not allocated.
capped_run --json -e "trace 2" "$B"
expect_rc 0 bigshape/zeros_exit_0
json_expect bigshape/zeros_counts 'd["summary"]["zero"] == 2**32 and d["summary"]["shape"] == [2**30, 4]'

# Text output says why there is no value.
capped_run -e "trace 1" "$B"
expect_rc 0 bigshape/repeat_text_exit_0
expect_file_has bigshape/repeat_text_says_summary_only "$OUT" "summary only"

# An Execution declaring 2^31-1 outputs while it holds one tensor: only
# what the record holds is decoded.
capped_run --json -e "execution 0" "$B"
expect_rc 0 bigshape/execution_exit_0
json_expect bigshape/execution_declared 'd["num_outputs"] == 2147483647'
json_expect bigshape/execution_outputs_held 'len(d["outputs"]) == 1 and d["outputs"][0]["summary"]["max"] == 4'


# MindSpore .ir trace lines with line numbers near the old per-line cap:
# 25 files each "at line 9999999" cost 2 GB and 8 s when every file had a
# line array that long.  Lines are kept sparse with a per-dump budget, and
# numbers past MS_SOURCE_LINE_MAX (1,000,000) are not real source.
MS=$WORK/ms_lines
cp -r "$FIXTURES/mindspore/sync_lenet" "$MS"
rm "$MS"/rank_0/graphs/*.pb       # no .pb: the .ir is the graph, with its frames
python3 - "$MS/rank_0/graphs/ms_output_trace_code_graph_0.ir" <<'PY'
import re, sys
p = sys.argv[1]
k = [0]
def rep(m):
    k[0] += 1
    return "In file /hostile/f%d.py(%d)/" % (k[0], 999999 if k[0] == 1 else 9999999)
text = open(p).read()
open(p, "w").write(re.sub(r"In file ([^(]*)\((\d+)\)/", rep, text))
PY
capped_run --json -e info -e sources -e "source /hostile/f1.py 999999" "$MS"
expect_rc 0 ms_lines/exit_0
json_expect ms_lines/traces_kept 'd[0]["graph_execution_traces"] == 102 and d[0]["source_files"] == 25'
json_expect ms_lines/near_cap_file_has_its_line 'd[1][0]["path"] == "/hostile/f1.py" and d[1][0]["lines"] == 999999'
json_expect ms_lines/past_cap_files_have_none 'all(s["lines"] == 0 for s in d[1][1:])'
json_expect ms_lines/the_line_is_shown 'd[2]["line"] == 999999 and "self.one_hot" in d[2]["text"]'

# A .ir of 100,000 op records whose inputs reference nothing: each miss
# scanned every record (O(nodes x refs): minutes).  Names are indexed once.
# The limit below is a hang guard, not a speed target (make bench has those).
IR=$WORK/ms_refs
cp -r "$FIXTURES/mindspore/sync_lenet" "$IR"
rm "$IR"/rank_0/graphs/*.pb
python3 - "$IR/rank_0/graphs/ms_output_trace_code_graph_0.ir" <<'PY'
import sys
n = 100000
with open(sys.argv[1], "w") as f:
    f.write("# IR entry      : @kernel_graph_0\n\nsubgraph @kernel_graph_0() {\n")
    for i in range(n):
        f.write("  %%%d(Add-op%d) = Add(%%%d, %%%d)\n" % (i, i, i + 3 * n, i + 5 * n))
        f.write("      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n")
        f.write("      : full_name_with_scope: (Default/Add-op%d)\n" % i)
    f.write("}\n")
PY
E2E_RUNS=$((E2E_RUNS + 1)); RC=0
timeout 60 "$TDBG" --json -e "op Default/Add-op99999" "$IR" </dev/null >"$OUT" 2>"$ERR" || RC=$?
expect_rc 0 ms_refs/unmatched_references_index_once
json_expect ms_refs/reference_kept_as_written '"%599999" in [i if isinstance(i, str) else i.get("name", i.get("op_name")) for i in d["inputs"]]'

# A graph .pb whose TypeProto nests 5,000 deep overflowed the index
# thread's stack inside protobuf-c: now one decode problem, the .ir still
# gives the graph, and every tensor is served.
DP=$WORK/ms_deep
cp -r "$FIXTURES/mindspore/sync_lenet" "$DP"
cp "$R/deep_type.pb" "$DP/rank_0/graphs/ms_output_trace_code_graph_0.pb"
tdbg_run --json -e info "$FIXTURES/mindspore/sync_lenet"
cp "$OUT" "$WORK/ms_pristine.json"
tdbg_run --json -e info -e problems "$DP"
expect_rc 0 ms_deep/exit_0
json_expect ms_deep/all_tensors "d[0]['graph_execution_traces'] == 102 and d[0]['alerts'] == $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["alerts"])' "$WORK/ms_pristine.json")"
json_expect ms_deep/one_problem 'd[0]["corrupt_records"] == 1 and "nested deeper" in d[1]["items"][0]["detail"]'
json_expect ms_deep/graph_from_ir 'd[0]["ops"] > 0'
