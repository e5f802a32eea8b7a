#!/bin/sh
# AppArmor's policy filesystem from inside an LSM namespace: hidden, it
# cannot be reached, not even through the apparmor/policy symlink into
# apparmorfs; active, global policy cannot be changed through it, but a
# task labelled in an AppArmor policy namespace of its own may load,
# replace and remove profiles there, and create policy namespaces below
# it, never beside or above it.
# Needs lsm=capability,selinux,smack,apparmor, /lsmns/policies and
# /lsmns/bin/lsmns-assign.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
FS=/sys/kernel/security/apparmor
NSD=$FS/policy/namespaces
SE=system_u:system_r:container_t:s0:c1,c2
[ -x $A ] || { echo "Bail out! $A missing"; exit 1; }

# has_profile NSDIR NAME: NSDIR/profiles holds a directory for profile NAME
# (apparmorfs names them NAME.<serial>).
has_profile() { ls "$1/profiles" 2>/dev/null | grep -q "^$2\.[0-9]*$"; }

parser() { $P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser "$@"; }

# in_ns SPEC... -- SCRIPT: run a shell script in a namespace, stdout and
# stderr together.
in_ns() {
	spec=
	while [ "$1" != "--" ]; do spec="$spec $1"; shift; done
	shift
	# shellcheck disable=SC2086
	$A run $spec -- /bin/sh -c "$1" 2>&1
}

check "load-policies" $P/load-policies
# Binary policy compiled on the host, loaded from inside.
mkdir -p /tmp/aa
printf 'profile inner flags=(complain) {\n}\n' >/tmp/aa/inner
printf 'profile :lsmns_ctr2:intruder flags=(complain) {\n}\n' >/tmp/aa/intruder
for n in 1 2; do
	printf 'profile :lsmns_ctr%s:placeholder flags=(complain) {\n}\n' $n >/tmp/aa/ctr$n
done
for f in inner intruder ctr1 ctr2; do
	out=$(parser -K -Q -S /tmp/aa/$f 2>&1 >/tmp/aa/$f.bin); rc=$?
	check_eq "compile profile $f to binary policy" "0" "$rc"
	[ "$rc" -eq 0 ] || tap_diag "$out"
done

# The host makes the two policy namespaces by loading a profile into each,
# not by mkdir: upstream AppArmor's lock annotations make lockdep report a
# mkdir in the root namespace followed by one in a child namespace
# (docs/kernel-abi.md, "Known upstream issues"), and the debug kernel
# counts every report as a failure.
for n in 1 2; do
	check "host: loading :lsmns_ctr$n:placeholder makes policy namespace lsmns_ctr$n" \
		sh -c "cat /tmp/aa/ctr$n.bin >$FS/.load && test -d $NSD/lsmns_ctr$n"
done

# ---- AppArmor hidden ----
hidden="selinux:active:$SE smack:hidden apparmor:hidden"
out=$(in_ns $hidden -- "ls $FS/policy/")
check_contains "hidden: apparmorfs behind apparmor/policy cannot be opened" "Permission denied" "$out"
out=$(in_ns $hidden -- "cat $NSD/lsmns_ctr1/revision")
check_contains "hidden: an apparmorfs file cannot be read" "Permission denied" "$out"
out=$(in_ns $hidden -- "mkdir $NSD/lsmns_hidden")
check_contains "hidden: mkdir of a policy namespace is refused (EACCES)" "Permission denied" "$out"
check_fails "... and none was made" test -d $NSD/lsmns_hidden

# ---- AppArmor active, labelled in the root namespace ----
root="apparmor:active selinux:hidden smack:hidden"
check_contains "root label: apparmorfs is readable" "namespaces" "$(in_ns $root -- "ls $FS/policy/")"
out=$(in_ns $root -- "cat /tmp/aa/inner.bin >$FS/policy/.load")
check_contains "root label: apparmorfs .load cannot be opened for writing (EPERM)" \
	"Operation not permitted" "$out"
out=$(in_ns $root -- "cat /tmp/aa/inner.bin >$FS/.replace")
check_contains "root label: apparmor/.replace cannot be opened for writing (EPERM)" \
	"Operation not permitted" "$out"
out=$(in_ns $root -- "echo -n lsmns-demo-apparmor >$FS/.remove")
check_contains "root label: apparmor/.remove cannot be opened for writing (EPERM)" \
	"Operation not permitted" "$out"
check "... and the host's profile is still loaded" grep -q '^lsmns-demo-apparmor ' $FS/profiles
out=$(in_ns $root -- "mkdir $NSD/lsmns_evil")
check_contains "root label: mkdir of a policy namespace is refused (EPERM)" \
	"Operation not permitted" "$out"
