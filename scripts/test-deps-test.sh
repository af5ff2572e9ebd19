#!/usr/bin/env bash
# Tests scripts/test-deps.sh's checks (never its apt-get path: BG_TEST_INSTALL=0) against stub binaries in a scratch
# directory: everything present passes; a missing Go 1.24+ fails with the line saying how to install it, unless a
# FerretDB launcher is already built (FERRETDB_BIN or the cache). Prints PASSED, or what failed (exit 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/jdk17/bin" "$t/pg" "$t/cache"
for b in redis-server memcached mariadbd mariadb-admin ip chromium chromedriver promtool prometheus-node-exporter \
    python-ok; do printf '#!/bin/sh\n' > "$t/bin/$b"; done
printf '#!/bin/sh\n' > "$t/jdk17/bin/java"
echo 'JAVA_VERSION="17.0.12"' > "$t/jdk17/release"
touch "$t/pg/pg_basebackup"
printf '#!/bin/sh\necho go1.26.8\n' > "$t/go-new"
printf '#!/bin/sh\necho go1.19.8\n' > "$t/go-old"
chmod +x "$t"/bin/* "$t/jdk17/bin/java" "$t/go-new" "$t/go-old"
fails=0
check() { # check NAME WANT-EXIT WANT-TEXT ENV...: runs test-deps.sh --ci with ENV
  local name=$1 want=$2 text=$3 rc=0 out
  shift 3
  out=$(env BG_TEST_INSTALL=0 BG_DEPS_PATH="$t/bin" BG_DEPS_PG_GLOB="$t/pg/pg_basebackup" BG_DEPS_JVM_GLOB="$t/jdk17" \
    FERRETDB_CACHE="$t/cache" FERRETDB_BIN= BG_DEPS_PYTHON="$t/bin/python-ok" "$@" bash "$root/scripts/test-deps.sh" --ci 2>&1) || rc=$?
  if [ "$rc" != "$want" ] || [[ "$out" != *"$text"* ]]; then
    echo "FAILED: $name: exit $rc (want $want), output: $out (want it to contain: $text)"
    fails=$((fails + 1))
  fi
}
check "all present" 0 "" BG_DEPS_GO="$t/go-new"
check "no go" 1 "install Go 1.24+ from https://go.dev/dl into /usr/local/go" BG_DEPS_GO="$t/none"
check "old go" 1 "the tests need Go 1.24 or newer" BG_DEPS_GO="$t/go-old"
check "old go, FERRETDB_BIN" 0 "" BG_DEPS_GO="$t/go-old" FERRETDB_BIN="$t/go-new"
touch "$t/cache/ferretdb-bg" && chmod +x "$t/cache/ferretdb-bg"
check "old go, cached launcher" 0 "" BG_DEPS_GO="$t/go-old"
rm "$t/cache/ferretdb-bg"
check "old go and no postgresql" 1 "the tests need postgresql" BG_DEPS_GO="$t/go-old" BG_DEPS_PG_GLOB="$t/none"
check "old go and no postgresql, both said" 1 "install Go 1.24+" BG_DEPS_GO="$t/go-old" BG_DEPS_PG_GLOB="$t/none"
check "no redis" 1 "redis-server" BG_DEPS_GO="$t/go-new" BG_DEPS_PATH="$t/none"
rm "$t/bin/chromedriver"
check "no chromium-driver" 1 "the tests need chromium-driver," BG_DEPS_GO="$t/go-new"
check "no prometheus client for python" 1 "python3-prometheus-client" BG_DEPS_GO="$t/go-new" BG_DEPS_PYTHON="$t/none"
[ "$fails" -eq 0 ] || exit 1
echo "scripts/test-deps-test.sh: PASSED"
