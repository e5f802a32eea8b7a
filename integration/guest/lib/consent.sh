# shellcheck shell=sh
# Helpers of the consent tests (attack-consent.sh, refpolicy-consent.sh):
# each tries a release or an interface switch and prints what the task
# then sees, or the error.  Source after tap.sh; needs $A (lsmns-assign).

oneline() { tr '\n' ' ' | sed 's/ $//'; }
# release_selinux: a namespace that releases SELinux; prints its
# /proc/self/attr/lsmns line, or lsmns-assign's error.
release_selinux() { $A run smack:active selinux:released apparmor:hidden -- cat /proc/self/attr/lsmns 2>&1; }
release_smack() { $A run selinux:active smack:released apparmor:hidden -- cat /proc/self/attr/lsmns 2>&1; }
# switch LSM: a shell switches its own interface LSM, then shows it
# (after the error, if the switch failed).
switch() { sh -c "echo $1 >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm" 2>&1 | oneline; }
# switch_in_ns: the same inside a namespace that hides SELinux (a hidden
# SELinux is still asked, for the task's host-side context) and shows
# Smack and AppArmor; its interface starts as smack.
switch_in_ns() {
	$A run selinux:hidden smack:active apparmor:active -- \
		sh -c 'echo apparmor >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm' 2>&1 | oneline
}
# A released namespace's line shows the active LSM alone (a reader does
# not see what its namespace releases or hides).
REL_SE="interface=smack smack=active"
REL_SM="interface=selinux selinux=active"
