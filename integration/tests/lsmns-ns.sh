#!/bin/sh
# LSM namespaces in the guest (kernel series 0100-): the assignment ABI's
# errnos, commit at exec, and what a task in a namespace can see and reach.
# Needs lsm=capability,selinux,smack,apparmor, /lsmns/policies and
# /lsmns/bin/lsmns-assign (integration/progs/lsmns-assign.c).
. /lsmns/lib/tap.sh
P=/lsmns/policies
D=/lsmns/demo
A=/lsmns/bin/lsmns-assign
SE=system_u:system_r:container_t:s0:c1,c2
AA=lsmns-demo-apparmor
SM=ContainerC
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }

# Audit records are checked in dmesg: no printk rate limit to hide them.
echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo $D

# The ABI errno table (TAP of its own, renumbered here).
out=$($A errno 2>&1); rc=$?
echo "$out" | grep -E '^(not )?ok ' | while read -r l; do echo "# errno: $l"; done
n_bad=$(echo "$out" | grep -c '^not ok ')
n_ok=$(echo "$out" | grep -c '^ok ')
check_eq "errno table: every case passes ($n_ok ok)" "0 0" "$rc $n_bad"
[ "$rc" -eq 0 ] || tap_diag "$out"

check_eq "/proc/self/attr/lsmns outside any namespace" \
	"id=0 parent=0 interface=default selinux=active smack=active apparmor=active" \
	"$(cat /proc/self/attr/lsmns)"

# ---- SELinux only ----
se() { $A run selinux:active:$SE smack:hidden:$SM apparmor:hidden -- "$@"; }
check_eq "selinux ns: lsm_list_modules shows SELinux, not Smack/AppArmor" \
	"capability selinux" "$(se /lsmns/bin/lsm-query list | tr '\n' ' ' | sed 's/ $//')"
check_eq "selinux ns: /sys/kernel/security/lsm" "capability,selinux" "$(se cat /sys/kernel/security/lsm)"
check_eq "selinux ns: attr/current is the assigned SELinux context" "$SE" \
	"$(se cat /proc/self/attr/current | tr -d '\0')"
out=$(se /lsmns/bin/lsm-query get current)
check_contains "selinux ns: lsm_get_self_attr has SELinux" "selinux $SE" "$out"
check_not_contains "selinux ns: lsm_get_self_attr has no Smack" "smack" "$out"
check_not_contains "selinux ns: lsm_get_self_attr has no AppArmor" "apparmor" "$out"
check_contains "selinux ns: attr/lsmns shows only SELinux" \
	"interface=selinux selinux=active
" "$(se cat /proc/self/attr/lsmns)
"
check_eq "selinux ns: SO_PEERSEC is the SELinux context" "$SE" "$(se /lsmns/bin/stack-lsm peersec)"
check_eq "selinux ns: SCM_SECURITY is the SELinux context" "$SE" "$(se /lsmns/bin/stack-lsm scm)"
lsm_dirs() { ls /proc/self/attr | grep -x -e selinux -e smack -e apparmor | tr '\n' ' ' | sed 's/ $//'; }
check_eq "host: attr/ lists every LSM's directory (the control)" "apparmor selinux smack" "$(lsm_dirs)"
check_contains "host: attr/apparmor/ lists its files (the control)" "current" "$(ls /proc/self/attr/apparmor)"
check_eq "selinux ns: attr/ lists only SELinux's directory" "selinux" \
	"$(se sh -c "ls /proc/self/attr | grep -x -e selinux -e smack -e apparmor")"
check_not_contains "selinux ns: attr/apparmor/ lists nothing" "current" "$(se ls /proc/self/attr/apparmor 2>&1)"
check_fails "selinux ns: attr/smack/current is unreadable" se cat /proc/self/attr/smack/current
check_fails "selinux ns: attr/apparmor/current is unreadable" se cat /proc/self/attr/apparmor/current
check_fails "selinux ns: interface_lsm cannot switch to hidden Smack" \
	se sh -c 'echo smack > /proc/self/attr/interface_lsm'
check_fails "selinux ns: SELinux denies denied-selinux (active)" se $NODROP cat $D/denied-selinux
check_fails "selinux ns: hidden Smack still denies denied-smack" se $NODROP cat $D/denied-smack
check_contains "... and audits the denial of the assigned label to the host" "lsm=SMACK" \
	"$(audit_line 'action=denied' "subject=\"$SM\"")"
