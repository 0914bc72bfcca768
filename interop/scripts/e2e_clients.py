#!/usr/bin/env python3
"""End-to-end driver for two real Kafka clients, confluent-kafka (librdkafka)
and kafka-python, used by interop/scripts/e2e.sh against the example broker.

  e2e_clients.py roundtrip CLIENT --bootstrap HOST:PORT [--sasl USER:PASS] [--soak-secs N]
      list metadata, create a topic, produce three records (k0..k2, hello-0..2,
      header h=v), consume them through a consumer group, commit and check the
      committed offset; with --soak-secs, then keep producing and consuming one
      record at a time on the same connections for N seconds, so that they live
      through several SASL session lifetimes (KIP-368 re-authentication).
  e2e_clients.py two-members --bootstrap HOST:PORT
      two confluent-kafka consumers in one group share a two-partition topic.
  e2e_clients.py committed --bootstrap HOST:PORT --group G --topic T --expect N
      check a group's committed offset of partition 0 (for kcat's commit).
  e2e_clients.py produce CLIENT --bootstrap HOST:PORT --topic T --compression C [--pad N]
      create T (one partition) and produce three records (k0..k2, hello-0..2
      then N dots, header h=v) in one batch compressed with C (gzip, snappy,
      lz4 or zstd), for examples/client.rs --fetch-only to read.
  e2e_clients.py consume CLIENT --bootstrap HOST:PORT --topic T --expect N --compression C [--pad N]
      read partition 0 of T from offset 0 without a group (records written by
      examples/client.rs --compression C) and check the N records as above.

Prints one line per step; exits 0 when every check passed, 1 otherwise, and
77 (with a last line "SKIP: reason") when the client lacks the codec: the
codecs of kafka-python other than gzip need their python modules
(python-snappy, lz4, zstandard).
Every wait is bounded.
"""

import argparse
import sys
import time
import uuid

GROUP_TIMEOUT = 60.0  # seconds for a consumer group to deliver what was produced
EXPECTED = [(f"k{i}".encode(), f"hello-{i}".encode()) for i in range(3)]


class Failed(Exception):
    pass


class Skipped(Exception):
    pass


def step(message):
    print(message, flush=True)


def check(condition, message):
    if not condition:
        raise Failed(message)


def sasl_settings(client, sasl):
    if not sasl:
        return {}
    user, password = sasl.split(":", 1)
    if client == "confluent":
        return {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanisms": "PLAIN",
            "sasl.username": user,
            "sasl.password": password,
        }
    return {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "PLAIN",
        "sasl_plain_username": user,
        "sasl_plain_password": password,
    }


def new_topic(client):
    return f"t-{client}-{uuid.uuid4().hex[:8]}"


# ---------------------------------------------------------------- confluent


def confluent_roundtrip(args):
    from confluent_kafka import Consumer, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient, NewTopic

    common = {"bootstrap.servers": args.bootstrap, **sasl_settings("confluent", args.sasl)}
    topic = new_topic("confluent")
    group = "g-" + topic

    admin = AdminClient(common)
    md = admin.list_topics(timeout=15)
    check(len(md.brokers) == 1, f"expected one broker, got {md.brokers}")
    step(f"metadata: brokers {sorted(md.brokers)}, {len(md.topics)} topics")

    for name, future in admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)]).items():
        future.result(15)
    step(f"created {topic}")

    producer = Producer(common)
    errors = []
    for key, value in EXPECTED:
        producer.produce(topic, key=key, value=value, headers=[("h", b"v")],
                         on_delivery=lambda err, msg: errors.append(err) if err else None)
    check(producer.flush(15) == 0, "records left unflushed")
    check(not errors, f"delivery errors: {errors}")
    step("produced 3 records")

    consumer = Consumer({**common, "group.id": group, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, "session.timeout.ms": 10000,
                         "heartbeat.interval.ms": 1000})
    consumer.subscribe([topic])
    got = []
    deadline = time.time() + GROUP_TIMEOUT
    while len(got) < 3 and time.time() < deadline:
        m = consumer.poll(1.0)
        if m is None:
            continue
        check(not m.error(), f"consumer error: {m.error()}")
        got.append((m.key(), m.value(), m.offset(), m.headers()))
    want = [(k, v, i, [("h", b"v")]) for i, (k, v) in enumerate(EXPECTED)]
    check(got == want, f"consumed {got}, expected {want}")
    step(f"consumed through group {group}: {[(k, v, o) for k, v, o, _ in got]}, headers h=v")

    consumer.commit(asynchronous=False)
    committed = consumer.committed([TopicPartition(topic, 0)], timeout=15)
    check(committed[0].offset == 3, f"committed offset {committed[0].offset}, expected 3")
    step("committed offset 3")

    if args.soak_secs > 0:
        soak(args.soak_secs,
             lambda i: (producer.produce(topic, key=b"soak", value=str(i).encode()), producer.flush(10)),
             lambda: [m.value() for m in iter_poll(consumer)])
    consumer.close()
    producer.flush(10)


