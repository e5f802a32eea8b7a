#!/bin/sh
# Attack on "a hidden LSM is invisible inside" (../shared/design.md
# section 7) through the host's log channels, beside attack-visible.sh.
# Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# Without auditd, SELinux's denials and the lsmns records (op=assign ...
# ctx_selinux=...) go to printk, and a namespace's root reads the kernel
# log (syslog(2), /dev/kmsg: CAP_SYSLOG, or anyone with dmesg_restrict
# 0).  Inside a namespace that hides SELinux, with the context
# container_t:s0:c7,c8, a denial of its own names its hidden context.
# The same through the audit multicast group (NETLINK_AUDIT,
# AUDIT_NLGRP_READLOG: CAP_AUDIT_READ).  Whether these channels are
# closed or documented as observable is the kernel's decision; the test
# says they must not show.  Controls: the host reads the same records.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
for f in $A /lsmns/bin/attack-xattr /lsmns/bin/attack-auditread; do
	[ -x $f ] || { echo "Bail out! $f missing"; exit 1; }
done
check "load-policies selinux smack" $P/load-policies selinux smack
M=/tmp/attack-auditlog
mkdir -p $M
X=/lsmns/bin/attack-xattr
CT=system_u:system_r:container_t:s0:c7,c8
# kauditd prints through printk's rate limit: lift it, as attack-adopt does.
echo 0 >/proc/sys/kernel/printk_ratelimit
echo secret >$M/denied
$X set $M/denied security.selinux system_u:object_r:lsmns_denied_selinux_t:s0 >/dev/null
out=$($A run selinux:hidden:$CT smack:active apparmor:hidden -- sh -c \
	"cat $M/denied >/dev/null 2>&1; for i in 1 2 3 4 5 6 7 8 9 10; do dmesg | grep 'scontext=$CT' && break; sleep 0.5; done" 2>&1)
check "host: the kernel log has the denial of $CT (control)" audit_line "scontext=$CT" "lsmns_denied_selinux_t"
check_not_contains "SELinux hidden: the namespace's root does not read its hidden context in the kernel log" \
	"$CT" "$out"
AR=/lsmns/bin/attack-auditread
check_contains "host: the audit multicast group carries a denial of $CT (control)" "record=" \
	"$($AR "scontext=$CT" 3 -- $P/bin/lsmns-exec --attr /proc/self/attr/exec $CT -- cat $M/denied 2>&1)"
out=$($A run selinux:hidden:$CT smack:active apparmor:hidden -- $AR "scontext=$CT" 3 -- cat $M/denied 2>&1)
check_not_contains "SELinux hidden: the namespace's root does not read its hidden context from the audit multicast group" \
	"$CT" "$out"
tap_done
