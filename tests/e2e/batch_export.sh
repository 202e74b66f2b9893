#!/bin/bash
# batch_export.sh - issue 17: export N [SLICE] FILE writes .npy or CSV,
# refuses to write into a dump directory (real paths: links and .. too)
# and to replace a file without --force.  Facts: the MindSpore sample's
# MatMul-op10 output of iteration 1 is the dump's own .npy file, so the
# export must hold the same shape and bytes; tfdbg1 mlp_nan run 2
# cross_entropy/Log:0 row 3 is nine -inf and a 0 at column 7 (README:
# Softmax row 3 is one-hot at class 7); tfdbg2 mnist_nan keeps no values.
. "$(dirname "$0")/lib.sh"

# npy_read FILE: prints "descr shape" and the values, one a line (python's
# own parser of the format, numpy not needed).
npy_read()
{
	python3 - "$1" <<'PY'
import ast, struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x93NUMPY\x01\x00", "magic"
n = struct.unpack("<H", b[8:10])[0]
assert (10 + n) % 64 == 0, "header not aligned"
h = ast.literal_eval(b[10:10 + n].decode("latin1"))
data = b[10 + n:]
fmt = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q"}[h["descr"]]
count = len(data) // struct.calcsize(fmt)
print(h["descr"], list(h["shape"]))
for v in struct.unpack("<%d%s" % (count, fmt), data):
    print(repr(v))
PY
}

T1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e 'traces --op "^cross_entropy/Log$" --nonfinite' "$T1"
row=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugIdentity"][0]')

cd "$WORK" || die "no work dir"
tdbg_run --json -e "export $row [3] row3.npy" "$T1"
expect_rc 0 export_npy_exit_0
json_expect export_npy_json 'd["format"] == "npy" and d["shape"] == [10] and d["elements"] == 10 and d["dtype"] == "float32"'
npy_read row3.npy >"$WORK/row3.txt"
expect_eq npy_header "$(head -1 "$WORK/row3.txt")" "<f4 [10]"
expect_eq npy_row3_values "$(tail -n +2 "$WORK/row3.txt" | tr '\n' ' ')" \
	"-inf -inf -inf -inf -inf -inf -inf 0.0 -inf -inf "

tdbg_run -e "export $row [3:5] rows.csv" "$T1"
expect_rc 0 export_csv_exit_0
expect_eq csv_two_lines "$(wc -l <rows.csv)" 2
expect_eq csv_row3 "$(head -1 rows.csv)" "-inf,-inf,-inf,-inf,-inf,-inf,-inf,0,-inf,-inf"
expect_eq csv_ten_columns "$(tail -1 rows.csv | awk -F, '{ print NF }')" 10

tdbg_run -e "export $row [3] row3.npy" "$T1"
expect_rc 1 existing_file_refused
expect_file_has existing_file_says_force "$ERR" "exists"
tdbg_run -e "export $row [4] row3.npy --force" "$T1"
expect_rc 0 force_replaces
npy_read row3.npy | grep -q -- '-inf' && fail force_wrote_row4 "row 4 has no -inf" || ok force_wrote_row4

tdbg_run -e "export $row out.txt" "$T1"
expect_rc 1 unknown_extension_refused

# never into the dump: a copy of the sample, reached directly, through a
# link and through ..
cp -r "$FIXTURES/mindspore/sync_lenet" "$WORK/ms"
ln -s "$WORK/ms" "$WORK/mslink"
MS=$WORK/ms
tdbg_run --json -e 'traces --op "MatMul-op10$" --nonfinite' "$MS"
mrow=$(json_get '[r["index"] for r in d["rows"] if not r["is_input"]][0]')
before=$(find "$MS" | sort | md5sum)
refused=0
for target in "$MS/x.npy" "$MS/rank_0/x.csv" "$WORK/mslink/x.npy" "$WORK/mslink/../ms/x.npy" "$MS/rank_0/../x.npy"; do
	tdbg_run -e "export $mrow $target" "$MS"
	if [ "$RC" = 1 ] && grep -q "inside the dump directory" "$ERR"; then
		refused=$((refused + 1))
	else
		fail "refuse_$target" "rc $RC: $(cat "$ERR")"
	fi
done
expect_eq refuses_all_dump_paths "$refused" 5
ln -s "$MS/planted.npy" "$WORK/planted.npy"
tdbg_run -e "export $mrow $WORK/planted.npy --force" "$MS"
expect_rc 1 link_into_dump_refused
expect_eq dump_unchanged "$(find "$MS" | sort | md5sum)" "$before"

# the export of a MindSpore row is its .npy file's content
tdbg_run --json -e "export $mrow $WORK/matmul.npy" "$MS"
expect_rc 0 ms_export_exit_0
orig=$(ls "$MS"/rank_0/Lenet/0/1/MatMul.*MatMul-op10.*.output.0.*.npy)
expect_eq ms_same_values "$(npy_read "$WORK/matmul.npy")" "$(npy_read "$orig")"

tdbg_run --json -e "export 88 $WORK/h.npy" "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 health_mode_no_values
json_expect health_mode_says_so '"no stored values" in d["error"]'
[ -e "$WORK/h.npy" ] && fail health_no_file "a file was written" || ok health_no_file
