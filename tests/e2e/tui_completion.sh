#!/bin/bash
# tui_completion.sh - issue 12 (friction): Tab completes option names, the
# words a command takes (goto trace|execution, stack trace|execution|op,
# follow on|off, filter keys), host names, graph names and source files by
# their name (it completed command names, ops and full paths only).
# Facts (tests/fixtures/tfdbg2/README.md): host tfdbg-host-a; graphs model
# and loss; the source debug_mnist_v2.py is in the dump; an op Log.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# tab NAME TEXT EXPECT: types TEXT at the ':' prompt, Tab, expects EXPECT
# on screen (the completed line or the list of matches), then cancels
tab() {
	tui_keys :
	tui_type "$2"
	tui_keys Tab
	tui_expect "$1" "$3"
	tui_keys C-u Escape
	tui_wait_gone ":$2" 2 >/dev/null
}

tab options_listed 'traces --' '--op --type --nonfinite --graph --host'
tab option_completes 'traces --ho' ':traces --host'
tab host_value 'traces --host ' ':traces --host tfdbg-host-a'
tab graph_values 'traces --graph ' 'loss'
tab goto_words 'goto ' 'trace execution'
tab goto_execution 'goto ex' ':goto execution'
tab stack_words 'stack ' 'trace execution op'
tab stack_op_name 'stack op Lo' ':stack op Log'
tab follow_words 'follow ' 'on off'
tab filter_keys 'filter ' 'op= type= nonfinite graph= host= where= off'
tab filter_host_key 'filter ho' ':filter host='
tab filter_host_value 'filter host=' ':filter host=tfdbg-host-a'
tab source_by_file_name 'source debug_mn' ':source debug_mnist_v2.py'
tab rank_hosts 'rank ' 'all tfdbg-host-a'
tab history_options 'history --' '--op --slot --field --host'
tab history_field 'history 88 --field abs' ':history 88 --field abs_mean'
tab history_op 'history --op Lo' ':history --op Log'
tui_keys q
tui_expect_exit 0 quit
