#!/bin/sh
# podman-trixie: the container matrix on Debian 13's stack: podman 5.4 with
# conmon 2.1.12, crun 1.21 and runc 1.1.15, in the chroot of /trixie
# (platform/trixie), lsmns-hook selected by the hooks.d file of
# `make install`, the host policy policies/lsmns-policy.json.
# 1. Every example set ({smack}, {selinux}, {apparmor}, {selinux,apparmor},
#    and {smack} with SELinux and AppArmor released), under crun and
#    under runc: the container lands in its set with its contexts, its own
#    LSM denies its demo object, `podman exec` gets the same set and
#    context, and its namespace goes with it.
# 2. Refusals under both runtimes: podman run fails, the hook's reason is
#    where each runtime puts it, nothing is left, the count is unchanged.
# 3. Where Debian 13's versions differ from Debian 12's (podman.sh):
#    - annotation splitting: podman 5.4 no longer splits --annotation at
#      commas (4.3 did unless the value was CSV-quoted);
#    - AppArmor profile writes on a stacked host: crun 1.21 writes the
#      profile to attr/apparmor/exec, so --security-opt apparmor=PROFILE
#      works under crun too (crun 1.8.1 wrote it to the interface LSM's
#      attr/exec, crun#1350);
#    - the hook's reason in podman's error under crun.
. /lsmns/lib/tap.sh
. /lsmns/lib/cri.sh
W=/tmp/podman-trixie
echo 0 >/proc/sys/kernel/printk_ratelimit
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
trixie_enter
mkdir -p $T$W
IMG=localhost/lsmns-busybox:latest
pm() {
	chroot $T podman --root /var/lib/containers/storage --runroot /run/containers \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
}
tap_diag "$(pm --version); $(tx conmon --version | head -n 1); $(tx crun --version | head -n 1); runc $(tx runc --version | sed -n 's/^runc version //p')"
check "load-policies" /lsmns/policies/load-policies
check "setup-demo" /lsmns/policies/setup-demo /lsmns/demo
tar -C /lsmns/examples/smack/rootfs -cf $T$W/rootfs.tar .
check "podman 5.4: import of the example rootfs" pm import -q $W/rootfs.tar $IMG
[ $TAP_FAILED -eq 0 ] || { echo "Bail out! no image"; exit 1; }
SEC=/sys/kernel/security
RUNOPTS="--network none -v /lsmns/demo:/lsmns/demo:ro -v $SEC:$SEC:ro"
SE=system_u:system_r:container_t:s0:c1,c2
AA=lsmns-demo-apparmor
SM=ContainerC
released=$(grep -o 'lsmns.releasable=[^ ]*' /proc/cmdline)
shown() { if [ $1 = apparmor ]; then echo "$2 (enforce)"; else echo "$2"; fi; }
ctx_for() { case $1 in selinux) echo $SE ;; apparmor) echo $AA ;; smack) echo $SM ;; esac; }
sorted_set() { echo "$1" | tr ',' '\n' | sort | tr '\n' ',' | sed 's/,$//'; }
modes_of() { lsmns_of $1 | tr ' ' '\n' | sed -n "s/=$2\$//p" | sort | tr '\n' ',' | sed 's/,$//'; }

# --- 1. the example sets, crun and runc ---------------------------------
# name|set|released|interface|annotations (no value holds a space)
cat >$W.cases <<EOF
smack|smack||smack|org.lsmns.lsm=smack org.lsmns.smack.label=$SM
selinux|selinux||selinux|org.lsmns.lsm=selinux org.lsmns.selinux.context=$SE
apparmor|apparmor||apparmor|org.lsmns.lsm=apparmor org.lsmns.apparmor.profile=$AA
se-aa|selinux,apparmor||selinux|org.lsmns.lsm=selinux,apparmor org.lsmns.selinux.context=$SE org.lsmns.apparmor.profile=$AA org.lsmns.interface=selinux
smack-rel|smack|selinux,apparmor|smack|org.lsmns.lsm=smack org.lsmns.smack.label=$SM org.lsmns.release=selinux,apparmor
EOF
for rt in crun runc; do
	while IFS='|' read -r c set rel iface ann; do
		n=$rt-$c
		if [ -n "$rel" ] && [ -z "$released" ]; then
			tap_skip "$n" "# SKIP needs lsmns.releasable= on the kernel command line"
			continue
		fi
		args=""
		for a in $ann; do args="$args --annotation $a"; done
		before=$(ns_count)
		# shellcheck disable=SC2086
		pm run -d --name $n --runtime $rt $RUNOPTS $args $IMG sleep 600 >$W.$n.out 2>&1
		tap_result $? "$n: podman run -d"
		[ $? -eq 0 ] || tap_diag "$(cat $W.$n.out)"
		pid=$(pm inspect --format '{{.State.Pid}}' $n 2>/dev/null)
		want=$(sorted_set $set)
		check_eq "$n: active {$set}" "$want" "$(modes_of "$pid" active)"
		[ -z "$rel" ] || check_eq "$n: released {$rel}" "$(sorted_set $rel)" "$(modes_of "$pid" released)"
		check_eq "$n: one more namespace" $((before + 1)) "$(ns_count)"
		for l in $(echo $set | tr ',' ' '); do
			check_eq "$n: attr/$l/current is its $l context" "$(shown $l "$(ctx_for $l)")" \
				"$(tr -d '\000' </proc/$pid/attr/$l/current 2>&1)"
		done
		ex=$(pm exec $n sh -c 'printf cur=; tr -d "\000\n" </proc/self/attr/current; printf "\nlsm="; cat /sys/kernel/security/lsm; echo; cat /lsmns/demo/denied-'"${set%%,*}" 2>&1)
		check_eq "$n: podman exec gets the $iface context" "$(shown $iface "$(ctx_for $iface)")" \
			"$(echo "$ex" | sed -n 's/^cur=//p')"
		check_eq "$n: podman exec sees only {$set}" "$want" \
			"$(echo "$ex" | sed -n 's/^lsm=//p' | tr ',' '\n' | grep -E '^(selinux|smack|apparmor)$' | sort | tr '\n' ',' | sed 's/,$//')"
		check_contains "$n: podman exec is denied denied-${set%%,*}" "Permission denied" "$ex"
		pm rm -f -t 0 $n >/dev/null 2>&1
		check_eq "$n: its namespace is gone with it" "$before" "$(ns_count)"
	done <$W.cases
