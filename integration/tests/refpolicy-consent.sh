#!/bin/sh
# SELinux consent under Debian's reference policy (selinux-policy-default,
# issue 19).  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#   lsmns.test_policy=refpolicy
#
# Debian builds refpolicy with handle_unknown "allow": a class or permission
# the policy does not declare is allowed.  refpolicy 2.20221101 declares
# neither the lsmns class (release) nor process2 setinterface, yet the
# kernel must not take that default as consent: releasing SELinux for a
# task and switching the interface LSM are refused (EACCES) unless a rule
# names the permission (security_policy_defines_perm(), docs/kernel-abi.md).
#
# Policies (policies/Makefile, selinux/build-refpolicy):
#   selinux-test/refpolicy-nomodule.33  refpolicy alone, handle_unknown
#                                       allow (forced at compile time)
#   selinux-test/refpolicy-macadmin.33  the same plus one rule, capability2
#                                       mac_admin for kernel_t: refpolicy
#                                       gives it to no domain, and without
#                                       it no namespace can be assigned at
#                                       all (lsmns/assign: EPERM)
#   selinux-refpolicy/policy.33         refpolicy + lsmns-refpolicy.cil,
#                                       what load-policies loads here
# Controls: releasing Smack under the same policy, and the same requests
# with the module, which grants them to the host domain (kernel_t) and not
# to container_t.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
W=$P/bin/lsmns-write
FS=/sys/fs/selinux
NOMOD=$P/selinux-test/refpolicy-nomodule.33
MACADMIN=$P/selinux-test/refpolicy-macadmin.33
for f in $A $W $NOMOD $MACADMIN $P/selinux-refpolicy/policy.33; do
	[ -e $f ] || { echo "Bail out! $f missing"; exit 1; }
done
grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline && grep -q 'lsmns.releasable=[^ ]*selinux' /proc/cmdline &&
	grep -q 'lsmns.test_policy=refpolicy' /proc/cmdline ||
	{ echo "Bail out! boot without lsmns.releasable=selinux,smack and lsmns.test_policy=refpolicy"; exit 1; }

. /lsmns/lib/consent.sh
ctx() { tr -d '\0' </proc/$1/attr/selinux/current; }

check "load-policies apparmor smack (AppArmor and Smack as usual)" $P/load-policies apparmor smack

# ------------------------------------------- refpolicy without the module
check "refpolicy-nomodule: loads" sh -c "$W $FS/load <$NOMOD"
check "refpolicy-nomodule: enforcing" sh -c "echo 1 >$FS/enforce"
check_eq "refpolicy-nomodule: SELinux enforces" 1 "$(cat $FS/enforce)"
check_eq "refpolicy-nomodule: handle_unknown allow (deny_unknown 0, reject_unknown 0)" "0 0" \
	"$(cat $FS/deny_unknown) $(cat $FS/reject_unknown)"
check "refpolicy-nomodule: it is refpolicy (declares the dbus class)" test -e $FS/class/dbus
check_eq "refpolicy-nomodule: the host runs as the kernel SID's kernel_t" \
	system_u:system_r:kernel_t:s0 "$(ctx self)"
check_fails "refpolicy-nomodule: does not declare the lsmns class" test -e $FS/class/lsmns
check "refpolicy-nomodule: declares process2" test -e $FS/class/process2
check_fails "refpolicy-nomodule: ... without setinterface" test -e $FS/class/process2/perms/setinterface
# No domain has mac_admin: nothing can be assigned, released or not.
out=$(release_selinux); rc=$?
check_eq "refpolicy-nomodule: releasing SELinux is refused (the assignment fails)" 125 "$rc"
check_contains "... at lsmns/assign: no mac_admin for kernel_t (EPERM)" \
	"open /sys/kernel/security/lsmns/assign: Operation not permitted" "$out"
check_contains "refpolicy-nomodule: releasing Smack is refused the same way" \
	"Operation not permitted" "$(release_smack)"
out=$(switch smack)
check_contains "refpolicy-nomodule: switching the interface LSM to smack is refused (EACCES)" \
	"Permission denied" "$out"
check_eq "... and the interface stays selinux" selinux "${out##* }"

