//! Golden bytes, checked both ways: a value encodes to exactly the expected
//! bytes, `encoded_size` is their count, and the bytes decode back to the
//! value with nothing left over.
//!
//! Sources (under `KWIRE_SHARED`, default `../shared`):
//! * `docs/kafka-protocol-spec.md` §14, the vectors produced by Kafka's own
//!   generated code, for the messages of `schemas/`. The SimpleExampleMessage,
//!   NullableStructMessage, SimpleArraysMessage and SimpleRecordsMessage
//!   vectors use Kafka's test schemas, which `schemas/` does not have: they
//!   are not here.
//! * `docs/test-vectors.md`, cases V1–V18 (each test names its case).
//!
//! Where this crate deliberately differs from Kafka's Java code, the test
//! says so: unknown tags that are not strictly ascending are refused at
//! decode time with a typed error, where Java reads them and refuses only
//! to write them back. Known tags are read as Java reads them: in any
//! order, the last value of a repeated tag winning.

use kwire::api::api_info;
use kwire::encoding::{put_uvarint, put_varint, put_varlong};
use kwire::error::{DecodeError, DecodeErrorKind, EncodeErrorKind, PathSegment};
use kwire::message::Message;
use kwire::messages::alter_configs_request::{AlterConfigsResource, AlterableConfig};
use kwire::messages::api_versions_response::{ApiVersion, SupportedFeatureKey};
use kwire::messages::create_acls_request::AclCreation;
use kwire::messages::create_topics_response::CreatableTopicResult;
use kwire::messages::fetch_request::ReplicaState;
use kwire::messages::fetch_response::{FetchableTopicResponse, PartitionData};
use kwire::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kwire::messages::metadata_response::{MetadataResponsePartition, MetadataResponseTopic};
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::update_features_request::FeatureUpdateKey;
use kwire::messages::ApiKey;
use kwire::messages::{
    AlterConfigsRequest, ApiVersionsRequest, ApiVersionsResponse, CreateAclsRequest, CreateTopicsRequest,
    CreateTopicsResponse, FetchRequest, FetchResponse, ListOffsetsRequest, MetadataRequest, MetadataResponse,
    ProduceRequest, RequestHeader, ResponseHeader, SaslAuthenticateRequest, SaslAuthenticateResponse,
    SaslHandshakeRequest, UpdateFeaturesRequest,
};
use kwire::primitives::{Reader, Uuid};
use kwire::tagged::RawTaggedField;
use kwire::ByteString;
use kwire::{Bytes, BytesMut};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Bytes from hex written with spaces (or line breaks) for readability.
fn hex(s: &str) -> Bytes {
    let digits: String = s.split_whitespace().collect();
    Bytes::from(::hex::decode(&digits).unwrap_or_else(|e| panic!("bad hex {s:?}: {e}")))
}

/// Hex with a space between bytes, so that failures are easy to read.
fn spaced(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(" ")
}

/// `value` encodes at `version` to exactly `bytes`, and `encoded_size` agrees.
#[track_caller]
fn encodes_to<M: Message>(value: &M, version: i16, bytes: &str) {
    let expected = hex(bytes);
    let what = format!("{} v{version}", M::NAME);
    let mut buf = BytesMut::new();
    value.encode(&mut buf, version).unwrap_or_else(|e| panic!("{what}: encode failed: {e}"));
    assert_eq!(spaced(&buf), spaced(&expected), "{what}: encoded bytes");
    assert_eq!(value.encoded_size(version), expected.len(), "{what}: encoded_size");
    assert_eq!(value.to_bytes(version).unwrap(), expected, "{what}: to_bytes");
}

/// `bytes` decode at `version` to exactly `expected`, using every byte.
#[track_caller]
fn decodes_to<M: Message>(bytes: &str, version: i16, expected: &M) -> M {
    let what = format!("{} v{version}", M::NAME);
    let decoded = M::decode_exact(hex(bytes), version).unwrap_or_else(|e| panic!("{what}: decode failed: {e}"));
    assert_eq!(&decoded, expected, "{what}: decoded value");
    decoded
}

/// One golden case, both ways: `value` <-> `bytes` at `version`.
#[track_caller]
fn both_ways<M: Message>(value: &M, version: i16, bytes: &str) -> M {
    encodes_to(value, version, bytes);
    decodes_to(bytes, version, value)
}

/// A value with fields that `version` cannot carry (ignorable, so silently
/// dropped): it encodes to `bytes`, and `bytes` are the exact encoding of
/// `read_back`, the value a receiver gets (dropped fields at their default).
#[track_caller]
fn lossy<M: Message>(value: &M, version: i16, bytes: &str, read_back: &M) {
    encodes_to(value, version, bytes);
    both_ways(read_back, version, bytes);
}

/// A decode error of `kind`, whose text starts with "<Message> v<version>: "
/// and names each of `names` (the field path, tag, ...).
#[track_caller]
fn assert_decode_err<M: std::fmt::Debug>(
    result: Result<M, DecodeError>,
    message: &str,
    version: i16,
    kind: DecodeErrorKind,
    names: &[&str],
) -> DecodeError {
    let err = result.expect_err("decoding must fail");
    let text = err.to_string();
    assert_eq!(err.kind(), &kind, "kind of: {text}");
    assert_eq!(err.message(), Some((message, version)), "message of: {text}");
    assert!(text.starts_with(&format!("{message} v{version}: ")), "{text}");
    for name in names {
        assert!(text.contains(name), "{text:?} does not name {name:?}");
    }
    err
}

/// Decoding `bytes` as `M` at `version` fails as [`assert_decode_err`] says.
#[track_caller]
fn decode_fails<M: Message>(version: i16, bytes: &str, kind: DecodeErrorKind, names: &[&str]) -> DecodeError {
    assert_decode_err(M::decode_exact(hex(bytes), version), M::NAME, version, kind, names)
}

/// Encoding `value` at `version` fails with `kind`, and the error's text
/// starts with "<Message> v<version>: " and names each of `names`.
#[track_caller]
fn encode_fails<M: Message>(value: &M, version: i16, kind: EncodeErrorKind, names: &[&str]) {
    let err = value.to_bytes(version).expect_err("encoding must fail");
    let text = err.to_string();
    assert_eq!(err.kind(), &kind, "kind of: {text}");
    assert_eq!(err.message(), Some((M::NAME, version)), "message of: {text}");
    assert!(text.starts_with(&format!("{} v{version}: ", M::NAME)), "{text}");
    for name in names {
        assert!(text.contains(name), "{text:?} does not name {name:?}");
    }
    // Appending to a buffer that holds an earlier frame: the same error, and
    // the buffer as it was, with no partial message left behind.
    let mut buf = BytesMut::from(&b"earlier"[..]);
    assert_eq!(value.encode(&mut buf, version).expect_err("encoding must fail").to_string(), text);
    assert_eq!(&buf[..], b"earlier", "what a failed encode left in the buffer: {text}");
}

#[test]
fn failed_frame_and_body_encodes_leave_the_buffer_as_it_was() {
    use kwire::frame;
    use kwire::messages::{RequestBody, ResponseBody};
    // MetadataResponse v0 cannot carry an unknown tagged field: the header
    // is written first, then the body fails partway.
    let response = MetadataResponse {
        throttle_time_ms: 5,
        topics: vec![MetadataResponseTopic { name: Some("t".into()), ..Default::default() }],
        unknown_tagged_fields: vec![raw(9, "01")],
        ..Default::default()
    };
    let body = ResponseBody::from(response);
    let header = ResponseHeader { correlation_id: 3, ..Default::default() };
    let mut buf = BytesMut::from(&b"earlier"[..]);
    assert!(body.encode(&mut buf, 0).is_err());
    assert!(frame::ResponseFrame::encode_parts(&header, &body, 0, &mut buf).is_err());
    assert!(frame::size_prefix::encode(&mut buf, |b| frame::ResponseFrame::encode_parts(&header, &body, 0, b)).is_err());
    assert_eq!(&buf[..], b"earlier");
    // A request whose client id is too long for its int16 length.
    let header = RequestHeader {
        request_api_key: 18,
        request_api_version: 3,
        correlation_id: 1,
        client_id: Some("c".repeat(40_000).into()),
        ..Default::default()
    };
    let body = RequestBody::from(ApiVersionsRequest::default());
    assert!(frame::RequestFrame::encode_parts(&header, &body, &mut buf).is_err());
    assert!(frame::size_prefix::encode(&mut buf, |b| frame::RequestFrame::encode_parts(&header, &body, b)).is_err());
    assert_eq!(&buf[..], b"earlier");
    // And the same calls that succeed append exactly their frame.
    let header = RequestHeader { client_id: Some("c".into()), ..header };
    frame::size_prefix::encode(&mut buf, |b| frame::RequestFrame::encode_parts(&header, &body, b)).expect("encodes");
    assert_eq!(&buf[..7], b"earlier");
    let frame = frame::RequestFrame::decode_sized(buf.split_off(7).freeze()).expect("decodes");
    assert_eq!((frame.header, frame.body), (header, body));
}

fn raw(tag: u32, data: &str) -> RawTaggedField {
    RawTaggedField::new(tag, hex(data))
}

fn not_enough(needed: usize, remaining: usize) -> DecodeErrorKind {
    DecodeErrorKind::NotEnoughBytes { needed, remaining }
}

// ---------------------------------------------------------------------------
// Message values used by several cases
// ---------------------------------------------------------------------------

/// RequestHeader of spec §14: apiKey 18, apiVersion 3, correlationId 7.
fn header_18_3_7(client_id: Option<&str>) -> RequestHeader {
    RequestHeader {
        request_api_key: 18,
        request_api_version: 3,
        correlation_id: 7,
        client_id: client_id.map(Into::into),
        ..Default::default()
    }
}

/// ApiVersionsResponse with one entry {ApiKey 18, Min 0, Max `max`}, error `error_code`.
fn api_versions(error_code: i16, max: i16) -> ApiVersionsResponse {
    ApiVersionsResponse {
        error_code,
        api_keys: vec![ApiVersion { api_key: 18, min_version: 0, max_version: max, ..Default::default() }],
        throttle_time_ms: 0,
        ..Default::default()
    }
}

/// CreateTopicsRequest of spec §14: Topics [], TimeoutMs 1000, ValidateOnly false.
fn create_topics_1000() -> CreateTopicsRequest {
    CreateTopicsRequest { topics: vec![], timeout_ms: 1000, validate_only: false, ..Default::default() }
}

/// MetadataRequest with `topics`, AllowAutoTopicCreation true, other flags false.
fn metadata(topics: Option<Vec<kwire::messages::metadata_request::MetadataRequestTopic>>) -> MetadataRequest {
    MetadataRequest {
        topics,
        allow_auto_topic_creation: true,
        include_cluster_authorized_operations: false,
        include_topic_authorized_operations: false,
        ..Default::default()
    }
}

fn sasl_auth(auth: &'static [u8], unknown: Vec<RawTaggedField>) -> SaslAuthenticateRequest {
    SaslAuthenticateRequest { auth_bytes: Bytes::from_static(auth), unknown_tagged_fields: unknown }
}

// ---------------------------------------------------------------------------
// kafka-protocol-spec.md §14: golden vectors from Kafka's generated code
// ---------------------------------------------------------------------------

#[test]
fn spec14_request_header() {
    let cid = header_18_3_7(Some("cid"));
    // spec §14, RequestHeader v0: clientId dropped (ignorable); it reads back as its default "".
    lossy(&cid, 0, "0012 0003 00000007", &header_18_3_7(Some("")));
    // spec §14, RequestHeader v1
    both_ways(&cid, 1, "0012 0003 00000007 0003 636964");
    // spec §14, RequestHeader v2: clientId still int16-prefixed, then an empty tagged section
    both_ways(&cid, 2, "0012 0003 00000007 0003 636964 00");
    // spec §14, RequestHeader v1, clientId null
    both_ways(&header_18_3_7(None), 1, "0012 0003 00000007 ffff");
    // spec §14, RequestHeader v2, clientId null
    both_ways(&header_18_3_7(None), 2, "0012 0003 00000007 ffff 00");
}

