//! Vectored encode: the chunks concatenate to exactly the copying encode,
//! and every large `records` value is handed out as its own chunk, sharing
//! memory with the message, at every version of Produce and Fetch.

use kwire::frame;
use kwire::message::Message;
use kwire::message::SHARE_MIN;
use kwire::messages::fetch_response::{FetchableTopicResponse, PartitionData};
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::{FetchResponse, ProduceRequest, ResponseBody, ResponseHeader};
use kwire::{Bytes, BytesMut};

fn records(len: usize, fill: u8) -> Bytes {
    Bytes::from(vec![fill; len])
}

/// Checks the chunks of `message` at `version` against its copying encode
/// and returns how many of them are one of `shared` (by address).
fn check<M: Message>(message: &M, version: i16, shared: &[&Bytes]) -> usize {
    let chunks = message.encode_vectored(version).unwrap();
    let copied = message.to_bytes(version).unwrap();
    assert_eq!(chunks.concat(), copied, "{} v{version}", M::NAME);
    assert!(chunks.iter().all(|c| !c.is_empty()), "{} v{version}: an empty chunk", M::NAME);
    let back = M::decode_exact(Bytes::from(chunks.concat()), version).unwrap();
    assert_eq!(&back, message);
    chunks.iter().filter(|c| shared.iter().any(|s| s.as_ptr() == c.as_ptr() && s.len() == c.len())).count()
}

#[test]
fn produce_shares_large_records_at_every_version() {
    let (big, other_big) = (records(64 * 1024, 1), records(SHARE_MIN, 2));
    let small = records(SHARE_MIN - 1, 3);
    let mut request = ProduceRequest {
        acks: -1,
        timeout_ms: 30_000,
        topic_data: vec![TopicProduceData {
            name: "orders".into(),
            partition_data: vec![
                PartitionProduceData { index: 0, records: Some(big.clone()), ..Default::default() },
                PartitionProduceData { index: 1, records: Some(small.clone()), ..Default::default() },
                PartitionProduceData { index: 2, records: None, ..Default::default() },
                PartitionProduceData { index: 3, records: Some(other_big.clone()), ..Default::default() },
            ],
            ..Default::default()
        }],
        ..Default::default()
    };
    for version in 3..=ProduceRequest::VERSIONS.max {
        if version == 13 {
            // v13 names topics by id (KIP-516).
            request.topic_data[0].name = "".into();
            request.topic_data[0].topic_id = kwire::primitives::Uuid::from_u128(0x1234);
        }
        assert_eq!(check(&request, version, &[&big, &other_big]), 2, "v{version}");
        assert_eq!(check(&request, version, &[&small]), 0, "v{version}: a small value is copied");
    }
}

#[test]
fn fetch_shares_large_records_at_every_version() {
    let parts: Vec<Bytes> = (0..4).map(|i| records(1 << 16, i)).collect();
    let response = FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic: "orders".into(),
            partitions: parts
                .iter()
                .enumerate()
                .map(|(i, r)| PartitionData {
                    partition_index: i as i32,
                    records: Some(r.clone()),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let shared: Vec<&Bytes> = parts.iter().collect();
    for version in 0..=12 {
        assert_eq!(check(&response, version, &shared), 4, "v{version}");
    }
}

#[test]
fn a_message_without_large_values_is_one_chunk() {
    let request = ProduceRequest { acks: 1, ..Default::default() };
    let chunks = request.encode_vectored(9).unwrap();
    assert_eq!(chunks, vec![request.to_bytes(9).unwrap()]);
}

#[test]
fn response_frame_chunks_match_the_copied_frame() {
    let big = records(1 << 20, 9);
    let body = ResponseBody::from(FetchResponse {
        responses: vec![FetchableTopicResponse {
            topic: "orders".into(),
            partitions: vec![PartitionData { records: Some(big.clone()), ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    });
    let header = ResponseHeader { correlation_id: 42, ..Default::default() };
    for version in [4, 11, 12] {
        let chunks = frame::ResponseFrame { header: header.clone(), body: body.clone(), version }
            .encode_vectored_sized()
            .unwrap();
        let mut whole = BytesMut::new();
        frame::size_prefix::encode(&mut whole, |b| frame::ResponseFrame::encode_parts(&header, &body, version, b))
            .unwrap();
        assert_eq!(chunks.concat(), whole, "v{version}");
        assert_eq!(chunks.iter().filter(|c| c.as_ptr() == big.as_ptr()).count(), 1);
        assert_eq!(&chunks[0][..4], &((whole.len() - 4) as i32).to_be_bytes());
    }
    // Nothing large enough to share: one chunk, the size patched in place.
    let small = ResponseBody::from(FetchResponse { throttle_time_ms: 5, ..Default::default() });
    for version in [4, 12] {
        let chunks = frame::ResponseFrame { header: header.clone(), body: small.clone(), version }
            .encode_vectored_sized()
            .unwrap();
        let mut whole = BytesMut::new();
        frame::size_prefix::encode(&mut whole, |b| frame::ResponseFrame::encode_parts(&header, &small, version, b))
            .unwrap();
        assert_eq!(chunks.len(), 1, "v{version}");
        assert_eq!(chunks[0], whole, "v{version}");
    }
}
