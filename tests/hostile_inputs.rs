//! Hostile inputs against the decoders and helpers a broker, proxy or tool
//! feeds untrusted bytes or text to: Kafka's internal records and logs
//! (`src/internal/`), control records and the producer's sequence rule
//! (`src/records/`), uuid text, entity rewriting and redaction (forwarded envelopes:
//! kwire-broker's `tests/hostile_envelopes.rs`).
//!
//! Each property feeds random bytes, or a valid value's bytes mutated, and
//! checks: no panic; an error says where (field, offset, record offset,
//! key or value); what decodes encodes and decodes to itself; valid values
//! round-trip. The library is compiled as this test is (debug, overflow
//! checks on), so an arithmetic overflow fails here too.

use proptest::prelude::*;

use kwire::error::{DecodeErrorKind, EncodeErrorKind};
use kwire::internal::log::{
    ControlRecord as LogControlRecord, ControlValue, Entry, LogEntries, LogEntry, LogError, LogRecord,
    MetadataLogRecord, Snapshot,
};
use kwire::internal::metadata::MetadataRecord;
use kwire::internal::{
    group_coordinator as group, share_coordinator as share, storage, transaction_coordinator as txn,
    ApiMessageAndVersion, CoordinatorRecord, RecordData, RecordPart,
};
use kwire::message::Message;
use kwire::messages::{
    LeaderChangeMessage, RequestBody, SaslAuthenticateRequest, SaslAuthenticateResponse, SnapshotFooterRecord,
    SnapshotHeaderRecord,
};
use kwire::primitives::{ParseUuidError, Uuid};
use kwire::records::{
    increment_sequence, Attributes, BatchHeader, Compression, ControlRecord, ControlRecordKey, ControlRecordType,
    DecodeOptions, EndTxnMarker, Location, Record, RecordBatchBuilder, RecordErrorKind, MAGIC_V2, NO_SEQUENCE,
};
use kwire::redact::Redacted;
use kwire::sample::SampleGen;
use kwire::{Bytes, BytesMut};
use kwire_testkit::mutation::{mutate, mutation};

fn options(verify_crc: bool, max_decompressed_size: usize, reject_partial_batch: bool) -> DecodeOptions {
    let mut options = DecodeOptions::default();
    options.verify_crc = verify_crc;
    options.max_decompressed_size = max_decompressed_size;
    options.reject_partial_batch = reject_partial_batch;
    options
}

/// `cases` per property, or `HOSTILE_CASES` (for a longer hunt).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("HOSTILE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

// ---- sampled valid records ----

/// Sampled values of every record type and version of `T`, `per` of each.
fn samples<T: RecordData>(per: u64) -> Vec<ApiMessageAndVersion<T>> {
    let mut out = Vec::new();
    for t in T::RECORD_TYPES {
        for version in t.versions.min..=t.versions.max {
            for seed in 0..per {
                let mut g = SampleGen::new(((t.id as u64) << 32) ^ ((version as u64) << 16) ^ seed);
                let message = T::sample(t.id, &mut g, version).expect("a record type of the family samples");
                out.push(ApiMessageAndVersion { version, message });
            }
        }
    }
    out
}

/// Sampled coordinator records (key, and value at each of its versions or a tombstone) of a family.
fn coordinator_samples<K: RecordData, V: RecordData>(per: u64) -> Vec<CoordinatorRecord<K, V>> {
    let mut out = Vec::new();
    for t in K::RECORD_TYPES {
        let Some(value_type) = V::record_type_info(t.id) else { continue };
        for seed in 0..per {
            let mut g = SampleGen::new(((t.id as u64) << 32) ^ seed);
            let key = K::sample(t.id, &mut g, 0).expect("key samples");
            out.push(CoordinatorRecord { key: key.clone(), value: None });
            for version in value_type.versions.min..=value_type.versions.max {
                let message = V::sample(t.id, &mut g, version).expect("value samples");
                out.push(CoordinatorRecord {
                    key: key.clone(),
                    value: Some(ApiMessageAndVersion { version, message }),
                });
            }
        }
    }
    out
}

fn framed_metadata() -> &'static [Vec<u8>] {
    static CELL: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        samples::<MetadataRecord>(2)
            .iter()
            .map(|r| r.to_bytes_framed().expect("sampled records encode").to_vec())
            .collect()
    })
}

/// A DecodeError's Display always ends with its byte offset.
fn says_offset(text: &str) -> bool {
    text.contains("(offset ")
}

// ---- ApiMessageAndVersion framing ----

#[test]
fn every_record_of_every_family_round_trips() {
    fn framed<T: RecordData>() -> usize {
        let all = samples::<T>(3);
        for r in &all {
            let bytes = r.to_bytes_framed().unwrap_or_else(|e| panic!("{r:?}: {e}"));
            assert_eq!(bytes.len(), r.encoded_size_framed(), "{r:?}");
            assert_eq!(ApiMessageAndVersion::<T>::decode_framed(bytes).expect("decodes"), *r);
            let prefixed = r.to_bytes_prefixed().expect("encodes");
            assert_eq!(&prefixed[..2], r.version.to_be_bytes());
            assert_eq!(ApiMessageAndVersion::<T>::decode_prefixed(r.record_type(), prefixed).expect("decodes"), *r);
        }
        all.len()
    }
    fn coordinator<K: RecordData, V: RecordData>() -> usize {
        let all = coordinator_samples::<K, V>(3);
        for r in &all {
            let (key, value) = r.to_key_value().expect("encodes");
            let read = CoordinatorRecord::<K, V>::decode(key, value).expect("decodes");
            assert_eq!(read, *r);
        }
        all.len()
    }
    assert!(framed::<MetadataRecord>() > 100);
    assert!(framed::<storage::RemoteLogMetadataRecord>() >= 12);
    assert!(coordinator::<group::CoordinatorRecordKey, group::CoordinatorRecordValue>() > 100);
    assert!(coordinator::<share::CoordinatorRecordKey, share::CoordinatorRecordValue>() >= 12);
    assert!(coordinator::<txn::CoordinatorRecordKey, txn::CoordinatorRecordValue>() >= 9);
}