#[test]
fn spec14_response_header() {
    let header = ResponseHeader { correlation_id: 7, ..Default::default() };
    // spec §14, ResponseHeader v0
    both_ways(&header, 0, "00000007");
    // spec §14, ResponseHeader v1
    both_ways(&header, 1, "00000007 00");
}

#[test]
fn spec14_api_versions_request() {
    // spec §14, ApiVersionsRequest v0: no fields, zero bytes
    both_ways(&ApiVersionsRequest::default(), 0, "");
    // spec §14, ApiVersionsRequest v3 "rk" / "1.0"
    let rk = ApiVersionsRequest {
        client_software_name: "rk".into(),
        client_software_version: "1.0".into(),
        ..Default::default()
    };
    both_ways(&rk, 3, "03 726b 04 312e30 00");
    // spec §14, ApiVersionsRequest v3 with a 200-byte name: compact prefix is the varint c9 01 (201)
    let long = ApiVersionsRequest {
        client_software_name: "x".repeat(200).into(),
        client_software_version: "1.0".into(),
        ..Default::default()
    };
    both_ways(&long, 3, &format!("c9 01 {} 04 312e30 00", "78 ".repeat(200)));
}

#[test]
fn spec14_api_versions_response() {
    let body = api_versions(0, 4);
    // spec §14, ApiVersionsResponse v0
    both_ways(&body, 0, "0000 00000001 0012 0000 0004");
    // spec §14, ApiVersionsResponse v1
    both_ways(&body, 1, "0000 00000001 0012 0000 0004 00000000");
    // spec §14, ApiVersionsResponse v3: compact array, element tagged section, throttle, top tagged section
    both_ways(&body, 3, "0000 02 0012 0000 0004 00 00000000 00");
    // spec §14, ApiVersionsResponse v3, FinalizedFeaturesEpoch = 5 (tag 1, default -1)
    let epoch5 = ApiVersionsResponse { finalized_features_epoch: 5, ..body };
    both_ways(&epoch5, 3, "0000 02 0012 0000 0004 00 00000000 01 01 08 0000000000000005");
}

#[test]
fn spec14_create_topics_request() {
    let req = create_topics_1000();
    // spec §14, CreateTopicsRequest v0
    both_ways(&req, 0, "00000000 000003e8");
    // spec §14, CreateTopicsRequest v5
    both_ways(&req, 5, "01 000003e8 00 00");
    // spec §14, CreateTopicsRequest v6 with a raw tagged field (1000, 010203); tag 1000 = varint e8 07
    let tagged = CreateTopicsRequest { unknown_tagged_fields: vec![raw(1000, "010203")], ..req.clone() };
    both_ways(&tagged, 6, "01 000003e8 00 01 e807 03 010203");
    // ValidateOnly is v1+ and not ignorable: a non-default value at v0 is an error.
    let validate = CreateTopicsRequest { validate_only: true, ..req };
    encode_fails(&validate, 0, EncodeErrorKind::NonDefaultField, &["CreateTopicsRequest v0", "validate_only"]);
}

#[test]
fn spec14_metadata_request_null_topics() {
    // spec §14, MetadataRequest Topics = null at v0: not nullable (Java: NullPointerException)
    encode_fails(&metadata(None), 0, EncodeErrorKind::NullNotAllowed, &["MetadataRequest v0", "topics"]);
    // spec §14, MetadataRequest v1, Topics null
    both_ways(&metadata(None), 1, "ffffffff");
    // spec §14, MetadataRequest v9: null compact array, AllowAutoTopicCreation true, two false bools, tagged section
    both_ways(&metadata(None), 9, "00 01 00 00 00");
}

#[test]
fn spec14_decode_unknown_tagged_field_kept() {
    // spec §14 decoding examples: RequestHeader v2 with one unknown tagged field (5, 7879)
    let header = RequestHeader { unknown_tagged_fields: vec![raw(5, "7879")], ..header_18_3_7(Some("cid")) };
    both_ways(&header, 2, "0012 0003 00000007 0003 636964 01 05 02 7879");
}

#[test]
fn spec14_decode_unknown_tags_not_ascending_refused() {
    // spec §14 decoding examples: RequestHeader v2 with unknown tags 5 then 3. Java decodes this and
    // fails only when re-encoding; this crate deliberately refuses it at decode time.
    let err = decode_fails::<RequestHeader>(
        2,
        "0012 0003 00000007 0003 636964 02 05 01 aa 03 01 bb",
        DecodeErrorKind::TagsNotAscending { previous: 5, tag: 3 },
        &["RequestHeader v2", "tag 3 follows tag 5"],
    );
    assert_eq!(err.offset(), 17, "{err}");
}

#[test]
fn spec14_decode_client_id_length_8000_is_null() {
    // spec §14 decoding examples: RequestHeader v1 with clientId length 8000 (-32768) reads as null;
    // written back, null is the canonical ffff.
    decodes_to("0012 0003 00000007 8000", 1, &header_18_3_7(None));
    both_ways(&header_18_3_7(None), 1, "0012 0003 00000007 ffff");
}

#[test]
fn spec14_decode_non_minimal_varint() {
    // spec §14 decoding examples: CreateTopicsRequest v5 whose Topics prefix is the 5-byte varint
    // 81 80 80 80 00 (value 1 = empty array); written back it is the minimal 01.
    decodes_to("81 80 80 80 00 000003e8 00 00", 5, &create_topics_1000());
    both_ways(&create_topics_1000(), 5, "01 000003e8 00 00");
    // spec §14 decoding examples: 81 80 80 80 80 01 is a 6-byte varint: "Varint is too long".
    let err = decode_fails::<CreateTopicsRequest>(
        5,
        "81 80 80 80 80 01 000003e8 00 00",
        DecodeErrorKind::VarintTooLong,
        &["CreateTopicsRequest v5", "topics"],
    );
    assert_eq!(err.offset(), 0, "{err}");
}

// ---------------------------------------------------------------------------
// test-vectors.md
// ---------------------------------------------------------------------------

#[test]
fn v1_request_header_v2_from_java_admin_client() {
    // V1: ApiVersionsRequest v3 with its header, as sent by kafka-topics.sh (Kafka 2.8), 49 bytes.
    let frame = hex("00 12 00 03 00 00 00 65 00 0D 61 64 6D 69 6E 63 6C 69 65 6E 74 2D 31 00
         12 61 70 61 63 68 65 2D 6B 61 66 6B 61 2D 6A 61 76 61 06 32 2E 38 2E 30 00");
    assert_eq!(frame.len(), 49);
    // The header version comes from (api_key, api_version), not from a guess.
    let api_key = i16::from_be_bytes([frame[0], frame[1]]);
    let api_version = i16::from_be_bytes([frame[2], frame[3]]);
    let header_version = api_info(api_key).unwrap().request_header_version(api_version);
    assert_eq!(header_version, 2);

    let expected_header = RequestHeader {
        request_api_key: 18,
        request_api_version: 3,
        correlation_id: 101,
        client_id: Some("adminclient-1".into()),
        unknown_tagged_fields: vec![],
        ..Default::default()
    };
    let expected_body = ApiVersionsRequest {
        client_software_name: "apache-kafka-java".into(),
        client_software_version: "2.8.0".into(),
        cluster_id: None,
        node_id: -1,
        unknown_tagged_fields: vec![],
    };
    let mut rest = frame.clone();
    let header = RequestHeader::decode(&mut rest, header_version).unwrap();
    assert_eq!(header, expected_header);
    assert_eq!(rest.len(), 25, "the header is 24 bytes");
    let body = ApiVersionsRequest::decode(&mut rest, api_version).unwrap();
    assert_eq!(body, expected_body);
    assert!(rest.is_empty());

    // Re-encoding both parts reproduces the 49 bytes.
    let mut buf = BytesMut::new();
    header.encode(&mut buf, header_version).unwrap();
    body.encode(&mut buf, api_version).unwrap();
    assert_eq!(spaced(&buf), spaced(&frame));
    assert_eq!(header.encoded_size(header_version) + body.encoded_size(api_version), 49);

    // Each part on its own, both ways.
    both_ways(&expected_header, 2, "00 12 00 03 00 00 00 65 00 0D 61 64 6D 69 6E 63 6C 69 65 6E 74 2D 31 00");
    both_ways(&expected_body, 3, "12 61 70 61 63 68 65 2D 6B 61 66 6B 61 2D 6A 61 76 61 06 32 2E 38 2E 30 00");

    // Negative check: with header v1 the header's tag count 00 is left for the body, whose first
    // compact string then reads as null.
    let mut rest = frame.clone();
    RequestHeader::decode(&mut rest, 1).unwrap();
    assert_eq!(&rest[..2], &[0x00, 0x12]);
    assert_decode_err(
        ApiVersionsRequest::decode(&mut rest, 3),
        "ApiVersionsRequest",
        3,
        DecodeErrorKind::NullNotAllowed,
        &["client_software_name"],
    );
}

#[test]
fn v2_api_versions_response_uses_response_header_v0() {
    // V2: ApiVersionsResponse always uses response header v0, at every version.
    let info = api_info(18).unwrap();
    for v in info.valid_versions.min..=info.valid_versions.max {
        assert_eq!(info.response_header_version(v), 0, "ApiVersions v{v}");
    }
    // ... unlike other apis in their flexible versions.
    assert_eq!(api_info(19).unwrap().response_header_version(5), 1);
    assert_eq!(api_info(19).unwrap().response_header_version(4), 0);

    // V2: the minimal frame, size prefix included.
    let frame = hex("00 00 00 13  00 00 00 01  00 00 02 00 12 00 00 00 03 00 00 00 00 00 00");
    let size = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
    assert_eq!(size, 19);
    let payload = frame.slice(4..);
    assert_eq!(payload.len(), size);

    let expected_header = ResponseHeader { correlation_id: 1, ..Default::default() };
    let expected_body = ApiVersionsResponse {
        error_code: 0,
        api_keys: vec![ApiVersion { api_key: 18, min_version: 0, max_version: 3, ..Default::default() }],
        throttle_time_ms: 0,
        supported_features: vec![],
        finalized_features_epoch: -1,
        finalized_features: vec![],
        zk_migration_ready: false,
        unknown_tagged_fields: vec![],
    };
    let mut rest = payload.clone();
    let header = ResponseHeader::decode(&mut rest, info.response_header_version(3)).unwrap();
    assert_eq!(header, expected_header);
    assert_eq!(rest.len(), 15, "the header is 4 bytes");
    let body = ApiVersionsResponse::decode_exact(rest, 3).unwrap();
    assert_eq!(body, expected_body);

    // Each part both ways.
    both_ways(&expected_header, 0, "00 00 00 01");
    both_ways(&expected_body, 3, "00 00 02 00 12 00 00 00 03 00 00 00 00 00 00");

    // Wrong path (header v1): the header takes the 00 of ErrorCode as its tag count; the body then
    // reads ErrorCode from 00 02 and a null ApiKeys array from 00.
    let mut rest = payload.clone();
    ResponseHeader::decode(&mut rest, 1).unwrap();
    let err = assert_decode_err(
        ApiVersionsResponse::decode(&mut rest, 3),
        "ApiVersionsResponse",
        3,
        DecodeErrorKind::NullNotAllowed,
        &["api_keys"],
    );
    assert_eq!(err.offset(), 2, "{err}");

    // V2 companion check: ControlledShutdown v0 uses request header v0 (no ClientId).
    let controlled_shutdown = api_info(ApiKey::ControlledShutdown.code()).unwrap();
    assert_eq!(controlled_shutdown.request_header_version(0), 0);
    assert_eq!(controlled_shutdown.request_header_version(1), 1);
    assert_eq!(controlled_shutdown.request_header_version(3), 2);
}

#[test]
fn v3_unsupported_version_fallback_to_v0() {
    // V3: a v0-shaped reply (error 35, ApiKeys [{18, 0, 3}]) to an ApiVersions v4 request.
    let body = "00 23 00 00 00 01 00 12 00 00 00 03";
    // Parsing it as v4 fails: after 00 23 the compact ApiKeys length is 00 = null.
    let err = decode_fails::<ApiVersionsResponse>(
        4,
        body,
        DecodeErrorKind::NullNotAllowed,
        &["ApiVersionsResponse v4", "api_keys"],
    );
    assert_eq!(err.offset(), 2, "{err}");
    // Re-parsed as v0 it is {error_code 35, api_keys [{18, 0, 3}]}.
    let v0 = both_ways(&api_versions(35, 3), 0, body);
    // The client retries with min(4, broker's max for key 18) = 3.
    let broker_max = v0.api_keys.iter().find(|k| k.api_key == 18).map(|k| k.max_version);
    assert_eq!(broker_max.map(|max| max.min(4)), Some(3));
}

#[test]
fn v4_supported_features_tagged_field() {
    // V4: ApiVersionsResponse v4 body, 37 bytes, SupportedFeatures in tag 0 (size 0x14 = 20).
    let body = "00 00 02 00 12 00 00 00 04 00 00 00 00 00
                01 00 14 02 0E 6B 72 61 66 74 2E 76 65 72 73 69 6F 6E 00 00 00 01 00";
    let features = ApiVersionsResponse {
        supported_features: vec![SupportedFeatureKey {
            name: "kraft.version".into(),
            min_version: 0,
            max_version: 1,
            ..Default::default()
        }],
        ..api_versions(0, 4)
    };
    let decoded = both_ways(&features, 4, body);
    assert_eq!(decoded.finalized_features_epoch, -1, "absent tag 1 reads as its default");
    assert!(decoded.finalized_features.is_empty());
    assert!(!decoded.zk_migration_ready);

    // V4: a decoder whose schema has no tag 0 skips exactly 20 bytes and keeps them as unknown tag 0.
    // ResponseHeader v1 defines no tags: the same tagged section after a correlation id.
    let section_data = "02 0E 6B 72 61 66 74 2E 76 65 72 73 69 6F 6E 00 00 00 01 00";
    let header = ResponseHeader { correlation_id: 1, unknown_tagged_fields: vec![raw(0, section_data)] };
    both_ways(&header, 1, &format!("00 00 00 01 01 00 14 {section_data}"));

    // V4: at v0-v3 a broker leaves out features whose min version is 0, so its v3 body is this.
    // (A rule for a response builder, which this crate does not have; only the bytes are checked.)
    both_ways(&api_versions(0, 4), 3, "00 00 02 00 12 00 00 00 04 00 00 00 00 00 00");
}

#[test]
fn v5_tagged_count_byte_is_mandatory() {
    // V5: ResponseHeader v1 {corr 1} is 5 bytes, the empty tagged section included.
    both_ways(&ResponseHeader { correlation_id: 1, ..Default::default() }, 1, "00 00 00 01 00");
    // V5: SaslAuthenticateRequest v2 with empty AuthBytes.
    both_ways(&sasl_auth(b"", vec![]), 2, "01 00");
    // V5: without the count byte a v1 header is short.
    let err = decode_fails::<ResponseHeader>(1, "00 00 00 01", not_enough(1, 0), &["ResponseHeader v1"]);
    assert_eq!(err.offset(), 4, "{err}");
}

#[test]
fn v6_unknown_tagged_field_preserved() {
    // V6: SaslAuthenticateRequest v2 with unknown tag 1 = 01 02 03, kept and written back.
    let value = sasl_auth(b"test", vec![raw(1, "01 02 03")]);
    both_ways(&value, 2, "05 74 65 73 74 01 01 03 01 02 03");
    // V6: equality includes the unknown tags.
    assert_ne!(value, sasl_auth(b"test", vec![]));
}

#[test]
fn v7_tagged_size_exceeding_the_buffer() {
    // V7 (a): tag 1 claims 32767 bytes (ff ff 01) but 3 remain.
    let err = decode_fails::<SaslAuthenticateRequest>(
        2,
        "05 74 65 73 74 01 01 FF FF 01 01 02 03",
        not_enough(32767, 3),
        &["SaslAuthenticateRequest v2", "<tag 1>"],
    );
    assert_eq!(err.offset(), 10, "{err}");
    // V7 (b): the tagged section alone, size 2147483647 with 0 bytes left (after a ResponseHeader
    // v1 correlation id).
    let err = decode_fails::<ResponseHeader>(
        1,
        "00 00 00 01 01 01 FF FF FF FF 07",
        not_enough(2147483647, 0),
        &["ResponseHeader v1", "<tag 1>"],
    );
    assert_eq!(err.offset(), 11, "{err}");
    // V7: a size >= 2^31 (here 2^32-1) is rejected too, without allocating it.
    let err = ResponseHeader::decode_exact(hex("00 00 00 01 01 01 FF FF FF FF 0F"), 1).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::NotEnoughBytes { remaining: 0, .. } | DecodeErrorKind::InvalidLength(_)),
        "{err}"
    );
    assert!(err.to_string().starts_with("ResponseHeader v1: tagged_fields<tag 1>: "), "{err}");
}

