#!/usr/bin/env bash
# Replays the README's commands as a new user would: a fresh clone of this repository's committed HEAD in a scratch
# directory with a scratch HOME, BG built by its first ./bg command, then the README's two commands and its
# five-minute tour (load, run, compare, rate, deck), some shortened to keep the whole under ~4 minutes on 2 cores. Each
# step must end with the exit code the README promises and print no stack trace and no Java exception or error class
# name; the tour's load, run and rate steps must also print no warning (no_warnings below). .ci/run runs it after
# ./test. The Maven repository and the wrapper's Maven are taken from the real HOME (~/.m2), so nothing is downloaded;
# BG_README_KEEP=1 keeps the scratch directory. docs/testing.md describes it.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$src/scripts/jdk.sh"
bg_find_jdk

head=$(git -C "$src" rev-parse HEAD)
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  echo "test-readme: note: $src has uncommitted changes; they are not part of the replay (HEAD $head)"
fi
real_home="$HOME"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bg-readme.XXXXXX")
if [ "${BG_README_KEEP:-0}" = 1 ]; then
  echo "test-readme: keeping $scratch"
else
  trap 'rm -rf "$scratch"' EXIT
fi
export HOME="$scratch/home"
mkdir -p "$HOME" "$scratch/empty"
# The scratch HOME must still see the Maven repository and the wrapper's Maven distribution.
export MAVEN_USER_HOME="${MAVEN_USER_HOME:-$real_home/.m2}"
maven_args="-Dmaven.repo.local=${BG_README_M2_REPO:-$real_home/.m2/repository}"
if [ -f "$real_home/.m2/settings.xml" ]; then maven_args+=" --settings $real_home/.m2/settings.xml"; fi
export MAVEN_ARGS="${MAVEN_ARGS:+$MAVEN_ARGS }$maven_args"
unset BG_DEBUG

clone="$scratch/bg"
git clone -q --no-checkout "$src" "$clone"
git -C "$clone" checkout -q --detach "$head"
cd "$clone"
echo "test-readme: replaying the README in $clone (commit ${head:0:12}), HOME=$HOME"

start=$SECONDS
failures=0
n=0
log="$scratch/logs"
mkdir -p "$log"

# A Java stack trace, or a Java exception or error class named in the output (the README promises one plain line).
trace='Exception in thread|^[[:space:]]+at [A-Za-z_$][A-Za-z0-9_$.]*\(|[A-Za-z]+(Exception|Error)\b|^Error:'

fail() {
  echo "test-readme: FAIL: $*"
  failures=$((failures + 1))
}

# step RC [--lenient] -- COMMAND...: runs COMMAND in the clone; its exit code must be RC (a list like "0|1" allowed)
# and its output free of stack traces and exception names (with --lenient: free of stack traces only).
step() {
  local want="$1" lenient=""
  shift
  if [ "$1" = --lenient ]; then lenient=1; shift; fi
  [ "$1" = -- ] && shift
  n=$((n + 1))
  local out="$log/$n.out" err="$log/$n.err" t0=$SECONDS rc=0
  timeout 300 "$@" >"$out" 2>"$err" </dev/null || rc=$?
  last_out="$out"
  last_err="$err"
  printf 'test-readme: %3ds  exit %d  %s\n' $((SECONDS - t0)) "$rc" "$*"
  local ok=1
  if ! [[ "|$want|" == *"|$rc|"* ]]; then
    fail "'$*' exited $rc, the README promises $want"
    ok=""
  fi
  local pattern="$trace"
  if [ -n "$lenient" ]; then pattern='Exception in thread|^[[:space:]]+at [A-Za-z_$][A-Za-z0-9_$.]*\('; fi
  if grep -qE "$pattern" "$out" "$err"; then
    fail "'$*' printed a stack trace or an exception name:"
    grep -hE "$pattern" "$out" "$err" | head -5 | sed 's/^/    /'
    ok=""
  elif [ -n "$lenient" ] && grep -qE "$trace" "$out" "$err"; then
    echo "test-readme: note: '$*' names an exception (tolerated for now, see the TODO):"
    grep -hE "$trace" "$out" "$err" | head -3 | sed 's/^/    /'
  fi
  if [ -z "$ok" ]; then
    echo "    --- stderr (last 15 lines) ---"
    tail -15 "$err" | sed 's/^/    /'
    echo "    --- stdout (last 15 lines) ---"
    tail -15 "$out" | sed 's/^/    /'
  fi
  [ -n "$ok" ]
}

