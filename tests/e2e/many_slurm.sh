#!/usr/bin/env bash
# many_slurm.sh - issue 28: a one-node Slurm in a temporary directory
# (Debian's munge, slurmctld and slurmd, as root), then srun -l running
# tdbg --node, merged; and the README's recipe for a running job
# (tdbg --via "srun --jobid=ID --overlap --ntasks-per-node=1 -l").
#
# Facts are tests/gen/make_nodes.sh's: OUT/ms/n9 holds rank 8 (bad at step
# 1), OUT/ms/n10 rank 9 (bad first, at step 0).
#
# Needs root (slurmd runs the tasks) and the packages of `make deps`: with
# CI=true a missing one is a FAIL; elsewhere the script says it skips.  The
# daemons use their own ports and keep state, spool, pid and log files in
# the temporary directory; they are stopped by their pid files on exit.
# Every step is bounded (timeout), and a timeout is a FAIL.
. "$(dirname "$0")/lib.sh"

skip()
{
	if [ "${CI:-}" = true ]; then
		die "$1"
	fi
	echo "ok $TEST: skipped, $1"
	exit 0
}
for c in munged slurmctld slurmd srun salloc scancel sinfo; do
	command -v "$c" >/dev/null || PATH=$PATH:/usr/sbin
	command -v "$c" >/dev/null || skip "$c is not installed (make deps installs it)"
done
[ "$(id -u)" = 0 ] || skip "the one-node Slurm runs as root (SlurmUser=root)"

S=$WORK/slurm
mkdir -p "$S/state" "$S/spool"
# alive PID: running (not gone, not a zombie no one reaps)
alive()
{
	local st
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $st in Z*) return 1 ;; esac
	return 0
}
stop_daemons()
{
	local f pid _
	for f in slurmd slurmctld munged; do
		[ -s "$S/$f.pid" ] || continue
		pid=$(cat "$S/$f.pid")
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
	done
	return 0
}
trap 'stop_daemons; [ -n "${E2E_KEEP:-}" ] || rm -rf "$WORK"' EXIT

L=$WORK/layout
"$TOP/tests/gen/make_nodes.sh" "$L" >/dev/null 2>&1 || die "make_nodes.sh failed"

# munge with a key of its own, on a socket in the temporary directory
head -c 1024 /dev/urandom >"$S/munge.key"
chmod 400 "$S/munge.key"
timeout 20 munged --force --socket="$S/munge.sock" --key-file="$S/munge.key" \
	--log-file="$S/munged.log" --pid-file="$S/munged.pid" --seed-file="$S/munged.seed" ||
	die "munged did not start: $(tail -3 "$S/munged.log" 2>/dev/null)"

# ports of its own: two free ones above 20000
port=$((20000 + $$ % 20000))
H=$(hostname -s)
cat >"$S/slurm.conf" <<EOF
ClusterName=tdbge2e
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge.sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=tdbg Nodes=$H Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$S/slurm.conf
timeout 20 slurmctld -f "$SLURM_CONF" || die "slurmctld did not start: $(tail -3 "$S/slurmctld.log")"
timeout 20 slurmd -f "$SLURM_CONF" || die "slurmd did not start: $(tail -3 "$S/slurmd.log")"
idle=
for _ in $(seq 1 40); do
	if sinfo -h -o %t 2>/dev/null | grep -q idle; then idle=1; break; fi
	sleep 0.5
done
[ -n "$idle" ] || die "the node never came up idle: $(sinfo 2>&1 | tail -2) $(tail -3 "$S/slurmd.log")"
ok slurm_up

# ---- a new allocation: srun -l -N1 -n2, one pseudo-node folder per task ---
RC=0
timeout 60 srun -l -N1 -n2 --time=5 sh -c 'exec "$0" --node "$1/n$((SLURM_PROCID + 9))"' \
	"$TDBG" "$L/ms" >"$WORK/srun.out" 2>&1 || RC=$?
expect_rc 0 srun_exit_0
# srun -l labels each task's lines ("0: ", "1: ")
expect_eq srun_labels "$(cut -d: -f1 "$WORK/srun.out" | sort -u | tr '\n' ' ')" "0 1 "
tdbg_run --merge --json --ranks 10 "$WORK/srun.out"
expect_rc 0 srun_merge_exit_0
json_expect srun_merge '(d["ranks_found"] == 2 and d["missing"] == [0, 1, 2, 3, 4, 5, 6, 7]
	and d["failed_nodes"] == [] and d["first"]["rank"] == 9 and d["first"]["step"] == 0
	and d["first"]["node"] == "'"$(hostname)"'"
	and [r["rank"] for r in d["ranks"]] == [8, 9])'

# ---- the README's recipe: a running job, one task per node ----------------
JOB=$(timeout 60 salloc -N1 -n1 --time=5 --no-shell 2>&1 |
	sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p')
[ -n "$JOB" ] || die "salloc gave no job"
RC=0
timeout 60 "$TDBG" --via "srun --jobid=$JOB --overlap --ntasks-per-node=1 -l" --via-tdbg "$TDBG" \
	--json "$L/ms/n10" </dev/null >"$OUT" 2>"$ERR" || RC=$?
expect_rc 0 via_srun_exit_0
json_expect via_srun_merge '(d["ranks_found"] == 1 and d["first"]["rank"] == 9
	and d["first"]["op_name"].endswith("fc3-Dense/MatMul-op10") and d["failed_nodes"] == []
	and d["ranks"][0]["origin"]["op_name"].endswith("MatMul-op10"))'
# a dump that is not there: the task's error line, srun's exit in the answer
RC=0
timeout 60 "$TDBG" --via "srun --jobid=$JOB --overlap --ntasks-per-node=1 -l" --via-tdbg "$TDBG" \
	"$L/ms/n4" </dev/null >"$OUT" 2>"$ERR" || RC=$?
expect_file_has via_srun_failed_node "$OUT" "failed nodes: $(hostname)"
scancel "$JOB"

[ "$E2E_FAILS" = 0 ]
