#!/bin/sh
# lsmns ps, the operator's view, and the kernel list behind it
# (/sys/kernel/security/lsmns/namespaces).  Several namespaces alive at
# once, each different:
#
#   A  plain task (lsmns-assign) in cgroup ps-a: SELinux active, Smack
#      hidden with a label, AppArmor hidden
#   B  plain task in cgroup ps-b: Smack active, the others hidden
#   G  plain task in cgroup ps-g: Smack active, SELinux and AppArmor
#      released (needs lsmns.releasable=selinux,apparmor on the command line)
#   C  a crun container through lsmns-hook: AppArmor active
#   D  an assignment pending on a host task that has not exec'd: no task,
#      no cgroup
#   E  a namespace whose only task moved on to a narrower child F: no task,
#      still bound to its cgroup ps-e (invisible to a /proc scan)
#
# lsmns ps must name each one, its modes, contexts, cgroup and tasks, in
# text (at most 100 columns) and JSON; the list must be 0400 and unreadable
# from inside a namespace (and without CAP_MAC_ADMIN), with the host as the
# control; a freed namespace leaves the list.
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
E=/lsmns/examples
PS=/usr/sbin/lsmns
LIST=/sys/kernel/security/lsmns/namespaces
CG=/sys/fs/cgroup
SE=system_u:system_r:container_t:s0:c1,c2
SM=ContainerC
AA=lsmns-demo-apparmor
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
[ -x $PS ] || { echo "Bail out! $PS missing (make guest installs it)"; exit 1; }
[ -e $LIST ] || { echo "Bail out! $LIST missing: this kernel lacks the namespace list patch"; exit 1; }
echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo

ns_of() { sed -n 's/^id=\([0-9]*\) .*/\1/p' "/proc/$1/attr/lsmns"; }
cgid() { stat -c %i "$CG/$1"; }

# --- A and B: plain tasks in their cgroups
container_start ps-a /tmp/stop-a selinux:active:$SE smack:hidden:$SM apparmor:hidden
a_bg=$ctr_bg a_pid=$ctr_pid a_ns=$ctr_ns
container_start ps-b /tmp/stop-b smack:active:$SM selinux:hidden apparmor:hidden
b_bg=$ctr_bg b_pid=$ctr_pid b_ns=$ctr_ns
check_eq "A and B run in namespaces of their own" yes \
	"$([ -n "$a_ns" ] && [ -n "$b_ns" ] && [ "$a_ns" != 0 ] && [ "$a_ns" != "$b_ns" ] && echo yes)"
container_start ps-g /tmp/stop-g smack:active:$SM selinux:released apparmor:released
g_bg=$ctr_bg g_pid=$ctr_pid g_ns=$ctr_ns
check_eq "G runs in a namespace releasing SELinux and AppArmor" yes \
	"$([ -n "$g_ns" ] && [ "$g_ns" != 0 ] && echo yes)"

# --- C: crun through lsmns-hook (AppArmor bundle), a shell loop inside
W=/tmp/ps-c
rm -rf $W; mkdir -p $W/ctl
jq --arg root "$E/apparmor/rootfs" --arg w "$W" '
	.root.path = $root
	| .process.args = ["/bin/sh", "-c", "while [ ! -e /tmp/ctl/stop ]; do sleep 0.2; done"]
	| .process.terminal = false
	| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
	| .mounts += [{"destination": "/tmp/ctl", "type": "bind", "source": ($w + "/ctl"),
		"options": ["rbind", "nosuid", "nodev", "noexec"]}]' \
	$E/apparmor/config.json >$W/config.json
check "crun starts container C through lsmns-hook" sh -c "cd $W && crun run -d ps-c </dev/null >$W/out 2>&1"
c_pid=$(crun state ps-c 2>/dev/null | jq -r .pid)
c_ns=$(ns_of "$c_pid")
c_cg=$(sed -n 's/^0:://p' /proc/$c_pid/cgroup)
check_eq "C runs in a namespace of its own" yes "$([ -n "$c_ns" ] && [ "$c_ns" != 0 ] && echo yes)"