def iter_poll(consumer):
    m = consumer.poll(1.0)
    if m is not None and not m.error():
        yield m


def confluent_two_members(args):
    from confluent_kafka import Consumer, Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    common = {"bootstrap.servers": args.bootstrap}
    topic = new_topic("two-members")
    group = "g-" + topic
    admin = AdminClient(common)
    for _, future in admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)]).items():
        future.result(15)
    step(f"created {topic} with 2 partitions")
    producer = Producer(common)
    for p in (0, 1):
        for i in range(3):
            producer.produce(topic, partition=p, value=f"p{p}-{i}".encode())
    check(producer.flush(15) == 0, "records left unflushed")
    step("produced 3 records to each partition")

    settings = {**common, "group.id": group, "auto.offset.reset": "earliest", "enable.auto.commit": False,
                "session.timeout.ms": 10000, "heartbeat.interval.ms": 500}
    consumers = [Consumer(settings)]
    consumers[0].subscribe([topic])
    deadline = time.time() + GROUP_TIMEOUT
    seen = set()
    while time.time() < deadline and len(consumers[0].assignment()) < 2:
        m = consumers[0].poll(0.2)
        if m is not None and not m.error():
            seen.add(m.value().decode())
    check(len(consumers[0].assignment()) == 2, "the first member did not get both partitions")
    step("first member owns partitions [0, 1]")

    # A second member joins the stable group: the first hears of the
    # rebalance from its heartbeat, rejoins, and each ends with one partition.
    consumers.append(Consumer(settings))
    consumers[1].subscribe([topic])
    assigned = [set(), set()]
    while time.time() < deadline:
        for i, c in enumerate(consumers):
            m = c.poll(0.2)
            assigned[i] = {tp.partition for tp in c.assignment()}
            if m is not None and not m.error():
                seen.add(m.value().decode())
        if sorted(len(a) for a in assigned) == [1, 1] and len(seen) == 6:
            break
    step(f"after the rebalance: assignments {[sorted(a) for a in assigned]}, {len(seen)} distinct records consumed")
    check(sorted(len(a) for a in assigned) == [1, 1], f"expected one partition each, got {assigned}")
    check(seen == {f"p{p}-{i}" for p in (0, 1) for i in range(3)}, f"records {sorted(seen)}")
    for c in consumers:
        c.close()
    step("both members left")


def confluent_committed(args):
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": args.group,
                         **sasl_settings("confluent", args.sasl)})
    committed = consumer.committed([TopicPartition(args.topic, 0)], timeout=15)
    consumer.close()
    step(f"group {args.group}: committed offset of {args.topic}-0 is {committed[0].offset}")
    check(committed[0].offset == args.expect, f"expected {args.expect}")


# ---------------------------------------------------------------- kafka-python


