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
tap_done
