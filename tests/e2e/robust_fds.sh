#!/usr/bin/env bash
# robust_fds.sh - descriptors are bounded (issue 13): a tfdbg v2 root with
# 1,100 empty .metadata files beside a real file set, and a dump of 1,000
# hosts, both read in full under `ulimit -n 1024` (the usual default).  An
# empty metadata file is a problem, not a host.
#
# The dumps are made here from tests/fixtures/robust/clean (facts in its
# README and clean.facts): the 1,000 hosts are hard links to its six files
# under other host names (the host is the part of the file name after the
# timestamp), so they cost no disk space.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/robust
fact()
{
	sed -n "s/^$2 //p" "$R/$1.facts"
}
TRACES=$(fact clean traces_valid)
EXECS=$(fact clean executions)

# runs tdbg with at most 1024 descriptors
tdbg_limited()
{
	RC=0
	(ulimit -n 1024 && tdbg "$@") </dev/null >"$OUT" 2>"$ERR" || RC=$?
	_wrap_check "$@"
}

# 1. 1,100 empty metadata files sorted before and after the real set.
D=$WORK/empties
mkdir "$D"
cp "$R"/clean/* "$D"/
chmod u+w "$D"/*
for i in $(seq 1 1100); do
	: >"$D/tfdbg_events.1700000000.empty-$i.metadata"
done
tdbg_limited --json -e info -e problems "$D"
expect_rc 0 empties/exit_0
json_expect empties/real_host_traces "d[0]['graph_execution_traces'] == $TRACES and d[0]['executions'] == $EXECS"
json_expect empties/one_host "d[0]['hosts'] == ['worker-0.tdbg.test']"
json_expect empties/each_empty_metadata_a_problem "sum(1 for p in d[1]['items'] if p['file'].endswith('.metadata') and 'empty-' in p['file']) >= 100"
json_expect empties/no_missing_files_for_them "not any(p['kind'] == 'missing-file' for p in d[1]['items'])"
tdbg_limited --strict -e info "$D"
expect_rc 3 empties/strict_fails

# 2. A thousand real hosts.
D=$WORK/thousand
mkdir "$D"
for i in $(seq -w 1 1000); do
	for f in "$R"/clean/*; do
		b=$(basename "$f")
		ln "$f" "$D/${b/worker-0.tdbg.test/host-$i}" 2>/dev/null || cp "$f" "$D/${b/worker-0.tdbg.test/host-$i}"
	done
done
tdbg_limited --json -e info -e "traces -5:" "$D"
expect_rc 0 thousand/exit_0
json_expect thousand/hosts "len(d[0]['hosts']) == 1000"
json_expect thousand/traces "d[0]['graph_execution_traces'] == 1000 * $TRACES and d[0]['executions'] == 1000 * $EXECS"
json_expect thousand/no_problems "d[0]['corrupt_records'] == 0 and d[0]['missing_files'] == 0"
# the last rows decode (their files were closed by the pool and reopened)
json_expect thousand/last_rows_decode "len(d[1]['rows']) == 5 and all(r['summary'] is not None for r in d[1]['rows'])"

