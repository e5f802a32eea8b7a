#!/bin/sh
# Issue 17 ("Hardening 1"), class 7: "hidden" is defined channel by
# channel (docs/kernel-abi.md, "Visibility inside a namespace" and
# "Threat model").  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# 1. xattr values: inside a namespace that hides or releases SELinux
#    (Smack), getxattr of security.selinux (security.SMACK64*) is ENODATA
#    on every file: a tmpfs file and directory, sysfs, and /proc/self/*,
#    whose label is the task's own hidden context.
# 2. xattr names: listxattr does not name the in-core label of a hidden
#    or released LSM (procfs, sysfs, and tmpfs, which in 6.12 leaves its
#    MAC labels to the LSMs: simple_xattr_list() skips the stored
#    security.selinux/SMACK64 and asks security_inode_listsecurity()).
#    A filesystem that lists the names it stores on disk (ext4, the
#    "observable" names of the threat model) is not in the guest.
# 3. The documented observable channels stay as documented, so a change
#    is noticed: /proc/filesystems and /proc/cmdline name the LSMs, the
#    hidden LSM's filesystem directory exists but opening a file in it is
#    EACCES.
# Controls: the host reads every value and name, and so does a namespace
# where that LSM is active; listxattr inside still names the visible
# LSM's label.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
X=/lsmns/bin/attack-xattr
L=/lsmns/bin/attack-listxattr
for f in $A $X $L; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline && grep -q 'lsmns.releasable=[^ ]*selinux' /proc/cmdline ||
	{ echo "Bail out! boot without lsmns.releasable=selinux,smack"; exit 1; }
# SELinux's consent to release needs the policy (it grants lsmns release
# to unconfined_t); AppArmor plays no part.
check "load-policies selinux smack" $P/load-policies selinux smack

SE_HID="selinux:hidden smack:active apparmor:hidden"
SE_REL="selinux:released smack:active apparmor:hidden"
SM_HID="selinux:active smack:hidden apparmor:hidden"
SM_REL="selinux:active smack:released apparmor:hidden"
oneline() { tr '\n' ' ' | sed 's/ $//'; }
# ns ENTRIES CMD...: CMD in a new namespace.
ns() { _e=$1; shift; $A run $_e -- "$@" 2>&1; }

D=/tmp/attack-hidden
mkdir -p $D/dir
: >$D/file
: >$D/exec-file
SYS=/sys/kernel/uevent_seqnum
TMPFS=system_u:object_r:tmpfs_t:s0
HOST=system_u:system_r:unconfined_t:s0-s0:c0.c1023
check_eq "host: sets SMACK64EXEC on a file" ok "$($X set $D/exec-file security.SMACK64EXEC AllowedC)"
check_eq "host: sets SMACK64TRANSMUTE on a directory" ok "$($X set $D/dir security.SMACK64TRANSMUTE TRUE)"

# ================================ SELinux ================================
S=security.selinux
# Controls: the host, and a namespace where SELinux is active (Smack hidden).
check_eq "host: $S of a tmpfs file" $TMPFS "$($X get $D/file $S)"
check_eq "host: $S of a tmpfs directory" $TMPFS "$($X get $D/dir $S)"
check_eq "host: $S of /proc/self/status is its own context" $HOST "$($X get /proc/self/status $S)"
check_eq "host: $S of a sysfs file" system_u:object_r:sysfs_t:s0 "$($X get $SYS $S)"
check_contains "host: listxattr of /proc/self/status names $S" $S "$($L /proc/self/status | oneline)"
check_contains "host: listxattr of a sysfs file names $S" $S "$($L $SYS | oneline)"
check_contains "host: listxattr of a tmpfs file names $S" $S "$($L $D/file | oneline)"
check_eq "SELinux active: $S of a tmpfs file" $TMPFS "$(ns "$SM_HID" $X get $D/file $S)"
check_eq "SELinux active: $S of a tmpfs directory" $TMPFS "$(ns "$SM_HID" $X get $D/dir $S)"
check_eq "SELinux active: $S of /proc/self/status is its own context" $HOST \
	"$(ns "$SM_HID" $X get /proc/self/status $S)"
check_eq "SELinux active: $S of /proc/self/attr/current is its own context" $HOST \
	"$(ns "$SM_HID" $X get /proc/self/attr/current $S)"
check_contains "SELinux active: listxattr of /proc/self/status names $S" $S \
	"$(ns "$SM_HID" $L /proc/self/status | oneline)"

# Attacks: SELinux hidden, then released.
for m in hidden released; do
	case $m in hidden) e=$SE_HID ;; released) e=$SE_REL ;; esac
	check_eq "SELinux $m: $S of a tmpfs file is ENODATA" ENODATA "$(ns "$e" $X get $D/file $S)"
	check_eq "SELinux $m: $S of a tmpfs directory is ENODATA" ENODATA "$(ns "$e" $X get $D/dir $S)"
	check_eq "SELinux $m: $S of a sysfs file is ENODATA" ENODATA "$(ns "$e" $X get $SYS $S)"
	check_eq "SELinux $m: $S of /proc/self/status (its own context) is ENODATA" ENODATA \
		"$(ns "$e" $X get /proc/self/status $S)"
	check_eq "SELinux $m: $S of /proc/self/attr/current is ENODATA" ENODATA \
		"$(ns "$e" $X get /proc/self/attr/current $S)"
	check_eq "SELinux $m: $S of /proc/1/status (init's context) is ENODATA" ENODATA \
		"$(ns "$e" $X get /proc/1/status $S)"
	out=$(ns "$e" $L /proc/self/status | oneline)
	check_contains "SELinux $m: listxattr of /proc/self/status still names security.SMACK64 (control)" \
		security.SMACK64 "$out"
	check_not_contains "SELinux $m: ... but not $S" $S "$out"
	check_not_contains "SELinux $m: listxattr of a sysfs file does not name $S" $S "$(ns "$e" $L $SYS | oneline)"
	check_not_contains "SELinux $m: listxattr of a tmpfs file does not name $S" $S "$(ns "$e" $L $D/file | oneline)"
