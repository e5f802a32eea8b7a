#!/bin/sh
# Debian 12's audit tools (auditd, auditctl, ausearch, aureport 3.0.9)
# against the lsmns kernel's records.  Booted with SELinux, Smack and
# AppArmor and audit=1.
#
# auditd runs from the guest's /etc/audit/auditd.conf
# (integration/guest/audit/), logging to /var/log/audit/audit.log on tmpfs.
# While it is the kernel's audit daemon:
#   (a) crun starts the selinux and the smack example bundles through
#       lsmns-hook: the hook's assignment (op=assign opid=PID ns_id=N) and
#       the container's entry at exec (op=enter pid=PID ns_id=N), type 1316
#       (KERNEL_OTHER, the type mainline keeps for modules out of tree);
#   (b) an assignment of a file type as a process context is refused
#       (op=assign ... errno=-13 res=0);
#   (c) each container's LSM denies its demo object (the smack container is
#       also denied by its hidden SELinux): the SYSCALL record says subj=?
#       and the PATH record obj=?, each followed by the record with every
#       LSM's subject (1425) or object (1426) contexts, as in mainline.
# Then auditd stops and the log is searched: ausearch -i and aureport read
# it without an error, the records are found by the container's pid, the
# agent's pid, the hook's executable, the audit rule's key and by type
# number, and each search has a control that finds nothing.
#
# audit 3.0.9 has no name for 1425 and 1426 (mainline's since v6.18): they
# print as UNKNOWN[1425] and UNKNOWN[1426]; the LSM namespace records print
# as KERNEL_OTHER.  ausearch extracts no field from any of them (-p
# matches the pid= of the event's SYSCALL record, so the assignment is
# found by the agent's pid, the entry by the container's).  ausearch also
# cannot parse AVC records without "tclass=": it drops every event with a
# Smack or AppArmor denial or AppArmor status record (--debug: "Malformed
# event skipped, rc=9"); those reach audit.log and are checked there.
. /lsmns/lib/tap.sh
. /lsmns/lib/e2e-run.sh
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/audit-tools
LOG=/var/log/audit/audit.log
HOOK=/usr/libexec/lsmns/lsmns-hook
[ -d $E/selinux ] || { echo "Bail out! $E missing"; exit 1; }
[ -x /usr/sbin/auditd ] || { echo "Bail out! no auditd in the initramfs"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
mkdir -p $W /var/log/audit /var/run /etc/audit/plugins.d

check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo

# --- auditd, in the foreground (-n), in the background of this shell
auditd -n >$W/auditd.out 2>&1 &
auditd_pid=$!
i=0
while [ $i -lt 120 ]; do
	[ "$(auditctl -s 2>/dev/null | sed -n 's/^pid //p')" = "$auditd_pid" ] && grep -q DAEMON_START $LOG 2>/dev/null && break
	kill -0 $auditd_pid 2>/dev/null || break
	sleep 0.25
	i=$((i + 1))
done
check_eq "auditd is the kernel's audit daemon (auditctl -s)" "$auditd_pid" "$(auditctl -s 2>/dev/null | sed -n 's/^pid //p')"
check "auditd wrote DAEMON_START to $LOG" grep -q 'type=DAEMON_START' $LOG
check_eq "auditing is enabled" 1 "$(auditctl -s 2>/dev/null | sed -n 's/^enabled //p')"
check "auditctl: a backlog of 8192 records" auditctl -b 8192
# PATH records (and so 1426 records) need a syscall rule.
check "auditctl: a rule for open/openat failing with EACCES, key lsmns-denied" \
	auditctl -a always,exit -F arch=b64 -S open -S openat -F exit=-EACCES -k lsmns-denied

# --- (a) and (c): two containers through lsmns-hook
# run_bundle NAME BUNDLE DENY: runs it until the probe is done; sets pid_NAME
# and ns_NAME (the container's host pid and namespace id).
run_bundle() {
	w=$W/$1
	rm -rf $w
	mkdir -p $w/ctl
	mkfifo $w/ctl/go
	jq --arg root $E/$2/rootfs --arg w $w --arg deny "$3" '
		.root.path = $root
		| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
		| .process.env |= map(select(startswith("LSMNS_DENY=") | not))
		| .process.env += ["LSMNS_WAIT=/tmp/ctl/go", "LSMNS_DENY=" + $deny]
		| .mounts += [{"destination": "/tmp/ctl", "type": "bind", "source": ($w + "/ctl"), "options": ["rbind"]}]' \
		$E/$2/config.json >$w/config.json
	e2e_start $1 crun
	if e2e_ready $1 crun; then
		_p=$(cat $w/pid)
		_n=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' /proc/$_p/attr/lsmns)
	else
		_p="" _n=""
		tap_diag "$(cat $w/err $w/hook.err 2>/dev/null)"
	fi
	e2e_finish $1
	eval "pid_$1=\$_p ns_$1=\$_n"
}
run_bundle sel selinux "/lsmns/demo/denied-selinux"
check "selinux container: started through lsmns-hook, pid $pid_sel, namespace $ns_sel" test -n "$ns_sel"
check_contains "selinux container: the hook names the namespace" "assigned lsm namespace $ns_sel:" "$(cat $W/sel/hook.err 2>/dev/null)"
check_contains "selinux container: SELinux denies denied-selinux" "denied-selinux EACCES" "$(cat $W/sel/out)"
run_bundle sm smack "/lsmns/demo/denied-smack /lsmns/demo/denied-selinux"
check "smack container: started through lsmns-hook, pid $pid_sm, namespace $ns_sm" test -n "$ns_sm"
check_contains "smack container: Smack denies denied-smack" "denied-smack EACCES" "$(cat $W/sm/out)"
check_contains "smack container: hidden SELinux denies denied-selinux" "denied-selinux EACCES" "$(cat $W/sm/out)"

# --- (b) a refused assignment: a file type as a process context
sleep 60 &
victim=$!
out=$(sh -c "echo \$\$ >$W/agent.pid; exec /lsmns/bin/lsmns-assign pid $victim selinux:active:system_u:object_r:lsmns_allowed_t:s0 smack:hidden apparmor:hidden" 2>&1)
rc=$?
agent=$(cat $W/agent.pid)
check_eq "refused assignment: lsmns-assign (pid $agent) exits 125" 125 "$rc"
check_contains "... with EACCES" "error=EACCES" "$out"
kill $victim 2>/dev/null
wait $victim 2>/dev/null

# Everything reached the log, then auditd stops.
wait_log() { # PATTERN...: until one line of $LOG holds them all (15 s)
	_i=0
	while [ $_i -lt 60 ]; do
		_l=$(grep -F -e "$1" $LOG)
		for _p in "$@"; do _l=$(echo "$_l" | grep -F -e "$_p"); done
		[ -n "$_l" ] && return 0
		sleep 0.25
		_i=$((_i + 1))
	done
	return 1
}
check "the refused assignment reached $LOG" wait_log "op=assign pid=$agent opid=$victim " "res=0"
check "the smack container's Smack denial reached $LOG" wait_log 'lsm=SMACK' "pid=$pid_sm " 'name="denied-smack"'
check "auditd stops on SIGTERM" kill -TERM $auditd_pid
wait $auditd_pid
check_eq "... and exits 0" 0 "$?"
check "auditd wrote DAEMON_END" grep -q 'type=DAEMON_END' $LOG
[ -s $W/auditd.out ] && tap_diag "auditd said: $(cat $W/auditd.out)"
check_eq "no audit record was lost (auditctl -s: lost)" 0 "$(auditctl -s 2>/dev/null | sed -n 's/^lost //p')"
tap_diag "audit.log: $(wc -l <$LOG) records; $(grep -c 'type=KERNEL_OTHER' $LOG) of type 1316 (KERNEL_OTHER), $(grep -c 'type=UNKNOWN\[1425\]' $LOG) of 1425, $(grep -c 'type=UNKNOWN\[1426\]' $LOG) of 1426"
# Where the multi-LSM records are, event by event (an event's records
# are not always consecutive in the log): a 1425 record right after the
# event's first record with subj=?, and one per event (auditctl's events
# have two records with subj=?, CONFIG_CHANGE and SYSCALL); a 1426 record
# right after each record with obj=?.
place=$(awk '
	match($0, /msg=audit\([0-9.]*:[0-9]*\)/) {
		s = substr($0, RSTART + 10, RLENGTH - 11); sub(/.*:/, "", s)
		if ($0 ~ /^type=UNKNOWN\[1425\]/) {
			if (last[s] !~ / subj=[?]( |$)/) print "1425 not after subj=?: " s
			if (++n1425[s] > 1) print "two 1425 records: " s
		}
		if ($0 ~ /^type=UNKNOWN\[1426\]/ && last[s] !~ / obj=[?]( |$)/)
			print "1426 not after obj=?: " s
		# (auditd writes its own DAEMON_* records, subj=? included)
		if ($0 ~ / subj=[?]( |$)/ && $0 !~ /^type=DAEMON_/ && !n1425[s])
			need[s] = 1
		if ($0 ~ /^type=UNKNOWN\[1425\]/) need[s] = 0
		last[s] = $0
	}
	END { for (s in need) if (need[s]) print "subj=? without 1425: " s }' $LOG)
check_eq "each 1425 record right after its event's first subj=?, one per event; each 1426 right after an obj=?" "" "$place"
check "... there are such events" grep -q 'type=UNKNOWN\[1425\].*' $LOG
check_eq "no SYSCALL record names one LSM's context as subj=" "" "$(grep '^type=SYSCALL' $LOG | grep ' subj=' | grep -v ' subj=? ')"

# --- the tools read the whole log
# tool RESULT-NAME CMD...: run CMD, stdout in $W/RESULT-NAME.out, stderr in
# .err, exit status in $tool_rc.
tool() {
	_n=$1; shift
	"$@" >$W/$_n.out 2>$W/$_n.err
	tool_rc=$?
}
tool all ausearch -if $LOG -i
check_eq "ausearch -i over the whole log: exit 0, nothing on stderr" "0:" "$tool_rc:$(cat $W/all.err)"
for t in 1425 1426; do
	check_contains "... shows records of type $t as UNKNOWN[$t]" "type=UNKNOWN[$t] msg=audit(" "$(cat $W/all.out)"
done
check_contains "... and the LSM namespace records as KERNEL_OTHER" "type=KERNEL_OTHER msg=audit(" "$(grep -F ' : op=' $W/all.out)"
tool raw ausearch -if $LOG --raw
check_eq "ausearch --raw returns every KERNEL_OTHER record of the log" "$(grep -c 'type=KERNEL_OTHER' $LOG)" "$(grep -c 'type=KERNEL_OTHER' $W/raw.out)"
tap_diag "ausearch --raw: $(grep -c 'type=UNKNOWN\[1425\]' $W/raw.out) of the 1425 and $(grep -c 'type=UNKNOWN\[1426\]' $W/raw.out) of the 1426 records (the rest are in events with a Smack or AppArmor AVC record)"
tool dbg ausearch -if $LOG --raw --debug
malformed=$(grep 'Malformed event skipped' $W/dbg.err)
tap_diag "ausearch --debug: $(echo "$malformed" | grep -c .) events skipped as malformed; by record:"
tap_diag "$(echo "$malformed" | sed 's/ msg=audit([^)]*)//' | cut -c1-160 | sort | uniq -c | sort -rn | head -n 8)"
check_eq "... none of them for a 1425, 1426 or KERNEL_OTHER record" "" "$(echo "$malformed" | grep -e 'type=UNKNOWN\[1425\]' -e 'type=UNKNOWN\[1426\]' -e 'type=KERNEL_OTHER')"
check_contains "... the Smack denial's event is one of them (no tclass=)" 'rc=9. type=AVC' "$(echo "$malformed" | grep -F 'lsm=SMACK' | grep -F "pid=$pid_sm ")"
for r in "" --avc -p -x -e -c --summary; do
	tool rep aureport -if $LOG $r -i
	check_eq "aureport ${r:-(summary)} -i: exit 0, nothing on stderr" "0:" "$tool_rc:$(cat $W/rep.err)"
	case $r in
	"") tap_diag "$(grep -e 'Number of AVC' -e 'Number of events' -e 'Number of process IDs' $W/rep.out)" ;;
	--avc) check_contains "... lists the selinux container's denial" "container_t:s0:c1,c2 " "$(cat $W/rep.out)"
		check_contains "... and the smack container's (by hidden SELinux)" "container_t:s0:c11 " "$(cat $W/rep.out)" ;;
	-p) check_contains "... lists the selinux container's pid" " $pid_sel " "$(cat $W/rep.out)" ;;
	-x) check_contains "... lists lsmns-hook" "$HOOK" "$(cat $W/rep.out)" ;;
	# An event whose first record is one aureport has no name for.
	-e) tap_diag "aureport -e, events of unnamed types: $(grep -c '(null)' $W/rep.out); e.g.:"
		tap_diag "$(grep '(null)' $W/rep.out | head -n 3)" ;;
	# auditctl's CONFIG_CHANGE events start with the CONFIG_CHANGE
	# record, the 1425 record after it (when it came first, aureport
	# named these changes "(null)").
	-c) check_eq "... every configuration change named ($(grep -c '^[0-9]*\. ' $W/rep.out) of them)" 0 "$(grep -c '(null)' $W/rep.out)" ;;
	esac
