//! The api-key table: what each api key is, its versions, where it may be
//! sent, and which request and response header versions go with each of
//! its versions (spec §7.2, §8).
//!
//! [`ApiKey`] and [`API_INFO`] are generated from the request and response
//! schemas; the rules that are not in the schemas live here.

use crate::message::VersionRange;

pub use crate::messages::{api_info, ApiKey, API_INFO};

/// Where a request may be sent (a schema's `listeners`).
///
/// # Example
/// ```
/// use kafka_wire::api::{ApiKey, Listener};
/// let vote = ApiKey::Vote.info(); // KRaft's Vote goes to controllers only
/// assert_eq!(vote.listeners, &[Listener::Controller]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Listener {
    /// A ZooKeeper-mode broker.
    ZkBroker,
    /// A KRaft broker.
    Broker,
    /// A KRaft controller.
    Controller,
}

/// Facts about one api key, from its request and response schemas.
///
/// # Example
/// ```
/// let info = kafka_wire::api::ApiKey::CreateTopics.info();
/// assert_eq!((info.name, info.request_name, info.response_name), ("CreateTopics", "CreateTopicsRequest", "CreateTopicsResponse"));
/// assert_eq!((info.valid_versions.to_string(), info.flexible_versions.to_string()), ("0-7".into(), "5+".into()));
/// assert_eq!(info.request_header_version(7), 2);
/// // With the `admin` feature (default) its request and response are compiled.
/// assert_eq!(info.compiled, cfg!(feature = "admin"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiInfo {
    /// The api key.
    pub api_key: i16,
    /// Its name, e.g. `"CreateTopics"`.
    pub name: &'static str,
    /// Its request's message name, e.g. `"CreateTopicsRequest"`, as errors
    /// name it.
    pub request_name: &'static str,
    /// Its response's message name, e.g. `"CreateTopicsResponse"`.
    pub response_name: &'static str,
    /// The request's valid versions.
    pub valid_versions: VersionRange,
    /// The request's flexible versions (request header v2), as the schema
    /// gives them: `3+` reaches past the highest valid version, so that the
    /// header of a newer client's request is still read at the right
    /// version (spec §7.2).
    pub flexible_versions: VersionRange,
    /// The response's flexible versions (response header v1), open-ended
    /// in the same way.
    pub response_flexible_versions: VersionRange,
    /// Versions deprecated.
    pub deprecated_versions: VersionRange,
    /// Whether the highest valid version is still unstable.
    pub latest_version_unstable: bool,
    /// Where requests of this api may be sent.
    pub listeners: &'static [Listener],
    /// Whether this build compiles the api's request and response: always
    /// for the core api keys, with the features `admin` and `controller`
    /// for the others (see the crate's features). When false, decoding a
    /// body of this api key fails with
    /// [`DecodeErrorKind::ApiKeyNotCompiled`](crate::error::DecodeErrorKind::ApiKeyNotCompiled),
    /// and a broker should not advertise it in its ApiVersions response.
    pub compiled: bool,
}

/// Api key of ApiVersions, whose response header is always v0 (KIP-511).
pub const API_VERSIONS_KEY: i16 = 18;
/// Api key of ControlledShutdown, whose v0 request uses request header v0.
pub const CONTROLLED_SHUTDOWN_KEY: i16 = 7;

impl ApiInfo {
    /// The request header version for `api_version`: 2 in flexible
    /// versions, else 1; 0 for ControlledShutdown v0. Total, as Kafka's:
    /// a version past the highest valid one follows the flexible range
    /// (spec §7.2), so a broker can read the header of a newer client's
    /// request and answer UNSUPPORTED_VERSION.
    ///
    /// ```
    /// let info = kafka_wire::api::ApiKey::ApiVersions.info(); // flexible 3+
    /// assert_eq!((info.request_header_version(2), info.request_header_version(3)), (1, 2));
    /// assert_eq!(info.request_header_version(i16::MAX), 2);
    /// ```
    pub const fn request_header_version(&self, api_version: i16) -> i16 {
        if self.api_key == CONTROLLED_SHUTDOWN_KEY && api_version == 0 {
            0
        } else if self.flexible_versions.contains(api_version) {
            2
        } else {
            1
        }
    }

