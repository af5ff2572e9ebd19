#!/usr/bin/env bash
# BG against pgbench (PostgreSQL's C client, prepared statements) issuing exactly the SQL of BG's vp and lf actions,
# interleaved so both see the same machine load. Needs the issue-3 graph loaded (scripts/bench-postgres.sh does it).
# Usage: PGPASSWORD=… scripts/bench-pgbench.sh OUTDIR [bg options, e.g. -p postgres.password=…]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-pgbench.sh OUTDIR [bg options]}; shift
runs=${BG_BENCH_RUNS:-3}
mkdir -p "$out"
printf '%-4s %-3s %-3s %12s %12s %7s\n' mix T run pgbench bg ratio
for mix in vp lf; do
  for t in 4 16; do
    for i in $(seq 1 "$runs"); do
      pg=$(pgbench -n -M prepared -c "$t" -j 2 -T 10 -f "$root/scripts/pgbench/$mix.sql" -h localhost -U postgres bg \
        2>/dev/null | awk '/^tps/ {print int($3)}')
      "$root/bg" run --store postgres "$@" --workload "$mix" --threads "$t" --warmup 2s --duration 10s --quiet \
        --out "$out/$mix-T$t-$i.json" > /dev/null
      bg=$(python3 -c "import json;print(int(json.load(open('$out/$mix-T$t-$i.json'))['throughput']))")
      printf '%-4s %-3s %-3s %12s %12s %7s\n' "$mix" "$t" "$i" "$pg" "$bg" "$(python3 -c "print(f'{$bg/$pg:.2f}')")"
    done
  done
done
