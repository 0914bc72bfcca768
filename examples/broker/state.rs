//! The cluster's data, in memory: topics, their partitions' logs of record
//! batches, and a signal that wakes fetches waiting for data.

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::{Bytes, BytesMut};
use kwire::error_code::ErrorCode;
use kwire::primitives::Uuid;
use kwire::records::{Batch, Batches, DecodeOptions, RecordBatch};
use kwire::ByteString;
use tokio::sync::watch;

/// Leader epoch of every partition: one node, never a new leader.
pub const LEADER_EPOCH: i32 = 0;

/// Everything the broker and the controller share.
pub struct Cluster {
    topics: Mutex<Topics>,
    /// Bumped after every append or topic change; fetches wait on it.
    data: watch::Sender<u64>,
    next_producer_id: AtomicI64,
    /// Counters printed at exit and checked by interop/scripts/e2e.sh.
    pub stats: Stats,
}

/// Counters of things worth knowing from outside.
#[derive(Default)]
pub struct Stats {
    /// Connections accepted.
    pub connections: AtomicU64,
    /// Successful SASL authentications, first ones and re-authentications.
    pub authentications: AtomicU64,
    /// Successful KIP-368 re-authentications.
    pub reauthentications: AtomicU64,
    /// Connections closed because their session expired.
    pub expired_sessions: AtomicU64,
    /// Requests forwarded to the controller in an Envelope.
    pub forwarded: AtomicU64,
}

impl Stats {
    /// Adds one to a counter and returns the new value.
    pub fn bump(counter: &AtomicU64) -> u64 {
        counter.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// One line with every counter.
    pub fn summary(&self) -> ByteString {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        format!(
            "connections={} authentications={} reauthentications={} expired_sessions={} forwarded={}",
            get(&self.connections),
            get(&self.authentications),
            get(&self.reauthentications),
            get(&self.expired_sessions),
            get(&self.forwarded)
        )
        .into()
    }
}

impl Cluster {
    /// An empty cluster.
    pub fn new() -> Self {
        Self {
            topics: Mutex::new(Topics::default()),
            data: watch::Sender::new(0),
            next_producer_id: AtomicI64::new(1000),
            stats: Stats::default(),
        }
    }

    /// The topics, locked. Never held across an `.await`.
    pub fn topics(&self) -> MutexGuard<'_, Topics> {
        self.topics.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A receiver that sees the next [`Cluster::data_changed`].
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.data.subscribe()
    }

    /// Wakes the fetches waiting for data.
    pub fn data_changed(&self) {
        self.data.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A new producer id for InitProducerId.
    pub fn next_producer_id(&self) -> i64 {
        self.next_producer_id.fetch_add(1, Ordering::Relaxed)
    }
}

/// The topics by name, and their names by topic id.
#[derive(Default)]
pub struct Topics {
    by_name: BTreeMap<ByteString, Topic>,
    names_by_id: HashMap<Uuid, ByteString>,
}

/// One topic.
pub struct Topic {
    /// Its topic id (Metadata v10+, Fetch v13+).
    pub id: Uuid,
    /// Its partitions, by index.
    pub partitions: Vec<PartitionLog>,
    /// Its config overrides (CreateTopics, AlterConfigs,
    /// IncrementalAlterConfigs), by name; checked by `configs`.
    pub configs: BTreeMap<ByteString, ByteString>,
}

impl Topics {
    /// The topic called `name`.
    pub fn get(&self, name: &str) -> Option<&Topic> {
        self.by_name.get(name)
    }

    /// The topic called `name`, to append to.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Topic> {
        self.by_name.get_mut(name)
    }

    /// The name of the topic with id `id`.
    pub fn name_of(&self, id: &Uuid) -> Option<&str> {
        self.names_by_id.get(id).map(|name| &**name)
    }

