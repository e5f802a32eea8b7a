# report.jq: turns what the guests (and this machine) measured into
# results.json.  Run by bench/report:
#
#   jq -n --rawfile raw R --rawfile extras X --rawfile errors E \
#      --rawfile configs C --rawfile stressors S --rawfile ratios Q \
#      --argjson reps N --argjson pairs P --argjson seconds S --arg clock D \
#      --arg levels "10 100 1000" -f report.jq
#
# raw:    "REP CONFIG STRESSOR BOGO-OPS/S", one line per stress-ng figure
# extras: "REP KEY [FIELD=VALUE]... [runs=.. wall_us_median=.. ...]", or
#         "REP KEY [FIELD=VALUE]... FAILED <why>"
# errors: one line per thing that went wrong (guest ERROR lines, boots
#         that failed), already prefixed with the repetition
#
# A figure is a median over the repetitions (or pairs) that gave a value,
# with min, max, n (how many did) and expected (how many were asked
# for).  A value is missing when its run failed, printed nothing, or gave
# a figure that is not a positive number; a ratio is computed only from
# two values that are both there.  No value at all: median/min/max are
# null and "met" is null (FAILED in the table), never 0 or true.
# n < expected: "complete" is false (INCOMPLETE in the table).  "ok" is
# true only if nothing failed and every figure is complete.

def trim: sub("^[ \t]+"; "") | sub("[ \t]+$"; "");
def datalines: split("\n") | map(select(test("^[ \t]*(#|$)") | not));
def words: split(" ") | map(select(. != ""));
def num:
	if type == "number" then .
	elif type == "string" and test("^-?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?$") then tonumber
	else null end;
# a measured figure: a positive number, or null
def pos: num | if . != null and . > 0 then . else null end;
def median: sort | length as $n |
	if $n == 0 then null
	elif $n % 2 == 1 then .[($n - 1) / 2]
	else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
def r4: if . == null then null else (. * 10000 | round) / 10000 end;
# a list with null where a repetition gave no value -> the figure
def stats($expected): map(select(. != null)) as $v |
	{median: ($v | median | r4), min: ($v | min | r4), max: ($v | max | r4),
	 n: ($v | length), expected: $expected, complete: (($v | length) >= $expected)};
# a difference of two figures, or null; may be 0 or negative
def ratio_diff($a; $b): if $a != null and $b != null then $a - $b else null end;
# stats of values that may be 0 or negative (differences)
def stats_any($expected): map(select(. != null)) as $v |
	{median: ($v | median | r4), min: ($v | min | r4), max: ($v | max | r4),
	 n: ($v | length), expected: $expected, complete: (($v | length) >= $expected)};
def verdict($target): . + {target: $target,
	met: (if .median == null or $target == null then null else .median <= $target end)};
def verdict_below($target): . + {target_below: $target,
	met: (if .median == null then null else .median < $target end)};
def ratio($a; $b): if $a != null and $b != null then $a / $b else null end;
# "ideal:A,B,C/N" -> {parts: [A, B, C], base: N}; anything else -> null
def ideal_of: if startswith("ideal:") then .[6:] | split("/") |
	if length == 2 then {parts: (.[0] | split(",") | map(trim)), base: (.[1] | trim)} else null end
	else null end;
# the ideal sum's ratio from ops/s figures: t(num) / (sum t(part) - (k-1) t(base)),
# t = 1 / ops; null when a figure is missing or the sum is not positive
def ideal_ratio($num; $parts; $base):
	if $num == null or $base == null or ($parts | any(. == null)) then null
	else (($parts | map(1 / .) | add) - (($parts | length) - 1) / $base) as $t |
		if $t > 0 then (1 / $num) / $t else null end end;