def kafka_python_roundtrip(args):
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic

    common = {"bootstrap_servers": args.bootstrap, "request_timeout_ms": 15000,
              **sasl_settings("kafka-python", args.sasl)}
    topic = new_topic("kafka-python")
    group = "g-" + topic

    admin = KafkaAdminClient(**common)
    topics = admin.list_topics()
    step(f"metadata: {len(topics)} topics")
    admin.create_topics([NewTopic(topic, 1, 1)])
    admin.close()
    step(f"created {topic}")

    producer = KafkaProducer(**common)
    futures = [producer.send(topic, key=k, value=v, headers=[("h", b"v")]) for k, v in EXPECTED]
    offsets = [f.get(timeout=15).offset for f in futures]
    check(offsets == [0, 1, 2], f"produced at offsets {offsets}")
    step("produced 3 records")

    consumer = KafkaConsumer(topic, group_id=group, auto_offset_reset="earliest", enable_auto_commit=False,
                             session_timeout_ms=10000, heartbeat_interval_ms=1000, **common)
    got = []
    deadline = time.time() + GROUP_TIMEOUT
    while len(got) < 3 and time.time() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            got.extend((r.key, r.value, r.offset, [(h[0], h[1]) for h in r.headers]) for r in records)
    want = [(k, v, i, [("h", b"v")]) for i, (k, v) in enumerate(EXPECTED)]
    check(got == want, f"consumed {got}, expected {want}")
    step(f"consumed through group {group}: {[(k, v, o) for k, v, o, _ in got]}, headers h=v")

    consumer.commit()
    committed = consumer.committed(TopicPartition(topic, 0))
    committed = getattr(committed, "offset", committed)
    check(committed == 3, f"committed offset {committed}, expected 3")
    step("committed offset 3")

    if args.soak_secs > 0:
        def consume():
            return [r.value for records in consumer.poll(timeout_ms=1000).values() for r in records]
        soak(args.soak_secs, lambda i: producer.send(topic, key=b"soak", value=str(i).encode()).get(timeout=10),
             consume)
    consumer.close()
    producer.close(timeout=10)


# ---------------------------------------------------------------- compression


# What kafka-python needs for each codec (kafka/codec.py): the check and the module.
KAFKA_PYTHON_CODECS = {"gzip": ("has_gzip", "gzip (standard library)"),
                       "snappy": ("has_snappy", "snappy (PyPI python-snappy)"),
                       "lz4": ("has_lz4", "lz4.frame (PyPI lz4)"),
                       "zstd": ("has_zstd", "zstandard (PyPI zstandard)")}


def expected_records(pad, n=3):
    return [(f"k{i}".encode(), f"hello-{i}{'.' * pad}".encode()) for i in range(n)]


def kafka_python_has(codec):
    """Skips unless this kafka-python can compress and decompress `codec`."""
    import kafka
    from kafka import codec as kcodec

    check_name, module = KAFKA_PYTHON_CODECS[codec]
    if not getattr(kcodec, check_name)():
        raise Skipped(f"kafka-python {kafka.__version__} has no {codec}: python module {module} is not installed")
    step(f"kafka-python {kafka.__version__}: {codec} available ({module})")


def create_topic(client, bootstrap, topic):
    if client == "confluent":
        from confluent_kafka.admin import AdminClient, NewTopic

        admin = AdminClient({"bootstrap.servers": bootstrap})
        for _, future in admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)]).items():
            future.result(15)
    else:
        from kafka import KafkaAdminClient
        from kafka.admin import NewTopic

        admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=15000)
        admin.create_topics([NewTopic(topic, 1, 1)])
        admin.close()
    step(f"created {topic}")


def produce_compressed(args):
    records = expected_records(args.pad)
    if args.client == "confluent":
        import confluent_kafka
        from confluent_kafka import Producer

        create_topic("confluent", args.bootstrap, args.topic)
        # linger.ms keeps the three records in one batch. librdkafka sends a
        # batch uncompressed when compressing does not make it smaller (short
        # records under lz4 do that), hence --pad.
        producer = Producer({"bootstrap.servers": args.bootstrap, "compression.type": args.compression,
                             "linger.ms": 100})
        offsets, errors = [], []

        def delivered(err, msg):
            if err:
                errors.append(err)
            else:
                offsets.append(msg.offset())

        for key, value in records:
            producer.produce(args.topic, key=key, value=value, headers=[("h", b"v")], on_delivery=delivered)
        check(producer.flush(15) == 0, "records left unflushed")
        check(not errors, f"delivery errors: {errors}")
        version = f"confluent-kafka {confluent_kafka.__version__}, librdkafka {confluent_kafka.libversion()[0]}"
    else:
        import kafka
        from kafka import KafkaProducer

        kafka_python_has(args.compression)
        create_topic("kafka-python", args.bootstrap, args.topic)
        producer = KafkaProducer(bootstrap_servers=args.bootstrap, request_timeout_ms=15000,
                                 compression_type=args.compression, linger_ms=100)
        futures = [producer.send(args.topic, key=k, value=v, headers=[("h", b"v")]) for k, v in records]
        offsets = [f.get(timeout=15).offset for f in futures]
        producer.close(timeout=10)
        version = f"kafka-python {kafka.__version__}"
    check(sorted(offsets) == [0, 1, 2], f"produced at offsets {offsets}")
    step(f"{version}: produced 3 records with compression.type={args.compression} to {args.topic}, offsets 0-2")


