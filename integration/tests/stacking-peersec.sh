#!/bin/sh
# Booted with lsm.peersec=all: SO_PEERSEC reports every LSM's context, in
# lsm= order, whatever the interface LSM; SCM_SECURITY still follows the
# interface LSM.  Inside an LSM namespace both show only what it shows.
. /lsmns/lib/tap.sh
PATH=/lsmns/bin:$PATH
# AppArmor 6.12 has no peer label on a socketpair, so it is left out.
want="selinux='kernel',smack='_'"
check_eq "SO_PEERSEC lists every LSM" "$want" "$(stack-lsm peersec)"
check_eq "SO_PEERSEC with interface smack lists every LSM" "$want" \
	"$(stack-lsm set-interface smack stack-lsm peersec)"
check_eq "SCM_SECURITY follows the interface LSM" "_" \
	"$(stack-lsm set-interface smack stack-lsm scm)"

# Inside an LSM namespace the "all" format lists only the modules the
# namespace shows: a hidden module's context must not leak through it.
A=/lsmns/bin/lsmns-assign
if [ -e /sys/kernel/security/lsmns/assign ]; then
	se_ns() { $A run selinux:active smack:hidden apparmor:hidden -- "$@"; }
	sm_ns() { $A run smack:active selinux:hidden apparmor:hidden -- "$@"; }
	check_eq "SELinux-only namespace: SO_PEERSEC lists SELinux alone" \
		"selinux='kernel'" "$(se_ns /lsmns/bin/stack-lsm peersec)"
	check_eq "Smack-only namespace: SO_PEERSEC lists Smack alone" \
		"smack='_'" "$(sm_ns /lsmns/bin/stack-lsm peersec)"
	check_eq "SELinux-only namespace: SCM_SECURITY is SELinux's" \
		"kernel" "$(se_ns /lsmns/bin/stack-lsm scm)"
	check_eq "Smack-only namespace: SCM_SECURITY is Smack's" \
		"_" "$(sm_ns /lsmns/bin/stack-lsm scm)"
fi
tap_done
