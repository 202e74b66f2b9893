#!/usr/bin/env bash
# batch_aliases.sh - issue 17 item 4: lt, pt, ni, li, lo, ls, ps run the
# matching commands (same JSON for the same arguments), help, --help and
# the man page list them, and the README's alias table is the command
# layer's table.  Facts (README): tfdbg2 mnist_nan's row 88 is Log:0, its input
# probs:0 row 85, Log created at debug_mnist_v2.py line 216 (README).
. "$(dirname "$0")/lib.sh"

T2=$FIXTURES/tfdbg2/mnist_nan
same()
{
	local name=$1 alias=$2 cmd=$3 dump=${4:-$T2}
	tdbg_run --json -e "$alias" "$dump"
	cp "$OUT" "$WORK/alias.json"
	tdbg_run --json -e "$cmd" "$dump"
	if [ -s "$OUT" ] && cmp -s "$OUT" "$WORK/alias.json" && ! grep -q '"error"' "$OUT"; then
		ok "$name"
	else
		fail "$name" "'$alias' and '$cmd' differ or failed"
	fi
}
same lt_is_traces 'lt 85:89 --op Log' 'traces 85:89 --op Log'
# FULL_TENSOR keeps the values (README: modes/full_tensor)
same pt_is_print 'pt 0 [0:3]' 'print 0 [0:3]' "$FIXTURES/tfdbg2/modes/full_tensor"
same ni_is_op 'ni Log' 'op Log'
same li_is_inputs 'li 88 --depth 2' 'inputs 88 --depth 2'
same lo_is_consumers 'lo 85' 'consumers 85'
same ls_is_sources 'ls' 'sources'
same ps_is_source_ops 'ps debug_mnist_v2.py 216' 'source-ops debug_mnist_v2.py 216'

tdbg_run --json -e 'li 88' "$T2"
json_expect li_links_probs 'd[0]["op_name"] == "probs" and d[0]["trace_index"] == 85'
tdbg_run --json -e 'li' "$T2"
json_expect alias_errors_name_the_command 'd["error"].startswith("inputs: ")'

# issue 24 item 3: the old CLI's flags on its verbs
same li_r_is_depth 'li -r 88' 'inputs 88 --depth 20'
same li_r_d_is_depth 'li -r -d 2 88' 'inputs 88 --depth 2'
same li_long_forms 'li --recursive --depth 3 88' 'inputs 88 --depth 3'
same lo_r_is_depth 'lo -r 85' 'consumers 85 --depth 20'
same ni_a_d_t_is_op 'ni -a -d -t Log' 'op Log'
same lt_n_is_op 'lt -n Log' 'traces --op Log'
same lt_t_s_is_type_size 'lt -t Log -s' 'traces --type Log --sort size'
same lt_s_field_reverse 'lt -s dump_size -r 0:5' 'traces --sort -size 0:5'
tdbg_run --json -e 'li -r 88' "$T2"
json_expect li_r_tree_starts_at_probs 'd["nodes"][0]["op_name"] == "probs" and d["nodes"][0]["trace_index"] == 85'
# row 88 is Log:0, FULL_HEALTH: 1000 elements, one -Inf, no values kept (README)
tdbg_run --json -e 'pt 88' "$T2"
expect_rc 0 pt_health_row_exit_0
json_expect pt_health_row_statistics '(d["value"] is None and d["values_stored"] is False and
	d["summary"]["elements"] == 1000 and d["summary"]["neg_inf"] == 1 and "not stored" in d["values_note"])'
tdbg_run -e 'print 88' "$T2"
expect_rc 0 print_health_row_exit_0
expect_file_has print_health_row_says_not_stored "$OUT" "values not stored (mode FULL_HEALTH"
tdbg_run --json -e 'tensor 88' "$T2"
json_expect tensor_health_row_statistics 'd["values_stored"] is False and d["summary"]["neg_inf"] == 1'
tdbg_run -e 'lt -x' "$T2"
expect_rc 1 unknown_flag_fails
expect_file_has unknown_flag_named "$ERR" "unknown flag -x (lt takes -n REGEX (--node_name_filter)"
tdbg_run -e 'inputs -r 88' "$T2"
expect_file_has command_short_flag_named "$ERR" "inputs: unknown flag -r (options: --depth, --op, --graph; li -r is --depth 20)"

tdbg_run --json -e help -e 'help lt' "$T2"
sed -n 1p "$OUT" >"$WORK/help.json"
sed -n 2p "$OUT" >"$WORK/help_lt.json"
json_expect help_lists_aliases '{a["alias"]: a["command"] for a in d["aliases"]} == {"lt": "traces",
	"pt": "print", "ni": "op", "li": "inputs", "lo": "consumers", "ls": "sources", "ps": "source-ops"}' \
	"$WORK/help.json"
json_expect help_command_knows_alias '[c["aliases"] for c in d["commands"] if c["name"] == "inputs"] == [["li"]]' \
	"$WORK/help.json"
json_expect help_of_alias 'd["name"] == "traces" and d["aliases"] == ["lt"]' "$WORK/help_lt.json"

# README's table is the command table
python3 - "$TOP/README.md" "$WORK/help.json" >"$WORK/readme.diff" <<'PY'
import json, re, sys
readme = open(sys.argv[1]).read()
block = readme.split("<!-- aliases -->")[1].split("<!-- /aliases -->")[0]
rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \| (.+?) \|$", block, re.M)
table = [(a["alias"], a["command"], a["what"]) for a in json.load(open(sys.argv[2]))["aliases"]]
if rows != table:
    print("README:", rows)
    print("table: ", table)
PY
if [ -s "$WORK/readme.diff" ]; then
	fail readme_alias_table "$(cat "$WORK/readme.diff")"
else
	ok readme_alias_table
fi

tdbg_run --help
expect_file_has usage_lists_aliases "$OUT" "Aliases: lt=traces pt=print ni=op li=inputs lo=consumers ls=sources ps=source-ops"
expect_file_has man_has_aliases "$TOP/tui/tdbg.1" ".SH ALIASES"

[ "$E2E_FAILS" -eq 0 ]
