//! Kafka's internal records (feature `internal-records`): the framing
//! around them against hand-computed bytes, logs and snapshots read into
//! typed entries and written back, and, with the oracle of
//! `interop/tests/oracle.rs` (`interop/scripts/kafka-oracle.sh 4.4.0`), Kafka's own classes
//! on every (record type, version) of every family:
//!
//! 1. the record types and versions of Kafka's record-type enums are ours;
//! 2. [`SEEDS`] sampled values of each, encoded by kwire, are read by
//!    Kafka (its generated class of that record type), which writes the
//!    same bytes, reads them all, and writes the JSON that kwire writes;
//! 3. kwire reads Kafka's JSON into a value that Kafka's reader of the
//!    same JSON writes the same bytes as;
//! 4. every sampled metadata record, framed by kwire, is read and
//!    written again identically by Kafka's `MetadataRecordSerde`.
//!
//! Without the oracle those tests say `skipped: ...` and pass, except under `CI`.

mod common;

use common::oracle::{check_rdecode, hex_word, Oracle};

use std::path::Path;

use kwire::error::DecodeErrorKind;
use kwire::internal::log::{ControlValue, Entry, LogEntries, LogError, LogRecord, MetadataLogRecord, Snapshot};
use kwire::internal::metadata::{MetadataRecord, NoOpRecord, TopicRecord};
use kwire::internal::{
    group_coordinator as group, share_coordinator as share, storage, transaction_coordinator as txn,
    ApiMessageAndVersion, RecordData, RecordPart,
};
use kwire::json::{JsonOptions, JsonWriter, Value as Json};
use kwire::message::Message;
use kwire::messages::{SnapshotFooterRecord, SnapshotHeaderRecord};
use kwire::primitives::{Reader, Uuid, Writer};
use kwire::records::{Attributes, RecordBatchBuilder};
use kwire::sample::SampleGen;
use kwire::{Bytes, BytesMut};

/// Sampled values per (record type, version).
const SEEDS: u64 = 6;

fn framed(record: &MetadataLogRecord) -> Vec<u8> {
    record.to_bytes_framed().expect("encodes").to_vec()
}

#[test]
fn metadata_frame_golden_bytes() {
    // NoOpRecord (type 20) v0: frame version 1, type 20, version 0, then its
    // empty tagged-field section.
    let noop = ApiMessageAndVersion { version: 0, message: MetadataRecord::from(NoOpRecord::default()) };
    assert_eq!(framed(&noop), [0x01, 0x14, 0x00, 0x00]);
    assert_eq!(noop.encoded_size_framed(), 4);
    // TopicRecord (type 2) v0: compact string "t" (length + 1 = 2), uuid, tags.
    let topic = TopicRecord { name: "t".into(), topic_id: Uuid::from_u128(0x0102), ..Default::default() };
    let topic = ApiMessageAndVersion { version: 0, message: MetadataRecord::from(topic) };
    let mut expected = vec![0x01, 0x02, 0x00, 0x02, b't'];
    expected.extend_from_slice(&0x0102u128.to_be_bytes());
    expected.push(0x00);
    assert_eq!(framed(&topic), expected);
    assert_eq!(MetadataLogRecord::decode_framed(Bytes::from(expected)).expect("decodes"), topic);
}

