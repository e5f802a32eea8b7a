#!/bin/sh
# The guest boots the lsmns kernel and /init prepared what tests rely on.
. /lsmns/lib/tap.sh
check_contains "kernel is 6.12" "6.12" "$(uname -r)"
check "proc is mounted" test -r /proc/self/status
check "securityfs is mounted" test -r /sys/kernel/security/lsm
check "cgroup v2 is mounted" test -r /sys/fs/cgroup/cgroup.controllers
check "root is a tmpfs (pivot_root works)" grep -q '^tmpfs / tmpfs' /proc/mounts
tap_done
