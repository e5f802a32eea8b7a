#!/bin/sh
# Attacks on a namespace that releases an LSM (issue 17, "Hardening 1",
# classes 1 and 2).  Released means the LSM stops deciding what the
# namespace's tasks may do; it must not mean that they can rewrite the
# labels that LSM keeps, nor that the labels it writes while deciding
# go missing.  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# 1. A released LSM still guards its own labels: Smack's xattrs need
#    CAP_MAC_ADMIN, SELinux's relabel needs relabelfrom/relabelto (and the
#    file's owner), security.selinux is never removed.
# 2. Hooks that decide and also write state (unix_stream_connect,
#    socket_socketpair) still write it: a host server reads the client's
#    label as SO_PEERSEC, not nothing or unlabeled_t.
# Every attack has a control that does the same thing where it must work,
# so no check can pass because the action could never have worked.
. /lsmns/lib/tap.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
X=/lsmns/bin/attack-xattr
PS=/lsmns/bin/attack-peersec
UID1000="/lsmns/bin/stack-lsm as-uid 1000"
NODROP="$P/bin/lsmns-exec --drop-mac-caps --"
for f in $A $X $PS; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
grep -q 'lsmns.releasable=[^ ]*smack' /proc/cmdline && grep -q 'lsmns.releasable=[^ ]*selinux' /proc/cmdline ||
	{ echo "Bail out! boot without lsmns.releasable=selinux,smack"; exit 1; }

# AppArmor's profiles play no part here; compiling them costs TCG time.
check "load-policies selinux smack" $P/load-policies selinux smack

# Namespaces.  Smack decides on labels and capabilities only, so a root
# task keeps CAP_MAC_ADMIN/CAP_MAC_OVERRIDE out of the Smack tests
# (NODROP): with them Smack would allow everything anyway.
SM_REL="apparmor:active selinux:hidden smack:released"
SM_HID="apparmor:active selinux:hidden smack:hidden"
SE_REL="smack:active selinux:released apparmor:hidden"
sm_rel() { $A run $SM_REL -- $NODROP "$@"; }
sm_hid() { $A run $SM_HID -- $NODROP "$@"; }
se_rel() { $A run $SE_REL -- "$@"; }
get() { $X get "$1" "$2"; }
oneline() { tr '\n' ' ' | sed 's/ $//'; }

# ======================= 1. labels: Smack released =======================
D=/tmp/attack-smack
mkdir -p $D/host-dir && chmod 1777 $D
: >$D/host-file
# An object only the release lets the task read, to show the namespace
# really releases Smack (a failed release would make every EPERM below
# meaningless).
echo secret >$D/denied
$X set $D/denied security.SMACK64 AttackDeniedC >/dev/null
check_fails "host without MAC capabilities: Smack denies the AttackDeniedC file" $NODROP cat $D/denied
check_eq "released Smack: the task reads the AttackDeniedC file (release in effect)" secret \
	"$(sm_rel cat $D/denied 2>&1)"

# Controls: the host, with CAP_MAC_ADMIN, sets every Smack attribute.
check_eq "host: sets SMACK64" ok "$($X set $D/host-file security.SMACK64 AllowedC)"
check_eq "host: sets SMACK64EXEC" ok "$($X set $D/host-file security.SMACK64EXEC AllowedC)"
check_eq "host: sets SMACK64MMAP" ok "$($X set $D/host-file security.SMACK64MMAP AllowedC)"
check_eq "host: sets SMACK64TRANSMUTE on a directory" ok "$($X set $D/host-dir security.SMACK64TRANSMUTE TRUE)"
# ... and the released namespace can set and remove xattrs that are no
# LSM's (tmpfs keeps user.*), so the refusals below are Smack's.
check_eq "released Smack: sets and removes user.* on its own file" "ok ok" \
	"$(sm_rel sh -c ": >$D/own-user && $X set $D/own-user user.attack x && $X remove $D/own-user user.attack" | oneline)"

