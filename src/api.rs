//! The api-key table: what each api key is, its versions, where it may be
//! sent, and which request and response header versions go with each of
//! its versions (spec §7.2, §8).
//!
//! [`ApiKey`] and [`API_INFO`] are generated from the request and response
//! schemas; the rules that are not in the schemas live here.

use crate::message::VersionRange;
use crate::messages::ApiVersionsRequest;

pub use crate::messages::{api_info, ApiKey, API_INFO};

/// Where a request may be sent (a schema's `listeners`).
///
/// Non-exhaustive: the schemas' listener kinds change with Kafka releases
/// (`zkBroker` went with ZooKeeper), so a `match` needs a `_` arm.
///
/// # Example
/// ```
/// use kwire::api::{ApiKey, Listener};
/// let vote = ApiKey::Vote.info(); // KRaft's Vote goes to controllers only
/// assert_eq!(vote.listeners, &[Listener::Controller]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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
/// `K` is the api-key enum of the message set the table belongs to: this
/// crate's [`ApiKey`] for [`API_INFO`], or the `ApiKey` that
/// kwire-codegen generates beside another message set's table. The
/// methods read its number on the wire through `Into<i16>`, which every
/// generated `ApiKey` implements.
///
/// # Example
/// ```
/// use kwire::api::ApiKey;
/// let info = ApiKey::CreateTopics.info();
/// assert_eq!(info.api_key, ApiKey::CreateTopics);
/// assert_eq!((info.name, info.request_name, info.response_name), ("CreateTopics", "CreateTopicsRequest", "CreateTopicsResponse"));
/// assert_eq!((info.valid_versions.to_string(), info.flexible_versions.to_string()), ("0-7".into(), "5+".into()));
/// assert_eq!(info.request_header_version(7), 2);
/// // With the `admin` feature (default) its request and response are compiled.
/// assert_eq!(info.compiled, cfg!(feature = "admin"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiInfo<K: 'static = ApiKey> {
    /// The api key; its number on the wire is `api_key.into()` (for this
    /// crate's table, [`ApiKey::code`]).
    pub api_key: K,
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
    /// Whether a broker may forward this api's requests to the active
    /// controller inside an EnvelopeRequest (KIP-590): the admin writes
    /// (topics, ACLs, configs, partitions, delegation tokens, leader
    /// elections, reassignments, quotas, SCRAM credentials, features,
    /// broker and controller unregistration, producer-id blocks, raft
    /// voters) and DescribeQuorum; Envelope itself is not forwardable.
    /// Not in the schemas: the `forwardable` column of Kafka's `ApiKeys`
    /// table (spec §8.2), by api name.
    ///
    /// ```
    /// use kwire::api::ApiKey;
    /// assert!(ApiKey::CreateTopics.info().forwardable);
    /// assert!(!ApiKey::Metadata.info().forwardable);
    /// ```
    pub forwardable: bool,
    /// Whether this api is a cluster action: sent only between brokers and
    /// controllers, and authorized with CLUSTER_ACTION on the cluster
    /// resource (for Envelope: the forwarding broker's own principal,
    /// KIP-590). Not in the schemas: the `clusterAction` column of Kafka's
    /// `ApiKeys` table (spec §8.2), by api name.
    pub cluster_action: bool,
    /// Whether a server should keep a request's receive buffer alive until
    /// the request is handled: the decoded request may share its memory or
    /// it may be forwarded byte for byte ([`forwardable`](Self::forwardable)).
    /// Derived from the request schema as Kafka derives it: a `bytes` field
    /// (`ApiMessage` and `Header` included) at any depth, or a `records`
    /// field in a classic version, outside the tagged fields.
    pub requires_delayed_allocation: bool,
}

impl<K: Copy + Into<i16>> ApiInfo<K> {
    /// The api key's number on the wire.
    fn code(&self) -> i16 {
        self.api_key.into()
    }

