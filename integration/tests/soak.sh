#!/bin/sh
# Soak (issue 18): container create/exec/exit cycles with random LSM sets
# and modes, and the namespace count back where it was at the end.
#
#   soak.sh [CYCLES [CRUN_EVERY]]     default 50 cycles, 1 in 10 with crun
#
# Two kinds of cycles run at the same time:
# - lsmns-race soak (integration/progs/lsmns-race.c), most of them: a task
#   in a cgroup of its own is assigned random modes for every running LSM
#   (released ones too, where lsmns.releasable= allows it) and execs into
#   the namespace; 1-3 later entrants move themselves into the cgroup and
#   exec, and must adopt it; one cycle in three gives the task a narrower
#   namespace, which it enters at its next exec and later entrants then
#   get; then everything exits and the cgroup is removed;
# - every CRUN_EVERY-th cycle a real container: an example bundle (each
#   LSM's in turn) under crun with lsmns-hook, created, started, entered
#   with crun exec (which must adopt the container's namespace) and
#   deleted.
# At the end lsmns/count and the objects in use in the lsm_ns slab cache
# are back where they were; on the debug kernel the guest's init scans
# kmemleak after the script (integration/README.md).
. /lsmns/lib/tap.sh
. /lsmns/lib/lsmns-container.sh
R=/lsmns/bin/lsmns-race
E=/lsmns/examples
P=/lsmns/policies
W=/tmp/soak
N=${1:-50}
EVERY=${2:-10}
for f in $R $P/load-policies; do [ -x $f ] || { echo "Bail out! $f missing"; exit 1; }; done
[ -d $E/selinux ] || { echo "Bail out! $E missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
check "load-policies" $P/load-policies
check "setup-demo" $P/setup-demo /lsmns/demo

count0=$(lsmns_settled_count)
slab0=$(lsmns_slab_objects lsm_ns)
ncrun=$((N / EVERY))
t0=$(date +%s)

# The lsmns-race cycles, in the background.
$R soak -n $((N - ncrun)) >$W.race 2>&1 &
race_bg=$!

# The crun cycles meanwhile.  Bundles whose LSMs all run here; the
# released one only when lsmns.releasable= lets it release.
active=$(cat /sys/kernel/security/lsm)
bundles=""
for b in selinux apparmor smack selinux-apparmor smack-released; do
	ok=yes
	for l in $(jq -r '.annotations["org.lsmns.lsm"]' $E/$b/config.json | tr ',' ' '); do
		case ",$active," in *",$l,"*) ;; *) ok=no ;; esac
	done
	rel=$(jq -r '.annotations["org.lsmns.release"] // ""' $E/$b/config.json)
	[ -n "$rel" ] && ! grep -q "lsmns.releasable=[^ ]*${rel%%,*}" /proc/cmdline && ok=no
	[ $ok = yes ] && bundles="$bundles $b"
done
set -- $bundles
nb=$#
good=0 bad=""
i=1
while [ $i -le $ncrun ]; do
	k=$(( (i - 1) % nb + 1 ))
	eval b=\${$k}
	w=$W/crun-$i
	mkdir -p $w
	jq --arg root $E/$b/rootfs --arg w $w '
		.root.path = $root
		| .annotations["run.oci.hooks.stderr"] = ($w + "/hook.err")
		| .process.args = ["/bin/sh", "-c", "exec sleep 600"]
		| .hooks.createRuntime[0].timeout = 120' $E/$b/config.json >$w/config.json
	c=soak-$i
	if (cd $w && crun create --bundle $w $c >$w/out 2>&1) && crun start $c >>$w/out 2>&1; then
		pid=$(crun state $c | jq -r .pid)
		ns=$(cut -d' ' -f1 /proc/$pid/attr/lsmns)
		ex=$(crun exec $c cat /proc/self/attr/lsmns 2>>$w/out | cut -d' ' -f1)
		if [ "$ns" != "id=0" ] && [ -n "$ns" ] && [ "$ex" = "$ns" ]; then
			good=$((good + 1))
		else
			bad="$bad $i($b: container '$ns', crun exec '$ex')"
		fi
	else
		bad="$bad $i($b: $(tail -n 2 $w/out | tr '\n' ' ') $(tail -n 1 $w/hook.err 2>/dev/null))"
	fi
	crun delete -f $c >/dev/null 2>&1
	i=$((i + 1))
done
wait $race_bg
race_rc=$?
grep -v '^1\.\.' $W.race | sed 's/^\(ok\|not ok\) [0-9]* - /\1 - /' | while IFS= read -r l; do
	case $l in
	"ok - "*) echo "$l" >>$W.results ;;
	"not ok - "*) echo "$l" >>$W.results ;;
	*) echo "$l" ;;
	esac
done
while IFS= read -r l; do
	case $l in
	"ok - "*) tap_result 0 "${l#ok - }" ;;
	*) tap_result 1 "${l#not ok - }" ;;
	esac
done <$W.results 2>/dev/null
[ -s $W.results ] || tap_result 1 "lsmns-race soak ran to the end (exit $race_rc)"
check_eq "$ncrun crun containers (bundles:$bundles) each ran in its namespace, and crun exec entered it" "$ncrun" "$good"
[ -n "$bad" ] && tap_diag "failed:$bad"
tap_diag "$N cycles in $(($(date +%s) - t0)) s"
check_eq "nothing left behind (crun)" "" "$(crun list -q 2>/dev/null)"
lsmns_wait_count "$count0"
check_eq "lsmns/count back to $count0 after $N cycles" "$count0" "$(lsmns_count)"
lsmns_check_slab_back "$slab0"
tap_done
