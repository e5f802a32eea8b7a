#!/bin/sh
# Issue 17 ("Hardening 1"), class 3: adoption through the cgroup binding.
#
# A privileged task that execs in the cgroup a namespace is bound to
# adopts that namespace (docs/kernel-abi.md, "Later entrants").  That
# must stay what crun exec and runc exec do, and nothing more:
#   1. Only the task's own move counts: a host daemon moved into the
#      container's cgroup by someone else (a container task, or a host
#      task that is not its parent) keeps the host namespace, and so do
#      its children.  Controls: a task that moves itself, and a task its
#      parent moves before it execs (runc), adopt.
#   2. "Privileged" is each LSM's own capable() answer: root in an
#      SELinux domain without mac_admin, or confined by an AppArmor
#      profile without "capability mac_admin,", is not, though
#      CAP_MAC_ADMIN is in its capability sets.  Controls: unconfined
#      root, and the same profile with mac_admin, adopt.
#   3. Each LSM approves the adoption as a first assignment: Smack only
#      for a label onlycap permits, AppArmor only for an entrant whose
#      label the assigned one includes (unconfined); otherwise the execve
#      fails with EACCES and is audited as a refused adoption.  Controls:
#      the same entrant with onlycap naming its label, and unconfined
#      entrants, adopt.
# Every attack has a control that differs from it in the one thing the
# kernel is meant to judge, so no check can pass because the action
# itself failed.  Programs are run as /bin/cat (a path): busybox sh then
# really execs them instead of running the applet in the shell.
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
SE=system_u:system_r:container_t:s0:c1,c2
SM=ContainerC
AA=lsmns-demo-apparmor
CG=/sys/fs/cgroup
T=/tmp/attack-adopt
ONLYCAP=/sys/fs/smackfs/onlycap
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
[ -e $CG/cgroup.procs ] || { echo "Bail out! no cgroup2 at $CG"; exit 1; }
echo 0 >/proc/sys/kernel/printk_ratelimit
rm -rf $T
mkdir -p $T
check "load-policies" $P/load-policies

# Two containers, each assigned and moved into its cgroup before its first
# execve, as the runtimes do: ctr with SELinux and Smack contexts
# (AppArmor hidden, no context), ctraa with an AppArmor profile.
container_start ctr $T/stop selinux:active:$SE smack:hidden:$SM apparmor:hidden
bg1=$ctr_bg ns=$ctr_ns
container_start ctraa $T/stop apparmor:active:$AA selinux:hidden smack:hidden
bg2=$ctr_bg aans=$ctr_ns
check_eq "the containers run in their namespaces" yes \
	"$([ -n "$ns" ] && [ "$ns" != 0 ] && [ -n "$aans" ] && [ "$aans" != 0 ] && echo yes)"

# wait_file FILE: wait (at most ten seconds) until FILE is not empty.
wait_file() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

