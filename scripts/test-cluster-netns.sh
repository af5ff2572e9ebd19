#!/usr/bin/env bash
# BG's coordinator/worker mode (dissertation 4.3) across real separate "hosts": Linux network namespaces on one bridge.
#
#   bgpg  10.77.0.1   PostgreSQL (a throwaway cluster: initdb in a temp dir, fsync off)
#   bgc   10.77.0.2   the coordinator (bg load|run|rate --workers ...)
#   bgw1  10.77.0.11  worker 1 (bg worker --listen 10.77.0.11:7420)
#   bgw2  10.77.0.12  worker 2 (bg worker --listen 10.77.0.12:7420)
#   bgnet             holds the bridge bgbr0 and the host ends of the veth links (the root namespace is untouched)
#
# Checks: load; run (merged result == sum of the workers'); short rating; wrong secret; a worker killed (-9) during a
# run; a worker frozen (SIGSTOP) during a run. Needs root, iproute2, python3 and the PostgreSQL server binaries
# (/usr/lib/postgresql/*/bin, Debian package postgresql). Not root: prints SKIPPED and exits 0. As root every problem,
# including missing tools, fails. Cleans up everything it made (processes, namespaces, bridge, temp dir) on any exit.
# Usage: scripts/test-cluster-netns.sh        (BG_NETNS_KEEP=1 keeps the temp dir with all logs and results;
#        BG_NETNS_BENCH=3 measures one process against 1 and 2 workers on these hosts instead of checking)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$SECONDS

if [ "$(id -u)" -ne 0 ]; then
  echo "test-cluster-netns: SKIPPED: needs root (to create network namespaces); run it as root, as .ci/run does"
  exit 0
fi
die() { echo "test-cluster-netns: error: $*" >&2; exit 1; }
command -v ip >/dev/null 2>&1 || die "'ip' (iproute2) is missing"
command -v python3 >/dev/null 2>&1 || die "python3 is missing"
command -v runuser >/dev/null 2>&1 || die "runuser (util-linux) is missing"
id postgres >/dev/null 2>&1 || die "there is no user 'postgres' (apt-get install postgresql)"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] \
  || die "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)"

NSS=(bgpg bgc bgw1 bgw2)
declare -A ADDR=([bgpg]=10.77.0.1 [bgc]=10.77.0.2 [bgw1]=10.77.0.11 [bgw2]=10.77.0.12)
W1=10.77.0.11:7420
W2=10.77.0.12:7420
S="netns-secret-$RANDOM$RANDOM$RANDOM" # at least 16 characters
PG=(--store postgres -p postgres.url=jdbc:postgresql://10.77.0.1:5432/bg -p postgres.user=postgres
  -p postgres.password=bg -p usercount=2000 -p fragments=4)
BG="$root/bg"
TMP=""
PGDATA=""
fails=0
passes=0
failed_names=()

# --- cleanup -----------------------------------------------------------------------------------------------------
# Kills only what runs inside this test's namespaces (everything this script started runs in one of them).
kill_ns() {
  local ns=$1 p
  ip netns list 2>/dev/null | grep -qw "^$ns" || return 0
  for p in $(ip netns pids "$ns" 2>/dev/null); do kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done
}
teardown() {
  local ns
  if [ -n "$PGDATA" ] && [ -f "$PGDATA/postmaster.pid" ]; then
    ip netns exec bgpg runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
  fi
  for ns in "${NSS[@]}" bgnet; do kill_ns "$ns"; done
  sleep 0.3
  for ns in "${NSS[@]}" bgnet; do
    if ip netns list 2>/dev/null | grep -qw "^$ns"; then
      kill_ns "$ns"
      ip netns del "$ns" 2>/dev/null || echo "test-cluster-netns: warning: could not delete namespace $ns" >&2
    fi
  done
}
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  teardown
  if [ -n "$TMP" ] && [ -d "$TMP" ]; then
    if [ "${BG_NETNS_KEEP:-}" = 1 ]; then echo "test-cluster-netns: kept $TMP"; else rm -rf "$TMP"; fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- helpers -----------------------------------------------------------------------------------------------------
