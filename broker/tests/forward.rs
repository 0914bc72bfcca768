//! KIP-590 forwarding (`kwire_broker::forward`): wrapping real and hand-built
//! client requests into Envelope, golden bytes, the controller's unwrap and
//! its refusals, and the broker's decision on the EnvelopeResponse.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use kwire::api::{api_info, ApiKey, API_INFO};
use kwire::error::DecodeErrorKind;
use kwire::error_code::ErrorCode;
use kwire::frame;
use kwire::message::Message;
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::create_topics_response::CreatableTopicResult;
use kwire::messages::{
    alter_configs_request, alter_user_scram_credentials_request, delete_topics_request, elect_leaders_request,
    CreateTopicsRequest, CreateTopicsResponse, DefaultPrincipalData, EnvelopeRequest, EnvelopeResponse,
    MetadataRequest, RequestBody, RequestHeader, ResponseBody, ResponseHeader,
};
use kwire::primitives::Uuid;
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{
    cluster_authorization_failed, envelope_error, error_response, forwardable_apis, unwrap_request, unwrap_response,
    wrap_request, wrap_response, ForwardOutcome, ForwardedRequest, NotForwardable, ResponseError, UnwrapError,
    WrapError, WrappedRequest,
};

fn hex(text: &str) -> Bytes {
    let clean: String = text.split_whitespace().collect();
    hex::decode(clean).expect("test hex").into()
}

fn alice() -> DefaultPrincipalData {
    DefaultPrincipalData {
        r#type: "User".into(),
        name: "alice".into(),
        token_authenticated: false,
        ..Default::default()
    }
}

fn v4(a: u8, b: u8, c: u8, d: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(a, b, c, d))
}

/// Header then body, the header at the version the api key and version call for.
fn request_bytes(header: &RequestHeader, body: &RequestBody) -> Bytes {
    let mut buf = BytesMut::new();
    frame::RequestFrame::encode_parts(header, body, &mut buf).expect("encodes");
    buf.freeze()
}

fn header(api_key: i16, version: i16, correlation_id: i32) -> RequestHeader {
    RequestHeader {
        request_api_key: api_key,
        request_api_version: version,
        correlation_id,
        client_id: Some("client-1".into()),
        ..Default::default()
    }
}

/// CreateTopics v4 naming topics `a` and `b`.
fn create_topics_two() -> (RequestHeader, RequestBody) {
    let topic = |name: &str| CreatableTopic {
        name: name.into(),
        num_partitions: 1,
        replication_factor: 1,
        ..Default::default()
    };
    let body = CreateTopicsRequest { topics: vec![topic("a"), topic("b")], timeout_ms: 5000, ..Default::default() };
    (header(19, 4, 11), body.into())
}

fn wrapped_create_topics() -> WrappedRequest {
    let (h, b) = create_topics_two();
    wrap_request(request_bytes(&h, &b), &alice(), v4(10, 0, 0, 7), 500, Some("broker-1")).expect("wraps")
}

// ---------------------------------------------------------------------------
// Wrapping.
// ---------------------------------------------------------------------------

#[test]
fn wraps_a_captured_create_topics_v4_request_byte_for_byte() {
    let Some(shared) = kwire_testkit::shared_dir("forward: CreateTopics v4 capture").unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("captures/tansu/confluent-kafka-CreateTopics-v4-req.hex"))
        .expect("capture file");
    let frame_bytes = hex(text.trim());
    let request = frame_bytes.slice(4..); // strip the 4-byte size
    assert_eq!(request.len(), 60);

    let wrapped = wrap_request(request.clone(), &alice(), v4(192, 0, 2, 10), 77, Some("broker-1")).unwrap();
    assert_eq!(wrapped.envelope.request_data.as_bytes(), &request, "embedded bytes are the client's bytes");

    // The envelope header: v2, api key 58 version 0, ours, with the client's principal and client id.
    let h = &wrapped.header;
    assert_eq!((h.request_api_key, h.request_api_version, h.correlation_id), (58, 0, 77));
    assert_eq!(h.client_id.as_deref(), Some("broker-1"));
    assert_eq!(h.initial_principal_name.as_deref(), Some("alice"));
    assert_eq!(h.initial_client_id.as_deref(), Some("rdkafka"));

    // What the broker keeps: the client's header and body, decoded.
    assert_eq!(wrapped.forwarded.header.correlation_id, 3);
    let RequestBody::CreateTopics(body) = &wrapped.forwarded.body else { panic!("{:?}", wrapped.forwarded.body) };
    assert_eq!(body.topics.len(), 1);
    assert_eq!(body.topics[0].name, "t-confluent-9bde67");
    assert_eq!((body.topics[0].num_partitions, body.topics[0].replication_factor), (1, 1));
    assert_eq!(body.timeout_ms, 60_000);

    // Through the wire and back: the controller sees the same bytes and request.
    let mut buf = BytesMut::new();
    wrapped.encode(&mut buf).unwrap();
    let decoded = frame::RequestFrame::decode(buf.freeze()).unwrap();
    assert_eq!(decoded.header, wrapped.header);
    let RequestBody::Envelope(envelope) = decoded.body else { panic!("not an envelope") };
    assert_eq!(envelope.request_data.as_bytes(), &request);
    let unwrapped = unwrap_request(&envelope).unwrap();
    assert_eq!(unwrapped.header, wrapped.forwarded.header);
    assert_eq!(unwrapped.body, wrapped.forwarded.body);
    assert_eq!(unwrapped.principal, alice());
    assert_eq!(unwrapped.client_address, v4(192, 0, 2, 10));
}