done

# --- 2. refusals -------------------------------------------------------------
reason='refused (request=smack smack=Intruder): smack context "Intruder" is not allowed by policy rule "demo-smack"'
for rt in crun runc; do
	before=$(ns_count)
	res=$(pm run --name refused-$rt --runtime $rt $RUNOPTS --annotation org.lsmns.lsm=smack \
		--annotation org.lsmns.smack.label=Intruder $IMG sleep 77 2>&1)
	rc=$?
	check_fails "$rt: podman run of a refused request fails (exit $rc)" test $rc -eq 0
	tap_diag "podman 5.4 + $rt: $res"
	check_contains "$rt: podman names the failed hook" "lsmns-hook" "$res"
	if [ $rt = runc ]; then
		check_contains "runc 1.1.15: the hook's reason is in podman's error" "$reason" "$res"
	else
		check_fails "crun 1.21: the hook's reason is not in podman's error (as crun 1.8.1)" \
			sh -c 'case "$1" in *"$2"*) exit 0 ;; esac; exit 1' sh "$res" "$reason"
	fi
	check_eq "$rt: the container never ran (created)" "created" \
		"$(pm ps -a --filter name=refused-$rt --format '{{.State}}' | tr A-Z a-z)"
	check_eq "$rt: the runtime holds no container" "" "$(tx $rt --root /run/$rt list -q 2>/dev/null)"
	check_eq "$rt: the namespace count is unchanged" "$before" "$(ns_count)"
	pm rm -f refused-$rt >/dev/null 2>&1
done

# --- 3. what Debian 13's versions do differently ----------------------------
# Annotation splitting: the value "selinux,apparmor" arrives whole.
pm create --name split --runtime runc --annotation org.lsmns.lsm=selinux,apparmor $IMG true >/dev/null 2>&1
cfg=$(pm inspect --format '{{.OCIConfigPath}}' split 2>/dev/null)
got=$(jq -r '.annotations["org.lsmns.lsm"]' $T$cfg 2>&1)
[ -f "$T$cfg" ] || got=$(pm inspect --format '{{index .Config.Annotations "org.lsmns.lsm"}}' split 2>&1)
check_eq "podman 5.4: --annotation org.lsmns.lsm=selinux,apparmor is not split at the comma" "selinux,apparmor" "$got"
pm rm -f split >/dev/null 2>&1

# AppArmor profile writes: with apparmor_parser podman applies profiles;
# crun 1.21 writes them through attr/apparmor/exec.
cat >$T/usr/sbin/apparmor_parser <<'EOF'
#!/bin/sh
exec /lsmns/policies/apparmor/lib/ld.so --library-path /lsmns/policies/apparmor/lib /lsmns/policies/apparmor/apparmor_parser "$@"
EOF
chmod 0755 $T/usr/sbin/apparmor_parser
check_eq "with apparmor_parser, podman 5.4 reports AppArmor enabled" true "$(pm info --format '{{.Host.Security.AppArmorEnabled}}')"
for rt in crun runc; do
	# Read from outside: the demo profile may not read its own attr files.
	pm run -d --name aa-$rt --runtime $rt $RUNOPTS --security-opt apparmor=$AA --annotation org.lsmns.lsm=apparmor \
		--annotation org.lsmns.apparmor.profile=$AA $IMG sleep 60 >$W.aa-$rt 2>&1
	tap_result $? "$rt: --security-opt apparmor=$AA with the same annotation: allowed"
	[ -s $W.aa-$rt ] && tap_diag "$(cat $W.aa-$rt)"
	pid=$(pm inspect --format '{{.State.Pid}}' aa-$rt 2>/dev/null)
	check_eq "$rt: it runs under $AA" "$AA (enforce)" "$(tr -d '\000' </proc/$pid/attr/apparmor/current 2>&1)"
	pm rm -f -t 0 aa-$rt >/dev/null 2>&1
	res=$(pm run --rm --runtime $rt $RUNOPTS $IMG sh -c 'cat /proc/self/attr/apparmor/current' 2>&1)
	check_contains "$rt: an unannotated container gets podman's default AppArmor profile" "containers-default" "$res"
	res=$(pm run --rm --runtime $rt $RUNOPTS --annotation org.lsmns.lsm=apparmor \
		--annotation org.lsmns.apparmor.profile=$AA $IMG true 2>&1)
	check_fails "$rt: podman's default profile against an annotated $AA is refused" test $? -eq 0
done
rm -f $T/usr/sbin/apparmor_parser

check_eq "no podman container left" "" "$(pm ps -aq)"
check_eq "no LSM namespace left" 0 "$(ns_count)"
tap_done
