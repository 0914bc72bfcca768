//! Metadata: this node, the controller (also this node), and the topics
//! asked for, created first when they are unknown and auto-creation is on.
//! DescribeCluster: this node. Both name the advertised address.

use kwire::error_code::ErrorCode;
use kwire::messages::describe_cluster_response::DescribeClusterBroker;
use kwire::messages::metadata_response::{MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic};
use kwire::messages::{DescribeClusterRequest, DescribeClusterResponse, MetadataRequest, MetadataResponse};
use kwire::primitives::Uuid;
use kwire::ByteString;

use crate::connection::Context;
use crate::state::{valid_topic_name, Topic, Topics, LEADER_EPOCH};

/// A topic the client asked for, by name or (v10+) by id.
enum Wanted {
    Name(ByteString),
    Id(Uuid),
}

/// Answers Metadata at `version`.
pub async fn handle(cx: &Context, request: &MetadataRequest, version: i16) -> MetadataResponse {
    let config = &cx.broker.config;
    // v0: an empty list means every topic; v1+: null means every topic.
    let wanted: Option<Vec<Wanted>> = match &request.topics {
        Some(topics) if version == 0 && topics.is_empty() => None,
        None => None,
        Some(topics) => Some(
            topics
                .iter()
                .map(|t| match &t.name {
                    Some(name) => Wanted::Name(name.clone()),
                    None => Wanted::Id(t.topic_id),
                })
                .collect(),
        ),
    };
    let allow_auto_create = config.auto_create_topics && (version < 4 || request.allow_auto_topic_creation);
    if let (Some(wanted), true) = (&wanted, allow_auto_create) {
        let missing: Vec<ByteString> = {
            let topics = cx.broker.cluster.topics();
            wanted
                .iter()
                .filter_map(|w| match w {
                    Wanted::Name(name) if valid_topic_name(name) && topics.get(name).is_none() => Some(name.clone()),
                    _ => None,
                })
                .collect()
        };
        if !missing.is_empty() {
            let n = crate::state::Stats::bump(&cx.broker.cluster.stats.forwarded);
            log!("forward: auto-creating {missing:?} for Metadata v{version} as CreateTopics in an Envelope (forwarded: {n})");
            let created = cx
                .broker
                .controller
                .auto_create(&missing, config.default_partitions, &cx.principal(), cx.peer.ip())
                .await;
            if let Err(e) = created {
                log!("metadata: auto-creating {missing:?} failed: {e}");
            }
        }
    }

    let topics = cx.broker.cluster.topics();
    let topics_out = match wanted {
        None => topics.iter().map(|(name, topic)| describe(name, topic, config.node_id)).collect(),
        Some(wanted) => wanted.iter().map(|w| lookup(&topics, w, config.node_id)).collect(),
    };
    let (host, port) = config.advertised(cx.broker.port);
    MetadataResponse {
        brokers: vec![MetadataResponseBroker {
            node_id: config.node_id,
            host: host.into(),
            port: i32::from(port),
            rack: None,
            ..Default::default()
        }],
        cluster_id: Some(config.cluster_id.clone().into()),
        controller_id: config.node_id,
        topics: topics_out,
        ..Default::default()
    }
}

fn lookup(topics: &Topics, wanted: &Wanted, node: i32) -> MetadataResponseTopic {
    match wanted {
        Wanted::Name(name) => match topics.get(name) {
            Some(topic) => describe(name, topic, node),
            None => {
                let code = if valid_topic_name(name) {
                    ErrorCode::UnknownTopicOrPartition
                } else {
                    ErrorCode::InvalidTopicException
                };
                MetadataResponseTopic { error_code: code.code(), name: Some(name.clone()), ..Default::default() }
            }
        },
        Wanted::Id(id) => match topics.name_of(id).and_then(|name| topics.get(name).map(|t| (name, t))) {
            Some((name, topic)) => describe(name, topic, node),
            None => MetadataResponseTopic {
                error_code: ErrorCode::UnknownTopicId.code(),
                name: None,
                topic_id: *id,
                ..Default::default()
            },
        },
    }
}

fn describe(name: &str, topic: &Topic, node: i32) -> MetadataResponseTopic {
    let partitions = (0..topic.partitions.len())
        .map(|i| MetadataResponsePartition {
            error_code: 0,
            partition_index: i32::try_from(i).unwrap_or(i32::MAX),
            leader_id: node,
            leader_epoch: LEADER_EPOCH,
            replica_nodes: vec![node],
            isr_nodes: vec![node],
            offline_replicas: vec![],
            ..Default::default()
        })
        .collect();
    MetadataResponseTopic {
        error_code: 0,
        name: Some(name.into()),
        topic_id: topic.id,
        is_internal: false,
        partitions,
        ..Default::default()
    }
}

/// Answers DescribeCluster: this node, at its advertised address, also
/// named as the controller (as Kafka's brokers name a broker there).
pub fn describe_cluster(cx: &Context, request: &DescribeClusterRequest) -> DescribeClusterResponse {
    let config = &cx.broker.config;
    // Endpoint type 1 is brokers (the only one before v1), 2 controllers:
    // a broker answers only the first, as Kafka's do.
    if request.endpoint_type != 1 {
        return DescribeClusterResponse {
            error_code: ErrorCode::UnsupportedEndpointType.code(),
            error_message: Some("this node serves the brokers endpoint type (1) only".into()),
            endpoint_type: request.endpoint_type,
            cluster_id: config.cluster_id.clone().into(),
            controller_id: -1,
            cluster_authorized_operations: i32::MIN,
            ..Default::default()
        };
    }
    let (host, port) = config.advertised(cx.broker.port);
    DescribeClusterResponse {
        endpoint_type: 1,
        cluster_id: config.cluster_id.clone().into(),
        controller_id: config.node_id,
        brokers: vec![DescribeClusterBroker {
            broker_id: config.node_id,
            host: host.into(),
            port: i32::from(port),
            rack: None,
            is_fenced: false,
            ..Default::default()
        }],
        // Not asked for, or no authorizer: Kafka's "omitted" value.
        cluster_authorized_operations: i32::MIN,
        ..Default::default()
    }
}