#[test]
fn metadata_frame_errors_say_where() {
    let decode = |bytes: &[u8]| MetadataLogRecord::decode_framed(Bytes::copy_from_slice(bytes)).unwrap_err();
    let e = decode(&[0x00, 0x14, 0x00, 0x00]);
    assert_eq!(e.kind(), &DecodeErrorKind::UnsupportedVersion(0));
    assert_eq!(e.to_string(), "frame_version: version 0 is not supported (offset 0)");
    assert_eq!(decode(&[0x02, 0x14, 0x00, 0x00]).kind(), &DecodeErrorKind::UnsupportedVersion(2));
    let e = decode(&[0x01, 0x63, 0x00, 0x00]);
    assert_eq!(e.kind(), &DecodeErrorKind::UnknownRecordType(99));
    assert_eq!(e.to_string(), "record_type: unknown record type 99 (offset 1)");
    // 32768 as a varint: above Kafka's int16.
    let e = decode(&[0x01, 0x80, 0x80, 0x02, 0x00]);
    assert!(matches!(e.kind(), DecodeErrorKind::Invalid(_)), "{e}");
    assert_eq!(e.offset(), 1);
    // TopicRecord has version 0 only.
    let e = decode(&[0x01, 0x02, 0x01, 0x00]);
    assert_eq!(e.kind(), &DecodeErrorKind::UnsupportedVersion(1));
    assert_eq!(e.message(), Some(("TopicRecord", 1)));
    // A byte after the record.
    let e = decode(&[0x01, 0x14, 0x00, 0x00, 0x07]);
    assert_eq!(e.kind(), &DecodeErrorKind::TrailingBytes(1));
    assert_eq!(e.offset(), 4);
    // Cut short inside the record: the field path names the field.
    let e = decode(&[0x01, 0x02, 0x00, 0x02, b't', 0x00]);
    assert_eq!(e.message(), Some(("TopicRecord", 0)));
    assert!(e.to_string().contains("topic_id"), "{e}");
}

#[test]
fn coordinator_key_and_value_golden_bytes() {
    let key = group::OffsetCommitKey { group: "g".into(), topic: "t".into(), partition: 3 };
    let value = group::OffsetCommitValue {
        offset: 5,
        leader_epoch: 7,
        metadata: "".into(),
        commit_timestamp: 9,
        ..Default::default()
    };
    let record = group::GroupCoordinatorRecord {
        key: key.clone().into(),
        value: Some(ApiMessageAndVersion { version: 3, message: value.into() }),
    };
    // Key: int16 record type 1, then the key at version 0 (int16-length strings).
    let key_bytes = [0, 1, 0, 1, b'g', 0, 1, b't', 0, 0, 0, 3];
    assert_eq!(&record.key_bytes().expect("encodes")[..], key_bytes);
    // Value: int16 version 3, offset, leader epoch, metadata "", commit timestamp.
    let value_bytes = [0, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9];
    assert_eq!(&record.value_bytes().expect("encodes").expect("not a tombstone")[..], value_bytes);
    let read = group::GroupCoordinatorRecord::decode(
        Some(Bytes::copy_from_slice(&key_bytes)),
        Some(Bytes::copy_from_slice(&value_bytes)),
    )
    .expect("decodes");
    assert_eq!(read, record);
    // A tombstone: the key alone.
    let tombstone =
        group::GroupCoordinatorRecord::decode(Some(Bytes::copy_from_slice(&key_bytes)), None).expect("decodes");
    assert_eq!(tombstone.value, None);
    assert_eq!(tombstone.key, group::CoordinatorRecordKey::OffsetCommitKey(key));
    assert_eq!(tombstone.value_bytes().expect("encodes"), None);
    // __transaction_state: record type 0, the transactional id.
    let txn_key = txn::TransactionCoordinatorRecord {
        key: txn::TransactionLogKey { transactional_id: "tx".into() }.into(),
        value: None,
    };
    assert_eq!(&txn_key.key_bytes().expect("encodes")[..], [0, 0, 0, 2, b't', b'x']);
    // __share_group_state: ShareUpdateKey is record type 1.
    let share_key = share::ShareCoordinatorRecord {
        key: share::ShareUpdateKey { group_id: "s".into(), topic_id: Uuid::from_u128(0), partition: 1 }.into(),
        value: None,
    };
    let mut expected = vec![0, 1, 0, 1, b's'];
    expected.extend_from_slice(&[0; 16]);
    expected.extend_from_slice(&[0, 0, 0, 1]);
    assert_eq!(&share_key.key_bytes().expect("encodes")[..], expected);
}