    /// Every topic, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&ByteString, &Topic)> {
        self.by_name.iter()
    }

    /// Creates a topic with `partitions` empty partitions and these config
    /// overrides; returns its id.
    pub fn create(&mut self, name: &str, partitions: i32, configs: BTreeMap<ByteString, ByteString>) -> Uuid {
        let mut id = random_uuid();
        while id.is_nil() || self.names_by_id.contains_key(&id) {
            id = random_uuid();
        }
        let count = usize::try_from(partitions).unwrap_or(0);
        let topic = Topic { id, partitions: (0..count).map(|_| PartitionLog::default()).collect(), configs };
        self.by_name.insert(name.into(), topic);
        self.names_by_id.insert(id, name.into());
        id
    }

    /// Deletes the topic called `name`; returns its id.
    pub fn delete(&mut self, name: &str) -> Option<Uuid> {
        let topic = self.by_name.remove(name)?;
        self.names_by_id.remove(&topic.id);
        Some(topic.id)
    }
}

impl Topic {
    /// The partition with index `index`.
    pub fn partition(&self, index: i32) -> Option<&PartitionLog> {
        usize::try_from(index).ok().and_then(|i| self.partitions.get(i))
    }

    /// The partition with index `index`, to append to.
    pub fn partition_mut(&mut self, index: i32) -> Option<&mut PartitionLog> {
        usize::try_from(index).ok().and_then(|i| self.partitions.get_mut(i))
    }
}

/// One partition's log: record batches v2 with the offsets this broker
/// gave them.
#[derive(Default)]
pub struct PartitionLog {
    batches: Vec<StoredBatch>,
    log_end_offset: i64,
}

/// A batch as stored: its bytes, base offset rewritten.
struct StoredBatch {
    last_offset: i64,
    /// The largest record timestamp in this batch and every batch before
    /// it, and the offset of the first record with it: the index that
    /// ListOffsets searches, so that it decodes one batch at most.
    max_so_far: (i64, i64),
    bytes: Bytes,
}

/// The record batches of one partition of a Produce request, checked and
/// indexed by [`check_records`] before the topics are locked to append them.
pub struct CheckedRecords {
    batches: Vec<CheckedBatch>,
}

struct CheckedBatch {
    bytes: BytesMut,
    last_offset_delta: i32,
    /// The largest record timestamp and the offset delta of the first
    /// record with it.
    max_timestamp: (i64, i64),
}

/// Checks the record batches of a Produce request: every batch must be a
/// whole v2 batch with a good CRC and records that decode (as Kafka's log
/// validator reads them), and finds each batch's largest record timestamp.
/// It reads every record, so it runs before the topics are locked.
pub fn check_records(records: Bytes) -> Result<CheckedRecords, ErrorCode> {
    let mut options = DecodeOptions::default();
    options.reject_partial_batch = true;
    let mut batches = Vec::new();
    for batch in Batches::with_options(records, options) {
        let batch = match batch {
            Ok(Batch::V2(batch)) => batch,
            Ok(Batch::Legacy(_)) => return Err(ErrorCode::UnsupportedForMessageFormat),
            Err(_) => return Err(ErrorCode::CorruptMessage),
        };
        let header = *batch.header();
        if header.last_offset_delta < 0 || header.record_count <= 0 {
            return Err(ErrorCode::InvalidRecord);
        }
        let records = batch.records(&options).map_err(|_| ErrorCode::CorruptMessage)?;
        let mut max_timestamp: Option<(i64, i64)> = None;
        for record in records {
            let record = record.map_err(|_| ErrorCode::CorruptMessage)?;
            let timestamp = header.timestamp_of(&record);
            if max_timestamp.is_none_or(|(max, _)| timestamp > max) {
                max_timestamp = Some((timestamp, i64::from(record.offset_delta)));
            }
        }
        let max_timestamp = max_timestamp.ok_or(ErrorCode::InvalidRecord)?;
        let bytes = BytesMut::from(&batch.as_bytes()[..]);
        batches.push(CheckedBatch { bytes, last_offset_delta: header.last_offset_delta, max_timestamp });
    }
    if batches.is_empty() {
        return Err(ErrorCode::InvalidRecord);
    }
    Ok(CheckedRecords { batches })
}

