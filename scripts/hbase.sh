#!/usr/bin/env bash
# A private standalone Apache HBase 2.6.4-hadoop3: one HMaster JVM with its in-process RegionServer and ZooKeeper
# (hbase.cluster.distributed=false), from Maven Central's org.apache.hbase:hbase-server jars on JDK 17; everything
# under DIR:
#   DIR/lib/          the server jars (copied through Maven from scripts/hbase-server.pom the first time)
#   DIR/conf/         hbase-site.xml and log4j.properties (rewritten at every start)
#   DIR/data/         root dir (file://), tmp dir, ZooKeeper data
#   DIR/server.env    ZooKeeper client port, master and regionserver RPC ports (chosen free at the first start, kept
#                     for restarts) and the lib directory
#   DIR/pid, DIR/out.log (the previous start's log: DIR/out.log.prev)
# Everything listens on 127.0.0.1 only; the web UIs are off.
#
#   scripts/hbase.sh start DIR     start the server, wait until the master has completed its initialization and the
#                                  ZooKeeper client port answers; prints the quorum (127.0.0.1:PORT) as its last line
#   scripts/hbase.sh stop DIR      SIGTERM by pid, SIGKILL after 60 s
#   scripts/hbase.sh status DIR    up, starting or down (exit 1 unless up)
#   scripts/hbase.sh pid DIR       the pid of the running server
#   scripts/hbase.sh quorum DIR    127.0.0.1:PORT (the ZooKeeper client port)
#   scripts/hbase.sh settings DIR  key=value lines for bg's -p: hbase.zookeeper.quorum, hbase.zookeeper.port and
#                                  hbase.server-dir
#   scripts/hbase.sh wipe DIR      stop, then delete the data (data/, server.env, pid, logs); keeps lib and conf
#   scripts/hbase.sh fetch [LIB]   only copy the server jars into LIB (default: HBASE_LIB, else
#                                  ~/.cache/bg/hbase-2.6.4-hadoop3/lib), e.g. once before the tests
#
# Env: HBASE_HEAP (default 1g), HBASE_HANDLERS (hbase.regionserver.handler.count, default 30), HBASE_JAVA_HOME (a JDK
#      17 or 11; default: the first JDK 17 under /usr/lib/jvm), HBASE_LIB (a directory of server jars to use instead of
#      DIR/lib; when set but empty or missing, the jars are copied into it through Maven under a lock, so test JVMs
#      sharing ~/.cache/bg/hbase-2.6.4-hadoop3/lib copy them once), HBASE_START_TIMEOUT (s, default 180).
set -euo pipefail
me=scripts/hbase.sh
root=$(cd "$(dirname "$0")/.." && pwd)
version=2.6.4-hadoop3
. "$root/scripts/jdk.sh"
. "$root/scripts/server-jars.sh"
usage() {
  echo "usage: $me start|stop|status|pid|quorum|settings|wipe DIR   or   $me fetch [LIBDIR]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
  fetch) [ $# -le 1 ] || usage ;;
  start|stop|status|pid|quorum|settings|wipe) [ $# -eq 1 ] && [ -n "$1" ] || usage; dir=$1 ;;
  *) usage ;;
esac

