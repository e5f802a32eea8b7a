#!/bin/sh
# Races of LSM namespace assignment (issue 18), each many times, each one
# result (integration/progs/lsmns-race.c says what each asserts):
#   exit         the target exits or is killed between the agent's pidfd
#                lookup and its write
#   two-agents   two agents assign one target at the same moment
#   exec         the target execs while it is being assigned
#   thread-exec  another thread of the target execs while the agent names
#                the process or its leader
#   pid-reuse    a pidfd to a reaped child whose pid a new child now has
#   eintr        a signal to an agent waiting for the target's exec (held
#                up by a traced thread it killed): EINTR, nothing installed
#
#   race-assign.sh [ITERATIONS]     default 200 per race
#
# After each race lsmns/count must be back where it was; on the debug
# kernel the boot's log must hold no KASAN, lockdep or kmemleak report.
. /lsmns/lib/tap.sh
R=/lsmns/bin/lsmns-race
N=${1:-200}
[ -x $R ] || { echo "Bail out! $R missing"; exit 1; }
[ -e /sys/kernel/security/lsmns/assign ] || { echo "Bail out! no lsmns/assign"; exit 1; }
$R exit,two-agents,exec,thread-exec,pid-reuse,eintr -n "$N"
