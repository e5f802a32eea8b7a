#!/bin/sh
# Attack on "a hidden LSM is invisible inside" (../shared/design.md
# section 7, "Hidden is defined channel by channel"), beside
# attack-passsec.sh: the label in the packet itself.  Smack, first in
# lsm= and so the owner of the network labels, puts a CIPSO option in
# every IPv4 packet, its categories made from the label's bits, and
# IP_RECVOPTS hands a receiver the raw options.  A receiver where Smack is
# hidden or released must not tell two senders' labels apart that way
# (whether this is closed or documented as observable, like a packet
# capture, is the kernel's decision).  Booted with
#   lsm=capability,smack,selinux,apparmor lsmns.releasable=selinux,smack,apparmor
# Control: the host receiver sees two different options for H3Sender and
# H3Other.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
smack_net_setup
# ------------------------------ IP options ------------------------------
a=$(receive recvopts H3Sender)
b=$(receive recvopts H3Other)
tap_diag "host: H3Sender $a, H3Other $b"
check_eq "host receiver: H3Sender's packet carries IP options (CIPSO) (control)" yes \
	"$(case $a in opts=86*) echo yes ;; esac)"
check_eq "host receiver: H3Sender's and H3Other's options differ (control)" yes "$([ "$a" != "$b" ] && echo yes)"
for m in hidden released; do
	grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline || [ $m = hidden ] || continue
	a=$(receive recvopts H3Sender selinux:active smack:$m apparmor:hidden)
	b=$(receive recvopts H3Other selinux:active smack:$m apparmor:hidden)
	tap_diag "Smack $m: H3Sender $a, H3Other $b"
	check_contains "Smack $m: the receiver gets the datagrams (the channel works)" "opts=" "$a $b"
	check_eq "Smack $m: the receiver cannot tell H3Sender from H3Other by the IP options" "$a" "$b"
done
tap_done
