#!/bin/sh
# Attacks on global LSM state from inside an LSM namespace (issue 17,
# "Hardening 1", classes 8 and 9).
#
# 8. An LSM's global switches (module parameters under /sys/module/*/
#    parameters, AppArmor's sysctls) act on the whole machine, so only
#    the initial namespace may write them: from inside any other one, even
#    as root with every capability and with AppArmor in a policy namespace
#    of its own, a write is EPERM and the value stays.  (Before the fix,
#    /sys/module/apparmor/parameters/mode written from inside put AppArmor
#    in complain mode host-wide.)  The files are found, not listed here, so
#    a parameter a later kernel adds is covered too.
# 8b. The same for the global configuration reached over netlink:
#    NetLabel's maps (its unlabeled accept flag, through generic netlink)
#    and the audit configuration (enabled, rules): EPERM from inside,
#    though reading both still works there.
# 9. Reading lsmns/assign ends: cat and dd stop after one result at most.
#
# Booted with lsm=capability,selinux,smack,apparmor, and
# lsmns.releasable=apparmor for the released case (skipped without).
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
W=$P/bin/lsmns-write
FS=/sys/kernel/security/apparmor
ASSIGN=/sys/kernel/security/lsmns/assign
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
[ -e $ASSIGN ] || { echo "Bail out! no $ASSIGN"; exit 1; }

# ---- the global files: every one with a write bit ----
LIST=/tmp/attack-global.list
: >$LIST
for f in /sys/module/apparmor/parameters/* /sys/module/selinux/parameters/* \
	/sys/module/smack/parameters/* /sys/module/lsm/parameters/* \
	/proc/sys/kernel/*apparmor* /proc/sys/kernel/*selinux* /proc/sys/kernel/*smack*; do
	[ -f "$f" ] || continue
	[ $((0$(stat -c %a "$f") & 0222)) -ne 0 ] || continue
	echo "$f" >>$LIST
done
check "found the writable global files" test -s $LIST
tap_diag "$(cat $LIST)"

# other VALUE: a different valid value, so that a write that gets through
# shows in the value read back.  lock_policy is written with its own value:
# once set it cannot be cleared, not even by the host.
other() {
	case $1 in
	*/lock_policy) cat "$1" ;;
	*)
		case $(cat "$1") in
		Y) echo N ;; N) echo Y ;; 0) echo 1 ;; 1) echo 0 ;;
		enforce) echo complain ;; complain) echo enforce ;;
		normal) echo quiet_denied ;; *) cat "$1" ;;
		esac
		;;
	esac
}
# The values at boot, and what each attack writes.
ORIG=/tmp/attack-global.orig
WANT=/tmp/attack-global.want
: >$ORIG; : >$WANT
while read -r f; do
	echo "$f $(cat "$f")" >>$ORIG
	echo "$f $(other "$f")" >>$WANT
done <$LIST
orig() { sed -n "s|^$1 ||p" $ORIG; }
put() { printf '%s' "$2" | $W "$1"; }

# ---- controls: the host writes each, and restores it ----
while read -r f v; do
	o=$(orig "$f")
	check "host: writes $f ($v) and restores it ($o)" \
		sh -c "printf '%s' '$v' | $W $f && [ \"\$(cat $f)\" = '$v' ] && printf '%s' '$o' | $W $f && [ \"\$(cat $f)\" = '$o' ]"
done <$WANT

# ---- attacks: root, every capability, in a namespace ----
# attack NAME ENTRY...: one task of the namespace tries every write and
# reports "FILE ok" or "FILE <error>" per file; the host then checks the
# value and puts it back if it changed.
INSIDE='while read -r f v; do
	if out=$(printf "%s" "$v" | '$W' "$f" 2>&1); then echo "$f ok"; else echo "$f $out"; fi
