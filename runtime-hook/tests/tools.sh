#!/bin/bash
# lsmns check-policy and lsmns explain, run as an operator would: on the
# shipped and example policies, on planted faults the lint must name, and
# on the example bundles, a Kubernetes pod and bare annotations.
# Usage: tests/tools.sh BUILD-DIR   (from runtime-hook/); TAP on stdout.
set -u
build=$1
lsmns=$build/lsmns
hook=$build/lsmns-hook
repo=$(cd .. && pwd)
tmp=$(mktemp -d /tmp/lsmns-tools.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }

# expect NAME STATUS NEEDLE CMD...: CMD exits STATUS and its output holds NEEDLE
expect() {
	local name=$1 want=$2 needle=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && [[ $out == *"$needle"* ]]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc (want $want), output lacks <$needle>:" "$out"
	fi
}
# expect_not NAME NEEDLE CMD...: the output does not hold NEEDLE
expect_not() {
	local name=$1 needle=$2 out
	shift 2
	out=$("$@" 2>&1)
	if [[ $out != *"$needle"* ]]; then ok "$name"; else not_ok "$name" "$out"; fi
}

policy() { # FILE JSON-RULES
	printf '{"version":1,"rules":[%s]}\n' "$2" >"$1"
	chmod 0644 "$1"
}

# ---- check-policy on what the project ships -----------------------------
expect "check-policy: policies/lsmns-policy.json is valid with no warning" 0 "valid, 6 rules, 0 warnings" \
	"$lsmns" check-policy "$repo/policies/lsmns-policy.json"
cp etc/policy.json.example "$tmp/example.json" && chmod 0644 "$tmp/example.json"
expect "check-policy: etc/policy.json.example is valid with no warning" 0 "valid, 3 rules, 0 warnings" \
	"$lsmns" check-policy "$tmp/example.json"
expect "lsmns-hook --check-policy lints too" 0 "0 lint warnings" "$hook" --check-policy "$tmp/example.json"

w=$(jq -c '.when' etc/lsmns-hook-always.json.in 2>&1)
[ "$w" = '{"always":true}' ] && ok "the always hooks.d file has always as its only condition (conditions are ANDed)" ||
	not_ok "the always hooks.d file has always as its only condition" "$w"

# ---- planted faults -------------------------------------------------------
policy "$tmp/allcat.json" '{"name":"team","match":{"annotations":{"ns":"a"}},"active":[["selinux"]],
	"contexts":{"selinux":["system_u:system_r:container_t:s0:c*"]}}'
expect "check-policy flags a pattern that grants every MCS category" 1 \
	'rule "team": context pattern "system_u:system_r:container_t:s0:c*" grants every MCS category' \
	"$lsmns" check-policy "$tmp/allcat.json"
policy "$tmp/hidden-allcat.json" '{"name":"h","active":[["apparmor"]],"contexts":{"apparmor":["lsmns-x"]},
	"hidden":{"selinux":"system_u:system_r:container_t:s0-s0:c0.c1023"}}'
expect "check-policy flags a hidden context with every category" 1 'hidden context "system_u:system_r:container_t:s0-s0:c0.c1023" grants every MCS category' \
	"$lsmns" check-policy "$tmp/hidden-allcat.json"
policy "$tmp/unreach.json" '{"name":"web","match":{"annotations":{"io.kubernetes.pod.namespace":"web-*"}},"active":[["apparmor"]],"contexts":{"apparmor":["lsmns-web"]}},
	{"name":"web-prod","match":{"annotations":{"io.kubernetes.pod.namespace":"web-prod"},"image":"r/x"},"active":[["apparmor"]],"contexts":{"apparmor":["lsmns-prod"]}}'
expect "check-policy flags a rule an earlier one shadows" 1 \
	'rule "web-prod" (#2) is never reached: rule "web" (#1) matches every container it matches' \
	"$lsmns" check-policy "$tmp/unreach.json"
