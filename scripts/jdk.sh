# Sourced by ./bg and ./test: sets JAVA_HOME to a JDK of version 21 or newer, or fails with a clear message.
bg_java_major() { # prints the major version of the JDK at $1, or nothing
  local v=""
  if [ -f "$1/release" ]; then v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"); fi
  if [ -z "$v" ] && [ -x "$1/bin/java" ]; then
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
  fi
  echo "$v"
}
bg_find_jdk() {
  local c v best="" bestv=0
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/* /opt/java/* /usr/local/java/*; do
    [ -n "$c" ] && [ -x "$c/bin/javac" ] || continue
    v=$(bg_java_major "$c")
    [ -n "$v" ] || continue
    if [ "$c" = "${JAVA_HOME:-}" ] && [ "$v" -ge 21 ]; then best=$c; break; fi
    if [ "$v" -ge 21 ] && [ "$v" -gt "$bestv" ]; then best=$c; bestv=$v; fi
  done
  if [ -z "$best" ]; then
    echo "bg: error: BG needs a JDK 21 or newer; none found in JAVA_HOME or /usr/lib/jvm. Install one (e.g. apt-get install openjdk-21-jdk) or set JAVA_HOME." >&2
    return 1
  fi
  export JAVA_HOME="$best"
}
bg_find_jdk17() { # prints the home of the first JDK 17 (else 11) under /usr/lib/jvm, for the servers that run on
  # those only (Cassandra 5.0, HBase 2.6); nothing and status 1 when there is none
  local c v
  for v in 17 11; do
    for c in /usr/lib/jvm/*; do
      [ -x "$c/bin/java" ] || continue
      [ "$(bg_java_major "$c")" = "$v" ] && { echo "$c"; return 0; }
    done
  done
  return 1
}
