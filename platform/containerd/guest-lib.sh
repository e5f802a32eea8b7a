# cri.sh: helpers of the guest tests that run the Debian 13 stack
# (/trixie, packed by platform/trixie/pack-guest).  Sourced after tap.sh.
#
# The Debian 13 programs need Debian 13's glibc, so they run in a chroot
# of /trixie that sees the guest's /proc, /sys (securityfs, cgroup2,
# selinuxfs, smackfs), /dev and /lsmns; containerd's and podman's state is
# on tmpfs.  lsmns-hook is static and runs as it would on a node, where
# containerd's runc shim starts it.
T=/trixie
CRI_SOCK=$T/run/containerd/containerd.sock
CRI_LOG=/tmp/containerd.log

trixie_enter() {
	[ -d $T/usr/bin ] || { echo "Bail out! no Debian 13 root at $T (the trixie initramfs: make guest-trixie)"; exit 1; }
	# containerd's CRI streaming server listens on 127.0.0.1.
	ip link set lo up
	# The runtimes make the root of their mount namespace private, which
	# needs the chroot's root to be a mount.
	grep -q " $T " /proc/self/mountinfo || mount --bind $T $T
	mount --rbind /proc $T/proc
	mount --rbind /sys $T/sys
	mount --rbind /dev $T/dev
	mount -t tmpfs -o mode=0755 tmpfs $T/run
	mount -t tmpfs -o mode=1777 tmpfs $T/tmp
	mkdir -p $T/var/lib/containerd $T/var/lib/containers $T/var/log
	mount -t tmpfs -o mode=0700 tmpfs $T/var/lib/containerd
	mount -t tmpfs -o mode=0700 tmpfs $T/var/lib/containers
	mount --rbind /lsmns $T/lsmns
	mkdir -p /etc/lsmns
	cp /lsmns/policies/lsmns-policy.json $T/etc/lsmns/policy.json && chmod 0600 $T/etc/lsmns/policy.json
}
tx() { chroot $T "$@"; }
CONTAINERD="chroot $T /usr/bin/containerd"

# containerd16_enter: Debian 12's containerd 1.6 instead (the initramfs of
# `pack-guest --containerd16`), unpacked in /trixie/opt/containerd16 and
# run on the guest's own Debian 12 root with its runc 1.1.5 and crun 1.8.1
# and the same configuration.
C16=/trixie/opt/containerd16/usr/bin
containerd16_enter() {
	[ -x $C16/containerd ] || { echo "Bail out! no containerd 1.6 at $C16 (build/guest/containerd16.cpio)"; exit 1; }
	ip link set lo up
	mkdir -p /etc/containerd /var/lib/containerd /etc/lsmns
	cp $T/etc/containerd/config.toml /etc/containerd/
	# The base spec is containerd 1.7's default, ociVersion 1.1.0, which
	# crun 1.8.1 refuses ("unknown version specified"); containerd 1.6's
	# own default says 1.0.2-dev.
	jq '.ociVersion = "1.0.2-dev"' $T/etc/containerd/lsmns-base-spec.json >/etc/containerd/lsmns-base-spec.json
	mount -t tmpfs -o mode=0700 tmpfs /var/lib/containerd
	cp /lsmns/policies/lsmns-policy.json /etc/lsmns/policy.json && chmod 0600 /etc/lsmns/policy.json
	# containerd copies the node's resolv.conf into every pod.
	[ -e /etc/resolv.conf ] || : >/etc/resolv.conf
	T=""
	CRI_SOCK=/run/containerd/containerd.sock
	CONTAINERD="env PATH=$C16:$PATH $C16/containerd"
	tx() { env PATH=$C16:$PATH "$@"; }
	stack_versions() { echo "containerd $($C16/containerd --version | cut -d' ' -f3); $(crun --version | head -n 1); runc $(runc --version | sed -n 's/^runc version //p')"; }
}
stack_versions() { grep -E '^Package: (containerd|runc|crun|podman|conmon) ' $T/.lsmns-stack-versions | sed 's/Package: //; s/ Version://' | tr '\n' ';'; }

# containerd_start: containerd (in the chroot, or 1.6 on the guest's root), its log in $CRI_LOG, then
# the test images imported into the CRI plugin's namespace (k8s.io).
containerd_start() {
	$CONTAINERD --config /etc/containerd/config.toml >$CRI_LOG 2>&1 &
	CONTAINERD_PID=$!
	_i=0
	until lsmns-cri -socket $CRI_SOCK -timeout 2s version >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -ge 120 ] || ! kill -0 $CONTAINERD_PID 2>/dev/null; then
			echo "# containerd did not come up; its log:"
			tail -n 30 $CRI_LOG | sed 's/^/# /'
			return 1
		fi
		sleep 0.5
	done
	for img in /lsmns/images/*.tar; do
		tx ctr -n k8s.io images import /lsmns/images/$(basename $img) >/dev/null 2>>$CRI_LOG || return 1
	done
}
containerd_stop() {
	kill $CONTAINERD_PID 2>/dev/null
	wait $CONTAINERD_PID 2>/dev/null
}
cri() { lsmns-cri -socket $CRI_SOCK "$@"; }
ns_count() { cat /sys/kernel/security/lsmns/count; }
# lsmns_of PID: the LSM set of PID's namespace as /proc/PID/attr/lsmns
# shows it.
lsmns_of() { tr -d '\000' </proc/$1/attr/lsmns 2>&1; }

# The pod and container steps of the CRI tests.  They use the caller's
# W (work directory), IMG (image) and MOUNTS (-v options).
# pod NAME HANDLER ANNOTATION...: RunPodSandbox; the pod's id in $W/NAME.id,
# the CRI error in $W/NAME.err.
pod() {
	_n=$1 _h=$2; shift 2
	_a=""
	for _x in "$@"; do _a="$_a -a $_x"; done
	cri run-pod -name $_n -handler "$_h" $_a -save $W/$_n.json >$W/$_n.id 2>$W/$_n.err
}
# ctr POD-NAME CTR-NAME: CreateContainer + StartContainer of a container
# that sleeps; its id in $W/POD-CTR.id, errors in $W/POD-CTR.err.
ctr() {
	cri create -pod-config $W/$1.json -pod "$(cat $W/$1.id)" -name $2 -image $IMG $MOUNTS -- \
		/bin/sleep 600 >$W/$1-$2.id 2>$W/$1-$2.err &&
		cri start "$(cat $W/$1-$2.id)" 2>>$W/$1-$2.err
}
pod_gone() { cri stop-pod "$(cat $W/$1.id)" && cri rm-pod "$(cat $W/$1.id)"; }
# active_of PID: the LSMs active in PID's namespace, sorted.
active_of() { lsmns_of $1 | tr ' ' '\n' | sed -n 's/=active$//p' | sort | tr '\n' ',' | sed 's/,$//'; }