/// Golden bytes of a whole Envelope request frame, derived by hand.
///
/// The client request, UnregisterBroker v0 (flexible, request header v2), 17 bytes:
///   0040 api key 64 | 0000 version 0 | 00000001 correlation id 1 |
///   0001 63 client id "c" (int16 length even in header v2) | 00 no tagged fields |
///   00000005 broker id 5 | 00 no tagged fields
///
/// The principal as Kafka's principal serde writes it, 11 bytes: the int16
/// version, then DefaultPrincipalData v0 (flexible):
///   0000 version 0 |
///   05 55736572 type "User" (compact: length + 1) | 02 61 name "a" | 00 token_authenticated false | 00 no tags
///
/// The envelope frame:
///   00000039 size 57
///   request header v2, 21 bytes:
///     003a api key 58 | 0000 version 0 | 00000064 correlation id 100 | 0002 6231 client id "b1" |
///     02 two tagged fields:
///       00 tag 0 InitialPrincipalName, 02 size 2, 02 61 compact string "a"
///       01 tag 1 InitialClientId,      02 size 2, 02 63 compact string "c" (the client's client id)
///   EnvelopeRequest v0, 36 bytes:
///     12 RequestData compact bytes, length 17 (+1), then the 17 client bytes
///     0c RequestPrincipal compact nullable bytes, length 11 (+1), then the 11 principal bytes
///     05 ClientHostAddress compact bytes, length 4 (+1), 0a000007 = 10.0.0.7
///     00 no tagged fields
const CLIENT_REQUEST: &str = "0040 0000 00000001 000163 00 00000005 00";
const GOLDEN_ENVELOPE_FRAME: &str = "00000039 \
    003a 0000 00000064 00026231 02 00 02 0261 01 02 0263 \
    12 0040000000000001000163000000000500 \
    0c 0000055573657202610000 \
    05 0a000007 \
    00";

#[test]
fn golden_envelope_request_frame() {
    let principal = DefaultPrincipalData { r#type: "User".into(), name: "a".into(), ..Default::default() };
    let wrapped = wrap_request(hex(CLIENT_REQUEST), &principal, v4(10, 0, 0, 7), 100, Some("b1")).unwrap();
    let mut buf = BytesMut::new();
    frame::size_prefix::encode(&mut buf, |b| wrapped.encode(b)).unwrap();
    assert_eq!(hex::encode(&buf), hex::encode(hex(GOLDEN_ENVELOPE_FRAME)));

    // And back.
    let decoded = frame::RequestFrame::decode_sized(hex(GOLDEN_ENVELOPE_FRAME)).unwrap();
    assert_eq!(decoded.header.initial_principal_name.as_deref(), Some("a"));
    assert_eq!(decoded.header.initial_client_id.as_deref(), Some("c"));
    let RequestBody::Envelope(envelope) = decoded.body else { panic!("not an envelope") };
    let unwrapped = unwrap_request(&envelope).unwrap();
    assert_eq!(unwrapped.principal, principal);
    assert_eq!(unwrapped.client_address, v4(10, 0, 0, 7));
    assert_eq!(unwrapped.header.client_id.as_deref(), Some("c"));
    let RequestBody::UnregisterBroker(body) = unwrapped.body else { panic!("not UnregisterBroker") };
    assert_eq!(body.broker_id, 5);
}

#[test]
fn round_trip_wrap_encode_decode_unwrap() {
    let (h, b) = create_topics_two();
    let token_principal = DefaultPrincipalData {
        r#type: "User".into(),
        name: "svc".into(),
        token_authenticated: true,
        ..Default::default()
    };
    for address in [v4(127, 0, 0, 1), IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0x42))] {
        let wrapped = wrap_request(request_bytes(&h, &b), &token_principal, address, 9, None).unwrap();
        assert_eq!(wrapped.header.client_id, None);
        assert_eq!(wrapped.header.initial_client_id.as_deref(), Some("client-1"));
        let expected_len = if address.is_ipv4() { 4 } else { 16 };
        assert_eq!(wrapped.envelope.client_host_address.len(), expected_len);

        let bytes = wrapped.envelope.to_bytes(0).unwrap();
        let envelope = EnvelopeRequest::decode_exact(bytes, 0).unwrap();
        let unwrapped = unwrap_request(&envelope).unwrap();
        assert_eq!(unwrapped.header, h);
        assert_eq!(unwrapped.body, b);
        assert_eq!(unwrapped.principal, token_principal);
        assert_eq!(unwrapped.client_address, address);
    }
}

