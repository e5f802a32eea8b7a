#!/bin/sh
# Booted with audit=1 and SELinux, Smack and AppArmor active.  As in
# mainline (v6.18), no record names one LSM's context when several are
# active: a record says subj=? (or obj=?) and the record right after it
# in its event, AUDIT_MAC_TASK_CONTEXTS (1425) or AUDIT_MAC_OBJ_CONTEXTS
# (1426), holds every LSM's context, each made by its own LSM.  A
# core-dumping signal makes an AUDIT_ANOM_ABEND record (the subject); a
# Smack denial of a file read, a PATH record (an object).
#
#   stacking-audit.sh OWNER_CONTEXT   the secid owner's context of the
#                                     task; it is among the 1425 record's
#                                     contexts, no longer in subj=
. /lsmns/lib/tap.sh
owner_ctx=${1:-kernel}

# event_types SERIAL: the types of event SERIAL's records, in log order
# (kauditd prints them in the order they were queued; not EOE).
event_types() {
	dmesg | grep -F ":$1): " | sed -n 's/.*audit: type=\([0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//'
}
# next_type SERIAL PATTERN: the type of the record logged right after
# event SERIAL's first record that holds PATTERN.
next_type() {
	dmesg | grep -F ":$1): " | grep -A1 -F -e "$2" | sed -n '2s/.*audit: type=\([0-9]*\) .*/\1/p'
}
serial_of() { echo "$1" | sed -n 's/.*audit([0-9.]*:\([0-9]*\)).*/\1/p'; }

# Without auditd, records reach the console through printk_ratelimit()
# (10 per 5 s); boot-time records (NetLabel's, with Smack as owner) can
# use that up, so let the window pass first.
sleep 6
sh -c 'kill -SEGV $$' 2>/dev/null
abend=$(audit_line "type=1701" "sig=11")
check "ANOM_ABEND record logged" test -n "$abend"
check_contains "its subject is subj=?" " subj=? " "$abend "
check_not_contains "... not the secid owner's context" " subj=$owner_ctx " "$abend "
serial=$(serial_of "$abend")
ctxs=$(audit_line "type=1425" ":$serial)")
check "AUDIT_MAC_TASK_CONTEXTS record in the same event (serial $serial)" test -n "$ctxs"
check_eq "... once, right after the ANOM_ABEND record" "1701 1425" "$(event_types $serial)"
# Values are logged as untrusted strings (quoted, or hex if they hold
# spaces or quotes), so a context cannot inject fields.
check_contains "subj_selinux" 'subj_selinux="kernel"' "$ctxs"
check_contains "subj_smack" 'subj_smack="_"' "$ctxs"
check_contains "subj_apparmor" 'subj_apparmor="unconfined"' "$ctxs"
# The order is the LSMs' order in lsm= (/sys/kernel/security/lsm).
order=$(major_lsms | tr '\n' ' ')
want=""
for l in $order; do
	case $l in
	selinux) want="$want subj_selinux=\"kernel\"" ;;
	smack) want="$want subj_smack=\"_\"" ;;
	apparmor) want="$want subj_apparmor=\"unconfined\"" ;;
	esac
done
check_contains "contexts in lsm= order ($order)" "${want# }" "$ctxs"
check_contains "... the secid owner's among them" "=\"$owner_ctx\"" "$ctxs"
tap_diag "$abend"
tap_diag "$ctxs"

# An object: a Smack denial of a file read (MAC capabilities dropped, no
# Smack rule lets "_" read "LsmnsSecret") ends a syscall event with a
# SYSCALL record (subj=?) and its 1425 record, and a PATH record with
# obj=? followed by an AUDIT_MAC_OBJ_CONTEXTS (1426) record naming
# SELinux's and Smack's contexts of the file (AppArmor labels no files).
# PATH records need a syscall rule: log openat failing with EACCES.
P=/lsmns/policies/bin
echo 0 >/proc/sys/kernel/printk_ratelimit
check "an audit rule for openat failing with EACCES" /lsmns/bin/audit-rule eacces-open
f=/tmp/audit-object
echo secret >$f
$P/lsmns-label $f security.SMACK64 LsmnsSecret
$P/lsmns-exec --drop-mac-caps -- cat $f >/dev/null 2>&1
denial=$(audit_line 'lsm=SMACK' 'object="LsmnsSecret"')
check "the Smack denial is audited" test -n "$denial"
serial=$(serial_of "$denial")
syscall=$(audit_line "type=1300" ":$serial)")
path=$(audit_line "type=1302" ":$serial)")
objs=$(audit_line "type=1426" ":$serial)")
types=$(event_types $serial)
check_contains "the SYSCALL record in the same event (serial $serial) says subj=?" " subj=? " "$syscall "
check_eq "... followed by the event's one 1425 record" "1300 1425" \
	"$(echo " $types " | grep -o ' 1300 1425 ' | sed 's/^ //; s/ $//')"
check_eq "... the event has one 1425 record" 1 "$(echo "$types" | tr ' ' '\n' | grep -c '^1425$')"
check "a PATH record in the same event" test -n "$path"
check_contains "... whose obj= is obj=?" " obj=? " "$path "
check "AUDIT_MAC_OBJ_CONTEXTS record in the same event" test -n "$objs"
check_eq "... right after the PATH record of $f" 1426 "$(next_type $serial "name=\"$f\"")"
check_not_contains "... which it does not name (its place does)" "item=" "$objs"
check_contains "... with Smack's label of the file, made by Smack" 'obj_smack="LsmnsSecret"' "$objs"
case $order in
selinux*) check_contains "... and SELinux's, first (lsm= order)" 'obj_selinux=' "$(echo "$objs" | sed 's/obj_smack=.*//')" ;;
*) check_contains "... and SELinux's, after Smack's (lsm= order)" 'obj_selinux=' "$(echo "$objs" | sed 's/.*obj_smack=//')" ;;
esac
check_not_contains "... and no AppArmor field" 'obj_apparmor=' "$objs"
tap_diag "$types"
tap_diag "$path"
tap_diag "$objs"
tap_done
