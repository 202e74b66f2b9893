#!/bin/bash
# batch_watches_file.sh - issue 23 item 18: a watches file's lines are
# read whole (a condition past byte 255 was cut: a threshold of 1e9 came
# back as 1e7), and a watches file over 1 MiB, or one that is not the
# user's own file (a link, a FIFO, group-writable: item 9), is an error
# naming the file, never a silent change.  Facts: the conditions written
# here.
. "$(dirname "$0")/lib.sh"

D=$FIXTURES/tfdbg2/mnist_nan
W=$XDG_CONFIG_HOME/tdbg/watches
mkdir -p "$XDG_CONFIG_HOME/tdbg"

# a 300-byte line: the threshold's last digits sit past byte 255
pad=$(printf 'max > 0 or %.0s' $(seq 1 25))
cond="${pad}max > 1000000000"
printf 'long %s\n' "$cond" >"$W"
expect_eq line_is_long "$(( $(wc -c <"$W") > 256 ))" 1
tdbg_run --json -e 'watch list' "$D"
expect_rc 0 long_line_exit_0
json_expect long_line_kept_whole "[w[\"condition\"] for w in d[\"watches\"] if w[\"name\"] == \"long\"] == [\"$cond\"]"

# over 1 MiB: said, naming the file
{ printf 'ok max > 5\n'; head -c 1100000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$W"
tdbg_run --json -e 'watch list' "$D"
expect_file_has big_file_named "$ERR" "$W is $(stat -c %s "$W") bytes, more than the 1048576 tdbg reads"

# a FIFO there does not block; a group-writable file is not read
rm -f "$W"
mkfifo "$W"
saved_wrap=${TDBG_WRAP:-}
TDBG_WRAP="timeout 20 $saved_wrap"
tdbg_run --json -e 'watch list' "$D"
TDBG_WRAP=$saved_wrap
[ "$RC" != 124 ] && ok fifo_watches_no_block || fail fifo_watches_no_block "blocked for 20 s"
expect_file_has fifo_watches_said "$ERR" "$W is a FIFO, not a regular file"
rm -f "$W"
printf 'mine max > 5\n' >"$W"
chmod 0664 "$W"
tdbg_run --json -e 'watch list' "$D"
expect_file_has gw_watches_said "$ERR" "$W is writable by group or others (mode 0664)"
json_expect gw_watches_not_loaded '"mine" not in [w["name"] for w in d["watches"]]'

# a named condition's parameters past 511 bytes were cut (another
# threshold, silently): now an error
zeros=$(printf '0%.0s' $(seq 1 600))
tdbg_run -e "watch add x tensor_too_large(abs_mean_gt=1$zeros)" "$D"
expect_rc 1 long_params_refused
expect_file_has long_params_said "$ERR" "tensor_too_large's parameters are longer than 511 bytes"