# --- D: pending on a host task that never execs
sleep 1000 &
d_task=$!
# Assign only once the child has exec'd sleep: an assignment made before
# that execve would be entered by it.
i=0
while [ "$(cat /proc/$d_task/comm 2>/dev/null)" != sleep ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
d_ns=$($A pid $d_task apparmor:active:$AA selinux:hidden smack:hidden | sed -n 's/^ok ns_id=//p')
check_eq "D is assigned to a host task, not entered" 0 "$(ns_of $d_task)"

# --- E and F: E's only task enters a narrower child F and leaves E empty
mkdir -p $CG/ps-e
rm -f /tmp/go-e /tmp/stop-e
LSMNS_BETWEEN="echo \$LSMNS_TARGET_PID >$CG/ps-e/cgroup.procs" \
	$A run selinux:active:$SE smack:hidden apparmor:hidden -- sh -c \
	'while [ ! -e /tmp/go-e ]; do sleep 0.2; done; exec sh -c "while [ ! -e /tmp/stop-e ]; do sleep 0.2; done"' &
e_bg=$!
i=0
while [ -z "$(cat $CG/ps-e/cgroup.procs)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
e_pid=$(head -n 1 $CG/ps-e/cgroup.procs)
e_ns=$(ns_of "$e_pid")
f_ns=$($A pid "$e_pid" selinux:active:$SE smack:hidden apparmor:hidden | sed -n 's/^ok ns_id=//p')
touch /tmp/go-e
i=0
while [ "$(ns_of "$e_pid")" != "$f_ns" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check_eq "E's task entered F" "$f_ns" "$(ns_of "$e_pid")"
tap_diag "namespaces: A=$a_ns B=$b_ns G=$g_ns C=$c_ns D=$d_ns E=$e_ns F=$f_ns; pids A=$a_pid B=$b_pid C=$c_pid E/F=$e_pid"

# --- the kernel list
check_eq "$LIST is 0400 root" "-r-------- 0 0" "$(stat -c '%A %u %g' $LIST)"
raw=$(cat $LIST)
tap_diag "$raw"
line() { echo "$raw" | grep "^id=$1 "; }
check_eq "the list has A with its modes, cgroup and assigned contexts" \
	"id=$a_ns parent=0 interface=selinux selinux=active smack=hidden apparmor=hidden cgroup=$(cgid ps-a) ctx_selinux=$SE ctx_smack=$SM" \
	"$(line $a_ns)"
check_eq "the list has B" \
	"id=$b_ns parent=0 interface=smack selinux=hidden smack=active apparmor=hidden cgroup=$(cgid ps-b) ctx_smack=$SM" \
	"$(line $b_ns)"
check_eq "the list has G, releasing SELinux and AppArmor" \
	"id=$g_ns parent=0 interface=smack selinux=released smack=active apparmor=released cgroup=$(cgid ps-g) ctx_smack=$SM" \
	"$(line $g_ns)"
check_contains "the list has C, bound to crun's cgroup" \
	"interface=apparmor selinux=hidden smack=hidden apparmor=active cgroup=$(cgid "${c_cg#/}") " \
	"$(line $c_ns)"
check_contains "... with its profile" " ctx_apparmor=$AA" "$(line $c_ns)"
check_eq "the list has D, pending: no cgroup, no context kept yet" \
	"id=$d_ns parent=0 interface=apparmor selinux=hidden smack=hidden apparmor=active cgroup=0" \
	"$(line $d_ns)"
check_contains "the list has E, bound to ps-e, with no task" "id=$e_ns parent=0 " "$(line $e_ns)"
check_contains "... E is bound to ps-e" " cgroup=$(cgid ps-e) " "$(line $e_ns)"
check_contains "the list has F, E's child" "id=$f_ns parent=$e_ns " "$(line $f_ns)"
ids=$(echo "$raw" | sed 's/^id=\([0-9]*\) .*/\1/' | tr '\n' ' ')
check_eq "the list is in id order" "$(echo $ids | tr ' ' '\n' | sort -n | tr '\n' ' ')" "$ids"
check_eq "the list has as many lines as lsmns/count" "$(lsmns_count)" "$(echo "$raw" | grep -c '^id=')"

# --- who may read it
check_fails "a task inside a namespace cannot open the list" \
	$A run selinux:active:$SE smack:hidden apparmor:hidden -- cat $LIST
out=$($A run selinux:active:$SE smack:hidden apparmor:hidden -- cat $LIST 2>&1)
check_contains "... EPERM" "Operation not permitted" "$out"
check "control: the same cat from the host reads it" cat $LIST
check_fails "a task inside a namespace cannot read a list the host opened and passed on" \
	sh -c "exec 3<$LIST; $A run selinux:active:$SE smack:hidden apparmor:hidden -- sh -c 'cat <&3'"
check "control: the host reads its own open list" sh -c "exec 3<$LIST; cat <&3"
check_fails "root without CAP_MAC_ADMIN cannot open it" $NODROP cat $LIST
check_fails "a task inside a namespace cannot run lsmns ps" \
	$A run selinux:active:$SE smack:hidden apparmor:hidden -- $PS ps
out=$($A run selinux:active:$SE smack:hidden apparmor:hidden -- $PS ps 2>&1)
check_eq "... one line saying why" 1 "$(echo "$out" | wc -l)"
tap_diag "$out"
check_fails "lsmns ps refuses root without CAP_MAC_ADMIN" $NODROP $PS ps

# --- lsmns ps, text
txt=$($PS ps 2>&1)
rc=$?
check_eq "lsmns ps exits 0" 0 "$rc"
echo "$txt" | sed 's/^/# /'
check_eq "lsmns ps fits in 100 columns" yes \
	"$([ "$(echo "$txt" | awk '{ print length }' | sort -n | tail -n 1)" -le 100 ] && echo yes)"
block() { echo "$txt" | awk -v id="$1" '/^namespace / { on = ($2 == id) } on'; }
for n in $a_ns $b_ns $g_ns $c_ns $d_ns $e_ns $f_ns; do
	check_contains "text names namespace $n" "namespace $n " "$txt"
done
check_contains "text: A's modes" "modes    selinux=active smack=hidden apparmor=hidden" "$(block $a_ns)"
check_contains "text: A's contexts" "contexts selinux=$SE smack=$SM" "$(block $a_ns)"
check_contains "text: A's cgroup" "cgroup   $(cgid ps-a) /ps-a" "$(block $a_ns)"
check_contains "text: A's task with its SELinux context" "selinux=$SE" "$(block $a_ns | grep " $a_pid ")"
check_contains "text: ... and its hidden Smack label" "smack=$SM" "$(block $a_ns | grep -A1 " $a_pid ")"
check_contains "text: B's task, Smack active" "smack=$SM" "$(block $b_ns | grep -A1 " $b_pid ")"
check_contains "text: G's modes" "modes    selinux=released smack=active apparmor=released" "$(block $g_ns)"
check_contains "text: G's task keeps its released SELinux context" "selinux=system_u:system_r:unconfined_t" \
	"$(block $g_ns | grep " $g_pid ")"
check_contains "text: C's task in its AppArmor profile" "apparmor=$AA (enforce)" "$(block $c_ns | grep -A2 " $c_pid ")"
check_contains "text: C's cgroup is crun's" "/${c_cg#/}" "$(block $c_ns | grep '^  cgroup')"
check_contains "text: D has no task and no cgroup" "cgroup   (not bound)" "$(block $d_ns)"
check_contains "text: ... tasks none, not entered yet" "tasks    none (assigned, not entered yet)" "$(block $d_ns)"
check_contains "text: E has no task, it is F's parent" "tasks    none (parent of namespace $f_ns)" "$(block $e_ns)"
check_contains "text: ... and its cgroup" "cgroup   $(cgid ps-e) /ps-e" "$(block $e_ns)"
check_contains "text: F has E's former task" " $e_pid " "$(block $f_ns)"
check_contains "text: F's parent is E" "namespace $f_ns  parent $e_ns " "$txt"
check_not_contains "text: the host's own tasks are not listed" "namespace 0 " "$txt"

# --- lsmns ps --json
lsmns_settled_count >/dev/null
js=$($PS ps --json)
check_eq "lsmns ps --json exits 0" 0 "$?"
j() { echo "$js" | jq -r "$1"; }
nsq() { echo ".namespaces[] | select(.id == $1)"; }
check_eq "json: the source is the kernel list" kernel "$(j .source)"
js_n=$(j '.namespaces | length')
check_eq "json: every namespace alive" "$(lsmns_settled_count)" "$js_n"
check_eq "json: A's modes" "active hidden hidden" "$(j "$(nsq $a_ns) | [.modes.selinux, .modes.smack, .modes.apparmor] | join(\" \")")"
check_eq "json: A's interface" selinux "$(j "$(nsq $a_ns) | .interface")"
check_eq "json: A's contexts" "$SE $SM" "$(j "$(nsq $a_ns) | [.contexts.selinux, .contexts.smack] | join(\" \")")"
check_eq "json: A's cgroup" "$(cgid ps-a) /ps-a" "$(j "$(nsq $a_ns) | \"\\(.cgroup.id) \\(.cgroup.path)\"")"
check_eq "json: A's task" "$a_pid $SE $SM" "$(j "$(nsq $a_ns) | .tasks[] | select(.pid == $a_pid) | \"\\(.pid) \\(.contexts.selinux) \\(.contexts.smack)\"")"
check_eq "json: B's modes" "hidden active hidden" "$(j "$(nsq $b_ns) | [.modes.selinux, .modes.smack, .modes.apparmor] | join(\" \")")"
check_eq "json: B's task" "$b_pid" "$(j "$(nsq $b_ns) | .tasks[] | select(.pid == $b_pid) | .pid")"
check_eq "json: G's modes" "released active released" "$(j "$(nsq $g_ns) | [.modes.selinux, .modes.smack, .modes.apparmor] | join(\" \")")"
check_eq "json: G's cgroup and task" "/ps-g $g_pid" "$(j "$(nsq $g_ns) | \"\\(.cgroup.path) \\(.tasks[] | select(.pid == $g_pid) | .pid)\"")"
check_eq "json: C's task in its profile" "$AA (enforce)" "$(j "$(nsq $c_ns) | .tasks[] | select(.pid == $c_pid) | .contexts.apparmor")"
check_eq "json: C's context" "$AA" "$(j "$(nsq $c_ns) | .contexts.apparmor")"
check_eq "json: C's cgroup path" "/${c_cg#/}" "$(j "$(nsq $c_ns) | .cgroup.path")"
check_eq "json: D: pending, no cgroup, no task" "null 0 true" "$(j "$(nsq $d_ns) | \"\\(.cgroup) \\(.tasks | length) \\(.listed)\"")"
check_eq "json: E: no task, bound to ps-e" "0 /ps-e" "$(j "$(nsq $e_ns) | \"\\(.tasks | length) \\(.cgroup.path)\"")"
check_eq "json: F: E's child with E's former task" "$e_ns $e_pid" "$(j "$(nsq $f_ns) | \"\\(.parent) \\(.tasks[0].pid)\"")"
check_eq "json: --all adds the initial namespace with its tasks" yes \
	"$($PS ps --json --all | jq -r '.namespaces[] | select(.id == 0) | if (.tasks | length) > 0 then "yes" else "no" end')"
check_fails "lsmns ps with an unknown option fails" $PS ps --bogus
check_fails "lsmns with an unknown command fails" $PS bogus

# --- a freed namespace leaves the list
touch /tmp/stop-a /tmp/stop-b /tmp/stop-g /tmp/stop-e $W/ctl/stop
kill $d_task 2>/dev/null
wait $a_bg $b_bg $g_bg $e_bg $d_task 2>/dev/null
crun delete -f ps-c >/dev/null 2>&1
lsmns_settled_count >/dev/null
after=$(cat $LIST)
gone=yes
for n in $a_ns $b_ns $g_ns $c_ns $d_ns $e_ns $f_ns; do
	echo "$after" | grep -q "^id=$n " && { gone=no; tap_diag "still listed: $(echo "$after" | grep "^id=$n ")"; }
done
check_eq "every namespace of the test left the list once freed" yes "$gone"
check_eq "the list still matches lsmns/count" "$(lsmns_count)" "$(echo "$after" | grep -c '^id=')"
tap_done
