#!/usr/bin/env bash
# A real Apache Kafka cluster on 127.0.0.1, from the release's jars on Maven
# Central: one KRaft controller process and one broker process, separate, so
# that admin writes travel broker -> controller inside EnvelopeRequests
# (KIP-590).
#
# Usage:
#   bash interop/scripts/kafka-cluster.sh fetch  [VERSION]   jars only (default: kafka-facts.json's release)
#   bash interop/scripts/kafka-cluster.sh start  [VERSION]   fetch, format, start, wait
#   bash interop/scripts/kafka-cluster.sh stop               stop by pid, keep the logs
#   bash interop/scripts/kafka-cluster.sh status             what runs, where
#   bash interop/scripts/kafka-cluster.sh logs               print every log
#
# Environment:
#   KAFKA_CLUSTER_DIR        state directory (default .cache/cluster): configs,
#                            data, logs, pids, and `env`, which the tests read
#   KAFKA_CLUSTER_PORT_BASE  first of the seven ports B..B+6 (default 19700; 19092
#                            is the example broker's)
#   KAFKA_CLUSTER_RELAY=1    put examples/envelope_relay (built on kwire)
#                            between the broker and the controller: the broker's
#                            controller address is the relay's, and the relay
#                            logs every frame it passes, one JSON line each
#                            (and answers the Envelopes of CreateTopics for
#                            topics kwire-relay-envelope-error-<CODE>-... with
#                            error CODE, once per name);
#                            and a second relay before the broker's
#                            CONNECT_RELAYED listener, which advertises the
#                            relay's address, so that clients bootstrapping
#                            there (the tests' Connect workers) reach the
#                            broker only through it, group coordinator
#                            included (frames: logs/relay-clients-frames.jsonl)
#   KAFKA_CLUSTER_REAUTH_MS  connections.max.reauth.ms of the SASL listeners
#                            (default 6000; KIP-368)
#
# `start` also compiles the Java programs of interop/conformance/java/cluster/ (drivers
# built on Kafka's own clients); `env` gives their classpath as
# KAFKA_CLUSTER_CLASSPATH (interop/tests/common/cluster.rs reads it).
#
# Ports, from the base B:
#   B    broker PLAINTEXT          (no authentication; super user ANONYMOUS)
#   B+1  broker SASL_PLAINTEXT     (PLAIN: admin/admin-secret is a super user,
#                                   alice/alice-secret is not)
#   B+2  controller CONTROLLER     (PLAINTEXT; what the broker uses)
#   B+3  controller SASL_PLAINTEXT (PLAIN, same users: alice has no
#                                   CLUSTER_ACTION, so her Envelopes are refused)
#   B+4  the relay before the controller (with KAFKA_CLUSTER_RELAY=1)
#   B+5  broker CONNECT_RELAYED    (PLAINTEXT; with KAFKA_CLUSTER_RELAY=1;
#                                   advertised as B+6)
#   B+6  the relay before B+5      (with KAFKA_CLUSTER_RELAY=1)
#
# Both processes run StandardAuthorizer with super.users User:ANONYMOUS and
# User:admin, so PLAINTEXT clients may do anything. Every process started is
# recorded in $KAFKA_CLUSTER_DIR/pids and stopped by pid; `start` stops a
# previous cluster of the same directory first. On a failed start the logs are
# printed and everything started is stopped.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${KWIRE_RELEASES:-$ROOT/.cache/kafka}"
case "$CACHE" in /*) ;; *) CACHE="$ROOT/$CACHE" ;; esac
DIR="${KAFKA_CLUSTER_DIR:-$ROOT/.cache/cluster}"
case "$DIR" in /*) ;; *) DIR="$ROOT/$DIR" ;; esac
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
# shellcheck source=progress.sh
. "$(dirname "$0")/progress.sh"
BASE="${KAFKA_CLUSTER_PORT_BASE:-19700}"
REAUTH_MS="${KAFKA_CLUSTER_REAUTH_MS:-6000}"
BROKER_PORT=$BASE
BROKER_SASL_PORT=$((BASE + 1))
CONTROLLER_PORT=$((BASE + 2))
CONTROLLER_SASL_PORT=$((BASE + 3))
RELAY_PORT=$((BASE + 4))
RELAYED_PORT=$((BASE + 5))
CLIENT_RELAY_PORT=$((BASE + 6))
# The SLF4J binding Kafka's release tarball ships beside its jars.
LOG4J="2.25.5"

cmd="${1:-}"
VERSION="${2:-$(bash "$(dirname "$0")/../../scripts/kafka-facts.sh" release)}"
JARS="$CACHE/$VERSION/server-jars"

fetch() {
    if [ -f "$JARS/.complete" ]; then
        return
    fi
    echo "kafka-cluster: fetching Apache Kafka $VERSION (kafka_2.13, kafka-server, kafka-tools and their dependencies)" >&2
    rm -rf "$JARS"
    mkdir -p "$JARS/pom"
    cat > "$JARS/pom/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kwire</groupId><artifactId>kafka-cluster</artifactId><version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-server</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J</version></dependency>
  </dependencies>
</project>
EOF
    if ! with_progress "kafka-cluster: Maven" "$JARS" "$JARS/maven.log" \
        mvn -q -B -f "$JARS/pom/pom.xml" -Dmaven.repo.local="$CACHE/m2" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$JARS"; then
        echo "kafka-cluster: Maven could not fetch Kafka $VERSION; see $JARS/maven.log" >&2
        tail -n 30 "$JARS/maven.log" >&2
        exit 1
    fi
    echo "$VERSION" > "$JARS/.complete"
}

classpath() {
    local cp="" jar
    for jar in "$JARS"/*.jar; do
        cp="${cp:+$cp:}$jar"
    done
    echo "$cp"
}

# The Java programs the tests drive the cluster with (interop/conformance/java/cluster/,
# Kafka's own clients), compiled against the release into
# $CACHE/$VERSION/cluster-classes; recompiled when a source is newer.
compile_drivers() {
    local src="$ROOT/interop/conformance/java/cluster" out="$CACHE/$VERSION/cluster-classes"
    ls "$src"/*.java >/dev/null 2>&1 || return 0
    if [ -f "$out/.stamp" ] && [ -z "$(find "$src" -name '*.java' -newer "$out/.stamp")" ]; then
        return 0
    fi
    # Compiled beside, then swapped in: a test running now keeps whole classes.
    local tmp="$out.tmp.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    javac -nowarn -d "$tmp" -cp "$(classpath)" "$src"/*.java || { rm -rf "$tmp"; echo "kafka-cluster: javac failed" >&2; exit 1; }
    touch "$tmp/.stamp"
    rm -rf "$out.old.$$"
    [ -d "$out" ] && mv "$out" "$out.old.$$"
    mv "$tmp" "$out"
    rm -rf "$out.old.$$"
}

stop() {
    if [ -f "$DIR/pids" ]; then
        local name pid
        # Newest first: the clients' relay, the broker, the relay, the controller.
        tac "$DIR/pids" | while read -r name pid; do
            if kill -0 "$pid" 2>/dev/null; then
                kill "$pid" 2>/dev/null || true
                for _ in $(seq 1 100); do
                    kill -0 "$pid" 2>/dev/null || break
                    sleep 0.1
                done
                if kill -0 "$pid" 2>/dev/null; then
                    echo "kafka-cluster: $name ($pid) did not stop; killing it" >&2
                    kill -9 "$pid" 2>/dev/null || true
                fi
            fi
        done
        rm -f "$DIR/pids"
    fi
}

logs() {
    local log
    for log in "$DIR"/logs/*.log; do
        [ -f "$log" ] || continue
        # Kafka's config dumps (tab-indented lines) left out: they bury the errors.
        echo "===== $log (last 120 lines, config dumps left out)"
        grep -v $'^\t' "$log" | tail -n 120
    done
}

port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# wait_for NAME PID LOG PATTERN SECONDS
wait_for() {
    local name="$1" pid="$2" log="$3" pattern="$4" seconds="$5"
    for _ in $(seq 1 $((seconds * 5))); do
        if grep -q "$pattern" "$log" 2>/dev/null; then
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "kafka-cluster: $name exited while starting" >&2
            return 1
        fi
        sleep 0.2
    done
    echo "kafka-cluster: $name did not log '$pattern' within $seconds s" >&2
    return 1
}

fail() {
    echo "kafka-cluster: start failed: $*" >&2
    logs >&2
    stop
    exit 1
}

write_configs() {
    local voters_port="$CONTROLLER_PORT"
    local listeners="PLAINTEXT://127.0.0.1:$BROKER_PORT,SASL_PLAINTEXT://127.0.0.1:$BROKER_SASL_PORT"
    local advertised="$listeners"
    if [ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ]; then
        voters_port="$RELAY_PORT"
        listeners="$listeners,CONNECT_RELAYED://127.0.0.1:$RELAYED_PORT"
        advertised="$advertised,CONNECT_RELAYED://127.0.0.1:$CLIENT_RELAY_PORT"
    fi
    local jaas='org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";'
    cat > "$DIR/config/controller.properties" <<EOF
process.roles=controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=CONTROLLER://127.0.0.1:$CONTROLLER_PORT,CONTROLLER_SASL://127.0.0.1:$CONTROLLER_SASL_PORT
controller.listener.names=CONTROLLER,CONTROLLER_SASL
listener.security.protocol.map=CONTROLLER:PLAINTEXT,CONTROLLER_SASL:SASL_PLAINTEXT
sasl.enabled.mechanisms=PLAIN
listener.name.controller_sasl.plain.sasl.jaas.config=$jaas
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS;User:admin
log.dirs=$DIR/data/controller
# A snapshot of the metadata log every few seconds (default: hourly), so that
# tests find .checkpoint files to read.
metadata.log.max.snapshot.interval.ms=5000
EOF
    cat > "$DIR/config/broker.properties" <<EOF
process.roles=broker
node.id=2
controller.quorum.voters=1@127.0.0.1:$voters_port
controller.listener.names=CONTROLLER
listeners=$listeners
advertised.listeners=$advertised
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONNECT_RELAYED:PLAINTEXT
sasl.enabled.mechanisms=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=$jaas
connections.max.reauth.ms=$REAUTH_MS
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS;User:admin
log.dirs=$DIR/data/broker
metadata.log.max.snapshot.interval.ms=5000
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
share.coordinator.state.topic.num.partitions=3
group.initial.rebalance.delay.ms=0
group.share.enable=true
auto.create.topics.enable=false
EOF
    cat > "$DIR/config/log4j2.properties" <<EOF
status = error
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = out
EOF
    # For the drivers and tools: warnings only, on stderr (stdout is theirs).
    cat > "$DIR/config/tools-log4j2.properties" <<EOF
status = error
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = err
EOF
}

start() {
    command -v java >/dev/null || { echo "kafka-cluster: java not found" >&2; exit 1; }
    fetch
    compile_drivers
    stop
    if [ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ]; then
        # Built first, in full view, with the features and profile of
        # `cargo test --workspace --all-features`: before it or after it,
        # neither build repeats the other's work.
        echo "kafka-cluster: building examples/envelope_relay" >&2
        (cd "$ROOT" && with_progress "kafka-cluster: cargo" "" "" \
            cargo build --workspace --all-features --profile test --example envelope_relay) ||
            fail "building examples/envelope_relay"
    fi
    local port
    for port in "$BROKER_PORT" "$BROKER_SASL_PORT" "$CONTROLLER_PORT" "$CONTROLLER_SASL_PORT" "$RELAY_PORT" \
        "$RELAYED_PORT" "$CLIENT_RELAY_PORT"; do
        port_free "$port" || { echo "kafka-cluster: port $port is in use (set KAFKA_CLUSTER_PORT_BASE)" >&2; exit 1; }
    done
    rm -rf "$DIR/data" "$DIR/logs" "$DIR/config"
    mkdir -p "$DIR/data" "$DIR/logs" "$DIR/config"
    : > "$DIR/pids"
    write_configs
    local cp java_opts cluster_id
    cp="$(classpath)"
    java_opts=(-Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true
        "-Dlog4j2.configurationFile=$DIR/config/log4j2.properties")
    # Any 16 bytes in Kafka's base64 form; fixed, so runs are comparable.
    cluster_id="a2Fma2Etd2lyZS10ZXN0IQ"
    local role
    for role in controller broker; do
        java "${java_opts[@]}" -cp "$cp" kafka.tools.StorageTool format \
            --cluster-id "$cluster_id" --config "$DIR/config/$role.properties" \
            >"$DIR/logs/format-$role.log" 2>&1 || fail "formatting the $role's storage"
    done

    java "${java_opts[@]}" -cp "$cp" kafka.Kafka "$DIR/config/controller.properties" \
        >"$DIR/logs/controller.log" 2>&1 &
    echo "controller $!" >> "$DIR/pids"
    wait_for controller "$!" "$DIR/logs/controller.log" "Kafka Server started" 120 || fail controller

    if [ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ]; then
        # --inject-envelope-errors: the relay itself answers the Envelope of a
        # CreateTopics for a topic kwire-relay-envelope-error-<CODE>-... with
        # error CODE (once per name; CODE 0: error 0 and response data that is
        # no response), for interop/tests/cluster_envelope.rs.
        "$TARGET/debug/examples/envelope_relay" --listen "127.0.0.1:$RELAY_PORT" \
            --upstream "127.0.0.1:$CONTROLLER_PORT" --frames "$DIR/logs/relay-frames.jsonl" \
            --inject-envelope-errors --plaintext >"$DIR/logs/relay.log" 2>&1 &
        echo "relay $!" >> "$DIR/pids"
        wait_for relay "$!" "$DIR/logs/relay.log" "listening" 30 || fail relay
    fi

    java "${java_opts[@]}" -cp "$cp" kafka.Kafka "$DIR/config/broker.properties" \
        >"$DIR/logs/broker.log" 2>&1 &
    echo "broker $!" >> "$DIR/pids"
    wait_for broker "$!" "$DIR/logs/broker.log" "Kafka Server started" 180 || fail broker

    if [ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ]; then
        # Started after the broker, so stopped before it (pids, newest first).
        "$TARGET/debug/examples/envelope_relay" --listen "127.0.0.1:$CLIENT_RELAY_PORT" \
            --upstream "127.0.0.1:$RELAYED_PORT" --frames "$DIR/logs/relay-clients-frames.jsonl" \
            --plaintext >"$DIR/logs/relay-clients.log" 2>&1 &
        echo "relay-clients $!" >> "$DIR/pids"
        wait_for relay-clients "$!" "$DIR/logs/relay-clients.log" "listening" 30 || fail relay-clients
    fi

    cat > "$DIR/env" <<EOF
KAFKA_CLUSTER_VERSION=$VERSION
KAFKA_CLUSTER_BROKER=127.0.0.1:$BROKER_PORT
KAFKA_CLUSTER_BROKER_SASL=127.0.0.1:$BROKER_SASL_PORT
KAFKA_CLUSTER_CONTROLLER=127.0.0.1:$CONTROLLER_PORT
KAFKA_CLUSTER_CONTROLLER_SASL=127.0.0.1:$CONTROLLER_SASL_PORT
KAFKA_CLUSTER_RELAY=$([ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ] && echo "127.0.0.1:$RELAY_PORT")
KAFKA_CLUSTER_RELAY_FRAMES=$([ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ] && echo "$DIR/logs/relay-frames.jsonl")
KAFKA_CLUSTER_BROKER_RELAYED=$([ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ] && echo "127.0.0.1:$CLIENT_RELAY_PORT")
KAFKA_CLUSTER_RELAYED_FRAMES=$([ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ] && echo "$DIR/logs/relay-clients-frames.jsonl")
KAFKA_CLUSTER_REAUTH_MS=$REAUTH_MS
KAFKA_CLUSTER_DATA=$DIR/data
KAFKA_CLUSTER_CLASSPATH=$CACHE/$VERSION/cluster-classes:$cp
KAFKA_CLUSTER_LOG4J=$DIR/config/tools-log4j2.properties
EOF
    echo "kafka-cluster: Kafka $VERSION up: broker 127.0.0.1:$BROKER_PORT (SASL $BROKER_SASL_PORT), controller 127.0.0.1:$CONTROLLER_PORT (SASL $CONTROLLER_SASL_PORT)$([ "${KAFKA_CLUSTER_RELAY:-0}" = 1 ] && echo ", relay 127.0.0.1:$RELAY_PORT, clients' relay 127.0.0.1:$CLIENT_RELAY_PORT")" >&2
}

case "$cmd" in
    fetch) fetch; compile_drivers ;;
    start) start ;;
    stop) stop ;;
    logs) logs ;;
    status)
        if [ -f "$DIR/pids" ]; then
            while read -r name pid; do
                if kill -0 "$pid" 2>/dev/null; then echo "$name $pid running"; else echo "$name $pid gone"; fi
            done < "$DIR/pids"
        else
            echo "not started"
        fi
        ;;
    *)
        echo "usage: $0 fetch|start [VERSION] | stop | status | logs" >&2
        exit 2
        ;;
esac
