#!/usr/bin/env bash
# Agile loading on PostgreSQL (dissertation 7.2): the same SoAR rating (high mix) with each way of resetting the store between
# experiments, then δ from the Delta Analyzer (1 s) against δ = Δ. Needs the PostgreSQL of scripts/bench-postgres.sh.
# Usage: scripts/bench-agile.sh [OUTDIR]
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:-/tmp/agile}
PG="-p postgres.password=bg"
SLA="95%:100ms:0.01%:30s"
mkdir -p "$out"
"$root/bg" load --store postgres $PG --replace > "$out/load.txt" 2>&1
echo "load rc=$? $(grep -o 'loaded in [^)]*' "$out/load.txt" | head -1)"
for reset in reload image repair loadfree; do
  "$root/bg" rate --store postgres $PG --workload high --target soar --delta 10s --sla $SLA --max-threads 64 \
    --reset $reset --out "$out/$reset" > "$out/$reset.txt" 2>&1
  echo "$reset rc=$? $(grep -E '^SoAR|^Rating time' "$out/$reset.txt" | tr '\n' ' ')"
done
"$root/bg" rate --store postgres $PG --workload high --target soar --delta 30s --sla $SLA --max-threads 64 \
  --reset auto --out "$out/delta30" > "$out/delta30.txt" 2>&1
echo "delta=30s rc=$? $(grep -E '^SoAR|^Rating time' "$out/delta30.txt" | tr '\n' ' ')"
"$root/bg" rate --store postgres $PG --workload high --target soar --delta 1s --sla $SLA --max-threads 64 \
  --reset auto --out "$out/delta1" > "$out/delta1.txt" 2>&1
echo "delta=1s rc=$? $(grep -E '^SoAR|^Rating time' "$out/delta1.txt" | tr '\n' ' ')"
