# What scripts/postgres-replica.sh and scripts/mariadb-replica.sh share, sourced by both: the command line (usage, the
# command and DIR, taken off the script's arguments), the replicas' directory names and hosts, the replica lists of a
# directory, and the start options. The engine's script sets, before sourcing:
#   me                  its name, for messages
#   delay_arg           how usage names the delay (N: whole seconds, D: a duration)
#   replica_hosts_var   the variable naming one host per replica (PG_REPLICA_HOSTS, MARIADB_REPLICA_HOSTS)
#   replica_host_var    the variable naming one host for every replica (PG_REPLICA_HOST, MARIADB_REPLICA_HOST)
#   delay_name          what --delay sets, for messages ("apply delay", "MASTER_DELAY")
# and defines parse_delay D (prints the delay in the engine's unit, or fails with a message).

usage() {
  echo "usage: $me start DIR [--replicas K] [--delay $delay_arg] | delay DIR $delay_arg | urls DIR | settings DIR | pids DIR" \
    "| stop DIR" >&2
  exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2

replica_name() { # replica_name I: the first replica is DIR/replica (as before --replicas), then replica2, ...
  if [ "$1" -eq 1 ]; then echo replica; else echo "replica$1"; fi
}
replica_host() { # replica_host I: the I-th of $replica_hosts_var, else $replica_host_var (all), else 127.0.0.(2+I)
  if [ -n "${!replica_hosts_var:-}" ]; then echo "${hosts[$(($1 - 1))]}"
  elif [ -n "${!replica_host_var:-}" ]; then echo "${!replica_host_var}"
  else echo "127.0.0.$((2 + $1))"; fi
}
replica_count() { # the --replicas of the last start (1 for a directory of the one-replica version)
  if [ -f "$dir/replicas" ]; then cat "$dir/replicas"; elif [ -d "$dir/replica" ]; then echo 1; else echo 0; fi
}
replicas() { # the names of the last start's replicas, in order
  local i n
  n=$(replica_count)
  for ((i = 1; i <= n; i++)); do replica_name "$i"; done
}
existing_replicas() { # every replica directory under DIR, in order (also those beyond the last start's --replicas)
  local d
  for d in $(ls -d "$dir"/replica "$dir"/replica[0-9]* 2>/dev/null | sort -V); do
    [ -d "$d" ] && basename "$d"
  done
  return 0
}
parse_start() { # parse_start [--replicas K] [--delay D]: sets k (default 1), delay (default 0) and hosts
  delay=0
  local delay_given=""
  k=1
  while [ $# -gt 0 ]; do
    case $1 in
      --delay) [ $# -ge 2 ] || usage; delay=$(parse_delay "$2"); delay_given=1; shift 2 ;;
      --delay=*) delay=$(parse_delay "${1#--delay=}"); delay_given=1; shift ;;
      --replicas) [ $# -ge 2 ] || usage; k=$2; shift 2 ;;
      --replicas=*) k=${1#--replicas=}; shift ;;
      *) usage ;;
    esac
  done
  [[ "$k" =~ ^[0-9]{1,2}$ ]] || { echo "$me: --replicas wants a number from 0 to 99, not '$k'" >&2; exit 2; }
  k=$((10#$k))
  if [ "$k" -eq 0 ] && [ -n "$delay_given" ]; then
    echo "$me: --delay is the replicas' $delay_name, and --replicas 0 starts none" >&2; exit 2
  fi
  hosts=()
  if [ -n "${!replica_hosts_var:-}" ]; then
    IFS=, read -r -a hosts <<< "${!replica_hosts_var}"
    [ "${#hosts[@]}" -ge "$k" ] || { echo "$me: $replica_hosts_var names ${#hosts[@]} host(s) for $k replicas" >&2
      exit 2; }
  fi
}
