//! The client-side helpers against real frames: version negotiation
//! (`api::negotiate`) on brokers' ApiVersions responses from the shared
//! captures, `TryFrom<ResponseBody>` and `TryFrom<RequestBody>`, and (with
//! the `tokio` feature) the `codec::Correlator` over pipelined captured
//! requests and responses, acks=0 Produce and unknown correlation ids.

mod common;

use common::captures::{captures, Capture};

use kwire::api::{api_info, negotiate, ApiKey, ApiVersionsRefused, Negotiated};
use kwire::error::UnexpectedBody;
use kwire::frame;
use kwire::message::VersionRange;
use kwire::messages::api_versions_response::ApiVersion;
use kwire::messages::{
    ApiVersionsResponse, FetchRequest, MetadataRequest, MetadataResponse, ProduceResponse, RequestBody, ResponseBody,
};

/// The ApiVersions response body of the capture `file`, decoded at `version`.
fn api_versions(captures: &[Capture], file: &str, version: i16) -> ApiVersionsResponse {
    let c = captures.iter().find(|c| c.file == file).unwrap_or_else(|| panic!("capture {file}"));
    let f =
        frame::ResponseFrame::decode_sized(c.bytes.clone(), kwire::api::ApiKey::ApiVersions, version).expect("decodes");
    ApiVersionsResponse::try_from(f.body).expect("an ApiVersions body")
}

#[test]
fn negotiates_with_tansu() {
    let Some(captures) = captures() else { return };
    let response = api_versions(&captures, "tansu/kcat-ApiVersions-v3-resp.hex", 3);
    assert_eq!((response.error_code, response.api_keys.len()), (0, 36));
    let negotiated = negotiate(&response).unwrap();
    // Core api keys, always compiled: the lower of tansu's and ours.
    assert_eq!(negotiated.version(ApiKey::Produce), Some(11)); // tansu 0-11, ours 0-13
    assert_eq!(negotiated.range(ApiKey::Produce), Some(VersionRange::new(0, 11)));
    assert_eq!(negotiated.version(ApiKey::Fetch), Some(17)); // tansu 0-17, ours 0-18
    assert_eq!(negotiated.version(ApiKey::Metadata), Some(12)); // tansu 0-12, ours 0-13
    assert_eq!(negotiated.version(ApiKey::ApiVersions), Some(4)); // tansu 0-4, ours 0-5
    assert_eq!(negotiated.version(ApiKey::InitProducerId), Some(5)); // tansu 0-5
    assert_eq!(negotiated.version(ApiKey::GetTelemetrySubscriptions), Some(0));
    assert_eq!(negotiated.version(ApiKey::ConsumerGroupHeartbeat), None); // tansu does not list it
                                                                          // Admin api keys only with the `admin` feature.
    assert_eq!(negotiated.version(ApiKey::CreateTopics), cfg!(feature = "admin").then_some(7)); // 0-7 both
    assert_eq!(negotiated.version(ApiKey::DescribeCluster), cfg!(feature = "admin").then_some(1)); // tansu 0-1
                                                                                                   // Every api key tansu lists that this build compiles, and no other.
    let listed: Vec<i16> = response.api_keys.iter().map(|k| k.api_key).collect();
    for info in kwire::api::API_INFO {
        let expected = info.compiled && listed.contains(&info.api_key.code());
        assert_eq!(negotiated.version(info.api_key).is_some(), expected, "{}", info.name);
    }
}

#[test]
fn negotiates_after_unsupported_version() {
    let Some(captures) = captures() else { return };
    // noida answers kafka-python's ApiVersions v4 with a v0 body: error 35
    // and its ApiVersions range 0-3 alone (KIP-511).
    let response = api_versions(&captures, "noida/kafka-python-ApiVersions-v4-resp-err35.hex", 4);
    assert_eq!(response.error_code, 35);
    let refused = negotiate(&response).unwrap_err();
    assert_eq!(refused, ApiVersionsRefused { error_code: 35, retry_version: Some(3) }, "ask again at v3");
}

#[test]
fn a_refused_api_versions_is_an_error() {
    // Kafka's answer to ApiVersions v3+ without a valid client software
    // name: INVALID_REQUEST, no api keys. Listed api keys do not make it
    // a success either.
    let listed = ApiVersion { api_key: 19, min_version: 0, max_version: 7, ..Default::default() };
    for api_keys in [vec![], vec![listed]] {
        let response = ApiVersionsResponse { error_code: 42, api_keys, ..Default::default() };
        let refused = negotiate(&response).unwrap_err();
        assert_eq!(refused, ApiVersionsRefused { error_code: 42, retry_version: None });
        assert!(refused.to_string().contains("INVALID_REQUEST (42)"), "{refused}");
    }
    // UNSUPPORTED_VERSION without a common ApiVersions version.
    let response = ApiVersionsResponse { error_code: 35, ..Default::default() };
    assert_eq!(negotiate(&response), Err(ApiVersionsRefused { error_code: 35, retry_version: None }));
}

