//! The controller: an in-process thread that owns topic creation and
//! deletion and topic configs, reached the way a KRaft broker reaches its controller.
//!
//! ```text
//! connection task                                   controller thread
//!   client's CreateTopics bytes
//!   └─ forward::wrap_request ─▶ EnvelopeRequest bytes ──channel──▶ RequestFrame::decode
//!                                                                 CLUSTER_ACTION check (sender)
//!                                                                 forward::unwrap_request
//!                                                                 create / delete topics
//!   forward::unwrap_response ◀── EnvelopeResponse bytes ◀──────── forward::wrap_response
//!   └─ the client's CreateTopicsResponse
//! ```
//!
//! Every CreateTopics, DeleteTopics, AlterConfigs, IncrementalAlterConfigs
//! and topic auto-creation (Metadata) takes this path, so the Envelope code
//! runs on each of them.

use std::collections::{BTreeMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use kwire::error::{DecodeError, EncodeError};
use kwire::error_code::ErrorCode;
use kwire::frame::{self, RequestFrame};
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::create_topics_response::CreatableTopicResult;
use kwire::messages::delete_topics_response::DeletableTopicResult;
use kwire::messages::{
    CreateTopicsRequest, CreateTopicsResponse, DefaultPrincipalData, DeleteTopicsRequest, DeleteTopicsResponse,
    EnvelopeResponse, RequestBody, RequestHeader, ResponseBody, ResponseHeader,
};
use kwire::ByteString;
use kwire_broker::forward::{
    cluster_authorization_failed, envelope_error, unwrap_request, unwrap_response, wrap_request, wrap_response,
    ForwardOutcome, NotForwardable, UnwrappedRequest, WrapError,
};
use tokio::sync::{mpsc, oneshot};

use crate::config::Config;
use crate::configs;
use crate::state::{valid_topic_name, Cluster};

/// The CreateTopics version the broker uses for topic auto-creation.
const AUTO_CREATE_VERSION: i16 = 7;
/// How long the broker waits for the controller.
const CONTROLLER_TIMEOUT: Duration = Duration::from_secs(30);
/// Forwarding attempts when the controller answers NOT_CONTROLLER.
const MAX_ATTEMPTS: usize = 3;

/// One envelope for the controller, and where to send its answer.
struct Call {
    /// EnvelopeRequest: request header v2 and body, no size prefix.
    request: Bytes,
    /// EnvelopeResponse: response header v1 and body, no size prefix.
    reply: oneshot::Sender<Bytes>,
}

/// Why a request could not be forwarded.
#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    /// The client request cannot go in an envelope.
    #[error("cannot wrap the request: {0}")]
    Wrap(#[from] WrapError),
    /// The envelope could not be encoded.
    #[error("cannot encode the envelope: {0}")]
    Encode(#[from] EncodeError),
    /// The controller's answer does not decode.
    #[error("malformed envelope response: {0}")]
    Decode(#[from] DecodeError),
    /// The forwarded request's api is not forwardable.
    #[error("bad envelope response: {0}")]
    Response(#[from] NotForwardable),
    /// The answer is not an EnvelopeResponse to our correlation id.
    #[error("the controller answered another request")]
    Mismatch,
    /// The controller thread is gone or too slow.
    #[error("the controller is not available")]
    Unavailable,
    /// The controller refused the envelope's version: close the client's
    /// connection without an answer, so that it asks for api versions again.
    #[error("the controller refused the envelope with UNSUPPORTED_VERSION")]
    CloseConnection,
}

impl ForwardError {
    /// The error code to answer the client with.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            ForwardError::Wrap(e) => e.error_code(),
            ForwardError::Unavailable => ErrorCode::RequestTimedOut,
            _ => ErrorCode::UnknownServerError,
        }
    }
}

/// The broker's side of the controller channel.
pub struct Controller {
    calls: mpsc::Sender<Call>,
    /// The client id the broker puts on its envelopes; the controller's
    /// CLUSTER_ACTION check accepts only this sender.
    sender_id: ByteString,
    next_correlation_id: AtomicI32,
}

/// Starts the controller thread.
pub fn spawn(cluster: Arc<Cluster>, config: Arc<Config>) -> Controller {
    let (calls, mut rx) = mpsc::channel::<Call>(64);
    let sender_id = format!("broker-{}", config.node_id);
    let trusted = sender_id.clone();
    // A thread of its own, as a controller is a process of its own: a large
    // request keeps it busy without taking a thread of the connections'
    // runtime. Ends when the broker drops its sender.
    let spawned = std::thread::Builder::new().name("controller".into()).spawn(move || {
        while let Some(call) = rx.blocking_recv() {
            let answer = handle_envelope(&cluster, &config, &trusted, call.request);
            let _ = call.reply.send(answer);
        }
    });
    if let Err(e) = spawned {
        // Every forward then fails with REQUEST_TIMED_OUT (the channel is closed).
        log!("controller: cannot start its thread: {e}");
    }
    Controller { calls, sender_id: sender_id.into(), next_correlation_id: AtomicI32::new(1) }
}

impl Controller {
    /// Forwards a client request (header and body as received) in an
    /// Envelope and returns the body to answer the client with.
    pub async fn forward(
        &self,
        client_request: Bytes,
        principal: &DefaultPrincipalData,
        client: IpAddr,
    ) -> Result<ResponseBody, ForwardError> {
        for _ in 0..MAX_ATTEMPTS {
            let correlation_id = self.next_correlation_id.fetch_add(1, Ordering::Relaxed);
            let wrapped =
                wrap_request(client_request.clone(), principal, client, correlation_id, Some(&self.sender_id))?;
            let mut buf = BytesMut::new();
            wrapped.encode(&mut buf)?;
            let (reply, answer) = oneshot::channel();
            self.calls.send(Call { request: buf.freeze(), reply }).await.map_err(|_| ForwardError::Unavailable)?;
            let answer = tokio::time::timeout(CONTROLLER_TIMEOUT, answer)
                .await
                .map_err(|_| ForwardError::Unavailable)?
                .map_err(|_| ForwardError::Unavailable)?;
            let response = frame::ResponseFrame::decode(answer, kwire::api::ApiKey::Envelope, 0)?;
            let envelope = EnvelopeResponse::try_from(response.body).map_err(|_| ForwardError::Mismatch)?;
            if response.header.correlation_id != correlation_id {
                return Err(ForwardError::Mismatch);
            }
            match unwrap_response(&envelope, &wrapped.forwarded)? {
                ForwardOutcome::Response(_, body)
                | ForwardOutcome::ErrorToClient(body)
                | ForwardOutcome::UnreadableResponse { error_response: body, .. } => return Ok(body),
                // One controller here; try again as Kafka's broker would.
                ForwardOutcome::RetryOnNewController => continue,
                ForwardOutcome::CloseConnection => return Err(ForwardError::CloseConnection),
            }
        }
        Err(ForwardError::Unavailable)
    }

    /// Creates topics on behalf of a client whose Metadata request named
    /// them (auto-creation): a CreateTopics request of the broker's own,
    /// forwarded with the client's principal like any other.
    pub async fn auto_create(
        &self,
        names: &[ByteString],
        partitions: i32,
        principal: &DefaultPrincipalData,
        client: IpAddr,
    ) -> Result<CreateTopicsResponse, ForwardError> {
        let header = RequestHeader {
            request_api_key: 19,
            request_api_version: AUTO_CREATE_VERSION,
            correlation_id: 0,
            client_id: Some(format!("{}-auto-create", self.sender_id).into()),
            ..Default::default()
        };
        let topics = names
            .iter()
            .map(|name| CreatableTopic {
                name: name.clone(),
                num_partitions: partitions,
                replication_factor: -1,
                ..Default::default()
            })
            .collect();
        let body = RequestBody::CreateTopics(CreateTopicsRequest { topics, ..Default::default() });
        let mut buf = BytesMut::new();
        frame::RequestFrame::encode_parts(&header, &body, &mut buf)?;
        CreateTopicsResponse::try_from(self.forward(buf.freeze(), principal, client).await?)
            .map_err(|_| ForwardError::Mismatch)
    }
}

/// The controller's work on one envelope: EnvelopeRequest bytes in,
/// EnvelopeResponse bytes out.
fn handle_envelope(cluster: &Cluster, config: &Config, trusted_sender: &str, request: Bytes) -> Bytes {
    let correlation_id = frame::RequestHead::parse(&request).map_or(0, |head| head.correlation_id);
    let envelope_response = match frame::RequestFrame::decode(request) {
        Ok(RequestFrame { header, body: RequestBody::Envelope(envelope) }) => {
            if header.client_id.as_deref() != Some(trusted_sender) {
                // The CLUSTER_ACTION check on the envelope's sender.
                cluster_authorization_failed()
            } else {
                match unwrap_request(&envelope) {
                    Ok(unwrapped) => answer(cluster, config, unwrapped),
                    Err(refusal) => {
                        log!("controller: refusing an envelope: {refusal}");
                        refusal.envelope_response()
                    }
                }
            }
        }
        Ok(_) | Err(_) => envelope_error(ErrorCode::InvalidRequest),
    };
    let header = ResponseHeader { correlation_id, ..Default::default() };
    let mut buf = BytesMut::new();
    let body = ResponseBody::Envelope(envelope_response);
    if let Err(e) = frame::ResponseFrame::encode_parts(&header, &body, 0, &mut buf) {
        log!("controller: cannot encode an envelope response: {e}");
    }
    buf.freeze()
}

/// Handles the request inside an envelope and wraps the answer.
fn answer(cluster: &Cluster, config: &Config, request: UnwrappedRequest) -> EnvelopeResponse {
    let version = request.header.request_api_version;
    let who = format!("{}:{} at {}", request.principal.r#type, request.principal.name, request.client_address);
    let body: ResponseBody = match &request.body {
        RequestBody::CreateTopics(r) => create_topics(cluster, config, r, version, &who).into(),
        RequestBody::DeleteTopics(r) => delete_topics(cluster, r, version, &who).into(),
        RequestBody::AlterConfigs(r) => configs::alter(cluster, r, &who).into(),
        RequestBody::IncrementalAlterConfigs(r) => configs::incremental_alter(cluster, r, &who).into(),
        _ => return envelope_error(ErrorCode::InvalidRequest),
    };
    let header = ResponseHeader { correlation_id: request.header.correlation_id, ..Default::default() };
    wrap_response(&header, &body, version).unwrap_or_else(|e| {
        log!("controller: cannot encode the response: {e}");
        envelope_error(ErrorCode::UnknownServerError)
    })
}

/// The most records one user operation may write to Kafka's metadata log
/// (`QuorumController.MAX_RECORDS_PER_USER_OP`). A CreateTopics asking for
/// more partitions than this in all is refused whole; so is one whose new
/// topics would take more records (one a topic, one a partition, one a
/// config override), even when only validated.
const MAX_RECORDS_PER_USER_OP: i64 = 10_000;

/// The answer to a CreateTopics refused whole: every topic POLICY_VIOLATION
/// with `message`, as Kafka's broker answers when its controller refuses
/// the operation.
fn refuse_whole(request: &CreateTopicsRequest, version: i16, message: &str) -> CreateTopicsResponse {
    let topics = request
        .topics
        .iter()
        .map(|topic| CreatableTopicResult {
            name: topic.name.clone(),
            error_code: ErrorCode::PolicyViolation.code(),
            error_message: (version >= 1).then(|| message.into()),
            ..Default::default()
        })
        .collect();
    CreateTopicsResponse { topics, ..Default::default() }
}

/// The partitions a CreateTopics asks for in all, counted as Kafka's
/// controller counts them: `num_partitions` (the default for -1, nothing
/// when 0 or below -1), or the number of manual assignments.
fn total_partitions(topics: &[CreatableTopic], default_partitions: i32) -> i64 {
    topics
        .iter()
        .map(|topic| {
            if !topic.assignments.is_empty() {
                i64::try_from(topic.assignments.len()).unwrap_or(i64::MAX)
            } else if topic.num_partitions == -1 {
                i64::from(default_partitions)
            } else {
                i64::from(topic.num_partitions.max(0))
            }
        })
        .fold(0, i64::saturating_add)
}

fn create_topics(
    cluster: &Cluster,
    config: &Config,
    request: &CreateTopicsRequest,
    version: i16,
    who: &str,
) -> CreateTopicsResponse {
    if total_partitions(&request.topics, config.default_partitions) > MAX_RECORDS_PER_USER_OP {
        // Kafka's controller refuses the whole operation with POLICY_VIOLATION,
        // which its broker answers for every topic of the request.
        log!("controller: refusing a CreateTopics of more than {MAX_RECORDS_PER_USER_OP} partitions from {who}");
        return refuse_whole(request, version, "Excessively large number of partitions per request.");
    }
    // Every check but whether a topic exists first, without the topics lock;
    // the lock only for that check and the creations (10,000 partitions at most).
    let mut seen = HashSet::with_capacity(request.topics.len());
    let checked: Vec<(CreatableTopicResult, Checked)> =
        request.topics.iter().map(|topic| check_topic(config, topic, !seen.insert(&topic.name))).collect();
    let mut topics = cluster.topics();
    let decided: Vec<(CreatableTopicResult, Checked)> = checked
        .into_iter()
        .map(|(result, checked)| match checked {
            Checked::Refused(_) => (result, checked),
            _ if topics.get(&result.name).is_some() => {
                let error = (ErrorCode::TopicAlreadyExists, format!("Topic '{}' already exists.", result.name));
                (result, Checked::Refused(error))
            }
            _ => (result, checked),
        })
        .collect();
    let records = decided
        .iter()
        .map(|(_, checked)| match checked {
            Checked::Valid { partitions, overrides } => {
                1 + i64::from(*partitions) + i64::try_from(overrides.len()).unwrap_or(i64::MAX)
            }
            _ => 0,
        })
        .fold(0, i64::saturating_add);
    if records > MAX_RECORDS_PER_USER_OP {
        drop(topics);
        log!("controller: refusing a CreateTopics of {records} metadata records from {who}");
        return refuse_whole(request, version, "Unable to perform excessively large batch operation.");
    }
    let mut created = Vec::new();
    let results = decided
        .into_iter()
        .map(|(mut result, checked)| {
            let error = match checked {
                Checked::Refused(error) | Checked::RefusedUnlessExists(error) => Some(error),
                Checked::Valid { partitions, overrides } => {
                    // A topic created (or validated) has no error message, as in Kafka.
                    result.error_message = None;
                    result.num_partitions = partitions;
                    result.replication_factor = 1;
                    // Every config of the new topic, with its source (v5+).
                    result.configs = (version >= 5).then(|| configs::created_topic_configs(&overrides));
                    if !request.validate_only {
                        result.topic_id = topics.create(&result.name, partitions, overrides);
                        created.push((result.name.clone(), partitions));
                    }
                    None
                }
            };
            if let Some((code, message)) = error {
                result.error_code = code.code();
                result.error_message = (version >= 1).then(|| message.into());
            }
            result
        })
        .collect();
    drop(topics);
    for (name, partitions) in created {
        log!("controller: created topic {name} ({partitions} partitions) for {who}");
    }
    cluster.data_changed();
    CreateTopicsResponse { topics: results, ..Default::default() }
}

/// What [`check_topic`] found out about one topic of a CreateTopics.
enum Checked {
    /// Refused whether or not the topic exists.
    Refused((ErrorCode, String)),
    /// Refused, but TOPIC_ALREADY_EXISTS comes first when the topic exists.
    RefusedUnlessExists((ErrorCode, String)),
    /// To be created unless it exists.
    Valid { partitions: i32, overrides: BTreeMap<ByteString, ByteString> },
}

/// Checks one topic of a CreateTopics, all but whether it exists, in the
/// order Kafka's errors take precedence.
fn check_topic(config: &Config, topic: &CreatableTopic, duplicate: bool) -> (CreatableTopicResult, Checked) {
    let result = CreatableTopicResult { name: topic.name.clone(), ..Default::default() };
    if duplicate {
        return (
            result,
            Checked::Refused((ErrorCode::InvalidRequest, format!("Topic '{}' is named twice.", topic.name))),
        );
    }
    if !valid_topic_name(&topic.name) {
        let error = (ErrorCode::InvalidTopicException, format!("Topic name '{}' is illegal.", topic.name));
        return (result, Checked::Refused(error));
    }
    let partitions = if topic.assignments.is_empty() {
        if topic.num_partitions == -1 {
            config.default_partitions
        } else {
            topic.num_partitions
        }
    } else {
        i32::try_from(topic.assignments.len()).unwrap_or(i32::MAX)
    };
    let replication = if topic.replication_factor == -1 { 1 } else { topic.replication_factor };
    let error = if !topic.assignments.is_empty() && topic.num_partitions != -1 {
        Some((ErrorCode::InvalidRequest, "Both num_partitions and assignments were given.".to_string()))
    } else if !(1..=10_000).contains(&partitions) {
        Some((ErrorCode::InvalidPartitions, format!("Number of partitions must be 1 to 10000, not {partitions}.")))
    } else if replication != 1 {
        let message = format!("Replication factor: {replication} larger than available brokers: 1.");
        Some((ErrorCode::InvalidReplicationFactor, message))
    } else if topic.assignments.iter().any(|a| a.broker_ids != [config.node_id]) {
        Some((ErrorCode::InvalidReplicaAssignment, format!("Only broker {} exists.", config.node_id)))
    } else {
        None
    };
    if let Some(error) = error {
        return (result, Checked::RefusedUnlessExists(error));
    }
    // Unknown names and bad values are INVALID_CONFIG, as in Kafka.
    match configs::check_topic_configs(topic.configs.iter().map(|c| (&*c.name, c.value.as_deref()))) {
        Err(refusal) => (result, Checked::RefusedUnlessExists((refusal.code, refusal.message))),
        Ok(overrides) => (result, Checked::Valid { partitions, overrides }),
    }
}

fn delete_topics(cluster: &Cluster, request: &DeleteTopicsRequest, version: i16, who: &str) -> DeleteTopicsResponse {
    let mut topics = cluster.topics();
    // Before v6 by name; from v6 by name or id.
    let wanted: Vec<(Option<ByteString>, kwire::primitives::Uuid)> = if version >= 6 {
        request.topics.iter().map(|t| (t.name.clone(), t.topic_id)).collect()
    } else {
        request.topic_names.iter().map(|n| (Some(n.clone()), Default::default())).collect()
    };
    let mut responses = Vec::with_capacity(wanted.len());
    for (name, id) in wanted {
        let resolved = match &name {
            Some(name) => Some(name.clone()),
            None => topics.name_of(&id).map(ByteString::from),
        };
        let mut result = DeletableTopicResult { name: name.clone(), topic_id: id, ..Default::default() };
        match resolved.as_deref().and_then(|n| topics.delete(n).map(|id| (n, id))) {
            Some((n, deleted_id)) => {
                log!("controller: deleted topic {n} for {who}");
                result.name = Some(n.into());
                result.topic_id = deleted_id;
            }
            None if name.is_none() => result.error_code = ErrorCode::UnknownTopicId.code(),
            None => result.error_code = ErrorCode::UnknownTopicOrPartition.code(),
        }
        if version < 6 && result.name.is_none() {
            result.name = Some(ByteString::default());
        }
        responses.push(result);
    }
    drop(topics);
    cluster.data_changed();
    DeleteTopicsResponse { responses, ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::messages::create_topics_request::CreatableReplicaAssignment;

    fn topic(name: &str, num_partitions: i32) -> CreatableTopic {
        CreatableTopic { name: name.into(), num_partitions, replication_factor: -1, ..Default::default() }
    }

    fn create(cluster: &Cluster, topics: Vec<CreatableTopic>, version: i16) -> Vec<(String, i16, Option<String>)> {
        let config = Config::parse(Vec::new(), None).unwrap();
        let request = CreateTopicsRequest { topics, ..Default::default() };
        let response = create_topics(cluster, &config, &request, version, "test");
        response
            .topics
            .into_iter()
            .map(|t| (t.name.to_string(), t.error_code, t.error_message.map(|m| m.to_string())))
            .collect()
    }

    #[test]
    fn more_than_ten_thousand_partitions_in_one_request_are_refused_whole() {
        let cluster = Cluster::new();
        // 10,000 records in all (a topic and each of its partitions one:
        // manual assignments, num_partitions, the default for -1) is fine.
        let mut at_limit = topic("a", -1);
        at_limit.assignments = (0..2)
            .map(|partition_index| CreatableReplicaAssignment {
                partition_index,
                broker_ids: vec![1],
                ..Default::default()
            })
            .collect();
        let topics = || vec![at_limit.clone(), topic("b", 9_994), topic("c", -1), topic("d", 0)];
        let results = create(&cluster, topics(), 7);
        let codes: Vec<i16> = results.iter().map(|r| r.1).collect();
        assert_eq!(codes, [0, 0, 0, ErrorCode::InvalidPartitions.code()]);
        assert_eq!(cluster.topics().get("b").map(|t| t.partitions.len()), Some(9_994));
        // The same again: every topic exists, no records, nothing refused whole.
        let codes: Vec<i16> = create(&cluster, topics(), 7).iter().map(|r| r.1).collect();
        assert_eq!(codes, [36, 36, 36, ErrorCode::InvalidPartitions.code()]);
        // 9,999 partitions in two topics: 10,001 records, refused whole.
        let results = create(&cluster, vec![topic("x", 5_000), topic("y", 4_999)], 7);
        let message = Some("Unable to perform excessively large batch operation.".to_string());
        assert_eq!(results, [("x".into(), 44, message.clone()), ("y".into(), 44, message)]);
        assert!(cluster.topics().get("x").is_none());
        // One more: every topic gets POLICY_VIOLATION (44), nothing is created.
        let results = create(&cluster, vec![topic("e", 5_000), topic("f", 5_001), topic("e", 1)], 7);
        let message = Some("Excessively large number of partitions per request.".to_string());
        assert_eq!(
            results,
            [("e".into(), 44, message.clone()), ("f".into(), 44, message.clone()), ("e".into(), 44, message)]
        );
        assert!(cluster.topics().get("e").is_none() && cluster.topics().get("f").is_none());
        // Version 0 has no error message.
        let results = create(&cluster, vec![topic("g", i32::MAX), topic("h", i32::MAX)], 0);
        assert_eq!(results, [("g".into(), 44, None), ("h".into(), 44, None)]);
    }

    #[test]
    fn many_topics_are_checked_for_names_given_twice_in_linear_time() {
        // 50,000 names, each given twice, every topic refused: the duplicate
        // check is a set, not a scan of the topics before each one.
        let cluster = Cluster::new();
        let topics: Vec<CreatableTopic> = (0..100_000).map(|i| topic(&format!("t{}", i % 50_000), 0)).collect();
        let started = std::time::Instant::now();
        let results = create(&cluster, topics, 7);
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
        assert_eq!(results[0].1, ErrorCode::InvalidPartitions.code());
        assert_eq!(results[50_000].1, ErrorCode::InvalidRequest.code());
        assert_eq!(results[50_000].2.as_deref(), Some("Topic 't0' is named twice."));
    }
}
