#!/usr/bin/env bash
# The issue-3 PostgreSQL matrix: M=10,000 φ=ρ=100, no images; mixes vp lf verylow high at T = 1 4 16 64.
# Usage: scripts/bench-postgres.sh OUTDIR [extra bg -p options, e.g. -p postgres.password=…]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-postgres.sh OUTDIR [bg options]}; shift
dur=${BG_BENCH_DURATION:-20s}
mkdir -p "$out"
"$root/bg" load --store postgres "$@" --replace
for mix in vp lf verylow high; do
  for t in 1 4 16 64; do
    "$root/bg" run --store postgres "$@" --workload "$mix" --threads "$t" --warmup 5s --duration "$dur" \
      --quiet --out "$out/$mix-T$t.json" > /dev/null
  done
done
"$root/bg" compare "$out"
