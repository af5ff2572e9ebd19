#!/usr/bin/env bash
# BG against the sqlite3 shell (SQLite's own C program) running exactly the SQL of BG's vp, lf and vfr actions on the
# same database file, one connection each (T = 1: the shell has one), interleaved: the method of
# scripts/bench-pgbench.sh applied to SQLite. Both run SQLite in their own process with the same page cache; the shell
# also formats every row as text (to /dev/null), BG hands rows to its views through the JDBC driver's JNI calls.
#
# Usage: scripts/bench-sqlite-cli.sh OUTDIR DBFILE [bg options]
#   DBFILE  a database loaded by the checkouts compared (./bg load --store sqlite -p sqlite.file=DBFILE --replace)
#   BG_CHECKOUTS (default: this one), BG_MIXES ("vp lf vfr"), BG_BENCH_RUNS (3), BG_BENCH_SECONDS (10),
#   BG_MEMBERS (10000), SQLITE_CACHE_MB (64, as the store's sqlite.cache_mb default)
# Prints one line per run: mix, run, then for each checkout: the shell's statements/s, BG actions/s, ratio, BG µs/action.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-sqlite-cli.sh OUTDIR DBFILE [bg options]}
db=${2:?usage: bench-sqlite-cli.sh OUTDIR DBFILE [bg options]}
shift 2
runs=${BG_BENCH_RUNS:-3}
secs=${BG_BENCH_SECONDS:-10}
members=${BG_MEMBERS:-10000}
cache=${SQLITE_CACHE_MB:-64}
read -r -a checkouts <<< "${BG_CHECKOUTS:-$root}"
command -v sqlite3 >/dev/null || { echo "bench-sqlite-cli.sh: sqlite3 not found (Debian: sqlite3)" >&2; exit 1; }
[ -f "$db" ] || { echo "bench-sqlite-cli.sh: $db: no such database file" >&2; exit 2; }
mkdir -p "$out"

shell() { # shell STATEMENTS REPEATS -> seconds to run the file REPEATS times
  local script="$out/shell-input.sql" i s e
  { echo ".output /dev/null"; echo "PRAGMA cache_size=-$((cache * 1024));"
    for i in $(seq 1 "$2"); do echo ".read $1"; done; } > "$script"
  s=$(date +%s.%N); sqlite3 -readonly "$db" < "$script"; e=$(date +%s.%N)
  python3 -c "print($e - $s)"
}
printf '%-4s %-3s' mix run
for c in "${checkouts[@]}"; do printf ' | %-18s %9s %9s %6s %7s' "$(basename "$c")" sqlite3 bg ratio 'µs/act'; done
echo
for mix in ${BG_MIXES:-vp lf vfr}; do
  stmts="$out/$mix-statements.sql"
  "$root/scripts/bench-statements.py" "$root/scripts/relational/$mix.sql" "$members" "$stmts"
  # Calibrate: how many passes over the 20,000 statements last about BG_BENCH_SECONDS.
  s0=$(shell "$stmts" 1)
  reps=$(python3 -c "print(max(1, round($secs / max($s0, 0.001))))")
  for i in $(seq 1 "$runs"); do
    printf '%-4s %-3s' "$mix" "$i"
    for c in "${checkouts[@]}"; do
      s=$(shell "$stmts" "$reps")
      sh=$(python3 -c "print(int(20000 * $reps / $s))")
      f="$out/$mix-$i-$(basename "$c").json"
      if [ "$mix" = vfr ]; then w=(-p ViewFriendReqAction=1); else w=(--workload "$mix"); fi
      "$c/bg" run --store sqlite -p sqlite.file="$db" -p sqlite.cache_mb="$cache" "$@" "${w[@]}" --threads 1 \
        --warmup 2s --duration "${secs}s" --quiet --out "$f" > /dev/null 2> >(grep -v '^bg: running' >&2)
      read -r bg us < <(python3 -c "import json;r=json.load(open('$f'));print(int(r['throughput']), round(r['cpu']['bg_us_per_action'],1))")
      printf ' | %-18s %9s %9s %6s %7s' "" "$sh" "$bg" "$(python3 -c "print(f'{$bg/$sh:.2f}')")" "$us"
    done
    echo
  done
done