#[test]
fn negotiation_edges() {
    let listed =
        |api_key, min_version, max_version| ApiVersion { api_key, min_version, max_version, ..Default::default() };
    let response = ApiVersionsResponse {
        api_keys: vec![
            listed(0, 14, 20), // Produce: only newer than ours (0-13)
            listed(3, 5, 3),   // Metadata: an empty range
            listed(1, 4, 4),   // Fetch: one version
            listed(1, 0, 18),  // listed twice: the first counts
            listed(22, 0, 6),  // InitProducerId: ours is 0-6 with v6 unstable
            listed(-1, 0, 3),  // unknown api keys
            listed(i16::MAX, 0, 3),
        ],
        ..Default::default()
    };
    let negotiated = negotiate(&response).unwrap();
    assert_eq!(negotiated.version(ApiKey::Produce), None);
    assert_eq!(negotiated.version(ApiKey::Metadata), None);
    assert_eq!(negotiated.range(ApiKey::Fetch), Some(VersionRange::new(4, 4)));
    assert!(api_info(22).unwrap().latest_version_unstable);
    assert_eq!(negotiated.version(ApiKey::InitProducerId), Some(5), "the unstable v6 is not used");
    // The unknown api keys are left out: every negotiated one is in the table.
    let negotiated_keys: Vec<ApiKey> =
        ApiKey::ALL.iter().copied().filter(|k| negotiated.version(*k).is_some()).collect();
    assert_eq!(negotiated_keys, [ApiKey::Fetch, ApiKey::InitProducerId]);
    assert_eq!(negotiate(&ApiVersionsResponse::default()), Ok(Negotiated::default()));
}

#[test]
fn try_from_gives_back_the_body() {
    let metadata = MetadataResponse { controller_id: 3, ..Default::default() };
    let body = ResponseBody::from(metadata.clone());
    assert_eq!(MetadataResponse::try_from(body.clone()), Ok(metadata));
    let err = ProduceResponse::try_from(body.clone()).unwrap_err();
    assert_eq!(err, UnexpectedBody { expected: 0, found: 3, body: body.clone() });
    assert_eq!(err.to_string(), "expected a body of api key 0, got one of api key 3");
    // The error boxes into std's error type with the body inside.
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err);
    let back = boxed.downcast::<UnexpectedBody<ResponseBody>>().expect("UnexpectedBody");
    assert_eq!(back.body, body);

    let request = RequestBody::from(FetchRequest { max_wait_ms: 500, ..Default::default() });
    let err = MetadataRequest::try_from(request.clone()).unwrap_err();
    assert_eq!((err.expected, err.found, err.body), (3, 1, request.clone()));
    assert_eq!(FetchRequest::try_from(request).map(|f| f.max_wait_ms), Ok(500));
}

#[cfg(feature = "tokio")]
mod correlator {
    use kwire::codec::{CodecError, Correlated, Correlator};
    use kwire::frame;
    use kwire::message::Message;
    use kwire::messages::{MetadataRequest, ProduceRequest, RequestBody, RequestHeader};
    use kwire::{Bytes, BytesMut};

    use super::captures;

    /// A request frame without its size prefix.
    fn request(header: &RequestHeader, body: impl Into<RequestBody>) -> Bytes {
        let mut buf = BytesMut::new();
        frame::RequestFrame::encode_parts(header, &body.into(), &mut buf).expect("encodes");
        buf.freeze()
    }

    fn header(api_key: i16, api_version: i16, correlation_id: i32) -> RequestHeader {
        RequestHeader {
            request_api_key: api_key,
            request_api_version: api_version,
            correlation_id,
            client_id: Some("a-client".into()),
            ..Default::default()
        }
    }

