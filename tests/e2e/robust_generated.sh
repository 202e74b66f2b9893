#!/usr/bin/env bash
# robust_generated.sh - tdbg reads what tests/gen/gen_tfdbg2 writes (issue 5).
#
# A 5000-trace FULL_HEALTH dump with one NaN at row 1234 and 40 executions;
# the expected numbers are the generator's parameters, checked a second time
# by the independent tests/gen/verify_dump.py, never tdbg's own output.
# Then the same in every tensor debug mode, and a three-host dump.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"

D=$WORK/g5000
"$GEN" -q -n 5000 --nan-at 1234 --nan-every 0 --executions 40 --seed 7 \
	--facts "$WORK/g5000.facts" "$D" || die "generator failed"
python3 "$TOP/tests/gen/verify_dump.py" "$D" >"$WORK/verify" || die "verify_dump failed"
expect_file_has verify_traces "$WORK/verify" "traces 5000"
expect_file_has verify_first_nonfinite "$WORK/verify" "first_nonfinite_row 1234"

tdbg_run --json -e info "$D"
expect_rc 0 info_exit_0
json_expect info_format 'd["format"] == "tfdbg2"'
json_expect info_mode 'd["tensor_debug_mode"] == "FULL_HEALTH"'
json_expect info_traces 'd["graph_execution_traces"] == 5000'
json_expect info_executions 'd["executions"] == 40'
json_expect info_alerts 'd["alerts"] == 1'
json_expect info_no_corrupt 'd["corrupt_records"] == 0'
tdbg_run --json -e first-nonfinite "$D"
json_expect first_nonfinite_row 'd["source"] == "trace" and d["index"] == 1234'
json_expect first_nonfinite_nan 'd["nan"] >= 1'

# Every mode: counts, and the NaN where the mode can say so.
for mode in NO_TENSOR CURT_HEALTH CONCISE_HEALTH SHAPE FULL_TENSOR; do
	M=$WORK/m_$mode
	"$GEN" -q -n 3000 -m "$mode" --nan-at 777 --nan-every 0 --executions 12 --ops 400 "$M" ||
		die "generator failed for $mode"
	tdbg_run --json -e info "$M"
	json_expect "${mode}_info" "d['tensor_debug_mode'] == '$mode' and d['graph_execution_traces'] == 3000 and d['executions'] == 12"
	tdbg_run --json -e first-nonfinite "$M"
	case $mode in
	NO_TENSOR|SHAPE)
		json_expect "${mode}_no_nonfinite" 'd is None' ;;
	*)
		json_expect "${mode}_first_nonfinite" 'd["index"] == 777' ;;
	esac
done

# Three hosts, 3001 traces split 1001/1000/1000; NaN at local row 100 of
# each host, so the first one in load order is row 100 of host 0.
H=$WORK/hosts3
"$GEN" -q -n 3001 --hosts 3 --nan-at 100 --nan-every 0 --executions 5 --ops 300 "$H" ||
	die "generator failed (hosts)"
tdbg_run --json -e info "$H"
expect_rc 0 hosts_exit_0
json_expect hosts_traces 'd["graph_execution_traces"] == 3001'
json_expect hosts_names 'sorted(d["hosts"]) == ["worker-0.tdbg.test", "worker-1.tdbg.test", "worker-2.tdbg.test"]'
tdbg_run --json -e first-nonfinite "$H"
json_expect hosts_first_nonfinite 'd["index"] == 100'

# The generator itself: same options, same bytes; a dump grown by --append
# equals one written at once (the follow tests rely on both).
sums()
{
	(cd "$1" && sha256sum -- *)
}
"$GEN" -q -n 3000 --ops 200 --nan-at -1 "$WORK/a1" && "$GEN" -q -n 3000 --ops 200 --nan-at -1 "$WORK/a2" &&
	"$GEN" -q -n 1800 --ops 200 --nan-at -1 "$WORK/a3" && "$GEN" -q -n 1200 --ops 200 --append "$WORK/a3" ||
	die "generator failed (determinism)"
expect_eq gen_deterministic "$(sums "$WORK/a1")" "$(sums "$WORK/a2")"
expect_eq gen_append_equals_whole "$(sums "$WORK/a1")" "$(sums "$WORK/a3")"
