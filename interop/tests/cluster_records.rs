//! Record batches both ways between kwire and Apache Kafka 4.4.0,
//! against the cluster of `interop/scripts/kafka-cluster.sh`.
//!
//! - Kafka's Java producer (`interop/conformance/java/cluster/RecordsDriver.java`)
//!   writes one batch per codec (none, gzip, snappy, lz4, zstd) from
//!   idempotent producers, then a transaction that commits and one that
//!   aborts; kwire fetches the partition at `read_uncommitted` and reads
//!   every batch, record, header and transaction marker
//!   ([`ControlRecord`], [`BatchHeader::last_sequence`]).
//! - kwire produces one batch per codec as an idempotent producer
//!   (InitProducerId, sequences advanced with [`BatchHeader::last_sequence`]
//!   and [`increment_sequence`], including a batch whose sequences wrap past
//!   `i32::MAX` to 0), and Kafka's Java consumer reads every record back.
//!
//! What Kafka 4.4.0 does that a reader must allow for, seen here: with
//! transactions v2 (KIP-890, the default of a 4.x cluster) the transaction
//! coordinator bumps the producer epoch when a transaction ends, so a
//! marker carries the data's epoch + 1 and the next transaction starts again
//! at sequence 0 under that epoch. The test accepts that or the v1 rule
//! (same epoch, sequences continuing), and checks whichever Kafka did.
//!
//! Without a running cluster each test prints `skipped: ...` and passes;
//! under CI (`CI` set) it fails instead.

mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use common::cluster::{unique, Cluster};
use common::conn::Conn;
use common::fetch::retriable;
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::{CreateTopicsRequest, InitProducerIdRequest};
use kwire::primitives::Uuid;
use kwire::records::{
    increment_sequence, Compression, ControlRecordKey, ControlRecordType, DecodeOptions, EndTxnMarker, Header,
    RecordBatch, RecordBatchBuilder, NO_SEQUENCE,
};

/// Creates `topic` (one partition) and waits for its leader; its id.
fn create_topic(conn: &mut Conn, topic: &str) -> Uuid {
    let created = conn.call(CreateTopicsRequest {
        topics: vec![CreatableTopic {
            name: topic.into(),
            num_partitions: 1,
            replication_factor: 1,
            ..Default::default()
        }],
        timeout_ms: 30_000,
        ..Default::default()
    });
    assert_eq!(created.topics[0].error_code, 0, "CreateTopics {topic}: {:?}", created.topics[0].error_message);
    let (topic_id, partitions) = conn.partitions(topic);
    assert_eq!(partitions, [0], "{topic}");
    assert!(!topic_id.is_nil());
    topic_id
}

/// Every batch of `topic`'s partition 0, from offset 0 up to the high
/// watermark, fetched at `read_uncommitted` (aborted data and markers
/// included), CRCs checked.
fn fetch_all(conn: &mut Conn, topic: &str, topic_id: Uuid) -> Vec<RecordBatch> {
    let fetched = conn.fetch_all(topic, topic_id, 0);
    assert_eq!(fetched.start_offset, 0, "{topic}: nothing deleted");
    fetched.batches
}

/// A new idempotent producer: InitProducerId without a transactional id;
/// its id and epoch. On a fresh cluster the first one may find
/// `__transaction_state` still being created (COORDINATOR_LOAD_IN_PROGRESS,
/// COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR): waited out for 30 s.
fn init_producer(conn: &mut Conn) -> (i64, i16) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let init = conn.call(InitProducerIdRequest {
            transactional_id: None,
            transaction_timeout_ms: 60_000,
            producer_id: -1,
            producer_epoch: -1,
            ..Default::default()
        });
        if matches!(init.error_code, 14..=16) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        }
        assert_eq!(init.error_code, 0, "InitProducerId");
        return (init.producer_id, init.producer_epoch);
    }
}

fn codec(name: &str) -> Compression {
    Compression::ALL.into_iter().find(|c| c.name() == name).expect("codec")
}

fn text(b: &Option<Bytes>) -> Option<String> {
    b.as_ref().map(|b| String::from_utf8(b.to_vec()).expect("UTF-8"))
}

/// Header keys and values as text.
type Headers = Vec<(String, Option<String>)>;

fn headers(h: &[Header]) -> Headers {
    h.iter().map(|h| (h.key_str().expect("UTF-8 key").to_string(), text(&h.value))).collect()
}

