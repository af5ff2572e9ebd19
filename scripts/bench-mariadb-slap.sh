#!/usr/bin/env bash
# BG against mariadb-slap (MariaDB's own C client) issuing exactly the SQL of BG's vp, lf and vfr actions on MariaDB,
# interleaved so both see the same machine load: the method of scripts/bench-pgbench.sh applied to MariaDB.
# mariadb-slap sends statements as text (COM_QUERY), so the server parses each one, while BG's mariadb store uses
# server-side prepared statements; BG therefore runs twice per point: as it is, and with the text protocol
# (useServerPrepStmts=false in its URL: Connector/J then fills the parameters in itself), exactly as slap talks.
#
# Usage: scripts/bench-mariadb-slap.sh OUTDIR SERVERDIR [bg options]
#   SERVERDIR  a server started by scripts/mariadb.sh (database bg, user bg/bg), the graph loaded by every checkout
#              (./bg load --store mariadb -p mariadb.url=$(scripts/mariadb.sh url SERVERDIR) … --replace)
#   BG_CHECKOUTS  BG checkouts to compare, space-separated (default: this one)
#   BG_MIXES default "vp lf vfr"; BG_THREADS default "1 4 16 64"; BG_BENCH_RUNS default 3; BG_BENCH_SECONDS 10;
#   BG_MEMBERS the graph's members (default 10000): slap's statements pick members uniformly among them
# Prints one line per run: mix, T, run, then for each checkout: slap's statements/s, BG actions/s, ratio, BG µs/action,
# and the same three for BG on the text protocol.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=${1:?usage: bench-mariadb-slap.sh OUTDIR SERVERDIR [bg options]}
server=${2:?usage: bench-mariadb-slap.sh OUTDIR SERVERDIR [bg options]}
shift 2
runs=${BG_BENCH_RUNS:-3}
secs=${BG_BENCH_SECONDS:-10}
members=${BG_MEMBERS:-10000}
read -r -a checkouts <<< "${BG_CHECKOUTS:-$root}"
command -v mariadb-slap >/dev/null || { echo "bench-mariadb-slap.sh: mariadb-slap not found (Debian: mariadb-client)" >&2; exit 1; }
url=$("$root/scripts/mariadb.sh" url "$server")
port=${url##*:}; port=${port%%/*}
mkdir -p "$out"

# slap: T clients over TCP (as BG), N statements in all (each client runs N/T of them, cycling through the file).
slap() { # slap FILE T N -> seconds
  mariadb-slap --no-defaults --protocol=tcp --host=127.0.0.1 --port="$port" --user=bg --password=bg \
    --create-schema=bg --query="$1" --delimiter=';' --concurrency="$2" --iterations=1 --number-of-queries="$3" \
    2>/dev/null | awk '/Average number of seconds/ {print $(NF-1)}'
}
printf '%-4s %-3s %-3s' mix T run
for c in "${checkouts[@]}"; do
  printf ' | %-18s %9s %9s %6s %7s %9s %6s %7s' "$(basename "$c")" slap bg ratio 'µs/act' 'bg text' ratio 'µs/act'
done
echo
for mix in ${BG_MIXES:-vp lf vfr}; do
  # 20,000 statements with random members.
  stmts="$out/$mix-statements.sql"
  "$root/scripts/bench-statements.py" "$root/scripts/relational/$mix.sql" "$members" "$stmts"
  for t in ${BG_THREADS:-1 4 16 64}; do
    # Calibrate: slap runs a fixed count, so size it to last about BG_BENCH_SECONDS.
    n0=$((t * 500)); s0=$(slap "$stmts" "$t" "$n0")
    n=$(python3 -c "print(max($n0, int($n0 / max($s0, 0.001) * $secs)))")
    for i in $(seq 1 "$runs"); do
      printf '%-4s %-3s %-3s' "$mix" "$t" "$i"
      for c in "${checkouts[@]}"; do
        s=$(slap "$stmts" "$t" "$n")
        sl=$(python3 -c "print(int($n / $s))")
        printf ' | %-18s %9s' "" "$sl"
        if [ "$mix" = vfr ]; then w=(-p ViewFriendReqAction=1); else w=(--workload "$mix"); fi
        for protocol in prepared text; do
          f="$out/$mix-T$t-$i-$(basename "$c")-$protocol.json"
          u=$url; [ "$protocol" = text ] && u="$url?useServerPrepStmts=false"
          "$c/bg" run --store mariadb -p mariadb.url="$u" -p mariadb.user=bg -p mariadb.password=bg "$@" "${w[@]}" \
            --threads "$t" --warmup 2s --duration "${secs}s" --quiet --out "$f" > /dev/null 2> >(grep -v '^bg: running' >&2)
          read -r bg us < <(python3 -c "import json;r=json.load(open('$f'));print(int(r['throughput']), round(r['cpu']['bg_us_per_action'],1))")
          printf ' %9s %6s %7s' "$bg" "$(python3 -c "print(f'{$bg/$sl:.2f}')")" "$us"
        done
      done
      echo
    done
  done
done