#[test]
fn bad_versions_are_encode_errors() {
    for r in samples::<MetadataRecord>(1) {
        let info = r.message.info().expect("known type");
        for version in [-1, i16::MIN, info.versions.max + 1, i16::MAX] {
            let bad = ApiMessageAndVersion { version, message: r.message.clone() };
            let _ = bad.encoded_size_framed();
            let e = bad.to_bytes_framed().expect_err("a version the record type lacks");
            assert_eq!(*e.kind(), EncodeErrorKind::UnsupportedVersion(version), "{}", info.name);
            let e = bad.to_bytes_prefixed().expect_err("a version the record type lacks");
            assert_eq!(*e.kind(), EncodeErrorKind::UnsupportedVersion(version), "{}", info.name);
            let mut buf = BytesMut::from(&b"kept"[..]);
            assert!(bad.encode_framed(&mut buf).is_err());
            assert!(bad.encode_prefixed(&mut buf).is_err());
            assert_eq!(&buf[..], b"kept", "a failed encode leaves the buffer as it was");
        }
    }
    // A value whose record type is not the key's.
    let key = group::CoordinatorRecordKey::from(group::GroupMetadataKey { group: "g".into() });
    let value = group::CoordinatorRecordValue::from(group::OffsetCommitValue::default());
    let r = group::GroupCoordinatorRecord { key, value: Some(ApiMessageAndVersion { version: 1, message: value }) };
    assert!(matches!(r.value_bytes().unwrap_err().kind(), EncodeErrorKind::Invalid(_)));
}

#[test]
fn framing_varints_and_versions() {
    let decode = |b: &[u8]| MetadataLogRecord::decode_framed(Bytes::copy_from_slice(b));
    // Ten 0xff: a varint longer than 5 bytes.
    let e = decode(&[0xff; 10]).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&DecodeErrorKind::VarintTooLong, 0));
    assert!(e.to_string().starts_with("frame_version: "), "{e}");
    // u32::MAX as the record type: above an int16.
    let e = decode(&[0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]).unwrap_err();
    assert_eq!(e.offset(), 1);
    assert!(e.to_string().contains("record_type"), "{e}");
    // The version varint cut short.
    let e = decode(&[0x01, 0x14, 0x80]).unwrap_err();
    assert!(e.to_string().starts_with("version: "), "{e}");
    assert!(matches!(e.kind(), DecodeErrorKind::NotEnoughBytes { .. }), "{e}");
    // 32768 as the version.
    let e = decode(&[0x01, 0x14, 0x80, 0x80, 0x02]).unwrap_err();
    assert_eq!(e.offset(), 2);
    // A frame version of 1 written in two bytes is still 1 (Kafka's reader takes it too).
    assert!(decode(&[0x81, 0x00, 0x14, 0x00, 0x00]).is_ok());
    assert!(decode(&[]).is_err());
    // The coordinator value's version prefix cut short, and a negative one.
    let e = group::GroupCoordinatorRecord::decode(
        Some(Bytes::from_static(&[0, 2, 0, 1, b'g'])),
        Some(Bytes::from_static(&[0xff, 0xff])),
    )
    .unwrap_err();
    assert_eq!(e.part, RecordPart::Value);
    assert_eq!(e.source.kind(), &DecodeErrorKind::UnsupportedVersion(-1));
    assert_eq!(e.source.message(), Some(("GroupMetadataValue", -1)));
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn metadata_frame_of_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..96)) {
        match MetadataLogRecord::decode_framed(Bytes::from(bytes.clone())) {
            Ok(r) => {
                // Compared as bytes (ClientQuotaRecord's float may be NaN).
                let again = r.to_bytes_framed().expect("what decodes encodes");
                let read = MetadataLogRecord::decode_framed(again.clone()).expect("and decodes");
                prop_assert_eq!(read.to_bytes_framed().expect("encodes"), again);
            }
            Err(e) => prop_assert!(says_offset(&e.to_string()), "{}", e),
        }
        let _ = ApiMessageAndVersion::<storage::RemoteLogMetadataRecord>::decode_framed(Bytes::from(bytes));
    }

    #[test]
    fn metadata_frame_mutated(index in any::<usize>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let all = framed_metadata();
        let bytes = mutate(&all[index % all.len()], &mutations);
        match MetadataLogRecord::decode_framed(Bytes::from(bytes)) {
            Ok(r) => {
                let again = r.to_bytes_framed().expect("what decodes encodes");
                prop_assert_eq!(again.len(), r.encoded_size_framed());
                let read = MetadataLogRecord::decode_framed(again.clone()).expect("and decodes");
                prop_assert_eq!(read.to_bytes_framed().expect("encodes"), again);
            }
            Err(e) => prop_assert!(says_offset(&e.to_string()), "{}", e),
        }
    }

    #[test]
    fn coordinator_record_of_any_bytes(
        key in proptest::collection::vec(any::<u8>(), 0..64),
        value in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..64)),
        record_type in prop_oneof![0i16..24, any::<i16>()],
    ) {
        fn check<K: RecordData, V: RecordData>(key: &[u8], value: Option<&[u8]>) -> Result<(), TestCaseError> {
            let value = value.map(Bytes::copy_from_slice);
            match CoordinatorRecord::<K, V>::decode(Some(Bytes::copy_from_slice(key)), value) {
                Ok(r) => {
                    let (k, v) = r.to_key_value().expect("what decodes encodes");
                    let read = CoordinatorRecord::<K, V>::decode(k.clone(), v.clone()).expect("and decodes");
                    prop_assert_eq!(read.to_key_value().expect("encodes"), (k, v));
                }
                Err(e) => {
                    let text = e.to_string();
                    prop_assert!(text.starts_with(&format!("{}: ", e.part)), "{}", text);
                    prop_assert!(says_offset(&text), "{}", text);
                }
            }
            Ok(())
        }
        // The key's record type as the family has them, often.
        let mut key = key;
        if key.len() >= 2 && record_type < 24 {
            key[..2].copy_from_slice(&record_type.to_be_bytes());
        }
        check::<group::CoordinatorRecordKey, group::CoordinatorRecordValue>(&key, value.as_deref())?;
        check::<share::CoordinatorRecordKey, share::CoordinatorRecordValue>(&key, value.as_deref())?;
        check::<txn::CoordinatorRecordKey, txn::CoordinatorRecordValue>(&key, value.as_deref())?;
        let _ = ApiMessageAndVersion::<group::CoordinatorRecordValue>::decode_prefixed(
            record_type,
            Bytes::from(value.unwrap_or_default()),
        );
    }

    #[test]
    fn coordinator_record_mutated(
        index in any::<usize>(),
        in_key in any::<bool>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        static CELL: std::sync::OnceLock<Vec<(Bytes, Option<Bytes>)>> = std::sync::OnceLock::new();
        let all = CELL.get_or_init(|| {
            coordinator_samples::<group::CoordinatorRecordKey, group::CoordinatorRecordValue>(2)
                .iter()
                .map(|r| {
                    let (k, v) = r.to_key_value().expect("encodes");
                    (k.expect("coordinator keys are not null"), v)
                })
                .collect()
        });
        let (key, value) = &all[index % all.len()];
        let (key, value) = if in_key || value.is_none() {
            (Bytes::from(mutate(key, &mutations)), value.clone())
        } else {
            (key.clone(), value.as_deref().map(|v| Bytes::from(mutate(v, &mutations))))
        };
        match group::GroupCoordinatorRecord::decode(Some(key), value) {
            Ok(r) => {
                let (k, v) = r.to_key_value().expect("what decodes encodes");
                let read = group::GroupCoordinatorRecord::decode(k.clone(), v.clone()).expect("and decodes");
                prop_assert_eq!(read.to_key_value().expect("encodes"), (k, v));
            }
            Err(e) => prop_assert!(says_offset(&e.to_string()), "{}", e),
        }
    }
}

