#!/bin/sh
# Races at a namespace's cgroup binding (issue 18), each many times, each
# one result (integration/progs/lsmns-race.c says what each asserts):
#   cgroup-rmdir  a later entrant moves itself into a bound cgroup and execs
#                 while another task moves it out and a third removes the
#                 cgroup: it runs in the bound namespace or in none
#   last-exit     the namespace's last task is killed and reaped while a
#                 later entrant of its cgroup execs: the entrant adopts the
#                 namespace or nothing
#
#   race-cgroup.sh [ITERATIONS]     default 200 per race
. /lsmns/lib/tap.sh
R=/lsmns/bin/lsmns-race
N=${1:-200}
[ -x $R ] || { echo "Bail out! $R missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
[ -e /sys/fs/cgroup/cgroup.procs ] || { echo "Bail out! no cgroup2 at /sys/fs/cgroup"; exit 1; }
$R cgroup-rmdir,last-exit -n "$N"