#[test]
fn coordinator_errors_name_the_part() {
    let key = Bytes::from_static(&[0, 99, 0, 0]);
    let e = group::GroupCoordinatorRecord::decode(Some(key), None).unwrap_err();
    assert_eq!(e.part, RecordPart::Key);
    assert_eq!(e.source.kind(), &DecodeErrorKind::UnknownRecordType(99));
    assert_eq!(e.to_string(), "key: record_type: unknown record type 99 (offset 0)");
    // OffsetCommitValue has versions 0-4.
    let key = Bytes::from_static(&[0, 1, 0, 1, b'g', 0, 1, b't', 0, 0, 0, 3]);
    let e = group::GroupCoordinatorRecord::decode(Some(key.clone()), Some(Bytes::from_static(&[0, 5]))).unwrap_err();
    assert_eq!(e.part, RecordPart::Value);
    assert_eq!(e.source.kind(), &DecodeErrorKind::UnsupportedVersion(5));
    assert_eq!(e.source.message(), Some(("OffsetCommitValue", 5)));
    let e = group::GroupCoordinatorRecord::decode(Some(key), Some(Bytes::from_static(&[0]))).unwrap_err();
    assert_eq!((e.part, e.source.offset()), (RecordPart::Value, 0));
}

/// A control batch of one record of `control_type` with `value`.
fn control_batch(base_offset: i64, control_type: i16, value: Bytes) -> Bytes {
    let mut b = RecordBatchBuilder::new(base_offset);
    b.control(true);
    let mut key = BytesMut::new();
    key.extend_from_slice(&0i16.to_be_bytes());
    key.extend_from_slice(&control_type.to_be_bytes());
    b.append(1_700_000_000_000, Some(key.freeze()), Some(value), vec![]);
    b.to_bytes().expect("builds")
}

#[test]
fn snapshot_reads_and_writes_back() {
    let header =
        SnapshotHeaderRecord { version: 0, last_contained_log_timestamp: 1_700_000_000_000, ..Default::default() };
    let footer = SnapshotFooterRecord { version: 0, ..Default::default() };
    let topic = TopicRecord { name: "orders".into(), topic_id: Uuid::from_u128(7), ..Default::default() };
    let records = [
        ApiMessageAndVersion { version: 0, message: MetadataRecord::from(topic) },
        ApiMessageAndVersion { version: 0, message: MetadataRecord::from(NoOpRecord::default()) },
    ];
    let mut data = RecordBatchBuilder::new(1);
    for r in &records {
        data.append(1_700_000_000_001, None, Some(r.to_bytes_framed().expect("encodes")), vec![]);
    }
    let file = [
        control_batch(0, 3, header.to_bytes(0).expect("encodes")),
        data.to_bytes().expect("builds"),
        control_batch(3, 4, footer.to_bytes(0).expect("encodes")),
    ]
    .concat();
    // Kept for trying the dump tool: `kwire dump --family metadata FILE`.
    let _ = std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join("example.checkpoint"), &file);
    let snapshot = Snapshot::<MetadataLogRecord>::decode(Bytes::from(file)).expect("reads");
    assert_eq!((snapshot.header.clone(), snapshot.footer.clone()), (header, footer));
    let offsets: Vec<i64> = snapshot.entries.iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [0, 1, 2, 3]);
    assert!(matches!(&snapshot.entries[1].entry, Entry::Data(r) if *r == records[0]));
    assert!(matches!(
        &snapshot.entries[3].entry,
        Entry::Control(c) if c.value.control_type() == 4 && c.value.type_name() == "SNAPSHOT_FOOTER"
    ));
    for e in &snapshot.entries {
        let (key, value) = e.to_key_value().expect("encodes");
        assert_eq!((key, value), (e.record.key.clone(), e.record.value.clone()), "offset {}", e.offset);
    }
    // Without its footer it is no snapshot.
    let cut = [control_batch(0, 3, header_bytes())].concat();
    assert_eq!(
        Snapshot::<MetadataLogRecord>::decode(Bytes::from(cut)).unwrap_err(),
        LogError::Snapshot("the last record is not a snapshot footer")
    );
}