// ---- logs and snapshots ----

fn control_key(control_type: i16) -> Bytes {
    ControlRecordKey::new(ControlRecordType::from_id(control_type)).to_bytes()
}

fn control_batch(base_offset: i64, control_type: i16, value: Bytes) -> Vec<u8> {
    let mut b = RecordBatchBuilder::new(base_offset);
    b.control(true);
    b.append(1_700_000_000_000, Some(control_key(control_type)), Some(value), vec![]);
    b.to_bytes().expect("builds").to_vec()
}

/// A metadata snapshot: header, two data batches (one compressed with
/// `compression`), a commit marker, a leader change, the footer. Returns
/// the file and its batches' byte ranges.
fn metadata_log(compression: Compression) -> (Vec<u8>, Vec<usize>) {
    let records = samples::<MetadataRecord>(1);
    let mut parts = vec![control_batch(0, 3, SnapshotHeaderRecord::default().to_bytes(0).expect("encodes"))];
    let mut offset = 1;
    for (i, chunk) in records.chunks(records.len() / 2 + 1).enumerate() {
        let mut b = RecordBatchBuilder::new(offset);
        if i == 1 {
            b.compression(compression);
        }
        for r in chunk {
            b.append(1_700_000_000_000 + offset, None, Some(r.to_bytes_framed().expect("encodes")), vec![]);
            offset += 1;
        }
        parts.push(b.to_bytes().expect("builds").to_vec());
    }
    parts.push(control_batch(offset, 1, EndTxnMarker::new(3).to_bytes()));
    let leader = LeaderChangeMessage { leader_id: 1, ..Default::default() };
    parts.push(control_batch(offset + 1, 2, leader.to_bytes(0).expect("encodes")));
    parts.push(control_batch(offset + 2, 4, SnapshotFooterRecord::default().to_bytes(0).expect("encodes")));
    let mut ends = Vec::new();
    let mut file = Vec::new();
    for p in parts {
        file.extend_from_slice(&p);
        ends.push(file.len());
    }
    (file, ends)
}

fn codecs() -> Vec<Compression> {
    let mut out = vec![Compression::None];
    if cfg!(feature = "gzip") {
        out.push(Compression::Gzip);
    }
    if cfg!(feature = "snappy") {
        out.push(Compression::Snappy);
    }
    if cfg!(feature = "lz4") {
        out.push(Compression::Lz4);
    }
    if cfg!(feature = "zstd") {
        out.push(Compression::Zstd);
    }
    out
}

fn metadata_logs() -> &'static [(Vec<u8>, Vec<usize>)] {
    static CELL: std::sync::OnceLock<Vec<(Vec<u8>, Vec<usize>)>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| codecs().into_iter().map(metadata_log).collect())
}

/// Reads all of a log; returns the entries before the first error, and the error.
fn read_all<R: LogRecord>(bytes: &[u8], options: DecodeOptions) -> (Vec<LogEntry<R>>, Option<LogError>) {
    let mut entries = Vec::new();
    for (i, entry) in LogEntries::<R>::with_options(Bytes::copy_from_slice(bytes), options).enumerate() {
        assert!(i < 100_000, "a log of {} bytes cannot hold {i} records", bytes.len());
        match entry {
            Ok(e) => entries.push(e),
            Err(e) => return (entries, Some(e)),
        }
    }
    (entries, None)
}

/// What a log error says about where it is.
fn check_log_error(e: &LogError) -> Result<(), TestCaseError> {
    let text = e.to_string();
    match e {
        LogError::Record { offset, source } => {
            prop_assert!(text.starts_with(&format!("record at offset {offset}: {}: ", source.part)), "{}", text);
            prop_assert!(says_offset(&text), "{}", text);
        }
        LogError::Batch(b) => prop_assert!(b.location().is_some(), "a batch error without a place: {}", text),
        LogError::Legacy { offset, .. } => prop_assert!(text.contains(&format!("offset {offset}")), "{}", text),
        LogError::Snapshot(_) => {}
        other => prop_assert!(false, "unexpected error {:?}", other),
    }
    Ok(())
}

