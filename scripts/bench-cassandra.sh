#!/usr/bin/env bash
# Cassandra figures of docs/benchmarks.md, on private nodes started by scripts/cassandra.sh:
#   load   bg load M=10,000 φ=100 ρ=100 into one node (RF 1), BG_CASS_LOADS times without images and once with 2 KB /
#          12 KB images; then the same into a 3-node loopback cluster at RF 3 (writes at QUORUM), once each
#   mixes  on one node: bg sweep of the Cassandra/NuoDB report's three mixes (table 5: gurevich-verylow, -low, -high)
#          at T = 1, 4, 16, 64 (BG_CASS_POINT seconds each, 5 s warm-up)
#   soar   on one node: bg rate --target soar of gurevich-low under 95%:100ms:0.01%:60s; with BG_CASS_SOAR3=1 also on
#          the 3-node cluster at ONE/ONE and QUORUM/QUORUM
# Every command's output and JSON go under OUTDIR; wall times are printed and written to OUTDIR/times.txt.
#
# Usage: scripts/bench-cassandra.sh ROOT OUTDIR [load] [mixes] [soar]   (default: all three)
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_CASS_LOADS (default 3), BG_CASS_POINT (default 20), BG_CASS_M (default 10000), BG_CASS_SOAR3.
set -euo pipefail
r=${1:?usage: bench-cassandra.sh ROOT OUTDIR [load] [mixes] [soar]}
out=${2:?usage: bench-cassandra.sh ROOT OUTDIR [load] [mixes] [soar]}
shift 2
phases=${*:-load mixes soar}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
[ -f "$r/cli/target/bg-cli.jar" ] || { echo "bench-cassandra: $r/cli/target/bg-cli.jar missing; build it first" \
  "(cd $r && ./mvnw -DskipTests package)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
m=${BG_CASS_M:-10000}
loads=${BG_CASS_LOADS:-3}
point=${BG_CASS_POINT:-20}
export CASSANDRA_LIB=${CASSANDRA_LIB:-$HOME/.cache/bg/cassandra-5.0.9/lib}
graph=(-p "usercount=$m" -p friendcountperuser=100 -p resourcecountperuser=100)
images=(-p insertimage=true)   # 2 KB thumbnails, 12 KB profile images (the defaults)

bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx3g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}
timed() { # timed NAME CMD...: runs CMD, output to OUTDIR/NAME.txt, appends its wall time to times.txt
  local name=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  "$@" > "$out/$name.txt" 2>&1 || { echo "bench-cassandra: $name failed; see $out/$name.txt" >&2; tail -5 "$out/$name.txt" >&2; }
  t1=$(date +%s.%N)
  printf '%s %.1f s\n' "$name" "$(echo "$t1 - $t0" | bc)" | tee -a "$out/times.txt"
}

one=$(mktemp -d /tmp/bg-bench-cass1.XXXXXX)
three=$(mktemp -d /tmp/bg-bench-cass3.XXXXXX)
trap 'bash "$root/scripts/cassandra.sh" wipe "$one" >/dev/null 2>&1 || true; bash "$root/scripts/cassandra.sh" wipe \
  "$three" >/dev/null 2>&1 || true; rm -rf "$one" "$three"' EXIT
cp1=$(bash "$root/scripts/cassandra.sh" start "$one" | tail -1)
s1=(--store cassandra -p "cassandra.contact-points=$cp1" -p "cassandra.server-dir=$one" -p cassandra.timeout=30s)
echo "bench-cassandra: one node at $cp1" >&2

if [[ " $phases " == *" load "* ]]; then
  for ((i = 1; i <= loads; i++)); do
    timed "load-1node-$i" bg load "${s1[@]}" -p cassandra.keyspace=bgload "${graph[@]}" --replace
  done
  timed "load-1node-images" bg load "${s1[@]}" -p cassandra.keyspace=bgload "${graph[@]}" "${images[@]}" --replace
fi
if [[ " $phases " == *" mixes "* ]] || [[ " $phases " == *" soar "* ]]; then
  bg load "${s1[@]}" "${graph[@]}" > "$out/load-mixes.txt" 2>&1 || { cat "$out/load-mixes.txt" >&2; exit 1; }
fi
if [[ " $phases " == *" mixes "* ]]; then
  for mix in gurevich-verylow gurevich-low gurevich-high; do
    timed "sweep-$mix" bg sweep "${s1[@]}" "${graph[@]}" --workload "$mix" --threads 1,4,16,64 \
      --duration "${point}s" --warmup 5s --quiet --out "$out/sweep-$mix.json"
  done
fi
if [[ " $phases " == *" soar "* ]]; then
  timed "soar-1node-low" bg rate "${s1[@]}" "${graph[@]}" --workload gurevich-low --target soar \
    --sla 95:100ms:0.01:60s --out "$out/soar-1node-low"
fi
bash "$root/scripts/cassandra.sh" stop "$one" > /dev/null 2>&1 || true

if [[ " $phases " == *" load "* ]] || [ "${BG_CASS_SOAR3:-0}" = 1 ]; then
  cp3=$(bash "$root/scripts/cassandra.sh" start "$three" --nodes 3 | tail -1)
  s3=(--store cassandra -p "cassandra.contact-points=$cp3" -p "cassandra.server-dir=$three" -p cassandra.timeout=30s
      -p cassandra.replication-factor=3)
  echo "bench-cassandra: three nodes at $cp3" >&2
  if [[ " $phases " == *" load "* ]]; then
    timed "load-3nodes-rf3" bg load "${s3[@]}" -p cassandra.keyspace=bgload "${graph[@]}" --replace
    timed "load-3nodes-rf3-images" bg load "${s3[@]}" -p cassandra.keyspace=bgload "${graph[@]}" "${images[@]}" \
      --replace
  fi
  if [ "${BG_CASS_SOAR3:-0}" = 1 ]; then
    bg load "${s3[@]}" "${graph[@]}" > "$out/load-3-soar.txt" 2>&1 || { cat "$out/load-3-soar.txt" >&2; exit 1; }
    for cl in ONE QUORUM; do
      timed "soar-3nodes-$cl" bg rate "${s3[@]}" "${graph[@]}" -p "cassandra.read-consistency=$cl" \
        -p "cassandra.write-consistency=$cl" --workload gurevich-low --target soar --sla 95:100ms:0.01:60s \
        --out "$out/soar-3nodes-$cl"
    done
  fi
fi
echo "bench-cassandra: done; $out/times.txt" >&2
