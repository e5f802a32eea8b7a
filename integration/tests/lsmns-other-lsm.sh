#!/bin/sh
# An LSM without the lsmns_* hooks takes no part in LSM namespaces: no
# request can hide, release or activate it, nor make it the interface LSM
# (ENOENT / EINVAL, entry named), and inside every namespace it stays
# visible and keeps enforcing.  Landlock stands for all of them (Yama,
# BPF, TOMOYO, IPE, ...); capability is in the errno table too.
# Booted with
#   lsm=capability,landlock,selinux,smack,apparmor
#   lsmns.releasable=selinux,smack,apparmor,landlock
# (naming Landlock releasable must not make it releasable).
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
Q=/lsmns/bin/lsm-query
LW=/lsmns/bin/landlock-write
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
[ -x $A ] && [ -x $LW ] || { echo "Bail out! $A or $LW missing"; exit 1; }
grep -q 'landlock' /sys/kernel/security/lsm || { echo "Bail out! Landlock is not running"; exit 1; }

check "load-policies" $P/load-policies

# ---- requests that name Landlock ----
sleep 1000 &
T=$!
assign() { $A pid $T "$@"; }
check_contains "control: the same request with Smack hidden is accepted" "ok ns_id=" \
	"$(assign selinux:active smack:hidden apparmor:hidden)"
check_eq "Landlock hidden: ENOENT at its entry" "error=ENOENT entry=1" \
	"$(assign selinux:active landlock:hidden)"
check_eq "Landlock released (named in lsmns.releasable=): ENOENT at its entry" \
	"error=ENOENT entry=1" "$(assign selinux:active landlock:released)"
check_eq "Landlock active: ENOENT at its entry" "error=ENOENT entry=0" \
	"$(assign landlock:active selinux:active)"
check_eq "Landlock as the interface LSM: EINVAL, no entry" "error=EINVAL entry=-1" \
	"$(assign -i landlock selinux:active smack:hidden)"
check_eq "capability hidden: ENOENT at its entry" "error=ENOENT entry=1" \
	"$(assign selinux:active capability:hidden)"
kill $T
wait $T 2>/dev/null

# ---- what a namespace sees: Landlock stays ----
se() { $A run selinux:active smack:hidden apparmor:hidden -- "$@"; }
sm() { $A run smack:active selinux:hidden apparmor:hidden -- "$@"; }
check_eq "host: lsm_list_modules (the control)" "capability landlock selinux smack apparmor" \
	"$($Q list | tr '\n' ' ' | sed 's/ $//')"
check_eq "selinux ns: lsm_list_modules keeps Landlock, hides Smack and AppArmor" \
	"capability landlock selinux" "$(se $Q list | tr '\n' ' ' | sed 's/ $//')"
check_eq "smack ns: /sys/kernel/security/lsm keeps Landlock" "capability,landlock,smack" \
	"$(sm cat /sys/kernel/security/lsm)"
check_not_contains "selinux ns: attr/lsmns does not name Landlock" "landlock" \
	"$(se cat /proc/self/attr/lsmns)"

# ---- Landlock enforces everywhere ----
F=/tmp/landlock-target
check_eq "host: an unrestricted task may write $F (the control)" "ok" "$($LW $F)"
check_eq "host: a Landlock-restricted task may not" "EACCES" "$($LW --restrict $F)"
check_eq "selinux ns: an unrestricted task may write $F" "ok" "$(se $LW $F)"
check_eq "selinux ns: a Landlock-restricted task may not" "EACCES" "$(se $LW --restrict $F)"
check_eq "smack ns: a Landlock-restricted task may not" "EACCES" "$(sm $LW --restrict $F)"
rel() { $A run selinux:active smack:released apparmor:released -- "$@"; }
check_eq "ns releasing Smack and AppArmor: an unrestricted task may write $F" "ok" \
	"$(rel $NODROP $LW $F)"
check_eq "ns releasing Smack and AppArmor: Landlock still refuses" "EACCES" \
	"$(rel $NODROP $LW --restrict $F)"
tap_done
