#!/bin/sh
# hook-ops: the operator-facing behaviour of lsmns-hook under real runtimes
# in the guest (ops.list: hook-ops):
#   - a container with kubectl's last-applied-configuration of 200 KiB runs
#     in its LSM namespace under crun, and one of 120 KiB under podman run
#     (podman 4.3's kube play refuses annotation values over 63 bytes);
#   - --dry-run as the hook crun runs (crun gives hooks /dev/null as stdout)
#     exits 0 and the container starts;
#   - every allowed and refused decision lands in the hook's stderr file,
#     or the --log-file file;
#   - an EPERM from the assign file says why: inside an LSM namespace, in a
#     user namespace;
#   - lsmns ps --unassigned lists a podman container that asked for no
#     namespace, and not one that did.
# With OLD_HOOK=path (an lsmns-hook built before these changes) the same
# checks are the control: the big annotation and the dry run fail there.
#
#   integration/scripts/guest-run --kernel build/stable/bzImage-normal \
#       --file runtime-hook/build/lsmns-hook:/lsmns/op/lsmns-hook \
#       --file runtime-hook/build/lsmns:/lsmns/op/lsmns \
#       integration/tests/hook-ops.sh
. /lsmns/lib/tap.sh
P=/lsmns/policies
W=/tmp/guest-ops
IMG=localhost/lsmns-busybox:latest
HOOK=/usr/libexec/lsmns/lsmns-hook
mkdir -p $W /run/lsmns-podman
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
if [ -e /lsmns/op/lsmns-hook ]; then
	cp /lsmns/op/lsmns-hook $HOOK && chmod 0755 $HOOK || { echo "Bail out! cannot install the hook given"; exit 1; }
fi
[ -e /lsmns/op/lsmns ] && cp /lsmns/op/lsmns /usr/sbin/lsmns && chmod 0755 /usr/sbin/lsmns
tap_diag "hook: $($HOOK --version), md5 $(md5sum <$HOOK | cut -c1-32)"
count() { cat /sys/kernel/security/lsmns/count; }
pm() {
	podman --root /run/lsmns-podman/root --runroot /run/lsmns-podman/run \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
}
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
mkdir -p /etc/lsmns
cp $P/lsmns-policy.json /etc/lsmns/policy.json && chmod 0600 /etc/lsmns/policy.json

# 200 KiB, like a kubectl last-applied-configuration of a big manifest
head -c 204800 /dev/zero | tr '\0' x >$W/big

# ---- crun, the annotation in config.json -----------------------------------
b=$W/selinux-big
cp -a /lsmns/examples/selinux $b
jq --rawfile v $W/big '.annotations["kubectl.kubernetes.io/last-applied-configuration"] = $v
	| .annotations["run.oci.hooks.stderr"] = "'$W'/big.err"' \
	/lsmns/examples/selinux/config.json >$b/config.json
before=$(count)
res=$(cd $b && crun run op-big 2>&1)
rc=$?
tap_result $rc "crun: a container with a 200 KiB unrelated annotation starts"
[ $rc -eq 0 ] || tap_diag "$(echo "$res" | cut -c1-300)" "$(cut -c1-300 $W/big.err 2>/dev/null)"
check_contains "crun: it ran in its SELinux context" \
	"attr_current=system_u:system_r:container_t:s0:c1,c2" "$res"
check_contains "crun: the hook's line says it assigned" "allowed, assigned lsm namespace" \
	"$(cat $W/big.err 2>/dev/null)"
crun delete -f op-big >/dev/null 2>&1

# ---- crun, the hook with --dry-run (stdout is /dev/null) ------------------------
d=$W/selinux-dry
cp -a /lsmns/examples/selinux $d
jq '.hooks.createRuntime[0].args += ["--dry-run"]
	| .annotations["run.oci.hooks.stderr"] = "'$W'/dry.err"' \
	/lsmns/examples/selinux/config.json >$d/config.json
res=$(cd $d && crun run op-dry 2>&1)
rc=$?
tap_result $rc "crun: the hook with --dry-run (its stdout /dev/null) lets the container start"
[ $rc -eq 0 ] || tap_diag "$(echo "$res" | cut -c1-300)"
check_contains "crun: the dry run's line names the decision" "dry run, would assign: rule=demo-selinux" \
	"$(cat $W/dry.err 2>/dev/null)"
crun delete -f op-dry >/dev/null 2>&1

# ---- crun, a refusal: the line in the --log-file file -------------------------
r=$W/selinux-refused
cp -a /lsmns/examples/selinux $r
jq '.annotations["org.lsmns.selinux.context"] = "system_u:system_r:spc_t:s0"
	| .hooks.createRuntime[0].args += ["--log-file", "'$W'/hook.log"]' \
	/lsmns/examples/selinux/config.json >$r/config.json
res=$(cd $r && crun run op-refused 2>&1)
check_contains "crun: a refused container's error has only the exit code" "exit code: 5" "$res"
check_contains "crun: the hook's line, discarded on stderr, is in the --log-file file" \
	'refused (request=selinux selinux=system_u:system_r:spc_t:s0): selinux context "system_u:system_r:spc_t:s0" is not allowed by policy rule "demo-selinux"' \
	"$(cat $W/hook.log 2>/dev/null)"
crun delete -f op-refused >/dev/null 2>&1

# ---- EPERM from the assign file names its cause ---------------------------------
sleep 300 &
tgt=$!
mkdir -p $W/eb && cp /lsmns/examples/selinux/config.json $W/eb/
st='{"id":"eperm","status":"created","pid":'$tgt',"bundle":"'$W'/eb","annotations":{"org.lsmns.lsm":"selinux","org.lsmns.selinux.context":"system_u:system_r:container_t:s0:c1,c2"}}'
res=$(echo "$st" | /lsmns/bin/lsmns-assign run apparmor:active:unconfined -- $HOOK --policy /etc/lsmns/policy.json 2>&1)
check_contains "inside an LSM namespace: the EPERM line names the namespace and the fix" \
	"Operation not permitted: the hook runs inside LSM namespace" "$res"
