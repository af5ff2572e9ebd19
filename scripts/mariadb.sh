#!/usr/bin/env bash
# A private MariaDB server from Debian's mariadb-server binaries (never the system service), everything under DIR:
# data directory, socket, pid file, error log, my.cnf; a free loopback port chosen at start.
#
#   scripts/mariadb.sh start DIR   initialise DIR (first time), start the server, wait until it answers a ping;
#                                  creates database bg and user bg/bg; prints the JDBC URL
#   scripts/mariadb.sh stop DIR    stop the server by its pid (SIGTERM, then SIGKILL after 30 s)
#   scripts/mariadb.sh url DIR     the JDBC URL of a running server (jdbc:mariadb://127.0.0.1:PORT/bg)
#   scripts/mariadb.sh pid DIR     the server's pid
#   scripts/mariadb.sh settings DIR  key=value lines for bg's -p: mariadb.url, mariadb.user and mariadb.password
#
# Then: ./bg load --store mariadb -p mariadb.url=$(scripts/mariadb.sh url DIR) -p mariadb.user=bg -p mariadb.password=bg
# Env: MARIADB_BUFFER_POOL (default 1G), MARIADB_PORT (default: a free port), MARIADB_BIN (default /usr/sbin),
#      MARIADB_BIND (the loopback address to listen on, default 127.0.0.1), MARIADB_EXTRA_CNF (lines added to the
#      [mariadbd] section, e.g. server-id and log-bin: scripts/mariadb-replica.sh uses both).
set -euo pipefail
me=scripts/mariadb.sh
usage() { echo "usage: $me start|stop|url|pid|settings DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
bin="${MARIADB_BIN:-/usr/sbin}"

find_tool() { # find_tool NAME...: the first of the names found in PATH or next to mariadbd
  local n
  for n in "$@"; do
    if [ -x "$bin/$n" ]; then echo "$bin/$n"; return 0; fi
    if command -v "$n" >/dev/null 2>&1; then command -v "$n"; return 0; fi
  done
  return 1
}
need() {
  echo "$me: $1 not found; install Debian's MariaDB: sudo apt-get install --no-install-recommends mariadb-server" \
    "mariadb-client (scripts/test-deps.sh does it as root)" >&2
  exit 1
}
running_pid() { # the pid of the server of DIR if it runs
  local p
  [ -f "$dir/mysqld.pid" ] || return 1
  p=$(cat "$dir/mysqld.pid" 2>/dev/null) || return 1
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}
port_of() { sed -n 's/^port=//p' "$dir/my.cnf" | head -1; }
bind_of() { sed -n 's/^bind-address=//p' "$dir/my.cnf" | head -1; }
url() { echo "jdbc:mariadb://$(bind_of):$(port_of)/bg"; }
free_port() {
  if [ -n "${MARIADB_PORT:-}" ]; then echo "$MARIADB_PORT"; return; fi
  python3 -c 'import socket,sys; s=socket.socket(); s.bind((sys.argv[1],0)); print(s.getsockname()[1]); s.close()' \
    "${MARIADB_BIND:-127.0.0.1}" 2>/dev/null \
    || echo $(( 20000 + RANDOM % 20000 ))
}

case "$cmd" in
  start)
    mariadbd=$(find_tool mariadbd mysqld) || need "mariadbd"
    install_db=$(find_tool mariadb-install-db mysql_install_db) || need "mariadb-install-db"
    admin=$(find_tool mariadb-admin mysqladmin) || need "mariadb-admin"
    client=$(find_tool mariadb mysql) || need "the mariadb client"
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if p=$(running_pid); then echo "$me: a server already runs in $dir (pid $p)" >&2; url; exit 0; fi
    # The socket path must fit in sun_path (108 bytes).
    sock="$dir/mysqld.sock"
    [ ${#sock} -lt 100 ] || { echo "$me: path $dir too long for a socket; use a shorter DIR" >&2; exit 1; }
    port=$(free_port)
    cat > "$dir/my.cnf" <<CNF
[mariadbd]
datadir=$dir/data
socket=$sock
port=$port
bind-address=${MARIADB_BIND:-127.0.0.1}
pid-file=$dir/mysqld.pid
log-error=$dir/error.log
$( [ "$(id -u)" -eq 0 ] && echo "user=root" )
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_bin
max_connections=400
local_infile=1
innodb_buffer_pool_size=${MARIADB_BUFFER_POOL:-1G}
innodb_log_file_size=512M
innodb_log_buffer_size=64M
# A throwaway benchmark server, reloaded when lost (as the embedded PostgreSQL runs with fsync off): commits need
# not reach the disk.
innodb_flush_log_at_trx_commit=0
innodb_doublewrite=0
${MARIADB_EXTRA_CNF:-}
[client]
socket=$sock
port=$port
CNF
    if [ ! -d "$dir/data/mysql" ]; then
      "$install_db" --defaults-file="$dir/my.cnf" --auth-root-authentication-method=normal --skip-test-db \
        > "$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; echo "$me: mariadb-install-db failed" >&2; exit 1; }
      fresh=1
    fi
    nohup "$mariadbd" --defaults-file="$dir/my.cnf" > "$dir/out.log" 2>&1 < /dev/null &
    child=$!
    for _ in $(seq 1 600); do
      if "$admin" --defaults-file="$dir/my.cnf" -uroot ping >/dev/null 2>&1; then break; fi
      if ! kill -0 "$child" 2>/dev/null; then
        echo "$me: mariadbd exited at start; its log:" >&2; tail -20 "$dir/error.log" >&2 || true; exit 1
      fi
      sleep 0.1
    done
    "$admin" --defaults-file="$dir/my.cnf" -uroot ping >/dev/null 2>&1 \
      || { echo "$me: mariadbd did not answer within 60 s; see $dir/error.log" >&2; exit 1; }
    if [ -n "${fresh:-}" ]; then
      "$client" --defaults-file="$dir/my.cnf" -uroot -e "CREATE DATABASE IF NOT EXISTS bg;
        CREATE USER IF NOT EXISTS 'bg'@'%' IDENTIFIED BY 'bg'; GRANT ALL ON *.* TO 'bg'@'%';"
    fi
    url
    ;;
  stop)
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    p=$(running_pid) || { echo "$me: no server runs in $dir" >&2; exit 0; }
    kill -TERM "$p"
    for _ in $(seq 1 300); do kill -0 "$p" 2>/dev/null || exit 0; sleep 0.1; done
    echo "$me: server $p did not stop within 30 s; killing it" >&2
    kill -KILL "$p" 2>/dev/null || true
    ;;
  url)
    running_pid >/dev/null || { echo "$me: no server runs in $dir (start it with: $me start $dir)" >&2; exit 1; }
    url
    ;;
  pid)
    running_pid || { echo "$me: no server runs in $dir" >&2; exit 1; }
    ;;
  settings)
    running_pid >/dev/null || { echo "$me: no server runs in $dir (start it with: $me start $dir)" >&2; exit 1; }
    echo "mariadb.url=$(url)"
    echo "mariadb.user=bg"
    echo "mariadb.password=bg"
    ;;
  *) usage ;;
esac