fn header_bytes() -> Bytes {
    SnapshotHeaderRecord::default().to_bytes(0).expect("encodes")
}

#[test]
fn log_errors_carry_the_offset() {
    let mut b = RecordBatchBuilder::new(40);
    b.append(
        0,
        None,
        Some(framed(&ApiMessageAndVersion { version: 0, message: NoOpRecord::default().into() }).into()),
        vec![],
    );
    b.append(0, None, Some(Bytes::from_static(&[1, 99, 0, 0])), vec![]);
    let mut entries = LogEntries::<MetadataLogRecord>::new(b.to_bytes().expect("builds"));
    assert!(entries.next().expect("one").is_ok());
    let e = entries.next().expect("two").unwrap_err();
    assert_eq!(e.to_string(), "record at offset 41: value: record_type: unknown record type 99 (offset 1)");
    assert!(entries.next().is_none());
    // Abort and commit markers: int16 version, then the coordinator epoch.
    let marker = control_batch(7, 1, Bytes::from_static(&[0, 0, 0, 0, 0, 5]));
    let entries: Vec<_> =
        LogEntries::<group::GroupCoordinatorRecord>::new(marker).collect::<Result<_, _>>().expect("reads");
    match &entries[0].entry {
        Entry::Control(c) => match &c.value {
            ControlValue::Commit(m) => assert_eq!((m.version, m.marker.coordinator_epoch), (0, 5)),
            other => panic!("not a commit: {other:?}"),
        },
        Entry::Data(d) => panic!("not a control record: {d:?}"),
    }
    assert!(Attributes::default().compression_id() == 0);
}

// ---- Kafka's own classes ----

/// One (family, kind) of record types, as the oracle names them.
struct Set {
    family: &'static str,
    kind: &'static str,
    types: &'static [kwire::internal::RecordType],
    case: fn(&mut SampleGen, i16, i16) -> Option<Case>,
}

/// A sampled value: its bytes and JSON at a version, and what kwire
/// makes of a JSON form.
struct Case {
    bytes: Vec<u8>,
    json: Json,
    from_json: Box<FromJsonFn>,
}

/// Reads a JSON form and encodes what it read.
type FromJsonFn = dyn Fn(&Json) -> Result<Vec<u8>, String>;

fn case_of<T: RecordData + 'static>(g: &mut SampleGen, record_type: i16, version: i16) -> Option<Case> {
    let value = T::sample(record_type, g, version)?;
    let mut buf = BytesMut::new();
    value.encode_to(&mut Writer::new(&mut buf), version).ok()?;
    assert_eq!(buf.len(), value.encoded_size(version), "{value:?}");
    // Our own decode first: the bytes read back to the value.
    let mut r = Reader::new(Bytes::from(buf.to_vec()));
    assert_eq!(T::decode_from(record_type, &mut r, version).expect("decodes its own bytes"), value);
    let json = value.to_json_with(version, JsonOptions::unredacted()).expect("to_json");
    let from_json = Box::new(move |json: &Json| {
        let v = T::from_json(record_type, json, version).map_err(|e| e.to_string())?;
        let mut buf = BytesMut::new();
        v.encode_to(&mut Writer::new(&mut buf), version).map_err(|e| e.to_string())?;
        Ok(buf.to_vec())
    });
    Some(Case { bytes: buf.to_vec(), json, from_json })
}

/// Cases of record type `record_type` at `version` where `write_json`
/// streams other text than `to_json_with(..).to_string()`, redacted or
/// not; `None` for a record type the family lacks.
fn streamed_differences<T: RecordData>(g: &mut SampleGen, record_type: i16, version: i16) -> Option<Vec<String>> {
    let value = T::sample(record_type, g, version)?;
    let mut out = Vec::new();
    for options in [JsonOptions::default(), JsonOptions::unredacted()] {
        let json = value.to_json_with(version, options).expect("to_json").to_string();
        let mut text = Vec::new();
        value.write_json(&mut JsonWriter::new(&mut text, options), version).expect("write_json");
        if text != json.as_bytes() {
            out.push(format!("{}: {} != {json}", T::KIND, String::from_utf8_lossy(&text)));
        }
    }
    Some(out)
}

