#!/usr/bin/env bash
# Private FerretDB v1.24.2 servers (a MongoDB-wire-protocol server) for BG's mongodb store: BG's launcher
# scripts/ferretdb/main.go, built with Go (>= 1.24) from the Go module proxy into a per-user cache, over a private
# PostgreSQL (Debian's server binaries, /usr/lib/postgresql/*/bin; never the system service) or over SQLite (no other
# process). Everything of a server lives under DIR:
#   DIR/backend, DIR/ferretdb.port, DIR/ferretdb.pid, DIR/ferretdb.log   FerretDB
#   DIR/pg/data, DIR/pg/postgres.log, DIR/pg.port, DIR/pg/.s.PGSQL.PORT   the private PostgreSQL (backend postgresql)
#   DIR/sqlite/                                                          one DB.sqlite file per database (sqlite)
#
#   scripts/ferretdb.sh build              build the launcher unless the cached binary is up to date (the cache is keyed
#                                          on a hash of main.go, go.mod and go.sum); prints the binary's path
#   scripts/ferretdb.sh start DIR [--backend postgresql|sqlite]
#                                          (default postgresql) build if needed; for postgresql initdb DIR/pg/data
#                                          (the first time; as the user postgres when root), start PostgreSQL on a free
#                                          port of 127.0.0.1 (socket in DIR/pg, trust authentication, databases
#                                          ferretdb and bg); then start FerretDB on a free port of 127.0.0.1 and wait
#                                          until it accepts connections (30 s). The last line printed is the connection
#                                          string mongodb://127.0.0.1:PORT/
#   scripts/ferretdb.sh uri DIR            the connection string
#   scripts/ferretdb.sh settings DIR       key=value lines for bg's -p: mongodb.uri (the connection string)
#   scripts/ferretdb.sh pg-url DIR [DB]    the JDBC URL of the private PostgreSQL's database DB (default bg, the one for
#                                          BG's postgres store: ./bg run --store postgres -p postgres.url=...; ferretdb
#                                          is FerretDB's own)
#   scripts/ferretdb.sh pids DIR           the pids of the running processes, one a line: FerretDB, then the postmaster
#   scripts/ferretdb.sh status DIR         one line per process (port, pid, up/down); exit 1 if one is down
#   scripts/ferretdb.sh stop DIR           SIGTERM FerretDB by its pid, then SIGINT the postmaster (fast shutdown) by
#                                          its pid; SIGKILL whichever has not exited after 20 s
#   scripts/ferretdb.sh wipe DIR           stop, then delete DIR
#
# Env: FERRETDB_BIN (a launcher binary to use instead of building one), FERRETDB_CACHE (default
#      ~/.cache/bg/ferretdb-1.24.2), FERRETDB_LOG_LEVEL (debug|info|warn|error, default warn),
#      FERRETDB_START_TIMEOUT (s, default 30), PG_BIN (default: the newest /usr/lib/postgresql/*/bin),
#      PG_SHARED_BUFFERS (default 256MB), PG_MAX_CONNECTIONS (default 300), PG_FSYNC (on|off, default on).
# The build needs Go 1.24 or newer (go in PATH, or /usr/local/go/bin/go) and the Go module proxy (GOPROXY); a cold
# build takes 1-4 minutes, a warm one seconds. Concurrent builds (two test JVMs) are serialised with flock.
set -euo pipefail
me=scripts/ferretdb.sh
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/scripts/ferretdb"
version=1.24.2
usage() {
  echo "usage: $me build   or   $me start DIR [--backend postgresql|sqlite]   or" \
    "  $me uri|settings|pg-url|pids|status|stop|wipe DIR" >&2
  exit 2
}
[ $# -ge 1 ] || usage
cmd=$1
shift
dir=""
if [ "$cmd" != build ]; then
  [ $# -ge 1 ] || usage
  dir=$1
  shift
fi
backend=postgresql
pg_db=bg
case "$cmd" in
  build) [ $# -eq 0 ] || usage ;;
  start)
    while [ $# -gt 0 ]; do
      case "$1" in
        --backend) [ $# -ge 2 ] || usage; backend=$2; shift 2 ;;
        --backend=*) backend=${1#--backend=}; shift ;;
        *) usage ;;
      esac
    done
    case "$backend" in postgresql|sqlite) ;; *)
      echo "$me: --backend is postgresql or sqlite, not '$backend'" >&2; exit 2 ;;
    esac
    ;;
  pg-url) [ $# -le 1 ] || usage; pg_db=${1:-bg} ;;
  uri|settings|pids|status|stop|wipe) [ $# -eq 0 ] || usage ;;
  *) usage ;;
