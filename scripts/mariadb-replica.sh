#!/usr/bin/env bash
# A private MariaDB primary and K asynchronous replicas (default 1, or 0; GTID replication, binlog in ROW format),
# servers started by scripts/mariadb.sh under DIR/primary and DIR/replica, DIR/replica2, ...: the primary listens on
# 127.0.0.2, replica I on 127.0.0.(2+I) (MARIADB_PRIMARY_HOST moves the primary, MARIADB_REPLICA_HOST puts every
# replica on that host, MARIADB_REPLICA_HOSTS=H1,H2,... gives replica I the host HI), each on a free port. Database
# bg and user bg/bg are created on the primary and replicated; the replicas are read_only, and bg lacks the privileges
# to bypass it (SUPER, READ_ONLY ADMIN), so a write sent there by mistake fails.
#
#   scripts/mariadb-replica.sh start DIR [--replicas K] [--delay N]
#                                 start the primary and K replicas (initialising them the first time), point each
#                                 replica at the primary and wait until both its replication threads run; N is the
#                                 replicas' MASTER_DELAY in WHOLE SECONDS (MariaDB has no finer apply delay): an event
#                                 is applied at least N s after it ran on the primary, and since binlog timestamps
#                                 are whole seconds, a write becomes visible on a replica between N-1 and N s later
#                                 (plus the replication lag)
#   scripts/mariadb-replica.sh delay DIR N   change MASTER_DELAY of every running replica (STOP SLAVE;
#                                 CHANGE MASTER TO MASTER_DELAY=N; START SLAVE)
#   scripts/mariadb-replica.sh urls DIR      mariadb.url=<primary JDBC URL> and, with K >= 1,
#                                 mariadb.read-urls=<replica 1 URL>,<replica 2 URL>,..., ready for bg's -p
#   scripts/mariadb-replica.sh pids DIR      the servers' pids: primary, then the replicas in order
#   scripts/mariadb-replica.sh stop DIR      stop every replica, then the primary, by pid (scripts/mariadb.sh stop)
#
# Then: ./bg run --store mariadb $(scripts/mariadb-replica.sh urls DIR | sed 's/^/-p /') --load --workload high ...
# Env: as scripts/mariadb.sh (MARIADB_BUFFER_POOL, default 1G per server: K+1 servers; MARIADB_BIN).
set -euo pipefail
me=scripts/mariadb-replica.sh
delay_arg=N
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
single="$here/mariadb.sh"
primary_host="${MARIADB_PRIMARY_HOST:-127.0.0.2}"
replica_hosts_var=MARIADB_REPLICA_HOSTS
replica_host_var=MARIADB_REPLICA_HOST
delay_name=MASTER_DELAY
# shellcheck source=replicas-lib.sh
. "$here/replicas-lib.sh"

parse_delay() { # parse_delay N: N (2, 2s, 0) in whole seconds, or a message that MariaDB wants whole seconds
  local v=$1
  if [[ "$v" =~ ^([0-9]+)s?$ ]]; then echo "${BASH_REMATCH[1]}"; return; fi
  echo "$me: delay: MariaDB's MASTER_DELAY is whole seconds; expected 0, 1, 2s, …, got '$v'" \
    "(PostgreSQL's scripts/postgres-replica.sh takes fractions)" >&2
  exit 2
}
client() {
  local n
  for n in "${MARIADB_BIN:-/usr/sbin}/mariadb" mariadb mysql; do
    if [ -x "$n" ] || command -v "$n" >/dev/null 2>&1; then echo "$n"; return; fi
  done
  echo "$me: the mariadb client not found; install Debian's MariaDB: sudo apt-get install --no-install-recommends" \
    "mariadb-server mariadb-client" >&2
  exit 1
}
sql() { # sql primary|replicaI SQL
  "$(client)" --defaults-file="$dir/$1/my.cnf" -uroot -N -B -e "$2"
}
urls() {
  local r u=""
  echo "mariadb.url=$(bash "$single" url "$dir/primary")"
  for r in $(replicas); do u+="${u:+,}$(bash "$single" url "$dir/$r")"; done
  [ -z "$u" ] || echo "mariadb.read-urls=$u"
}

