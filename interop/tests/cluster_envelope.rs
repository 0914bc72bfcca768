//! KIP-590 Envelopes against a real Apache Kafka 4.4.0 cluster
//! (`interop/scripts/kafka-cluster.sh start`, one KRaft controller and one broker),
//! both ways:
//!
//! 1. **As Kafka sends them.** With `KAFKA_CLUSTER_RELAY=1` all broker ->
//!    controller traffic goes through `examples/envelope_relay.rs`, which logs
//!    every frame decoded and every Envelope unwrapped with
//!    `forward::unwrap_request` / `forward::unwrap_response`. Kafka's
//!    AdminClient (`interop/conformance/java/cluster/AdminOps.java`) then makes the
//!    broker forward admin writes, and [`kafka_forwards_admin_writes_in_envelopes`]
//!    reads the relay's log.
//! 2. **As kwire sends them.** kwire wraps client requests with
//!    `forward::wrap_request` and sends them straight to the controller's
//!    listeners, as a broker would.
//!
//! 3. **When the Envelope fails.** The relay answers chosen Envelopes with
//!    an error itself, and [`failed_envelopes_answered_to_the_client_as_kafka_answers`]
//!    compares what Kafka's broker then tells the client with what
//!    `forward::unwrap_response` decides.
//!
//! Every test uses `Cluster::find`, so it skips when no cluster runs (and
//! fails in CI). Names carry a per-run suffix and everything created is
//! removed, so the tests can share a cluster with others and run again.

mod common;

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::io;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use common::cluster::{suffix, unique, Cluster};
use common::conn::Conn;
use kwire::error_code::ErrorCode;
use kwire::frame::{self, ResponseFrame};
use kwire::message::{ApiMessage, Message, Request};
use kwire::messages::alter_configs_request::{AlterConfigsResource, AlterableConfig};
use kwire::messages::create_partitions_request::CreatePartitionsTopic;
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::delete_topics_request::DeleteTopicState;
use kwire::messages::metadata_request::MetadataRequestTopic;
use kwire::messages::metadata_response::MetadataResponseTopic;
use kwire::messages::{
    AlterConfigsRequest, CreatePartitionsRequest, CreateTopicsRequest, DefaultPrincipalData, DeleteTopicsRequest,
    EnvelopeRequest, EnvelopeResponse, MetadataRequest, RequestBody, RequestHeader, ResponseBody,
};
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{self, unwrap_request, unwrap_response, wrap_request, ForwardOutcome, WrappedRequest};
use serde_json::Value;

const CLIENT_ID: &str = "kw-envelope-test";
const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

