#!/bin/sh
# Attack on "global state is for the init namespace only, through every
# channel ... checked when the write happens, not only when the file is
# opened" (../shared/design.md section 7).  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,smack,apparmor
#
# The host opens a global policy file and a task inside an LSM namespace
# (where that LSM is hidden: opening the file itself is EACCES there)
# writes through the descriptor:
#   inherit   the descriptor is open across the namespace's first execve
#             (a runtime's leaked descriptor, as in runc's 2024 fd leak)
#   scm       sent over a unix socket (SCM_RIGHTS)
#   getfd     taken from a host task with pidfd_getfd(2)
#   uring     an io_uring made on the host with a registered personality
#             (the host's credentials), inherited like a leaked
#             descriptor; the task opens and writes the file through it
# And lsmns/assign itself through the ring.
# Files: selinuxfs enforce (the host goes permissive), a boolean, the AVC
# cache threshold, load (replaces the host's policy); smackfs load2 (a
# host-wide rule), ambient, onlycap, logging; AppArmor's .replace (a host
# profile goes to complain mode), .load, .remove; an AppArmor module
# parameter (checked at write already).  Each attempt's effect is read on
# the host and undone.
# Controls: the host writes each file through its own descriptor; the
# namespace cannot open any of them itself; a ring of the task's own
# (no personality) cannot open them either.  And a task without any
# capability (uid 1000) makes the host permissive through a descriptor.
. /lsmns/lib/tap.sh
. /lsmns/lib/h3.sh
P=/lsmns/policies
A=/lsmns/bin/lsmns-assign
W=$P/bin/lsmns-write
FP=/lsmns/bin/attack-fdpass
UID1000="/lsmns/bin/stack-lsm as-uid 1000"
for f in $A $W $FP $P/selinux-test/noconsent.33; do [ -e $f ] || { echo "Bail out! $f missing"; exit 1; }; done
check "load-policies (all)" $P/load-policies
SFS=/sys/fs/selinux
SMK=/sys/fs/smackfs
AA=/sys/kernel/security/apparmor
D=/tmp/attack-policy-fd
mkdir -p $D
chmod 755 $D