#[test]
fn valid_logs_read_and_write_back() {
    for (codec, (file, _)) in codecs().into_iter().zip(metadata_logs()) {
        let snapshot = Snapshot::<MetadataLogRecord>::decode(Bytes::copy_from_slice(file)).expect("reads");
        // Header, every metadata record type and version, commit, leader change, footer.
        assert_eq!(snapshot.entries.len(), samples::<MetadataRecord>(1).len() + 4, "{codec}");
        assert!(snapshot.entries.len() > 40, "{codec}");
        for (i, e) in snapshot.entries.iter().enumerate() {
            assert_eq!(e.offset, i as i64, "{codec}");
            let (key, value) = e.to_key_value().expect("encodes");
            assert_eq!((key, value), (e.record.key.clone(), e.record.value.clone()), "{codec} offset {i}");
        }
        let commits = snapshot
            .entries
            .iter()
            .filter(|e| matches!(&e.entry, Entry::Control(c) if matches!(&c.value, ControlValue::Commit(m) if m.marker.coordinator_epoch == 3)))
            .count();
        assert_eq!(commits, 1, "{codec}");
    }
}

#[test]
fn truncated_logs_read_what_is_whole() {
    let (file, ends) = &metadata_logs()[0];
    let (full, error) = read_all::<MetadataLogRecord>(file, DecodeOptions::default());
    assert!(error.is_none());
    // Byte positions where batches end, and the records before each.
    let mut batch_ends = vec![0];
    batch_ends.extend_from_slice(ends);
    let mut records_before = vec![0];
    for (start, end) in batch_ends.iter().zip(&batch_ends[1..]) {
        let header = BatchHeader::parse(&file[*start..*end]).expect("a header");
        records_before.push(records_before[records_before.len() - 1] + header.record_count as usize);
    }
    assert_eq!(records_before[records_before.len() - 1], full.len());
    // Cut at every byte: the entries of whole batches, then nothing (a partial
    // batch at the end is skipped, as Kafka's readers skip it), and reported.
    for cut in 0..file.len() {
        let mut entries = LogEntries::<MetadataLogRecord>::new(Bytes::copy_from_slice(&file[..cut]));
        let read: Vec<_> = entries.by_ref().collect::<Result<_, _>>().unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        let whole = batch_ends.iter().filter(|&&end| end <= cut).count() - 1;
        assert_eq!(read.len(), records_before[whole], "cut {cut}");
        assert_eq!(read[..], full[..read.len()], "cut {cut}");
        let partial = entries.batches().partial_batch().copied();
        assert_eq!(partial.is_some(), !batch_ends.contains(&cut), "cut {cut}: {partial:?}");
        if let Some(p) = partial {
            assert_eq!((p.position, p.available), (batch_ends[whole], cut - batch_ends[whole]), "cut {cut}");
        }
        // A snapshot cut short has no footer.
        assert!(matches!(
            Snapshot::<MetadataLogRecord>::decode(Bytes::copy_from_slice(&file[..cut])),
            Err(LogError::Snapshot(_))
        ));
        // Rejecting the partial batch names it.
        let options = options(true, DecodeOptions::DEFAULT_MAX_DECOMPRESSED_SIZE, true);
        let (_, error) = read_all::<MetadataLogRecord>(&file[..cut], options);
        match error {
            None => assert!(batch_ends.contains(&cut), "cut {cut}"),
            Some(LogError::Batch(e)) if matches!(e.kind(), RecordErrorKind::PartialBatch { .. }) => {
                assert!(e.to_string().contains("partial batch"), "{e}");
            }
            Some(other) => panic!("cut {cut}: {other}"),
        }
    }
}

#[test]
fn batch_length_larger_than_the_file() {
    let (file, ends) = &metadata_logs()[0];
    let last = ends[ends.len() - 2];
    for length in [i32::MAX, (file.len() - last) as i32, 1 << 30] {
        let mut bytes = file.clone();
        bytes[last + 8..last + 12].copy_from_slice(&length.to_be_bytes());
        let mut entries = LogEntries::<MetadataLogRecord>::new(Bytes::from(bytes.clone()));
        let read: Vec<_> = entries.by_ref().collect::<Result<_, _>>().expect("the whole batches read");
        let (full, _) = read_all::<MetadataLogRecord>(file, DecodeOptions::default());
        assert_eq!(read[..], full[..full.len() - 1], "all but the footer");
        let p = entries.batches().partial_batch().copied().expect("the partial batch is reported");
        assert_eq!((p.position, p.needed, p.available), (last, length as usize + 12, file.len() - last));
        let e = Snapshot::<MetadataLogRecord>::decode(Bytes::from(bytes)).unwrap_err();
        assert_eq!(e, LogError::Snapshot("the last record is not a snapshot footer"));
    }
    // Negative and tiny batch lengths: an error naming the batch and field.
    for length in [-1, i32::MIN, 0, 13] {
        let mut bytes = file.clone();
        bytes[last + 8..last + 12].copy_from_slice(&length.to_be_bytes());
        let (_, error) = read_all::<MetadataLogRecord>(&bytes, DecodeOptions::default());
        let e = error.expect("an error");
        assert!(e.to_string().contains("batch_length"), "{e}");
        assert!(e.to_string().contains("batch at offset"), "{e}");
    }
}

