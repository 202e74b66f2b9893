#!/bin/bash
# batch_source_partial.sh - issue 12 (friction, after item 11): batch
# `sources` and `source` say when a source is known only in part (the lines
# the trace records name, the file not found on this machine), instead of
# printing the unknown lines as empty lines of a whole file.
# Facts (tests/fixtures/mindspore/async_small/README.md): the graph's
# kernels come from /home/user/net/train.py lines 12, 13, 14 (.ir trace
# lines; no source file in the dump).  tests/fixtures/tfdbg2/README.md: the
# source text is in the dump's .source_files (whole files).
. "$(dirname "$0")/lib.sh"

A=$FIXTURES/mindspore/async_small
tdbg_run --json -e sources "$A"
expect_rc 0 sources_json_rc
json_expect sources_partial 'len(d) == 1 and d[0]["path"] == "/home/user/net/train.py" and d[0]["partial"] is True'

tdbg_run --json -e 'source train.py 12:15' "$A"
json_expect traced_lines_known 'd["partial"] is True and [l["line"] for l in d["lines"] if l["known"]] == [12, 13, 14]'

tdbg_run --json -e 'source train.py 3' "$A"
json_expect untraced_line_unknown 'd["line"] == 3 and d["known"] is False'

tdbg_run -e sources -e 'source train.py' "$A"
expect_rc 0 text_rc
check text_sources_partial_column grep -qE '^ +0 +rank_0 .* yes +/home/user/net/train.py' "$OUT"
check text_says_traced_lines_only grep -qF 'only the traced lines are known' "$OUT"
check text_marks_unknown_lines grep -qF '(lines not known)' "$OUT"
check text_no_blank_numbered_line bash -c "! grep -qE '^ +3  *\$' '$OUT'"

tdbg_run --json -e sources "$FIXTURES/tfdbg2/mnist_nan"
json_expect tfdbg2_sources_whole 'len(d) > 0 and all(s["partial"] is False for s in d)'
