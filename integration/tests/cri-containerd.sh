#!/bin/sh
# cri-containerd: Debian 13's containerd 1.7 driven through CRI as kubelet
# drives it (integration/cri-client: RunPodSandbox with the pod's
# annotations and runtime handler, CreateContainer, StartContainer,
# ExecSync, StopPodSandbox, RemovePodSandbox), with the runtime handlers
# of platform/containerd/config.toml:
#   lsmns       runc, lsmns-hook in the base runtime spec, the pod's
#               org.lsmns.* annotations passed into every OCI config
#   lsmns-crun  the same with crun
#   runc        the default handler: no hook, no annotation passed
# 1. pods on lsmns land in the set their annotations ask for, within the
#    host policy (policies/lsmns-policy.json); the pod sandbox (pause)
#    container is left alone: containerd 1.7 builds the sandbox's OCI
#    config without the handler's base_runtime_spec (the pod's
#    annotations do reach it), so it has no hook and runs in the host's
#    LSM namespace (the test reads its config.json); ExecSync joins
#    the container's namespace; after RemovePodSandbox the namespace
#    count is back where it started.
# 2. The same pod on the default handler gets no namespace.
# 3. A request the policy refuses: RunPodSandbox and CreateContainer
#    succeed (neither runs the OCI runtime), StartContainer fails with the
#    hook's reason in the CRI error, and nothing is left behind.
# Per-container requests through NRI: cri-nri.sh.
# With the argument 1.6: Debian 12's containerd 1.6.20 on the guest's
# Debian 12 root, with its runc 1.1.5 and crun 1.8.1, the same handlers
# (booted from build/guest/containerd16.cpio).
. /lsmns/lib/tap.sh
. /lsmns/lib/cri.sh
W=/tmp/cri
mkdir -p $W
echo 0 >/proc/sys/kernel/printk_ratelimit
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
if [ "${1:-}" = 1.6 ]; then
	containerd16_enter
	V=1.6
else
	trixie_enter
	V=1.7
fi
tap_diag "stack: $(stack_versions)"
check "load-policies" /lsmns/policies/load-policies
check "setup-demo" /lsmns/policies/setup-demo /lsmns/demo
containerd_start
tap_result $? "containerd $V starts and imports the test images"
[ $TAP_FAILED -eq 0 ] || { echo "Bail out! containerd did not start"; exit 1; }
tap_diag "$(cri version 2>&1)"
IMG=lsmns.test/busybox:1
SEC=/sys/kernel/security
MOUNTS="-v /lsmns/demo:/lsmns/demo:ro -v $SEC:$SEC:ro"
SE=system_u:system_r:container_t:s0:c1,c2
AA=lsmns-demo-apparmor
SM=ContainerC
start=$(ns_count)
init_ns=$(lsmns_of 1)
tap_diag "initial namespace as /proc/1/attr/lsmns shows it: $init_ns"

# sorted_set "selinux,apparmor" -> "apparmor,selinux"
sorted_set() { echo "$1" | tr ',' '\n' | sort | tr '\n' ',' | sed 's/,$//'; }
ns_id() { lsmns_of $1 | tr ' ' '\n' | sed -n 's/^id=//p'; }
shown() { if [ $1 = apparmor ]; then echo "$2 (enforce)"; else echo "$2"; fi; }
ctx_for() { case $1 in selinux) echo $SE ;; apparmor) echo $AA ;; smack) echo $SM ;; esac; }