    /// The request header version for `api_version`: 2 in flexible
    /// versions, else 1; 0 for ControlledShutdown v0. Total, as Kafka's:
    /// a version past the highest valid one follows the flexible range
    /// (spec §7.2), so a broker can read the header of a newer client's
    /// request and answer UNSUPPORTED_VERSION.
    ///
    /// ```
    /// let info = kwire::api::ApiKey::ApiVersions.info(); // flexible 3+
    /// assert_eq!((info.request_header_version(2), info.request_header_version(3)), (1, 2));
    /// assert_eq!(info.request_header_version(i16::MAX), 2);
    /// ```
    pub fn request_header_version(&self, api_version: i16) -> i16 {
        if self.code() == ApiKey::ControlledShutdown.code() && api_version == 0 {
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
    /// let info = kwire::api::api_info(18).unwrap();
    /// assert_eq!(info.response_header_version(3), 0);
    /// let metadata = kwire::api::ApiKey::Metadata.info(); // flexible 9+
    /// assert_eq!((metadata.response_header_version(8), metadata.response_header_version(100)), (0, 1));
    /// ```
    pub fn response_header_version(&self, api_version: i16) -> i16 {
        // ApiVersions answers in header v0 whatever the version (KIP-511).
        if self.code() == ApiKey::ApiVersions.code() {
            0
        } else if self.response_flexible_versions.contains(api_version) {
            1
        } else {
            0
        }
    }
}

/// The versions a client uses with one broker, from the broker's
/// ApiVersions response ([`negotiate`]).
///
/// For each api key it holds the versions that both sides support: the
/// broker's `MinVersion`-`MaxVersion` for that api key (ApiVersionsResponse
/// `ApiKeys`, KIP-35) intersected with this build's valid versions. Api keys
/// this build does not compile ([`ApiInfo::compiled`]), api keys the broker
/// does not list, and api keys without a common version have none.
///
/// # Example
/// ```
/// use kwire::api::{negotiate, ApiKey};
/// use kwire::message::VersionRange;
/// use kwire::messages::api_versions_response::ApiVersion;
/// use kwire::messages::ApiVersionsResponse;
///
/// let listed = |api_key, min_version, max_version| ApiVersion { api_key, min_version, max_version, ..Default::default() };
/// let response = ApiVersionsResponse {
///     api_keys: vec![listed(0, 3, 99), listed(3, 0, 12), listed(18, 0, 3), listed(1000, 0, 1)],
///     ..Default::default()
/// };
/// let negotiated = negotiate(&response).unwrap();
/// assert_eq!(negotiated.version(ApiKey::Produce), Some(13)); // ours 0-13, the broker's 3-99
/// assert_eq!(negotiated.range(ApiKey::Produce), Some(VersionRange::new(3, 13)));
/// assert_eq!(negotiated.version(ApiKey::Metadata), Some(12)); // the broker's highest
/// assert_eq!(negotiated.version(ApiKey::Fetch), None); // not listed by the broker
/// // Api key 1000, unknown here, is left out.
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Negotiated {
    /// (api key, versions both sides support), in api-key order, none empty.
    ranges: Vec<(ApiKey, VersionRange)>,
}

impl Negotiated {
    /// The version to send requests of `api_key` at: the highest that both
    /// the broker and this build support, or `None` when there is none
    /// (see [`Negotiated`]).
    ///
    /// ```
    /// use kwire::api::{ApiKey, Negotiated};
    /// let negotiated = Negotiated::default(); // nothing listed
    /// assert_eq!(negotiated.version(ApiKey::ApiVersions), None);
    /// ```
    pub fn version(&self, api_key: ApiKey) -> Option<i16> {
        self.range(api_key).map(|r| r.max)
    }

    /// Every version of `api_key` that both sides support (never empty),
    /// for a client that needs at least some version (Produce with record
    /// batches v2 needs v3:
    /// `range.intersect(VersionRange::new(3, i16::MAX))`), or `None`.
    ///
    /// ```
    /// use kwire::api::{ApiKey, Negotiated};
    /// assert_eq!(Negotiated::default().range(ApiKey::Produce), None);
    /// ```
    pub fn range(&self, api_key: ApiKey) -> Option<VersionRange> {
        self.ranges.binary_search_by_key(&api_key, |&(key, _)| key).ok().map(|i| self.ranges[i].1)
    }
}

/// The version of each api key to use with a broker, from its ApiVersions
/// response: for every api key compiled into this build
/// ([`ApiInfo::compiled`]) and listed by the broker, the highest version
/// both support ([`Negotiated::version`]).
///
/// This build's versions are the api key's valid versions less one whose
/// schema marks it unstable ([`ApiInfo::latest_version_unstable`]): its
/// layout may still change, and Kafka's own client does not send it unless
/// told to (`highestSupportedVersion(false)`, spec §8.1). If the broker
/// lists an api key twice, the first entry counts.
///
/// # Errors
/// [`ApiVersionsRefused`] when the response's `ErrorCode` is not 0, as
/// Kafka's client gives up on such a broker: INVALID_REQUEST (42) for a
/// request whose `ClientSoftwareName` or `ClientSoftwareVersion` the broker
/// rejects (v3 and later; [`ApiVersionsRequest::is_valid`]), or
/// UNSUPPORTED_VERSION (35) for an ApiVersions version the broker does not
/// know. The latter answer is a v0 body listing the broker's own
/// ApiVersions versions only (KIP-511):
/// [`ApiVersionsRefused::retry_version`] is then the version to ask again at.
///
/// ```
/// use kwire::api::{negotiate, ApiKey};
/// use kwire::messages::api_versions_response::ApiVersion;
/// use kwire::messages::ApiVersionsResponse;
///
/// // An old broker refusing ApiVersions v5: it has v0-3.
/// let refused = ApiVersionsResponse {
///     error_code: 35,
///     api_keys: vec![ApiVersion { api_key: 18, min_version: 0, max_version: 3, ..Default::default() }],
///     ..Default::default()
/// };
/// let err = negotiate(&refused).unwrap_err();
/// assert_eq!((err.error_code, err.retry_version), (35, Some(3)));
/// // A broker refusing the request itself: no version helps.
/// let invalid = ApiVersionsResponse { error_code: 42, ..Default::default() };
/// let err = negotiate(&invalid).unwrap_err();
/// assert_eq!(err.retry_version, None);
/// assert_eq!(err.to_string(), "the broker refused ApiVersions: INVALID_REQUEST (42): the request is malformed or breaks a protocol rule");
/// ```
pub fn negotiate(response: &crate::messages::ApiVersionsResponse) -> Result<Negotiated, ApiVersionsRefused> {
    let negotiated = negotiated(response);
    if response.error_code != 0 {
        let retry_version = match crate::error_code::ErrorCode::from_code(response.error_code) {
            crate::error_code::ErrorCode::UnsupportedVersion => negotiated.version(ApiKey::ApiVersions),
            _ => None,
        };
        return Err(ApiVersionsRefused { error_code: response.error_code, retry_version });
    }
    Ok(negotiated)
}

/// The common versions of every api key `response` lists, whatever its error code.
fn negotiated(response: &crate::messages::ApiVersionsResponse) -> Negotiated {
    let ranges = API_INFO
        .iter()
        .filter(|info| info.compiled)
        .filter_map(|info| {
            let theirs = response.api_keys.iter().find(|k| k.api_key == info.api_key.code())?;
            let mut ours = info.valid_versions;
            if info.latest_version_unstable {
                ours.max = ours.max.saturating_sub(1);
            }
            let common = ours.intersect(VersionRange::new(theirs.min_version, theirs.max_version));
            (!common.is_empty()).then_some((info.api_key, common))
        })
        .collect();
    Negotiated { ranges }
}

/// An ApiVersions response with a non-zero `ErrorCode`, from [`negotiate`]:
/// the broker negotiated nothing.
///
/// Displayed as `the broker refused ApiVersions: ` and the error code as
/// [`ErrorCode`](crate::error_code::ErrorCode) displays it (name, code,
/// description).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiVersionsRefused {
    /// The response's `ErrorCode`.
    pub error_code: i16,
    /// For UNSUPPORTED_VERSION (35): the highest ApiVersions version that
    /// both the broker (its answer lists its ApiVersions range, KIP-511) and
    /// this build support, to send the request again at; `None` for any
    /// other error, or when there is no common version.
    pub retry_version: Option<i16>,
}

impl std::fmt::Display for ApiVersionsRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let code = crate::error_code::ErrorCode::from_code(self.error_code);
        write!(f, "the broker refused ApiVersions: {code}")
    }
}