# cgroup_of PID: PID's cgroup once it is CGROUP (waits up to five
# seconds), e.g. "/ctr"; whatever it is otherwise.
cgroup_of() {
	_i=0
	while [ "$(sed -n 's/^0:://p' /proc/$1/cgroup)" != "$2" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	sed -n 's/^0:://p' /proc/$1/cgroup
}

# The namespace id a file holding a copy of /proc/self/attr/lsmns shows.
ns_of() { cut -d' ' -f1 "$1" 2>/dev/null; }

# ----------------------------------------------- 1. who moved the task
# A privileged host daemon: a root shell loop outside any namespace,
# started by the test shell and reparented to init (the subshell that
# started it exits), so no task of the test is its parent.  On request it
# joins a cgroup itself (file NAME.join holds the cgroup.procs path), lets
# a child it forks exec /bin/cat /proc/self/attr/lsmns (NAME.fork ->
# NAME.forked), or execs that itself (NAME.exec -> NAME.execed), which
# ends it.
cat >$T/daemon.sh <<'EOF'
t=$1
echo $$ >$t.pid
while [ ! -e ${t%/*}/stop ]; do
	if [ -e $t.join ]; then echo $$ >"$(cat $t.join)"; rm -f $t.join; fi
	if [ -e $t.fork ]; then rm -f $t.fork; /bin/cat /proc/self/attr/lsmns >$t.forked; fi
	if [ -e $t.exec ]; then exec /bin/cat /proc/self/attr/lsmns >$t.execed; fi
	sleep 0.1
done
EOF

# daemon_start NAME: start daemon NAME; sets d to its pid.
daemon_start() {
	(sh $T/daemon.sh $T/$1 </dev/null >/dev/null 2>&1 &)
	wait_file $T/$1.pid
	d=$(cat $T/$1.pid)
}

# daemon_execs NAME WANT DESC: what the daemon's forked child and then the
# daemon itself show when they exec in their cgroup: namespace WANT.
daemon_execs() {
	touch $T/$1.fork
	wait_file $T/$1.forked
	check_eq "$3: a child it forks execs: $2" "$2" "$(ns_of $T/$1.forked)"
	touch $T/$1.exec
	wait_file $T/$1.execed
	check_eq "$3: it execs itself: $2" "$2" "$(ns_of $T/$1.execed)"
}

# Control: the daemon moves itself into the container's cgroup.  Its exec,
# and its child's, adopt: it held CAP_MAC_ADMIN at its last execve.
daemon_start self
echo $CG/ctr/cgroup.procs >$T/self.join
check_eq "control: a host daemon moves itself into the container's cgroup" /ctr "$(cgroup_of $d /ctr)"
daemon_execs self "id=$ns" "control: daemon that moved itself"

# Control: runc's way: the parent forks the entrant, writes its pid to
# cgroup.procs, then lets it exec.  Here the parent is the test shell.
rm -f $T/go-parent
(while [ ! -e $T/go-parent ]; do sleep 0.1; done; exec /bin/cat /proc/self/attr/lsmns) >$T/parent.out 2>&1 &
child=$!
echo $child >$CG/ctr/cgroup.procs
check_eq "control: a parent moves its child into the container's cgroup" /ctr "$(cgroup_of $child /ctr)"
touch $T/go-parent
wait $child
check_eq "control: the child its parent moved execs: id=$ns" "id=$ns" "$(ns_of $T/parent.out)"

# Attack (i): a task inside a namespace (assigned like the container, it
# sees host pids) moves the host daemon into the container's cgroup.
daemon_start byns
mover=$($A run selinux:active:$SE smack:hidden:$SM apparmor:hidden -- \
	/bin/sh -c 'cut -d" " -f1 /proc/self/attr/lsmns; echo '"$d >$CG/ctr/cgroup.procs"' && echo moved' 2>&1)
check_eq "attack (i): the mover runs in a namespace" yes \
	"$(case $mover in "id=0"*|"") ;; id=*) echo yes ;; esac)"
check_contains "attack (i): it moves the host daemon into the container's cgroup" moved "$mover"
check_eq "attack (i): the daemon is in the container's cgroup" /ctr "$(cgroup_of $d /ctr)"
daemon_execs byns id=0 "attack (i): daemon moved from inside a namespace"

# Attack (ii): an unrelated privileged host task (not the daemon's parent)
# moves it.
daemon_start byhost
sh -c "echo $d >$CG/ctr/cgroup.procs"
check_eq "attack (ii): a host task that is not its parent moves the daemon into the container's cgroup" \
	/ctr "$(cgroup_of $d /ctr)"
daemon_execs byhost id=0 "attack (ii): daemon moved by an unrelated host task"

# ------------------------------------ 2. privileged means capable()
# Root whose LSM refuses it CAP_MAC_ADMIN keeps the capability in its
# sets, but is not privileged.  SELinux: container_t has no capability2
# mac_admin; a host task put in it with setexeccon (no namespace) moves
# itself into the container's cgroup, whose namespace assigns that very
# context (so SELinux would allow the adoption itself).  AppArmor: root
# confined by lsmns-attack-nocap (policies/apparmor/lsmns-attack-entry,
# attached by path); lsmns-attack-macadmin grants mac_admin.
for p in nocap macadmin; do
	mkdir -p /tmp/lsmns-attack-$p
	cp /bin/busybox /tmp/lsmns-attack-$p/sh
done
# aa_enter PROFILE CGROUP CMD...: a shell confined by PROFILE moves itself
# into CGROUP and execs CMD; its pid is left in $T/entrant.pid (audit
# records name it).
aa_enter() {
	_p=$1 _c=$2
	shift 2
	/tmp/lsmns-attack-$_p/sh -c 'echo $$ >'"$T"'/entrant.pid && echo $$ >'"$CG/$_c"'/cgroup.procs &&
		exec "$@"' sh "$@"
}
# enter CGROUP CMD...: an unconfined shell does the same.
enter() { _c=$1; shift; sh -c 'echo $$ >'"$CG/$_c"'/cgroup.procs && exec "$@"' sh "$@"; }

check_eq "control: an unconfined root entrant adopts" "id=$ns" \
	"$(enter ctr /bin/cat /proc/self/attr/lsmns | cut -d' ' -f1)"
SETEXEC="$P/bin/lsmns-exec --attr /proc/self/attr/selinux/exec $SE --"
check_eq "setexeccon puts a host task in container_t" "$SE" \
	"$($SETEXEC /bin/sh -c 'exec /bin/cat /proc/self/attr/selinux/current' | tr -d '\0')"
check_eq "attack: root in container_t (no mac_admin), outside any namespace, adopts nothing" "id=0" \
	"$($SETEXEC /bin/sh -c 'echo $$ >'"$CG"'/ctr/cgroup.procs && exec /bin/cat /proc/self/attr/lsmns' | cut -d' ' -f1)"
check_eq "the test profile confines the entrant" "lsmns-attack-nocap (enforce)" \
	"$(/tmp/lsmns-attack-nocap/sh -c 'exec /bin/cat /proc/self/attr/apparmor/current')"
eff=$(/tmp/lsmns-attack-nocap/sh -c 'exec /bin/cat /proc/self/status' | sed -n 's/^CapEff:[[:space:]]*//p')
check_eq "... and it holds CAP_MAC_ADMIN in its effective set" 1 "$(( 0x${eff:-0} >> 33 & 1 ))"
check_eq "control: confined by a profile with mac_admin, an entrant adopts" "id=$ns" \
	"$(aa_enter macadmin ctr /bin/cat /proc/self/attr/lsmns | cut -d' ' -f1)"
check_eq "attack: confined by a profile without mac_admin, an entrant with CAP_MAC_ADMIN adopts nothing" "id=0" \
	"$(aa_enter nocap ctr /bin/cat /proc/self/attr/lsmns | cut -d' ' -f1)"

# ------------------------------------ 3. each LSM approves the adoption
# Smack: the entrant moves itself, then takes a label of its own
# (AttackEntrant) and execs.  onlycap names the test shell's label, and
# in the control also AttackEntrant; the test shell stays privileged, so
# it can restore onlycap.  (Its pid is left in $T/entrant.pid before it
# takes the label, which may not write the host's files.)
me=$(cat /proc/self/attr/smack/current)
smack_enter() {
	sh -c 'echo $$ >'"$T"'/entrant.pid && echo $$ >'"$CG"'/ctr/cgroup.procs &&
		echo AttackEntrant >/proc/self/attr/smack/current &&
		exec /bin/cat /proc/self/attr/lsmns' 2>&1
}
echo "$me AttackEntrant" >$ONLYCAP
check_eq "control: a Smack entrant whose label onlycap names adopts" "id=$ns" \
	"$(smack_enter | cut -d' ' -f1)"
echo "$me" >$ONLYCAP
out=$(smack_enter); rc=$?
echo - >$ONLYCAP
check_eq "onlycap is restored" "" "$(cat $ONLYCAP)"
check_eq "attack: a Smack entrant whose label onlycap does not name fails its execve" 1 \
	"$([ $rc -ne 0 ] && echo 1)"
check_contains "... with EACCES" "Permission denied" "$out"
check_contains "... audited as a refused adoption" "res=0" \
	"$(audit_line "op=adopt pid=$(cat $T/entrant.pid) ns_id=$ns cgroup=" errno=-13)"

# AppArmor: ctraa's namespace assigns lsmns-demo-apparmor.  An unconfined
# entrant adopts it; one confined by lsmns-attack-macadmin (privileged,
# as its control in part 2 showed) may not be moved to it.
check_eq "control: an unconfined entrant adopts the AppArmor namespace" "id=$aans" \
	"$(enter ctraa /bin/cat /proc/self/attr/lsmns | cut -d' ' -f1)"
check_eq "... and its profile" "$AA (enforce)" "$(enter ctraa /bin/cat /proc/self/attr/current)"
out=$(aa_enter macadmin ctraa /bin/cat /proc/self/attr/lsmns 2>&1); rc=$?
check_eq "attack: a confined entrant the assigned profile does not include fails its execve" 1 \
	"$([ $rc -ne 0 ] && echo 1)"
check_contains "... with EACCES" "Permission denied" "$out"
check_contains "... audited as a refused adoption" "res=0" \
	"$(audit_line "op=adopt pid=$(cat $T/entrant.pid) ns_id=$aans cgroup=" errno=-13)"

touch $T/stop
wait $bg1 $bg2
tap_done
