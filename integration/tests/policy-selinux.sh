#!/bin/sh
# The lsmns SELinux policy (policies/selinux) in the guest: it loads and
# enforces; a task in container_t:s0:c1,c2 is denied the SELinux demo object
# (type enforcement) and the s0:c3,c4 one (MCS) but reads the control
# objects; the host (unconfined_t) reads all of them; the container cannot
# undo its confinement.  Works whichever other LSMs are active.
# Needs /lsmns/policies (make -C policies) in the initramfs.
. /lsmns/lib/tap.sh
P=/lsmns/policies
D=/lsmns/demo
ctx=system_u:system_r:container_t:s0:c1,c2
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing (make -C policies, initramfs --dir)"; exit 1; }

# With several LSMs (stacking kernel) name SELinux's attr files explicitly.
exec_attr=/proc/self/attr/exec
cur_attr=/proc/self/attr/current
[ -e /proc/self/attr/selinux/exec ] && exec_attr=/proc/self/attr/selinux/exec
[ -e /proc/self/attr/selinux/current ] && cur_attr=/proc/self/attr/selinux/current

# in_ctx CONTEXT CMD...: run CMD in CONTEXT without the MAC capabilities,
# the way a runtime starts a container's entrypoint (setexeccon + exec).
in_ctx() {
	c=$1; shift
	$P/bin/lsmns-exec --attr $exec_attr "$c" --drop-mac-caps -- "$@"
}
in_container() { in_ctx $ctx "$@"; }



check "load-policies selinux loads the policy" $P/load-policies selinux
# With several LSMs (stacking kernel) the others' policies are needed too,
# e.g. Smack's "_ DeniedC rx" for a host-labelled task; on a stock kernel
# this reloads only the one active LSM.
check "load-policies (every active LSM) succeeds" $P/load-policies
check_eq "SELinux is enforcing" 1 "$(cat /sys/fs/selinux/enforce)"
check_eq "the policy is MLS (MCS categories)" 1 "$(cat /sys/fs/selinux/mls)"
check_eq "the policy allows undeclared permissions (handle_unknown allow)" 0 "$(cat /sys/fs/selinux/deny_unknown)"
check_contains "the host runs as unconfined_t" ":unconfined_t:" "$(cat $cur_attr | tr -d '\0')"
check "setup-demo creates and labels the demo objects" $P/setup-demo $D
check_eq "denied-selinux is labelled lsmns_denied_selinux_t" \
	"system_u:object_r:lsmns_denied_selinux_t:s0" "$($P/bin/lsmns-label -g $D/denied-selinux security.selinux)"
check_eq "mcs-c3c4 is labelled s0:c3,c4" \
	"system_u:object_r:lsmns_allowed_t:s0:c3,c4" "$($P/bin/lsmns-label -g $D/mcs-c3c4 security.selinux)"

# The container task.
check_eq "a task enters container_t:s0:c1,c2 through attr/exec" \
	"$ctx" "$(in_container cat $cur_attr | tr -d '\0')"
check_eq "container reads the control object (allowed)" "lsmns-demo allowed" "$(in_container cat $D/allowed 2>&1)"
check_fails "container is denied lsmns_denied_selinux_t (denied-selinux)" in_container cat $D/denied-selinux
check_contains "the denial is EACCES" "Permission denied" "$(in_container cat $D/denied-selinux 2>&1)"
check_contains "the denial is an audited SELinux AVC" "tcontext=system_u:object_r:lsmns_denied_selinux_t" \
	"$(audit_line 'avc:  denied' 'name="denied-selinux"')"
check "container still sees denied-selinux (getattr allowed)" in_container stat $D/denied-selinux
check "container reads the other LSMs' objects (denied-apparmor, denied-smack)" \
	in_container cat $D/denied-apparmor $D/denied-smack
