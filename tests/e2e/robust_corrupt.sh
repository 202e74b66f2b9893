#!/usr/bin/env bash
# robust_corrupt.sh - corrupt records are skipped and counted, the good rows
# survive (issue 6).  Fixtures: tests/fixtures/robust/ (make.sh there makes
# them with tests/gen/gen_tfdbg2); expected numbers come from each dump's
# .facts file, written by the generator from its parameters.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust

# fact DUMP KEY: a value from DUMP's facts file.
fact()
{
	sed -n "s/^$2 //p" "$R/$1.facts"
}

# info_of DUMP: runs info (JSON) on the fixture; checks exit 0 and JSON.
info_of()
{
	tdbg_run --json -e info "$R/$1"
	expect_rc 0 "$1_exit_0"
	cp "$OUT" "$WORK/$1.info"
}

# Good rows, counts and the first NaN all as the generator says.
check_dump()
{
	local d=$1 corrupt=$2
	info_of "$d"
	json_expect "$d/traces" "d['graph_execution_traces'] == $(fact "$d" traces_valid)" "$WORK/$d.info"
	json_expect "$d/executions" "d['executions'] == $(fact "$d" executions)" "$WORK/$d.info"
	json_expect "$d/corrupt_records" "d['corrupt_records'] == $corrupt" "$WORK/$d.info"
	json_expect "$d/alerts" "d['alerts'] == $(fact "$d" nonfinite)" "$WORK/$d.info"
	tdbg_run --json -e first-nonfinite "$R/$d"
	json_expect "$d/first_nonfinite" "d['index'] == $(fact "$d" first_nonfinite_row)"
}

check_dump clean 0
json_expect clean/no_torn 'd["torn_files"] == 0 and d["missing_files"] == 0' "$WORK/clean.info"

# Three payload CRCs flipped (rows 50, 100, 150): three records lost, each
# named in `problems` with its file, offset and record number.
check_dump bad_crc 3
tdbg_run --json -e problems "$R/bad_crc"
json_expect bad_crc/problems_listed \
	'[(p["kind"], p["record"]) for p in d["items"]] == [("bad-data-crc", 50), ("bad-data-crc", 100), ("bad-data-crc", 150)]'
json_expect bad_crc/problems_offsets 'all(p["offset"] > 0 and p["file"].endswith(".graph_execution_traces") for p in d["items"])'

# A payload that is no protobuf (valid CRCs), and one with a length-delimited
# field claiming 2^40 bytes: that record is skipped as a decode error.
check_dump bad_proto 1
check_dump huge 1

# A bad length CRC: framing lost at row 100; the reader resynchronises on
# the next good header, so only that record is lost.
check_dump length_crc 1

# 42 bytes of garbage before row 100: every record survives a resync.
check_dump garbage 1

# A length of 1 GiB (good CRC) at row 100 with 99 good records after it:
# corruption, not a torn tail; the rest is found again.
check_dump past_end 1
json_expect past_end/not_torn 'd["torn_files"] == 0' "$WORK/past_end.info"

# A tensor nested 3000 levels deep with an 11-byte varint in the innermost
# message: no crash; the row is either skipped or kept without a value, and
# every other row is intact.
info_of deep
json_expect deep/traces "$(fact deep traces_valid) <= d['graph_execution_traces'] <= $(fact deep traces_valid) + $(fact deep traces_ambiguous)" "$WORK/deep.info"
json_expect deep/alerts "d['alerts'] == $(fact deep nonfinite)" "$WORK/deep.info"
tdbg_run --json -e "trace 100" "$R/deep"
check deep/trace_100_answers test "$RC" -lt 128
tdbg_run --json -e "trace 101" "$R/deep"
expect_rc 0 deep/trace_101_exit_0
json_expect deep/trace_101_decodes 'd["summary"]["elements"] is not None'

# Damage outside the traces file: a lost op (graphs) or execution.
info_of graphs_crc
json_expect graphs_crc/ops "d['ops'] == $(fact graphs_crc ops) - 1 and d['corrupt_records'] == 1" "$WORK/graphs_crc.info"
json_expect graphs_crc/traces "d['graph_execution_traces'] == $(fact graphs_crc traces_valid)" "$WORK/graphs_crc.info"
info_of exec_bad_proto
json_expect exec_bad_proto/executions "d['executions'] == $(fact exec_bad_proto executions) - 1 and d['corrupt_records'] == 1" "$WORK/exec_bad_proto.info"
json_expect exec_bad_proto/traces "d['graph_execution_traces'] == $(fact exec_bad_proto traces_valid)" "$WORK/exec_bad_proto.info"

# Text output says it too.
tdbg_run -e info "$R/bad_crc"
check bad_crc/text_corrupt grep -qE '^corrupt_records +3$' "$OUT"
