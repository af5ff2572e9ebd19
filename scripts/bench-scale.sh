#!/usr/bin/env bash
# Speedup, scaleup and elasticity figures of docs/benchmarks.md, every node on this machine's loopback
# addresses (so they demonstrate the method: the nodes share its cores; docs/scaling.md):
#   cassandra  bg scale of Cassandra 1, 2, 3 nodes (scripts/cassandra.sh, a fresh cluster per configuration):
#              speedup at RF 1, speedup at RF = N (the "RF 3" series: every node holds all data), scaleup at RF 1
#   postgres   bg scale (speedup) of a PostgreSQL primary with 0, 1, 2 streaming read replicas
#              (scripts/postgres-replica.sh --replicas K, reads on the replicas through postgres.read-urls)
#   postgres-scaleup  the same configurations in scaleup mode (M · N members for N nodes)
#   elastic    bg elasticity of Cassandra growing from 2 to 3 nodes under 80/20 request sets
#              (scripts/cassandra.sh add, settled)
#   scalability the elasticity paper's scalability score (its section 5.2) of Cassandra from 1 to 2 nodes: a stable
#              phase of 1 node on M members with request sets of R, then of a fresh 2-node cluster on 2M members
#              with sets of 2R and twice the threads (bg elasticity without --add, the second with --previous)
# A Prometheus node exporter on this host (prometheus-node-exporter) is every configuration's store host, so each
# rating records the machine's CPU, disk and network and bg scale names the bottleneck.
#
# Usage: scripts/bench-scale.sh ROOT OUTDIR [cassandra] [postgres] [postgres-scaleup] [elastic] [scalability]
#   (default: all)
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_SCALE_M (members of the 1-node graph, default 2000), BG_SCALE_PHI (20), BG_SCALE_RHO (10),
#   BG_SCALE_SLA (default 95%:100ms:0.01%:10s), BG_SCALE_DELTA (5s), BG_SCALE_MAXT (128), BG_SCALE_MIX (high),
#   BG_SCALE_SERIES (cassandra series, default "rf1 rfn scaleup"), BG_SCALE_PG_SLA (the replicas' SLA, default
#   95%:100ms:1%:10s: an asynchronous replica's stale reads exceed the default τ of 0.01 % at any T, docs/replicas.md).
set -euo pipefail
usage="usage: bench-scale.sh ROOT OUTDIR [cassandra] [postgres] [postgres-scaleup] [elastic] [scalability]"
r=${1:?$usage}
out=${2:?$usage}
shift 2
phases=${*:-cassandra postgres postgres-scaleup elastic scalability}
for p in $phases; do
  case $p in cassandra|postgres|postgres-scaleup|elastic|scalability) ;; *) echo "bench-scale: unknown phase '$p'; $usage" >&2; exit 2 ;; esac
done
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
[ -f "$r/cli/target/bg-cli.jar" ] || { echo "bench-scale: $r/cli/target/bg-cli.jar missing; build it first" \
  "(cd $r && ./mvnw -DskipTests package)" >&2; exit 1; }
