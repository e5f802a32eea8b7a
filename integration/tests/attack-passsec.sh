#!/bin/sh
# Attack on "a hidden LSM is invisible inside" (../shared/design.md
# section 7, "Hidden is defined channel by channel"): IP_PASSSEC gives a
# UDP receiver the sender's context as SCM_SECURITY.  The context comes
# from the owner of the network labels (Smack here: first in lsm=, it
# labels packets with CIPSO), whatever the receiver's namespace shows, so
# a reader in a namespace that hides Smack learns the host sender's Smack
# label.  Booted with
#   lsm=capability,smack,selinux,apparmor lsmns.releasable=selinux,smack,apparmor
#
# Controls: a host receiver and a receiver in a namespace where Smack is
# active get the sender's label H3Sender.  Attacks: a receiver where Smack
# is hidden, or released, must not.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
smack_net_setup
passsec() { receive recv H3Sender "$@"; }
check_eq "host receiver: SCM_SECURITY is the sender's Smack label (control)" "scm=H3Sender" "$(passsec)"
check_eq "Smack active (SELinux hidden): the receiver gets H3Sender (control)" "scm=H3Sender" \
	"$(passsec smack:active selinux:hidden apparmor:hidden)"
out=$(passsec selinux:active smack:hidden apparmor:hidden)
tap_diag "Smack hidden: $out"
check_not_contains "Smack hidden: the receiver does not get the sender's Smack label" H3Sender "$out"
check_contains "... but still receives the datagram (the channel works)" "scm=" "$out"
if grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline; then
	out=$(passsec selinux:active smack:released apparmor:hidden)
	tap_diag "Smack released: $out"
	check_not_contains "Smack released: the receiver does not get the sender's Smack label" H3Sender "$out"
else
	tap_skip "Smack released receiver" "# SKIP boot without lsmns.releasable=smack"
fi

tap_done
