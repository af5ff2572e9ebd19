#!/usr/bin/env bash
# The CIKM 2013 comparison of physical designs (sections D, E, G), re-run on PostgreSQL and MariaDB: for each store
# and design the graph of the paper (M = 10,000, φ = ρ = 100, no images) is loaded once, then `bg sweep` measures
# throughput and per-action latency at T = 1, 4, 16 for the vp, lf, verylow, low and high mixes, every point from the
# loaded graph. Then `bg breakeven` compares each design with Basic at T = 1 (CIKM section H) for the mixes with
# writes. Writes every sweep's JSON/CSV and per-point results under OUTDIR and prints one table at the end.
#
# Designs (store settings; see stores/relational/README.md):
#   basic          one friendship table with status, one row per friendship, counts by aggregate queries
#   rows2          two rows per confirmed friendship                        (CIKM D.1, table 2)
#   tables2        pending and confirmed friendships in two tables, two rows (CIKM D.1, table 3, figure 5)
#   manual         counts kept as member attributes ("Manual")              (CIKM E.1)
#   boosted        tables2 + manual + profile images in the file system     (CIKM G, figure 8)
#   matview-sync, matview-async   PostgreSQL only: counts in a materialized view, refreshed on every write or each 1 s
#
# Usage: scripts/bench-cikm.sh ROOT OUTDIR
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_CIKM_STORES (default "postgres mariadb"), BG_CIKM_DESIGNS (default "basic rows2 tables2 manual
#   boosted matview-sync matview-async"; matview-* are skipped on MariaDB), BG_CIKM_MIXES (default "vp lf verylow low
#   high"), BG_CIKM_T (default 1,4,16), BG_CIKM_DURATION (default 10s), BG_CIKM_M (default 10000),
#   BG_CIKM_REPEAT (default 1: the designs interleaved within each repetition, sweeps named …-r1, -r2, …).
# Needs Debian's PostgreSQL server binaries (/usr/lib/postgresql/*/bin) and MariaDB (scripts/mariadb.sh).
set -euo pipefail
r=${1:?usage: bench-cikm.sh ROOT OUTDIR}
out=${2:?usage: bench-cikm.sh ROOT OUTDIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stores=${BG_CIKM_STORES:-postgres mariadb}
designs=${BG_CIKM_DESIGNS:-basic rows2 tables2 manual boosted matview-sync matview-async}
mixes=${BG_CIKM_MIXES:-vp lf verylow low high}
ts=${BG_CIKM_T:-1,4,16}
dur=${BG_CIKM_DURATION:-10s}
members=${BG_CIKM_M:-10000}

bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

design_args() { # design_args STORE DESIGN: the design's store settings
  case $2 in
    basic) ;;
    rows2) echo -p friendship.rows=2 ;;
    tables2) echo -p friendship.tables=2 -p friendship.rows=2 ;;
    manual) echo -p counts=attributes ;;
    boosted) echo -p friendship.tables=2 -p friendship.rows=2 -p counts=attributes -p images=fs \
      -p "images.dir=$out/images-$1" ;;
    matview-sync) echo -p postgres.design=matview -p postgres.refresh=sync ;;
    matview-async) echo -p postgres.design=matview -p postgres.refresh=1s ;;
    *) echo "bench-cikm: unknown design $2" >&2; exit 1 ;;
  esac
}

