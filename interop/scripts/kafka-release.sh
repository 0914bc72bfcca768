#!/usr/bin/env bash
# Fetches Apache Kafka releases' jars from Maven Central and extracts the
# schemas of every family they carry, for the tests that compare kwire
# with Kafka (interop/tests/schema_equivalence.rs, interop/tests/schema_history.rs) and for
# `kwire-codegen diff`.
#
# Usage: bash interop/scripts/kafka-release.sh VERSION...
#        bash interop/scripts/kafka-release.sh --list FILE   (the versions in FILE, one a line, # comments)
#   VERSION  a release, e.g. 4.4.0 or 3.9.2
#
# Each release's schemas go to $KWIRE_RELEASES/VERSION/schemas (default
# .cache/kafka in the repository), one folder per schema family:
#   messages/                 requests, responses, headers (kafka-clients)
#   metadata/                 KRaft metadata log records (kafka-metadata, 2.8+)
#   group-coordinator/        __consumer_offsets records (kafka-group-coordinator, 3.4+)
#   share-coordinator/        __share_group_state records (kafka-share-coordinator, 4.0+)
#   transaction-coordinator/  __transaction_state records (kafka-transaction-coordinator, 3.8+)
#   raft/                     KRaft control records (kafka-raft, 2.7+)
#   storage/                  log and checkpoint records (kafka-storage, 3.0+)
#   core/                     the coordinator records the broker's own jar
#                             (kafka_2.13) carried before they had jars of their own
# A family is fetched from the first release that publishes its jar (the
# table below); a jar that cannot be fetched fails the run.
#
# The jars go to .cache/kafka/VERSION/jars (Maven's own downloads to
# .cache/kafka/m2); both are ignored by git. Every jar missing is fetched in
# one Maven run; an extracted release is not fetched again, so a second run
# touches neither Maven nor the network.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${KWIRE_RELEASES:-$ROOT/.cache/kafka}"
case "$CACHE" in /*) ;; *) CACHE="$ROOT/$CACHE" ;; esac
# shellcheck source=progress.sh
. "$(dirname "$0")/progress.sh"

versions=()
while [ $# -gt 0 ]; do
    case "$1" in
        --list)
            [ $# -ge 2 ] || { echo "kafka-release: --list needs a file" >&2; exit 2; }
            while read -r line; do
                line="${line%%#*}"
                line="$(echo "$line" | tr -d '[:space:]')"
                [ -n "$line" ] && versions+=("$line")
            done < "$2"
            shift 2
            ;;
        -h | --help)
            sed -n '2,12p' "$0"
            exit 0
            ;;
        *)
            versions+=("$1")
            shift
            ;;
    esac
done
if [ ${#versions[@]} -eq 0 ]; then
    echo "usage: $0 VERSION... | --list FILE" >&2
    exit 2
fi
# Each release once, in the order first given.
declare -A seen=()
unique=()
for v in "${versions[@]}"; do
    [ -n "${seen[$v]:-}" ] || unique+=("$v")
    seen[$v]=1
done
versions=("${unique[@]}")
for v in "${versions[@]}"; do
    case "$v" in
        [0-9]*.[0-9]*.[0-9]*) ;;
        *) echo "kafka-release: '$v' is not a release version like 4.4.0" >&2; exit 2 ;;
    esac
done

# family  artifact  folder inside the jar  first release that publishes it
FAMILIES="
messages                kafka-clients                 common/message  0.0.0
metadata                kafka-metadata                common/metadata 2.8.0
group-coordinator       kafka-group-coordinator       common/message  3.4.0
share-coordinator       kafka-share-coordinator       common/message  4.0.0
transaction-coordinator kafka-transaction-coordinator common/message  3.8.0
raft                    kafka-raft                    common/message  2.7.0
storage                 kafka-storage                 message         3.0.0
core                    kafka_2.13                    common/message  0.0.0
"

# True when version $1 >= version $2.
at_least() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]; }

done_already() { [ -f "$CACHE/$1/schemas/.complete" ] && [ "$(cat "$CACHE/$1/schemas/.complete")" = "$1" ]; }

# The (version, artifact) pairs to fetch.
wanted=()
for v in "${versions[@]}"; do
    done_already "$v" && continue
    while read -r family artifact _ since; do
        [ -n "$family" ] || continue
        at_least "$v" "$since" || continue
        [ -f "$CACHE/$v/jars/$artifact-$v.jar" ] || wanted+=("$v:$artifact")
    done <<< "$FAMILIES"
done

# One Maven run copies every jar asked for (the dependency plugin's copy goal
# takes artifacts of several versions at once), in a folder of its own so
# that runs side by side do not share a POM.
fetch() {
    local work="$1" items="" pair v a
    shift
    for pair in "$@"; do
        v="${pair%%:*}"
        a="${pair#*:}"
        mkdir -p "$CACHE/$v/jars"
        items+="<artifactItem><groupId>org.apache.kafka</groupId><artifactId>$a</artifactId><version>$v</version><outputDirectory>$CACHE/$v/jars</outputDirectory></artifactItem>"
    done
    cat > "$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kwire</groupId><artifactId>kafka-release</artifactId><version>0</version>
  <packaging>pom</packaging>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.6.1</version>
    <configuration><artifactItems>$items</artifactItems></configuration>
  </plugin></plugins></build>
</project>
EOF
    mvn -q -B -f "$work/pom.xml" -Dmaven.repo.local="$CACHE/m2" dependency:copy
}

if [ ${#wanted[@]} -gt 0 ]; then
    mkdir -p "$CACHE"
    work="$(mktemp -d "$CACHE/fetch.XXXXXX")"
    echo "kafka-release: fetching ${#wanted[@]} jars of ${versions[*]}"
    # Once more on a failure: a download can break off.
    if ! with_progress "kafka-release: Maven" "$CACHE" "$work/maven.log" fetch "$work" "${wanted[@]}" &&
        ! with_progress "kafka-release: Maven, again" "$CACHE" "$work/maven.log" fetch "$work" "${wanted[@]}"; then
        echo "kafka-release: Maven could not fetch every jar; its log ($work/maven.log) ends:" >&2
        grep -a 'ERROR' "$work/maven.log" | head -5 >&2
        exit 1
    fi
    rm -rf "$work"
fi

for v in "${versions[@]}"; do
    done_already "$v" && { echo "kafka-release: $v already in $CACHE/$v/schemas"; continue; }
    [ -f "$CACHE/$v/jars/kafka-clients-$v.jar" ] || {
        echo "kafka-release: kafka-clients $v is missing from $CACHE/$v/jars" >&2
        exit 1
    }
    dir="$CACHE/$v/schemas"
    rm -rf "$dir"
    mkdir -p "$dir"
    summary=""
    while read -r family artifact inside _; do
        [ -n "$family" ] || continue
        jar="$CACHE/$v/jars/$artifact-$v.jar"
        [ -f "$jar" ] || continue
        tmp="$(mktemp -d)"
        unzip -q -o "$jar" "$inside/*.json" -d "$tmp" 2>/dev/null || true
        if compgen -G "$tmp/$inside/*.json" >/dev/null; then
            mkdir -p "$dir/$family"
            cp "$tmp/$inside/"*.json "$dir/$family/"
            summary+=" $family $(ls "$dir/$family" | wc -l)"
        fi
        rm -rf "$tmp"
    done <<< "$FAMILIES"
    echo "$v" > "$dir/.complete"
    echo "kafka-release: $v:$summary"
done
