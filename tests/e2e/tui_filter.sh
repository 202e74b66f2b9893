#!/bin/bash
# tui_filter.sh - :filter op=REGEX narrows the trace table and the timeline
# and shows in the status bar; a bad regex gives PCRE2's message; :filter
# off brings every row back.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

tui_keys :
tui_wait ":" >/dev/null
tui_type 'filter op=^Log$'
tui_keys Enter
if tui_wait "filter: op=^Log$"; then
	ok filter_in_title
	tui_settle
	status=$(sed -n "$((TUI_ROWS - 1))p" "$TUI_SCREEN")
	case $status in *"filter: op=^Log\$"*) ok filter_in_status_bar ;;
	*) fail filter_in_status_bar "status: $status" ;; esac
	# every visible trace row is a Log op: the op name column says Log
	# the top row is Alerts │ Graph executions (issue 24 item 1)
	rows=$(awk -F'│' 'NR > 2 && NR < 16 { print $2 }' "$TUI_SCREEN" | grep -E '^ +[0-9]+ ' || true)
	if [ -n "$rows" ] && ! echo "$rows" | grep -vqE '^ +[0-9]+ Log +Log '; then
		ok filtered_rows_are_log
	else
		fail filtered_rows_are_log "rows: $rows"
	fi
	# row 88 (Log:0, README) is one of them
	echo "$rows" | grep -qE '^ +88 Log ' && ok row_88_kept || fail row_88_kept "row 88 missing"
	grep -qF "/680" "$TUI_SCREEN" && fail filter_narrows_count "still 680 rows" || ok filter_narrows_count
fi

tui_keys :
tui_type 'filter op=('
tui_keys Enter
tui_wait "missing closing parenthesis" && ok bad_regex_reports_pcre2_error

tui_keys :
tui_type 'filter off'
tui_keys Enter
if tui_wait "filter off"; then
	tui_wait "/680" && ok filter_off_restores_rows
	status=$(sed -n "$((TUI_ROWS - 1))p" "$TUI_SCREEN")
	case $status in *filter:*) fail filter_off_clears_status "status: $status" ;;
	*) ok filter_off_clears_status ;; esac
fi

tui_keys q
tui_expect_exit 0 quit
