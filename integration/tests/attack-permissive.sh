#!/bin/sh
# Attacks on "consent is explicit" (../shared/design.md section 7):
# an LSM consents to releasing it, or to a task switching its interface
# LSM, only by a rule that names the permission, whatever the enforcing
# mode, and a request that replaces a pending one asks again.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# 1. SELinux in permissive mode (setenforce 0) grants every permission it
#    would deny, and so does a permissive domain in an enforcing policy.
#    lsmns.cil defines lsmns release and process2 setinterface but allows
#    release only from unconfined_t to unconfined_t, and setinterface to
#    container_t only under a boolean.  Attacks: the host (unconfined_t)
#    releases SELinux for a container_t task, and a container_t task with
#    the boolean off switches its interface LSM, (a) under setenforce 0,
#    (b) with the agent's / the switching task's domain permissive in an
#    enforcing policy.  The permissive policy is lsmns.cil's own binary
#    with its permissive map patched (progs/sepol-permissive.c): the guest
#    has no policy compiler, so the test finds the type's value by
#    bisection, asking the kernel whether a read only that domain is
#    denied now succeeds.
# 2. AppArmor's consent asks the agent's profile for mac_override.  An
#    agent profile in complain mode, without that rule, must not consent.
#    (A later entrant cannot adopt a namespace that releases AppArmor
#    while it is confined at all: the target must be unconfined.)
# 3. A narrowing replacement (docs/kernel-abi.md, "A second assignment
#    before the execve") that leaves out a slot the pending namespace
#    releases must not keep the release without the replacing agent's
#    consent: the replacing agent's profile lacks mac_override.
# Controls, each of which passes on any kernel: the same requests with an
# allow rule (unconfined_t target; the boolean on; an enforcing agent
# profile with mac_override; the consenting agent replacing its own
# request) are granted, and without the rule in enforcing mode they are
# refused.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
LX=$P/bin/lsmns-exec
W=$P/bin/lsmns-write
SP=/lsmns/bin/sepol-permissive
X=/lsmns/bin/attack-xattr
FS=/sys/fs/selinux
for f in $A $LX $W $SP $X $P/selinux/policy.33; do
	[ -e $f ] || { echo "Bail out! $f missing"; exit 1; }
done
grep -q 'lsmns.releasable=[^ ]*selinux' /proc/cmdline && grep -q 'lsmns.releasable=[^ ]*apparmor' /proc/cmdline ||
	{ echo "Bail out! boot without lsmns.releasable=selinux,apparmor"; exit 1; }
check "load-policies selinux smack" $P/load-policies selinux smack

CT=system_u:system_r:container_t:s0:c1,c2
BOOL=lsmns_container_setinterface
D=/tmp/attack-permissive
mkdir -p $D

# A host task sleeping in DOMAIN (unconfined_t: the host's own), the
# target of an assignment; prints its pid once it runs there.
sleeper() {
	if [ "$1" = unconfined_t ]; then
		sleep 60 >/dev/null 2>&1 &
	else
		$LX --attr /proc/self/attr/exec "$CT" -- sleep 60 >/dev/null 2>&1 &
	fi
	_p=$!
	_i=0
	while ! grep -q "$1" /proc/$_p/attr/current 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	echo $_p
}
# se_release DOMAIN [AGENT-PREFIX...]: release SELinux for a new task in
# DOMAIN; prints lsmns-assign's "ok ns_id=N" or "error=E entry=I".
se_release() {
	_d=$1; shift
	_t=$(sleeper "$_d")
	"$@" $A pid "$_t" smack:active selinux:released apparmor:hidden 2>&1
	kill "$_t" 2>/dev/null
	wait "$_t" 2>/dev/null
}
# ct_switch: a container_t task switches its interface LSM to smack;
# prints the error (if any) and the interface it then has.
ct_switch() {
	$LX --attr /proc/self/attr/exec "$CT" -- \
		sh -c 'echo smack >/proc/self/attr/interface_lsm; cat /proc/self/attr/interface_lsm' 2>&1 |
		tr '\n' ' ' | sed 's/ $//'
}
enforce() { printf %s "$1" | $W $FS/enforce; }

# ============================ SELinux, enforcing ============================
check "lsmns.cil defines lsmns release" test -e $FS/class/lsmns/perms/release
check "lsmns.cil defines process2 setinterface" test -e $FS/class/process2/perms/setinterface
check_contains "enforcing: releasing SELinux for an unconfined_t task is granted (control: allow rule)" \
	"ok ns_id=" "$(se_release unconfined_t)"
check_eq "enforcing: releasing SELinux for a container_t task is refused (control: no rule)" \
	"error=EACCES entry=1" "$(se_release container_t)"