expect() { # expect FILE TEXT WHAT: FILE contains TEXT (a fixed string)
  grep -qF -- "$2" "$1" || fail "$3: '$2' not in its output"
}

# BG's warnings: "bg: warning: …" lines, "warning: …" lines, and the "  ! …" lines under a summary's Warnings. A
# saturated CPU is the host's doing, not the example's, and is tolerated (BG_README_HOST_NOISE, a regular expression).
warning_lines='^(bg: )?warning|^[[:space:]]+! '
host_noise="${BG_README_HOST_NOISE:-CPU was saturated|competes with other processes|noisy host|JVM stalled}"

# no_warnings WHAT: the last step's output holds no warning of BG's (other than host noise). BG_README_WARNINGS=note
# reports them without failing (for a machine so loaded that a rating's search cannot help warning).
no_warnings() {
  local found
  found=$(grep -hE "$warning_lines" "$last_out" "$last_err" | grep -vE "$host_noise" || true)
  [ -z "$found" ] && return 0
  if [ "${BG_README_WARNINGS:-fail}" = note ]; then
    echo "test-readme: note: $1 printed a warning:"
  else
    fail "$1 printed a warning (the README's examples must not):"
  fi
  printf '%s\n' "$found" | head -5 | sed 's/^/    /'
}

# ./test on a machine without the cache servers, and not allowed to install them, stops before Maven and says what
# to install (issue 21 item 5).
if step 1 -- env -u BG_SKIP_MISSING_SERVERS BG_DEPS_PATH="$scratch/empty" BG_TEST_INSTALL=0 ./test; then
  expect "$last_err" "redis-server memcached" "./test without the servers"
  expect "$last_err" "apt-get install" "./test without the servers"
fi

# The README's first command; builds BG on first use. Without it nothing else can run.
if ! step 0 -- ./bg quickstart; then
  echo "test-readme: FAILED: ./bg quickstart did not work; stopping ($((SECONDS - start)) s)"
  exit 1
fi
expect "$last_err" "bg: building BG" "./bg quickstart on a fresh clone"
expect "$last_out" "SoAR" "./bg quickstart"
expect "$last_out" "Socialites" "./bg quickstart"

# The distribution carries the embedded PostgreSQL for this platform only (issue 21 item 6).
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) want=linux-amd64; [ -e /etc/alpine-release ] && want=linux-amd64-alpine ;;
  Linux/aarch64) want=linux-arm64v8 ;;
  Darwin/x86_64) want=darwin-amd64 ;;
  Darwin/arm64) want=darwin-arm64v8 ;;
  *) want="" ;;
esac
pg=$(cd cli/target/lib && ls embedded-postgres-binaries-* 2>/dev/null | sed 's/^embedded-postgres-binaries-//; s/-[0-9][0-9.]*\.jar$//' | tr '\n' ' ')
if [ -n "$want" ] && [ "$pg" != "$want " ]; then
  fail "cli/target/lib should hold the embedded PostgreSQL for $want only, holds: ${pg:-none}"
fi
echo "test-readme: cli/target/lib $(du -sh cli/target/lib | cut -f1), embedded PostgreSQL: ${pg:-none}"

step 0 -- ./bg stores || true
# Bad input: one line naming the problem, exit code 2.
if step 2 -- ./bg load --store nosuch; then
  [ "$(wc -l <"$last_err")" -eq 1 ] || fail "./bg load --store nosuch: expected one line, got $(wc -l <"$last_err")"
fi
step 2 -- ./bg nosuch --help || true # issue 21 item 4
if step 0 -- ./bg dzipf -M 100000 -N 8; then # issue 21 item 2
  expect "$last_out" "N=8" "./bg dzipf -M 100000 -N 8"
fi

step 0 -- ./bg keys || true

# The five-minute tour of the README, in its order.
if step 0 -- ./bg load --store sqlite -p confperc=0.9; then
  expect "$last_out" "sanity check passed" "./bg load --store sqlite -p confperc=0.9"
  no_warnings "./bg load --store sqlite -p confperc=0.9"
