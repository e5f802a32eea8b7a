#!/bin/sh
# End to end: requests that must not start a container, and escape
# attempts from inside one.
#
# Refusals (crun and runc, the example bundles edited one way each): an
# org.lsmns.* annotation the hook does not know, an unknown LSM, a
# malformed context, a context the policy does not allow, a missing policy
# file.  Each time: the runtime exits non-zero, the hook's message comes
# back (crun: the run.oci.hooks.stderr file and crun's own error naming
# the hook; runc: its error output), nothing was sent to the kernel, no
# container state, cgroup or process is left behind.  These run on every
# kernel: without LSM namespaces the hook's request goes to a regular file
# (--assign-file), which must stay empty.
#
# Escapes (from inside a container of each LSM, with securityfs mounted
# read-write so the kernel, not a read-only mount, must say no): write
# another LSM's attr files, switch the interface LSM, open
# /sys/kernel/security/lsmns/assign, load policy.  With LSM namespaces all
# are tested; without, the SELinux policy load from a container_t
# container is (selinuxfs bind-mounted in), the rest are SKIPped.
. /lsmns/lib/tap.sh
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/e2e-ref
[ -d $E/selinux ] || { echo "Bail out! $E missing (make -C examples BUILD=dir; initramfs --dir dir:/lsmns/examples)"; exit 1; }
NS_SKIP="# SKIP no LSM namespace support in this kernel"
active=$(cat /sys/kernel/security/lsm)
is_active() { case ",$active," in *",$1,"*) return 0 ;; esac; return 1; }
if [ -e /sys/kernel/security/lsmns/assign ]; then ns=yes; else ns=no; fi
tap_diag "active: $active; LSM namespaces: $ns"
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo

