#!/usr/bin/env bash
# A private PostgreSQL primary and K asynchronous streaming replicas (default 1; 0 for the primary alone) from Debian's
# server binaries (/usr/lib/postgresql/*/bin, package postgresql; never the system service), everything under DIR: the
# data directories (primary, replica, replica2, ...), their logs and sockets. The primary listens on 127.0.0.2,
# replica I on 127.0.0.(2+I) (127.0.0.3, 127.0.0.4, ...; all on Linux's loopback without any setup), each on a free
# port chosen at start. PG_PRIMARY_HOST moves the primary; PG_REPLICA_HOST puts every replica on that one host (each on
# its own port), PG_REPLICA_HOSTS=H1,H2,... gives replica I the host HI. Trust authentication for the role postgres
# from 127.0.0.0/8; database bg created on the primary (and so on the replicas).
#
#   scripts/postgres-replica.sh start DIR [--replicas K] [--delay D]
#                                  initialise DIR (first time), start the primary, clone it (pg_basebackup) for each
#                                  replica not cloned yet, start the K replicas and wait until each streams; D (e.g. 2s,
#                                  500ms, 0.5s) is the replicas' recovery_min_apply_delay: every commit becomes visible
#                                  there D after it committed on the primary (default 0: as fast as it streams).
#                                  Replica directories beyond K (from an earlier start) are kept but not started
#   scripts/postgres-replica.sh delay DIR D     change the apply delay of every running replica (ALTER SYSTEM,
#                                  pg_reload_conf(); takes effect for commits replayed from then on)
#   scripts/postgres-replica.sh urls DIR        postgres.url=<primary JDBC URL> and, with K >= 1,
#                                  postgres.read-urls=<replica 1 URL>,<replica 2 URL>,... ready for bg's -p (the store
#                                  sends session i's reads to replica i mod K)
#   scripts/postgres-replica.sh settings DIR    the same lines as urls (every script BG starts servers with has it)
#   scripts/postgres-replica.sh pids DIR        the postmasters' pids: primary, then the replicas in order
#   scripts/postgres-replica.sh stop DIR        stop every replica, then the primary, by pid (SIGINT = fast shutdown;
#                                  SIGKILL after 30 s)
#
# Then: ./bg run --store postgres $(scripts/postgres-replica.sh urls DIR | sed 's/^/-p /') --load --workload high ...
# Env: PG_BIN (default: the newest /usr/lib/postgresql/*/bin), PG_PRIMARY_HOST, PG_REPLICA_HOST, PG_REPLICA_HOSTS,
#      PG_SHARED_BUFFERS (default 256MB, each server), PG_MAX_CONNECTIONS (default 300).
set -euo pipefail
me=scripts/postgres-replica.sh
delay_arg=D
primary_host="${PG_PRIMARY_HOST:-127.0.0.2}"
replica_host="${PG_REPLICA_HOST:-127.0.0.3}"
replica_hosts_var=PG_REPLICA_HOSTS
replica_host_var=PG_REPLICA_HOST
delay_name="apply delay"
# shellcheck source=replicas-lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/replicas-lib.sh"

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