impl std::error::Error for ApiVersionsRefused {}

/// Kafka's rule for `ClientSoftwareName` and `ClientSoftwareVersion`
/// (KIP-511): not empty, ASCII letters, digits, `-` and `.` only, and a
/// letter or digit first and last.
fn is_valid_client_software(text: &str) -> bool {
    let bytes = text.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    edge(bytes.first())
        && edge(bytes.last())
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'.')
}

impl ApiVersionsRequest {
    /// `ClientSoftwareName` of [`ApiVersionsRequest::with_default_client_software`]: `kwire`.
    pub const DEFAULT_CLIENT_SOFTWARE_NAME: &'static str = "kwire";

    /// `ClientSoftwareVersion` of [`ApiVersionsRequest::with_default_client_software`]:
    /// this crate's version.
    pub const DEFAULT_CLIENT_SOFTWARE_VERSION: &'static str = env!("CARGO_PKG_VERSION");

    /// A request that a broker accepts at every version: `ClientSoftwareName`
    /// [`DEFAULT_CLIENT_SOFTWARE_NAME`](Self::DEFAULT_CLIENT_SOFTWARE_NAME)
    /// and `ClientSoftwareVersion`
    /// [`DEFAULT_CLIENT_SOFTWARE_VERSION`](Self::DEFAULT_CLIENT_SOFTWARE_VERSION),
    /// as Kafka's Java client fills them in with its own name and version.
    /// [`ApiVersionsRequest::default`] leaves them empty, which Kafka's
    /// brokers answer with INVALID_REQUEST (42) at v3 and later. To name
    /// your own software, set the two fields and check
    /// [`ApiVersionsRequest::is_valid`].
    ///
    /// ```
    /// use kwire::messages::ApiVersionsRequest;
    /// let request = ApiVersionsRequest::with_default_client_software();
    /// assert_eq!(request.client_software_name, "kwire");
    /// assert!(request.is_valid(4));
    /// assert!(!ApiVersionsRequest::default().is_valid(4));
    /// ```
    pub fn with_default_client_software() -> Self {
        Self {
            client_software_name: Self::DEFAULT_CLIENT_SOFTWARE_NAME.into(),
            client_software_version: Self::DEFAULT_CLIENT_SOFTWARE_VERSION.into(),
            ..Default::default()
        }
    }

