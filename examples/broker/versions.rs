//! The apis and versions this broker serves, and ApiVersions.

use kwire::error_code::ErrorCode;
use kwire::message::VersionRange;
use kwire::messages::api_versions_response::ApiVersion;
use kwire::messages::{ApiVersionsRequest, ApiVersionsResponse};

use crate::config::Config;

/// Api key of ApiVersions.
pub const API_VERSIONS: i16 = 18;

/// Every api served, with its versions: (api key, lowest, highest).
///
/// Produce starts at v3 and Fetch at v4, the first versions that carry
/// record batches v2 (magic 2), which is all this broker stores (Kafka 4.0
/// has the same floors). OffsetCommit starts at v2 and OffsetFetch at v1,
/// the first versions stored by the broker rather than in ZooKeeper.
/// DescribeConfigs starts at v1, as in Kafka 4.0 (KIP-896).
const SERVED: &[(i16, i16, i16)] = &[
    (0, 3, 11), // Produce
    (1, 4, 17), // Fetch
    (2, 1, 10), // ListOffsets
    (3, 0, 12), // Metadata
    (8, 2, 9),  // OffsetCommit
    (9, 1, 9),  // OffsetFetch
    (10, 0, 6), // FindCoordinator
    (11, 0, 9), // JoinGroup
    (12, 0, 4), // Heartbeat
    (13, 0, 5), // LeaveGroup
    (14, 0, 5), // SyncGroup
    (15, 0, 5), // DescribeGroups
    (16, 0, 5), // ListGroups
    (18, 0, 5), // ApiVersions
    (19, 0, 7), // CreateTopics
    (20, 0, 6), // DeleteTopics
    (22, 0, 5), // InitProducerId
    (32, 1, 4), // DescribeConfigs
    (33, 0, 2), // AlterConfigs
    (44, 0, 1), // IncrementalAlterConfigs
    (60, 0, 2), // DescribeCluster
];

/// The SASL apis, served when the listener requires SASL. After
/// SaslHandshake v0 the SASL tokens travel as bare frames; from v1 inside
/// SaslAuthenticate. (librdkafka 2.0 will not authenticate unless v0 is
/// listed, even though it then uses v1.)
const SERVED_SASL: &[(i16, i16, i16)] = &[
    (17, 0, 1), // SaslHandshake
    (36, 0, 2), // SaslAuthenticate
];

/// The versions advertised to clients.
#[derive(Debug, Clone)]
pub struct Versions {
    apis: Vec<ApiVersion>,
}

impl Versions {
    /// The table for `config`: [`SERVED`] (and [`SERVED_SASL`] with SASL),
    /// each capped by `--max-version` and by the versions kwire has
    /// (and compiles).
    pub fn new(config: &Config) -> Self {
        let sasl: &[(i16, i16, i16)] = if config.sasl() { SERVED_SASL } else { &[] };
        let mut apis: Vec<ApiVersion> = SERVED
            .iter()
            .chain(sasl)
            .filter_map(|&(api_key, min, max)| {
                // Only api keys whose bodies this build compiles can be served.
                let info = kwire::api::api_info(api_key).filter(|info| info.compiled)?;
                let cap = config.max_versions.get(&info.api_key).copied().unwrap_or(i16::MAX);
                let served =
                    VersionRange::new(min, max).intersect(info.valid_versions).intersect(VersionRange::new(0, cap));
                (!served.is_empty()).then(|| ApiVersion {
                    api_key,
                    min_version: served.min,
                    max_version: served.max,
                    ..Default::default()
                })
            })
            .collect();
        apis.sort_by_key(|a| a.api_key);
        Self { apis }
    }

    /// The advertised range of `api_key`, if it is served.
    pub fn range(&self, api_key: i16) -> Option<VersionRange> {
        self.apis.iter().find(|a| a.api_key == api_key).map(|a| VersionRange::new(a.min_version, a.max_version))
    }

    /// The answer to an ApiVersions request of a served `version`: the
    /// table, or, as Kafka answers a v3+ request whose client software name
    /// or version breaks KIP-511's rule ([`ApiVersionsRequest::is_valid`]),
    /// error INVALID_REQUEST and no api keys, at the request's version.
    pub fn response(&self, request: &ApiVersionsRequest, version: i16) -> ApiVersionsResponse {
        if !request.is_valid(version) {
            return ApiVersionsResponse { error_code: ErrorCode::InvalidRequest.code(), ..Default::default() };
        }
        ApiVersionsResponse { api_keys: self.apis.clone(), ..Default::default() }
    }

    /// The answer to an ApiVersions request of a version this broker does
    /// not serve: to be encoded at v0 (the only shape every client can
    /// read), error UNSUPPORTED_VERSION, and the ApiVersions range alone, so
    /// the client retries at the highest version both sides have.
    pub fn unsupported_response(&self) -> ApiVersionsResponse {
        let api_keys = self.apis.iter().filter(|a| a.api_key == API_VERSIONS).cloned().collect();
        ApiVersionsResponse { error_code: ErrorCode::UnsupportedVersion.code(), api_keys, ..Default::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::message::Message;

    #[test]
    fn caps_and_sasl() {
        let plain = Config::parse(Vec::new(), None).unwrap();
        let v = Versions::new(&plain);
        assert_eq!(v.range(API_VERSIONS), Some(VersionRange::new(0, 5)));
        assert_eq!(v.range(36), None);
        let args = ["--sasl-plain", "u:p", "--max-version", "ApiVersions=3"].map(String::from);
        let v = Versions::new(&Config::parse(args, None).unwrap());
        assert_eq!(v.range(API_VERSIONS), Some(VersionRange::new(0, 3)));
        assert_eq!(v.range(17), Some(VersionRange::new(0, 1)));
        let err = v.unsupported_response();
        assert_eq!((err.error_code, err.api_keys.len(), err.api_keys[0].max_version), (35, 1, 3));
    }

    #[test]
    fn invalid_client_software_is_refused_from_v3() {
        let v = Versions::new(&Config::parse(Vec::new(), None).unwrap());
        let named = |name: &str, version: &str| ApiVersionsRequest {
            client_software_name: name.into(),
            client_software_version: version.into(),
            ..Default::default()
        };
        let full = v.response(&ApiVersionsRequest::with_default_client_software(), 3);
        assert_eq!((full.error_code, full.api_keys.len()), (0, SERVED.len()));
        // Before v3 the fields are not on the wire: always answered.
        assert_eq!(v.response(&ApiVersionsRequest::default(), 2), full);
        for (name, software_version) in [("", ""), ("kcat", ""), ("my app", "1.0"), ("-x", "1"), ("x", "1.")] {
            for version in [3, 4] {
                let refused = v.response(&named(name, software_version), version);
                // Kafka's answer: INVALID_REQUEST, no api keys, throttle 0.
                let expected = ApiVersionsResponse { error_code: 42, ..Default::default() };
                assert_eq!(refused, expected, "{name:?} {software_version:?} v{version}");
                // Encoded as Kafka encodes it at v3: error, empty compact
                // array, throttle, no tagged fields (the interop/tests/cluster_api_versions.rs
                // bytes from a Kafka 4.4 broker).
                if version == 3 {
                    assert_eq!(&refused.to_bytes(3).unwrap()[..], b"\x00\x2a\x01\x00\x00\x00\x00\x00");
                }
            }
        }
        assert_eq!(v.response(&named("librdkafka", "2.3.0"), 4), full);
    }
}