#[test]
fn v8_tagged_fields_at_default_not_written() {
    // V8: CreateTopicsResponse v5; TopicConfigErrorCode (tag 0) at its default 0 is not written.
    let topic = CreatableTopicResult {
        name: "t1".into(),
        error_code: 0,
        error_message: None,
        topic_config_error_code: 0,
        num_partitions: 1,
        replication_factor: 1,
        configs: Some(vec![]),
        ..Default::default()
    };
    let response = CreateTopicsResponse { throttle_time_ms: 0, topics: vec![topic.clone()], ..Default::default() };
    both_ways(&response, 5, "00 00 00 00 02 03 74 31 00 00 00 00 00 00 01 00 01 01 00 00");
    // V8: with TopicConfigErrorCode = 40 the topic's tagged section is 01 00 02 00 28.
    let with_40 = CreateTopicsResponse {
        topics: vec![CreatableTopicResult { topic_config_error_code: 40, ..topic }],
        ..response
    };
    both_ways(&with_40, 5, "00 00 00 00 02 03 74 31 00 00 00 00 00 00 01 00 01 01 01 00 02 00 28 00");

    // V8: FetchRequest v15 with ReplicaState {-1, -1} (its default) writes no tag 1; with {3, 7} it
    // writes tag 1: the struct and its own empty tagged section, 13 bytes. (The bytes around the tag
    // are derived from FetchRequest.json: MaxWaitMs 500, MinBytes 1, the rest at default.)
    let fetch = FetchRequest { max_wait_ms: 500, min_bytes: 1, ..Default::default() };
    assert_eq!((fetch.replica_state.replica_id, fetch.replica_state.replica_epoch), (-1, -1));
    both_ways(&fetch, 15, "000001f4 00000001 7fffffff 00 00000000 ffffffff 01 01 01 00");
    let replica =
        FetchRequest { replica_state: ReplicaState { replica_id: 3, replica_epoch: 7, ..Default::default() }, ..fetch };
    both_ways(
        &replica,
        15,
        "000001f4 00000001 7fffffff 00 00000000 ffffffff 01 01 01 01 01 0d 00000003 0000000000000007 00",
    );
}

#[test]
fn v9_tag_ordering_and_duplicates() {
    // V9: unknown tags added in the order 5, 2 are written sorted; they read back sorted.
    let unsorted = sasl_auth(b"test", vec![raw(5, "AA"), raw(2, "BB")]);
    let bytes = "05 74 65 73 74 02 02 01 BB 05 01 AA";
    encodes_to(&unsorted, 2, bytes);
    both_ways(&sasl_auth(b"test", vec![raw(2, "BB"), raw(5, "AA")]), 2, bytes);

    // V9: the same unknown tag twice is rejected at encode time.
    encode_fails(
        &sasl_auth(b"test", vec![raw(5, "AA"), raw(5, "BB")]),
        2,
        EncodeErrorKind::DuplicateTag(5),
        &["SaslAuthenticateRequest v2", "tag 5"],
    );
    // V9: an unknown tag equal to a tag the struct defines at that version is rejected: tag 0 on
    // FetchRequest v12 (ClusterId), and likewise in RequestHeader v2 (tags 0, 1) and
    // ApiVersionsResponse v3 (tags 0-3), even when the known field is at its default.
    let fetch = FetchRequest { unknown_tagged_fields: vec![raw(0, "00")], ..Default::default() };
    encode_fails(&fetch, 12, EncodeErrorKind::DuplicateTag(0), &["FetchRequest v12", "tag 0"]);
    let header = RequestHeader { unknown_tagged_fields: vec![raw(1, "00")], ..header_18_3_7(Some("cid")) };
    encode_fails(&header, 2, EncodeErrorKind::DuplicateTag(1), &["RequestHeader v2", "tag 1"]);
    let body = ApiVersionsResponse { unknown_tagged_fields: vec![raw(3, "01")], ..api_versions(0, 4) };
    encode_fails(&body, 3, EncodeErrorKind::DuplicateTag(3), &["ApiVersionsResponse v3", "tag 3"]);

    // V9: decoding tags 5 then 2. Java accepts it; this crate deliberately refuses tags that are not
    // strictly ascending, with a typed error.
    let err = decode_fails::<SaslAuthenticateRequest>(
        2,
        "05 74 65 73 74 02 05 01 AA 02 01 BB",
        DecodeErrorKind::TagsNotAscending { previous: 5, tag: 2 },
        &["SaslAuthenticateRequest v2", "tag 2 follows tag 5"],
    );
    assert_eq!(err.offset(), 9, "{err}");
}

#[test]
fn v10_metadata_request_null_vs_empty_topics() {
    let all = metadata(None);
    let none = metadata(Some(vec![]));
    // V10: v0 "all topics" is the empty array; null is not allowed at v0 either way.
    both_ways(&none, 0, "00 00 00 00");
    encode_fails(&all, 0, EncodeErrorKind::NullNotAllowed, &["MetadataRequest v0", "topics"]);
    decode_fails::<MetadataRequest>(
        0,
        "FF FF FF FF",
        DecodeErrorKind::NullNotAllowed,
        &["MetadataRequest v0", "topics"],
    );
    // V10: v1 None
    both_ways(&all, 1, "FF FF FF FF");
    // V10: v4 None and [] (AllowAutoTopicCreation true)
    both_ways(&all, 4, "FF FF FF FF 01");
    both_ways(&none, 4, "00 00 00 00 01");
    // V10: v9 None and []
    both_ways(&all, 9, "00 01 00 00 00");
    both_ways(&none, 9, "01 01 00 00 00");
    // V10: v12 None (IncludeClusterAuthorizedOperations is gone after v10)
    both_ways(&all, 12, "00 01 00 00");
}

#[test]
fn v11_nullable_vs_non_nullable_strings() {
    // V11: AlterConfigsRequest {resources [{TOPIC, "t1", [{"retention.ms", null}]}], validate_only false}.
    let request = AlterConfigsRequest {
        resources: vec![AlterConfigsResource {
            resource_type: 2,
            resource_name: "t1".into(),
            configs: vec![AlterableConfig { name: "retention.ms".into(), value: None, ..Default::default() }],
            ..Default::default()
        }],
        validate_only: false,
        ..Default::default()
    };
    // V11: v0 (30 B)
    both_ways(&request, 0, "00 00 00 01 02 00 02 74 31 00 00 00 01 00 0C 72 65 74 65 6E 74 69 6F 6E 2E 6D 73 FF FF 00");
    // V11: v2 (24 B)
    both_ways(&request, 2, "02 02 03 74 31 02 0D 72 65 74 65 6E 74 69 6F 6E 2E 6D 73 00 00 00 00 00");
    // V11: ResourceName is a `String` (not nullable), so null cannot even be built; decoding a null
    // there is an error.
    let err = decode_fails::<AlterConfigsRequest>(
        0,
        "00 00 00 01 02 FF FF",
        DecodeErrorKind::NullNotAllowed,
        &["AlterConfigsRequest v0", "resources[0].resource_name"],
    );
    assert_eq!(err.offset(), 5, "{err}");
    let err = decode_fails::<AlterConfigsRequest>(
        2,
        "02 02 00",
        DecodeErrorKind::NullNotAllowed,
        &["AlterConfigsRequest v2", "resources[0].resource_name"],
    );
    assert_eq!(err.offset(), 2, "{err}");
}

