#!/bin/sh
# LSM namespaces and cgroups: later entrants.  A namespace is bound to the
# cgroup its assigned task enters it in; a privileged task that execs in
# that cgroup (what crun exec / runc exec do) adopts the namespace and its
# contexts, each LSM approving; an unprivileged task that moves itself
# there gains nothing; the binding goes when the namespace does.
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
D=/lsmns/demo
A=/lsmns/bin/lsmns-assign
SE=system_u:system_r:container_t:s0:c1,c2
SM=ContainerC
CG=/sys/fs/cgroup
COUNT=/sys/kernel/security/lsmns/count
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
[ -e $CG/cgroup.procs ] || { echo "Bail out! no cgroup2 at $CG"; exit 1; }
echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo $D
count0=$(lsmns_settled_count)

# The container: assigned, moved into its cgroup before its first execve
# (as the runtimes do), then running until told to stop.
mkdir -p $CG/other
container_start ctr /tmp/stop selinux:active:$SE smack:hidden:$SM apparmor:hidden
bg=$ctr_bg cns=$ctr_ns
check_eq "the container runs in its namespace" yes "$([ -n "$cns" ] && [ "$cns" != 0 ] && echo yes)"

# enter CGROUP CMD...: run CMD in CGROUP, joined before its execve.
enter() { cg=$1; shift; sh -c 'echo $$ >'"$CG/$cg"'/cgroup.procs && exec "$@"' sh "$@"; }

check_eq "a privileged exec in the container's cgroup adopts its namespace" "id=$cns" \
	"$(enter ctr cat /proc/self/attr/lsmns | cut -d' ' -f1)"
check_eq "... and its SELinux context" "$SE" "$(enter ctr cat /proc/self/attr/current | tr -d '\0')"
check_eq "... sees only SELinux" "capability,selinux" "$(enter ctr cat /sys/kernel/security/lsm)"
check_fails "... is bound by hidden Smack's assigned label" enter ctr $NODROP cat $D/denied-smack
check_contains "the adoption is audited with the entrant's pid, namespace and cgroup" " ns_id=$cns cgroup=" "$(audit_line 'op=adopt pid=' "ns_id=$cns")"
check_eq "a privileged exec elsewhere is not affected" "id=0" \
	"$(enter other cat /proc/self/attr/lsmns | cut -d' ' -f1)"

# Unprivileged: lsmns-exec drops the MAC capabilities and execs the shell,
# which then moves itself into the cgroup (allowed: root owns it) and execs.
check_eq "an unprivileged task that moves itself into the cgroup gains nothing" "id=0" \
	"$($NODROP sh -c 'echo $$ >/sys/fs/cgroup/ctr/cgroup.procs && exec cat /proc/self/attr/lsmns' | cut -d' ' -f1)"
check_eq "... and keeps every LSM" "capability,selinux,smack,apparmor" \
	"$($NODROP sh -c 'echo $$ >/sys/fs/cgroup/ctr/cgroup.procs && exec cat /sys/kernel/security/lsm')"

# Each LSM approves: the container's domain may be entered only through its
# entrypoint types, so a privileged entrant's program labelled
# lsmns_denied_selinux_t fails its execve.
cp /bin/busybox /tmp/not-an-entrypoint
$P/bin/lsmns-label /tmp/not-an-entrypoint security.selinux system_u:object_r:lsmns_denied_selinux_t:s0
out=$(enter ctr /tmp/not-an-entrypoint true 2>&1); rc=$?
check_eq "an entrant the LSM refuses (no entrypoint) fails its execve" 1 "$([ $rc -ne 0 ] && echo 1)"
check_contains "... with EACCES" "Permission denied" "$out"
check_contains "... audited as a refused adoption" "res=0" "$(audit_line 'op=adopt' 'errno=-13')"

# Narrower child for the container: entrants get the newest namespace.
LSMNS_BETWEEN='echo $LSMNS_TARGET_PID >/sys/fs/cgroup/ctr/cgroup.procs' \
	$A run selinux:active:$SE smack:hidden:$SM apparmor:hidden -- \
	sh -c 'while [ ! -e /tmp/stop ]; do sleep 0.2; done' &
bg2=$!
sleep 1
n1=$(enter ctr cat /proc/self/attr/lsmns | cut -d' ' -f1)
check_eq "with two namespaces bound to one cgroup, an entrant gets the newer" yes \
	"$([ "$n1" != "id=$cns" ] && [ "$n1" != "id=0" ] && echo yes)"

touch /tmp/stop
wait $bg $bg2
lsmns_wait_count "$count0"
check_eq "after the containers exit, their namespaces are gone" "$count0" "$(cat $COUNT)"
check_eq "... and a privileged exec in the cgroup adopts nothing" "id=0" \
	"$(enter ctr cat /proc/self/attr/lsmns | cut -d' ' -f1)"
rmdir $CG/ctr $CG/other 2>/dev/null
check_fails "the cgroup is gone" test -d $CG/ctr
tap_done
