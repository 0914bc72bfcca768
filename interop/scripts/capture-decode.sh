#!/usr/bin/env bash
# Captures the running test cluster's traffic (interop/scripts/kafka-cluster.sh) with
# tcpdump on loopback while Kafka's own Java clients work against it (a topic
# created, records produced and consumed through a consumer group, admin
# writes the broker forwards to the controller), then checks that
# `kwire decode` decodes every frame of the capture: Java clients to broker,
# broker to controller through the envelope relay, controller heartbeats.
#
# Usage: KAFKA_CLUSTER_DIR=DIR bash interop/scripts/capture-decode.sh [OUT_DIR]
#   OUT_DIR keeps cluster.pcap, decoded.txt and tcpdump.log (default: a new
#   temporary folder, removed on success).
#   KWIRE=PATH  the kwire binary to check (default: built here with cargo).
# Needs tcpdump (installed with apt-get when missing) and root for capturing.
# Bounded: each client run at 120 s, the capture stopped by its pid.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
: "${KAFKA_CLUSTER_DIR:?KAFKA_CLUSTER_DIR must name a running cluster (interop/scripts/kafka-cluster.sh start)}"
# shellcheck disable=SC1091
. "$KAFKA_CLUSTER_DIR/env"
if ! command -v tcpdump >/dev/null; then
    apt-get install -y tcpdump >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y tcpdump >/dev/null; }
fi
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"
if [ -z "${KWIRE:-}" ]; then
    (cd "$ROOT" && cargo build -q --workspace --all-features --profile test --bin kwire)
    KWIRE="$ROOT/target/debug/kwire"
fi

# Every port of the cluster: the broker's and controller's listeners and the relays.
base="${KAFKA_CLUSTER_BROKER##*:}"
ports=()
for p in $(seq "$base" $((base + 6))); do ports+=(--port "$p"); done

tcpdump -i lo -U -s 0 -w "$OUT/cluster.pcap" "tcp and portrange $base-$((base + 6))" >"$OUT/tcpdump.log" 2>&1 &
dump=$!
stop_dump() { kill -INT "$dump" 2>/dev/null || true; wait "$dump" 2>/dev/null || true; }
trap stop_dump EXIT
for _ in $(seq 50); do grep -q "listening on" "$OUT/tcpdump.log" && break; sleep 0.1; done

java_client() {
    timeout 120 java -Dlog4j2.configurationFile="$KAFKA_CLUSTER_LOG4J" -cp "$KAFKA_CLUSTER_CLASSPATH" "$@" >>"$OUT/clients.log" 2>&1
}
suffix="capture-$$"
java_client ExampleBrokerClients "$KAFKA_CLUSTER_BROKER" topic "kw-capture-$suffix" 2
java_client ExampleBrokerClients "$KAFKA_CLUSTER_BROKER" produce "kw-capture-$suffix" 0 20
java_client ExampleBrokerClients "$KAFKA_CLUSTER_BROKER" consume "kw-capture-$suffix" "kw-capture-group-$suffix" 20
java_client ExampleBrokerClients "$KAFKA_CLUSTER_BROKER" cluster
java_client AdminOps "$KAFKA_CLUSTER_BROKER" "$suffix"
sleep 2 # a round of broker heartbeats and metadata fetches
stop_dump
trap - EXIT

status=0
"$KWIRE" decode "${ports[@]}" "$OUT/cluster.pcap" >"$OUT/decoded.txt" || status=$?
tail -n 1 "$OUT/decoded.txt"
requests=$(grep -c ' request ' "$OUT/decoded.txt" || true)
errors=$(grep -c '^[^ ]* [^ ]* error ' "$OUT/decoded.txt" || true)
if [ "$status" -ne 0 ] || [ "$errors" -ne 0 ] || [ "$requests" -lt 50 ]; then
    echo "capture-decode: kwire decode exit $status, $errors error lines, $requests requests (kept in $OUT):" >&2
    grep '^[^ ]* [^ ]* error ' "$OUT/decoded.txt" | head -n 20 >&2 || true
    exit 1
fi
echo "capture-decode: every frame of $requests requests and their responses decoded"
[ -n "${1:-}" ] || rm -rf "$OUT"
