#!/usr/bin/env bash
# batch_where_window.sh - `traces --where` on summary fields answered a
# window of rows at a time from the summary columns (issue 25): on a
# generated FULL_HEALTH dump of three 4096-row blocks and two hosts,
# opened from its persistent index, the counts are the generator's facts
# (its NaN/Inf rows and their first row, every row has elements, no row
# has a mean: unknown), through the window path, the row by row path
# (a host bound) and a condition mixed with an op field; and the answers
# of many conditions are those of the records (--no-cache decodes each).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || { fail gen "cannot build the generator"; exit 1; }
d=$WORK/dump
"$GEN" -q -n 9000 --hosts 2 --ops 300 -m FULL_HEALTH --nan-every 600 --facts "$d.facts" "$d" ||
	{ fail gen "generator failed"; exit 1; }
fact() { sed -n "s/^$1 //p" "$d.facts"; }
traces=$(fact traces) bad=$(fact nonfinite) first=$(fact first_nonfinite_row)
[ "$bad" -gt 0 ] && [ "$traces" -eq 9000 ] || fail facts "unexpected facts: $traces $bad"

tdbg_run --json -e info "$d"                    # the index and its columns
expect_rc 0 first_open_exit_0

# where NAME COND MATCHED UNKNOWN [FIRST] [OPTIONS]: the counts (and first row)
where()
{
	tdbg_run --json -e "traces --where '$2' 0:1 ${6:-}" "$d"
	expect_rc 0 "$1/exit_0"
	json_expect "$1/counts" "d[\"matched\"] == $3 and d.get(\"unknown\", 0) == $4"
	[ -n "${5:-}" ] && json_expect "$1/first_row" "[r[\"index\"] for r in d[\"rows\"]] == [$5]"
}
where nonfinite 'nan > 0 or neg_inf > 0 or pos_inf > 0' "$bad" 0 "$first"
where nonfinite_alone 'nan or neg_inf or pos_inf' "$bad" 0 "$first"
where nonfinite_not 'not (nan == 0 and neg_inf == 0 and pos_inf == 0)' "$bad" 0 "$first"
where finite 'nan == 0 and neg_inf == 0 and pos_inf == 0' $((traces - bad)) 0 0
where every_row 'elements >= 0 and zero_fraction >= 0 and zero_fraction <= 1' "$traces" 0 0
where no_row 'not (elements >= 0)' 0 0
where mean_unknown 'mean > 0' 0 "$traces"
where mean_or_nan 'mean > 0 or nan > 0' "$bad" $((traces - bad)) "$first"
where mixed_op 'type ~ "." and (nan or neg_inf or pos_inf)' "$bad" 0 "$first"
where nonfinite_flag 'nan or neg_inf or pos_inf' "$bad" 0 "$first" --nonfinite
# a host bound: row by row; the two hosts' rows add up to the facts
hosts=$(tdbg --json -e "traces 0:$traces" "$d" | python3 -c '
import json, sys
print(" ".join(sorted({r["host"] for r in json.load(sys.stdin)["rows"]})))')
sum=0
for h in $hosts; do
	tdbg_run --json -e "traces --where 'nan or neg_inf or pos_inf' --host $h" "$d"
	sum=$((sum + $(json_get 'd["matched"]')))
done
expect_eq hosts_add_up "$bad" "$sum"

# the same answers as the records, many conditions and slices
conds=('zero_fraction > 0.05' 'zero_percentage >= 3 or max_abs > 2' 'min < -1 and max > 1'
       'not (min < max)' 'max != inf' 'min > nan' 'rank == 2 and dtype == "float32"'
       'dtype ~ "^float" and elements > 1000' 'dtype_max > 1e30 or zero == elements')
args=()
for c in "${conds[@]}"; do args+=(-e "traces --where '$c' -3:" -e "traces --where '$c' 5:7"); done
tdbg_run --json --no-cache "${args[@]}" "$d"
cp "$OUT" "$WORK/records"
tdbg_run --json "${args[@]}" "$d"
check same_as_records cmp -s "$WORK/records" "$OUT"
[ "$E2E_FAILS" -eq 0 ]
