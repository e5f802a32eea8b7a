#!/bin/sh
# Guest side of make bench: run every stressor once for SECONDS and print
# "RESULT <config> <stressor> <bogo-ops/s>" lines.
#
#   guest-bench.sh CONFIG SECONDS [container-start]
#
# "container-start" also times crun create/start/delete of /bin/true,
# with and without lsmns-hook as a createRuntime hook.
config=$1
seconds=$2
cd /tmp || exit 1
while IFS='|' read -r name args; do
	name=$(echo $name)
	case $name in ''|\#*) continue ;; esac
	rm -f /tmp/sng.yaml
	case $args in
	*--as-nobody*)
		# stress-ng refuses some stressors (exec) as root.
		args=$(echo "$args" | sed 's/--as-nobody//')
		su nobody -s /bin/sh -c "cd /tmp && stress-ng $args --timeout ${seconds}s --metrics-brief --yaml /tmp/sng.yaml" >/tmp/sng.log 2>&1 ;;
	*)
		# shellcheck disable=SC2086
		stress-ng $args --timeout "${seconds}s" --metrics-brief --yaml /tmp/sng.yaml >/tmp/sng.log 2>&1 ;;
	esac
	rate=$(awk '/bogo-ops-per-second-real-time:/ { print $2; exit }' /tmp/sng.yaml 2>/dev/null)
	if [ -z "$rate" ]; then
		echo "ERROR $config $name stress-ng gave no figure: $(tail -n 1 /tmp/sng.log)"
		continue
	fi
	echo "RESULT $config $name $rate"
done </lsmns/bench/stressors.list