done

# --- (a) the assignment and the entry
unused=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
tool a1 ausearch -if $LOG -m KERNEL_OTHER -x $HOOK --raw
check_eq "ausearch -m KERNEL_OTHER -x lsmns-hook: found" 0 "$tool_rc"
check_contains "... the hook's assignment of the selinux container" "op=assign pid=" "$(grep -F " opid=$pid_sel ns_id=$ns_sel " $W/a1.out)"
check_contains "... and of the smack container" "res=1" "$(grep -F " opid=$pid_sm ns_id=$ns_sm " $W/a1.out)"
check_not_contains "... not the refused one (another executable)" "opid=$victim " "$(cat $W/a1.out)"
tool a2 ausearch -if $LOG -p $pid_sel -m KERNEL_OTHER --raw
check_eq "ausearch -p <selinux container> -m KERNEL_OTHER: found" 0 "$tool_rc"
check_contains "... its entry into namespace $ns_sel at exec" "op=enter pid=$pid_sel ns_id=$ns_sel interface=selinux selinux=active smack=hidden apparmor=hidden" "$(cat $W/a2.out)"
check_not_contains "... nothing of the smack container's namespace" " ns_id=$ns_sm " "$(cat $W/a2.out)"
tool a3 ausearch -if $LOG -p $pid_sm -m KERNEL_OTHER -i
check_contains "ausearch -p <smack container> -m KERNEL_OTHER -i: its entry, interpreted" "op=enter pid=$pid_sm ns_id=$ns_sm interface=smack selinux=hidden smack=active apparmor=hidden" "$(cat $W/a3.out)"
check_contains "... res=1 read as res=yes" "res=yes" "$(grep -F "op=enter pid=$pid_sm " $W/a3.out)"
tool a4 ausearch -if $LOG -m KERNEL_OTHER --raw
check_eq "by namespace id: ausearch -m KERNEL_OTHER | grep ' ns_id=$ns_sel ': assign and enter" "op=assign op=enter" \
	"$(grep -F " ns_id=$ns_sel " $W/a4.out | sed 's/.*): \(op=[a-z]*\) .*/\1/' | tr '\n' ' ' | sed 's/ $//')"