# parse_delay D: D (500ms, 2s, 0.5s, 1min, or a plain number of seconds) in whole milliseconds
parse_delay() {
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
pid_of() { # pid_of primary|replica|replicaI: the postmaster's pid if it runs
  local f="$dir/$1/postmaster.pid" p
  [ -f "$f" ] || return 1
  p=$(head -1 "$f" 2>/dev/null) || return 1
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}
port_of() { cat "$dir/$1.port"; }
url_of() { # url_of primary|replica|replicaI
  local h=$primary_host
  [ "$1" = primary ] || h=$replica_host
  [ -f "$dir/$1.host" ] && h=$(cat "$dir/$1.host")
  echo "jdbc:postgresql://$h:$(port_of "$1")/bg"
}
free_port() { # free_port HOST
  python3 -c 'import socket,sys; s=socket.socket(); s.bind((sys.argv[1],0)); print(s.getsockname()[1]); s.close()' "$1" \
    2>/dev/null || echo $(( 20000 + RANDOM % 20000 ))
}
psql_on() { # psql_on primary|replica|replicaI SQL: runs SQL as postgres through the server's socket in DIR
  "${as[@]}" "$bin/psql" -X -q -h "$dir" -p "$(port_of "$1")" -U postgres -d postgres -Atc "$2"
}
start_server() { # start_server primary|replicaI HOST PORT EXTRA-OPTIONS
  "${as[@]}" "$bin/pg_ctl" -D "$dir/$1" -l "$dir/$1.log" -w -t 120 \
    -o "-p $3 -c listen_addresses=$2 -c unix_socket_directories=$dir $4" start > /dev/null \
    || { echo "$me: the $1 did not start; its log:" >&2; tail -20 "$dir/$1.log" >&2 || true; exit 1; }
}
stop_one() { # stop_one primary|replicaI
  local p
  p=$(pid_of "$1") || return 0
  kill -INT "$p"
  for _ in $(seq 1 300); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
  echo "$me: the $1 ($p) did not stop within 30 s; killing it" >&2
  kill -KILL "$p" 2>/dev/null || true
}

app_name() { if [ "$1" -eq 1 ]; then echo bg_replica; else echo "bg_replica$1"; fi; }
print_urls() {
  local r urls=""
  echo "postgres.url=$(url_of primary)"
  for r in $(replicas); do urls+="${urls:+,}$(url_of "$r")"; done
  [ -z "$urls" ] || echo "postgres.read-urls=$urls"
}

case "$cmd" in
  start)
    parse_start "$@"
    bin=$(find_bin)
    [ -n "$bin" ] || need "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)"
    for t in initdb pg_ctl pg_basebackup psql; do [ -x "$bin/$t" ] || need "$bin/$t"; done
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    # The socket path must fit in sun_path (108 bytes).
    [ ${#dir} -lt 80 ] || { echo "$me: path $dir too long for a socket; use a shorter DIR" >&2; exit 1; }
    for s in primary $(existing_replicas); do
      if p=$(pid_of "$s"); then
        echo "$me: a server already runs in $dir (the $s, pid $p); stop it first ($me stop $dir)" >&2; exit 1
      fi
    done
    if [ ${#as[@]} -gt 0 ]; then chown postgres "$dir"; fi
    chmod 755 "$dir"
    echo "$bin" > "$dir/bin"
    used=" "
    pport=$(free_port "$primary_host"); used+="$pport "
    echo "$pport" > "$dir/primary.port"; echo "$primary_host" > "$dir/primary.host"
    for ((i = 1; i <= k; i++)); do
      r=$(replica_name "$i"); h=$(replica_host "$i")
      for _ in 1 2 3 4 5 6 7 8 9 10; do rport=$(free_port "$h"); [[ "$used" == *" $rport "* ]] || break; done
      used+="$rport "
      echo "$rport" > "$dir/$r.port"; echo "$h" > "$dir/$r.host"
    done
    echo "$k" > "$dir/replicas"
    # Hot standby needs max_wal_senders on a replica >= the primary's as its WAL last recorded it: the same value
    # everywhere (a sender per replica, and pg_basebackup's two while it clones), never lower than at an earlier start
    # of DIR (a replica that saw the primary with more refuses to start with fewer).
    senders=$(cat "$dir/wal_senders" 2>/dev/null || echo 10)
    [ "$senders" -ge $((k + 5)) ] || senders=$((k + 5))
    echo "$senders" > "$dir/wal_senders"
    common="-c max_connections=${PG_MAX_CONNECTIONS:-300} -c shared_buffers=${PG_SHARED_BUFFERS:-256MB}"
    common+=" -c max_wal_senders=$senders"
    if [ ! -f "$dir/primary/PG_VERSION" ]; then
      "${as[@]}" "$bin/initdb" -D "$dir/primary" --auth=trust -U postgres -E UTF8 --locale=C.UTF-8 \
        > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; echo "$me: initdb failed" >&2; exit 1; }
      printf 'host all all 127.0.0.0/8 trust\nhost replication all 127.0.0.0/8 trust\n' \
        | "${as[@]}" tee -a "$dir/primary/pg_hba.conf" > /dev/null
      fresh=1
    fi
    # A throwaway benchmark server: no fsync (as the embedded server); WAL for streaming replicas.
    start_server primary "$primary_host" "$pport" "$common -c wal_level=replica -c fsync=off \
-c full_page_writes=off -c max_wal_size=4GB"
    if [ -n "${fresh:-}" ]; then
      psql_on primary "CREATE DATABASE bg" > /dev/null
    fi
    for ((i = 1; i <= k; i++)); do
      r=$(replica_name "$i")
      if [ ! -f "$dir/$r/PG_VERSION" ]; then
        "${as[@]}" "$bin/pg_basebackup" -h "$primary_host" -p "$pport" -U postgres -D "$dir/$r" -R -X stream \
          -c fast > "$dir/basebackup.log" 2>&1 \
          || { cat "$dir/basebackup.log" >&2; echo "$me: pg_basebackup of the $r failed" >&2; exit 1; }
      fi
      # The replica streams from the primary's current address (a restarted primary has a new port).
      "${as[@]}" sed -i '/^primary_conninfo/d' "$dir/$r/postgresql.auto.conf"
      echo "primary_conninfo = 'host=$primary_host port=$pport user=postgres application_name=$(app_name "$i")'" \
        | "${as[@]}" tee -a "$dir/$r/postgresql.auto.conf" > /dev/null
      "${as[@]}" touch "$dir/$r/standby.signal"
      "${as[@]}" sed -i '/^recovery_min_apply_delay/d' "$dir/$r/postgresql.auto.conf"
      echo "recovery_min_apply_delay = '${delay}ms'" | "${as[@]}" tee -a "$dir/$r/postgresql.auto.conf" > /dev/null
      start_server "$r" "$(cat "$dir/$r.host")" "$(port_of "$r")" "$common -c hot_standby=on"
    done
    for ((i = 1; i <= k; i++)); do
      r=$(replica_name "$i")
      state=""
      for _ in $(seq 1 300); do
        state=$(psql_on primary "SELECT state FROM pg_stat_replication WHERE application_name = '$(app_name "$i")'" \
          2>/dev/null || true)
        [ "$state" = streaming ] && break
        sleep 0.1
      done
      [ "$state" = streaming ] \
        || { echo "$me: the $r does not stream from the primary within 30 s; see $dir/$r.log" >&2; exit 1; }
    done
    print_urls
    ;;
  delay)
    [ $# -eq 1 ] || usage
    d=$(parse_delay "$1")
    bin=$(cat "$dir/bin")
    n=0
    for r in $(replicas); do
      pid_of "$r" > /dev/null || { echo "$me: the $r of $dir does not run" >&2; exit 1; }
      psql_on "$r" "ALTER SYSTEM SET recovery_min_apply_delay = '${d}ms'" > /dev/null
      psql_on "$r" "SELECT pg_reload_conf()" > /dev/null
      n=$((n + 1))
    done
    [ $n -gt 0 ] || { echo "$me: no replica runs in $dir" >&2; exit 1; }
    echo "$me: recovery_min_apply_delay = ${d}ms on $n replica(s)" >&2
    ;;
  urls|settings)
    [ $# -eq 0 ] || usage
    pid_of primary > /dev/null || { echo "$me: no primary runs in $dir (start it with: $me start $dir)" >&2; exit 1; }
    for r in $(replicas); do pid_of "$r" > /dev/null || { echo "$me: the $r of $dir does not run" >&2; exit 1; }; done
    print_urls
    ;;
  pids)
    [ $# -eq 0 ] || usage
    pid_of primary || { echo "$me: no primary runs in $dir" >&2; exit 1; }
    for r in $(replicas); do pid_of "$r" || { echo "$me: the $r of $dir does not run" >&2; exit 1; }; done
    ;;
  stop)
    [ $# -eq 0 ] || usage
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    # Every replica the directory holds (also those beyond the last start's --replicas), then the primary.
    for r in $(existing_replicas); do stop_one "$r"; done
    stop_one primary
    ;;
  *) usage ;;
esac