($stressors | datalines | map(split("|")[0] | trim)) as $strs |
($configs | datalines | map(split("|") | map(trim) |
	{name: .[0], only: (if (.[4] // "all") == "all" then null else .[4] | split(",") | map(trim) end)})) as $cfgl |
($cfgl | map(.name)) as $cfgs |
# the stressors a configuration runs
(reduce $cfgl[] as $c ({}; .[$c.name] =
	(if $c.only == null then $strs else [$strs[] | select(. as $s | $c.only | index($s))] end))) as $cstrs |
($ratios | datalines | map(split("|") | map(trim) |
	{label: .[0], num: .[1], den: .[2], ideal: (.[2] | ideal_of),
	 target: (if .[3] == "-" then null else (.[3] | tonumber) end)} |
	. + {names: ([.num] + (if .ideal then .ideal.parts + [.ideal.base] else [.den] end))})) as $qs |
[range(1; $reps + 1) | tostring] as $R |

# --- stress-ng figures
($raw | datalines | map(words | {rep: .[0], config: .[1], stressor: .[2], text: .[3], rate: (.[3] | pos)})) as $raw_l |
(reduce $raw_l[] as $x ({}; .[$x.rep][$x.config][$x.stressor] = $x.rate)) as $rate |

# --- extras: one object per line
($extras | datalines | map(words as $w |
	($w[2:] | index("FAILED")) as $f |
	(if $f == null then $w[2:] else $w[2:][:$f] end) as $fw |
	{rep: $w[0], key: $w[1], line: ($w[1:] | join(" ")),
	 failed: ($f != null),
	 reason: (if $f == null then null else $w[2:][$f + 1:] | join(" ") end),
	 f: (reduce ($fw[] | select(test("^[^=]+=")) | capture("^(?<k>[^=]+)=(?<v>.*)$")) as $kv
		({}; .[$kv.k] = $kv.v))})) as $X |
# the measured entry of repetition $r, key $k whose fields match sel (or null)
def entry($r; $k; sel): [$X[] | select(.rep == $r and .key == $k and .failed == false and (.f | sel))][0];
def value($r; $k; sel; $field): entry($r; $k; sel) | if . == null then null else .f[$field] | pos end;

[range(1; $pairs + 1) | tostring] as $P |
[$R[] as $r | $P[] as $p | {r: $r, p: $p}] as $RP |
[$RP[] as $rp | value($rp.r; "crun-start-nohook"; .pair == $rp.p; "wall_us_median")] as $nohook |
[$RP[] as $rp | value($rp.r; "crun-start-hook"; .pair == $rp.p; "wall_us_median")] as $hook |
[$R[] | value(.; "burst-nohook"; true; "wall_us_median")] as $burst_nohook |
[$R[] | value(.; "burst-hook"; true; "wall_us_median")] as $burst_hook |
([$X[] | select(.key | startswith("burst-")) | .f.count | num] | map(select(. != null)) | first // null) as $burst_count |
($levels | split(" ") | map(select(. != ""))) as $L |
(reduce $L[] as $l ({}; .[$l] = [$R[] as $r | entry($r; "ns-scale"; .level == $l) |
	if . == null then {assign: null, slab: null, live: null}
	else {assign: (.f.wall_us_median | pos), slab: (.f.slab_bytes_per_ns | pos), live: (.f.live | num)} end])) as $ns |

# --- every measurement that failed or is missing, with its reason
([$errors | datalines[]] +
 [$raw_l[] | select(.rate == null) |
	"rep \(.rep): \(.config) \(.stressor): \(.text // "nothing") is not a positive bogo-ops/s figure"] +
 [$X[] | select(.failed) | "rep \(.rep): \(.line)"] +
 [$X[] | select(.failed | not) |
	select((.key | test("^(crun-start-|burst-|hook-cpu|empty-cpu)")) and ((.f.wall_us_median | pos) == null or (.f.cpu_us_median | pos) == null)) |
	"rep \(.rep): \(.line): no time figure"] +
 [$X[] | select(.failed | not) | select(.key == "ns-scale" and
	((.f.wall_us_median | pos) == null or (.f.slab_bytes_per_ns | pos) == null or (.f.live | num) == null)) |
	"rep \(.rep): \(.line): a figure is missing or not a positive number"] +
 [$RP[] as $rp | ("crun-start-nohook", "crun-start-hook") as $k |
	select([$X[] | select(.rep == $rp.r and .key == $k and .f.pair == $rp.p)] | length == 0) |
	"rep \($rp.r): \($k) pair=\($rp.p): no line at all (did the extras boot finish?)"] +
 [$R[] as $r | ("hook-cpu", "hook-cpu-native", "empty-cpu-native", "burst-nohook", "burst-hook") as $k |
	select([$X[] | select(.rep == $r and .key == $k)] | length == 0) |
	"rep \($r): \($k): no line at all"] +
 [$R[] as $r | $L[] as $l |
	select([$X[] | select(.rep == $r and .key == "ns-scale" and (.f.level == $l or .failed))] | length == 0) |
	"rep \($r): ns-scale level=\($l): no line at all"]
) as $failures |

{
	repetitions: $reps,
	seconds: $seconds,
	clock: $clock,
	levels: $L,
	stressors: $strs,
	configs: (reduce $cfgs[] as $c ({}; .[$c] =
		(reduce $cstrs[$c][] as $s ({}; .[$s] = ([$R[] as $r | $rate[$r][$c][$s]] | stats($reps)))))),
	ratios: [$qs[] as $q | {ratio: $q.label, numerator: $q.num, denominator: $q.den, target: $q.target}
		+ (if $q.ideal then {ideal: $q.ideal} else {} end)
		+ {stressors: (reduce ($strs[] | select(. as $s | $q.names | all(. as $c | ($cstrs[$c] // []) | index($s)))) as $s ({}; .[$s] =
			([$R[] as $r |
				if $q.ideal then ideal_ratio($rate[$r][$q.num][$s]; [$q.ideal.parts[] as $p | $rate[$r][$p][$s]]; $rate[$r][$q.ideal.base][$s])
				else ratio($rate[$r][$q.den][$s]; $rate[$r][$q.num][$s]) end] | stats($reps) | verdict($q.target))))}],
	extras: {
		crun_start: {
			what: "crun create + start + delete of /bin/true in the guest; lsmns-hook as createRuntime hook / none",
			pairs_per_boot: $pairs,
			nohook_us: ($nohook | stats($reps * $pairs)),
			hook_us: ($hook | stats($reps * $pairs)),
			ratio: ([range(0; $RP | length) as $i | ratio($hook[$i]; $nohook[$i])] | stats($reps * $pairs) | verdict(1.05))
		},
		burst: {
			what: "containers started at once in the guest (each create + start + delete of /bin/true), the whole burst timed; lsmns-hook as createRuntime hook / none",
			count: $burst_count,
			nohook_us: ($burst_nohook | stats($reps)),
			hook_us: ($burst_hook | stats($reps)),
			ratio: ([range(0; $reps) as $i | ratio($burst_hook[$i]; $burst_nohook[$i])] | stats($reps) | verdict(1.05))
		},
		hook_cpu_us: ([$R[] | value(.; "hook-cpu-native"; true; "cpu_us_median")] | stats($reps) | verdict_below(2000)
			| . + {where: "natively on this machine",
				wall_us_median: ([$R[] | value(.; "hook-cpu-native"; true; "wall_us_median")] | stats($reps) | .median)}),
		# the issue's target: what the hook costs beyond any process
		hook_over_empty_us: ([$R[] | ratio_diff(value(.; "hook-cpu-native"; true; "cpu_us_median"); value(.; "empty-cpu-native"; true; "cpu_us_median"))]
			| stats_any($reps) | verdict(500)
			| . + {what: "lsmns-hook CPU minus the empty static program's, per repetition (both native, alternating)"}),
		empty_static_program_us: ([$R[] | value(.; "empty-cpu-native"; true; "cpu_us_median")] | stats($reps)
			| . + {where: "natively on this machine, alternating with the hook (the floor of any hook process)"}),
		hook_cpu_us_guest: ([$R[] | value(.; "hook-cpu"; true; "cpu_us_median")] | stats($reps)
			| . + {where: "in the guest, by its clock (reference only)"}),
		namespaces: {
			levels: (reduce $L[] as $l ({}; .[$l] = {
				assign_us: ($ns[$l] | map(.assign) | stats($reps)),
				slab_bytes_per_ns: ($ns[$l] | map(.slab) | stats($reps)),
				live: ($ns[$l] | map(.live) | map(select(. != null))),
				not_reached: [$X[] | select(.key == "ns-scale" and .failed and .f.level == $l) |
					{rep: (.rep | tonumber), reached: (.f.reached | num), why: .reason}]})),
			assign_1000_over_10: ([range(0; $reps) as $i | ratio($ns["1000"][$i].assign; $ns["10"][$i].assign)]
				| stats($reps) | verdict(1.10)),
			slab_1000_over_10: ([range(0; $reps) as $i | ratio($ns["1000"][$i].slab; $ns["10"][$i].slab)]
				| stats($reps) | verdict(1.00)),
			# every level above 10 against 10: "flat" up to a node's scale
			over_10: [$L[] | select(. != "10") as $l | {level: ($l | tonumber),
				assign: ([range(0; $reps) as $i | ratio($ns[$l][$i].assign; $ns["10"][$i].assign)] | stats($reps) | verdict(1.10)),
				slab: ([range(0; $reps) as $i | ratio($ns[$l][$i].slab; $ns["10"][$i].slab)] | stats($reps) | verdict(1.00))}]
		}
	},
	failures: $failures
}
# every figure that is missing or incomplete, by name
| . as $o
| .incomplete = (
	[$o.configs | to_entries[] | .key as $c | .value | to_entries[] | select(.value.complete | not) |
		"\($c) \(.key): n=\(.value.n) of \(.value.expected)"] +
	[$o.ratios[] | .ratio as $q | .stressors | to_entries[] | select(.value.complete | not) |
		"\($q) \(.key): n=\(.value.n) of \(.value.expected)"] +
	[$o.extras | (.crun_start | {"crun start ratio": .ratio, "crun start without hook": .nohook_us, "crun start with hook": .hook_us}),
		(.burst | {"burst ratio": .ratio, "burst without hook": .nohook_us, "burst with hook": .hook_us}),
		{"hook CPU time": .hook_cpu_us, "hook CPU over the empty program": .hook_over_empty_us, "empty static program": .empty_static_program_us, "hook CPU time in the guest": .hook_cpu_us_guest},
		(.namespaces | (.levels | to_entries | map({key: "\(.key) namespaces: assignment", value: .value.assign_us},
				{key: "\(.key) namespaces: slab bytes", value: .value.slab_bytes_per_ns}) | from_entries),
			{"assignment 1000/10": .assign_1000_over_10, "slab bytes 1000/10": .slab_1000_over_10})
		| to_entries[] | select(.value.complete | not) | "\(.key): n=\(.value.n) of \(.value.expected)"])
| .ok = ((.failures | length) == 0 and (.incomplete | length) == 0)
