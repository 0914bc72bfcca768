//! Writes fuzz seeds from encoded round-trip values when `FUZZ_SEEDS_DIR`
//! is set (scripts/fuzz.sh does): for every api key and version, a sampled
//! request frame and a sampled response in the shape the `response` target
//! reads (api index, version, then header and body). Without the variable
//! it checks that the seeds it would write decode back.
#![cfg(feature = "sample")]

use kwire::api::API_INFO;
use kwire::frame;
use kwire::messages::{RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use kwire::sample::SampleGen;
use kwire::BytesMut;

fn seeds() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for (index, info) in API_INFO.iter().enumerate() {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64);
            let header = RequestHeader {
                request_api_key: info.api_key.code(),
                request_api_version: version,
                correlation_id: 7,
                ..Default::default()
            };
            let (Some(request), Some(response)) = (
                RequestBody::sample(info.api_key, &mut g, version),
                ResponseBody::sample(info.api_key, &mut g, version),
            ) else {
                continue;
            };
            let mut req = BytesMut::new();
            frame::RequestFrame::encode_parts(&header, &request, &mut req).expect("sampled requests encode");
            let mut resp = BytesMut::from(&[index as u8, (version - info.valid_versions.min) as u8][..]);
            let rh = ResponseHeader { correlation_id: 7, ..Default::default() };
            frame::ResponseFrame::encode_parts(&rh, &response, version, &mut resp).expect("sampled responses encode");
            out.push((format!("{}-v{version}", info.name), req.to_vec(), resp.to_vec()));
        }
    }
    out
}