res=$(echo "$st" | unshare -r $HOOK --policy /etc/lsmns/policy.json 2>&1)
check_contains "in a user namespace (as rootless podman): the EPERM line says so" \
	"Operation not permitted: the hook runs in a user namespace" "$res"
res=$(echo "$st" | $HOOK --policy /etc/lsmns/policy.json 2>&1)
check_contains "control: as root on the host the same request is assigned" "allowed, assigned lsm namespace" "$res"
kill $tgt 2>/dev/null

# ---- podman kube play, the annotation on the pod ---------------------------
if command -v podman >/dev/null; then
	tar -C /lsmns/examples/smack/rootfs -cf $W/rootfs.tar .
	check "podman import of the example rootfs" pm import -q --change 'ENV PATH=/bin' $W/rootfs.tar $IMG
	# podman kube play (4.3) refuses annotation values over 63 bytes, a
	# label's bound, and has no --no-trunc yet: a pod with kubectl's
	# last-applied-configuration does not get past podman itself.
	if pm kube play --help 2>&1 | grep -q -- --no-trunc; then
		y=$W/big-pod.yaml
		{
			printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: op-big\n  annotations:\n'
			printf '    org.lsmns.lsm: selinux\n'
			printf '    org.lsmns.selinux.context: system_u:system_r:container_t:s0:c1,c2\n'
			printf '    kubectl.kubernetes.io/last-applied-configuration: "'
			cat $W/big
			printf '"\nspec:\n  containers:\n  - name: app\n    image: %s\n    command: ["/bin/sleep", "600"]\n' $IMG
		} >$y
		res=$(pm kube play --no-trunc --network none $y 2>&1)
		tap_result $? "podman kube play --no-trunc of a pod with a 200 KiB annotation"
		tap_diag "$(echo "$res" | tail -n 3 | cut -c1-300)"
		pid=$(pm inspect --format '{{.State.Pid}}' op-big-app 2>/dev/null)
		check_eq "podman kube play: the app container runs in its SELinux context" \
			"system_u:system_r:container_t:s0:c1,c2" "$(tr -d '\000' </proc/$pid/attr/selinux/current 2>/dev/null)"
		pm pod rm -f op-big >/dev/null 2>&1
	else
		tap_skip "podman kube play of a pod with a 200 KiB annotation" \
			"# SKIP $(podman --version): kube play refuses annotation values over 63 bytes and has no --no-trunc"
	fi
	# podman run: one argument may hold 128 KiB (MAX_ARG_STRLEN), so 120 KiB,
	# over the hook's old 64 KiB bound, through podman, conmon and crun
	head -c 122880 /dev/zero | tr '\0' x >$W/big120
	before=$(count)
	res=$(pm run --rm --network none \
		--annotation org.lsmns.lsm=selinux \
		--annotation '"org.lsmns.selinux.context=system_u:system_r:container_t:s0:c1,c2"' \
		--annotation "kubectl.kubernetes.io/last-applied-configuration=$(cat $W/big120)" \
		--annotation run.oci.hooks.stderr=$W/run.err \
		$IMG sh -c 'tr -d "\000" </proc/self/attr/current' 2>&1)
	rc=$?
	tap_result $rc "podman run with a 120 KiB unrelated annotation starts"
	[ $rc -eq 0 ] || tap_diag "$(echo "$res" | tail -n 3 | cut -c1-300)" "$(cut -c1-300 $W/run.err 2>/dev/null)"
	check_eq "podman run: it ran in its SELinux context" "system_u:system_r:container_t:s0:c1,c2" "$res"
	check_contains "podman run: the hook's line says it assigned" "allowed, assigned lsm namespace" \
		"$(cut -c1-300 $W/run.err 2>/dev/null)"
	# ---- lsmns ps --unassigned: a container that asked for nothing -------
	pm run -d --name op-plain --network none $IMG sleep 600 >/dev/null 2>&1
	pm run -d --name op-asked --network none --annotation org.lsmns.lsm=smack \
		--annotation org.lsmns.smack.label=ContainerC $IMG sleep 600 >/dev/null 2>&1
	plain=$(pm inspect --format '{{.State.Pid}}' op-plain 2>/dev/null)
	asked=$(pm inspect --format '{{.State.Pid}}' op-asked 2>/dev/null)
	ps=$(lsmns ps --unassigned 2>&1)
	tap_diag "$(echo "$ps" | tail -n 6)"
	check_contains "lsmns ps --unassigned lists the container without a namespace" \
		"$(printf '%7d' "$plain") sleep" "$(echo "$ps" | sed -n '/without an LSM namespace/,$p')"
	case "$(echo "$ps" | sed -n '/without an LSM namespace/,$p')" in
	*"$(printf '%7d' "$asked") "*) tap_result 1 "lsmns ps --unassigned leaves out the container in its namespace (control)" ;;
	*) tap_result 0 "lsmns ps --unassigned leaves out the container in its namespace (control)" ;;
	esac
	check_eq "lsmns ps --unassigned --json: the unassigned container's pid" "$plain" \
		"$(lsmns ps --unassigned --json | jq -r --argjson p "$plain" '.unassigned[].tasks[] | select(.pid == $p) | .pid')"
	pm rm -f op-plain op-asked >/dev/null 2>&1
else
	tap_skip "podman with a big unrelated annotation" "# SKIP no podman in this initramfs"
fi
tap_done
