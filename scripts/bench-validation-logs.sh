#!/usr/bin/env bash
# What validation's logs cost on BG's ceiling: two builds side by side, interleaved (A B A B …), the memory store with
# the high mix at T = 1, 2 and 16, validation on, 10 s measured after a 2 s warm-up. Prints one line per run
# (throughput, BG's µs of CPU per action) and the medians and B/A ratios at the end.
#
# Usage: scripts/bench-validation-logs.sh A_ROOT B_ROOT OUTDIR [PAIRS]
#   A_ROOT, B_ROOT: directories holding cli/target/bg-cli.jar and cli/target/lib (./mvnw -DskipTests package)
set -euo pipefail
a=${1:?usage: bench-validation-logs.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
b=${2:?usage: bench-validation-logs.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
out=${3:?usage: bench-validation-logs.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
pairs=${4:-3}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
mkdir -p "$out"
out="$(cd "$out" && pwd)"
results="$out/results.tsv"
: > "$results"

bg() { # bg ROOT ARGS…: that build's bg, with its own state directory
  local r=$1; shift
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dbg.state.dir="$out/state-$(basename "$r")" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

field() { # field FILE EXPR: a number from a result JSON
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

graph=(-p usercount=10000 -p friendcountperuser=100 -p resourcecountperuser=100)
for p in $(seq "$pairs"); do
  for t in 1 2 16; do
    # alternate which build goes first, so neither always runs on a warmer machine
    if [ $((p % 2)) -eq 1 ]; then order=("$a" "$b"); else order=("$b" "$a"); fi
    for r in "${order[@]}"; do
      f="$out/T$t-$(basename "$r")-$p.json"
      bg "$r" run --store memory --workload high --threads "$t" --duration 10s --warmup 2s -p keeplogs=false \
        "${graph[@]}" --quiet --out "$f" > /dev/null 2>>"$out/stderr.log" || true
      tp=$(field "$f" "r['throughput']")
      us=$(field "$f" "r['cpu']['bg_us_per_action']")
      ok=$(field "$f" "(r.get('unpredictable') or {}).get('reads_checked')")
      printf 'T%s\t%s\t%s\t%s\t%s\n' "$t" "$(basename "$r")" "$tp" "$us" "$ok" | tee -a "$results"
      rm -rf "${f%.json}"
    done
  done
done

python3 - "$results" "$(basename "$a")" "$(basename "$b")" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()]
a, b = sys.argv[2], sys.argv[3]
print(f"{'T':>4} {'A actions/s':>12} {'B actions/s':>12} {'B/A':>7} {'A µs/act':>9} {'B µs/act':>9} {'B/A':>7}")
for t in sorted({r[0] for r in rows}, key=lambda s: int(s[1:])):
    def med(build, col):
        return statistics.median(float(r[col]) for r in rows if r[0] == t and r[1] == build)
    ta, tb, ua, ub = med(a, 2), med(b, 2), med(a, 3), med(b, 3)
    print(f"{t:>4} {ta:12,.0f} {tb:12,.0f} {tb/ta:7.3f} {ua:9.3f} {ub:9.3f} {ub/ua:7.3f}")
PY
