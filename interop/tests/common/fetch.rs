//! Reading partitions with the blocking connection of interop/tests/common/conn.rs
//! ([`Conn::connect`]), for the tests that read from the real cluster of
//! `interop/scripts/kafka-cluster.sh`: a topic's partitions, a log start offset,
//! every batch of a partition; and writing a batch. Only core api keys
//! (Metadata, ListOffsets, Fetch, Produce), so that it builds with every
//! feature set the tests are built with.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use kwire::messages::fetch_request::{FetchPartition, FetchTopic};
use kwire::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kwire::messages::metadata_request::MetadataRequestTopic;
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::{FetchRequest, ListOffsetsRequest, MetadataRequest, ProduceRequest};
use kwire::primitives::Uuid;
use kwire::records::{Batch, Batches, RecordBatch};
use kwire::{Bytes, BytesMut};

use super::conn::Conn;

/// Error codes a client waits out (a new topic's leadership spreading, a
/// coordinator loading): UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE,
/// NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_ID.
pub fn retriable(code: i16) -> bool {
    matches!(code, 3 | 5 | 6 | 100)
}

/// OFFSET_OUT_OF_RANGE: the fetch offset is below the log start (records
/// deleted: by retention, or, for `__share_group_state`, by the share
/// coordinator, which deletes the records a newer snapshot replaces).
pub const OFFSET_OUT_OF_RANGE: i16 = 1;

/// What [`Conn::fetch_all`] read from one partition.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Every complete batch from the log start to the high watermark, back
    /// to back, as the broker sent them (a partial batch at the end of a
    /// response is fetched again whole by the next request).
    pub records: Bytes,
    /// The batches of `records`, in order.
    pub batches: Vec<RecordBatch>,
    /// The offset the reading started at: the log start offset.
    pub start_offset: i64,
    /// The high watermark when the reading ended.
    pub high_watermark: i64,
}

impl Conn {
    /// Produces `records` (record batches, back to back) to `partition` of
    /// `topic` with acks -1, once: the partition's error code and base offset.
    pub fn produce(&mut self, topic: &str, topic_id: Uuid, partition: i32, records: Bytes) -> (i16, i64) {
        let response = self.call(ProduceRequest {
            acks: -1,
            timeout_ms: 30_000,
            topic_data: vec![TopicProduceData {
                name: topic.into(),
                topic_id,
                partition_data: vec![PartitionProduceData {
                    index: partition,
                    records: Some(records),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        });
        let p = &response.responses[0].partition_responses[0];
        (p.error_code, p.base_offset)
    }

    /// The id and partition indexes of `topic` (internal topics included),
    /// waiting up to 30 s for it to exist and every partition to have a leader.
    pub fn partitions(&mut self, topic: &str) -> (Uuid, Vec<i32>) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let metadata = self.call(MetadataRequest {
                topics: Some(vec![MetadataRequestTopic { name: Some(topic.into()), ..Default::default() }]),
                allow_auto_topic_creation: false,
                ..Default::default()
            });
            let t = &metadata.topics[0];
            let ready = t.error_code == 0
                && !t.partitions.is_empty()
                && t.partitions.iter().all(|p| p.error_code == 0 && p.leader_id >= 0);
            if ready {
                let mut partitions: Vec<i32> = t.partitions.iter().map(|p| p.partition_index).collect();
                partitions.sort();
                return (t.topic_id, partitions);
            }
            assert!(
                retriable(t.error_code) || t.error_code == 0,
                "Metadata {topic}: error {} ({:?})",
                t.error_code,
                t.partitions
            );
            assert!(Instant::now() < deadline, "{topic} not ready within 30 s: {t:?}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The log start offset of `topic`'s `partition` (ListOffsets, timestamp
    /// -2: earliest).
    pub fn log_start_offset(&mut self, topic: &str, partition: i32) -> i64 {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let response = self.call(ListOffsetsRequest {
                replica_id: -1,
                isolation_level: 0,
                topics: vec![ListOffsetsTopic {
                    name: topic.into(),
                    partitions: vec![ListOffsetsPartition {
                        partition_index: partition,
                        current_leader_epoch: -1,
                        timestamp: -2,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            });
            let p = &response.topics[0].partitions[0];
            if retriable(p.error_code) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            assert_eq!(p.error_code, 0, "ListOffsets {topic}-{partition}");
            return p.offset;
        }
    }

    /// Every complete batch of `topic`'s `partition` from its log start up
    /// to the high watermark, fetched at `read_uncommitted` (aborted data and
    /// transaction markers included), 1 MiB per request.
    ///
    /// # Panics
    /// On an error code other than the retriable ones (waited out for 30 s)
    /// and OFFSET_OUT_OF_RANGE (the log start moved: the reading goes on
    /// from the new one, what was deleted meanwhile left out), on a legacy
    /// (magic 0 or 1) entry, or a batch failing its checks (CRC included).
    pub fn fetch_all(&mut self, topic: &str, topic_id: Uuid, partition: i32) -> Fetched {
        let mut out = BytesMut::new();
        let mut batches = Vec::new();
        let mut offset = self.log_start_offset(topic, partition);
        let start_offset = offset;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let response = self.call(FetchRequest {
                max_wait_ms: 100,
                min_bytes: 1,
                isolation_level: 0, // read_uncommitted
                topics: vec![FetchTopic {
                    topic: topic.into(),
                    topic_id,
                    partitions: vec![FetchPartition {
                        partition,
                        fetch_offset: offset,
                        partition_max_bytes: 1 << 20,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            });
            assert_eq!(response.error_code, 0, "Fetch {topic}-{partition}");
            let p = &response.responses[0].partitions[0];
            if retriable(p.error_code) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            if p.error_code == OFFSET_OUT_OF_RANGE && Instant::now() < deadline {
                // An error response carries no log start offset (-1): ask.
                let start = self.log_start_offset(topic, partition);
                assert!(start > offset, "{topic}-{partition}: offset {offset} out of range, log start {start}");
                offset = start;
                continue;
            }
            assert_eq!(p.error_code, 0, "Fetch {topic}-{partition} at {offset}");
            for entry in Batches::new(p.records.clone().unwrap_or_default()) {
                let entry = entry.unwrap_or_else(|e| panic!("{topic}-{partition}: a batch at {offset} fails: {e}"));
                let Batch::V2(batch) = entry else { panic!("{topic}-{partition}: a legacy entry at {offset}") };
                // A fetch may start with the batch holding `offset`.
                if batch.header().last_offset() < offset {
                    continue;
                }
                offset = batch.header().last_offset() + 1;
                out.extend_from_slice(batch.as_bytes());
                batches.push(batch);
            }
            if offset >= p.high_watermark {
                return Fetched { records: out.freeze(), batches, start_offset, high_watermark: p.high_watermark };
            }
            assert!(
                Instant::now() < deadline,
                "{topic}-{partition}: fetched to {offset}, high watermark {}",
                p.high_watermark
            );
        }
    }
}
