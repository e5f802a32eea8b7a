#!/bin/sh
# demo-guest.sh: the lsmns demo, guest side (busybox sh, as root).
#
#   demo-guest.sh [BUNDLE...]     default: selinux apparmor smack selinux-apparmor
#                                 smack-released
#
# Loads every active LSM's demo policy (policies/load-policies), creates the
# demo objects (policies/setup-demo), starts the example containers of
# /lsmns/examples CONCURRENTLY with crun through lsmns-hook, and while they
# all run reads each one's contexts as the host sees them.  Output: one
# machine-readable line per fact, fields separated by TABs, first field the
# record type:
#
#   host        kernel, the LSMs this kernel runs, whether it has LSM namespaces
#   note        one sentence a human must read (e.g. no LSM namespaces)
#   policy      load-policies / setup-demo results
#   container   one per container: name, runtime, mode, LSM set requested,
#               what the hook assigned, what the container saw inside
#               (attr/current, attr/<lsm>/, LSM list via securityfs and via
#               lsm_list_modules(2)), the forbidden action and its result,
#               which LSM denied it (from the kernel's audit record for the
#               container's own pid), the modes of the other LSMs, the host's
#               view (/proc/PID/attr/<lsm>/current while it ran)
#
# On a kernel without LSM namespaces (/sys/kernel/security/lsmns/assign
# absent) it says so in one "note" line and falls back to what exists: the
# hook still decides by the host policy, but its request goes to a regular
# file (--assign-file) and is applied by nobody; the container gets the
# runtime's own label (process.selinuxLabel, process.apparmorProfile) for
# those of its LSMs this kernel runs and the runtime can set.  Every
# container line says mode=lsmns or mode=fallback and what was applied;
# nothing that did not happen is reported as if it had.
#
# Environment: LSMNS_EXAMPLES (default /lsmns/examples), LSMNS_DEMO_RUNTIME
# (default crun), LSMNS_DEMO_TIMEOUT (seconds to wait for a container to
# be ready, default 120).
# Exit: 0 when every container ran to its end (allowed or refused is in the
# output, not in the status); 1 on a setup error.
E=${LSMNS_EXAMPLES:-/lsmns/examples}
P=/lsmns/policies
HOOK=/usr/libexec/lsmns/lsmns-hook
ASSIGN=/sys/kernel/security/lsmns/assign
RT=${LSMNS_DEMO_RUNTIME:-crun}
WAIT=${LSMNS_DEMO_TIMEOUT:-120}
W=/run/lsmns-demo
bundles=${*:-selinux apparmor smack selinux-apparmor smack-released}
T=$(printf '\t')

die() { printf 'error%s%s\n' "$T" "$*"; exit 1; }
# rec TYPE FIELD...: one record, TAB separated; tabs and newlines inside a
# field become spaces.
rec() {
	line=$1; shift
	for f in "$@"; do
		f=$(printf '%s' "$f" | tr '\t\n' '  ')
		line="$line$T$f"
	done
	printf '%s\n' "$line"
}
attr() { # FILE: its value without NULs and newlines, or -
	[ -r "$1" ] || { echo -; return; }
	v=$(tr -d '\0' <"$1" 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')
	echo "${v:--}"
}
is_active() { case ",$active," in *",$1,"*) return 0 ;; esac; return 1; }

for d in "$E" $P; do [ -d "$d" ] || die "$d missing (the initramfs needs make -C examples / make -C policies)"; done
[ -x $HOOK ] || die "$HOOK missing"
command -v $RT >/dev/null || die "runtime $RT missing"
active=$(cat /sys/kernel/security/lsm 2>/dev/null) || die "cannot read /sys/kernel/security/lsm"
majors=""
for l in $(echo "$active" | tr ',' ' '); do
	case $l in selinux | apparmor | smack) majors="$majors $l" ;; esac