section() { echo "== [$((SECONDS - started)) s] $*"; }
pass() { passes=$((passes + 1)); echo "PASS  $*"; }
fail() { fails=$((fails + 1)); failed_names+=("$1"); echo "FAIL  $*"; }
show() { # show FILE...: the tail of logs, indented, for a failed check
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    echo "      --- $(basename "$f") (last 15 lines)"
    tail -n 15 "$f" | sed 's/^/      | /'
  done
}
# the pid of the java process (the worker or the coordinator) in namespace $1, if any
java_in() {
  local p
  for p in $(ip netns pids "$1" 2>/dev/null); do
    if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = java ]; then echo "$p"; return 0; fi
  done
  return 1
}
start_worker() { # start_worker N: bg worker in namespace bgwN, waits until it listens
  local n=$1 ns="bgw$1" addr="10.77.0.1$1:7420" log="$TMP/w$1.log" i
  mkdir -p "$TMP/w$n"
  ip netns exec "$ns" "$BG" worker --listen "$addr" --secret "$S" --dir "$TMP/w$n" >"$log" 2>&1 &
  local pid=$!
  disown "$pid" # no job-control "Killed" message when it is killed on purpose
  for ((i = 0; i < 600; i++)); do
    if grep -q "listening" "$log" 2>/dev/null; then
      echo "worker $n: $(grep -m1 listening "$log")"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      show "$log"; die "worker $n exited before it listened"
    fi
    sleep 0.1
  done
  show "$log"; die "worker $n did not print 'listening' within 60 s"
}
# wait_exit PID SECONDS: waits for a background job to end; sets status to its exit status, or to 'timeout'
wait_exit() {
  local pid=$1 limit=$2 t0=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    if [ $((SECONDS - t0)) -ge "$limit" ]; then status=timeout; return 0; fi
    sleep 0.2
  done
  status=0; wait "$pid" || status=$?
}
reach() { # reach NS ADDR: one ping (or, without ping, a TCP probe that a refusal answers) from NS to ADDR
  if command -v ping >/dev/null 2>&1; then
    ip netns exec "$1" ping -c 1 -W 2 "$2" >/dev/null 2>&1
  else
    ip netns exec "$1" python3 - "$2" <<'EOF'
import socket, sys
s = socket.socket(); s.settimeout(2)
try:
    s.connect((sys.argv[1], 9))
except ConnectionRefusedError:
    sys.exit(0)  # the host answered (RST): reachable
except OSError as e:
    print(e); sys.exit(1)
sys.exit(0)
EOF
  fi
}

# --- build BG once (a later ./bg must not rebuild while workers run) ------------------------------------------------
section "building BG if needed"
"$BG" --help >/dev/null
. scripts/jdk.sh
bg_find_jdk # JAVA_HOME, for jstack when a coordinator hangs

# --- topology ----------------------------------------------------------------------------------------------------
section "network: namespaces ${NSS[*]} on bridge bgbr0 (in namespace bgnet)"
for ns in "${NSS[@]}" bgnet; do
  if ip netns list | grep -qw "^$ns"; then echo "removing namespace $ns left over from an earlier run"; fi
done
teardown
TMP=$(mktemp -d /tmp/bg-netns.XXXXXX)
chmod 755 "$TMP"
ip netns add bgnet
ip -n bgnet link set lo up
ip -n bgnet link add bgbr0 type bridge
ip -n bgnet link set bgbr0 up
for ns in "${NSS[@]}"; do
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  ip -n bgnet link add "v-$ns" type veth peer name eth0 netns "$ns"
  ip -n bgnet link set "v-$ns" master bgbr0
  ip -n bgnet link set "v-$ns" up
  ip -n "$ns" addr add "${ADDR[$ns]}/24" dev eth0
  ip -n "$ns" link set eth0 up
done
for ns in bgc bgw1 bgw2; do
  for to in bgpg bgc bgw1 bgw2; do
    [ "$ns" = "$to" ] && continue
    ok=""
    for _ in 1 2 3 4 5; do if reach "$ns" "${ADDR[$to]}"; then ok=1; break; fi; sleep 0.5; done
    [ -n "$ok" ] || die "$ns cannot reach $to (${ADDR[$to]})"
  done
done
echo "reachability: bgc, bgw1, bgw2 each reach every other host"

# --- PostgreSQL in bgpg ------------------------------------------------------------------------------------------
section "PostgreSQL ($PGBIN) on 10.77.0.1:5432"
mkdir -p "$TMP/pg/sock"
PGDATA="$TMP/pg/data"
echo bg >"$TMP/pg/pw"
chown -R postgres: "$TMP/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -U postgres --pwfile="$TMP/pg/pw" -A scram-sha-256 -E UTF8 \
  --locale=C >"$TMP/pg/initdb.log" 2>&1 || { show "$TMP/pg/initdb.log"; die "initdb failed"; }
