#!/bin/sh
# Issue 17 ("Hardening 1"), class 5: an assigned transition is checked
# like an ordinary exec transition (docs/kernel-abi.md, "Commit at exec").
# Booted with lsm=capability,selinux,smack,apparmor.
#
# The agent assigns a target a context; the target's next execve moves it
# there.  That move must not be weaker than an exec transition into the
# same context (setexeccon, SMACK64EXEC, a profile transition):
#   (a) under a tracer: the tracer must be allowed to trace the new
#       context (SELinux process ptrace, Smack's ptrace rule, AppArmor's
#       ptrace rules for a confined tracer), else the execve fails;
#   (b) under no_new_privs (or, for SELinux, from a nosuid mount):
#       SELinux needs process2 nnp_transition (nosuid_transition) or a
#       bounded type, AppArmor lets a confined task only move to a label
#       that keeps its confinement; Smack does not refuse (documented
#       decision: runtimes set no_new_privs on every container);
#   (c) with state shared with another task (a CLONE_FS sibling): SELinux
#       needs process share, Smack refuses any label change.
# The failed execve never runs the program (the assignment stays pending).
# Every attack has a control that differs in the one thing judged: the
# same target without the tracer, NNP or sibling, or a context the policy
# allows it to reach that way.
#
# attack-exec (integration/progs/attack-exec.c) forks the target, sets it
# up (--trace, --nnp, --share-fs), prints "target=PID" and lets it exec
# on DIR/go (after --target-attr, if given).  The SELinux policy is lsmns.cil plus lsmns-attack.cil
# (selinux-test/attack.33): lsmns_attack_t is a domain the host may
# transition to, without ptrace, share or nnp_transition on it.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
AX=/lsmns/bin/attack-exec
W=$P/bin/lsmns-write
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
T=/tmp/attack-exec
for f in $A $AX $P/selinux-test/attack.33; do [ -e $f ] || { echo "Bail out! $f missing"; exit 1; }; done
echo 0 >/proc/sys/kernel/printk_ratelimit
rm -rf $T
mkdir -p $T
check "load-policies" $P/load-policies
check "load the SELinux test policy (lsmns.cil + lsmns-attack.cil)" \
	sh -c "$W /sys/fs/selinux/load <$P/selinux-test/attack.33"
check_eq "SELinux enforces" 1 "$(cat /sys/fs/selinux/enforce)"

oneline() { tr '\n' ' ' | sed 's/ $//'; }
SH=/bin/sh
# What the program prints when its execve succeeds: "ran ns" (or "ran
# host") and its context in the interface LSM of its namespace.
SHOW='n=$(cut -d" " -f1 /proc/self/attr/lsmns); [ "$n" = id=0 ] && n=host || n=ns; echo "ran $n $(tr -d "\0" </proc/self/attr/current)"'

# attempt "ENTRIES" CMD...: run CMD DIR -- $SH -c "$SHOW" (CMD is
# attack-exec with its options, possibly behind a wrapper), assign the
# target ENTRIES while it waits, let it exec; prints "assign=ok" (or the
# agent's error) and what the target printed: "ran ns CONTEXT", or
# "execve=ERRNO" when its execve failed.
attempt() {
	_e=$1
	shift
	_d=$(mktemp -d $T/attempt.XXXXXX)
	: >$_d/out
	"$@" $_d -- $SH -c "$SHOW" >$_d/out 2>&1 &
	_bg=$!
	_i=0
	while ! grep -q '^target=' $_d/out && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_a=$($A pid "$(sed -n 's/^target=//p' $_d/out)" $_e 2>&1)
	touch $_d/go
	wait $_bg
	echo "assign=${_a%% *} $(grep -v '^target=' $_d/out | oneline)"
}

# ================================ SELinux ================================
SE=system_u:system_r:container_t:s0:c1,c2
ATT=system_u:system_r:lsmns_attack_t:s0
se() { echo "selinux:active:$1 smack:hidden apparmor:hidden"; }
ok_se="assign=ok ran ns $SE"
ok_att="assign=ok ran ns $ATT"

check_eq "SELinux, no tracer: the target enters lsmns_attack_t (control)" "$ok_att" "$(attempt "$(se $ATT)" $AX)"
# (a) tracer.  The host (unconfined_t) may ptrace container_t, not
# lsmns_attack_t.
check_eq "SELinux, traced by the host: the target enters container_t (control)" "$ok_se" \
	"$(attempt "$(se $SE)" $AX --trace)"
