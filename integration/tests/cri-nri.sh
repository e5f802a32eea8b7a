#!/bin/sh
# cri-nri: per-container requests through NRI, driven through CRI
# (containerd 1.7 of Debian 13, NRI enabled in
# platform/containerd/config.toml).  The lsmns NRI plugin
# (platform/nri-plugin, run with -runtime-handler lsmns-nri) reads pod
# annotations keyed by container name, CONTAINER.container.lsmns.org/KEY,
# and gives that container org.lsmns.KEY and lsmns-hook; lsmns-hook and
# the host policy decide.
# 1. A two-container pod on handler lsmns-nri: "app" asks for {smack},
#    "side" for {selinux}; each lands in its own set; a third container
#    with no key of its own gets no namespace; the pause container is
#    never seen by CreateContainer and gets none either; ExecSync into
#    each joins its set; RemovePodSandbox brings the count back.
# 2. The same pod on the default handler: the plugin leaves it alone.
# 3. A container whose own request the policy refuses fails
#    StartContainer with the hook's reason; its sibling still runs.
# 4. Without the plugin running, the lsmns-nri handler gives nothing.
. /lsmns/lib/tap.sh
. /lsmns/lib/cri.sh
W=/tmp/cri
mkdir -p $W
echo 0 >/proc/sys/kernel/printk_ratelimit
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
trixie_enter
check "load-policies" /lsmns/policies/load-policies
check "setup-demo" /lsmns/policies/setup-demo /lsmns/demo
containerd_start
tap_result $? "containerd 1.7 starts with NRI enabled"
[ $TAP_FAILED -eq 0 ] || { echo "Bail out! containerd did not start"; exit 1; }
IMG=lsmns.test/busybox:1
SEC=/sys/kernel/security
MOUNTS="-v /lsmns/demo:/lsmns/demo:ro -v $SEC:$SEC:ro"
SE=system_u:system_r:container_t:s0:c1,c2
SM=ContainerC
start=$(ns_count)
init_ns=$(lsmns_of 1)

nri_start() {
	lsmns-nri -socket $T/run/nri/nri.sock -runtime-handler lsmns-nri >/tmp/nri.log 2>&1 &
	NRI_PID=$!
	# Registered once containerd's log says so.
	_i=0
	until grep -q '50-lsmns' $CRI_LOG || grep -qi 'started plugin' /tmp/nri.log; do
		_i=$((_i + 1))
		[ $_i -lt 60 ] && kill -0 $NRI_PID 2>/dev/null || return 1
		sleep 0.5
	done
}
cpid() { cri pid "$(cat $W/$1-$2.id)"; }
ANN="app.container.lsmns.org/lsm=smack app.container.lsmns.org/smack.label=$SM side.container.lsmns.org/lsm=selinux side.container.lsmns.org/selinux.context=$SE"

# --- 4 first: the handler without the plugin --------------------------------
before=$(ns_count)
# shellcheck disable=SC2086
pod n-noplugin lsmns-nri $ANN
ctr n-noplugin app
tap_result $? "no plugin: the container of handler lsmns-nri starts"
check_eq "no plugin: it is in the initial namespace" "$init_ns" "$(lsmns_of "$(cpid n-noplugin app)")"
check_eq "no plugin: no namespace was made" "$before" "$(ns_count)"
pod_gone n-noplugin

nri_start
rc=$?
tap_result $rc "the lsmns NRI plugin registers with containerd"
tap_diag "$(tail -n 3 /tmp/nri.log; grep -i 'nri\|plugin' $CRI_LOG | grep -v 'loading plugin' | tail -n 3)"

