#!/bin/sh
# tools/testing/selftests/lsm from the same tree; each of its results
# becomes one result here, plus one for each program's exit status.
. /lsmns/lib/tap.sh
for t in /lsmns/selftests/lsm/*_test; do
	name=$(basename $t)
	out=$($t 2>&1)
	rc=$?
	echo "$out" | sed -n -E 's/^(ok|not ok) [0-9]+ (.*)/\1 0 - '"$name"': \2/p'
	echo "$out" | grep -v -E '^(ok|not ok) ' | sed 's/^/# /'
	tap_result $rc "$name exits 0"
done
tap_done
