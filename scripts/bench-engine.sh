#!/usr/bin/env bash
# Two builds of BG side by side, interleaved (A B A B …) in one session: BG's ceiling on the memory store (high mix,
# T = 1, 2, 16, validation off and on) and BG's CPU per action against a private PostgreSQL (vp and high, T = 4).
# Prints one line per run and the medians and A/B ratios at the end.
#
# Usage: scripts/bench-engine.sh A_ROOT B_ROOT OUTDIR [PAIRS]
#   A_ROOT, B_ROOT: checkouts with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Needs Debian's PostgreSQL server binaries (/usr/lib/postgresql/*/bin) for the PostgreSQL part (BG_BENCH_PG=0 skips
# it; BG_BENCH_MEMORY=0 skips the memory store; BG_BENCH_VALIDATION=1 runs the memory store with validation on at every
# T, which is what the logs cost, scripts/bench-validation-logs.sh).
set -euo pipefail
a=${1:?usage: bench-engine.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
b=${2:?usage: bench-engine.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
out=${3:?usage: bench-engine.sh A_ROOT B_ROOT OUTDIR [PAIRS]}
pairs=${4:-3}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
mkdir -p "$out"
out="$(cd "$out" && pwd)"
results="$out/results.tsv"
: > "$results"

bg() { # bg ROOT ARGS…: that build's bg, with its own state directory
  local r=$1; shift
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dbg.state.dir="$out/state-$(basename "$r")" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

field() { # field FILE EXPR: a number from a result JSON
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

one() { # one LABEL ROOT ARGS…: a run, its throughput and BG's µs of CPU per action
  local label=$1 r=$2; shift 2
  local f="$out/$label-$(basename "$r")-$RANDOM.json"
  bg "$r" run "$@" --quiet --out "$f" > /dev/null 2>>"$out/stderr.log"
  local tp us
  tp=$(field "$f" "r['throughput']")
  us=$(field "$f" "r['cpu']['bg_us_per_action']")
  printf '%s\t%s\t%s\t%s\n' "$label" "$(basename "$r")" "$tp" "$us" | tee -a "$results"
  rm -rf "$f" "${f%.json}"
}

graph=(-p usercount=10000 -p friendcountperuser=100 -p resourcecountperuser=100)
for p in $(seq "$pairs"); do
  [ "${BG_BENCH_MEMORY:-1}" != 0 ] || break
  for t in 1 2 16; do
    for r in "$a" "$b"; do
      if [ "${BG_BENCH_VALIDATION:-0}" = 1 ]; then
        one "memory-high-T$t-validated" "$r" --store memory --workload high --threads "$t" --duration 10s \
          --warmup 2s -p keeplogs=false "${graph[@]}"
      else
        one "memory-high-T$t" "$r" --store memory --workload high --threads "$t" --duration 10s --warmup 2s \
          -p validation=false "${graph[@]}"
      fi
    done
  done
  [ "${BG_BENCH_VALIDATION:-0}" != 1 ] || continue
  for r in "$a" "$b"; do
    one "memory-high-T16-validated" "$r" --store memory --workload high --threads 16 --duration 10s --warmup 2s \
      -p keeplogs=false "${graph[@]}"
  done
done

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$pgbin" ] && [ "${BG_BENCH_PG:-1}" != 0 ]; then
  # PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
  as=()
  if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi
  pgdir=$(mktemp -d /tmp/bg-bench-pg.XXXXXX)
  chmod 755 "$pgdir"
  [ ${#as[@]} -eq 0 ] || chown postgres "$pgdir"
  data="$pgdir/data"
  "${as[@]}" "$pgbin/initdb" -D "$data" -U bg --auth=trust > /dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "${as[@]}" "$pgbin/pg_ctl" -D "$data" -l "$pgdir/pg.log" \
    -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off" -w start > /dev/null
  trap '"${as[@]}" "$pgbin/pg_ctl" -D "$data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
  # One database per build: the high mix writes, and each build must find the store in the state it left.
  pgurl() { echo "postgres.url=jdbc:postgresql://127.0.0.1:$port/$(basename "$1")"; }
  for r in "$a" "$b"; do
    "${as[@]}" "$pgbin/createdb" -h "$pgdir" -p "$port" -U bg "$(basename "$r")"
    bg "$r" load --store postgres -p "$(pgurl "$r")" -p postgres.user=bg "${graph[@]}" --replace > /dev/null \
      2>>"$out/stderr.log"
  done
  for p in $(seq "$pairs"); do
    for mix in vp high; do
      for r in "$a" "$b"; do
        one "postgres-$mix-T4" "$r" --store postgres -p "$(pgurl "$r")" -p postgres.user=bg --workload "$mix" \
          --threads 4 --duration 10s --warmup 2s -p validation=false "${graph[@]}"
      done
    done
  done
fi

python3 - "$results" "$(basename "$a")" "$(basename "$b")" <<'EOF'
import sys, statistics, collections
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
A, B = sys.argv[2], sys.argv[3]
by = collections.defaultdict(lambda: collections.defaultdict(list))
for label, build, tp, us in rows:
    by[label][build].append((float(tp), float(us) if us not in ('None', '') else float('nan')))
print(f"{'experiment':28} {'A actions/s':>12} {'B actions/s':>12} {'B/A':>6} {'A µs/act':>9} {'B µs/act':>9} {'B/A':>6}")
for label, d in by.items():
    ta = [x[0] for x in d[A]]; tb = [x[0] for x in d[B]]
    ua = [x[1] for x in d[A]]; ub = [x[1] for x in d[B]]
    ratio = statistics.median([y / x for x, y in zip(ta, tb)])
    uratio = statistics.median([y / x for x, y in zip(ua, ub)])
    print(f"{label:28} {statistics.median(ta):12,.0f} {statistics.median(tb):12,.0f} {ratio:6.2f} "
          f"{statistics.median(ua):9.1f} {statistics.median(ub):9.1f} {uratio:6.2f}")
EOF
