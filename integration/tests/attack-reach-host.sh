#!/bin/sh
# Attack on "global state is for the init namespace only, through every
# channel" (../shared/design.md section 7) by the shortest way around
# it: take hold of a host task.  The threat model considers containers
# that see host pids (docs/kernel-abi.md, "Threat model": a host daemon
# moved into a container's cgroup).  A container's root with
# CAP_SYS_PTRACE that may ptrace a task outside its LSM namespace makes
# that task write the host's policy files, assign namespaces, or hand
# over any descriptor it holds (pidfd_getfd): every check on "who is
# inside" is then answered by the host task.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# The tasks keep the host's contexts (unconfined_t, "_", unconfined),
# so the host's policies allow the ptrace: only the namespace boundary
# could refuse it, as a user namespace refuses ptrace into its parent
# without capabilities there.  Whether that is the kernel's job or the
# runtime's (a pid namespace) is the kernel owner's decision; the test
# says it is refused.
# Controls: the host ptraces a host task; a task of the namespace
# ptraces a task of its own namespace.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
PT=/lsmns/bin/attack-ptrace
for f in $A $PT; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
check "load-policies selinux smack" $P/load-policies selinux smack
sleep 120 >/dev/null 2>&1 &
host=$!
check_eq "host: seizes a host task (control)" "seize=ok" "$($PT seize $host 2>&1)"
check_eq "host: takes a host task's descriptor (control)" "getfd=ok" "$($PT getfd $host 1 2>&1)"
for e in "selinux:active smack:hidden apparmor:hidden" "selinux:hidden smack:active apparmor:hidden" \
	"selinux:hidden smack:hidden apparmor:active"; do
	check_eq "namespace ($e): seizes a task of its own namespace (control)" "seize=ok" \
		"$($A run $e -- sh -c "sleep 30 & sleep 0.2; $PT seize \$!; kill \$!" 2>&1)"
	check_not_contains "namespace ($e): seizing a host task is refused" "seize=ok" \
		"$($A run $e -- $PT seize $host 2>&1)"
	check_not_contains "namespace ($e): taking a host task's descriptor is refused" "getfd=ok" \
		"$($A run $e -- $PT getfd $host 1 2>&1)"
done
kill $host
tap_done
