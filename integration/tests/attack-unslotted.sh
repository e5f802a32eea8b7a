#!/bin/sh
# Attack on "global state is for the init namespace only, through every
# channel" (../shared/design.md section 7) for security state that no
# LSM with a namespace slot owns: the LSM framework's own sysctl
# vm.mmap_min_addr (security/min_addr.c: the lowest address a task may
# map, which the capability module and SELinux's mmap_zero check
# enforce), Yama's kernel.yama.ptrace_scope, and lockdown's securityfs
# file.  A container's root (every capability in the initial user
# namespace) must not change them from inside an LSM namespace, neither
# directly nor through a descriptor the host opened.  Booted with
#   lsm=capability,lockdown,yama,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
# Yama and lockdown are skipped when the kernel does not have them (the
# guest config has neither today); lockdown comes last, since a write
# that gets through cannot be undone.
# Controls: the host writes each and puts it back; the namespace reads
# each.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
W=$P/bin/lsmns-write
FP=/lsmns/bin/attack-fdpass
for f in $A $W $FP; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
check "load-policies selinux smack" $P/load-policies selinux smack
NS="selinux:active smack:hidden apparmor:hidden"

# knob FILE OTHER: the host writes OTHER and the original back (control),
# then a task of a namespace writes OTHER directly, and through an
# inherited host descriptor; both must leave the host's value.
knob() {
	_f=$1 _o=$2 _v=$(cat "$1")
	check "host: writes $_f ($_o) and puts it back ($_v) (control)" sh -c \
		"printf %s '$_o' | $W $_f && [ \"\$(cat $_f)\" = '$_o' ] && printf %s '$_v' | $W $_f && [ \"\$(cat $_f)\" = '$_v' ]"
	check_eq "namespace: reads $_f (control)" "$_v" "$($A run $NS -- cat "$_f" 2>&1)"
	out=$($A run $NS -- sh -c "printf %s '$_o' >$_f && echo written" 2>&1)
	check_not_contains "namespace root: writing $_f is refused" written "$out"
	check_eq "... and it stays $_v" "$_v" "$(cat "$_f")"
	[ "$(cat "$_f")" = "$_v" ] || printf %s "$_v" | $W "$_f"
	out=$($A run $NS -- $FP write 3 "$_o" 3<>"$_f" 2>&1)
	check_not_contains "namespace root: writing $_f through a host descriptor is refused" write=ok "$out"
	check_eq "... and it stays $_v" "$_v" "$(cat "$_f")"
	[ "$(cat "$_f")" = "$_v" ] || printf %s "$_v" | $W "$_f"
}

MMA=/proc/sys/vm/mmap_min_addr
knob $MMA "$([ "$(cat $MMA)" = 65536 ] && echo 32768 || echo 65536)"

YAMA=/proc/sys/kernel/yama/ptrace_scope
if [ -e $YAMA ]; then
	# 0 and 1 only: 3 cannot be undone.
	knob $YAMA "$([ "$(cat $YAMA)" = 1 ] && echo 0 || echo 1)"
else
	tap_skip "kernel.yama.ptrace_scope from inside" "# SKIP no Yama in this kernel"
fi

LD=/sys/kernel/security/lockdown
if [ -e $LD ]; then
	check_contains "host: lockdown is none" "[none]" "$(cat $LD)"
	check_contains "namespace: reads lockdown (control)" "[none]" "$($A run $NS -- cat $LD 2>&1)"
	out=$($A run $NS -- sh -c "echo integrity >$LD && echo written" 2>&1)
	check_not_contains "namespace root: writing lockdown is refused" written "$out"
	out=$($A run $NS -- $FP write 3 integrity 3<>$LD 2>&1)
	check_not_contains "namespace root: writing lockdown through a host descriptor is refused" write=ok "$out"
	check_contains "... and the host is not locked down" "[none]" "$(cat $LD)"
else
	tap_skip "lockdown from inside" "# SKIP no lockdown LSM in this kernel"
fi
tap_done
