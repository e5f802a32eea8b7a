#!/bin/sh
# Booted with lsm.peersec=all: SO_PEERSEC reports every LSM's context, in
# lsm= order, whatever the interface LSM; SCM_SECURITY still follows the
# interface LSM.
. /lsmns/lib/tap.sh
PATH=/lsmns/bin:$PATH
# AppArmor 6.12 has no peer label on a socketpair, so it is left out.
want="selinux='kernel',smack='_'"
check_eq "SO_PEERSEC lists every LSM" "$want" "$(stack-lsm peersec)"
check_eq "SO_PEERSEC with interface smack lists every LSM" "$want" \
	"$(stack-lsm set-interface smack stack-lsm peersec)"
check_eq "SCM_SECURITY follows the interface LSM" "_" \
	"$(stack-lsm set-interface smack stack-lsm scm)"
tap_done
