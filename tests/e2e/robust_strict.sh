#!/usr/bin/env bash
# robust_strict.sh - --strict turns any corrupt record into exit 3 for
# scripted checks (issue 6), after printing what was asked; a clean dump
# exits 0.  (tdbg's --strict also counts torn and missing files, see
# tui/batch.c; tested here as it is documented.)
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust

tdbg_run --strict --json -e info "$R/clean"
expect_rc 0 clean_exit_0
json_expect clean_output 'd["graph_execution_traces"] == 200'

for d in bad_crc length_crc garbage bad_proto huge graphs_crc exec_bad_proto past_end torn no_source_files; do
	tdbg_run --strict --json -e info "$R/$d"
	expect_rc 3 "$d/exit_3"
	json_expect "$d/output_still_printed" 'd["format"] == "tfdbg2"'
	check "$d/says_why" grep -q -- '--strict' "$ERR"
done

# Without --strict the same dumps exit 0.
tdbg_run --json -e info "$R/bad_crc"
expect_rc 0 bad_crc/lenient_exit_0
