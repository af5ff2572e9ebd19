#!/usr/bin/env bash
# casql with Redis: high mix at T=16, invalidate and ttl 10/30/120 s; graph reloaded before each run.
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Needs redis-server on 6379 and the PostgreSQL of scripts/bench-postgres.sh. Usage: scripts/bench-casql.sh [OUTDIR]
PG="-p postgres.password=bg"
mkdir -p ${1:-/tmp/cq}
for mode in invalidate ttl10 ttl30 ttl120; do
  case $mode in invalidate) S="-p consistency=invalidate"; D=60s;; ttl10) S="-p consistency=ttl -p ttl=10s"; D=60s;;
    ttl30) S="-p consistency=ttl -p ttl=30s"; D=60s;; ttl120) S="-p consistency=ttl -p ttl=120s"; D=180s;; esac
  "$root/bg" load --store casql $PG $S --replace > /dev/null 2>&1
  "$root/bg" run --store casql $PG $S --workload high --threads 16 --warmup 5s --duration $D --quiet --out ${1:-/tmp/cq}/$mode.json > ${1:-/tmp/cq}/$mode.txt 2>&1
  echo "$mode rc=$?"
done