#[test]
fn wrap_refusals() {
    let any = |bytes: Bytes| wrap_request(bytes, &alice(), v4(10, 0, 0, 1), 1, None);

    // An envelope inside an envelope.
    let inner = wrapped_create_topics();
    let mut envelope_bytes = BytesMut::new();
    inner.encode(&mut envelope_bytes).unwrap();
    assert_eq!(any(envelope_bytes.freeze()), Err(WrapError::NestedEnvelope));

    // Metadata is not forwardable; nor is an api key nobody knows.
    let metadata = request_bytes(&header(3, 12, 1), &MetadataRequest::default().into());
    assert_eq!(any(metadata), Err(WrapError::NotForwardable { api_key: 3 }));
    assert_eq!(any(hex("7fff 0000 00000001 ffff")), Err(WrapError::NotForwardable { api_key: 0x7fff }));

    // CreateTopics has no version 99. The header is read first (header v2,
    // as for every flexible version, with its tagged-field count).
    assert_eq!(
        any(hex("0013 0063 00000001 ffff 00")),
        Err(WrapError::UnsupportedVersion { api_key: ApiKey::CreateTopics, version: 99 })
    );
    assert!(matches!(any(hex("0013 0063 00000001 ffff")), Err(WrapError::Malformed(_))));

    // Truncated body; one byte too many.
    let (h, b) = create_topics_two();
    let good = request_bytes(&h, &b);
    let Err(WrapError::Malformed(e)) = any(good.slice(..good.len() - 1)) else { panic!("truncated body accepted") };
    assert!(matches!(e.kind(), DecodeErrorKind::NotEnoughBytes { .. }), "{e}");
    let mut long = good.to_vec();
    long.push(0);
    let Err(WrapError::Malformed(e)) = any(long.into()) else { panic!("trailing byte accepted") };
    assert_eq!((e.kind(), e.offset()), (&DecodeErrorKind::TrailingBytes(1), good.len()));

    // Fewer than the four bytes of api key and version.
    assert!(matches!(any(hex("0013 00")), Err(WrapError::Malformed(_))));

    // A principal name that cannot be encoded.
    let huge = DefaultPrincipalData { name: "x".repeat(40_000).into(), ..alice() };
    let result = wrap_request(good, &huge, v4(10, 0, 0, 1), 1, None);
    let Err(err @ WrapError::Principal(_)) = result else { panic!("{result:?}") };
    assert_eq!(err.error_code(), ErrorCode::UnknownServerError);
}

// ---------------------------------------------------------------------------
// Unwrapping on the controller.
// ---------------------------------------------------------------------------

/// An envelope with the given request bytes and a valid principal and address.
fn envelope_with(request: Bytes) -> EnvelopeRequest {
    let mut envelope = wrapped_create_topics().envelope;
    envelope.request_data = request.into();
    envelope
}

fn refusal(envelope: &EnvelopeRequest) -> UnwrapError {
    let err = unwrap_request(envelope).expect_err("refused");
    assert_eq!(
        err.envelope_response(),
        EnvelopeResponse { response_data: None, error_code: err.error_code().code(), ..Default::default() }
    );
    err
}

