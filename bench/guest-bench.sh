#!/bin/sh
# Guest side of make bench.
#
#   guest-bench.sh SECONDS [--extras PAIRS] [--levels "K..."] [--burst N]
#                  [--stressors S1,S2,...] CONFIG=TASK[@S1,S2,...]...
#
# --stressors: only these of stressors.list (the quick bench); @S1,...
# after a configuration: only these for it.  --levels: the live namespace
# counts of the scaling extra (default "10 100 1000"); --burst: how many
# containers start at once in the burst extra (default 200).
#
# Loads the demo policies of every LSM this kernel runs, then runs each
# stressor of bench/stressors.list once per configuration, the
# configurations interleaved (stressor 1 for each, stressor 2 for each,
# ...).  TASK is "host" or the comma-separated entries of the LSM
# namespace the stressor runs in (lsmns-assign syntax, e.g.
# selinux:active,smack:released,apparmor:released).  On a command line
# with lsmns.releasable=, a task in a namespace that releases an LSM is
# kept alive, so the static key is on for the whole boot.  Prints
#   RESULT <config> <stressor> <bogo-ops/s>
#   ERROR <config> <stressor> <why there is no figure>
# and, with --extras PAIRS (PAIRS without/with-hook pairs of container
# start measurements):
#   EXTRA crun-start-nohook|crun-start-hook pair=I <lsmns-timeit output>
#   EXTRA hook-cpu <lsmns-timeit output>
#   EXTRA ns-scale level=K live=N slab_bytes_per_ns=B|none <lsmns-timeit output>
#   EXTRA burst-nohook|burst-hook count=N <lsmns-timeit output>  (N at once)
# A measurement that fails prints no figure but, in place of its
# lsmns-timeit output:
#   FAILED <why>
# (for ns-scale: "EXTRA ns-scale level=K reached=N FAILED <why>", N being
# the namespaces alive when it stopped).  run-bench counts those as
# failed figures: none of them may read as a measurement.
seconds=$1
shift
extras=no
pairs=0
levels="10 100 1000"
burst=200
only=
while :; do
	case ${1:-} in
	--extras) extras=yes; pairs=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--burst) burst=$2; shift 2 ;;
	--stressors) only=$2; shift 2 ;;
	*) break ;;
	esac
done
# in_list NAME LIST: NAME is one of the comma-separated LIST
in_list() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }
A=/lsmns/bin/lsmns-assign
T=/lsmns/bin/lsmns-timeit
P=/lsmns/policies
cd /tmp || exit 1

if [ -x $P/load-policies ]; then
	$P/load-policies >/tmp/load.log 2>&1 || echo "ERROR all load-policies: $(tail -n 1 /tmp/load.log)"
fi
if grep -q 'lsmns.releasable=' /proc/cmdline; then
	# The key is on only while a namespace that releases an LSM is alive
	# (it goes off about a second after the last one is freed): one task
	# stays in such a namespace for the whole run.
	spec=
	for s in "selinux:active smack:released apparmor:released" \
		"smack:active selinux:released apparmor:released"; do
		# shellcheck disable=SC2086
		if $A run $s -- true 2>/dev/null; then spec=$s; break; fi
	done
	if [ -n "$spec" ]; then
		# shellcheck disable=SC2086
		$A run $spec -- sleep 1000000 >/dev/null 2>&1 &
	else
		echo "ERROR all could not make a namespace that releases an LSM"
	fi
fi

# run_in TASK CMD...: CMD on the host or in a new namespace.
run_in() {
	task=$1
	shift
	if [ "$task" = host ]; then
		"$@"
	else
		# shellcheck disable=SC2046
		$A run $(echo "$task" | tr ',' ' ') -- "$@"
	fi
}

# A stressor that overruns its time by this much is stuck: it is killed
# and reported, so one stuck stressor costs a figure, not the whole boot.
limit=$((seconds * 10 + 60))

while IFS='|' read -r name args _when; do
	# shellcheck disable=SC2086,SC2116 # trims the blanks around it
	name=$(echo $name)
	case $name in '' | \#*) continue ;; esac
	[ -z "$only" ] || in_list "$name" "$only" || continue
	for ct in "$@"; do
		config=${ct%%=*}
		task=${ct#*=}
		case $task in
		*@*)
			in_list "$name" "${task#*@}" || continue
			task=${task%%@*} ;;
		esac
		rm -f /tmp/sng.yaml
		case $args in
		*--as-nobody*)
			# stress-ng refuses some stressors (exec) as root.
			a=$(echo "$args" | sed 's/--as-nobody//')
			run_in "$task" timeout $limit su nobody -s /bin/sh -c "cd /tmp && stress-ng $a --timeout ${seconds}s --metrics-brief --yaml /tmp/sng.yaml" >/tmp/sng.log 2>&1 ;;
		*)
			# shellcheck disable=SC2086
			run_in "$task" timeout $limit stress-ng $args --timeout "${seconds}s" --metrics-brief --yaml /tmp/sng.yaml >/tmp/sng.log 2>&1 ;;
		esac
		rc=$?
		if [ $rc -eq 124 ] || [ $rc -eq 143 ]; then
			echo "ERROR $config $name stress-ng did not finish within ${limit}s"
			continue
		fi
		rate=$(awk '/bogo-ops-per-second-real-time:/ { print $2; exit }' /tmp/sng.yaml 2>/dev/null)
		if [ -z "$rate" ]; then
			echo "ERROR $config $name stress-ng gave no figure: $(tail -n 1 /tmp/sng.log)"
			continue
		fi
		echo "RESULT $config $name $rate"
	done
