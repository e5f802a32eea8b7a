#!/bin/sh
# A guest script that fails must make guest-run fail: the host checks that
# this script's exit status (3) comes back.
echo "about to fail on purpose"
exit 3
