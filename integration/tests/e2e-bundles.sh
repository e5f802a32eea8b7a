#!/bin/sh
# End to end: the example bundles of examples/ (/lsmns/examples in the
# guest) under crun and runc, through lsmns-hook and the host policy of
# policies/ (/lsmns/policies/lsmns-policy.json).
#
#   e2e-bundles.sh selinux|apparmor|smack|all     the LSMs this boot runs
#
# With LSM namespaces (/sys/kernel/security/lsmns/assign exists) each
# bundle must: start; see only its own LSM set (securityfs and
# lsm_list_modules(2)); have its assigned context in attr/current; be
# denied its LSM's demo object by that LSM (the audit record names it and
# the container's pid); still be denied by a hidden LSM (SELinux keeps the
# AppArmor and Smack containers at container_t:s0: no s0:cN objects, no
# lsmns_denied_selinux_t); crun/runc exec into it gets the same set; it
# cannot signal or read another container's process.
#
# Without them (stock 6.12), every test that needs the namespace is
# reported "ok N - ... # SKIP no LSM namespace support in this kernel", and
# what exists is tested for real: the hook decides by the host policy and
# writes its request to a regular file (--assign-file), the runtime applies
# its own label (process.selinuxLabel / apparmorProfile) for this boot's
# LSM, and the container is denied by that LSM; exec gets the same context;
# MCS / the AppArmor profile keep a container from signalling or reading
# another container or the host.
. /lsmns/lib/tap.sh
. /lsmns/lib/e2e-run.sh
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/e2e
want=${1:?usage: e2e-bundles.sh selinux|apparmor|smack|all}
[ -d $E/selinux ] || { echo "Bail out! $E missing (make -C examples BUILD=dir; initramfs --dir dir:/lsmns/examples)"; exit 1; }
[ -x $P/load-policies ] || { echo "Bail out! $P missing (make -C policies)"; exit 1; }
NS_SKIP="# SKIP no LSM namespace support in this kernel"
# crun/runc exec: the exec'd process adopts the container's namespace
# through the cgroup it is bound to (the runtime is privileged when it
# forks the process into the cgroup).
# Audit records are read from dmesg: no printk rate limit to drop them.
echo 0 >/proc/sys/kernel/printk_ratelimit
active=$(cat /sys/kernel/security/lsm)
is_active() { case ",$active," in *",$1,"*) return 0 ;; esac; return 1; }
majors=""
for l in $(echo "$active" | tr ',' ' '); do case $l in selinux | apparmor | smack) majors="$majors $l" ;; esac; done
majors=${majors# }
first=${majors%% *}
if [ -e /sys/kernel/security/lsmns/assign ]; then ns=yes; else ns=no; fi
tap_diag "active: $active; LSM namespaces: $ns"
case $want in
all) ;;
*) check_eq "this boot runs $want as its major LSM" "$want" "$majors" ;;
esac

check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo

# The policy the bundles use; the two-LSM bundle needs a rule the shipped
# policy may not have yet: add it to a copy when missing.
POL=$P/lsmns-policy.json
if ! jq -e '.rules[] | select(.active != null) | .active[] | select(sort == ["apparmor", "selinux"])' $POL >/dev/null; then
	POL=/tmp/e2e-policy.json
	jq '.rules |= (.[0:length-1] + [{"name": "e2e-selinux-apparmor",
		"match": {"annotations": {"org.lsmns.lsm": "selinux,apparmor"}},
		"active": [["selinux", "apparmor"]],
		"contexts": {"selinux": ["system_u:system_r:container_t:s0:c1,c2"], "apparmor": ["lsmns-demo-apparmor"]},
		"interface": ["selinux"], "default": "refuse"}] + .[length-1:])' $P/lsmns-policy.json >$POL
	chmod 0600 $POL
	tap_diag "the shipped policy allows no {selinux,apparmor} set: using a copy with rule e2e-selinux-apparmor"
fi

# ctx_of BUNDLE LSM: the context the bundle asks for.
ctx_of() {
	k=context; [ $2 = apparmor ] && k=profile; [ $2 = smack ] && k=label
	jq -r ".annotations[\"org.lsmns.$2.$k\"] // \"\"" $E/$1/config.json
}
# shown LSM CTX: how attr/current shows it.
shown() { if [ $1 = apparmor ]; then echo "$2 (enforce)"; else echo "$2"; fi; }