#[test]
fn v12_defaults_at_old_versions_and_ignorable_fields() {
    // V12: ListOffsetsRequest v0 (31 B): MaxNumOffsets at its default 1 is written; CurrentLeaderEpoch
    // (v4+, ignorable) is silently dropped and reads back as its default -1.
    let partition =
        ListOffsetsPartition { partition_index: 0, timestamp: -1, current_leader_epoch: 5, ..Default::default() };
    assert_eq!(partition.max_num_offsets, 1);
    let request = |partition: ListOffsetsPartition| ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic { name: "t".into(), partitions: vec![partition], ..Default::default() }],
        ..Default::default()
    };
    let read_back = request(ListOffsetsPartition { current_leader_epoch: -1, ..partition.clone() });
    lossy(
        &request(partition),
        0,
        "FF FF FF FF 00 00 00 01 00 01 74 00 00 00 01 00 00 00 00 FF FF FF FF FF FF FF FF 00 00 00 01",
        &read_back,
    );
    // V12: the v1 bytes decode to max_num_offsets 1 and current_leader_epoch -1 (defaults, not 0).
    let decoded =
        both_ways(&read_back, 1, "FF FF FF FF 00 00 00 01 00 01 74 00 00 00 01 00 00 00 00 FF FF FF FF FF FF FF FF");
    let p = &decoded.topics[0].partitions[0];
    assert_eq!((p.max_num_offsets, p.current_leader_epoch), (1, -1));

    // V12: FetchResponse v6 with session_id 123 (v7+, not ignorable) cannot be encoded.
    let fetch = FetchResponse { session_id: 123, ..Default::default() };
    encode_fails(&fetch, 6, EncodeErrorKind::NonDefaultField, &["FetchResponse v6", "session_id"]);

    // V12: CreateTopicsResponse v4 with num_partitions 1 (v5+, ignorable) encodes without it (bytes
    // derived from the v4 layout); it reads back as its default -1.
    let topic =
        CreatableTopicResult { name: "t1".into(), error_message: None, num_partitions: 1, ..Default::default() };
    let response = CreateTopicsResponse { topics: vec![topic.clone()], ..Default::default() };
    let read_back = CreateTopicsResponse {
        topics: vec![CreatableTopicResult { num_partitions: -1, ..topic }],
        ..Default::default()
    };
    lossy(&response, 4, "00 00 00 00 00 00 00 01 00 02 74 31 00 00 FF FF", &read_back);
}

/// The 10-byte stand-in for a record batch of V13 (the `records` field is opaque bytes here).
const TEN: &str = "00 01 02 03 04 05 06 07 08 09";

#[test]
fn v13_records_field_compact_length_and_null_vs_empty() {
    // V13: FetchResponse with one topic "t" and one partition whose Records are `records`; the bytes
    // before Records are derived from FetchResponse.json (all at default), the Records part is V13's.
    fn fetch(records: Option<Bytes>) -> FetchResponse {
        FetchResponse {
            responses: vec![FetchableTopicResponse {
                topic: "t".into(),
                partitions: vec![PartitionData { records, ..Default::default() }],
                ..Default::default()
            }],
            ..Default::default()
        }
    }
    let v11 = |records: &str| {
        format!(
            "00000000 0000 00000000 00000001 0001 74 00000001
             00000000 0000 0000000000000000 ffffffffffffffff ffffffffffffffff 00000000 ffffffff {records}"
        )
    };
    let v12 = |records: &str| {
        format!(
            "00000000 0000 00000000 02 02 74 02
             00000000 0000 0000000000000000 ffffffffffffffff ffffffffffffffff 01 ffffffff {records} 00 00 00"
        )
    };
    let empty = fetch(Some(Bytes::new()));
    let none = fetch(None);
    let batch = fetch(Some(hex(TEN)));
    // V13: at v11: empty 00 00 00 00, None FF FF FF FF, 10-byte batch 00 00 00 0A + 10 bytes
    both_ways(&empty, 11, &v11("00 00 00 00"));
    both_ways(&none, 11, &v11("FF FF FF FF"));
    both_ways(&batch, 11, &v11(&format!("00 00 00 0A {TEN}")));
    // V13: at v12: empty 01, None 00, 10-byte batch 0B + 10 bytes
    both_ways(&empty, 12, &v12("01"));
    both_ways(&none, 12, &v12("00"));
    both_ways(&batch, 12, &v12(&format!("0B {TEN}")));
    // V13: builders default to empty, not None; decoders accept None at every version.
    assert_eq!(PartitionData::default().records, Some(Bytes::new()));
    for version in FetchResponse::VERSIONS.min..=FetchResponse::VERSIONS.max {
        let bytes = none.to_bytes(version).unwrap();
        let decoded = FetchResponse::decode_exact(bytes, version).unwrap();
        assert_eq!(decoded.responses[0].partitions[0].records, None, "FetchResponse v{version}");
    }

    // V13: ProduceRequest v8 vs v9 follow the same rule (acks 1, timeout 1000, topic "t", partition 0;
    // the bytes around Records derived from ProduceRequest.json).
    fn produce(records: Option<Bytes>) -> ProduceRequest {
        ProduceRequest {
            transactional_id: None,
            acks: 1,
            timeout_ms: 1000,
            topic_data: vec![TopicProduceData {
                name: "t".into(),
                partition_data: vec![PartitionProduceData { index: 0, records, ..Default::default() }],
                ..Default::default()
            }],
            ..Default::default()
        }
    }
    let v8 = |records: &str| format!("ffff 0001 000003e8 00000001 0001 74 00000001 00000000 {records}");
    let v9 = |records: &str| format!("00 0001 000003e8 02 02 74 02 00000000 {records} 00 00 00");
    both_ways(&produce(Some(Bytes::new())), 8, &v8("00 00 00 00"));
    both_ways(&produce(None), 8, &v8("FF FF FF FF"));
    both_ways(&produce(Some(hex(TEN))), 8, &v8(&format!("00 00 00 0A {TEN}")));
    both_ways(&produce(Some(Bytes::new())), 9, &v9("01"));
    both_ways(&produce(None), 9, &v9("00"));
    both_ways(&produce(Some(hex(TEN))), 9, &v9(&format!("0B {TEN}")));
}

// V14: record batch v2 (kwire::records, not a message of schemas/): not tested here.

#[test]
fn v15_over_long_varints() {
    fn reader(bytes: &str) -> Reader {
        Reader::new(hex(bytes))
    }
    // V15: varint32 of 6 bytes
    let err = reader("FF FF FF FF FF 01").read_varint().unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::VarintTooLong);
    assert_eq!(err.to_string(), "varint is too long (offset 0)");
    // V15: uvarint32 of 6 bytes
    let err = reader("80 80 80 80 80 00").read_uvarint().unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::VarintTooLong);
    // V15: varlong of 11 bytes
    let err = reader("FF FF FF FF FF FF FF FF FF FF 01").read_varlong().unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::VarintTooLong);
    // V15: truncated input
    let err = reader("80 80").read_uvarint().unwrap_err();
    assert_eq!(err.kind(), &not_enough(3, 2));
    assert_eq!(err.to_string(), "need 3 bytes, have 2 (offset 0)");

    // V15: uvarint 2^31-1 both ways.
    let mut r = reader("FF FF FF FF 07");
    assert_eq!(r.read_uvarint().unwrap(), i32::MAX as u32);
    assert_eq!(r.remaining(), 0);
    let mut buf = BytesMut::new();
    put_uvarint(&mut buf, i32::MAX as u32);
    assert_eq!(spaced(&buf), "ff ff ff ff 07");

    // V15: varint i32::MIN..MAX round-trip (zigzag), with golden bytes at the edges.
    for (n, bytes) in [(i32::MIN, "FF FF FF FF 0F"), (-1, "01"), (0, "00"), (1, "02"), (i32::MAX, "FE FF FF FF 0F")] {
        let mut buf = BytesMut::new();
        put_varint(&mut buf, n);
        assert_eq!(spaced(&buf), spaced(&hex(bytes)), "varint {n}");
        let mut r = reader(bytes);
        assert_eq!(r.read_varint().unwrap(), n);
        assert_eq!(r.remaining(), 0);
    }
    for n in [i64::MIN, -1, 0, 1, i64::MAX] {
        let mut buf = BytesMut::new();
        put_varlong(&mut buf, n);
        let mut r = Reader::new(buf.freeze());
        assert_eq!(r.read_varlong().unwrap(), n);
        assert_eq!(r.remaining(), 0);
    }
}

#[test]
fn v16_sasl_authenticate_and_reauthentication() {
    // V16: SaslAuthenticateResponse {error 0, message null, auth_bytes empty, session_lifetime_ms 299000}.
    let response = SaslAuthenticateResponse {
        error_code: 0,
        error_message: None,
        auth_bytes: Bytes::new(),
        session_lifetime_ms: 299_000,
        ..Default::default()
    };
    // V16: v1
    both_ways(&response, 1, "00 00 FF FF 00 00 00 00 00 00 00 00 00 04 8F F8");
    // V16: v2 (flexible)
    both_ways(&response, 2, "00 00 00 01 00 00 00 00 00 04 8F F8 00");
    // V16: v0 drops the lifetime (ignorable) and reads back 0 (no re-authentication).
    let read_back = SaslAuthenticateResponse { session_lifetime_ms: 0, ..response.clone() };
    lossy(&response, 0, "00 00 FF FF 00 00 00 00", &read_back);
    // V16: SaslHandshake v1 "PLAIN" (re-authentication), and v0 with the same bytes.
    let handshake = SaslHandshakeRequest { mechanism: "PLAIN".into() };
    both_ways(&handshake, 1, "00 05 50 4C 41 49 4E");
    both_ways(&handshake, 0, "00 05 50 4C 41 49 4E");
}

#[test]
fn v17_decoding_gives_schema_defaults() {
    // V17 is mostly about the schema loader (kwire-codegen's tests); these are its decoding
    // defaults for fields absent at the version read.

    // V17: "0x7fffffff" -> 2147483647 (FetchRequest MaxBytes, v3+), read from FetchRequest v2 bytes
    // (ReplicaId -1, MaxWaitMs 500, MinBytes 1, no topics), with the other later fields' defaults.
    let expected = FetchRequest {
        replica_id: -1,
        max_wait_ms: 500,
        min_bytes: 1,
        max_bytes: 2147483647,
        isolation_level: 0,
        session_id: 0,
        session_epoch: -1,
        cluster_id: None,
        rack_id: "".into(),
        ..Default::default()
    };
    both_ways(&expected, 2, "ffffffff 000001f4 00000001 00000000");

    // V17: "-2147483648" -> i32::MIN, "null" -> None, "-1", "false": MetadataResponse v0 with one topic.
    let v0 = "00 00 00 00
              00 00 00 01  00 00  00 01 74
              00 00 00 01  00 00  00 00 00 00  00 00 00 01  00 00 00 01 00 00 00 01  00 00 00 01 00 00 00 01";
    let expected = MetadataResponse {
        throttle_time_ms: 0,
        brokers: vec![],
        cluster_id: None,
        controller_id: -1,
        error_code: 0,
        topics: vec![MetadataResponseTopic {
            error_code: 0,
            name: Some("t".into()),
            topic_id: Uuid::NIL,
            is_internal: false,
            partitions: vec![MetadataResponsePartition {
                error_code: 0,
                partition_index: 0,
                leader_id: 1,
                leader_epoch: -1,
                replica_nodes: vec![1],
                isr_nodes: vec![1],
                offline_replicas: vec![],
                unknown_tagged_fields: vec![],
            }],
            topic_authorized_operations: i32::MIN,
            unknown_tagged_fields: vec![],
        }],
        cluster_authorized_operations: i32::MIN,
        unknown_tagged_fields: vec![],
    };
    both_ways(&expected, 0, v0);

    // V17: nullableVersions wider than versions (CreateTopicsResponse ErrorMessage: versions 1+,
    // nullable 0+) is accepted; at v0 the absent fields read as their defaults ("" for the string,
    // -1 for NumPartitions and ReplicationFactor, empty Configs).
    let expected = CreateTopicsResponse {
        throttle_time_ms: 0,
        topics: vec![CreatableTopicResult {
            name: "t1".into(),
            topic_id: Uuid::NIL,
            error_code: 0,
            error_message: Some("".into()),
            topic_config_error_code: 0,
            num_partitions: -1,
            replication_factor: -1,
            configs: Some(vec![]),
            unknown_tagged_fields: vec![],
        }],
        unknown_tagged_fields: vec![],
    };
    both_ways(&expected, 0, "00 00 00 01 00 02 74 31 00 00");

    // V17: a non-ignorable int8 with default "3" absent at v0 (CreateAclsRequest ResourcePatternType).
    let expected = CreateAclsRequest {
        creations: vec![AclCreation {
            resource_type: 2,
            resource_name: "t".into(),
            resource_pattern_type: 3,
            principal: "User:a".into(),
            host: "*".into(),
            operation: 3,
            permission_type: 3,
            unknown_tagged_fields: vec![],
        }],
        unknown_tagged_fields: vec![],
    };
    both_ways(&expected, 0, "00 00 00 01 02 00 01 74 00 06 55 73 65 72 3a 61 00 01 2a 03 03");

    // V17: default "1" absent at v0 in a flexible nested struct (UpdateFeaturesRequest UpgradeType).
    let expected = UpdateFeaturesRequest {
        timeout_ms: 60000,
        feature_updates: vec![FeatureUpdateKey {
            feature: "f".into(),
            max_version_level: 2,
            allow_downgrade: false,
            upgrade_type: 1,
            unknown_tagged_fields: vec![],
        }],
        validate_only: false,
        unknown_tagged_fields: vec![],
    };
    both_ways(&expected, 0, "00 00 EA 60 02 02 66 00 02 00 00 00");
}