case "$cmd" in
  start)
    parse_start "$@"
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    echo "$k" > "$dir/replicas"
    MARIADB_BIND=$primary_host MARIADB_EXTRA_CNF="server-id=1
log-bin=$dir/primary/binlog
binlog_format=ROW" bash "$single" start "$dir/primary" > /dev/null
    # bg may do anything but bypass read_only (SUPER, READ_ONLY ADMIN), so the replicas refuse its writes.
    sql primary "CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY 'repl';
      GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'; REVOKE SUPER, READ_ONLY ADMIN ON *.* FROM 'bg'@'%';"
    pport=$(sed -n 's/^port=//p' "$dir/primary/my.cnf" | head -1)
    for ((i = 1; i <= k; i++)); do
      r=$(replica_name "$i")
      MARIADB_BIND=$(replica_host "$i") MARIADB_EXTRA_CNF="server-id=$((i + 1))
read_only=1
relay-log=$dir/$r/relay" bash "$single" start "$dir/$r" > /dev/null
      # The replica's own bg database and user (scripts/mariadb.sh creates them) match the primary's, created with IF
      # NOT EXISTS, so replaying the primary's from its first binlog event changes nothing and fails nothing.
      sql "$r" "STOP SLAVE; CHANGE MASTER TO MASTER_HOST='$primary_host', MASTER_PORT=$pport, MASTER_USER='repl',
        MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_DELAY=$delay; START SLAVE;"
    done
    for ((i = 1; i <= k; i++)); do
      r=$(replica_name "$i")
      status=""
      for _ in $(seq 1 300); do
        status=$("$(client)" --defaults-file="$dir/$r/my.cnf" -uroot -e "SHOW SLAVE STATUS\\G" 2>/dev/null || true)
        if grep -q 'Slave_IO_Running: Yes' <<< "$status" && grep -q 'Slave_SQL_Running: Yes' <<< "$status"; then
          break
        fi
        sleep 0.1
      done
      if ! grep -q 'Slave_IO_Running: Yes' <<< "$status" || ! grep -q 'Slave_SQL_Running: Yes' <<< "$status"; then
        echo "$me: the $r does not replicate from the primary within 30 s:" >&2
        grep -E 'Running|Last_.*Error' <<< "$status" >&2 || true
        exit 1
      fi
    done
    urls
    ;;
  delay)
    [ $# -eq 1 ] || usage
    d=$(parse_delay "$1")
    n=0
    for r in $(replicas); do
      bash "$single" pid "$dir/$r" > /dev/null
      sql "$r" "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=$d; START SLAVE;"
      n=$((n + 1))
    done
    [ $n -gt 0 ] || { echo "$me: no replica in $dir" >&2; exit 1; }
    echo "$me: MASTER_DELAY = $d s on $n replica(s)" >&2
    ;;
  urls|settings)
    [ $# -eq 0 ] || usage
    urls
    ;;
  pids)
    [ $# -eq 0 ] || usage
    bash "$single" pid "$dir/primary"
    for r in $(replicas); do bash "$single" pid "$dir/$r"; done
    ;;
  stop)
    [ $# -eq 0 ] || usage
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    rc=0
    # Every replica the directory holds that runs (also those beyond the last start's --replicas).
    for r in $(existing_replicas); do
      bash "$single" pid "$dir/$r" > /dev/null 2>&1 || continue
      bash "$single" stop "$dir/$r" || rc=$?
    done
    if [ -d "$dir/primary" ]; then bash "$single" stop "$dir/primary" || rc=$?; fi
    exit $rc
    ;;
  *) usage ;;
esac
