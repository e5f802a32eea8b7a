# tap.sh: TAP helpers for guest test scripts (busybox sh).
#
#   . /lsmns/lib/tap.sh
#   tap_result STATUS "desc"  ok when STATUS is 0
#   check "desc" cmd...       ok when cmd exits 0
#   check_fails "desc" cmd... ok when cmd exits non-zero
#   check_eq "desc" want got
#   check_contains "desc" needle haystack
#   tap_skip "desc" "# SKIP why"  a result that was not run, and why
#   audit_line A B             latest kernel log line with A and B (waits)
#   selinux_set_bool NAME 0|1  set and commit a SELinux boolean
#   tap_done                   exit non-zero if anything failed
#
# Every result line is "ok N - desc" or "not ok N - desc"; diagnostics are
# "# " lines so the host's counter never mistakes them for results.
TAP_N=0
TAP_FAILED=0

tap_result() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

tap_diag() { echo "$*" | sed 's/^/# /'; }

tap_skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 $2"; }

check() {
	desc=$1; shift
	if out=$("$@" 2>&1); then tap_result 0 "$desc"
	else tap_result 1 "$desc"; tap_diag "command: $*"; tap_diag "$out"; fi
}

check_fails() {
	desc=$1; shift
	if out=$("$@" 2>&1); then tap_result 1 "$desc"; tap_diag "unexpectedly succeeded: $*"; tap_diag "$out"
	else tap_result 0 "$desc"; fi
}

check_eq() {
	if [ "$2" = "$3" ]; then tap_result 0 "$1"
	else tap_result 1 "$1"; tap_diag "want: $2"; tap_diag "got:  $3"; fi
}

check_contains() {
	case "$3" in
	*"$2"*) tap_result 0 "$1" ;;
	*) tap_result 1 "$1"; tap_diag "want to find: $2"; tap_diag "in: $3" ;;
	esac
}

check_not_contains() {
	case "$3" in
	*"$2"*) tap_result 1 "$1"; tap_diag "must not find: $2"; tap_diag "in: $3" ;;
	*) tap_result 0 "$1" ;;
	esac
}

# audit_line A B: the latest kernel log line holding both A and B; waits up
# to 5 s, as kauditd prints audit records asynchronously.
audit_line() {
	i=0
	while [ $i -lt 10 ]; do
		l=$(dmesg | grep -F -e "$1" | grep -F -e "$2" | tail -n 1)
		[ -n "$l" ] && { echo "$l"; return 0; }
		sleep 0.5 2>/dev/null || sleep 1
		i=$((i + 1))
	done
	return 1
}

# selinux_set_bool NAME 0|1: set the SELinux boolean NAME and commit it.
selinux_set_bool() {
	echo "$2" >"/sys/fs/selinux/booleans/$1" &&
		echo 1 >/sys/fs/selinux/commit_pending_bools
}

# check_loader_refuses_inactive LOADER: naming an LSM this kernel does not
# run is one clear error line and exit status 1.
check_loader_refuses_inactive() {
	inactive=""
	for l in selinux apparmor smack; do
		case ",$(cat /sys/kernel/security/lsm)," in *",$l,"*) ;; *) inactive=$l; break ;; esac
	done
	if [ -n "$inactive" ]; then
		out=$($1 $inactive 2>&1); rc=$?
		check_eq "load-policies $inactive (not active) exits 1" 1 "$rc"
		check_eq "load-policies $inactive (not active) explains itself" \
			"load-policies: $inactive: not active in this kernel (active: $(cat /sys/kernel/security/lsm))" "$out"
	else
		tap_result 0 "load-policies refuses an inactive LSM # SKIP all three are active"
	fi
}

tap_done() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# major_lsms: the active ones of SELinux, Smack and AppArmor, one a line,
# in lsm= order (/sys/kernel/security/lsm).
major_lsms() { tr ',' '\n' </sys/kernel/security/lsm | grep -x -e selinux -e smack -e apparmor; }