done </lsmns/bench/stressors.list

[ $extras = yes ] || exit 0

# timed KEY FIELDS -- LSMNS-TIMEIT-ARGS...: one measurement, printed as
#   EXTRA KEY FIELDS runs=.. wall_us_median=.. ...
# or, when it fails (lsmns-timeit exits non-zero or gives no figure),
#   EXTRA KEY FIELDS FAILED <lsmns-timeit's reason>
timed() {
	_key=$1 _fields=$2
	shift 3
	_out=$($T "$@" 2>/tmp/timeit.err)
	_rc=$?
	case $_rc:$_out in
	0:runs=*) echo "EXTRA $_key $_fields $_out" ;;
	*) echo "EXTRA $_key $_fields FAILED exit $_rc, $_out: $(tail -n 2 /tmp/timeit.err | tr '\n' ' ')" ;;
	esac
}

# --- container start: crun create -> start -> delete of /bin/true, with
# and without lsmns-hook as the createRuntime hook.  One timed run is the
# three commands in a row: create (the hook runs here), start (crun opens
# the exec fifo and returns; /bin/true runs and exits), wait until the
# container's process is gone or a zombie (crun delete refuses a
# container whose process still runs), delete.
E=/lsmns/examples
runs=$((seconds * 4))
[ $runs -lt 5 ] && runs=5
cat >/tmp/bench-cycle <<'CYCLE'
#!/bin/sh
# bench-cycle BUNDLE ID: one container start, create -> start -> delete.
# The container gets this stdin and stdout: nothing of it may hold the
# caller's pipe open.  crun's complaints go to stderr.
exec </dev/null >/dev/null
b=$1 id=$2
crun create --bundle "$b" --pid-file "/tmp/$id.pid" "$id" || exit 1
pid=
read -r pid <"/tmp/$id.pid"
if [ -z "$pid" ] || ! crun start "$id"; then
	echo "bench-cycle: crun start $id failed" >&2
	crun delete -f "$id"
	exit 1
fi
i=0
while [ -e "/proc/$pid" ] && read -r _ _ st _ 2>/dev/null <"/proc/$pid/stat" &&
	[ "$st" != Z ] && [ "$st" != X ]; do
	# in a burst, hundreds of these share one vCPU: they poll gently
	[ -z "${BENCH_CYCLE_POLL:-}" ] || sleep "$BENCH_CYCLE_POLL"
	i=$((i + 1))
	if [ $i -gt 100000 ]; then
		echo "bench-cycle: $id (pid $pid) still running after start" >&2
		crun delete -f "$id"
		exit 1
	fi
