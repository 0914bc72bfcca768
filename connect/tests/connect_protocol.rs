//! The Connect worker group protocol (KIP-415, KIP-507): worker metadata and
//! assignment blobs byte for byte, with golden bytes derived by hand from
//! the layouts in the module docs of `kwire_connect::protocol`, and the
//! choice of protocol from what the members offer.
//!
//! Encodings are classic: int16/int32/int64 big-endian, strings with an
//! int16 length, bytes and arrays with an int32 length, -1 (`ffff` /
//! `ffffffff`) for null.

use kwire::error::{DecodeErrorKind, EncodeErrorKind};
use kwire::Bytes;
use kwire_connect::messages::connect_assignment::ConnectorAssignment;
use kwire_connect::messages::{ConnectAssignment, ConnectWorkerMetadata};
use kwire_connect::protocol::{
    assignment_to_bytes, body_version, choose_protocol, decode_allocation, decode_assignment, decode_worker_metadata,
    worker_metadata_to_bytes, ConnectProtocol, ConnectProtocolError, Versioned,
};

fn hex(text: &str) -> Bytes {
    let clean: String = text.split_whitespace().collect();
    hex::decode(clean).expect("test hex").into()
}

fn metadata(allocation: Option<Bytes>) -> ConnectWorkerMetadata {
    ConnectWorkerMetadata { url: "w1".into(), config_offset: 42, allocation }
}

/// Leader "L" at "U", offset 42, running connector "c" (task -1 = the
/// connector itself, and task 0); at layout 1 also revoking task 1 of "d",
/// with a 1000 ms delay.
fn assignment(layout: i16) -> ConnectAssignment {
    let running = vec![ConnectorAssignment { connector: "c".into(), tasks: vec![-1, 0] }];
    let (revoked, delay) = if layout == 0 {
        (vec![], 0)
    } else {
        (vec![ConnectorAssignment { connector: "d".into(), tasks: vec![1] }], 1000)
    };
    ConnectAssignment {
        error: 0,
        leader: "L".into(),
        leader_url: "U".into(),
        config_offset: 42,
        assignment: Some(running),
        revoked: Some(revoked),
        delay,
    }
}

/// Eager (v0) worker metadata:
/// version 0 = `0000`; url "w1" = `0002` + `7731`; config-offset 42 = `000000000000002a`.
const METADATA_V0: &str = "0000 0002 7731 000000000000002a";

/// Compatible (v1) worker metadata with a null allocation: the v0 body, then
/// allocation null = `ffffffff`.
const METADATA_V1_NULL: &str = "0001 0002 7731 000000000000002a ffffffff";

/// Eager (v0) assignment:
/// version `0000`; error 0 `0000`; leader "L" `0001 4c`; leader-url "U" `0001 55`;
/// config-offset 42 `000000000000002a`; assignment: 1 entry `00000001`:
/// connector "c" `0001 63`, tasks: 2 entries `00000002`, -1 `ffffffff`, 0 `00000000`.
const ASSIGNMENT_V0: &str = "0000 0000 00014c 000155 000000000000002a 00000001 000163 00000002 ffffffff 00000000";

/// Compatible (v1) assignment: as v0 with header `0001`, then
/// revoked: 1 entry `00000001`: connector "d" `0001 64`, tasks: 1 entry
/// `00000001`, task 1 `00000001`; delay 1000 = `000003e8`.
const ASSIGNMENT_V1: &str = "0001 0000 00014c 000155 000000000000002a 00000001 000163 00000002 ffffffff 00000000 \
                             00000001 000164 00000001 00000001 000003e8";

/// Compatible (v1) assignment, error 1 (config mismatch), null assignment
/// and null revoked (`ffffffff` each), delay 0: 30 bytes.
const ASSIGNMENT_V1_NULLS: &str = "0001 0001 00014c 000155 000000000000002a ffffffff ffffffff 00000000";

#[test]
fn eager_worker_metadata_bytes() {
    let blob = worker_metadata_to_bytes(0, &metadata(None)).unwrap();
    assert_eq!(blob, hex(METADATA_V0));
    assert_eq!(decode_worker_metadata(hex(METADATA_V0)).unwrap(), Versioned { version: 0, body: metadata(None) });
}

#[test]
fn compatible_worker_metadata_with_null_allocation() {
    let blob = worker_metadata_to_bytes(ConnectProtocol::Compatible.version(), &metadata(None)).unwrap();
    assert_eq!(blob, hex(METADATA_V1_NULL));
    let decoded = decode_worker_metadata(blob).unwrap();
    assert_eq!(decoded, Versioned { version: 1, body: metadata(None) });
    assert_eq!(decode_allocation(&decoded.body).unwrap(), None);
}

