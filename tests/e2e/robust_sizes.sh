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

