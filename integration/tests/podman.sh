#!/bin/sh
# podman: Debian's podman 4.3 (conmon, crun, runc) runs lsmns containers
# through the hooks.d file `make install` installs; nothing on podman's
# command line names the hook.
#
# podman runs as root with its storage (vfs), run root and event log on
# tmpfs, cgroupfs as cgroup manager and no network; the image is made here
# by `podman import` of the example rootfs (busybox, the probe, lsm-query),
# no registry.  The host policy is policies/lsmns-policy.json, installed
# as /etc/lsmns/policy.json.
#
# 1. As shipped in this guest podman sets no LSM label of its own: no
#    SELinux lxc_contexts, and no apparmor_parser, without which podman 4.3
#    reports AppArmor disabled.  Containers annotated for {smack},
#    {selinux}, {apparmor} and {selinux,apparmor} (crun) land in their set,
#    with their context, are denied their demo object by their own LSM;
#    `podman exec` into each gets the same set and context.
# 2. Refusals: the host policy refuses a request -> `podman run` fails,
#    the hook's reason is shown (runc puts the hook's stderr in its error;
#    crun 1.8.1 only in the run.oci.hooks.stderr file), nothing runs, the
#    namespace count is unchanged.
# 3. podman's own labels with the annotations (docs/runtime-hook.md §6):
#    --security-opt label=... (SELinux labelling turned on with an
#    lxc_contexts file) and apparmor=... (apparmor_parser installed; under
#    runc, as crun 1.8.1 sends the profile to the interface LSM, crun#1350).
. /lsmns/lib/tap.sh
P=/lsmns/policies
W=/tmp/podman-test
IMG=localhost/lsmns-busybox:latest
mkdir -p $W /run/lsmns-podman
echo 0 >/proc/sys/kernel/printk_ratelimit

pm() {
	podman --root /run/lsmns-podman/root --runroot /run/lsmns-podman/run \
		--storage-driver vfs --cgroup-manager cgroupfs --events-backend file "$@"
}
count() { cat /sys/kernel/security/lsmns/count; }

[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no LSM namespace support in this kernel"; exit 1; }
command -v podman >/dev/null || { echo "Bail out! no podman in the initramfs (build-initramfs --podman)"; exit 1; }
tap_diag "$(podman --version); $(conmon --version | head -n 1); $(crun --version | head -n 1); runc $(runc --version | sed -n 's/^runc version //p')"
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo
mkdir -p /etc/lsmns
cp $P/lsmns-policy.json /etc/lsmns/policy.json && chmod 0600 /etc/lsmns/policy.json
check "the hooks.d file of make install is where podman looks" \
	test -f /usr/share/containers/oci/hooks.d/lsmns-hook.json
check_eq "no other hooks.d file" "lsmns-hook.json" \
	"$(ls /usr/share/containers/oci/hooks.d /etc/containers/oci/hooks.d 2>/dev/null | grep json)"

tar -C /lsmns/examples/smack/rootfs -cf $W/rootfs.tar .
check "podman import of the example rootfs" pm import -q $W/rootfs.tar $IMG
SEC="/sys/kernel/security"
RUNOPTS="--network none -v /lsmns/demo:/lsmns/demo:ro -v $SEC:$SEC:ro"

# pstart NAME DENY [podman run options...]: the probe, detached; it prints
# what it sees, tries to read DENY and waits on /tmp/ctl/go.  The hook's
# stderr goes to $W/NAME/hook.err (crun's run.oci.hooks.stderr).
pstart() {
	_n=$1; _deny=$2; shift 2
	rm -rf $W/$_n; mkdir -p $W/$_n/ctl; mkfifo $W/$_n/ctl/go
	pm run -d --name $_n $RUNOPTS -v $W/$_n/ctl:/tmp/ctl \
		--annotation run.oci.hooks.stderr=$W/$_n/hook.err \
		-e LSMNS_BUNDLE=$_n -e "LSMNS_DENY=$_deny" -e LSMNS_WAIT=/tmp/ctl/go \
		"$@" $IMG /bin/lsmns-probe >$W/$_n/id 2>$W/$_n/err
}
# pready NAME: 0 once the probe printed everything (pid in $W/NAME/pid).
pready() {
	_i=0
	while [ $_i -lt 240 ]; do
		pm logs $1 >$W/$1/out 2>&1
		if grep -q "^probe .* ready=" $W/$1/out; then
			pm inspect --format '{{.State.Pid}}' $1 >$W/$1/pid
			return 0
		fi
		[ "$(pm inspect --format '{{.State.Status}}' $1 2>/dev/null)" = running ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
	return 1
}
pfinish() {
	timeout 10 sh -c "echo go >$W/$1/ctl/go"
	pm wait $1 >$W/$1/rc 2>&1
	pm logs $1 >$W/$1/out 2>&1
	pm rm -f $1 >/dev/null 2>&1
}
pval() { sed -n "s/^probe [^ ]* $2=//p" $W/$1/out | head -n 1; }
shown() { if [ $1 = apparmor ]; then echo "$2 (enforce)"; else echo "$2"; fi; }
# denied_by PID OBJECT: the LSMs whose audit record names PID and OBJECT.
denied_by() {
	_recs=""; _i=0
	while [ $_i -lt 10 ]; do
		_recs=$(dmesg | grep -F "pid=$1 " | grep -F "${2##*/}")
		[ -n "$_recs" ] && break
		sleep 0.5; _i=$((_i + 1))
	done
	_who=""
	case $_recs in *"avc:  denied"*) _who="$_who selinux" ;; esac
	case $_recs in *'apparmor="DENIED"'*) _who="$_who apparmor" ;; esac
	case $_recs in *"lsm=SMACK"*) _who="$_who smack" ;; esac
	echo "${_who# }"
}
# An annotation whose value holds a comma: podman 4.3 splits --annotation
# at commas (a string-slice flag) unless the whole KEY=VALUE is quoted the
# CSV way, "KEY=a,b".
csv() { printf '"%s"' "$1"; }

