#!/bin/sh
# lsmns-test: fresh-boot (no SELinux policy loaded yet; first in a debug batch)
# One owner for the network labels (kernel patch "one owner for the
# secmark, NetLabel and labeled IPsec"): only the owner sets and reads the
# peer label of a TCP connection's request_sock and configures NetLabel;
# the other module's SO_PEERSEC on an accepted TCP socket has nothing,
# never the owner's secid read as its own.  Booted with all three LSMs and
# $1 (selinux or smack) first in lsm=, which makes it the owner; no
# policy loaded.
. /lsmns/lib/tap.sh
PATH=/lsmns/bin:$PATH
owner=$1
case $owner in
selinux) other=smack ;;
smack) other=selinux ;;
*) echo "Bail out! usage: stacking-netowner.sh selinux|smack"; exit 1 ;;
esac
# The owner is the first of the LSMs that want the secids, in lsm= order:
# no boot option picks it (each LSM declares what it needs).
first=$(major_lsms | head -n 1)
[ "$first" = "$owner" ] || { echo "Bail out! $owner is not the first major LSM in lsm= ($first is)"; exit 1; }
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

check_eq "SO_PEERSEC of a unix socketpair still works for the non-owner $other (the control)" \
	yes "$(stack-lsm set-interface $other stack-lsm peersec >/dev/null && echo yes)"
# The peer is unlabeled to the non-owner: SELinux has no peer label (as
# without network labeling), Smack gives it the ambient label, "_" here.
case $other in
selinux) want="none ENOPROTOOPT" ;;
smack) want="_" ;;
esac
check_eq "TCP: the non-owner $other sees the peer as unlabeled on an accepted socket" "$want" \
	"$(stack-lsm set-interface $other stack-lsm tcp-peersec)"

if [ $owner = smack ]; then
	# Smack labels its sockets' packets with NetLabel; an unlabeled
	# peer carries the ambient label, "_" here.
	check_eq "TCP: the owner Smack labels the peer with its own label" "_" \
		"$(stack-lsm set-interface smack stack-lsm tcp-peersec)"
	doi=$(cat /sys/fs/smackfs/doi)
	check "smackfs doi can be written by the owner" sh -c "echo $doi > /sys/fs/smackfs/doi"
else
	check_fails "smackfs doi cannot be written when Smack does not own NetLabel" \
		sh -c 'echo 3 > /sys/fs/smackfs/doi'
	check_eq "... and the refusal is EOPNOTSUPP" yes \
		"$(sh -c 'echo 3 > /sys/fs/smackfs/doi' 2>&1 | grep -qi 'not supported' && echo yes)"
fi
tap_done
