#!/usr/bin/env bash
# BG's own CPU per action against PostgreSQL, several BG checkouts interleaved: each read action alone (VP, LF, VFR,
# VTR) and the high mix, T=4 (platform threads), on the default graph (M=10,000 φ=ρ=100) each checkout can run on
# (share a state directory: BG_JAVA_OPTS=-Dbg.state.dir=DIR, then bg load --replace once).
# Usage: scripts/bench-cpu.sh OUTDIR [bg options, e.g. -p postgres.password=…]
#   BG_CHECKOUTS  space-separated checkouts (default: this one); BG_BENCH_RUNS (3); BG_BENCH_SECONDS (15)
# Prints per run and checkout: actions/s, BG µs/action (the whole process's CPU / actions), and for checkouts that
# report it each action's bg_cpu_us (the thread's CPU in the store call) and the outside share.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-cpu.sh OUTDIR [bg options]}; shift
runs=${BG_BENCH_RUNS:-3}
secs=${BG_BENCH_SECONDS:-15}
read -r -a checkouts <<< "${BG_CHECKOUTS:-$root}"
mkdir -p "$out"
for mix in vp lf vfr vtr high; do
  case $mix in
    vfr) w=(-p ViewFriendReqAction=1) ;;
    vtr) w=(-p ViewTopKResourcesAction=1) ;;
    *) w=(--workload "$mix") ;;
  esac
  for i in $(seq 1 "$runs"); do
    for c in "${checkouts[@]}"; do
      f="$out/$mix-$i-$(basename "$c").json"
      "$c/bg" run --store postgres "$@" "${w[@]}" --threads 4 -p threadkind=platform --warmup 5s --duration "${secs}s" \
        --quiet --out "$f" > /dev/null 2>&1
      python3 - "$f" "$mix" "$i" "$(basename "$c")" <<'PY'
import json, sys
f, mix, i, c = sys.argv[1:]
r = json.load(open(f))
cpu = r["cpu"]
acts = r.get("actions") or {}
per = " ".join(f"{k}={v['bg_cpu_us']:.1f}" for k, v in acts.items() if v.get("bg_cpu_us") is not None and v["count"] > 0)
out = cpu.get("bg_outside_us_per_action")
print(f"{mix:5} {i} {c:12} {r['throughput']:9.0f} act/s  BG {cpu['bg_us_per_action']:6.1f} µs/action"
      + (f"  calls: {per}  outside {out:.1f}" if per else ""))
PY
    done
  done
done