done <'$WANT
attack() {
	name=$1; shift
	res=$($A run "$@" -- sh -c "$INSIDE" 2>&1)
	[ -n "$res" ] || tap_diag "$name: the namespace reported nothing"
	while read -r f v; do
		check_contains "$name: writing $f ($v) from inside is refused (EPERM)" \
			"Operation not permitted" "$(echo "$res" | grep -F "$f ")"
		o=$(orig "$f")
		check_eq "... and it still reads $o from the host" "$o" "$(cat "$f")"
		[ "$(cat "$f")" = "$o" ] || put "$f" "$o"
	done <$WANT
}

attack "AppArmor hidden" selinux:active smack:hidden apparmor:hidden
attack "AppArmor active" apparmor:active selinux:hidden smack:hidden

# AppArmor in a policy namespace of its own: the one case where a
# namespace may manage AppArmor policy (its own), still not the global
# switches.  One mkdir in the root namespace is enough (no lockdep report).
mkdir $FS/policy/namespaces/lsmns_attack
check_eq "own AppArmor policy namespace: the task's label is in lsmns_attack (control)" lsmns_attack \
	"$($A run apparmor:active::lsmns_attack: selinux:hidden smack:hidden -- cat $FS/.ns_name 2>&1)"
attack "AppArmor in its own policy namespace" apparmor:active::lsmns_attack: selinux:hidden smack:hidden
rmdir $FS/policy/namespaces/lsmns_attack

if grep -q 'lsmns.releasable=[^ ]*apparmor' /proc/cmdline; then
	attack "AppArmor released" selinux:active smack:hidden apparmor:released
else
	tap_skip "AppArmor released" "# SKIP boot without lsmns.releasable=apparmor"
fi

# ---- 8b. global configuration over netlink ----
# NetLabel's maps and the audit configuration act on the whole system
# too.  A task of the namespace is root with CAP_NET_ADMIN and
# CAP_AUDIT_CONTROL in the initial user and pid namespaces (a container
# run without user and pid namespaces): changing either is EPERM and the
# host's value stays; reading both still works from inside (so the
# refusal is not an unreachable channel).  The host changes each
# (controls) and puts it back.
NL=/lsmns/bin/attack-netlabel
AC=/usr/sbin/auditctl
nl_orig=$($NL get 2>&1)
nl_other=$([ "$nl_orig" = 1 ] && echo 0 || echo 1)
check_eq "host: the NetLabel accept flag reads 0 or 1 ($nl_orig)" yes \
	"$(case $nl_orig in 0|1) echo yes ;; esac)"
check_eq "host: sets the NetLabel accept flag to $nl_other (control)" ok "$($NL set $nl_other 2>&1)"
check_eq "... and it reads $nl_other" "$nl_other" "$($NL get 2>&1)"
$NL set "$nl_orig" >/dev/null
check_eq "host: puts it back to $nl_orig" "$nl_orig" "$($NL get 2>&1)"
au_enabled() { $AC -s 2>/dev/null | sed -n 's/^enabled \([0-9]\).*/\1/p'; }
au_orig=$(au_enabled)
au_other=$([ "$au_orig" = 1 ] && echo 0 || echo 1)
check "host: auditctl -e $au_other (control)" $AC -e "$au_other"
check_eq "... and audit is enabled=$au_other" "$au_other" "$(au_enabled)"
$AC -e "$au_orig" >/dev/null 2>&1
HOSTRULE="-a always,exit -F arch=b64 -S fchmodat -k lsmns-host-rule"
# shellcheck disable=SC2086
check "host: adds an audit rule (control)" $AC $HOSTRULE
check_contains "... and lists it" "lsmns-host-rule" "$($AC -l 2>&1)"