cat >>"$PGDATA/postgresql.conf" <<EOF
listen_addresses = '10.77.0.1'
port = 5432
unix_socket_directories = '$TMP/pg/sock'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
echo "host all all 10.77.0.0/24 scram-sha-256" >>"$PGDATA/pg_hba.conf"
ip netns exec bgpg runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$TMP/pg/server.log" -w -t 60 start \
  >/dev/null || { show "$TMP/pg/server.log"; die "PostgreSQL did not start"; }
ip netns exec bgc env PGPASSWORD=bg "$PGBIN/psql" -h 10.77.0.1 -U postgres -d postgres -qAt -v ON_ERROR_STOP=1 \
  -c "CREATE DATABASE bg" || die "could not create database bg over the network from bgc"
echo "PostgreSQL up; database bg created (from bgc, password auth)"

# --- workers -----------------------------------------------------------------------------------------------------
section "workers"
start_worker 1
start_worker 2
WORKERS="$W1,$W2"

# --- benchmark mode (BG_NETNS_BENCH=ROUNDS): the same hosts, measuring instead of checking --------------------------
# One process in bgc against 1 worker and 2 workers at the same total T, interleaved, the graph reloaded and the
# workers restarted (so they start from the loaded graph) before every run. Prints one line per run; docs/benchmarks.md.
if [ -n "${BG_NETNS_BENCH:-}" ]; then
  section "benchmark: one process vs 1 worker vs 2 workers (M=10,000, high, T=8, 20 s), $BG_NETNS_BENCH rounds"
  BPG=(--store postgres -p postgres.url=jdbc:postgresql://10.77.0.1:5432/bg -p postgres.user=postgres
    -p postgres.password=bg -p usercount=10000)
  for r in $(seq 1 "$BG_NETNS_BENCH"); do
    for mode in single w1 w2; do
      kill_ns bgw1; kill_ns bgw2; sleep 0.5
      ip netns exec bgc "$BG" load "${BPG[@]}" --replace >"$TMP/bench-load.out" 2>&1 \
        || { show "$TMP/bench-load.out"; die "benchmark: load failed"; }
      case $mode in
        single) args=() ;;
        w1) start_worker 1 >/dev/null; args=(--workers "$W1" --secret "$S") ;;
        w2) start_worker 1 >/dev/null; start_worker 2 >/dev/null; args=(--workers "$W1,$W2" --secret "$S") ;;
      esac
      f="$TMP/bench-$mode-$r"
      ip netns exec bgc "$BG" run "${BPG[@]}" --workload high --threads 8 --duration 20s --warmup 3s --quiet \
        "${args[@]}" --out "$f.json" >"$f.out" 2>&1 || { show "$f.out"; die "benchmark: run $mode failed"; }
      python3 - "$f.json" "$mode" "$r" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1])); u = r.get("unpredictable") or {}
print(f"round {sys.argv[3]} {sys.argv[2]:7s} {r['throughput']:9,.0f} actions/s  p95 {r['total']['p95_ms']:.2f} ms"
      f"  p99 {r['total']['p99_ms']:.2f} ms  unpredictable {u.get('pct', '-')}")
EOF
    done
  done
  exit 0
fi

# --- 1. load -----------------------------------------------------------------------------------------------------
section "1. load through the workers"
rc=0
ip netns exec bgc "$BG" load "${PG[@]}" --replace --workers "$WORKERS" --secret "$S" \
  >"$TMP/load.out" 2>"$TMP/load.err" || rc=$?
sed 's/^/      /' "$TMP/load.out"
if [ "$rc" -eq 0 ] && grep -q "sanity check passed" "$TMP/load.out" "$TMP/load.err"; then
  pass "load: exit 0, 'sanity check passed' ($(grep -o 'Loaded postgres with [0-9]* workers[^:]*' "$TMP/load.out" | head -1))"
else
  fail load "load: exit $rc, 'sanity check passed' $(grep -q 'sanity check passed' "$TMP/load.out" "$TMP/load.err" && echo printed || echo 'NOT printed')"
  show "$TMP/load.err" "$TMP/w1.log" "$TMP/w2.log"
