//! Entity accessors: every field the schemas mark with an `entityType`,
//! visited and rewritten in requests and responses, nested structs and arrays
//! included, at the fields present at the version.

use kwire::entity::{Entities, EntityType, EntityValue, EntityValueMut};
use kwire::message::Message;
use kwire::messages::find_coordinator_request::FindCoordinatorRequest;
use kwire::messages::metadata_response::{MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic};
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::{MetadataResponse, ProduceRequest, RequestBody, ResponseBody};
use kwire::BytesMut;

/// (entity type, schema field name, value as text) of every entity visited.
fn entities(value: &impl Entities, version: i16) -> Vec<(EntityType, &'static str, String)> {
    let mut out = Vec::new();
    value.visit_entities(version, &mut |e| out.push((e.entity_type, e.field, e.value.to_string())));
    out
}

/// Prefixes every topic name with `tenant-`.
fn prefix_topics(value: &mut impl Entities, version: i16) {
    value.rewrite_entities(version, &mut |e| {
        if let (EntityType::TopicName, EntityValueMut::Str(name)) = (e.entity_type, e.value) {
            *name = format!("tenant-{name}").into();
        }
    });
}

fn round_trip<M: Message>(value: &M, version: i16) -> M {
    let mut buf = BytesMut::new();
    value.encode(&mut buf, version).expect("encodes");
    M::decode(&mut buf.freeze(), version).expect("decodes")
}

fn metadata_response() -> MetadataResponse {
    MetadataResponse {
        brokers: vec![
            MetadataResponseBroker { node_id: 1, host: "b1".into(), port: 9092, ..Default::default() },
            MetadataResponseBroker { node_id: 2, host: "b2".into(), port: 9092, ..Default::default() },
        ],
        controller_id: 2,
        topics: vec![MetadataResponseTopic {
            name: Some("orders".into()),
            partitions: vec![MetadataResponsePartition {
                partition_index: 0,
                leader_id: 1,
                replica_nodes: vec![1, 2],
                isr_nodes: vec![1],
                offline_replicas: vec![2],
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn metadata_response_lists_brokers_and_topics() {
    use EntityType::{BrokerId, TopicName};
    let response = metadata_response();
    let s = |v: &str| v.to_string();
    assert_eq!(
        entities(&response, 12),
        [
            (BrokerId, "NodeId", s("1")),
            (BrokerId, "NodeId", s("2")),
            (BrokerId, "ControllerId", s("2")),
            (TopicName, "Name", s("orders")),
            (BrokerId, "LeaderId", s("1")),
            (BrokerId, "ReplicaNodes", s("1")),
            (BrokerId, "ReplicaNodes", s("2")),
            (BrokerId, "IsrNodes", s("1")),
            (BrokerId, "OfflineReplicas", s("2")),
        ]
    );
    // v0 has neither ControllerId (1+) nor OfflineReplicas (5+).
    let v0 = entities(&response, 0);
    assert_eq!(v0.len(), 7, "{v0:?}");
    assert!(!v0.iter().any(|(_, field, _)| *field == "ControllerId" || *field == "OfflineReplicas"));
    // Through the dispatch enum: the same list.
    assert_eq!(entities(&ResponseBody::Metadata(response.clone()), 12), entities(&response, 12));
}

#[test]
fn metadata_response_rewrite_encodes_renamed() {
    let mut response = metadata_response();
    prefix_topics(&mut response, 12);
    // Broker ids shifted by 100, as a proxy that renumbers brokers would.
    response.rewrite_entities(12, &mut |e| {
        if let (EntityType::BrokerId, EntityValueMut::Int32(id)) = (e.entity_type, e.value) {
            *id += 100;
        }
    });
    let decoded = round_trip(&response, 12);
    assert_eq!(decoded.topics[0].name.as_deref(), Some("tenant-orders"));
    assert_eq!(decoded.brokers.iter().map(|b| b.node_id).collect::<Vec<_>>(), [101, 102]);
    assert_eq!(decoded.controller_id, 102);
    let p = &decoded.topics[0].partitions[0];
    assert_eq!(
        (p.leader_id, &p.replica_nodes[..], &p.isr_nodes[..], &p.offline_replicas[..]),
        (101, &[101, 102][..], &[101][..], &[102][..])
    );
    // Nothing else moved: the partition index is not a broker id.
    assert_eq!(p.partition_index, 0);
}

#[test]
fn produce_request_topics_and_transactional_id() {
    let mut request = ProduceRequest {
        transactional_id: Some("tx-1".into()),
        acks: -1,
        timeout_ms: 1000,
        topic_data: ["orders", "payments"]
            .into_iter()
            .map(|name| TopicProduceData {
                name: name.into(),
                partition_data: vec![PartitionProduceData { index: 0, records: None, ..Default::default() }],
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let s = |v: &str| v.to_string();
    assert_eq!(
        entities(&request, 9),
        [
            (EntityType::TransactionalId, "TransactionalId", s("tx-1")),
            (EntityType::TopicName, "Name", s("orders")),
            (EntityType::TopicName, "Name", s("payments")),
        ]
    );
    // v2 has no TransactionalId (3+).
    assert_eq!(entities(&request, 2).len(), 2);
    // v13 names topics by id: Name (0-12) is not on the wire, and not visited.
    assert_eq!(entities(&request, 13), [(EntityType::TransactionalId, "TransactionalId", s("tx-1"))]);

    let mut body = RequestBody::Produce(request.clone());
    prefix_topics(&mut body, 9);
    let RequestBody::Produce(renamed) = &body else { panic!("still a Produce body") };
    let decoded = round_trip(renamed, 9);
    assert_eq!(decoded.topic_data.iter().map(|t| &*t.name).collect::<Vec<_>>(), ["tenant-orders", "tenant-payments"]);
    assert_eq!(decoded.transactional_id.as_deref(), Some("tx-1"));
    // Rewriting at v13 leaves the (absent) names alone, so the request still encodes at v13.
    prefix_topics(&mut request, 13);
    assert_eq!(request.topic_data[0].name, "orders");
}

#[test]
fn find_coordinator_keys_have_no_entity_type() {
    // Kafka's schema gives Key and CoordinatorKeys no entityType: a key is a
    // group id or a transactional id depending on KeyType, so a proxy
    // rewrites them itself, by KeyType.
    let request =
        FindCoordinatorRequest { key_type: 0, coordinator_keys: vec!["group-a".into()], ..Default::default() };
    assert_eq!(entities(&request, 4), []);
    assert_eq!(entities(&RequestBody::FindCoordinator(request), 4), []);
}

#[test]
fn values_are_typed() {
    let response = metadata_response();
    let mut kinds = Vec::new();
    response.visit_entities(12, &mut |e| {
        kinds.push(match e.value {
            EntityValue::Str(_) => "string",
            EntityValue::Int32(_) => "int32",
            EntityValue::Int64(_) => "int64",
            _ => "other",
        })
    });
    assert_eq!(kinds.iter().filter(|k| **k == "string").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "int32").count(), 8);
}
