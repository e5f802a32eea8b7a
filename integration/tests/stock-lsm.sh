#!/bin/sh
# Booted with lsm=capability,$1 only: that LSM, and none of the other major
# ones, appears in securityfs and lsm_list_modules(2).
. /lsmns/lib/tap.sh
want=$1
check_contains "$want listed in /sys/kernel/security/lsm" "$want" "$(cat /sys/kernel/security/lsm)"
listed=$(lsm-query list | tr '\n' ' ')
check_contains "$want listed by lsm_list_modules(2)" " $want " " $listed"
for other in selinux apparmor smack; do
	[ "$other" = "$want" ] && continue
	check_not_contains "$other not active" "$other" "$(cat /sys/kernel/security/lsm)"
done
check "lsm_get_self_attr(2) answers for current" lsm-query get current
check_contains "lsm_get_self_attr(2) answers as $want" "$want " "$(lsm-query get current)"
check "/proc/self/attr/current is readable" cat /proc/self/attr/current
tap_done