check "boolean $BOOL on" selinux_set_bool $BOOL 1
check_eq "enforcing, $BOOL on: a container_t task switches its interface to smack (control)" smack "$(ct_switch)"
check "boolean $BOOL off" selinux_set_bool $BOOL 0
out=$(ct_switch)
check_contains "enforcing, $BOOL off: the switch is refused (control: no rule)" "Permission denied" "$out"
check_eq "... and the interface stays selinux" selinux "${out##* }"

# ============================ 1a. setenforce 0 ============================
check "setenforce 0" enforce 0
check_eq "permissive: SELinux reads enforce=0" 0 "$(cat $FS/enforce)"
check_contains "permissive: releasing SELinux for an unconfined_t task is granted (control)" \
	"ok ns_id=" "$(se_release unconfined_t)"
check_eq "permissive: releasing SELinux for a container_t task is still refused (no allow rule)" \
	"error=EACCES entry=1" "$(se_release container_t)"
out=$(ct_switch)
check_contains "permissive, $BOOL off: a container_t task's switch of its interface is still refused" \
	"Permission denied" "$out"
check_eq "... and its interface stays selinux" selinux "${out##* }"
check "setenforce 1" enforce 1

# ====================== 1b. a permissive domain ======================
# Reads that only the domain's permissiveness can allow: lsmns_host_denied_t
# to unconfined_t, lsmns_denied_selinux_t to container_t.
echo secret >$D/host-denied
echo secret >$D/ct-denied
$X set $D/host-denied security.selinux system_u:object_r:lsmns_host_denied_t:s0 >/dev/null
$X set $D/ct-denied security.selinux system_u:object_r:lsmns_denied_selinux_t:s0 >/dev/null
probe_unconfined() { cat $D/host-denied >/dev/null 2>&1; }
probe_container() { $LX --attr /proc/self/attr/exec "$CT" -- cat $D/ct-denied >/dev/null 2>&1; }
# load_permissive RANGE...: load lsmns.cil's policy with the types in
# RANGE (LO or LO-HI) permissive, enforcing.
load_permissive() {
	$SP $P/selinux/policy.33 $D/policy.33 "$@" >/dev/null &&
		$W $FS/load <$D/policy.33 >/dev/null && [ "$(cat $FS/enforce)" = 1 ]
}
# type_value PROBE: the value of the one type whose permissiveness makes
# PROBE succeed, by bisection; nothing if none does.
type_value() {
	_lo=1 _hi=255
	load_permissive $_lo-$_hi && $1 || { _hi=4095; load_permissive $_lo-$_hi && $1; } || return 1
	while [ $_lo -lt $_hi ]; do
		_mid=$(((_lo + _hi) / 2))
		if load_permissive $_lo-$_mid && $1; then _hi=$_mid; else _lo=$((_mid + 1)); fi
	done
	load_permissive $_lo && $1 && echo $_lo
}
check_fails "enforcing: unconfined_t cannot read an lsmns_host_denied_t file (control)" probe_unconfined
check_fails "enforcing: container_t cannot read an lsmns_denied_selinux_t file (control)" probe_container
UV=$(type_value probe_unconfined)
CV=$(type_value probe_container)
check "found unconfined_t's type value ($UV) by bisection" test -n "$UV"
check "found container_t's type value ($CV) by bisection" test -n "$CV"

if [ -n "$UV" ]; then
	check "unconfined_t permissive (value $UV), enforcing" load_permissive "$UV"
	check "... unconfined_t now reads the lsmns_host_denied_t file (the domain is permissive)" probe_unconfined
	check_fails "... container_t still cannot read its denied file (only that domain)" probe_container
	check_contains "unconfined_t permissive: releasing SELinux for an unconfined_t task is granted (control)" \
		"ok ns_id=" "$(se_release unconfined_t)"
	check_eq "unconfined_t permissive: releasing SELinux for a container_t task is still refused" \
		"error=EACCES entry=1" "$(se_release container_t)"
fi
if [ -n "$CV" ]; then
	check "container_t permissive (value $CV), enforcing" load_permissive "$CV"
	check "boolean $BOOL off" selinux_set_bool $BOOL 0
	check "... container_t now reads its denied file (the domain is permissive)" probe_container
	out=$(ct_switch)
	check_contains "container_t permissive, $BOOL off: its switch of the interface LSM is still refused" \
		"Permission denied" "$out"
	check_eq "... and its interface stays selinux" selinux "${out##* }"
fi
check "lsmns.cil again, no permissive type" sh -c "$W $FS/load <$P/selinux/policy.33"
check "boolean $BOOL on again" selinux_set_bool $BOOL 1