fn anonymous() -> DefaultPrincipalData {
    DefaultPrincipalData { r#type: "User".into(), name: "ANONYMOUS".into(), ..Default::default() }
}

/// Sends an Envelope (header v2 and body v0, as [`WrappedRequest::encode`]
/// writes them) on `conn` and decodes the EnvelopeResponse; the I/O error
/// when the peer closes the connection instead of answering.
fn send_envelope_on(
    conn: &mut Conn,
    header: &RequestHeader,
    envelope: &EnvelopeRequest,
) -> io::Result<EnvelopeResponse> {
    let mut buf = BytesMut::new();
    header.encode(&mut buf, forward::ENVELOPE_HEADER_VERSION).expect("envelope header encodes");
    envelope.encode(&mut buf, forward::ENVELOPE_VERSION).expect("envelope encodes");
    let answer = conn.round_trip(&buf)?;
    let ResponseFrame { header: answer_header, body, .. } =
        frame::ResponseFrame::decode(answer, kwire::api::ApiKey::Envelope, forward::ENVELOPE_VERSION)
            .expect("EnvelopeResponse decodes");
    assert_eq!(answer_header.correlation_id, header.correlation_id);
    let ResponseBody::Envelope(response) = body else { panic!("not an EnvelopeResponse: {body:?}") };
    Ok(response)
}

/// A client request's bytes (header and body), as a broker receives them.
fn client_request<R: Request + Into<RequestBody>>(request: R, api_version: i16, correlation_id: i32) -> Bytes {
    let header = RequestHeader {
        request_api_key: R::API_KEY,
        request_api_version: api_version,
        correlation_id,
        client_id: Some("kw-envelope-client".into()),
        ..Default::default()
    };
    let mut buf = BytesMut::new();
    frame::RequestFrame::encode_parts(&header, &request.into(), &mut buf).expect("client request encodes");
    buf.freeze()
}

fn create_topic(name: &str, partitions: i32) -> CreateTopicsRequest {
    CreateTopicsRequest {
        topics: vec![CreatableTopic {
            name: name.into(),
            num_partitions: partitions,
            replication_factor: 1,
            ..Default::default()
        }],
        timeout_ms: 30_000,
        ..Default::default()
    }
}

fn delete_topic(name: &str) -> DeleteTopicsRequest {
    DeleteTopicsRequest {
        topics: vec![DeleteTopicState { name: Some(name.into()), ..Default::default() }],
        timeout_ms: 30_000,
        ..Default::default()
    }
}

/// Polls Metadata v12 through the broker until what `seen` says of `topic`
/// is `wanted` (metadata reaches the broker a moment after the controller
/// commits it); panics after 30 s.
fn wait_for_metadata<T: PartialEq + Debug>(
    broker: &str,
    topic: &str,
    seen: impl Fn(&MetadataResponseTopic) -> T,
    wanted: T,
) {
    let mut conn = Conn::open(broker, CLIENT_ID);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let request = MetadataRequest {
            topics: Some(vec![MetadataRequestTopic { name: Some(topic.into()), ..Default::default() }]),
            ..Default::default()
        };
        let metadata = conn.call_at(request, 12);
        let seen = metadata.topics.first().map(&seen);
        if seen.as_ref() == Some(&wanted) {
            return;
        }
        assert!(Instant::now() < deadline, "{topic}: wanted {wanted:?}, metadata says {seen:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Waits until `topic` has `partitions` partitions, as the broker sees it.
fn wait_for_partitions(broker: &str, topic: &str, partitions: usize) {
    wait_for_metadata(broker, topic, |t| (t.error_code, t.partitions.len()), (0, partitions));
}

/// Waits until `topic` is gone, as the broker sees it.
fn wait_for_deletion(broker: &str, topic: &str) {
    wait_for_metadata(broker, topic, |t| t.error_code, ErrorCode::UnknownTopicOrPartition.code());
}

/// Wraps a client request as the broker does and sends it to the controller;
/// returns the wrapped request and the controller's EnvelopeResponse.
fn forward_to(conn: &mut Conn, principal: &DefaultPrincipalData, request: Bytes) -> (WrappedRequest, EnvelopeResponse) {
    let correlation_id = conn.correlation_id();
    let wrapped = wrap_request(request, principal, LOCALHOST, correlation_id, Some(CLIENT_ID)).expect("wraps");
    let response = send_envelope_on(conn, &wrapped.header, &wrapped.envelope).expect("the controller answers");
    (wrapped, response)
}

/// The controller's answer to a forwarded request, unwrapped: it must be a
/// response (not an error envelope).
fn unwrapped_response(wrapped: &WrappedRequest, response: &EnvelopeResponse) -> ResponseBody {
    assert_eq!(response.error_code, 0, "EnvelopeResponse error code: {response:?}");
    match unwrap_response(response, &wrapped.forwarded).expect("the answer unwraps") {
        ForwardOutcome::Response(header, body) => {
            assert_eq!(header.correlation_id, wrapped.forwarded.correlation_id());
            body
        }
        other => panic!("not a response: {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Item 2: Envelopes as kwire sends them.
// ---------------------------------------------------------------------------

/// CreateTopics, CreatePartitions and DeleteTopics wrapped by kwire
/// and sent to the controller's PLAINTEXT listener, as the broker sends
/// them (principal User:ANONYMOUS, a super user, so CLUSTER_ACTION passes).
#[test]
fn kwire_envelopes_accepted_by_the_controller() {
    let Some(cluster) = Cluster::find("kwire's Envelopes against Kafka's controller") else { return };
    let controller = cluster.var("KAFKA_CLUSTER_CONTROLLER");
    let topic = unique("kw-envelope-wrapped");
    let mut conn = Conn::open(controller, CLIENT_ID);

    // CreateTopics v7 (the version Kafka 4.4's AdminClient sends).
    let (wrapped, response) = forward_to(&mut conn, &anonymous(), client_request(create_topic(&topic, 1), 7, 41));
    let ResponseBody::CreateTopics(created) = unwrapped_response(&wrapped, &response) else {
        panic!("not CreateTopics")
    };
    let results: Vec<_> = created.topics.iter().map(|t| (&*t.name, t.error_code, t.num_partitions)).collect();
    assert_eq!(results, [(topic.as_str(), 0, 1)], "{created:?}");
    wait_for_partitions(cluster.broker(), &topic, 1);

    // CreatePartitions v3: 1 -> 3 partitions.
    let body = CreatePartitionsRequest {
        topics: vec![CreatePartitionsTopic {
            name: topic.clone().into(),
            count: 3,
            assignments: None,
            ..Default::default()
        }],
        timeout_ms: 30_000,
        ..Default::default()
    };
    let (wrapped, response) = forward_to(&mut conn, &anonymous(), client_request(body, 3, 42));
    let ResponseBody::CreatePartitions(grown) = unwrapped_response(&wrapped, &response) else {
        panic!("not CreatePartitions")
    };
    let results: Vec<_> = grown.results.iter().map(|r| (&*r.name, r.error_code)).collect();
    assert_eq!(results, [(topic.as_str(), 0)], "{grown:?}");
    wait_for_partitions(cluster.broker(), &topic, 3);

    // DeleteTopics v6, which also cleans up.
    let (wrapped, response) = forward_to(&mut conn, &anonymous(), client_request(delete_topic(&topic), 6, 43));
    let ResponseBody::DeleteTopics(deleted) = unwrapped_response(&wrapped, &response) else {
        panic!("not DeleteTopics")
    };
    let results: Vec<_> = deleted.responses.iter().map(|r| (r.name.as_deref(), r.error_code)).collect();
    assert_eq!(results, [(Some(topic.as_str()), 0)], "{deleted:?}");
    wait_for_deletion(cluster.broker(), &topic);
}

/// Over the controller's SASL_PLAINTEXT listener as alice, who has no
/// CLUSTER_ACTION on the cluster: the controller refuses the Envelope itself
/// with CLUSTER_AUTHORIZATION_FAILED (31), and `forward::unwrap_response`
/// turns it into UNKNOWN_SERVER_ERROR (-1) on each of the client's topics
/// (the client must not see the broker's own authorization failure).
#[test]
fn envelope_from_a_sender_without_cluster_action() {
    let Some(cluster) = Cluster::find("an Envelope refused by Kafka's controller") else { return };
    let topic = unique("kw-envelope-denied");
    let mut conn = Conn::open(cluster.var("KAFKA_CLUSTER_CONTROLLER_SASL"), CLIENT_ID);
    conn.sasl_plain("alice", "alice-secret");

    let principal = DefaultPrincipalData { r#type: "User".into(), name: "alice".into(), ..Default::default() };
    let (wrapped, response) = forward_to(&mut conn, &principal, client_request(create_topic(&topic, 1), 7, 5));
    assert_eq!((response.error_code, &response.response_data), (ErrorCode::ClusterAuthorizationFailed.code(), &None));

    let outcome = unwrap_response(&response, &wrapped.forwarded).expect("an error envelope unwraps");
    let ForwardOutcome::ErrorToClient(ResponseBody::CreateTopics(answer)) = outcome else {
        panic!("not a CreateTopics error for the client: {outcome:?}")
    };
    let results: Vec<_> = answer.topics.iter().map(|t| (&*t.name, t.error_code)).collect();
    assert_eq!(results, [(topic.as_str(), ErrorCode::UnknownServerError.code())]);
}

/// An envelope as the broker would send it (principal User:ANONYMOUS,
/// address 127.0.0.1) around `request_data`.
fn envelope_around(request_data: Bytes) -> EnvelopeRequest {
    EnvelopeRequest {
        request_data: request_data.into(),
        request_principal: Some(forward::principal_to_bytes(&anonymous()).expect("principal encodes")),
        client_host_address: forward::client_address_to_bytes(LOCALHOST),
        ..Default::default()
    }
}

/// Sends `envelope` to the controller on a fresh connection; the
/// controller's EnvelopeResponse, or the I/O error when it closes the
/// connection instead of answering.
fn send_envelope(controller: &str, envelope: &EnvelopeRequest) -> io::Result<EnvelopeResponse> {
    let mut conn = Conn::open(controller, CLIENT_ID);
    let header = RequestHeader {
        request_api_key: EnvelopeRequest::API_KEY,
        request_api_version: forward::ENVELOPE_VERSION,
        correlation_id: 77,
        client_id: Some(CLIENT_ID.into()),
        initial_principal_name: Some("ANONYMOUS".into()),
        ..Default::default()
    };
    send_envelope_on(&mut conn, &header, envelope)
}

/// An envelope whose embedded request cannot be parsed, may not be
/// forwarded, or whose principal or address is bad; Kafka's controller
/// refuses each with an error code, and `forward::unwrap_request` must refuse
/// it with the same code.
///
/// What Apache Kafka 4.4.0 answers (UNSUPPORTED_VERSION for all the
/// unparsable ones, as KAFKA-12168 describes):
///
/// | embedded request | code |
/// |---|---|
/// | `00 31 00 01 00` (AlterClientQuotas v1 cut inside the correlation id) | 35 UNSUPPORTED_VERSION |
/// | CreateTopics v7 with its last 2 bytes cut off | 35 |
/// | api key 999 | 35 |
/// | nothing at all | 35 |
/// | CreateTopics v99 | 35 |
/// | Metadata v12 (not forwardable), and Metadata v99 | 42 INVALID_REQUEST |
/// | Metadata v12 cut inside its header | 35 (the header is read first) |
/// | an Envelope | 42 |
/// | null principal, principal without its version prefix, principal version 1 | 97 PRINCIPAL_DESERIALIZATION_FAILURE |
/// | client address of 3 bytes | 42 |
/// | several faults | principal first, then address, then the request |
///
/// Bytes after a valid body or principal are not refused: see
/// [`bytes_after_the_embedded_body_or_the_principal_are_ignored`].
#[test]
fn malformed_envelopes_refused_as_kafka_refuses_them() {
    let Some(cluster) = Cluster::find("malformed Envelopes against Kafka's controller") else { return };
    let controller = cluster.var("KAFKA_CLUSTER_CONTROLLER");
    // Valid, but never created: every case below is refused.
    let good = client_request(create_topic(&unique("kw-envelope-never"), 1), 7, 9);
    let metadata = client_request(MetadataRequest::default(), 12, 8);
    let bad_header = Bytes::from_static(&[0x00, 0x31, 0x00, 0x01, 0x00]);
    let mut nested = BytesMut::new();
    wrap_request(good.clone(), &anonymous(), LOCALHOST, 5, None).expect("wraps").encode(&mut nested).expect("encodes");
    let with = |data: &Bytes, principal: Option<&'static [u8]>, address: Option<&'static [u8]>| {
        let mut envelope = envelope_around(data.clone());
        if let Some(p) = principal {
            envelope.request_principal = (!p.is_empty()).then(|| Bytes::from_static(p));
        }
        if let Some(a) = address {
            envelope.client_host_address = Bytes::from_static(a);
        }
        envelope
    };
    const NULL: &[u8] = b"";
    const BARE: &[u8] = b"\x05User\x0aANONYMOUS\x00\x00";
    const V1: &[u8] = b"\x00\x01\x05User\x0aANONYMOUS\x00\x00";
    const SHORT: &[u8] = &[127, 0, 0];
    let unknown_api_key = Bytes::from_static(b"\x03\xe7\x00\x00\x00\x00\x00\x07\x00\x01c\x00");
    let create_topics_v99 = Bytes::from_static(b"\x00\x13\x00\x63\x00\x00\x00\x07\x00\x01c\x00");
    let metadata_v99 = Bytes::from_static(b"\x00\x03\x00\x63\x00\x00\x00\x07\x00\x01c\x00");
    let cases: Vec<(&str, EnvelopeRequest, i16)> = vec![
        ("header cut short (00 31 00 01 00)", with(&bad_header, None, None), 35),
        ("body cut short", with(&good.slice(..good.len() - 2), None, None), 35),
        ("unknown api key 999", with(&unknown_api_key, None, None), 35),
        ("no request data", with(&Bytes::new(), None, None), 35),
        ("CreateTopics v99", with(&create_topics_v99, None, None), 35),
        ("Metadata, not forwardable", with(&metadata, None, None), 42),
        ("Metadata v99", with(&metadata_v99, None, None), 42),
        ("Metadata cut inside its header", with(&metadata.slice(..9), None, None), 35),
        ("an Envelope inside", with(&nested.freeze(), None, None), 42),
        ("null principal", with(&good, Some(NULL), None), 97),
        ("principal without its version", with(&good, Some(BARE), None), 97),
        ("principal version 1", with(&good, Some(V1), None), 97),
        ("client address of 3 bytes", with(&good, None, Some(SHORT)), 42),
        ("bad address and bad header", with(&bad_header, None, Some(SHORT)), 42),
        ("null principal and bad header", with(&bad_header, Some(NULL), None), 97),
        ("null principal and bad address", with(&good, Some(NULL), Some(SHORT)), 97),
        ("null principal and Metadata", with(&metadata, Some(NULL), None), 97),
    ];
    let mut table = Vec::new();
    for (what, envelope, expected) in cases {
        let answer =
            send_envelope(controller, &envelope).unwrap_or_else(|e| panic!("{what}: the controller closed: {e}"));
        assert_eq!((answer.error_code, &answer.response_data), (expected, &None), "{what}: Kafka's answer");
        let refusal = unwrap_request(&envelope).expect_err(what);
        assert_eq!(refusal.error_code().code(), answer.error_code, "{what}: kwire refuses with {refusal}");
        assert_eq!(refusal.envelope_response(), answer, "{what}");
        table.push(format!("{what}: {} ({refusal})", answer.error_code));
    }
    eprintln!("Kafka's controller and forward::unwrap_request refuse:\n  {}", table.join("\n  "));
}

/// Sends `envelope` (embedding a CreateTopics of `topic` with correlation
/// id 9) to the controller, which must create the topic, and checks that
/// kwire reads the answer.
fn accepted_create_topics(controller: &str, envelope: &EnvelopeRequest, topic: &str) {
    let unwrapped = unwrap_request(envelope).expect("kwire accepts it");
    let forwarded = forward::ForwardedRequest { header: unwrapped.header, body: unwrapped.body };
    let answer = send_envelope(controller, envelope).expect("the controller answers");
    assert_eq!(answer.error_code, 0, "{answer:?}");
    let ForwardOutcome::Response(_, ResponseBody::CreateTopics(created)) =
        unwrap_response(&answer, &forwarded).expect("the answer unwraps")
    else {
        panic!("not a CreateTopics response")
    };
    let results: Vec<_> = created.topics.iter().map(|t| (&*t.name, t.error_code)).collect();
    assert_eq!(results, [(topic, 0)]);
}

/// Bytes after a valid embedded body, or after the principal: Kafka's
/// controller ignores them and handles the request (here it creates the
/// topic), and so does `forward::unwrap_request` (counting those after the
/// body in `trailing_bytes`).
#[test]
fn bytes_after_the_embedded_body_or_the_principal_are_ignored() {
    let Some(cluster) = Cluster::find("trailing bytes in an Envelope against Kafka's controller") else { return };
    let controller = cluster.var("KAFKA_CLUSTER_CONTROLLER");
    let run = suffix();

    let after_body = format!("kw-envelope-trailing-{run}");
    let mut data = client_request(create_topic(&after_body, 1), 7, 9).to_vec();
    data.extend_from_slice(&[1, 2, 3]);
    let envelope = envelope_around(data.into());
    assert_eq!(unwrap_request(&envelope).map(|u| u.trailing_bytes), Ok(3));
    accepted_create_topics(controller, &envelope, &after_body);

    let after_principal = format!("kw-envelope-long-principal-{run}");
    let mut envelope = envelope_around(client_request(create_topic(&after_principal, 1), 7, 9));
    envelope.request_principal = Some(Bytes::from_static(b"\x00\x00\x05User\x0aANONYMOUS\x00\x00\xff"));
    assert_eq!(unwrap_request(&envelope).map(|u| u.principal), Ok(anonymous()));
    accepted_create_topics(controller, &envelope, &after_principal);

    // Clean up, through the controller too.
    let mut conn = Conn::open(controller, CLIENT_ID);
    for topic in [after_body, after_principal] {
        let (wrapped, response) = forward_to(&mut conn, &anonymous(), client_request(delete_topic(&topic), 6, 10));
        let ResponseBody::DeleteTopics(deleted) = unwrapped_response(&wrapped, &response) else {
            panic!("not DeleteTopics")
        };
        assert_eq!(deleted.responses.iter().map(|r| r.error_code).collect::<Vec<_>>(), [0], "{topic}");
    }
}

// ---------------------------------------------------------------------------
// Item 1: Envelopes as Kafka sends them, seen by the relay.
// ---------------------------------------------------------------------------

/// The cluster ([`Cluster::find`]), which must run with the relay between
/// broker and controller.
fn relayed_cluster(what: &str) -> Option<Cluster> {
    let cluster = Cluster::find(what)?;
    assert!(
        !cluster.var("KAFKA_CLUSTER_RELAY_FRAMES").is_empty(),
        "the cluster runs without the relay: start it with KAFKA_CLUSTER_RELAY=1"
    );
    Some(cluster)
}

/// The relay's frame log, one JSON value per line.
fn relay_frames(cluster: &Cluster) -> Vec<Value> {
    let path = cluster.var("KAFKA_CLUSTER_RELAY_FRAMES");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, line)| serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}:{}: {e}: {line}", i + 1)))
        .collect()
}

/// The api keys Apache Kafka 4.4.0's broker forwards inside Envelopes for
/// the admin writes of [`kafka_forwards_admin_writes_in_envelopes`]: all
/// ten asked for. CreateAcls and DeleteAcls too: the broker's
/// StandardAuthorizer does not write ACLs itself but forwards the client's
/// request like the others.
const FORWARDED: [i64; 10] = [
    19, // CreateTopics
    20, // DeleteTopics
    30, // CreateAcls
    31, // DeleteAcls
    33, // AlterConfigs (sent by kwire: Kafka 4's AdminClient has no alterConfigs)
    37, // CreatePartitions
    44, // IncrementalAlterConfigs
    49, // AlterClientQuotas
    51, // AlterUserScramCredentials
    57, // UpdateFeatures
];

/// AlterConfigs v2 (resource type 2 = topic, 4 = broker) through the broker.
fn alter_configs(conn: &mut Conn, resource_type: i8, name: &str, key: &str, value: &str, validate_only: bool) {
    let body = AlterConfigsRequest {
        resources: vec![AlterConfigsResource {
            resource_type,
            resource_name: name.into(),
            configs: vec![AlterableConfig { name: key.into(), value: Some(value.into()), ..Default::default() }],
            ..Default::default()
        }],
        validate_only,
        ..Default::default()
    };
    let altered = conn.call_at(body, 2);
    let results: Vec<_> = altered.responses.iter().map(|r| (&*r.resource_name, r.error_code)).collect();
    assert_eq!(results, [(name, 0)], "AlterConfigs {name}: {altered:?}");
}

/// Admin writes through the broker, with Kafka's AdminClient
/// (`AdminOps.java`: create and delete topics, create partitions,
/// incrementally alter topic and broker configs, alter client quotas,
/// create and delete ACLs, alter SCRAM credentials, update features) and
/// with kwire for AlterConfigs, which Kafka 4's AdminClient and tools no
/// longer send. The relay between broker and controller must decode every
/// frame, unwrap every Envelope (principal User:ANONYMOUS, address
/// 127.0.0.1 for ours) and re-encode all of it, outer and inner, to the same
/// bytes; the api keys seen inside this run's Envelopes are listed and must
/// be [`FORWARDED`].
#[test]
fn kafka_forwards_admin_writes_in_envelopes() {
    let Some(cluster) = relayed_cluster("Kafka's Envelopes through the kwire relay") else { return };
    let run = suffix();
    let admin_client = format!("kw-envelope-admin-{run}");
    let wire_client = format!("kw-envelope-wire-{run}");

    let out = cluster.java("AdminOps", &[cluster.broker(), &run]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().filter(|l| l.starts_with("ok ")).count(), 9, "AdminOps:\n{stdout}");

    // AlterConfigs, from kwire through the broker: a topic config, and
    // a broker config with validate_only (checked, not applied).
    let topic = format!("kw-envelope-c-{run}");
    let mut conn = Conn::open(cluster.broker(), &wire_client);
    let created = conn.call_at(create_topic(&topic, 1), 7);
    assert_eq!(created.topics.iter().map(|t| t.error_code).collect::<Vec<_>>(), [0], "{created:?}");
    alter_configs(&mut conn, 2, &topic, "retention.ms", "7200000", false);
    let metadata = conn.call_at(MetadataRequest::default(), 12);
    let broker_id = metadata.brokers.first().map(|b| b.node_id.to_string()).expect("one broker");
    alter_configs(&mut conn, 4, &broker_id, "log.cleaner.threads", "1", true);
    let deleted = conn.call_at(delete_topic(&topic), 6);
    assert_eq!(deleted.responses.iter().map(|r| r.error_code).collect::<Vec<_>>(), [0], "{deleted:?}");

    // The relay logs a frame before passing its last byte on, so every
    // frame of the requests above is in the log by now.
    let frames = relay_frames(&cluster);
    assert!(!frames.is_empty(), "the relay logged nothing");
    let mut ours = std::collections::HashMap::new(); // (conn, envelope correlation id) -> inner api key
    let mut inner_keys = BTreeSet::new();
    let mut wire_keys = Vec::new();
    let (mut requests, mut responses, mut envelopes) = (0, 0, 0);
    for frame in &frames {
        let dir = frame["dir"].as_str().unwrap_or("");
        assert!(dir == "request" || dir == "response", "the relay lost track of a stream: {frame}");
        assert_eq!(frame["decoded"], true, "a frame did not decode: {frame}");
        assert_eq!(frame["reencoded_same"], true, "a frame re-encodes differently: {frame}");
        assert!(frame.get("correlator_error").is_none(), "{frame}");
        if dir == "request" {
            requests += 1
        } else {
            responses += 1
        }
        if frame["api_key"] != 58 {
            assert!(frame.get("envelope").is_none(), "{frame}");
            continue;
        }
        if frame["injected"] == true {
            // The relay's own error answers: see failed_envelopes_answered_to_the_client_as_kafka_answers.
            continue;
        }
        let envelope = &frame["envelope"];
        assert_eq!(envelope["unwrapped"], true, "an Envelope did not unwrap: {frame}");
        assert_eq!(envelope["inner_decoded"], true, "{frame}");
        let key = (frame["conn"].as_i64(), frame["correlation_id"].as_i64());
        if dir == "request" {
            envelopes += 1;
            assert_eq!(envelope["inner_reencoded_same"], true, "an embedded request re-encodes differently: {frame}");
            assert_eq!(envelope["client_address"], "127.0.0.1", "{frame}");
            assert_eq!(envelope["principal_type"], "User", "{frame}");
            let client = envelope["inner_client_id"].as_str().unwrap_or("");
            if client == admin_client || client == wire_client {
                assert_eq!(envelope["principal_name"], "ANONYMOUS", "{frame}");
                assert_eq!(envelope["token_authenticated"], false, "{frame}");
                let api_key = envelope["inner_api_key"].as_i64().expect("inner api key");
                inner_keys.insert(api_key);
                if client == wire_client {
                    wire_keys.push(api_key);
                }
                ours.insert(key, api_key);
            }
        } else if let Some(api_key) = ours.remove(&key) {
            assert_eq!(envelope["inner_api_key"], api_key, "{frame}");
            assert_eq!((&envelope["error_code"], &envelope["outcome"]), (&0.into(), &"response".into()), "{frame}");
            assert_eq!(envelope["inner_reencoded_same"], true, "an embedded response re-encodes differently: {frame}");
        }
    }
    assert!(ours.is_empty(), "Envelopes without a logged answer: {ours:?}");
    eprintln!("relay: {requests} requests and {responses} responses decoded, {envelopes} Envelopes unwrapped");
    eprintln!("api keys seen inside this run's Envelopes: {inner_keys:?}");
    // kwire's CreateTopics, both AlterConfigs (the broker config too,
    // although validate_only) and DeleteTopics are all forwarded.
    assert_eq!(wire_keys, [19, 33, 33, 20], "kwire's requests forwarded by the broker");
    assert_eq!(inner_keys.into_iter().collect::<Vec<_>>(), FORWARDED);
}

// ---------------------------------------------------------------------------
// Item 3: a failed Envelope, and what the client sees.
// ---------------------------------------------------------------------------

/// The relay's lines about the Envelopes whose embedded request named
/// `topic` first: (request line, response line) per Envelope, in order.
fn envelopes_for(cluster: &Cluster, topic: &str) -> Vec<(Value, Value)> {
    let frames = relay_frames(cluster);
    let mut pairs = Vec::new();
    let mut open = std::collections::HashMap::new(); // (conn, correlation id) -> request line
    for frame in frames {
        if frame["api_key"] != 58 {
            continue;
        }
        let key = (frame["conn"].as_i64(), frame["correlation_id"].as_i64());
        if frame["dir"] == "request" {
            open.insert(key, frame);
        } else if let Some(request) = open.remove(&key) {
            pairs.push((request, frame));
        }
    }
    // This test's client ids are its topic names.
    pairs.retain(|(request, _)| request["envelope"]["inner_client_id"] == topic);
    pairs
}

/// Kafka's forwarding broker (`ForwardingManager`) never hands an
/// EnvelopeResponse's error to the client, and kwire-broker's
/// `unwrap_response` decides as it does. The relay between broker and
/// controller (`--inject-envelope-errors`) answers the Envelope of a
/// CreateTopics for `kwire-relay-envelope-error-<CODE>-...` itself, once,
/// with error CODE; a kwire client sends that CreateTopics (v7) to the
/// broker and records what Kafka answers, while the relay logs what
/// `unwrap_response` made of the same EnvelopeResponse:
///
/// | envelope error | Kafka's broker, to the client | kwire-broker |
/// |---|---|---|
/// | 97 PRINCIPAL_DESERIALIZATION_FAILURE, 42 INVALID_REQUEST, 31 CLUSTER_AUTHORIZATION_FAILED | CreateTopics response, UNKNOWN_SERVER_ERROR (-1) on the topic | `ErrorToClient`, the same response |
/// | 0, with response data `ff ff ff` (no response header) | CreateTopics response, UNKNOWN_SERVER_ERROR (-1) on the topic | `UnreadableResponse`, the same response |
/// | 35 UNSUPPORTED_VERSION | no answer, connection closed | `CloseConnection` |
/// | 41 NOT_CONTROLLER | forwards again; the retry reaches the controller and the topic is created | `RetryOnNewController` |
#[test]
fn failed_envelopes_answered_to_the_client_as_kafka_answers() {
    let Some(cluster) = relayed_cluster("failed Envelopes through the kwire relay") else { return };
    let run = suffix();
    for code in [97i16, 42, 31, 0, 35, 41] {
        let topic = format!("kwire-relay-envelope-error-{code}-{run}");
        // The client id names the topic, so that the relay's lines can be
        // told apart from every other test's.
        let mut conn = Conn::open(cluster.broker(), &topic);
        let answer = conn.call_or_closed(create_topic(&topic, 1), 7);

        let envelopes = envelopes_for(&cluster, &topic);
        let injected: Vec<_> = envelopes.iter().filter(|(_, response)| response["injected"] == true).collect();
        assert_eq!(
            injected.len(),
            1,
            "error {code}: the relay answered no Envelope for {topic} \
             (is it started with --inject-envelope-errors?): {envelopes:?}"
        );
        let (_, response) = injected[0];
        let kwire = &response["envelope"];
        assert_eq!((&kwire["error_code"], &kwire["unwrapped"]), (&code.into(), &true.into()), "{response}");
        let outcome = kwire["outcome"].as_str().unwrap_or("");
        match code {
            35 => {
                assert!(answer.is_none(), "Kafka answered the client after UNSUPPORTED_VERSION: {answer:?}");
                assert_eq!(outcome, "close_connection", "{response}");
                assert_eq!(envelopes.len(), 1, "{envelopes:?}");
            }
            41 => {
                let created = answer.expect("Kafka answers after retrying on the controller");
                let results: Vec<_> = created.topics.iter().map(|t| (&*t.name, t.error_code)).collect();
                assert_eq!(results, [(topic.as_str(), 0)], "{created:?}");
                assert_eq!(outcome, "retry_on_new_controller", "{response}");
                // The same request, forwarded again, answered by the controller.
                let retries: Vec<_> = envelopes.iter().filter(|(_, r)| r["injected"] != true).collect();
                assert_eq!(retries.len(), 1, "{envelopes:?}");
                assert_eq!(retries[0].1["envelope"]["outcome"], "response", "{envelopes:?}");
                let deleted = conn.call_at(delete_topic(&topic), 6);
                assert_eq!(deleted.responses.iter().map(|r| r.error_code).collect::<Vec<_>>(), [0], "{deleted:?}");
            }
            _ => {
                let kafka = answer.unwrap_or_else(|| panic!("error {code}: Kafka closed the connection"));
                let results: Vec<_> = kafka.topics.iter().map(|t| (&*t.name, t.error_code)).collect();
                assert_eq!(results, [(topic.as_str(), ErrorCode::UnknownServerError.code())], "{kafka:?}");
                let expected = if code == 0 { "unreadable_response" } else { "error_to_client" };
                assert_eq!(outcome, expected, "{response}");
                assert_eq!(envelopes.len(), 1, "no retry: {envelopes:?}");
                // kwire's answer for the client is Kafka's, field for field
                // (error messages null in both).
                let bytes = hex::decode(kwire["client_response"].as_str().expect("client_response")).expect("hex");
                let ResponseFrame { body, .. } =
                    frame::ResponseFrame::decode(bytes.into(), kwire::api::ApiKey::CreateTopics, 7).expect("decodes");
                let ResponseBody::CreateTopics(ours) = body else { panic!("not CreateTopics: {body:?}") };
                assert_eq!(ours, kafka, "error {code}");
            }
        }
    }
}
