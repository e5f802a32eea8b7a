# Shared by the e2e guest tests that run a bundle copy in $W/NAME under a
# runtime, with a probe that prints "probe ... KEY=VALUE" lines, then a
# line with "ready=", and then waits on $W/NAME/ctl/go.  Source after
# tap.sh with W set; each test has its own prep, since what it edits in
# config.json differs.
#
#   e2e_start NAME RUNTIME   run it in the background ($W/NAME/bg: pid)
#   e2e_ready NAME RUNTIME   wait until the probe has printed everything
#                            (0, the container's host pid in $W/NAME/pid)
#                            or the runtime ended (1); two minutes at most
#   e2e_finish NAME          let the probe end; the runtime's exit status
#                            goes to $W/NAME/rc
#   e2e_value NAME KEY [SUBSTRING]
#                            the first value the probe printed for KEY
#                            (containing SUBSTRING, if given)
e2e_start() {
	(cd "$W/$1" && exec $2 run "e2e-$1" >"$W/$1/out" 2>"$W/$1/err") &
	echo $! >"$W/$1/bg"
}

e2e_ready() {
	_i=0
	while [ $_i -lt 480 ]; do
		if grep -q "^probe .* ready=" "$W/$1/out" 2>/dev/null; then
			$2 state "e2e-$1" | jq -r .pid >"$W/$1/pid"
			return 0
		fi
		kill -0 "$(cat "$W/$1/bg")" 2>/dev/null || return 1
		sleep 0.25
		_i=$((_i + 1))
	done
	return 1
}

e2e_finish() {
	[ -f "$W/$1/pid" ] && timeout 10 sh -c "echo go >$W/$1/ctl/go"
	wait "$(cat "$W/$1/bg")"
	echo $? >"$W/$1/rc"
}

e2e_value() {
	sed -n "s/^probe [^ ]* $2=//p" "$W/$1/out" | grep -F -e "${3:-}" | head -n 1
}
