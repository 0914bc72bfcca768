//! The response a forwarding broker sends a client when the envelope
//! failed: the client's own response type, every item the request named
//! carrying the error, and the top-level error where the response has one.

use kwire::api::ApiKey;
use kwire::error_code::ErrorCode;
use kwire::messages::{RequestBody, ResponseBody};

/// [`error_response`] was given a request of an api that is not
/// forwardable ([`kwire::api::ApiInfo::forwardable`]).
///
/// ```
/// use kwire::api::ApiKey;
/// use kwire_broker::forward::NotForwardable;
/// assert_eq!(NotForwardable { api_key: ApiKey::Metadata }.to_string(), "api key 3 is not forwardable");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotForwardable {
    /// The request's api key.
    pub api_key: ApiKey,
}

impl std::fmt::Display for NotForwardable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "api key {} is not forwardable", self.api_key.code())
    }
}

impl std::error::Error for NotForwardable {}

/// Builds the response to `request` (a forwardable api, at `version`) that
/// reports `code` for everything it asked, as Kafka 4.4's
/// `getErrorResponse` of the request answers it for the error's own
/// exception with throttle time 0 (what a forwarding broker sends when the
/// envelope failed). Same as [`error_response_with_message`] with no
/// message.
///
/// # Errors
/// [`NotForwardable`] for a request of any other api.
///
/// ```
/// use kwire::error_code::ErrorCode;
/// use kwire_broker::forward::error_response;
/// use kwire::messages::create_partitions_request::CreatePartitionsTopic;
/// use kwire::messages::{CreatePartitionsRequest, ResponseBody};
/// let request = CreatePartitionsRequest {
///     topics: vec![CreatePartitionsTopic { name: "a".into(), count: 3, ..Default::default() }],
///     ..Default::default()
/// };
/// let ResponseBody::CreatePartitions(response) = error_response(&request.into(), 3, ErrorCode::PolicyViolation)? else {
///     unreachable!()
/// };
/// assert_eq!((&*response.results[0].name, response.results[0].error_code), ("a", 44));
/// # Ok::<(), kwire_broker::forward::NotForwardable>(())
/// ```
pub fn error_response(request: &RequestBody, version: i16, code: ErrorCode) -> Result<ResponseBody, NotForwardable> {
    error_response_with_message(request, version, code, None)
}

/// [`error_response`], with the error's own message: the text Kafka writes
/// where its response reports the error from its code alone (Kafka's own
/// wording for each code, which this crate does not carry).
///
/// The answer is the message set's [`RequestBody::error_response`]: the
/// rule the request's and the response's schemas give, and where an api
/// departs from it, the deviation its facts record (`error_responses` in
/// `kafka-facts.json`).
///
/// Per api, as Kafka 4.4 answers: CreateTopics, CreatePartitions,
/// DeleteTopics (by name before v6, by name or id from v6): per topic.
/// CreateAcls: per creation. DeleteAcls: per filter, no matching ACLs.
/// AlterConfigs, IncrementalAlterConfigs: per resource (type and name).
/// AlterClientQuotas: per entry (its entity), with `own_message`.
/// AlterUserScramCredentials: per distinct user of the deletions and
/// upsertions, in string order (of UTF-16 code units, as Java compares).
/// ElectLeaders: per partition, and the top-level code from v1 (v0 has
/// none). AlterPartitionReassignments: top level and per partition.
/// ListPartitionReassignments: top level, each topic and partition asked
/// echoed with no replicas. CreateDelegationToken: top level, the owner
/// (and from v3 the requester) `User`/`ANONYMOUS`, timestamps -1.
/// UpdateFeatures, RenewDelegationToken, ExpireDelegationToken,
/// AllocateProducerIds: top level only. DescribeQuorum (message from v2),
/// UnregisterBroker, UnregisterController, AddRaftVoter, RemoveRaftVoter:
/// top level only, with `own_message`. Every other error message is null,
/// throttle times 0, every other field its schema default.
///
/// # Errors
/// [`NotForwardable`] for a request of any other api.
///
/// ```
/// use kwire::error_code::ErrorCode;
/// use kwire_broker::forward::error_response_with_message;
/// use kwire::messages::{AddRaftVoterRequest, ResponseBody};
/// let request = AddRaftVoterRequest::default().into();
/// let body = error_response_with_message(&request, 0, ErrorCode::NotController, Some("not the controller"))?;
/// let ResponseBody::AddRaftVoter(response) = body else { unreachable!() };
/// assert_eq!((response.error_code, response.error_message.as_deref()), (41, Some("not the controller")));
/// # Ok::<(), kwire_broker::forward::NotForwardable>(())
/// ```
pub fn error_response_with_message(
    request: &RequestBody,
    version: i16,
    code: ErrorCode,
    own_message: Option<&str>,
) -> Result<ResponseBody, NotForwardable> {
    let api_key = request.api_key();
    if !api_key.info().forwardable {
        return Err(NotForwardable { api_key });
    }
    // Derived from the schemas and the facts of the message set: the
    // generated dispatch answers every forwardable api (a test checks it).
    request.error_response(version, code.code(), own_message).ok_or(NotForwardable { api_key })
}