# --- 1. the example sets on the lsmns handlers -------------------------
# name|handler|set|interface|annotations
cat >$W/cases <<EOF
p-smack|lsmns|smack|smack|org.lsmns.lsm=smack org.lsmns.smack.label=$SM
p-selinux|lsmns|selinux|selinux|org.lsmns.lsm=selinux org.lsmns.selinux.context=$SE
p-apparmor|lsmns|apparmor|apparmor|org.lsmns.lsm=apparmor org.lsmns.apparmor.profile=$AA
p-se-aa|lsmns|selinux,apparmor|selinux|org.lsmns.lsm=selinux,apparmor org.lsmns.selinux.context=$SE org.lsmns.apparmor.profile=$AA org.lsmns.interface=selinux
p-crun-smack|lsmns-crun|smack|smack|org.lsmns.lsm=smack org.lsmns.smack.label=$SM
p-crun-selinux|lsmns-crun|selinux|selinux|org.lsmns.lsm=selinux org.lsmns.selinux.context=$SE
EOF
while IFS='|' read -r n h set iface ann; do
	before=$(ns_count)
	# shellcheck disable=SC2086
	pod $n $h $ann
	tap_result $? "$n ($h): RunPodSandbox"
	[ -s $W/$n.err ] && tap_diag "$(cat $W/$n.err)"
	want=$(sorted_set $set)
	ppid=$(cri pid "$(cat $W/$n.id)")
	check_eq "$n: the pause container is in the initial namespace" "$init_ns" "$(lsmns_of $ppid)"
	pcfg=$T/run/containerd/io.containerd.runtime.v2.task/k8s.io/$(cat $W/$n.id)/config.json
	check_eq "$n: the pause container's OCI config has no hook (base_runtime_spec is not the sandbox's)" \
		"null" "$(jq -c .hooks $pcfg)"
	check_contains "$n: though pod_annotations passed the pod's request into it" "org.lsmns.lsm" \
		"$(jq -r '.annotations | keys[]' $pcfg)"
	check_eq "$n: no namespace for the pause container" $before "$(ns_count)"
	ctr $n app
	tap_result $? "$n: CreateContainer + StartContainer"
	[ -s $W/$n-app.err ] && tap_diag "$(cat $W/$n-app.err)"
	cpid=$(cri pid "$(cat $W/$n-app.id)")
	ccfg=$T/run/containerd/io.containerd.runtime.v2.task/k8s.io/$(cat $W/$n-app.id)/config.json
	check_eq "$n: the container's OCI config has lsmns-hook as createRuntime hook (base_runtime_spec)" \
		"/usr/libexec/lsmns/lsmns-hook" "$(jq -r '.hooks.createRuntime[0].path' $ccfg)"
	check_eq "$n: the container is in {$set}" "$want" "$(active_of $cpid)"
	check_contains "$n: its interface LSM is $iface" "interface=$iface " "$(lsmns_of $cpid) "
	check_eq "$n: one namespace for the pod" $((before + 1)) "$(ns_count)"
	for l in $(echo $set | tr ',' ' '); do
		check_eq "$n: its attr/$l/current is its $l context" "$(shown $l "$(ctx_for $l)")" \
			"$(tr -d '\000' </proc/$cpid/attr/$l/current)"
	done
	ex=$(cri exec "$(cat $W/$n-app.id)" -- sh -c 'printf cur=; tr -d "\000\n" </proc/self/attr/current; printf "\nlsm="; cat /sys/kernel/security/lsm; echo; cat /lsmns/demo/denied-'"${set%%,*}" 2>&1)
	check_eq "$n: ExecSync runs with the container's $iface context" "$(shown $iface "$(ctx_for $iface)")" \
		"$(echo "$ex" | sed -n 's/^cur=//p')"
	exset=$(echo "$ex" | sed -n 's/^lsm=//p' | tr ',' '\n' | grep -E '^(selinux|smack|apparmor)$' | sort | tr '\n' ',' | sed 's/,$//')
	check_eq "$n: ExecSync sees only {$set}" "$want" "$exset"
	[ "$want" = "$exset" ] || tap_diag "ExecSync: $ex"
	check_contains "$n: ExecSync is denied denied-${set%%,*} by ${set%%,*}" "Permission denied" "$ex"
	pod_gone $n
	tap_result $? "$n: StopPodSandbox + RemovePodSandbox"
	check_eq "$n: the namespace count is back to $before" "$before" "$(ns_count)"
done <$W/cases

# --- 2. the default handler: the same annotations reach nothing --------
before=$(ns_count)
pod d-smack "" org.lsmns.lsm=smack org.lsmns.smack.label=$SM
tap_result $? "default handler: RunPodSandbox with the smack annotations"
ctr d-smack app
tap_result $? "default handler: the container starts"
cpid=$(cri pid "$(cat $W/d-smack-app.id)")
ppid=$(cri pid "$(cat $W/d-smack.id)")
check_eq "default handler: the container is in the initial namespace" "$init_ns" "$(lsmns_of $cpid)"
check_eq "default handler: so is the pause container" "$init_ns" "$(lsmns_of $ppid)"
check_eq "default handler: no namespace was made" "$before" "$(ns_count)"
check_fails "default handler: the container is not ContainerC" \
	test "$(tr -d '\000' </proc/$cpid/attr/smack/current)" = "$SM"
pod_gone d-smack

# --- 3. refusals -------------------------------------------------------------
reason='refused (request=smack smack=Intruder): smack context "Intruder" is not allowed by policy rule "demo-smack"'
for h in lsmns lsmns-crun; do
	before=$(ns_count)
	pod r-$h $h org.lsmns.lsm=smack org.lsmns.smack.label=Intruder
	tap_result $? "$h: RunPodSandbox of a refused request succeeds (the pause container never reaches the hook)"
	ctr r-$h app
	check_fails "$h: CreateContainer + StartContainer of the refused request fails" test $? -eq 0
	check_eq "$h: CreateContainer itself succeeded (it runs no OCI runtime)" "yes" \
		"$([ -s $W/r-$h-app.id ] && echo yes || echo no)"
	err=$(cat $W/r-$h-app.err)
	tap_diag "$h: $err"
	check_contains "$h: the error is StartContainer's" "lsmns-cri: StartContainer:" "$err"
	check_contains "$h: the CRI error names the failed hook" "hook" "$err"
	if [ $h = lsmns ]; then
		check_contains "runc: the hook's reason is in the CRI error" "$reason" "$err"
	else
		# crun 1.21, like 1.8.1, keeps a hook's stderr out of its error
		# (only the run.oci.hooks.stderr annotation, which must not be
		# a pod's to set, sends it to a file); runc above is the control.
		check_contains "crun: the CRI error names lsmns-hook" "/usr/libexec/lsmns/lsmns-hook" "$err"
		check_fails "crun: the hook's reason is not in the CRI error" \
			sh -c 'case "$1" in *"$2"*) exit 0 ;; esac; exit 1' sh "$err" "$reason"
	fi
	check_eq "$h: no namespace was made" "$before" "$(ns_count)"
	pod_gone r-$h
	tap_result $? "$h: the pod with the refused container is removed"
done
check_eq "no pod sandbox left in containerd" "" "$(tx ctr -n k8s.io tasks ls -q 2>&1)"
check_eq "the namespace count is back to its start value ($start)" "$start" "$(ns_count)"
containerd_stop
tap_done