done
majors=${majors# }
first=${majors%% *}
if [ -e $ASSIGN ]; then ns=yes; else ns=no; fi
rec host "kernel=$(uname -r)" "lsm=$active" "major=$(echo "$majors" | tr ' ' ',')" \
	"interface=${first:--}" "lsmns=$ns" "attr_current=$(attr /proc/self/attr/current)"
if [ $ns = no ]; then
	rec note "this kernel has no LSM namespaces: $ASSIGN does not exist, so no container gets its own LSM set; the hook still decides by the host policy but its request goes to a file, and each container runs only with the runtime's own labels (process.selinuxLabel/apparmorProfile) for the LSMs this kernel runs ($(echo "$majors" | tr ' ' ',')); every LSM stays visible"
fi

# --- policies and demo objects
# Denials are attributed from the audit records in dmesg: no printk rate
# limit may drop them when the containers run at once.
echo 0 >/proc/sys/kernel/printk_ratelimit
out=$($P/load-policies 2>&1) || die "load-policies: $out"
for l in $majors; do rec policy "lsm=$l" "$(echo "$out" | grep "load-policies: $l:" | head -n 1)"; done
out=$($P/setup-demo /lsmns/demo 2>&1) || die "setup-demo: $out"
rec policy "demo-objects=/lsmns/demo" "$(ls /lsmns/demo | tr '\n' ' ')"

# --- prepare each container's runtime copy of its bundle
rm -rf $W
mkdir -p $W
for b in $bundles; do
	[ -f "$E/$b/config.json" ] || die "no bundle $E/$b"
	w=$W/$b
	mkdir -p $w/ctl
	mkfifo $w/ctl/go
	chmod 0644 $w/ctl/go
	req=$(jq -r '.annotations["org.lsmns.lsm"] // ""' "$E/$b/config.json")
	sectx=$(jq -r '.annotations["org.lsmns.selinux.context"] // ""' "$E/$b/config.json")
	aaprof=$(jq -r '.annotations["org.lsmns.apparmor.profile"] // ""' "$E/$b/config.json")
	labels=""
	extra_args='[]'
	spec='{}'
	if [ $ns = no ]; then
		: >$w/request.bin
		extra_args="[\"--assign-file\", \"$w/request.bin\"]"
		case ",$req," in *,selinux,*)
			if is_active selinux && [ -n "$sectx" ]; then
				spec=$(echo "$spec" | jq --arg c "$sectx" '.selinuxLabel = $c')
				labels="$labels selinuxLabel=$sectx"
			else
				labels="$labels selinux:not-in-kernel"
			fi ;;
		esac
		case ",$req," in *,apparmor,*)
			if ! is_active apparmor || [ -z "$aaprof" ]; then
				labels="$labels apparmor:not-in-kernel"
			elif [ "$first" != apparmor ] && [ $RT = crun ]; then
				# crun 1.8.1 writes "exec PROFILE" to attr/exec, which
				# belongs to the first LSM (crun#1350, fixed in 1.12).
				labels="$labels apparmor:not-applied(crun-attr/exec-belongs-to-$first)"
			else
				spec=$(echo "$spec" | jq --arg p "$aaprof" '.apparmorProfile = $p')
				labels="$labels apparmorProfile=$aaprof"
			fi ;;
		esac
		case ",$req," in *,smack,*) labels="$labels smack:no-runtime-support" ;; esac
	fi
	jq --arg root "$E/$b/rootfs" --arg w "$w" --argjson extra "$extra_args" --argjson spec "$spec" '
		.root.path = $root
		| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
		| .process.env += ["LSMNS_WAIT=/tmp/ctl/go"]
		| .process += $spec
		| .mounts += [{"destination": "/tmp/ctl", "type": "bind", "source": ($w + "/ctl"),
			"options": ["rbind", "nosuid", "nodev", "noexec"]}]
		| .hooks.createRuntime[0].args += $extra' "$E/$b/config.json" >$w/config.json ||
		die "cannot write $w/config.json"
	echo "$req" >$w/req
	echo "${labels# }" >$w/labels
done

# --- start them all at once
dmesg_before=$(dmesg | wc -l)
for b in $bundles; do
	w=$W/$b
	(cd $w && exec $RT run "demo-$b" >$w/out 2>$w/err) &
	echo $! >$w/bg
done

# --- wait until each is ready (or has ended), then read the host's view
for b in $bundles; do
	w=$W/$b
	i=0
	while [ $i -lt $((WAIT * 4)) ]; do
		grep -q "^probe $b ready=" $w/out 2>/dev/null && break
		kill -0 "$(cat $w/bg)" 2>/dev/null || break
		sleep 0.25
		i=$((i + 1))
	done
	if grep -q "^probe $b ready=" $w/out 2>/dev/null; then
		pid=$($RT state "demo-$b" 2>/dev/null | jq -r .pid)
		echo "$pid" >$w/pid
		{
			echo "host_current=$(attr /proc/$pid/attr/current)"
			for l in selinux apparmor smack; do echo "host_$l=$(attr /proc/$pid/attr/$l/current)"; done
			# The namespace's debugging view, when the kernel has one.
			echo "host_lsmns=$(attr /proc/$pid/attr/lsmns)"
		} >$w/hostview
	fi
