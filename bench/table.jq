# table.jq: the table make bench prints, from results.json (report.jq).
# Every line comes from the JSON, so the two never disagree.  A figure
# with no value prints FAILED; one with fewer values than asked for
# prints INCOMPLETE after its n; a missed target prints MISSED.

def fixed($d):
	if . == null then "-" else
	(if . < 0 then "-" else "" end) as $sign | (if . < 0 then -. else . end) as $x |
	pow(10; $d) as $p | ($x * $p | round) as $i | ($i / $p | floor) as $int |
	($i - $int * $p | round | tostring) as $frac |
	$sign + ($int | tostring) +
	(if $d > 0 then "." + (if $d > ($frac | length) then "0" * ($d - ($frac | length)) else "" end) + $frac
	 else "" end) end;
def lpad($w): tostring | if length < $w then " " * ($w - length) + . else . end;
def rpad($w): tostring | if length < $w then . + " " * ($w - length) else . end;
def n: "n=\(.n)/\(.expected)" + (if .complete or .n == 0 then "" else " INCOMPLETE" end);
def fig($d; $unit):
	if .median == null then "FAILED"
	else "\(.median | fixed($d))\($unit) [\(.min | fixed($d)), \(.max | fixed($d))]" end;
def missed: if .met == false then "  MISSED" else "" end;
def line($name; $d; $unit): "  \($name | rpad(34)) \(fig($d; $unit) | rpad(30)) \(n)";

. as $o |
(.configs | keys_unsorted) as $cfgs |
.stressors as $strs |
"",
"Configuration figures: bogo-ops/s, median over the repetitions that gave one (n=got/asked after a short one), \(.seconds) s each; clock: \(.clock)",
("stressor" | rpad(10)) + ($cfgs | map(lpad(20)) | join("")),
($strs[] as $s | ($s | rpad(10)) + ($cfgs | map($o.configs[.][$s] |
	if . == null then "-"
	elif .median == null then "FAILED" elif .complete then (.median | fixed(1))
	else "\(.median | fixed(1)) n=\(.n)/\(.expected)" end | lpad(20)) | join(""))),
"",
"Cost ratios: baseline ops/s / configuration ops/s (1.00 = no cost, 1.05 = 5% slower), median [min, max] over the n of \(.repetitions) repetitions that gave both figures",
(.ratios[] |
	"\(.ratio)  (\(.numerator) against \(if .ideal then "\(.ideal.parts | join(" + ")) - \(.ideal.parts | length - 1) x \(.ideal.base), in time per operation" else .denominator end))  target \(if .target == null then "none" else "<= \(.target)" end)",
	(.stressors | to_entries[] | "    \(.key | rpad(10)) \(.value | fig(3; "") | rpad(22)) \(.value | n)\(.value | missed)")),
"",
(.extras.crun_start |
	"Container start: crun create + start + delete of /bin/true in the guest, with lsmns-hook as createRuntime hook and without, alternating (\(.pairs_per_boot) pairs per boot); median [min, max] over n pairs",
	"\(.ratio | line("crun start, with hook / without"; 3; ""))  target <= \(.ratio.target | fixed(2))\(.ratio | missed)",
	"\(.nohook_us | line("crun start without hook"; 0; " us"))",
	"\(.hook_us | line("crun start with hook"; 0; " us"))"),
"",
(.extras.burst |
	"Containers at once: \(.count // "?") started together in the guest (create + start + delete of /bin/true each), the whole burst timed, without and with lsmns-hook; median [min, max] over n repetitions",
	"\(.ratio | line("burst, with hook / without"; 3; ""))  target <= \(.ratio.target | fixed(2))\(.ratio | missed)",
	"\(.nohook_us | line("burst without hook"; 0; " us"))",
	"\(.hook_us | line("burst with hook"; 0; " us"))"),
"",
"The hook itself: CPU time per container, median [min, max] over n repetitions",
(.extras |
	"\(.hook_cpu_us | line("lsmns-hook CPU time, native"; 0; " us"))  target < \(.hook_cpu_us.target_below) us\(.hook_cpu_us | missed)",
	"\(.empty_static_program_us | line("empty static program CPU, native"; 0; " us"))  (the floor of any hook process here)",
	"\(.hook_over_empty_us | line("lsmns-hook CPU - empty program"; 0; " us"))  target <= \(.hook_over_empty_us.target) us\(.hook_over_empty_us | missed)",
	"\(.hook_cpu_us_guest | line("lsmns-hook CPU time, guest"; 0; " us"))  (by the guest clock, reference only)"),
"",
"Namespaces alive (pending on sleeping tasks): lsm_ns slab bytes per namespace and one more assignment (fork + assign, guest), median [min, max] over n repetitions",
(.extras.namespaces |
	(.levels | to_entries[] | .key as $l |
		"\(.value.slab_bytes_per_ns | line("\($l) alive: slab bytes/namespace"; 0; ""))",
		"\(.value.assign_us | line("\($l) alive: one more assignment"; 0; " us"))",
		(.value.not_reached[] | "      rep \(.rep): \($l) not reached, \(.reached // "?") alive when it stopped: \(.why)")),
	"\(.assign_1000_over_10 | line("assignment, 1000 alive / 10 alive"; 3; ""))  target <= \(.assign_1000_over_10.target | fixed(2)) (flat)\(.assign_1000_over_10 | missed)",
	"\(.slab_1000_over_10 | line("slab bytes/ns, 1000 alive / 10"; 3; ""))  target <= \(.slab_1000_over_10.target | fixed(2)) (flat)\(.slab_1000_over_10 | missed)",
	(.over_10[] | select(.level > 1000) | .level as $lv |
		"\(.assign | line("assignment, \($lv) alive / 10 alive"; 3; ""))  target <= \(.assign.target | fixed(2)) (flat)\(.assign | missed)",
		"\(.slab | line("slab bytes/ns, \($lv) alive / 10"; 3; ""))  target <= \(.slab.target | fixed(2)) (flat)\(.slab | missed)")),
(if .ok then empty else
	"",
	"FAILED OR INCOMPLETE: \(.failures | length) failed measurement(s), \(.incomplete | length) figure(s) short of their repetitions",
	(.failures[] | "  \(.)"),
	(.incomplete[:20][] | "  short: \(.)"),
	(if (.incomplete | length) > 20 then "  short: ... \(.incomplete | length - 20) more in results.json (.incomplete)" else empty end)
end)