done

# ================================= Smack =================================
S=security.SMACK64
# Controls: the host, and a namespace where Smack is active (SELinux hidden).
check_eq "host: $S of a tmpfs file" _ "$($X get $D/file $S)"
check_eq "host: $S of /proc/self/status is its own label" _ "$($X get /proc/self/status $S)"
check_eq "host: ${S}EXEC of a tmpfs file" AllowedC "$($X get $D/exec-file ${S}EXEC)"
check_eq "host: ${S}TRANSMUTE of a tmpfs directory" TRUE "$($X get $D/dir ${S}TRANSMUTE)"
check_contains "host: listxattr of /proc/self/status names $S" $S "$($L /proc/self/status | oneline)"
check_eq "Smack active: $S of a tmpfs file" _ "$(ns "$SE_HID" $X get $D/file $S)"
check_eq "Smack active: $S of /proc/self/status is its own label" _ "$(ns "$SE_HID" $X get /proc/self/status $S)"
check_eq "Smack active: ${S}EXEC of a tmpfs file" AllowedC "$(ns "$SE_HID" $X get $D/exec-file ${S}EXEC)"
check_eq "Smack active: ${S}TRANSMUTE of a tmpfs directory" TRUE "$(ns "$SE_HID" $X get $D/dir ${S}TRANSMUTE)"
check_contains "Smack active: listxattr of /proc/self/status names $S" $S \
	"$(ns "$SE_HID" $L /proc/self/status | oneline)"

for m in hidden released; do
	case $m in hidden) e=$SM_HID ;; released) e=$SM_REL ;; esac
	check_eq "Smack $m: $S of a tmpfs file is ENODATA" ENODATA "$(ns "$e" $X get $D/file $S)"
	check_eq "Smack $m: $S of a tmpfs directory is ENODATA" ENODATA "$(ns "$e" $X get $D/dir $S)"
	check_eq "Smack $m: $S of a sysfs file is ENODATA" ENODATA "$(ns "$e" $X get $SYS $S)"
	check_eq "Smack $m: $S of /proc/self/status (its own label) is ENODATA" ENODATA \
		"$(ns "$e" $X get /proc/self/status $S)"
	check_eq "Smack $m: $S of /proc/self/attr/current is ENODATA" ENODATA \
		"$(ns "$e" $X get /proc/self/attr/current $S)"
	check_eq "Smack $m: ${S}EXEC of a tmpfs file is ENODATA" ENODATA "$(ns "$e" $X get $D/exec-file ${S}EXEC)"
	check_eq "Smack $m: ${S}TRANSMUTE of a tmpfs directory is ENODATA" ENODATA \
		"$(ns "$e" $X get $D/dir ${S}TRANSMUTE)"
	out=$(ns "$e" $L /proc/self/status | oneline)
	check_contains "Smack $m: listxattr of /proc/self/status still names security.selinux (control)" \
		security.selinux "$out"
	check_not_contains "Smack $m: ... but not $S" $S "$out"
	check_not_contains "Smack $m: listxattr of a sysfs file does not name $S" $S "$(ns "$e" $L $SYS | oneline)"
	check_not_contains "Smack $m: listxattr of a tmpfs file does not name $S" $S "$(ns "$e" $L $D/file | oneline)"
done

# ==================== observable, as documented ====================
# docs/kernel-abi.md, "Threat model", "Observable": that an LSM exists is
# not hidden; its own interfaces are.
check_contains "SELinux hidden: /proc/filesystems still lists selinuxfs (observable)" selinuxfs \
	"$(ns "$SE_HID" cat /proc/filesystems | oneline)"
check_contains "Smack hidden: /proc/filesystems still lists smackfs (observable)" smackfs \
	"$(ns "$SM_HID" cat /proc/filesystems | oneline)"
check_contains "SELinux hidden: /proc/cmdline still names the LSMs (observable)" "lsm=capability,selinux" \
	"$(ns "$SE_HID" cat /proc/cmdline)"
check_eq "SELinux hidden: the /sys/fs/selinux directory is there (observable)" yes \
	"$(ns "$SE_HID" sh -c '[ -d /sys/fs/selinux ] && echo yes')"
check_eq "SELinux active: reads /sys/fs/selinux/enforce (control)" 1 "$(ns "$SM_HID" cat /sys/fs/selinux/enforce)"
check_eq "Smack active: reads /sys/fs/smackfs/ambient (control)" _ "$(ns "$SE_HID" cat /sys/fs/smackfs/ambient)"
for m in hidden released; do
	case $m in hidden) se=$SE_HID sm=$SM_HID ;; released) se=$SE_REL sm=$SM_REL ;; esac
	check_contains "SELinux $m: opening /sys/fs/selinux/enforce is EACCES" "Permission denied" \
		"$(ns "$se" cat /sys/fs/selinux/enforce)"
	check_contains "Smack $m: opening /sys/fs/smackfs/ambient is EACCES" "Permission denied" \
		"$(ns "$sm" cat /sys/fs/smackfs/ambient)"
done
tap_done
