#!/usr/bin/env bash
# batch_cache_paths.sh - one dump, many paths (issue 23 item 14): the same
# dump opened by a relative path, an absolute one, one with a trailing
# slash and a symbolic link shares one persistent index (`used`, never
# "rebuilt: the dump changed" falsely), and each open answers as a fresh
# index by that same path does (tfdbg v2, and msprobe, whose reader state
# names its files): the paths in problems and file names are
# those of the path given this time, not of the open that wrote the cache.
. "$(dirname "$0")/lib.sh"

C=$XDG_CACHE_HOME/tdbg
mkdir -p "$WORK/run"
cp -r "$FIXTURES/tfdbg2/torn" "$WORK/run/dump"
ln -s "$WORK/run/dump" "$WORK/link"
cd "$WORK/run" || die "no work dir"

state() { tdbg_run --json -e info "$1"; json_get 'd["index_cache"]'; }
why() { json_get 'd.get("index_cache_why", "")'; }

expect_eq relative_first_new "$(state dump)" new
expect_eq absolute_then_used "$(state "$WORK/run/dump")" used
check absolute_no_false_change test -z "$(why)"
expect_eq trailing_slash_used "$(state ./dump/)" used
expect_eq link_used "$(state "$WORK/link")" used
expect_eq relative_again_used "$(state dump)" used
expect_eq one_cache_file "$(find "$C" -name '*.tdx' | wc -l)" 1
cd "$WORK" || die "no work dir"
expect_eq other_cwd_used "$(state run/dump)" used

# The answer in $OUT without the index_cache* keys (the cache's state, file
# and size differ between a cached and a --no-cache run by design).
no_cache_keys()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
if isinstance(d, dict):
    d = {k: v for k, v in d.items() if not k.startswith("index_cache")}
print(json.dumps(d, sort_keys=True))' "$OUT"
}

# each path's answers are a fresh index's by that path (the torn file's
# problem names it)
k=0
for p in run/dump "$WORK/run/dump" ./run/dump/ "$WORK/link"; do
	k=$((k + 1))
	for cmd in problems info; do
		tdbg_run --json -e "$cmd" "$p"
		a=$(no_cache_keys)
		tdbg_run --no-cache --json -e "$cmd" "$p"
		b=$(no_cache_keys)
		if [ -z "$a" ]; then fail "same_${cmd}_path$k" "no answer"; else
			expect_eq "same_${cmd}_path$k" "$a" "$b"; fi
	done
done
tdbg_run --json -e problems "$WORK/link"
json_expect link_problem_names_link "len(d['items']) == 1 and d['items'][0]['file'].startswith('$WORK/link/')"

# msprobe: its reader's resume state names each dump.json; by any path to
# the dump it resumes (it was "rebuilt" by any path but the first one's),
# and answers as a fresh index by that path
mkdir -p "$WORK/msp"
cp -r "$FIXTURES/msprobe/pt_stats_2rank" "$WORK/msp/dump"
ln -s "$WORK/msp/dump" "$WORK/msp/link"
cd "$WORK/msp" || die "no work dir"
expect_eq msprobe_relative_first_new "$(state dump)" new
expect_eq msprobe_absolute_used "$(state "$WORK/msp/dump")" used
expect_eq msprobe_trailing_slash_used "$(state ./dump/)" used
expect_eq msprobe_link_used "$(state "$WORK/msp/link")" used
expect_eq msprobe_relative_again_used "$(state dump)" used
k=0
for p in dump "$WORK/msp/dump" ./dump/ "$WORK/msp/link"; do
	k=$((k + 1))
	for cmd in info 'traces 0:6' problems; do
		tdbg_run --json -e "$cmd" "$p"
		a=$(no_cache_keys)
		tdbg_run --no-cache --json -e "$cmd" "$p"
		b=$(no_cache_keys)
		if [ -z "$a" ]; then fail "msprobe_same_${cmd%% *}_path$k" "no answer"; else
			expect_eq "msprobe_same_${cmd%% *}_path$k" "$a" "$b"; fi
	done
done
exit $((E2E_FAILS > 0))