# prep NAME BUNDLE RUNTIME [JQ]: a runtime copy of the bundle in $W/NAME;
# the probe waits on $W/NAME/ctl/go; JQ edits config.json further.
# Without namespaces the hook's request goes to $W/NAME/req.bin and the
# runtime's own label is added for the LSMs this boot runs; $W/NAME/labels
# lists which.
prep() {
	w=$W/$1
	rm -rf $w
	mkdir -p $w/ctl
	mkfifo $w/ctl/go
	req=$(jq -r '.annotations["org.lsmns.lsm"]' $E/$2/config.json)
	extra='[]'
	spec='{}'
	: >$w/labels
	if [ $ns = no ]; then
		: >$w/req.bin
		extra="[\"--assign-file\", \"$w/req.bin\"]"
		for l in $(echo "$req" | tr ',' ' '); do
			is_active $l || continue
			case $l in
			selinux) spec=$(echo "$spec" | jq --arg c "$(ctx_of $2 selinux)" '.selinuxLabel = $c'); echo selinux >>$w/labels ;;
			apparmor)
				# crun 1.8.1 sends the profile to attr/exec (crun#1350).
				[ $3 = crun ] && [ "$first" != apparmor ] && continue
				spec=$(echo "$spec" | jq --arg c "$(ctx_of $2 apparmor)" '.apparmorProfile = $c'); echo apparmor >>$w/labels ;;
			esac
		done
	fi
	jq --arg root $E/$2/rootfs --arg w $w --argjson extra "$extra" --argjson spec "$spec" --arg pol $POL "
		.root.path = \$root
		| .annotations[\"run.oci.hooks.stderr\"] = (\$w + \"/hook.err\")
		| .process.env += [\"LSMNS_WAIT=/tmp/ctl/go\"]
		| .process += \$spec
		| .mounts += [{\"destination\": \"/tmp/ctl\", \"type\": \"bind\", \"source\": (\$w + \"/ctl\"), \"options\": [\"rbind\"]}]
		| .hooks.createRuntime[0].args = [\"lsmns-hook\", \"--policy\", \$pol] + \$extra
		| ${4:-.}" $E/$2/config.json >$w/config.json
}
# denied_by PID OBJECT [CONTEXT]: the LSMs whose audit record names PID
# (or, failing that, CONTEXT) and OBJECT.
denied_by() {
	n=${2##*/}
	recs=""
	i=0
	while [ $i -lt 10 ]; do
		recs=$(dmesg | grep -F "pid=$1 " | grep -F "$n")
		# The probe may read through a child (dropping capabilities
		# first): then take the records naming the container's context.
		[ -z "$recs" ] && [ -n "${3:-}" ] && recs=$(dmesg | grep -F "$n" | grep -F -e "$3")
		[ -n "$recs" ] && break
		sleep 0.5
		i=$((i + 1))
	done
	who=""
	case $recs in *"avc:  denied"* | *"avc: denied"*) who="$who selinux" ;; esac
	case $recs in *'apparmor="DENIED"'*) who="$who apparmor" ;; esac
	case $recs in *"lsm=SMACK"*) who="$who smack" ;; esac
	echo "${who# }"
}
majors_of() { echo "$1" | tr ',' '\n' | grep -E '^(selinux|apparmor|smack)$' | sort | tr '\n' ',' | sed 's/,$//'; }

for rt in crun runc; do
	for b in selinux apparmor smack selinux-apparmor; do
		req=$(jq -r '.annotations["org.lsmns.lsm"]' $E/$b/config.json)
		# Only bundles whose LSMs all run in this boot.
		skipit=no
		for l in $(echo "$req" | tr ',' ' '); do is_active $l || skipit=yes; done
		[ $skipit = yes ] && continue
		n=$rt-$b
		# Hidden-LSM denial: SELinux bounds the AppArmor and Smack
		# containers at container_t:s0 while they cannot see it.
		deny=$(jq -r '.process.env[] | select(startswith("LSMNS_DENY=")) | sub("LSMNS_DENY="; "")' $E/$b/config.json)
		is_active selinux && case $req in apparmor | smack) deny="$deny /lsmns/demo/denied-selinux /lsmns/demo/mcs-c1c2" ;; esac
		prep $n $b $rt ".process.env |= map(if startswith(\"LSMNS_DENY=\") then \"LSMNS_DENY=$deny\" else . end)"
		e2e_start $n $rt
		e2e_ready $n $rt
		tap_result $? "$rt $b: the container starts through lsmns-hook"
		hook=$(cat $W/$n/hook.err 2>/dev/null)
		[ $rt = crun ] && check_contains "$rt $b: the hook allowed it" "allowed, assigned" "$hook"
		pid=$(cat $W/$n/pid 2>/dev/null)
		# exec into the running container: same LSM set, same context.
		exout=$($rt exec "e2e-$n" /bin/sh -c 'tr -d "\0" </proc/self/attr/current; echo; /lsmns/bin/lsm-query list | tr "\n" ,' 2>&1)
		e2e_finish $n
		check_eq "$rt $b: the container ran to its end" 0 "$(cat $W/$n/rc)"
		out=$(cat $W/$n/out)
		if [ $ns = no ]; then
			check_contains "$rt $b: the hook's request names the container's LSM" \
				"$(ctx_of $b ${req%%,*})" "$(od -An -c $W/$n/req.bin | tr -d ' \n')"
		fi
		for l in $(echo "$req" | tr ',' ' '); do
			ctx=$(ctx_of $b $l)
			if [ $ns = yes ] || grep -qx $l $W/$n/labels; then
				if { [ $ns = yes ] && [ $l = "${req%%,*}" ]; } || { [ $ns = no ] && [ $l = "$first" ]; }; then
					check_eq "$rt $b: attr/current is the $l context" "$(shown $l "$ctx")" "$(e2e_value $n attr_current)"
				else
					check_eq "$rt $b: attr/$l/current is the $l context" "$(shown $l "$ctx")" "$(e2e_value $n attr_$l)"
				fi
				o=/lsmns/demo/denied-$l
				check_contains "$rt $b: reading $o fails with EACCES" "$o EACCES" "$out"
				check_contains "$rt $b: $l is the LSM that denied $o" "$l" "$(denied_by "$pid" $o "$ctx")"
				check_eq "$rt $b: exec into it gets the same context" "$(shown ${req%%,*} "$(ctx_of $b ${req%%,*})")" "$(echo "$exout" | head -n 1)"
			elif [ $l = smack ]; then
				tap_skip "$rt $b: the container runs as $ctx and Smack denies denied-smack" "# SKIP no runtime sets Smack labels; needs LSM namespace support in this kernel"
			else
				tap_skip "$rt $b: the container runs in the $l context" "# SKIP $rt 1.x writes the AppArmor profile to attr/exec of $first (crun#1350); needs LSM namespace support"
			fi
		done
		check_contains "$rt $b: the container reads the control object" "read: lsmns-demo allowed" "$(e2e_value $n allowed)"
		if [ $ns = yes ]; then
			set_in=$(majors_of "$(e2e_value $n lsm_securityfs)")
			check_eq "$rt $b: /sys/kernel/security/lsm inside shows only its set" "$(majors_of "$req")" "$set_in"
			check_eq "$rt $b: lsm_list_modules(2) inside shows only its set" "$(majors_of "$req")" "$(majors_of "$(e2e_value $n lsm_syscall)")"
			check_eq "$rt $b: exec into it sees the same LSM set" "$(majors_of "$req")" \
				"$(majors_of "$(echo "$exout" | sed -n '$p' | sed 's/,$//')")"
			[ "$(majors_of "$req")" = "$(majors_of "$(echo "$exout" | sed -n '$p' | sed 's/,$//')")" ] ||
				tap_diag "exec output: $exout"
			for l in $majors; do
				case ",$req," in *",$l,"*) continue ;; esac
				check_contains "$rt $b: hidden $l has no readable attr/$l/ inside" "<" "$(e2e_value $n attr_$l)"
			done
			is_active selinux && case $req in apparmor | smack)
				check_contains "$rt $b: hidden SELinux still denies denied-selinux" "denied-selinux EACCES" "$out"
				check_contains "$rt $b: hidden SELinux (other categories) still denies mcs-c1c2" "mcs-c1c2 EACCES" "$out"
				check_contains "$rt $b: the audit record names SELinux" selinux "$(denied_by "$pid" /lsmns/demo/denied-selinux "$(jq -r '.rules[] | select(.name == "demo-'$b'") | .hidden.selinux' $POL)")" ;;
			esac
		else
			tap_skip "$rt $b: the container sees only {$req}" "$NS_SKIP"
			case $req in apparmor | smack)
				tap_skip "$rt $b: hidden SELinux still denies denied-selinux and mcs-c1c2" "$NS_SKIP" ;;
			esac
		fi
		check_eq "$rt $b: nothing left behind" "" "$($rt list -q 2>/dev/null)"
	done