/// A batch's records as (key, value, headers) text.
fn records(batch: &RecordBatch) -> Vec<(Option<String>, Option<String>, Headers)> {
    batch
        .records(&DecodeOptions::default())
        .expect("records")
        .map(|r| {
            let r = r.expect("record");
            (text(&r.key), text(&r.value), headers(&r.headers))
        })
        .collect()
}

#[test]
fn kafka_java_batches_read_by_kwire() {
    let Some(cluster) = Cluster::find("records written by Kafka's Java producer") else { return };
    let topic = unique("kw-records-java");
    let mut conn = Conn::connect(cluster.broker(), "kwire-cluster-records");
    let topic_id = create_topic(&mut conn, &topic);

    let out = cluster.java("RecordsDriver", &["write", cluster.broker(), &topic]);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let sent: Vec<(i64, String)> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("sent "))
        .map(|l| {
            let (offset, key) = l.split_once(' ').expect("sent OFFSET KEY");
            (offset.parse().expect("offset"), key.to_string())
        })
        .collect();
    assert!(stdout.lines().any(|l| l == "done"), "{stdout}");

    let batches = fetch_all(&mut conn, &topic, topic_id);
    let summary: Vec<String> = batches
        .iter()
        .map(|b| {
            let h = b.header();
            format!(
                "offset {} count {} codec {:?} txn {} control {} producer {}/{} seq {}..{}",
                h.base_offset,
                h.record_count,
                h.attributes.compression(),
                h.attributes.is_transactional(),
                h.attributes.is_control(),
                h.producer_id,
                h.producer_epoch,
                h.base_sequence,
                h.last_sequence()
            )
        })
        .collect();
    eprintln!("Kafka's batches:\n  {}", summary.join("\n  "));
    assert_eq!(batches.len(), 9, "five codec batches, two transactions of data + marker: {summary:#?}");

    // Every offset the Java producer was told belongs to the record kwire reads there.
    let mut by_offset = std::collections::BTreeMap::new();
    for batch in &batches {
        for record in batch.records(&DecodeOptions::default()).expect("records") {
            let record = record.expect("record");
            by_offset.insert(batch.header().offset_of(&record), text(&record.key));
        }
    }
    assert_eq!(sent.len(), 19);
    for (offset, key) in &sent {
        assert_eq!(by_offset.get(offset), Some(&Some(key.clone())), "offset {offset}");
    }

    // One batch per codec, each from its own idempotent producer.
    let mut producer_ids = Vec::new();
    for (i, name) in ["none", "gzip", "snappy", "lz4", "zstd"].into_iter().enumerate() {
        let batch = &batches[i];
        let h = batch.header();
        batch.verify_crc().expect("CRC");
        assert_eq!(h.base_offset, 3 * i as i64, "{name}");
        assert_eq!(h.attributes.compression(), Some(codec(name)), "batch {i} codec");
        assert!(!h.attributes.is_transactional() && !h.attributes.is_control(), "{name}");
        assert_eq!((h.record_count, h.last_offset_delta), (3, 2), "{name}");
        assert!(h.producer_id >= 0, "{name}: idempotent producers have an id");
        assert_eq!((h.producer_epoch, h.base_sequence, h.last_sequence()), (0, 0, 2), "{name}");
        producer_ids.push(h.producer_id);
        let expected: Vec<_> = (0..3)
            .map(|r| {
                (
                    Some(format!("{name}-k{r}")),
                    Some(format!("{name}-value-{r}-{}", "x".repeat(64))),
                    vec![
                        ("codec".to_string(), Some(name.to_string())),
                        ("index".to_string(), Some(r.to_string())),
                        ("nothing".to_string(), None),
                    ],
                )
            })
            .collect();
        assert_eq!(records(batch), expected, "{name}");
    }
    producer_ids.sort_unstable();
    producer_ids.dedup();
    assert_eq!(producer_ids.len(), 5, "a new producer id per producer");

    // The two transactions: data then marker, each.
    let mut coordinator_epochs = Vec::new();
    let mut previous: Option<(i16, i32)> = None; // epoch and last sequence of the previous data batch
    for (t, (outcome, marker_type)) in
        [("commit", ControlRecordType::Commit), ("abort", ControlRecordType::Abort)].into_iter().enumerate()
    {
        let data = &batches[5 + 2 * t];
        let marker = &batches[6 + 2 * t];
        let (d, m) = (data.header(), marker.header());
        data.verify_crc().expect("CRC");
        marker.verify_crc().expect("CRC");
        assert_eq!(d.base_offset, 15 + 3 * t as i64, "{outcome}");
        assert!(d.attributes.is_transactional() && !d.attributes.is_control(), "{outcome} data");
        assert_eq!(d.attributes.compression(), Some(Compression::Gzip), "{outcome} data");
        assert_eq!(d.record_count, 2);
        assert_eq!(d.producer_id, batches[5].header().producer_id, "one transactional producer");
        assert!(!producer_ids.contains(&d.producer_id));
        // Sequences: continuing under the same epoch, from 0 under a new one.
        let expected_base = match previous {
            Some((epoch, last)) if epoch == d.producer_epoch => increment_sequence(last, 1),
            _ => 0,
        };
        assert_eq!(d.base_sequence, expected_base, "{outcome} data: epoch {}, previous {previous:?}", d.producer_epoch);
        assert_eq!(d.last_sequence(), increment_sequence(d.base_sequence, 1));
        previous = Some((d.producer_epoch, d.last_sequence()));
        let expected: Vec<_> = (0..2)
            .map(|r| {
                (
                    Some(format!("{outcome}-k{r}")),
                    Some(format!("{outcome}-value-{r}")),
                    vec![("txn".to_string(), Some(outcome.to_string()))],
                )
            })
            .collect();
        assert_eq!(records(data), expected, "{outcome} data");

        // The marker batch: control, transactional, no sequence, one record.
        assert_eq!(m.base_offset, d.last_offset() + 1, "{outcome} marker follows its data");
        assert!(m.attributes.is_transactional() && m.attributes.is_control(), "{outcome} marker");
        assert_eq!(m.attributes.compression(), Some(Compression::None));
        assert_eq!((m.record_count, m.base_sequence, m.last_sequence()), (1, NO_SEQUENCE, NO_SEQUENCE));
        assert_eq!(m.producer_id, d.producer_id);
        assert!(
            m.producer_epoch == d.producer_epoch || m.producer_epoch == d.producer_epoch + 1,
            "{outcome} marker epoch {} for data epoch {}",
            m.producer_epoch,
            d.producer_epoch
        );
        let controls = marker.control_records(&DecodeOptions::default()).expect("control records");
        assert_eq!(controls.len(), 1);
        assert_eq!(controls[0].key, ControlRecordKey { version: 0, record_type: marker_type }, "{outcome}");
        let value = controls[0].marker.expect("a marker value");
        assert_eq!(value.version, 0);
        assert!(value.coordinator_epoch >= 0);
        coordinator_epochs.push(value.coordinator_epoch);
        // Byte for byte: the key and value re-encode as Kafka wrote them.
        let record = marker.records(&DecodeOptions::default()).expect("records").next().expect("one").expect("ok");
        assert_eq!(record.key.as_deref(), Some(&ControlRecordKey::new(marker_type).to_bytes()[..]));
        assert_eq!(record.value.as_deref(), Some(&EndTxnMarker::new(value.coordinator_epoch).to_bytes()[..]));
        // Data batches are not control batches.
        assert!(data.control_records(&DecodeOptions::default()).is_err());
    }
    assert_eq!(coordinator_epochs[0], coordinator_epochs[1], "one coordinator wrote both markers");
}

