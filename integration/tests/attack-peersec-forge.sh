#!/bin/sh
# Attack on "formats that carry several LSMs' contexts cannot be forged by
# one LSM's free-text context" (../shared/design.md section 7).  Booted with
#   lsm=capability,selinux,smack,apparmor lsm.peersec=all lsmns.releasable=selinux,smack,apparmor
#
# With lsm.peersec=all, SO_PEERSEC gives a host server every LSM's
# context of its peer as selinux='...',smack='...',apparmor='...'.  An
# AppArmor profile name is free text, and a container that manages its
# own AppArmor policy namespace (assigned apparmor:active::h3c:) loads a
# profile whose name holds "',selinux='...", runs under it and connects
# to a host server: the server reads a second, forged SELinux field
# (system_u:system_r:h3forged_t:s0, a type no policy has).  Whatever the
# format, one peer must give one SELinux field, the real one.
# Control: the same container under a profile with an ordinary name.
# AppArmor in 6.12 sets no peer label on a unix socket (nothing sets its
# socket context's peer), so SO_PEERSEC has no AppArmor field and the
# forgery cannot be reached from user space on this kernel: the test
# then says so (SKIP) instead of passing, and the format needs a KUnit
# test with a module that returns such a context.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
PS=/lsmns/bin/attack-peersec
FS=/sys/kernel/security/apparmor
for f in $A $PS; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
grep -q 'lsm.peersec=all' /proc/cmdline || { echo "Bail out! boot without lsm.peersec=all"; exit 1; }
check "load-policies selinux smack" $P/load-policies selinux smack
parser() { $P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser "$@"; }
D=/tmp/attack-peersec-forge
mkdir -p $D
FORGED="h3x',selinux='system_u:system_r:h3forged_t:s0"
body='{
  /** rwlkmix,
  unix,
  signal,
}'
printf 'profile :h3c:placeholder flags=(complain) {\n}\n' >$D/ns
printf 'profile h3-plain flags=(complain) %s\n' "$body" >$D/plain
printf 'profile "%s" flags=(complain) %s\n' "$FORGED" "$body" >$D/forged
for f in ns plain forged; do
	check "compile $f to binary policy" sh -c "$P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser -K -Q -S $D/$f >$D/$f.bin"
done
check "host: policy namespace h3c" sh -c "cat $D/ns.bin >$FS/.load && test -d $FS/policy/namespaces/h3c"
NS="apparmor:active::h3c: selinux:active smack:hidden"
S=$D/sock
# peer PROFILE: a task of the container loads PROFILE's binary into its
# own policy namespace, changes to it and connects to a host server,
# which prints the SO_PEERSEC it reads.
peer() {
	$PS serve $S selinux -- $A run $NS -- sh -c \
		"cat $D/$1.bin >$FS/.load && echo -n \"changeprofile \$0\" >/proc/self/attr/apparmor/current && exec $PS connect $S" \
		"$2" 2>&1
}
out=$(peer plain h3-plain)
tap_diag "plain: $out"
check_contains "ordinary profile name: the container connects (control)" "connect=ok" "$out"
check_eq "... and the server reads one SELinux field (control)" 1 "$(echo "$out" | grep '^peer=' | grep -o "selinux='" | wc -l)"
case $out in
*"apparmor='"*)
	check_contains "... and the peer's AppArmor label (control)" "h3-plain" "$out"
	out=$(peer forged "$FORGED")
	tap_diag "forged: $out"
	check_contains "forging profile name: the container runs under it and connects" "connect=ok" "$out"
	check_contains "... and the server reads its AppArmor label" "h3x" "$out"
	check_eq "forging profile name: the server still reads one SELinux field" 1 \
		"$(echo "$out" | grep '^peer=' | grep -o "selinux='" | wc -l)" ;;
*)
	tap_skip "a forged AppArmor profile name in SO_PEERSEC (all)" \
		"# SKIP AppArmor gives no SO_PEERSEC peer label on this kernel" ;;
esac
tap_done
