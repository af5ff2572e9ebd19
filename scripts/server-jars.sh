# Sourced by the scripts that run a Java server from Maven Central's jars (scripts/cassandra.sh, scripts/hbase.sh).
#
#   bg_server_jars ME LIB POM JAR WHAT VAR
#       makes sure directory LIB holds the server jars: when no file LIB/JAR (a glob, e.g. 'cassandra-all-*.jar') is
#       there, copies the dependencies of POM (relative to the repository root) into LIB through Maven. Several test
#       JVMs may share one LIB (e.g. ~/.cache/bg/...): the copy runs under a lock (LIB.lock), into a temporary
#       directory renamed at the end, so nobody sees a half-filled LIB. Messages start with ME and name WHAT and the
#       variable VAR that sets LIB; on failure it exits 1.
bg_server_jars() {
  local me=$1 lib=$2 pom=$3 jar=$4 what=$5 var=$6 root tmp
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if compgen -G "$lib/$jar" >/dev/null; then return 0; fi
  if [ -e "$lib" ] && [ -n "$(ls -A "$lib" 2>/dev/null)" ]; then
    echo "$me: $lib holds files but no $jar; empty it or point $var elsewhere" >&2; exit 1
  fi
  mkdir -p "$(dirname "$lib")"
  exec 8> "$lib.lock"
  if command -v flock >/dev/null; then flock 8; fi
  if compgen -G "$lib/$jar" >/dev/null; then exec 8>&-; return 0; fi
  tmp="$lib.tmp.$$"
  rm -rf "$tmp"
  echo "$me: copying the $what server jars into $lib through Maven ($pom) ..." >&2
  ( . "$root/scripts/jdk.sh" && bg_find_jdk && cd "$root" \
    && ./mvnw -B -q -ntp -f "$pom" dependency:copy-dependencies -DoutputDirectory="$tmp" >&2 ) \
    || { rm -rf "$tmp"; echo "$me: Maven could not copy the $what jars ($pom); see the output above" >&2; exit 1; }
  rmdir "$lib" 2>/dev/null || true
  mv "$tmp" "$lib"
  exec 8>&-
}