fi

# --- 2. run: merged result == sum of the workers' -------------------------------------------------------------------
section "2. run (high, T=8, 8 s) on both workers"
mkdir -p "$TMP/run"
rc=0
ip netns exec bgc "$BG" run "${PG[@]}" --workload high --threads 8 --duration 8s --warmup 1s --quiet \
  --workers "$WORKERS" --secret "$S" --out "$TMP/run/r.json" >"$TMP/run.out" 2>"$TMP/run.err" || rc=$?
grep -E "Workers|Throughput|throughput" "$TMP/run.out" | sed 's/^/      /' || true
if [ "$rc" -ne 0 ]; then
  fail run "run: exit $rc (expected 0)"
  show "$TMP/run.out" "$TMP/run.err"
else
  pass "run: exit 0"
fi
if python3 - "$TMP/run/r.json" "$TMP/run/r-workers/w0.json" "$TMP/run/r-workers/w1.json" >"$TMP/run.check" 2>&1 <<'EOF'
import json, sys
CODES = "VP LF VFR IF AFR RFR TF VTR VCR PCR DCR".split()
try:
    m, w0, w1 = (json.load(open(p)) for p in sys.argv[1:4])
except Exception as e:
    print(f"FAIL  run result: cannot read the merged result and both workers' results: {e}")
    sys.exit(1)
bad = 0
def check(ok, text):
    global bad
    print(("PASS  " if ok else "FAIL  ") + text)
    bad += 0 if ok else 1
def count(r, code):
    return r.get("actions", {}).get(code, {}).get("count", 0)
t = [r["total"]["count"] for r in (m, w0, w1)]
check(t[0] == t[1] + t[2], f"run: merged total.count {t[0]} == w0 {t[1]} + w1 {t[2]} (= {t[1] + t[2]})")
wrong = [f"{c}: merged {count(m, c)} != {count(w0, c)} + {count(w1, c)}" for c in CODES
         if count(m, c) != count(w0, c) + count(w1, c)]
check(not wrong, "run: every action's merged count == sum of the workers' ("
      + (", ".join(f"{c} {count(m, c)}" for c in CODES) if not wrong else "; ".join(wrong)) + ")")
check(m.get("threads") == 8, f"run: merged threads {m.get('threads')} == 8 (workers {w0.get('threads')} + {w1.get('threads')})")
cw = [w.get("count") for w in m.get("config", {}).get("workers", [])]
check(t[1] > 0 and t[2] > 0 and len(cw) == 2 and all((c or 0) > 0 for c in cw),
      f"run: both workers did work: total.count w0 {t[1]}, w1 {t[2]}; config.workers[].count {cw}")
u = [r.get("unpredictable", {}) for r in (m, w0, w1)]
check(u[0].get("unpredictable_reads") == 0,
      f"run: unpredictable_reads {u[0].get('unpredictable_reads')} == 0 (w0 {u[1].get('unpredictable_reads')}, w1 {u[2].get('unpredictable_reads')})")
rc = [x.get("reads_checked") for x in u]
check(rc[0] is not None and rc[1] is not None and rc[2] is not None and rc[0] == rc[1] + rc[2],
      f"run: reads_checked merged {rc[0]} == w0 {rc[1]} + w1 {rc[2]}")
print(f"      throughput {m.get('throughput')} actions/s, errors {m['total'].get('errors')}, "
      f"chi_square_measured {m.get('config', {}).get('chi_square_measured')}")
sys.exit(1 if bad else 0)
EOF
then :; fi
cat "$TMP/run.check"
passes=$((passes + $(grep -c '^PASS' "$TMP/run.check" || true)))
n=$(grep -c '^FAIL' "$TMP/run.check" || true)
if [ "$n" -gt 0 ]; then fails=$((fails + n)); failed_names+=("run-result"); fi

# --- 2b. the store's state (only when this BG has 'bg verify') ---------------------------------------------------------
if "$BG" verify --help >/dev/null 2>&1; then
  section "2b. verify the store's state through the workers"
  rc=0
  ip netns exec bgc "$BG" verify "${PG[@]}" --workers "$WORKERS" --secret "$S" >"$TMP/verify.out" 2>"$TMP/verify.err" || rc=$?
  cut -c1-200 "$TMP/verify.out" | sed 's/^/      /' | head -n 12
  if [ "$rc" -eq 0 ]; then
    pass "verify: exit 0"
  else
    fail verify "verify: exit $rc (expected 0)"
    show "$TMP/verify.err"
  fi
