#!/bin/sh
# All lsmns policies at once: load-policies without arguments loads every
# active LSM's policy, and each example container is denied exactly its own
# LSM's demo object while the others' objects stay readable; a task holding
# all three container contexts is denied all three.  Booted with
# lsm=capability,selinux,smack,apparmor: on the stock kernel only SELinux
# comes up (the first exclusive LSM wins) and only its part runs; on the
# stacking kernel all three do.
# Needs /lsmns/policies (make -C policies) in the initramfs.
. /lsmns/lib/tap.sh
P=/lsmns/policies
D=/lsmns/demo
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing (make -C policies, initramfs --dir)"; exit 1; }
active=$(cat /sys/kernel/security/lsm)
tap_diag "active LSMs: $active"
is_active() { case ",$active," in *",$1,"*) return 0 ;; esac; return 1; }

# The attribute file each LSM takes its container context from.
first=""
for l in $(echo "$active" | tr ',' ' '); do
	case $l in selinux|apparmor|smack) first=$l; break ;; esac
done
attr_of() {
	case $1 in
	selinux) a=/proc/self/attr/selinux/exec
		[ -e $a ] || { [ "$first" = selinux ] && a=/proc/self/attr/exec; } ;;
	apparmor) a=/proc/self/attr/apparmor/exec ;;
	smack) a=/proc/self/attr/smack/current ;;
	esac
	echo "$a"
}
value_of() {
	case $1 in
	selinux) echo system_u:system_r:container_t:s0:c1,c2 ;;
	apparmor) echo "exec lsmns-demo-apparmor" ;;
	smack) echo ContainerC ;;
	esac
}
# in_lsms "LSM..." CMD...: run CMD with the container context of each LSM.
in_lsms() {
	lsms=$1; shift
	for l in $lsms; do
		set -- --attr "$(attr_of $l)" "$(value_of $l)" "$@"
	done
	$P/bin/lsmns-exec "$@"
}

out=$($P/load-policies 2>&1); rc=$?
tap_result $rc "load-policies (no arguments) loads every active LSM's policy"
[ $rc -eq 0 ] || tap_diag "$out"
mine=""
for l in selinux apparmor smack; do
	if is_active $l; then
		mine="$mine $l"
		check_contains "load-policies loaded $l" "load-policies: $l: loaded" "$out"
	else
		check_not_contains "load-policies skipped inactive $l" "load-policies: $l:" "$out"
	fi
done
[ -n "$mine" ] || { echo "Bail out! none of selinux, apparmor, smack is active"; exit 1; }
check "setup-demo labels for every active LSM" $P/setup-demo $D

for l in $mine; do
	check_eq "container $l reads the control object" "lsmns-demo allowed" \
		"$(in_lsms $l --drop-mac-caps -- cat $D/allowed 2>&1)"
	check_fails "container $l is denied denied-$l" in_lsms $l --drop-mac-caps -- cat $D/denied-$l
	for o in selinux apparmor smack; do
		[ $o = $l ] && continue
		check "container $l reads denied-$o (not its LSM's object)" \
			in_lsms $l --drop-mac-caps -- cat $D/denied-$o
	done
done

# One task in every container context: bounded by all active LSMs at once
# (what a hidden LSM keeps doing in an LSM namespace).
check_eq "a task in all container contexts reads the control object" "lsmns-demo allowed" \
	"$(in_lsms "$mine" --drop-mac-caps -- cat $D/allowed 2>&1)"
for l in $mine; do
	check_fails "a task in all container contexts is denied denied-$l" \
		in_lsms "$mine" --drop-mac-caps -- cat $D/denied-$l
done
for o in allowed denied-selinux denied-apparmor denied-smack; do
	check "host without MAC capabilities reads $o" $P/bin/lsmns-exec --drop-mac-caps -- cat $D/$o
done

# The interface LSM under SELinux policy (process2 setinterface, granted to
# container_t by the boolean lsmns_container_setinterface): a refused
# change fails with EACCES on both paths, is logged as an AVC denial and
# leaves the choice alone; the host domain may always change it.
other=""
for l in smack apparmor; do
	is_active $l && { other=$l; break; }
done
B=/sys/fs/selinux/booleans/lsmns_container_setinterface
if ! is_active selinux || [ -z "$other" ] || [ ! -e /proc/self/attr/interface_lsm ]; then
	tap_skip "interface LSM under SELinux policy" "# SKIP needs SELinux, another major LSM and interface_lsm"
else
	echo 0 >/proc/sys/kernel/printk_ratelimit
	def=$(cat /proc/self/attr/interface_lsm)
	switch="echo $other >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm"
	check "boolean lsmns_container_setinterface is there" test -e $B
	check_eq "container_t may switch its interface LSM to $other (boolean on)" "$other" \
		"$(in_lsms selinux --drop-mac-caps -- sh -c "$switch" 2>&1)"
	check_eq "container_t switches by lsm_set_self_attr too (boolean on)" "$other" \
		"$(in_lsms selinux --drop-mac-caps -- /lsmns/bin/stack-lsm set-interface $other cat /proc/self/attr/interface_lsm 2>&1)"
	check "boolean lsmns_container_setinterface off" selinux_set_bool lsmns_container_setinterface 0
	dmesg -c >/dev/null
	out=$(in_lsms selinux --drop-mac-caps -- sh -c "$switch" 2>&1)
	check_contains "boolean off: the write to interface_lsm is refused (EACCES)" "Permission denied" "$out"
	check_contains "boolean off: the refused write left the interface LSM at $def" "$def" "$(echo "$out" | tail -n 1)"
	check_contains "boolean off: lsm_set_self_attr is refused (EACCES)" "EACCES" \
		"$(in_lsms selinux --drop-mac-caps -- /lsmns/bin/stack-lsm set-interface $other true 2>&1)"
	check_contains "boolean off: choosing $def again is refused too" "Permission denied" \
		"$(in_lsms selinux --drop-mac-caps -- sh -c "echo $def >/proc/self/attr/interface_lsm" 2>&1)"
	check_contains "the refusal is an AVC denial of process2 setinterface" "tclass=process2" \
		"$(audit_line 'avc:  denied  { setinterface }' 'scontext=system_u:system_r:container_t')"
	check_eq "boolean off: the host domain still switches to $other" "$other" "$(sh -c "$switch" 2>&1)"
	check "boolean lsmns_container_setinterface back on" selinux_set_bool lsmns_container_setinterface 1
	check_eq "boolean on again: container_t switches to $other" "$other" \
		"$(in_lsms selinux --drop-mac-caps -- sh -c "$switch" 2>&1)"
fi
tap_done
