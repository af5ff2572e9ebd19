#!/usr/bin/env bash
# MongoDB-store figures of docs/benchmarks.md, on a private FerretDB over PostgreSQL started by
# scripts/ferretdb.sh (FerretDB, not MongoDB: see stores/mongodb/README.md):
#   load     bg load M=10,000 φ=100 ρ=100 into the mongodb store BG_MONGO_LOADS times without images and once with
#            2 KB / 12 KB images (inline; with BG_MONGO_GRIDFS=1 once more in GridFS); the postgres store's load on the
#            same PostgreSQL server BG_MONGO_LOADS times beside them
#   actions  the CIKM comparison's shape: each read action alone (VP, LF, VFR, VTR, VCR) and the three CIKM mixes
#            (cikm-verylow, -low, -high) at T = 1, 4, 16, 64 (bg sweep, BG_MONGO_POINT seconds a point), on
#            the mongodb store (FerretDB) and on the postgres store over the same PostgreSQL server, one after the
#            other for each workload
# Outputs (command output, sweep JSON and CSV, each point's result JSON) go under OUTDIR; wall times to OUTDIR/times.txt,
# one line per point to OUTDIR/points.csv (workload, store, T, actions/s, % within β, BG µs per action).
#
# Usage: scripts/bench-mongodb.sh ROOT OUTDIR [load] [actions]   (default: both)
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Environment: BG_MONGO_LOADS (default 2), BG_MONGO_POINT (default 10), BG_MONGO_WARMUP (default 3),
#   BG_MONGO_M (default 10000), BG_MONGO_WORKLOADS (default "vp lf vfr vtr vcr cikm-verylow cikm-low cikm-high"), BG_MONGO_THREADS (1,4,16,64),
#   BG_MONGO_SETTINGS (extra KEY=VALUE settings of the mongodb store in the actions phase, e.g.
#   "mongodb.fetch=each mongodb.top-k=wall"; default none).
set -euo pipefail
r=${1:?usage: bench-mongodb.sh ROOT OUTDIR [load] [actions]}
out=${2:?usage: bench-mongodb.sh ROOT OUTDIR [load] [actions]}
shift 2
phases=${*:-load actions}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
[ -f "$r/cli/target/bg-cli.jar" ] || { echo "bench-mongodb: $r/cli/target/bg-cli.jar missing; build it first" \
  "(cd $r && ./mvnw -DskipTests package)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
m=${BG_MONGO_M:-10000}
loads=${BG_MONGO_LOADS:-2}
point=${BG_MONGO_POINT:-10}
threads=${BG_MONGO_THREADS:-1,4,16,64}
workloads=${BG_MONGO_WORKLOADS:-vp lf vfr vtr vcr cikm-verylow cikm-low cikm-high}
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
  "$@" > "$out/$name.txt" 2>&1 || { echo "bench-mongodb: $name failed; see $out/$name.txt" >&2; tail -5 "$out/$name.txt" >&2; }
  t1=$(date +%s.%N)
  printf '%s %.1f s\n' "$name" "$(echo "$t1 - $t0" | bc)" | tee -a "$out/times.txt"
}
# A mix of one action: its key 1, every other action and session 0.
only() {
  local keys=(ViewProfileAction ListFriendsAction ViewFriendReqAction InviteFriendAction AcceptFriendReqAction
    RejectFriendReqAction ThawFriendshipAction ViewTopKResourcesAction ViewCommentsOnResourceAction
    PostCommentOnResourceAction DeleteCommentOnResourceAction ShareResourceAction ViewNewsFeedAction) k
  for k in "${keys[@]}"; do
    if [ "$k" = "$1" ]; then echo "-p $k=1"; else echo "-p $k=0"; fi
  done
}
mix_args() { # the sweep arguments of a workload name
  case $1 in
    vp|lf) echo "--workload $1" ;;
    vfr) only ViewFriendReqAction ;;
    vtr) only ViewTopKResourcesAction ;;
    vcr) only ViewCommentsOnResourceAction ;;
    *) echo "--workload $1" ;;
  esac
}

dir=$(mktemp -d /tmp/bg-bench-ferret.XXXXXX)
trap 'bash "$root/scripts/ferretdb.sh" wipe "$dir" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
uri=$(bash "$root/scripts/ferretdb.sh" start "$dir" --backend postgresql | tail -1)
pgurl=$(bash "$root/scripts/ferretdb.sh" pg-url "$dir")
echo "bench-mongodb: FerretDB at $uri over PostgreSQL $pgurl" >&2
mongo=(--store mongodb -p "mongodb.uri=$uri" -p mongodb.timeout=30s -p mongodb.document-locks=true)
extra=()
for kv in ${BG_MONGO_SETTINGS:-}; do extra+=(-p "$kv"); done
pg=(--store postgres -p "postgres.url=$pgurl")

if [[ " $phases " == *" load "* ]]; then
  # Without images into the database the actions phase uses (its last load is theirs); images into another one.
  for ((i = 1; i <= loads; i++)); do
    timed "load-mongodb-$i" bg load "${mongo[@]}" "${graph[@]}" --replace
  done
  timed "load-mongodb-images" bg load "${mongo[@]}" -p mongodb.database=bgimages "${graph[@]}" "${images[@]}" --replace
  if [ "${BG_MONGO_GRIDFS:-0}" = 1 ]; then
    timed "load-mongodb-gridfs" bg load "${mongo[@]}" -p mongodb.database=bggridfs -p mongodb.images=gridfs \
      "${graph[@]}" "${images[@]}" --replace
  fi
  for ((i = 1; i <= loads; i++)); do
    timed "load-postgres-$i" bg load "${pg[@]}" "${graph[@]}" --replace
  done
fi
if [[ " $phases " == *" actions "* ]]; then
  # Reused when the load phase left them loaded.
  timed "load-actions-mongodb" bg load "${mongo[@]}" "${graph[@]}"
  timed "load-actions-postgres" bg load "${pg[@]}" "${graph[@]}"
  echo "workload,store,T,actions_per_s,within_beta_pct,bg_us_per_action" > "$out/points.csv"
  for w in $workloads; do
    # shellcheck disable=SC2046
    for s in mongodb postgres; do
      if [ $s = mongodb ]; then st=("${mongo[@]}" "${extra[@]}"); else st=("${pg[@]}"); fi
      # verify.sample: the sampled check before each point reads members through LF, which on FerretDB scans the
      # collection per member (minutes); the load's counts checked the store.
      timed "sweep-$w-$s" bg sweep "${st[@]}" "${graph[@]}" $(mix_args "$w") --threads "$threads" \
        -p "verify.sample=${BG_MONGO_VERIFY_SAMPLE:-0}" \
        --duration "${point}s" --warmup "${BG_MONGO_WARMUP:-3}s" --quiet --out "$out/sweep-$w-$s.json"
      python3 - "$out/sweep-$w-$s.json" "$w" "$s" >> "$out/points.csv" <<'PY' || true
import json, sys
sweep = json.load(open(sys.argv[1]))
for p in sweep["points"]:
    us = ""
    try:
        cpu = json.load(open(p["result"])).get("cpu") or {}
        us = "" if cpu.get("bg_us_per_action") is None else "%.1f" % cpu["bg_us_per_action"]
    except Exception:
        pass
    print("%s,%s,%d,%.0f,%.2f,%s" % (sys.argv[2], sys.argv[3], p["threads"], p["throughput"], p["withinBetaPct"], us))
PY
    done
  done
fi
echo "bench-mongodb: done; $out/times.txt, $out/points.csv" >&2
