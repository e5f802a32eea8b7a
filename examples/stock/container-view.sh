#!/bin/sh
# Guest side of the stock demo: start one busybox container with crun and
# print, as one "key=value" line, what the host and the container see.
b=/tmp/demo-bundle
mkdir -p $b/rootfs/bin $b/rootfs/proc $b/rootfs/sys $b/rootfs/dev
cp /bin/busybox $b/rootfs/bin/busybox
for t in sh cat tr; do ln -s busybox $b/rootfs/bin/$t; done
cp /lsmns/bundles/busybox-config.json $b/config.json
cat >$b/rootfs/probe <<'PROBE'
echo "current=$(cat /proc/self/attr/current 2>/dev/null | tr -d '\0' || echo '?')"
PROBE
inside=$(cd $b && crun run demo 2>&1 | sed -n 's/^current=//p')
echo "lsm=$(cat /sys/kernel/security/lsm) host=$(tr -d '\0' </proc/self/attr/current) inside=${inside:-?}"