# --- 1. the four example sets, through hooks.d, under crun -------------
SE=system_u:system_r:container_t:s0:c1,c2
AA=lsmns-demo-apparmor
SM=ContainerC
before=$(count)
res=$(pm run --rm $RUNOPTS $IMG sh -c 'tr -d "\000" </proc/self/attr/current; echo; cat /sys/kernel/security/lsm' 2>&1)
# The host's domain: unconfined_t under lsmns.cil, kernel_t under
# Debian's refpolicy (lsmns.test_policy=refpolicy).
host_t=$(tr -d '\0' </proc/self/attr/selinux/current | cut -d: -f3)
check_contains "an unannotated container does not reach the hook: host context ($host_t)" ":$host_t:" "$res"
check_contains "an unannotated container sees every LSM" "selinux,smack,apparmor" "$res"
check_eq "an unannotated container makes no namespace" "$before" "$(count)"

# name|set|interface|annotations (space separated, csv-quoted)|denied objects
cat >$W/cases <<EOF
pm-smack|smack|smack|org.lsmns.lsm=smack org.lsmns.smack.label=$SM|/lsmns/demo/denied-smack /lsmns/demo/denied-selinux
pm-selinux|selinux|selinux|org.lsmns.lsm=selinux $(csv org.lsmns.selinux.context=$SE)|/lsmns/demo/denied-selinux
pm-apparmor|apparmor|apparmor|org.lsmns.lsm=apparmor org.lsmns.apparmor.profile=$AA|/lsmns/demo/denied-apparmor /lsmns/demo/denied-selinux
pm-se-aa|selinux,apparmor|selinux|$(csv org.lsmns.lsm=selinux,apparmor) $(csv org.lsmns.selinux.context=$SE) org.lsmns.apparmor.profile=$AA org.lsmns.interface=selinux|/lsmns/demo/denied-selinux /lsmns/demo/denied-apparmor
EOF
ctx_for() { case $1 in selinux) echo $SE ;; apparmor) echo $AA ;; smack) echo $SM ;; esac; }
while IFS='|' read -r n set iface ann deny; do
	args=""
	for a in $ann; do args="$args --annotation '$a'"; done
	before=$(count)
	eval "pstart $n \"$deny\" $args"
	pready $n
	tap_result $? "$n: podman run starts it (hooks.d selects lsmns-hook)"
	[ -s $W/$n/err ] && tap_diag "$(cat $W/$n/err)"
	check_contains "$n: the hook allowed it" "allowed, assigned" "$(cat $W/$n/hook.err 2>/dev/null)"
	check_eq "$n: one more LSM namespace while it runs" $((before + 1)) "$(count)"
	tap_diag "$n: OCI annotations: $(jq -c .annotations "$(pm inspect --format '{{.OCIConfigPath}}' $n)" 2>&1)"
	pid=$(cat $W/$n/pid 2>/dev/null)
	want=$(echo "$set" | tr ',' '\n' | sort | tr '\n' ',' | sed 's/,$//')
	got=$(pval $n lsm_securityfs | tr ',' '\n' | grep -E '^(selinux|smack|apparmor)$' | sort | tr '\n' ',' | sed 's/,$//')
	check_eq "$n: /sys/kernel/security/lsm inside shows only {$set}" "$want" "$got"
	check_eq "$n: attr/current is the $iface context" "$(shown $iface "$(ctx_for $iface)")" "$(pval $n attr_current)"
	for l in $(echo $set | tr ',' ' '); do
		check_eq "$n: attr/$l/current is its $l context" "$(shown $l "$(ctx_for $l)")" "$(pval $n attr_$l)"
		o=/lsmns/demo/denied-$l
		check_contains "$n: reading $o fails with EACCES" "$o EACCES" "$(cat $W/$n/out)"
		check_contains "$n: $l is the LSM that denied $o" "$l" "$(denied_by "$pid" $o)"
	done
	case $set in smack | apparmor)
		check_contains "$n: hidden SELinux still denies denied-selinux" "/lsmns/demo/denied-selinux EACCES" "$(cat $W/$n/out)" ;;
	esac
	check_contains "$n: it reads the control object" "read: lsmns-demo allowed" "$(pval $n allowed)"
	# podman exec: a later entrant, adopted through the container's cgroup.
	ex=$(pm exec $n sh -c 'tr -d "\000" </proc/self/attr/current; echo; cat /sys/kernel/security/lsm' 2>&1)
	check_eq "$n: podman exec gets the same context" "$(shown $iface "$(ctx_for $iface)")" "$(echo "$ex" | head -n 1)"
	exset=$(echo "$ex" | tail -n 1 | tr ',' '\n' | grep -E '^(selinux|smack|apparmor)$' | sort | tr '\n' ',' | sed 's/,$//')
	check_eq "$n: podman exec sees only {$set}" "$want" "$exset"
	[ "$want" = "$exset" ] || tap_diag "podman exec: $ex"
	pfinish $n
	check_eq "$n: the probe ran to its end" 0 "$(cat $W/$n/rc)"
	check_eq "$n: its namespace is gone with it" "$before" "$(count)"