check "container s0:c1,c2 reads a file of s0:c1,c2" in_container cat $D/mcs-c1c2
check_fails "container s0:c1,c2 is denied a file of s0:c3,c4 (MCS)" in_container cat $D/mcs-c3c4
check "another container, s0:c3,c4, reads the s0:c3,c4 file" \
	in_ctx system_u:system_r:container_t:s0:c3,c4 cat $D/mcs-c3c4
check_fails "container s0:c3,c4 is denied the s0:c1,c2 file (MCS)" \
	in_ctx system_u:system_r:container_t:s0:c3,c4 cat $D/mcs-c1c2
check_fails "container s0:c1,c2 cannot exec into s0:c3,c4 (MCS on transitions)" \
	in_container $P/bin/lsmns-exec --attr $exec_attr system_u:system_r:container_t:s0:c3,c4 -- true
# Processes: one sleeper per container, probed with signal 0 (started
# without the shell functions so that $! is the sleeper itself).
$P/bin/lsmns-exec --attr $exec_attr system_u:system_r:container_t:s0:c3,c4 --drop-mac-caps -- sleep 60 &
other=$!
$P/bin/lsmns-exec --attr $exec_attr $ctx --drop-mac-caps -- sleep 60 &
own=$!
sleep 1
check_contains "the s0:c3,c4 sleeper runs as container_t:s0:c3,c4" "container_t:s0:c3,c4" "$(tr -d '\0' </proc/$other/attr/current)"
check "container s0:c1,c2 may signal its own category's task" in_container kill -0 $own
check_fails "container s0:c1,c2 may not signal a task of s0:c3,c4 (MCS)" in_container kill -0 $other
check_fails "container s0:c1,c2 may not signal a host task" in_container kill -0 $$
check "host may signal both" kill -0 $own $other
kill $own $other 2>/dev/null
wait $own $other 2>/dev/null

# The host.
check "host reads the control object" cat $D/allowed
check "host reads denied-selinux" cat $D/denied-selinux
check "host reads both MCS files" cat $D/mcs-c1c2 $D/mcs-c3c4
check "host without MAC capabilities reads denied-selinux (policy, not capability)" \
	$P/bin/lsmns-exec --drop-mac-caps -- cat $D/denied-selinux

# No way out for the container.
check_fails "container cannot switch SELinux to permissive" \
	in_container sh -c 'echo 0 >/sys/fs/selinux/enforce'
check_eq "SELinux is still enforcing" 1 "$(cat /sys/fs/selinux/enforce)"
check_fails "container cannot load a policy" \
	in_container sh -c "cat $P/selinux/policy.* >/sys/fs/selinux/load"
check_fails "container cannot exec into unconfined_t" \
	in_container $P/bin/lsmns-exec --attr $exec_attr system_u:system_r:unconfined_t:s0 -- true
check_fails "container cannot relabel denied-selinux to an allowed type" \
	in_container $P/bin/lsmns-label $D/denied-selinux security.selinux system_u:object_r:lsmns_allowed_t:s0
check_fails "container still denied denied-selinux afterwards" in_container cat $D/denied-selinux
# A policy the kernel (or parser) refuses: one line naming the LSM and the
# error, exit 1, and the policy already loaded stays in force.
bad=/tmp/lsmns-bad-policies
rm -rf $bad && cp -a $P $bad
head -c 4096 $P/selinux/policy.33 >$bad/selinux/policy.33
out=$($bad/load-policies selinux 2>&1); rc=$?
check_eq "a truncated SELinux policy: load-policies exits 1" 1 "$rc"
check_eq "a truncated SELinux policy: one error line" 1 "$(echo "$out" | wc -l)"
check_contains "a truncated SELinux policy: the line names SELinux and the kernel's error" \
	"load-policies: selinux: loading policy.33 into /sys/fs/selinux/load: Invalid argument" "$out"
check_eq "SELinux is still enforcing after the refused load" 1 "$(cat /sys/fs/selinux/enforce)"
check_fails "container still denied denied-selinux after the refused load" in_container cat $D/denied-selinux

check_loader_refuses_inactive $P/load-policies
tap_done
