//! The controller: an in-process task that owns topic creation and
//! deletion and topic configs, reached the way a KRaft broker reaches its controller.
//!
//! ```text
//! connection task                                   controller task
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
    ForwardOutcome, ResponseError, UnwrappedRequest, WrapError,
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
    /// The envelope response makes no sense for the request.
    #[error("bad envelope response: {0}")]
    Response(#[from] ResponseError),
    /// The answer is not an EnvelopeResponse to our correlation id.
    #[error("the controller answered another request")]
    Mismatch,
    /// The controller task is gone or too slow.
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

/// Starts the controller task.
pub fn spawn(cluster: Arc<Cluster>, config: Arc<Config>) -> Controller {
    let (calls, mut rx) = mpsc::channel::<Call>(64);
    let sender_id = format!("broker-{}", config.node_id);
    let trusted = sender_id.clone();
    tokio::spawn(async move {
        // Ends when the broker drops its sender.
        while let Some(call) = rx.recv().await {
            let answer = handle_envelope(&cluster, &config, &trusted, call.request);
            let _ = call.reply.send(answer);
        }
    });
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
                ForwardOutcome::Response(_, body) | ForwardOutcome::ErrorToClient(body) => return Ok(body),
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

fn create_topics(
    cluster: &Cluster,
    config: &Config,
    request: &CreateTopicsRequest,
    version: i16,
    who: &str,
) -> CreateTopicsResponse {
    let mut topics = cluster.topics();
    let mut results = Vec::with_capacity(request.topics.len());
    for (i, topic) in request.topics.iter().enumerate() {
        let mut result = CreatableTopicResult { name: topic.name.clone(), ..Default::default() };
        let duplicate = request.topics[..i].iter().any(|t| t.name == topic.name);
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
        let error = if duplicate {
            Some((ErrorCode::InvalidRequest, format!("Topic '{}' is named twice.", topic.name)))
        } else if !valid_topic_name(&topic.name) {
            Some((ErrorCode::InvalidTopicException, format!("Topic name '{}' is illegal.", topic.name)))
        } else if topics.get(&topic.name).is_some() {
            Some((ErrorCode::TopicAlreadyExists, format!("Topic '{}' already exists.", topic.name)))
        } else if !topic.assignments.is_empty() && topic.num_partitions != -1 {
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
        // Unknown names and bad values are INVALID_CONFIG, as in Kafka.
        let overrides = configs::check_topic_configs(topic.configs.iter().map(|c| (&*c.name, c.value.as_deref())));
        let (error, overrides) = match (error, overrides) {
            (Some(error), _) => (Some(error), Default::default()),
            (None, Err(refusal)) => (Some((refusal.code, refusal.message)), Default::default()),
            (None, Ok(overrides)) => (None, overrides),
        };
        match error {
            Some((code, message)) => {
                result.error_code = code.code();
                result.error_message = Some(message.into());
            }
            None => {
                result.num_partitions = partitions;
                result.replication_factor = 1;
                // Every config of the new topic, with its source (v5+).
                result.configs = (version >= 5).then(|| configs::created_topic_configs(&overrides));
                if !request.validate_only {
                    result.topic_id = topics.create(&topic.name, partitions, overrides);
                    log!("controller: created topic {} ({partitions} partitions) for {who}", topic.name);
                }
            }
        }
        if version < 1 {
            result.error_message = None;
        }
        results.push(result);
    }
    drop(topics);
    cluster.data_changed();
    CreateTopicsResponse { topics: results, ..Default::default() }
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
