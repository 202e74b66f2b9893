# tests/jobs.sh - sourced by tests/run-e2e.sh and tests/run-unit.sh (bash):
# runs numbered jobs side by side and reports them in order.
#
#   jobs_count VAR                 how many jobs at once: $VAR if set, else
#                                  the number of processors (at least 1)
#   jobs_run MAX COUNT START REPORT DIR [ALONE]
#
# jobs_run runs `START I` in the background for I = 0 .. COUNT-1, at most MAX
# at a time; START writes DIR/I.rc as its last act.  With ALONE, a job for
# which `ALONE I` succeeds never runs beside another such job (the TUI
# scripts: a screen test waits on a terminal, and two of them side by side
# on a small machine starve each other's redraws); the other jobs fill the
# remaining places.  `REPORT I` runs in this shell (it may add to the
# caller's totals) for I = 0, 1, ... as soon as job I and every job before
# it have written their .rc, so the output reads as a serial run's whatever
# the order the jobs end in.

jobs_count()
{
	local n=${!1:-$(nproc 2>/dev/null || echo 1)}

	case $n in '' | *[!0-9]* | 0) n=1 ;; esac
	echo "$n"
}

jobs_run()
{
	local max=$1 count=$2 start=$3 report=$4 dir=$5 alone=${6:-}
	local shown=0 running k lone started=() solo=()

	for ((k = 0; k < count; k++)); do
		started[k]=0
		solo[k]=0
		[ -n "$alone" ] && "$alone" "$k" && solo[k]=1
	done
	while [ "$shown" -lt "$count" ]; do
		# what runs now: started and without its .rc
		running=0
		lone=0
		for ((k = shown; k < count; k++)); do
			if [ "${started[k]}" = 1 ] && [ ! -e "$dir/$k.rc" ]; then
				running=$((running + 1))
				[ "${solo[k]}" = 1 ] && lone=1
			fi
		done
		# start the first jobs that may start, in order
		for ((k = shown; k < count && running < max; k++)); do
			[ "${started[k]}" = 0 ] || continue
			[ "${solo[k]}" = 1 ] && [ "$lone" = 1 ] && continue
			"$start" "$k" &
			started[k]=1
			running=$((running + 1))
			[ "${solo[k]}" = 1 ] && lone=1
		done
		wait -n 2>/dev/null
		while [ "$shown" -lt "$count" ] && [ -e "$dir/$shown.rc" ]; do
			"$report" "$shown"
			shown=$((shown + 1))
		done
	done
}
