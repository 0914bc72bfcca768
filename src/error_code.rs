//! Kafka protocol error codes: the `int16` `ErrorCode` fields found in almost
//! every response.
//!
//! Source: Kafka's `Errors` enumeration (codes -1 to 128). Whether a code is
//! *retriable* follows Kafka's rule: the error's exception is a retriable one,
//! so the same request may succeed if sent again later.
//!
//! Everything here is driven by one table ([`ErrorCode::ALL`] and a parallel
//! table of names, retriable flags and descriptions), generated from a single
//! list by a private macro.
//!
//! ```
//! use kwire::error_code::ErrorCode;
//!
//! let e = ErrorCode::from_code(41);
//! assert_eq!(e, ErrorCode::NotController);
//! assert_eq!(e.name(), "NOT_CONTROLLER");
//! assert!(e.is_retriable());
//! assert_eq!(i16::from(e), 41);
//! ```

use std::fmt;

/// One row of the error table: what [`ErrorCode::name`],
/// [`ErrorCode::is_retriable`] and [`ErrorCode::description`] read.
struct Entry {
    code: i16,
    name: &'static str,
    retriable: bool,
    description: &'static str,
}

macro_rules! error_codes {
    ($( $code:literal $variant:ident $name:literal $retriable:literal $description:literal; )*) => {
        /// A Kafka protocol error code (`int16` on the wire).
        ///
        /// Every code Kafka defines (-1 to 128) has its own variant, named after
        /// Kafka's name in UpperCamelCase (`NOT_CONTROLLER` is
        /// [`ErrorCode::NotController`]). A code this library does not know is
        /// kept as [`ErrorCode::Unknown`] so it is never lost when a response is
        /// decoded and encoded again (Kafka's Java client would turn it into
        /// `UNKNOWN_SERVER_ERROR` instead).
        ///
        /// Build values with [`ErrorCode::from_code`] (or `From<i16>`), which
        /// always picks the named variant for a known code; `Unknown(41)` built
        /// by hand is not equal to `NotController`.
        ///
        /// Source: Kafka's `Errors` enumeration.
        ///
        /// Non-exhaustive: Kafka releases add error codes (a code that is
        /// [`ErrorCode::Unknown`] here may get its own variant in a later
        /// version of this crate), so a `match` needs a `_` arm; compare
        /// [`ErrorCode::code`] to be independent of the table.
        ///
        /// ```
        /// use kwire::error_code::ErrorCode;
        ///
        /// assert_eq!(ErrorCode::from(35), ErrorCode::UnsupportedVersion);
        /// assert_eq!(ErrorCode::from(999), ErrorCode::Unknown(999));
        /// assert_eq!(i16::from(ErrorCode::Unknown(999)), 999);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $name, "` (code ", stringify!($code), "): ", $description, ".")]
                $variant,
            )*
            /// A code outside Kafka's table, kept as received.
            Unknown(i16),
        }

        static ENTRIES: &[Entry] = &[
            $( Entry { code: $code, name: $name, retriable: $retriable, description: $description }, )*
        ];

        impl ErrorCode {
            /// Every known error code, in increasing code order (-1 first,
            /// 128 last); [`ErrorCode::Unknown`] is not included.
            ///
            /// ```
            /// use kwire::error_code::ErrorCode;
            ///
            /// // The errors after which a client may retry the same request.
            /// let retriable: Vec<&str> =
            ///     ErrorCode::ALL.iter().filter(|e| e.is_retriable()).map(|e| e.name()).collect();
            /// assert!(retriable.contains(&"NOT_LEADER_OR_FOLLOWER"));
            /// assert!(!retriable.contains(&"UNKNOWN_SERVER_ERROR"));
            /// ```
            pub const ALL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The `int16` value sent on the wire.
            ///
            /// ```
            /// use kwire::error_code::ErrorCode;
            ///
            /// assert_eq!(ErrorCode::UnknownServerError.code(), -1);
            /// assert_eq!(ErrorCode::NotController.code(), 41);
            /// assert_eq!(ErrorCode::Unknown(-7).code(), -7);
            /// ```
            pub const fn code(self) -> i16 {
                match self {
                    $( ErrorCode::$variant => $code, )*
                    ErrorCode::Unknown(code) => code,
                }
            }
        }
    };
}

