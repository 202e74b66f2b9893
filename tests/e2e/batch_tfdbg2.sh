#!/usr/bin/env bash
# batch_tfdbg2.sh - batch mode (-e, --json) on the tfdbg v2 fixtures.
#
# Every expected value is a fact written in tests/fixtures/tfdbg2/README.md
# (the Debugger V2 tutorial's story), never tdbg's own earlier output:
# 224 executions, 680 traces, one host tfdbg-host-a, FULL_HEALTH; row 85 is
# probs:0 (Placeholder, 1000 float32, one zero, the rest positive); row 88
# is Log:0 (only input probs:0, one -Inf), the first trace with Inf/NaN;
# Log was created at debug_mnist_v2.py line 216 in function loss, whose
# text is `diff = -labels * tf.math.log(probs)`; torn/ has 679 traces.
. "$(dirname "$0")/lib.sh"

D=$FIXTURES/tfdbg2/mnist_nan
SRC=/usr/local/lib/python3.8/dist-packages/tensorflow/python/debug/examples/v2/debug_mnist_v2.py

# json_expect with a multi-line EXPR (parenthesised so python accepts it).
jx()
{
	json_expect "$1" "($2)" "${3:-$OUT}"
}

# line N of $OUT into $WORK/doc.N (1-based), for json_expect.
doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

# ---- the tutorial's story -------------------------------------------------
tdbg_run --json -e info -e first-nonfinite -e 'inputs 88' -e 'stack trace 88' \
	-e "source $SRC 216" -e 'trace 85' -e 'consumers 85' "$D"
expect_rc 0 story_exit_0
expect_eq story_one_line_per_command "$(wc -l <"$OUT" | tr -d ' ')" 7
jx info_facts 'd["format"] == "tfdbg2" and d["tensor_debug_mode"] == "FULL_HEALTH"
	and d["executions"] == 224 and d["graph_execution_traces"] == 680
	and d["hosts"] == ["tfdbg-host-a"] and d["corrupt_records"] == 0' "$(doc 1)"
jx first_nonfinite_is_log_88 'd["source"] == "trace" and d["index"] == 88
	and d["op_name"] == "Log" and d["op_type"] == "Log" and d["output_slot"] == 0
	and d["neg_inf"] == 1 and d["nan"] == 0 and d["elements"] == 1000' "$(doc 2)"
jx inputs_88_is_probs_at_85 'len(d) == 1 and d[0]["op_name"] == "probs"
	and d[0]["op_type"] == "Placeholder" and d[0]["output_slot"] == 0
	and d[0]["trace_index"] == 85' "$(doc 3)"
jx stack_88_has_loss_216 'any(f["file"].endswith("debug_mnist_v2.py")
	and f["line"] == 216 and f["function"] == "loss" for f in d)' "$(doc 4)"
jx source_216_calls_log 'd["line"] == 216 and "tf.math.log(probs)" in d["text"]' "$(doc 5)"
jx trace_85_has_one_zero 'd["op_name"] == "probs" and d["op_type"] == "Placeholder"
	and d["summary"]["dtype"] == "float32" and d["summary"]["elements"] == 1000
	and d["summary"]["zero"] == 1 and d["summary"]["positive"] == 999
	and d["summary"]["nan"] == 0 and d["nonfinite"] is False' "$(doc 6)"
jx consumers_85_include_log_88 'any(c["op_name"] == "Log" and c["trace_index"] == 88
	for c in d)' "$(doc 7)"

# ---- listings, slices, filters ---------------------------------------------
tdbg_run --json -e 'traces 85:89' -e 'traces --nonfinite 0:1' -e 'traces --type "^Log$" 0:1' \
	-e 'executions 0:3' -e 'alerts' -e 'op Log' "$D"
