#!/usr/bin/env bash
# A private PostgreSQL primary and one asynchronous streaming replica from Debian's server binaries
# (/usr/lib/postgresql/*/bin, package postgresql; never the system service), everything under DIR: two data
# directories, their logs and sockets. The primary listens on 127.0.0.2, the replica on 127.0.0.3 (both on Linux's
# loopback without any setup; PG_PRIMARY_HOST / PG_REPLICA_HOST change them, e.g. both 127.0.0.1), each on a free port
# chosen at start. Trust authentication for the role postgres from 127.0.0.0/8; database bg created on the primary
# (and so on the replica).
#
#   scripts/postgres-replica.sh start DIR [--delay D]  initialise DIR (first time), start the primary, clone it
#                                  (pg_basebackup), start the replica and wait until it streams; D (e.g. 2s, 500ms,
#                                  0.5s) is the replica's recovery_min_apply_delay: every commit becomes visible there
#                                  D after it committed on the primary (default 0: as fast as it streams)
#   scripts/postgres-replica.sh delay DIR D     change the apply delay of the running replica (ALTER SYSTEM,
#                                  pg_reload_conf(); takes effect for commits replayed from then on)
#   scripts/postgres-replica.sh urls DIR        two lines: postgres.url=<primary JDBC URL> and
#                                  postgres.read-urls=<replica JDBC URL>, ready for bg's -p
#   scripts/postgres-replica.sh pids DIR        the postmasters' pids: primary, then replica
#   scripts/postgres-replica.sh stop DIR        stop the replica, then the primary, by pid (SIGINT = fast shutdown;
#                                  SIGKILL after 30 s)
#
# Then: ./bg run --store postgres $(scripts/postgres-replica.sh urls DIR | sed 's/^/-p /') --load --workload high ...
# Env: PG_BIN (default: the newest /usr/lib/postgresql/*/bin), PG_PRIMARY_HOST, PG_REPLICA_HOST,
#      PG_SHARED_BUFFERS (default 256MB), PG_MAX_CONNECTIONS (default 300).
set -euo pipefail
me=scripts/postgres-replica.sh
usage() { echo "usage: $me start DIR [--delay D] | delay DIR D | urls DIR | pids DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2
primary_host="${PG_PRIMARY_HOST:-127.0.0.2}"
replica_host="${PG_REPLICA_HOST:-127.0.0.3}"

find_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
need() {
  echo "$me: $1 not found; install Debian's PostgreSQL server: sudo apt-get install --no-install-recommends" \
    "postgresql (scripts/test-deps.sh does it as root), or set PG_BIN to a directory holding initdb, pg_ctl," \
    "pg_basebackup and psql" >&2
  exit 1
}
# PostgreSQL refuses to run as root: as root, run its programs as the user postgres.
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi

# ms D: D (500ms, 2s, 0.5s, 1min, or a plain number of seconds) in whole milliseconds
ms() {
  local v=$1 n unit
  if [[ "$v" =~ ^([0-9]+(\.[0-9]+)?)(ms|s|min)?$ ]]; then
    n=${BASH_REMATCH[1]}; unit=${BASH_REMATCH[3]:-s}
    case $unit in
      ms) awk -v n="$n" 'BEGIN { printf "%d", n + 0.5 }' ;;
      s) awk -v n="$n" 'BEGIN { printf "%d", n * 1000 + 0.5 }' ;;
      min) awk -v n="$n" 'BEGIN { printf "%d", n * 60000 + 0.5 }' ;;
    esac
  else
    echo "$me: delay: expected a duration such as 0, 500ms, 0.5s or 2s, got '$v'" >&2
    exit 2
  fi
}
pid_of() { # pid_of primary|replica: the postmaster's pid if it runs
  local f="$dir/$1/postmaster.pid" p
  [ -f "$f" ] || return 1
  p=$(head -1 "$f" 2>/dev/null) || return 1
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}
port_of() { cat "$dir/$1.port"; }
url_of() { # url_of primary|replica
  local h=$primary_host
  [ "$1" = primary ] || h=$replica_host
  [ -f "$dir/$1.host" ] && h=$(cat "$dir/$1.host")
  echo "jdbc:postgresql://$h:$(port_of "$1")/bg"
}
free_port() { # free_port HOST
  python3 -c 'import socket,sys; s=socket.socket(); s.bind((sys.argv[1],0)); print(s.getsockname()[1]); s.close()' "$1" \
    2>/dev/null || echo $(( 20000 + RANDOM % 20000 ))
}
psql_on() { # psql_on primary|replica SQL: runs SQL as postgres through the server's socket in DIR
  "${as[@]}" "$bin/psql" -X -q -h "$dir" -p "$(port_of "$1")" -U postgres -d postgres -Atc "$2"
}
start_server() { # start_server primary|replica HOST PORT EXTRA-OPTIONS
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$1" -l "$dir/$1.log" -w -t 120 \
    -o "-p $3 -c listen_addresses=$2 -c unix_socket_directories=$dir $4" start > /dev/null \
    || { echo "$me: the $1 did not start; its log:" >&2; tail -20 "$dir/$1.log" >&2 || true; exit 1; }
}
stop_one() { # stop_one primary|replica
  local p
  p=$(pid_of "$1") || return 0
  kill -INT "$p"
  for _ in $(seq 1 300); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
  echo "$me: the $1 ($p) did not stop within 30 s; killing it" >&2
  kill -KILL "$p" 2>/dev/null || true
}