policy "$tmp/catchall.json" '{"name":"rest","default":"none"},{"name":"late","match":{"id":"x"},"active":[["apparmor"]],"contexts":{"apparmor":["p"]}}'
expect "check-policy flags a rule after a catch-all" 1 'rule "late" (#2) is never reached: rule "rest" (#1)' \
	"$lsmns" check-policy "$tmp/catchall.json"
policy "$tmp/reach.json" '{"name":"web-prod","match":{"annotations":{"io.kubernetes.pod.namespace":"web-prod"}},"active":[["apparmor"]],"contexts":{"apparmor":["lsmns-prod"]}},
	{"name":"web","match":{"annotations":{"io.kubernetes.pod.namespace":"web-*"}},"active":[["apparmor"]],"contexts":{"apparmor":["lsmns-web"]}}'
expect "check-policy: the same rules, narrow first, are clean (control)" 0 "valid, 2 rules, 0 warnings" \
	"$lsmns" check-policy "$tmp/reach.json"
policy "$tmp/never.json" '{"name":"s","match":{"annotations":{"org.lsmns.lsm":"smack"}},"active":[["selinux"]],"contexts":{"selinux":["system_u:system_r:container_t:s0:c1,c2"]},"default":"none"}'
expect "check-policy flags a rule that matches requests it never allows" 1 "matches only requests for {smack}, which its \"active\" never allows" \
	"$lsmns" check-policy "$tmp/never.json"
expect "check-policy flags a default that can never apply" 1 'rule "s": its "default" is never used' \
	"$lsmns" check-policy "$tmp/never.json"
policy "$tmp/pick.json" '{"name":"t","active":[["selinux"]],"contexts":{"selinux":["system_u:system_r:container_t:s0:c[0-9],c[0-9]"]}}'
expect "check-policy flags a pattern that lets a pod pick another pod's pair" 1 "lets the container choose its own category pair" \
	"$lsmns" check-policy "$tmp/pick.json"
policy "$tmp/mcs.json" '{"name":"t","active":[["selinux"]],"contexts":{"selinux":["system_u:system_r:container_t:s0"]},"selinux_mcs":"runtime"}'
expect "check-policy flags selinux_mcs with no pattern that takes a pair" 1 'no selinux pattern of the rule accepts one' \
	"$lsmns" check-policy "$tmp/mcs.json"
policy "$tmp/nopat.json" '{"name":"t","active":[["smack"]]}'
expect "check-policy flags an active LSM with no context pattern" 1 "allows the active set {smack} but no smack context" \
	"$lsmns" check-policy "$tmp/nopat.json"
policy "$tmp/unconf.json" '{"name":"t","active":[["apparmor"]],"contexts":{"apparmor":["*"]}}'
expect "check-policy flags an AppArmor pattern that accepts unconfined" 1 'accepts "unconfined"' \
	"$lsmns" check-policy "$tmp/unconf.json"
mkdir -p "$tmp/secfs/apparmor"
printf 'lsmns-other (enforce)\n' >"$tmp/secfs/apparmor/profiles"
policy "$tmp/aa.json" '{"name":"t","active":[["apparmor"]],"contexts":{"apparmor":["lsmns-web"]}}'
expect "check-policy flags an AppArmor profile the kernel has not loaded" 1 'AppArmor profile "lsmns-web" is not loaded' \
	"$lsmns" check-policy --securityfs "$tmp/secfs" "$tmp/aa.json"
printf 'lsmns-other (enforce)\nlsmns-web (enforce)\n' >"$tmp/secfs/apparmor/profiles"
expect "check-policy: the same profile once loaded is clean (control)" 0 "0 warnings" \
	"$lsmns" check-policy --securityfs "$tmp/secfs" "$tmp/aa.json"
printf '{"version":1,"rules":[{"name":"x","active":[["tomoyo"]]}]}' >"$tmp/bad.json"; chmod 0644 "$tmp/bad.json"
expect "check-policy: an invalid policy exits 4 with the hook's reason" 4 'unknown LSM "tomoyo"' \
	"$lsmns" check-policy "$tmp/bad.json"