# ======================= 2. AppArmor: a complain-mode agent =======================
# Three agent profiles, changed to at the agent's exec: complain mode with
# no rule at all, and two enforcing ones that allow everything the agent
# does, one with mac_override and one without.
cat >$D/agents <<'EOF'
profile h3-agent-complain flags=(complain) {
}
profile h3-agent-override flags=(attach_disconnected) {
  /** rwlkmix,
  capability mac_admin,
  capability mac_override,
  capability sys_ptrace,
  capability dac_override,
  ptrace,
  signal,
  unix,
}
profile h3-agent-nooverride flags=(attach_disconnected) {
  /** rwlkmix,
  capability mac_admin,
  capability sys_ptrace,
  capability dac_override,
  ptrace,
  signal,
  unix,
}
EOF
check "AppArmor: loads the agent profiles" aa_load $D/agents
check_eq "AppArmor: h3-agent-complain is in complain mode" complain "$(aa_mode h3-agent-complain)"
as_agent() { _prof=$1; shift; $LX --attr /proc/self/attr/apparmor/exec "exec $_prof" -- "$@"; }
# aa_release AGENT-PROFILE: an agent confined by it releases AppArmor for
# an unconfined host task.
aa_release() {
	_t=$(sleeper unconfined_t)
	as_agent "$1" $A pid "$_t" selinux:active smack:hidden apparmor:released 2>&1
	kill "$_t" 2>/dev/null
	wait "$_t" 2>/dev/null
}
check_eq "the agent runs confined by its profile (control)" "h3-agent-complain (complain)" \
	"$(as_agent h3-agent-complain cat /proc/self/attr/apparmor/current)"
check_contains "unconfined agent: releasing AppArmor is granted (control)" "ok ns_id=" \
	"$($A pid "$(sleeper unconfined_t)" selinux:active smack:hidden apparmor:released 2>&1)"
check_contains "enforcing agent profile with mac_override: releasing AppArmor is granted (control)" \
	"ok ns_id=" "$(aa_release h3-agent-override)"
check_eq "enforcing agent profile without mac_override: releasing AppArmor is refused (control)" \
	"error=EACCES entry=2" "$(aa_release h3-agent-nooverride)"
check_eq "complain-mode agent profile without mac_override: releasing AppArmor is refused" \
	"error=EACCES entry=2" "$(aa_release h3-agent-complain)"

# ================= 3. a narrowing replacement inherits a release =================
# The host (consents) assigns apparmor:released; before the target's exec
# an agent whose profile lacks mac_override sends a request that leaves
# AppArmor out.  Either it is refused, or the namespace the target enters
# does not release AppArmor.
GO=$D/go
replace() {
	_t=$(gated_exec $GO sleep 30)
	_first=$($A pid "$_t" selinux:active smack:hidden apparmor:released 2>&1)
	_second=$("$@" $A pid "$_t" selinux:active smack:hidden 2>&1)
	touch $GO
	_i=0
	while grep -q '^id=0 ' /proc/$_t/attr/lsmns 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	echo "first=$_first"
	echo "second=$_second"
	echo "entered=$(lsmns_line "$_t")"
	kill "$_t" 2>/dev/null
	wait "$_t" 2>/dev/null
}
out=$(replace as_agent h3-agent-override)
tap_diag "$out"
check_contains "consenting agent: the first request is accepted (control)" "first=ok ns_id=" "$out"
check_contains "consenting agent: its narrowing replacement is accepted (control)" "second=ok ns_id=" "$out"
check_contains "... and the target enters a namespace that releases AppArmor" "apparmor=released" "$out"
t=$(sleeper unconfined_t)
$A pid "$t" selinux:active smack:hidden apparmor:released >/dev/null 2>&1
check_eq "agent without mac_override naming apparmor:released in a replacement: refused (control)" \
	"error=EACCES entry=2" "$(as_agent h3-agent-nooverride $A pid "$t" selinux:active smack:hidden apparmor:released 2>&1)"
kill "$t"; wait "$t" 2>/dev/null
out=$(replace as_agent h3-agent-nooverride)
tap_diag "$out"
check_contains "the first request (host, consents) is accepted (control)" "first=ok ns_id=" "$out"
case $out in
*"second=ok"*)
	check_not_contains "agent without mac_override: its replacement leaving AppArmor out does not keep the release" \
		"apparmor=released" "$(echo "$out" | grep '^entered=')" ;;
*)
	check_contains "agent without mac_override: its replacement leaving AppArmor out is refused" \
		"second=error=" "$out" ;;
esac
tap_done
