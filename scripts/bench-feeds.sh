#!/usr/bin/env bash
# Feed following on PostgreSQL and SQLite (dissertation 8.4, figures 8.17, 8.18 and 1.3): for each store and each
# design (pull, push, sorted-push) the graph of the figures is loaded once (M = 10,000, P = 100, ι = 1,000, ϱ = 10,
# φ = 100, ρ = 10), then `bg sweep` measures throughput versus T for the High and Very Low mixes of table 8.9 at
# θ = 0.27 and 0.99, every point from the loaded graph (database image). Then figure 1.3's shape: the 1 % SR mix at one
# T for φ = 10, 100 and 1,000. Writes every sweep's JSON and CSV under OUTDIR and prints one table at the end.
#
# Usage: scripts/bench-feeds.sh ROOT OUTDIR
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_FEEDS_STORES (default "postgres sqlite"), BG_FEEDS_DESIGNS (default "pull push sorted-push"),
#   BG_FEEDS_T (default 1,4,16,64,128), BG_FEEDS_DURATION (default 10s), BG_FEEDS_PHI (default "10 100 1000"),
#   BG_FEEDS_PHI_T (default 16), BG_FEEDS_FIG13=0 skips figure 1.3, BG_FEEDS_SWEEPS=0 skips the sweeps,
#   BG_FEEDS_MIXES (default "feed-high feed-verylow"), BG_FEEDS_THETAS (default "0.27 0.99"), BG_FEEDS_REPEAT
#   (default 1: sweeps repeated, the designs interleaved within each repetition, named …-r1, -r2, …).
# Needs Debian's PostgreSQL server binaries (/usr/lib/postgresql/*/bin) for PostgreSQL.
set -euo pipefail
r=${1:?usage: bench-feeds.sh ROOT OUTDIR}
out=${2:?usage: bench-feeds.sh ROOT OUTDIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stores=${BG_FEEDS_STORES:-postgres sqlite}
designs=${BG_FEEDS_DESIGNS:-pull push sorted-push}
ts=${BG_FEEDS_T:-1,4,16,64,128}
dur=${BG_FEEDS_DURATION:-10s}

bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

graph() { # graph PHI: the figures' graph with φ friends per member
  echo -p usercount=10000 -p "friendcountperuser=$1" -p resourcecountperuser=10 -p pagecount=100 \
    -p pagesperuser=10 -p followersperpage=1000
}

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
port=
if [[ " $stores " == *" postgres "* ]]; then
  [ -n "$pgbin" ] || { echo "bench-feeds: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
  as=()
  if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi
  pgdir=$(mktemp -d /tmp/bg-bench-feeds-pg.XXXXXX)
  chmod 755 "$pgdir"
  [ ${#as[@]} -eq 0 ] || chown postgres "$pgdir"
  data="$pgdir/data"
  "${as[@]}" "$pgbin/initdb" -D "$data" -U bg --auth=trust > /dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "${as[@]}" "$pgbin/pg_ctl" -D "$data" -l "$pgdir/pg.log" \
    -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" -w start > /dev/null
  trap '"${as[@]}" "$pgbin/pg_ctl" -D "$data" -m fast stop > /dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
fi

store_args() { # store_args STORE DESIGN PHI: the store and its own database or file for this design and graph
  local db="feeds_${2//-/_}_phi$3"
  case $1 in
    postgres)
      if ! "${as[@]}" "$pgbin/psql" -h "$pgdir" -p "$port" -U bg -d postgres -tAc \
          "select 1 from pg_database where datname='$db'" | grep -q 1; then
        "${as[@]}" "$pgbin/createdb" -h "$pgdir" -p "$port" -U bg "$db"
      fi
      echo --store postgres -p "postgres.url=jdbc:postgresql://127.0.0.1:$port/$db" -p postgres.user=bg \
        -p postgres.timeout=60s -p "feed.design=$2" ;;
    sqlite) echo --store sqlite -p "sqlite.file=$out/$db.sqlite" -p "feed.design=$2" ;;
    *) echo "bench-feeds: unknown store $1" >&2; exit 1 ;;
  esac
}

sweep() { # sweep NAME STORE DESIGN PHI THREADS ARGS…
  local name=$1 store=$2 design=$3 phi=$4 threads=$5; shift 5
  echo "bench-feeds: $name" >&2
  # shellcheck disable=SC2046
  bg sweep $(store_args "$store" "$design" "$phi") $(graph "$phi") --threads "$threads" --duration "$dur" \
    --warmup 2s --load --quiet -p validation=false --out "$out/$name.json" "$@" > "$out/$name.txt" 2>> "$out/stderr.log"
}

repeat=${BG_FEEDS_REPEAT:-1}
if [ "${BG_FEEDS_SWEEPS:-1}" != 0 ]; then
  for store in $stores; do
    for rep in $(seq "$repeat"); do
      suffix=""
      [ "$repeat" = 1 ] || suffix="-r$rep"
      for mix in ${BG_FEEDS_MIXES:-feed-high feed-verylow}; do
        for theta in ${BG_FEEDS_THETAS:-0.27 0.99}; do
          for design in $designs; do
            sweep "$store-$design-$mix-theta$theta$suffix" "$store" "$design" 100 "$ts" --workload "$mix" \
              -p "zipfianmean=$theta"
          done
        done
      done
    done
  done
fi
if [ "${BG_FEEDS_FIG13:-1}" != 0 ]; then
  for store in $stores; do
    for design in $designs; do
      for phi in ${BG_FEEDS_PHI:-10 100 1000}; do
        sweep "$store-$design-feed-sr1-phi$phi" "$store" "$design" "$phi" "${BG_FEEDS_PHI_T:-16}" --workload feed-sr1
      done
    done
  done
fi

python3 - "$out" <<'EOF'
import json, sys, glob, os
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    d = json.load(open(f))
    if d.get('format') != 'bg-sweep/1':
        continue
    name = os.path.basename(f)[:-5]
    pts = ' '.join(f"T{p['threads']}:{p['throughput']:,.0f}" for p in d['points'])
    vnf = [p['perAction'].get('VNF', {}).get('mean_ms') for p in d['points']]
    sr = [p['perAction'].get('SR', {}).get('mean_ms') for p in d['points']]
    fmt = lambda xs: '/'.join('-' if x is None else f"{x:.2f}" for x in xs)
    rows.append((name, pts, fmt(vnf), fmt(sr)))
for name, pts, vnf, sr in rows:
    print(f"{name:48} {pts}\n{'':48} VNF mean ms {vnf}; SR mean ms {sr}")
EOF
