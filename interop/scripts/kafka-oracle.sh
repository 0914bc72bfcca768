#!/usr/bin/env bash
# Builds the Kafka oracle for one Apache Kafka release: interop/conformance/java/Oracle.java
# compiled against that release's kafka-clients jar, so that interop/tests/oracle.rs can
# run Kafka's own generated message classes beside kwire on the same bytes.
#
# Usage: bash interop/scripts/kafka-oracle.sh VERSION
#
# 1. `bash interop/scripts/kafka-release.sh VERSION` for the release's jars
#    (.cache/kafka/VERSION/jars).
# 2. Jackson (the generated JSON converters need jackson-databind, which
#    kafka-clients does not depend on) and slf4j-api (kafka-clients' one
#    runtime dependency the message classes may touch), fetched with Maven
#    into .cache/kafka/VERSION/oracle-jars (Maven's downloads in .cache/kafka/m2).
#    Jackson's version is the one the release's own modules use (read from
#    kafka-raft's POM), else JACKSON_FALLBACK below.
# 3. javac into .cache/kafka/VERSION/oracle/classes, and a launcher
#    .cache/kafka/VERSION/oracle/run that starts the oracle (one JVM,
#    line protocol on stdin/stdout, described in Oracle.java).
#
# Everything goes under .cache/ (ignored by git); nothing from the jars is
# committed. A second run, with nothing changed, touches neither Maven nor
# the network and does not recompile.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 VERSION" >&2
    exit 2
fi
VERSION="$1"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# As interop/scripts/kafka-release.sh and the tests: $KWIRE_RELEASES, relative
# to the repository, else .cache/kafka.
CACHE="${KWIRE_RELEASES:-$ROOT/.cache/kafka}"
case "$CACHE" in /*) ;; *) CACHE="$ROOT/$CACHE" ;; esac
SRC="$ROOT/interop/conformance/java/Oracle.java"
OUT="$CACHE/$VERSION/oracle"
EXTRA="$CACHE/$VERSION/oracle-jars"
JACKSON_FALLBACK="2.16.2"
SLF4J="1.7.36"

bash "$ROOT/interop/scripts/kafka-release.sh" "$VERSION" >&2
CLIENTS="$CACHE/$VERSION/jars/kafka-clients-$VERSION.jar"

# Extra jars, once per release.
if [ ! -f "$EXTRA/.complete" ]; then
    jackson="$JACKSON_FALLBACK"
    pom="$CACHE/m2/org/apache/kafka/kafka-raft/$VERSION/kafka-raft-$VERSION.pom"
    if [ -f "$pom" ]; then
        found="$(tr -d ' \n\t' < "$pom" | grep -o '<artifactId>jackson-databind</artifactId><version>[^<]*' | head -n1 | sed 's/.*<version>//' || true)"
        [ -n "$found" ] && jackson="$found"
    fi
    echo "kafka-oracle: fetching jackson-databind $jackson and slf4j-api $SLF4J for $VERSION" >&2
    rm -rf "$EXTRA"
    mkdir -p "$EXTRA/pom"
    cat > "$EXTRA/pom/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kwire</groupId><artifactId>kafka-oracle</artifactId><version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>$jackson</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>$SLF4J</version></dependency>
  </dependencies>
</project>
EOF
    # Transitive: jackson-databind brings jackson-core and jackson-annotations.
    if ! mvn -q -B -f "$EXTRA/pom/pom.xml" -Dmaven.repo.local="$CACHE/m2" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$EXTRA" \
        >"$EXTRA/maven.log" 2>&1; then
        echo "kafka-oracle: Maven could not fetch Jackson; see $EXTRA/maven.log" >&2
        exit 1
    fi
    echo "$jackson" > "$EXTRA/.complete"
fi

CLASSPATH="$CLIENTS"
for jar in "$EXTRA"/*.jar; do
    CLASSPATH="$CLASSPATH:$jar"
done

# Compile when the source, the jars or this script changed.
stamp="$(cat "$SRC" "$0" | cksum | cut -d' ' -f1) $CLASSPATH"
if [ ! -f "$OUT/.stamp" ] || [ "$(cat "$OUT/.stamp")" != "$stamp" ]; then
    echo "kafka-oracle: compiling Oracle.java against kafka-clients $VERSION" >&2
    rm -rf "$OUT"
    mkdir -p "$OUT/classes"
    javac -nowarn -encoding UTF-8 --release 17 -cp "$CLASSPATH" -d "$OUT/classes" "$SRC"
    # The launcher: exec, so that the JVM is the child the test starts
    # and ends. Kafka's classes log nothing the protocol needs;
    # slf4j's warning about a missing binding goes to stderr.
    cat > "$OUT/run" <<EOF
#!/bin/sh
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp '$OUT/classes:$CLASSPATH' Oracle "\$@"
EOF
    chmod +x "$OUT/run"
    echo "$stamp" > "$OUT/.stamp"
fi
echo "kafka-oracle: $VERSION ready: $OUT/run" >&2
echo "$OUT/run"
