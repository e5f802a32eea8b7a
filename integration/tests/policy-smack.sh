#!/bin/sh
# The lsmns Smack rules (policies/smack) in the guest: they load through
# smackfs load2; a task labelled ContainerC without the MAC capabilities is
# denied the DeniedC object but reads AllowedC; the host (_) reads both, by
# rule and not only by CAP_MAC_OVERRIDE; ContainerC cannot relabel itself or
# add rules.  Works whichever other LSMs are active.
# Needs /lsmns/policies (make -C policies) in the initramfs.
. /lsmns/lib/tap.sh
P=/lsmns/policies
D=/lsmns/demo
smackfs=/sys/fs/smackfs
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing (make -C policies, initramfs --dir)"; exit 1; }

cur_attr=/proc/self/attr/smack/current
[ -e $cur_attr ] || cur_attr=/proc/self/attr/current

# in_container CMD...: label the task ContainerC (Smack's attr/current takes
# effect at once, needs CAP_MAC_ADMIN), drop the MAC capabilities (root
# would otherwise override Smack), exec CMD.
in_container() {
	$P/bin/lsmns-exec --attr $cur_attr ContainerC --drop-mac-caps -- "$@"
}

# access2 LINE: the kernel's own verdict (1 or 0) for "subject object access".
access2() {
	exec 3<>$smackfs/access2 && printf '%s' "$1" >&3 && read -r ans <&3
	exec 3>&-
	echo "$ans"
}



check "load-policies smack loads the rules" $P/load-policies smack
# With several LSMs (stacking kernel) the others' policies are needed too,
# e.g. Smack's "_ DeniedC rx" for a host-labelled task; on a stock kernel
# this reloads only the one active LSM.
check "load-policies (every active LSM) succeeds" $P/load-policies
load2=$(cat $smackfs/load2)
check_contains "rule 'ContainerC AllowedC r' is in load2" "ContainerC AllowedC r" "$load2"
# "ContainerC DeniedC -" sets no access; load2 does not list such rules.
check_not_contains "no rule grants ContainerC anything on DeniedC" "ContainerC DeniedC" "$load2"
check_contains "rule '_ DeniedC rx' is in load2" "_ DeniedC rx" "$load2"
check_eq "the kernel says ContainerC may read AllowedC" 1 "$(access2 'ContainerC AllowedC r')"
check_eq "the kernel says ContainerC may not read DeniedC" 0 "$(access2 'ContainerC DeniedC r')"
check_eq "the host is labelled _" "_" "$(cat $cur_attr | tr -d '\0')"
check "setup-demo creates and labels the demo objects" $P/setup-demo $D
check_eq "denied-smack is labelled DeniedC" "DeniedC" "$($P/bin/lsmns-label -g $D/denied-smack security.SMACK64)"
check_eq "allowed is labelled AllowedC" "AllowedC" "$($P/bin/lsmns-label -g $D/allowed security.SMACK64)"

check_eq "a task is labelled ContainerC" "ContainerC" "$(in_container cat $cur_attr | tr -d '\0')"
check_eq "container reads the control object (AllowedC)" "lsmns-demo allowed" "$(in_container cat $D/allowed 2>&1)"
check_fails "container is denied the DeniedC object (denied-smack)" in_container cat $D/denied-smack
check_contains "the denial is EACCES" "Permission denied" "$(in_container cat $D/denied-smack 2>&1)"
check_contains "the denial is audited by Smack" 'action=denied subject="ContainerC" object="DeniedC" requested=r' \
	"$(audit_line 'subject="ContainerC"' 'object="DeniedC"')"
check "container reads the other LSMs' objects (denied-selinux, denied-apparmor)" \
	in_container cat $D/denied-selinux $D/denied-apparmor
check "a ContainerC task that kept CAP_MAC_OVERRIDE reads it (why containers drop it)" \
	$P/bin/lsmns-exec --attr $cur_attr ContainerC -- cat $D/denied-smack

# Signals need write access to the target's label: ContainerC may signal
# ContainerC, not the host (_).
$P/bin/lsmns-exec --attr $cur_attr ContainerC --drop-mac-caps -- sleep 60 &
own=$!
sleep 60 &
host=$!
sleep 1
check "container may signal a ContainerC task" in_container kill -CONT $own
check_fails "container may not signal a host task" in_container kill -CONT $host
check "host may signal both" kill -CONT $own $host
kill $own $host 2>/dev/null
wait $own $host 2>/dev/null

check "host reads the control object" cat $D/allowed
check "host reads denied-smack" cat $D/denied-smack
check "host without MAC capabilities reads denied-smack (by rule)" \
	$P/bin/lsmns-exec --drop-mac-caps -- cat $D/denied-smack

check_fails "container cannot relabel itself to _" in_container $P/bin/lsmns-exec --attr $cur_attr _ -- true
check_fails "container cannot add a rule" in_container sh -c "printf 'ContainerC DeniedC r' >$smackfs/load2"
check_fails "container cannot relabel denied-smack" in_container $P/bin/lsmns-label $D/denied-smack security.SMACK64 AllowedC
check_fails "container still denied denied-smack afterwards" in_container cat $D/denied-smack

# The "-" rule revokes: a grant the host adds by hand is undone by reloading.
printf 'ContainerC DeniedC r' | $P/bin/lsmns-write $smackfs/load2
check_eq "a hand-added grant 'ContainerC DeniedC r' takes effect" 1 "$(access2 'ContainerC DeniedC r')"
check "load-policies smack reloads the rules" $P/load-policies smack
check_eq "reloading revokes it ('ContainerC DeniedC -')" 0 "$(access2 'ContainerC DeniedC r')"
check_fails "container is denied denied-smack again" in_container cat $D/denied-smack
# A policy the kernel (or parser) refuses: one line naming the LSM and the
# error, exit 1, and the policy already loaded stays in force.
bad=/tmp/lsmns-bad-policies
rm -rf $bad && cp -a $P $bad
long=$(printf '%0300d' 0 | tr 0 L)
printf 'ContainerC %s r\n' "$long" >$bad/smack/lsmns.rules
out=$($bad/load-policies smack 2>&1); rc=$?
check_eq "a rule with a 300-character label: load-policies exits 1" 1 "$rc"
check_eq "a rule with a 300-character label: one error line" 1 "$(echo "$out" | wc -l)"
check_contains "a rule with a 300-character label: the line names Smack, the rule and the kernel's error" \
	"load-policies: smack: rule 'ContainerC $long r' (lsmns.rules line 1): Invalid argument" "$out"
check_fails "container still denied denied-smack after the refused load" in_container cat $D/denied-smack

check_loader_refuses_inactive $P/load-policies
tap_done
