#!/bin/sh
# podman-kube [bookworm|trixie [pods|workloads]]: `podman kube play` of examples/kube/lsmns-pods.yaml
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
#
# With the argument "trixie" the same runs on Debian 13's stack (podman
# 5.4, conmon 2.1.12, crun 1.21) in the chroot of /trixie (the trixie
# initramfs, platform/trixie): files podman reads are written under $T
# (the chroot's root, empty on Debian 12's stack) and named without it.
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
P=/lsmns/policies
W=/tmp/podman-kube
IMG=localhost/lsmns-busybox:latest
YAML=/lsmns/examples/kube/lsmns-pods.yaml
T=
# PART: pods (the three Pods), workloads (the kinds, the strict node) or,
# by default, both; the Debian 13 stack boots them apart to stay well
# inside one boot's time.
part=${2:-all}
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
if [ "${1:-bookworm}" = trixie ]; then
	. /lsmns/lib/cri.sh
	trixie_enter
	pm() {
		chroot $T podman --root /var/lib/containers/storage --runroot /run/containers \
			--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
	}
else
	command -v podman >/dev/null || { echo "Bail out! no podman in the initramfs (build-initramfs --podman)"; exit 1; }
	mkdir -p /run/lsmns-podman
	pm() {
		podman --root /run/lsmns-podman/root --runroot /run/lsmns-podman/run \
			--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
	}