expect_rc 0 listings_exit_0
jx traces_slice_85_89 'd["total"] == 680 and d["matched"] == 680
	and [r["index"] for r in d["rows"]] == [85, 86, 87, 88]
	and d["rows"][3]["op_name"] == "Log" and d["rows"][3]["summary"]["neg_inf"] == 1' "$(doc 1)"
jx traces_nonfinite_first_is_88 'd["rows"][0]["index"] == 88 and d["matched"] >= 1
	and d["matched"] < 680' "$(doc 2)"
jx traces_type_regex 'd["rows"][0]["op_type"] == "Log" and d["rows"][0]["index"] <= 88' "$(doc 3)"
jx executions_total_224 'd["total"] == 224 and len(d["rows"]) == 3
	and [r["index"] for r in d["rows"]] == [0, 1, 2]' "$(doc 4)"
jx alerts_by_op_type_has_log 'd["total"] >= 1 and d["by_op_type"]["Log"] >= 1
	and sum(d["by_op_type"].values()) == d["total"] and len(d["items"]) == d["total"]
	and any(i["source"] == "trace" and i["index"] == 88 and i["neg_inf"] == 1
	for i in d["items"])' "$(doc 5)"
jx op_log_reads_probs 'd["name"] == "Log" and d["type"] == "Log"
	and [i["op_name"] for i in d["inputs"]] == ["probs"]
	and any(f["line"] == 216 for f in d["stack"])' "$(doc 6)"

# source by a unique suffix, as a line range
tdbg_run --json -e 'source debug_mnist_v2.py 215:218' "$D"
jx source_suffix_range '[l["line"] for l in d["lines"]] == [215, 216, 217]
	and "tf.math.log(probs)" in d["lines"][1]["text"]'

# ---- every command's output is one JSON line ----------------------------------
tdbg_run --json -e help -e graphs -e sources -e problems -e 'trace 88' -e 'execution 0' \
	-e 'stack op Log' -e 'rank' -e 'compare Log' "$D"
expect_rc 0 misc_exit_0
n=$(wc -l <"$OUT" | tr -d ' ')
expect_eq misc_one_line_per_command "$n" 9
bad=0
for i in $(seq 1 "$n"); do json_valid "$(doc "$i")" || bad=$((bad + 1)); done
expect_eq misc_every_line_is_json "$bad" 0
jx graphs_has_model_and_loss '{"model", "loss"} <= {g["name"] for g in d}' "$(doc 2)"
jx trace_88_full 'd["index"] == 88 and d["summary"]["neg_inf"] == 1
	and d["op"]["name"] == "Log" and any(f["line"] == 216 for f in d["stack"])' "$(doc 5)"
jx compare_log_has_row_88 'any(r["trace_index"] == 88 and r["summary"]["neg_inf"] == 1
	for r in d["rows"])' "$(doc 9)"

# ---- errors: one line, the other commands still run ----------------------------
tdbg_run --json -e info -e 'bogus thing' -e first-nonfinite "$D"
expect_rc 1 bad_command_exit_1
expect_eq bad_command_three_lines "$(wc -l <"$OUT" | tr -d ' ')" 3
jx bad_command_error_doc '"bogus" in d["error"]' "$(doc 2)"
jx later_command_still_runs 'd["index"] == 88' "$(doc 3)"
expect_eq bad_command_one_stderr_line "$(wc -l <"$ERR" | tr -d ' ')" 1
expect_file_has bad_command_names_it "$ERR" "tdbg: bogus: unknown command"

tdbg_run -e 'trace 99999' -e 'inputs x' -e 'tensor 88 --find nan' -e info "$D"
expect_rc 1 bad_args_exit_1
expect_eq bad_args_three_stderr_lines "$(wc -l <"$ERR" | tr -d ' ')" 3
expect_file_has bad_row_says_range "$ERR" "tdbg: trace: trace row 99999 out of range"
expect_file_has bad_number_named "$ERR" "tdbg: inputs: \"x\" is not a trace row number"
expect_file_has find_needs_values "$ERR" "tdbg: tensor: trace 88 has no stored values"
expect_file_has text_info_still_printed "$OUT" "graph_execution_traces   680"

