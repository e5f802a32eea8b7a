#!/bin/sh
# A busybox OCI bundle runs with crun and with runc (cgroup v2, pid, net,
# ipc, uts, mount and cgroup namespaces) and its output comes back.
. /lsmns/lib/tap.sh
make_bundle() {
	b=/tmp/bundle-$1
	mkdir -p $b/rootfs/bin $b/rootfs/proc $b/rootfs/sys $b/rootfs/dev $b/rootfs/tmp
	cp /bin/busybox $b/rootfs/bin/busybox
	for t in sh echo cat hostname readlink grep; do ln -s busybox $b/rootfs/bin/$t; done
	cp /lsmns/bundles/busybox-config.json $b/config.json
	cat >$b/rootfs/probe <<'PROBE'
echo "hello from $(hostname) pid $$"
echo "pidns $(readlink /proc/self/ns/pid)"
cat /proc/self/cgroup
PROBE
	echo $b
}
for rt in crun runc; do
	b=$(make_bundle $rt)
	out=$(cd $b && $rt run lsmns-$rt-1 2>&1)
	rc=$?
	tap_result $rc "$rt run exits 0"
	[ $rc -eq 0 ] || tap_diag "$out"
	check_contains "$rt: container output comes back (own hostname, pid 1)" "hello from lsmns-ctr pid 1" "$out"
	check_not_contains "$rt: container has its own pid namespace" "$(readlink /proc/self/ns/pid)" "$out"
	check_contains "$rt: container sees a cgroup namespace root" "0::/" "$out"
	check_eq "$rt: nothing left behind" "" "$($rt list -q 2>/dev/null)"
done
tap_done