fi
mkdir -p $T$W
count() { cat /sys/kernel/security/lsmns/count; }
[ -f $YAML ] || { echo "Bail out! $YAML missing (make -C examples)"; exit 1; }
ver=$(pm version --format '{{.Client.Version}}')
tap_diag "podman $ver"
vmaj=${ver%%.*}; vrest=${ver#*.}; vmin=${vrest%%.*}
vnum=$((vmaj * 100 + vmin))
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
mkdir -p $T/etc/lsmns
cp $P/lsmns-policy.json $T/etc/lsmns/policy.json && chmod 0600 $T/etc/lsmns/policy.json
tar -C /lsmns/examples/smack/rootfs -cf $T$W/rootfs.tar .
check "podman import of the example rootfs" pm import -q --change 'ENV PATH=/bin' $W/rootfs.tar $IMG

# fresh_pod_cgroups: the workaround above, where podman needs it (4.3).
fresh_pod_cgroups() {
	[ $vnum -ge 500 ] && return 0
	for d in /sys/fs/cgroup/libpod_parent/*/; do
		[ -d "$d" ] && [ -z "$(cat $d/cgroup.procs)" ] && rmdir $d && mkdir $d
	done
	return 0
}

if [ $part != workloads ]; then
	before=$(count)
	pm kube play --start=false --network none $YAML >$T$W/play.out 2>&1
	tap_result $? "podman kube play --start=false $YAML"
	tap_diag "$(cat $T$W/play.out)"
	# The pod cgroups hold no process yet: replace each by a fresh one.
	fresh_pod_cgroups
	for pod in lsmns-selinux lsmns-apparmor lsmns-smack; do
		check "podman pod start $pod" pm pod start $pod
	done
	check_eq "three more LSM namespaces (one per app container, none for infra)" $((before + 3)) "$(count)"

	# name|set|the LSM's context|what the kernel shows in attr/LSM/current
	cat >$T$W/cases <<'EOF'
lsmns-selinux|selinux|system_u:system_r:container_t:s0:c1,c2|system_u:system_r:container_t:s0:c1,c2
lsmns-apparmor|apparmor|lsmns-demo-apparmor|lsmns-demo-apparmor (enforce)
lsmns-smack|smack|ContainerC|ContainerC
EOF
	while IFS='|' read -r pod lsm ctx shown; do
		c=$pod-app
		cfg=$T$(pm inspect --format '{{.OCIConfigPath}}' $c)
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
	done <$T$W/cases
	check "podman kube down" pm kube down $YAML
	check_eq "no container left" "" "$(pm ps -aq)"
	check_eq "no LSM namespace left" "$before" "$(count)"
fi

# ---- Workload kinds: Deployment, DaemonSet, Job ---------------------------
# Kubernetes gives a workload's pods the annotations of its pod *template*
# (spec.template.metadata.annotations).  podman kube play gives them the
# annotations of the workload object itself (metadata.annotations) and
# drops the template's (playKubeDeployment, playKubeDaemonSet and
# playKubeJob pass deploymentYAML.Annotations etc. to playKubePod, podman
# 4.3 to 5.4).  A manifest written for Kubernetes therefore starts under
# podman with no request at all: no org.lsmns.* key reaches the OCI config,
# the hooks.d file does not select the hook, and the containers run in the
# host's LSM namespace.  What each podman version makes of the kinds (from
# its source, pkg/domain/infra/abi/play.go):
#   Deployment  < 4.4: one pod per replica, NAME-pod-I; >= 4.4: one pod NAME-pod
#   DaemonSet   < 4.7: not supported; >= 4.7: one pod NAME-pod
#   Job         < 5.3: not supported; >= 5.3: one pod NAME-pod
# An unsupported kind is skipped with an info message; a file holding
# nothing else fails with "YAML document does not contain any supported
# kube kind".
# workload KIND NAME WHERE PROFILE [REPLICAS]: a manifest of KIND whose pods
# run /bin/sleep and ask for AppArmor PROFILE; WHERE says where the
# annotations are: template (the Kubernetes way) or both (template and the
# object).  A Deployment has REPLICAS (default 2).  $object_extra, when set,
# is one more "key: value" annotation of the object.
workload() {
	kind=$1 name=$2 where=$3 profile=$4 replicas=${5:-2}
	ann="    org.lsmns.lsm: apparmor
    org.lsmns.apparmor.profile: $profile"
	tann=$(echo "$ann" | sed 's/^/    /')
	case $kind in Deployment | DaemonSet) api=apps/v1 ;; Job) api=batch/v1 ;; esac
	echo "apiVersion: $api"
	echo "kind: $kind"
	echo "metadata:"
	echo "  name: $name"
	oann=
	[ $where = both ] && oann=$ann
	[ -n "${object_extra:-}" ] && oann="$oann${oann:+
}    $object_extra"
	[ -n "$oann" ] && { echo "  annotations:"; echo "$oann"; }
	echo "spec:"
	[ $kind = Deployment ] && echo "  replicas: $replicas"
	[ $kind != Job ] && printf '  selector:\n    matchLabels: { app: %s }\n' $name
	echo "  template:"
	echo "    metadata:"
	echo "      labels: { app: $name }"
	echo "      annotations:"
	echo "$tann"
	echo "    spec:"
	[ $kind = Job ] && echo "      restartPolicy: Never"
	echo "      containers:"
	echo "      - name: app"
	echo "        image: $IMG"
	echo '        command: ["/bin/sleep", "600"]'
}

# pods KIND NAME [REPLICAS]: the pod names this podman gives a workload's
# pods, or "unsupported".
pods() {
	case $1 in
	Deployment)
		if [ $vnum -lt 404 ]; then
			i=0
			while [ $i -lt ${3:-2} ]; do printf '%s-pod-%d ' $2 $i; i=$((i + 1)); done
		else
			echo "$2-pod"
		fi ;;
	DaemonSet) [ $vnum -lt 407 ] && echo unsupported || echo "$2-pod" ;;
	Job) [ $vnum -lt 503 ] && echo unsupported || echo "$2-pod" ;;
	esac
}

# The namespace id of a task, from /proc/PID/attr/lsmns ("id=0" is the
# host's): what an operator reads to see that a container got no namespace.
nsid() { sed -n 's/^id=\([0-9]*\) .*/\1/p' /proc/$1/attr/lsmns; }

if [ $part = pods ]; then
	tap_done
	exit
fi
AA="lsmns-demo-apparmor (enforce)"
# One file per placement of the request, holding every kind this podman
# supports, so one kube play and one kube down serve them all; a kind it
# does not support is played alone, once, to show the refusal.
for where in template both; do
	y=$W/wl-$where.yaml
	: >$T$y
	expect=
	for kind in Deployment DaemonSet Job; do
		lk=$(echo $kind | tr 'A-Z' 'a-z')
		name=wl-$lk-$where
		p=$(pods $kind $name)
		if [ "$p" = unsupported ]; then
			[ $where = template ] || continue
			workload $kind $name $where lsmns-demo-apparmor >$T$W/$name.yaml
			before=$(count)
			out=$(pm kube play --start=false --network none $W/$name.yaml 2>&1)
			rc=$?
			check_eq "$kind: podman $ver refuses the kind, nothing runs" "125 none" \
				"$rc $(pm pod ps -q | wc -l | sed 's/^0$/none/')"
			check_contains "$kind: and says why" "does not contain any supported kube kind" "$out"
			check_eq "$kind: no LSM namespace" "$before" "$(count)"
			continue
		fi
		{ [ -s $T$y ] && echo ---; workload $kind $name $where lsmns-demo-apparmor; } >>$T$y
		for pod in $p; do expect="$expect $kind:$pod"; done
	done
	[ -n "$expect" ] || continue
	before=$(lsmns_settled_count)
	out=$(pm kube play --start=false --network none $y 2>&1)
	tap_result $? "request in the $where: podman kube play --start=false of $(echo $expect | sed 's/:[^ ]*//g')"
	tap_diag "$out"
	fresh_pod_cgroups
	n=0 ids= pids=
	for kp in $expect; do
		kind=${kp%%:*} pod=${kp#*:}
		n=$((n + 1))
		check "$kind ($where): podman pod start $pod" pm pod start $pod
		c=$pod-app
		set -- $(pm inspect --format '{{.OCIConfigPath}} {{.State.Pid}}' $c)
		cfg=$T$1 pid=$2
		pids="$pids $pid"
		if [ $where = template ]; then
			check_eq "$kind ($where): $c: the template's request is not in the OCI config" "null null" \
				"$(jq -r '[.annotations["org.lsmns.lsm"], .hooks.createRuntime[0].path] | map(tostring) | join(" ")' $cfg)"
			check_eq "$kind ($where): $c: runs in the host's LSM namespace (attr/lsmns id=0)" 0 "$(nsid $pid)"
		else
			check_eq "$kind ($where): $c: the object's request is in the OCI config" apparmor \
				"$(jq -r '.annotations["org.lsmns.lsm"]' $cfg)"
			check_eq "$kind ($where): $c: runs as $AA" "$AA" "$(tr -d '\000' </proc/$pid/attr/apparmor/current)"
			id=$(nsid $pid)
			check_eq "$kind ($where): $c: in an LSM namespace of its own (attr/lsmns id=$id)" yes \
				"$([ -n "$id" ] && [ "$id" != 0 ] && ! echo " $ids " | grep -q " $id " && echo yes)"
			ids="$ids $id"
		fi
	done
	want=$before
	[ $where = both ] && want=$((before + n))
	check_eq "request in the $where: $n pod(s), $((want - before)) more LSM namespace(s)" "$want" "$(count)"
	if [ $where = template ]; then
		# lsmns ps lists namespaces and their tasks: the containers of
		# a dropped request are in none of them.
		ps_pids=$(lsmns ps --json | jq -r '.namespaces[].tasks[].pid' | tr '\n' ' ')
		for pid in $pids; do
			check_not_contains "request in the template: lsmns ps does not list the app container (pid $pid)" " $pid " " $ps_pids"
		done
	fi
	check "request in the $where: podman kube down" pm kube down $y
	check_eq "request in the $where: no LSM namespace left" "$before" "$(lsmns_settled_count)"
done

# Noticing a request that went missing: a node where every container goes
# through the hook (lsmns-hook-always.json, from make install's share/lsmns,
# as the only hooks.d file) and whose policy expects a request from every
# kube play app container (a rule without a default) refuses the
# Kubernetes-style Deployment instead of running it in the host's
# namespace, with the hook's reason; the same Deployment with the request
# on the object still lands, and one whose request the policy does not
# allow is refused.  run.oci.hooks.stderr (on the object, which podman
# passes on) is where crun puts the hook's line.  The rule matches an
# annotation podman puts on kube play's app containers and not on the
# infra container: io.kubernetes.cri-o.ContainerType=container (4.3),
# io.podman.annotations.kube.health.check (5.x, which sets no
# ContainerType).
if [ $vnum -ge 500 ]; then
	appkey=io.podman.annotations.kube.health.check appval='*'
else
	appkey=io.kubernetes.cri-o.ContainerType appval=container
fi
mkdir -p $T$W/hooks-always
cp /usr/share/lsmns/lsmns-hook-always.json $T$W/hooks-always/
cat >$T$W/strict-policy.json <<EOF
{ "version": 1, "rules": [
  { "name": "kube-play-apps",
    "match": { "annotations": { "$appkey": "$appval" } },
    "active": [["apparmor"]],
    "contexts": { "apparmor": ["lsmns-demo-apparmor"] },
    "hidden": { "selinux": "system_u:system_r:container_t:s0:c10", "smack": null },
    "default": "refuse" },
  { "name": "rest", "default": "none" } ] }
EOF
cp $T$W/strict-policy.json $T/etc/lsmns/policy.json
y=$W/strict.yaml
: >$T$y
for case in template:lsmns-demo-apparmor both:lsmns-demo-apparmor refused:lsmns-not-in-the-policy; do
	where=${case%%:*} profile=${case#*:}
	object_extra="run.oci.hooks.stderr: $W/strict-$where.hook-err"
	{ [ -s $T$y ] && echo ---; workload Deployment strict-$where $([ $where = template ] && echo template || echo both) $profile 1; } >>$T$y
	object_extra=
done
before=$(lsmns_settled_count)
check "strict node: podman kube play --start=false of three Deployments" \
	pm --hooks-dir $W/hooks-always kube play --start=false --network none $y
fresh_pod_cgroups
for where in template both refused; do
	pod=$(pods Deployment strict-$where 1 | cut -d' ' -f1)
	out=$(pm --hooks-dir $W/hooks-always pod start $pod 2>&1)
	rc=$?
	err=$(cat $T$W/strict-$where.hook-err 2>/dev/null)
	case $where in
	template)
		check_eq "strict node, request in the template: $pod does not start" 1 "$([ $rc -ne 0 ] && echo 1)"
		tap_diag "$out"
		check_contains "strict node, request in the template: the hook says the request went missing" \
			'refuses containers without one' "$err"
		tap_diag "$err" ;;
	both)
		tap_result $rc "strict node, request on the object too: $pod starts"
		[ $rc -eq 0 ] || tap_diag "$out"
		pid=$(pm inspect --format '{{.State.Pid}}' $pod-app)
		check_eq "strict node, request on the object too: $pod-app runs as $AA" "$AA" \
			"$(tr -d '\000' </proc/$pid/attr/apparmor/current)"
		inf=$(pm pod inspect $pod --format '{{.InfraContainerID}}')
		set -- $(pm inspect --format '{{.OCIConfigPath}} {{.State.Pid}}' $inf)
		check_eq "strict node: the infra container goes through the hook too" \
			/usr/libexec/lsmns/lsmns-hook "$(jq -r '.hooks.createRuntime[0].path' $T$1)"
		check_eq "strict node: and is left alone (rule rest, default none)" 0 "$(nsid $2)" ;;
	refused)
		check_eq "strict node, a request the policy refuses: $pod does not start" 1 "$([ $rc -ne 0 ] && echo 1)"
		check_contains "strict node, a request the policy refuses: the hook says why" \
			'apparmor context "lsmns-not-in-the-policy" is not allowed' "$err"
		tap_diag "$err"
		check_eq "strict node, a request the policy refuses: $pod-app is not running" no \
			"$([ "$(pm inspect --format '{{.State.Running}}' $pod-app)" = true ] && echo yes || echo no)" ;;
	esac
done
check_eq "strict node: one more LSM namespace (the Deployment that asks and is allowed)" $((before + 1)) "$(count)"
pm kube down $y >/dev/null 2>&1
pm pod rm -af >/dev/null 2>&1
cp $P/lsmns-policy.json $T/etc/lsmns/policy.json
check_eq "no pod left after the workload kinds" "" "$(pm pod ps -q)"
check_eq "no LSM namespace left after the workload kinds" "$before" "$(lsmns_settled_count)"
tap_done