#[test]
fn sessioned_worker_metadata_with_nested_allocation() {
    // Header 2, the v1 body: url, offset, then the allocation as bytes:
    // length 30 = `0000001e`, then the 30-byte ASSIGNMENT_V1_NULLS blob.
    let golden = hex(&format!("0002 0002 7731 000000000000002a 0000001e {ASSIGNMENT_V1_NULLS}"));
    let current = ConnectAssignment { error: 1, assignment: None, revoked: None, ..assignment(1) };
    let current = ConnectAssignment { delay: 0, ..current };
    let allocation = assignment_to_bytes(1, &current).unwrap();
    assert_eq!(allocation, hex(ASSIGNMENT_V1_NULLS));
    assert_eq!(allocation.len(), 30);

    let blob = worker_metadata_to_bytes(ConnectProtocol::Sessioned.version(), &metadata(Some(allocation))).unwrap();
    assert_eq!(blob, golden);

    let decoded = decode_worker_metadata(golden).unwrap();
    assert_eq!(decoded.version, 2);
    assert_eq!(decoded.body.url, "w1");
    assert_eq!(decoded.body.config_offset, 42);
    assert_eq!(decode_allocation(&decoded.body).unwrap(), Some(Versioned { version: 1, body: current }));
}

#[test]
fn worker_metadata_v2_header_reads_with_v1_layout() {
    // METADATA_V1_NULL with the header changed to 2: same body.
    let decoded = decode_worker_metadata(hex("0002 0002 7731 000000000000002a ffffffff")).unwrap();
    assert_eq!(decoded, Versioned { version: 2, body: metadata(None) });
}

#[test]
fn eager_assignment_bytes() {
    let blob = assignment_to_bytes(ConnectProtocol::Eager.version(), &assignment(0)).unwrap();
    assert_eq!(blob, hex(ASSIGNMENT_V0));
    assert_eq!(blob.len(), 37);
    assert_eq!(decode_assignment(blob).unwrap(), Versioned { version: 0, body: assignment(0) });
}

#[test]
fn compatible_assignment_bytes() {
    let blob = assignment_to_bytes(1, &assignment(1)).unwrap();
    assert_eq!(blob, hex(ASSIGNMENT_V1));
    assert_eq!(blob.len(), 56);
    assert_eq!(decode_assignment(blob).unwrap(), Versioned { version: 1, body: assignment(1) });
}

#[test]
fn sessioned_assignment_is_the_v1_layout_under_header_2() {
    let blob = assignment_to_bytes(2, &assignment(1)).unwrap();
    let mut expected = hex(ASSIGNMENT_V1).to_vec();
    expected[1] = 2;
    assert_eq!(&blob[..], &expected[..]);
    assert_eq!(decode_assignment(blob).unwrap(), Versioned { version: 2, body: assignment(1) });
}

#[test]
fn null_assignment_and_revoked() {
    let decoded = decode_assignment(hex(ASSIGNMENT_V1_NULLS)).unwrap();
    assert_eq!(decoded.version, 1);
    assert_eq!(decoded.body.error, 1);
    assert_eq!(decoded.body.assignment, None);
    assert_eq!(decoded.body.revoked, None);
    assert_eq!(decoded.body.delay, 0);
    assert_eq!(assignment_to_bytes(1, &decoded.body).unwrap(), hex(ASSIGNMENT_V1_NULLS));
}

#[test]
fn future_versions_read_the_v1_layout_and_ignore_appended_bytes() {
    // Header 7, the v1 body, then two bytes a newer worker might append.
    let mut blob = hex(ASSIGNMENT_V1).to_vec();
    blob[1] = 7;
    blob.extend_from_slice(&[0xbe, 0xef]);
    let decoded = decode_assignment(blob.into()).unwrap();
    assert_eq!(decoded, Versioned { version: 7, body: assignment(1) });
    assert_eq!(body_version(7), Some(1));
}

#[test]
fn trailing_bytes_at_known_versions_are_refused() {
    for version in 0..=2u8 {
        let text = if version == 0 { METADATA_V0 } else { METADATA_V1_NULL };
        let mut blob = hex(text).to_vec();
        blob[1] = version;
        blob.push(0);
        let err = decode_worker_metadata(blob.into()).unwrap_err();
        let ConnectProtocolError::Decode { what, version: Some(v), source } = err else { panic!("{err:?}") };
        assert_eq!((what, v), ("worker metadata", i16::from(version)));
        assert_eq!(source.kind(), &DecodeErrorKind::TrailingBytes(1));
    }
}

#[test]
fn layout_0_cannot_carry_layout_1_values() {
    let err = assignment_to_bytes(0, &ConnectAssignment { assignment: None, ..assignment(0) }).unwrap_err();
    let ConnectProtocolError::Encode { what: "assignment", version: 0, source } = err else { panic!("{err:?}") };
    assert_eq!(source.kind(), &EncodeErrorKind::NullNotAllowed);

    let err = assignment_to_bytes(0, &assignment(1)).unwrap_err();
    let ConnectProtocolError::Encode { source, .. } = err else { panic!("{err:?}") };
    assert_eq!(source.kind(), &EncodeErrorKind::NonDefaultField);

    let err = worker_metadata_to_bytes(0, &metadata(Some(Bytes::from_static(b"x")))).unwrap_err();
    let ConnectProtocolError::Encode { what: "worker metadata", source, .. } = err else { panic!("{err:?}") };
    assert_eq!(source.kind(), &EncodeErrorKind::NonDefaultField);
}

