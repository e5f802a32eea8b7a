#!/bin/sh
# crun and runc start a busybox container under the lsmns policy of $1
# (selinux: process.selinuxLabel container_t:s0:c1,c2; apparmor:
# process.apparmorProfile lsmns-demo-apparmor): the runtime's own way of
# entering the context works with these policies, and the container is
# denied its LSM's demo object and reads the control object.  (Smack: no
# runtime supports it; the lsmns hook will.)
# Needs /lsmns/policies (make -C policies) in the initramfs.
. /lsmns/lib/tap.sh
P=/lsmns/policies
lsm=$1
[ -x $P/load-policies ] || { echo "Bail out! $P/load-policies missing (make -C policies, initramfs --dir)"; exit 1; }
case $lsm in
selinux)
	key=selinuxLabel; ctx=system_u:system_r:container_t:s0:c1,c2; want=$ctx ;;
apparmor)
	key=apparmorProfile; ctx=lsmns-demo-apparmor; want="$ctx (enforce)" ;;
*) echo "Bail out! usage: policy-runtimes.sh selinux|apparmor"; exit 1 ;;
esac

check "load-policies $lsm" $P/load-policies $lsm

make_bundle() {
	b=/tmp/bundle-$1
	rm -rf $b
	mkdir -p $b/rootfs/bin $b/rootfs/proc $b/rootfs/sys $b/rootfs/dev $b/rootfs/tmp
	cp /bin/busybox $b/rootfs/bin/busybox
	for t in sh cat tr; do ln -s busybox $b/rootfs/bin/$t; done
	# The demo objects inside the container's root, labelled like the host's.
	$P/setup-demo $b/rootfs/lsmns/demo || return 1
	# The probe lives in /bin, where the AppArmor profile lets a shell read.
	sed -e "s|\"cwd\": \"/\",|\"cwd\": \"/\", \"$key\": \"$ctx\",|" \
		-e 's|"/probe"|"/bin/lsmns-probe"|' \
		/lsmns/bundles/busybox-config.json >$b/config.json
	cat >$b/rootfs/bin/lsmns-probe <<'PROBE'
echo "context: $(tr -d '\0' </proc/self/attr/current)"
echo "allowed: $(cat /lsmns/demo/allowed 2>&1)"
echo "denied: $(cat /lsmns/demo/denied-LSM 2>&1)"
PROBE
	sed -i "s/denied-LSM/denied-$lsm/" $b/rootfs/bin/lsmns-probe
	echo $b
}

for rt in crun runc; do
	b=$(make_bundle $rt)
	check_contains "$rt: config.json asks for $key" "\"$key\": \"$ctx\"" "$(cat $b/config.json)"
	out=$(cd $b && $rt run lsmns-policy-$rt 2>&1)
	rc=$?
	tap_result $rc "$rt run exits 0"
	[ $rc -eq 0 ] || tap_diag "$out"
	check_contains "$rt: the container runs in $want" "context: $want" "$out"
	check_contains "$rt: the container reads the control object" "allowed: lsmns-demo allowed" "$out"
	check_contains "$rt: the container is denied denied-$lsm" "denied: cat: can't open '/lsmns/demo/denied-$lsm': Permission denied" "$out"
	check_eq "$rt: nothing left behind" "" "$($rt list -q 2>/dev/null)"
done
tap_done
