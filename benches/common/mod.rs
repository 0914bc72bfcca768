//! The messages the benchmarks measure, shared by `codec_compare` and
//! `zero_copy`.
//!
//! Each message is built once as a kwire value and encoded by
//! kwire; kafka-protocol decodes those same bytes into its own value,
//! and [`Case::new`] checks that kafka-protocol re-encodes that value to the
//! identical bytes. So both crates encode and decode the same message, byte
//! for byte.

#![allow(dead_code)]

use kafka_protocol::protocol::{Decodable, Encodable};
use kwire::message::Message;
use kwire::messages as kw;
use kwire::primitives::Uuid;
use kwire::{Bytes, BytesMut};

/// One message at one version, as both crates hold it, and its bytes.
pub struct Case<W, K> {
    /// Name for reports, e.g. `MetadataResponse v12`.
    pub name: String,
    pub version: i16,
    pub wire: W,
    pub kp: K,
    pub bytes: Bytes,
}

impl<W: Message, K: Encodable + Decodable> Case<W, K> {
    /// Encodes `wire` with kwire, decodes the bytes with
    /// kafka-protocol, and checks that both crates agree byte for byte.
    pub fn new(name: &str, wire: W, version: i16) -> Self {
        let bytes = wire.to_bytes(version).expect("kwire encodes the fixture");
        assert_eq!(bytes.len(), wire.encoded_size(version));
        let mut input = bytes.clone();
        let kp = K::decode(&mut input, version).expect("kafka-protocol decodes kwire's bytes");
        assert!(input.is_empty(), "{name}: kafka-protocol left {} bytes", input.len());
        let mut again = BytesMut::new();
        kp.encode(&mut again, version).expect("kafka-protocol re-encodes");
        assert!(again[..] == bytes[..], "{name}: kafka-protocol re-encodes to different bytes");
        assert_eq!(kp.compute_size(version).unwrap(), bytes.len());
        let back = W::decode_exact(bytes.clone(), version).expect("kwire decodes its own bytes");
        assert!(back == wire, "{name}: kwire round trip");
        Case { name: format!("{name} v{version}"), version, wire, kp, bytes }
    }
}