check_fails "... and none was made" test -d $NSD/lsmns_evil
out=$(in_ns $root -- "rmdir $NSD/lsmns_ctr2")
check_contains "root label: rmdir of a policy namespace is refused (EPERM)" \
	"Operation not permitted" "$out"
check "... and it is still there" test -d $NSD/lsmns_ctr2

# ---- AppArmor active, labelled in policy namespace lsmns_ctr1 ----
own="apparmor:active::lsmns_ctr1: selinux:hidden smack:hidden"
check_eq "own namespace: the label's policy namespace is lsmns_ctr1" "lsmns_ctr1" \
	"$(in_ns $own -- "cat $FS/.ns_name")"
check_eq "own namespace: it sees itself as unconfined in its view" "unconfined" \
	"$(in_ns $own -- "cat /proc/self/attr/apparmor/current")"
check_eq "own namespace: loading a profile through apparmor/.load succeeds" "" \
	"$(in_ns $own -- "cat /tmp/aa/inner.bin >$FS/.load")"
check "... it is in lsmns_ctr1" has_profile $NSD/lsmns_ctr1 inner
check_fails "... and not in the host's root namespace" grep -q '^inner ' $FS/profiles
check_eq "own namespace: replacing it through apparmorfs .replace succeeds" "" \
	"$(in_ns $own -- "cat /tmp/aa/inner.bin >$FS/policy/.replace")"
check_eq "own namespace: a profile naming :lsmns_ctr2: is loaded" "" \
	"$(in_ns $own -- "cat /tmp/aa/intruder.bin >$FS/.load")"
check "... below lsmns_ctr1, as lsmns_ctr1//lsmns_ctr2" \
	has_profile $NSD/lsmns_ctr1/namespaces/lsmns_ctr2 intruder
check_fails "... and not in the sibling lsmns_ctr2" has_profile $NSD/lsmns_ctr2 intruder
check_eq "own namespace: mkdir of a child policy namespace succeeds" "" \
	"$(in_ns $own -- "mkdir $FS/policy/namespaces/sub")"
check "... it is lsmns_ctr1//sub" test -d $NSD/lsmns_ctr1/namespaces/sub
check_eq "own namespace: rmdir of the child policy namespace succeeds" "" \
	"$(in_ns $own -- "rmdir $FS/policy/namespaces/sub")"
check_fails "... it is gone" test -d $NSD/lsmns_ctr1/namespaces/sub
out=$(in_ns $own -- "rmdir $FS/policy/../lsmns_ctr2")
check_contains "own namespace: rmdir of the sibling namespace is refused (EPERM)" \
	"Operation not permitted" "$out"
check "... and the sibling is still there" test -d $NSD/lsmns_ctr2
out=$(in_ns $own -- "mkdir $FS/policy/../lsmns_beside")
check_contains "own namespace: mkdir beside its namespace is refused (EPERM)" \
	"Operation not permitted" "$out"
check_fails "... and none was made" test -d $NSD/lsmns_beside
out=$(in_ns $own -- "cat /tmp/aa/inner.bin >$FS/policy/../../.load")
check_contains "own namespace: the root namespace's .load is refused (EPERM)" \
	"Operation not permitted" "$out"
out=$(in_ns $own -- "cat /tmp/aa/inner.bin >$FS/policy/../lsmns_ctr2/.load")
check_contains "own namespace: the sibling namespace's .load is refused (EPERM)" \
	"Operation not permitted" "$out"
check_fails "... and nothing was loaded there" has_profile $NSD/lsmns_ctr2 inner
out=$(in_ns $own -- "echo x >/sys/kernel/security/lsmns/assign")
check_contains "own namespace: lsmns/assign is still refused" "Operation not permitted" "$out"
check_eq "own namespace: removing its profile through apparmor/.remove succeeds" "" \
	"$(in_ns $own -- "echo -n inner >$FS/.remove")"
check_fails "... it is gone from lsmns_ctr1" has_profile $NSD/lsmns_ctr1 inner

# ---- a policy namespace label without CAP_MAC_ADMIN gets nothing ----
out=$(in_ns $own -- "$P/bin/lsmns-exec --drop-mac-caps -- /bin/sh -c 'cat /tmp/aa/inner.bin >$FS/.load'")
check_contains "own namespace without CAP_MAC_ADMIN: AppArmor refuses the load" \
	"Permission denied" "$out"
check_fails "... and nothing was loaded" has_profile $NSD/lsmns_ctr1 inner

for n in 1 2; do
	check "host: .remove of :lsmns_ctr$n: removes that policy namespace" \
		sh -c "echo -n :lsmns_ctr$n: >$FS/.remove && ! test -d $NSD/lsmns_ctr$n"
done
tap_done
