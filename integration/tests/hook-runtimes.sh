#!/bin/sh
# lsmns-hook as the createRuntime hook of an unmodified crun and runc: the
# runtimes hand it their real state, it decides by the host policy and
# sends one request.  This kernel has no assign file yet, so the request
# goes to a regular file given with --assign-file, which the test reads.
. /lsmns/lib/tap.sh
hook=/usr/libexec/lsmns/lsmns-hook
cat >/tmp/policy.json <<'POLICY'
{"version": 1, "rules": [{"name": "guest-test", "active": [["selinux"], ["smack"]],
  "contexts": {"selinux": ["system_u:system_r:container_t:s0:c1,c2"], "smack": ["ContainerC"]},
  "default": "refuse"}]}
POLICY
chmod 0600 /tmp/policy.json

make_bundle() { # runtime lsm label
	b=/tmp/hook-$1-$2
	rm -rf $b
	mkdir -p $b/rootfs/bin $b/rootfs/proc $b/rootfs/sys $b/rootfs/dev
	cp /bin/busybox $b/rootfs/bin/busybox
	ln -s busybox $b/rootfs/bin/sh
	echo 'echo container-ran' >$b/rootfs/probe
	jq --arg lsm "$2" --arg key "org.lsmns.$2.$( [ "$2" = smack ] && echo label || echo context)" \
	   --arg ctx "$3" --arg req "/tmp/req-$1-$2.bin" --arg err "/tmp/hook-$1-$2.err" \
	   '.annotations = {"org.lsmns.lsm": $lsm, ($key): $ctx, "run.oci.hooks.stderr": $err}
	    | .hooks = {"createRuntime": [{"path": "/usr/libexec/lsmns/lsmns-hook",
	        "args": ["lsmns-hook", "--policy", "/tmp/policy.json", "--assign-file", $req]}]}' \
	   /lsmns/bundles/busybox-config.json >$b/config.json
	echo $b
}

u32_at() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64_at() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }

check "lsmns-hook is installed in the guest" test -x $hook
for rt in crun runc; do
	b=$(make_bundle $rt smack ContainerC)
	: >/tmp/req-$rt-smack.bin
	out=$(cd $b && $rt run lsmns-hook-$rt 2>&1)
	tap_result $? "$rt runs a container through lsmns-hook (smack request allowed)"
	check_contains "$rt: container output comes back" "container-ran" "$out"
	req=/tmp/req-$rt-smack.bin
	check_eq "$rt: request version" 1 "$(u32_at $req 0)"
	check_eq "$rt: request has one entry" 1 "$(u32_at $req 12)"
	check_eq "$rt: request size field matches the bytes written" "$(wc -c <$req | tr -d ' ')" "$(u32_at $req 16)"
	check_eq "$rt: interface LSM is smack (102)" 102 "$(u64_at $req 24)"
	check_eq "$rt: entry is smack, active" "1 102" "$(u32_at $req 32) $(u64_at $req 40)"
	check_contains "$rt: entry context is the label" "ContainerC" "$(od -An -c $req | tr -d ' \n')"

	b=$(make_bundle $rt selinux system_u:system_r:container_t:s0:c9,c9)
	: >/tmp/req-$rt-selinux.bin
	out=$(cd $b && $rt run lsmns-hook-$rt-refused 2>&1)
	rc=$?
	[ $rc -ne 0 ]
	tap_result $? "$rt refuses to start a container whose context the policy does not allow"
	if [ $rt = crun ]; then
		check_contains "crun: the hook says why" "not allowed" "$(cat /tmp/hook-crun-selinux.err 2>/dev/null)"
	else
		check_contains "runc: the runtime reports the hook's failure" "hook" "$out"
	fi
	check_fails "$rt: nothing was sent for the refused container" test -s /tmp/req-$rt-selinux.bin
	check_eq "$rt: no container is left behind" "" "$($rt list -q 2>/dev/null)"
done
tap_done
