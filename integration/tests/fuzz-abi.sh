#!/bin/sh
# The assignment ABI under random and mutated requests (issue 18).
#
#   fuzz-abi.sh [REQUESTS [audited=N] [policy] [LSMNS-FUZZ ARGS]...]
#
# First, the regression test of what the fuzzer found (fixed in the
# series, 0102): Smack lets no task have the label "*" or "@"
# (smack_setprocattr() refuses both, and so does a SMACK64EXEC attribute),
# so an assignment must not give either; "@" may access every object.
# The control: an existing label a task may have is given.
#
# Then lsmns-fuzz (integration/progs/lsmns-fuzz.c says what it sends and
# checks) sends REQUESTS (default 100000) requests from four writers at
# once; each of its results is one TAP line here.  Its seed is random and
# printed first; "lsmns-fuzz -s SEED -n REQUESTS" repeats a run's
# requests.  audited=N: only the first N requests make audit records (a
# run of N, then one of REQUESTS - N with the records excluded, -q): on
# the debug kernel a record costs ten times the write.  "policy" loads the
# SELinux, AppArmor and Smack policies first (so contexts meet a real
# policy) and lets an LSM refuse an execve into an accepted assignment
# (-x).  Other arguments go to lsmns-fuzz (-c CHURN, -e EPOCHS, ...).
#
# The namespace count, and the objects in use in the lsm_ns slab cache,
# must be back where they were once everything is reaped.  On the debug
# kernel the guest's init then scans kmemleak (integration/README.md).
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
F=/lsmns/bin/lsmns-fuzz
A=/lsmns/bin/lsmns-assign
P=/lsmns/policies
N=${1:-100000}
[ $# -gt 0 ] && shift
audited=$N
case ${1:-} in audited=*) audited=${1#audited=}; shift ;; esac
[ "$audited" -gt "$N" ] && audited=$N
for f in $F $A; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
x=""
if [ "${1:-}" = policy ]; then
	shift
	check "load-policies" $P/load-policies
	x=-x
fi

count0=$(lsmns_settled_count)
slab0=$(lsmns_slab_objects lsm_ns)

case ",$(cat /sys/kernel/security/lsm)," in
*,smack,*)
	for l in '@' '*'; do
		out=$($A run smack:active:"$l" -- cat /proc/self/attr/smack/current 2>&1)
		rc=$?
		check_contains "an assignment to the Smack label $l is refused: EINVAL (no task may have it)" \
			"Invalid argument" "$out (exit $rc)"
		check_not_contains "no task runs with the Smack label $l" \
			"$l" "$(echo "$out" | tr -d '\0' | grep -v '^lsmns-assign:')"
	done
	out=$($A run smack:active:_ -- cat /proc/self/attr/smack/current 2>&1 | tr -d '\0')
	check_eq "control: an assignment to the Smack label _ runs the task with it" "_" "$out" ;;
*)
	tap_skip "an assignment cannot give a task the Smack labels * or @" "# SKIP Smack is not active" ;;
esac
# The control's namespace goes in an RCU callback after its task exits:
# the fuzzer takes the count as its baseline, so let it settle first.
lsmns_wait_count "$count0"

# fuzz WHAT N ARGS...: one run of lsmns-fuzz, its results numbered into
# this script's, each named with WHAT.
fuzz() {
	_what=$1 _n=$2
	shift 2
	_t0=$(date +%s)
	$F -n "$_n" $x "$@" >/tmp/fuzz.out 2>&1
	_rc=$?
	_secs=$(($(date +%s) - _t0))
	while IFS= read -r l; do
		case $l in
		"ok "*) tap_result 0 "${l#ok * - }$_what" ;;
		"not ok "*) tap_result 1 "${l#not ok * - }$_what" ;;
		1..*) ;;
		*) echo "# $l" | sed 's/^# # /# /' ;;
		esac
	done </tmp/fuzz.out
	grep -q '^1\.\.' /tmp/fuzz.out || tap_result 1 "lsmns-fuzz ran to the end (exit $_rc)$_what"
	tap_diag "fuzz: $_n requests in ${_secs} s (exit $_rc)$_what"
}
if [ "$audited" -lt "$N" ]; then
	[ "$audited" -gt 0 ] && fuzz " (audited)" "$audited" "$@"
	fuzz " (audit records excluded)" $((N - audited)) -q "$@"
else
	fuzz "" "$N" "$@"
fi

lsmns_wait_count "$count0"
check_eq "lsmns/count back to $count0 after the fuzzer" "$count0" "$(lsmns_count)"
lsmns_check_slab_back "$slab0"
tap_done
