#!/usr/bin/env bash
# What validation's logs cost on BG's ceiling: two builds side by side, interleaved, the memory store with the high mix
# at T = 1, 2 and 16, validation on (scripts/bench-engine.sh with BG_BENCH_VALIDATION=1, without PostgreSQL).
#
# Usage: scripts/bench-validation-logs.sh A_ROOT B_ROOT OUTDIR [PAIRS]
set -euo pipefail
BG_BENCH_VALIDATION=1 BG_BENCH_PG=0 exec "$(dirname "${BASH_SOURCE[0]}")/bench-engine.sh" "$@"
