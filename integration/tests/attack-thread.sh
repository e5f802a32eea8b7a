#!/bin/sh
# Issue 17 ("Hardening 1"), class 4: exec from another thread.
#
# An assignment names its target by a pidfd: pidfd_open(PID, 0) names a
# thread-group leader's process, pidfd_open(TID, PIDFD_THREAD) one thread.
# Whatever the pidfd names, a pending assignment belongs to the whole
# thread group: whichever of its threads calls execve, the new program
# runs in the assigned namespace with the assigned contexts.  Otherwise a
# multi-threaded target escapes its container by exec'ing from a thread
# the agent did not name: the program runs in the host's namespace with
# the host's contexts, though the agent was told the assignment succeeded
# (fail open).
#
# attack-thread-exec starts N threads besides its leader, writes their
# ids, and on a go file lets thread K exec a shell that prints its
# namespace and its SELinux context.  Each trial assigns it with one
# pidfd and lets one thread exec.  The controls (the leader, which the
# pidfd names, execs) show that both kinds of pidfd are accepted and
# committed; the attacks differ from them only in which thread execs.
# A PIDFD_THREAD pidfd of a non-leader thread may be refused (Linux 6.12's
# pidfd_get_task() finds only leaders: ESRCH), which is as safe as
# honouring it for the whole group; what must not happen is an accepted
# assignment that the exec leaves behind.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
TA=/lsmns/bin/attack-thread-assign
TX=/lsmns/bin/attack-thread-exec
SE=system_u:system_r:container_t:s0:c1,c2
ENTRIES="selinux:active:$SE smack:hidden apparmor:hidden"
N=3
for f in $A $TA $TX; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
echo 0 >/proc/sys/kernel/printk_ratelimit
# SELinux only: the assigned context must be known to the loaded policy.
check "load-policies selinux" $P/load-policies selinux

# wait_file FILE: wait (at most ten seconds) until FILE is not empty.
wait_file() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

# trial NAME PIDFD K: start the target, assign it through PIDFD
# ("process": lsmns-assign pid LEADER, i.e. pidfd_open(LEADER, 0);
# "leader" and "thread1": attack-thread-assign with a PIDFD_THREAD pidfd
# of the leader or of non-leader thread 1), then let thread K (0 the
# leader) exec.  Sets t_agent (what the agent printed), t_ns (the
# namespace id it was given, if any) and t_out (what the exec'd program
# printed: "id=N CONTEXT").
trial() {
	_d=/tmp/attack-thread-$1
	rm -rf "$_d"
	mkdir -p "$_d"
	$TX "$_d/info" "$_d/go" $N "$3" /bin/sh -c \
		'echo "$(cut -d" " -f1 /proc/self/attr/lsmns) $(tr -d "\0" </proc/self/attr/current)"' \
		>"$_d/out" 2>&1 &
	_bg=$!
	wait_file "$_d/info"
	# info: leader pid, then the N thread ids.
	_leader=$(cut -d' ' -f1 "$_d/info")
	_t1=$(cut -d' ' -f2 "$_d/info")
	case $2 in
	process) t_agent=$($A pid "$_leader" $ENTRIES 2>&1) ;;
	leader) t_agent=$($TA "$_leader" $ENTRIES 2>&1) ;;
	thread1) t_agent=$($TA "$_t1" $ENTRIES 2>&1) ;;
	esac
	t_ns=$(echo "$t_agent" | sed -n 's/^ok ns_id=\([0-9]*\)$/\1/p')
	touch "$_d/go"
	wait $_bg
	t_out=$(cat "$_d/out")
}

# accepted_and_in NAME DESC: two results: the assignment was accepted, and
# the exec'd program runs in its namespace with its context.
accepted_and_in() {
	check_contains "$1: the assignment is accepted" "ok ns_id=" "$t_agent"
	check_eq "$2" "id=$t_ns $SE" "$t_out"
}

# refused_or_in DESC: one result: the agent was refused, or the exec'd
# program runs in the namespace it was given.
refused_or_in() {
	case $t_agent in
	"ok ns_id="*) check_eq "$1 (accepted: in the namespace)" "id=$t_ns $SE" "$t_out" ;;
	error=*) tap_result 0 "$1 (refused: $t_agent)" ;;
	*) tap_result 1 "$1"; tap_diag "agent: $t_agent" ;;
	esac
}

# Controls: the leader, which the pidfd names, execs.
trial process-pidfd-leader-execs process 0
accepted_and_in process-pidfd-leader-execs \
	"control: pidfd_open(leader), the leader execs: in the namespace, with its context"
trial leader-thread-pidfd-leader-execs leader 0
accepted_and_in leader-thread-pidfd-leader-execs \
	"control: pidfd_open(leader, PIDFD_THREAD), the leader execs: in the namespace, with its context"

# Attacks: a non-leader thread execs.
trial process-pidfd-thread-execs process 2
accepted_and_in process-pidfd-thread-execs \
	"attack: pidfd_open(leader), non-leader thread 2 execs: in the namespace, with its context"
trial leader-thread-pidfd-thread-execs leader 2
accepted_and_in leader-thread-pidfd-thread-execs \
	"attack: pidfd_open(leader, PIDFD_THREAD), thread 2 execs: in the namespace, with its context"

# A non-leader thread's own pidfd: refused, or honoured by every thread.
trial thread-pidfd-same-thread-execs thread1 1
refused_or_in "pidfd_open(thread 1, PIDFD_THREAD), thread 1 execs: refused, or in the namespace"
trial thread-pidfd-leader-execs thread1 0
refused_or_in "attack: pidfd_open(thread 1, PIDFD_THREAD), the leader execs: refused, or in the namespace"
trial thread-pidfd-other-thread-execs thread1 2
refused_or_in "attack: pidfd_open(thread 1, PIDFD_THREAD), thread 2 execs: refused, or in the namespace"
tap_done
