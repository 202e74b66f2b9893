#!/usr/bin/env bash
# tui_heat_legend.sh - issue 24 item 9: the heatmap's legend shows what the
# cells show: on a 256-colour terminal the cells are coloured blocks, so
# the legend is colour swatches from low to high (several colours, no
# shade characters); in the mono theme the cells are shade characters and
# so is the legend.  Facts (tests/fixtures/tfdbg1/README.md): trace 122,
# cross_entropy/Log:0, is float32[8,10] with values to show.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "tensor 122"
tui_keys Enter
tui_wait "Heatmap" || die "no tensor view"
tui_keys /
tui_type "Heatmap"
tui_keys Enter
tui_expect coloured_legend_swatches "low ████████ high, N NaN"
legend=$(grep -F ", N NaN, - -Inf" "$TUI_SCREEN")
case $legend in
*[░▒▓·]*) fail coloured_legend_no_shades "the legend shows shade characters: $legend" ;;
"") fail coloured_legend_no_shades "no legend line" ;;
*) ok coloured_legend_no_shades ;;
esac
tmx capture-pane -e -p -t t >"$WORK/esc"
ncol=$(grep -F "high, N NaN" "$WORK/esc" | grep -o $'\e\[[0-9;]*38;5;[0-9]*' | sort -u | wc -l)
[ "$ncol" -ge 4 ] && ok legend_swatches_in_colours || fail legend_swatches_in_colours "$ncol colours on the legend line"
tui_keys Escape q
tui_expect_exit 0 quit_colour

tui_start --theme mono "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "Alerts" || die "tdbg did not start in mono"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "tensor 122"
tui_keys Enter
tui_wait "Heatmap" || die "no tensor view in mono"
tui_keys /
tui_type "Heatmap"
tui_keys Enter
tui_expect mono_legend_shades ": · ░ ▒ ▓ █, N NaN"
tui_keys Escape q
tui_expect_exit 0 quit_mono

[ "$E2E_FAILS" -eq 0 ]