# ---- explain --------------------------------------------------------------
shipped=$repo/policies/lsmns-policy.json
for b in selinux apparmor smack selinux-apparmor smack-released; do
	expect "explain examples/$b: allowed by rule demo-$b" 0 "allowed by rule \"demo-$b\"" \
		"$lsmns" explain --policy "$shipped" "$repo/examples/$b/config.json"
done
printf '{"org.lsmns.lsm":"selinux","org.lsmns.selinux.context":"system_u:system_r:spc_t:s0"}' >"$tmp/ann.json"
expect "explain: a refused context names the rule and its patterns, exit 5" 5 \
	'selinux context "system_u:system_r:spc_t:s0" is not allowed by policy rule "demo-selinux" (its selinux patterns: "system_u:system_r:container_t:s0:c1,c2")' \
	"$lsmns" explain --policy "$shipped" "$tmp/ann.json"
expect "explain: rules before the deciding one say why they did not match" 5 \
	'  2 demo-apparmor            not tried' "$lsmns" explain --policy "$shipped" "$tmp/ann.json"
out=$("$lsmns" explain --json --policy "$shipped" "$tmp/ann.json")
if [ "$(jq -r '.decision.allowed, .decision.exit, .rules[0].result, .rules[1].result, .request.lsm[0], .request.contexts.selinux' <<<"$out" | tr '\n' ' ')" = "false 5 matches not tried selinux system_u:system_r:spc_t:s0 " ]; then
	ok "explain --json: the request, decision and rule results"
else
	not_ok "explain --json: the request, decision and rule results" "$out"
fi
cat >"$tmp/pod.json" <<'EOF'
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"team-a",
 "annotations":{"org.lsmns.lsm":"selinux"}},
 "spec":{"containers":[{"name":"c","image":"registry.example/web:1"}]}}
EOF
expect "explain a pod: the runtime's pair is allowed" 0 'allowed by rule "kube-team-a"' \
	"$lsmns" explain --policy "$tmp/example.json" --selinux-label system_u:system_r:container_t:s0:c5,c9 "$tmp/pod.json"
out=$("$lsmns" explain --json --policy "$tmp/example.json" --selinux-label system_u:system_r:container_t:s0:c5,c9 "$tmp/pod.json")
got=$(jq -r '.decision.allowed, .decision.rule, .decision.interface, (.decision.entries[] | "\(.lsm):\(.mode):\(.context)")' <<<"$out" | tr '\n' ' ')
want="true kube-team-a selinux selinux:active:system_u:system_r:container_t:s0:c5,c9 apparmor:hidden:lsmns-hidden "
[ "$got" = "$want" ] && ok "explain --json: the entries the hook would send" ||
	not_ok "explain --json: the entries the hook would send" "got:  $got" "want: $want"
expect "explain a pod: a category range from the runtime is refused" 5 "is not one category pair s0:cN,cM" \
	"$lsmns" explain --policy "$tmp/example.json" --selinux-label system_u:system_r:container_t:s0:c0.c1023 "$tmp/pod.json"
expect "explain a pod: no runtime label, refused with the fix" 5 "config.json has no process.selinuxLabel: let the runtime allocate the pair" \
	"$lsmns" explain --policy "$tmp/example.json" "$tmp/pod.json"
sed 's/team-a/team-b/' "$tmp/pod.json" >"$tmp/pod-b.json"
expect "explain a pod of another namespace: each rule's failing field" 5 \
	'annotation io.kubernetes.pod.namespace "team-b" does not match "team-a"' \
	"$lsmns" explain --policy "$tmp/example.json" --selinux-label system_u:system_r:container_t:s0:c5,c9 "$tmp/pod-b.json"
