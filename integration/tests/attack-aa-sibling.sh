#!/bin/sh
# Attack on "a namespace may reach only what its LSM namespaces itself
# (an AppArmor policy namespace), and only below its own level"
# (../shared/design.md section 7; docs/kernel-abi.md promises "beside or
# above it: EPERM").  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# Two containers manage their own AppArmor policy namespaces h3a and h3b
# (assigned apparmor:active::h3a:, ...).  A third container runs
# AppArmor-unconfined in the root policy namespace (apparmor:active, the
# common case): it may manage no AppArmor policy at all.  As an
# unconfined task, AppArmor lets it change_profile to any profile,
# ":h3b:unconfined" included, and then the exception for "its own"
# policy namespace hands it h3b: it loads a profile into the other
# container's policy.  The same from inside h3a (where ":h3b:" names
# h3a//h3b, which does not exist) and to the root namespace stays in h3a.
# Controls: inside h3a a container loads a profile into h3a and changes
# to it; the root-labelled container cannot load a profile directly.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
FS=/sys/kernel/security/apparmor
NSD=$FS/policy/namespaces
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }
parser() { $P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser "$@"; }
has_profile() { ls "$1/profiles" 2>/dev/null | grep -q "^$2\.[0-9]*$"; }
in_ns() {
	spec=
	while [ "$1" != "--" ]; do spec="$spec $1"; shift; done
	shift
	# shellcheck disable=SC2086
	$A run $spec -- /bin/sh -c "$1" 2>&1
}
check "load-policies selinux smack" $P/load-policies selinux smack
D=/tmp/attack-aa-sibling
mkdir -p $D
printf 'profile h3-own flags=(complain) {\n}\n' >$D/own
printf 'profile h3-planted flags=(complain) {\n}\n' >$D/planted
for n in a b; do printf 'profile :h3%s:placeholder flags=(complain) {\n}\n' $n >$D/ns$n; done
for f in own planted nsa nsb; do
	check "compile $f to binary policy" sh -c "$P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser -K -Q -S $D/$f >$D/$f.bin"
done
# (made by loading a profile, not by mkdir: see lsmns-apparmor-ns.sh)
for n in a b; do
	check "host: policy namespace h3$n" sh -c "cat $D/ns$n.bin >$FS/.load && test -d $NSD/h3$n"
done
OWN="apparmor:active::h3a: selinux:hidden smack:hidden"
check_eq "the container's label is in h3a (control)" h3a "$(in_ns $OWN -- "cat $FS/.ns_name")"
check_eq "inside h3a: loading h3-own succeeds (control)" "" "$(in_ns $OWN -- "cat $D/own.bin >$FS/.load")"
check "... it is in h3a" has_profile $NSD/h3a h3-own
check_eq "inside h3a: change_profile to h3-own succeeds (control)" "h3-own (complain)" \
	"$(in_ns $OWN -- "echo -n 'changeprofile h3-own' >/proc/self/attr/apparmor/current && read l </proc/self/attr/apparmor/current && echo \$l")"
ROOTNS="apparmor:active selinux:hidden smack:hidden"
check_eq "the unconfined container's label is in the root namespace (control)" root \
	"$(in_ns $ROOTNS -- "cat $FS/.ns_name")"
check_contains "... it cannot load a profile itself (control)" "Operation not permitted" \
	"$(in_ns $ROOTNS -- "cat $D/planted.bin >$FS/.load")"

# Attack: the root-labelled unconfined container moves into h3b.
out=$(in_ns $ROOTNS -- "echo -n 'changeprofile :h3b:unconfined' >/proc/self/attr/apparmor/current; echo ns=\$(cat $FS/.ns_name); cat $D/planted.bin >$FS/.load && echo loaded")
tap_diag "root-labelled, changeprofile :h3b:unconfined: $out"
check_not_contains "unconfined container in the root namespace: change_profile :h3b:unconfined is refused" \
	"ns=h3b" "$out"
check_fails "... and it loads nothing into h3b" has_profile $NSD/h3b h3-planted

# Attacks: change_profile beside and above, then load where it landed.
for to in :h3b:unconfined :h3b:placeholder :root:unconfined; do
	out=$(in_ns $OWN -- "echo -n 'changeprofile $to' >/proc/self/attr/apparmor/current; echo ns=\$(cat $FS/.ns_name); cat $D/planted.bin >$FS/.load && echo loaded")
	tap_diag "changeprofile $to: $out"
	check_contains "inside h3a: change_profile $to stays in h3a" "ns=h3a" "$out"
done
check_fails "the sibling h3b holds no planted profile" has_profile $NSD/h3b h3-planted
check_fails "the root namespace holds no planted profile" grep -q '^h3-planted ' $FS/profiles
tap_done