#[test]
fn v18_compact_strings_use_length_plus_one() {
    // V18: ApiVersionsRequest v3 {"rs", "0.1"}
    let request = ApiVersionsRequest {
        client_software_name: "rs".into(),
        client_software_version: "0.1".into(),
        ..Default::default()
    };
    both_ways(&request, 3, "03 72 73 04 30 2E 31 00");
    // V18: name "" is 01
    let empty = ApiVersionsRequest { client_software_name: "".into(), ..request };
    both_ways(&empty, 3, "01 04 30 2E 31 00");
    // V18: 00 (null) for these non-nullable strings is an error.
    let err = decode_fails::<ApiVersionsRequest>(
        3,
        "00 04 30 2E 31 00",
        DecodeErrorKind::NullNotAllowed,
        &["ApiVersionsRequest v3", "client_software_name"],
    );
    assert_eq!(err.offset(), 0, "{err}");
    let err = decode_fails::<ApiVersionsRequest>(
        3,
        "03 72 73 00 00",
        DecodeErrorKind::NullNotAllowed,
        &["ApiVersionsRequest v3", "client_software_version"],
    );
    assert_eq!(err.offset(), 3, "{err}");
}

#[test]
fn truncated_run_of_fixed_width_fields_names_the_field_that_is_short() {
    // api key, api version and correlation id are read with one bounds
    // check; cut inside the correlation id, the error is the one a read of
    // one field at a time gives: 4 bytes needed, 1 left, at offset 4.
    let err =
        decode_fails::<RequestHeader>(1, "00 12 00 03 00", not_enough(4, 1), &["RequestHeader v1", "correlation_id"]);
    assert_eq!(err.offset(), 4, "{err}");
    assert_eq!(err.path(), vec![PathSegment::Field("correlation_id")], "{err}");
    // Cut inside the first field: the api key is named, at offset 0.
    let err = decode_fails::<RequestHeader>(1, "00", not_enough(2, 1), &["request_api_key"]);
    assert_eq!(err.offset(), 0, "{err}");
    // A partition of MetadataResponse v12 cut in its leader id, deeper in
    // the message: the path runs down to the field.
    let partition = MetadataResponsePartition { leader_id: 5, ..Default::default() };
    let topic = MetadataResponseTopic { name: Some("t".into()), partitions: vec![partition], ..Default::default() };
    let response = MetadataResponse { topics: vec![topic], ..Default::default() };
    let bytes = response.to_bytes(12).expect("encodes");
    let full = bytes.len();
    // The partition's run (error code, index, leader id: 10 bytes) starts
    // after the topic's fields; find it by cutting until the leader id is short.
    let cut = (0..full)
        .map(|n| (n, MetadataResponse::decode_exact(bytes.slice(..n), 12).unwrap_err()))
        .find(|(_, e)| e.path().last() == Some(&PathSegment::Field("leader_id")))
        .expect("some cut ends inside the leader id");
    let text = cut.1.to_string();
    assert!(text.contains("topics[0].partitions[0].leader_id"), "{text}");
    assert!(matches!(cut.1.kind(), DecodeErrorKind::NotEnoughBytes { needed: 4, .. }), "{text}");
}

#[test]
fn reserved_segments_hold_multi_byte_prefixes() {
    use kwire::messages::create_topics_request::{CreatableTopic, CreatableTopicConfig};
    // A struct's strings and arrays of fixed-width values are written into
    // bytes reserved for them at once; prefixes longer than a byte, and an
    // unknown tagged field after them, must land where field-by-field
    // writing puts them.
    let name = "n".repeat(200); // compact length 201: c9 01
    let value = "v".repeat(16_384); // compact length 16385: 81 80 01
    let config = CreatableTopicConfig {
        name: name.clone().into(),
        value: Some(value.clone().into()),
        unknown_tagged_fields: vec![raw(7, "2a")],
    };
    let topic = CreatableTopic { name: "t".into(), configs: vec![config], ..Default::default() };
    let request = CreateTopicsRequest { topics: vec![topic], ..Default::default() };
    let bytes = request.to_bytes(7).expect("encodes");
    assert_eq!(bytes.len(), request.encoded_size(7));
    let at = bytes.windows(200).position(|w| w == name.as_bytes()).expect("name written");
    assert_eq!(&bytes[at - 2..at], [0xc9, 0x01]);
    assert_eq!(&bytes[at + 200..at + 203], [0x81, 0x80, 0x01]);
    // After the value: a section of one unknown field, tag 7, one byte 2a.
    assert_eq!(&bytes[at + 203 + 16_384..at + 203 + 16_384 + 4], [0x01, 0x07, 0x01, 0x2a]);
    assert_eq!(CreateTopicsRequest::decode_exact(bytes, 7).expect("decodes"), request);

    // 300 replicas: compact count 301 is ad 02, then 300 big-endian int32s.
    let replicas: Vec<i32> = (0..300).collect();
    let partition = MetadataResponsePartition { replica_nodes: replicas.clone(), ..Default::default() };
    let topic = MetadataResponseTopic { name: Some("t".into()), partitions: vec![partition], ..Default::default() };
    let response = MetadataResponse { topics: vec![topic], ..Default::default() };
    let bytes = response.to_bytes(12).expect("encodes");
    assert_eq!(bytes.len(), response.encoded_size(12));
    let mut expected = vec![0xad, 0x02];
    expected.extend(replicas.iter().flat_map(|r| r.to_be_bytes()));
    assert!(bytes.windows(expected.len()).any(|w| w == expected), "replicas written after ad 02");
    assert_eq!(MetadataResponse::decode_exact(bytes, 12).expect("decodes"), response);
}

#[test]
fn too_long_string_in_a_reserved_segment_names_its_field() {
    use kwire::messages::create_topics_request::{CreatableTopic, CreatableTopicConfig};
    let config =
        CreatableTopicConfig { name: "c".into(), value: Some("v".repeat(40_000).into()), ..Default::default() };
    let topic = CreatableTopic { name: "t".into(), configs: vec![config], ..Default::default() };
    let request = CreateTopicsRequest { topics: vec![topic], ..Default::default() };
    for version in [4, 7] {
        encode_fails(&request, version, EncodeErrorKind::TooLong(40_000), &["topics[0].configs[0].value"]);
    }
}

// ---------------------------------------------------------------------------
// Truncation at every byte: the error names the value whose bytes ran out
// ---------------------------------------------------------------------------

