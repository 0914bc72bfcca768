//! Command-line settings of the example broker.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::time::Duration;

use kwire::api::ApiKey;

/// Usage text for `--help`.
pub const USAGE: &str = "\
kwire example broker: one Kafka node in memory, on kwire and tokio.

usage: broker [options]

  --port N                 port to listen on (default: $KWIRE_BROKER_PORT or 9092; 0 = any free port)
  --host ADDR              address to listen on (and to advertise, without --advertise; default 127.0.0.1)
  --advertise HOST:PORT    address to give clients in Metadata, FindCoordinator and DescribeCluster
                           instead of the one listened on (a proxy's, a NAT's, a forwarder's)
  --node-id N              this node's id (default 1)
  --sasl-plain USER:PASS   require SASL/PLAIN and accept this user (repeatable)
  --reauth-ms N            KIP-368 connections.max.reauth.ms: session lifetime sent in
                           SaslAuthenticate v1+, expired sessions are closed (default 0 = none)
  --default-partitions N   partitions of auto-created topics and of CreateTopics asking -1 (default 1)
  --no-auto-create-topics  do not create unknown topics that Metadata asks for
  --max-version API=V      advertise at most version V of API (a name such as ApiVersions, or a key);
                           repeatable; to exercise clients' version fallback
  --group-initial-delay-ms N  how long a new group waits for more members before its first
                           rebalance completes (default 300)
  --max-frame-size N       largest request frame accepted, in bytes (default 104857600)
  --max-runtime-secs N     stop after N seconds (default: run until SIGINT or SIGTERM)
  -v, --verbose            log every request
  -h, --help               this text
";

/// The broker's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on, and to advertise without `advertise`.
    pub host: IpAddr,
    /// Host and port to advertise in Metadata, FindCoordinator and
    /// DescribeCluster instead of the ones listened on.
    pub advertise: Option<(String, u16)>,
    /// Port to listen on; 0 picks a free one.
    pub port: u16,
    /// This node's id.
    pub node_id: i32,
    /// SASL/PLAIN users and passwords; empty means no authentication.
    pub users: BTreeMap<String, String>,
    /// KIP-368 `connections.max.reauth.ms`; 0 = sessions never expire.
    pub reauth_ms: u64,
    /// Partitions of topics created without a count.
    pub default_partitions: i32,
    /// Whether Metadata creates the unknown topics it is asked about.
    pub auto_create_topics: bool,
    /// Highest version to advertise, per api key.
    pub max_versions: BTreeMap<ApiKey, i16>,
    /// How long a new group waits before its first rebalance completes.
    pub group_initial_delay: Duration,
    /// Largest request frame accepted.
    pub max_frame_size: usize,
    /// Stop after this long.
    pub max_runtime: Option<Duration>,
    /// Log every request.
    pub verbose: bool,
    /// The cluster id in Metadata responses.
    pub cluster_id: String,
    /// The options given on the command line (`--port`, ...): their
    /// settings are STATIC_BROKER_CONFIG in DescribeConfigs, the others
    /// DEFAULT_CONFIG.
    pub given: BTreeSet<String>,
}