case "$cmd" in
  start)
    delay=0
    while [ $# -gt 0 ]; do
      case $1 in
        --delay) [ $# -ge 2 ] || usage; delay=$(ms "$2"); shift 2 ;;
        --delay=*) delay=$(ms "${1#--delay=}"); shift ;;
        *) usage ;;
      esac
    done
    bin=$(find_bin)
    [ -n "$bin" ] || need "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)"
    for t in initdb pg_ctl pg_basebackup psql; do [ -x "$bin/$t" ] || need "$bin/$t"; done
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    # The socket path must fit in sun_path (108 bytes).
    [ ${#dir} -lt 80 ] || { echo "$me: path $dir too long for a socket; use a shorter DIR" >&2; exit 1; }
    if p=$(pid_of primary) || p=$(pid_of replica); then
      echo "$me: a server already runs in $dir (pid $p); stop it first ($me stop $dir)" >&2; exit 1
    fi
    if [ ${#as[@]} -gt 0 ]; then chown postgres "$dir"; fi
    chmod 755 "$dir"
    echo "$bin" > "$dir/bin"
    pport=$(free_port "$primary_host")
    rport=$(free_port "$replica_host")
    [ "$pport" != "$rport" ] || rport=$(free_port "$replica_host")
    echo "$pport" > "$dir/primary.port"; echo "$primary_host" > "$dir/primary.host"
    echo "$rport" > "$dir/replica.port"; echo "$replica_host" > "$dir/replica.host"
    common="-c max_connections=${PG_MAX_CONNECTIONS:-300} -c shared_buffers=${PG_SHARED_BUFFERS:-256MB}"
    if [ ! -f "$dir/primary/PG_VERSION" ]; then
      "${as[@]}" "$bin/initdb" -D "$dir/primary" --auth=trust -U postgres -E UTF8 --locale=C.UTF-8 \
        > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; echo "$me: initdb failed" >&2; exit 1; }
      printf 'host all all 127.0.0.0/8 trust\nhost replication all 127.0.0.0/8 trust\n' \
        | "${as[@]}" tee -a "$dir/primary/pg_hba.conf" > /dev/null
      fresh=1
    fi
    # A throwaway benchmark pair: no fsync (as the embedded server); WAL for one streaming replica.
    start_server primary "$primary_host" "$pport" "$common -c wal_level=replica -c max_wal_senders=5 \
-c fsync=off -c full_page_writes=off -c max_wal_size=4GB"
    if [ -n "${fresh:-}" ]; then
      psql_on primary "CREATE DATABASE bg" > /dev/null
    fi
    if [ ! -f "$dir/replica/PG_VERSION" ]; then
      "${as[@]}" "$bin/pg_basebackup" -h "$primary_host" -p "$pport" -U postgres -D "$dir/replica" -R -X stream \
        -c fast > "$dir/basebackup.log" 2>&1 \
        || { cat "$dir/basebackup.log" >&2; echo "$me: pg_basebackup failed" >&2; exit 1; }
    fi
    # The replica streams from the primary's current address (a restarted pair has new ports).
    "${as[@]}" sed -i '/^primary_conninfo/d' "$dir/replica/postgresql.auto.conf"
    echo "primary_conninfo = 'host=$primary_host port=$pport user=postgres application_name=bg_replica'" \
      | "${as[@]}" tee -a "$dir/replica/postgresql.auto.conf" > /dev/null
    "${as[@]}" touch "$dir/replica/standby.signal"
    "${as[@]}" sed -i '/^recovery_min_apply_delay/d' "$dir/replica/postgresql.auto.conf"
    echo "recovery_min_apply_delay = '${delay}ms'" | "${as[@]}" tee -a "$dir/replica/postgresql.auto.conf" > /dev/null
    start_server replica "$replica_host" "$rport" "$common -c hot_standby=on"
    for _ in $(seq 1 300); do
      state=$(psql_on primary "SELECT state FROM pg_stat_replication WHERE application_name = 'bg_replica'" \
        2>/dev/null || true)
      [ "$state" = streaming ] && break
      sleep 0.1
    done
    [ "$state" = streaming ] \
      || { echo "$me: the replica does not stream from the primary within 30 s; see $dir/replica.log" >&2; exit 1; }
    echo "postgres.url=$(url_of primary)"
    echo "postgres.read-urls=$(url_of replica)"
    ;;
  delay)
    [ $# -eq 1 ] || usage
    d=$(ms "$1")
    pid_of replica > /dev/null || { echo "$me: no replica runs in $dir" >&2; exit 1; }
    bin=$(cat "$dir/bin")
    psql_on replica "ALTER SYSTEM SET recovery_min_apply_delay = '${d}ms'" > /dev/null
    psql_on replica "SELECT pg_reload_conf()" > /dev/null
    echo "$me: recovery_min_apply_delay = ${d}ms" >&2
    ;;
  urls)
    [ $# -eq 0 ] || usage
    pid_of primary > /dev/null || { echo "$me: no primary runs in $dir (start it with: $me start $dir)" >&2; exit 1; }
    pid_of replica > /dev/null || { echo "$me: no replica runs in $dir" >&2; exit 1; }
    echo "postgres.url=$(url_of primary)"
    echo "postgres.read-urls=$(url_of replica)"
    ;;
  pids)
    [ $# -eq 0 ] || usage
    pid_of primary || { echo "$me: no primary runs in $dir" >&2; exit 1; }
    pid_of replica || { echo "$me: no replica runs in $dir" >&2; exit 1; }
    ;;
  stop)
    [ $# -eq 0 ] || usage
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    stop_one replica
    stop_one primary
    ;;
  *) usage ;;
esac