command -v prometheus-node-exporter >/dev/null || { echo "bench-scale: prometheus-node-exporter missing" \
  "(apt-get install prometheus-node-exporter)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
m=${BG_SCALE_M:-2000}
phi=${BG_SCALE_PHI:-20}
rho=${BG_SCALE_RHO:-10}
sla=${BG_SCALE_SLA:-95%:100ms:0.01%:10s}
delta=${BG_SCALE_DELTA:-5s}
maxt=${BG_SCALE_MAXT:-128}
mix=${BG_SCALE_MIX:-high}
series=${BG_SCALE_SERIES:-rf1 rfn scaleup}
export CASSANDRA_LIB=${CASSANDRA_LIB:-$HOME/.cache/bg/cassandra-5.0.9/lib}
graph=(-p "usercount=$m" -p "friendcountperuser=$phi" -p "resourcecountperuser=$rho")
scratch=$(mktemp -d /tmp/bg-bench-scale.XXXXXX)
chmod 755 "$scratch"   # postgres-replica.sh runs the servers as an unprivileged user when BG runs as root

# As ./bg: JDK 23+ warns at the first sun.misc.Unsafe memory access (the drivers'); BG allows it quietly.
unsafe=()
[ "$(bg_java_major "$JAVA_HOME")" -ge 23 ] 2>/dev/null && unsafe=(--sun-misc-unsafe-memory-access=allow)
bg() {
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED "${unsafe[@]}" -Xmx2g -Dbg.state.dir="$out/state" \
    -cp "$r/cli/target/bg-cli.jar:$r/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}
timed() { # timed NAME CMD...: runs CMD, output to OUTDIR/NAME.txt, appends its wall time to times.txt
  local name=$1 t0 t1 rc=0
  shift
  t0=$(date +%s.%N)
  "$@" > "$out/$name.txt" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  [ "$rc" = 0 ] || { echo "bench-scale: $name exited $rc; see $out/$name.txt" >&2; tail -5 "$out/$name.txt" >&2; }
  printf '%s %.1f s (exit %s)\n' "$name" "$(echo "$t1 - $t0" | bc)" "$rc" | tee -a "$out/times.txt"
}

# The node exporter every configuration names as its store host.
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" > "$scratch/node-exporter.log" 2>&1 &
npid=$!
cleanup() {
  kill "$npid" 2>/dev/null || true
  for d in "$scratch"/cass*; do [ -d "$d" ] && bash "$root/scripts/cassandra.sh" wipe "$d" >/dev/null 2>&1 || true; done
  for d in "$scratch"/pg*; do [ -d "$d" ] && bash "$root/scripts/postgres-replica.sh" stop "$d" >/dev/null 2>&1 || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT
host="127.0.0.1:$nport"

cassandra_plan() { # cassandra_plan FILE RF_RULE: configurations of 1, 2, 3 nodes; RF_RULE one (RF 1) or n (RF = N)
  local file=$1 rule=$2 n rf sep=""
  {
    echo '{"store": "cassandra", "configurations": ['
    for n in 1 2 3; do
      if [ "$rule" = n ]; then rf=$n; else rf=1; fi
      d="$scratch/cass-$rule-$n"
      printf '%s{"name": "%dnode-rf%d", "nodes": %d, "storeHosts": ["%s"],\n' "$sep" "$n" "$rf" "$n" "$host"
      printf '  "settings": {"cassandra.replication-factor": "%d", "cassandra.timeout": "30s", "cassandra.server-dir": "%s"},\n' "$rf" "$d"
      printf '  "start": "bash %s/scripts/cassandra.sh start %s --nodes %d > /dev/null",\n' "$root" "$d" "$n"
      printf '  "settingsCommand": "bash %s/scripts/cassandra.sh settings %s",\n' "$root" "$d"
      printf '  "stop": "bash %s/scripts/cassandra.sh wipe %s > /dev/null"}\n' "$root" "$d"
      sep=","
    done
    echo ']}'
  } > "$file"
}

common=(--workload "$mix" --delta "$delta" --warmup 1s --max-threads "$maxt" --search approximate --no-confirm
  "${graph[@]}")
rate_opts=(--sla "$sla" "${common[@]}")

if [[ " $phases " == *" cassandra "* ]]; then
  for s in $series; do
    case $s in
      rf1) cassandra_plan "$out/plan-cassandra-rf1.json" one
           timed cassandra-speedup-rf1 bg scale --plan "$out/plan-cassandra-rf1.json" --mode speedup "${rate_opts[@]}" \
             --out "$out/cassandra-speedup-rf1" ;;
      rfn) cassandra_plan "$out/plan-cassandra-rfn.json" n
           timed cassandra-speedup-rfn bg scale --plan "$out/plan-cassandra-rfn.json" --mode speedup "${rate_opts[@]}" \
             --out "$out/cassandra-speedup-rfn" ;;
      scaleup) cassandra_plan "$out/plan-cassandra-scaleup.json" one
           timed cassandra-scaleup-rf1 bg scale --plan "$out/plan-cassandra-scaleup.json" --mode scaleup \
             "${rate_opts[@]}" --out "$out/cassandra-scaleup-rf1" ;;
    esac
  done
fi