# The host's AppArmor victim profile, its complain-mode replacement and a
# planted profile, compiled here (binary form, what .replace takes).
cat >$D/victim <<'EOF'
profile h3-victim {
  /tmp/** r,
}
EOF
cat >$D/victim-complain <<'EOF'
profile h3-victim flags=(complain) {
  /tmp/** r,
}
EOF
cat >$D/planted <<'EOF'
profile h3-planted flags=(complain) {
}
EOF
check "AppArmor: loads h3-victim (enforce)" aa_load $D/victim
check "AppArmor: compiles h3-victim in complain mode" aa_binary $D/victim-complain $D/victim-complain.bin
check "AppArmor: compiles h3-planted" aa_binary $D/planted $D/planted.bin
check "Smack: label H3Fd exists" sh -c "echo 'H3Fd H3Fd rwx' | $W $SMK/load2"

# ---- the files: NAME FILE LSM KIND DATA ----
# KIND write: DATA is written as it is; copy: DATA is a file whose whole
# content is written in one write(2).
BOOL=lsmns_container_setinterface
log_other=$( [ "$(cat $SMK/logging)" = 2 ] && echo 1 || echo 2 )
mod_other=$( [ "$(cat /sys/module/apparmor/parameters/mode)" = complain ] && echo enforce || echo complain )
AASYS=/proc/sys/kernel/unprivileged_userns_apparmor_policy
sys_other=$( [ "$(cat $AASYS)" = 1 ] && echo 0 || echo 1 )
cat >$D/files <<EOF
se-enforce $SFS/enforce selinux write 0
se-boolean $SFS/booleans/$BOOL selinux write 0
se-threshold $SFS/avc/cache_threshold selinux write 777
se-load $SFS/load selinux copy $P/selinux-test/noconsent.33
sm-load2 $SMK/load2 smack write H3Fd_ _ rwx
sm-ambient $SMK/ambient smack write H3Fd
sm-onlycap $SMK/onlycap smack write _ H3Fd
sm-logging $SMK/logging smack write $log_other
aa-replace $AA/.replace apparmor copy $D/victim-complain.bin
aa-load $AA/.load apparmor copy $D/planted.bin
aa-remove $AA/.remove apparmor write h3-victim
aa-param /sys/module/apparmor/parameters/mode apparmor write $mod_other
aa-sysctl $AASYS apparmor write $sys_other
EOF
# state NAME: what the host sees of the file's effect.
state() {
	case $1 in
	se-enforce) cat $SFS/enforce ;;
	se-boolean) cat $SFS/booleans/$BOOL ;;
	se-threshold) cat $SFS/avc/cache_threshold ;;
	se-load) [ -e $SFS/class/lsmns ] && echo "lsmns class" || echo "no lsmns class" ;;
	sm-load2) grep -c '^H3Fd_ _ ' $SMK/load2 ;;
	sm-ambient) cat $SMK/ambient ;;
	sm-onlycap) cat $SMK/onlycap ;;
	sm-logging) cat $SMK/logging ;;
	aa-replace|aa-remove) aa_mode h3-victim ;;
	aa-load) grep -c '^h3-planted ' $AA/profiles ;;
	aa-param) cat /sys/module/apparmor/parameters/mode ;;
	aa-sysctl) cat $AASYS ;;
	esac
}
# restore NAME: undo the effect (the host may).
restore() {
	case $1 in
	se-enforce) printf 1 | $W $SFS/enforce ;;
	se-boolean) printf 1 | $W $SFS/booleans/$BOOL ;;
	se-threshold) printf %s "$(sed -n 's/^se-threshold //p' $D/orig)" | $W $SFS/avc/cache_threshold ;;
	se-load) $W $SFS/load <$P/selinux/policy.33 && printf 1 | $W $SFS/enforce ;;
	sm-load2) printf 'H3Fd_ _ -' | $W $SMK/load2 ;;
	sm-ambient) printf _ | $W $SMK/ambient ;;
	sm-onlycap) printf - | $W $SMK/onlycap ;;
	sm-logging) printf %s "$(sed -n 's/^sm-logging //p' $D/orig)" | $W $SMK/logging ;;
	aa-replace|aa-remove) aa_load $D/victim ;;
	aa-load) printf h3-planted | $W $AA/.remove ;;
	aa-param) printf %s "$(sed -n 's/^aa-param //p' $D/orig)" | $W /sys/module/apparmor/parameters/mode ;;
	aa-sysctl) printf %s "$(sed -n 's/^aa-sysctl //p' $D/orig)" | $W $AASYS ;;
	esac >/dev/null 2>&1
}
# entries LSM: a namespace that hides LSM (the other two active, SELinux
# and Smack; AppArmor hidden when it is not the one).
entries() {
	case $1 in
	selinux) echo "selinux:hidden smack:active apparmor:hidden" ;;
	smack) echo "selinux:active smack:hidden apparmor:hidden" ;;
	apparmor) echo "selinux:active smack:hidden apparmor:hidden" ;;
	esac
}
: >$D/orig
while read -r name file lsm kind data <&9; do
	echo "$name $(state "$name")" >>$D/orig
done 9<$D/files
orig() { sed -n "s/^$1 //p" $D/orig; }

# ------------------------------- controls -------------------------------
# The write itself: write=ok, or the error; KIND as in the file list.
writer() { if [ "$1" = write ]; then echo "$FP write 3"; else echo "$FP copy 3"; fi; }
while read -r name file lsm kind data <&9; do
	out=$($(writer $kind) "$data" 3<>"$file" 2>&1)
	new=$(state "$name")
	check_eq "host: writes $name through its own descriptor (control)" "write=ok" "$out"
	check_eq "... and its effect shows ($(orig "$name") -> $new)" yes \
		"$([ "$new" != "$(orig "$name")" ] && echo yes)"
	restore "$name"
	check_eq "... and the host undoes it" "$(orig "$name")" "$(state "$name")"
	out=$($A run $(entries "$lsm") -- sh -c "exec 3<>$file && exec $(writer $kind) '$data'" 2>&1 </dev/null)
	new=$(state "$name")
	check_not_contains "namespace hiding $lsm: opening and writing $name itself is refused (control)" \
		"write=ok" "$out"
	check_eq "... and the host's state is unchanged" "$(orig "$name")" "$new"
	[ "$new" = "$(orig "$name")" ] || restore "$name"
done 9<$D/files

# ------------------------------- attacks -------------------------------
S=$D/sock
# attempt CHANNEL NAME FILE LSM KIND DATA [PREFIX...]: one write from
# inside through CHANNEL; prints the inside's result line.
attempt() {
	_ch=$1 _n=$2 _f=$3 _l=$4 _k=$5 _d=$6
	shift 6
	_e=$(entries "$_l")
	case $_ch in
	inherit)
		if [ "$_k" = write ]; then
			$A run $_e -- "$@" $FP write 3 "$_d" 3<>"$_f"
		else
			$A run $_e -- "$@" $FP copy 3 "$_d" 3<>"$_f"
		fi ;;
	scm)
		$FP serve $S "$_f" &
		_s=$!
		if [ "$_k" = write ]; then
			$A run $_e -- "$@" $FP recv-write $S "$_d"
		else
			$A run $_e -- "$@" $FP recv-copy $S "$_d"
		fi
		kill $_s 2>/dev/null; wait $_s 2>/dev/null ;;
	getfd)
		rm -f $D/hold
		$FP hold "$_f" >$D/hold &
		_h=$!
		wait_file $D/hold; sleep 0.2
		if [ "$_k" = write ]; then
			$A run $_e -- "$@" $FP getfd-write $_h 3 "$_d"
		else
			$A run $_e -- "$@" $FP getfd-copy $_h 3 "$_d"
		fi
		kill $_h; wait $_h 2>/dev/null ;;
	uring)
		$FP uring-exec $A run $_e -- "$@" $FP uring-write "$_f" "$_d" ;;
	esac 2>&1
}
for ch in inherit scm getfd uring; do
	while read -r name file lsm kind data <&9; do
		[ "$ch" = uring ] && [ "$kind" = copy ] && continue
		out=$(attempt $ch "$name" "$file" "$lsm" "$kind" "$data" </dev/null)
		new=$(state "$name")
		check_not_contains "$ch: a namespace hiding $lsm writes $name through a host descriptor: refused" \
			"write=ok" "$out"
		check_eq "... and the host's state is unchanged" "$(orig "$name")" "$new"
		[ "$new" = "$(orig "$name")" ] || { tap_diag "$ch $name: $out"; restore "$name"; }
	done 9<$D/files
done

# No capability at all: uid 1000 in a namespace hiding SELinux (the
# descriptor is handed over; pidfd_getfd would need ptrace rights on root).
for ch in inherit scm; do
	out=$(attempt $ch se-enforce $SFS/enforce selinux write 0 $UID1000 </dev/null)
	check_not_contains "$ch, uid 1000 without capabilities: writing enforce through a host descriptor is refused" \
		"write=ok" "$out"
	check_eq "... and the host still enforces" 1 "$(cat $SFS/enforce)"
	[ "$(cat $SFS/enforce)" = 1 ] || restore se-enforce
done

# A ring of the task's own (no personality) cannot open what the task
# itself cannot (control for the uring channel).
out=$($A run $(entries selinux) -- $FP uring-own $SFS/enforce 0 2>&1)
check_not_contains "a namespace's own io_uring cannot open selinuxfs enforce (control)" "open=ok" "$out"
check_eq "... and the host still enforces" 1 "$(cat $SFS/enforce)"

# The assignment file through the host's ring: a task of a namespace
# assigns a host task (a daemon it can see) to a namespace that releases
# SELinux, with the host's consent.  Control: lsmns-assign itself from
# inside is EPERM.
sleep 60 >/dev/null 2>&1 &
victim=$!
out=$($A run $(entries smack) -- $A pid $victim selinux:released smack:active apparmor:hidden 2>&1)
check_contains "namespace: lsmns-assign of a host task is refused (control)" "Operation not permitted" "$out"
out=$($FP uring-exec $A run $(entries smack) -- $FP uring-assign $victim selinux:released smack:active apparmor:hidden 2>&1)
tap_diag "uring assign: $out"
check_not_contains "uring: a namespace assigns a host task through the host's ring: refused" "result=ok" "$out"
kill $victim 2>/dev/null

# Reading what only the host may read, through the host's ring: the
# namespaces alive with their contexts, their count.  Controls: the host
# reads both through its own ring; the namespace cannot read namespaces
# itself (count: see attack-visible.sh).
check_not_contains "namespace: reading lsmns/namespaces itself is refused (control)" "read-ok" \
	"$($A run $(entries smack) -- sh -c "cat /sys/kernel/security/lsmns/namespaces >/dev/null && echo read-ok" 2>&1)"
for f in namespaces count; do
	check_contains "host: reads lsmns/$f through its own ring (control)" "open=ok read=" \
		"$($FP uring-exec $FP uring-read /sys/kernel/security/lsmns/$f 2>&1)"
	out=$($FP uring-exec $A run $(entries smack) -- $FP uring-read /sys/kernel/security/lsmns/$f 2>&1)
	check_not_contains "uring: a namespace reads lsmns/$f through the host's ring: refused" "open=ok read=" "$out"
done
tap_done