#[test]
fn write_or_check_seeds() {
    let seeds = seeds();
    assert!(seeds.len() > 300, "every api key and version gives a seed");
    let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") else {
        for (name, req, _) in &seeds {
            frame::RequestFrame::decode(req.clone().into()).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    for (sub, pick) in [("request_frame", 1), ("response", 2)] {
        std::fs::create_dir_all(dir.join(sub)).expect("seed dir");
        for seed in &seeds {
            let bytes = if pick == 1 { &seed.1 } else { &seed.2 };
            std::fs::write(dir.join(sub).join(format!("sample-{}", seed.0)), bytes).expect("seed written");
        }
    }
}

/// Seeds of the `internal_records` target, in its layout (first byte: what
/// the rest is; see fuzz/fuzz_targets/internal_records.rs): every metadata
/// and remote-log-metadata record type and version framed, every
/// coordinator record type with each value version and as a tombstone, a
/// log of data and control batches, and a snapshot.
#[cfg(feature = "internal-records")]
fn internal_seeds() -> Vec<(String, Vec<u8>)> {
    use kwire::internal::{
        group_coordinator, metadata::MetadataRecord, share_coordinator, storage, transaction_coordinator,
        ApiMessageAndVersion, CoordinatorRecord, RecordData,
    };
    use kwire::message::Message;
    use kwire::messages::{SnapshotFooterRecord, SnapshotHeaderRecord};
    use kwire::records::{ControlRecordKey, ControlRecordType, EndTxnMarker, RecordBatchBuilder};

    fn framed<T: RecordData>(family: &str, out: &mut Vec<(String, Vec<u8>)>) -> Vec<Vec<u8>> {
        let mut values = Vec::new();
        for t in T::RECORD_TYPES {
            for version in t.versions.min..=t.versions.max {
                let mut g = SampleGen::new(((t.id as u64) << 16) ^ version as u64);
                let message = T::sample(t.id, &mut g, version).expect("the family's record types sample");
                let bytes =
                    ApiMessageAndVersion { version, message }.to_bytes_framed().expect("sampled records encode");
                out.push((format!("{family}-{}-v{version}", t.name), [&[0u8][..], &bytes].concat()));
                values.push(bytes.to_vec());
            }
        }
        values
    }
    fn coordinator<K: RecordData, V: RecordData>(family: &str, out: &mut Vec<(String, Vec<u8>)>) {
        for t in K::RECORD_TYPES {
            let Some(value_type) = V::record_type_info(t.id) else { continue };
            let mut g = SampleGen::new(t.id as u64);
            let key = K::sample(t.id, &mut g, 0).expect("keys sample");
            let mut records =
                vec![(CoordinatorRecord::<K, V> { key: key.clone(), value: None }, "tombstone".to_string())];
            for version in value_type.versions.min..=value_type.versions.max {
                let message = V::sample(t.id, &mut g, version).expect("values sample");
                let value = Some(ApiMessageAndVersion { version, message });
                records.push((CoordinatorRecord { key: key.clone(), value }, format!("v{version}")));
            }
            for (record, what) in records {
                let key = record.key_bytes().expect("sampled keys encode");
                let Ok(key_len) = u8::try_from(key.len()) else { continue };
                let value = record.value_bytes().expect("sampled values encode");
                let selector = if value.is_none() { 0x81 } else { 0x01 };
                let seed = [&[selector, key_len][..], &key, value.as_deref().unwrap_or_default()].concat();
                out.push((format!("{family}-{}-{what}", t.name), seed));
            }
        }
    }
    fn control(base_offset: i64, t: ControlRecordType, value: kwire::Bytes) -> Vec<u8> {
        let mut b = RecordBatchBuilder::new(base_offset);
        b.control(true);
        b.append(1_700_000_000_000, Some(ControlRecordKey::new(t).to_bytes()), Some(value), vec![]);
        b.to_bytes().expect("builds").to_vec()
    }

    let mut out = Vec::new();
    let values = framed::<MetadataRecord>("metadata", &mut out);
    framed::<storage::RemoteLogMetadataRecord>("remote-log-metadata", &mut out);
    coordinator::<group_coordinator::CoordinatorRecordKey, group_coordinator::CoordinatorRecordValue>(
        "offsets", &mut out,
    );
    coordinator::<share_coordinator::CoordinatorRecordKey, share_coordinator::CoordinatorRecordValue>(
        "share", &mut out,
    );
    coordinator::<transaction_coordinator::CoordinatorRecordKey, transaction_coordinator::CoordinatorRecordValue>(
        "transactions",
        &mut out,
    );
    let mut data = RecordBatchBuilder::new(1);
    for v in values.iter().take(8) {
        data.append(1_700_000_000_001, None, Some(v.clone().into()), vec![]);
    }
    let data = data.to_bytes().expect("builds").to_vec();
    let commit = control(9, ControlRecordType::Commit, EndTxnMarker::new(1).to_bytes());
    out.push(("log".into(), [&[2u8][..], &data, &commit].concat()));
    let header =
        control(0, ControlRecordType::SnapshotHeader, SnapshotHeaderRecord::default().to_bytes(0).expect("encodes"));
    let footer =
        control(10, ControlRecordType::SnapshotFooter, SnapshotFooterRecord::default().to_bytes(0).expect("encodes"));
    out.push(("snapshot".into(), [&[3u8][..], &header, &data, &footer].concat()));
    out
}

#[cfg(feature = "internal-records")]
#[test]
fn write_or_check_internal_seeds() {
    use kwire::internal::log::{LogEntries, LogRecord, MetadataLogRecord, Snapshot};
    use kwire::internal::{group_coordinator, share_coordinator, transaction_coordinator};
    use kwire::Bytes;

    let seeds = internal_seeds();
    assert!(seeds.len() > 90, "every record type and version gives a seed: {}", seeds.len());
    assert!(seeds.iter().any(|(n, s)| n.starts_with("offsets") && s[0] == 0x81), "tombstones among them");
    let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") else {
        // Each seed reads as the target reads it.
        for (name, seed) in &seeds {
            let (selector, rest) = seed.split_first().expect("a selector");
            let rest = Bytes::copy_from_slice(rest);
            match selector % 4 {
                0 if name.starts_with("metadata") => {
                    MetadataLogRecord::decode_framed(rest).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                0 => {
                    kwire::internal::ApiMessageAndVersion::<kwire::internal::storage::RemoteLogMetadataRecord>::decode_framed(rest)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                1 => {
                    let key_len = rest[0] as usize;
                    let key = rest.slice(1..1 + key_len);
                    let value = (selector & 0x80 == 0).then(|| rest.slice(1 + key_len..));
                    let ok = if name.starts_with("offsets") {
                        group_coordinator::GroupCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    } else if name.starts_with("share") {
                        share_coordinator::ShareCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    } else {
                        transaction_coordinator::TransactionCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    };
                    ok.unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                2 => {
                    let entries = LogEntries::<MetadataLogRecord>::new(rest)
                        .collect::<Result<Vec<_>, _>>()
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(entries.len(), 9, "{name}");
                }
                _ => {
                    let snapshot =
                        Snapshot::<MetadataLogRecord>::decode(rest).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(snapshot.entries.len(), 10, "{name}");
                }
            }
        }
        return;
    };
    let dir = std::path::PathBuf::from(dir).join("internal_records");
    std::fs::create_dir_all(&dir).expect("seed dir");
    for (name, seed) in &seeds {
        std::fs::write(dir.join(format!("sample-{name}")), seed).expect("seed written");
    }
}
