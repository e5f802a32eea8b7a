#!/bin/sh
# Guest side of make bench.
#
#   guest-bench.sh SECONDS [--extras] CONFIG=TASK...
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
# and, with --extras:
#   EXTRA crun-start-nohook|crun-start-hook <lsmns-timeit output>
#   EXTRA hook-cpu <lsmns-timeit output>
#   EXTRA ns-scale live=K slab_bytes_per_ns=B assign <lsmns-timeit output>
seconds=$1
shift
extras=no
[ "${1:-}" = --extras ] && { extras=yes; shift; }
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

while IFS='|' read -r name args; do
	name=$(echo $name)
	case $name in '' | \#*) continue ;; esac
	for ct in "$@"; do
		config=${ct%%=*}
		task=${ct#*=}
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

# --- container start: crun run of /bin/true, without and with lsmns-hook
E=/lsmns/examples
runs=$((seconds * 4))
[ $runs -lt 5 ] && runs=5
if [ -d $E/smack ] && command -v crun >/dev/null; then
	for v in nohook hook; do
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
			$E/smack/config.json >$b/config.json
	done
	# Interleaved: one without, one with, ...
	i=0
	while [ $i -lt 3 ]; do
		for v in nohook hook; do
			out=$($T -n "$runs" -- crun run --bundle /tmp/bench-$v "bench-$v" 2>&1 | tail -n 2 | tr '\n' ' ')
			echo "EXTRA crun-start-$v $out"
		done
		i=$((i + 1))
	done
fi

# --- the hook's own CPU time: one decision and request for a live
# process, written to a plain file instead of the kernel
sleep 600 </dev/null >/dev/null 2>&1 &
tpid=$!
jq -c --argjson pid $tpid --arg b /tmp/bench-hook \
	'{ociVersion: "1.0.2", id: "bench", status: "creating", pid: $pid, bundle: $b, annotations: .annotations}' \
	$E/smack/config.json >/tmp/bench-state.json
: >/tmp/bench-req.bin
out=$($T -n $((runs * 4)) -i /tmp/bench-state.json -- /usr/libexec/lsmns/lsmns-hook \
	--policy /lsmns/policies/lsmns-policy.json --assign-file /tmp/bench-req.bin 2>&1 | tail -n 1)
echo "EXTRA hook-cpu $out"
kill $tpid

# --- namespaces alive: 10, 100, 1000 (pending on sleeping tasks); slab
# bytes per namespace and the cost of one more assignment at each level
live=0
for k in 10 100 1000; do
	while [ $live -lt $((k - 10)) ]; do
		# Its own stdio: an inherited pipe would never reach EOF.
		sleep 3600 </dev/null >/dev/null 2>&1 &
		$A pid $! selinux:active smack:hidden apparmor:hidden >/dev/null || break
		live=$((live + 1))
	done
	out=$($T -n 10 -- sh -c 'sleep 3600 </dev/null >/dev/null 2>&1 & exec /lsmns/bin/lsmns-assign pid $! selinux:active smack:hidden apparmor:hidden >/dev/null' 2>&1 | tail -n 1)
	live=$((live + 10))
	n=$(cat /sys/kernel/security/lsmns/count 2>/dev/null || echo 0)
	slab=$(awk '$1 == "lsm_ns" { print $2 * $4 }' /proc/slabinfo)
	echo "EXTRA ns-scale live=$n slab_bytes_per_ns=$(( ${slab:-0} / (n > 0 ? n : 1) )) assign $out"
done
killall sleep 2>/dev/null
exit 0
