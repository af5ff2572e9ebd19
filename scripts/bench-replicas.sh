#!/usr/bin/env bash
# Reads from a PostgreSQL streaming replica (docs/replicas.md): a private primary and asynchronous replica
# (scripts/postgres-replica.sh), the graph (M = 10,000, φ = 100, ρ = 100) loaded once through the primary, then
# `bg run` with the high mix (10 % writes) at T = 16 for each configuration: reads on the primary only, then reads on
# the replica at each apply delay (recovery_min_apply_delay 0, 0.5 s, 2 s; changed on the running replica between
# runs). Every run is validated; prints per configuration the throughput, the unpredictable reads and the freshness
# curve (share of reads that see the latest value vs time since the latest write of that data), and writes each run's
# result JSON and output plus summary.json and summary.csv under OUTDIR.
#
# Usage: scripts/bench-replicas.sh ROOT OUTDIR
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_REPL_M (default 10000), BG_REPL_PHI (100), BG_REPL_RHO (100), BG_REPL_T (16),
#   BG_REPL_DURATION (seconds measured per run, default 60), BG_REPL_WARMUP (seconds, default 5),
#   BG_REPL_DELAYS (default "0 0.5s 2s"), BG_REPL_PRIMARY=0 skips the primary-only run, BG_REPL_BUCKET_MS (width of
#   the freshness curve's buckets, default 100: freshness.buckets = duration / width), BG_REPL_MIX (default high).
# Needs Debian's PostgreSQL server binaries (/usr/lib/postgresql/*/bin, package postgresql).
set -euo pipefail
r=${1:?usage: bench-replicas.sh ROOT OUTDIR}
out=${2:?usage: bench-replicas.sh ROOT OUTDIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
[ -f "$r/cli/target/bg-cli.jar" ] || { echo "bench-replicas: $r/cli/target/bg-cli.jar missing; build it first" \
  "(cd $r && ./mvnw -DskipTests package)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
m=${BG_REPL_M:-10000}
phi=${BG_REPL_PHI:-100}
rho=${BG_REPL_RHO:-100}
threads=${BG_REPL_T:-16}
dur=${BG_REPL_DURATION:-60}
warmup=${BG_REPL_WARMUP:-5}
delays=${BG_REPL_DELAYS:-0 0.5s 2s}
bucket=${BG_REPL_BUCKET_MS:-100}
mix=${BG_REPL_MIX:-high}
buckets=$(( dur * 1000 / bucket ))
[ "$buckets" -ge 1 ] || buckets=1

bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

# A short directory: the servers' sockets live in it.
pair=$(mktemp -d /tmp/bg-bench-repl.XXXXXX)
trap 'bash "$root/scripts/postgres-replica.sh" stop "$pair" > /dev/null 2>&1 || true; rm -rf "$pair"' EXIT
bash "$root/scripts/postgres-replica.sh" start "$pair" > "$out/urls.txt"
url=$(sed -n 's/^postgres.url=//p' "$out/urls.txt")
read_url=$(sed -n 's/^postgres.read-urls=//p' "$out/urls.txt")
graph=(-p "usercount=$m" -p "friendcountperuser=$phi" -p "resourcecountperuser=$rho")
echo "bench-replicas: primary $url, replica $read_url; loading M=$m φ=$phi ρ=$rho" >&2
bg load --store postgres -p "postgres.url=$url" "${graph[@]}" --replace > "$out/load.txt" 2>&1 \
  || { cat "$out/load.txt" >&2; exit 1; }

run() { # run NAME EXTRA-P...: one validated run
  local name=$1; shift
  echo "bench-replicas: $name" >&2
  bg run --store postgres -p "postgres.url=$url" "$@" "${graph[@]}" --workload "$mix" --threads "$threads" \
    --duration "${dur}s" --warmup "${warmup}s" --quiet -p "freshness.buckets=$buckets" --out "$out/$name.json" \
    > "$out/$name.txt" 2>> "$out/stderr.log" || { echo "bench-replicas: $name failed; see $out/$name.txt" >&2; }
}

if [ "${BG_REPL_PRIMARY:-1}" != 0 ]; then
  run primary
fi
for d in $delays; do
  bash "$root/scripts/postgres-replica.sh" delay "$pair" "$d" 2> /dev/null
  run "replica-delay-$d" -p "postgres.read-urls=$read_url"
done

python3 - "$out" <<'EOF'
import csv, glob, json, os, sys
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(out, '*.json')), key=os.path.getmtime):
    name = os.path.basename(f)[:-5]
    if name.startswith('summary'):
        continue
    d = json.load(open(f))
    u = d.get('unpredictable') or {}
    fr = u.get('freshness') or {}
    buckets = fr.get('buckets') or []
    # From where on every read saw the latest value: the start of the first bucket after which no read was stale.
    fresh_from = 0.0
    for b in buckets:
        if b['reads'] and b['valid'] < b['reads']:
            fresh_from = b['to_ms']
    curve = [{'to_ms': round(b['to_ms'], 1), 'reads': b['reads'],
              'fresh_pct': None if b['p'] is None else round(100 * b['p'], 2)} for b in buckets]
    rows.append({'config': name, 'throughput': d.get('throughput'), 'reads_checked': u.get('reads_checked'),
                 'unpredictable_reads': u.get('unpredictable_reads'), 'unpredictable_pct': u.get('pct'),
                 'all_fresh_after_ms': round(fresh_from, 1), 'freshness': curve})
json.dump(rows, open(os.path.join(out, 'summary.json'), 'w'), indent=1)
with open(os.path.join(out, 'summary.csv'), 'w', newline='') as fh:
    w = csv.writer(fh)
    w.writerow(['config', 'throughput', 'reads_checked', 'unpredictable_reads', 'unpredictable_pct',
                'all_fresh_after_ms', 'bucket_to_ms', 'bucket_reads', 'bucket_fresh_pct'])
    for r in rows:
        for b in r['freshness'] or [{'to_ms': None, 'reads': None, 'fresh_pct': None}]:
            w.writerow([r['config'], r['throughput'], r['reads_checked'], r['unpredictable_reads'],
                        r['unpredictable_pct'], r['all_fresh_after_ms'], b['to_ms'], b['reads'], b['fresh_pct']])
for r in rows:
    tp = r['throughput'] or 0
    pct = r['unpredictable_pct']
    print(f"{r['config']:24} {tp:>10,.0f} actions/s  unpredictable {'-' if pct is None else f'{pct:.3f}'} % "
          f"of {r['reads_checked'] or 0:,} reads  all reads fresh ≥ {r['all_fresh_after_ms']:,.0f} ms after a write")
    pts = [b for b in r['freshness'] if b['reads']]
    # The curve up to a little past the point where it reaches 100 %.
    shown = [b for b in pts if b['to_ms'] <= r['all_fresh_after_ms'] + 3 * (pts[0]['to_ms'] if pts else 0)]
    if r['unpredictable_reads']:
        print('  fresh % by time since the write: ' + ', '.join(f"≤{b['to_ms']:.0f}ms {b['fresh_pct']}" for b in shown))
EOF
echo "bench-replicas: results in $out (summary.json, summary.csv, one JSON and TXT per configuration)" >&2