# prep NAME BUNDLE JQ [POLICY]: runtime copy of BUNDLE edited by JQ; the
# hook always writes to $W/NAME/req.bin (a regular file) so what it sent
# can be checked on every kernel.
prep() {
	w=$W/$1
	rm -rf $w
	mkdir -p $w
	: >$w/req.bin
	jq --arg root $E/$2/rootfs --arg w $w --arg pol "${4:-$P/lsmns-policy.json}" "
		.root.path = \$root
		| .annotations[\"run.oci.hooks.stderr\"] = (\$w + \"/hook.err\")
		| .hooks.createRuntime[0].args = [\"lsmns-hook\", \"--policy\", \$pol, \"--assign-file\", (\$w + \"/req.bin\")]
		| $3" $E/$2/config.json >$w/config.json
}
cgroups() { find /sys/fs/cgroup -type d | wc -l; }

refuse() { # DESC BUNDLE JQ WANT-IN-MESSAGE [POLICY]
	desc=$1; b=$2; j=$3; msg=$4; pol=${5:-}
	for rt in crun runc; do
		n=$rt-$(echo "$desc" | tr -c 'a-z0-9\n' - | cut -c1-40)
		prep $n $b "$j" $pol
		before=$(cgroups)
		out=$(cd $W/$n && $rt run "e2e-$n" 2>&1)
		rc=$?
		[ $rc -ne 0 ]
		tap_result $? "$rt: $desc: the container does not start"
		check_not_contains "$rt: $desc: the probe never ran" "probe $b attr_current" "$out"
		if [ $rt = crun ]; then
			check_contains "$rt: $desc: crun reports the failed hook" "lsmns-hook" "$out"
			check_contains "$rt: $desc: the hook's message says why" "$msg" "$(cat $W/$n/hook.err 2>/dev/null)"
		else
			check_contains "$rt: $desc: runc reports the hook's message" "$msg" "$out"
		fi
		check_fails "$rt: $desc: nothing was sent to the kernel" test -s $W/$n/req.bin
		check_eq "$rt: $desc: no container state left" "" "$($rt list -q 2>/dev/null)"
		[ -e /run/$rt/e2e-$n ] && tap_result 1 "$rt: $desc: no state directory left" ||
			tap_result 0 "$rt: $desc: no state directory left"
		check_eq "$rt: $desc: no cgroup left" "$before" "$(cgroups)"
		check_eq "$rt: $desc: no container process left" "" "$(ps -o pid,args | grep -F '/bin/lsmns-probe' | grep -v grep)"
	done
}

refuse "unknown org.lsmns annotation" smack '.annotations["org.lsmns.smack.labl"] = "ContainerC"' "org.lsmns.smack.labl"
refuse "unknown LSM in org.lsmns.lsm" smack '.annotations["org.lsmns.lsm"] = "smack,tomoyo"' "tomoyo"
refuse "malformed context (control byte)" selinux '.annotations["org.lsmns.selinux.context"] = "system_u:system_r:container_t:s0:c1,c2\u0001"' "selinux"
refuse "context the policy does not allow" selinux '.annotations["org.lsmns.selinux.context"] = "system_u:system_r:unconfined_t:s0"' "not allowed"
refuse "annotation without org.lsmns.lsm" apparmor 'del(.annotations["org.lsmns.lsm"])' "org.lsmns.lsm"
refuse "missing policy file" apparmor '.' "/lsmns/no-such-policy.json" /lsmns/no-such-policy.json

# --- escapes from inside
esc_prep() { # NAME BUNDLE SCRIPT: the container runs SCRIPT, securityfs rw
	w=$W/$1
	rm -rf $w
	mkdir -p $w
	extra='[]'
	[ $ns = no ] && { : >$w/req.bin; extra="[\"--assign-file\", \"$w/req.bin\"]"; }
	jq --arg root $E/$2/rootfs --arg s "$3" --argjson extra "$extra" '
		.root.path = $root
		| .process.args = ["/bin/sh", "-c", $s]
		| .mounts |= map(if .type == "securityfs" then .options = ["nosuid", "noexec", "nodev"] else . end)
		| .hooks.createRuntime[0].args += $extra' $E/$2/config.json >$w/config.json
}
try_write='w() { if printf "%s" "$2" >"$1" 2>/dev/null; then echo "$3=written"; else echo "$3=refused"; fi; };'
if [ $ns = yes ]; then
	for b in selinux apparmor smack; do
		s=$try_write
		for o in selinux apparmor smack; do
			[ $o = $b ] && continue
			s="$s w /proc/self/attr/$o/current x $o-current; w /proc/self/attr/$o/exec x $o-exec;"
			s="$s w /proc/self/attr/interface_lsm $o interface-$o;"
		done
		s="$s if (exec 3>/sys/kernel/security/lsmns/assign) 2>/dev/null; then echo assign=opened; else echo assign=refused; fi;"
		case $b in
		selinux) s="$s w /sys/fs/selinux/load x load;" ;;
		apparmor) s="$s w /sys/kernel/security/apparmor/.replace x load;" ;;
		smack) s="$s w /sys/fs/smackfs/load2 'ContainerC _ rwx' load;" ;;
		esac
		esc_prep esc-$b $b "$s"
		out=$(cd $W/esc-$b && crun run e2e-esc-$b 2>&1)
		tap_diag "$out"
		for o in selinux apparmor smack; do
			[ $o = $b ] && continue
			check_contains "escape from $b: writing attr/$o/current refused" "$o-current=refused" "$out"
			check_contains "escape from $b: writing attr/$o/exec refused" "$o-exec=refused" "$out"
			check_contains "escape from $b: switching interface_lsm to hidden $o refused" "interface-$o=refused" "$out"
		done
		check_contains "escape from $b: opening lsmns/assign refused" "assign=refused" "$out"
		check_contains "escape from $b: loading $b policy refused" "load=refused" "$out"
	done
else
	tap_skip "escape: another LSM's attr files, interface_lsm, lsmns/assign from inside a namespace" "$NS_SKIP"
	if is_active selinux && [ -e /sys/fs/selinux/load ]; then
		# The runtime's SELinux label; selinuxfs bind-mounted read-write so
		# only the policy (container_t has no load_policy) can say no.
		s="${try_write} w /sys/fs/selinux/load x load; w /sys/fs/selinux/enforce 0 enforce; w /proc/self/attr/current system_u:system_r:unconfined_t:s0 current;"
		esc_prep esc-selinux selinux "$s"
		jq '.process.selinuxLabel = .annotations["org.lsmns.selinux.context"]
			| .mounts += [{"destination": "/sys/fs/selinux", "type": "bind", "source": "/sys/fs/selinux", "options": ["rbind"]}]' \
			$W/esc-selinux/config.json >$W/esc-selinux/c && mv $W/esc-selinux/c $W/esc-selinux/config.json
		out=$(cd $W/esc-selinux && crun run e2e-esc-selinux 2>&1)
		tap_diag "$out"
		check_contains "escape from a container_t container: loading SELinux policy refused" "load=refused" "$out"
		check_contains "escape from a container_t container: setenforce 0 refused" "enforce=refused" "$out"
		check_contains "escape from a container_t container: switching to unconfined_t refused" "current=refused" "$out"
		check_eq "SELinux is still enforcing" 1 "$(cat /sys/fs/selinux/enforce)"
	fi
fi
check_eq "nothing left behind (crun)" "" "$(crun list -q 2>/dev/null)"
check_eq "nothing left behind (runc)" "" "$(runc list -q 2>/dev/null)"
tap_done
