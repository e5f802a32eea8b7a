#!/bin/sh
# lsmns-test: fresh-boot (no SELinux policy loaded yet; first in a debug batch)
# Issue 17 ("Hardening 1"), class 6: consent is explicit.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# SELinux consents to being released for a task (lsmns release), and to a
# task switching its interface LSM (process2 setinterface), only when a
# rule of the loaded policy names the permission (docs/kernel-abi.md,
# "Releasing an LSM").  A policy written without them, with
# handle_unknown "allow" (every undeclared class or permission allowed),
# must not consent by default: the release is refused with EACCES, and so
# is the switch.
#
# Policies (policies/Makefile builds them into /lsmns/policies/selinux-test):
#   lsmns.cil              ours: grants both to unconfined_t (the controls)
#   noconsent.33           lsmns-noconsent.cil: declares neither the lsmns
#                          nor the process2 class; handle_unknown allow
#   noconsent-perm.33      the same plus both classes, without release and
#                          setinterface
# Each attack has a control: the same request under lsmns.cil, and
# releasing Smack in the same boot under the same policy.  Before any
# policy is loaded, SELinux does not consent to a release either.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
W=$P/bin/lsmns-write
FS=/sys/fs/selinux
for f in $A $W $P/selinux-test/noconsent.33 $P/selinux-test/noconsent-perm.33; do
	[ -e $f ] || { echo "Bail out! $f missing"; exit 1; }
done
grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline && grep -q 'lsmns.releasable=[^ ]*selinux' /proc/cmdline ||
	{ echo "Bail out! boot without lsmns.releasable=selinux,smack"; exit 1; }

. /lsmns/lib/consent.sh

# ------------------------------------------- before any policy is loaded
# SELinux cannot consent without a policy: no rule can name the release.
check_fails "no SELinux policy loaded yet" test -e $FS/class/lsmns
out=$(release_selinux); rc=$?
check_eq "no policy: releasing SELinux is refused (the assignment fails)" 125 "$rc"
check_contains "... with EACCES" "Permission denied (error -13" "$out"
check_contains "no policy: releasing Smack is allowed (control)" "$REL_SM" "$(release_smack)"

# ------------------------------------------------ controls under lsmns.cil
check "load-policies selinux smack" $P/load-policies selinux smack
check "lsmns.cil declares lsmns release" test -e $FS/class/lsmns/perms/release
check "lsmns.cil declares process2 setinterface" test -e $FS/class/process2/perms/setinterface
check_contains "lsmns.cil: releasing SELinux is allowed (control)" "$REL_SE" "$(release_selinux)"
check_contains "lsmns.cil: releasing Smack is allowed (control)" "$REL_SM" "$(release_smack)"
check_eq "lsmns.cil: switching the interface LSM to smack is allowed (control)" smack "$(switch smack)"
check_eq "lsmns.cil: switching it inside a namespace hiding SELinux is allowed (control)" apparmor "$(switch_in_ns)"

# ------------------------------------------ attacks under the two policies
for pol in noconsent noconsent-perm; do
	check "$pol: loads" sh -c "$W $FS/load <$P/selinux-test/$pol.33"
	check_eq "$pol: SELinux still enforces" 1 "$(cat $FS/enforce)"
	check_eq "$pol: handle_unknown allow (deny_unknown 0, reject_unknown 0)" "0 0" \
		"$(cat $FS/deny_unknown) $(cat $FS/reject_unknown)"
	check_fails "$pol: does not declare lsmns release" test -e $FS/class/lsmns/perms/release
	check_fails "$pol: does not declare process2 setinterface" test -e $FS/class/process2/perms/setinterface
	case $pol in
	noconsent)
		check_fails "$pol: does not declare the lsmns class" test -e $FS/class/lsmns
		check_fails "$pol: does not declare the process2 class" test -e $FS/class/process2 ;;
	noconsent-perm)
		check "$pol: declares the lsmns class" test -e $FS/class/lsmns
		check "$pol: declares the process2 class" test -e $FS/class/process2 ;;
	esac
	out=$(release_selinux); rc=$?
	check_eq "$pol: releasing SELinux is refused (the assignment fails)" 125 "$rc"
	check_contains "... with EACCES" "Permission denied (error -13" "$out"
	check_not_contains "... and nothing ran in the namespace" "interface=" "$out"
	check_contains "$pol: releasing Smack in the same boot is allowed (control)" "$REL_SM" "$(release_smack)"
	out=$(switch smack)
	check_contains "$pol: switching the interface LSM to smack is refused (EACCES)" "Permission denied" "$out"
	check_eq "... and the interface stays selinux" selinux "${out##* }"
	out=$(switch_in_ns)
	check_contains "$pol: switching it inside a namespace hiding SELinux is refused (EACCES)" \
		"Permission denied" "$out"
	check_eq "... and the interface stays smack" smack "${out##* }"
done

# Back to lsmns.cil: the same requests are allowed again.
check "lsmns.cil: loads again" sh -c "$W $FS/load <$P/selinux/policy.33"
check_contains "lsmns.cil again: releasing SELinux is allowed (control)" "$REL_SE" "$(release_selinux)"
check_eq "lsmns.cil again: switching the interface LSM to smack is allowed (control)" smack "$(switch smack)"
tap_done
