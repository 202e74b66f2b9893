#!/usr/bin/env bash
# robust_torn.sh - a torn last record (a job killed mid-write): every
# complete record is served and the torn tail is reported once, quietly,
# never as corruption (issue 6).  Fixture: tests/fixtures/robust/torn (the
# last of 200 trace records cut in half) and a torn copy of every other
# file kind made here from the clean fixture.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust

tdbg_run --json -e info "$R/torn"
expect_rc 0 exit_0
json_expect counts 'd["graph_execution_traces"] == 199 and d["executions"] == 9'
json_expect reported_as_torn 'd["torn_files"] == 1 and d["corrupt_records"] == 0'
tdbg_run --json -e problems "$R/torn"
json_expect reported_once '[p["kind"] for p in d["items"]] == ["torn-tail"]'
json_expect names_record 'd["items"][0]["record"] == 199 and d["items"][0]["file"].endswith(".graph_execution_traces")'
tdbg_run --json -e first-nonfinite "$R/torn"
json_expect first_nonfinite 'd["index"] == 160'
tdbg_run --json -e "trace 198" "$R/torn"
expect_rc 0 last_good_row_decodes
tdbg_run --json -e "trace 199" "$R/torn"
check torn_row_absent test "$RC" -ne 0

# Cut every other file of the set in the middle of its last record.
for role in execution graphs stack_frames source_files; do
	D=$WORK/torn_$role
	cp -r "$R/clean" "$D"
	chmod -R u+w "$D"
	f=$(echo "$D"/*."$role")
	size=$(stat -c %s "$f")
	truncate -s $((size - 3)) "$f"
	tdbg_run --json -e info "$D"
	expect_rc 0 "$role/exit_0"
	json_expect "$role/torn_once" 'd["torn_files"] == 1 and d["corrupt_records"] == 0'
	json_expect "$role/traces_intact" 'd["graph_execution_traces"] == 200'
done
tdbg_run --json -e info "$WORK/torn_execution"
json_expect execution/one_less 'd["executions"] == 8'
tdbg_run --json -e info "$WORK/torn_graphs"
json_expect graphs/device_lost_only 'd["ops"] == 55 and d["devices"] == 0'

# A metadata file cut short: that set cannot be trusted; tdbg says so and
# does not crash.
D=$WORK/torn_metadata
cp -r "$R/clean" "$D"
chmod -R u+w "$D"
truncate -s 20 "$D"/*.metadata
tdbg_run --json -e info "$D"
check metadata/no_crash test "$RC" -le 2
check metadata/explains test -s "$ERR" -o -s "$OUT"
