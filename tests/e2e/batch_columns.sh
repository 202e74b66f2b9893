#!/usr/bin/env bash
# batch_columns.sh - the summary columns beside the persistent index
# (issue 25 items 2-3): conditions, watches and sorts answered from the
# columns (the index pass wrote them, or a first question kept what it
# decoded) are the answers of the records (--no-cache decodes each one),
# on generated dumps of every mode the generator writes, across the
# 4096-row blocks of the column file and two hosts; and the NaN/Inf count
# of the generator's facts.  A column file cut short is refused and the
# answers stay the same.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || { fail gen "cannot build the generator"; exit 1; }

queries=(-e "traces --where 'zero_fraction > 0.5' -1:"
	 -e "traces --where 'nan > 0 or neg_inf > 0 or pos_inf > 0'"
	 -e "traces --where 'zero > 0' -1:" -e "traces --where 'l2norm > 1 or abs_mean < 0.1' -1:"
	 -e "traces --where 'elements > 100 and negative > 0 and positive > zero' -3:"
	 -e "traces --where 'max_abs > 1 or mean < 0 or std > 0.5' -3:"
	 -e "traces --where 'dtype == \"float32\" and rank >= 2' -1:"
	 -e "traces --sort -time 0:20" -e "traces --sort size 0:20"
	 -e "traces --sort -nonfinite 0:10" -e "watches check")

# answers NAME DUMP [OPTION]: the JSON answers, cache fields dropped
answers()
{
	tdbg_run --json ${3:-} "${queries[@]}" "$2"
	expect_rc 0 "$1/exit_0"
	cp "$OUT" "$WORK/$1"
}

for mode in FULL_HEALTH CURT_HEALTH CONCISE_HEALTH SHAPE FULL_TENSOR; do
	d=$WORK/$mode
	"$GEN" -q -n 9000 --hosts 2 --ops 300 -m $mode --nan-every 600 --facts "$d.facts" "$d" ||
		{ fail "$mode/gen" "generator failed"; continue; }
	answers "$mode.records" "$d" --no-cache
	answers "$mode.first" "$d"              # columns written by the pass
	answers "$mode.warm" "$d"               # read from them (or decoded and kept)
	answers "$mode.kept" "$d"               # what the warm run kept
	for run in first warm kept; do
		check "$mode/${run}_same_as_records" cmp -s "$WORK/$mode.records" "$WORK/$mode.$run"
	done
	check "$mode/column_file" test -f "$(ls "$XDG_CACHE_HOME"/tdbg/*.tdc | head -1)"
	if [ $mode = FULL_HEALTH ]; then
		json_expect "$mode/nonfinite_rows_are_the_facts" \
			"d[1][\"matched\"] == $(sed -n 's/^nonfinite //p' "$d.facts")" "$WORK/$mode.warm"
		# torn column files: refused, made anew, the same answers
		for f in "$XDG_CACHE_HOME"/tdbg/*.tdc; do truncate -s 100000 "$f"; done
		answers "$mode.torn" "$d"
		check "$mode/torn_same_as_records" cmp -s "$WORK/$mode.records" "$WORK/$mode.torn"
		answers "$mode.after_torn" "$d"
		check "$mode/after_torn_same_as_records" cmp -s "$WORK/$mode.records" "$WORK/$mode.after_torn"
	fi
	rm -rf "$d" "$XDG_CACHE_HOME"/tdbg
done
[ "$E2E_FAILS" -eq 0 ]
