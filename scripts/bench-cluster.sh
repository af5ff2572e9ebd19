#!/usr/bin/env bash
# BG's own ceiling with 1, 2 and 4 worker processes on this machine: each worker holds its own in-memory store, so this
# measures BG alone (dissertation 4.3). Prints total and per-worker actions/s and the coordinator's CPU per second of run.
# Usage: scripts/bench-cluster.sh [OUTDIR] [REPEATS]
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:-/tmp/bench-cluster}; reps=${2:-3}
export BG_SECRET=bench-cluster-secret
mkdir -p "$out"
"$root/bg" --help > /dev/null 2>&1
for n in 1 2 4; do
  pids=(); addrs=()
  for k in $(seq 1 $n); do
    port=$((7440 + k))
    "$root/bg" worker --listen 127.0.0.1:$port --dir "$out/w$k" > "$out/w$k.log" 2>&1 &
    pids+=($!); addrs+=(127.0.0.1:$port)
  done
  sleep 4
  workers=$(IFS=,; echo "${addrs[*]}")
  for r in $(seq 1 $reps); do
    f="$out/n$n-r$r"
    /usr/bin/time -f "%U %S %e" -o "$f.time" "$root/bg" run --store memory --workers "$workers" --workload high \
      --threads 16 --duration 10s --warmup 2s --quiet -p validation=false --out "$f.json" > "$f.txt" 2>&1
    python3 - "$f.json" "$f.time" "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); u, s, e = map(float, open(sys.argv[2]).read().split()[-3:])
per = " ".join(f"{w['throughput']:,.0f}" for w in r["config"]["workers"])
print(f"N={sys.argv[3]} total {r['throughput']:,.0f} actions/s  per worker {per}  coordinator CPU {u+s:.1f} s over {e:.1f} s "
      f"({(u+s)/e:.2f} cores incl. JVM start)")
PY
  done
  kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null
done