#[test]
fn negative_and_huge_record_counts() {
    let (file, ends) = &metadata_logs()[0];
    let start = ends[0];
    for count in [-1, i32::MIN, i32::MAX, 1 << 20] {
        let mut bytes = file.clone();
        bytes[start + 57..start + 61].copy_from_slice(&count.to_be_bytes());
        let options = options(false, DecodeOptions::DEFAULT_MAX_DECOMPRESSED_SIZE, false);
        let (entries, error) = read_all::<MetadataLogRecord>(&bytes, options);
        assert_eq!(entries.len(), 1, "the header before the batch");
        let e = error.expect("an error");
        assert!(e.to_string().contains("record_count"), "{e}");
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn any_bytes_as_a_log(bytes in proptest::collection::vec(any::<u8>(), 0..200), crc in any::<bool>()) {
        let options = options(crc, 1 << 16, false);
        if let (_, Some(e)) = read_all::<MetadataLogRecord>(&bytes, options) {
            check_log_error(&e)?;
        }
        if let (_, Some(e)) = read_all::<group::GroupCoordinatorRecord>(&bytes, options) {
            check_log_error(&e)?;
        }
        let _ = read_all::<share::ShareCoordinatorRecord>(&bytes, options);
        let _ = read_all::<txn::TransactionCoordinatorRecord>(&bytes, options);
        let _ = Snapshot::<MetadataLogRecord>::decode(Bytes::from(bytes));
    }

    #[test]
    fn mutated_logs(
        codec in any::<usize>(),
        crc in any::<bool>(),
        mutations in proptest::collection::vec(mutation(), 1..5),
    ) {
        let logs = metadata_logs();
        let (file, _) = &logs[codec % logs.len()];
        let bytes = mutate(file, &mutations);
        let options = options(crc, 1 << 20, false);
        let (entries, error) = read_all::<MetadataLogRecord>(&bytes, options);
        for e in &entries {
            // Whatever was read types and writes back.
            e.to_key_value().map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        if let Some(e) = &error {
            check_log_error(e)?;
        }
        // The same bytes as __consumer_offsets: metadata records are not coordinator records.
        let (_, error) = read_all::<group::GroupCoordinatorRecord>(&bytes, options);
        if let Some(e) = &error {
            check_log_error(e)?;
        }
        let _ = Snapshot::<MetadataLogRecord>::decode(Bytes::from(bytes));
    }

    #[test]
    fn control_records_of_any_shape(
        version in prop_oneof![Just(0i16), Just(-1), any::<i16>()],
        control_type in -2i16..9,
        extra in proptest::collection::vec(any::<u8>(), 0..3),
        key_len in 0usize..8,
        value in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..24)),
        with_key in any::<bool>(),
    ) {
        let mut key = Vec::new();
        key.extend_from_slice(&version.to_be_bytes());
        key.extend_from_slice(&control_type.to_be_bytes());
        key.extend_from_slice(&extra);
        key.truncate(key_len.min(key.len()));
        let key = with_key.then(|| Bytes::from(key.clone()));
        let value = value.map(Bytes::from);
        // The internal-log reader.
        match LogControlRecord::decode(key.clone(), value.clone()) {
            Ok(c) => {
                prop_assert!(c.key_version >= 0, "Kafka refuses a negative control key version");
                prop_assert_eq!(c.value.control_type(), control_type);
                prop_assert_eq!(c.key_bytes(), key.clone().expect("a key"));
                let written = c.value_bytes().expect("encodes");
                prop_assert_eq!(LogControlRecord::decode(Some(c.key_bytes()), Some(written)).expect("decodes"), c);
            }
            Err(e) => {
                let text = e.to_string();
                prop_assert!(text.starts_with(&format!("{}: ", e.part)) && says_offset(&text), "{}", text);
            }
        }
        // The record-layer reader.
        let record = Record { key: key.clone(), value: value.clone(), ..Record::default() };
        let at = Location::batch(5).record(1);
        match ControlRecord::from_record(&record, at) {
            Ok(c) => {
                let key = key.expect("a key");
                prop_assert!(key.len() >= 4 && version >= 0);
                prop_assert_eq!(c.key.record_type.id(), control_type);
                prop_assert_eq!(&c.key.to_bytes()[..], &key[..4]);
                if let Some(m) = c.marker {
                    prop_assert_eq!(&m.to_bytes()[..], &value.expect("a value")[..6]);
                }
            }
            Err(e) => {
                prop_assert_eq!(e.location().and_then(|l| l.base_offset), Some(5));
                prop_assert!(e.to_string().starts_with("batch at offset 5, record 1"), "{}", e);
            }
        }
    }

    #[test]
    fn control_keys_and_markers_of_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..10)) {
        let version = bytes.get(..2).map(|b| i16::from_be_bytes([b[0], b[1]]));
        match ControlRecordKey::parse(&bytes) {
            Ok(k) => {
                prop_assert!(bytes.len() >= 4 && version >= Some(0));
                prop_assert_eq!(&k.to_bytes()[..], &bytes[..4]);
            }
            Err(e) => {
                prop_assert!(bytes.len() < 4 || version < Some(0));
                prop_assert!(e.to_string().starts_with("control key"), "{}", e);
            }
        }
        match EndTxnMarker::parse(&bytes) {
            Ok(m) => {
                prop_assert!(bytes.len() >= 6 && version >= Some(0));
                prop_assert_eq!(&m.to_bytes()[..], &bytes[..6]);
            }
            Err(e) => {
                prop_assert!(bytes.len() < 6 || version < Some(0));
                prop_assert!(e.to_string().starts_with("marker"), "{}", e);
            }
        }
    }
}

