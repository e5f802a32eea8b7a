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