else
  section "2b. skipped: this BG has no 'bg verify'"
fi

# --- 3. short rating ---------------------------------------------------------------------------------------------
section "3. rate (soar, δ=2s, T ≤ 8)"
rc=0
t0=$SECONDS
ip netns exec bgc "$BG" rate "${PG[@]}" --workload high --delta 2s --warmup 0s --sla 95%:100ms:0.01%:3s --max-threads 8 \
  --target soar --workers "$WORKERS" --secret "$S" --out "$TMP/rate" >"$TMP/rate.out" 2>"$TMP/rate.err" || rc=$?
took=$((SECONDS - t0))
r=$(python3 - "$TMP/rate/rating.json" <<'EOF' 2>&1 || true
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"unreadable rating.json: {e}"); sys.exit(0)
soar = (j.get("soar") or {}).get("actions_per_second")
ok = j.get("complete") is True and isinstance(soar, (int, float)) and soar > 0
ex = j.get("experiments")
ex = f"{len(ex)} (T={','.join(str(e.get('threads')) for e in ex)})" if isinstance(ex, list) else ex
print(("ok " if ok else "bad ") + f"complete {j.get('complete')}, soar.actions_per_second {soar}, experiments {ex}")
EOF
)
if [ "$rc" -eq 0 ] && [ "${r%% *}" = ok ]; then
  pass "rate: exit 0, ${r#ok } (${took} s)"
else
  fail rate "rate: exit $rc, ${r#* } (${took} s)"
  show "$TMP/rate.out" "$TMP/rate.err"
fi

# --- 4. wrong secret ---------------------------------------------------------------------------------------------
section "4. a coordinator with the wrong secret"
rc=0
t0=$SECONDS
timeout -k 5 30 ip netns exec bgc "$BG" run "${PG[@]}" --workload high --threads 8 --duration 8s --warmup 1s --quiet \
  --workers "$WORKERS" --secret wrong-secret-0123456789 --out "$TMP/wrong.json" >"$TMP/wrong.out" 2>"$TMP/wrong.err" || rc=$?
took=$((SECONDS - t0))
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  fail wrong-secret "wrong secret: still running after 30 s (killed by timeout)"
elif [ "$rc" -ne 0 ] && grep -q "refused the secret" "$TMP/wrong.err"; then
  pass "wrong secret: exit $rc in ${took} s, stderr: $(grep -m1 'refused the secret' "$TMP/wrong.err")"
else
  fail wrong-secret "wrong secret: exit $rc in ${took} s, 'refused the secret' $(grep -q 'refused the secret' "$TMP/wrong.err" && echo 'in stderr' || echo 'NOT in stderr')"
  show "$TMP/wrong.out" "$TMP/wrong.err"
fi