# --- 1. two containers, two sets -------------------------------------------
before=$(ns_count)
# shellcheck disable=SC2086
pod n-two lsmns-nri $ANN
tap_result $? "RunPodSandbox on lsmns-nri with per-container annotations"
ppid=$(cri pid "$(cat $W/n-two.id)")
check_eq "the pause container is in the initial namespace" "$init_ns" "$(lsmns_of $ppid)"
ctr n-two app
tap_result $? "app: CreateContainer + StartContainer"
[ -s $W/n-two-app.err ] && tap_diag "$(cat $W/n-two-app.err)"
ctr n-two side
tap_result $? "side: CreateContainer + StartContainer"
[ -s $W/n-two-side.err ] && tap_diag "$(cat $W/n-two-side.err)"
ctr n-two plain
tap_result $? "plain (no key of its own): CreateContainer + StartContainer"
apid=$(cpid n-two app)
spid=$(cpid n-two side)
check_eq "app is in {smack}" "smack" "$(active_of $apid)"
check_eq "app runs as $SM" "$SM" "$(tr -d '\000' </proc/$apid/attr/smack/current)"
check_eq "side is in {selinux}" "selinux" "$(active_of $spid)"
check_eq "side runs as $SE" "$SE" "$(tr -d '\000' </proc/$spid/attr/selinux/current)"
check_eq "plain is in the initial namespace" "$init_ns" "$(lsmns_of "$(cpid n-two plain)")"
check_eq "two namespaces for the pod (app, side)" $((before + 2)) "$(ns_count)"
acfg=$T/run/containerd/io.containerd.runtime.v2.task/k8s.io/$(cat $W/n-two-app.id)/config.json
check_eq "app's OCI config: org.lsmns annotations of its own only" \
	"org.lsmns.lsm=smack org.lsmns.smack.label=$SM" \
	"$(jq -r '.annotations | to_entries[] | select(.key | startswith("org.lsmns.")) | "\(.key)=\(.value)"' $acfg | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "app's OCI config: lsmns-hook as createRuntime hook" "/usr/libexec/lsmns/lsmns-hook" \
	"$(jq -r '.hooks.createRuntime[0].path' $acfg)"
ex=$(cri exec "$(cat $W/n-two-app.id)" -- cat /sys/kernel/security/lsm 2>&1)
check_eq "ExecSync into app sees {smack}" "capability,smack" "$ex"
ex=$(cri exec "$(cat $W/n-two-side.id)" -- cat /sys/kernel/security/lsm 2>&1)
check_eq "ExecSync into side sees {selinux}" "capability,selinux" "$ex"
check_contains "the plugin logged what it added" "container app: lsmns-hook with org.lsmns.lsm=smack" "$(cat /tmp/nri.log)"
pod_gone n-two
tap_result $? "StopPodSandbox + RemovePodSandbox"
check_eq "the namespace count is back to $before" "$before" "$(ns_count)"

# --- 2. the default handler ------------------------------------------------------
before=$(ns_count)
# shellcheck disable=SC2086
pod n-default "" $ANN
ctr n-default app
tap_result $? "default handler: the container starts"
check_eq "default handler: the plugin left app alone (initial namespace)" "$init_ns" "$(lsmns_of "$(cpid n-default app)")"
check_eq "default handler: no namespace was made" "$before" "$(ns_count)"
pod_gone n-default

# --- 3. one container refused ---------------------------------------------------
before=$(ns_count)
pod n-refused lsmns-nri app.container.lsmns.org/lsm=smack app.container.lsmns.org/smack.label=$SM \
	bad.container.lsmns.org/lsm=smack bad.container.lsmns.org/smack.label=Intruder
ctr n-refused app
tap_result $? "refusal pod: app (allowed) starts"
ctr n-refused bad
check_fails "refusal pod: bad (smack label Intruder) fails to start" test $? -eq 0
err=$(cat $W/n-refused-bad.err)
tap_diag "$err"
check_contains "refusal pod: the error is StartContainer's" "lsmns-cri: StartContainer:" "$err"
check_contains "refusal pod: the hook's reason is in the CRI error" \
	'refused (request=smack smack=Intruder): smack context "Intruder" is not allowed by policy rule "demo-smack"' "$err"
check_eq "refusal pod: app still runs in {smack}" "smack" "$(active_of "$(cpid n-refused app)")"
check_eq "refusal pod: one namespace (app's)" $((before + 1)) "$(ns_count)"
pod_gone n-refused

check_eq "the namespace count is back to its start value ($start)" "$start" "$(ns_count)"
kill $NRI_PID 2>/dev/null
containerd_stop
tap_done
