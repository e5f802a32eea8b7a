#!/bin/sh
# Audit rules on LSM fields, with SELinux, Smack and AppArmor active and a
# policy loaded for each.  The field names are shared (Smack reads subj_user
# and obj_user as Smack labels, AppArmor subj_role as a profile); every
# module that accepts a rule's value keeps its own rule and is matched
# against its own label of the subject or object, whichever module owns
# the secid.  "=" matches when any module's label is the value, "!=" only
# when none is.
#
#   stacking-audit-rules.sh OWNER   OWNER: the secid owner this boot chose
. /lsmns/lib/tap.sh
owner=${1:-selinux}
P=/lsmns/policies
AR=/lsmns/bin/audit-rule
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing"; exit 1; }
# The owner is the first of the LSMs that want the secids, in lsm= order.
first=$(major_lsms | head -n 1)
[ "$first" = "$owner" ] || { echo "Bail out! $owner is not the first major LSM in lsm= ($first is)"; exit 1; }
out=$($P/load-policies 2>&1)
check "load-policies loads SELinux, Smack and AppArmor policy" test $? -eq 0 || tap_diag "$out"

# Records reach the console through printk_ratelimit() without auditd.
echo 0 >/proc/sys/kernel/printk_ratelimit

as_selinux() {
	$P/bin/lsmns-exec --attr /proc/self/attr/selinux/exec \
		system_u:system_r:container_t:s0:c1,c2 -- "$@"
}
as_smack() { $P/bin/lsmns-exec --attr /proc/self/attr/smack/current ContainerC -- "$@"; }
as_apparmor() {
	$P/bin/lsmns-exec --attr /proc/self/attr/apparmor/exec "exec lsmns-demo-apparmor" -- "$@"
}
trigger() { "$@" $AR trigger "$marker"; }

# logged KEY MARKER: a getpriority record of the rule KEY whose a1 is
# MARKER (waits for kauditd).  unlogged: the same, without waiting: it is
# asked after a later record of the same boot was seen.
logged() { audit_line "key=\"$1\"" " a1=$(printf %x "$2") "; }
unlogged() { ! dmesg | grep -F "key=\"$1\"" | grep -qF " a1=$(printf %x "$2") "; }

# rule KEY FIELD OP VALUE: an exit rule on getpriority, for the markers of
# its own block alone.  Audit logs an event with the key of the first rule
# that matches, so blocks keep one rule from shadowing another.
block=$((0x7f0000))
rule() {
	block=$((block + 0x100))
	eval "next_$1=$block"
	check "rule $1: $2$3$4 accepted" \
		$AR lsm-field "$1" getpriority "$2" "$3" "$4" $block $((block + 0xff))
}

# expect yes|no KEY "desc" [RUNNER...]: run the trigger (as RUNNER) with
# the next marker of rule KEY's block, and note whether KEY is to log it.
# Markers are above pid_max, so getpriority fails with ESRCH and changes
# nothing.
expected=/tmp/audit-rules.expected
: >$expected
expect() {
	want=$1 key=$2 desc=$3; shift 3
	eval "n=\$((next_$key + 1)); next_$key=\$n"
	marker=$n
	trigger "$@" || tap_diag "trigger failed: $desc"
	echo "$want $key $n $desc" >>$expected
}
# verify: every expected record is there, then every unexpected one is not.
verify() {
	while read -r want key mk desc; do
		[ "$want" = yes ] && check "rule $key logs $desc" logged "$key" "$mk"
	done <$expected
	while read -r want key mk desc; do
		[ "$want" = no ] && check "rule $key does not log $desc" unlogged "$key" "$mk"
	done <$expected
	: >$expected
}
tap_diag "host: $(cat /proc/self/attr/selinux/current) $(cat /proc/self/attr/smack/current) $(cat /proc/self/attr/apparmor/current)"

# A SELinux-only field: the SELinux label of the subject decides, even
# when Smack owns the secid.
rule se subj_type = container_t
expect no  se "the host (unconfined_t)"
expect yes se "container_t" as_selinux
expect no  se "a Smack-labelled task" as_smack

