#!/bin/sh
# The lsmns AppArmor profile (policies/apparmor) in the guest: apparmor_parser
# compiles and loads it against the guest kernel's features; a task under
# lsmns-demo-apparmor is denied /lsmns/demo/denied-apparmor but reads the
# control objects; the host (unconfined) reads all of them; the confined task
# cannot remove or leave its profile.  Works whichever other LSMs are active.
# Needs /lsmns/policies (make -C policies) in the initramfs.
. /lsmns/lib/tap.sh
P=/lsmns/policies
D=/lsmns/demo
prof=lsmns-demo-apparmor
aafs=/sys/kernel/security/apparmor
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing (make -C policies, initramfs --dir)"; exit 1; }

exec_attr=/proc/self/attr/apparmor/exec
cur_attr=/proc/self/attr/apparmor/current
[ -e $exec_attr ] || exec_attr=/proc/self/attr/exec
[ -e $cur_attr ] || cur_attr=/proc/self/attr/current

# in_container CMD...: run CMD under the profile without the MAC
# capabilities, as runc does (change_onexec + exec).
in_container() {
	$P/bin/lsmns-exec --attr $exec_attr "exec $prof" --drop-mac-caps -- "$@"
}



# Every profile load is an audit record on the console; the denial this
# test looks for must not be lost to the printk rate limit behind them.
echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies apparmor compiles and loads the profile" $P/load-policies apparmor
# With several LSMs (stacking kernel) the others' policies are needed too,
# e.g. Smack's "_ DeniedC rx" for a host-labelled task; on a stock kernel
# this reloads only the one active LSM.
check "load-policies (every active LSM) succeeds" $P/load-policies
check_contains "the profile is loaded in enforce mode" "$prof (enforce)" "$(cat $aafs/profiles)"
check_eq "the host is unconfined" "unconfined" "$(cat $cur_attr | tr -d '\0')"
check "setup-demo creates the demo objects" $P/setup-demo $D

check_eq "a task enters the profile through attr/apparmor/exec" \
	"$prof (enforce)" "$(in_container cat $cur_attr | tr -d '\0')"
check_eq "container reads the control object (allowed)" "lsmns-demo allowed" "$(in_container cat $D/allowed 2>&1)"
check_fails "container is denied /lsmns/demo/denied-apparmor" in_container cat $D/denied-apparmor
check_contains "the denial is EACCES" "Permission denied" "$(in_container cat $D/denied-apparmor 2>&1)"
check_contains "the denial is audited by AppArmor" "profile=\"$prof\"" \
	"$(audit_line 'apparmor="DENIED"' 'name="/lsmns/demo/denied-apparmor"')"
check "container reads the other LSMs' objects (denied-selinux, denied-smack)" \
	in_container cat $D/denied-selinux $D/denied-smack
check_fails "container is denied a file its profile does not list" in_container cat $P/smack/lsmns.rules

# Signals: the profile allows them only among lsmns-demo-apparmor tasks.
$P/bin/lsmns-exec --attr $exec_attr "exec $prof" --drop-mac-caps -- sleep 60 &
own=$!
sleep 60 &
host=$!
sleep 1
check "container may signal a task of its profile" in_container kill -CONT $own
check_fails "container may not signal a host (unconfined) task" in_container kill -CONT $host
check "host may signal both" kill -CONT $own $host
kill $own $host 2>/dev/null
wait $own $host 2>/dev/null

check "host reads the control object" cat $D/allowed
check "host reads denied-apparmor" cat $D/denied-apparmor
check "host without MAC capabilities reads denied-apparmor" \
	$P/bin/lsmns-exec --drop-mac-caps -- cat $D/denied-apparmor

check_fails "container cannot remove its profile" in_container sh -c "printf %s $prof >$aafs/.remove"
check_contains "the profile is still loaded" "$prof (enforce)" "$(cat $aafs/profiles)"
check_fails "container cannot change_onexec to unconfined" \
	in_container $P/bin/lsmns-exec --attr $exec_attr "exec unconfined" -- true
check_fails "container cannot load a profile" \
	in_container $P/apparmor/lib/ld.so --library-path $P/apparmor/lib $P/apparmor/apparmor_parser -K -r $P/apparmor/profiles/$prof
check_fails "container still denied denied-apparmor afterwards" in_container cat $D/denied-apparmor
# A policy the kernel (or parser) refuses: one line naming the LSM and the
# error, exit 1, and the policy already loaded stays in force.
bad=/tmp/lsmns-bad-policies
rm -rf $bad && cp -a $P $bad
printf 'profile lsmns-demo-broken {\n  /tmp/** rw\n}\n' >$bad/apparmor/profiles/lsmns-demo-broken
out=$($bad/load-policies apparmor 2>&1); rc=$?
check_eq "a profile with a syntax error: load-policies exits 1" 1 "$rc"
check_eq "a profile with a syntax error: one error line" 1 "$(echo "$out" | wc -l)"
check_contains "a profile with a syntax error: the line names AppArmor and the profile" \
	"load-policies: apparmor: loading profile lsmns-demo-broken: " "$out"
check_not_contains "the broken profile is not loaded" "lsmns-demo-broken" "$(cat $aafs/profiles)"
check_fails "container still denied denied-apparmor after the refused load" in_container cat $D/denied-apparmor

check_loader_refuses_inactive $P/load-policies
tap_done