    /// The response header version for `api_version`: 1 in flexible
    /// versions (past the highest valid one too), else 0; always 0 for
    /// ApiVersions.
    ///
    /// ```
    /// let info = kafka_wire::api::api_info(18).unwrap();
    /// assert_eq!(info.response_header_version(3), 0);
    /// let metadata = kafka_wire::api::ApiKey::Metadata.info(); // flexible 9+
    /// assert_eq!((metadata.response_header_version(8), metadata.response_header_version(100)), (0, 1));
    /// ```
    pub const fn response_header_version(&self, api_version: i16) -> i16 {
        if self.api_key == API_VERSIONS_KEY {
            0
        } else if self.response_flexible_versions.contains(api_version) {
            1
        } else {
            0
        }
    }
}

impl ApiInfo {
    /// True when a broker may forward this api's requests to the active
    /// controller inside an EnvelopeRequest (KIP-590): the admin writes
    /// (topics, ACLs, configs, partitions, delegation tokens, leader
    /// elections, reassignments, quotas, SCRAM credentials, features,
    /// broker and controller unregistration, producer-id blocks, raft
    /// voters) and DescribeQuorum. 22 apis; Envelope itself is not
    /// forwardable.
    ///
    /// Not in the schemas: Kafka's `ApiKeys` table (spec §8.2).
    ///
    /// ```
    /// use kafka_wire::api::{api_info, API_INFO};
    /// assert!(api_info(19).unwrap().forwardable()); // CreateTopics
    /// assert!(!api_info(3).unwrap().forwardable()); // Metadata
    /// assert!(!api_info(58).unwrap().forwardable()); // Envelope
    /// assert_eq!(API_INFO.iter().filter(|i| i.forwardable()).count(), 22);
    /// ```
    pub const fn forwardable(&self) -> bool {
        matches!(
            self.api_key,
            19 | 20 | 30 | 31 | 33 | 37 | 38 | 39 | 40 | 43 | 44 | 45 | 46 | 49 | 51 | 55 | 57 | 64 | 67 | 80 | 81 | 94
        )
    }

    /// True when this api is a cluster action: sent only between brokers
    /// and controllers, and authorized with CLUSTER_ACTION on the cluster
    /// resource (for Envelope: the forwarding broker's own principal,
    /// KIP-590). 20 apis.
    ///
    /// Not in the schemas: Kafka's `ApiKeys` table (spec §8.2).
    ///
    /// ```
    /// use kafka_wire::api::{api_info, API_INFO};
    /// assert!(api_info(58).unwrap().cluster_action()); // Envelope
    /// assert!(!api_info(19).unwrap().cluster_action()); // CreateTopics
    /// assert_eq!(API_INFO.iter().filter(|i| i.cluster_action()).count(), 20);
    /// ```
    pub const fn cluster_action(&self) -> bool {
        matches!(
            self.api_key,
            4 | 5 | 6 | 7 | 27 | 52 | 53 | 54 | 55 | 56 | 57 | 58 | 62 | 63 | 67 | 83 | 84 | 85 | 86 | 87
        )
    }

    /// True when a server should keep the request's receive buffer alive
    /// until the request is handled, because the decoded request may share
    /// its memory (`bytes` or classic `records` fields) or the request may
    /// be forwarded byte for byte: every [`ApiInfo::forwardable`] api, plus
    /// Produce, JoinGroup, SyncGroup, SaslAuthenticate, Envelope and
    /// PushTelemetry.
    ///
    /// Not in the schemas: Kafka's `ApiKeys` table (spec §8.2).
    ///
    /// ```
    /// use kafka_wire::api::{api_info, API_INFO};
    /// assert!(api_info(36).unwrap().requires_delayed_allocation()); // SaslAuthenticate
    /// assert!(api_info(19).unwrap().requires_delayed_allocation()); // CreateTopics (forwardable)
    /// assert!(!api_info(3).unwrap().requires_delayed_allocation()); // Metadata
    /// assert_eq!(API_INFO.iter().filter(|i| i.requires_delayed_allocation()).count(), 28);
    /// ```
    pub const fn requires_delayed_allocation(&self) -> bool {
        self.forwardable() || matches!(self.api_key, 0 | 11 | 14 | 36 | 58 | 72)
    }
}