error_codes! {
    -1 UnknownServerError "UNKNOWN_SERVER_ERROR" false "the broker hit an unexpected failure it could not classify";
    0 None "NONE" false "no error, the request succeeded";
    1 OffsetOutOfRange "OFFSET_OUT_OF_RANGE" false "the requested offset lies outside the offsets the partition holds";
    2 CorruptMessage "CORRUPT_MESSAGE" true "a record failed its CRC check, is too small, or is otherwise damaged";
    3 UnknownTopicOrPartition "UNKNOWN_TOPIC_OR_PARTITION" true "this broker does not host the topic or partition";
    4 InvalidFetchSize "INVALID_FETCH_SIZE" false "the fetch size in the request is not acceptable";
    5 LeaderNotAvailable "LEADER_NOT_AVAILABLE" true "the partition has no leader right now, for example during an election";
    6 NotLeaderOrFollower "NOT_LEADER_OR_FOLLOWER" true "this broker is neither the leader nor a follower of the partition";
    7 RequestTimedOut "REQUEST_TIMED_OUT" true "the request did not complete within its time limit";
    8 BrokerNotAvailable "BROKER_NOT_AVAILABLE" false "the broker is not available";
    9 ReplicaNotAvailable "REPLICA_NOT_AVAILABLE" true "the replica is not available on this broker";
    10 MessageTooLarge "MESSAGE_TOO_LARGE" false "a record or batch is bigger than the broker accepts";
    11 StaleControllerEpoch "STALE_CONTROLLER_EPOCH" false "the request came from a controller whose epoch is out of date";
    12 OffsetMetadataTooLarge "OFFSET_METADATA_TOO_LARGE" false "the metadata string attached to a committed offset is too long";
    13 NetworkException "NETWORK_EXCEPTION" true "the connection was closed before the response arrived";
    14 CoordinatorLoadInProgress "COORDINATOR_LOAD_IN_PROGRESS" true "the coordinator is still loading its state";
    15 CoordinatorNotAvailable "COORDINATOR_NOT_AVAILABLE" true "no coordinator is available for this group or transaction right now";
    16 NotCoordinator "NOT_COORDINATOR" true "this broker is not the coordinator for the group or transaction";
    17 InvalidTopicException "INVALID_TOPIC_EXCEPTION" false "the topic name is invalid or the topic may not be used this way";
    18 RecordListTooLarge "RECORD_LIST_TOO_LARGE" false "a produced batch is bigger than the configured segment size";
    19 NotEnoughReplicas "NOT_ENOUGH_REPLICAS" true "fewer in-sync replicas than required, so the write was refused";
    20 NotEnoughReplicasAfterAppend "NOT_ENOUGH_REPLICAS_AFTER_APPEND" true "the write was stored but too few in-sync replicas acknowledged it";
    21 InvalidRequiredAcks "INVALID_REQUIRED_ACKS" false "the acks value of the produce request is not allowed";
    22 IllegalGeneration "ILLEGAL_GENERATION" false "the group generation in the request is not the current one";
    23 InconsistentGroupProtocol "INCONSISTENT_GROUP_PROTOCOL" false "the member's protocol type or protocols do not match the group's";
    24 InvalidGroupId "INVALID_GROUP_ID" false "the group id is empty or otherwise not valid";
    25 UnknownMemberId "UNKNOWN_MEMBER_ID" false "the coordinator does not know this member id";
    26 InvalidSessionTimeout "INVALID_SESSION_TIMEOUT" false "the session timeout is outside the range the broker allows";
    27 RebalanceInProgress "REBALANCE_IN_PROGRESS" false "the group is rebalancing, so the member must join again";
    28 InvalidCommitOffsetSize "INVALID_COMMIT_OFFSET_SIZE" false "the offset commit was refused because its size is not acceptable";
    29 TopicAuthorizationFailed "TOPIC_AUTHORIZATION_FAILED" false "the principal may not perform this operation on the topic";
    30 GroupAuthorizationFailed "GROUP_AUTHORIZATION_FAILED" false "the principal may not perform this operation on the group";
    31 ClusterAuthorizationFailed "CLUSTER_AUTHORIZATION_FAILED" false "the principal may not perform this cluster-level operation";
    32 InvalidTimestamp "INVALID_TIMESTAMP" false "a record timestamp is outside the accepted range";
    33 UnsupportedSaslMechanism "UNSUPPORTED_SASL_MECHANISM" false "the broker does not offer the requested SASL mechanism";
    34 IllegalSaslState "ILLEGAL_SASL_STATE" false "the request is not expected at this point of the SASL exchange";
    35 UnsupportedVersion "UNSUPPORTED_VERSION" false "the broker does not support this version of the API";
    36 TopicAlreadyExists "TOPIC_ALREADY_EXISTS" false "a topic with this name already exists";
    37 InvalidPartitions "INVALID_PARTITIONS" false "the partition count is not valid";
    38 InvalidReplicationFactor "INVALID_REPLICATION_FACTOR" false "the replication factor is not valid";
    39 InvalidReplicaAssignment "INVALID_REPLICA_ASSIGNMENT" false "the replica assignment is not valid";
    40 InvalidConfig "INVALID_CONFIG" false "a configuration value is not valid";
    41 NotController "NOT_CONTROLLER" true "this broker is not the active controller";
    42 InvalidRequest "INVALID_REQUEST" false "the request is malformed or breaks a protocol rule";
    43 UnsupportedForMessageFormat "UNSUPPORTED_FOR_MESSAGE_FORMAT" false "the topic's message format version does not support this request";
    44 PolicyViolation "POLICY_VIOLATION" false "the request was refused by a policy configured on the broker";
    45 OutOfOrderSequenceNumber "OUT_OF_ORDER_SEQUENCE_NUMBER" false "the producer sequence number skipped ahead of what the broker expected";
    46 DuplicateSequenceNumber "DUPLICATE_SEQUENCE_NUMBER" false "the broker already has a batch with this producer sequence number";
    47 InvalidProducerEpoch "INVALID_PRODUCER_EPOCH" false "the producer epoch is older than the one the broker knows";
    48 InvalidTxnState "INVALID_TXN_STATE" false "the transaction is not in a state that allows this operation";
    49 InvalidProducerIdMapping "INVALID_PRODUCER_ID_MAPPING" false "the producer id does not match the one recorded for the transactional id";
    50 InvalidTransactionTimeout "INVALID_TRANSACTION_TIMEOUT" false "the transaction timeout exceeds the broker's maximum";
    51 ConcurrentTransactions "CONCURRENT_TRANSACTIONS" true "another operation on this transactional id is still being completed";
    52 TransactionCoordinatorFenced "TRANSACTION_COORDINATOR_FENCED" false "the transaction coordinator has been replaced by a newer one";
    53 TransactionalIdAuthorizationFailed "TRANSACTIONAL_ID_AUTHORIZATION_FAILED" false "the principal may not use this transactional id";
    54 SecurityDisabled "SECURITY_DISABLED" false "security features are turned off on this broker";
    55 OperationNotAttempted "OPERATION_NOT_ATTEMPTED" false "the broker skipped this part because another part of the request failed";
    56 KafkaStorageError "KAFKA_STORAGE_ERROR" true "a disk or log directory on the broker failed";
    57 LogDirNotFound "LOG_DIR_NOT_FOUND" false "the named log directory does not exist on the broker";
    58 SaslAuthenticationFailed "SASL_AUTHENTICATION_FAILED" false "SASL authentication did not succeed";
    59 UnknownProducerId "UNKNOWN_PRODUCER_ID" false "the broker holds no state for this producer id";
    60 ReassignmentInProgress "REASSIGNMENT_IN_PROGRESS" false "a partition reassignment is already running";
    61 DelegationTokenAuthDisabled "DELEGATION_TOKEN_AUTH_DISABLED" false "delegation token authentication is turned off";
    62 DelegationTokenNotFound "DELEGATION_TOKEN_NOT_FOUND" false "no delegation token matches the request";
    63 DelegationTokenOwnerMismatch "DELEGATION_TOKEN_OWNER_MISMATCH" false "the principal does not own or renew this delegation token";
    64 DelegationTokenRequestNotAllowed "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED" false "delegation token requests are not accepted over this kind of connection";
    65 DelegationTokenAuthorizationFailed "DELEGATION_TOKEN_AUTHORIZATION_FAILED" false "the principal may not perform this delegation token operation";
    66 DelegationTokenExpired "DELEGATION_TOKEN_EXPIRED" false "the delegation token is past its expiry time";
    67 InvalidPrincipalType "INVALID_PRINCIPAL_TYPE" false "the principal type is not supported";
    68 NonEmptyGroup "NON_EMPTY_GROUP" false "the group still has members, so it cannot be deleted";
    69 GroupIdNotFound "GROUP_ID_NOT_FOUND" false "the group id does not exist";
    70 FetchSessionIdNotFound "FETCH_SESSION_ID_NOT_FOUND" true "the broker has no fetch session with this id";
    71 InvalidFetchSessionEpoch "INVALID_FETCH_SESSION_EPOCH" true "the fetch session epoch is not the expected one";
    72 ListenerNotFound "LISTENER_NOT_FOUND" true "the partition leader has no endpoint for the listener the request arrived on";
    73 TopicDeletionDisabled "TOPIC_DELETION_DISABLED" false "topic deletion is turned off on this cluster";
    74 FencedLeaderEpoch "FENCED_LEADER_EPOCH" true "the leader epoch in the request is older than the broker's";
    75 UnknownLeaderEpoch "UNKNOWN_LEADER_EPOCH" true "the leader epoch in the request is newer than the broker's";
    76 UnsupportedCompressionType "UNSUPPORTED_COMPRESSION_TYPE" false "the requesting client cannot handle the topic's compression type";
    77 StaleBrokerEpoch "STALE_BROKER_EPOCH" false "the broker epoch in the request is out of date";
    78 OffsetNotAvailable "OFFSET_NOT_AVAILABLE" true "the leader's high watermark has not caught up to the requested offset yet";
    79 MemberIdRequired "MEMBER_ID_REQUIRED" false "the member must join again with the member id the coordinator assigned";
    80 PreferredLeaderNotAvailable "PREFERRED_LEADER_NOT_AVAILABLE" true "the preferred leader could not be elected";
    81 GroupMaxSizeReached "GROUP_MAX_SIZE_REACHED" false "the group already has its maximum number of members";
    82 FencedInstanceId "FENCED_INSTANCE_ID" false "another member with the same static group instance id replaced this one";
    83 EligibleLeadersNotAvailable "ELIGIBLE_LEADERS_NOT_AVAILABLE" true "no replica eligible to lead the partition is online";
    84 ElectionNotNeeded "ELECTION_NOT_NEEDED" true "the partition already has the leader the election would choose";
    85 NoReassignmentInProgress "NO_REASSIGNMENT_IN_PROGRESS" false "there is no partition reassignment to cancel";
    86 GroupSubscribedToTopic "GROUP_SUBSCRIBED_TO_TOPIC" false "the group still subscribes to the topic, so its offsets cannot be deleted";
    87 InvalidRecord "INVALID_RECORD" false "the broker refused a record because it fails validation";
    88 UnstableOffsetCommit "UNSTABLE_OFFSET_COMMIT" true "some offsets are waiting on an open transaction to finish";
    89 ThrottlingQuotaExceeded "THROTTLING_QUOTA_EXCEEDED" true "the request would exceed the principal's throttling quota";
    90 ProducerFenced "PRODUCER_FENCED" false "a newer producer with the same transactional id has taken over";
    91 ResourceNotFound "RESOURCE_NOT_FOUND" false "the requested resource does not exist";
    92 DuplicateResource "DUPLICATE_RESOURCE" false "the request names the same resource more than once";
    93 UnacceptableCredential "UNACCEPTABLE_CREDENTIAL" false "the credential does not meet the broker's requirements";
    94 InconsistentVoterSet "INCONSISTENT_VOTER_SET" false "the request's voter is not part of the quorum's voter set";
    95 InvalidUpdateVersion "INVALID_UPDATE_VERSION" false "the feature update carries a version that is not valid";
    96 FeatureUpdateFailed "FEATURE_UPDATE_FAILED" false "the feature update could not be applied";
    97 PrincipalDeserializationFailure "PRINCIPAL_DESERIALIZATION_FAILURE" false "the forwarded request's principal could not be read back";
    98 SnapshotNotFound "SNAPSHOT_NOT_FOUND" false "the requested metadata snapshot does not exist";
    99 PositionOutOfRange "POSITION_OUT_OF_RANGE" false "the requested position lies outside the snapshot";
    100 UnknownTopicId "UNKNOWN_TOPIC_ID" true "this broker does not know the topic id";
    101 DuplicateBrokerRegistration "DUPLICATE_BROKER_REGISTRATION" false "a broker with this id is already registered";
    102 BrokerIdNotRegistered "BROKER_ID_NOT_REGISTERED" false "no broker with this id is registered";
    103 InconsistentTopicId "INCONSISTENT_TOPIC_ID" true "the topic id does not match the one recorded in the log";
    104 InconsistentClusterId "INCONSISTENT_CLUSTER_ID" false "the cluster id in the request does not match this cluster's";
    105 TransactionalIdNotFound "TRANSACTIONAL_ID_NOT_FOUND" false "the transactional id does not exist";
    106 FetchSessionTopicIdError "FETCH_SESSION_TOPIC_ID_ERROR" true "the fetch session changed whether it uses topic ids";
    107 IneligibleReplica "INELIGIBLE_REPLICA" false "the proposed in-sync replica set contains a replica that may not join it";
    108 NewLeaderElected "NEW_LEADER_ELECTED" false "the change was refused because a new partition leader was elected";
    109 OffsetMovedToTieredStorage "OFFSET_MOVED_TO_TIERED_STORAGE" false "the requested offset now lives only in tiered storage";
    110 FencedMemberEpoch "FENCED_MEMBER_EPOCH" false "the member epoch is fenced; the member must rejoin with epoch zero";
    111 UnreleasedInstanceId "UNRELEASED_INSTANCE_ID" false "the static instance id is still held by another member";
    112 UnsupportedAssignor "UNSUPPORTED_ASSIGNOR" false "the group coordinator does not offer the requested assignor";
    113 StaleMemberEpoch "STALE_MEMBER_EPOCH" false "the member epoch is older than the coordinator's";
    114 MismatchedEndpointType "MISMATCHED_ENDPOINT_TYPE" false "the request was sent to a kind of endpoint that does not match it";
    115 UnsupportedEndpointType "UNSUPPORTED_ENDPOINT_TYPE" false "the endpoint kind named in the request is not supported";
    116 UnknownControllerId "UNKNOWN_CONTROLLER_ID" false "no controller with this id is known";
    117 UnknownSubscriptionId "UNKNOWN_SUBSCRIPTION_ID" false "the client telemetry subscription id is not known";
    118 TelemetryTooLarge "TELEMETRY_TOO_LARGE" false "the pushed client telemetry is bigger than allowed";
    119 InvalidRegistration "INVALID_REGISTRATION" false "the controller found the registration request invalid";
    120 TransactionAbortable "TRANSACTION_ABORTABLE" false "the transaction can no longer commit and must be aborted";
    121 InvalidRecordState "INVALID_RECORD_STATE" false "the share-group record is not in a state that allows this acknowledgement";
    122 ShareSessionNotFound "SHARE_SESSION_NOT_FOUND" true "the broker has no share session for this member";
    123 InvalidShareSessionEpoch "INVALID_SHARE_SESSION_EPOCH" true "the share session epoch is not the expected one";
    124 FencedStateEpoch "FENCED_STATE_EPOCH" false "the share-group state epoch is older than the stored one";
    125 InvalidVoterKey "INVALID_VOTER_KEY" false "the voter key does not match the receiving replica";
    126 DuplicateVoter "DUPLICATE_VOTER" false "the voter is already part of the voter set";
    127 VoterNotFound "VOTER_NOT_FOUND" false "the voter is not part of the voter set";
    128 InvalidRegularExpression "INVALID_REGULAR_EXPRESSION" false "the subscription's regular expression is not valid";
}