check_eq "SELinux, traced by the host, which lacks process ptrace on lsmns_attack_t: the execve fails (EPERM)" \
	"assign=ok execve=EPERM" "$(attempt "$(se $ATT)" $AX --trace)"
# ... and with lsmns.cil's own domains: the tracer attaches from the host
# domain, then moves to container_t (setexeccon and exec).  MCS lets
# container_t:s0:c1,c2 trace its own category pair, not s0:c3,c4 trace it.
check_eq "SELinux, tracer now container_t:s0:c1,c2: the target enters $SE (control)" "$ok_se" \
	"$(attempt "$(se $SE)" $AX --trace --tracer-attr /proc/self/attr/selinux/exec $SE)"
check_eq "SELinux, tracer now container_t:s0:c3,c4 (MCS: no ptrace on s0:c1,c2): the execve fails (EPERM)" \
	"assign=ok execve=EPERM" \
	"$(attempt "$(se $SE)" $AX --trace --tracer-attr /proc/self/attr/selinux/exec system_u:system_r:container_t:s0:c3,c4)"
# (b) no_new_privs: lsmns.cil grants the host nnp_transition to
# container_t, nothing grants it to lsmns_attack_t.
check_eq "SELinux, no_new_privs: the target enters container_t (control: nnp_transition allowed)" "$ok_se" \
	"$(attempt "$(se $SE)" $AX --nnp)"
check_eq "SELinux, no_new_privs, no nnp_transition to lsmns_attack_t: the execve fails (EPERM)" \
	"assign=ok execve=EPERM" "$(attempt "$(se $ATT)" $AX --nnp)"
# (c) shared fs_struct: the host has process share on container_t only.
check_eq "SELinux, fs shared with a sibling: the target enters container_t (control: share allowed)" "$ok_se" \
	"$(attempt "$(se $SE)" $AX --share-fs)"
check_eq "SELinux, fs shared with a sibling, no process share on lsmns_attack_t: the execve fails (EPERM)" \
	"assign=ok execve=EPERM" "$(attempt "$(se $ATT)" $AX --share-fs)"

# ... and a program on a nosuid mount: process2 nosuid_transition, which
# lsmns.cil grants the host to container_t, nothing to lsmns_attack_t.
# SELinux's errno for nosuid is EACCES (EPERM is for no_new_privs), as at
# an ordinary exec (check_nnp_nosuid()).
NOSUID=/tmp/attack-exec-nosuid
mkdir -p $NOSUID
check "a nosuid tmpfs with busybox as sh" sh -c "mount -t tmpfs -o nosuid tmpfs $NOSUID && cp /bin/busybox $NOSUID/sh"
SH=$NOSUID/sh
check_eq "SELinux, program on a nosuid mount: the target enters container_t (control: nosuid_transition allowed)" \
	"$ok_se" "$(attempt "$(se $SE)" $AX)"
check_eq "SELinux, program on a nosuid mount, no nosuid_transition to lsmns_attack_t: the execve fails (EACCES)" \
	"assign=ok execve=EACCES" "$(attempt "$(se $ATT)" $AX)"
SH=/bin/sh

# ================================= Smack =================================
# Everything runs without CAP_MAC_OVERRIDE/CAP_MAC_ADMIN (with them Smack
# allows every access, the tracer rule included).  Tracer and target have
# the host's label _; Smack's default ptrace rule wants read and write
# access from the tracer to the new label: _ has rw on AttackTraceOK,
# only r on AttackTraceNo.
check "Smack ptrace rule is the default (0)" test "$(cat /sys/fs/smackfs/ptrace)" = 0
check "Smack: rules _ AttackTraceOK rw, _ AttackTraceNo r" sh -c \
	"echo '_ AttackTraceOK rw' | $W /sys/fs/smackfs/load2 && echo '_ AttackTraceNo r' | $W /sys/fs/smackfs/load2"
sm() { echo "smack:active$1 selinux:hidden apparmor:hidden"; }
check_eq "Smack, no tracer: the target enters AttackTraceNo (control)" "assign=ok ran ns AttackTraceNo" \
	"$(attempt "$(sm :AttackTraceNo)" $NODROP $AX)"
check_eq "Smack, traced by _, which has rw on AttackTraceOK: the target enters it (control)" \
	"assign=ok ran ns AttackTraceOK" "$(attempt "$(sm :AttackTraceOK)" $NODROP $AX --trace)"
check_eq "Smack, traced, no label change: the target enters the namespace (control)" "assign=ok ran ns _" \
	"$(attempt "$(sm)" $NODROP $AX --trace)"
