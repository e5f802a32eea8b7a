#!/bin/sh
# End to end: a container whose other LSMs the host policy lets the hook
# release (examples/smack-released: Smack active as ContainerC, SELinux and
# AppArmor released), under crun and runc, next to the same container with
# them hidden (examples/smack).  Booted with
#   lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,apparmor
#
# Released, SELinux no longer decides for the container: it reads
# denied-host (which SELinux denies to every domain, the host's included)
# and mcs-c1c2 (which the hidden SELinux context container_t:s0:c11 of the
# smack bundle may not read); Smack, active, still denies denied-smack.
# The host sees the modes in /proc/PID/attr/lsmns.  Refusals: releasing an
# LSM the boot parameter does not name (the kernel's EPERM comes back as
# the hook's message), and a bundle that also sets a label for an LSM it
# asks to release (the hook refuses before the kernel).
. /lsmns/lib/tap.sh
. /lsmns/lib/e2e-run.sh
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/e2e-rel
[ -d $E/smack-released ] || { echo "Bail out! $E/smack-released missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespaces in this kernel"; exit 1; }
echo 0 >/proc/sys/kernel/printk_ratelimit
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
# The host's SELinux domain (unconfined_t under lsmns.cil, kernel_t under
# Debian's refpolicy, lsmns.test_policy=refpolicy).
host_t=$(tr -d '\0' </proc/self/attr/selinux/current | cut -d: -f3)