    /// Every captured request and its response, requests all sent first
    /// (pipelined), then the responses in order: each is paired with its
    /// request's api key and version, and decodes at them.
    #[test]
    fn pairs_pipelined_captured_frames() {
        let Some(captures) = captures() else { return };
        let pairs: Vec<_> = captures
            .windows(2)
            .filter(|w| {
                let (q, a) = (&w[0], &w[1]);
                q.request
                    && !a.request
                    && (q.client.as_str(), q.peer.as_str(), q.api_key, q.correlation_id)
                        == (a.client.as_str(), a.peer.as_str(), a.api_key, a.correlation_id)
            })
            .map(|w| (&w[0], &w[1]))
            .collect();
        assert_eq!(pairs.len(), 55, "request-response pairs in captures/index.tsv");
        let mut correlator = Correlator::new();
        for (q, _) in &pairs {
            assert_eq!(correlator.track_request(&q.bytes[4..]).map_err(|e| e.to_string()), Ok(true), "{}", q.file);
        }
        assert_eq!(correlator.in_flight(), pairs.len());
        for (q, a) in &pairs {
            let answered = correlator.match_response(&a.bytes[4..]).unwrap_or_else(|e| panic!("{}: {e}", a.file));
            let expected =
                Correlated { correlation_id: q.correlation_id, api_key: q.api_key, api_version: q.api_version };
            assert_eq!(answered, expected, "{}", a.file);
            frame::ResponseFrame::decode(
                a.bytes.slice(4..),
                kwire::api::ApiKey::try_from(answered.api_key).expect("a known api key"),
                answered.api_version,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", a.file));
        }
        assert_eq!(correlator.in_flight(), 0);
    }

    /// The captured Produce requests (v7, v9, v10 from four clients) expect
    /// a response; the same requests with acks 0 expect none.
    #[test]
    fn acks_zero_produce_from_captured_requests() {
        let Some(captures) = captures() else { return };
        let mut seen = 0;
        for c in captures.iter().filter(|c| c.request && c.api_key == 0) {
            let f = frame::RequestFrame::decode_sized(c.bytes.clone()).expect("decodes");
            let RequestBody::Produce(mut produce) = f.body else { panic!("{}: a Produce body", c.file) };
            assert_ne!(produce.acks, 0, "{}", c.file);
            // The generated peeks read the same acks from the frame's bytes.
            let frame = &c.bytes[4..];
            let header_version = kwire::api::ApiKey::Produce.info().request_header_version(c.api_version);
            let body = kwire::messages::RequestHeader::peek_len(frame, header_version).expect("a header");
            assert_eq!(ProduceRequest::peek_acks(&frame[body..], c.api_version).ok(), Some(produce.acks), "{}", c.file);
            let mut correlator = Correlator::new();
            assert!(correlator.track_request(&c.bytes[4..]).expect("reads"), "{}", c.file);
            produce.acks = 0;
            assert!(!correlator.track_request(&request(&f.header, produce)).expect("reads"), "{}", c.file);
            assert_eq!(correlator.in_flight(), 1, "{}", c.file);
            seen += 1;
        }
        assert!(seen >= 8, "{seen} captured Produce requests");
    }

    /// acks 0 at every Produce version, with a transactional id, a long
    /// client id and (flexible versions) header tagged fields before it.
    #[test]
    fn acks_zero_at_every_version() {
        for version in ProduceRequest::VERSIONS.min..=ProduceRequest::VERSIONS.max {
            for acks in [0, 1, -1] {
                let mut h = header(0, version, 40 + i32::from(version));
                h.client_id = Some("c".repeat(300).into());
                if version >= 9 {
                    h.initial_principal_name = Some("User:alice".into());
                }
                let body = ProduceRequest {
                    transactional_id: (version >= 3).then(|| "t".repeat(200).into()),
                    acks,
                    timeout_ms: 1000,
                    ..Default::default()
                };
                let mut correlator = Correlator::new();
                assert_eq!(
                    correlator.track_request(&request(&h, body)).expect("reads"),
                    acks != 0,
                    "v{version} acks {acks}"
                );
                assert_eq!(correlator.in_flight(), usize::from(acks != 0));
            }
        }
        // A Produce frame cut before its acks is an error, and records nothing.
        let mut correlator = Correlator::new();
        let whole = request(&header(0, 9, 1), ProduceRequest { acks: -1, ..Default::default() });
        let cut = &whole[..8 + 2 + "a-client".len() + 1];
        assert!(matches!(correlator.track_request(cut), Err(CodecError::Decode(_))));
        assert_eq!(correlator.in_flight(), 0);
    }

    #[test]
    fn pipelined_with_acks_zero_in_between_and_an_unknown_correlation_id() {
        let mut correlator = Correlator::new();
        assert!(correlator.track_request(&request(&header(3, 12, 1), MetadataRequest::default())).unwrap());
        let fire_and_forget = ProduceRequest { acks: 0, ..Default::default() };
        assert!(!correlator.track_request(&request(&header(0, 11, 2), fire_and_forget)).unwrap());
        assert!(correlator.track_request(&request(&header(3, 4, 3), MetadataRequest::default())).unwrap());
        assert_eq!(correlator.in_flight(), 2);

        // An unknown correlation id (and one answered out of order): refused,
        // nothing taken off.
        for found in [2i32, 3, 99] {
            let err = correlator.match_response(&found.to_be_bytes()).unwrap_err();
            assert!(matches!(err, CodecError::UnexpectedCorrelationId { expected: Some(1), found: f } if f == found));
        }
        assert!(matches!(
            correlator.match_response(b"\x00\x00"),
            Err(CodecError::Truncated { expected: 4, received: 2 })
        ));
        assert_eq!(correlator.in_flight(), 2);

        assert_eq!(
            correlator.match_response(b"\x00\x00\x00\x01").unwrap(),
            Correlated { correlation_id: 1, api_key: 3, api_version: 12 }
        );
        assert_eq!(correlator.match_response(b"\x00\x00\x00\x03\x00").unwrap().api_version, 4);
        assert!(matches!(
            correlator.match_response(b"\x00\x00\x00\x02"),
            Err(CodecError::UnexpectedCorrelationId { expected: None, found: 2 })
        ));
    }
}
