#!/bin/sh
# Attack on '"privileged" is each LSM'"'"'s own answer' (../shared/design.md
# section 7): Smack's onlycap limits CAP_MAC_ADMIN and CAP_MAC_OVERRIDE to
# the labels it names, and Smack has no capable() hook, so an assignment
# that changes a task's Smack label must itself ask Smack whether the
# agent is privileged.  Otherwise a root agent whose label is outside
# onlycap gives any label, onlycap's own included, to a task it can
# ptrace (its own child), which a write to attr/smack/current would not
# let it do.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# onlycap names the test shell's label ("_"), so the shell stays
# privileged and can restore it.  The agent is a root task with every
# capability, labelled H3Agent.
# Controls: H3Agent cannot relabel itself (onlycap is in force); an agent
# labelled "_" (inside onlycap) assigns H3Other; H3Agent may still assign
# a namespace that keeps its child's label; H3Agent may not release
# Smack (its consent already asks onlycap).
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
LX=$P/bin/lsmns-exec
W=$P/bin/lsmns-write
ONLYCAP=/sys/fs/smackfs/onlycap
for f in $A $LX $W; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
check "load-policies selinux smack" $P/load-policies selinux smack
check "Smack: rules that make the labels H3Agent and H3Other exist" sh -c \
	"echo 'H3Agent _ rwx' | $W /sys/fs/smackfs/load2 && echo 'H3Other _ rwx' | $W /sys/fs/smackfs/load2"
me=$(cat /proc/self/attr/smack/current)
check_eq "the test shell's Smack label is _" _ "$me"

as_label() { _l=$1; shift; $LX --attr /proc/self/attr/smack/current "$_l" -- "$@"; }
# ns_label AGENT-LABEL [CONTEXT]: an agent labelled AGENT-LABEL assigns
# its child a namespace showing Smack alone, with CONTEXT as its label
# (none: keep it); the child prints its label (attr/current: Smack is its
# interface), or the assignment's error and exit status 125.
ns_label() {
	_e=smack:active${2:+:$2}
	as_label "$1" $A run $_e selinux:hidden apparmor:hidden -- cat /proc/self/attr/current 2>&1
	echo " rc=$?"
}
oneline() { tr '\n' ' ' | sed 's/ *$//'; }

check "onlycap: $me" sh -c "echo $me >$ONLYCAP"
check_eq "onlycap reads $me" "$me" "$(tr -d ' \n' <$ONLYCAP)"

# ------------------------------- controls -------------------------------
out=$(as_label H3Agent sh -c 'echo H3Other >/proc/self/attr/smack/current; cat /proc/self/attr/smack/current' 2>&1 | oneline)
check_contains "H3Agent (outside onlycap, root) cannot relabel itself (onlycap in force)" \
	"Operation not permitted" "$out"
check_eq "... and keeps its label" H3Agent "${out##* }"
check_eq "agent labelled $me (inside onlycap): its child gets H3Other" "H3Other rc=0" \
	"$(ns_label "$me" H3Other | oneline)"
check_eq "agent labelled $me: its child gets $me" "$me rc=0" "$(ns_label "$me" "$me" | oneline)"
check_eq "agent H3Agent: a namespace that keeps its child's label is assigned" "H3Agent rc=0" \
	"$(ns_label H3Agent | oneline)"
check_eq "agent H3Agent: its child keeps H3Agent when named explicitly" "H3Agent rc=0" \
	"$(ns_label H3Agent H3Agent | oneline)"
if grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline; then
	check_contains "agent H3Agent: releasing Smack for its child is refused (onlycap, control)" "rc=125" \
		"$(as_label H3Agent $A run selinux:active smack:released apparmor:hidden -- true 2>&1; echo " rc=$?")"
	check_eq "agent labelled $me: releasing Smack for its child is granted (control)" "rc=0" \
		"$($A run selinux:active smack:released apparmor:hidden -- true 2>&1; echo "rc=$?")"
else
	tap_skip "Smack release with onlycap" "# SKIP boot without lsmns.releasable=smack"
fi

# ------------------------------- attacks -------------------------------
out=$(ns_label H3Agent H3Other | oneline)
check_contains "agent H3Agent (outside onlycap): giving its child H3Other is refused" "rc=125" "$out"
check_not_contains "... and the child never runs as H3Other" "H3Other rc=0" "$out"
out=$(ns_label H3Agent "$me" | oneline)
check_contains "agent H3Agent: giving its child onlycap's label $me is refused" "rc=125" "$out"
check_not_contains "... and the child never runs as $me" "$me rc=0" "$out"
# The label change with Smack hidden in the namespace: the same change,
# which the child cannot see; the host reads its label.
H=/tmp/attack-onlycap.hid R=/tmp/attack-onlycap.rc
rm -f $H $R
(as_label H3Agent $A run smack:hidden:H3Other selinux:active apparmor:hidden -- \
	sh -c "echo \$\$ >$H; exec sleep 2" >/dev/null 2>&1; echo $? >$R) &
i=0
while [ ! -s $H ] && [ ! -s $R ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
lbl=$([ -s $H ] && cat /proc/"$(cat $H)"/attr/smack/current 2>/dev/null)
wait
check_eq "agent H3Agent: giving its child H3Other with Smack hidden is refused" 125 "$(cat $R)"
check_not_contains "... and the child never runs as H3Other" H3Other "$lbl"
# The same through a task that is not its child: an H3Agent sleeper.
GO=/tmp/attack-onlycap.go
rm -f $GO
(exec $LX --attr /proc/self/attr/smack/current H3Agent -- \
	sh -c 'while [ ! -e '$GO' ]; do sleep 0.1; done; exec sleep 5') >/dev/null 2>&1 &
t=$!
sleep 0.5
res=$(as_label H3Agent $A pid "$t" smack:active:"$me" selinux:hidden apparmor:hidden 2>&1)
touch $GO
sleep 1
lbl=$(cat /proc/"$t"/attr/smack/current 2>/dev/null)
check_contains "agent H3Agent, an H3Agent task it can ptrace: assigning it $me is refused" "error=" "$res"
check_not_contains "... and after its exec the task is not $me" "$me" "$lbl"
kill "$t" 2>/dev/null

check "onlycap cleared" sh -c "echo - >$ONLYCAP"
check_eq "onlycap reads empty" "" "$(tr -d ' \n' <$ONLYCAP)"
tap_done