done
crun delete "$id"
CYCLE
why=
command -v crun >/dev/null || why="crun is not in the guest"
[ -n "$why" ] || [ -f $E/smack/config.json ] || why="no bundle at $E/smack"
[ -n "$why" ] || [ -x $E/smack/rootfs/bin/true ] || why="no /bin/true in $E/smack/rootfs"
for v in nohook hook; do
	[ -z "$why" ] || break
	b=/tmp/bench-$v
	rm -rf $b
	mkdir -p $b
	if [ $v = hook ]; then
		j='.hooks.createRuntime[0].args = ["lsmns-hook", "--policy", "/lsmns/policies/lsmns-policy.json"]'
	else
		j='del(.hooks) | del(.annotations)'
	fi
	# No demo objects to bind in here.
	jq --arg root $E/smack/rootfs ".root.path = \$root | .process.args = [\"/bin/true\"]
		| .mounts |= map(select(.destination != \"/lsmns/demo\")) | $j" \
		$E/smack/config.json >$b/config.json 2>/tmp/jq.err ||
		why="the $v bundle: jq: $(tail -n 1 /tmp/jq.err)"
done
[ -n "$why" ] || [ -x /usr/libexec/lsmns/lsmns-hook ] || why="no lsmns-hook in the guest (make hook)"
# Interleaved: one without, one with, ...
i=1
while [ $i -le "$pairs" ]; do
	for v in nohook hook; do
		if [ -n "$why" ]; then
			echo "EXTRA crun-start-$v pair=$i FAILED $why"
		else
			timed crun-start-$v pair=$i -- -n "$runs" -- sh /tmp/bench-cycle /tmp/bench-$v bench-$v
			crun delete -f bench-$v >/dev/null 2>&1
		fi
	done
	i=$((i + 1))
done

# --- a node's pod density: $burst containers started at once (each its
# own create -> start -> delete), without and then with the hook; one
# timed run is the whole burst, and it fails if any container does.
cat >/tmp/bench-burst <<'BURST'
#!/bin/sh
# bench-burst BUNDLE N: N bench-cycles at once; exit 1 if any failed.
b=$1 n=$2 i=1 pids= failed=0
while [ $i -le "$n" ]; do
	BENCH_CYCLE_POLL=0.05 sh /tmp/bench-cycle "$b" "burst-$i" 2>>/tmp/bench-burst.err &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait "$p" || failed=$((failed + 1)); done
[ $failed -eq 0 ] || { echo "bench-burst: $failed of $n containers failed: $(tail -n 1 /tmp/bench-burst.err)" >&2; exit 1; }
BURST
for v in nohook hook; do
	if [ -n "$why" ]; then
		echo "EXTRA burst-$v count=$burst FAILED $why"
	else
		: >/tmp/bench-burst.err
		timed burst-$v count=$burst -- -n 1 -- sh /tmp/bench-burst /tmp/bench-$v "$burst"
		i=1
		while [ $i -le "$burst" ]; do crun delete -f burst-$i >/dev/null 2>&1; i=$((i + 1)); done
	fi
done

# --- the hook's own CPU time: one decision and request for a live
# process, written to a plain file instead of the kernel
if [ -x /usr/libexec/lsmns/lsmns-hook ] && [ -f $E/smack/config.json ]; then
	# shellcheck disable=SC2217 # its own stdio: nothing inherited stays open
	sleep 600 </dev/null >/dev/null 2>&1 &
	tpid=$!
	jq -c --argjson pid $tpid --arg b /tmp/bench-hook \
		'{ociVersion: "1.0.2", id: "bench", status: "creating", pid: $pid, bundle: $b, annotations: .annotations}' \
		$E/smack/config.json >/tmp/bench-state.json
	: >/tmp/bench-req.bin
	timed hook-cpu "" -- -n $((runs * 4)) -i /tmp/bench-state.json -- /usr/libexec/lsmns/lsmns-hook \
		--policy /lsmns/policies/lsmns-policy.json --assign-file /tmp/bench-req.bin
	kill $tpid
else
	echo "EXTRA hook-cpu FAILED no lsmns-hook or no $E/smack/config.json in the guest"
fi

# --- namespaces alive: each of $levels (pending on sleeping tasks); slab
# bytes per namespace and the cost of one more assignment at each level.
# The level is the live namespace count (lsmns/count, the initial
# namespace included): made up to K-10, then ten timed assignments; a
# level counts only if K are alive afterwards.  A level not reached is
# reported FAILED with the count it got to, and the higher ones are not
# tried.
COUNT=/sys/kernel/security/lsmns/count
# shellcheck source=integration/guest/lib/lsmns-container.sh
. /lsmns/lib/lsmns-container.sh
lsmns_settled_count >/dev/null
for k in $levels; do
	n='' made=0 why=''
	read -r n <$COUNT 2>/dev/null
	case $n in
	'' | *[!0-9]*) echo "EXTRA ns-scale level=$k reached=0 FAILED no count in $COUNT"; break ;;
	esac
	while [ "$n" -lt $((k - 10)) ]; do
		# Its own stdio: an inherited pipe would never reach EOF.
		# shellcheck disable=SC2217
		sleep 3600 </dev/null >/dev/null 2>&1 &
		if ! err=$($A pid $! selinux:active smack:hidden apparmor:hidden 2>&1 >/dev/null); then
			kill $! 2>/dev/null
			why="lsmns-assign failed at $n alive: $(echo "$err" | tr '\n' ' ')"
			break
		fi
		made=$((made + 1))
		if [ $made -gt $((2 * k)) ]; then
			why="$made assignments made but only $n namespaces alive"
			break
		fi
		read -r n <$COUNT
	done
	if [ -z "$why" ]; then
		out=$($T -n 10 -- sh -c 'sleep 3600 </dev/null >/dev/null 2>&1 & exec /lsmns/bin/lsmns-assign pid $! selinux:active smack:hidden apparmor:hidden >/dev/null' 2>/tmp/timeit.err)
		rc=$?
		read -r n <$COUNT
		case $rc:$out in
		0:runs=*) [ "$n" -ge $k ] || why="only $n namespaces alive after the timed assignments" ;;
		*) why="the timed assignments: exit $rc, $out: $(tail -n 2 /tmp/timeit.err | tr '\n' ' ')" ;;
		esac
	fi
	if [ -n "$why" ]; then
		echo "EXTRA ns-scale level=$k reached=$n FAILED $why"
		break
	fi
	slab=$(awk '$1 == "lsm_ns" { print $2 * $4 }' /proc/slabinfo)
	echo "EXTRA ns-scale level=$k live=$n slab_bytes_per_ns=$([ -n "$slab" ] && echo $((slab / n)) || echo none) $out"
done
killall sleep 2>/dev/null
exit 0
