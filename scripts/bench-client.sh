#!/usr/bin/env bash
# postgres.client=pgjdbc against postgres.client=wire, interleaved so each pair sees the same machine load: each mix at
# each T, BG's CPU per action (the whole process) and the store call's own (actions.X.bg_cpu_us) for VP, LF, VFR and VTR.
# Needs the default graph loaded (bg load --store postgres …) and a server with max_connections ≥ 2·T + 10 (wire holds
# a second connection per session).
# Usage: scripts/bench-client.sh OUTDIR [bg options, e.g. -p postgres.password=…]
#   BG_MIXES (default "vp lf vfr high"; vtr too), BG_THREADS ("4 16"), BG_BENCH_RUNS (3), BG_BENCH_SECONDS (10)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-client.sh OUTDIR [bg options]}; shift
mkdir -p "$out"
for mix in ${BG_MIXES:-vp lf vfr high}; do
  case $mix in
    vfr) w=(-p ViewFriendReqAction=1) ;;
    vtr) w=(-p ViewTopKResourcesAction=1) ;;
    *) w=(--workload "$mix") ;;
  esac
  for t in ${BG_THREADS:-4 16}; do
    for i in $(seq 1 "${BG_BENCH_RUNS:-3}"); do
      for client in pgjdbc wire; do
        f="$out/$mix-T$t-$i-$client.json"
        "$root/bg" run --store postgres "$@" -p postgres.client=$client "${w[@]}" --threads "$t" --warmup 5s \
          --duration "${BG_BENCH_SECONDS:-10}s" --quiet --out "$f" > /dev/null 2>&1
        python3 - "$f" "$mix" "$t" "$i" "$client" <<'PY'
import json, sys
f, mix, t, i, client = sys.argv[1:]
r = json.load(open(f))
acts = r.get("actions") or {}
calls = " ".join(f"{k}={acts[k]['bg_cpu_us']:.1f}" for k in ("VP", "LF", "VFR", "VTR")
                 if k in acts and acts[k]["count"] > 0 and acts[k].get("bg_cpu_us") is not None)
print(f"{mix:5} T={t:<3} {i} {client:7} {r['throughput']:9.0f} act/s  BG {r['cpu']['bg_us_per_action']:6.1f} µs/action"
      f"  calls: {calls}")
PY
      done
    done
  done
done
