#!/bin/sh
# A container whose start meets an allocation failure in the kernel's LSM
# namespace code fails cleanly: crun exits non-zero, lsmns-hook says why in
# one line, nothing is left running and no namespace stays behind.
# Debug flavour only (CONFIG_FAULT_INJECTION, stack-trace filter).
#
# failslab fails the first slab allocation whose call stack passes through
# one function (require-start/require-end, from /proc/kallsyms):
#   hook  lsmns_assign_write, the hook's write of the request, and only
#         for the hook's own task (task-filter: its wrapper sets
#         /proc/self/make-it-fail before it execs lsmns-hook);
#   exec  lsm_ns_bprm_apply, the container's execve that enters the
#         assigned namespace (no other task enters one meanwhile).
# Each is preceded by a control: the same container, nothing injected,
# runs in its namespace; and each checks that the fault was injected
# (failslab's times counter used up), so the failure is the one we made.
# Booted with lsm=capability,selinux,smack,apparmor
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
E=/lsmns/examples
DBG=/sys/kernel/debug
FS=$DBG/failslab
W=/tmp/faults-container
[ -e /proc/self/make-it-fail ] || { echo "Bail out! no make-it-fail: not a fault-injection kernel"; exit 1; }
grep -q " $DBG debugfs " /proc/mounts || mount -t debugfs none $DBG
[ -e $FS/require-start ] || { echo "Bail out! failslab has no stack-trace filter"; exit 1; }
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
mkdir -p $W

# range FUNC: "START END" of a text symbol, END the next symbol's address.
range() {
	sort /proc/kallsyms | awk -v f="$1" 'found { print start, "0x" $1; exit }
		$3 == f && ($2 == "t" || $2 == "T") { start = "0x" $1; found = 1 }'
}

# arm FUNC TASKFILTER: fail the next slab allocation under FUNC, once.
arm() {
	set -- $(range "$1") "$2"
	[ -n "$2" ] || return 1
	echo 0 >$FS/probability
	echo "$1" >$FS/require-start
	echo "$2" >$FS/require-end
	echo 10 >$FS/stacktrace-depth
	echo "$3" >$FS/task-filter
	echo N >$FS/ignore-gfp-wait
	echo 0 >$FS/verbose
	echo 0 >$FS/space
	echo 1 >$FS/interval
	echo 1 >$FS/times
	echo 100 >$FS/probability
}
disarm() { echo 0 >$FS/probability; echo 0 >$FS/require-start; echo 0 >$FS/require-end; echo N >$FS/task-filter; }

# bundle NAME WRAP: the selinux example with its stderr file; WRAP=yes
# runs the hook through a shell that marks itself for fault injection.
bundle() {
	w=$W/$1
	mkdir -p $w
	jq --arg root $E/selinux/rootfs --arg w $w --arg wrap "$2" '
		.root.path = $root
		| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
		| .process.args = ["/bin/sh", "-c", "cat /proc/self/attr/lsmns; exec sleep 600"]
		| .process.terminal = false
		| if $wrap == "yes" then
			.hooks.createRuntime[0] |= (.args = ["sh", "-c",
				"echo 1 >/proc/self/make-it-fail && exec \"$0\" \"$@\"", .path] + .args[1:]
				| .path = "/bin/sh")
		  else . end' $E/selinux/config.json >$w/config.json
}

# start NAME: crun create + start; the status, crun's output in $w/out.
start() {
	w=$W/$1
	(cd $w && crun create --bundle $w $1 >$w/out 2>&1) && crun start $1 >>$w/out 2>&1
}

# control NAME WRAP WHAT: with nothing injected, the same container starts
# and its task is in a namespace (id not 0): the attempt after it could
# have succeeded.
control() {
	bundle "$1" "$2"
	if start "$1"; then
		pid=$(crun state "$1" | jq -r .pid)
		check_not_contains "control: with nothing injected $3" "id=0 " "$(cat /proc/$pid/attr/lsmns) "
	else
		tap_result 1 "control: with nothing injected $3"
		tap_diag "$(cat $W/$1/out $W/$1/hook.err 2>/dev/null)"
	fi
	crun delete -f "$1" >/dev/null 2>&1
}

count0=$(lsmns_settled_count)

# --- control, then the hook's write fails
control ctl-hook yes "the wrapped hook places the container (namespace id)"

bundle hook yes
if arm lsmns_assign_write Y; then
	start hook
	rc=$?
	left=$(cat $FS/times)
	disarm
	check_eq "the fault was injected into the hook's write" 0 "$left"
	check_fails "crun create fails when the kernel cannot allocate for the hook's request" test $rc -eq 0
	err=$(cat $W/hook/hook.err 2>/dev/null)
	check_eq "lsmns-hook says why in one line" 1 "$(echo "$err" | grep -c .)"
	check_contains "the line names the allocation failure" "Cannot allocate memory" "$err"
	tap_diag "lsmns-hook: $err"
else
	tap_result 1 "lsmns_assign_write is in /proc/kallsyms"
fi
crun delete -f hook >/dev/null 2>&1
check_eq "nothing left running after the failed start (hook)" "" "$(crun list -q 2>/dev/null)"
lsmns_wait_count "$count0"
check_eq "no namespace left after the failed start (hook)" "$count0" "$(lsmns_count)"

# --- control, then the container's execve into its namespace fails
control ctl-exec no "the container's exec enters its namespace"

bundle exec no
# The hook runs at create; the container's exec into the namespace at
# start: arm in between.
if (cd $W/exec && crun create --bundle $W/exec exec >$W/exec/out 2>&1); then
	pid=$(crun state exec | jq -r .pid)
	if arm lsm_ns_bprm_apply N; then
		crun start exec >>$W/exec/out 2>&1
		left=$(cat $FS/times)
		disarm
		check_eq "the fault was injected into the container's execve" 0 "$left"
		sleep 1
		st=$(crun state exec 2>/dev/null | jq -r .status)
		check_fails "the container does not run after its execve failed ($st)" test "$st" = running
		ns=$(cat /proc/$pid/attr/lsmns 2>/dev/null)
		check_eq "no program of the container runs outside its namespace" "" "$ns"
	else
		tap_result 1 "lsm_ns_bprm_apply is in /proc/kallsyms"
	fi
else
	tap_result 1 "crun create of the exec bundle"
	tap_diag "$(cat $W/exec/out $W/exec/hook.err 2>/dev/null)"
fi
crun delete -f exec >/dev/null 2>&1
check_eq "nothing left running after the failed start (exec)" "" "$(crun list -q 2>/dev/null)"
lsmns_wait_count "$count0"
check_eq "no namespace left after the failed start (exec)" "$count0" "$(lsmns_count)"
tap_done
