#!/bin/sh
# Attacks on "a hidden LSM is invisible inside" and "global state is for
# the init namespace only" (../shared/design.md section 7) through
# channels beside the LSMs' own files.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# 1. lsmns/ in securityfs is the host's: count (how many namespaces the
#    host runs) and namespaces must not be readable from inside a
#    namespace, and assign not openable.  Control: the host reads them.
# 2. Mount options: SELinux shows context=/fscontext=/defcontext=/
#    rootcontext= and seclabel in /proc/self/mountinfo, /proc/mounts and
#    statmount(2) (STATMOUNT_MNT_OPTS).  podman and CRI-O mount a
#    container's files with context=, which names the container's own
#    hidden MCS pair.  Inside a namespace that hides (or releases)
#    SELinux, none of it may show.  Controls: the host, and a namespace
#    where SELinux is active, see the options.  (Smack shows none of its
#    smackfs* options in 6.12: it has no sb_show_options.)
# 3. KEYCTL_GET_SECURITY answers with the interface LSM's label of a key:
#    inside a namespace hiding SELinux (interface smack) it must not be
#    SELinux's context.  Control: the host, interface selinux.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
SM=/lsmns/bin/attack-statmount
SL=/lsmns/bin/stack-lsm
for f in $A $SM $SL; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
check "load-policies selinux smack" $P/load-policies selinux smack

SE_HID="selinux:hidden smack:active apparmor:hidden"
SE_REL="selinux:released smack:active apparmor:hidden"
SM_HID="selinux:active smack:hidden apparmor:hidden"
SM_REL="selinux:active smack:released apparmor:hidden"
SE_ACT=$SM_HID
SM_ACT=$SE_HID
ns() { _e=$1; shift; $A run $_e -- "$@" 2>&1; }
oneline() { tr '\n' ' ' | sed 's/ $//'; }

# =========================== 1. lsmns/ in securityfs ===========================
L=/sys/kernel/security/lsmns
check "host: reads $L/count (control)" cat $L/count
check "host: reads $L/namespaces (control)" cat $L/namespaces
for f in $L/*; do
	[ -f "$f" ] || continue
	n=${f##*/}
	for m in active hidden; do
		case $m in active) e=$SE_ACT ;; hidden) e=$SE_HID ;; esac
		out=$(ns "$e" sh -c "cat $f >/dev/null && echo read-ok")
		check_not_contains "namespace (SELinux $m): reading lsmns/$n is refused" read-ok "$out"
	done
done

# ================================ 2. mount options ================================
M=/tmp/attack-visible
mkdir -p $M/se
SECTX=system_u:object_r:lsmns_allowed_t:s0:c1,c2
# (quoted: the MCS pair's comma would end the option)
check "host: mounts a tmpfs with context=$SECTX" mount -t tmpfs -o "context=\"$SECTX\"" h3-se $M/se
# opts DIR: the mount's options through the three channels, one line each.
cat >$M/opts.sh <<EOF
echo "mountinfo: \$(awk -v m="\$1" '\$5 == m' /proc/self/mountinfo)"
echo "mounts: \$(awk -v m="\$1" '\$2 == m' /proc/mounts)"
echo "statmount: \$($SM "\$1")"
EOF
opts() { sh $M/opts.sh "$1"; }
ns_opts() { $A run $1 -- sh $M/opts.sh "$2" 2>&1; }

out=$(opts $M/se)
check_eq "host: mountinfo shows context= (control)" 1 "$(echo "$out" | grep '^mountinfo:' | grep -c 'context=')"
check_eq "host: /proc/mounts shows context= (control)" 1 "$(echo "$out" | grep '^mounts:' | grep -c 'context=')"
check_eq "host: statmount shows context= (control)" 1 "$(echo "$out" | grep '^statmount:' | grep -c 'context=')"
out=$(ns_opts "$SE_ACT" $M/se)
check_eq "SELinux active: mountinfo shows context= (control)" 1 \
	"$(echo "$out" | grep '^mountinfo:' | grep -c 'context=')"
check_eq "SELinux active: statmount shows context= (control)" 1 \
	"$(echo "$out" | grep '^statmount:' | grep -c 'context=')"
for m in hidden released; do
	case $m in hidden) e=$SE_HID ;; released) e=$SE_REL ;; esac
	out=$(ns_opts "$e" $M/se)
	check_contains "SELinux $m: the mount is listed in mountinfo (the channel works)" " $M/se " "$out"
	for ch in mountinfo mounts statmount; do
		line=$(echo "$out" | grep "^$ch:")
		check_not_contains "SELinux $m: $ch does not show context=" "context=" "$line"
		check_not_contains "SELinux $m: $ch does not show the hidden MCS pair" "c1,c2" "$line"
		check_not_contains "SELinux $m: $ch does not show seclabel" "seclabel" "$line"
	done
done

umount $M/se

# seclabel: the guest's root filesystem (tmpfs) is labelled by SELinux.
out=$(opts /)
check_eq "host: mountinfo shows seclabel on / (control)" 1 "$(echo "$out" | grep '^mountinfo:' | grep -c 'seclabel')"
check_eq "host: statmount shows seclabel on / (control)" 1 "$(echo "$out" | grep '^statmount:' | grep -c 'seclabel')"
for m in hidden released; do
	case $m in hidden) e=$SE_HID ;; released) e=$SE_REL ;; esac
	out=$(ns_opts "$e" /)
	check_contains "SELinux $m: / is listed in mountinfo (the channel works)" " - " "$(echo "$out" | grep '^mountinfo:')"
	for ch in mountinfo mounts statmount; do
		check_not_contains "SELinux $m: $ch does not show seclabel on /" "seclabel" "$(echo "$out" | grep "^$ch:")"
	done
done

# ================================ 3. key labels ================================
check_contains "host, interface selinux: a key's label is SELinux's (control)" "system_u:" "$($SL keysec 2>&1)"
check_eq "Smack active, SELinux hidden: a key's label is Smack's (_)" "_" "$(ns "$SE_HID" $SL keysec)"
check_eq "Smack active, SELinux released: a key's label is Smack's (_)" "_" "$(ns "$SE_REL" $SL keysec)"
tap_done