def consume_from_start(args):
    want = [(k, v, i, [("h", b"v")]) for i, (k, v) in enumerate(expected_records(args.pad, args.expect))]
    got = []
    deadline = time.time() + 30
    if args.client == "confluent":
        import confluent_kafka
        from confluent_kafka import Consumer, TopicPartition

        # assign(), not subscribe(): no group is joined, nothing committed.
        consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": "e2e-codecs",
                             "enable.auto.commit": False})
        consumer.assign([TopicPartition(args.topic, 0, 0)])
        while len(got) < args.expect and time.time() < deadline:
            m = consumer.poll(1.0)
            if m is None:
                continue
            check(not m.error(), f"consumer error: {m.error()}")
            got.append((m.key(), m.value(), m.offset(), m.headers()))
        consumer.close()
        version = f"confluent-kafka {confluent_kafka.__version__}, librdkafka {confluent_kafka.libversion()[0]}"
    else:
        import kafka
        from kafka import KafkaConsumer, TopicPartition

        kafka_python_has(args.compression)
        consumer = KafkaConsumer(bootstrap_servers=args.bootstrap, group_id=None, enable_auto_commit=False,
                                 request_timeout_ms=15000)
        tp = TopicPartition(args.topic, 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        while len(got) < args.expect and time.time() < deadline:
            for records in consumer.poll(timeout_ms=1000).values():
                got.extend((r.key, r.value, r.offset, [(h[0], h[1]) for h in r.headers]) for r in records)
        consumer.close()
        version = f"kafka-python {kafka.__version__}"
    check(got == want, f"consumed {got}, expected {want}")
    step(f"{version}: read {len(got)} {args.compression} records of {args.topic}: "
         f"{[(k, v[:9] + b'..', o) for k, v, o, _ in got]}, headers h=v")


# ---------------------------------------------------------------- common


def soak(seconds, produce, consume):
    """Produce one record at a time and consume it on the same, long-lived
    connections for `seconds`; every record must come back."""
    sent, received = 0, []
    end = time.time() + seconds
    while time.time() < end:
        produce(sent)
        sent += 1
        deadline = time.time() + 15
        while len(received) < sent and time.time() < deadline:
            received.extend(consume())
        check(len(received) >= sent, f"soak: record {sent - 1} did not come back")
        time.sleep(0.5)
    check([int(v) for v in received] == list(range(sent)), f"soak: got {received}")
    step(f"soak: {sent} records produced and consumed over {seconds:.0f} s")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["roundtrip", "two-members", "committed", "produce", "consume"])
    p.add_argument("client", nargs="?", choices=["confluent", "kafka-python"], default="confluent")
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--sasl", metavar="USER:PASS")
    p.add_argument("--soak-secs", type=float, default=0)
    p.add_argument("--group")
    p.add_argument("--topic")
    p.add_argument("--expect", type=int, default=3)
    p.add_argument("--compression", choices=sorted(KAFKA_PYTHON_CODECS))
    p.add_argument("--pad", type=int, default=0)
    args = p.parse_args()
    try:
        if args.mode in ("produce", "consume"):
            if not (args.topic and args.compression):
                p.error(f"{args.mode} needs --topic and --compression")
            (produce_compressed if args.mode == "produce" else consume_from_start)(args)
        elif args.mode == "committed":
            confluent_committed(args)
        elif args.mode == "two-members":
            confluent_two_members(args)
        elif args.client == "confluent":
            confluent_roundtrip(args)
        else:
            kafka_python_roundtrip(args)
    except Skipped as e:
        print(f"SKIP: {e}", flush=True)
        return 77
    except Failed as e:
        print(f"FAIL: {e}", flush=True)
        return 1
    except Exception as e:  # a client error is a failed check too
        print(f"FAIL: {type(e).__name__}: {e}", flush=True)
        return 1
    print("OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