# Attacks: a root task of the released namespace, its own file on tmpfs.
check_eq "released Smack: setting SMACK64 on its own file is refused (EPERM)" EPERM \
	"$(sm_rel sh -c ": >$D/own && exec $X set $D/own security.SMACK64 AllowedC")"
check_eq "... and the file keeps the label it was created with" "_" "$(get $D/own security.SMACK64)"
check_eq "released Smack: setting SMACK64EXEC on its own file is refused (EPERM)" EPERM \
	"$(sm_rel $X set $D/own security.SMACK64EXEC AllowedC)"
check_eq "... and the file has none" ENODATA "$(get $D/own security.SMACK64EXEC)"
check_eq "released Smack: setting SMACK64MMAP on its own file is refused (EPERM)" EPERM \
	"$(sm_rel $X set $D/own security.SMACK64MMAP AllowedC)"
check_eq "... and the file has none" ENODATA "$(get $D/own security.SMACK64MMAP)"
check_eq "released Smack: setting SMACK64TRANSMUTE on its own directory is refused (EPERM)" EPERM \
	"$(sm_rel sh -c "mkdir $D/own-dir && exec $X set $D/own-dir security.SMACK64TRANSMUTE TRUE")"
check_not_contains "... and the directory does not transmute" TRUE "$(get $D/own-dir security.SMACK64TRANSMUTE)"
check_eq "released Smack: removing SMACK64 is refused (EPERM)" EPERM \
	"$(sm_rel $X remove $D/host-file security.SMACK64)"
check_eq "released Smack: removing SMACK64EXEC is refused (EPERM)" EPERM \
	"$(sm_rel $X remove $D/host-file security.SMACK64EXEC)"
check_eq "... and the host still sees it" AllowedC "$(get $D/host-file security.SMACK64EXEC)"
check_eq "released Smack: removing SMACK64MMAP is refused (EPERM)" EPERM \
	"$(sm_rel $X remove $D/host-file security.SMACK64MMAP)"
check_eq "... and the host still sees it" AllowedC "$(get $D/host-file security.SMACK64MMAP)"
check_eq "released Smack: removing SMACK64TRANSMUTE is refused (EPERM)" EPERM \
	"$(sm_rel $X remove $D/host-dir security.SMACK64TRANSMUTE)"
check_eq "... and the directory still transmutes" TRUE "$(get $D/host-dir security.SMACK64TRANSMUTE)"
check_eq "released Smack, uid 1000: setting SMACK64 on its own file is refused (EPERM)" EPERM \
	"$(sm_rel $UID1000 sh -c ": >$D/own-1000 && exec $X set $D/own-1000 security.SMACK64 AllowedC")"
# The same refusal where Smack is hidden, for comparison.
check_eq "hidden Smack: setting SMACK64 on its own file is refused (EPERM)" EPERM \
	"$(sm_hid sh -c ": >$D/own-hidden && exec $X set $D/own-hidden security.SMACK64 AllowedC")"

# Control: the host, with CAP_MAC_ADMIN, removes every Smack attribute
# (from objects of its own: the attacks above may have removed theirs).
mkdir -p $D/ctl-dir && : >$D/ctl-file
host_set_remove() {
	for a in SMACK64 SMACK64EXEC SMACK64MMAP; do
		$X set $D/ctl-file security.$a AllowedC && $X remove $D/ctl-file security.$a
	done
	$X set $D/ctl-dir security.SMACK64TRANSMUTE TRUE && $X remove $D/ctl-dir security.SMACK64TRANSMUTE
}
check_eq "host: sets and removes SMACK64, SMACK64EXEC, SMACK64MMAP and SMACK64TRANSMUTE" \
	"ok ok ok ok ok ok ok ok" "$(host_set_remove | oneline)"
check_eq "... and the file has the filesystem's default label again" "_" "$(get $D/ctl-file security.SMACK64)"