/// One idempotent batch of kwire's: `count` records, key
/// `<prefix>-k<i>`, value `<prefix>-value-<i>-yyyy…`, three headers.
fn kwire_batch(
    prefix: &str,
    compression: Compression,
    producer: (i64, i16),
    base_sequence: i32,
    timestamp: i64,
    count: usize,
) -> RecordBatch {
    let mut builder = RecordBatchBuilder::new(0);
    builder.compression(compression).producer(producer.0, producer.1, base_sequence);
    for i in 0..count {
        let headers = vec![
            Header::new("codec", Some(Bytes::from(compression.name()))),
            Header::new("index", Some(Bytes::from(i.to_string()))),
            Header::new("nothing", None),
        ];
        let value = format!("{prefix}-value-{i}-{}", "y".repeat(64));
        builder.append(timestamp + i as i64, Some(format!("{prefix}-k{i}").into()), Some(value.into()), headers);
    }
    RecordBatch::parse(builder.to_bytes().expect("build")).expect("parse")
}

/// Produces `batch` to partition 0 (retrying while the new topic's
/// leadership spreads): error code and base offset.
fn produce(conn: &mut Conn, topic: &str, topic_id: Uuid, batch: &RecordBatch) -> (i16, i64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (code, offset) = conn.produce(topic, topic_id, 0, batch.as_bytes().clone());
        if !retriable(code) || Instant::now() >= deadline {
            return (code, offset);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn kwire_batches_read_by_kafka_java() {
    let Some(cluster) = Cluster::find("records written by kwire for Kafka's Java consumer") else { return };
    let topic = unique("kw-records-wire");
    let mut conn = Conn::connect(cluster.broker(), "kwire-cluster-records");
    let topic_id = create_topic(&mut conn, &topic);
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_millis() as i64;

    // An idempotent producer id for kwire.
    let producer = init_producer(&mut conn);

    // One batch per codec, sequences continuing by the last-sequence rule.
    let mut expected = Vec::new(); // (offset, timestamp, key, value, codec)
    let mut sequence = 0;
    let mut offset = 0;
    for (i, compression) in Compression::ALL.into_iter().enumerate() {
        let prefix = format!("kw-{}", compression.name());
        let batch = kwire_batch(&prefix, compression, producer, sequence, now + 10 * i as i64, 3);
        assert_eq!(produce(&mut conn, &topic, topic_id, &batch), (0, offset), "{compression}");
        for r in 0..3 {
            expected.push((offset + r, now + 10 * i as i64 + r, format!("{prefix}-k{r}"), compression));
        }
        offset += 3;
        sequence = increment_sequence(batch.last_sequence(), 1);
    }
    assert_eq!(sequence, 15);
    // The broker checks sequences: one that skips ahead is refused
    // (OUT_OF_ORDER_SEQUENCE_NUMBER, 45), so the ones above were right.
    let skipping = kwire_batch("kw-skip", Compression::None, producer, sequence + 1, now, 1);
    assert_eq!(produce(&mut conn, &topic, topic_id, &skipping).0, 45, "a sequence gap is refused");

    // Sequences wrap: a new producer starting at 2147483646 with three
    // records ends at 0, and Kafka takes 1 as the next sequence.
    let wrapping = init_producer(&mut conn);
    let first = kwire_batch("kw-wrap", Compression::Lz4, wrapping, 2_147_483_646, now + 100, 3);
    assert_eq!(first.last_sequence(), 0);
    assert_eq!(produce(&mut conn, &topic, topic_id, &first), (0, offset), "base sequence 2147483646");
    for r in 0..3 {
        expected.push((offset + r, now + 100 + r, format!("kw-wrap-k{r}"), Compression::Lz4));
    }
    offset += 3;
    let next = increment_sequence(first.last_sequence(), 1);
    assert_eq!(next, 1);
    let second = kwire_batch("kw-after-wrap", Compression::Zstd, wrapping, next, now + 200, 1);
    assert_eq!(produce(&mut conn, &topic, topic_id, &second), (0, offset), "sequence 1 after the wrap");
    expected.push((offset, now + 200, "kw-after-wrap-k0".to_string(), Compression::Zstd));

    // Kafka's Java consumer reads every record back (CRCs checked).
    let out = cluster.java("RecordsDriver", &["read", cluster.broker(), &topic, &expected.len().to_string()]);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("record ")).collect();
    let wanted: Vec<String> = expected
        .iter()
        .map(|(offset, timestamp, key, compression)| {
            let (prefix, i) = key.rsplit_once("-k").expect("key");
            let value = format!("{prefix}-value-{i}-{}", "y".repeat(64));
            let headers =
                format!("codec={},index={},nothing=null", hex(compression.name().as_bytes()), hex(i.as_bytes()));
            format!("record {offset} {timestamp} {} {} {headers}", hex(key.as_bytes()), hex(value.as_bytes()))
        })
        .collect();
    assert_eq!(lines, wanted, "Kafka's consumer read:\n{stdout}");

    // And the broker kept each batch's codec and producer fields as sent.
    let batches = fetch_all(&mut conn, &topic, topic_id);
    let stored: Vec<_> = batches
        .iter()
        .map(|b| {
            let h = b.header();
            (h.attributes.compression(), h.producer_id, h.base_sequence, h.last_sequence(), h.record_count)
        })
        .collect();
    let mut want = Vec::new();
    for (i, compression) in Compression::ALL.into_iter().enumerate() {
        let base = 3 * i as i32;
        want.push((Some(compression), producer.0, base, base + 2, 3));
    }
    want.push((Some(Compression::Lz4), wrapping.0, 2_147_483_646, 0, 3));
    want.push((Some(Compression::Zstd), wrapping.0, 1, 1, 1));
    assert_eq!(stored, want);
}