fi
# The README's run, shortened (5 s instead of 10 s), twice with the same --out.
run=(./bg run --store sqlite --workload high --threads 4 --duration 5s --out runs/high.json)
if step 0 -- "${run[@]}"; then
  no_warnings "${run[*]}"
  expect "$last_err" "graph from the store" "${run[*]}"
fi
[ -f runs/high.json ] || fail "${run[*]}: no runs/high.json"
# Running the same command again works: the earlier result and its logs are kept aside as runs/high.1.json.
# (This time as SCHED_BATCH, the launcher's opt-in, which the result must then record where chrt exists.)
step 0 -- env BG_SCHED=batch "${run[@]}" || true
if command -v chrt >/dev/null 2>&1; then
  grep -qE '"sched_policy" *: *"batch"' runs/high.json \
    || fail "BG_SCHED=batch ${run[*]}: config.sched_policy is not \"batch\""
fi
expect "$last_err" "kept it as" "the second ${run[*]}"
[ -f runs/high.1.json ] || fail "${run[*]} twice: the earlier result was not kept as runs/high.1.json"
# The launcher runs BG at the normal policy by default (docs/architecture.md, "BG's scheduling policy"), and the
# result says so; BG_SCHED with another value than batch or normal is one line and exit 2.
if [ -f runs/high.1.json ]; then
  grep -qE '"sched_policy" *: *"normal"' runs/high.1.json \
    || fail "runs/high.1.json: config.sched_policy is not \"normal\" by default"
fi
if step 2 -- env BG_SCHED=fast ./bg stores; then
  expect "$last_err" "BG_SCHED must be batch or normal" "BG_SCHED=fast ./bg stores"
  [ "$(wc -l <"$last_err")" -eq 1 ] || fail "BG_SCHED=fast ./bg stores: expected one line, got $(wc -l <"$last_err")"
fi
step 0 -- ./bg compare runs/ || true

# The README's rating, shortened: experiments of 1 s (δ), a confirmation of 2 s (Δ) and T up to 8, instead of 3 s,
# 10 s and 16.
rate=(./bg rate --store sqlite --workload high --sla 95%:100ms:0.01%:2s --delta 1s --warmup 1s --max-threads 8
  --out runs/rate-high)
if step 0 -- "${rate[@]}"; then
  expect "$last_out" "SoAR" "./bg rate"
  expect "$last_out" "Socialites" "./bg rate"
  # The README says a rating of experiments this short warns about what it saw: noted, not failed.
  BG_README_WARNINGS=note no_warnings "${rate[*]}"
fi
[ -f runs/rate-high/rating.html ] || fail "${rate[*]}: no runs/rate-high/rating.html"

# The README's study, as written (tiny scale, SQLite only): its report and files beside study.json.
study=(./bg study run dissertation-fig-3.3 --store sqlite --out runs/study-fig-3.3)
if step 0 -- "${study[@]}"; then
  BG_README_WARNINGS=note no_warnings "${study[*]}"
fi
for f in study.json report.html throughput.csv; do
  [ -f "runs/study-fig-3.3/$f" ] || fail "${study[*]}: no runs/study-fig-3.3/$f"
done

# The deck: it prints the address to open, and that address answers with its page.
deck_log="$log/deck.out"
./bg deck --listen 127.0.0.1:0 >"$deck_log" 2>&1 </dev/null &
deck_pid=$!
url=""
for _ in $(seq 1 120); do
  url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/\?token=[A-Za-z0-9_-]+' "$deck_log" | head -1 || true)
  [ -n "$url" ] && break
  kill -0 "$deck_pid" 2>/dev/null || break
  sleep 0.5
done
n=$((n + 1))
if [ -z "$url" ]; then
  fail "./bg deck printed no address to open:"
  tail -5 "$deck_log" | sed 's/^/    /'
elif ! curl -fsS -o /dev/null "$url"; then
  fail "./bg deck: $url did not answer"
else
  printf 'test-readme:        ok      ./bg deck (%s)\n' "${url%%\?*}"
fi
kill "$deck_pid" 2>/dev/null || true
wait "$deck_pid" 2>/dev/null || true

# The embedded PostgreSQL starts from the slimmed distribution (docs/running.md's command, 3 s instead of 20 s).
step 0 -- ./bg run --store postgres --embedded --load --workload vp --threads 4 --duration 3s || true

echo "test-readme: $n steps in $((SECONDS - start)) s, $failures failure(s)"
[ "$failures" -eq 0 ]