# ====================== 1. labels: SELinux released ======================
E=/tmp/attack-selinux
mkdir -p $E && chmod 1777 $E
ALLOWED=system_u:object_r:lsmns_allowed_t:s0
TMPFS=system_u:object_r:tmpfs_t:s0
# lsmns_norelabel_t (policies/selinux/lsmns.cil): no domain may relabel
# anything to it, the host's unconfined_t included.
NORELABEL=system_u:object_r:lsmns_norelabel_t:s0
: >$E/root-file
echo secret >$E/denied
$X set $E/denied security.selinux system_u:object_r:lsmns_host_denied_t:s0 >/dev/null
check_fails "host: SELinux denies reading an lsmns_host_denied_t file" cat $E/denied
check_eq "released SELinux: the task reads it (release in effect)" secret "$(se_rel cat $E/denied 2>&1)"

# Controls: what the policy allows and refuses, seen from the host.
check_eq "host: relabels a file to lsmns_allowed_t" ok "$($X set $E/root-file security.selinux $ALLOWED)"
check_eq "host: relabelling to lsmns_norelabel_t is refused (EACCES: a known type, no relabelto)" EACCES \
	"$($X set $E/root-file security.selinux $NORELABEL)"
check_eq "host: removing security.selinux is refused (EACCES)" EACCES "$($X remove $E/root-file security.selinux)"
check_eq "host, uid 1000: relabelling root's file is refused (EPERM: not the owner)" EPERM \
	"$($UID1000 $X set $E/root-file security.selinux $TMPFS)"
check_eq "released SELinux: relabels its own file to lsmns_allowed_t" ok \
	"$(se_rel sh -c ": >$E/own && exec $X set $E/own security.selinux $ALLOWED")"
check_eq "... and the host sees the new label" $ALLOWED "$(get $E/own security.selinux)"
check_eq "released SELinux, uid 1000: relabels its own file to lsmns_allowed_t" ok \
	"$(se_rel $UID1000 sh -c ": >$E/own-1000 && exec $X set $E/own-1000 security.selinux $ALLOWED")"
check_eq "released SELinux: sets and removes user.* on its own file" "ok ok" \
	"$(se_rel sh -c "$X set $E/own user.attack x && $X remove $E/own user.attack" | oneline)"

# Attacks.
check_eq "released SELinux: relabelling its own file to lsmns_norelabel_t is refused (EACCES)" EACCES \
	"$(se_rel $X set $E/own security.selinux $NORELABEL)"
check_eq "... and the file keeps its label" $ALLOWED "$(get $E/own security.selinux)"
check_eq "released SELinux: removing security.selinux is refused (EACCES)" EACCES \
	"$(se_rel $X remove $E/own security.selinux)"
check_eq "released SELinux, uid 1000: relabelling root's file is refused (EPERM)" EPERM \
	"$(se_rel $UID1000 $X set $E/root-file security.selinux $TMPFS)"
check_eq "... and the file keeps its label" $ALLOWED "$(get $E/root-file security.selinux)"
check_eq "released SELinux, uid 1000: relabelling its own file to lsmns_norelabel_t is refused (EACCES)" EACCES \
	"$(se_rel $UID1000 $X set $E/own-1000 security.selinux $NORELABEL)"

# ========================= 2. peer labels: Smack =========================
# The server is a host task; the client runs under its own Smack label
# (set before lsmns-assign, so released Smack keeps it: a released LSM
# moves no one).  PeerC may talk to the host by rule, PeerD by nothing.
# attack-peersec runs the client as its child and prints the client's
# line, then its own.
S=/tmp/attack.sock
check "host: rules PeerC<->_ w" sh -c \
	"echo 'PeerC _ w' | $P/bin/lsmns-write /sys/fs/smackfs/load2 && echo '_ PeerC w' | $P/bin/lsmns-write /sys/fs/smackfs/load2"
