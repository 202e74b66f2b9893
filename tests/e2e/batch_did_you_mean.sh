#!/usr/bin/env bash
# batch_did_you_mean.sh - issue 24 item 8: a name nobody has gets the
# nearest names offered, for ops (a path component first: `op MatMul`
# where dense_N/MatMul exist), hosts, graphs, fields, conditions and
# commands.  Facts: the generator's program has layers dense_0 .. dense_L
# with a MatMul each and graphs train_step, model, loss, gradients
# (tests/gen/README.md); tfdbg2 mnist_nan has one host tfdbg-host-a, an op
# Log and a graph loss (tests/fixtures/tfdbg2/README.md).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
D=$WORK/g
"$GEN" -q -n 5000 --ops 60 "$D" || die "generator failed"
T2=$FIXTURES/tfdbg2/mnist_nan

tdbg_run -e 'op MatMul' "$D"
expect_rc 1 unknown_op_exit_1
expect_file_has op_component_first "$ERR" 'no op "MatMul"; did you mean dense_0/MatMul, dense_1/MatMul'
tdbg_run --json -e 'op MatMul' "$D"
json_expect op_json_error_has_it '"did you mean dense_0/MatMul" in d["error"]'
tdbg_run -e 'inputs --op dense_0/MatMal' "$D"
expect_file_has op_typo "$ERR" 'no op "dense_0/MatMal"; did you mean dense_0/MatMul'
tdbg_run -e 'ni Lgo' "$T2"
expect_file_has alias_op_typo "$ERR" 'no op "Lgo"; did you mean Log?'

tdbg_run -e 'traces --host tfdbg-host-b' "$T2"
expect_file_has host_typo "$ERR" 'did you mean tfdbg-host-a?'
tdbg_run -e 'traces --graph los' "$T2"
expect_file_has graph_typo "$ERR" 'no graph "los" (see graphs); did you mean loss'
tdbg_run -e "traces --where 'abs_maen > 1'" "$T2"
expect_file_has field_typo "$ERR" 'unknown field "abs_maen"; did you mean abs_mean?'
tdbg_run -e 'watch add x tensor_to_large(abs_mean_gt=1)' "$T2"
expect_file_has condition_typo "$ERR" 'did you mean tensor_too_large'
tdbg_run -e 'trcaes' "$T2"
expect_file_has command_typo "$ERR" 'trcaes: unknown command (try help); did you mean traces'
tdbg_run -e 'help consumer' "$T2"
expect_file_has help_command_typo "$ERR" 'did you mean consumers?'
tdbg_run -e 'op zzzzzzzz' "$T2"
expect_file_has nothing_near_no_offer "$ERR" 'no op "zzzzzzzz"'
check nothing_near_says_nothing_more test "$(grep -c 'did you mean' "$ERR")" -eq 0

[ "$E2E_FAILS" -eq 0 ]