# prep NAME BUNDLE [JQ [POLICY]]: a runtime copy whose probe waits on ctl/go.
prep() {
	w=$W/$1
	rm -rf $w
	mkdir -p $w/ctl
	mkfifo $w/ctl/go
	jq --arg root $E/$2/rootfs --arg w $w --arg pol "${4:-$P/lsmns-policy.json}" "
		.root.path = \$root
		| .annotations[\"run.oci.hooks.stderr\"] = (\$w + \"/hook.err\")
		| .process.env += [\"LSMNS_WAIT=/tmp/ctl/go\"]
		| .mounts += [{\"destination\": \"/tmp/ctl\", \"type\": \"bind\", \"source\": (\$w + \"/ctl\"), \"options\": [\"rbind\"]}]
		| .hooks.createRuntime[0].args = [\"lsmns-hook\", \"--policy\", \$pol]
		| ${3:-.}" $E/$2/config.json >$w/config.json
}

for rt in crun runc; do
	r=$rt-rel h=$rt-hid
	prep $r smack-released
	# The same reads from the hidden-mode bundle, for contrast.
	prep $h smack '.process.env += ["LSMNS_READ=/lsmns/demo/denied-host /lsmns/demo/mcs-c1c2"]'
	e2e_start $r $rt
	e2e_start $h $rt
	e2e_ready $r $rt
	tap_result $? "$rt smack-released: starts and runs its probe"
	e2e_ready $h $rt
	tap_result $? "$rt smack (hidden): starts and runs its probe"
	if [ -s $W/$r/pid ]; then
		pid=$(cat $W/$r/pid)
		view=$(cat /proc/$pid/attr/lsmns 2>&1)
		check_contains "$rt smack-released: the host sees SELinux released" "selinux=released" "$view"
		check_contains "$rt smack-released: the host sees AppArmor released" "apparmor=released" "$view"
		check_contains "$rt smack-released: the host sees Smack active" "smack=active" "$view"
		check_eq "$rt smack-released: Smack label ContainerC (host view)" ContainerC \
			"$(tr -d '\0' </proc/$pid/attr/smack/current)"
		check_contains "$rt smack-released: SELinux keeps labelling it (host domain, no context assigned)" \
			":$host_t:" "$(tr -d '\0' </proc/$pid/attr/selinux/current)"
	fi
	view=$(cat /proc/$(cat $W/$h/pid 2>/dev/null || echo 0)/attr/lsmns 2>&1)
	check_contains "$rt smack (hidden): the host sees SELinux hidden" "selinux=hidden" "$view"
	e2e_finish $r
	e2e_finish $h
	check_eq "$rt smack-released: runtime exit status" 0 "$(cat $W/$r/rc)"
	check_eq "$rt smack-released: inside, only Smack" "capability,smack" "$(e2e_value $r lsm_securityfs)"
	check_eq "$rt smack-released: attr/current is ContainerC" ContainerC "$(e2e_value $r attr_current)"
	check_contains "$rt smack-released: attr/selinux/ is not reachable inside" "<" "$(e2e_value $r attr_selinux)"
	check_eq "$rt smack-released: Smack still denies denied-smack" "/lsmns/demo/denied-smack EACCES" "$(e2e_value $r deny)"
	check_eq "$rt smack-released: reads denied-host (SELinux released)" \
		"/lsmns/demo/denied-host read-succeeded" "$(e2e_value $r read denied-host)"
	check_eq "$rt smack-released: reads mcs-c1c2 (SELinux released)" \
		"/lsmns/demo/mcs-c1c2 read-succeeded" "$(e2e_value $r read mcs-c1c2)"
	check_eq "$rt smack (hidden): denied denied-host" "/lsmns/demo/denied-host EACCES" "$(e2e_value $h read denied-host)"
	check_eq "$rt smack (hidden): denied mcs-c1c2 (container_t:s0:c11)" \
		"/lsmns/demo/mcs-c1c2 EACCES" "$(e2e_value $h read mcs-c1c2)"
	# crun keeps the hook's stderr (run.oci.hooks.stderr); runc drops it
	# when the hook succeeds.
	if [ $rt = crun ]; then
		check_contains "$rt smack-released: the hook logs both LSMs released" \
			"selinux=released:(inherit) smack=active:ContainerC apparmor=released:(inherit)" "$(cat $W/$r/hook.err 2>/dev/null)"
		check_contains "$rt smack-released: the hook logs the namespace id" \
			"assigned lsm namespace" "$(cat $W/$r/hook.err 2>/dev/null)"
	fi
done
# After they exit, the host is still denied what the released one read.
check_fails "host (no MAC capabilities) is still denied denied-host" \
	$P/bin/lsmns-exec --drop-mac-caps -- cat /lsmns/demo/denied-host

# --- refusals
POL=/tmp/e2e-rel-policy.json
jq '.rules |= ([{"name": "e2e-release-smack",
	"match": {"annotations": {"org.lsmns.lsm": "selinux", "org.lsmns.release": "smack"}},
	"active": [["selinux"]], "contexts": {"selinux": ["system_u:system_r:container_t:s0:c1,c2"]},
	"release": ["smack"], "default": "refuse"}] + .)' $P/lsmns-policy.json >$POL
chmod 0600 $POL
for rt in crun runc; do
	n=$rt-nonrel
	prep $n selinux '.annotations["org.lsmns.release"] = "smack"' $POL
	out=$(cd $W/$n && $rt run "e2e-$n" 2>&1 </dev/null); rc=$?
	check_eq "$rt: releasing Smack (not in lsmns.releasable=) does not start" 1 "$([ $rc -ne 0 ] && echo 1)"
	check_contains "$rt: ... the hook passes on the kernel's reason" "lsmns.releasable=" \
		"$(cat $W/$n/hook.err 2>/dev/null; echo "$out")"
	check_eq "$rt: ... no container state left" "" "$($rt list -q 2>/dev/null)"
	n=$rt-label
	prep $n smack-released '.process.apparmorProfile = "lsmns-demo-apparmor"'
	out=$(cd $W/$n && $rt run "e2e-$n" 2>&1 </dev/null); rc=$?
	check_eq "$rt: a label for an LSM to be released does not start" 1 "$([ $rc -ne 0 ] && echo 1)"
	check_contains "$rt: ... the hook says why" "released" "$(cat $W/$n/hook.err 2>/dev/null; echo "$out")"
done

# --- a bundle that also sets the runtime's own label (docs/runtime-hook.md):
# equal to the assigned context it runs; a different one is refused.
for rt in crun runc; do
	n=$rt-samelabel
	prep $n selinux '.process.selinuxLabel = .annotations["org.lsmns.selinux.context"]'
	e2e_start $n $rt
	e2e_ready $n $rt
	tap_result $? "$rt: process.selinuxLabel equal to the assigned context: starts"
	e2e_finish $n
	check_eq "$rt: ... and runs in it" "system_u:system_r:container_t:s0:c1,c2" "$(e2e_value $n attr_current)"
	n=$rt-otherlabel
	prep $n selinux '.process.selinuxLabel = "system_u:system_r:container_t:s0:c3,c4"'
	out=$(cd $W/$n && $rt run "e2e-$n" 2>&1 </dev/null); rc=$?
	check_eq "$rt: a different process.selinuxLabel does not start" 1 "$([ $rc -ne 0 ] && echo 1)"
	check_contains "$rt: ... the hook names the conflict" "conflicts with config.json process.selinuxLabel" \
		"$(cat $W/$n/hook.err 2>/dev/null; echo "$out")"
done
check_eq "no container process left" "" "$(ps -o pid,args | grep -F '/bin/lsmns-probe' | grep -v grep)"
tap_done
