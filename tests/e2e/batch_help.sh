#!/usr/bin/env bash
# batch_help.sh - the command line: --help, --version, usage errors and
# their exit codes, and the man page kept in step with the tables
# (tui/tdbg.1 must be exactly what `tdbg --man` prints).
. "$(dirname "$0")/lib.sh"

tdbg_run --help
expect_rc 0 help_exit_0
expect_file_has help_usage "$OUT" "usage: tdbg [OPTIONS] DUMP_DIR"
for c in info alerts first-nonfinite traces executions trace execution op inputs consumers module \
	stack sources source print compare history rank problems graphs diff; do
	grep -qE "^  $c( |$)" "$OUT" || fail "help_lists_$c" "--help does not list $c"
done
ok help_lists_batch_commands
for o in --execute --json --strict --format --source-root --theme --no-color --follow \
	--help --version --pair --compare-hosts --rtol --atol --cos-min; do
	grep -qF -- "$o" "$OUT" || fail "help_lists_$o" "--help does not list $o"
done
ok help_lists_options
expect_file_has help_exit_codes "$OUT" "3  --strict"

tdbg_run --version
expect_rc 0 version_exit_0
if grep -qE '^tdbg [0-9]+\.[0-9]+' "$OUT"; then ok version_text; else fail version_text "$(cat "$OUT")"; fi

tdbg_run --no-such-option "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 unknown_option_exit_1
tdbg_run -e info
expect_rc 1 missing_dump_exit_1
expect_file_has missing_dump_says_so "$ERR" "missing DUMP_DIR"
tdbg_run -e info a b c
expect_rc 1 three_dumps_exit_1
tdbg_run -e info a b
expect_rc 2 two_dumps_open_both_exit_2
tdbg_run --pair x=y -e info "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 pair_needs_two_dumps_exit_1
tdbg_run --compare-hosts x "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 compare_hosts_wants_two_names_exit_1

tdbg_run --man
expect_rc 0 man_exit_0
if diff -u "$TOP/tui/tdbg.1" "$OUT" >"$WORK/man.diff"; then
	ok man_page_in_step
else
	fail man_page_in_step "tui/tdbg.1 differs from tdbg --man (regenerate: ./tdbg --man > tui/tdbg.1)"
	head -30 "$WORK/man.diff" | sed 's/^/    | /'
fi
for o in execute json strict format source-root theme no-color follow help version; do
	r=$(printf '%s' "--$o" | sed 's/-/\\-/g')
	grep -qF -- "$r" "$TOP/tui/tdbg.1" ||
		fail "man_has_$o" "tdbg.1 lacks --$o"
done
ok man_lists_options
if command -v man >/dev/null 2>&1; then
	if man -l "$TOP/tui/tdbg.1" 2>&1 >/dev/null | grep -q .; then
		fail man_renders "man -l reports warnings"
	else
		ok man_renders
	fi
fi

[ "$E2E_FAILS" -eq 0 ]