/// `write_json` of every record type of every family, at every version,
/// is the text of its JSON form.
#[test]
fn streamed_text_is_the_json_forms_text() {
    type Differences = fn(&mut SampleGen, i16, i16) -> Option<Vec<String>>;
    let families: [(&[kwire::internal::RecordType], Differences); 8] = [
        (MetadataRecord::RECORD_TYPES, streamed_differences::<MetadataRecord>),
        (group::CoordinatorRecordKey::RECORD_TYPES, streamed_differences::<group::CoordinatorRecordKey>),
        (group::CoordinatorRecordValue::RECORD_TYPES, streamed_differences::<group::CoordinatorRecordValue>),
        (share::CoordinatorRecordKey::RECORD_TYPES, streamed_differences::<share::CoordinatorRecordKey>),
        (share::CoordinatorRecordValue::RECORD_TYPES, streamed_differences::<share::CoordinatorRecordValue>),
        (txn::CoordinatorRecordKey::RECORD_TYPES, streamed_differences::<txn::CoordinatorRecordKey>),
        (txn::CoordinatorRecordValue::RECORD_TYPES, streamed_differences::<txn::CoordinatorRecordValue>),
        (storage::RemoteLogMetadataRecord::RECORD_TYPES, streamed_differences::<storage::RemoteLogMetadataRecord>),
    ];
    let (mut cases, mut differences) = (0, Vec::new());
    for (types, differ) in families {
        for t in types {
            for version in t.versions.min..=t.versions.max {
                for seed in 0..SEEDS {
                    let mut g = SampleGen::new(seed ^ (version as u64) << 8 ^ (t.id as u64) << 24);
                    differences.extend(differ(&mut g, t.id, version).expect("the family has it"));
                    cases += 1;
                }
            }
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(cases > 500, "{cases} cases");
}

fn sets() -> Vec<Set> {
    vec![
        Set {
            family: "metadata",
            kind: "record",
            types: MetadataRecord::RECORD_TYPES,
            case: case_of::<MetadataRecord>,
        },
        Set {
            family: "group",
            kind: "key",
            types: group::CoordinatorRecordKey::RECORD_TYPES,
            case: case_of::<group::CoordinatorRecordKey>,
        },
        Set {
            family: "group",
            kind: "value",
            types: group::CoordinatorRecordValue::RECORD_TYPES,
            case: case_of::<group::CoordinatorRecordValue>,
        },
        Set {
            family: "share",
            kind: "key",
            types: share::CoordinatorRecordKey::RECORD_TYPES,
            case: case_of::<share::CoordinatorRecordKey>,
        },
        Set {
            family: "share",
            kind: "value",
            types: share::CoordinatorRecordValue::RECORD_TYPES,
            case: case_of::<share::CoordinatorRecordValue>,
        },
        Set {
            family: "transaction",
            kind: "key",
            types: txn::CoordinatorRecordKey::RECORD_TYPES,
            case: case_of::<txn::CoordinatorRecordKey>,
        },
        Set {
            family: "transaction",
            kind: "value",
            types: txn::CoordinatorRecordValue::RECORD_TYPES,
            case: case_of::<txn::CoordinatorRecordValue>,
        },
        Set {
            family: "storage",
            kind: "record",
            types: storage::RemoteLogMetadataRecord::RECORD_TYPES,
            case: case_of::<storage::RemoteLogMetadataRecord>,
        },
    ]
}

fn parse_ok(answer: &str) -> Result<Vec<&str>, String> {
    match answer.strip_prefix("ok ") {
        Some(rest) => Ok(rest.split(' ').collect()),
        None => Err(answer.to_string()),
    }
}

#[test]
fn record_types_are_kafkas() {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut oracle = Oracle::start(&launcher);
    for set in sets() {
        let answer = oracle.ask(&format!("rtypes {} {}", set.family, set.kind));
        let theirs = parse_ok(&answer).unwrap_or_else(|e| panic!("{} {}: {e}", set.family, set.kind));
        let ours: Vec<String> =
            set.types.iter().map(|t| format!("{}:{}:{}-{}", t.id, t.name, t.versions.min, t.versions.max)).collect();
        let mut theirs: Vec<String> = theirs.iter().map(|s| s.to_string()).collect();
        theirs.sort_by_key(|s| s.split(':').next().and_then(|n| n.parse::<i16>().ok()));
        assert_eq!(ours, theirs, "{} {}", set.family, set.kind);
    }
}

#[test]
fn kafka_reads_writes_and_converts_every_record() {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut oracle = Oracle::start(&launcher);
    let mut cases = 0;
    let mut failures = Vec::new();
    for set in sets() {
        for t in set.types {
            for version in t.versions.min..=t.versions.max {
                for seed in 0..SEEDS {
                    let mut g = SampleGen::new(
                        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((t.id as u64) << 20) ^ (version as u64) << 8,
                    );
                    let Some(case) = (set.case)(&mut g, t.id, version) else {
                        failures.push(format!("{} {} {}: no sample", set.family, set.kind, t.name));
                        continue;
                    };
                    cases += 1;
                    let place = format!("{} {} {} ({}) v{version} seed {seed}", set.family, set.kind, t.name, t.id);
                    let ours = hex_word(&case.bytes);
                    let answer = oracle.ask(&format!("rdecode {} {} {} {version} {ours}", set.family, set.kind, t.id));
                    let theirs = match check_rdecode(&answer, &case.bytes, &case.json) {
                        Ok(theirs) => theirs,
                        Err(e) => {
                            failures.push(format!("{place}: {e}"));
                            continue;
                        }
                    };
                    // Kafka's JSON read by both: the same bytes.
                    let kafka = oracle.ask(&format!("rencode {} {} {} {version} {theirs}", set.family, set.kind, t.id));
                    let kafka_bytes = parse_ok(&kafka).map(|w| w[0].to_string());
                    let ours_from_json = (case.from_json)(&theirs).map(|b| hex_word(&b));
                    if kafka_bytes != ours_from_json {
                        failures.push(format!(
                            "{place}: from Kafka's JSON, Kafka wrote {kafka_bytes:?}, we wrote {ours_from_json:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases fail:\n{}", failures.len(), failures.join("\n"));
    assert!(cases > 500, "only {cases} cases");
}

#[test]
fn kafka_metadata_serde_reads_our_frames() {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut oracle = Oracle::start(&launcher);
    let mut failures = Vec::new();
    let mut cases = 0;
    for t in MetadataRecord::RECORD_TYPES {
        for version in t.versions.min..=t.versions.max {
            for seed in 0..SEEDS {
                let mut g = SampleGen::new(seed ^ ((t.id as u64) << 16) ^ ((version as u64) << 8));
                let Some(message) = MetadataRecord::sample(t.id, &mut g, version) else { continue };
                let record = ApiMessageAndVersion { version, message };
                let bytes = record.to_bytes_framed().expect("encodes");
                assert_eq!(bytes.len(), record.encoded_size_framed());
                assert_eq!(MetadataLogRecord::decode_framed(bytes.clone()).expect("decodes"), record);
                cases += 1;
                let answer = oracle.ask(&format!("mframe {}", hex_word(&bytes)));
                let expected = format!("ok {} {version} {}", t.id, hex_word(&bytes));
                if answer != expected {
                    failures.push(format!("{} v{version} seed {seed}: {answer} (expected {expected})", t.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} frames fail:\n{}", failures.len(), failures.join("\n"));
    assert!(cases > 100);
}