#[test]
fn snapshots_without_header_or_footer() {
    let header = control_batch(0, 3, SnapshotHeaderRecord::default().to_bytes(0).expect("encodes"));
    let footer = control_batch(1, 4, SnapshotFooterRecord::default().to_bytes(0).expect("encodes"));
    let mut data = RecordBatchBuilder::new(1);
    let noop = ApiMessageAndVersion {
        version: 0,
        message: MetadataRecord::from(kwire::internal::metadata::NoOpRecord::default()),
    };
    data.append(0, None, Some(noop.to_bytes_framed().expect("encodes")), vec![]);
    let data = data.to_bytes().expect("builds").to_vec();
    let read = |parts: &[&[u8]]| Snapshot::<MetadataLogRecord>::decode(Bytes::from(parts.concat()));
    let no_header = LogError::Snapshot("the first record is not a snapshot header");
    let no_footer = LogError::Snapshot("the last record is not a snapshot footer");
    assert_eq!(read(&[]).unwrap_err(), no_header);
    assert_eq!(read(&[&data]).unwrap_err(), no_header);
    assert_eq!(read(&[&footer]).unwrap_err(), no_header);
    assert_eq!(read(&[&data, &header, &footer]).unwrap_err(), no_header);
    assert_eq!(read(&[&header]).unwrap_err(), no_footer);
    assert_eq!(read(&[&header, &data]).unwrap_err(), no_footer);
    assert_eq!(read(&[&header, &footer, &data]).unwrap_err(), no_footer);
    assert!(no_footer.to_string().starts_with("snapshot: "));
    let ok = read(&[&header, &data, &footer]).expect("a snapshot");
    assert_eq!(ok.entries.len(), 3);
    // The header's type with a value that is not a header: a record error at its offset.
    let bad_header = control_batch(0, 3, Bytes::from_static(&[0, 0]));
    let e = read(&[&bad_header, &footer]).unwrap_err();
    assert!(e.to_string().starts_with("record at offset 0: value: SnapshotHeaderRecord v0: "), "{e}");
    // A header in a data batch is data, not a header.
    let mut fake = RecordBatchBuilder::new(0);
    fake.append(0, Some(control_key(3)), Some(SnapshotHeaderRecord::default().to_bytes(0).expect("encodes")), vec![]);
    let fake = fake.to_bytes().expect("builds").to_vec();
    let e = read(&[&fake, &footer]).unwrap_err();
    assert!(e.to_string().starts_with("record at offset 0: key: "), "{e}");
}

#[test]
fn control_record_keys_as_kafka_reads_them() {
    let header = SnapshotHeaderRecord::default().to_bytes(0).expect("encodes");
    // A negative key version: refused, as Kafka's ControlRecordType.parse and records::ControlRecordKey refuse it.
    let e = LogControlRecord::decode(Some(Bytes::from_static(&[0xff, 0xff, 0, 3])), Some(header.clone())).unwrap_err();
    assert_eq!((e.part, e.source.kind()), (RecordPart::Key, &DecodeErrorKind::UnsupportedVersion(-1)));
    assert_eq!(e.to_string(), "key: version: version -1 is not supported (offset 0)");
    assert!(ControlRecordKey::parse(&[0xff, 0xff, 0, 3]).is_err());
    // A later version is read as 0 and kept.
    let c = LogControlRecord::decode(Some(Bytes::from_static(&[0, 7, 0, 3])), Some(header)).expect("reads");
    assert_eq!((c.key_version, c.value.control_type()), (7, 3));
    assert_eq!(&c.key_bytes()[..], [0, 7, 0, 3]);
    // Short keys, unknown types and a missing value say which part and where.
    let e = LogControlRecord::decode(Some(Bytes::from_static(&[0, 0, 0])), None).unwrap_err();
    assert_eq!(e.to_string(), "key: type: need 2 bytes, have 1 (offset 2)");
    let e = LogControlRecord::decode(Some(Bytes::from_static(&[0, 0, 0, 9])), None).unwrap_err();
    assert_eq!(e.to_string(), "key: type: unknown record type 9 (offset 2)");
    let e = LogControlRecord::decode(Some(Bytes::from_static(&[0, 0, 0, 1])), None).unwrap_err();
    assert_eq!((e.part, e.source.kind()), (RecordPart::Value, &DecodeErrorKind::NullNotAllowed));
}

/// Compression bombs: records that decompress past the limit stop with
/// DecompressedTooLarge naming the batch, at the limit given and at the
/// default of 64 MiB.
#[test]
fn compression_bombs_stop_at_the_limit() {
    let value = Bytes::from(vec![0u8; 2 << 20]);
    for codec in codecs().into_iter().filter(|c| *c != Compression::None) {
        let mut b = RecordBatchBuilder::new(77);
        b.compression(codec);
        b.append(0, None, Some(value.clone()), vec![]);
        let batch = b.to_bytes().expect("builds");
        assert!(batch.len() < 256 << 10, "{codec}: {} bytes", batch.len());
        let options = options(true, 1 << 20, false);
        let (entries, error) = read_all::<MetadataLogRecord>(&batch, options);
        assert!(entries.is_empty());
        match error {
            Some(LogError::Batch(e)) if matches!(e.kind(), RecordErrorKind::DecompressedTooLarge { .. }) => {
                assert_eq!(*e.kind(), RecordErrorKind::DecompressedTooLarge { limit: 1 << 20 });
                assert!(e.to_string().starts_with("batch at offset 77, records: "), "{codec}: {e}");
            }
            other => panic!("{codec}: {other:?}"),
        }
    }
    #[cfg(feature = "zstd")]
    {
        // A zstd frame of RLE blocks: 66 MiB of zeros in about 2 KiB, past the default limit.
        // Descriptor 0: no content size; window descriptor 0x38: a 128 KiB window.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
        let blocks = 66 * 8;
        for i in 0..blocks {
            let last = u32::from(i == blocks - 1);
            // Block header: last flag, type 1 (RLE), size 128 KiB; then the byte.
            let header = last | (1 << 1) | ((128 << 10) << 3);
            frame.extend_from_slice(&header.to_le_bytes()[..3]);
            frame.push(0);
        }
        let mut b = RecordBatchBuilder::new(9);
        b.append(0, None, Some(Bytes::from_static(b"x")), vec![]);
        let plain = b.to_bytes().expect("builds").to_vec();
        // Swap the records for the frame, set the codec, fix length and CRC.
        let mut bytes = plain[..BatchHeader::SIZE].to_vec();
        bytes.extend_from_slice(&frame);
        let length = (bytes.len() - 12) as i32;
        bytes[8..12].copy_from_slice(&length.to_be_bytes());
        let attributes = Attributes::new().with_compression(Compression::Zstd).bits();
        bytes[21..23].copy_from_slice(&attributes.to_be_bytes());
        let crc = crc32c_of(&bytes[21..]);
        bytes[17..21].copy_from_slice(&crc.to_be_bytes());
        let (_, error) = read_all::<MetadataLogRecord>(&bytes, DecodeOptions::default());
        match error {
            Some(LogError::Batch(e)) if matches!(e.kind(), RecordErrorKind::DecompressedTooLarge { .. }) => {
                assert_eq!(
                    *e.kind(),
                    RecordErrorKind::DecompressedTooLarge { limit: DecodeOptions::DEFAULT_MAX_DECOMPRESSED_SIZE }
                );
            }
            other => panic!("zstd bomb: {other:?}"),
        }
    }
}