check "selinux ns: the control object is readable" se $NODROP cat $D/allowed
check_fails "selinux ns: /sys/fs/selinux/enforce cannot be written" \
	se sh -c 'echo 0 > /sys/fs/selinux/enforce'
check_fails "selinux ns: smackfs (hidden) cannot be opened" se cat /sys/fs/smackfs/load2
check_fails "selinux ns: the assign file cannot be opened" se sh -c ': <> /sys/kernel/security/lsmns/assign'
check_eq "selinux ns: children inherit the namespace" "capability selinux" \
	"$(se sh -c '/lsmns/bin/lsm-query list | tr "\n" " "' | sed 's/ $//')"
line=$(audit_line 'op=assign' 'res=1')
check_contains "an audit record for the assignment" "op=assign pid=" "$line"
check_contains "... names every module's mode" "selinux=active smack=hidden apparmor=hidden" "$line"
check_contains "... and the assigned contexts" "ctx_selinux=\"$SE\" ctx_smack=\"$SM\"" "$line"
line=$(audit_line 'op=enter' 'res=1')
check_contains "an audit record for entering at exec, with the task's pid" "op=enter pid=" "$line"
check_contains "... names the modes and contexts entered" "interface=selinux selinux=active smack=hidden apparmor=hidden ctx_selinux=\"$SE\"" "$line"

# Loading or changing global policy is refused for the namespace itself,
# not because the domain lacks the permission: unconfined_t may set
# SELinux's mode on the host, and the same task in a namespace that shows
# SELinux, in the same domain, may not.
host_se=$(tr -d '\0' </proc/self/attr/selinux/current)
enforce=$(cat /sys/fs/selinux/enforce)
check "host: $host_se writes /sys/fs/selinux/enforce (the control)" \
	sh -c "echo $enforce > /sys/fs/selinux/enforce"
check_fails "selinux ns as $host_se: /sys/fs/selinux/enforce cannot be written" \
	$A run selinux:active:$host_se smack:hidden apparmor:hidden -- sh -c "echo $enforce > /sys/fs/selinux/enforce"
check_fails "selinux ns as $host_se: /sys/fs/selinux/load cannot be opened for writing" \
	$A run selinux:active:$host_se smack:hidden apparmor:hidden -- sh -c ': <> /sys/fs/selinux/load'
check_eq "... and the same task in that namespace runs (the namespace is not refused)" "ok" \
	"$($A run selinux:active:$host_se smack:hidden apparmor:hidden -- echo ok)"

# ---- AppArmor only ----
aa() { $A run apparmor:active:$AA selinux:hidden:$SE smack:hidden -- "$@"; }
check_eq "apparmor ns: lsm_list_modules" "capability apparmor" \
	"$(aa /lsmns/bin/lsm-query list | tr '\n' ' ' | sed 's/ $//')"
check_eq "apparmor ns: /sys/kernel/security/lsm" "capability,apparmor" "$(aa cat /sys/kernel/security/lsm)"
check_contains "apparmor ns: attr/current is the assigned profile" "$AA" "$(aa cat /proc/self/attr/current)"
check_fails "apparmor ns: AppArmor denies denied-apparmor" aa cat $D/denied-apparmor
check_fails "apparmor ns: hidden SELinux still denies denied-selinux" aa cat $D/denied-selinux
check "apparmor ns: the control object is readable" aa cat $D/allowed
check_fails "apparmor ns: /sys/fs/selinux (hidden) cannot be opened" aa cat /sys/fs/selinux/enforce
# A hidden SELinux still decides whether the task may change its interface
# LSM (process2 setinterface, which container_t has only while the host's
# boolean lsmns_container_setinterface is on), even to the only LSM the
# namespace shows.
check "apparmor ns: interface LSM apparmor may be chosen (boolean on)" \
	aa /lsmns/bin/stack-lsm set-interface apparmor true
check "host: boolean lsmns_container_setinterface off" selinux_set_bool lsmns_container_setinterface 0
check_contains "apparmor ns: hidden SELinux refuses the change (boolean off)" "EACCES" \
	"$(aa /lsmns/bin/stack-lsm set-interface apparmor true 2>&1)"
check_contains "... with an AVC denial for the hidden container_t context" "tclass=process2" \
	"$(audit_line 'avc:  denied  { setinterface }' 'scontext=system_u:system_r:container_t:s0:c1,c2')"
