//! ApiVersions against a real Apache Kafka 4.4.0 broker
//! (`interop/scripts/kafka-cluster.sh start`): Kafka's answer to a request whose
//! client software name or version breaks KIP-511's rule, byte for byte,
//! and the rule itself (`ApiVersionsRequest::is_valid`) against Kafka's on
//! a set of names.
//!
//! Skips when no cluster runs (and fails in CI), as every cluster test.

mod common;

use common::cluster::Cluster;
use common::conn::Conn;
use kwire::api::{negotiate, ApiKey, ApiVersionsRefused};
use kwire::frame::ResponseFrame;
use kwire::message::Message;
use kwire::messages::{ApiVersionsRequest, ApiVersionsResponse, RequestBody, RequestHeader, ResponseBody};
use kwire::BytesMut;

/// Sends `request` at `version` on a new connection; the response frame's
/// body bytes (after the v0 response header) and the body decoded.
fn ask(cluster: &Cluster, request: &ApiVersionsRequest, version: i16) -> (Vec<u8>, ApiVersionsResponse) {
    let mut conn = Conn::open(cluster.broker(), "kw-api-versions-test");
    let header = RequestHeader {
        request_api_key: 18,
        request_api_version: version,
        correlation_id: 7,
        client_id: Some("kw-api-versions-test".into()),
        ..Default::default()
    };
    let mut frame = BytesMut::new();
    kwire::frame::RequestFrame::encode_parts(&header, &RequestBody::from(request.clone()), &mut frame).unwrap();
    let answer = conn.round_trip(&frame).unwrap_or_else(|e| panic!("ApiVersions v{version}: no answer: {e}"));
    let body = answer[4..].to_vec();
    let decoded = ResponseFrame::decode(answer, ApiKey::ApiVersions, version).expect("decodes");
    assert_eq!(decoded.header.correlation_id, 7);
    let ResponseBody::ApiVersions(response) = decoded.body else { panic!("an ApiVersions body") };
    (body, response)
}

fn named(name: &str, version: &str) -> ApiVersionsRequest {
    ApiVersionsRequest {
        client_software_name: name.into(),
        client_software_version: version.into(),
        ..Default::default()
    }
}

#[test]
fn kafka_refuses_api_versions_without_valid_client_software() {
    let Some(cluster) = Cluster::find("ApiVersions") else { return };
    let (_, accepted) = ask(&cluster, &ApiVersionsRequest::with_default_client_software(), 3);
    let negotiated = negotiate(&accepted).expect("the default client software is accepted");
    assert!(negotiated.version(ApiKey::Metadata).is_some());
    let highest = negotiated.version(ApiKey::ApiVersions).unwrap();
    assert!(highest >= 4, "Kafka 4.4 serves ApiVersions v{highest}");

    for version in 3..=highest {
        let (body, refused) = ask(&cluster, &ApiVersionsRequest::default(), version);
        // INVALID_REQUEST, no api keys, throttle 0, answered at the
        // request's version: what kwire writes for that value.
        let expected = ApiVersionsResponse { error_code: 42, ..Default::default() };
        assert_eq!(refused, expected, "v{version}");
        assert_eq!(body, expected.to_bytes(version).unwrap().to_vec(), "v{version}");
        assert_eq!(body, b"\x00\x2a\x01\x00\x00\x00\x00\x00", "v{version}");
        assert_eq!(negotiate(&refused), Err(ApiVersionsRefused { error_code: 42, retry_version: None }));
    }

    // Kafka's rule and kwire's agree, name by name.
    let samples = [
        ("librdkafka", "2.3.0"),
        ("a", "1"),
        ("apache-kafka-java", "4.4.0"),
        ("A.b-C", "9-SNAPSHOT"),
        ("", "1"),
        ("app", ""),
        ("my app", "1.0"),
        ("-app", "1"),
        ("app-", "1"),
        ("app", ".1"),
        ("app", "1."),
        ("app_x", "1"),
        ("appé", "1"),
        ("app", "1+build"),
    ];
    for (name, software_version) in samples {
        let request = named(name, software_version);
        let (_, response) = ask(&cluster, &request, 3);
        let kafka_accepts = response.error_code == 0;
        assert_eq!(request.is_valid(3), kafka_accepts, "{name:?} {software_version:?}: {response:?}");
        // Before v3 the fields are not sent: accepted whatever they say.
        assert_eq!(ask(&cluster, &request, 2).1.error_code, 0);
        assert!(request.is_valid(2));
    }
}
