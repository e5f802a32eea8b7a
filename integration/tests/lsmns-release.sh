#!/bin/sh
# LSM namespaces that release an LSM (kernel series "let a namespace
# release an LSM"): boot parameter, each LSM's consent, hook gating, and
# nesting and leak checks.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
# Each LSM has an object only it denies, to the host too when run with the
# MAC capabilities dropped:
#   SELinux   denied-host      (lsmns_host_denied_t: no domain may read it)
#   Smack     /tmp/smack-denied (HostDeniedC: no rule gives "_" access)
#   AppArmor  denied-apparmor  through /tmp/lsmns-attached/cat, which the
#             lsmns-attached profile confines at exec, by path
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
D=/lsmns/demo
A=/lsmns/bin/lsmns-assign
CAT=/tmp/lsmns-attached/cat
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
COUNT=/sys/kernel/security/lsmns/count
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
grep -q 'lsmns.releasable=' /proc/cmdline || { echo "Bail out! boot without lsmns.releasable="; exit 1; }

echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo $D
mkdir -p /tmp/lsmns-attached
cp /bin/busybox $CAT
SMD=/tmp/smack-denied
echo "lsmns-demo smack-denied" >$SMD
check "label $SMD HostDeniedC" $P/bin/lsmns-label $SMD security.SMACK64 HostDeniedC

# The errno table again: with smack releasable, its release case becomes
# "released with a context: EINVAL".
out=$($A errno 2>&1); rc=$?
n_bad=$(echo "$out" | grep -c '^not ok ')
check_eq "errno table passes with lsmns.releasable= set" "0 0" "$rc $n_bad"
[ "$rc" -eq 0 ] || tap_diag "$out"
check_contains "... and has the released-with-context case" "released with a context: EINVAL" "$out"
count0=$(lsmns_settled_count)

# ---- controls: the host and hidden LSMs are denied ----
check_fails "host: SELinux denies denied-host" $NODROP cat $D/denied-host
check_fails "host: Smack denies smack-denied" $NODROP cat $SMD
check_fails "host: AppArmor (attached profile) denies denied-apparmor" $CAT $D/denied-apparmor
check "host: the attached profile allows the control object" $CAT $D/allowed
check_fails "hidden SELinux still denies denied-host" \
	$A run smack:active selinux:hidden apparmor:hidden -- $NODROP cat $D/denied-host
check_fails "hidden Smack still denies smack-denied" \
	$A run apparmor:active selinux:hidden smack:hidden -- $NODROP cat $SMD
check_fails "hidden AppArmor still denies denied-apparmor" \
	$A run selinux:active smack:hidden apparmor:hidden -- $CAT $D/denied-apparmor

# ---- released: the LSM no longer decides for the task ----
check "released SELinux: denied-host is readable" \
	$A run smack:active selinux:released apparmor:hidden -- $NODROP cat $D/denied-host
check "released Smack: smack-denied is readable" \
	$A run apparmor:active selinux:hidden smack:released -- $NODROP cat $SMD
check "released AppArmor: denied-apparmor is readable through the attached program" \
	$A run selinux:active smack:hidden apparmor:released -- $CAT $D/denied-apparmor
check "apparmor and smack released together: both objects readable" \
	$A run selinux:active smack:released apparmor:released -- \
	sh -c "$NODROP cat $SMD && $CAT $D/denied-apparmor"
check_fails "... and SELinux, active, still denies denied-host there" \
	$A run selinux:active smack:released apparmor:released -- $NODROP cat $D/denied-host

# Only that task: while a released task runs, the host is still denied.
rm -f /tmp/rel.pid /tmp/rel.out
$A run apparmor:active selinux:hidden smack:released -- \
	sh -c "echo \$\$ >/tmp/rel.pid; sleep 3; $NODROP cat $SMD >/tmp/rel.out" &