#[test]
fn null_assignment_at_version_0_is_malformed() {
    // ASSIGNMENT_V0's fields, with a null (-1) assignment array.
    let err = decode_assignment(hex("0000 0000 00014c 000155 000000000000002a ffffffff")).unwrap_err();
    let ConnectProtocolError::Decode { version: Some(0), source, .. } = err else { panic!("{err:?}") };
    assert_eq!(source.kind(), &DecodeErrorKind::NullNotAllowed);
}

#[test]
fn negative_versions_are_refused() {
    assert_eq!(
        worker_metadata_to_bytes(-1, &metadata(None)),
        Err(ConnectProtocolError::NegativeVersion { what: "worker metadata", version: -1 })
    );
    assert_eq!(
        decode_assignment(hex("8000")),
        Err(ConnectProtocolError::NegativeVersion { what: "assignment", version: i16::MIN })
    );
    assert_eq!(body_version(-1), None);
}

#[test]
fn short_blobs_are_malformed() {
    for short in ["", "00"] {
        let err = decode_worker_metadata(hex(short)).unwrap_err();
        let ConnectProtocolError::Decode { version: None, source, .. } = err else { panic!("{err:?}") };
        assert_eq!(source.kind(), &DecodeErrorKind::NotEnoughBytes { needed: 2, remaining: short.len() / 2 });
    }
    // METADATA_V0 cut one byte short of its config offset.
    let err = decode_worker_metadata(hex("0000 0002 7731 0000000000002a")).unwrap_err();
    let ConnectProtocolError::Decode { version: Some(0), source, .. } = err else { panic!("{err:?}") };
    assert_eq!(source.kind(), &DecodeErrorKind::NotEnoughBytes { needed: 8, remaining: 7 });
    assert_eq!(source.offset(), 6);
}

#[test]
fn a_bad_allocation_is_reported_as_the_allocation() {
    let err = decode_allocation(&metadata(Some(Bytes::from_static(&[0, 1, 0])))).unwrap_err();
    let ConnectProtocolError::Decode { what, version, .. } = err else { panic!("{err:?}") };
    assert_eq!((what, version), ("allocation", Some(1)));
}

#[test]
fn protocol_names_and_versions() {
    let table: Vec<(&str, i16, Option<i16>)> =
        ConnectProtocol::PREFERENCE.iter().map(|p| (p.name(), p.version(), body_version(p.version()))).collect();
    assert_eq!(table, [("sessioned", 2, Some(1)), ("compatible", 1, Some(1)), ("default", 0, Some(0))]);
    for p in ConnectProtocol::PREFERENCE {
        assert_eq!(p.name().parse::<ConnectProtocol>(), Ok(p));
        assert_eq!(ConnectProtocol::from_version(p.version()), Some(p));
        assert_eq!(p.to_string(), p.name());
    }
    assert!("eager".parse::<ConnectProtocol>().is_err());
    assert_eq!(ConnectProtocol::from_name("Sessioned"), None);
}

#[test]
fn protocol_choice() {
    let all = ["sessioned", "compatible", "default"];
    let no_sessioned = ["compatible", "default"];
    let eager_only = ["default"];

    assert_eq!(choose_protocol([all, all], true), Some(ConnectProtocol::Sessioned));
    // Verification off: sessioned is not eligible even if everyone offers it.
    assert_eq!(choose_protocol([all, all], false), Some(ConnectProtocol::Compatible));
    // One member without sessioned pulls the group down to compatible.
    assert_eq!(choose_protocol([&all[..], &no_sessioned[..]], true), Some(ConnectProtocol::Compatible));
    // One eager-only member pulls the group down to default.
    assert_eq!(choose_protocol([&all[..], &no_sessioned[..], &eager_only[..]], true), Some(ConnectProtocol::Eager));
    // The order a member lists its protocols in does not matter; unknown names are ignored.
    assert_eq!(
        choose_protocol([vec!["range", "default", "sessioned"], vec!["sessioned"]], true),
        Some(ConnectProtocol::Sessioned)
    );
    // Nothing in common.
    assert_eq!(choose_protocol([vec!["compatible"], vec!["default"]], true), None);
    assert_eq!(choose_protocol([vec!["sessioned"]], false), None);
    assert_eq!(choose_protocol([Vec::<String>::new()], true), None);
    // No members.
    assert_eq!(choose_protocol(Vec::<Vec<&str>>::new(), true), None);
    // Owned names work too.
    assert_eq!(choose_protocol(vec![vec![String::from("compatible")]], true), Some(ConnectProtocol::Compatible));
}
