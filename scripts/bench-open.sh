#!/usr/bin/env bash
# The open model's figures: ceiling on the memory store, and PostgreSQL closed vs open.
# Usage: scripts/bench-open.sh memory OUTDIR            rates x 3 runs on the memory store (G1, then ZGC)
#        scripts/bench-open.sh rate OUTDIR [bg options]  bg rate --model both on a loaded PostgreSQL
#        scripts/bench-open.sh levels OUTDIR SOAR INFLIGHT [bg options]
#              open model at 50/80/95/110 % of SOAR (INFLIGHT threads) and the closed model at T = 1, 2, 3, 4
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
phase=${1:?usage: bench-open.sh memory|rate|levels OUTDIR ...}; out=${2:?OUTDIR}; shift 2
mkdir -p "$out"
summary() { # FILE: rate-relevant figures of one result
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); o = r.get('open') or {}; t = r['total']; d = o.get('start_delay') or {}
print(f"{sys.argv[1].split('/')[-1]:28s} actions/s {r['throughput']:>11,.0f} p95 {t['p95_ms'] or 0:8.3f} p99 {t['p99_ms'] or 0:8.3f}"
      + (f" | offered/s {o['offered_rate']:>11,.0f} valid {o['valid']!s:5s} start-delay p50 {d.get('p50_ms') or 0:.3f} p99 {d.get('p99_ms') or 0:.3f} ms"
         f" late {o['late_pct']:.2f} % unstarted {o['unstarted']}" if o else ""))
PY
}
case "$phase" in
  memory)
    for gc in G1 ZGC; do
      opts=""; [ "$gc" = ZGC ] && opts="-XX:+UseZGC"
      for rate in 300000 600000 1000000 1250000 1500000; do
        for i in 1 2 3; do
          f="$out/mem-$gc-$rate-$i.json"
          BG_JAVA_OPTS="$opts" "$root/bg" run --store memory -p usercount=10000 --workload high --threads 2 \
            --arrivals "$rate" --duration 10s --warmup 3s --quiet --out "$f" > /dev/null 2>&1 || true
          summary "$f"
        done
      done
    done ;;
  rate)
    "$root/bg" rate --store postgres "$@" --workload high --model both --target soar --delta 10s \
      --sla 95%:100ms:0.01%:30s --max-threads 64 --out "$out/rating" ;;
  levels)
    soar=${1:?SOAR}; inflight=${2:?INFLIGHT}; shift 2
    "$root/bg" load --store postgres "$@" --replace > "$out/load.log" 2>&1
    for pct in 50 80 95 110; do
      rate=$(python3 -c "print(round($soar * $pct / 100))")
      f="$out/open-$pct.json"
      "$root/bg" run --store postgres "$@" --workload high --threads "$inflight" --arrivals "$rate" --duration 30s \
        --warmup 5s --quiet --out "$f" > /dev/null 2>&1 || true
      summary "$f"
    done
    for t in 1 2 3 4; do
      f="$out/closed-T$t.json"
      "$root/bg" run --store postgres "$@" --workload high --threads "$t" --duration 30s --warmup 5s --quiet \
        --out "$f" > /dev/null 2>&1 || true
      summary "$f"
    done ;;
  *) echo "bench-open.sh: unknown phase $phase (memory, rate or levels)" >&2; exit 2 ;;
esac
