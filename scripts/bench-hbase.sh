#!/usr/bin/env bash
# HBase-store figures of docs/benchmarks.md, on a private standalone HBase started by scripts/hbase.sh
# (HBASE_HEAP, default here 3g, so the M=10,000 graph's regions stay in the block cache):
#   load     bg load M=10,000 φ=100 ρ=100 into the Basic and the Manual design, BG_HB_LOADS times each (--replace),
#            and bg load --restore-image after the soar phase took an image (only when soar ran)
#   actions  Basic versus Manual for vp, lf, verylow and high at T = 1, 4, 16, 64 (bg sweep, BG_HB_POINT seconds a
#            point), one design after the other for each workload
#   soar     bg rate --target soar of low under 95%:100ms:0.01%:60s for each design (reset by the snapshot image)
# Outputs go under OUTDIR; wall times to OUTDIR/times.txt; one line per point to OUTDIR/points.csv (workload, design,
# T, actions/s, % within β, BG µs per action).
#
# Usage: scripts/bench-hbase.sh ROOT OUTDIR [load] [actions] [soar]   (default: all three)
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_HB_LOADS (default 2), BG_HB_POINT (default 20), BG_HB_WARMUP (default 5), BG_HB_M (default 10000),
#   BG_HB_WORKLOADS (default "vp lf verylow high"), BG_HB_THREADS (default 1,4,16,64), BG_HB_DESIGNS (default
#   "basic manual"), BG_HB_SLA (default 95%:100ms:0.01%:60s), BG_HB_DELTA (the rating's δ, default 10s),
#   BG_HB_SOAR_WORKLOAD (default low), HBASE_HEAP (default 3g), HBASE_LIB (default ~/.cache/bg/hbase-2.6.4-hadoop3/lib).
set -euo pipefail
r=${1:?usage: bench-hbase.sh ROOT OUTDIR [load] [actions] [soar]}
out=${2:?usage: bench-hbase.sh ROOT OUTDIR [load] [actions] [soar]}
shift 2
phases=${*:-load actions soar}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
[ -f "$r/cli/target/bg-cli.jar" ] || { echo "bench-hbase: $r/cli/target/bg-cli.jar missing; build it first" \
  "(cd $r && ./mvnw -DskipTests package)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
m=${BG_HB_M:-10000}
loads=${BG_HB_LOADS:-2}
point=${BG_HB_POINT:-20}
threads=${BG_HB_THREADS:-1,4,16,64}
workloads=${BG_HB_WORKLOADS:-vp lf verylow high}
designs=${BG_HB_DESIGNS:-basic manual}
graph=(-p "usercount=$m" -p friendcountperuser=100 -p resourcecountperuser=100)

bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx3g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}
timed() { # timed NAME CMD...: runs CMD, output to OUTDIR/NAME.txt, appends its wall time to times.txt
  local name=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  "$@" > "$out/$name.txt" 2>&1 || { echo "bench-hbase: $name failed; see $out/$name.txt" >&2; tail -5 "$out/$name.txt" >&2; }
  t1=$(date +%s.%N)
  printf '%s %.1f s\n' "$name" "$(echo "$t1 - $t0" | bc)" | tee -a "$out/times.txt"
}

dir=$(mktemp -d /tmp/bg-bench-hbase.XXXXXX)
trap 'bash "$root/scripts/hbase.sh" stop "$dir" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
export HBASE_HEAP=${HBASE_HEAP:-3g}
# The server jars from the per-user cache the tests use (copied through Maven the first time).
export HBASE_LIB=${HBASE_LIB:-$HOME/.cache/bg/hbase-2.6.4-hadoop3/lib}
quorum=$(bash "$root/scripts/hbase.sh" start "$dir" | tail -1)
echo "bench-hbase: HBase at $quorum (heap $HBASE_HEAP)" >&2
store() { # the --store arguments of a design
  echo "--store hbase -p hbase.zookeeper.port=${quorum##*:} -p hbase.server-dir=$dir -p hbase.timeout=30s" \
    "-p hbase.design=$1 -p hbase.table-prefix=bg_$1_"
}

if [[ " $phases " == *" load "* ]]; then
  for d in $designs; do
    for ((i = 1; i <= loads; i++)); do
      # shellcheck disable=SC2046
      timed "load-$d-$i" bg load $(store "$d") "${graph[@]}" --replace
    done
  done
fi
if [[ " $phases " == *" actions "* ]]; then
  echo "workload,design,T,actions_per_s,within_beta_pct,bg_us_per_action" > "$out/points.csv"
  for d in $designs; do
    # shellcheck disable=SC2046
    timed "load-actions-$d" bg load $(store "$d") "${graph[@]}"
  done
  for w in $workloads; do
    for d in $designs; do
      # shellcheck disable=SC2046
      timed "sweep-$w-$d" bg sweep $(store "$d") "${graph[@]}" --workload "$w" --threads "$threads" \
        --duration "${point}s" --warmup "${BG_HB_WARMUP:-5}s" --quiet --out "$out/sweep-$w-$d.json"
      python3 - "$out/sweep-$w-$d.json" "$w" "$d" >> "$out/points.csv" <<'PY' || true
import json, sys
sweep = json.load(open(sys.argv[1]))
for p in sweep["points"]:
    us = ""
    try:
        cpu = json.load(open(p["result"])).get("cpu") or {}
        us = "" if cpu.get("bg_us_per_action") is None else "%.1f" % cpu["bg_us_per_action"]
    except Exception:
        pass
    print("%s,%s,%d,%.0f,%.2f,%s" % (sys.argv[2], sys.argv[3], p["threads"], p["throughput"], p["withinBetaPct"], us))
PY
    done
  done
fi
if [[ " $phases " == *" soar "* ]]; then
  for d in $designs; do
    # shellcheck disable=SC2046
    timed "soar-$d" bg rate $(store "$d") "${graph[@]}" --workload "${BG_HB_SOAR_WORKLOAD:-low}" --target soar \
      --sla "${BG_HB_SLA:-95%:100ms:0.01%:60s}" --delta "${BG_HB_DELTA:-10s}" --reset image --out "$out/soar-$d"
    if [[ " $phases " == *" load "* ]]; then
      # shellcheck disable=SC2046
      timed "restore-image-$d" bg load $(store "$d") "${graph[@]}" --restore-image
    fi
  done
fi
echo "bench-hbase: done; $out/times.txt" >&2
