#!/bin/sh
# Run every test suite and print one TAP stream on stdout:
#   the cmocka suites of the normal build and tests/tools.sh (lsmns
#   check-policy and explain), the same built with
#   ASan/UBSan (names prefixed "asan/"), and one bounded fuzz run.
# Usage: tests/run-tap.sh BUILD ASAN_BUILD FUZZ_BIN FUZZ_SECONDS
# Exit status: 0 if every test passed.
set -u
build=$1 asan=$2 fuzz=$3 seconds=$4
suites="test_state test_request test_policy test_kernel test_e2e"
n=0 failed=0
tmp=$(mktemp -d /tmp/lsmns-hook-tap.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Renumber the "ok"/"not ok" lines of one cmocka TAP output; everything else
# becomes a comment.  A suite that dies before finishing is a failure.
emit() { # prefix suite-name output-file exit-status
	prefix=$1 name=$2 file=$3 rc=$4 seen=0
	while IFS= read -r line; do
		case $line in
		"ok "*)
			n=$((n + 1)) seen=$((seen + 1))
			echo "ok $n - $prefix${line#ok * - }" ;;
		"not ok "*)
			n=$((n + 1)) seen=$((seen + 1)) failed=$((failed + 1))
			echo "not ok $n - $prefix${line#not ok * - }" ;;
		"1.."*) ;;
		"# "*) echo "$line" ;;
		"") ;;
		*) echo "# $line" ;;
		esac
	done < "$file"
	if [ "$rc" -ne 0 ] && [ "$seen" -eq 0 ]; then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n - $prefix$name (exit status $rc, no results)"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$file"; then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n - $prefix$name (exit status $rc)"
	fi
}

run_suites() { # build-dir prefix
	for s in $suites; do
		CMOCKA_MESSAGE_OUTPUT=TAP LSMNS_HOOK="$1/lsmns-hook" \
			timeout 300 "$1/$s" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		sed 's/^/# /' "$tmp/err" >> "$tmp/out"
		emit "$2" "$s" "$tmp/out" "$rc"
	done
}

run_suites "$build" ""
# lsmns check-policy and lsmns explain as an operator runs them
tests/tools.sh "$build" > "$tmp/out" 2> "$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" >> "$tmp/out"
emit "" tools.sh "$tmp/out" "$rc"
# LSan stops the world with ptrace and threads: not allowed under the hook's
# own seccomp filter, so leak checking happens in the unit tests (no
# seccomp there) and the e2e binaries run with detect_leaks=0.
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	run_suites "$asan" "asan/"
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0} tests/tools.sh "$asan" > "$tmp/out" 2> "$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/err" >> "$tmp/out"
emit "asan/" tools.sh "$tmp/out" "$rc"

# One bounded fuzz run over the committed corpus; new inputs go to a
# scratch directory, crashes to $tmp (reported, then kept by hand under
# fuzz/corpus/ once fixed).
mkdir -p "$tmp/corpus"
"$fuzz" -max_total_time="$seconds" -artifact_prefix="$tmp/" \
	-dict=fuzz/json.dict "$tmp/corpus" fuzz/corpus > "$tmp/fuzz.log" 2>&1
rc=$?
n=$((n + 1))
if [ $rc -eq 0 ]; then
	echo "ok $n - fuzz_parse ${seconds}s ($(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log" | tail -1))"
else
	failed=$((failed + 1))
	echo "not ok $n - fuzz_parse (exit status $rc)"
	tail -n 30 "$tmp/fuzz.log" | sed 's/^/# /'
	for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-*; do
		[ -e "$a" ] && cp "$a" "$fuzz.$(basename "$a")" &&
			echo "# kept $fuzz.$(basename "$a")"
	done
fi

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
