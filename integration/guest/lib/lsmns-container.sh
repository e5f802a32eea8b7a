# Shared by the guest tests that need a running "container": a task
# assigned to an LSM namespace and moved into a cgroup before its first
# execve, as crun and runc do.  Source after tap.sh.
#
#   container_start CGROUP STOPFILE ENTRY...
#	start the task in /sys/fs/cgroup/CGROUP with lsmns-assign ENTRY...;
#	it runs until STOPFILE exists.  Sets ctr_bg (the lsmns-assign pid
#	to wait for), ctr_pid (the task) and ctr_ns (its namespace id, empty
#	if it has none).
container_start() {
	_cg=/sys/fs/cgroup/$1 _stop=$2
	shift 2
	mkdir -p "$_cg"
	rm -f "$_stop"
	LSMNS_BETWEEN="echo \$LSMNS_TARGET_PID >$_cg/cgroup.procs" \
		/lsmns/bin/lsmns-assign run "$@" -- \
		sh -c "while [ ! -e $_stop ]; do sleep 0.2; done" &
	ctr_bg=$!
	_i=0
	while [ -z "$(cat "$_cg/cgroup.procs")" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep 0.5
	ctr_pid=$(head -n 1 "$_cg/cgroup.procs")
	ctr_ns=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' "/proc/$ctr_pid/attr/lsmns")
}

# A namespace is freed when the last cred that points to it is, and creds
# go in RCU callbacks: a count read right after a task exits may still
# include its namespace.
LSMNS_COUNT_FILE=/sys/kernel/security/lsmns/count

#   lsmns_count
#	the live namespace count now ("-" on a kernel without it).
lsmns_count() { cat $LSMNS_COUNT_FILE 2>/dev/null || echo -; }

#   lsmns_settled_count
#	the live namespace count once it has not changed for one second
#	(at most ten seconds of waiting).
lsmns_settled_count() {
	_prev=$(lsmns_count)
	_same=0 _i=0
	while [ $_same -lt 10 ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_cur=$(lsmns_count)
		if [ "$_cur" = "$_prev" ]; then
			_same=$((_same + 1))
		else
			_same=0 _prev=$_cur
		fi
		_i=$((_i + 1))
	done
	echo "$_prev"
}

#   lsmns_wait_count N
#	wait (at most ten seconds) until the live namespace count is N.
lsmns_wait_count() {
	_i=0
	while [ "$(lsmns_count)" != "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

#   lsmns_slab_objects CACHE
#	objects in use in a slab cache, or "-" if it has none: shrunk
#	first, so that no CPU slab hides freed objects from /proc/slabinfo.
lsmns_slab_objects() {
	echo 1 >/sys/kernel/slab/$1/shrink 2>/dev/null
	awk -v c="$1" '$1 == c { print $2; f = 1 } END { if (!f) print "-" }' /proc/slabinfo
}

#   lsmns_check_slab_back N
#	one result: the lsm_ns slab's objects in use are back to N (as
#	lsmns_slab_objects read it before), waiting at most ten seconds.
lsmns_check_slab_back() {
	if [ "$1" = - ]; then
		tap_skip "lsm_ns slab objects back to where they were" "# SKIP no lsm_ns in /proc/slabinfo"
		return
	fi
	_i=0
	while [ "$(lsmns_slab_objects lsm_ns)" != "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	check_eq "lsm_ns slab objects in use back to $1" "$1" "$(lsmns_slab_objects lsm_ns)"
}
