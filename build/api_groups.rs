// Which api keys each cargo feature of kwire compiles; read by
// `build.rs` and by `tests/api_groups.rs` (which checks that the three
// lists split the api keys of `schemas/` between them).

/// Always compiled: what a producer, a consumer and a transactional client
/// send, the handshake (ApiVersions, SASL) and client telemetry (KIP-714,
/// which librdkafka clients send unasked).
pub const CORE: &[i16] = &[
    0,  // Produce
    1,  // Fetch
    2,  // ListOffsets
    3,  // Metadata
    8,  // OffsetCommit
    9,  // OffsetFetch
    10, // FindCoordinator
    11, // JoinGroup
    12, // Heartbeat
    13, // LeaveGroup
    14, // SyncGroup
    17, // SaslHandshake
    18, // ApiVersions
    22, // InitProducerId
    23, // OffsetForLeaderEpoch
    24, // AddPartitionsToTxn
    25, // AddOffsetsToTxn
    26, // EndTxn
    28, // TxnOffsetCommit
    36, // SaslAuthenticate
    68, // ConsumerGroupHeartbeat
    71, // GetTelemetrySubscriptions
    72, // PushTelemetry
];

/// Feature `controller`: the api keys that only controllers or
/// ZooKeeper-mode brokers serve (schema `listeners` without `broker`),
/// Envelope excepted.
pub const CONTROLLER: &[i16] = &[
    4,  // LeaderAndIsr
    5,  // StopReplica
    6,  // UpdateMetadata
    7,  // ControlledShutdown
    52, // Vote
    53, // BeginQuorumEpoch
    54, // EndQuorumEpoch
    56, // AlterPartition
    59, // FetchSnapshot
    62, // BrokerRegistration
    63, // BrokerHeartbeat
    67, // AllocateProducerIds
    70, // ControllerRegistration
    73, // AssignReplicasToDirs
    82, // UpdateRaftVoter
];

/// Feature `admin`: every other api key a broker serves, and Envelope
/// (KIP-590), which carries forwarded admin requests.
pub const ADMIN: &[i16] = &[
    15, 16, 19, 20, 21, 27, 29, 30, 31, 32, 33, 34, 35, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
    51, 55, 57, 58, 60, 61, 64, 65, 66, 69, 74, 75, 76, 77, 78, 79, 80, 81, 83, 84, 85, 86, 87, 88, 89, 90, 91,
    92, 93, 94,
];