impl PartitionLog {
    /// The first offset in the log (nothing is ever deleted here).
    pub fn log_start_offset(&self) -> i64 {
        0
    }

    /// The offset the next record gets; also the high watermark and the
    /// last stable offset (one replica, no transactions).
    pub fn log_end_offset(&self) -> i64 {
        self.log_end_offset
    }

    /// Appends checked record batches and returns the offset of the first
    /// record. Each batch's base offset is rewritten to the next offset of
    /// the log and its partition leader epoch stamped; neither is covered by
    /// the CRC, so the bytes stay valid.
    pub fn append(&mut self, records: CheckedRecords) -> i64 {
        let base_offset = self.log_end_offset;
        let mut next = base_offset;
        let mut max_so_far = self.batches.last().map_or((i64::MIN, -1), |b| b.max_so_far);
        for CheckedBatch { mut bytes, last_offset_delta, max_timestamp: (timestamp, delta) } in records.batches {
            bytes[0..8].copy_from_slice(&next.to_be_bytes());
            bytes[12..16].copy_from_slice(&LEADER_EPOCH.to_be_bytes());
            let last_offset = next + i64::from(last_offset_delta);
            if timestamp > max_so_far.0 {
                max_so_far = (timestamp, next + delta);
            }
            self.batches.push(StoredBatch { last_offset, max_so_far, bytes: bytes.freeze() });
            next = last_offset + 1;
        }
        self.log_end_offset = next;
        base_offset
    }

    /// Whole batches from the one holding `offset` on, at least one batch
    /// and then as many as fit in `max_bytes` (KIP-74).
    pub fn read(&self, offset: i64, max_bytes: usize) -> Bytes {
        let first = self.batches.partition_point(|b| b.last_offset < offset);
        let Some(head) = self.batches.get(first) else { return Bytes::new() };
        if first + 1 == self.batches.len() || head.bytes.len() >= max_bytes {
            return head.bytes.clone();
        }
        let mut out = BytesMut::new();
        for batch in &self.batches[first..] {
            if !out.is_empty() && out.len() + batch.bytes.len() > max_bytes {
                break;
            }
            out.extend_from_slice(&batch.bytes);
        }
        out.freeze()
    }

    /// The batch holding the first record whose timestamp is at least
    /// `timestamp` (ListOffsets with a timestamp), found by binary search
    /// without decoding; [`first_at_or_after`] finds the record in it.
    pub fn batch_for_timestamp(&self, timestamp: i64) -> Option<Bytes> {
        let first = self.batches.partition_point(|b| b.max_so_far.0 < timestamp);
        self.batches.get(first).map(|b| b.bytes.clone())
    }

    /// The record with the largest timestamp, the first of equals: its
    /// offset and timestamp (ListOffsets MAX_TIMESTAMP, -3).
    pub fn max_timestamp(&self) -> Option<(i64, i64)> {
        self.batches.last().map(|b| (b.max_so_far.1, b.max_so_far.0))
    }
}

/// The first record of a stored batch whose timestamp is at least
/// `timestamp`: its offset and timestamp.
pub fn first_at_or_after(batch: Bytes, timestamp: i64) -> Option<(i64, i64)> {
    let parsed = RecordBatch::parse(batch).ok()?;
    let header = *parsed.header();
    let records = parsed.records(&DecodeOptions::default()).ok()?;
    records
        .map_while(Result::ok)
        .map(|r| (header.offset_of(&r), header.timestamp_of(&r)))
        .find(|(_, ts)| *ts >= timestamp)
}