maxns=$(sed -n 's/.* ns_id=\([0-9]*\) .*/\1/p' $W/a4.out | sort -n | tail -n 1)
check_eq "control: no KERNEL_OTHER record names namespace $((maxns + 1))" "" "$(grep -F " ns_id=$((maxns + 1)) " $W/a4.out)"
tool a5 ausearch -if $LOG -p $unused -m KERNEL_OTHER
check_eq "control: ausearch -p $unused (above pid_max) -m KERNEL_OTHER: exit 1, <no matches>" "1:<no matches>" "$tool_rc:$(cat $W/a5.err)"

# --- (b) the refusal
tool b1 ausearch -if $LOG -p $agent -m KERNEL_OTHER --raw
check_eq "ausearch -p <agent> -m KERNEL_OTHER: found" 0 "$tool_rc"
check_contains "... the refused assignment" "op=assign pid=$agent opid=$victim ns_id=0 interface=selinux selinux=active smack=hidden apparmor=hidden ctx_selinux=\"system_u:object_r:lsmns_allowed_t:s0\"" "$(cat $W/b1.out)"
check_contains "... with its errno, entry and result" "errno=-13 index=0 res=0" "$(cat $W/b1.out)"
check_contains "... in an event whose SYSCALL failed with EACCES" "success=no exit=-13" "$(grep 'type=SYSCALL' $W/b1.out)"
tool b2 ausearch -if $LOG -m KERNEL_OTHER -sv no --raw
check_contains "ausearch -m KERNEL_OTHER -sv no: the refusal" "opid=$victim " "$(cat $W/b2.out)"
check_not_contains "... not the accepted assignments" "opid=$pid_sel " "$(cat $W/b2.out)"
tool b3 ausearch -if $LOG -p $agent -m KERNEL_OTHER -sv yes
check_eq "control: ausearch -p <agent> -m KERNEL_OTHER -sv yes: exit 1, <no matches>" "1:<no matches>" "$tool_rc:$(cat $W/b3.err)"
tool b4 ausearch -if $LOG -p $victim -m KERNEL_OTHER
check_eq "control: ausearch -p <target> (opid= is not searched): exit 1, <no matches>" "1:<no matches>" "$tool_rc:$(cat $W/b4.err)"

