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
tap_done