esac

# --- build -----------------------------------------------------------------------------------------------------------
cache="${FERRETDB_CACHE:-$HOME/.cache/bg/ferretdb-$version}"
cached="$cache/ferretdb-bg"
find_go() { # prints the path of a go of version 1.24 or newer, or why there is none (stderr) and fails
  local g v major minor
  g=$(command -v go 2>/dev/null || true)
  if [ -z "$g" ] && [ -x /usr/local/go/bin/go ]; then g=/usr/local/go/bin/go; fi
  if [ -z "$g" ]; then
    echo "$me: building FerretDB needs Go 1.24 or newer; no go in PATH or /usr/local/go/bin. Install Go 1.24+ from" \
      "https://go.dev/dl into /usr/local/go (Debian's golang-go is too old), or set FERRETDB_BIN to a built" \
      "launcher" >&2
    return 1
  fi
  v=$(GOTOOLCHAIN=local "$g" env GOVERSION 2>/dev/null || true)
  major=0; minor=0
  if [[ "$v" =~ ^go([0-9]+)\.([0-9]+) ]]; then major=${BASH_REMATCH[1]}; minor=${BASH_REMATCH[2]}; fi
  if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 24 ]; }; then
    # A newer go in /usr/local/go may be shadowed by Debian's in PATH.
    if [ "$g" != /usr/local/go/bin/go ] && [ -x /usr/local/go/bin/go ]; then
      v2=$(GOTOOLCHAIN=local /usr/local/go/bin/go env GOVERSION 2>/dev/null || true)
      if [[ "$v2" =~ ^go1\.([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 24 ]; then echo /usr/local/go/bin/go; return 0; fi
    fi
    echo "$me: building FerretDB needs Go 1.24 or newer; $g is ${v:-of unknown version}. Install Go 1.24+ from" \
      "https://go.dev/dl into /usr/local/go (Debian's golang-go is too old), or set FERRETDB_BIN to a built" \
      "launcher" >&2
    return 1
  fi
  echo "$g"
}
src_hash() { (cd "$src" && sha256sum main.go go.mod go.sum | sha256sum | cut -c1-16); }
build() { # prints the launcher's path, building it first if the cache is not up to date
  if [ -n "${FERRETDB_BIN:-}" ]; then
    [ -x "$FERRETDB_BIN" ] || { echo "$me: FERRETDB_BIN=$FERRETDB_BIN is not an executable file" >&2; exit 1; }
    echo "$FERRETDB_BIN"
    return 0
  fi
  local want go tmp
  want=$(src_hash)
  if [ -x "$cached" ] && [ "$(cat "$cached.src" 2>/dev/null)" = "$want" ]; then echo "$cached"; return 0; fi
  if ! go=$(find_go); then
    if [ -x "$cached" ]; then
      echo "$me: warning: $cached was built from other sources than scripts/ferretdb (no Go to rebuild it);" \
        "using it" >&2
      echo "$cached"
      return 0
    fi
    exit 1
  fi
  mkdir -p "$cache"
  exec 9> "$cache/build.lock"
  if command -v flock >/dev/null; then flock 9; fi
  if [ -x "$cached" ] && [ "$(cat "$cached.src" 2>/dev/null)" = "$want" ]; then exec 9>&-; echo "$cached"; return 0; fi
  tmp="$cached.tmp.$$"
  echo "$me: building FerretDB $version's launcher into $cached with $go (modules through $(GOTOOLCHAIN=local \
"$go" env GOPROXY); a cold build takes 1-4 minutes) ..." >&2
  local t0=$SECONDS
  if ! (cd "$src" && GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -mod=readonly" "$go" build -trimpath -o "$tmp" . >&2); then
    rm -f "$tmp"
    echo "$me: go build of scripts/ferretdb failed (see above); it needs the Go module proxy (GOPROXY) or a module" \
      "cache holding github.com/FerretDB/FerretDB@v$version" >&2
    exit 1
  fi
  mv -f "$tmp" "$cached"
  echo "$want" > "$cached.src.tmp.$$" && mv -f "$cached.src.tmp.$$" "$cached.src"
  exec 9>&-
  echo "$me: built in $((SECONDS - t0)) s" >&2
  echo "$cached"
}

# --- helpers ---------------------------------------------------------------------------------------------------------
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi # initdb and postgres refuse to run as root
find_pg() {
  local b
  if [ -n "${PG_BIN:-}" ]; then b=$PG_BIN; else b=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1); fi
  for t in initdb pg_ctl postgres psql; do
    if [ -z "$b" ] || [ ! -x "$b/$t" ]; then
      echo "$me: the postgresql backend needs PostgreSQL's server binaries (${b:-/usr/lib/postgresql/*/bin}/$t not" \
        "found); install them: sudo apt-get install --no-install-recommends postgresql (scripts/test-deps.sh does it" \
        "as root), or set PG_BIN, or use --backend sqlite" >&2
      exit 1
    fi
  done
  echo "$b"
}
port_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_ports() { # free_ports K: K distinct ports free on 127.0.0.1
  if command -v python3 >/dev/null; then
    python3 -c '
import socket, sys
held, ports = [], []
while len(ports) < int(sys.argv[1]):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); held.append(s)
    ports.append(s.getsockname()[1])
for s in held: s.close()
print(" ".join(map(str, ports)))' "$1"
    return
  fi
  local out="" p # no python3: random ports nothing answers on (a small race, as any probe)
  while [ "$(wc -w <<< "$out")" -lt "$1" ]; do
    p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    port_answers "$p" || [[ " $out " == *" $p "* ]] || out="$out $p"
  done
  echo $out
}
var() { cat "$dir/$1" 2>/dev/null || true; }
ferret_pid() { # the pid of this DIR's FerretDB if it runs
  local p port
  p=$(var ferretdb.pid); port=$(var ferretdb.port)
  [ -n "$p" ] && [ -n "$port" ] && kill -0 "$p" 2>/dev/null || return 1
  # Guard against a reused pid: the process must be the launcher listening on this DIR's port.
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q -- "-listen-addr 127.0.0.1:$port " || return 1
  echo "$p"
}
pg_pid() { # the pid of this DIR's postmaster if it runs
  local p
  p=$(head -1 "$dir/pg/data/postmaster.pid" 2>/dev/null) || return 1
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$dir/pg/data" || return 1
  echo "$p"
}
stop_pid() { # stop_pid PID SIGNAL NAME: send SIGNAL, wait 20 s, then SIGKILL
  kill "-$2" "$1" 2>/dev/null || return 0
  for _ in $(seq 1 200); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  echo "$me: $3 ($1) did not stop within 20 s; killing it" >&2
  kill -KILL "$1" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
}
stop_all() {
  local p
  if p=$(ferret_pid); then stop_pid "$p" TERM FerretDB; fi
  if p=$(pg_pid); then stop_pid "$p" INT PostgreSQL; fi
  return 0
}
need_dir() {
  [ -f "$dir/backend" ] || { echo "$me: no FerretDB server in $dir (start one with: $me start $dir)" >&2; exit 1; }
}
absolute() { mkdir -p "$dir"; dir=$(cd "$dir" && pwd); }
existing() { [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }; dir=$(cd "$dir" && pwd); }

# --- commands --------------------------------------------------------------------------------------------------------
case "$cmd" in
  build) build ;;
  start)
    absolute
    # The PostgreSQL socket path must fit in sun_path (108 bytes).
    [ ${#dir} -lt 80 ] || { echo "$me: path $dir too long for a socket; use a shorter DIR" >&2; exit 1; }
    if p=$(ferret_pid) || p=$(pg_pid); then
      echo "$me: a server already runs in $dir (pid $p); stop it first ($me stop $dir)" >&2; exit 1
    fi
    if [ -f "$dir/backend" ] && [ "$(var backend)" != "$backend" ]; then
      echo "$me: $dir holds a $(var backend) server; wipe it first ($me wipe $dir) to start a $backend one" >&2; exit 1
    fi
    [ "$backend" = sqlite ] || pgbin=$(find_pg)
    bin=$(build)
    echo "$backend" > "$dir/backend"
    read -r fport pport <<< "$(free_ports 2)"
    echo "$fport" > "$dir/ferretdb.port"
    t0=$(date +%s.%N)
    if [ "$backend" = postgresql ]; then
      fsync=${PG_FSYNC:-on}
      [[ "$fsync" =~ ^(on|off)$ ]] || { echo "$me: PG_FSYNC is on or off, not '$fsync'" >&2; exit 2; }
      mkdir -p "$dir/pg"
      if [ ${#as[@]} -gt 0 ]; then
        chmod o+x "$dir" # the user postgres must reach DIR/pg (Files.createTempDirectory makes DIR 700)
        chown -R postgres: "$dir/pg"
      fi
      if [ ! -f "$dir/pg/data/PG_VERSION" ]; then
        "${as[@]}" "$pgbin/initdb" -D "$dir/pg/data" --auth=trust -U postgres -E UTF8 --locale=C.UTF-8 \
          > "$dir/pg/initdb.log" 2>&1 || { cat "$dir/pg/initdb.log" >&2; echo "$me: initdb failed" >&2; exit 1; }
        fresh=1
      fi
      echo "$pport" > "$dir/pg.port"
      "${as[@]}" "$pgbin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/postgres.log" -w -t 60 -o "-p $pport \
-c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir/pg -c max_connections=${PG_MAX_CONNECTIONS:-300} \
-c shared_buffers=${PG_SHARED_BUFFERS:-256MB} -c fsync=$fsync" start > /dev/null \
        || { echo "$me: PostgreSQL did not start; the end of $dir/pg/postgres.log:" >&2
             tail -20 "$dir/pg/postgres.log" >&2 || true; exit 1; }
      if [ -n "${fresh:-}" ]; then
        for db in ferretdb bg; do
          "${as[@]}" "$pgbin/psql" -X -q -h "$dir/pg" -p "$pport" -U postgres -d postgres \
            -c "CREATE DATABASE $db" > /dev/null \
            || { echo "$me: cannot create the database $db" >&2; stop_all; exit 1; }
        done
      fi
      args=(-handler postgresql -postgresql-url "postgres://postgres@127.0.0.1:$pport/ferretdb")
    else
      mkdir -p "$dir/sqlite"
      args=(-handler sqlite -sqlite-url "file:$dir/sqlite/")
    fi
    nohup "$bin" -listen-addr "127.0.0.1:$fport" "${args[@]}" -log-level "${FERRETDB_LOG_LEVEL:-warn}" \
      >> "$dir/ferretdb.log" 2>&1 < /dev/null &
    echo $! > "$dir/ferretdb.pid"
    fp=$!
    limit=$(( ${FERRETDB_START_TIMEOUT:-30} * 20 ))
    for ((i = 0; ; i++)); do
      if port_answers "$fport"; then break; fi
      if ! kill -0 "$fp" 2>/dev/null || [ "$i" -ge "$limit" ]; then
        why="exited at start"
        if kill -0 "$fp" 2>/dev/null; then
          why="did not listen on 127.0.0.1:$fport within ${FERRETDB_START_TIMEOUT:-30} s"
        fi
        echo "$me: FerretDB $why; the end of $dir/ferretdb.log:" >&2
        tail -20 "$dir/ferretdb.log" >&2 || true
        stop_all
        exit 1
      fi
      sleep 0.05
    done
    echo "$me: $backend FerretDB up in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s" >&2
    echo "mongodb://127.0.0.1:$fport/"
    ;;
  uri) need_dir; echo "mongodb://127.0.0.1:$(var ferretdb.port)/" ;;
  settings) need_dir; echo "mongodb.uri=mongodb://127.0.0.1:$(var ferretdb.port)/" ;;
  pg-url)
    need_dir
    [ "$(var backend)" = postgresql ] || { echo "$me: the server in $dir runs over $(var backend), not PostgreSQL" >&2
      exit 1; }
    echo "jdbc:postgresql://127.0.0.1:$(var pg.port)/$pg_db?user=postgres"
    ;;
  pids)
    existing
    found=0
    if ferret_pid; then found=1; fi
    if pg_pid; then found=1; fi
    [ $found -eq 1 ] || { echo "$me: nothing runs in $dir" >&2; exit 1; }
    ;;
  status)
    need_dir
    existing
    rc=0
    if p=$(ferret_pid); then
      if port_answers "$(var ferretdb.port)"; then s=up; else s=starting; rc=1; fi
    else p=-; s=down; rc=1; fi
    echo "ferretdb $(var backend) 127.0.0.1:$(var ferretdb.port) pid $p $s"
    if [ "$(var backend)" = postgresql ]; then
      if p=$(pg_pid); then s=up; else p=-; s=down; rc=1; fi
      echo "postgresql 127.0.0.1:$(var pg.port) pid $p $s"
    fi
    exit $rc
    ;;
  stop)
    existing
    stop_all
    ;;
  wipe)
    [ -d "$dir" ] || exit 0
    existing
    stop_all
    rm -rf "$dir"
    ;;
esac