/// One value read from an encoding, and what a cut inside it gives.
#[derive(Clone, Copy, Debug)]
enum Span {
    /// `size` bytes at `at`, read by the field at `path` ("" for the message
    /// itself, e.g. its tagged-field count): a cut `k` bytes in is
    /// NotEnoughBytes { needed: size, remaining: k } at `at`.
    Read(usize, usize, &'static str),
    /// The `size` bytes after an array's count of `count` elements, checked
    /// before they are read: a cut `k` bytes in is
    /// CountTooLarge { count, remaining: k } at `at`.
    Count(usize, usize, &'static str, u64),
}

/// Decodes every prefix of `bytes` (one `M` at `version`) and checks that
/// each fails exactly as reading its values one at a time does, as `spans`
/// (written from the schema, field by field) says: the kind, the path and
/// the offset. `decode_into` a value that holds the whole message reports
/// the same error.
#[track_caller]
fn every_cut_fails_as_spans_say<M: Message>(version: i16, bytes: &str, spans: &[Span]) {
    let bytes = hex(bytes);
    // The `Read` spans tile the encoding, in order.
    let mut end = 0;
    for span in spans {
        if let Span::Read(at, size, path) = *span {
            assert_eq!(at, end, "the span of {path:?} starts where the one before it ends");
            end = at + size;
        }
    }
    assert_eq!(end, bytes.len(), "the spans cover the encoding");
    let whole = M::decode_exact(bytes.clone(), version).expect("the whole encoding decodes");
    for cut in 0..bytes.len() {
        // A count check comes before the reads of the elements it covers.
        let inside = |at: usize, size: usize| (at..at + size).contains(&cut);
        let span = spans
            .iter()
            .filter(|s| matches!(s, Span::Count(at, size, ..) if inside(*at, *size)))
            .chain(spans.iter().filter(|s| matches!(s, Span::Read(at, size, _) if inside(*at, *size))))
            .next()
            .expect("a span holds every cut");
        let (at, path, kind) = match *span {
            Span::Read(at, size, path) => (at, path, not_enough(size, cut - at)),
            Span::Count(at, _, path, count) => {
                (at, path, DecodeErrorKind::CountTooLarge { count, remaining: cut - at })
            }
        };
        let place = if path.is_empty() { String::new() } else { format!("{path}: ") };
        let expected = format!("{} v{version}: {place}{kind} (offset {at})", M::NAME);
        let err = M::decode_exact(bytes.slice(..cut), version).expect_err("a prefix is short");
        assert_eq!(err.to_string(), expected, "cut after {cut} of {} bytes", bytes.len());
        assert_eq!((err.kind(), err.offset()), (&kind, at), "cut after {cut}");
        let mut reused = whole.clone();
        let mut rest = bytes.slice(..cut);
        let err = reused.decode_into(&mut rest, version).expect_err("a prefix is short");
        assert_eq!(err.to_string(), expected, "decode_into, cut after {cut}");
        assert_eq!(rest.len(), cut, "a failed decode_into leaves its input as it was");
    }
}

#[test]
fn every_cut_of_a_request_header_names_its_field() {
    use Span::Read;
    let fixed = [Read(0, 2, "request_api_key"), Read(2, 2, "request_api_version"), Read(4, 4, "correlation_id")];
    every_cut_fails_as_spans_say::<RequestHeader>(0, "0012 0003 00000007", &fixed);
    let v1 = [fixed.as_slice(), &[Read(8, 2, "client_id"), Read(10, 3, "client_id")]].concat();
    every_cut_fails_as_spans_say::<RequestHeader>(1, "0012 0003 00000007 0003 636964", &v1);
    // v2: the same, then the header's own tagged-field count.
    let v2 = [v1.as_slice(), &[Read(13, 1, "tagged_fields")]].concat();
    every_cut_fails_as_spans_say::<RequestHeader>(2, "0012 0003 00000007 0003 636964 00", &v2);
    // v2 with a null client id and one unknown tagged field.
    // The count of 1 entry needs at least 2 bytes after it (a tag and a size).
    let tagged = [
        Read(8, 2, "client_id"),
        Read(10, 1, "tagged_fields"),
        Span::Count(11, 2, "tagged_fields", 1),
        Read(11, 1, "tagged_fields"),
        Read(12, 1, "tagged_fields"),
        Read(13, 2, "tagged_fields<tag 5>"),
    ];
    let v2_tagged = [fixed.as_slice(), &tagged].concat();
    every_cut_fails_as_spans_say::<RequestHeader>(2, "0012 0003 00000007 ffff 01 05 02 7879", &v2_tagged);
}

#[test]
fn every_cut_of_metadata_response_v12_partitions_names_its_field() {
    use Span::{Count, Read};
    // MetadataResponse v12: one topic "t" with two partitions, the first with
    // replica and ISR [1]; offsets derived from MetadataResponse.json.
    let bytes = "00000000 01 00 00000001 02
                 0000 02 74 000102030405060708090a0b0c0d0e0f 00 03
                 0000 00000000 00000001 00000005 02 00000001 02 00000001 01 00
                 0003 00000001 00000002 00000006 01 01 01 00
                 80000000 00 00";
    let p0 = "topics[0].partitions[0].tagged_fields";
    let spans = [
        Read(0, 4, "throttle_time_ms"),
        Read(4, 1, "brokers"),
        Read(5, 1, "cluster_id"),
        Read(6, 4, "controller_id"),
        Read(10, 1, "topics"),
        Count(11, 1, "topics", 1),
        Read(11, 2, "topics[0].error_code"),
        Read(13, 1, "topics[0].name"),
        Read(14, 1, "topics[0].name"),
        Read(15, 16, "topics[0].topic_id"),
        Read(31, 1, "topics[0].is_internal"),
        Read(32, 1, "topics[0].partitions"),
        Count(33, 2, "topics[0].partitions", 2),
        Read(33, 2, "topics[0].partitions[0].error_code"),
        Read(35, 4, "topics[0].partitions[0].partition_index"),
        Read(39, 4, "topics[0].partitions[0].leader_id"),
        Read(43, 4, "topics[0].partitions[0].leader_epoch"),
        Read(47, 1, "topics[0].partitions[0].replica_nodes"),
        Count(48, 4, "topics[0].partitions[0].replica_nodes", 1),
        Read(48, 4, "topics[0].partitions[0].replica_nodes"),
        Read(52, 1, "topics[0].partitions[0].isr_nodes"),
        Count(53, 4, "topics[0].partitions[0].isr_nodes", 1),
        Read(53, 4, "topics[0].partitions[0].isr_nodes"),
        Read(57, 1, "topics[0].partitions[0].offline_replicas"),
        Read(58, 1, p0),
        Read(59, 2, "topics[0].partitions[1].error_code"),
        Read(61, 4, "topics[0].partitions[1].partition_index"),
        Read(65, 4, "topics[0].partitions[1].leader_id"),
        Read(69, 4, "topics[0].partitions[1].leader_epoch"),
        Read(73, 1, "topics[0].partitions[1].replica_nodes"),
        Read(74, 1, "topics[0].partitions[1].isr_nodes"),
        Read(75, 1, "topics[0].partitions[1].offline_replicas"),
        Read(76, 1, "topics[0].partitions[1].tagged_fields"),
        Read(77, 4, "topics[0].topic_authorized_operations"),
        Read(81, 1, "topics[0].tagged_fields"),
        Read(82, 1, "tagged_fields"),
    ];
    let partition = |error_code, partition_index, leader_id, leader_epoch, nodes: Vec<i32>| MetadataResponsePartition {
        error_code,
        partition_index,
        leader_id,
        leader_epoch,
        replica_nodes: nodes.clone(),
        isr_nodes: nodes,
        ..Default::default()
    };
    let response = MetadataResponse {
        controller_id: 1,
        topics: vec![MetadataResponseTopic {
            name: Some("t".into()),
            topic_id: Uuid::from_u128(0x000102030405060708090a0b0c0d0e0f),
            partitions: vec![partition(0, 0, 1, 5, vec![1]), partition(3, 1, 2, 6, vec![])],
            topic_authorized_operations: i32::MIN,
            ..Default::default()
        }],
        ..Default::default()
    };
    both_ways(&response, 12, bytes);
    every_cut_fails_as_spans_say::<MetadataResponse>(12, bytes, &spans);
}

#[test]
fn every_cut_of_fetch_response_v12_partitions_names_its_field() {
    use kwire::messages::fetch_response::AbortedTransaction;
    use Span::{Count, Read};
    // FetchResponse v12: error code and session id (one run), one topic "t", one
    // partition with one aborted transaction and a 10-byte records stand-in.
    let bytes = format!(
        "00000000 0000 0000007b 02 02 74 02
         00000000 0000 000000000000000a 0000000000000009 0000000000000001
         02 0000000000000007 0000000000000003 00 ffffffff 0b {TEN} 00 00 00"
    );
    let p = "responses[0].partitions[0].tagged_fields";
    let spans = [
        Read(0, 4, "throttle_time_ms"),
        Read(4, 2, "error_code"),
        Read(6, 4, "session_id"),
        Read(10, 1, "responses"),
        Count(11, 1, "responses", 1),
        Read(11, 1, "responses[0].topic"),
        Read(12, 1, "responses[0].topic"),
        Read(13, 1, "responses[0].partitions"),
        Count(14, 1, "responses[0].partitions", 1),
        Read(14, 4, "responses[0].partitions[0].partition_index"),
        Read(18, 2, "responses[0].partitions[0].error_code"),
        Read(20, 8, "responses[0].partitions[0].high_watermark"),
        Read(28, 8, "responses[0].partitions[0].last_stable_offset"),
        Read(36, 8, "responses[0].partitions[0].log_start_offset"),
        Read(44, 1, "responses[0].partitions[0].aborted_transactions"),
        Count(45, 1, "responses[0].partitions[0].aborted_transactions", 1),
        Read(45, 8, "responses[0].partitions[0].aborted_transactions[0].producer_id"),
        Read(53, 8, "responses[0].partitions[0].aborted_transactions[0].first_offset"),
        Read(61, 1, "responses[0].partitions[0].aborted_transactions[0].tagged_fields"),
        Read(62, 4, "responses[0].partitions[0].preferred_read_replica"),
        Read(66, 1, "responses[0].partitions[0].records"),
        Read(67, 10, "responses[0].partitions[0].records"),
        Read(77, 1, p),
        Read(78, 1, "responses[0].tagged_fields"),
        Read(79, 1, "tagged_fields"),
    ];
    let response = FetchResponse {
        session_id: 123,
        responses: vec![FetchableTopicResponse {
            topic: "t".into(),
            partitions: vec![PartitionData {
                high_watermark: 10,
                last_stable_offset: 9,
                log_start_offset: 1,
                aborted_transactions: Some(vec![AbortedTransaction {
                    producer_id: 7,
                    first_offset: 3,
                    ..Default::default()
                }]),
                records: Some(hex(TEN)),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    both_ways(&response, 12, &bytes);
    every_cut_fails_as_spans_say::<FetchResponse>(12, &bytes, &spans);
}

#[test]
fn every_cut_of_produce_request_names_its_field() {
    use Span::{Count, Read};
    let request = ProduceRequest {
        transactional_id: None,
        acks: 1,
        timeout_ms: 1000,
        topic_data: vec![TopicProduceData {
            name: "t".into(),
            partition_data: vec![PartitionProduceData { index: 0, records: Some(hex(TEN)), ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    };
    // v8 (classic): acks and timeout are one run after the nullable transactional id.
    let v8 = format!("ffff 0001 000003e8 00000001 0001 74 00000001 00000000 0000000a {TEN}");
    let spans = [
        Read(0, 2, "transactional_id"),
        Read(2, 2, "acks"),
        Read(4, 4, "timeout_ms"),
        Read(8, 4, "topic_data"),
        Count(12, 1, "topic_data", 1),
        Read(12, 2, "topic_data[0].name"),
        Read(14, 1, "topic_data[0].name"),
        Read(15, 4, "topic_data[0].partition_data"),
        Count(19, 1, "topic_data[0].partition_data", 1),
        Read(19, 4, "topic_data[0].partition_data[0].index"),
        Read(23, 4, "topic_data[0].partition_data[0].records"),
        Read(27, 10, "topic_data[0].partition_data[0].records"),
    ];
    both_ways(&request, 8, &v8);
    every_cut_fails_as_spans_say::<ProduceRequest>(8, &v8, &spans);
    // v9 (flexible).
    let v9 = format!("00 0001 000003e8 02 02 74 02 00000000 0b {TEN} 00 00 00");
    let spans = [
        Read(0, 1, "transactional_id"),
        Read(1, 2, "acks"),
        Read(3, 4, "timeout_ms"),
        Read(7, 1, "topic_data"),
        Count(8, 1, "topic_data", 1),
        Read(8, 1, "topic_data[0].name"),
        Read(9, 1, "topic_data[0].name"),
        Read(10, 1, "topic_data[0].partition_data"),
        Count(11, 1, "topic_data[0].partition_data", 1),
        Read(11, 4, "topic_data[0].partition_data[0].index"),
        Read(15, 1, "topic_data[0].partition_data[0].records"),
        Read(16, 10, "topic_data[0].partition_data[0].records"),
        Read(26, 1, "topic_data[0].partition_data[0].tagged_fields"),
        Read(27, 1, "topic_data[0].tagged_fields"),
        Read(28, 1, "tagged_fields"),
    ];
    both_ways(&request, 9, &v9);
    every_cut_fails_as_spans_say::<ProduceRequest>(9, &v9, &spans);
}

/// `ProduceRequest::peek_acks` reads `Acks` from the body at every version
/// (bytes laid out by hand from ProduceRequest.json: the nullable
/// `TransactionalId` from v3, compact from v9), agrees with a full decode,
/// and names the field, message, version and offset of a body cut short.
#[test]
fn produce_acks_peeked_at_every_version() {
    for version in ProduceRequest::VERSIONS.min..=ProduceRequest::VERSIONS.max {
        // acks -1, timeout 1000, no topics; transactional id "tx" where it exists.
        let (body, acks_at) = match version {
            0..=2 => ("ffff 000003e8 00000000".to_owned(), 0),
            3..=8 => ("0002 7478 ffff 000003e8 00000000".to_owned(), 4),
            _ => ("03 7478 ffff 000003e8 01 00".to_owned(), 3),
        };
        let bytes = hex(&body);
        assert_eq!(ProduceRequest::peek_acks(&bytes, version).unwrap(), -1, "v{version}");
        let decoded = ProduceRequest::decode_exact(bytes.clone(), version).unwrap();
        assert_eq!(decoded.acks, -1, "v{version}");
        assert_eq!(decoded.transactional_id.as_deref(), (version >= 3).then_some("tx"), "v{version}");
        for cut in 0..acks_at + 2 {
            let err = ProduceRequest::peek_acks(&bytes[..cut], version).unwrap_err();
            let field = if cut < acks_at { "transactional_id" } else { "acks" };
            assert_eq!(err.path(), vec![PathSegment::Field(field)], "v{version} cut at {cut}");
            assert_eq!(err.message(), Some(("ProduceRequest", version)), "v{version} cut at {cut}");
            // A length cut short fails where it starts; a value, after its length.
            let at = match (cut < acks_at, version >= 9) {
                (false, _) => acks_at,
                (true, false) => {
                    if cut < 2 {
                        0
                    } else {
                        2
                    }
                }
                (true, true) => usize::from(cut > 0),
            };
            assert_eq!(err.offset(), at, "v{version} cut at {cut}: {err}");
        }
    }
    // The golden v8 and v9 bodies of case V13 (acks 1).
    let v8 = hex(&format!("ffff 0001 000003e8 00000001 0001 74 00000001 00000000 0000000a {TEN}"));
    assert_eq!(ProduceRequest::peek_acks(&v8, 8).unwrap(), 1);
    let v9 = hex(&format!("00 0001 000003e8 02 02 74 02 00000000 0b {TEN} 00 00 00"));
    assert_eq!(ProduceRequest::peek_acks(&v9, 9).unwrap(), 1);
    // A header's length, stepped over: v1 (client id "c") and v2 (with a tagged entry).
    let v1 = hex("0000 0008 00000007 0001 63 ffff");
    assert_eq!(RequestHeader::peek_len(&v1, 1).unwrap(), 11);
    let v2 = hex("0000 0009 00000007 0001 63 01 00 02 0161 ffff");
    assert_eq!(RequestHeader::peek_len(&v2, 2).unwrap(), 16);
    let err = RequestHeader::peek_len(&v2[..13], 2).unwrap_err();
    assert_eq!((err.path(), err.offset()), (vec![PathSegment::Field("tagged_fields")], 13));
}

#[test]
fn a_run_cut_short_by_its_tagged_entry_names_the_field_inside_it() {
    // FetchResponse v12 partition whose DivergingEpoch (tag 0: epoch int32,
    // end offset int64, read as one run) declares 5 bytes: the epoch fits,
    // the end offset has 1 of its 8 bytes, at offset 57.
    let bytes = "00000000 0000 00000000 02 02 74 02
                 00000000 0000 0000000000000000 ffffffffffffffff ffffffffffffffff 01 ffffffff 01
                 01 00 05 00000002 00  00 00";
    let err = decode_fails::<FetchResponse>(
        12,
        bytes,
        not_enough(8, 1),
        &["responses[0].partitions[0].diverging_epoch.end_offset"],
    );
    assert_eq!(err.offset(), 57, "{err}");
    assert_eq!(
        err.to_string(),
        "FetchResponse v12: responses[0].partitions[0].diverging_epoch.end_offset: need 8 bytes, have 1 (offset 57)"
    );
}

// ---------------------------------------------------------------------------
// Tagged-field sections of structs that define no tagged field
// ---------------------------------------------------------------------------

#[test]
fn unknown_only_tagged_sections_keep_entries_and_refuse_bad_ones() {
    // ResponseHeader v1 defines no tagged field: every entry is kept, an
    // empty one and the largest tag (2^31 - 2, tagged::MAX_TAG) included, and
    // written back as it came.
    let kept = ResponseHeader {
        correlation_id: 1,
        unknown_tagged_fields: vec![raw(0, ""), raw(7, "aa"), raw(2_147_483_646, "0102")],
    };
    both_ways(&kept, 1, "00000001 03 00 00 07 01 aa feffffff07 02 0102");
    // decode_into a header that holds unknown fields: an empty section clears them.
    let mut reused = kept.clone();
    reused.decode_into(&mut hex("00000002 00"), 1).unwrap();
    assert_eq!(reused, ResponseHeader { correlation_id: 2, ..Default::default() });
    // ... and a section with other entries replaces them.
    let mut reused = kept;
    reused.decode_into(&mut hex("00000003 01 09 01 bb"), 1).unwrap();
    assert_eq!(reused.unknown_tagged_fields, vec![raw(9, "bb")]);

    // A tag repeated, then tags out of order: refused at the second tag.
    let err = decode_fails::<ResponseHeader>(
        1,
        "00000001 02 05 00 05 00",
        DecodeErrorKind::TagsNotAscending { previous: 5, tag: 5 },
        &["tag 5 follows tag 5"],
    );
    assert_eq!(err.offset(), 7, "{err}");
    let err = decode_fails::<ResponseHeader>(
        1,
        "00000001 02 07 00 03 00",
        DecodeErrorKind::TagsNotAscending { previous: 7, tag: 3 },
        &["tag 3 follows tag 7"],
    );
    assert_eq!(err.offset(), 7, "{err}");
    // A size past the end, in the first entry and in a later one.
    let err = decode_fails::<ResponseHeader>(1, "00000001 01 05 03 aabb", not_enough(3, 2), &["<tag 5>"]);
    assert_eq!(err.offset(), 7, "{err}");
    let err = decode_fails::<ResponseHeader>(1, "00000001 02 01 00 05 02 aa", not_enough(2, 1), &["<tag 5>"]);
    assert_eq!(err.offset(), 9, "{err}");
    // Counts: one that cannot fit (2^32-1 entries, nothing left), one that fits
    // the 2-bytes-an-entry check but whose second entry is missing, and a
    // count varint of 6 bytes.
    let err = decode_fails::<ResponseHeader>(
        1,
        "00000001 ffffffff0f",
        DecodeErrorKind::CountTooLarge { count: u32::MAX as u64, remaining: 0 },
        &["ResponseHeader v1"],
    );
    assert_eq!(err.offset(), 9, "{err}");
    let err = decode_fails::<ResponseHeader>(1, "00000001 02 05 02 aabb", not_enough(1, 0), &["ResponseHeader v1"]);
    assert_eq!(err.offset(), 9, "{err}");
    let err = decode_fails::<ResponseHeader>(1, "00000001 8180808080 01", DecodeErrorKind::VarintTooLong, &[]);
    assert_eq!(err.offset(), 4, "{err}");

    // The same in a nested struct without known tags (MetadataResponse v12
    // partition): entries kept, and errors carry the path down to it.
    let partition = MetadataResponsePartition {
        replica_nodes: vec![1],
        unknown_tagged_fields: vec![raw(3, "ff")],
        ..Default::default()
    };
    let topic = MetadataResponseTopic { name: Some("t".into()), partitions: vec![partition], ..Default::default() };
    let response = MetadataResponse { topics: vec![topic], ..Default::default() };
    let head = "00000000 01 00 ffffffff 02 0000 02 74 00000000000000000000000000000000 00 02
                0000 00000000 00000000 ffffffff 02 00000001 01 01";
    let tail = "80000000 00 00";
    both_ways(&response, 12, &format!("{head} 01 03 01 ff {tail}"));
    let err = decode_fails::<MetadataResponse>(
        12,
        &format!("{head} 02 03 01 ff 03 01 ee {tail}"),
        DecodeErrorKind::TagsNotAscending { previous: 3, tag: 3 },
        &["MetadataResponse v12: topics[0].partitions[0].tagged_fields: tag 3 follows tag 3"],
    );
    assert_eq!(err.offset(), 58, "{err}");
}

#[test]
fn known_tags_repeated_or_out_of_order_read_as_kafka_reads_them() {
    // ApiVersionsResponse v3 (no api keys): tag 1 is FinalizedFeaturesEpoch
    // (int64), tag 2 FinalizedFeatures. Kafka reads known tags in any order
    // and keeps the last value of a repeated one; kwire writes them back
    // once each, ascending (checked against Kafka by interop/tests/oracle.rs).
    let epoch = |e: i64| ApiVersionsResponse { finalized_features_epoch: e, ..Default::default() };
    let written = "0000 01 00000000 01 01 08 0000000000000007";
    both_ways(&epoch(7), 3, written);
    decodes_to("0000 01 00000000 02 01 08 0000000000000005 01 08 0000000000000007", 3, &epoch(7));
    decodes_to(
        "0000 01 00000000 03 01 08 0000000000000005 01 08 0000000000000009 01 08 0000000000000007",
        3,
        &epoch(7),
    );
    // Tag 2 (an empty compact array) before tag 1: both read.
    decodes_to("0000 01 00000000 02 02 01 01 01 08 0000000000000005", 3, &epoch(5));
    // A known tag after an unknown one, and again the unknown order rule.
    let with_unknown = ApiVersionsResponse { unknown_tagged_fields: vec![raw(9, "aa")], ..epoch(5) };
    decodes_to("0000 01 00000000 02 09 01 aa 01 08 0000000000000005", 3, &with_unknown);
    encodes_to(&with_unknown, 3, "0000 01 00000000 02 01 08 0000000000000005 09 01 aa");
    decode_fails::<ApiVersionsResponse>(
        3,
        "0000 01 00000000 03 09 01 aa 01 08 0000000000000005 08 01 bb",
        DecodeErrorKind::TagsNotAscending { previous: 9, tag: 8 },
        &["tag 8 follows tag 9"],
    );
    // The last value of a repeated tag must still fill its declared size.
    decode_fails::<ApiVersionsResponse>(
        3,
        "0000 01 00000000 02 01 08 0000000000000005 01 09 0000000000000007 00",
        DecodeErrorKind::TagSizeMismatch { declared: 9, used: 8 },
        &["tagged_fields<tag 1>"],
    );
}

/// `bytes` read at `version` with no reading limits, to the end.
fn lifted<M: Message>(bytes: &Bytes, version: i16) -> M {
    let mut r = Reader::new(bytes.clone()).with_limits(kwire::primitives::ReadLimits::NONE);
    let value = M::decode_from(&mut r, version).expect("reads without limits");
    assert_eq!(r.remaining(), 0);
    value
}

/// `at` (a count at a reading limit) reads back with the default limits;
/// `over` (one more) is refused with `kind` and the error `text`, and
/// reads back with the limits lifted.
#[track_caller]
fn limit_holds<M: Message>(at: &M, over: &M, version: i16, kind: DecodeErrorKind, text: &str) {
    assert_eq!(&M::decode_exact(at.to_bytes(version).unwrap(), version).unwrap(), at);
    let bytes = over.to_bytes(version).unwrap();
    let err = M::decode_exact(bytes.clone(), version).unwrap_err();
    assert_eq!((err.kind(), err.to_string().as_str()), (&kind, text));
    assert_eq!(&lifted::<M>(&bytes, version), over);
}

#[test]
fn kafka_reading_limits_apply_by_default_and_lift() {
    use kwire::messages::{GetTelemetrySubscriptionsResponse, MetadataRequest};
    // Kafka 4.4 refuses arrays of more than 1,000,000 elements (checked
    // against Kafka by interop/tests/oracle.rs): a compact []int8, read in one piece.
    let telemetry =
        |n: usize| GetTelemetrySubscriptionsResponse { accepted_compression_types: vec![3; n], ..Default::default() };
    limit_holds(
        &telemetry(1_000_000),
        &telemetry(1_000_001),
        0,
        DecodeErrorKind::ArrayTooLong { count: 1_000_001, max: 1_000_000 },
        "GetTelemetrySubscriptionsResponse v0: accepted_compression_types: array of 1000001 elements, more than the \
         limit of 1000000 (offset 29)",
    );
    // A classic array of structs: MetadataRequest v0, 1,000,001 empty topic names.
    let mut bytes = BytesMut::new();
    bytes.extend_from_slice(&1_000_001i32.to_be_bytes());
    bytes.extend_from_slice(&[0; 2_000_002]);
    let bytes = bytes.freeze();
    let err = MetadataRequest::decode_exact(bytes.clone(), 0).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::ArrayTooLong { count: 1_000_001, max: 1_000_000 });
    assert_eq!(err.path(), [PathSegment::Field("topics")]);
    assert_eq!(lifted::<MetadataRequest>(&bytes, 0).topics.map(|t| t.len()), Some(1_000_001));
    // More than 10,000 tagged fields in one section.
    let tags = |n: u32| ResponseHeader {
        correlation_id: 1,
        unknown_tagged_fields: (0..n).map(|t| RawTaggedField::new(t, Bytes::new())).collect(),
    };
    limit_holds(
        &tags(10_000),
        &tags(10_001),
        1,
        DecodeErrorKind::TooManyTaggedFields { count: 10_001, max: 10_000 },
        "ResponseHeader v1: tagged_fields: 10001 tagged fields, more than the limit of 10000 (offset 6)",
    );
}

// ---------------------------------------------------------------------------
// Decode::decode_value (provided: Default, then decode_value_into) and
// decode_value_into agree for every runtime type
// ---------------------------------------------------------------------------

/// `bytes` decode as `T` (at version 0, compact when `flexible`) to
/// `expected` with every byte read, both by `decode_value` and by
/// `decode_value_into` a value that holds `held`.
#[track_caller]
fn wire_decodes<T>(bytes: &str, flexible: bool, expected: T, held: T)
where
    T: kwire::encoding::Decode + PartialEq + std::fmt::Debug,
{
    let mut r = Reader::new(hex(bytes));
    assert_eq!(T::decode_value(&mut r, 0, flexible).unwrap(), expected, "decode_value of {bytes}");
    assert_eq!(r.remaining(), 0);
    let mut r = Reader::new(hex(bytes));
    let mut into = held;
    into.decode_value_into(&mut r, 0, flexible).unwrap();
    assert_eq!(into, expected, "decode_value_into of {bytes}");
    assert_eq!(r.remaining(), 0);
}

/// `bytes` are refused as `T` with `kind` at `offset`, by both methods.
#[track_caller]
fn wire_refuses<T>(bytes: &str, flexible: bool, kind: DecodeErrorKind, offset: usize, held: T)
where
    T: kwire::encoding::Decode + std::fmt::Debug,
{
    let err = T::decode_value(&mut Reader::new(hex(bytes)), 0, flexible).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (&kind, offset), "decode_value of {bytes}: {err}");
    let mut into = held;
    let err = into.decode_value_into(&mut Reader::new(hex(bytes)), 0, flexible).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (&kind, offset), "decode_value_into of {bytes}: {err}");
}

#[test]
fn wire_decode_value_and_decode_value_into_agree_for_every_runtime_type() {
    use kwire::embedded::EmbeddedMessage;
    use kwire::messages::describe_topic_partitions_request::Cursor;
    let uuid = Uuid::from_u128(0x0123456789abcdef0011223344556677);
    wire_decodes("0102", false, 258i16, -1);
    wire_decodes("fffffffe", false, -2i32, 9);
    wire_decodes("fffffffe", false, u32::MAX - 1, 9);
    wire_decodes("02", false, true, false);
    wire_decodes("00", false, false, true);
    wire_decodes("3ff8000000000000", false, 1.5f64, -0.0);
    wire_decodes("0123456789abcdef0011223344556677", false, uuid, Uuid::NIL);
    // Strings, classic and compact; null refused where T is not an Option.
    wire_decodes("0002 726b", false, ByteString::from("rk"), "a longer string held before".into());
    wire_decodes("03 726b", true, ByteString::from("rk"), ByteString::default());
    wire_refuses("ffff", false, DecodeErrorKind::NullNotAllowed, 0, ByteString::from("x"));
    wire_refuses("00", true, DecodeErrorKind::NullNotAllowed, 0, ByteString::from("x"));
    wire_decodes("ffff", false, None::<ByteString>, Some("x".into()));
    wire_decodes("00", true, None::<ByteString>, Some("x".into()));
    wire_decodes("01", true, Some(ByteString::default()), None);
    // Bytes and the embedded messages built on them.
    wire_decodes("00000002 0102", false, hex("0102"), hex("ffffff"));
    wire_decodes("03 0102", true, hex("0102"), Bytes::new());
    wire_refuses("ffffffff", false, DecodeErrorKind::NullNotAllowed, 0, hex("01"));
    wire_decodes("00", true, None::<Bytes>, Some(hex("01")));
    wire_decodes("01", true, Some(Bytes::new()), None);
    wire_decodes("03 0102", true, EmbeddedMessage::from(hex("0102")), EmbeddedMessage::from(hex("09")));
    wire_decodes("00", true, None::<EmbeddedMessage>, Some(EmbeddedMessage::from(hex("09"))));
    // Arrays: more and fewer elements held before, null refused unless Option.
    wire_decodes("00000002 00000001 00000002", false, vec![1i32, 2], vec![9, 9, 9]);
    wire_decodes("03 0001 0002", true, vec![1i16, 2], vec![]);
    wire_decodes("01", true, Vec::<i16>::new(), vec![7]);
    wire_decodes("03 02 61 01", true, vec![ByteString::from("a"), ByteString::default()], vec!["xyz".into()]);
    wire_refuses("ffffffff", false, DecodeErrorKind::NullNotAllowed, 0, vec![1i32]);
    wire_decodes("00", true, None::<Vec<ByteString>>, Some(vec!["x".into()]));
    wire_decodes("00000000", false, Some(Vec::<ByteString>::new()), None);
    // A nullable struct: marker ff (null) or 01 and the struct; a struct
    // decoded from its default or into one that holds other values.
    let cursor = Cursor { topic_name: "t".into(), partition_index: 3, ..Default::default() };
    let other = Cursor { topic_name: "other".into(), partition_index: 9, unknown_tagged_fields: vec![raw(4, "aa")] };
    wire_decodes("ff", true, None::<Cursor>, Some(other.clone()));
    wire_decodes("01 02 74 00000003 00", true, Some(cursor.clone()), Some(other.clone()));
    wire_decodes("01 02 74 00000003 00", true, Some(cursor.clone()), None);
    wire_decodes("02 74 00000003 00", true, cursor, other);
    // A struct read at a version that lacks some of its fields: they come
    // out at their defaults (MetadataResponse v0 partition: leader epoch -1).
    let held = MetadataResponsePartition { leader_epoch: 7, offline_replicas: vec![4], ..Default::default() };
    wire_decodes(
        "0000 00000001 00000002 00000000 00000000",
        false,
        MetadataResponsePartition { partition_index: 1, leader_id: 2, ..Default::default() },
        held,
    );
}

#[test]
fn v3_fallback_through_frame_decode_response() {
    use kwire::frame;
    use kwire::messages::ResponseBody;
    // V3: the v0-shaped reply (after correlation id 1) to an ApiVersions v4
    // request: ResponseFrame::decode re-reads it at v0 and says so.
    let reply = hex("00 00 00 01  00 23 00 00 00 01 00 12 00 00 00 03");
    let decoded = frame::ResponseFrame::decode(reply.clone(), kwire::api::ApiKey::ApiVersions, 4)
        .expect("decodes through the v0 fallback");
    assert_eq!(decoded.version, 0);
    // Decoded into a kept frame, fresh or holding a v3 ApiVersions response
    // (in place, then the fallback over what the failed try left): the same.
    let v3 = hex("00 00 00 01  00 00 02 00 12 00 00 00 03 00 00 00 00 00 00");
    for earlier in [None, Some(v3)] {
        let mut kept = frame::ResponseFrame::default();
        if let Some(earlier) = earlier {
            kept.decode_into(earlier, kwire::api::ApiKey::ApiVersions, 3).expect("v3 decodes");
        }
        kept.decode_into(reply.clone(), kwire::api::ApiKey::ApiVersions, 4).expect("decodes through the v0 fallback");
        assert_eq!(kept, decoded);
    }
    assert_eq!(decoded.header, ResponseHeader { correlation_id: 1, ..Default::default() });
    assert_eq!(decoded.body, ResponseBody::ApiVersions(api_versions(35, 3)));
    // Another api gets no fallback: the same body bytes as a Metadata v4 response are refused.
    assert!(frame::ResponseFrame::decode(reply, kwire::api::ApiKey::Metadata, 4).is_err());
    // The fallback is for a body that does not decode at the version asked: a
    // v3-shaped body decodes at v3.
    let v3 = hex("00 00 00 01  00 00 02 00 12 00 00 00 03 00 00 00 00 00 00");
    let decoded = frame::ResponseFrame::decode(v3, kwire::api::ApiKey::ApiVersions, 3).unwrap();
    assert_eq!((decoded.version, decoded.body), (3, ResponseBody::ApiVersions(api_versions(0, 3))));
    // A body that fits neither v3 nor v0 (v0 leaves a byte over) fails with
    // the error at the version asked, not the fallback's.
    let neither = hex("00 00 00 01  00 23 00 00 00 00 ff");
    let err = frame::ResponseFrame::decode(neither, kwire::api::ApiKey::ApiVersions, 3).expect_err("fits no version");
    assert_eq!(err.message(), Some(("ApiVersionsResponse", 3)), "{err}");
    assert!(matches!(err.kind(), DecodeErrorKind::NullNotAllowed), "{err}");
}

#[test]
fn bytes_left_over_after_a_frame_body_name_the_body() {
    use kwire::frame;
    let header = header_18_3_7(Some("k"));
    let request = [header.to_bytes(2).unwrap(), ApiVersionsRequest::default().to_bytes(3).unwrap(), hex("00")].concat();
    let err = frame::RequestFrame::decode(Bytes::from(request.clone())).expect_err("a byte over");
    assert_eq!(err.kind(), &DecodeErrorKind::TrailingBytes(1), "{err}");
    assert_eq!(err.message(), Some(("ApiVersionsRequest", 3)), "{err}");
    assert_eq!(err.offset(), request.len() - 1, "{err}");
    let response = [
        ResponseHeader { correlation_id: 7, ..Default::default() }.to_bytes(0).unwrap(),
        hex("00 00 00 00 00 00 00 00"),
    ]
    .concat();
    let err = frame::ResponseFrame::decode(Bytes::from(response), kwire::api::ApiKey::SaslHandshake, 1)
        .expect_err("bytes over");
    assert_eq!(err.message(), Some(("SaslHandshakeResponse", 1)), "{err}");
    assert!(err.to_string().starts_with("SaslHandshakeResponse v1: "), "{err}");
}

/// Tags run up to 2^31 - 2, as in Kafka (checked against Kafka's classes by
/// interop/tests/oracle.rs): a response header v1 with unknown tag 2^31 - 2 reads
/// and writes back; 2^31 - 1 and 2^32 - 1 are refused on decode, and on
/// encode.
#[test]
fn tags_above_2_31_minus_2_are_refused_both_ways() {
    use kwire::tagged::MAX_TAG;
    assert_eq!(MAX_TAG, 2_147_483_646);
    let largest = Bytes::from(hex::decode("0000000101feffffff070161").unwrap());
    let header = ResponseHeader::decode_exact(largest.clone(), 1).unwrap();
    assert_eq!(header.unknown_tagged_fields, vec![RawTaggedField::new(MAX_TAG, Bytes::from_static(b"a"))]);
    assert_eq!(header.to_bytes(1).unwrap(), largest);
    for (hex, tag) in [("0000000101ffffffff070161", 2_147_483_647u32), ("0000000101ffffffff0f0161", u32::MAX)] {
        let err = ResponseHeader::decode_exact(Bytes::from(hex::decode(hex).unwrap()), 1).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::TagTooLarge(tag), "{err}");
        assert_eq!(err.offset(), 5, "{err}");
        let too_large = ResponseHeader {
            correlation_id: 1,
            unknown_tagged_fields: vec![RawTaggedField::new(tag, Bytes::from_static(b"a"))],
        };
        let err = too_large.to_bytes(1).unwrap_err();
        assert!(err.to_string().contains(&format!("tag {tag} is above the largest tag, 2147483646")), "{err}");
    }
}

/// A sized frame's errors count offsets from the start of what was given,
/// its 4-byte size included, and a size that does not match names the field.
#[test]
fn sized_frame_errors_count_from_the_size_prefix() {
    // Api key 999 (unknown) right after the size: offset 0 of the frame, 4 of the input.
    let body = [0x03, 0xe7, 0, 0, 0, 0, 0, 1];
    let plain = kwire::frame::RequestFrame::decode(Bytes::copy_from_slice(&body)).unwrap_err();
    assert_eq!((plain.kind(), plain.offset()), (&DecodeErrorKind::UnknownApiKey(999), 0));
    let mut sized = vec![0, 0, 0, 8];
    sized.extend_from_slice(&body);
    let err = kwire::frame::RequestFrame::decode_sized(Bytes::from(sized)).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (&DecodeErrorKind::UnknownApiKey(999), 4));

    // A response body cut short: ApiVersions v0 wants an error code after the correlation id.
    let sized = Bytes::from_static(&[0, 0, 0, 5, 0, 0, 0, 7, 0]);
    let err = kwire::frame::ResponseFrame::decode_sized(sized, ApiKey::ApiVersions, 0).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::NotEnoughBytes { needed: 2, remaining: 1 });
    assert_eq!(err.offset(), 8);

    let err = kwire::frame::RequestFrame::decode_sized(Bytes::from_static(&[0, 0, 0, 26, 0])).unwrap_err();
    assert_eq!(err.to_string(), "size: need 26 bytes, have 1 (offset 0)");
}

/// A float64 travels as its 8 bytes, a NaN's payload included, both ways.
/// A NaN is not equal to itself, so a round trip of such a value is judged
/// by its bytes (as the fuzz targets do), not by `==`.
#[test]
fn float64_nan_keeps_its_bits() {
    use kwire::messages::DescribeClientQuotasResponse;
    // v0: throttle 0, no error, null message, one entry: no entity, one value
    // "k" = the NaN 0x7ff80000deadbeef.
    let bytes = "00000000 0000 ffff 00000001 00000000 00000001 0001 6b 7ff80000deadbeef";
    let m = DescribeClientQuotasResponse::decode(&mut hex(bytes), 0).unwrap();
    let value = m.entries.as_ref().unwrap()[0].values[0].value;
    assert_eq!(value.to_bits(), 0x7ff8_0000_dead_beef);
    assert_ne!(m, m.clone());
    assert_eq!(spaced(&m.to_bytes(0).unwrap()), spaced(&hex(bytes)));
}
