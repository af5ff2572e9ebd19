#!/usr/bin/env bash
# The servers BG's tests start themselves, installed when missing (Debian packages, as root or with passwordless
# sudo), or a message saying exactly what is missing and how to install it (exit 1). Used by ./test and .ci/run.
#
#   scripts/test-deps.sh        what ./test needs: redis-server and memcached (the casql store's tests, and
#                               the emulator's stale-store test, start them as child processes on free ports),
#                               mariadb-server and mariadb-client (the mariadb store's tests start a private server
#                               with scripts/mariadb.sh), PostgreSQL's server binaries (/usr/lib/postgresql/*/bin,
#                               package postgresql: PostgresReplicaTest starts a primary and a streaming replica
#                               with scripts/postgres-replica.sh), a JDK 17 or 11 under /usr/lib/jvm (package
#                               openjdk-17-jdk-headless: the cassandra store's tests start Cassandra 5.0 nodes with
#                               scripts/cassandra.sh and the hbase store's tests a standalone HBase 2.6 with
#                               scripts/hbase.sh; both servers run on JDK 17 or 11, not on BG's 21+), and Go 1.24 or
#                               newer (the mongodb store's tests start FerretDB servers with scripts/ferretdb.sh, which
#                               builds its launcher with Go through the Go module proxy) unless a launcher is already
#                               built (FERRETDB_BIN, or ~/.cache/bg/ferretdb-1.24.2/ferretdb-bg). No package installs
#                               a new enough Go (Debian's golang-go is older): when it is missing this says to install
#                               Go 1.24+ from https://go.dev/dl into /usr/local/go and exits 1
#                               Also chromium and chromium-driver (the deck's browser test), prometheus (promtool)
#                               and python3-prometheus-client (the metrics endpoint's parsers) and
#                               prometheus-node-exporter (the store hosts' reader is tested against a real one).
#   scripts/test-deps.sh --ci   also iproute2, for scripts/test-cluster-netns.sh
#
# Packages are installed without starting or enabling their system services. BG_TEST_INSTALL=0 never installs (only
# reports); BG_DEPS_PATH replaces the directories searched for the binaries, BG_DEPS_PG_GLOB the pattern of
# PostgreSQL's and BG_DEPS_JVM_GLOB the JDK homes searched for a JDK 17 or 11 (default /usr/lib/jvm/*), and
# BG_DEPS_PYTHON the python3 that must import prometheus_client (default /usr/bin/python3), and
# BG_DEPS_GO the go binaries checked for Go 1.24+ (colon-separated; default: go in the search path and
# /usr/local/go/bin/go) (for this script's own test).
set -euo pipefail
me="${BG_DEPS_CALLER:-scripts/test-deps.sh}"

ci=""
case "${1:-}" in
  "") ;;
  --ci) ci=1 ;;
  *) echo "$me: unknown argument '$1' (expected nothing or --ci)" >&2; exit 2 ;;
esac

search="${BG_DEPS_PATH:-$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
have() { # have BINARY: found in the search path
  local d
  local IFS=:
  for d in $search; do
    [ -n "$d" ] && [ -x "$d/$1" ] && return 0
  done
  return 1
}

missing=()
have redis-server || missing+=(redis-server)
have memcached || missing+=(memcached)
have mariadbd || missing+=(mariadb-server)
have mariadb-admin || missing+=(mariadb-client)
if [ -n "${BG_DEPS_PG_GLOB+x}" ]; then pg_glob=$BG_DEPS_PG_GLOB; else pg_glob='/usr/lib/postgresql/*/bin/pg_basebackup'; fi
if ! compgen -G "$pg_glob" >/dev/null; then missing+=(postgresql); fi
if [ -n "${BG_DEPS_JVM_GLOB+x}" ]; then jvm_glob=$BG_DEPS_JVM_GLOB; else jvm_glob='/usr/lib/jvm/*'; fi
have_jdk17() { # a JDK 17 or 11 (what Cassandra 5.0 and HBase 2.6 run on; scripts/cassandra.sh and scripts/hbase.sh
  # look in /usr/lib/jvm)
  local c v
  . "$(dirname "$0")/jdk.sh"
  for c in $jvm_glob; do
    [ -x "$c/bin/java" ] || continue
    v=$(bg_java_major "$c")
    [ "$v" = 17 ] || [ "$v" = 11 ] && return 0
  done
  return 1
}
have_jdk17 || missing+=(openjdk-17-jdk-headless)
# The deck's browser test (DeckBrowserTest: headless Chromium through chromium-driver), the metrics endpoint's tests
# (promtool of package prometheus, and the Prometheus Python client's text-format parser in Debian's python3) and the
# store hosts' tests (a real prometheus-node-exporter).
have chromium || missing+=(chromium)
have chromedriver || missing+=(chromium-driver)
have promtool || missing+=(prometheus)
have prometheus-node-exporter || missing+=(prometheus-node-exporter)
"${BG_DEPS_PYTHON:-/usr/bin/python3}" -c 'import prometheus_client.parser' >/dev/null 2>&1 \
  || missing+=(python3-prometheus-client)
