#!/usr/bin/env bash
# tests/gen/make_nodes.sh - many pseudo-nodes on one machine: dumps of each
# format spread over node folders, for tdbg --node / --merge / --via through
# real launchers (tests/e2e/many_nodes.sh, tests/e2e/many_slurm.sh).
#
#   tests/gen/make_nodes.sh OUT
#
# The layout and its facts, by construction (the tests check the merge
# against these lines, never against tdbg's earlier output):
#
# OUT/ms/nK, K = 1..16: MindSpore sync roots, copies of
#   tests/fixtures/mindspore/sync_lenet's rank_0 renamed rank_(K-1), whose
#   fc3 MatMul-op10 output 0 holds NaN/Inf in iteration 1 (step 1), plus in
#   each iteration an AllReduce output dumped right after it (op
#   Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_AllReduce-op300,
#   a copy of that MatMul output, so finite in iteration 0 and not in 1;
#   104 rows a rank; no graph attribute names its peers), except:
#   - n4 does not exist (a node that fails: tdbg exits 2): rank 3 missing;
#   - n7's rank_6 has a file where its Lenet/ directory should be: rank 6
#     unreadable (an error line naming rank 6);
#   - n10's rank_9 has NaN in that MatMul output in iteration 0 too (the
#     .npy and statistic.csv, after the AllReduce copy, which stays finite):
#     rank 9 goes bad first, at step 0, wall time 1700000001.000217 (the
#     others at step 1, 1700000002.000217);
#   - n16 holds rank_15 and a second copy of rank_14 (rank 14 duplicated).
#   Expected with --ranks 16 --nodes 'n[1-17]' (pdsh/clush run n[1-16]):
#   ranks found 15 (0-15 but 3), missing [3], duplicated [14], failed
#   nodes [n4], silent nodes [n17], first rank 9 on n10 at step 0.
# OUT/tf2/tK, K = 1..4: tfdbg v2 dumps from gen_tfdbg2 (2000 traces, one
#   host each, NaN at trace row 1500 and no other), except t3 whose NaN is
#   at row 400: with --rank %n (pdsh: t1 -> 0 ... t4 -> 3) rank 2 on t3 goes
#   bad first (by wall time: 10 us per row from the same start).
# OUT/tf1/vK, K = 1..2: copies of tests/fixtures/tfdbg1/mlp_nan (step 2's
#   cross_entropy/Log holds -inf): with --rank %n ranks 0 and 1, both bad at
#   step 2; the first is rank 0 (a tie, broken by rank).
set -eu
out=${1:?usage: make_nodes.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
src=$top/tests/fixtures/mindspore/sync_lenet/rank_0
mm=MatMul.Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_MatMul-op10

mkdir -p "$out/ms" "$out/tf2" "$out/tf1"
rank0=$out/ms/rank_src
cp -r "$src" "$rank0"
for it in 0 1; do
	f=$(ls "$rank0/Lenet/0/$it/$mm".*.output.0.DefaultFormat.npy)
	ts=${f%.output.0.DefaultFormat.npy}
	ts=${ts##*.}
	cp "$f" "$rank0/Lenet/0/$it/AllReduce.Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_AllReduce-op300.0.0.$((ts + 1)).output.0.DefaultFormat.npy"
done
src=$rank0
for k in $(seq 1 16); do
	[ "$k" = 4 ] && continue
	mkdir -p "$out/ms/n$k"
	cp -r "$src" "$out/ms/n$k/rank_$((k - 1))"
done
cp -r "$src" "$out/ms/n16/rank_14"
rm -rf "$out/ms/n7/rank_6/Lenet"
echo "not a directory" >"$out/ms/n7/rank_6/Lenet"
rm -rf "$rank0"

# rank 9: NaN in iteration 0's MatMul-op10 output 0 (first float32 of the
# .npy data; statistic.csv's NaN Count, column 17, set to match).
python3 - "$out/ms/n10/rank_9/Lenet/0/0" "$mm" <<'EOF'
import glob, os, struct, sys
d, mm = sys.argv[1], sys.argv[2]
(npy,) = glob.glob(os.path.join(d, mm + ".*.output.0.DefaultFormat.npy"))
b = bytearray(open(npy, "rb").read())
hlen = struct.unpack("<H", b[8:10])[0]
start = 10 + hlen
b[start:start + 4] = struct.pack("<f", float("nan"))
open(npy, "wb").write(bytes(b))
csv = os.path.join(d, "statistic.csv")
lines = open(csv).read().split("\n")
name = mm.split(".", 1)[1]
for i, l in enumerate(lines):
    if l.startswith("MatMul," + name + ",") and ",output,0," in l:
        # the shape "(2,120)" holds a comma: count columns from the end
        cols = l.split(",")
        cols[-4] = str(int(cols[-4]) + 1)           # NaN Count
        lines[i] = ",".join(cols)
open(csv, "w").write("\n".join(lines))
EOF

gen=$("$here/build.sh")
for k in 1 2 3 4; do
	at=1500
	[ "$k" = 3 ] && at=400
	"$gen" -q -n 2000 --ops 200 --nan-at "$at" --nan-every 0 "$out/tf2/t$k"
done
for k in 1 2; do
	cp -r "$top/tests/fixtures/tfdbg1/mlp_nan" "$out/tf1/v$k"
done