/// An opaque record payload of `len` bytes (both crates carry `records`
/// as uninterpreted bytes).
pub fn payload(len: usize, seed: u8) -> Bytes {
    (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect::<Vec<u8>>().into()
}

fn uuid(n: u64) -> Uuid {
    Uuid::from_u128(0x5f3c_0000_0000_4000_8000_0000_0000_0000 | (n as u128) << 64 | n as u128)
}

/// MetadataResponse: `topics` topics of `partitions` partitions with 3
/// replicas (all in sync), 6 brokers.
pub fn metadata_response(topics: usize, partitions: usize) -> kw::MetadataResponse {
    let brokers = (0..6)
        .map(|id| kw::metadata_response::MetadataResponseBroker {
            node_id: id,
            host: format!("broker-{id}.kafka.internal.example.com").into(),
            port: 9092,
            rack: Some(format!("rack-{}", id % 3).into()),
            ..Default::default()
        })
        .collect();
    let topics = (0..topics)
        .map(|t| kw::metadata_response::MetadataResponseTopic {
            error_code: 0,
            name: Some(format!("orders.events.topic-{t:05}").into()),
            topic_id: uuid(t as u64 + 1),
            is_internal: false,
            partitions: (0..partitions)
                .map(|p| {
                    let leader = ((t + p) % 6) as i32;
                    let replicas = vec![leader, (leader + 1) % 6, (leader + 2) % 6];
                    kw::metadata_response::MetadataResponsePartition {
                        error_code: 0,
                        partition_index: p as i32,
                        leader_id: leader,
                        leader_epoch: 7,
                        isr_nodes: replicas.clone(),
                        replica_nodes: replicas,
                        offline_replicas: Vec::new(),
                        ..Default::default()
                    }
                })
                .collect(),
            topic_authorized_operations: -2147483648,
            ..Default::default()
        })
        .collect();
    kw::MetadataResponse {
        throttle_time_ms: 0,
        brokers,
        cluster_id: Some("kRdZ8yYOQF2Xb3lJ4pT9aQ".into()),
        controller_id: 1,
        topics,
        ..Default::default()
    }
}

/// ProduceRequest: one topic, `partitions` partitions of `record_bytes` each.
pub fn produce_request(partitions: usize, record_bytes: usize) -> kw::ProduceRequest {
    kw::ProduceRequest {
        transactional_id: None,
        acks: -1,
        timeout_ms: 30_000,
        topic_data: vec![kw::produce_request::TopicProduceData {
            name: "orders.events".into(),
            partition_data: (0..partitions)
                .map(|p| kw::produce_request::PartitionProduceData {
                    index: p as i32,
                    records: Some(payload(record_bytes, p as u8)),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// FetchResponse: one topic, `partitions` partitions of `record_bytes` each.
pub fn fetch_response(partitions: usize, record_bytes: usize) -> kw::FetchResponse {
    kw::FetchResponse {
        throttle_time_ms: 0,
        error_code: 0,
        session_id: 123_456,
        responses: vec![kw::fetch_response::FetchableTopicResponse {
            topic: "orders.events".into(),
            partitions: (0..partitions)
                .map(|p| kw::fetch_response::PartitionData {
                    partition_index: p as i32,
                    error_code: 0,
                    high_watermark: 1_000_000 + p as i64,
                    last_stable_offset: 1_000_000 + p as i64,
                    log_start_offset: 0,
                    aborted_transactions: Some(Vec::new()),
                    preferred_read_replica: -1,
                    records: Some(payload(record_bytes, p as u8)),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// ApiVersionsResponse: every api key of kwire's api table with its versions.
pub fn api_versions_response() -> kw::ApiVersionsResponse {
    kw::ApiVersionsResponse {
        error_code: 0,
        api_keys: kwire::api::API_INFO
            .iter()
            .map(|info| kw::api_versions_response::ApiVersion {
                api_key: info.api_key.code(),
                min_version: info.valid_versions.min,
                max_version: info.valid_versions.max,
                ..Default::default()
            })
            .collect(),
        throttle_time_ms: 0,
        ..Default::default()
    }
}

/// CreateTopicsRequest: `topics` topics with `configs` configs each.
pub fn create_topics_request(topics: usize, configs: usize) -> kw::CreateTopicsRequest {
    const NAMES: [&str; 10] = [
        "cleanup.policy",
        "compression.type",
        "retention.ms",
        "retention.bytes",
        "segment.bytes",
        "segment.ms",
        "min.insync.replicas",
        "max.message.bytes",
        "message.timestamp.type",
        "unclean.leader.election.enable",
    ];
    const VALUES: [&str; 10] =
        ["compact,delete", "zstd", "604800000", "-1", "1073741824", "86400000", "2", "1048588", "CreateTime", "false"];
    kw::CreateTopicsRequest {
        topics: (0..topics)
            .map(|t| kw::create_topics_request::CreatableTopic {
                name: format!("orders.events.topic-{t:05}").into(),
                num_partitions: 16,
                replication_factor: 3,
                assignments: Vec::new(),
                configs: (0..configs)
                    .map(|c| kw::create_topics_request::CreatableTopicConfig {
                        name: NAMES[c % NAMES.len()].into(),
                        value: Some(VALUES[c % VALUES.len()].into()),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        timeout_ms: 60_000,
        validate_only: false,
        ..Default::default()
    }
}

/// RequestHeader v2 of a Fetch request.
pub fn request_header() -> kw::RequestHeader {
    kw::RequestHeader {
        request_api_key: 1,
        request_api_version: 12,
        correlation_id: 42,
        client_id: Some("consumer-orders-service-1".into()),
        ..Default::default()
    }
}

pub type Metadata = Case<kw::MetadataResponse, kafka_protocol::messages::MetadataResponse>;
pub type Produce = Case<kw::ProduceRequest, kafka_protocol::messages::ProduceRequest>;
pub type Fetch = Case<kw::FetchResponse, kafka_protocol::messages::FetchResponse>;
pub type ApiVersions = Case<kw::ApiVersionsResponse, kafka_protocol::messages::ApiVersionsResponse>;
pub type CreateTopics = Case<kw::CreateTopicsRequest, kafka_protocol::messages::CreateTopicsRequest>;
pub type Header = Case<kw::RequestHeader, kafka_protocol::messages::RequestHeader>;

/// The six messages of the comparison, at the sizes of docs/performance.md.
pub fn metadata() -> Metadata {
    Case::new("MetadataResponse", metadata_response(1000, 16), 12)
}
pub fn produce() -> Produce {
    Case::new("ProduceRequest", produce_request(100, 64 * 1024), 9)
}
pub fn fetch() -> Fetch {
    Case::new("FetchResponse", fetch_response(16, 1024 * 1024), 12)
}
pub fn api_versions() -> ApiVersions {
    Case::new("ApiVersionsResponse", api_versions_response(), 3)
}
pub fn create_topics() -> CreateTopics {
    Case::new("CreateTopicsRequest", create_topics_request(100, 10), 7)
}
pub fn header() -> Header {
    Case::new("RequestHeader", request_header(), 2)
}