# --- (c) the containers' denials
tool c1 ausearch -if $LOG -p $pid_sel -m AVC -i
check_eq "ausearch -p <selinux container> -m AVC -i: found" 0 "$tool_rc"
check_contains "... SELinux's denial of denied-selinux" "avc:  denied  { read } for  pid=$pid_sel comm=sh name=denied-selinux" "$(cat $W/c1.out)"
check_contains "... scontext is the container's" "scontext=system_u:system_r:container_t:s0:c1,c2 " "$(cat $W/c1.out)"
check_contains "... the event's 1425 record: every LSM's subject context" 'subj_selinux="system_u:system_r:container_t:s0:c1,c2" subj_smack=' "$(cat $W/c1.out)"
check_contains "... the event's 1426 record: the object's contexts" 'obj_selinux="system_u:object_r:lsmns_denied_selinux_t:s0"' "$(cat $W/c1.out)"
tool c2 ausearch -if $LOG -k lsmns-denied -p $pid_sel --raw
check_contains "ausearch -k lsmns-denied -p <selinux container>: the denial's PATH record" 'name="/lsmns/demo/denied-selinux"' "$(grep 'type=PATH' $W/c2.out)"
tool c3 ausearch -if $LOG -p $pid_sm -m AVC --raw
check_contains "ausearch -p <smack container> -m AVC: hidden SELinux's denial" "pid=$pid_sm comm=\"sh\" name=\"denied-selinux\"" "$(cat $W/c3.out)"
check_contains "... scontext is the container's hidden SELinux context" "scontext=system_u:system_r:container_t:s0:c11 " "$(cat $W/c3.out)"
check_contains "... its 1425 record has the container's Smack label" 'subj_smack="ContainerC"' "$(cat $W/c3.out)"
check_not_contains "... not the selinux container's denial" "pid=$pid_sel " "$(cat $W/c3.out)"
check_contains "the Smack denial is in audit.log (ausearch skips it, above)" "subject=\"ContainerC\" object=\"DeniedC\" requested=r pid=$pid_sm " "$(grep -F 'lsm=SMACK' $LOG)"
check_not_contains "... and ausearch -p <smack container> does not return it" "lsm=SMACK" "$(ausearch -if $LOG -p $pid_sm --raw 2>&1)"
tool c4 ausearch -if $LOG -pp $pid_sel -m AVC --raw
check_contains "ausearch -pp <selinux container>: the probe child's denial" "name=\"denied-selinux\"" "$(cat $W/c4.out)"
tool c5 ausearch -if $LOG -p $unused -m AVC
check_eq "control: ausearch -p $unused -m AVC: exit 1, <no matches>" "1:<no matches>" "$tool_rc:$(cat $W/c5.err)"
tap_diag "$(grep -F "pid=$pid_sel " $W/c1.out | head -n 6)"
tap_done