# a dump or user string with an escape sequence reaches the terminal escaped
tdbg_run -e "op $(printf 'x\033[31my')" "$D"
expect_file_has escape_shown_as_text "$ERR" 'no op "x^[[31my"'
if grep -q "$(printf '\033')" "$ERR" "$OUT"; then fail escape_never_raw "raw ESC in output"; else ok escape_never_raw; fi

tdbg_run --json -e 'traces --op "("' "$D"
expect_rc 1 bad_regex_exit_1
jx bad_regex_error_doc 'd["error"].startswith("traces: ")'

tdbg_run -e 'filter op=Log' "$D"
expect_rc 1 tui_only_command_exit_1
expect_file_has tui_only_says_so "$ERR" "tdbg: filter: needs the TUI"

# ---- opening ------------------------------------------------------------------------
tdbg_run -e info "$WORK/no-such-dump"
expect_rc 2 missing_dir_exit_2
expect_file_has missing_dir_named "$ERR" "$WORK/no-such-dump"
mkdir -p "$WORK/empty"
tdbg_run -e info "$WORK/empty"
expect_rc 2 empty_dir_exit_2
expect_file_has empty_dir_says_what_it_looked_for "$ERR" "looked for"

# ---- strict, torn ----------------------------------------------------------------------
tdbg_run --json --strict -e info "$D"
expect_rc 0 strict_clean_dump_exit_0
tdbg_run --json -e info -e first-nonfinite "$FIXTURES/tfdbg2/torn"
expect_rc 0 torn_exit_0
jx torn_keeps_679 'd["graph_execution_traces"] == 679 and d["executions"] == 224
	and d["torn_files"] == 1' "$(doc 1)"
jx torn_first_nonfinite_88 'd["index"] == 88' "$(doc 2)"
tdbg_run --json --strict -e info "$FIXTURES/tfdbg2/torn"
expect_rc 3 torn_strict_exit_3
jx torn_strict_still_prints 'd["graph_execution_traces"] == 679'
expect_file_has torn_strict_says_why "$ERR" "--strict"

# ---- rank restriction in batch --------------------------------------------------------
tdbg_run --json -e 'rank tfdbg-host-a' -e 'traces --nonfinite 0:1' -e 'rank nohost' "$D"
expect_rc 1 rank_unknown_exit_1
jx rank_sets_host 'd["host"] == "tfdbg-host-a"' "$(doc 1)"
jx rank_then_traces 'd["rows"][0]["index"] == 88' "$(doc 2)"

# ---- full_tensor: values with slicing ---------------------------------------------------
FT=$FIXTURES/tfdbg2/modes/full_tensor
tdbg_run --json -e first-nonfinite "$FT"
row=$(json_get 'd["index"]')
tdbg_run --json -e "print $row" -e "print $row [0:2]" -e "trace $row --slice '[-1:]'" "$FT"
expect_rc 0 print_exit_0
jx print_has_neg_inf 'd["value"]["data"] is not None and "-Inf" in str(d["value"]["data"])
	and d["value"]["truncated"] is False' "$(doc 1)"
jx print_slice_selects '(d["value"]["selected_shape"][0] == min(2, d["value"]["shape"][0]))
	and d["value"]["slice"] == "[0:2]"' "$(doc 2)"
jx trace_slice_value 'd["value"]["selected_shape"][0] == 1' "$(doc 3)"

# ---- no terminal, no -e: a summary ---------------------------------------------------
tdbg_run "$D"
expect_rc 0 no_tty_summary_exit_0
expect_file_has no_tty_note "$ERR" "not a terminal; printing a summary"
expect_file_has no_tty_info "$OUT" "graph_execution_traces   680"

[ "$E2E_FAILS" -eq 0 ]
