#!/bin/bash
# tui_own_files.sh - issue 23: tdbg's own files at the prompt.  A FIFO at
# $XDG_CONFIG_HOME/tdbg/keys does not hang the TUI before its first draw
# (item 9); a bind past byte 16,383 of the keys file, and one on a line
# longer than 255 bytes, take effect (item 18); :watch add saves the
# watches file through a new temporary file, never through a link planted
# at the old temporary name (watches.tmp.PID, item 5), nor is the history
# file written through a link.  Facts: mnist_nan has
# 680 trace rows (README).
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
D=$FIXTURES/tfdbg2/mnist_nan
K=$XDG_CONFIG_HOME/tdbg/keys
mkdir -p "$XDG_CONFIG_HOME/tdbg"

# ---- item 9: a FIFO at the keys file -------------------------------------
mkfifo "$K"
tui_start "$D"
tui_expect fifo_keys_first_draw "Alerts"
tui_expect fifo_keys_said "is a FIFO, not a regular file"
tui_keys q
tui_expect_exit 0 fifo_keys_quit
rm -f "$K"

# ---- item 18: binds past byte 16,383 and on a long line -----------------
{
	for i in $(seq 1 300); do printf '# padding line %03d of the keys file, to push the binds past 16 KiB\n' "$i"; done
	printf 'bind generic C-n move-down%300s\n' ' '
	printf 'bind generic C-p move-up\n'
} >"$K"
expect_eq binds_past_16k "$(( $(grep -b 'C-n' "$K" | cut -d: -f1) > 16383 ))" 1
tui_start "$D"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_keys 3
tui_wait "1/680" >/dev/null
tui_keys C-n C-n
tui_expect late_bind_moves_down "3/680"
tui_keys C-p
tui_expect late_bind_moves_up "2/680"
tui_keys q
tui_expect_exit 0 keys_quit
rm -f "$K"

# ---- item 5: a link planted at the watches file's temporary name, and
# the history file a link: neither is written through
printf 'keep me\n' >"$WORK/victim"
printf 'keep me too\n' >"$WORK/victim2"
mkdir -p "$XDG_STATE_HOME/tdbg"
ln -s "$WORK/victim2" "$XDG_STATE_HOME/tdbg/history"
tui_start "$D"
tui_wait "InfNan Log" || die "tdbg did not start"
pid=$(pgrep -P "$(tmx display -p -t t '#{pane_pid}')" | head -1)
[ -n "$pid" ] || die "no tdbg process"
ln -s "$WORK/victim" "$XDG_CONFIG_HOME/tdbg/watches.tmp.$pid"
tui_keys :
tui_type "watch add wide 'max > 40' --global"
tui_keys Enter
tui_wait "added for every dump" >/dev/null   # the watch is saved once the prompt says so
expect_eq victim_untouched "$(cat "$WORK/victim")" "keep me"
grep -qx "wide max > 40" "$XDG_CONFIG_HOME/tdbg/watches" && ok watches_saved ||
	fail watches_saved "$(cat "$XDG_CONFIG_HOME/tdbg/watches" 2>&1)"
if [ -L "$XDG_CONFIG_HOME/tdbg/watches" ]; then fail watches_not_a_link "a link"; else ok watches_not_a_link; fi
expect_eq watches_private "$(stat -c %a "$XDG_CONFIG_HOME/tdbg/watches")" 600
expect_eq history_link_not_followed "$(cat "$WORK/victim2")" "keep me too"
grep -q "wide" "$XDG_STATE_HOME/tdbg/history" 2>/dev/null && ok history_saved_beside ||
	fail history_saved_beside "no history saved"
tui_keys q
tui_expect_exit 0 watches_quit
