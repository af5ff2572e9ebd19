#!/usr/bin/env bash
# Private Apache Cassandra servers: one node, or N nodes on 127.0.0.1..127.0.0.N (one JVM per node), from
# Maven Central's org.apache.cassandra:cassandra-all jars on JDK 17; everything under DIR:
#   DIR/lib/          the server jars (copied through Maven from scripts/cassandra-server.pom the first time)
#   DIR/conf/         logback.xml and cassandra-rackdc.properties (on the classpath)
#   DIR/cluster.env   nodes, storage and CQL ports (chosen free at the first start, kept for restarts)
#   DIR/nodes/nI/     node I: cassandra.yaml, node.env (address, JMX port), pid, out.log, data, commitlog, hints, ...
#
#   scripts/cassandra.sh start DIR [--nodes N]  start the node(s) (first boot: one at a time), wait until every CQL port
#                                               answers (and, for N > 1, nodetool shows all nodes UN); prints the
#                                               contact points (127.0.0.1:PORT,127.0.0.2:PORT,...)
#   scripts/cassandra.sh stop DIR               stop every node by its pid (SIGTERM, then SIGKILL after 60 s)
#   scripts/cassandra.sh status DIR             one line per node (address, CQL port, pid, up/starting/frozen/down);
#                                               exit 1 if one is not up
#   scripts/cassandra.sh pid DIR                the pids of the running nodes, one a line
#   scripts/cassandra.sh contact DIR            the contact points
#   scripts/cassandra.sh add DIR [--count K]    grow the running cluster by K nodes (default 1), one at a time: node
#                                               N+1 on 127.0.0.(N+1) with the cluster's storage and CQL ports, its own
#                                               JMX port, seed node 1, auto_bootstrap (it streams its token ranges);
#                                               returns when another node's nodetool status shows it UN, else kills it,
#                                               moves its directory to DIR/failed-nI-TIME and exits 1 (bounded by
#                                               CASSANDRA_START_TIMEOUT per node); prints the new contact points.
#                                               cluster.env's node count follows, so stop/start/status/wipe cover it
#   scripts/cassandra.sh settings DIR           key=value lines for bg's -p: cassandra.contact-points,
#                                               cassandra.datacenter and cassandra.server-dir
#   scripts/cassandra.sh settled DIR            exit 0 when every node runs, nodetool status shows all UN, and every
#                                               node's nodetool netstats says Mode: NORMAL and no streams; else exit 1
#                                               and one line saying why (one nodetool JVM per node, side by side)
#   scripts/cassandra.sh nodetool DIR [--node I] ARGS...
#                                               nodetool against node I (default 1; e.g. status, snapshot)
#   scripts/cassandra.sh node-pid DIR I         the pid of node I (1-based), if it runs
#   scripts/cassandra.sh freeze DIR I           SIGSTOP node I: the process stays, but answers nothing (its kernel
#                                               still accepts TCP connections); the others mark it DN after ~10-20 s
#   scripts/cassandra.sh thaw DIR I             SIGCONT node I
#   scripts/cassandra.sh down DIR I             wait (at most 90 s) until nodetool status on another running node
#                                               shows node I as DN
#   scripts/cassandra.sh up DIR I               wait (at most 90 s) until nodetool status on another running node
#                                               shows node I as UN
#   scripts/cassandra.sh wipe DIR               stop, then delete the nodes' data (DIR/nodes, DIR/cluster.env); keeps lib
#
# The local datacenter is datacenter1 (GossipingPropertyFileSnitch, rack1).
# Env: CASSANDRA_HEAP (default 1g for one node, 768m per node for N > 1), CASSANDRA_JAVA_HOME (a JDK 11 or 17; default:
#      the first JDK 17 under /usr/lib/jvm), CASSANDRA_LIB (a directory of server jars to use instead of DIR/lib),
#      CASSANDRA_RING_DELAY_MS (default 1000 for one node, 5000 for N > 1), CASSANDRA_START_TIMEOUT (s per node, 300),
#      CASSANDRA_SCHEMA_FLUSH (true|false, default true; false skips flushing the system and schema tables to disk at
#      every schema change, so CREATE/DROP/TRUNCATE return sooner; the commit log still holds them: for throwaway
#      test nodes).
#      When CASSANDRA_LIB is set but holds no server jars (missing or empty), they are copied into it through Maven
#      (under a lock, so test JVMs sharing a cache such as ~/.cache/bg/cassandra-5.0.9/lib copy them once).
# Settings written into every node's cassandra.yaml at each start (so a restart applies them too):
#      CASSANDRA_HINTED_HANDOFF  true|false -> hinted_handoff_enabled (default true)
#      CASSANDRA_SNITCH          a snitch class -> endpoint_snitch (default GossipingPropertyFileSnitch)
#      CASSANDRA_DYNAMIC_SNITCH  true|false -> dynamic_snitch (default true)
#      CASSANDRA_PHI             a number -> phi_convict_threshold (default 8; lower marks a silent node DN sooner)
# auto_snapshot is always false (see write_yaml).
set -euo pipefail
me=scripts/cassandra.sh
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/jdk.sh"
. "$root/scripts/server-jars.sh"
usage() {
  echo "usage: $me start|stop|status|pid|contact|settings|settled|wipe DIR [--nodes N]   or   $me add DIR [--count K]" \
    "  or   $me nodetool DIR [--node I] ARGS...   or   $me node-pid|freeze|thaw|down|up DIR I" >&2
  exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2
nodes_arg=""
node_arg=""
count_arg=""
case "$cmd" in
  nodetool)
    case "${1:-}" in
      --node) [ $# -ge 2 ] || usage; node_arg=$2; shift 2 ;;
      --node=*) node_arg=${1#--node=}; shift ;;
    esac
    ;;
  node-pid|freeze|thaw|down|up)
    [ $# -eq 1 ] || usage
    node_arg=$1
    [ -n "$node_arg" ] || usage
    shift
    ;;
esac
if [ -n "$node_arg" ] && ! [[ "$node_arg" =~ ^[1-9][0-9]?$ ]]; then
  echo "$me: the node number I is a number from 1 to 99, not '$node_arg'" >&2; exit 2
fi
if [ "$cmd" != nodetool ]; then
  while [ $# -gt 0 ]; do
    case "$1" in
      --nodes) [ $# -ge 2 ] || usage; nodes_arg=$2; shift 2 ;;
      --nodes=*) nodes_arg=${1#--nodes=}; shift ;;
      --count) [ "$cmd" = add ] && [ $# -ge 2 ] || usage; count_arg=$2; shift 2 ;;
      --count=*) [ "$cmd" = add ] || usage; count_arg=${1#--count=}; shift ;;
      *) usage ;;
    esac
  done
  if [ -n "$nodes_arg" ]; then
    [[ "$nodes_arg" =~ ^[1-9][0-9]?$ ]] || { echo "$me: --nodes wants a number from 1 to 99, not '$nodes_arg'" >&2; exit 2; }
  fi
fi
if [ -n "$count_arg" ]; then
  [[ "$count_arg" =~ ^[1-9][0-9]?$ ]] || { echo "$me: --count wants a number from 1 to 99, not '$count_arg'" >&2; exit 2; }
fi

# --- helpers ---------------------------------------------------------------------------------------------------------
find_java17() { # prints the home of a JDK 17 (or 11), which Cassandra 5.0 needs
  local v
  if [ -n "${CASSANDRA_JAVA_HOME:-}" ]; then
    v=$(bg_java_major "$CASSANDRA_JAVA_HOME")
    if [ "$v" = 17 ] || [ "$v" = 11 ]; then echo "$CASSANDRA_JAVA_HOME"; return 0; fi
    echo "$me: CASSANDRA_JAVA_HOME=$CASSANDRA_JAVA_HOME is not a JDK 17 or 11 (Cassandra 5.0 runs on those only)" >&2
    return 1
  fi
  bg_find_jdk17 && return 0
  echo "$me: Cassandra 5.0 needs JDK 17 (or 11); none found under /usr/lib/jvm. Install one (apt-get install" \
    "openjdk-17-jdk-headless, or run scripts/test-deps.sh as root) or set CASSANDRA_JAVA_HOME." >&2
  return 1
}
lib_dir() { # CASSANDRA_LIB, else the lib remembered in DIR/cluster.env at the first start, else DIR/lib
  local l
  l=$(cluster_var lib)
  echo "${CASSANDRA_LIB:-${l:-$dir/lib}}"
}
ensure_lib() { # the server jars, through Maven (no other download)
  bg_server_jars "$me" "$(lib_dir)" scripts/cassandra-server.pom 'cassandra-all-*.jar' "Cassandra" CASSANDRA_LIB
}
node_dirs() { ls -d "$dir"/nodes/n* 2>/dev/null | sort -V || true; }
node_var() { sed -n "s/^$2=//p" "$1/node.env" 2>/dev/null | head -1; }
cluster_var() { sed -n "s/^$1=//p" "$dir/cluster.env" 2>/dev/null | head -1; }
node_dir() { # node_dir I: the directory of node I of DIR, or exit with a message
  [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
  [ -d "$dir/nodes/n$1" ] || { echo "$me: $dir has no node $1 (it has $(cluster_var nodes))" >&2; exit 1; }
  (cd "$dir/nodes/n$1" && pwd)
}
proc_state() { # proc_state PID: R, S, T (stopped), ... from /proc, or nothing
  awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null || true
}
running_pid() { # running_pid NODEDIR: the pid of that node if it runs
  local p
  [ -f "$1/pid" ] || return 1
  p=$(cat "$1/pid" 2>/dev/null) || return 1
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null && echo "$p"
}
contact() {
  local n cps="" port
  port=$(cluster_var cql_port)
  for n in $(node_dirs); do cps="$cps${cps:+,}$(node_var "$n" addr):$port"; done
  echo "$cps"
}
cql_answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
free_ports() { # free_ports K ADDR...: K distinct ports, each free on all the addresses
  python3 - "$@" <<'PY'
import socket, sys
k, addrs = int(sys.argv[1]), sys.argv[2:]
held, ports = [], []
while len(ports) < k:
    s = socket.socket(); s.bind((addrs[0], 0)); p = s.getsockname()[1]; mine = [s]
    try:
        for a in addrs[1:]:
            t = socket.socket(); t.bind((a, p)); mine.append(t)
    except OSError:
        for t in mine: t.close()
        continue
    held += mine; ports.append(p)
for s in held: s.close()
print(" ".join(map(str, ports)))
PY
}
port_free_on() { # port_free_on PORT ADDR
  # SO_REUSEADDR as the JVM's server sockets: connections of a stopped node in TIME_WAIT do not make a port taken.
  python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[2], int(sys.argv[1]))); s.close()' "$1" "$2" 2>/dev/null
}
java_opts() { # the JVM options of Cassandra's conf/jvm17-server.options that matter, plus ours
  cat <<OPTS
-Xss256k -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxGCPauseMillis=300
-XX:+ExitOnOutOfMemoryError
-Djava.net.preferIPv4Stack=true -Djdk.attach.allowAttachSelf=true -Dio.netty.tryReflectionSetAccessible=true
--add-exports java.base/jdk.internal.misc=ALL-UNNAMED
--add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
--add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
--add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
--add-exports java.sql/java.sql=ALL-UNNAMED
--add-exports java.base/java.lang.ref=ALL-UNNAMED
--add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
--add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
--add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
--add-opens java.base/java.lang.module=ALL-UNNAMED
--add-opens java.base/jdk.internal.loader=ALL-UNNAMED
--add-opens java.base/jdk.internal.ref=ALL-UNNAMED
--add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
--add-opens java.base/jdk.internal.math=ALL-UNNAMED
--add-opens java.base/jdk.internal.module=ALL-UNNAMED
--add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
--add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
--add-opens java.base/sun.nio.ch=ALL-UNNAMED
--add-opens java.base/java.io=ALL-UNNAMED
--add-opens java.base/java.nio=ALL-UNNAMED
--add-opens java.base/java.lang.reflect=ALL-UNNAMED
--add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
--add-opens java.base/java.lang=ALL-UNNAMED
--add-opens java.base/java.util=ALL-UNNAMED
OPTS
}
nodetool() { # nodetool JMXPORT ARGS...
  local port=$1 java
  shift
  java=$(find_java17)/bin/java
  # shellcheck disable=SC2046
  "$java" -Xmx128m $(java_opts | grep -- '^--add') -Dcassandra.logdir="$dir" \
    -cp "$dir/conf:$(lib_dir)/*" org.apache.cassandra.tools.NodeTool -h 127.0.0.1 -p "$port" "$@"
}
write_conf() {
  mkdir -p "$dir/conf"
  cat > "$dir/conf/logback.xml" <<'XML'
<configuration scan="false">
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="STDOUT"/></root>
</configuration>
XML
  printf 'dc=datacenter1\nrack=rack1\nprefer_local=true\n' > "$dir/conf/cassandra-rackdc.properties"
}
settings() { # validates the CASSANDRA_* settings written into cassandra.yaml; sets the variables write_yaml uses
  hinted_handoff=${CASSANDRA_HINTED_HANDOFF:-true}
  [[ "$hinted_handoff" =~ ^(true|false)$ ]] || { echo "$me: CASSANDRA_HINTED_HANDOFF must be true or false, not" \
    "'$hinted_handoff'" >&2; exit 2; }
  dynamic_snitch=${CASSANDRA_DYNAMIC_SNITCH:-true}
  [[ "$dynamic_snitch" =~ ^(true|false)$ ]] || { echo "$me: CASSANDRA_DYNAMIC_SNITCH must be true or false, not" \
    "'$dynamic_snitch'" >&2; exit 2; }
  snitch=${CASSANDRA_SNITCH:-GossipingPropertyFileSnitch}
  [[ "$snitch" =~ ^[A-Za-z_][A-Za-z0-9_.]*$ ]] || { echo "$me: CASSANDRA_SNITCH must be a snitch class name (e.g." \
    "GossipingPropertyFileSnitch, SimpleSnitch), not '$snitch'" >&2; exit 2; }
  schema_flush=${CASSANDRA_SCHEMA_FLUSH:-true}
  [[ "$schema_flush" =~ ^(true|false)$ ]] || { echo "$me: CASSANDRA_SCHEMA_FLUSH must be true or false, not" \
    "'$schema_flush'" >&2; exit 2; }
  phi=${CASSANDRA_PHI:-8}
  [[ "$phi" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "$me: CASSANDRA_PHI must be a positive number (phi_convict_threshold," \
    "default 8), not '$phi'" >&2; exit 2; }
  awk -v p="$phi" 'BEGIN { exit !(p > 0) }' || { echo "$me: CASSANDRA_PHI must be a positive number, not '$phi'" >&2
    exit 2; }
}
write_yaml() { # write_yaml NODEDIR ADDR NODES
  local n=$1 addr=$2 count=$3 rf
  rf=$(( count < 3 ? count : 3 ))
  cat > "$n/cassandra.yaml" <<YAML
# Written by $me; rewritten at every start.
cluster_name: bg
num_tokens: 16
allocate_tokens_for_local_replication_factor: $rf
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: $snitch
dynamic_snitch: $dynamic_snitch
hinted_handoff_enabled: $hinted_handoff
phi_convict_threshold: $phi
# BG truncates and drops tables often; with auto_snapshot (Cassandra's default) every TRUNCATE/DROP first snapshots
# the table (hard links plus a flush), which costs time and keeps the old data on disk.
auto_snapshot: false
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:$(cluster_var storage_port)"
listen_address: $addr
rpc_address: $addr
storage_port: $(cluster_var storage_port)
native_transport_port: $(cluster_var cql_port)
start_native_transport: true
commitlog_sync: periodic
commitlog_sync_period: 10000ms
concurrent_compactors: 1
data_file_directories: [$n/data]
commitlog_directory: $n/commitlog
saved_caches_directory: $n/saved_caches
hints_directory: $n/hints
cdc_raw_directory: $n/cdc_raw
YAML
}
start_node() { # start_node NODEDIR NODES: launch the JVM (does not wait)
  local n=$1 count=$2 heap ring jamm java
  heap=${CASSANDRA_HEAP:-$([ "$count" -gt 1 ] && echo 768m || echo 1g)}
  ring=${CASSANDRA_RING_DELAY_MS:-$([ "$count" -gt 1 ] && echo 5000 || echo 1000)}
  jamm=$(ls "$(lib_dir)"/jamm-*.jar | head -1)
  java=$(find_java17)/bin/java
  write_yaml "$n" "$(node_var "$n" addr)" "$count"
  local unflushed=()
  if [ "${schema_flush:-true}" = false ]; then
    unflushed=(-Dcassandra.unsafesystem=true -Dcassandra.test.flush_local_schema_changes=false)
  fi
  # shellcheck disable=SC2046
  nohup "$java" -Xms"$heap" -Xmx"$heap" $(java_opts) "${unflushed[@]}" -javaagent:"$jamm" \
    -Dcassandra.config="file://$n/cassandra.yaml" -Dcassandra.storagedir="$n" -Dcassandra.logdir="$n" \
    -Dlogback.configurationFile="$dir/conf/logback.xml" -Dcassandra-foreground=yes \
    -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.ring_delay_ms="$ring" \
    -Dcassandra.jmx.local.port="$(node_var "$n" jmx_port)" \
    -cp "$dir/conf:$(lib_dir)/*" org.apache.cassandra.service.CassandraDaemon >> "$n/out.log" 2>&1 < /dev/null &
  echo $! > "$n/pid"
}
wait_node() { # wait_node NODEDIR: until its CQL port answers
  local n=$1 addr port p limit i
  addr=$(node_var "$n" addr); port=$(cluster_var cql_port); p=$(cat "$n/pid")
  limit=$(( ${CASSANDRA_START_TIMEOUT:-300} * 2 ))
  for ((i = 0; i < limit; i++)); do
    if cql_answers "$addr" "$port"; then return 0; fi
    if ! kill -0 "$p" 2>/dev/null; then
      echo "$me: the Cassandra node $(basename "$n") ($addr) exited at start; the end of $n/out.log:" >&2
      tail -25 "$n/out.log" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
  echo "$me: node $(basename "$n") ($addr) did not open CQL port $port within ${CASSANDRA_START_TIMEOUT:-300} s;" \
    "see $n/out.log" >&2
  exit 1
}
stop_all() {
  local n p pids=() i
  for n in $(node_dirs); do p=$(running_pid "$n") && pids+=("$p") || true; done
  [ ${#pids[@]} -gt 0 ] || { echo "$me: no Cassandra node runs in $dir" >&2; return 0; }
  kill -TERM "${pids[@]}" 2>/dev/null || true
  kill -CONT "${pids[@]}" 2>/dev/null || true # a frozen node handles SIGTERM only once it runs again
  for ((i = 0; i < 600; i++)); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && return 0
    sleep 0.1
  done
  echo "$me: node(s) ${pids[*]} did not stop within 60 s; killing them" >&2
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

observer() { # observer NODEDIR|-: sets obs and jmx to a running, not frozen node other than NODEDIR; 1 if none
  local o p
  jmx=""; obs=""
  for o in $(node_dirs); do
    [ "$o" != "$1" ] || continue
    p=$(running_pid "$o") || continue
    [ "$(proc_state "$p")" != T ] || continue
    jmx=$(node_var "$o" jmx_port); obs=$(basename "$o"); return 0
  done
  return 1
}
set_cluster_var() { # set_cluster_var KEY VALUE: rewrite one line of DIR/cluster.env (through a temporary file)
  sed "s|^$1=.*|$1=$2|" "$dir/cluster.env" > "$dir/cluster.env.tmp" && mv "$dir/cluster.env.tmp" "$dir/cluster.env"
}
add_node() { # add_node I: create node I on 127.0.0.I, bootstrap it into the running cluster, wait until UN
  local i=$1 n addr port jmxp used t0 limit out state p
  addr=127.0.0.$i
  n=$dir/nodes/n$i
  port_free_on 0 "$addr" || { echo "$me: cannot bind to $addr (a loopback address; Linux answers all of 127/8" \
    "on lo, other systems need an alias: ifconfig lo0 alias $addr)" >&2; exit 1; }
  for port in "$(cluster_var storage_port)" "$(cluster_var cql_port)"; do
    port_free_on "$port" "$addr" || { echo "$me: port $port on $addr is taken by another program; cannot add node" \
      "$i there" >&2; exit 1; }
  done
  used=" $(for o in $(node_dirs); do node_var "$o" jmx_port; done | tr '\n' ' ') "
  jmxp=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    jmxp=$(free_ports 1 127.0.0.1)
    [[ "$used" == *" $jmxp "* ]] || break
    jmxp=""
  done
  [ -n "$jmxp" ] || { echo "$me: found no free JMX port for node $i" >&2; exit 1; }
  mkdir -p "$n"
  printf 'addr=%s\njmx_port=%d\n' "$addr" "$jmxp" > "$n/node.env"
  # The node count first, so stop, status, pid, wipe and a restart cover the new node even if this script dies.
  set_cluster_var nodes "$i"
  t0=$SECONDS
  limit=${CASSANDRA_START_TIMEOUT:-300}
  echo "$me: adding node n$i ($addr): bootstrap from the seed 127.0.0.1 (auto_bootstrap)" >&2
  start_node "$n" "$i"
  p=$(cat "$n/pid")
  disown "$p" 2>/dev/null || true # no "Killed" job notice from bash if add_failed has to kill it
  while :; do
    if ! kill -0 "$p" 2>/dev/null; then
      add_failed "$i" "exited while joining"
    fi
    if [ $((SECONDS - t0)) -ge "$limit" ]; then
      add_failed "$i" "did not become UN within CASSANDRA_START_TIMEOUT=$limit s (last seen: ${state:-absent})"
    fi
    # Cassandra opens the CQL port only after the bootstrap (streaming of its token ranges) ended.
    if cql_answers "$addr" "$(cluster_var cql_port)"; then
      if observer "$n"; then
        out=$(nodetool "$jmx" status 2>&1) || true
        state=$(echo "$out" | awk -v a="$addr" '$2 == a { print $1; exit }')
        if [ "$state" = UN ]; then
          echo "$me: node n$i ($addr) is UN as seen by $obs after $((SECONDS - t0)) s" >&2
          return 0
        fi
      else
        add_failed "$i" "joined, but no other running node is left to confirm it is UN"
      fi
    fi
    sleep 1
  done
}
add_failed() { # add_failed I REASON: stop node I, move its directory aside, restore the node count, exit 1
  local i=$1 n=$dir/nodes/n$1 p aside
  aside=$dir/failed-n$i-$(date +%Y%m%d-%H%M%S)
  if p=$(running_pid "$n"); then
    kill -KILL "$p" 2>/dev/null || true
    while kill -0 "$p" 2>/dev/null; do sleep 0.1; done
  fi
  mv "$n" "$aside"
  set_cluster_var nodes "$((i - 1))"
  echo "$me: node n$i (127.0.0.$i) $2; it was killed and moved to $aside (its out.log tells why; the others may list" \
    "it as DN until: $me nodetool $dir removenode <its host id>)" >&2
  tail -5 "$aside/out.log" >&2 2>/dev/null || true
  exit 1
}

# --- commands --------------------------------------------------------------------------------------------------------
case "$cmd" in
  start)
    settings
    find_java17 >/dev/null || exit 1
    command -v python3 >/dev/null || { echo "$me: python3 not found (used to find free ports)" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    ensure_lib
    write_conf
    if [ -f "$dir/cluster.env" ]; then
      count=$(cluster_var nodes)
      if [ -n "$nodes_arg" ] && [ "$nodes_arg" != "$count" ]; then
        echo "$me: $dir holds a $count-node cluster; wipe it first ($me wipe $dir) to start $nodes_arg nodes" >&2; exit 1
      fi
    else
      count=${nodes_arg:-1}
      addrs=$(seq -f '127.0.0.%g' 1 "$count")
      for a in $addrs; do
        port_free_on 0 "$a" || { echo "$me: cannot bind to $a (a loopback address; Linux answers all of 127/8" \
          "on lo, other systems need an alias: ifconfig lo0 alias $a)" >&2; exit 1; }
      done
      # shellcheck disable=SC2086
      read -r -a ports <<< "$(free_ports $((count + 2)) $addrs)"
      mkdir -p "$dir/nodes"
      for ((i = 1; i <= count; i++)); do
        mkdir -p "$dir/nodes/n$i"
        printf 'addr=127.0.0.%d\njmx_port=%d\n' "$i" "${ports[$((i + 1))]}" > "$dir/nodes/n$i/node.env"
      done
      printf 'nodes=%d\nstorage_port=%d\ncql_port=%d\nlib=%s\n' "$count" "${ports[0]}" "${ports[1]}" \
        "$(cd "$(lib_dir)" && pwd)" > "$dir/cluster.env"
    fi
    started=()
    fresh=()
    for n in $(node_dirs); do
      if running_pid "$n" >/dev/null; then continue; fi
      addr=$(node_var "$n" addr)
      for port in "$(cluster_var storage_port)" "$(cluster_var cql_port)"; do
        port_free_on "$port" "$addr" || { echo "$me: port $port on $addr is taken by another program; stop it, or" \
          "wipe $dir to choose new ports" >&2; exit 1; }
      done
      if [ -d "$n/data/system" ]; then started+=("$n"); else fresh+=("$n"); fi
    done
    # Nodes with data restart together; new nodes bootstrap one at a time (parallel bootstraps are refused).
    for n in "${started[@]}"; do start_node "$n" "$count"; done
    for n in "${started[@]}"; do wait_node "$n"; done
    for n in "${fresh[@]}"; do start_node "$n" "$count"; wait_node "$n"; done
    if [ "$count" -gt 1 ]; then
      jmx=$(node_var "$dir/nodes/n1" jmx_port)
      for ((i = 0; i < 120; i++)); do
        up=$(nodetool "$jmx" status 2>/dev/null | grep -c '^UN ' || true)
        [ "$up" -eq "$count" ] && break
        sleep 1
      done
      [ "$up" -eq "$count" ] || { echo "$me: only $up of $count nodes are UN after 120 s:" >&2
        nodetool "$jmx" status >&2 || true; exit 1; }
    fi
    contact
    ;;
  add)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    settings
    find_java17 >/dev/null || exit 1
    dir=$(cd "$dir" && pwd)
    count=$(cluster_var nodes)
    for n in $(node_dirs); do
      p=$(running_pid "$n") || { echo "$me: node $(basename "$n") of $dir does not run; start the cluster first" \
        "($me start $dir), then add nodes" >&2; exit 1; }
      [ "$(proc_state "$p")" != T ] || { echo "$me: node $(basename "$n") of $dir is frozen; thaw it first" >&2; exit 1; }
    done
    k=${count_arg:-1}
    [ $((count + k)) -le 99 ] || { echo "$me: $dir has $count nodes; at most 99 (127.0.0.1-99)" >&2; exit 1; }
    for ((i = count + 1; i <= count + k; i++)); do
      [ ! -e "$dir/nodes/n$i" ] || { echo "$me: $dir/nodes/n$i exists but cluster.env says $count nodes; wipe" \
        "$dir or move that directory away" >&2; exit 1; }
    done
    # One at a time: Cassandra refuses concurrent bootstraps.
    for ((i = count + 1; i <= count + k; i++)); do add_node "$i"; done
    contact
    ;;
  settings)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    echo "cassandra.contact-points=$(contact)"
    echo "cassandra.datacenter=datacenter1"
    echo "cassandra.server-dir=$(cd "$dir" && pwd)"
    ;;
  settled)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    why=()
    jmxs=()
    for n in $(node_dirs); do
      if ! p=$(running_pid "$n"); then why+=("$(basename "$n") does not run"); continue; fi
      if [ "$(proc_state "$p")" = T ]; then why+=("$(basename "$n") is frozen"); continue; fi
      jmxs+=("$(basename "$n"):$(node_var "$n" jmx_port)")
    done
    if [ ${#why[@]} -eq 0 ]; then
      tmp=$(mktemp -d)
      trap 'rm -rf "$tmp"' EXIT
      # One nodetool JVM per node and one for status, side by side (each takes seconds to start).
      nodetool "${jmxs[0]#*:}" status > "$tmp/status" 2>&1 &
      for nj in "${jmxs[@]}"; do nodetool "${nj#*:}" netstats > "$tmp/${nj%%:*}" 2>&1 & done
      wait || true
      total=$(node_dirs | wc -l)
      un=$(grep -c '^UN ' "$tmp/status" || true)
      other=$(grep -E '^[UD][NJLM] ' "$tmp/status" | awk '$1 != "UN" { printf "%s%s %s", sep, $2, $1; sep=", " }' || true)
      [ "$un" -eq "$total" ] || why+=("nodetool status on ${jmxs[0]%%:*} shows $un of $total nodes UN${other:+ ($other)}")
      for nj in "${jmxs[@]}"; do
        f=$tmp/${nj%%:*}
        mode=$(sed -n 's/^Mode: *//p' "$f" | head -1)
        [ "$mode" = NORMAL ] || why+=("${nj%%:*} is in mode ${mode:-unknown (nodetool netstats failed: $(head -1 "$f"))}")
        if [ -n "$mode" ] && ! grep -q '^Not sending any streams' "$f"; then
          why+=("${nj%%:*} streams: $(grep -m1 -E 'Receiving|Sending|Bootstrap|Rebuild|Repair|Unbootstrap' "$f" \
            | sed 's/^ *//')")
        fi
      done
    fi
    if [ ${#why[@]} -gt 0 ]; then
      echo "$me: not settled: $(IFS=';'; echo "${why[*]}" | sed 's/;/; /g')"
      exit 1
    fi
    echo "$me: settled: $(node_dirs | wc -l) nodes UN, NORMAL, no streams"
    ;;
  stop)
    [ -d "$dir" ] || { echo "$me: no directory $dir" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    stop_all
    ;;
  status)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    all=0
    for n in $(node_dirs); do
      if p=$(running_pid "$n"); then
        if [ "$(proc_state "$p")" = T ]; then s=frozen; all=1
        elif cql_answers "$(node_var "$n" addr)" "$(cluster_var cql_port)"; then s=up; else s="starting"; all=1; fi
      else p=-; s=down; all=1; fi
      echo "$(basename "$n") $(node_var "$n" addr):$(cluster_var cql_port) jmx $(node_var "$n" jmx_port) pid $p $s"
    done
    exit $all
    ;;
  pid)
    found=0
    for n in $(node_dirs); do if running_pid "$n"; then found=1; fi; done
    [ $found -eq 1 ] || { echo "$me: no Cassandra node runs in $dir" >&2; exit 1; }
    ;;
  contact)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    contact
    ;;
  nodetool)
    [ -f "$dir/cluster.env" ] || { echo "$me: no Cassandra cluster in $dir (start it with: $me start $dir)" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    n=$(node_dir "${node_arg:-1}")
    nodetool "$(node_var "$n" jmx_port)" "$@"
    ;;
  node-pid)
    n=$(node_dir "$node_arg")
    running_pid "$n" || { echo "$me: node $node_arg of $dir does not run" >&2; exit 1; }
    ;;
  freeze|thaw)
    n=$(node_dir "$node_arg")
    p=$(running_pid "$n") || { echo "$me: node $node_arg of $dir does not run; nothing to $cmd" >&2; exit 1; }
    if [ "$cmd" = freeze ]; then kill -STOP "$p"; else kill -CONT "$p"; fi
    ;;
  down|up)
    n=$(node_dir "$node_arg")
    want=$([ "$cmd" = down ] && echo DN || echo UN)
    addr=$(node_var "$n" addr)
    t0=$SECONDS
    last=""
    while :; do
      # An observer: another node that runs and is not frozen (checked each round: nodes may be frozen meanwhile).
      jmx=""
      for o in $(node_dirs); do
        [ "$o" != "$n" ] || continue
        p=$(running_pid "$o") || continue
        [ "$(proc_state "$p")" != T ] || continue
        jmx=$(node_var "$o" jmx_port); obs=$(basename "$o"); break
      done
      [ -n "$jmx" ] || { echo "$me: $cmd needs another running, not frozen node of $dir to ask; there is none" >&2
        exit 1; }
      out=$(nodetool "$jmx" status 2>&1) || true
      state=$(echo "$out" | awk -v a="$addr" '$2 == a { print $1; exit }')
      if [ "$state" = "$want" ]; then
        echo "$me: node $node_arg ($addr) is $want as seen by $obs after $((SECONDS - t0)) s" >&2
        exit 0
      fi
      last="${state:-absent}"
      if [ $((SECONDS - t0)) -ge 90 ]; then
        echo "$me: node $node_arg ($addr) is not $want after 90 s (nodetool status on $obs says ${last}):" >&2
        echo "$out" >&2
        exit 1
      fi
      sleep 1
    done
    ;;
  wipe)
    [ -d "$dir" ] || exit 0
    dir=$(cd "$dir" && pwd)
    stop_all
    rm -rf "$dir/nodes" "$dir/cluster.env" "$dir"/failed-n*
    ;;
  *) usage ;;
esac