# --host: what this host's kernel would refuse, read from stand-ins
mkdir -p "$tmp/host/apparmor"
printf 'capability,selinux,apparmor' >"$tmp/host/lsm"
printf 'lsmns-demo-apparmor (enforce)\n' >"$tmp/host/apparmor/profiles"
printf 'console=ttyS0 lsm=capability,selinux,smack,apparmor lsmns.releasable=selinux,apparmor\n' >"$tmp/cmdline"
hostx() { "$lsmns" explain --policy "$shipped" --securityfs "$tmp/host" --cmdline "$tmp/cmdline" "$@"; }
expect "explain --host: an LSM this kernel does not run, exit 7" 7 \
	"fails: smack is not enabled on this host (the kernel runs capability,selinux,apparmor): ENOENT" \
	hostx "$repo/examples/smack/config.json"
printf 'capability,selinux,smack,apparmor' >"$tmp/host/lsm"
expect "explain --host: the same LSM once enabled (control)" 0 'allowed by rule "demo-smack"' \
	hostx "$repo/examples/smack/config.json"
printf 'console=ttyS0\n' >"$tmp/cmdline"
expect "explain --host: a release without lsmns.releasable=, exit 7" 7 \
	"fails: selinux released, but this kernel's command line has no lsmns.releasable=: EPERM" \
	hostx "$repo/examples/smack-released/config.json"
printf 'lsmns.releasable=selinux,apparmor\n' >"$tmp/cmdline"
expect "explain --host: the release once releasable (control)" 0 'allowed by rule "demo-smack-released"' \
	hostx "$repo/examples/smack-released/config.json"
printf 'other (enforce)\n' >"$tmp/host/apparmor/profiles"
expect "explain --host: an AppArmor profile not loaded, exit 7" 7 \
	'fails: AppArmor profile "lsmns-demo-apparmor" is not loaded on this host: EINVAL' \
	hostx "$repo/examples/apparmor/config.json"
printf 'other (enforce)\nlsmns-demo-apparmor (enforce)\n' >"$tmp/host/apparmor/profiles"
expect "explain --host: the profile once loaded (control)" 0 'allowed by rule "demo-apparmor"' \
	hostx "$repo/examples/apparmor/config.json"

a=$("$lsmns" explain --policy "$shipped" "$tmp/ann.json" 2>&1)
b=$("$hook" --explain --policy "$shipped" "$tmp/ann.json" 2>&1)
[ "$a" = "$b" ] && ok "lsmns-hook --explain prints what lsmns explain prints" ||
	not_ok "lsmns-hook --explain prints what lsmns explain prints" "$a" "$b"
# no privileges: an unprivileged user on copies it can read
cp "$shipped" "$tmp/shipped.json"; chmod 0644 "$tmp/shipped.json" "$tmp/ann.json"; chmod 0755 "$tmp"
if [ "$(id -u)" = 0 ]; then
	expect "explain runs without privileges (uid 65534, no capabilities)" 5 "is not allowed by policy rule" \
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$lsmns" explain --policy "$tmp/shipped.json" "$tmp/ann.json"
fi
expect "explain: a missing input is one line, exit 3" 3 "lsmns explain: cannot open input" \
	"$lsmns" explain --policy "$shipped" "$tmp/nonexistent.json"
expect "explain: no input is a usage error" 2 "give one INPUT" "$lsmns" explain --policy "$shipped"

# ---- the man page covers every exit status and refusal class -------------------
man=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH LIMITS/p' man/lsmns-hook.8)
missing=
for st in $(sed -n 's/^\tHOOK_[A-Z_]* = \([0-9]*\),.*/\1/p' include/lsmns_hook.h); do
	printf '%s\n' "$man" | grep -qx "\.B $st" || missing="$missing exit-status:$st"
	[ "$st" -ge 3 ] && { printf '%s\n' "$man" | grep -q "^\.BR \"$st " || missing="$missing errors:$st"; }
done
[ -z "$missing" ] && ok "lsmns-hook(8) documents every exit status, and ERRORS every refusal class (3-7)" ||
	not_ok "lsmns-hook(8) documents every exit status and refusal class" "missing:$missing"

echo "1..$n"
