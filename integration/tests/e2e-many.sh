#!/bin/sh
# End to end: many containers at once, each with its own random allowed
# assignment, each seeing its own.
#
#   e2e-many.sh [N]     default 50, started concurrently, crun and runc
#                       alternating
#
# Every container gets a random SELinux MCS pair c<a>,c<b> (a < b) under a
# test host policy that allows container_t:s0:c*,c*, through lsmns-hook.
# With LSM namespaces the assignment itself sets the context (and each one
# must see only {selinux}); without them the same context is also the
# runtime's process.selinuxLabel (which the hook requires to match) and the
# hook's request goes to a per-container file, which must hold exactly that
# container's context.  Each container prints attr/current; every one must
# see its own context and no other.  The hook's timeout is raised from the
# examples' 10 s to 120 s: 50 hooks at once under TCG on a shared 2-core
# machine take longer than 10 s, and crun then kills them.
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/e2e-many
N=${1:-50}
[ -d $E/selinux ] || { echo "Bail out! $E missing (make -C examples BUILD=dir; initramfs --dir dir:/lsmns/examples)"; exit 1; }
active=$(cat /sys/kernel/security/lsm)
case ",$active," in *,selinux,*) ;; *) echo "Bail out! needs SELinux active (lsm=...,selinux)"; exit 1 ;; esac
if [ -e /sys/kernel/security/lsmns/assign ]; then ns=yes; else ns=no; fi
check "load-policies selinux" $P/load-policies selinux
check "setup-demo" $P/setup-demo /lsmns/demo
cat >/tmp/e2e-many-policy.json <<'POLICY'
{"version": 1, "rules": [{"name": "e2e-many", "active": [["selinux"]],
  "contexts": {"selinux": ["system_u:system_r:container_t:s0:c[0-9]*,c[0-9]*"]},
  "default": "refuse"}]}
POLICY
chmod 0600 /tmp/e2e-many-policy.json

rm -rf $W
mkdir -p $W
i=1
while [ $i -le $N ]; do
	a=$(($(od -An -N2 -tu2 /dev/urandom) % 1023))
	b=$((a + 1 + $(od -An -N2 -tu2 /dev/urandom) % (1023 - a)))
	ctx=system_u:system_r:container_t:s0:c$a,c$b
	rt=crun; [ $((i % 2)) -eq 0 ] && rt=runc
	w=$W/$i
	mkdir -p $w
	: >$w/req.bin
	echo "$ctx" >$w/ctx
	echo $rt >$w/rt
	extra='[]'; spec='{}'
	[ $ns = no ] && { extra="[\"--assign-file\", \"$w/req.bin\"]"; spec="{\"selinuxLabel\": \"$ctx\"}"; }
	jq --arg root $E/selinux/rootfs --arg ctx "$ctx" --argjson extra "$extra" --argjson spec "$spec" --arg w $w '
		.root.path = $root
		| .annotations["org.lsmns.selinux.context"] = $ctx
		| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
		| .process.args = ["/bin/sh", "-c", "echo \"ctx=$(tr -d \"\\\\0\" </proc/self/attr/current)\"; echo \"lsm=$(cat /sys/kernel/security/lsm)\""]
		| .process += $spec
		| .hooks.createRuntime[0].args = ["lsmns-hook", "--policy", "/tmp/e2e-many-policy.json"] + $extra
		| .hooks.createRuntime[0].timeout = 120' \
		$E/selinux/config.json >$w/config.json
	i=$((i + 1))
done
# Namespaces alive before: after every container has exited, the count
# must come back (only the initial namespace, uncounted, remains).
count0=$(lsmns_settled_count)
t0=$(date +%s)
i=1
while [ $i -le $N ]; do
	(cd $W/$i && $(cat rt) run e2e-many-$i >out 2>err; echo $? >$W/$i/rc) &
	i=$((i + 1))
done
wait
tap_diag "$N containers in $(($(date +%s) - t0)) s"

started=0; own=0; reqok=0; setok=0; bad=""
i=1
while [ $i -le $N ]; do
	w=$W/$i
	ctx=$(cat $w/ctx)
	[ "$(cat $w/rc)" = 0 ] && started=$((started + 1))
	if [ "$(sed -n 's/^ctx=//p' $w/out)" = "$ctx" ]; then own=$((own + 1))
	else bad="$bad $i($(cat $w/rt): want $ctx got '$(sed -n 's/^ctx=//p' $w/out)' $(tail -n 1 $w/err))"; fi
	case $(od -An -c $w/req.bin | tr -d ' \n') in *"$(echo "$ctx" | tr -d ' ')"*) reqok=$((reqok + 1)) ;; esac
	case $(sed -n 's/^lsm=//p' $w/out) in capability,selinux | selinux) setok=$((setok + 1)) ;; esac
	i=$((i + 1))
done
check_eq "all $N concurrent containers ran (crun and runc)" $N $started
check_eq "each of the $N containers sees its own context" $N $own
[ -n "$bad" ] && tap_diag "wrong:$bad"
if [ $ns = no ]; then
	check_eq "each hook request holds that container's context" $N $reqok
	tap_skip "each of the $N containers sees only {selinux} as its LSM set" "# SKIP no LSM namespace support in this kernel"
else
	check_eq "each of the $N containers sees only {selinux} as its LSM set" $N $setok
fi
if [ $ns = yes ]; then
	lsmns_wait_count "$count0"
	check_eq "after all $N exited, only the initial namespace remains (lsmns/count back to $count0)" \
		"$count0" "$(cat /sys/kernel/security/lsmns/count)"
else
	tap_skip "after all $N exited, only the initial namespace remains" "# SKIP no LSM namespace support in this kernel"
fi
check_eq "nothing left behind (crun)" "" "$(crun list -q 2>/dev/null)"
check_eq "nothing left behind (runc)" "" "$(runc list -q 2>/dev/null)"
tap_done
