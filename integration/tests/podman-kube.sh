#!/bin/sh
# podman-kube: `podman kube play` of examples/kube/lsmns-pods.yaml
# (/lsmns/examples/kube in the guest): three pods whose annotations ask
# for SELinux, AppArmor and Smack.  podman 4.3 copies a pod's annotations,
# same keys, into the OCI config of each of its containers (not the infra
# container's), the hooks.d file of `make install` selects lsmns-hook, and
# each app container lands in its own set; the infra containers stay in the
# host's.  `podman exec` gets the container's set; `podman kube down`
# leaves no namespace.
#
# Workaround, not lsmns: with --cgroup-manager cgroupfs on cgroup v2,
# podman 4.3 creates each pod's cgroup through runc's cgroup manager
# without SkipDevices, which attaches a deny-all device program to it
# (later podman sets res.SkipDevices = true there): nothing in the pod can
# open /dev/null and the infra container cannot start (crun: mknod
# /dev/null: EPERM).  Under systemd's cgroup manager pods are slices and
# this does not happen; the guest has no systemd.  The test creates the
# pods with --start=false, replaces each still empty pod cgroup by a fresh
# one (rmdir + mkdir, which drops the program), then starts the pods.
. /lsmns/lib/tap.sh
P=/lsmns/policies
W=/tmp/podman-kube
IMG=localhost/lsmns-busybox:latest
YAML=/lsmns/examples/kube/lsmns-pods.yaml
mkdir -p $W /run/lsmns-podman
pm() {
	podman --root /run/lsmns-podman/root --runroot /run/lsmns-podman/run \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
}
count() { cat /sys/kernel/security/lsmns/count; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
command -v podman >/dev/null || { echo "Bail out! no podman in the initramfs (build-initramfs --podman)"; exit 1; }
[ -f $YAML ] || { echo "Bail out! $YAML missing (make -C examples)"; exit 1; }
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
mkdir -p /etc/lsmns
cp $P/lsmns-policy.json /etc/lsmns/policy.json && chmod 0600 /etc/lsmns/policy.json
tar -C /lsmns/examples/smack/rootfs -cf $W/rootfs.tar .
check "podman import of the example rootfs" pm import -q --change 'ENV PATH=/bin' $W/rootfs.tar $IMG

before=$(count)
pm kube play --start=false --network none $YAML >$W/play.out 2>&1
tap_result $? "podman kube play --start=false $YAML"
tap_diag "$(cat $W/play.out)"
# The pod cgroups hold no process yet: replace each by a fresh one.
for d in /sys/fs/cgroup/libpod_parent/*/; do
	[ -d "$d" ] && [ -z "$(cat $d/cgroup.procs)" ] && rmdir $d && mkdir $d
done
for pod in lsmns-selinux lsmns-apparmor lsmns-smack; do
	check "podman pod start $pod" pm pod start $pod
done
check_eq "three more LSM namespaces (one per app container, none for infra)" $((before + 3)) "$(count)"

# name|set|the LSM's context|what the kernel shows in attr/LSM/current
cat >$W/cases <<'EOF'
lsmns-selinux|selinux|system_u:system_r:container_t:s0:c1,c2|system_u:system_r:container_t:s0:c1,c2
lsmns-apparmor|apparmor|lsmns-demo-apparmor|lsmns-demo-apparmor (enforce)
lsmns-smack|smack|ContainerC|ContainerC
EOF
while IFS='|' read -r pod lsm ctx shown; do
	c=$pod-app
	cfg=$(pm inspect --format '{{.OCIConfigPath}}' $c)
	check_eq "$pod: the pod's org.lsmns.lsm annotation is in the container's OCI config" "$lsm" \
		"$(jq -r '.annotations["org.lsmns.lsm"]' $cfg)"
	k=context; [ $lsm = apparmor ] && k=profile; [ $lsm = smack ] && k=label
	check_eq "$pod: and its org.lsmns.$lsm.$k" "$ctx" "$(jq -r ".annotations[\"org.lsmns.$lsm.$k\"]" $cfg)"
	check_eq "$pod: the hooks.d file put lsmns-hook in the OCI config" "/usr/libexec/lsmns/lsmns-hook" \
		"$(jq -r '.hooks.createRuntime[0].path' $cfg)"
	tap_diag "$pod: OCI annotations: $(jq -c '.annotations' $cfg)"
	pid=$(pm inspect --format '{{.State.Pid}}' $c)
	check_eq "$pod: the app container runs as $ctx ($lsm)" "$shown" "$(tr -d '\000' </proc/$pid/attr/$lsm/current)"
	ex=$(pm exec $c sh -c 'tr -d "\000" </proc/self/attr/current; echo; ls /proc/self/attr' 2>&1)
	check_eq "$pod: podman exec gets the same context" "$shown" "$(echo "$ex" | head -n 1)"
	others=$(echo "$ex" | grep -E '^(selinux|smack|apparmor)$' | tr '\n' ' ')
	check_eq "$pod: podman exec sees only /proc/self/attr/$lsm" "$lsm " "$others"
	inf=$(pm pod inspect $pod --format '{{.InfraContainerID}}')
	ipid=$(pm inspect --format '{{.State.Pid}}' $inf)
	check_eq "$pod: the infra container stays in the host's SELinux context" \
		"system_u:system_r:unconfined_t:s0-s0:c0.c1023" "$(tr -d '\000' </proc/$ipid/attr/selinux/current)"
done <$W/cases
check "podman kube down" pm kube down $YAML
check_eq "no container left" "" "$(pm ps -aq)"
check_eq "no LSM namespace left" "$before" "$(count)"
tap_done