/// CRC-32C, bit by bit (independent of the crate's).
#[allow(dead_code)]
fn crc32c_of(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0x82f6_3b78 } else { crc >> 1 };
        }
    }
    !crc
}

// ---- the producer's sequence rule and header arithmetic ----

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn sequences_wrap_and_never_panic(sequence in any::<i32>(), increment in any::<i32>()) {
        let result = increment_sequence(sequence, increment);
        if sequence >= 0 && increment >= 0 {
            // Sequences count modulo 2^31: i32::MAX + 1 is 0.
            let expected = (i64::from(sequence) + i64::from(increment)) % (1i64 << 31);
            prop_assert_eq!(i64::from(result), expected);
        }
    }

    #[test]
    fn header_arithmetic_never_panics(
        base_offset in any::<i64>(),
        batch_length in any::<i32>(),
        last_offset_delta in any::<i32>(),
        base_sequence in prop_oneof![Just(NO_SEQUENCE), Just(i32::MAX), any::<i32>()],
        base_timestamp in any::<i64>(),
        offset_delta in any::<i32>(),
        timestamp_delta in any::<i64>(),
        attributes in any::<i16>(),
    ) {
        let header = BatchHeader {
            base_offset,
            batch_length,
            partition_leader_epoch: -1,
            magic: MAGIC_V2,
            crc: 0,
            attributes: Attributes::from_bits(attributes),
            last_offset_delta,
            base_timestamp,
            max_timestamp: base_timestamp,
            producer_id: 1,
            producer_epoch: 0,
            base_sequence,
            record_count: 1,
        };
        let last = header.last_sequence();
        if base_sequence == NO_SEQUENCE {
            prop_assert_eq!(last, NO_SEQUENCE);
        } else {
            prop_assert_eq!(last, increment_sequence(base_sequence, last_offset_delta));
        }
        let _ = (header.last_offset(), header.batch_size());
        let record = Record { offset_delta, timestamp_delta, ..Record::default() };
        let _ = (header.offset_of(&record), header.timestamp_of(&record));
        let mut bytes = Vec::new();
        header.encode(&mut bytes);
        match BatchHeader::parse(&bytes) {
            Ok(read) => prop_assert_eq!(read, header),
            Err(e) => prop_assert!(e.to_string().contains("batch_length"), "{}", e),
        }
    }
}

// ---- uuid text ----

/// Text near the uuid forms: base64 and hex characters, `=`, `-`, and
/// multi-byte characters, 0 to 30 of them.
fn uuid_like_text() -> impl Strategy<Value = String> {
    let chars = prop_oneof![
        6 => proptest::char::ranges(vec!['A'..='Z', 'a'..='z', '0'..='9'].into()),
        1 => Just('-'),
        1 => Just('_'),
        2 => Just('='),
        1 => Just('+'),
        1 => Just('/'),
        1 => Just('é'),
        1 => Just('€'),
        1 => Just('😀'),
        1 => Just('\u{0}'),
        1 => any::<char>(),
    ];
    proptest::collection::vec(chars, 0..31).prop_map(|v| v.into_iter().collect())
}