if [ -n "$ci" ]; then
  have ip || missing+=(iproute2)
fi

# Go 1.24+, to build FerretDB's launcher (scripts/ferretdb.sh build); no Debian package has a new enough one.
go_ok() {
  local g v IFS=:
  if [ -n "${FERRETDB_BIN:-}" ] && [ -x "$FERRETDB_BIN" ]; then return 0; fi
  [ -x "${FERRETDB_CACHE:-$HOME/.cache/bg/ferretdb-1.24.2}/ferretdb-bg" ] && return 0
  if [ -n "${BG_DEPS_GO+x}" ]; then set -- $BG_DEPS_GO; else
    set --; for g in $search; do [ -n "$g" ] && set -- "$@" "$g/go"; done; set -- "$@" /usr/local/go/bin/go; fi
  for g in "$@"; do
    [ -x "$g" ] || continue
    v=$(GOTOOLCHAIN=local "$g" env GOVERSION 2>/dev/null || true)
    if [[ "$v" =~ ^go([0-9]+)\.([0-9]+) ]] \
      && { [ "${BASH_REMATCH[1]}" -gt 1 ] || [ "${BASH_REMATCH[2]}" -ge 24 ]; }; then return 0; fi
  done
  return 1
}
go_missing=""
go_ok || go_missing="$me: the tests need Go 1.24 or newer (the mongodb store's FerretDB servers are built with it), \
none of version 1.24+ in PATH or /usr/local/go/bin; install Go 1.24+ from https://go.dev/dl into /usr/local/go \
(Debian's golang-go is too old), or set FERRETDB_BIN to a built scripts/ferretdb launcher"
finish() { # exit 0, unless Go is missing
  if [ -n "$go_missing" ]; then echo "$go_missing" >&2; exit 1; fi
  exit 0
}
[ ${#missing[@]} -eq 0 ] && finish

how="install them with: sudo apt-get install ${missing[*]} (Debian/Ubuntu; elsewhere your system's packages \
of those names), or run $me as root to have it install them"
refuse() {
  echo "$me: the tests need ${missing[*]}, not installed ($1); $how" >&2
  [ -z "$go_missing" ] || echo "$go_missing" >&2
  exit 1
}

[ "${BG_TEST_INSTALL:-1}" != 0 ] || refuse "BG_TEST_INSTALL=0"
command -v apt-get >/dev/null 2>&1 || refuse "no apt-get on this machine"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
    refuse "not root, and no passwordless sudo to install them"
  fi
  sudo=(sudo -n)
fi

echo "$me: installing ${missing[*]} (apt-get, services not started)" >&2
# policy-rc.d exiting 101 keeps dpkg from starting the services while they install (Docker images ship one).
policy=/usr/sbin/policy-rc.d
created=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  created=1
fi
rc=0
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q || rc=$?
if [ "$rc" -eq 0 ]; then
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || rc=$?
fi
if [ -n "$created" ]; then
  "${sudo[@]}" rm -f "$policy"
fi
if [ "$rc" -ne 0 ]; then
  echo "$me: installing ${missing[*]} failed (apt-get exit $rc); $how" >&2
  [ -z "$go_missing" ] || echo "$go_missing" >&2
  exit 1
fi
# Under systemd the packages enable their services for the next boot: disable them, and stop any that started.
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  "${sudo[@]}" systemctl disable --now redis-server.service memcached.service >/dev/null 2>&1 || true
  if [[ " ${missing[*]} " == *" mariadb-server "* ]]; then
    "${sudo[@]}" systemctl disable --now mariadb.service >/dev/null 2>&1 || true
  fi
  # Only when this installed it: a PostgreSQL the machine already ran is not this script's to stop.
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    "${sudo[@]}" systemctl disable --now postgresql.service >/dev/null 2>&1 || true
  fi
  if [[ " ${missing[*]} " == *" prometheus "* ]]; then
    "${sudo[@]}" systemctl disable --now prometheus.service >/dev/null 2>&1 || true
  fi
  if [[ " ${missing[*]} " == *" prometheus-node-exporter "* ]] || [[ " ${missing[*]} " == *" prometheus "* ]]; then
    "${sudo[@]}" systemctl disable --now prometheus-node-exporter.service >/dev/null 2>&1 || true
  fi
fi
finish