check "host: boolean lsmns_container_setinterface back on" selinux_set_bool lsmns_container_setinterface 1
check "apparmor ns: interface LSM apparmor may be chosen again" \
	aa /lsmns/bin/stack-lsm set-interface apparmor true

# ---- Smack only ----
sm() { $A run smack:active:$SM selinux:hidden apparmor:hidden -- "$@"; }
check_eq "smack ns: lsm_list_modules" "capability smack" \
	"$(sm /lsmns/bin/lsm-query list | tr '\n' ' ' | sed 's/ $//')"
check_eq "smack ns: /sys/kernel/security/lsm" "capability,smack" "$(sm cat /sys/kernel/security/lsm)"
check_eq "smack ns: attr/current is the assigned label" "$SM" "$(sm cat /proc/self/attr/current | tr -d '\0')"
check_eq "smack ns: SO_PEERSEC is the Smack label" "$SM" "$(sm /lsmns/bin/stack-lsm peersec)"
check_eq "smack ns: SCM_SECURITY is the Smack label" "$SM" "$(sm /lsmns/bin/stack-lsm scm)"
check_eq "smack ns: attr/ lists only Smack's directory" "smack" \
	"$(sm sh -c "ls /proc/self/attr | grep -x -e selinux -e smack -e apparmor")"
check_fails "smack ns: Smack denies denied-smack" sm $NODROP cat $D/denied-smack
check "smack ns: the control object is readable" sm $NODROP cat $D/allowed
check_fails "smack ns: smackfs load2 cannot be written" sm sh -c 'echo "a b r" > /sys/fs/smackfs/load2'

# ---- a second assignment while the first is pending ----
# The target has not exec'd yet: an assignment that only narrows the
# pending one replaces it, and the execve enters the narrower namespace;
# one that would show more than the pending one is EBUSY and the first
# stays.
out=$(LSMNS_BETWEEN="$A pid \$LSMNS_TARGET_PID selinux:active:$SE smack:hidden:$SM apparmor:hidden >/tmp/second.out" \
	$A run selinux:active:$SE smack:active:$SM apparmor:hidden -- /lsmns/bin/lsm-query list | tr '\n' ' ' | sed 's/ $//')
check_contains "narrowing second assignment: accepted" "ok ns_id=" "$(cat /tmp/second.out)"
check_eq "narrowing second assignment: the exec enters the narrower namespace" "capability selinux" "$out"
check_contains "narrowing second assignment: audited as replacing the first" "replaces=" \
	"$(audit_line 'op=assign' 'replaces=')"
out=$(LSMNS_BETWEEN="$A pid \$LSMNS_TARGET_PID selinux:active:$SE smack:active:$SM apparmor:hidden >/tmp/second.out" \
	$A run selinux:active:$SE smack:hidden:$SM apparmor:hidden -- /lsmns/bin/lsm-query list | tr '\n' ' ' | sed 's/ $//')
check_eq "widening second assignment: EBUSY" "error=EBUSY entry=-1" "$(cat /tmp/second.out)"
check_eq "widening second assignment: the exec enters the first namespace" "capability selinux" "$out"

# ---- refusals at exec ----
out=$($A run selinux:active:system_u:object_r:lsmns_allowed_t:s0 -- true 2>&1); rc=$?
check_eq "a file type as process context is refused at assignment" 125 "$rc"
check_contains "... with EACCES (no process transition to it)" "Permission denied" "$out"
# container_t may be entered only through its entrypoint types: a program
# labelled lsmns_denied_selinux_t passes the assignment and fails the execve.
cp /bin/busybox /tmp/not-an-entrypoint
$P/bin/lsmns-label /tmp/not-an-entrypoint security.selinux system_u:object_r:lsmns_denied_selinux_t:s0
out=$($A run selinux:active:$SE -- /tmp/not-an-entrypoint true 2>&1); rc=$?
check_eq "a context refused at exec (no entrypoint) fails the execve" 126 "$rc"
check_contains "... with EACCES" "Permission denied" "$out"
check_contains "... and the refused entry is audited" "errno=-13 res=0" "$(audit_line 'op=enter' 'res=0')"
out=$(LSMNS_BETWEEN="$P/load-policies apparmor >/dev/null; echo -n $AA > /sys/kernel/security/apparmor/.remove" \
	$A run apparmor:active:$AA -- true 2>&1); rc=$?
check_eq "a profile removed before exec fails the execve" 126 "$rc"
check "load-policies apparmor again" $P/load-policies apparmor
tap_done