impl ErrorCode {
    /// The error for an `int16` code read from the wire.
    ///
    /// Never fails: a code outside Kafka's table becomes
    /// [`ErrorCode::Unknown`] holding the same value, so
    /// `ErrorCode::from_code(c).code() == c` for every `c`.
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(ErrorCode::from_code(0), ErrorCode::None);
    /// assert_eq!(ErrorCode::from_code(31), ErrorCode::ClusterAuthorizationFailed);
    /// assert_eq!(ErrorCode::from_code(999), ErrorCode::Unknown(999));
    /// ```
    pub fn from_code(code: i16) -> Self {
        // The table is contiguous from -1, so the index is `code + 1`; the
        // comparison guards against that ever being untrue.
        usize::try_from(i32::from(code) + 1)
            .ok()
            .and_then(|index| Self::ALL.get(index).copied())
            .filter(|error| error.code() == code)
            .unwrap_or(ErrorCode::Unknown(code))
    }

    fn entry(self) -> Option<&'static Entry> {
        match self {
            ErrorCode::Unknown(_) => Option::None,
            known => usize::try_from(i32::from(known.code()) + 1)
                .ok()
                .and_then(|index| ENTRIES.get(index))
                .filter(|entry| entry.code == known.code()),
        }
    }

    /// Kafka's name for the error, e.g. `"NOT_CONTROLLER"`.
    ///
    /// [`ErrorCode::Unknown`] answers `"UNKNOWN_ERROR_CODE"` (not a Kafka
    /// name: Kafka has no entry for such codes).
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(ErrorCode::NotController.name(), "NOT_CONTROLLER");
    /// assert_eq!(ErrorCode::Unknown(999).name(), "UNKNOWN_ERROR_CODE");
    /// ```
    pub fn name(self) -> &'static str {
        self.entry().map_or("UNKNOWN_ERROR_CODE", |entry| entry.name)
    }

    /// Whether sending the same request again later may succeed (Kafka's
    /// exception for this error is a retriable one).
    ///
    /// [`ErrorCode::Unknown`] is never retriable.
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert!(ErrorCode::NotController.is_retriable());
    /// assert!(!ErrorCode::UnsupportedVersion.is_retriable());
    /// assert!(!ErrorCode::Unknown(999).is_retriable());
    /// ```
    pub fn is_retriable(self) -> bool {
        self.entry().is_some_and(|entry| entry.retriable)
    }

    /// A one-line explanation of the error, in this library's words.
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(
    ///     ErrorCode::NotController.description(),
    ///     "this broker is not the active controller"
    /// );
    /// ```
    pub fn description(self) -> &'static str {
        self.entry().map_or("an error code this library does not know", |entry| entry.description)
    }
}

