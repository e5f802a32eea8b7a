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
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
LX=$P/bin/lsmns-exec
W=$P/bin/lsmns-write
PS=/lsmns/bin/attack-passsec
for f in $A $LX $W $PS; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
first=$(major_lsms | head -n 1)
[ "$first" = smack ] || { echo "Bail out! Smack is not first in lsm= (the network label owner)"; exit 1; }
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
check "load-policies selinux smack" $P/load-policies selinux smack
check "Smack: H3Sender, H3Other and _ may write to each other" sh -c \
	"echo 'H3Sender _ rwx' | $W /sys/fs/smackfs/load2 && echo '_ H3Sender rwx' | $W /sys/fs/smackfs/load2 &&
	 echo 'H3Other _ rwx' | $W /sys/fs/smackfs/load2 && echo '_ H3Other rwx' | $W /sys/fs/smackfs/load2"
D=/tmp/attack-passsec
mkdir -p $D
port=7100
# receive MODE LABEL [ENTRY...]: a receiver (in a namespace of ENTRY...,
# or on the host without) gets one datagram from a host sender labelled
# LABEL; prints what it got (MODE recv: SCM_SECURITY; recvopts: IP options).
receive() {
	_mode=$1 _label=$2
	shift 2
	port=$((port + 1))
	rm -f $D/out $D/err
	if [ $# -gt 0 ]; then
		$A run "$@" -- $PS $_mode $port >$D/out 2>$D/err &
	else
		$PS $_mode $port >$D/out 2>$D/err &
	fi
	_r=$!
	_i=0
	while ! grep -q ready $D/err 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	$LX --attr /proc/self/attr/smack/current "$_label" -- $PS send $port
	wait $_r
	cat $D/out $D/err | grep -v '^ready$'
}
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