# ----------------- refpolicy without the module, the host with mac_admin
check "refpolicy-macadmin: loads" sh -c "$W $FS/load <$MACADMIN"
check_eq "refpolicy-macadmin: handle_unknown allow" "0 0" "$(cat $FS/deny_unknown) $(cat $FS/reject_unknown)"
check_fails "refpolicy-macadmin: does not declare the lsmns class" test -e $FS/class/lsmns
check_fails "refpolicy-macadmin: nor process2 setinterface" test -e $FS/class/process2/perms/setinterface
out=$(release_selinux); rc=$?
check_eq "refpolicy-macadmin: releasing SELinux is refused (the assignment fails)" 125 "$rc"
check_contains "... with EACCES" "Permission denied (error -13" "$out"
check_not_contains "... and nothing ran in the namespace" "interface=" "$out"
check_contains "refpolicy-macadmin: releasing Smack is allowed (control)" "$REL_SM" "$(release_smack)"
out=$(switch smack)
check_contains "refpolicy-macadmin: switching the interface LSM to smack is refused (EACCES)" \
	"Permission denied" "$out"
check_eq "... and the interface stays selinux" selinux "${out##* }"
out=$(switch_in_ns)
check_contains "refpolicy-macadmin: switching it inside a namespace hiding SELinux is refused (EACCES)" \
	"Permission denied" "$out"
check_eq "... and the interface stays smack" smack "${out##* }"

# ---------------------------- refpolicy with the lsmns module (controls)
check "load-policies selinux: picks selinux-refpolicy/ (lsmns.test_policy=refpolicy)" $P/load-policies selinux
check "refpolicy+lsmns: declares lsmns release" test -e $FS/class/lsmns/perms/release
check "refpolicy+lsmns: declares process2 setinterface" test -e $FS/class/process2/perms/setinterface
check "refpolicy+lsmns: still refpolicy (dbus class)" test -e $FS/class/dbus
check_eq "refpolicy+lsmns: handle_unknown is still Debian's allow" "0 0" \
	"$(cat $FS/deny_unknown) $(cat $FS/reject_unknown)"
check_contains "refpolicy+lsmns: releasing SELinux for a host (kernel_t) task is allowed" \
	"$REL_SE" "$(release_selinux)"
check_contains "refpolicy+lsmns: releasing Smack is allowed" "$REL_SM" "$(release_smack)"
check_eq "refpolicy+lsmns: switching the interface LSM to smack is allowed" smack "$(switch smack)"
check_eq "refpolicy+lsmns: switching it inside a namespace hiding SELinux is allowed" \
	apparmor "$(switch_in_ns)"
# Where the policy does not allow it: no release rule for container_t.
$P/bin/lsmns-exec --attr /proc/self/attr/selinux/exec system_u:system_r:container_t:s0:c1,c2 -- sleep 30 &
tpid=$!
sleep 0.5
check_eq "refpolicy+lsmns: the target runs as container_t" \
	system_u:system_r:container_t:s0:c1,c2 "$(ctx $tpid)"
check_eq "refpolicy+lsmns: releasing SELinux for a container_t task is refused" "error=EACCES entry=1" \
	"$($A pid $tpid smack:active selinux:released apparmor:hidden)"
kill $tpid
out=$($P/bin/lsmns-exec --attr /proc/self/attr/selinux/exec system_u:system_r:container_t:s0:c1,c2 -- \
	sh -c 'echo smack >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm' 2>&1 | oneline)
check_eq "refpolicy+lsmns: container_t may switch its interface LSM (lsmns_container_setinterface on)" \
	smack "$out"
check "refpolicy+lsmns: boolean lsmns_container_setinterface off" \
	selinux_set_bool lsmns_container_setinterface 0
out=$($P/bin/lsmns-exec --attr /proc/self/attr/selinux/exec system_u:system_r:container_t:s0:c1,c2 -- \
	sh -c 'echo smack >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm' 2>&1 | oneline)
check_contains "refpolicy+lsmns: ... then container_t may not (EACCES)" "Permission denied" "$out"

# Back without the module: refused again.
check "refpolicy-macadmin: loads again" sh -c "$W $FS/load <$MACADMIN"
out=$(release_selinux); rc=$?
check_eq "refpolicy-macadmin again: releasing SELinux is refused (EACCES)" "125 yes" \
	"$rc $(case $out in *"error -13"*) echo yes ;; *) echo no ;; esac)"
tap_done
