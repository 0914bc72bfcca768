#!/usr/bin/env bash
# `kwire dump` against Kafka's own DumpLogSegments on a running cluster's
# internal logs (interop/scripts/kafka-cluster.sh): __cluster_metadata (segments and
# snapshots, the controller's and the broker's copies), __consumer_offsets,
# __transaction_state and __share_group_state. Both tools read the same
# copies of the files, one family at a time with Kafka's decoder option of
# that family (kwire with --show-secrets, as Kafka prints SCRAM salts and
# keys); any line that differs fails, and so does a family with no record.
#
# When a family has no records yet (a fresh cluster), Kafka's Java clients
# write some first (conformance/java/cluster/InternalTopicsDriver.java: a
# classic and a consumer group committing offsets, a transaction committed
# and one aborted, a share group acknowledging records); a SCRAM credential
# is set each run, so that the metadata log holds a UserScramCredentialRecord.
#
# Usage: bash interop/scripts/dump-compare.sh
#   KAFKA_CLUSTER_DIR   the cluster's state directory (default .cache/cluster)
#   KWIRE_BIN           the kwire binary (default: built here, target/debug/kwire)
#   DUMP_COMPARE_WORK   keep the copies and both outputs there (default: a
#                       temporary folder, removed when everything matched)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${KAFKA_CLUSTER_DIR:-$ROOT/.cache/cluster}"
if [ ! -f "$DIR/env" ]; then
    echo "dump-compare: no running cluster ($DIR/env missing; start one with interop/scripts/kafka-cluster.sh start)" >&2
    exit 1
fi
# shellcheck disable=SC1091
source "$DIR/env"
DATA="$KAFKA_CLUSTER_DATA"

java_run() {
    timeout 300 java "-Dlog4j2.configurationFile=$KAFKA_CLUSTER_LOG4J" -cp "$KAFKA_CLUSTER_CLASSPATH" "$@"
}

if [ -z "${KWIRE_BIN:-}" ]; then
    (cd "$ROOT" && cargo build -q --workspace --all-features --profile test --bin kwire)
    KWIRE_BIN="$ROOT/target/debug/kwire"
fi

# Non-empty segments of a topic on the broker.
has_records() {
    find "$DATA/broker" -path "*/$1-*/*.log" -size +0 2>/dev/null | grep -q .
}
if ! has_records __consumer_offsets || ! has_records __transaction_state || ! has_records __share_group_state; then
    run="dump-compare-$$-$(date +%s)"
    echo "dump-compare: writing consumer-group, transaction and share-group records ($run)"
    java_run InternalTopicsDriver run "$KAFKA_CLUSTER_BROKER" "$run" "$run-classic" "$run-consumer" "$run-share" "$run-txn" >/dev/null
fi
java_run org.apache.kafka.tools.ConfigCommand --bootstrap-server "$KAFKA_CLUSTER_BROKER" --alter \
    --add-config 'SCRAM-SHA-256=[iterations=8192,password=dump-compare-secret]' \
    --entity-type users --entity-name kwire-dump-compare >/dev/null
# The coordinators write their records when they are appended; wait for the
# metadata log's copy on the broker to catch up with the credential.
sleep 2

if [ -n "${DUMP_COMPARE_WORK:-}" ]; then
    WORK="$DUMP_COMPARE_WORK"
    mkdir -p "$WORK"
else
    WORK="$(mktemp -d)"
fi
# Copies: Kafka appends meanwhile, and both tools must read the same bytes.
for node in controller broker; do
    for part in "$DATA/$node"/__cluster_metadata-* "$DATA/$node"/__consumer_offsets-* \
        "$DATA/$node"/__transaction_state-* "$DATA/$node"/__share_group_state-*; do
        [ -d "$part" ] || continue
        mkdir -p "$WORK/$node/$(basename "$part")"
        find "$part" -maxdepth 1 -name '*.log' -exec cp {} "$WORK/$node/$(basename "$part")/" \;
        # The controller takes a snapshot every few records here: the first
        # and the newest 20 keep the comparison's time bounded.
        find "$part" -maxdepth 1 -name '*.checkpoint' | sort | sed -n '1p;$p' >"$WORK/checkpoints"
        find "$part" -maxdepth 1 -name '*.checkpoint' | sort | tail -n 20 >>"$WORK/checkpoints"
        sort -u "$WORK/checkpoints" | while read -r snapshot; do cp "$snapshot" "$WORK/$node/$(basename "$part")/"; done
    done
done

failed=0
cd "$WORK"
for family in __cluster_metadata:--cluster-metadata-decoder __consumer_offsets:--offsets-decoder \
    __transaction_state:--transaction-log-decoder __share_group_state:--share-group-state-decoder; do
    topic="${family%%:*}"
    option="${family#*:}"
    mapfile -t files < <(find . -path "./*/$topic-*" \( -name '*.log' -o -name '*.checkpoint' \) | sort)
    if [ "${#files[@]}" -eq 0 ]; then
        echo "dump-compare: $topic: no files" >&2
        failed=1
        continue
    fi
    list="$(IFS=,; echo "${files[*]}")"
    java_run org.apache.kafka.tools.DumpLogSegments "$option" --files "$list" >"$topic.kafka" 2>"$topic.kafka.err" || {
        echo "dump-compare: $topic: Kafka's DumpLogSegments failed:" >&2
        tail -n 20 "$topic.kafka.err" >&2
        failed=1
        continue
    }
    timeout 300 "$KWIRE_BIN" dump --show-secrets "${files[@]}" >"$topic.kwire" 2>"$topic.kwire.err" || {
        echo "dump-compare: $topic: kwire dump failed:" >&2
        tail -n 20 "$topic.kwire.err" >&2
        failed=1
    }
    records=$(grep -c '^| offset:' "$topic.kafka" || true)
    if ! diff -q "$topic.kafka" "$topic.kwire" >/dev/null; then
        echo "dump-compare: $topic: kwire dump differs from Kafka's DumpLogSegments $option (< Kafka, > kwire):" >&2
        diff "$topic.kafka" "$topic.kwire" | head -n 20 | cut -c1-600 >&2
        failed=1
    elif [ "$records" -eq 0 ]; then
        echo "dump-compare: $topic: no records in ${#files[@]} files" >&2
        failed=1
    else
        echo "dump-compare: $topic: ${#files[@]} files, $records records, $(wc -l <"$topic.kafka") lines identical"
    fi
done
if [ "$failed" -eq 0 ] && [ -z "${DUMP_COMPARE_WORK:-}" ]; then
    rm -rf "$WORK"
elif [ "$failed" -ne 0 ]; then
    echo "dump-compare: copies and outputs kept in $WORK" >&2
fi
exit "$failed"