    /// Whether a Kafka broker accepts this request at `version`: below v3
    /// always (the fields are not sent); from v3 (KIP-511) only when both
    /// `ClientSoftwareName` and `ClientSoftwareVersion` are non-empty,
    /// made of ASCII letters, digits, `-` and `.`, and begin and end with a
    /// letter or digit. A broker answers a request that is not with
    /// INVALID_REQUEST (42), at the request's version, listing no api keys.
    ///
    /// ```
    /// use kwire::messages::ApiVersionsRequest;
    /// let named = |name: &str, version: &str| ApiVersionsRequest {
    ///     client_software_name: name.into(),
    ///     client_software_version: version.into(),
    ///     ..Default::default()
    /// };
    /// assert!(named("librdkafka", "2.3.0").is_valid(3));
    /// assert!(!named("my app", "1").is_valid(3));
    /// assert!(!named("app", "1.0-").is_valid(3));
    /// assert!(named("", "").is_valid(2));
    /// ```
    pub fn is_valid(&self, version: i16) -> bool {
        version < 3
            || (is_valid_client_software(&self.client_software_name)
                && is_valid_client_software(&self.client_software_version))
    }
}

#[cfg(test)]
mod tests {
    use super::ApiVersionsRefused;

    /// The text users match on: the error code as `ErrorCode` displays it.
    #[test]
    fn api_versions_refused_text() {
        let err = ApiVersionsRefused { error_code: 35, retry_version: Some(3) };
        assert_eq!(
            err.to_string(),
            "the broker refused ApiVersions: UNSUPPORTED_VERSION (35): the broker does not support this version of the API"
        );
        assert!(std::error::Error::source(&err).is_none());
    }
}