fn check_uuid_error(text: &str, e: ParseUuidError) -> Result<(), TestCaseError> {
    let shown = e.to_string();
    match e {
        ParseUuidError::InvalidCharacter { character, position, .. } => {
            prop_assert!(text.is_char_boundary(position), "{:?} at {}", text, position);
            prop_assert!(text[position..].starts_with(character), "{:?}: {:?} at {}", text, character, position);
            prop_assert!(shown.contains(&format!("at byte {position}")), "{}", shown);
        }
        ParseUuidError::BadPadding { position } => {
            prop_assert_eq!(text.as_bytes().get(position), Some(&b'='));
            prop_assert!(shown.contains(&position.to_string()), "{}", shown);
        }
        ParseUuidError::WrongLength { len, .. } => prop_assert!(shown.contains(&len.to_string()), "{}", shown),
        ParseUuidError::TooLong { len } => prop_assert_eq!(len, text.len()),
        other => prop_assert!(false, "unexpected {:?}", other),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn uuid_text_of_any_shape(text in prop_oneof![uuid_like_text(), any::<String>()], pad in any::<bool>()) {
        let text = if pad { format!("{text}==") } else { text };
        match text.parse::<Uuid>() {
            Ok(id) => {
                prop_assert!(text.len() == 22 || (text.len() == 24 && text.ends_with("==")));
                prop_assert_eq!(id.to_string().parse::<Uuid>(), Ok(id));
                prop_assert_eq!(&id.to_string()[..21], &text[..21]);
            }
            Err(e) => check_uuid_error(&text, e)?,
        }
        match Uuid::from_rfc_string(&text) {
            Ok(id) => {
                prop_assert_eq!(id.to_rfc_string(), text.to_ascii_lowercase());
            }
            Err(e) => check_uuid_error(&text, e)?,
        }
    }

    #[test]
    fn rfc_text_mutated(value in any::<u128>(), at in 0usize..36, c in any::<char>()) {
        let rfc = Uuid::from_u128(value).to_rfc_string();
        let mut text: String = rfc.chars().take(at).collect();
        text.push(c);
        text.extend(rfc.chars().skip(at + 1));
        match Uuid::from_rfc_string(&text) {
            Ok(id) => prop_assert_eq!(id.to_rfc_string(), text.to_ascii_lowercase()),
            Err(e) => check_uuid_error(&text, e)?,
        }
        let mut text = rfc.clone();
        text.insert(at, c);
        prop_assert!(Uuid::from_rfc_string(&text).is_err());
    }

    #[test]
    fn uuids_round_trip(value in any::<u128>()) {
        let id = Uuid::from_u128(value);
        let text = id.to_string();
        prop_assert_eq!(text.len(), 22);
        prop_assert_eq!(text.parse::<Uuid>(), Ok(id));
        prop_assert_eq!(format!("{text}==").parse::<Uuid>(), Ok(id));
        prop_assert_eq!(Uuid::from_rfc_string(&id.to_rfc_string()), Ok(id));
        prop_assert_eq!(Uuid::from_rfc_string(&id.to_rfc_string().to_uppercase()), Ok(id));
        // The 4 bits the last character carries beyond 128 are ignored.
        const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut bytes = text.into_bytes();
        let sextet = ALPHABET.iter().position(|&c| c == bytes[21]).expect("base64");
        prop_assert_eq!(sextet & 15, 0);
        bytes[21] = ALPHABET[sextet | 15];
        let lenient = String::from_utf8(bytes).expect("ascii");
        prop_assert_eq!(lenient.parse::<Uuid>(), Ok(id));
    }
}

// ---- entity rewriting to strings too long to encode (feature `entities`) ----

#[cfg(feature = "entities")]
#[test]
fn entities_rewritten_too_long_are_encode_errors() {
    use kwire::api::API_INFO;
    use kwire::entity::{Entities, EntityValueMut};
    use kwire::messages::ResponseBody;
    let long = "x".repeat(i16::MAX as usize + 1);
    let longest = "y".repeat(i16::MAX as usize);
    let (mut rewritten, mut refused) = (0, 0);
    for info in API_INFO {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64 ^ 0xe);
            let (Some(request), Some(response)) = (
                RequestBody::sample(info.api_key, &mut g, version),
                ResponseBody::sample(info.api_key, &mut g, version),
            ) else {
                continue;
            };
            let place = format!("{} v{version}", info.name);
            // Requests: too long, then exactly the longest.
            let mut strings = 0;
            let mut body = request.clone();
            body.rewrite_entities(version, &mut |e| {
                if let EntityValueMut::Str(s) = e.value {
                    *s = long.as_str().into();
                    strings += 1;
                }
            });
            let mut buf = BytesMut::new();
            let result = body.encode(&mut buf, version);
            if strings > 0 {
                let e = result.expect_err(&place);
                assert_eq!(*e.kind(), EncodeErrorKind::TooLong(long.len()), "{place}: {e}");
                assert!(e.message().is_some(), "{place}: {e} names no message");
                assert!(!e.path().is_empty(), "{place}: {e} names no field");
                assert!(buf.is_empty(), "{place}: a failed encode leaves the buffer as it was");
                refused += 1;
                let mut body = request.clone();
                body.rewrite_entities(version, &mut |e| {
                    if let EntityValueMut::Str(s) = e.value {
                        *s = longest.as_str().into();
                    }
                });
                let mut buf = BytesMut::new();
                body.encode(&mut buf, version).unwrap_or_else(|e| panic!("{place}: {e}"));
                let mut r = kwire::primitives::Reader::new(buf.freeze());
                let read = RequestBody::decode_from(info.api_key, &mut r, version).expect("decodes");
                assert_eq!(read, body, "{place}");
                rewritten += 1;
            } else {
                result.unwrap_or_else(|e| panic!("{place}: {e}"));
            }
            // Responses: too long.
            let mut strings = 0;
            let mut body = response;
            body.rewrite_entities(version, &mut |e| {
                if let EntityValueMut::Str(s) = e.value {
                    *s = long.as_str().into();
                    strings += 1;
                }
            });
            let mut buf = BytesMut::new();
            let result = body.encode(&mut buf, version);
            if strings > 0 {
                let e = result.expect_err(&place);
                assert_eq!(*e.kind(), EncodeErrorKind::TooLong(long.len()), "{place} response: {e}");
                refused += 1;
            }
        }
    }
    assert!(refused > 200 && rewritten > 100, "{refused} refused, {rewritten} rewritten");
}

// ---- redaction ----

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn secrets_never_reach_debug(secret in "[a-zA-Z0-9]{12,40}") {
        let marked = format!("SECRET{secret}");
        let request = SaslAuthenticateRequest { auth_bytes: Bytes::from(marked.clone()), ..Default::default() };
        let shown = format!("{request:?}");
        prop_assert!(!shown.contains(&marked), "{}", shown);
        prop_assert!(shown.contains(&format!("<redacted {} bytes>", marked.len())), "{}", shown);
        let response = SaslAuthenticateResponse { auth_bytes: Bytes::from(marked.clone()), ..Default::default() };
        let shown = format!("{response:?}");
        prop_assert!(!shown.contains(&marked), "{}", shown);
        let shown = format!("{:#?}", RequestBody::SaslAuthenticate(request));
        prop_assert!(!shown.contains(&marked), "{}", shown);
        prop_assert_eq!(format!("{:?}", Redacted(marked.as_str())), format!("<redacted {} bytes>", marked.len()));
        prop_assert_eq!(format!("{:?}", Redacted(&Some(kwire::ByteString::from(marked.as_str())))), format!("<redacted {} bytes>", marked.len()));
        prop_assert_eq!(format!("{:?}", Redacted(&None::<Bytes>)), "None");
    }
}
