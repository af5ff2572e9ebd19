#!/usr/bin/env bash
# BG against pgbench (PostgreSQL's C client, prepared statements) issuing exactly the SQL of BG's vp, lf and vfr
# actions, interleaved so every command sees the same machine load. Needs the default graph (M=10,000 φ=ρ=100) loaded
# by each BG checkout given (bg load --store postgres --replace … in each: a checkout keeps its own state).
#
# Usage: PGPASSWORD=… scripts/bench-pgbench.sh OUTDIR [bg options, e.g. -p postgres.password=…]
#   BG_CHECKOUTS   BG checkouts to compare, space-separated (default: this one); e.g. "/work/wt-before /work/main"
#   PG_SSLMODES    pgbench's sslmode per checkout, space-separated, matched by position (default: disable): BG's
#                  postgres store talks TLS to a server on this machine only when the URL asks; an
#                  older checkout used pgJDBC's default, prefer, as libpq does, and is compared with pgbench on prefer
#   BG_MIXES       default "vp lf vfr"; BG_THREADS default "1 4 16 64"; BG_BENCH_RUNS default 3; BG_BENCH_SECONDS 10
#   BG_WARMUP      BG's warm-up before its measured seconds (default 10s): long enough for the JIT compilers to settle,
#                  whose threads took 15 % of BG's CPU 3-9 s into a run and share the cores with the server (pgbench,
#                  compiled C, has none)
#   BG_OPTS        more -p options for every checkout, space-separated (e.g. "-p threadkind=platform"), for an
#                  older checkout's settings; both sides use TCP to PGHOST (default localhost) at PGPORT
#   BG_KINDS       threadkind values to run each client with, space-separated (e.g. "platform shared"); default:
#                  the checkout's own choice
# Prints one line per run: mix, T, run, then for each checkout: pgbench tps, BG actions/s, ratio, BG µs/action.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-pgbench.sh OUTDIR [bg options]}; shift
runs=${BG_BENCH_RUNS:-3}
secs=${BG_BENCH_SECONDS:-10}
warm=${BG_WARMUP:-10s}
read -r -a checkouts <<< "${BG_CHECKOUTS:-$root}"
read -r -a modes <<< "${PG_SSLMODES:-disable}"
mkdir -p "$out"
printf '%-4s %-3s %-3s' mix T run
read -r -a bgopts <<< "${BG_OPTS:-}"
host=${PGHOST:-localhost}
read -r -a kinds <<< "${BG_KINDS:-default}"
for c in "${checkouts[@]}"; do for kd in "${kinds[@]}"; do
  printf ' | %-18s %9s %9s %6s %7s' "$(basename "$c")/$kd" pgbench bg ratio 'µs/act'; done; done
echo
for mix in ${BG_MIXES:-vp lf vfr}; do
  for t in ${BG_THREADS:-1 4 16 64}; do
    for i in $(seq 1 "$runs"); do
      printf '%-4s %-3s %-3s' "$mix" "$t" "$i"
      for k in "${!checkouts[@]}"; do for kd in "${kinds[@]}"; do
        c=${checkouts[$k]}; mode=${modes[$k]:-${modes[0]}}
        opt=("${bgopts[@]}")
        if [ "$kd" != default ]; then opt+=(-p "threadkind=$kd"); fi
        pg=$(PGSSLMODE=$mode pgbench -n -M prepared -c "$t" -j 2 -T "$secs" -f "$root/scripts/pgbench/$mix.sql" \
          -h "$host" -U postgres bg 2>/dev/null | awk '/^tps/ {print int($3)}')
        f="$out/$mix-T$t-$i-$k-$(basename "$c")-$kd.json"
        # vfr has no named mix: View Friend Requests alone through the USC key (works in older checkouts too).
        if [ "$mix" = vfr ]; then w=(-p ViewFriendReqAction=1); else w=(--workload "$mix"); fi
        "$c/bg" run --store postgres "$@" "${opt[@]}" "${w[@]}" --threads "$t" --warmup "$warm" --duration "${secs}s" --quiet \
          --out "$f" > /dev/null 2> >(grep -v '^bg: running' >&2)
        read -r bg us < <(python3 -c "import json;r=json.load(open('$f'));print(int(r['throughput']), round(r['cpu']['bg_us_per_action'],1))")
        printf ' | %-18s %9s %9s %6s %7s' "$mode" "$pg" "$bg" "$(python3 -c "print(f'{$bg/$pg:.2f}')")" "$us"
      done; done
      echo
    done
  done
done
