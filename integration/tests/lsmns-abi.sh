#!/bin/sh
# The LSM namespace assignment ABI, one behaviour per test: runs
# /lsmns/bin/lsmns_abi_test (integration/progs/lsmns_abi_test.c, kselftest
# harness) with the demo policies loaded and passes each of its results on
# as one result of this script.  Booted with
#   lsm=capability,selinux,smack,apparmor [lsmns.releasable=...]
# (the release tests SKIP the cases the boot parameter does not allow).
. /lsmns/lib/tap.sh
P=/lsmns/policies
T=/lsmns/bin/lsmns_abi_test
OUT=/tmp/lsmns_abi_test.out
[ -x $T ] || { echo "Bail out! $T missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }

check "load-policies" $P/load-policies

$T >$OUT 2>&1
rc=$?
# The harness's TAP, renumbered into this script's: its plan and version
# lines are dropped (tap_done prints the plan), everything else but the
# result lines becomes a "# " diagnostic.
planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' $OUT | head -n 1)
ran=0
failed=0
while IFS= read -r line; do
	case $line in
	"ok "*)
		ran=$((ran + 1))
		rest=${line#ok }
		tap_result 0 "${rest#* }"
		;;
	"not ok "*)
		ran=$((ran + 1))
		failed=$((failed + 1))
		rest=${line#not ok }
		tap_result 1 "${rest#* }"
		;;
	"TAP version "*|1..*) ;;
	"#"*) echo "$line" ;;
	*) echo "# $line" ;;
	esac
done <$OUT
check_eq "lsmns_abi_test ran every test it planned" "${planned:-none}" "$ran"
check_eq "lsmns_abi_test exit status matches its results" \
	"$([ $failed -eq 0 ] && echo 0 || echo 1)" "$rc"
tap_done
