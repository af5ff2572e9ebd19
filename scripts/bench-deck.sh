#!/usr/bin/env bash
# What the deck costs a run: BG's ceiling on the memory store (high mix, T=16) measured in three
# conditions, interleaved in one session: "off" (no live file: -Dbg.live=false), "closed" (the live file every run
# writes, no deck), "open" (a bg deck serving the runs directory and headless Chromium showing its live view, all on
# this machine). Prints one line per run, then the medians and the ratios open/closed and closed/off.
#
# Usage: scripts/bench-deck.sh ROOT OUTDIR [ROUNDS] [DURATION]
#   ROOT: a checkout with a built cli/target/bg-cli.jar (./mvnw -DskipTests package)
# Needs chromium (Debian package) for the "open" condition.
set -euo pipefail
src=${1:?usage: bench-deck.sh ROOT OUTDIR [ROUNDS] [DURATION]}
out=${2:?usage: bench-deck.sh ROOT OUTDIR [ROUNDS] [DURATION]}
rounds=${3:-5}
duration=${4:-20s}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/jdk.sh"
bg_find_jdk
mkdir -p "$out"
out="$(cd "$out" && pwd)"
results="$out/results.tsv"
: > "$results"
cd "$out"

bg() { # bg JAVA-OPTIONS… -- ARGS…
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dbg.state.dir="$out/state" "${opts[@]}" \
    -cp "$src/cli/target/bg-cli.jar:$src/cli/target/lib/*" org.bgbench.cli.Bg "$@"
}

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

run() { # run CONDITION ROUND
  local cond=$1 i=$2 file="$out/runs/$1-$2.json"
  local opts=(-Dbg.live=true)
  [ "$cond" = off ] && opts=(-Dbg.live=false)
  bg "${opts[@]}" -- run --store memory --workload high --threads 16 --duration "$duration" --warmup 5s --quiet \
    -p usercount=10000 -p friendcountperuser=20 -p resourcecountperuser=10 --out "$file" > "$out/$cond-$i.log" 2>&1
  local tput
  tput=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['throughput'])" "$file")
  printf '%s\t%s\t%s\n' "$cond" "$i" "$tput" | tee -a "$results"
}

deck_up() { # a deck on the runs directory and a headless Chromium on its live view
  bg -- deck --listen 127.0.0.1:0 --runs "$out/runs" > "$out/deck.log" 2>&1 &
  pids+=($!)
  local url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^bg deck: open \(http[^ ]*\).*/\1/p' "$out/deck.log")
    [ -n "$url" ] && break
    sleep 0.2
  done
  [ -n "$url" ] || { echo "bench-deck: the deck did not start: $(cat "$out/deck.log")" >&2; exit 1; }
  chromium --headless=new --no-sandbox --disable-gpu --remote-debugging-port=0 --user-data-dir="$out/chromium" \
    --window-size=1400,1000 "$url#live" > "$out/chromium.log" 2>&1 &
  chrome=$!
  pids+=($chrome)
}
deck_down() {
  cleanup
  pids=()
}

mkdir -p "$out/runs"
for i in $(seq 1 "$rounds"); do
  run off "$i"
  run closed "$i"
  deck_up
  run open "$i"
  deck_down
done

python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]) if l.strip()]
by = {}
for cond, i, t in rows:
    by.setdefault(cond, []).append(float(t))
med = {c: statistics.median(v) for c, v in by.items()}
for c in ('off', 'closed', 'open'):
    v = by.get(c, [])
    print(f"{c:7s} median {med.get(c, 0):>14,.0f} actions/s  min {min(v):>14,.0f}  max {max(v):>14,.0f}  ({len(v)} runs)")
print(f"open/closed {med['open'] / med['closed']:.4f}   closed/off {med['closed'] / med['off']:.4f}   open/off {med['open'] / med['off']:.4f}")
PY
