#!/usr/bin/env bash
# Fetches one Apache Kafka release's jars from Maven Central and extracts the
# schemas of every family they carry, for the tests that compare kafka-wire
# with Kafka (tests/release_schemas.rs) and for `kafka-wire-codegen diff`.
#
# Usage: bash scripts/kafka-release.sh VERSION [DIR]
#   VERSION  a release, e.g. 4.4.0 or 3.9.2
#   DIR      where the schemas go (default: .cache/kafka/VERSION/schemas)
#
# DIR then holds one folder per schema family:
#   messages/                 requests, responses, headers (kafka-clients)
#   metadata/                 KRaft metadata log records (kafka-metadata)
#   group-coordinator/        __consumer_offsets records (kafka-group-coordinator)
#   share-coordinator/        __share_group_state records (kafka-share-coordinator, 4.0+)
#   transaction-coordinator/  __transaction_state records (kafka-transaction-coordinator)
#   raft/                     KRaft control records (kafka-raft)
#   storage/                  log and checkpoint records (kafka-storage)
# A family whose jar the release does not publish is left out (share groups
# came with 4.0).
#
# The jars go to .cache/kafka/VERSION/jars (Maven's own downloads to
# .cache/kafka/m2); both are ignored by git. Once a release is extracted, a
# second run touches neither Maven nor the network.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 VERSION [DIR]" >&2
    exit 2
fi
VERSION="$1"
case "$VERSION" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) echo "kafka-release: '$VERSION' is not a release version like 4.4.0" >&2; exit 2 ;;
esac

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="$ROOT/.cache/kafka"
JARS="$CACHE/$VERSION/jars"
DIR="${2:-$CACHE/$VERSION/schemas}"

# family  artifact  folder inside the jar
FAMILIES="
messages                kafka-clients                 common/message
metadata                kafka-metadata                common/metadata
group-coordinator       kafka-group-coordinator       common/message
share-coordinator       kafka-share-coordinator       common/message
transaction-coordinator kafka-transaction-coordinator common/message
raft                    kafka-raft                    common/message
storage                 kafka-storage                 message
"

if [ -f "$DIR/.complete" ] && [ "$(cat "$DIR/.complete")" = "$VERSION" ]; then
    echo "kafka-release: $VERSION already in $DIR"
    exit 0
fi

mkdir -p "$JARS"
# One Maven run for every jar not yet cached: a throw-away POM that depends on
# each artifact without its dependencies, copied by the dependency plugin.
missing=()
while read -r family artifact _; do
    [ -n "$family" ] || continue
    [ -f "$JARS/$artifact-$VERSION.jar" ] || missing+=("$artifact")
done <<< "$FAMILIES"

fetch() {
    local work="$CACHE/$VERSION/pom" deps="" a
    mkdir -p "$work"
    for a in "$@"; do
        deps+="<dependency><groupId>org.apache.kafka</groupId><artifactId>$a</artifactId><version>$VERSION</version></dependency>"
    done
    cat > "$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kafka-wire</groupId><artifactId>kafka-release</artifactId><version>0</version>
  <packaging>pom</packaging>
  <dependencies>$deps</dependencies>
</project>
EOF
    mvn -q -B -f "$work/pom.xml" -Dmaven.repo.local="$CACHE/m2" \
        dependency:copy-dependencies -DexcludeTransitive=true -DoutputDirectory="$JARS"
}

if [ ${#missing[@]} -gt 0 ]; then
    echo "kafka-release: fetching ${missing[*]} $VERSION"
    if ! fetch "${missing[@]}" >"$CACHE/$VERSION/maven.log" 2>&1; then
        # A family absent from this release (share-coordinator before 4.0)
        # fails the whole resolution: try each artifact alone.
        for a in "${missing[@]}"; do
            fetch "$a" >>"$CACHE/$VERSION/maven.log" 2>&1 \
                || echo "kafka-release: $a $VERSION is not published; its family is left out"
        done
    fi
fi
[ -f "$JARS/kafka-clients-$VERSION.jar" ] || {
    echo "kafka-release: kafka-clients $VERSION could not be fetched; see $CACHE/$VERSION/maven.log" >&2
    exit 1
}

rm -rf "$DIR"
mkdir -p "$DIR"
while read -r family artifact inside; do
    [ -n "$family" ] || continue
    jar="$JARS/$artifact-$VERSION.jar"
    [ -f "$jar" ] || continue
    tmp="$(mktemp -d)"
    unzip -q -o "$jar" "$inside/*.json" -d "$tmp" 2>/dev/null || true
    if compgen -G "$tmp/$inside/*.json" >/dev/null; then
        mkdir -p "$DIR/$family"
        cp "$tmp/$inside/"*.json "$DIR/$family/"
        echo "kafka-release: $VERSION $family: $(ls "$DIR/$family" | wc -l) schemas"
    fi
    rm -rf "$tmp"
done <<< "$FAMILIES"
echo "$VERSION" > "$DIR/.complete"
