# shellcheck shell=sh
# Helpers of the attack tests that build their own policy in the guest
# (attack-permissive.sh, attack-onlycap.sh, attack-policy-fd.sh, ...).
# Source after tap.sh.

H3_P=/lsmns/policies
H3_W=$H3_P/bin/lsmns-write

# aa_load FILE...: load (or replace) AppArmor profiles with the guest's
# own apparmor_parser; prints the parser's error on failure.
aa_load() {
	for _f in "$@"; do
		"$H3_P/apparmor/lib/ld.so" --library-path "$H3_P/apparmor/lib" \
			"$H3_P/apparmor/apparmor_parser" -K -r "$_f" || return 1
	done
}

# aa_binary FILE OUT: compile a profile to its binary form (what
# .replace takes) without loading it.
aa_binary() {
	"$H3_P/apparmor/lib/ld.so" --library-path "$H3_P/apparmor/lib" \
		"$H3_P/apparmor/apparmor_parser" -K -S "$1" >"$2"
}

# aa_mode NAME: the mode AppArmor lists for the profile NAME in the root
# policy namespace ("enforce", "complain"), or nothing.
aa_mode() {
	sed -n "s/^$1 (\(.*\))\$/\1/p" /sys/kernel/security/apparmor/profiles
}

# wait_file FILE: wait (at most 10 s) until FILE exists.
wait_file() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -e "$1" ]
}

# gated_exec GO CMD...: a host task that waits until the file GO exists,
# then execs CMD (an exec that commits a pending assignment).  Started
# in the background; prints its pid.
gated_exec() {
	_go=$1; shift
	rm -f "$_go"
	sh -c 'while [ ! -e "$0" ]; do sleep 0.1; done; exec "$@"' "$_go" "$@" >/dev/null 2>&1 &
	echo $!
}

# lsmns_line PID: the host's view of a task's namespace line.
lsmns_line() { cat "/proc/$1/attr/lsmns" 2>/dev/null; }

# Two senders' packets seen by a receiver where Smack, first in lsm=,
# owns the network labels (attack-passsec.sh, attack-ipopts.sh).
# smack_net_setup: checks the boot, brings up lo, loads the policies and
# lets the labels H3Sender and H3Other write to the floor label.
smack_net_setup() {
	SN_A=/lsmns/bin/lsmns-assign
	SN_LX=$H3_P/bin/lsmns-exec
	SN_PS=/lsmns/bin/attack-passsec
	SN_D=/tmp/attack-passsec
	SN_PORT=7100
	for _f in $SN_A $SN_LX $H3_W $SN_PS; do [ -x $_f ] || { echo "Bail out! $_f missing"; exit 1; }; done
	[ "$(major_lsms | head -n 1)" = smack ] ||
		{ echo "Bail out! Smack is not first in lsm= (the network label owner)"; exit 1; }
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	check "load-policies selinux smack" $H3_P/load-policies selinux smack
	check "Smack: H3Sender, H3Other and _ may write to each other" sh -c \
		"echo 'H3Sender _ rwx' | $H3_W /sys/fs/smackfs/load2 && echo '_ H3Sender rwx' | $H3_W /sys/fs/smackfs/load2 &&
		 echo 'H3Other _ rwx' | $H3_W /sys/fs/smackfs/load2 && echo '_ H3Other rwx' | $H3_W /sys/fs/smackfs/load2"
	mkdir -p $SN_D
}

# receive MODE LABEL [ENTRY...]: a receiver (in a namespace of ENTRY...,
# or on the host without) gets one datagram from a host sender labelled
# LABEL; prints what it got (MODE recv: SCM_SECURITY; recvopts: IP options).
receive() {
	_mode=$1 _label=$2
	shift 2
	SN_PORT=$((SN_PORT + 1))
	rm -f $SN_D/out $SN_D/err
	if [ $# -gt 0 ]; then
		$SN_A run "$@" -- $SN_PS $_mode $SN_PORT >$SN_D/out 2>$SN_D/err &
	else
		$SN_PS $_mode $SN_PORT >$SN_D/out 2>$SN_D/err &
	fi
	_r=$!
	_i=0
	while ! grep -q ready $SN_D/err 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	$SN_LX --attr /proc/self/attr/smack/current "$_label" -- $SN_PS send $SN_PORT
	wait $_r
	cat $SN_D/out $SN_D/err | grep -v '^ready$'
}
