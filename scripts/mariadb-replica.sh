#!/usr/bin/env bash
# A private MariaDB primary and one asynchronous replica (GTID replication, binlog in ROW format), two servers started
# by scripts/mariadb.sh under DIR/primary and DIR/replica: the primary listens on 127.0.0.2, the replica on 127.0.0.3
# (MARIADB_PRIMARY_HOST / MARIADB_REPLICA_HOST change them), each on a free port. Database bg and user bg/bg are
# created on the primary and replicated; the replica is read_only, and bg lacks the privileges to bypass it
# (SUPER, READ_ONLY ADMIN), so a write sent there by mistake fails.
#
#   scripts/mariadb-replica.sh start DIR [--delay N]  start both (initialising them the first time), point the
#                                 replica at the primary and wait until both replication threads run; N is the
#                                 replica's MASTER_DELAY in WHOLE SECONDS (MariaDB has no finer apply delay): an event
#                                 is applied at least N s after it ran on the primary, and since binlog timestamps
#                                 are whole seconds, a write becomes visible on the replica between N-1 and N s later
#                                 (plus the replication lag)
#   scripts/mariadb-replica.sh delay DIR N   change MASTER_DELAY of the running replica (STOP SLAVE;
#                                 CHANGE MASTER TO MASTER_DELAY=N; START SLAVE)
#   scripts/mariadb-replica.sh urls DIR      two lines: mariadb.url=<primary JDBC URL> and
#                                 mariadb.read-urls=<replica JDBC URL>, ready for bg's -p
#   scripts/mariadb-replica.sh pids DIR      the servers' pids: primary, then replica
#   scripts/mariadb-replica.sh stop DIR      stop the replica, then the primary, by pid (scripts/mariadb.sh stop)
#
# Then: ./bg run --store mariadb $(scripts/mariadb-replica.sh urls DIR | sed 's/^/-p /') --load --workload high ...
# Env: as scripts/mariadb.sh (MARIADB_BUFFER_POOL, default 1G per server; MARIADB_BIN).
set -euo pipefail
me=scripts/mariadb-replica.sh
usage() { echo "usage: $me start DIR [--delay N] | delay DIR N | urls DIR | pids DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
single="$here/mariadb.sh"
primary_host="${MARIADB_PRIMARY_HOST:-127.0.0.2}"
replica_host="${MARIADB_REPLICA_HOST:-127.0.0.3}"

seconds() { # seconds N: N (2, 2s, 0) as whole seconds, or a message saying MariaDB's delay is in whole seconds
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
sql() { # sql primary|replica SQL
  "$(client)" --defaults-file="$dir/$1/my.cnf" -uroot -N -B -e "$2"
}
urls() {
  echo "mariadb.url=$(bash "$single" url "$dir/primary")"
  echo "mariadb.read-urls=$(bash "$single" url "$dir/replica")"
}

case "$cmd" in
  start)
    delay=0
    while [ $# -gt 0 ]; do
      case $1 in
        --delay) [ $# -ge 2 ] || usage; delay=$(seconds "$2"); shift 2 ;;
        --delay=*) delay=$(seconds "${1#--delay=}"); shift ;;
        *) usage ;;
      esac
    done
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    MARIADB_BIND=$primary_host MARIADB_EXTRA_CNF="server-id=1
log-bin=$dir/primary/binlog
binlog_format=ROW" bash "$single" start "$dir/primary" > /dev/null
    # bg may do anything but bypass read_only (SUPER, READ_ONLY ADMIN), so the replica refuses its writes.
    sql primary "CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY 'repl';
      GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%'; REVOKE SUPER, READ_ONLY ADMIN ON *.* FROM 'bg'@'%';"
    MARIADB_BIND=$replica_host MARIADB_EXTRA_CNF="server-id=2
read_only=1
relay-log=$dir/replica/relay" bash "$single" start "$dir/replica" > /dev/null
    pport=$(sed -n 's/^port=//p' "$dir/primary/my.cnf" | head -1)
    # The replica's own bg database and user (scripts/mariadb.sh creates them) match the primary's, created with IF
    # NOT EXISTS, so replaying the primary's from its first binlog event changes nothing and fails nothing.
    sql replica "STOP SLAVE; CHANGE MASTER TO MASTER_HOST='$primary_host', MASTER_PORT=$pport, MASTER_USER='repl',
      MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_DELAY=$delay; START SLAVE;"
    for _ in $(seq 1 300); do
      status=$("$(client)" --defaults-file="$dir/replica/my.cnf" -uroot -e "SHOW SLAVE STATUS\\G" 2>/dev/null || true)
      if grep -q 'Slave_IO_Running: Yes' <<< "$status" && grep -q 'Slave_SQL_Running: Yes' <<< "$status"; then
        break
      fi
      sleep 0.1
    done
    if ! grep -q 'Slave_IO_Running: Yes' <<< "$status" || ! grep -q 'Slave_SQL_Running: Yes' <<< "$status"; then
      echo "$me: the replica does not replicate from the primary within 30 s:" >&2
      grep -E 'Running|Last_.*Error' <<< "$status" >&2 || true
      exit 1
    fi
    urls
    ;;
  delay)
    [ $# -eq 1 ] || usage
    d=$(seconds "$1")
    bash "$single" pid "$dir/replica" > /dev/null
    sql replica "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=$d; START SLAVE;"
    echo "$me: MASTER_DELAY = $d s" >&2
    ;;
  urls)
    [ $# -eq 0 ] || usage
    urls
    ;;
  pids)
    [ $# -eq 0 ] || usage
    bash "$single" pid "$dir/primary"
    bash "$single" pid "$dir/replica"
    ;;
  stop)
    [ $# -eq 0 ] || usage
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    rc=0
    if [ -d "$dir/replica" ]; then bash "$single" stop "$dir/replica" || rc=$?; fi
    if [ -d "$dir/primary" ]; then bash "$single" stop "$dir/primary" || rc=$?; fi
    exit $rc
    ;;
  *) usage ;;
esac
