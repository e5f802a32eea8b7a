#!/bin/sh
# Booted with audit=1 and SELinux, Smack and AppArmor active.  A core-dumping
# signal makes an AUDIT_ANOM_ABEND record; it carries subj= of the secid
# owner and, in the same event, an AUDIT_MAC_TASK_CONTEXTS (1423) record with
# every LSM's context of the task, each made by its own LSM.
#
#   stacking-audit.sh OWNER_CONTEXT   subj= expected (the secid owner's)
. /lsmns/lib/tap.sh
owner_ctx=${1:-kernel}

# Without auditd, records reach the console through printk_ratelimit()
# (10 per 5 s); boot-time records (NetLabel's, with Smack as owner) can
# use that up, so let the window pass first.
sleep 6
sh -c 'kill -SEGV $$' 2>/dev/null
abend=$(audit_line "type=1701" "sig=11")
check "ANOM_ABEND record logged" test -n "$abend"
check_contains "subj= is the secid owner's context" "subj=$owner_ctx " "$abend "
serial=$(echo "$abend" | sed -n 's/.*audit([0-9.]*:\([0-9]*\)).*/\1/p')
ctxs=$(audit_line "type=1423" ":$serial)")
check "AUDIT_MAC_TASK_CONTEXTS record in the same event (serial $serial)" test -n "$ctxs"
# Values are logged as untrusted strings (quoted, or hex if they hold
# spaces or quotes), so a context cannot inject fields.
check_contains "subj_selinux" 'subj_selinux="kernel"' "$ctxs"
check_contains "subj_smack" 'subj_smack="_"' "$ctxs"
check_contains "subj_apparmor" 'subj_apparmor="unconfined"' "$ctxs"
check_contains "contexts in lsm= order" 'subj_selinux="kernel" subj_smack="_" subj_apparmor="unconfined"' "$ctxs"
tap_diag "$abend"
tap_diag "$ctxs"

# An object: a Smack denial of a file read (MAC capabilities dropped, no
# Smack rule lets "_" read "LsmnsSecret") ends a syscall event with a
# PATH record, obj= of the secid owner, and an AUDIT_MAC_OBJ_CONTEXTS
# (1424) record naming every LSM's context of that object (item=N).
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
serial=$(echo "$denial" | sed -n 's/.*audit([0-9.]*:\([0-9]*\)).*/\1/p')
path=$(audit_line "type=1302" ":$serial)")
objs=$(audit_line "type=1424" ":$serial)")
check "a PATH record in the same event (serial $serial)" test -n "$path"
case $owner_ctx in
_) owner_obj=LsmnsSecret ;;	# Smack owns the secid
*) owner_obj=unlabeled ;;	# SELinux, no policy loaded
esac
check_contains "... whose obj= is the secid owner's label" "obj=$owner_obj " "$path "
check "AUDIT_MAC_OBJ_CONTEXTS record in the same event" test -n "$objs"
check_contains "... names the PATH item" "item=" "$objs"
check_contains "... with Smack's label of the file, made by Smack" 'obj_smack="LsmnsSecret"' "$objs"
check_contains "... and SELinux's" 'obj_selinux=' "$objs"
tap_diag "$path"
tap_diag "$objs"
tap_done