done <$W/cases

# podman 4.3's default seccomp profile predates the LSM syscalls (6.8):
# lsm_list_modules(2) is ENOSYS inside unless seccomp allows it.
res=$(pm run --rm $RUNOPTS --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=$SM $IMG /lsmns/bin/lsm-query list 2>&1)
check_contains "default seccomp profile: lsm_list_modules is ENOSYS inside" "Function not implemented" "$res"
res=$(pm run --rm $RUNOPTS --security-opt seccomp=unconfined --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=$SM $IMG /lsmns/bin/lsm-query list 2>&1 | tr '\n' ,)
check_eq "seccomp=unconfined: lsm_list_modules lists {smack} inside" "capability,smack," "$res"

# --- 2. refusals ------------------------------------------------------------
procs() { ps -o pid,args | grep -E 'conmon|sleep 77' | grep -v grep; }
for rt in crun runc; do
	n=refused-$rt
	before=$(count)
	res=$(pm run --name $n --runtime $rt $RUNOPTS --annotation run.oci.hooks.stderr=$W/$n.err \
		--annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=Intruder $IMG sleep 77 2>&1)
	rc=$?
	check_fails "$rt: podman run of a request the policy refuses fails (exit $rc)" test $rc -eq 0
	check_contains "$rt: podman names the failed hook" "lsmns-hook" "$res"
	reason='refused (request=smack smack=Intruder): smack context "Intruder" is not allowed by policy rule "demo-smack"'
	if [ $rt = runc ]; then
		check_contains "runc: the hook's one-line reason is in podman's error" "$reason" "$res"
	else
		check_contains "crun: the hook's one-line reason is in the run.oci.hooks.stderr file" "$reason" "$(cat $W/$n.err 2>/dev/null)"
	fi
	tap_diag "podman run ($rt): $res"
	st=$(pm ps -a --filter name=$n --format '{{.State}}')
	check_eq "$rt: podman ps -a shows the refused container never ran (created)" "created" "$(echo $st | tr A-Z a-z)"
	# conmon of the failed container exits on its own shortly after
	# podman returns: wait for it (10 s at most).
	i=0
	while [ -n "$(procs)" ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
	[ $i -eq 0 ] || tap_diag "$rt: conmon of the refused container took about $((i / 2)) s to exit"
	check_eq "$rt: nothing of it is left running (conmon, the container)" "" "$(procs)"
	check_eq "$rt: the runtime holds no container" "" "$($rt --root /run/$rt list -q 2>/dev/null)"
	check_eq "$rt: the LSM namespace count is unchanged" "$before" "$(count)"
	pm rm -f $n >/dev/null 2>&1
done
# A misspelt key still reaches the hook (the hooks.d value regex is .*).
res=$(pm run --rm --runtime runc $RUNOPTS --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.lable=$SM $IMG true 2>&1)
check_contains "a misspelt org.lsmns key reaches the hook and is refused" "org.lsmns.smack.lable" "$res"

# --- 3. podman's own labels with the annotations ----------------------------
# SELinux: podman labels containers once go-selinux finds an lxc_contexts
# file; each container then gets container_t:s0 with random categories.
mkdir -p /etc/selinux/lsmns/contexts
printf 'SELINUX=enforcing\nSELINUXTYPE=lsmns\n' >/etc/selinux/config
cat >/etc/selinux/lsmns/contexts/lxc_contexts <<'EOF'
process = "system_u:system_r:container_t:s0"
file = "system_u:object_r:tmpfs_t:s0"
ro_file = "system_u:object_r:tmpfs_t:s0"
EOF
res=$(pm run --rm $RUNOPTS $IMG sh -c 'tr -d "\000" </proc/self/attr/current' 2>&1)
check_contains "podman SELinux labelling on: an unannotated container gets container_t with random categories" "container_t:s0:c" "$res"
# srun NAME OPTS...: podman run (crun) of a probe printing attr/current;
# the hook's line in $W/NAME.err.
srun() {
	_n=$1; shift
	pm run --rm $RUNOPTS --annotation run.oci.hooks.stderr=$W/$_n.err "$@" $IMG \
		sh -c 'tr -d "\000" </proc/self/attr/current' >$W/$_n.out 2>&1
}
srun se-same --security-opt label=level:s0:c1,c2 --annotation org.lsmns.lsm=selinux --annotation "$(csv org.lsmns.selinux.context=$SE)"
tap_result $? "label=level:s0:c1,c2 with the same SELinux context annotated: allowed"
check_eq "label=level:s0:c1,c2 with the same annotation: the container runs as $SE" "$SE" "$(cat $W/se-same.out)"
srun se-other --security-opt label=level:s0:c3,c4 --annotation org.lsmns.lsm=selinux --annotation "$(csv org.lsmns.selinux.context=$SE)"
check_fails "label=level:s0:c3,c4 against an annotated s0:c1,c2: refused" test $? -eq 0
check_contains "label=level:s0:c3,c4: the hook names the conflict" 'conflicts with config.json process.selinuxLabel' "$(cat $W/se-other.err 2>/dev/null)"
srun se-spec --security-opt label=level:s0:c1,c2 --annotation org.lsmns.lsm=selinux
tap_result $? "label=level:s0:c1,c2 with org.lsmns.lsm=selinux alone: podman's label is the request, allowed"
check_eq "podman's label as the request: the container runs as $SE" "$SE" "$(cat $W/se-spec.out)"
srun se-random --annotation org.lsmns.lsm=selinux
check_fails "podman's random categories as the request: refused by the policy" test $? -eq 0
srun sm-random --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=$SM
check_fails "smack container with podman's random SELinux label: conflicts with the policy's hidden SELinux context" test $? -eq 0
check_contains "smack container with podman's label: the hook names the hidden context" "hidden" "$(cat $W/sm-random.err 2>/dev/null)"
srun sm-c11 --security-opt label=level:s0:c11 --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=$SM
tap_result $? "smack container with label=level:s0:c11 (the policy's hidden SELinux context): allowed"
srun se-disable --security-opt label=disable --annotation org.lsmns.lsm=selinux --annotation "$(csv org.lsmns.selinux.context=$SE)"
tap_result $? "label=disable with an SELinux annotation: allowed"
check_eq "label=disable: the container runs as the annotated $SE" "$SE" "$(cat $W/se-disable.out)"
rm -rf /etc/selinux

# AppArmor: podman 4.3 applies profiles only where it finds apparmor_parser.
cat >/usr/sbin/apparmor_parser <<'EOF'
#!/bin/sh
exec /lsmns/policies/apparmor/lib/ld.so --library-path /lsmns/policies/apparmor/lib /lsmns/policies/apparmor/apparmor_parser "$@"
EOF
chmod 0755 /usr/sbin/apparmor_parser
check_eq "with apparmor_parser, podman reports AppArmor enabled" true "$(pm info --format '{{.Host.Security.AppArmorEnabled}}')"
res=$(pm run --rm $RUNOPTS $IMG true 2>&1)
tap_diag "podman + crun with AppArmor on, SELinux the interface LSM: $res"
arun() {
	_n=$1; shift
	pm run --rm --runtime runc $RUNOPTS "$@" $IMG \
		sh -c 'tr -d "\000" </proc/self/attr/current' >$W/$_n.out 2>&1
}
arun aa-same --security-opt apparmor=$AA --annotation org.lsmns.lsm=apparmor --annotation org.lsmns.apparmor.profile=$AA
tap_result $? "runc: apparmor=$AA with the same profile annotated: allowed"
check_eq "runc: apparmor=$AA with the same annotation: the container runs under it" "$AA (enforce)" "$(cat $W/aa-same.out)"
arun aa-other --security-opt apparmor=unconfined --annotation org.lsmns.lsm=apparmor --annotation org.lsmns.apparmor.profile=$AA
check_fails "runc: apparmor=unconfined against an annotated $AA: refused" test $? -eq 0
check_contains "runc: apparmor=unconfined: the hook names the conflict" 'conflicts with config.json process.apparmorProfile' "$(cat $W/aa-other.out)"
arun aa-default --annotation org.lsmns.lsm=apparmor --annotation org.lsmns.apparmor.profile=$AA
check_fails "runc: podman's default profile against an annotated $AA: refused" test $? -eq 0
arun aa-spec --security-opt apparmor=$AA --annotation org.lsmns.lsm=apparmor
tap_result $? "runc: apparmor=$AA with org.lsmns.lsm=apparmor alone: podman's profile is the request, allowed"
check_eq "runc: podman's profile as the request: the container runs under $AA" "$AA (enforce)" "$(cat $W/aa-spec.out)"
# Hidden and inheriting (the policy gives AppArmor no context for Smack
# containers): podman's default profile applies at exec, as without lsmns.
pm run -d --name aa-hidden --runtime runc $RUNOPTS --annotation org.lsmns.lsm=smack --annotation org.lsmns.smack.label=$SM $IMG sleep 60 >$W/aa-hidden.out 2>&1
tap_result $? "runc: smack container, AppArmor hidden and inheriting, podman's default profile: allowed"
pid=$(pm inspect --format '{{.State.Pid}}' aa-hidden)
check_eq "runc: the smack container runs as $SM" "$SM" "$(tr -d '\000' </proc/$pid/attr/smack/current)"
check_contains "runc: hidden AppArmor applied podman's default profile at exec" "containers-default" "$(cat /proc/$pid/attr/apparmor/current)"
pm rm -f -t 0 aa-hidden >/dev/null 2>&1
rm -f /usr/sbin/apparmor_parser

check_eq "no podman container left" "" "$(pm ps -aq)"
check_eq "no LSM namespace left" 0 "$(count)"
tap_done
