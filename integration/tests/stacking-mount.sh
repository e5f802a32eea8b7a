#!/bin/sh
# lsmns-test: fresh-boot (no SELinux policy loaded yet; first in a debug batch)
# Booted with SELinux, Smack and AppArmor active.  Each LSM gets its own
# mount options: Smack's smackfs* options work next to SELinux, SELinux's
# are refused by SELinux alone (no policy loaded yet) without harming
# Smack's; then, with policies loaded, new files carry both LSMs' xattrs on
# tmpfs, listxattr names both, and a mount with a SELinux and a Smack
# option applies both.
. /lsmns/lib/tap.sh
PATH=/lsmns/bin:$PATH
mkdir -p /mnt/s1 /mnt/s2 /mnt/s3

check "tmpfs with smackfsroot/smackfsdef mounts" \
	mount -t tmpfs -o smackfsroot=Root,smackfsdef=Def,size=1m none /mnt/s1
check_eq "Smack root label from smackfsroot" Root "$(stack-lsm getxattr /mnt/s1 security.SMACK64)"
echo x >/mnt/s1/f
check_eq "new file gets the creator's Smack label" _ "$(stack-lsm getxattr /mnt/s1/f security.SMACK64)"
# SELinux labels new files only once a policy is loaded.
tap_diag "security.selinux of /mnt/s1/f: $(stack-lsm getxattr /mnt/s1/f security.selinux 2>&1)"
check "remount with the same Smack options" mount -o remount,smackfsroot=Root,smackfsdef=Def /mnt/s1
check "umount" umount /mnt/s1

# SELinux refuses context= before a policy is loaded; Smack's option in the
# same mount must be parsed into Smack's own options and freed once.
out=$(mount -t tmpfs -o context=system_u:object_r:tmp_t:s0,smackfsdef=Def none /mnt/s2 2>&1)
rc=$?
check_eq "context= without a SELinux policy is refused" 1 "$([ $rc -ne 0 ] && echo 1 || echo 0)"
tap_diag "$out"
check "a mount with only SELinux-unknown options still works" \
	mount -t tmpfs -o smackfsroot=R3,size=1m none /mnt/s3
check_eq "Smack root label on that mount" R3 "$(stack-lsm getxattr /mnt/s3 security.SMACK64)"
umount /mnt/s3
for i in 1 2 3 4 5 6 7 8; do
	mount -t tmpfs -o context=system_u:object_r:tmp_t:s0,smackfsdef=D$i none /mnt/s2 2>/dev/null
	mount -t tmpfs -o smackfsdef=D$i,fscontext=system_u:object_r:tmp_t:s0 none /mnt/s2 2>/dev/null
done
check "repeated mixed-option mounts leave the kernel healthy" mount -t tmpfs none /mnt/s2
umount /mnt/s2 2>/dev/null

# With policies loaded, SELinux labels too: a new tmpfs file carries both
# LSMs' xattrs, listxattr names both, and one mount takes a SELinux and a
# Smack option at once, each taking effect.
P=/lsmns/policies
check "load the SELinux and Smack policies" $P/load-policies selinux smack
mkdir -p /mnt/s4 /mnt/s5
check "plain tmpfs mounts" mount -t tmpfs -o size=1m none /mnt/s5
echo y >/mnt/s5/g
check_eq "a new tmpfs file gets security.selinux" "system_u:object_r:tmpfs_t:s0" \
	"$(stack-lsm getxattr /mnt/s5/g security.selinux)"
check_eq "... and security.SMACK64" _ "$(stack-lsm getxattr /mnt/s5/g security.SMACK64)"
out=$(stack-lsm listxattr /mnt/s5/g 2>&1); rc=$?
check_eq "listxattr: size query, listing and short buffer agree" 0 "$rc"
check_eq "listxattr names both LSMs' xattrs" "security.SMACK64 security.selinux" \
	"$(echo "$out" | sort | tr '\n' ' ' | sed 's/ $//')"
umount /mnt/s5
# Both labels from the creating task, neither one a default: a task with
# Smack label Creator that set its SELinux fscreate creates a file (in one
# process: busybox echo writes the newline apart, which clears fscreate;
# exec clears it too); it must
# carry both (a module that dropped or overwrote the other's xattr would
# leave "_" or tmpfs_t behind).
mkdir -p /mnt/s6
check "tmpfs with smackfsroot=Creator mounts" mount -t tmpfs -o smackfsroot=Creator,size=1m none /mnt/s6
check "a task labelled Creator with SELinux fscreate lsmns_allowed_t creates a file" \
	$P/bin/lsmns-exec --attr /proc/self/attr/smack/current Creator -- \
	stack-lsm create-with /proc/self/attr/selinux/fscreate system_u:object_r:lsmns_allowed_t:s0 /mnt/s6/k
check_eq "the file's security.SMACK64 is its creator's label" Creator \
	"$(stack-lsm getxattr /mnt/s6/k security.SMACK64)"
check_eq "the file's security.selinux is its creator's fscreate" \
	"system_u:object_r:lsmns_allowed_t:s0" "$(stack-lsm getxattr /mnt/s6/k security.selinux)"
check "umount" umount /mnt/s6
check "tmpfs with context= and smackfsroot= together mounts" \
	mount -t tmpfs -o context=system_u:object_r:lsmns_allowed_t:s0,smackfsroot=R4,size=1m none /mnt/s4
echo z >/mnt/s4/h
check_eq "context= takes effect: SELinux labels the mount's files with it" \
	"system_u:object_r:lsmns_allowed_t:s0" "$(stack-lsm getxattr /mnt/s4/h security.selinux)"
check_eq "smackfsroot= takes effect: Smack labels the mount's root with it" R4 \
	"$(stack-lsm getxattr /mnt/s4 security.SMACK64)"
check "umount" umount /mnt/s4
tap_done
