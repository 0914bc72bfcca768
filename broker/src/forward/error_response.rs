//! The response a forwarding broker sends a client when the envelope
//! failed: the client's own response type, every item the request named
//! carrying the error, and the top-level error where the response has one.

use kwire::api::ApiKey;
use kwire::error_code::ErrorCode;
use kwire::messages::{
    add_raft_voter_response, allocate_producer_ids_response, alter_client_quotas_response, alter_configs_response,
    alter_partition_reassignments_response, alter_user_scram_credentials_response, create_acls_response,
    create_delegation_token_response, create_partitions_response, create_topics_response, delete_acls_response,
    delete_topics_response, describe_quorum_response, elect_leaders_response, expire_delegation_token_response,
    incremental_alter_configs_response, list_partition_reassignments_response, remove_raft_voter_response,
    renew_delegation_token_response, unregister_broker_response, unregister_controller_response,
    update_features_response, RequestBody, ResponseBody,
};

/// [`error_response`] was given a request of an api that is not
/// forwardable ([`kwire::api::ApiInfo::forwardable`]).
///
/// ```
/// use kwire::api::ApiKey;
/// use kwire_broker::forward::NotForwardable;
/// assert_eq!(NotForwardable { api_key: ApiKey::Metadata }.to_string(), "api key 3 is not forwardable");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("api key {} is not forwardable", api_key.code())]
pub struct NotForwardable {
    /// The request's api key.
    pub api_key: ApiKey,
}

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
    let own_message: Option<kwire::ByteString> = own_message.map(Into::into);
    let error_code = code.code();
    let body = match request {
        RequestBody::CreateTopics(req) => {
            use create_topics_response::{CreatableTopicResult, CreateTopicsResponse};
            let topics = req
                .topics
                .iter()
                .map(|t| CreatableTopicResult {
                    name: t.name.clone(),
                    error_code,
                    error_message: None,
                    ..Default::default()
                })
                .collect();
            CreateTopicsResponse { topics, ..Default::default() }.into()
        }
        RequestBody::DeleteTopics(req) => {
            use delete_topics_response::{DeletableTopicResult, DeleteTopicsResponse};
            let by_name = req.topic_names.iter().map(|name| DeletableTopicResult {
                name: Some(name.clone()),
                error_code,
                error_message: None,
                ..Default::default()
            });
            let by_state = req.topics.iter().map(|t| DeletableTopicResult {
                name: t.name.clone(),
                topic_id: t.topic_id,
                error_code,
                error_message: None,
                ..Default::default()
            });
            DeleteTopicsResponse { responses: by_name.chain(by_state).collect(), ..Default::default() }.into()
        }
        RequestBody::CreateAcls(req) => {
            use create_acls_response::{AclCreationResult, CreateAclsResponse};
            let results = req
                .creations
                .iter()
                .map(|_| AclCreationResult { error_code, error_message: None, ..Default::default() })
                .collect();
            CreateAclsResponse { results, ..Default::default() }.into()
        }
        RequestBody::DeleteAcls(req) => {
            use delete_acls_response::{DeleteAclsFilterResult, DeleteAclsResponse};
            let filter_results = req
                .filters
                .iter()
                .map(|_| DeleteAclsFilterResult { error_code, error_message: None, ..Default::default() })
                .collect();
            DeleteAclsResponse { filter_results, ..Default::default() }.into()
        }
        RequestBody::AlterConfigs(req) => {
            use alter_configs_response::{AlterConfigsResourceResponse, AlterConfigsResponse};
            let responses = req
                .resources
                .iter()
                .map(|r| AlterConfigsResourceResponse {
                    error_code,
                    error_message: None,
                    resource_type: r.resource_type,
                    resource_name: r.resource_name.clone(),
                    ..Default::default()
                })
                .collect();
            AlterConfigsResponse { responses, ..Default::default() }.into()
        }
        RequestBody::IncrementalAlterConfigs(req) => {
            use incremental_alter_configs_response::{AlterConfigsResourceResponse, IncrementalAlterConfigsResponse};
            let responses = req
                .resources
                .iter()
                .map(|r| AlterConfigsResourceResponse {
                    error_code,
                    error_message: None,
                    resource_type: r.resource_type,
                    resource_name: r.resource_name.clone(),
                    ..Default::default()
                })
                .collect();
            IncrementalAlterConfigsResponse { responses, ..Default::default() }.into()
        }
        RequestBody::CreatePartitions(req) => {
            use create_partitions_response::{CreatePartitionsResponse, CreatePartitionsTopicResult};
            let results = req
                .topics
                .iter()
                .map(|t| CreatePartitionsTopicResult {
                    name: t.name.clone(),
                    error_code,
                    error_message: None,
                    ..Default::default()
                })
                .collect();
            CreatePartitionsResponse { results, ..Default::default() }.into()
        }
        RequestBody::CreateDelegationToken(_) => {
            // Kafka names the anonymous principal as owner (and, from v3,
            // requester) and -1 for the three timestamps.
            let (principal_type, anonymous) = (kwire::ByteString::from("User"), kwire::ByteString::from("ANONYMOUS"));
            let requester = version >= 3;
            create_delegation_token_response::CreateDelegationTokenResponse {
                error_code,
                principal_type: principal_type.clone(),
                principal_name: anonymous.clone(),
                token_requester_principal_type: if requester { principal_type } else { Default::default() },
                token_requester_principal_name: if requester { anonymous } else { Default::default() },
                issue_timestamp_ms: -1,
                expiry_timestamp_ms: -1,
                max_timestamp_ms: -1,
                ..Default::default()
            }
            .into()
        }
        RequestBody::RenewDelegationToken(_) => {
            renew_delegation_token_response::RenewDelegationTokenResponse { error_code, ..Default::default() }.into()
        }
        RequestBody::ExpireDelegationToken(_) => {
            expire_delegation_token_response::ExpireDelegationTokenResponse { error_code, ..Default::default() }.into()
        }
        RequestBody::ElectLeaders(req) => {
            use elect_leaders_response::{ElectLeadersResponse, PartitionResult, ReplicaElectionResult};
            let replica_election_results = req
                .topic_partitions
                .iter()
                .flatten()
                .map(|t| ReplicaElectionResult {
                    topic: t.topic.clone(),
                    partition_result: t
                        .partitions
                        .iter()
                        .map(|&partition_id| PartitionResult {
                            partition_id,
                            error_code,
                            error_message: None,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect();
            // The top-level ErrorCode exists from v1 and is not ignorable.
            let top = if version >= 1 { error_code } else { 0 };
            ElectLeadersResponse { error_code: top, replica_election_results, ..Default::default() }.into()
        }
        RequestBody::AlterPartitionReassignments(req) => {
            use alter_partition_reassignments_response::{
                AlterPartitionReassignmentsResponse, ReassignablePartitionResponse, ReassignableTopicResponse,
            };
            let responses = req
                .topics
                .iter()
                .map(|t| ReassignableTopicResponse {
                    name: t.name.clone(),
                    partitions: t
                        .partitions
                        .iter()
                        .map(|p| ReassignablePartitionResponse {
                            partition_index: p.partition_index,
                            error_code,
                            error_message: None,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect();
            AlterPartitionReassignmentsResponse { error_code, error_message: None, responses, ..Default::default() }
                .into()
        }
        RequestBody::ListPartitionReassignments(req) => {
            use list_partition_reassignments_response::{
                ListPartitionReassignmentsResponse, OngoingPartitionReassignment, OngoingTopicReassignment,
            };
            let topics = req
                .topics
                .iter()
                .flatten()
                .map(|t| OngoingTopicReassignment {
                    name: t.name.clone(),
                    partitions: t
                        .partition_indexes
                        .iter()
                        .map(|&partition_index| OngoingPartitionReassignment { partition_index, ..Default::default() })
                        .collect(),
                    ..Default::default()
                })
                .collect();
            ListPartitionReassignmentsResponse { error_code, error_message: None, topics, ..Default::default() }.into()
        }
        RequestBody::AlterClientQuotas(req) => {
            use alter_client_quotas_response::{AlterClientQuotasResponse, EntityData, EntryData};
            let entries = req
                .entries
                .iter()
                .map(|e| EntryData {
                    error_code,
                    error_message: own_message.clone(),
                    entity: e
                        .entity
                        .iter()
                        .map(|en| EntityData {
                            entity_type: en.entity_type.clone(),
                            entity_name: en.entity_name.clone(),
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                })
                .collect();
            AlterClientQuotasResponse { entries, ..Default::default() }.into()
        }
        RequestBody::AlterUserScramCredentials(req) => {
            use alter_user_scram_credentials_response::{
                AlterUserScramCredentialsResponse, AlterUserScramCredentialsResult,
            };
            // Each user once, in Kafka's string order (of UTF-16 code units).
            let mut users: Vec<&kwire::ByteString> =
                req.deletions.iter().map(|d| &d.name).chain(req.upsertions.iter().map(|u| &u.name)).collect();
            users.sort_unstable_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            users.dedup();
            let results = users
                .into_iter()
                .map(|user| AlterUserScramCredentialsResult {
                    user: user.clone(),
                    error_code,
                    error_message: None,
                    ..Default::default()
                })
                .collect();
            AlterUserScramCredentialsResponse { results, ..Default::default() }.into()
        }
        RequestBody::DescribeQuorum(_) => {
            // Top level only: Kafka does not answer per partition here.
            describe_quorum_response::DescribeQuorumResponse {
                error_code,
                error_message: if version >= 2 { own_message.clone() } else { None },
                ..Default::default()
            }
            .into()
        }
        RequestBody::UpdateFeatures(_) => {
            // Top level only: Kafka lists per-feature results only without an error.
            update_features_response::UpdateFeaturesResponse { error_code, error_message: None, ..Default::default() }
                .into()
        }
        RequestBody::UnregisterBroker(_) => unregister_broker_response::UnregisterBrokerResponse {
            error_code,
            error_message: own_message.clone(),
            ..Default::default()
        }
        .into(),
        RequestBody::UnregisterController(_) => unregister_controller_response::UnregisterControllerResponse {
            error_code,
            error_message: own_message.clone(),
            ..Default::default()
        }
        .into(),
        RequestBody::AllocateProducerIds(_) => {
            allocate_producer_ids_response::AllocateProducerIdsResponse { error_code, ..Default::default() }.into()
        }
        RequestBody::AddRaftVoter(_) => add_raft_voter_response::AddRaftVoterResponse {
            error_code,
            error_message: own_message.clone(),
            ..Default::default()
        }
        .into(),
        RequestBody::RemoveRaftVoter(_) => remove_raft_voter_response::RemoveRaftVoterResponse {
            error_code,
            error_message: own_message.clone(),
            ..Default::default()
        }
        .into(),
        // Forwardable by the api-key table but without a builder here:
        // refused rather than answered wrongly (a test checks there is none).
        _ => return Err(NotForwardable { api_key }),
    };
    Ok(body)
}