impl From<i16> for ErrorCode {
    /// Same as [`ErrorCode::from_code`].
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(ErrorCode::from(-1), ErrorCode::UnknownServerError);
    /// ```
    fn from(code: i16) -> Self {
        ErrorCode::from_code(code)
    }
}

impl From<ErrorCode> for i16 {
    /// Same as [`ErrorCode::code`].
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(i16::from(ErrorCode::UnsupportedVersion), 35);
    /// ```
    fn from(error: ErrorCode) -> Self {
        error.code()
    }
}

impl fmt::Display for ErrorCode {
    /// Formats as `NAME (code): description`.
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    ///
    /// assert_eq!(
    ///     ErrorCode::NotController.to_string(),
    ///     "NOT_CONTROLLER (41): this broker is not the active controller"
    /// );
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.name(), self.code(), self.description())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_i16_round_trips() {
        for code in i16::MIN..=i16::MAX {
            let error = ErrorCode::from_code(code);
            assert_eq!(error.code(), code);
            assert_eq!(i16::from(error), code);
            assert_eq!(ErrorCode::from(code), error);
        }
    }

    #[test]
    fn table_is_contiguous_and_consistent() {
        assert_eq!(ENTRIES.len(), ErrorCode::ALL.len());
        for (index, (error, entry)) in ErrorCode::ALL.iter().zip(ENTRIES).enumerate() {
            let expected = i16::try_from(index).unwrap() - 1;
            assert_eq!(error.code(), expected);
            assert_eq!(entry.code, expected);
            assert_eq!(ErrorCode::from_code(expected), *error);
            assert_ne!(*error, ErrorCode::Unknown(expected));
        }
        assert_eq!(ErrorCode::ALL.first().unwrap().code(), -1);
        assert_eq!(ErrorCode::ALL.last().unwrap().code(), 128);
    }

    #[test]
    fn counts() {
        assert_eq!(ErrorCode::ALL.len(), 130);
        let retriable = ErrorCode::ALL.iter().filter(|e| e.is_retriable()).count();
        assert_eq!(retriable, 31);
    }

    #[test]
    fn names_unique_and_upper_snake() {
        let names: HashSet<_> = ErrorCode::ALL.iter().map(|e| e.name()).collect();
        assert_eq!(names.len(), 130);
        for name in names {
            assert!(name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'), "{name}");
        }
    }

    #[test]
    fn variant_names_are_upper_camel_of_kafka_names() {
        for error in ErrorCode::ALL {
            let camel: String = error
                .name()
                .split('_')
                .map(|word| {
                    let lower = word.to_ascii_lowercase();
                    let mut chars = lower.chars();
                    chars.next().map_or(String::new(), |first| first.to_ascii_uppercase().to_string() + chars.as_str())
                })
                .collect();
            assert_eq!(format!("{error:?}"), camel);
        }
    }

    #[test]
    fn descriptions_are_single_lines() {
        for error in ErrorCode::ALL {
            let description = error.description();
            assert!(!description.is_empty());
            assert!(!description.contains('\n'));
        }
    }

    #[test]
    fn spot_checks() {
        let e = ErrorCode::from_code(41);
        assert_eq!(e, ErrorCode::NotController);
        assert_eq!(e.name(), "NOT_CONTROLLER");
        assert!(e.is_retriable());

        let e = ErrorCode::from_code(35);
        assert_eq!(e, ErrorCode::UnsupportedVersion);
        assert_eq!(e.name(), "UNSUPPORTED_VERSION");
        assert!(!e.is_retriable());

        let e = ErrorCode::from_code(31);
        assert_eq!(e, ErrorCode::ClusterAuthorizationFailed);
        assert_eq!(e.name(), "CLUSTER_AUTHORIZATION_FAILED");
        assert!(!e.is_retriable());

        assert_eq!(ErrorCode::from_code(-1), ErrorCode::UnknownServerError);
        assert_eq!(ErrorCode::from_code(0).name(), "NONE");
        assert_eq!(ErrorCode::from_code(99), ErrorCode::PositionOutOfRange);
        assert_eq!(ErrorCode::from_code(128).name(), "INVALID_REGULAR_EXPRESSION");
        assert!(ErrorCode::from_code(2).is_retriable());
        assert!(ErrorCode::from_code(123).is_retriable());
        assert!(!ErrorCode::from_code(124).is_retriable());
    }

    #[test]
    fn unknown_codes_are_kept() {
        for code in [999, 129, -2, i16::MIN, i16::MAX] {
            let e = ErrorCode::from_code(code);
            assert_eq!(e, ErrorCode::Unknown(code));
            assert_eq!(e.code(), code);
            assert_eq!(e.name(), "UNKNOWN_ERROR_CODE");
            assert!(!e.is_retriable());
        }
        assert_eq!(
            ErrorCode::Unknown(999).to_string(),
            "UNKNOWN_ERROR_CODE (999): an error code this library does not know"
        );
        // A hand-built Unknown holding a known code still reports no entry.
        assert_eq!(ErrorCode::Unknown(41).name(), "UNKNOWN_ERROR_CODE");
    }

    #[test]
    fn display_format() {
        assert_eq!(
            ErrorCode::UnknownServerError.to_string(),
            "UNKNOWN_SERVER_ERROR (-1): the broker hit an unexpected failure it could not classify"
        );
        assert_eq!(
            ErrorCode::UnsupportedVersion.to_string(),
            "UNSUPPORTED_VERSION (35): the broker does not support this version of the API"
        );
    }

    #[test]
    fn retriable_set_matches_spec() {
        let retriable: Vec<i16> = ErrorCode::ALL.iter().filter(|e| e.is_retriable()).map(|e| e.code()).collect();
        assert_eq!(
            retriable,
            vec![
                2, 3, 5, 6, 7, 9, 13, 14, 15, 16, 19, 20, 41, 51, 56, 70, 71, 72, 74, 75, 78, 80, 83, 84, 88, 89, 100,
                103, 106, 122, 123
            ]
        );
    }
}