done

# --- isolation: a container that can see host pids (no pid namespace)
# tries to signal and read another container's init, and the host's init.
iso() { # NAME BUNDLE RUNTIME TARGETPID...
	n=$1; b=$2; r=$3; shift 3
	cmd=""
	for t in "$@"; do
		cmd="$cmd kill -0 $t 2>/dev/null && echo signal-$t=ok || echo signal-$t=refused;"
		cmd="$cmd cat /proc/$t/environ >/dev/null 2>&1 && echo read-$t=ok || echo read-$t=refused;"
	done
	prep $n $b $r ".linux.namespaces |= map(select(.type != \"pid\")) | .process.args = [\"/bin/sh\", \"-c\", \"$cmd\"]"
	(cd $W/$n && $r run "e2e-$n" 2>&1)
}
if [ $ns = yes ] && [ "$majors" = "selinux smack apparmor" ] || [ "$want" = all ]; then
	pairs="selinux:apparmor apparmor:smack smack:selinux"
else
	pairs=""
	is_active selinux && pairs="selinux:selinux-c3c4"
	# Two containers under the same AppArmor profile may signal each
	# other by that profile's design: only the host is tested.
	is_active apparmor && [ "$first" = apparmor ] && pairs="$pairs apparmor:host"
fi
for p in $pairs; do
	a=${p%%:*}; t=${p#*:}
	rt=crun
	if [ $t = host ]; then
		out=$(iso iso-$a $a $rt 1)
		check_contains "isolation: $a container cannot signal the host's init" "signal-1=refused" "$out"
		continue
	fi
	tb=$t; tjq=.
	if [ $t = selinux-c3c4 ]; then
		# Another SELinux container, categories c3,c4 (runtime label only;
		# the demo policy allows c1,c2, so this one runs without the hook).
		tb=selinux
		tjq='.process.selinuxLabel = "system_u:system_r:container_t:s0:c3,c4" | del(.hooks)'
	fi
	prep iso-target $tb $rt "$tjq"
	e2e_start iso-target $rt
	if ! e2e_ready iso-target $rt; then
		tap_result 1 "isolation: target container $t starts"
		tap_diag "$(cat $W/iso-target/err)"
		e2e_finish iso-target
		continue
	fi
	tpid=$(cat $W/iso-target/pid)
	out=$(iso iso-$a $a $rt "$tpid" 1)
	e2e_finish iso-target
	check_contains "isolation: $a container cannot signal container $t" "signal-$tpid=refused" "$out"
	check_contains "isolation: $a container cannot read container $t's /proc/PID/environ (ptrace read)" "read-$tpid=refused" "$out"
	check_contains "isolation: $a container cannot signal the host's init" "signal-1=refused" "$out"
done
if [ $ns = no ]; then
	tap_skip "isolation between containers of different LSMs (SELinux vs AppArmor vs Smack)" "$NS_SKIP"
	is_active smack && tap_skip "isolation: Smack containers" "# SKIP no runtime sets Smack labels; needs LSM namespace support in this kernel"
fi
check_eq "nothing left behind (crun)" "" "$(crun list -q 2>/dev/null)"
check_eq "nothing left behind (runc)" "" "$(runc list -q 2>/dev/null)"
tap_done