done
# Release them only once every view is taken: all ran side by side.
for b in $bundles; do
	[ -f $W/$b/pid ] && timeout 10 sh -c "echo go >$W/$b/ctl/go"
done
for b in $bundles; do
	wait "$(cat $W/$b/bg)"
	echo $? >$W/$b/rc
done

# --- which LSM denied what: the audit record naming the container's pid
# and the object (kauditd may lag: give it a moment)
sleep 1
dmesg | tail -n +$((dmesg_before + 1)) >$W/dmesg
denied_by() { # PID OBJECT -> lsm names whose denial record matches
	n=${2##*/}
	who=""
	grep -F "pid=$1 " $W/dmesg | grep -F "$n" >$W/d.$$ 2>/dev/null
	grep -q 'avc: *denied' $W/d.$$ && who="$who,selinux"
	grep -q 'apparmor="DENIED"' $W/d.$$ && who="$who,apparmor"
	grep -q 'lsm=SMACK' $W/d.$$ && who="$who,smack"
	rm -f $W/d.$$
	echo "${who#,}"
}

# --- one record per container
for b in $bundles; do
	w=$W/$b
	rc=$(cat $w/rc)
	req=$(cat $w/req)
	pv() { sed -n "s/^probe $b $1=//p" $w/out | head -n 1; }
	hook=$(sed -n 's/^lsmns-hook: //p' $w/hook.err 2>/dev/null | tail -n 1)
	hook=${hook#container demo-$b pid [0-9]*: }
	started=no
	grep -q "^probe $b done=" $w/out && started=yes
	# Modes: what the hook assigned (each LSM it names), the rest of the
	# host's LSMs hidden with what they inherit.
	modes=""
	for l in selinux apparmor smack; do
		m=$(echo "$hook" | tr ' ' '\n' | sed -n "s/^$l=\([a-z]*\):.*/\1/p")
		[ -n "$m" ] || { case ",$req," in *,$l,*) m=active ;; *) m=hidden-inherited ;; esac; }
		is_active $l || m="$m(not-in-kernel)"
		modes="$modes,$l:$m"
	done
	modes=${modes#,}
	[ $ns = no ] && modes="not-applied($modes)"
	actions=""
	deniers=""
	pid=$(cat $w/pid 2>/dev/null)
	for a in $(sed -n "s/^probe $b deny=\([^ ]*\) .*/\1/p" $w/out); do
		res=$(sed -n "s|^probe $b deny=$a ||p" $w/out | head -n 1)
		actions="$actions read:$a:$res"
		if [ "$res" = EACCES ] && [ -n "$pid" ]; then
			d=$(denied_by "$pid" "$a")
			deniers="$deniers ${a##*/}:${d:-no-audit-record}"
		else
			deniers="$deniers ${a##*/}:none"
		fi
	done
	# Objects only a container with released LSMs may read (LSMNS_READ):
	# not forbidden actions, what releasing gives back.
	reads=""
	for a in $(sed -n "s/^probe $b read=\([^ ]*\) .*/\1/p" $w/out); do
		res=$(sed -n "s|^probe $b read=$a ||p" $w/out | head -n 1)
		reads="$reads ${a##*/}:$res"
	done
	if [ $ns = yes ]; then mode=lsmns; else mode=fallback; fi
	set -- "name=$b" "runtime=$RT" "mode=$mode" "requested=${req:-none}" "started=$started" "exit=$rc"
	set -- "$@" "hook=${hook:-no message}"
	[ $ns = no ] && set -- "$@" "runtime_labels=$(cat $w/labels)"
	set -- "$@" "inside_current=$(pv attr_current)" "inside_selinux=$(pv attr_selinux)" \
		"inside_apparmor=$(pv attr_apparmor)" "inside_smack=$(pv attr_smack)" \
		"inside_lsm_securityfs=$(pv lsm_securityfs)" "inside_lsm_syscall=$(pv lsm_syscall)" \
		"allowed=$(pv allowed)" "action=${actions# }" "denied_by=${deniers# }" "modes=$modes" \
		"released_reads=${reads# }"
	if [ -f $w/hostview ]; then
		while read -r kv; do set -- "$@" "$kv"; done <$w/hostview
	fi
	if [ $started = no ]; then
		set -- "$@" "error=$(grep -v '^$' $w/err | tail -n 2 | tr '\n' ' ')"
	fi
	rec container "$@"
done
exit 0