# subj_user valued with a Smack label: SELinux has no such user, Smack
# takes it; only the Smack label decides.
rule sm subj_user = ContainerC
expect no  sm "the host (Smack _)"
expect yes sm "Smack ContainerC" as_smack
expect no  sm "container_t (Smack _)" as_selinux
rule smne subj_user != ContainerC
expect yes smne "the host (Smack _)"
expect no  smne "Smack ContainerC" as_smack

# subj_role valued with an AppArmor profile: AppArmor takes it.
rule aa subj_role = lsmns-demo-apparmor
expect no  aa "the host (unconfined)"
expect yes aa "profile lsmns-demo-apparmor" as_apparmor
expect no  aa "Smack ContainerC (unconfined)" as_smack

# A value both SELinux (a user) and Smack (a label) take.  "=" matches the
# host through SELinux although its Smack label is "_"; "!=" is its
# negation, so the host, whose SELinux user is system_u, is not logged
# although its Smack label differs.
rule eq subj_user = system_u
rule ne subj_user != system_u
expect yes eq "the host (SELinux user system_u)"
expect no  ne "the host (SELinux user system_u, Smack _)"
expect no  ne "Smack ContainerC (SELinux user system_u)" as_smack
verify

# A SELinux policy load makes audit initialise every LSM rule field again
# (and free the old rules): the Smack and AppArmor parts come back too.
check "SELinux policy loaded again" $P/load-policies selinux
expect yes se "container_t, after the reload" as_selinux
expect yes sm "Smack ContainerC, after the reload" as_smack
expect no  sm "the host, after the reload"
expect yes aa "profile lsmns-demo-apparmor, after the reload" as_apparmor
expect yes eq "the host, after the reload"
verify

# An object field: obj_user valued with a Smack label matches the files
# that carry it, whatever the secid owner's label of them.
check "rule obj: obj_user=LsmnsAudObj on openat accepted" \
	$AR lsm-field obj openat obj_user = LsmnsAudObj
echo no >/tmp/audit-obj-no
echo yes >/tmp/audit-obj-yes
check "label /tmp/audit-obj-yes LsmnsAudObj" \
	$P/bin/lsmns-label /tmp/audit-obj-yes security.SMACK64 LsmnsAudObj
cat /tmp/audit-obj-no >/dev/null
cat /tmp/audit-obj-yes >/dev/null
check "rule obj logs the open of the file labelled LsmnsAudObj" \
	audit_line 'type=1302' 'name="/tmp/audit-obj-yes"'
check "rule obj does not log the open of an unlabelled file" \
	sh -c '! dmesg | grep -qF "name=\"/tmp/audit-obj-no\""'

# A value no module takes is refused by all; audit keeps the field for a
# later policy load and says so.
rule none subj_type = lsmns_no_such_t
check "... with audit's warning" audit_line "audit rule for LSM" "lsmns_no_such_t"
expect no none "the host"
expect no none "container_t" as_selinux
rule last subj_type = unconfined_t
expect yes last "the host, after the rule nobody takes"
verify

# Audit rules are the host's: in an LSM namespace that shows AppArmor
# alone, the hidden SELinux and Smack still match their rules.
A=/lsmns/bin/lsmns-assign
if [ ! -e /sys/kernel/security/lsmns/assign ] || [ ! -x $A ]; then
	tap_skip "rules in an LSM namespace" "# SKIP no LSM namespaces (series part 2) or lsmns-assign"
else
	in_ns() {
		$A run apparmor:active:lsmns-demo-apparmor \
			selinux:hidden:system_u:system_r:container_t:s0:c1,c2 \
			smack:hidden:ContainerC -- "$@"
	}
	check_eq "the namespace shows AppArmor alone" "capability,apparmor" \
		"$(in_ns cat /sys/kernel/security/lsm)"
	rule nsse subj_type = container_t
	rule nssm subj_user = ContainerC
	expect yes nsse "a task of an AppArmor namespace, hidden SELinux container_t" in_ns
	expect yes nssm "a task of an AppArmor namespace, hidden Smack ContainerC" in_ns
	verify
fi
[ "$TAP_FAILED" -eq 0 ] ||
	dmesg | grep -F 'key="' | tail -n 40 | while read -r l; do tap_diag "$l"; done
tap_done