/// A command line that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--help` was given: print the usage and stop.
    #[error("help requested")]
    Help,
    /// An option that is not one of [`USAGE`].
    #[error("unknown option {0:?} (see --help)")]
    UnknownOption(String),
    /// An option without its value.
    #[error("option {0} needs a value")]
    MissingValue(String),
    /// A value that does not parse.
    #[error("bad value {value:?} for {option}: {reason}")]
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl Config {
    /// Reads the settings from the command line (without the program
    /// name) and the environment variable `KWIRE_BROKER_PORT`.
    pub fn parse(args: impl IntoIterator<Item = String>, env_port: Option<String>) -> Result<Self, ConfigError> {
        let mut config = Config {
            host: IpAddr::from([127, 0, 0, 1]),
            advertise: None,
            port: 9092,
            node_id: 1,
            users: BTreeMap::new(),
            reauth_ms: 0,
            default_partitions: 1,
            auto_create_topics: true,
            max_versions: BTreeMap::new(),
            group_initial_delay: Duration::from_millis(300),
            max_frame_size: kwire::codec::DEFAULT_MAX_FRAME_SIZE,
            max_runtime: None,
            verbose: false,
            cluster_id: "kwire-example".to_string(),
            given: BTreeSet::new(),
        };
        if let Some(port) = env_port.filter(|p| !p.is_empty()) {
            config.port = parse_value("KWIRE_BROKER_PORT", &port)?;
        }
        let mut args = args.into_iter();
        while let Some(option) = args.next() {
            config.given.insert(option.clone());
            let mut value = || args.next().ok_or_else(|| ConfigError::MissingValue(option.clone()));
            match option.as_str() {
                "-h" | "--help" => return Err(ConfigError::Help),
                "-v" | "--verbose" => config.verbose = true,
                "--no-auto-create-topics" => config.auto_create_topics = false,
                "--port" => config.port = parse_value(&option, &value()?)?,
                "--host" => config.host = parse_value(&option, &value()?)?,
                "--advertise" => {
                    let value = value()?;
                    let (host, port) = value
                        .rsplit_once(':')
                        .filter(|(h, _)| !h.is_empty())
                        .ok_or_else(|| bad(&option, &value, "expected HOST:PORT"))?;
                    let port: u16 = parse_value(&option, port)?;
                    if port == 0 {
                        return Err(bad(&option, &value, "the port must not be 0"));
                    }
                    // An IPv6 address may come in brackets, as in a URL.
                    let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
                    config.advertise = Some((host.to_string(), port));
                }
                "--node-id" => config.node_id = parse_value(&option, &value()?)?,
                "--reauth-ms" => config.reauth_ms = parse_value(&option, &value()?)?,
                "--max-frame-size" => config.max_frame_size = parse_value(&option, &value()?)?,
                "--default-partitions" => {
                    let value = value()?;
                    config.default_partitions = parse_value(&option, &value)?;
                    if config.default_partitions < 1 {
                        return Err(bad(&option, &value, "must be at least 1"));
                    }
                }
                "--group-initial-delay-ms" => {
                    config.group_initial_delay = Duration::from_millis(parse_value(&option, &value()?)?);
                }
                "--max-runtime-secs" => {
                    config.max_runtime = Some(Duration::from_secs(parse_value(&option, &value()?)?));
                }
                "--sasl-plain" => {
                    let value = value()?;
                    let (user, password) = value
                        .split_once(':')
                        .filter(|(u, p)| !u.is_empty() && !p.is_empty())
                        .ok_or_else(|| bad(&option, &value, "expected USER:PASSWORD"))?;
                    config.users.insert(user.to_string(), password.to_string());
                }
                "--max-version" => {
                    let value = value()?;
                    let (api, version) =
                        value.split_once('=').ok_or_else(|| bad(&option, &value, "expected API=VERSION"))?;
                    let key = api_key_by_name(api).ok_or_else(|| bad(&option, &value, "unknown api"))?;
                    config.max_versions.insert(key, parse_value(&option, version)?);
                }
                _ => return Err(ConfigError::UnknownOption(option)),
            }
        }
        Ok(config)
    }

    /// The host and port clients are told to connect to, given the port
    /// actually listened on.
    pub fn advertised(&self, listening_port: u16) -> (String, u16) {
        match &self.advertise {
            Some((host, port)) => (host.clone(), *port),
            None => (self.host.to_string(), listening_port),
        }
    }

    /// True when clients must authenticate with SASL/PLAIN.
    pub fn sasl(&self) -> bool {
        !self.users.is_empty()
    }
}

/// An api key from its name (`ApiVersions`, case-insensitive) or number.
fn api_key_by_name(api: &str) -> Option<ApiKey> {
    if let Ok(key) = api.parse::<i16>() {
        return ApiKey::try_from(key).ok();
    }
    kwire::api::API_INFO.iter().find(|info| info.name.eq_ignore_ascii_case(api)).map(|info| info.api_key)
}

fn parse_value<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, ConfigError>
where
    T::Err: std::fmt::Display,
{
    value.parse().map_err(|e: T::Err| bad(option, value, &e.to_string()))
}

fn bad(option: &str, value: &str, reason: &str) -> ConfigError {
    ConfigError::BadValue { option: option.to_string(), value: value.to_string(), reason: reason.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, ConfigError> {
        Config::parse(args.iter().map(|s| s.to_string()), None)
    }

    #[test]
    fn defaults_and_options() {
        let c = parse(&[]).unwrap();
        assert_eq!((c.port, c.node_id, c.reauth_ms, c.sasl()), (9092, 1, 0, false));
        let c = parse(&[
            "--port",
            "0",
            "--sasl-plain",
            "alice:s3cret",
            "--reauth-ms",
            "2000",
            "--max-version",
            "ApiVersions=3",
        ])
        .unwrap();
        assert_eq!((c.port, c.reauth_ms), (0, 2000));
        assert_eq!(c.users.get("alice").map(String::as_str), Some("s3cret"));
        assert_eq!(c.max_versions.get(&ApiKey::ApiVersions), Some(&3));
        let c = Config::parse(Vec::new(), Some("19500".into())).unwrap();
        assert_eq!(c.port, 19500);
        assert_eq!(c.advertised(19500), ("127.0.0.1".to_string(), 19500));
        let c = parse(&["--port", "0", "--advertise", "kafka.example:9093"]).unwrap();
        assert_eq!(c.advertised(40000), ("kafka.example".to_string(), 9093));
        let c = parse(&["--advertise", "[::1]:9093"]).unwrap();
        assert_eq!(c.advertised(9092), ("::1".to_string(), 9093));
    }

    #[test]
    fn bad_command_lines() {
        assert!(matches!(parse(&["--port"]), Err(ConfigError::MissingValue(_))));
        assert!(matches!(parse(&["--port", "x"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--sasl-plain", "alice"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--max-version", "Nope=1"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--frobnicate"]), Err(ConfigError::UnknownOption(_))));
        assert!(matches!(parse(&["--advertise", "host"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--advertise", ":9092"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--advertise", "host:0"]), Err(ConfigError::BadValue { .. })));
        assert!(matches!(parse(&["--help"]), Err(ConfigError::Help)));
    }
}
