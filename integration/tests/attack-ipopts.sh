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
