#!/bin/sh
# lsmns-test: fresh-boot (no SELinux policy loaded yet; first in a debug batch)
# Booted with SELinux, Smack and AppArmor all active (no policy loaded:
# SELinux reports "kernel", Smack "_", AppArmor "unconfined").  Checks
# that all three initialise, the interface LSM (default, switching,
# inheritance, refusals), /proc/PID/attr/selinux/, lsm_get_self_attr(2)
# with every module, SO_PEERSEC, SCM_SECURITY and KEYCTL_GET_SECURITY
# following the interface LSM.
#
#   stacking-interface.sh FIRST   FIRST: the first major LSM in lsm=
. /lsmns/lib/tap.sh
first=${1:-selinux}
PATH=/lsmns/bin:$PATH

want_ctx() {
	case $1 in
	selinux) echo kernel ;;
	smack) echo _ ;;
	apparmor) echo unconfined ;;
	esac
}

lsms=$(cat /sys/kernel/security/lsm)
listed=" $(lsm-query list | tr '\n' ' ')"
for l in selinux smack apparmor; do
	check_contains "$l listed in /sys/kernel/security/lsm" "$l" "$lsms"
	check_contains "$l listed by lsm_list_modules(2)" " $l " "$listed"
done

# The default interface LSM is the first major LSM in lsm= order.
check_eq "default interface_lsm is $first" "$first" "$(cat /proc/self/attr/interface_lsm)"
check_eq "lsm_get_self_attr(INTERFACE_LSM) gives $first" "$first" \
	"$(stack-lsm interface | cut -d' ' -f2)"
check_eq "attr/current answered by $first" "$(want_ctx $first)" \
	"$(tr -d '\0\n' </proc/self/attr/current)"

# Each per-LSM directory answers for its own LSM, whatever the interface LSM.
check_eq "attr/selinux/current" kernel "$(tr -d '\0\n' </proc/self/attr/selinux/current)"
check_eq "attr/smack/current" _ "$(tr -d '\0\n' </proc/self/attr/smack/current)"
check_eq "attr/apparmor/current" unconfined "$(tr -d '\0\n' </proc/self/attr/apparmor/current)"
for a in current prev exec fscreate keycreate sockcreate; do
	check "attr/selinux/$a is readable" cat /proc/self/attr/selinux/$a
done

# Switch through /proc/self/attr/interface_lsm: the writing shell changes,
# and the commands it forks and execs inherit the choice.
for l in selinux smack apparmor; do
	out=$(sh -c "echo $l >/proc/self/attr/interface_lsm &&
		cat /proc/self/attr/interface_lsm && echo &&
		tr -d '\\0\\n' </proc/self/attr/current && echo &&
		stack-lsm peersec | tr -d '\\0' && stack-lsm scm" 2>&1)
	check_eq "interface $l: inherited over fork+exec" "$l" "$(echo "$out" | sed -n 1p)"
	check_eq "interface $l: attr/current" "$(want_ctx $l)" "$(echo "$out" | sed -n 2p)"
	# AppArmor 6.12 sets no peer label on a socketpair (no socketpair
	# hook) and has no datagram peer label, as with AppArmor alone.
	if [ $l = apparmor ]; then
		check_contains "interface $l: SO_PEERSEC is AppArmor's (ENOPROTOOPT)" \
			ENOPROTOOPT "$(echo "$out" | sed -n 3p)"
		check_eq "interface $l: no SCM_SECURITY" none "$(echo "$out" | sed -n 4p)"
		continue
	fi
	check_eq "interface $l: SO_PEERSEC" "$(want_ctx $l)" "$(echo "$out" | sed -n 3p)"
	check_eq "interface $l: SCM_SECURITY" "$(want_ctx $l)" "$(echo "$out" | sed -n 4p)"
done
check_eq "a child's switch does not change the parent" "$first" \
	"$(cat /proc/self/attr/interface_lsm)"

# Attributes the interface LSM does not have fail instead of falling through.
out=$(sh -c 'echo smack >/proc/self/attr/interface_lsm && cat /proc/self/attr/fscreate' 2>&1)
check_contains "interface smack: attr/fscreate is Smack's (EINVAL)" "nvalid" "$out"
check "interface selinux: attr/fscreate readable" \
	sh -c 'echo selinux >/proc/self/attr/interface_lsm && cat /proc/self/attr/fscreate'

# Refusals.
for bad in nosuchlsm capability seli '' 'selinux smack' SELINUX; do
	check_contains "interface_lsm \"$bad\" refused (EINVAL)" "Invalid argument" \
		"$(sh -c "echo '$bad' >/proc/self/attr/interface_lsm" 2>&1)"
done
out=$(sh -c 'echo smack >/proc/1/attr/interface_lsm' 2>&1)
check_contains "another process' interface_lsm refused (EPERM)" "not permitted" "$out"
check_eq "refusals left the choice alone" "$first" "$(cat /proc/self/attr/interface_lsm)"
out=$(stack-lsm set-interface capability 2>&1)
check_contains "lsm_set_self_attr: non-major id is EINVAL" "EINVAL" "$out"
out=$(stack-lsm set-interface 999 2>&1)
check_contains "lsm_set_self_attr: unknown id is EINVAL" "EINVAL" "$out"

# lsm_set_self_attr(LSM_ATTR_INTERFACE_LSM), inherited over exec.
for l in selinux smack apparmor; do
	check_eq "lsm_set_self_attr interface $l, then exec" "$l" \
		"$(stack-lsm set-interface $l cat /proc/self/attr/interface_lsm)"
	check_eq "lsm_set_self_attr interface $l: attr/current" "$(want_ctx $l)" \
		"$(stack-lsm set-interface $l cat /proc/self/attr/current | tr -d '\0\n')"
done

# A secure exec (here a setuid-root program started by uid 1000) resets
# the interface LSM to the default, so a caller cannot make a privileged
# program misread its own attributes; a plain exec keeps the choice.
other=smack
[ "$first" = smack ] && other=selinux
cp /lsmns/bin/stack-lsm /tmp/suid-stack-lsm && chmod 4755 /tmp/suid-stack-lsm
check_eq "plain exec as uid 1000 keeps interface $other" "$other" \
	"$(stack-lsm set-interface $other stack-lsm as-uid 1000 /lsmns/bin/stack-lsm interface 2>&1 | cut -d" " -f2)"
check_eq "secure exec (setuid root) resets interface $other to the default $first" "$first" \
	"$(stack-lsm set-interface $other stack-lsm as-uid 1000 /tmp/suid-stack-lsm interface 2>&1 | cut -d" " -f2)"

# KEYCTL_GET_SECURITY follows the interface LSM (SELinux and Smack label keys).
for l in selinux smack; do
	check_eq "interface $l: KEYCTL_GET_SECURITY" "$(want_ctx $l)" \
		"$(stack-lsm set-interface $l stack-lsm keysec | tr -d '\0')"
done

# lsm_get_self_attr(2) answers for every module, and an unset value in one
# (AppArmor's prev/exec) does not hide the others'.
cur=$(lsm-query get current)
check_contains "get_self_attr current: selinux" "selinux kernel" "$cur"
check_contains "get_self_attr current: smack" "smack _" "$cur"
check_contains "get_self_attr current: apparmor" "apparmor unconfined" "$cur"
for a in prev exec fscreate; do
	out=$(lsm-query get $a 2>&1)
	check_contains "get_self_attr $a: selinux answers" "selinux" "$out"
done
tap_done