if [[ " $phases " == *" postgres "* || " $phases " == *" postgres-scaleup "* ]]; then
  {
    echo '{"store": "postgres", "configurations": ['
    sep=""
    for k in 0 1 2; do
      d="$scratch/pg-$k"
      printf '%s{"name": "primary-%dreplicas", "nodes": %d, "storeHosts": ["%s"],\n' "$sep" "$k" "$((k + 1))" "$host"
      printf '  "start": "bash %s/scripts/postgres-replica.sh start %s --replicas %d > /dev/null",\n' "$root" "$d" "$k"
      printf '  "settingsCommand": "bash %s/scripts/postgres-replica.sh urls %s",\n' "$root" "$d"
      printf '  "stop": "bash %s/scripts/postgres-replica.sh stop %s > /dev/null; rm -rf %s"}\n' "$root" "$d" "$d"
      sep=","
    done
    echo ']}'
  } > "$out/plan-postgres.json"
  if [[ " $phases " == *" postgres "* ]]; then
    timed postgres-replicas bg scale --plan "$out/plan-postgres.json" --mode speedup \
      --sla "${BG_SCALE_PG_SLA:-95%:100ms:1%:10s}" "${common[@]}" \
      --out "$out/postgres-replicas"
  fi
  if [[ " $phases " == *" postgres-scaleup "* ]]; then
    timed postgres-replicas-scaleup bg scale --plan "$out/plan-postgres.json" --mode scaleup \
      --sla "${BG_SCALE_PG_SLA:-95%:100ms:1%:10s}" "${common[@]}" \
      --out "$out/postgres-replicas-scaleup"
  fi
fi

if [[ " $phases " == *" elastic "* ]]; then
  d="$scratch/cass-elastic"
  bash "$root/scripts/cassandra.sh" start "$d" --nodes 2 > /dev/null
  mapfile -t cs < <(bash "$root/scripts/cassandra.sh" settings "$d")
  ps=()
  for kv in "${cs[@]}"; do ps+=(-p "$kv"); done
  ps+=(-p cassandra.timeout=30s)
  timed elastic-load bg load --store cassandra "${ps[@]}" "${graph[@]}"
  timed elastic-2to3 bg elasticity --store cassandra "${ps[@]}" "${graph[@]}" --nodes 2 --added-nodes 1 \
    --threads-per-node "${BG_SCALE_EL_TPN:-4}" --request-set "${BG_SCALE_EL_R:-1000}" --repeats "${BG_SCALE_EL_K:-5}" \
    --warmup-sets "${BG_SCALE_EL_WARMUP:-60}" --baseline "${BG_SCALE_EL_BASE:-10}" --after 5 --max-points "${BG_SCALE_EL_MAX:-60}" \
    --margin "${BG_SCALE_EL_MARGIN:-1}" \
    --add "bash $root/scripts/cassandra.sh add $d > /dev/null" --settled "bash $root/scripts/cassandra.sh settled $d" \
    --out "$out/elastic-2to3.json"
  bash "$root/scripts/cassandra.sh" wipe "$d" > /dev/null
fi
if [[ " $phases " == *" scalability "* ]]; then
  prev=()
  for n in 1 2; do
    d="$scratch/cass-scalability-$n"
    bash "$root/scripts/cassandra.sh" start "$d" --nodes "$n" > /dev/null
    mapfile -t cs < <(bash "$root/scripts/cassandra.sh" settings "$d")
    ps=()
    for kv in "${cs[@]}"; do ps+=(-p "$kv"); done
    ps+=(-p cassandra.timeout=30s -p "usercount=$((m * n))" -p "friendcountperuser=$phi" -p "resourcecountperuser=$rho")
    timed "scalability-load-N$n" bg load --store cassandra "${ps[@]}"
    timed "scalability-N$n" bg elasticity --store cassandra "${ps[@]}" --nodes "$n" \
      --threads-per-node "${BG_SCALE_EL_TPN:-4}" --request-set "$(( ${BG_SCALE_EL_R:-1000} * n ))" \
      --repeats "${BG_SCALE_EL_K:-5}" --warmup-sets "${BG_SCALE_EL_WARMUP:-60}" --baseline "${BG_SCALE_SC_BASE:-30}" \
      "${prev[@]}" --out "$out/scalability-N$n.json"
    prev=(--previous "$out/scalability-N$n.json")
    bash "$root/scripts/cassandra.sh" wipe "$d" > /dev/null
  done
fi
echo "bench-scale: done; results under $out" >&2