/// Kafka's rule for topic names: 1 to 249 of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn valid_topic_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 249
        && name != "."
        && name != ".."
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A random version-4 UUID, from the standard library's random hasher keys.
pub fn random_uuid() -> Uuid {
    let half = || {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        h.finish()
    };
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&half().to_be_bytes());
    bytes[8..].copy_from_slice(&half().to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    Uuid(bytes)
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::records::RecordBatchBuilder;

    fn batch(n: usize, ts: i64) -> Bytes {
        let mut b = RecordBatchBuilder::new(0);
        for i in 0..n {
            b.append(ts + i as i64, None, Some(Bytes::from(format!("v{i}"))), vec![]);
        }
        b.to_bytes().unwrap()
    }

    fn append(log: &mut PartitionLog, records: Bytes) -> Result<i64, ErrorCode> {
        Ok(log.append(check_records(records)?))
    }

    fn offset_for_timestamp(log: &PartitionLog, timestamp: i64) -> Option<(i64, i64)> {
        first_at_or_after(log.batch_for_timestamp(timestamp)?, timestamp)
    }

    #[test]
    fn append_assigns_offsets_and_keeps_crcs() {
        let mut log = PartitionLog::default();
        assert_eq!(append(&mut log, batch(3, 100)), Ok(0));
        assert_eq!(append(&mut log, batch(2, 200)), Ok(3));
        assert_eq!(log.log_end_offset(), 5);
        let all = log.read(0, 1 << 20);
        let offsets: Vec<i64> = Batches::new(all)
            .map(|b| {
                let Batch::V2(b) = b.unwrap() else { panic!("v2") };
                b.verify_crc().unwrap();
                b.header().base_offset
            })
            .collect();
        assert_eq!(offsets, [0, 3]);
        // From the middle of the second batch: that batch whole.
        let tail = log.read(4, 1);
        assert_eq!(Batches::new(tail).next().unwrap().unwrap().base_offset(), 3);
        assert!(log.read(5, 1 << 20).is_empty());
    }

    #[test]
    fn append_refuses_bad_input() {
        let mut log = PartitionLog::default();
        let good = batch(1, 0);
        let mut corrupt = BytesMut::from(&good[..]);
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0xff;
        assert_eq!(append(&mut log, corrupt.freeze()), Err(ErrorCode::CorruptMessage));
        assert_eq!(append(&mut log, good.slice(..good.len() - 3)), Err(ErrorCode::CorruptMessage));
        assert_eq!(append(&mut log, Bytes::new()), Err(ErrorCode::InvalidRecord));
        assert_eq!(log.log_end_offset(), 0);
    }

    #[test]
    fn timestamps() {
        let mut log = PartitionLog::default();
        append(&mut log, batch(3, 100)).unwrap();
        append(&mut log, batch(3, 50)).unwrap();
        assert_eq!(offset_for_timestamp(&log, 101), Some((1, 101)));
        assert_eq!(offset_for_timestamp(&log, 103), None);
        assert_eq!(log.max_timestamp(), Some((2, 102)));
        assert_eq!(offset_for_timestamp(&log, 51), Some((0, 100)));
    }

    #[test]
    fn timestamps_are_found_by_the_index_not_by_the_batch_headers() {
        // Batch headers that claim a max timestamp none of their records has:
        // the index goes by the records, read once at append, so a lookup
        // decodes at most the one batch that holds the answer.
        let mut log = PartitionLog::default();
        for i in 0..1000 {
            let mut b = RecordBatchBuilder::new(0);
            b.max_timestamp(i64::MAX).append(i, None, Some(Bytes::from_static(b"v")), vec![]);
            append(&mut log, b.to_bytes().unwrap()).unwrap();
        }
        assert!(log.batch_for_timestamp(1000).is_none());
        assert_eq!(log.max_timestamp(), Some((999, 999)));
        assert_eq!(offset_for_timestamp(&log, 500), Some((500, 500)));
        // A later batch with an earlier timestamp: the first record at or after it.
        append(&mut log, batch(1, 10)).unwrap();
        assert_eq!(offset_for_timestamp(&log, 10), Some((10, 10)));
        assert_eq!(log.max_timestamp(), Some((999, 999)));
    }

    #[test]
    fn topic_names() {
        assert!(valid_topic_name("t-kcat_1.x"));
        assert!(!valid_topic_name("") && !valid_topic_name("..") && !valid_topic_name("a b"));
        assert!(!valid_topic_name(&"x".repeat(250)));
    }
}
