#!/bin/sh
# Allocation failures injected into every allocation of the LSM namespace
# paths, one at a time (lsmns-faults, /proc/thread-self/fail-nth): the
# agent's assignment, the target's execve that commits it, and a later
# entrant's adoption in the bound cgroup.  Each must leave the task fully
# in its namespace or untouched, never a program in the host's namespace
# after an accepted assignment, and every namespace freed afterwards (the
# debug kernel's kmemleak scan at the end of the boot covers the rest).
# Debug flavour only: it needs CONFIG_FAULT_INJECTION.  Booted with
#   lsm=capability,selinux,smack,apparmor
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
F=/lsmns/bin/lsmns-faults
DBG=/sys/kernel/debug
CG=/sys/fs/cgroup/lsmns-faults
SE=system_u:system_r:container_t:s0:c1,c2
[ -x $F ] || { echo "Bail out! $F missing"; exit 1; }
[ -e /proc/self/fail-nth ] || { echo "Bail out! no fail-nth: not a fault-injection kernel"; exit 1; }
grep -q " $DBG debugfs " /proc/mounts || mount -t debugfs none $DBG
echo 0 >/proc/sys/kernel/printk_ratelimit

check "load-policies" $P/load-policies
# fail-nth counts every fault point the task reaches; slab and page
# allocations are points only if they may sleep too (GFP_KERNEL) and, for
# pages, whatever their order.  Quiet: each injected failure would dump a
# stack otherwise.
for f in failslab fail_page_alloc; do
	echo N >$DBG/$f/ignore-gfp-wait
	echo 0 >$DBG/$f/verbose
done
echo N >$DBG/fail_page_alloc/ignore-gfp-highmem
echo 0 >$DBG/fail_page_alloc/min-order

mkdir -p $CG
count0=$(lsmns_settled_count)
ENTRIES="selinux:active:$SE smack:hidden:ContainerC apparmor:hidden:lsmns-demo-apparmor"
for mode in assign exec adopt; do
	out=$($F $mode $CG $ENTRIES 2>&1)
	rc=$?
	# lsmns-faults prints one TAP line per mode and "# " details.
	echo "$out" | grep '^# ' | head -n 20
	line=$(echo "$out" | grep -E '^(not )?ok ' | tail -n 1)
	check_eq "$mode: ${line#* - }" "0" "$rc"
	[ $rc -eq 0 ] || tap_diag "$(echo "$out" | grep -v '^# ' | tail -n 5)"
	lsmns_wait_count "$count0"
	check_eq "$mode: every namespace is freed afterwards" "$count0" "$(lsmns_count)"
done
rmdir $CG 2>/dev/null
check_fails "the cgroup is gone" test -d $CG
tap_done
