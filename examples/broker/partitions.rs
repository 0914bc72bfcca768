//! The data path: Produce, Fetch (with long polling), ListOffsets and
//! InitProducerId.

use std::time::Duration;

use kwire::error_code::ErrorCode;
use kwire::messages::fetch_response::{FetchableTopicResponse, PartitionData};
use kwire::messages::list_offsets_response::{ListOffsetsPartitionResponse, ListOffsetsTopicResponse};
use kwire::messages::produce_response::{PartitionProduceResponse, TopicProduceResponse};
use kwire::messages::{
    FetchRequest, FetchResponse, InitProducerIdRequest, InitProducerIdResponse, ListOffsetsRequest,
    ListOffsetsResponse, ProduceRequest, ProduceResponse,
};
use kwire::Bytes;
use tokio::time::Instant;

use crate::connection::Context;
use crate::state::{check_records, first_at_or_after, CheckedRecords, Cluster, Topics, LEADER_EPOCH};

/// The longest a Fetch waits for data, whatever it asks.
const MAX_FETCH_WAIT: Duration = Duration::from_secs(10);

/// Answers Produce; `None` for `acks = 0`, which gets no response.
///
/// The records are checked (every record read) on a blocking thread before
/// the topics are locked, so a large or compressed Produce holds up neither
/// the other connections nor the runtime.
pub async fn produce(cx: &Context, request: &ProduceRequest) -> Option<ProduceResponse> {
    let refuse = if !matches!(request.acks, -1..=1) {
        Some(ErrorCode::InvalidRequiredAcks)
    } else if request.transactional_id.is_some() {
        // Transactions are not implemented.
        Some(ErrorCode::TransactionalIdAuthorizationFailed)
    } else {
        None
    };
    let records: Vec<Option<Bytes>> = match refuse {
        Some(_) => Vec::new(),
        None => request.topic_data.iter().flat_map(|t| t.partition_data.iter().map(|p| p.records.clone())).collect(),
    };
    let mut checked = tokio::task::spawn_blocking(move || {
        records.into_iter().map(|r| check_records(r.ok_or(ErrorCode::InvalidRecord)?)).collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default()
    .into_iter();
    let cluster = &cx.broker.cluster;
    let mut appended = 0;
    let responses = {
        let mut topics = cluster.topics();
        request
            .topic_data
            .iter()
            .map(|topic| TopicProduceResponse {
                name: topic.name.clone(),
                partition_responses: topic
                    .partition_data
                    .iter()
                    .map(|p| {
                        let result = match refuse {
                            Some(code) => Err(code),
                            None => checked
                                .next()
                                .unwrap_or(Err(ErrorCode::UnknownServerError))
                                .and_then(|records| append(&mut topics, &topic.name, p.index, records)),
                        };
                        let mut out = PartitionProduceResponse { index: p.index, ..Default::default() };
                        match result {
                            Ok(base_offset) => {
                                appended += 1;
                                out.base_offset = base_offset;
                                out.log_start_offset = 0;
                            }
                            Err(code) => {
                                out.error_code = code.code();
                                out.base_offset = -1;
                            }
                        }
                        out
                    })
                    .collect(),
                ..Default::default()
            })
            .collect()
    };
    if appended > 0 {
        cluster.data_changed();
    }
    (request.acks != 0).then(|| ProduceResponse { responses, ..Default::default() })
}

fn append(topics: &mut Topics, name: &str, partition: i32, records: CheckedRecords) -> Result<i64, ErrorCode> {
    let log =
        topics.get_mut(name).and_then(|t| t.partition_mut(partition)).ok_or(ErrorCode::UnknownTopicOrPartition)?;
    Ok(log.append(records))
}

/// Answers Fetch at `version`: whatever the partitions hold from the
/// offsets asked, waiting up to `max_wait_ms` for `min_bytes` to arrive.
/// No fetch sessions (KIP-227): every answer has session id 0, so clients
/// send full requests.
pub async fn fetch(cx: &Context, request: &FetchRequest, version: i16) -> FetchResponse {
    if version >= 7 && request.session_id != 0 {
        return FetchResponse { error_code: ErrorCode::FetchSessionIdNotFound.code(), ..Default::default() };
    }
    let cluster = &cx.broker.cluster;
    let wait = Duration::from_millis(u64::try_from(request.max_wait_ms).unwrap_or(0)).min(MAX_FETCH_WAIT);
    let deadline = Instant::now() + wait;
    loop {
        // Subscribe before reading, so an append in between wakes us.
        let mut changed = cluster.subscribe();
        let (response, bytes, errors) = read(cluster, request, version);
        let enough = bytes >= usize::try_from(request.min_bytes).unwrap_or(0);
        if enough || errors || Instant::now() >= deadline {
            return response;
        }
        // Wakes on new data (or a topic change), else at the deadline.
        if tokio::time::timeout_at(deadline, changed.changed()).await.is_err() {
            return read(cluster, request, version).0;
        }
    }
}

/// One pass over the partitions asked: the response, the record bytes in
/// it, and whether any partition had an error.
fn read(cluster: &Cluster, request: &FetchRequest, version: i16) -> (FetchResponse, usize, bool) {
    let topics = cluster.topics();
    let mut budget = usize::try_from(request.max_bytes).unwrap_or(0).max(1);
    let mut total = 0;
    let mut errors = false;
    let responses = request
        .topics
        .iter()
        .map(|wanted| {
            // Before v13 by name, from v13 by topic id.
            let name = if version >= 13 {
                topics.name_of(&wanted.topic_id).map(str::to_string)
            } else {
                Some(wanted.topic.to_string())
            };
            let topic = name.as_deref().and_then(|n| topics.get(n));
            let partitions = wanted
                .partitions
                .iter()
                .map(|p| {
                    let mut out = PartitionData {
                        partition_index: p.partition,
                        records: Some(Bytes::new()),
                        ..Default::default()
                    };
                    let log = topic.and_then(|t| t.partition(p.partition));
                    let Some(log) = log else {
                        errors = true;
                        out.error_code = if version >= 13 && topic.is_none() {
                            ErrorCode::UnknownTopicId.code()
                        } else {
                            ErrorCode::UnknownTopicOrPartition.code()
                        };
                        out.high_watermark = -1;
                        return out;
                    };
                    out.high_watermark = log.log_end_offset();
                    out.last_stable_offset = log.log_end_offset();
                    out.log_start_offset = log.log_start_offset();
                    if p.fetch_offset < log.log_start_offset() || p.fetch_offset > log.log_end_offset() {
                        errors = true;
                        out.error_code = ErrorCode::OffsetOutOfRange.code();
                        return out;
                    }
                    let limit = usize::try_from(p.partition_max_bytes).unwrap_or(0).min(budget).max(1);
                    let records = log.read(p.fetch_offset, limit);
                    total += records.len();
                    budget = budget.saturating_sub(records.len()).max(1);
                    out.records = Some(records);
                    out
                })
                .collect();
            FetchableTopicResponse {
                topic: wanted.topic.clone(),
                topic_id: wanted.topic_id,
                partitions,
                ..Default::default()
            }
        })
        .collect();
    (FetchResponse { responses, ..Default::default() }, total, errors)
}

/// Answers ListOffsets: earliest (-2), latest (-1), max timestamp (-3),
/// earliest local (-4) or the first offset at or after a timestamp.
///
/// Under the topics lock each partition is answered from its index; a
/// timestamp lookup takes out the one batch that holds the answer, which is
/// decoded after the lock is released, on a blocking thread.
pub async fn list_offsets(cx: &Context, request: &ListOffsetsRequest, version: i16) -> ListOffsetsResponse {
    let mut lookups = Vec::new();
    let mut topics_out: Vec<ListOffsetsTopicResponse> = {
        let topics = cx.broker.cluster.topics();
        request
            .topics
            .iter()
            .enumerate()
            .map(|(t, wanted)| ListOffsetsTopicResponse {
                name: wanted.name.clone(),
                partitions: wanted
                    .partitions
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let mut out = ListOffsetsPartitionResponse {
                            partition_index: p.partition_index,
                            timestamp: -1,
                            offset: -1,
                            // Not in v1-3 (and not ignorable there).
                            leader_epoch: if version >= 4 { LEADER_EPOCH } else { -1 },
                            ..Default::default()
                        };
                        let Some(log) = topics.get(&wanted.name).and_then(|t| t.partition(p.partition_index)) else {
                            out.error_code = ErrorCode::UnknownTopicOrPartition.code();
                            return out;
                        };
                        let found = match p.timestamp {
                            -1 => Some((log.log_end_offset(), -1)),
                            -2 | -4 => Some((log.log_start_offset(), -1)),
                            -3 => log.max_timestamp(),
                            timestamp if timestamp >= 0 => {
                                if let Some(batch) = log.batch_for_timestamp(timestamp) {
                                    lookups.push((t, i, batch, timestamp));
                                }
                                None
                            }
                            _ => None,
                        };
                        if let Some((offset, timestamp)) = found {
                            out.offset = offset;
                            out.timestamp = timestamp;
                        }
                        out
                    })
                    .collect(),
                ..Default::default()
            })
            .collect()
    };
    if !lookups.is_empty() {
        let found = tokio::task::spawn_blocking(move || {
            lookups
                .into_iter()
                .filter_map(|(t, i, batch, timestamp)| Some((t, i, first_at_or_after(batch, timestamp)?)))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        for (t, i, (offset, timestamp)) in found {
            if let Some(out) = topics_out.get_mut(t).and_then(|topic| topic.partitions.get_mut(i)) {
                out.offset = offset;
                out.timestamp = timestamp;
            }
        }
    }
    ListOffsetsResponse { topics: topics_out, ..Default::default() }
}

/// Answers InitProducerId: a new producer id (epoch 0), or the same id
/// with the next epoch when the producer asks to bump its own (v3+).
/// Transactional producers are refused: transactions are not implemented.
pub fn init_producer_id(cx: &Context, request: &InitProducerIdRequest) -> InitProducerIdResponse {
    if request.transactional_id.is_some() {
        return InitProducerIdResponse {
            error_code: ErrorCode::TransactionalIdAuthorizationFailed.code(),
            producer_id: -1,
            producer_epoch: -1,
            ..Default::default()
        };
    }
    let (producer_id, producer_epoch) = if request.producer_id >= 0 && request.producer_epoch >= 0 {
        (request.producer_id, request.producer_epoch.saturating_add(1))
    } else {
        (cx.broker.cluster.next_producer_id(), 0)
    };
    InitProducerIdResponse { producer_id, producer_epoch, ..Default::default() }
}