netconf_attack() {
	name=$1; shift
	res=$($A run "$@" -- sh -c "
		echo \"nl-get \$($NL get 2>&1)\"
		echo \"nl-set \$($NL set $nl_other 2>&1)\"
		echo \"au-list \$($AC -l 2>&1 | tr '\n' ' ')\"
		echo \"au-enable \$($AC -e $au_other 2>&1 | tr '\n' ' ')\"
		echo \"au-add \$($AC -a always,exit -F arch=b64 -S fchownat -k lsmns-inside-rule 2>&1 | tr '\n' ' ')\"
		echo \"au-delete-all \$($AC -D 2>&1 | tr '\n' ' ')\"" 2>&1)
	check_eq "$name: reads the NetLabel accept flag from inside (control)" \
		"nl-get $nl_orig" "$(echo "$res" | grep '^nl-get ')"
	check_eq "$name: changing the NetLabel accept flag from inside is EPERM" \
		"nl-set Operation not permitted" "$(echo "$res" | grep '^nl-set ')"
	check_eq "... and the host still reads $nl_orig" "$nl_orig" "$($NL get 2>&1)"
	[ "$($NL get 2>&1)" = "$nl_orig" ] || $NL set "$nl_orig" >/dev/null
	check_contains "$name: lists the host's audit rules from inside (control)" \
		"lsmns-host-rule" "$(echo "$res" | grep '^au-list ')"
	check_contains "$name: auditctl -e $au_other from inside is EPERM" \
		"Operation not permitted" "$(echo "$res" | grep '^au-enable ')"
	check_eq "... and audit stays enabled=$au_orig" "$au_orig" "$(au_enabled)"
	[ "$(au_enabled)" = "$au_orig" ] || $AC -e "$au_orig" >/dev/null 2>&1
	check_contains "$name: adding an audit rule from inside is EPERM" \
		"Operation not permitted" "$(echo "$res" | grep '^au-add ')"
	check_contains "$name: deleting the host's audit rules from inside is EPERM" \
		"Operation not permitted" "$(echo "$res" | grep '^au-delete-all ')"
	rules=$($AC -l 2>&1)
	check_contains "... the host's rule is still there" "lsmns-host-rule" "$rules"
	check_not_contains "... and no rule from inside was added" "lsmns-inside-rule" "$rules"
	echo "$rules" | grep -q lsmns-host-rule || $AC $HOSTRULE >/dev/null 2>&1
	$AC -d always,exit -F arch=b64 -S fchownat -k lsmns-inside-rule >/dev/null 2>&1
}
netconf_attack "SELinux active" selinux:active smack:hidden apparmor:hidden
netconf_attack "Smack active" smack:active selinux:hidden apparmor:hidden
if grep -q 'lsmns.releasable=[^ ]*apparmor' /proc/cmdline; then
	netconf_attack "AppArmor released" selinux:active smack:hidden apparmor:released
else
	tap_skip "netlink configuration with AppArmor released" "# SKIP boot without lsmns.releasable=apparmor"
fi
# shellcheck disable=SC2086
$AC -d ${HOSTRULE#-a } >/dev/null 2>&1

# ---- 9. reading lsmns/assign ends ----
# A read returns one whole result (24 bytes) or end of file; a file that
# returns the result forever makes cat and dd loop.  head cuts a looping
# reader off after 1000 bytes, timeout after 5 s.
n=$(timeout 5 cat $ASSIGN 2>/dev/null | head -c 1000 | wc -c)
check_eq "cat of lsmns/assign ends after one result at most ($n bytes)" yes "$([ "$n" -le 24 ] && echo yes)"
n=$(timeout 5 dd if=$ASSIGN bs=24 2>/dev/null | head -c 1000 | wc -c)
check_eq "dd bs=24 of lsmns/assign ends after one result at most ($n bytes)" yes "$([ "$n" -le 24 ] && echo yes)"
# Not vacuous: after a write (a refused one: 1 byte, EINVAL) the same
# file gives exactly one result.
n=$(sh -c "exec 3<>$ASSIGN; printf x >&3; timeout 5 dd bs=24 <&3" 2>/dev/null | head -c 1000 | wc -c)
check_eq "after a write, dd on the same file reads exactly one result (24 bytes, got $n)" 24 "$n"
tap_done