/// The codes are those Apache Kafka 4.4.0's controller answers the same
/// envelopes with (interop/tests/cluster_envelope.rs sends them to it):
/// UNSUPPORTED_VERSION for an embedded request that cannot be parsed
/// (KAFKA-12168), INVALID_REQUEST for one that may not be forwarded or a bad
/// address, PRINCIPAL_DESERIALIZATION_FAILURE for the principal.
#[test]
fn unwrap_refusals_with_their_error_codes() {
    // Envelope inside an envelope: INVALID_REQUEST.
    let inner = wrapped_create_topics();
    let mut inner_bytes = BytesMut::new();
    inner.encode(&mut inner_bytes).unwrap();
    let err = refusal(&envelope_with(inner_bytes.freeze()));
    assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::NestedEnvelope, 42));

    // Not forwardable: INVALID_REQUEST, also at a version Metadata lacks
    // (Kafka checks forwardability before the version).
    let metadata = request_bytes(&header(3, 12, 1), &MetadataRequest::default().into());
    let err = refusal(&envelope_with(metadata.clone()));
    assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::NotForwardable { api_key: ApiKey::Metadata }, 42));
    let err = refusal(&envelope_with(hex("0003 0063 00000001 0001 63 00")));
    assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::NotForwardable { api_key: ApiKey::Metadata }, 42));
    // ... but its header is read first: cut inside it, UNSUPPORTED_VERSION.
    let err = refusal(&envelope_with(metadata.slice(..9)));
    assert!(matches!(err, UnwrapError::MalformedHeader(_)), "{err:?}");
    assert_eq!(err.error_code(), ErrorCode::UnsupportedVersion);

    // A version CreateTopics does not have: UNSUPPORTED_VERSION.
    let err = refusal(&envelope_with(hex("0013 0008 00000001 ffff 00")));
    assert_eq!(
        (err.clone(), err.error_code().code()),
        (UnwrapError::UnsupportedVersion { api_key: ApiKey::CreateTopics, version: 8 }, 35)
    );

    // An api key that does not exist: its header cannot be read. UNSUPPORTED_VERSION.
    let err = refusal(&envelope_with(hex("03e7 0000 00000007 0001 63 00")));
    assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::UnknownApiKey { api_key: 999 }, 35));

    // Nothing, or not even an api key and version: UNSUPPORTED_VERSION.
    for data in ["", "0013"] {
        let err = refusal(&envelope_with(hex(data)));
        assert!(matches!(err, UnwrapError::MalformedHeader(_)), "{data}: {err:?}");
        assert_eq!(err.error_code(), ErrorCode::UnsupportedVersion, "{data}");
    }

    // AlterClientQuotas v1 cut inside the correlation id (the smallest
    // header interop/tests/cluster_envelope.rs sends Kafka's controller), and a
    // header cut inside its client id: UNSUPPORTED_VERSION, as Kafka
    // answers (KAFKA-12168).
    for data in ["0031 0001 00", "0013 0004 00000001 0005 6162"] {
        let err = refusal(&envelope_with(hex(data)));
        let UnwrapError::MalformedHeader(e) = &err else { panic!("{data}: {err:?}") };
        assert!(matches!(e.kind(), DecodeErrorKind::NotEnoughBytes { .. }), "{data}: {e}");
        assert_eq!(err.error_code().code(), 35, "{data}");
    }

    // A body cut short: UNSUPPORTED_VERSION.
    let (h, b) = create_topics_two();
    let good = request_bytes(&h, &b);
    let err = refusal(&envelope_with(good.slice(..good.len() - 2)));
    assert!(matches!(err, UnwrapError::MalformedBody(_)), "{err:?}");
    assert_eq!(err.error_code().code(), 35);

    // Bytes after the body: ignored and counted, as Kafka's controller ignores them.
    let mut long = good.to_vec();
    long.extend_from_slice(&[1, 2, 3]);
    let unwrapped = unwrap_request(&envelope_with(long.into())).expect("trailing bytes are ignored");
    assert_eq!((unwrapped.body, unwrapped.trailing_bytes), (b.clone(), 3));

    // No principal, or one that does not decode: PRINCIPAL_DESERIALIZATION_FAILURE.
    let mut envelope = wrapped_create_topics().envelope;
    envelope.request_principal = None;
    let err = refusal(&envelope);
    assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::MissingPrincipal, 97));
    // The version prefix missing (the bare DefaultPrincipalData), cut, or a
    // version that does not exist (Kafka's serde writes version 0 first).
    for bad in ["", "00", "05 55736572 02 61 00 00", "0001 05 55736572 02 61 00 00", "0000 05 5573"] {
        envelope.request_principal = Some(hex(bad));
        let err = refusal(&envelope);
        assert!(matches!(err, UnwrapError::MalformedPrincipal(_)), "{bad}: {err:?}");
        assert_eq!(err.error_code(), ErrorCode::PrincipalDeserializationFailure, "{bad}");
    }

    // A type that is not UTF-8 is read lossily, as Kafka's principal serde
    // reads every string (Readable.readString).
    envelope.request_principal = Some(hex("0000 05 ffffffff 02 61 00 00"));
    let unwrapped = unwrap_request(&envelope).expect("a principal type that is not UTF-8 is read");
    assert_eq!((&*unwrapped.principal.r#type, &*unwrapped.principal.name), ("\u{fffd}".repeat(4).as_str(), "a"));

    // Bytes after the principal are ignored, as Kafka's controller ignores them.
    envelope.request_principal = Some(hex("0000 05 55736572 02 61 00 00 ff"));
    let unwrapped = unwrap_request(&envelope).expect("a byte after the principal is ignored");
    assert_eq!((&*unwrapped.principal.r#type, &*unwrapped.principal.name), ("User", "a"));

    // An address that is neither 4 nor 16 bytes: INVALID_REQUEST.
    for len in [0, 3, 5, 15, 17] {
        let mut envelope = wrapped_create_topics().envelope;
        envelope.client_host_address = vec![1; len].into();
        let err = refusal(&envelope);
        assert_eq!((err.clone(), err.error_code().code()), (UnwrapError::BadClientAddress { len }, 42));
    }
}

/// With several faults, the first in Kafka's order wins: principal, then
/// client address, then the embedded request.
#[test]
fn unwrap_checks_in_kafkas_order() {
    let bad_header = hex("0031 0001 00");
    let mut envelope = envelope_with(bad_header.clone());
    envelope.client_host_address = vec![127, 0, 0].into();
    assert_eq!(refusal(&envelope), UnwrapError::BadClientAddress { len: 3 });
    envelope.request_principal = None;
    assert_eq!(refusal(&envelope), UnwrapError::MissingPrincipal);

    let metadata = request_bytes(&header(3, 12, 1), &MetadataRequest::default().into());
    let mut envelope = envelope_with(metadata);
    envelope.request_principal = None;
    assert_eq!(refusal(&envelope).error_code().code(), 97);
}

#[test]
fn cluster_action_failure_answer() {
    let response = cluster_authorization_failed();
    assert_eq!(response.error_code, 31);
    assert_eq!(response.response_data, None);
    // EnvelopeResponse v0: null compact bytes (0), error 31 (001f), no tags.
    assert_eq!(&response.to_bytes(0).unwrap()[..], [0x00, 0x00, 0x1f, 0x00]);
}

// ---------------------------------------------------------------------------
// The answer, on the controller and back on the broker.
// ---------------------------------------------------------------------------

#[test]
fn a_successful_answer_reaches_the_client() {
    let wrapped = wrapped_create_topics();
    let body: ResponseBody = CreateTopicsResponse {
        throttle_time_ms: 0,
        topics: vec![
            CreatableTopicResult { name: "a".into(), error_code: 0, error_message: None, ..Default::default() },
            CreatableTopicResult { name: "b".into(), error_code: 36, error_message: None, ..Default::default() },
        ],
        ..Default::default()
    }
    .into();
    let header = ResponseHeader { correlation_id: 11, ..Default::default() };
    let envelope = wrap_response(&header, &body, 4).unwrap();
    assert_eq!(envelope.error_code, 0);
    // CreateTopics v4 uses response header v0: the data starts with the bare correlation id.
    assert_eq!(&envelope.response_data.as_ref().unwrap().as_bytes()[..4], [0, 0, 0, 11]);

    let envelope = EnvelopeResponse::decode_exact(envelope.to_bytes(0).unwrap(), 0).unwrap();
    assert_eq!(unwrap_response(&envelope, &wrapped.forwarded), Ok(ForwardOutcome::Response(header, body)));
}

#[test]
fn a_captured_create_topics_response_unwraps() {
    let Some(shared) =
        kwire_testkit::shared_dir("forward: CreateTopics v4 response capture").unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("captures/tansu/confluent-kafka-CreateTopics-v4-resp.hex"))
        .expect("capture file");
    let response = hex(text.trim()).slice(4..);
    let forwarded = ForwardedRequest {
        header: header(19, 4, 3),
        body: CreateTopicsRequest {
            topics: vec![CreatableTopic { name: "t-confluent-9bde67".into(), ..Default::default() }],
            ..Default::default()
        }
        .into(),
    };
    let envelope = EnvelopeResponse { response_data: Some(response.into()), error_code: 0, ..Default::default() };
    let Ok(ForwardOutcome::Response(h, ResponseBody::CreateTopics(body))) = unwrap_response(&envelope, &forwarded)
    else {
        panic!("not a CreateTopics response")
    };
    assert_eq!(h.correlation_id, 3);
    assert_eq!(body.topics.len(), 1);
    assert_eq!((&*body.topics[0].name, body.topics[0].error_code), ("t-confluent-9bde67", 0));
    assert_eq!(body.topics[0].error_message, None);
}

/// What the client is told when the controller's envelope succeeds but its
/// response data is no answer to the forwarded CreateTopics v4 (topics `a`
/// and `b`): the client's answer in bytes, and the reason.
fn unreadable(envelope: &EnvelopeResponse) -> (Bytes, ResponseError) {
    let wrapped = wrapped_create_topics();
    let outcome = unwrap_response(envelope, &wrapped.forwarded);
    let Ok(ForwardOutcome::UnreadableResponse { error_response, reason }) = outcome else {
        panic!("not an unreadable response: {outcome:?}")
    };
    let mut answer = BytesMut::new();
    error_response.encode(&mut answer, 4).unwrap();
    (answer.freeze(), reason)
}

/// CreateTopics v4 response, throttle 0, topics `a` and `b` each with
/// UNKNOWN_SERVER_ERROR (ffff) and a null message (ffff): what Kafka's
/// forwarding broker answers when it cannot read the controller's answer.
const UNKNOWN_SERVER_ERROR_FOR_A_AND_B: &str = "00000000 00000002 0001 61 ffff ffff 0001 62 ffff ffff";

/// Kafka's forwarding broker answers the client with UNKNOWN_SERVER_ERROR
/// when the embedded response answers another correlation id (its
/// `AbstractResponse.parseResponse` throws, and the forwarding broker
/// catches every exception there).
#[test]
fn correlation_id_mismatch_answers_unknown_server_error() {
    let header = ResponseHeader { correlation_id: 12, ..Default::default() };
    let envelope = wrap_response(&header, &CreateTopicsResponse::default().into(), 4).unwrap();
    let (answer, reason) = unreadable(&envelope);
    assert_eq!(answer, hex(UNKNOWN_SERVER_ERROR_FOR_A_AND_B));
    assert_eq!(reason, ResponseError::CorrelationIdMismatch { expected: 11, found: 12 });
    assert_eq!(reason.to_string(), "the embedded response answers correlation id 12, not the forwarded 11");
}

/// Error 0 with null or malformed response data: UNKNOWN_SERVER_ERROR for
/// the client, as Kafka's forwarding broker answers.
#[test]
fn missing_or_malformed_response_data_answers_unknown_server_error() {
    let empty = EnvelopeResponse { response_data: None, error_code: 0, ..Default::default() };
    assert_eq!(unreadable(&empty), (hex(UNKNOWN_SERVER_ERROR_FOR_A_AND_B), ResponseError::MissingResponseData));

    // Correlation id 11, throttle 0, then a topic count of 1 and nothing more.
    let short = EnvelopeResponse {
        response_data: Some(hex("0000000b 00000000 00000001").into()),
        error_code: 0,
        ..Default::default()
    };
    let (answer, reason) = unreadable(&short);
    assert_eq!(answer, hex(UNKNOWN_SERVER_ERROR_FOR_A_AND_B));
    let ResponseError::Malformed(e) = &reason else { panic!("{reason:?}") };
    assert_eq!(e.offset(), 12, "{e}");
    // Three bytes: not even a response header.
    let cut = EnvelopeResponse { response_data: Some(hex("ffffff").into()), error_code: 0, ..Default::default() };
    assert!(
        matches!(unreadable(&cut), (answer, ResponseError::Malformed(_)) if answer == hex(UNKNOWN_SERVER_ERROR_FOR_A_AND_B))
    );
}

/// Bytes after the embedded response's body are left unread, as Kafka's
/// forwarding broker leaves them: the response reaches the client.
#[test]
fn bytes_after_the_embedded_response_are_left_unread() {
    let wrapped = wrapped_create_topics();
    // Correlation id 11, throttle 0, topic `a` with error 0 and a null message, then 2 more bytes.
    let data = hex("0000000b 00000000 00000001 0001 61 0000 ffff abcd");
    let envelope = EnvelopeResponse { response_data: Some(data.into()), error_code: 0, ..Default::default() };
    let Ok(ForwardOutcome::Response(header, ResponseBody::CreateTopics(body))) =
        unwrap_response(&envelope, &wrapped.forwarded)
    else {
        panic!("not a response")
    };
    assert_eq!(header.correlation_id, 11);
    let topics: Vec<_> = body.topics.iter().map(|t| (&*t.name, t.error_code, t.error_message.clone())).collect();
    assert_eq!(topics, [("a", 0, None)]);
}

#[test]
fn not_controller_means_retry_on_the_new_controller() {
    let wrapped = wrapped_create_topics();
    let envelope = envelope_error(ErrorCode::NotController);
    assert_eq!(envelope.error_code, 41);
    assert_eq!(unwrap_response(&envelope, &wrapped.forwarded), Ok(ForwardOutcome::RetryOnNewController));
}

fn client_error_topics(envelope: &EnvelopeResponse) -> Vec<(String, i16)> {
    let wrapped = wrapped_create_topics();
    let Ok(ForwardOutcome::ErrorToClient(ResponseBody::CreateTopics(body))) =
        unwrap_response(envelope, &wrapped.forwarded)
    else {
        panic!("not an error for the client")
    };
    // The body is a valid CreateTopics v4 response.
    let bytes = body.to_bytes(4).unwrap();
    assert_eq!(CreateTopicsResponse::decode_exact(bytes, 4).unwrap(), body);
    body.topics.iter().map(|t| (t.name.to_string(), t.error_code)).collect()
}

#[test]
fn cluster_authorization_failure_reaches_the_client_as_unknown_server_error() {
    assert_eq!(client_error_topics(&cluster_authorization_failed()), [("a".to_string(), -1), ("b".to_string(), -1)]);
}

/// Kafka's forwarding broker never passes an envelope's error to the
/// client: every non-zero code but NOT_CONTROLLER (retried) and
/// UNSUPPORTED_VERSION (connection closed) becomes UNKNOWN_SERVER_ERROR on
/// the client's own response type.
#[test]
fn other_envelope_errors_reach_the_client_as_unknown_server_error() {
    let unknown = [("a".to_string(), -1), ("b".to_string(), -1)];
    for code in [
        ErrorCode::PrincipalDeserializationFailure, // 97
        ErrorCode::InvalidRequest,                  // 42
        ErrorCode::UnknownServerError,
        ErrorCode::PolicyViolation,
    ] {
        assert_eq!(client_error_topics(&envelope_error(code)), unknown, "{code:?}");
    }
    for code in [97, 42, 1, i16::MAX, i16::MIN] {
        let envelope = EnvelopeResponse { error_code: code, ..Default::default() };
        assert_eq!(client_error_topics(&envelope), unknown, "error code {code}");
    }
    // Even with response data present, a non-zero envelope error wins.
    let mut envelope = wrap_response(&ResponseHeader::default(), &CreateTopicsResponse::default().into(), 4).unwrap();
    envelope.error_code = ErrorCode::InvalidRequest.code();
    assert_eq!(client_error_topics(&envelope), unknown);
}

/// UNSUPPORTED_VERSION: no answer, the client's connection is closed so that
/// it negotiates api versions again.
#[test]
fn unsupported_version_closes_the_client_connection() {
    let wrapped = wrapped_create_topics();
    let envelope = envelope_error(ErrorCode::UnsupportedVersion);
    assert_eq!(envelope.error_code, 35);
    assert_eq!(unwrap_response(&envelope, &wrapped.forwarded), Ok(ForwardOutcome::CloseConnection));
    // With response data too.
    let mut envelope = wrap_response(&ResponseHeader::default(), &CreateTopicsResponse::default().into(), 4).unwrap();
    envelope.error_code = 35;
    assert_eq!(unwrap_response(&envelope, &wrapped.forwarded), Ok(ForwardOutcome::CloseConnection));
}

// ---------------------------------------------------------------------------
// Error responses per api.
// ---------------------------------------------------------------------------

#[test]
fn error_responses_name_every_item() {
    // DeleteTopics: by name before v6, by name or id from v6.
    let by_name =
        delete_topics_request::DeleteTopicsRequest { topic_names: vec!["x".into(), "y".into()], ..Default::default() };
    let ResponseBody::DeleteTopics(r) = error_response(&by_name.into(), 5, ErrorCode::NotController).unwrap() else {
        panic!()
    };
    let got: Vec<_> = r.responses.iter().map(|t| (t.name.as_deref().map(str::to_owned), t.error_code)).collect();
    assert_eq!(got, [(Some("x".to_string()), 41), (Some("y".to_string()), 41)]);
    let id = Uuid([7; 16]);
    let by_id = delete_topics_request::DeleteTopicsRequest {
        topics: vec![delete_topics_request::DeleteTopicState { name: None, topic_id: id, ..Default::default() }],
        ..Default::default()
    };
    let ResponseBody::DeleteTopics(r) = error_response(&by_id.into(), 6, ErrorCode::InvalidRequest).unwrap() else {
        panic!()
    };
    assert_eq!((r.responses[0].name.clone(), r.responses[0].topic_id, r.responses[0].error_code), (None, id, 42));
    r.to_bytes(6).unwrap();

    // AlterConfigs: one result per resource, with its type and name.
    let request = alter_configs_request::AlterConfigsRequest {
        resources: vec![
            alter_configs_request::AlterConfigsResource {
                resource_type: 2,
                resource_name: "t".into(),
                ..Default::default()
            },
            alter_configs_request::AlterConfigsResource {
                resource_type: 4,
                resource_name: "1".into(),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let ResponseBody::AlterConfigs(r) = error_response(&request.into(), 1, ErrorCode::InvalidRequest).unwrap() else {
        panic!()
    };
    let got: Vec<_> = r.responses.iter().map(|x| (x.resource_type, &*x.resource_name, x.error_code)).collect();
    assert_eq!(got, [(2, "t", 42), (4, "1", 42)]);

    // ElectLeaders: per partition; the top-level code only from v1.
    let request: RequestBody = elect_leaders_request::ElectLeadersRequest {
        topic_partitions: Some(vec![elect_leaders_request::TopicPartitions {
            topic: "t".into(),
            partitions: vec![0, 2],
            ..Default::default()
        }]),
        ..Default::default()
    }
    .into();
    for (version, top) in [(0, 0), (1, 42), (2, 42)] {
        let ResponseBody::ElectLeaders(r) = error_response(&request, version, ErrorCode::InvalidRequest).unwrap()
        else {
            panic!()
        };
        assert_eq!(r.error_code, top, "v{version}");
        let parts: Vec<_> =
            r.replica_election_results[0].partition_result.iter().map(|p| (p.partition_id, p.error_code)).collect();
        assert_eq!(parts, [(0, 42), (2, 42)]);
        r.to_bytes(version).unwrap();
    }

    // AlterUserScramCredentials: one result per distinct user.
    use alter_user_scram_credentials_request::{
        AlterUserScramCredentialsRequest, ScramCredentialDeletion, ScramCredentialUpsertion,
    };
    let request = AlterUserScramCredentialsRequest {
        deletions: vec![ScramCredentialDeletion { name: "u1".into(), mechanism: 1, ..Default::default() }],
        upsertions: vec![
            ScramCredentialUpsertion { name: "u2".into(), mechanism: 1, ..Default::default() },
            ScramCredentialUpsertion { name: "u1".into(), mechanism: 2, ..Default::default() },
        ],
        ..Default::default()
    };
    let ResponseBody::AlterUserScramCredentials(r) =
        error_response(&request.into(), 0, ErrorCode::UnknownServerError).unwrap()
    else {
        panic!()
    };
    let got: Vec<_> = r.results.iter().map(|x| (&*x.user, x.error_code)).collect();
    assert_eq!(got, [("u1", -1), ("u2", -1)]);

    // Not forwardable.
    assert_eq!(
        error_response(&MetadataRequest::default().into(), 12, ErrorCode::InvalidRequest),
        Err(NotForwardable { api_key: ApiKey::Metadata })
    );
}

/// Every forwardable api has an error response, at every version, for
/// random requests: it is the api's response, encodes at that version, and
/// carries the code.

#[test]
fn every_forwardable_api_has_an_error_response_at_every_version() {
    use kwire::sample::SampleGen;
    let mut g = SampleGen::new(590);
    let mut checked = 0;
    for info in forwardable_apis() {
        for version in info.valid_versions.min..=info.valid_versions.max {
            for _ in 0..20 {
                let request = RequestBody::sample(info.api_key, &mut g, version).expect("sample");
                let body = error_response(&request, version, ErrorCode::InvalidRequest)
                    .unwrap_or_else(|e| panic!("{} v{version}: {e}", info.name));
                assert_eq!(body.api_key(), info.api_key, "{}", info.name);
                let mut buf = BytesMut::new();
                body.encode(&mut buf, version).unwrap_or_else(|e| panic!("{} v{version}: {e}", info.name));
                let mut r = kwire::primitives::Reader::new(buf.freeze());
                let back = ResponseBody::decode_from(info.api_key, &mut r, version).unwrap();
                r.finish().unwrap();
                // Every error code in the response is the one given, except ElectLeaders v0's
                // top-level code, which that version does not have.
                let debug = format!("{back:?}");
                for (i, _) in debug.match_indices(" error_code: ") {
                    let value: String =
                        debug[i + 13..].chars().take_while(|c| *c == '-' || c.is_ascii_digit()).collect();
                    let top_level_v0 = info.api_key == ApiKey::ElectLeaders && version == 0 && value == "0";
                    assert!(value == "42" || top_level_v0, "{} v{version}: {debug}", info.name);
                    checked += usize::from(value == "42");
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} error codes seen");
}

// ---------------------------------------------------------------------------
// The api-key table.
// ---------------------------------------------------------------------------

#[test]
fn forwardable_apis_are_spec_8_2s_21() {
    // Spec §8.2, "Forwardable APIs (21)".
    let spec: [(i16, &str); 22] = [
        (19, "CreateTopics"),
        (20, "DeleteTopics"),
        (30, "CreateAcls"),
        (31, "DeleteAcls"),
        (33, "AlterConfigs"),
        (37, "CreatePartitions"),
        (38, "CreateDelegationToken"),
        (39, "RenewDelegationToken"),
        (40, "ExpireDelegationToken"),
        (43, "ElectLeaders"),
        (44, "IncrementalAlterConfigs"),
        (45, "AlterPartitionReassignments"),
        (46, "ListPartitionReassignments"),
        (49, "AlterClientQuotas"),
        (51, "AlterUserScramCredentials"),
        (55, "DescribeQuorum"),
        (57, "UpdateFeatures"),
        (64, "UnregisterBroker"),
        (67, "AllocateProducerIds"),
        (80, "AddRaftVoter"),
        (81, "RemoveRaftVoter"),
        (94, "UnregisterController"),
    ];
    let ours: Vec<(i16, &str)> = forwardable_apis().map(|info| (info.api_key.code(), info.name)).collect();
    assert_eq!(ours, spec);
    assert!(!api_info(58).unwrap().forwardable);
}

#[test]
fn cluster_action_and_delayed_allocation_are_spec_8_2s() {
    let cluster_action: Vec<i16> = API_INFO.iter().filter(|i| i.cluster_action).map(|i| i.api_key.code()).collect();
    assert_eq!(cluster_action, [4, 5, 6, 7, 27, 52, 53, 54, 55, 56, 57, 58, 62, 63, 67, 83, 84, 85, 86, 87]);
    let delayed_not_forwardable: Vec<i16> =
        API_INFO.iter().filter(|i| i.requires_delayed_allocation && !i.forwardable).map(|i| i.api_key.code()).collect();
    assert_eq!(delayed_not_forwardable, [0, 11, 14, 36, 58, 72]);
    assert!(API_INFO.iter().filter(|i| i.forwardable).all(|i| i.requires_delayed_allocation));
    // Kafka 4.4's ApiKeys adds 88-94, none of them a cluster action.
    assert_eq!(API_INFO.len(), 95, "api keys 0-94 (spec §8.2 lists 0-87; Kafka 4.4 adds 88-94)");
}

/// A wrapped request whose envelope cannot be encoded (an unknown tagged
/// field that repeats a tag) leaves the buffer as it was: the envelope
/// header written before it is taken back.
#[test]
fn a_failed_envelope_encode_leaves_the_buffer_as_it_was() {
    use kwire::tagged::RawTaggedField;
    let mut wrapped = wrapped_create_topics();
    let mut buf = kwire::BytesMut::from(&b"queued"[..]);
    wrapped.encode(&mut buf).expect("encodes");
    assert!(buf.len() > 6);
    let mut buf = kwire::BytesMut::from(&b"queued"[..]);
    wrapped.envelope.unknown_tagged_fields = vec![
        RawTaggedField::new(5, kwire::Bytes::from_static(&[1])),
        RawTaggedField::new(5, kwire::Bytes::from_static(&[2])),
    ];
    let err = wrapped.encode(&mut buf).expect_err("a tag twice");
    assert!(err.to_string().contains("EnvelopeRequest"), "{err}");
    assert_eq!(&buf[..], b"queued");
}