# --- 5/6. a worker lost during a run ------------------------------------------------------------------------------
# lost_worker CHECK SIGNAL NS ADDR: starts a 30 s run, ~6 s into it sends SIGNAL to the worker's java in NS, then the
# coordinator must exit non-zero within 40 s naming ADDR. With -9 the merged result must still have been written.
lost_worker() {
  local name=$1 sig=$2 ns=$3 addr=$4 out="$TMP/$1" pid wpid took rc status
  mkdir -p "$out"
  ip netns exec bgc "$BG" run "${PG[@]}" --workload high --threads 8 --duration 30s --warmup 1s --quiet \
    --workers "$WORKERS" --secret "$S" --out "$out/r.json" >"$out/coord.out" 2>"$out/coord.err" &
  pid=$!
  # Hit the worker ~6 s into the experiment (1 s warm-up + 5 s measured), counted from when the coordinator says it
  # started running (a JVM start, or a rebuild of BG, must not make the worker die before the experiment began).
  local i
  for ((i = 0; i < 600; i++)); do
    if grep -q "running .* workers" "$out/coord.err" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  sleep 6
  if ! kill -0 "$pid" 2>/dev/null; then
    rc=0; wait "$pid" || rc=$?
    fail "$name" "$name: the coordinator ended (exit $rc) before the worker was hit, about 6 s into a 30 s run"
    show "$out/coord.out" "$out/coord.err"
    return 0
  fi
  if ! grep -q "running .* workers" "$out/coord.err"; then
    fail "$name" "$name: the coordinator did not say 'running ... workers' within 60 s"
    show "$out/coord.out" "$out/coord.err"
  fi
  wpid=$(java_in "$ns") || { fail "$name" "$name: no worker java process in $ns"; return 0; }
  kill "-$sig" "$wpid"
  local t0=$SECONDS
  wait_exit "$pid" 40
  took=$((SECONDS - t0))
  if [ "$status" = timeout ]; then
    fail "$name" "$name: coordinator still running 40 s after worker $addr got SIG$sig (pid $wpid)"
    local cpid
    if cpid=$(java_in bgc); then
      "$JAVA_HOME/bin/jstack" "$cpid" >"$out/coord.jstack" 2>&1 || true
      echo "      the coordinator's threads (jstack): $out/coord.jstack (BG_NETNS_KEEP=1 keeps it)"
    fi
    show "$out/coord.out" "$out/coord.err"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    return 0
  fi
  # the verdict must name the worker: a line with "error" or "fail" before the address (the lines BG prints at the
  # start name every worker, and a warning "ADDR: ... another worker failed" blames another one)
  local named
  named=$(grep -h -i -E "(error|fail)[^0-9]*${addr//./\\.}" "$out/coord.err" "$out/coord.out" | head -n 1 | cut -c1-300 || true)
  if [ "$status" -ne 0 ] && [ -n "$named" ]; then
    pass "$name: coordinator exit $status ${took} s after SIG$sig to $addr; error names it: $named"
  else
    fail "$name" "$name: coordinator exit $status ${took} s after SIG$sig to $addr (expected non-zero); an error line names $addr: ${named:-no}"
    show "$out/coord.out" "$out/coord.err"
  fi
  if [ "$sig" = 9 ]; then
    local j
    if j=$(python3 - "$out/r.json" 2>&1 <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
c = j.get("config", {})
print(f"total.count {j['total']['count']}, completed {c.get('completed')}, abort_reason {c.get('abort_reason')!r}")
EOF
    ); then
      pass "$name: merged result written after the failure ($j)"
    else
      fail "$name-result" "$name: merged result $out/r.json $( [ -f "$out/r.json" ] && echo "is not a valid result: $(tail -n 1 <<<"$j")" || echo 'was not written')"
    fi
  fi
}

section "5. worker 2 killed (-9) during a run"
lost_worker killed-worker 9 bgw2 "$W2"

section "6. worker 1 frozen (SIGSTOP) during a run"
kill_ns bgw2
sleep 0.5
start_worker 2
# The run a worker died in left the store marked as written by a run that did not end: the next run is refused
# (checked here) until the store is reloaded.
rc=0
ip netns exec bgc "$BG" run "${PG[@]}" --workload high --threads 8 --duration 2s --workers "$WORKERS" --secret "$S" \
  --out "$TMP/refused.json" >"$TMP/refused.out" 2>"$TMP/refused.err" || rc=$?
if [ "$rc" -eq 1 ] && grep -q "has not ended" "$TMP/refused.err"; then
  pass "refused: after the killed worker's run, the next run is refused (exit 1, 'has not ended')"
else
  fail refused "refused: exit $rc after the killed worker's run (expected 1 and 'has not ended')"
  show "$TMP/refused.err"
fi
rc=0
ip netns exec bgc "$BG" load "${PG[@]}" --replace --workers "$WORKERS" --secret "$S" \
  >"$TMP/reload.out" 2>"$TMP/reload.err" || rc=$?
[ "$rc" -eq 0 ] || { fail reload "reload before the frozen worker: exit $rc"; show "$TMP/reload.err"; }
lost_worker hung-worker STOP bgw1 "$W1"
if p=$(java_in bgw1); then kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; fi

# --- summary -----------------------------------------------------------------------------------------------------
if grep -l "bg: building BG" "$TMP"/*.err "$TMP"/*.log "$TMP"/*/coord.err >/dev/null 2>&1; then
  echo "note: BG was rebuilt during the test (its sources changed meanwhile); results may mix builds"
fi
took=$((SECONDS - started))
if [ "$fails" -eq 0 ]; then
  echo "test-cluster-netns: OK: $passes checks passed in ${took} s"
else
  echo "test-cluster-netns: FAILED: $fails of $((passes + fails)) checks failed (${failed_names[*]}) in ${took} s"
  exit 1
fi