bg=$!
i=0; while [ ! -s /tmp/rel.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check_fails "host is denied smack-denied while a released task runs" $NODROP cat $SMD
check_contains "the host sees the task's modes (attr/lsmns)" "smack=released" \
	"$(cat /proc/$(cat /tmp/rel.pid)/attr/lsmns 2>&1)"
check_not_contains "inside, the released LSM is not listed" "smack" \
	"$($A run apparmor:active selinux:hidden smack:released -- cat /proc/self/attr/lsmns)"
check_eq "inside, /sys/kernel/security/lsm shows only the active LSM" "capability,apparmor" \
	"$($A run apparmor:active selinux:hidden smack:released -- cat /sys/kernel/security/lsm)"
wait $bg
check_eq "the released task read smack-denied after the host was denied" "lsmns-demo smack-denied" \
	"$(cat /tmp/rel.out 2>&1)"

# ---- consent: each LSM's policy refuses a task it already confines ----
target() { "$@" & tpid=$!; sleep 0.5; }
target $P/bin/lsmns-exec --attr /proc/self/attr/exec system_u:system_r:container_t:s0:c1,c2 -- sleep 30
check_eq "SELinux refuses to release a container_t task (no lsmns:release)" "error=EACCES entry=1" \
	"$($A pid $tpid smack:active selinux:released apparmor:hidden)"
kill $tpid
target $P/bin/lsmns-exec --attr /proc/self/attr/smack/current ContainerC -- sleep 30
check_eq "Smack refuses to release a task under another label" "error=EACCES entry=2" \
	"$($A pid $tpid apparmor:active selinux:hidden smack:released)"
kill $tpid
target $P/bin/lsmns-exec --attr /proc/self/attr/apparmor/exec "exec lsmns-demo-apparmor" -- sleep 30
check_eq "AppArmor refuses to release a confined task" "error=EACCES entry=2" \
	"$($A pid $tpid selinux:active smack:hidden apparmor:released)"
kill $tpid
check_contains "the refusal is audited with its entry" "errno=-13 index=2" "$(audit_line 'op=assign' 'errno=-13')"
target sleep 30
check_contains "an unconfined host task can be released by all three" "ok ns_id=" \
	"$($A pid $tpid smack:active selinux:released apparmor:released)"
kill $tpid

# ---- nesting: a task already in a namespace gets a child that sees less ----
rm -f /tmp/nest.pid /tmp/nest.go /tmp/nest.out
$A run apparmor:active selinux:active smack:hidden -- \
	sh -c 'echo $$ >/tmp/nest.pid; while [ ! -e /tmp/nest.go ]; do sleep 0.1; done; exec cat /proc/self/attr/lsmns' \
	>/tmp/nest.out &
bg=$!
i=0; while [ ! -s /tmp/nest.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
np=$(cat /tmp/nest.pid)
outer=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' /proc/$np/attr/lsmns)
check_eq "nesting: a child may not see Smack again (widening)" "error=EBUSY entry=-1" \
	"$($A pid $np apparmor:active selinux:active smack:active)"
check_eq "nesting: a child may not turn hidden Smack back active" "error=EBUSY entry=-1" \
	"$($A pid $np smack:active selinux:hidden apparmor:hidden)"
check_contains "nesting: a narrower child (SELinux hidden, Smack released) is accepted" "ok ns_id=" \
	"$($A pid $np apparmor:active selinux:hidden smack:released)"
touch /tmp/nest.go
wait $bg
check_contains "nesting: the task entered the child, whose parent is its first namespace" \
	"parent=$outer interface=apparmor apparmor=active" "$(cat /tmp/nest.out)"
check_not_contains "nesting: the child shows neither SELinux nor Smack" "selinux" "$(cat /tmp/nest.out)"

# ---- a later entrant of a container that releases Smack ----
# crun exec and runc exec join the container's cgroup and set the
# container's capabilities before their exec: the entrant holds no MAC
# capability when it adopts the namespace.  lsmns-exec does the same.
CG=/sys/fs/cgroup
container_start rel /tmp/rel-stop selinux:active smack:released apparmor:hidden
relbg=$ctr_bg rns=$ctr_ns
entrant() { $P/bin/lsmns-exec --attr $CG/rel/cgroup.procs 0 --drop-mac-caps -- "$@"; }
check_eq "an entrant without MAC capabilities (as crun exec) adopts a namespace releasing Smack" \
	"id=$rns" "$(entrant cat /proc/self/attr/lsmns | cut -d' ' -f1)"
check_contains "... and Smack no longer denies it" "lsmns-demo smack-denied" "$(entrant cat $SMD 2>&1)"
check_fails "... while a host task without MAC capabilities is still denied" $NODROP cat $SMD
check_contains "... the adoption is audited, naming Smack released" "smack=released" "$(audit_line 'op=adopt pid=' "ns_id=$rns")"
touch /tmp/rel-stop
wait $relbg

# ---- 200 namespaces made and gone: none left ----
# /proc/slabinfo counts the objects of the lsm_ns cache in use; SLUB
# counts a CPU's current slab as in use, so up to one slab per CPU may
# stay without a leak.  200 leaked namespaces would be several slabs.
slab_active() { awk '$1 == "lsm_ns" { print $2 }' /proc/slabinfo; }
slab_per_slab=$(awk '$1 == "lsm_ns" { print $5 }' /proc/slabinfo)
slab0=$(slab_active)
i=0
while [ $i -lt 200 ]; do
	case $((i % 3)) in
	0) $A run selinux:active smack:hidden apparmor:hidden -- true ;;
	1) $A run smack:active selinux:released apparmor:hidden -- true ;;
	2) $A run apparmor:active selinux:hidden smack:released -- true ;;
	esac || break
	i=$((i + 1))
done
check_eq "200 namespaces were made" 200 "$i"
lsmns_wait_count "$count0"
check_eq "lsmns/count is back to $count0 after they exited" "$count0" "$(cat $COUNT)"
slab1=$(slab_active)
slack=$((${slab_per_slab:-0} * $(grep -c ^processor /proc/cpuinfo)))
check_eq "/proc/slabinfo has an lsm_ns cache" yes "$([ -n "$slab0" ] && [ -n "$slab1" ] && echo yes)"
# KASAN keeps freed objects in its quarantine, where slabinfo still
# counts them: on that kernel kmemleak (below) is the leak check.
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	tap_result 0 "lsm_ns objects in use: $slab0 before, $slab1 after # SKIP KASAN quarantines freed objects"
else
	check_eq "lsm_ns objects in use: $slab0 before, $slab1 after (at most $slack more)" yes \
		"$([ -n "$slab1" ] && [ "$slab1" -le $((${slab0:-0} + slack)) ] && echo yes)"
fi
grep -q " /sys/kernel/debug debugfs " /proc/mounts || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 1; echo scan >/sys/kernel/debug/kmemleak
	check_eq "kmemleak reports nothing from lsm_ns" "" \
		"$(grep -A12 'unreferenced object' /sys/kernel/debug/kmemleak | grep -E 'lsm_ns|lsmns' | head -3)"
elif dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	tap_result 1 "the debug kernel has kmemleak to check the 200 namespaces"
fi
tap_done
