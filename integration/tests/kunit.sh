#!/bin/sh
# Booted with kunit.enable=1: every KUnit case that ran at boot becomes one
# result; a boot where no suite ran is a failure of its own, and so is
# each suite named as an argument that did not run.
. /lsmns/lib/tap.sh
log=/tmp/kunit.log
dmesg | sed -e 's/^\[[^]]*\] //' >$log
suites=$(grep -c -E '^(ok|not ok) [0-9]+ ' $log)
[ "$suites" -gt 0 ]
tap_result $? "KUnit ran at boot ($suites suites)"
awk '
	/^    # Subtest: / { suite = $3 }
	/^    ok [0-9]+ / { n = $3; if ($0 ~ /# SKIP/) print "ok 0 - kunit " suite "." n " # SKIP"; else print "ok 0 - kunit " suite "." n }
	/^    not ok [0-9]+ / { print "not ok 0 - kunit " suite "." $4 }
' $log
if grep -q '^    not ok ' $log; then TAP_FAILED=$((TAP_FAILED + 1)); fi
# The suites this boot must have run (the arguments): a suite that was
# not built or not registered would otherwise pass unnoticed.
for suite in "$@"; do
	grep -q "^    # Subtest: $suite\$" $log
	tap_result $? "KUnit suite $suite ran"
done
tap_done