# sm_peer MODE LABEL: a client labelled LABEL in a namespace with
# smack:MODE connects to a host server reading Smack's SO_PEERSEC.
sm_peer() {
	$PS serve $S smack -- $P/bin/lsmns-exec --attr /proc/self/attr/smack/current "$2" -- \
		$A run apparmor:active selinux:hidden "smack:$1" -- $NODROP $PS connect $S 2>&1 | oneline
}
# sm_pair MODE LABEL: the same client makes a socketpair and hands both
# ends to the host, which reads Smack's SO_PEERSEC of each.  (PeerC:
# Smack lets a task receive a socket only if the two labels may write to
# each other, CAP_MAC_OVERRIDE or not.)
sm_pair() {
	$PS pair smack -- $P/bin/lsmns-exec --attr /proc/self/attr/smack/current "$2" -- \
		$A run apparmor:active selinux:hidden "smack:$1" -- $NODROP $PS send-pair 3 2>&1 | oneline
}
check_eq "host client PeerC: the server reads peer PeerC (control)" "connect=ok peer=PeerC" \
	"$($PS serve $S smack -- $P/bin/lsmns-exec --attr /proc/self/attr/smack/current PeerC --drop-mac-caps -- \
		$PS connect $S 2>&1 | oneline)"
check_eq "hidden Smack, client PeerC: the server reads peer PeerC (control)" "connect=ok peer=PeerC" \
	"$(sm_peer hidden PeerC)"
check_eq "hidden Smack, client PeerD: Smack refuses the connection (control)" "connect=EACCES accept=none" \
	"$(sm_peer hidden PeerD)"
check_eq "released Smack, client PeerC: the server reads peer PeerC" "connect=ok peer=PeerC" \
	"$(sm_peer released PeerC)"
# Smack's unix_stream_connect writes the peer labels while it checks, so
# it runs for a released Smack too (LSM_HOOK_INIT_WRITES_STATE,
# security/lsm_ns_hooks.c), but skips its check there: PeerD, which the
# hidden case above refuses, connects, and still carries its label.
check_eq "released Smack, client PeerD: not refused (released), and the server reads peer PeerD" \
	"connect=ok peer=PeerD" "$(sm_peer released PeerD)"
check_eq "hidden Smack: a socketpair made by PeerC has peer PeerC on both ends (control)" \
	"pair0=PeerC pair1=PeerC" "$(sm_pair hidden PeerC)"
check_eq "released Smack: a socketpair made by PeerC has peer PeerC on both ends" \
	"pair0=PeerC pair1=PeerC" "$(sm_pair released PeerC)"

# ======================== 2. peer labels: SELinux ========================
# SELinux releases only an unconfined_t task; its level (s0:c5) tells its
# context from the server's own (s0-s0:c0.c1023) and from unlabeled_t.
C5=system_u:system_r:unconfined_t:s0:c5
se_peer() {
	$PS serve $S selinux -- $P/bin/lsmns-exec --attr /proc/self/attr/exec $C5 -- \
		$A run smack:active "selinux:$1" apparmor:hidden -- $PS connect $S 2>&1 | oneline
}
se_pair() {
	$PS pair selinux -- $P/bin/lsmns-exec --attr /proc/self/attr/exec $C5 -- \
		$A run smack:active "selinux:$1" apparmor:hidden -- $PS send-pair 3 2>&1 | oneline
}
check_eq "host client at s0:c5: the server reads peer $C5 (control)" "connect=ok peer=$C5" \
	"$($PS serve $S selinux -- $P/bin/lsmns-exec --attr /proc/self/attr/exec $C5 -- $PS connect $S 2>&1 | oneline)"
check_eq "hidden SELinux, client at s0:c5: the server reads peer $C5 (control)" "connect=ok peer=$C5" \
	"$(se_peer hidden)"
check_eq "released SELinux, client at s0:c5: the server reads peer $C5" "connect=ok peer=$C5" \
	"$(se_peer released)"
check_eq "hidden SELinux: a socketpair made at s0:c5 has peer $C5 on both ends (control)" \
	"pair0=$C5 pair1=$C5" "$(se_pair hidden)"
check_eq "released SELinux: a socketpair made at s0:c5 has peer $C5 on both ends" \
	"pair0=$C5 pair1=$C5" "$(se_pair released)"
tap_done