cleanup=()
trap 'for c in "${cleanup[@]}"; do eval "$c" || true; done' EXIT
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [[ " $stores " == *" postgres "* ]]; then
  [ -n "$pgbin" ] || { echo "bench-cikm: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
  as=()
  if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi
  pgdir=$(mktemp -d /tmp/bg-bench-cikm-pg.XXXXXX)
  chmod 755 "$pgdir"
  [ ${#as[@]} -eq 0 ] || chown postgres "$pgdir"
  "${as[@]}" "$pgbin/initdb" -D "$pgdir/data" -U bg --auth=trust > /dev/null
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "${as[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/pg.log" \
    -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" -w start > /dev/null
  cleanup+=('"${as[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast stop > /dev/null 2>&1; rm -rf "$pgdir"')
fi
if [[ " $stores " == *" mariadb "* ]]; then
  mdir=$(mktemp -d /tmp/bg-bench-cikm-my.XXXXXX)
  murl=$("$root/scripts/mariadb.sh" start "$mdir" | tail -1)
  cleanup+=('"$root/scripts/mariadb.sh" stop "$mdir" > /dev/null 2>&1; rm -rf "$mdir"')
fi

store_args() { # store_args STORE DESIGN: the store, its own database for the design (PostgreSQL) and the design
  case $1 in
    postgres)
      local db="cikm_${2//-/_}"
      if ! "${as[@]}" "$pgbin/psql" -h "$pgdir" -p "$port" -U bg -d postgres -tAc \
          "select 1 from pg_database where datname='$db'" | grep -q 1; then
        "${as[@]}" "$pgbin/createdb" -h "$pgdir" -p "$port" -U bg "$db"
      fi
      echo --store postgres -p "postgres.url=jdbc:postgresql://127.0.0.1:$port/$db" -p postgres.user=bg \
        -p postgres.timeout=60s ;;
    # One database: a design other than the loaded one makes BG reload it (the design is recorded with the graph).
    mariadb) echo --store mariadb -p "mariadb.url=$murl" -p mariadb.timeout=60s ;;
    *) echo "bench-cikm: unknown store $1" >&2; exit 1 ;;
  esac
  design_args "$1" "$2"
}

repeat=${BG_CIKM_REPEAT:-1}
for rep in $(seq "$repeat"); do
  suffix=""
  [ "$repeat" = 1 ] || suffix="-r$rep"
  for store in $stores; do
    for design in $designs; do
      if [ "$store" != postgres ] && [[ $design == matview-* ]]; then continue; fi
      for mix in $mixes; do
        name="$store-$design-$mix$suffix"
        echo "bench-cikm: $name" >&2
        # shellcheck disable=SC2046
        bg sweep $(store_args "$store" "$design") -p "usercount=$members" -p friendcountperuser=100 \
          -p resourcecountperuser=100 --workload "$mix" --threads "$ts" --duration "$dur" --warmup 2s --load --quiet \
          --out "$out/$name.json" > "$out/$name.txt" 2>> "$out/stderr.log"
      done
    done
  done
done

# Break-even of each design against Basic at T = 1 (the formula has no queueing), for the mixes with writes.
for rep in $(seq "$repeat"); do
  suffix=""
  [ "$repeat" = 1 ] || suffix="-r$rep"
  for store in $stores; do
    for design in $designs; do
      [ "$design" != basic ] || continue
      for mix in verylow low high; do
        b="$out/$store-basic-$mix$suffix-runs"
        n="$out/$store-$design-$mix$suffix-runs"
        [ -d "$b" ] && [ -d "$n" ] || continue
        bg breakeven "$b" "$n" --threads 1 --json "$out/breakeven-$store-$design-$mix$suffix.json" \
          > "$out/breakeven-$store-$design-$mix$suffix.txt" 2>> "$out/stderr.log" || true
      done
    done
  done
done

python3 - "$out" <<'PY'
import json, sys, glob, os
out = sys.argv[1]
for f in sorted(glob.glob(os.path.join(out, '*.json'))):
    d = json.load(open(f))
    name = os.path.basename(f)[:-5]
    if d.get('format') == 'bg-sweep/1':
        pts = ' '.join(f"T{p['threads']}:{p['throughput']:,.0f}" for p in d['points'])
        print(f"{name:34} {pts}")
    elif d.get('format') == 'bg-breakeven/1':
        y = d['tolerable_slowdown_y']
        print(f"{name:34} X={d['speedup_x']:.3f} Y*={'inf' if y is None else f'{y:.2f}'} "
              f"Y={d['measured_slowdown']:.3f} {'inside' if d['inside'] else 'BEYOND'}")
PY