# --- settings --------------------------------------------------------------------------------------------------------
settings() { # validates the HBASE_* settings of a start; sets heap, handlers, timeout
  heap=${HBASE_HEAP:-1g}
  [[ "$heap" =~ ^[1-9][0-9]*[mMgG]$ ]] || { echo "$me: HBASE_HEAP must be a size such as 1g or 768m, not '$heap'" >&2
    exit 2; }
  handlers=${HBASE_HANDLERS:-30}
  [[ "$handlers" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "$me: HBASE_HANDLERS must be a number from 1 to 9999, not" \
    "'$handlers'" >&2; exit 2; }
  timeout=${HBASE_START_TIMEOUT:-180}
  [[ "$timeout" =~ ^[1-9][0-9]*$ ]] || { echo "$me: HBASE_START_TIMEOUT must be a number of seconds, not" \
    "'$timeout'" >&2; exit 2; }
}

# --- helpers ---------------------------------------------------------------------------------------------------------
find_java() { # prints the home of the JDK 17 (or 11) the server runs on
  local v
  if [ -n "${HBASE_JAVA_HOME:-}" ]; then
    v=$(bg_java_major "$HBASE_JAVA_HOME")
    if [ "$v" = 17 ] || [ "$v" = 11 ]; then echo "$HBASE_JAVA_HOME"; return 0; fi
    echo "$me: HBASE_JAVA_HOME=$HBASE_JAVA_HOME is not a JDK 17 or 11 (HBase $version runs on those, not on 21+)" >&2
    return 1
  fi
  bg_find_jdk17 && return 0
  echo "$me: HBase $version needs JDK 17 (or 11); none found under /usr/lib/jvm. Install one (apt-get install" \
    "openjdk-17-jdk-headless, or run scripts/test-deps.sh as root) or set HBASE_JAVA_HOME." >&2
  return 1
}
default_lib() { echo "${HBASE_LIB:-$HOME/.cache/bg/hbase-$version/lib}"; }
server_var() { sed -n "s/^$1=//p" "$dir/server.env" 2>/dev/null | head -1; }
lib_dir() { # HBASE_LIB, else the lib remembered in DIR/server.env at the first start, else DIR/lib
  local l
  l=$(server_var lib)
  echo "${HBASE_LIB:-${l:-$dir/lib}}"
}
ensure_lib() { # ensure_lib LIB
  bg_server_jars "$me" "$1" scripts/hbase-server.pom "hbase-server-$version.jar" "HBase $version" HBASE_LIB
}
running_pid() { # the pid of DIR's server if it runs (and is ours: its command line names DIR)
  local p
  [ -f "$dir/pid" ] || return 1
  p=$(cat "$dir/pid" 2>/dev/null) || return 1
  [[ "$p" =~ ^[0-9]+$ ]] && kill -0 "$p" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "-Dhbase.home.dir=$dir " || return 1
  echo "$p"
}
tcp_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ready_in_log() { grep -q 'Master has completed initialization' "$dir/out.log" 2>/dev/null; }
free_ports() { # free_ports K: K distinct ports free on 127.0.0.1
  python3 - "$1" <<'PY'
import socket, sys
held = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); held.append(s)
print(" ".join(str(s.getsockname()[1]) for s in held))
for s in held: s.close()
PY
}
port_free() { # port_free PORT: nobody listens on 127.0.0.1:PORT (nor on the wildcard address)
  # SO_REUSEADDR as the JVM's server sockets: connections of a stopped server in TIME_WAIT do not make a port taken.
  python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.close()' "$1" 2>/dev/null
}
prop() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }
write_conf() {
  mkdir -p "$dir/conf" "$dir/data"
  {
    echo "<?xml version=\"1.0\"?>"
    echo "<!-- Written by $me; rewritten at every start. -->"
    echo "<configuration>"
    prop hbase.cluster.distributed false
    prop hbase.rootdir "file://$dir/data/root"
    prop hbase.tmp.dir "$dir/data/tmp"
    prop hbase.zookeeper.property.dataDir "$dir/data/zk"
    prop hbase.zookeeper.quorum 127.0.0.1
    prop hbase.zookeeper.property.clientPort "$(server_var zk_port)"
    prop hbase.master.port "$(server_var master_port)"
    prop hbase.regionserver.port "$(server_var rs_port)"
    prop hbase.localcluster.assign.random.ports false
    prop hbase.master.info.port -1
    prop hbase.regionserver.info.port -1
    prop hbase.master.hostname 127.0.0.1
    prop hbase.regionserver.hostname 127.0.0.1
    prop hbase.master.ipc.address 127.0.0.1
    prop hbase.regionserver.ipc.address 127.0.0.1
    # The local file system has no hflush/hsync capability HBase would check for the WAL.
    prop hbase.unsafe.stream.capability.enforce false
    prop hbase.regionserver.handler.count "$handlers"
    # There is exactly one RegionServer: assign regions as soon as it checks in, instead of waiting
    # hbase.master.wait.on.regionservers.timeout (4.5 s) for more.
    prop hbase.master.wait.on.regionservers.mintostart 1
    prop hbase.master.wait.on.regionservers.maxtostart 1
    prop hbase.snapshot.enabled true
    prop zookeeper.recovery.retry 1
    prop zookeeper.recovery.retry.intervalmill 200
    echo "</configuration>"
  } > "$dir/conf/hbase-site.xml"
  cat > "$dir/conf/log4j.properties" <<'PROPS'
# reload4j; HBase's own classes live under org.apache.hadoop.hbase (INFO, so the readiness line shows).
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.out
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.org.apache.hadoop=WARN
log4j.logger.org.apache.hadoop.hbase=INFO
PROPS
}
start_server() { # launch the JVM (does not wait)
  local java
  java=$(find_java)/bin/java
  [ -f "$dir/out.log" ] && mv -f "$dir/out.log" "$dir/out.log.prev"
  # Created here: the background child opens its redirection only when it runs, and wait_ready may read it first.
  : > "$dir/out.log"
  nohup "$java" -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.net.preferIPv4Stack=true \
    -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true \
    -Dzookeeper.admin.enableServer=false \
    --add-modules jdk.unsupported \
    --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED \
    --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
    --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED \
    --add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED \
    -Dhbase.home.dir="$dir" -Dhbase.log.dir="$dir/data" -Dlog4j.configuration="file:$dir/conf/log4j.properties" \
    -cp "$dir/conf:$(lib_dir)/*" org.apache.hadoop.hbase.master.HMaster start > "$dir/out.log" 2>&1 < /dev/null &
  echo $! > "$dir/pid"
}
kill_server() { # kill_server PID SECONDS: SIGTERM, then SIGKILL after SECONDS
  local p=$1 i
  kill -TERM "$p" 2>/dev/null || true
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$p" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "$me: the HBase server (pid $p) did not stop within $2 s; killing it" >&2
  kill -KILL "$p" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
}
fail_start() { # fail_start PID MESSAGE: kill the server just started, show the end of its log, exit 1
  kill -KILL "$1" 2>/dev/null || true
  rm -f "$dir/pid"
  echo "$me: $2; the end of $dir/out.log:" >&2
  tail -30 "$dir/out.log" >&2 || true
  exit 1
}
wait_ready() { # until the master has initialized and the ZooKeeper client port answers
  local p zk i zk_logged
  p=$(cat "$dir/pid"); zk=$(server_var zk_port)
  for ((i = 0; i < timeout * 2; i++)); do
    if ! kill -0 "$p" 2>/dev/null; then
      rm -f "$dir/pid"
      echo "$me: the HBase server exited at start; the end of $dir/out.log:" >&2
      tail -30 "$dir/out.log" >&2 || true
      exit 1
    fi
    # In local mode the master's MiniZooKeeperCluster moves to the next port when the configured one is taken:
    # clients of the configured port would then find nobody (or someone else).
    zk_logged=$(sed -n "s/.*Started MiniZooKeeperCluster and ran 'stat' on client port=\([0-9]*\).*/\1/p" \
      "$dir/out.log" 2>/dev/null | head -1 || true)
    if [ -n "$zk_logged" ] && [ "$zk_logged" != "$zk" ]; then
      fail_start "$p" "ZooKeeper started on port $zk_logged, not on the configured $zk (taken by another program?)"
    fi
    if ready_in_log && [ "$zk_logged" = "$zk" ] && tcp_answers "$zk"; then return 0; fi
    sleep 0.5
  done
  fail_start "$p" "the HBase server was not ready within $timeout s (HBASE_START_TIMEOUT); killed it"
}
stop_server() {
  local p
  p=$(running_pid) || { rm -f "$dir/pid"; echo "$me: no HBase server runs in $dir" >&2; return 0; }
  kill_server "$p" 60
  rm -f "$dir/pid"
}

