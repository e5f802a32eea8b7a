#!/bin/sh
# guest-trixie-ops: where Debian 13's crun 1.21 and podman 5.4 put the
# hook's refusal line, and a 200 KiB annotation through podman 5.4's kube
# play, in the trixie initramfs (not part of make check; run by hand):
#
#   integration/scripts/guest-run --kernel build/stable/bzImage-normal \
#       --initrd build/guest/trixie.cpio \
#       --cmdline 'lsm=capability,selinux,smack,apparmor' \
#       --file runtime-hook/build/lsmns-hook:/lsmns/op/lsmns-hook \
#       runtime-hook/tests/guest-trixie-ops.sh
#
# The programs run in the chroot /trixie (the trixie initramfs); /lsmns is
# bind-mounted into it, so the hook runs as /lsmns/op/lsmns-hook there.
. /lsmns/lib/tap.sh
. /lsmns/lib/cri.sh
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
[ -x /lsmns/op/lsmns-hook ] || { echo "Bail out! give the hook with --file ...:/lsmns/op/lsmns-hook"; exit 1; }
trixie_enter
tx() { chroot $T "$@"; }
tap_diag "Debian 13 stack: $(stack_versions)"
check "load-policies" /lsmns/policies/load-policies
check "setup-demo" /lsmns/policies/setup-demo /lsmns/demo
W=/tmp/ops
mkdir -p $T$W
HOOK=/lsmns/op/lsmns-hook
POL=/lsmns/policies/lsmns-policy.json

# bundle NAME JQ-FILTER: the selinux example, rewritten, at $W/NAME
bundle() {
	cp -a /lsmns/examples/selinux $T$W/$1
	jq --arg hook $HOOK --arg pol $POL "$2 | .hooks.createRuntime[0].path = \$hook
		| .hooks.createRuntime[0].args = [\"lsmns-hook\", \"--policy\", \$pol]" \
		/lsmns/examples/selinux/config.json >$T$W/$1/config.json
}

# ---- crun 1.21: a refusal, what the caller sees ----------------------------
bundle refused '.annotations["org.lsmns.selinux.context"] = "system_u:system_r:spc_t:s0"'
res=$(tx sh -c "cd $W/refused && crun run ops-refused" 2>&1)
rc=$?
check_fails "crun 1.21: the refused container does not start (exit $rc)" test $rc -eq 0
tap_diag "crun 1.21 says ($(echo "$res" | wc -l) lines):" "$(echo "$res" | head -n 6 | cut -c1-400)"
case "$res" in
*"is not allowed by policy rule"*) tap_diag "crun 1.21 passes the hook's stderr on" ;;
*) tap_diag "crun 1.21 does not pass the hook's stderr on" ;;
esac
check_contains "crun 1.21: its error names the hook's exit code" "exit code: 5" "$res"
tx crun delete -f ops-refused >/dev/null 2>&1

# ---- crun 1.21: --dry-run with the stdout crun gives hooks --------------------
bundle dry '.hooks.createRuntime[0].args += ["--dry-run"]'
jq --arg hook $HOOK --arg pol $POL '.hooks.createRuntime[0].args = ["lsmns-hook", "--policy", $pol, "--dry-run"]
	| .annotations["run.oci.hooks.stderr"] = "'$W'/dry.err"' \
	$T$W/dry/config.json >$T$W/dry.json && mv $T$W/dry.json $T$W/dry/config.json
res=$(tx sh -c "cd $W/dry && crun run ops-dry" 2>&1)
tap_result $? "crun 1.21: the hook with --dry-run lets the container start"
check_contains "crun 1.21: the dry run's line" "dry run, would assign: rule=demo-selinux" "$(cat $T$W/dry.err 2>/dev/null)"
tx crun delete -f ops-dry >/dev/null 2>&1

# ---- podman 5.4 ----------------------------------------------------------------
# podman with only this hook: --hooks-dir replaces the default directories
PMO="--root $W/pm/root --runroot $W/pm/run --storage-driver vfs --cgroup-manager cgroupfs --events-backend file --hooks-dir $W/hooks.d"
pm() { tx podman $PMO "$@"; }
mkdir -p $T$W/hooks.d
printf '{"version":"1.0.0","hook":{"path":"%s","args":["lsmns-hook","--policy","%s"],"timeout":10},"when":{"annotations":{"^org\\\\.lsmns\\\\.":".*"}},"stages":["createRuntime"]}\n' \
	$HOOK $POL >$T$W/hooks.d/lsmns-hook.json
tap_diag "hooks.d: $(cat $T$W/hooks.d/lsmns-hook.json)"
tar -C /lsmns/examples/smack/rootfs -cf $T$W/rootfs.tar .
IMG=localhost/lsmns-busybox:latest
check "podman 5.4: import of the example rootfs" pm import -q --change 'ENV PATH=/bin' $W/rootfs.tar $IMG
res=$(pm run --rm --network none --annotation org.lsmns.lsm=selinux \
	--annotation org.lsmns.selinux.context=system_u:system_r:spc_t:s0 $IMG true 2>&1)
rc=$?
check_fails "podman 5.4 + crun: a refused request does not run (exit $rc)" test $rc -eq 0
tap_diag "podman 5.4 + crun says ($(echo "$res" | wc -l) lines):" "$(echo "$res" | head -n 6 | cut -c1-400)"
case "$res" in
*"is not allowed by policy rule"*) tap_diag "podman 5.4 + crun 1.21 show the hook's line" ;;
*) tap_diag "podman 5.4 + crun 1.21 do not show the hook's line" ;;
esac

head -c 204800 /dev/zero | tr '\0' x >$T$W/big
y=$T$W/big-pod.yaml
{
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: op-big\n  annotations:\n'
	printf '    org.lsmns.lsm: selinux\n'
	printf '    org.lsmns.selinux.context: system_u:system_r:container_t:s0:c1,c2\n'
	printf '    kubectl.kubernetes.io/last-applied-configuration: "'
	cat $T$W/big
	printf '"\nspec:\n  containers:\n  - name: app\n    image: %s\n    command: ["/bin/sleep", "600"]\n' $IMG
} >$y
before=$(cat /sys/kernel/security/lsmns/count)
res=$(pm kube play --no-trunc --network none $W/big-pod.yaml 2>&1)
tap_result $? "podman 5.4: kube play --no-trunc of a pod with a 200 KiB annotation"
[ -z "$res" ] || tap_diag "$(echo "$res" | tail -n 3 | cut -c1-300)"
pid=$(pm inspect --format '{{.State.Pid}}' op-big-app 2>/dev/null)
check_eq "podman 5.4: the app container runs in its SELinux context" \
	"system_u:system_r:container_t:s0:c1,c2" "$(tr -d '\000' </proc/$pid/attr/selinux/current 2>/dev/null)"
check_eq "podman 5.4: one more LSM namespace" $((before + 1)) "$(cat /sys/kernel/security/lsmns/count)"
pm pod rm -f op-big >/dev/null 2>&1
tap_done
