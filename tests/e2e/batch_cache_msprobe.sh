#!/usr/bin/env bash
# batch_cache_msprobe.sh - the persistent index of an msprobe dump trusts
# no dump.json it did not fingerprint (issue 25 item 5, issue 23's trust
# rules): the second open is served from the cache; a dump.json rewritten
# in place to the same size means a fresh index whose answers are the
# dump's as it is now.  Facts from tests/fixtures/msprobe/README.md
# (pt_stats_2rank: the NaN is born at Torch.sqrt.0.forward on rank 1,
# step 1) and from the rewritten file itself (no NaN token left in it).
. "$(dirname "$0")/lib.sh"

state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }
why() { json_get 'd.get("index_cache_why") or ""'; }
# rank1's non-finite rows of the op named $2 in the dump $1
nonfinite_on_rank1() {
	tdbg_run --json -e 'traces --nonfinite 0:1000' "$1"
	json_get "sum(1 for r in d['rows'] if r['host'] == 'rank1' and r['op_name'] == '$2')"
}

D=$WORK/msp
cp -r "$FIXTURES/msprobe/pt_stats_2rank" "$D" || die "cannot copy the fixture"
J=$D/step1/rank1/dump.json

expect_eq first_open_is_new "$(state "$D")" new
expect_eq second_open_uses_cache "$(state "$D")" used
check cached_nan_born_at_sqrt_on_rank1 test "$(nonfinite_on_rank1 "$D" Torch.sqrt.0.forward)" -ge 1

# every bare NaN token of rank 1's step 1 becomes 0.0 (same length)
python3 - "$J" <<'PY' || die "cannot rewrite dump.json"
import re, sys
p = sys.argv[1]
t = open(p).read()
n = len(t)
t = re.sub(r'(?<=[:\[,\s])NaN(?=[\s,\]}])', '0.0', t)
assert len(t) == n and "NaN" not in t
open(p, "w").write(t)
PY
touch -d '2 seconds' "$J"
expect_eq rewritten_json_rebuilds "$(state "$D")" rebuilt
case $(why) in *"changed since it was indexed"*"step1/rank1/dump.json"*) ok rewritten_json_says_which ;;
	*) fail rewritten_json_says_which "why: $(why)" ;; esac
expect_eq rewritten_json_answers_now "$(nonfinite_on_rank1 "$D" Torch.sqrt.0.forward)" 0
expect_eq rewritten_then_used "$(state "$D")" used

# the answer in $OUT without the cache's own keys, one line
answer() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
if isinstance(d, dict):
    d = {k: v for k, v in d.items() if not k.startswith("index_cache")}
print(json.dumps(d, sort_keys=True))' "$OUT"
}
for cmd in info "traces 0:200" executions first-nonfinite "origins --by-host" problems; do
	tdbg_run --json -e "$cmd" "$D"
	a=$(answer)
	tdbg_run --no-cache --json -e "$cmd" "$D"
	b=$(answer)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "warm_equals_fresh/$cmd"
	else fail "warm_equals_fresh/$cmd" "$(diff <(echo "$a") <(echo "$b") | head -4)"; fi
done