check_eq "Smack, traced by _, which lacks write on AttackTraceNo: the execve fails (EACCES)" \
	"assign=ok execve=EACCES" "$(attempt "$(sm :AttackTraceNo)" $NODROP $AX --trace)"
check_eq "Smack, no_new_privs: the target enters AttackTraceNo (documented: Smack does not refuse)" \
	"assign=ok ran ns AttackTraceNo" "$(attempt "$(sm :AttackTraceNo)" $NODROP $AX --nnp)"
check_eq "Smack, fs shared with a sibling, no label change: the target enters the namespace (control)" \
	"assign=ok ran ns _" "$(attempt "$(sm)" $NODROP $AX --share-fs)"
check_eq "Smack, fs shared with a sibling, label change: the execve fails (EPERM)" \
	"assign=ok execve=EPERM" "$(attempt "$(sm :AttackTraceNo)" $NODROP $AX --share-fs)"

# =============================== AppArmor ===============================
# A confined tracer: attack-exec re-execs from /tmp/lsmns-attack-tracer/,
# where the profile lsmns-attack-tracer (policies/apparmor/lsmns-attack-exec)
# attaches by path.  It may trace unconfined tasks and lsmns-attack-traced,
# not lsmns-demo-apparmor (an unconfined tracer may trace anything).
AA=lsmns-demo-apparmor
TRACED=lsmns-attack-traced
NOCAP=lsmns-attack-nocap
mkdir -p /tmp/lsmns-attack-tracer
cp $AX /tmp/lsmns-attack-tracer/attack-exec
TRACER="--trace --tracer-exe /tmp/lsmns-attack-tracer/attack-exec"
aa() { echo "apparmor:active$1 selinux:hidden smack:hidden"; }
check_eq "AppArmor, traced by the host (unconfined): the target enters $AA (control)" \
	"assign=ok ran ns $AA (enforce)" "$(attempt "$(aa :$AA)" $AX --trace)"
check_eq "AppArmor, confined tracer, no label change: the target enters the namespace (control)" \
	"assign=ok ran ns unconfined" "$(attempt "$(aa)" $AX $TRACER)"
check_eq "AppArmor, confined tracer allowed to trace $TRACED: the target enters it (control)" \
	"assign=ok ran ns $TRACED (enforce)" "$(attempt "$(aa :$TRACED)" $AX $TRACER)"
check_eq "AppArmor, confined tracer not allowed to trace $AA: the execve fails (EACCES)" \
	"assign=ok execve=EACCES" "$(attempt "$(aa :$AA)" $AX $TRACER)"
# no_new_privs.  A target confined at assignment can only be assigned a
# label that includes its own (checked then); one that confines itself
# afterwards (change_profile to $NOCAP, allowed to an unconfined task
# under no_new_privs) may then, under no_new_privs, only move to a label
# that includes $NOCAP, as at a profile transition.
STACK="$NOCAP//&$AA"
CHANGE=/proc/self/attr/apparmor/current
check_eq "AppArmor, unconfined target under no_new_privs: enters $AA (control)" \
	"assign=ok ran ns $AA (enforce)" "$(attempt "$(aa :$AA)" $AX --nnp)"
check_eq "AppArmor, no_new_privs, confined by $NOCAP after the assignment: enters the stack $STACK (control)" \
	"assign=ok ran ns $STACK (enforce)" \
	"$(attempt "$(aa ":$STACK")" $AX --nnp --target-attr $CHANGE "changeprofile $NOCAP")"
check_eq "AppArmor, no_new_privs, confined by $NOCAP after the assignment: $AA does not include it, the execve fails (EPERM)" \
	"assign=ok execve=EPERM" \
	"$(attempt "$(aa :$AA)" $AX --nnp --target-attr $CHANGE "changeprofile $NOCAP")"
# Without no_new_privs the same self-confinement holds: the assigned label
# is checked at exec as at assignment, and must include the task's
# current one.
check_eq "AppArmor, confined by $NOCAP after the assignment: enters the stack $STACK (control)" \
	"assign=ok ran ns $STACK (enforce)" \
	"$(attempt "$(aa ":$STACK")" $AX --target-attr $CHANGE "changeprofile $NOCAP")"
check_eq "AppArmor, confined by $NOCAP after the assignment: $AA would drop that confinement, the execve fails (EACCES)" \
	"assign=ok execve=EACCES" \
	"$(attempt "$(aa :$AA)" $AX --target-attr $CHANGE "changeprofile $NOCAP")"
tap_done