# --- commands --------------------------------------------------------------------------------------------------------
case "$cmd" in
  fetch)
    lib=${1:-$(default_lib)}
    ensure_lib "$lib"
    echo "$lib"
    ;;
  start)
    settings
    find_java >/dev/null || exit 1
    command -v python3 >/dev/null || { echo "$me: python3 not found (used to find free ports)" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if p=$(running_pid); then
      echo "$me: an HBase server already runs in $dir (pid $p); stop it first ($me stop $dir)" >&2; exit 1
    fi
    lib=$(lib_dir)
    ensure_lib "$lib"
    if [ ! -f "$dir/server.env" ]; then
      read -r -a ports <<< "$(free_ports 3)"
      printf 'zk_port=%d\nmaster_port=%d\nrs_port=%d\nlib=%s\n' "${ports[@]}" "$(cd "$lib" && pwd)" \
        > "$dir/server.env"
    fi
    for name in zk_port master_port rs_port; do
      port=$(server_var $name)
      port_free "$port" || { echo "$me: port $port on 127.0.0.1 ($name in $dir/server.env) is taken by another" \
        "program; stop it, or wipe $dir to choose new ports" >&2; exit 1; }
    done
    write_conf
    t0=$SECONDS
    start_server
    wait_ready
    echo "$me: HBase $version ready in $((SECONDS - t0)) s (pid $(cat "$dir/pid"), ZooKeeper $(server_var zk_port)," \
      "master $(server_var master_port), regionserver $(server_var rs_port))" >&2
    echo "127.0.0.1:$(server_var zk_port)"
    ;;
  stop)
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    stop_server
    ;;
  status)
    [ -f "$dir/server.env" ] || { echo "$me: no HBase server in $dir (start it with: $me start $dir)" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    if p=$(running_pid); then
      if ready_in_log && tcp_answers "$(server_var zk_port)"; then s=up; else s=starting; fi
    else p=-; s=down; fi
    echo "127.0.0.1:$(server_var zk_port) master $(server_var master_port) regionserver $(server_var rs_port) pid $p $s"
    [ "$s" = up ]
    ;;
  pid)
    [ -d "$dir" ] && dir=$(cd "$dir" && pwd)
    running_pid || { echo "$me: no HBase server runs in $dir" >&2; exit 1; }
    ;;
  quorum)
    [ -f "$dir/server.env" ] || { echo "$me: no HBase server in $dir (start it with: $me start $dir)" >&2; exit 1; }
    echo "127.0.0.1:$(server_var zk_port)"
    ;;
  settings)
    [ -f "$dir/server.env" ] || { echo "$me: no HBase server in $dir (start it with: $me start $dir)" >&2; exit 1; }
    echo "hbase.zookeeper.quorum=127.0.0.1"
    echo "hbase.zookeeper.port=$(server_var zk_port)"
    echo "hbase.server-dir=$(cd "$dir" && pwd)"
    ;;
  wipe)
    [ -d "$dir" ] || exit 0
    dir=$(cd "$dir" && pwd)
    stop_server 2>/dev/null
    rm -rf "$dir/data" "$dir/server.env" "$dir/pid" "$dir/out.log" "$dir/out.log.prev"
    ;;
esac
