#!/usr/bin/env bash
# PostgreSQL (M=10,000, high mix, T=8) driven by one process, by 1 worker and by 2 workers at the same total T,
# interleaved and repeated: throughput and p95 should agree within noise (dissertation 4.3). Needs the PostgreSQL of
# scripts/bench-postgres.sh. Usage: scripts/bench-cluster-pg.sh [OUTDIR] [REPEATS]
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:-/tmp/bench-cluster-pg}; reps=${2:-3}
PG="-p postgres.password=bg"
export BG_SECRET=bench-cluster-secret
mkdir -p "$out"
"$root/bg" --help > /dev/null 2>&1
# Workers are started afresh after each reload: a worker keeps its expected state while it lives.
start_workers() {
  for k in 1 2; do
    "$root/bg" worker --listen 127.0.0.1:$((7450 + k)) --dir "$out/w$k" > "$out/w$k.log" 2>&1 &
  done
  sleep 4
}
report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]:10s} {r['throughput']:9,.0f} actions/s  p95 {r['total']['p95_ms']:.2f} ms  p99 {r['total']['p99_ms']:.2f} ms"
      f"  unpredictable {r['unpredictable']['pct'] if r.get('unpredictable') else '-'}")
PY
}
for r in $(seq 1 $reps); do
  for mode in single w1 w2; do
    kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
    "$root/bg" load --store postgres $PG --replace > /dev/null 2>&1
    [ $mode != single ] && start_workers
    f="$out/$mode-r$r.json"
    case $mode in
      single) "$root/bg" run --store postgres $PG --workload high --threads 8 --duration 20s --warmup 3s --quiet --out "$f" > "$f.txt" 2>&1;;
      w1) "$root/bg" run --store postgres $PG --workload high --threads 8 --duration 20s --warmup 3s --quiet --workers 127.0.0.1:7451 --out "$f" > "$f.txt" 2>&1;;
      w2) "$root/bg" run --store postgres $PG --workload high --threads 8 --duration 20s --warmup 3s --quiet --workers 127.0.0.1:7451,127.0.0.1:7452 --out "$f" > "$f.txt" 2>&1;;
    esac
    report "$f" "$mode"
  done
done
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
