//! Topic and broker configs: DescribeConfigs (answered by the broker),
//! AlterConfigs and IncrementalAlterConfigs (forwarded to the controller in
//! Envelopes, applied there), and the configs of CreateTopics.
//!
//! Each topic keeps its overrides (`Topic::configs`); everything else comes
//! from [`TOPIC_CONFIGS`], the topic configs of Kafka 4.4 with their types,
//! defaults, checks and broker synonyms. As on a freshly formatted KRaft
//! cluster, `min.insync.replicas` also has a cluster-wide dynamic default
//! ([`CLUSTER_DEFAULTS`]), so topics report it with that source.
//!
//! What Kafka answers, and this broker too: an unknown topic is
//! UNKNOWN_TOPIC_OR_PARTITION; an unknown config name, a value of the wrong
//! type or out of range, APPEND or SUBTRACT on a config that is not a list
//! are INVALID_CONFIG; a null value to SET or APPEND, an unknown operation
//! or a config named twice are INVALID_REQUEST. DELETE of any name, known or
//! not, set or not, succeeds. A resource with an error changes nothing;
//! `validate_only` checks and answers without changing anything.
//!
//! Differences: broker configs can be described, not altered (INVALID_REQUEST;
//! every broker config is reported read-only); documentation is never sent
//! (null); BROKER_LOGGER, CLIENT_METRICS and GROUP resources are refused
//! with INVALID_REQUEST.

use std::collections::{BTreeMap, BTreeSet};

use kwire::error_code::ErrorCode;
use kwire::messages::create_topics_response::CreatableTopicConfigs;
use kwire::messages::describe_configs_response::{
    DescribeConfigsResourceResult, DescribeConfigsResult, DescribeConfigsSynonym,
};
use kwire::messages::{
    AlterConfigsRequest, AlterConfigsResponse, DescribeConfigsRequest, DescribeConfigsResponse,
    IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse,
};
use kwire::ByteString;

use crate::config::Config;
use crate::state::{valid_topic_name, Cluster};

/// Resource types (`ConfigResource.Type`).
pub const RESOURCE_TOPIC: i8 = 2;
/// A broker, by id; the empty name means the cluster-wide defaults.
pub const RESOURCE_BROKER: i8 = 4;

/// Config sources of DescribeConfigs v1+.
pub mod source {
    /// A topic's own override.
    pub const DYNAMIC_TOPIC_CONFIG: i8 = 1;
    /// A cluster-wide dynamic broker default.
    pub const DYNAMIC_DEFAULT_BROKER_CONFIG: i8 = 3;
    /// The broker's start-up settings (here: its command line).
    pub const STATIC_BROKER_CONFIG: i8 = 4;
    /// Kafka's default.
    pub const DEFAULT_CONFIG: i8 = 5;
}

/// Value types of DescribeConfigs v3+.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Boolean,
    String,
    Int,
    Long,
    Double,
    List,
}

impl Kind {
    /// The wire code (`ConfigType`).
    pub fn code(self) -> i8 {
        match self {
            Kind::Boolean => 1,
            Kind::String => 2,
            Kind::Int => 3,
            Kind::Long => 5,
            Kind::Double => 6,
            Kind::List => 7,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Boolean => "BOOLEAN",
            Kind::String => "STRING",
            Kind::Int => "INT",
            Kind::Long => "LONG",
            Kind::Double => "DOUBLE",
            Kind::List => "LIST",
        }
    }
}

/// The check a value passes besides its type.
#[derive(Debug, Clone, Copy)]
enum Check {
    None,
    /// A number at least this.
    AtLeast(i64),
    /// A number in this closed range.
    Between(i64, i64),
    /// An INT in this range, or -1.
    BetweenOrMinusOne(i64, i64),
    /// A DOUBLE in [0, 1].
    Ratio,
    /// A STRING, one of these.
    OneOf(&'static [&'static str]),
    /// A LIST whose items are each one of these.
    ItemsOf(&'static [&'static str]),
    /// A LIST of `PARTITION:BROKER` items, or `*`.
    Throttled,
}

/// One topic config.
pub struct TopicConfig {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Kafka's default, as DescribeConfigs shows it.
    pub default: &'static str,
    /// The broker configs that set its default, in order of precedence,
    /// with their own default values and types.
    synonyms: &'static [(&'static str, Option<&'static str>, Kind)],
    check: Check,
}

const MAX_LONG: &str = "9223372036854775807";

macro_rules! topic_config {
    ($name:literal, $kind:ident, $default:expr, [$(($syn:literal, $sdef:expr, $skind:ident)),*], $check:expr) => {
        TopicConfig {
            name: $name,
            kind: Kind::$kind,
            default: $default,
            synonyms: &[$(($syn, $sdef, Kind::$skind)),*],
            check: $check,
        }
    };
}

/// Kafka 4.4's topic configs (those DescribeConfigs lists), by name.
#[rustfmt::skip]
pub const TOPIC_CONFIGS: &[TopicConfig] = &[
    topic_config!("cleanup.policy", List, "delete", [("log.cleanup.policy", Some("delete"), List)], Check::ItemsOf(&["compact", "delete"])),
    topic_config!("compression.gzip.level", Int, "-1", [("compression.gzip.level", Some("-1"), Int)], Check::BetweenOrMinusOne(1, 9)),
    topic_config!("compression.lz4.level", Int, "9", [("compression.lz4.level", Some("9"), Int)], Check::Between(1, 17)),
    topic_config!("compression.type", String, "producer", [("compression.type", Some("producer"), String)],
        Check::OneOf(&["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"])),
    topic_config!("compression.zstd.level", Int, "3", [("compression.zstd.level", Some("3"), Int)], Check::Between(-131_072, 22)),
    topic_config!("delete.retention.ms", Long, "86400000", [("log.cleaner.delete.retention.ms", Some("86400000"), Long)], Check::AtLeast(0)),
    topic_config!("errors.deadletterqueue.group.enable", Boolean, "false", [], Check::None),
    topic_config!("file.delete.delay.ms", Long, "60000", [("log.segment.delete.delay.ms", Some("60000"), Long)], Check::AtLeast(0)),
    topic_config!("flush.messages", Long, MAX_LONG, [("log.flush.interval.messages", Some(MAX_LONG), Long)], Check::AtLeast(1)),
    topic_config!("flush.ms", Long, MAX_LONG,
        [("log.flush.interval.ms", None, Long), ("log.flush.scheduler.interval.ms", Some(MAX_LONG), Long)], Check::AtLeast(0)),
    topic_config!("follower.replication.throttled.replicas", List, "", [], Check::Throttled),
    topic_config!("index.interval.bytes", Int, "4096", [("log.index.interval.bytes", Some("4096"), Int)], Check::AtLeast(0)),
    topic_config!("leader.replication.throttled.replicas", List, "", [], Check::Throttled),
    topic_config!("local.retention.bytes", Long, "-2", [("log.local.retention.bytes", Some("-2"), Long)], Check::AtLeast(-2)),
    topic_config!("local.retention.ms", Long, "-2", [("log.local.retention.ms", Some("-2"), Long)], Check::AtLeast(-2)),
    topic_config!("max.compaction.lag.ms", Long, MAX_LONG, [("log.cleaner.max.compaction.lag.ms", Some(MAX_LONG), Long)], Check::AtLeast(1)),
    topic_config!("max.decompressed.message.bytes", Int, "2147483639",
        [("max.decompressed.message.bytes", Some("2147483639"), Int)], Check::Between(1, 2_147_483_639)),
    topic_config!("max.message.bytes", Int, "1048588", [("message.max.bytes", Some("1048588"), Int)], Check::AtLeast(0)),
    topic_config!("message.timestamp.after.max.ms", Long, "3600000",
        [("log.message.timestamp.after.max.ms", Some("3600000"), Long)], Check::AtLeast(0)),
    topic_config!("message.timestamp.before.max.ms", Long, MAX_LONG,
        [("log.message.timestamp.before.max.ms", Some(MAX_LONG), Long)], Check::AtLeast(0)),
    topic_config!("message.timestamp.type", String, "CreateTime", [("log.message.timestamp.type", Some("CreateTime"), String)],
        Check::OneOf(&["CreateTime", "LogAppendTime"])),
    topic_config!("min.cleanable.dirty.ratio", Double, "0.5", [("log.cleaner.min.cleanable.ratio", Some("0.5"), Double)], Check::Ratio),
    topic_config!("min.compaction.lag.ms", Long, "0", [("log.cleaner.min.compaction.lag.ms", Some("0"), Long)], Check::AtLeast(0)),
    topic_config!("min.insync.replicas", Int, "1", [("min.insync.replicas", Some("1"), Int)], Check::AtLeast(1)),
    topic_config!("preallocate", Boolean, "false", [("log.preallocate", Some("false"), Boolean)], Check::None),
    topic_config!("remote.copy.lag.bytes", Long, "-1", [("log.remote.copy.lag.bytes", Some("-1"), Long)], Check::AtLeast(-1)),
    topic_config!("remote.copy.lag.ms", Long, "0", [("log.remote.copy.lag.ms", Some("0"), Long)], Check::AtLeast(-1)),
    topic_config!("remote.log.copy.disable", Boolean, "false", [], Check::None),
    topic_config!("remote.log.delete.on.disable", Boolean, "false", [], Check::None),
    topic_config!("remote.storage.enable", Boolean, "false", [], Check::None),
    topic_config!("retention.bytes", Long, "-1", [("log.retention.bytes", Some("-1"), Long)], Check::None),
    topic_config!("retention.ms", Long, "604800000",
        [("log.retention.ms", None, Long), ("log.retention.minutes", None, Int), ("log.retention.hours", Some("168"), Int)],
        Check::AtLeast(-1)),
    topic_config!("segment.bytes", Int, "1073741824", [("log.segment.bytes", Some("1073741824"), Int)], Check::AtLeast(1_048_576)),
    topic_config!("segment.index.bytes", Int, "10485760", [("log.index.size.max.bytes", Some("10485760"), Int)], Check::AtLeast(4)),
    topic_config!("segment.jitter.ms", Long, "0",
        [("log.roll.jitter.ms", None, Long), ("log.roll.jitter.hours", Some("0"), Int)], Check::AtLeast(0)),
    topic_config!("segment.ms", Long, "604800000", [("log.roll.ms", None, Long), ("log.roll.hours", Some("168"), Int)], Check::AtLeast(1)),
    topic_config!("unclean.leader.election.enable", Boolean, "false", [("unclean.leader.election.enable", Some("false"), Boolean)], Check::None),
];

/// Cluster-wide dynamic broker defaults: what a KRaft cluster records when
/// it is formatted.
pub const CLUSTER_DEFAULTS: &[(&str, &str)] = &[("min.insync.replicas", "1")];

/// The topic config called `name`.
pub fn topic_config(name: &str) -> Option<&'static TopicConfig> {
    TOPIC_CONFIGS.iter().find(|c| c.name == name)
}

fn cluster_default(name: &str) -> Option<&'static str> {
    CLUSTER_DEFAULTS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// A refusal: the error code and message for one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The error code.
    pub code: ErrorCode,
    /// The message.
    pub message: String,
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal { code, message: message.into() }
}

impl TopicConfig {
    /// The value a topic without an override has, and its source.
    fn inherited(&self) -> (&'static str, i8) {
        for (synonym, _, _) in self.synonyms {
            if let Some(value) = cluster_default(synonym) {
                return (value, source::DYNAMIC_DEFAULT_BROKER_CONFIG);
            }
        }
        (self.default, source::DEFAULT_CONFIG)
    }

    /// Checks `value` as this config's value.
    fn check(&self, value: &str) -> Result<(), Refusal> {
        let bad =
            |why: &str| refuse(ErrorCode::InvalidConfig, format!("{value:?} is not a valid {}: {why}", self.name));
        let trimmed = value.trim();
        let number = || -> Result<i64, Refusal> {
            match self.kind {
                Kind::Int => trimmed.parse::<i32>().map(i64::from).map_err(|_| bad("not an INT")),
                _ => trimmed.parse::<i64>().map_err(|_| bad("not a LONG")),
            }
        };
        match self.kind {
            Kind::Boolean => {
                if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                    return Err(bad("not a BOOLEAN"));
                }
            }
            Kind::Int | Kind::Long => {
                let n = number()?;
                let ok = match self.check {
                    Check::AtLeast(min) => n >= min,
                    Check::Between(min, max) => (min..=max).contains(&n),
                    Check::BetweenOrMinusOne(min, max) => n == -1 || (min..=max).contains(&n),
                    _ => true,
                };
                if !ok {
                    return Err(bad("out of range"));
                }
            }
            Kind::Double => {
                let x = trimmed.parse::<f64>().map_err(|_| bad("not a DOUBLE"))?;
                if matches!(self.check, Check::Ratio) && !(0.0..=1.0).contains(&x) {
                    return Err(bad("out of range"));
                }
            }
            Kind::String => {
                if let Check::OneOf(allowed) = self.check {
                    if !allowed.contains(&trimmed) {
                        return Err(bad(&format!("not one of {allowed:?}")));
                    }
                }
            }
            Kind::List => {
                let items = list_items(value);
                match self.check {
                    Check::ItemsOf(allowed) => {
                        if let Some(item) = items.iter().find(|i| !allowed.contains(&&i[..])) {
                            return Err(bad(&format!("{item:?} is not one of {allowed:?}")));
                        }
                    }
                    Check::Throttled => {
                        let pair = |item: &str| {
                            item.split_once(':').is_some_and(|(p, b)| {
                                !p.is_empty()
                                    && !b.is_empty()
                                    && p.bytes().all(|c| c.is_ascii_digit())
                                    && b.bytes().all(|c| c.is_ascii_digit())
                            })
                        };
                        let all = items.len() == 1 && items[0] == "*";
                        if !all && !items.iter().all(|i| pair(i)) {
                            return Err(bad("expected PARTITION:BROKER,... or *"));
                        }
                    }
                    _ => {}
                }
            }
        }
        if self.name == "remote.storage.enable" && trimmed.eq_ignore_ascii_case("true") {
            return Err(refuse(ErrorCode::InvalidConfig, "this broker has no tiered storage"));
        }
        Ok(())
    }
}

/// The items of a LIST value: comma-separated, trimmed, empty ones dropped.
fn list_items(value: &str) -> Vec<ByteString> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(ByteString::from).collect()
}

/// Checks a topic's overrides, as CreateTopics and AlterConfigs give them.
pub fn check_topic_configs<'a>(
    configs: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Result<BTreeMap<ByteString, ByteString>, Refusal> {
    let mut out = BTreeMap::new();
    for (name, value) in configs {
        let Some(value) = value else {
            return Err(refuse(ErrorCode::InvalidRequest, format!("{name}: a null value is not allowed")));
        };
        let config = topic_config(name)
            .ok_or_else(|| refuse(ErrorCode::InvalidConfig, format!("{name} is not a topic config")))?;
        config.check(value)?;
        if out.insert(name.into(), value.into()).is_some() {
            return Err(refuse(ErrorCode::InvalidRequest, format!("{name} is given twice")));
        }
    }
    Ok(out)
}

/// Applies IncrementalAlterConfigs operations (SET 0, DELETE 1, APPEND 2,
/// SUBTRACT 3) to a topic's overrides; returns the new overrides.
pub fn apply_incremental(
    current: &BTreeMap<ByteString, ByteString>,
    ops: &[(ByteString, i8, Option<ByteString>)],
) -> Result<BTreeMap<ByteString, ByteString>, Refusal> {
    let mut seen = BTreeSet::new();
    for (name, _, _) in ops {
        if !seen.insert(&**name) {
            return Err(refuse(ErrorCode::InvalidRequest, format!("{name} is named twice")));
        }
    }
    let mut next = current.clone();
    for (name, op, value) in ops {
        if *op == 1 {
            // DELETE: whatever the name, as Kafka does.
            next.remove(name);
            continue;
        }
        if !(0..=3).contains(op) {
            return Err(refuse(ErrorCode::InvalidRequest, format!("unknown operation {op} for {name}")));
        }
        let Some(value) = value else {
            return Err(refuse(ErrorCode::InvalidRequest, format!("{name}: a null value is not allowed")));
        };
        let config = topic_config(name)
            .ok_or_else(|| refuse(ErrorCode::InvalidConfig, format!("{name} is not a topic config")))?;
        let new_value = match op {
            0 => value.clone(),
            _ if config.kind != Kind::List => {
                let verb = if *op == 2 { "APPEND" } else { "SUBTRACT" };
                return Err(refuse(
                    ErrorCode::InvalidConfig,
                    format!("{verb} needs a LIST config; {name} is a {}", config.kind.name()),
                ));
            }
            _ => {
                let base = next.get(name).map_or_else(|| config.inherited().0.to_string().into(), Clone::clone);
                let mut items = list_items(&base);
                for item in list_items(value) {
                    if *op == 2 {
                        if !items.contains(&item) {
                            items.push(item);
                        }
                    } else {
                        items.retain(|i| *i != item);
                    }
                }
                items.join(",").into()
            }
        };
        config.check(&new_value)?;
        next.insert(name.clone(), new_value);
    }
    Ok(next)
}

/// One described config.
struct Described {
    name: ByteString,
    value: Option<ByteString>,
    source: i8,
    read_only: bool,
    kind: Kind,
    synonyms: Vec<DescribeConfigsSynonym>,
}

/// Every config of a topic with these overrides.
fn describe_topic(overrides: &BTreeMap<ByteString, ByteString>, with_synonyms: bool) -> Vec<Described> {
    TOPIC_CONFIGS
        .iter()
        .map(|config| {
            let own = overrides.get(config.name);
            let (value, source) = match own {
                Some(v) => (v.clone(), source::DYNAMIC_TOPIC_CONFIG),
                None => {
                    let (v, s) = config.inherited();
                    (v.into(), s)
                }
            };
            let mut synonyms = Vec::new();
            if with_synonyms {
                let synonym = |name: &str, value: &str, source| DescribeConfigsSynonym {
                    name: name.into(),
                    value: Some(value.into()),
                    source,
                    ..Default::default()
                };
                if let Some(v) = own {
                    synonyms.push(synonym(config.name, v, source::DYNAMIC_TOPIC_CONFIG));
                }
                for (name, _, _) in config.synonyms {
                    if let Some(v) = cluster_default(name) {
                        synonyms.push(synonym(name, v, source::DYNAMIC_DEFAULT_BROKER_CONFIG));
                    }
                }
                for (name, default, _) in config.synonyms {
                    if let Some(v) = default {
                        synonyms.push(synonym(name, v, source::DEFAULT_CONFIG));
                    }
                }
            }
            Described {
                name: config.name.into(),
                value: Some(value),
                source,
                read_only: false,
                kind: config.kind,
                synonyms,
            }
        })
        .collect()
}

/// Every config of this broker (`node` true) or the cluster-wide dynamic
/// defaults (`node` false).
fn describe_broker(config: &Config, port: u16, node: bool, with_synonyms: bool) -> Vec<Described> {
    let dynamic_default = |name: &str, value: &str, kind| Described {
        name: name.into(),
        value: Some(value.into()),
        source: source::DYNAMIC_DEFAULT_BROKER_CONFIG,
        read_only: true,
        kind,
        synonyms: Vec::new(),
    };
    if !node {
        return CLUSTER_DEFAULTS
            .iter()
            .map(|(name, value)| {
                let kind = broker_synonym_kind(name).unwrap_or(Kind::String);
                dynamic_default(name, value, kind)
            })
            .collect();
    }
    let (advertised_host, advertised_port) = config.advertised(port);
    let listener = if config.sasl() { "SASL_PLAINTEXT" } else { "PLAINTEXT" };
    // (name, the option that sets it, value, Kafka's default, type): static
    // when the option was given.
    let given = |option: &str| config.given.contains(option);
    let port_given = given("--port") || given("--host");
    let settings: Vec<Setting<'_>> = vec![
        ("node.id", given("--node-id"), Some(config.node_id.to_string().into()), Some("-1"), Kind::Int),
        ("process.roles", true, Some("broker,controller".into()), Some(""), Kind::List),
        (
            "listeners",
            port_given,
            Some(format!("{listener}://{}:{port}", config.host).into()),
            Some("PLAINTEXT://:9092"),
            Kind::List,
        ),
        (
            "advertised.listeners",
            given("--advertise"),
            Some(format!("{listener}://{advertised_host}:{advertised_port}").into()),
            None,
            Kind::String,
        ),
        (
            "num.partitions",
            given("--default-partitions"),
            Some(config.default_partitions.to_string().into()),
            Some("1"),
            Kind::Int,
        ),
        (
            "auto.create.topics.enable",
            given("--no-auto-create-topics"),
            Some(config.auto_create_topics.to_string().into()),
            Some("true"),
            Kind::Boolean,
        ),
        (
            "group.initial.rebalance.delay.ms",
            // This broker's default (300) is not Kafka's (3000).
            true,
            Some(config.group_initial_delay.as_millis().to_string().into()),
            Some("3000"),
            Kind::Int,
        ),
        (
            "connections.max.reauth.ms",
            given("--reauth-ms"),
            Some(config.reauth_ms.to_string().into()),
            Some("0"),
            Kind::Long,
        ),
        (
            "socket.request.max.bytes",
            given("--max-frame-size"),
            Some(config.max_frame_size.to_string().into()),
            Some("104857600"),
            Kind::Int,
        ),
    ];
    let mut out: Vec<Described> = settings
        .into_iter()
        .map(|(name, set, value, default, kind)| {
            let (value, source) = if set {
                (value, source::STATIC_BROKER_CONFIG)
            } else {
                (default.map(ByteString::from), source::DEFAULT_CONFIG)
            };
            let synonyms = match (&value, with_synonyms) {
                (Some(v), true) => vec![DescribeConfigsSynonym {
                    name: name.into(),
                    value: Some(v.clone()),
                    source,
                    ..Default::default()
                }],
                _ => Vec::new(),
            };
            Described { name: name.into(), value, source, read_only: true, kind, synonyms }
        })
        .collect();
    // The broker synonyms of the topic configs.
    let mut seen = BTreeSet::new();
    for topic_config in TOPIC_CONFIGS {
        for (name, default, kind) in topic_config.synonyms {
            if !seen.insert(*name) {
                continue;
            }
            let mut synonyms = Vec::new();
            let described = match cluster_default(name) {
                Some(value) => {
                    if with_synonyms {
                        synonyms.push(DescribeConfigsSynonym {
                            name: (*name).into(),
                            value: Some(value.into()),
                            source: source::DYNAMIC_DEFAULT_BROKER_CONFIG,
                            ..Default::default()
                        });
                    }
                    Described { synonyms, ..dynamic_default(name, value, *kind) }
                }
                None => Described {
                    name: (*name).into(),
                    value: default.map(ByteString::from),
                    source: source::DEFAULT_CONFIG,
                    read_only: true,
                    kind: *kind,
                    synonyms,
                },
            };
            out.push(described);
        }
    }
    out
}

/// A broker setting: name, whether its option was given, its value,
/// Kafka's default, its type.
type Setting<'a> = (&'a str, bool, Option<ByteString>, Option<&'a str>, Kind);

fn broker_synonym_kind(name: &str) -> Option<Kind> {
    TOPIC_CONFIGS.iter().flat_map(|c| c.synonyms.iter()).find(|(n, _, _)| *n == name).map(|(_, _, k)| *k)
}

/// Answers DescribeConfigs.
/// `port` is the port listened on.
pub fn describe(
    cluster: &Cluster,
    config: &Config,
    port: u16,
    request: &DescribeConfigsRequest,
    version: i16,
) -> DescribeConfigsResponse {
    let results = request
        .resources
        .iter()
        .map(|resource| {
            let mut result = DescribeConfigsResult {
                resource_type: resource.resource_type,
                resource_name: resource.resource_name.clone(),
                ..Default::default()
            };
            let described = match resource.resource_type {
                RESOURCE_TOPIC => {
                    let topics = cluster.topics();
                    if !valid_topic_name(&resource.resource_name) {
                        Err(refuse(
                            ErrorCode::InvalidTopicException,
                            format!("{:?} is not a valid topic name", resource.resource_name),
                        ))
                    } else {
                        match topics.get(&resource.resource_name) {
                            Some(topic) => Ok(describe_topic(&topic.configs, request.include_synonyms)),
                            None => Err(refuse(
                                ErrorCode::UnknownTopicOrPartition,
                                format!("topic {} does not exist", resource.resource_name),
                            )),
                        }
                    }
                }
                RESOURCE_BROKER if resource.resource_name.is_empty() => {
                    Ok(describe_broker(config, port, false, request.include_synonyms))
                }
                RESOURCE_BROKER if resource.resource_name == config.node_id.to_string() => {
                    Ok(describe_broker(config, port, true, request.include_synonyms))
                }
                RESOURCE_BROKER => Err(refuse(
                    ErrorCode::InvalidRequest,
                    format!("this is broker {}, not {:?}", config.node_id, resource.resource_name),
                )),
                other => Err(refuse(ErrorCode::InvalidRequest, format!("resource type {other} is not supported"))),
            };
            match described {
                Ok(all) => {
                    let keys = resource.configuration_keys.as_ref();
                    result.configs = all
                        .into_iter()
                        .filter(|d| keys.is_none_or(|keys| keys.contains(&d.name)))
                        .map(|d| DescribeConfigsResourceResult {
                            // v0 only; later versions have the source instead.
                            is_default: version == 0 && d.source == source::DEFAULT_CONFIG,
                            read_only: d.read_only,
                            config_source: d.source,
                            is_sensitive: false,
                            config_type: d.kind.code(),
                            documentation: None,
                            synonyms: d.synonyms,
                            name: d.name,
                            value: d.value,
                            ..Default::default()
                        })
                        .collect();
                }
                Err(refusal) => {
                    result.error_code = refusal.code.code();
                    result.error_message = Some(refusal.message.into());
                }
            }
            result
        })
        .collect();
    DescribeConfigsResponse { results, ..Default::default() }
}

/// The configs of a created topic, as CreateTopics v5+ returns them.
pub fn created_topic_configs(overrides: &BTreeMap<ByteString, ByteString>) -> Vec<CreatableTopicConfigs> {
    describe_topic(overrides, false)
        .into_iter()
        .map(|d| CreatableTopicConfigs {
            name: d.name,
            value: d.value,
            read_only: d.read_only,
            config_source: d.source,
            is_sensitive: false,
            ..Default::default()
        })
        .collect()
}

/// What an alter request asks of one resource.
enum Change<'a> {
    /// AlterConfigs: the whole set of overrides.
    Replace(Vec<(&'a str, Option<&'a str>)>),
    /// IncrementalAlterConfigs: operations.
    Incremental(Vec<(ByteString, i8, Option<ByteString>)>),
}

/// Applies (or, with `validate_only`, checks) one resource's change;
/// `Ok(true)` when something changed.
fn alter_resource(
    cluster: &Cluster,
    resource_type: i8,
    name: &str,
    change: Change<'_>,
    validate_only: bool,
    duplicate: bool,
) -> Result<bool, Refusal> {
    if duplicate {
        return Err(refuse(ErrorCode::InvalidRequest, format!("resource {name:?} is named twice")));
    }
    match resource_type {
        RESOURCE_TOPIC => {}
        RESOURCE_BROKER => {
            return Err(refuse(ErrorCode::InvalidRequest, "broker configs cannot be altered on this broker"));
        }
        other => return Err(refuse(ErrorCode::InvalidRequest, format!("resource type {other} is not supported"))),
    }
    if !valid_topic_name(name) {
        return Err(refuse(ErrorCode::InvalidTopicException, format!("{name:?} is not a valid topic name")));
    }
    let mut topics = cluster.topics();
    let topic = topics
        .get_mut(name)
        .ok_or_else(|| refuse(ErrorCode::UnknownTopicOrPartition, format!("topic {name} does not exist")))?;
    let next = match change {
        Change::Replace(configs) => check_topic_configs(configs)?,
        Change::Incremental(ops) => apply_incremental(&topic.configs, &ops)?,
    };
    if validate_only || next == topic.configs {
        return Ok(false);
    }
    topic.configs = next;
    Ok(true)
}

fn duplicates<'a>(names: impl Iterator<Item = (i8, &'a str)>) -> Vec<bool> {
    let all: Vec<(i8, &str)> = names.collect();
    all.iter().map(|key| all.iter().filter(|k| *k == key).count() > 1).collect()
}

/// The controller's answer to AlterConfigs.
pub fn alter(cluster: &Cluster, request: &AlterConfigsRequest, who: &str) -> AlterConfigsResponse {
    use kwire::messages::alter_configs_response::AlterConfigsResourceResponse;
    let dup = duplicates(request.resources.iter().map(|r| (r.resource_type, &*r.resource_name)));
    let responses = request
        .resources
        .iter()
        .zip(dup)
        .map(|(r, duplicate)| {
            let change = Change::Replace(r.configs.iter().map(|c| (&*c.name, c.value.as_deref())).collect());
            let result =
                alter_resource(cluster, r.resource_type, &r.resource_name, change, request.validate_only, duplicate);
            log_result("AlterConfigs", &r.resource_name, &result, request.validate_only, who);
            let (error_code, error_message) = match result {
                Ok(_) => (0, None),
                Err(refusal) => (refusal.code.code(), Some(refusal.message.into())),
            };
            AlterConfigsResourceResponse {
                error_code,
                error_message,
                resource_type: r.resource_type,
                resource_name: r.resource_name.clone(),
                ..Default::default()
            }
        })
        .collect();
    AlterConfigsResponse { responses, ..Default::default() }
}

/// The controller's answer to IncrementalAlterConfigs.
pub fn incremental_alter(
    cluster: &Cluster,
    request: &IncrementalAlterConfigsRequest,
    who: &str,
) -> IncrementalAlterConfigsResponse {
    use kwire::messages::incremental_alter_configs_response::AlterConfigsResourceResponse;
    let dup = duplicates(request.resources.iter().map(|r| (r.resource_type, &*r.resource_name)));
    let responses = request
        .resources
        .iter()
        .zip(dup)
        .map(|(r, duplicate)| {
            let ops = r.configs.iter().map(|c| (c.name.clone(), c.config_operation, c.value.clone())).collect();
            let result = alter_resource(
                cluster,
                r.resource_type,
                &r.resource_name,
                Change::Incremental(ops),
                request.validate_only,
                duplicate,
            );
            log_result("IncrementalAlterConfigs", &r.resource_name, &result, request.validate_only, who);
            let (error_code, error_message) = match result {
                Ok(_) => (0, None),
                Err(refusal) => (refusal.code.code(), Some(refusal.message.into())),
            };
            AlterConfigsResourceResponse {
                error_code,
                error_message,
                resource_type: r.resource_type,
                resource_name: r.resource_name.clone(),
                ..Default::default()
            }
        })
        .collect();
    IncrementalAlterConfigsResponse { responses, ..Default::default() }
}

fn log_result(api: &str, name: &str, result: &Result<bool, Refusal>, validate_only: bool, who: &str) {
    match result {
        Ok(true) => log!("controller: {api} changed the configs of {name} for {who}"),
        Ok(false) if validate_only => {
            log!("controller: {api} validated the configs of {name} for {who} (validate only)")
        }
        Ok(false) => {}
        Err(refusal) => log!("controller: {api} on {name:?} for {who}: {} ({})", refusal.code.code(), refusal.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<ByteString, ByteString> {
        pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()
    }

    #[test]
    fn checks_names_and_values() {
        assert_eq!(check_topic_configs([("retention.ms", Some("5"))]), Ok(map(&[("retention.ms", "5")])));
        let code = |r: Result<BTreeMap<ByteString, ByteString>, Refusal>| r.map_err(|e| e.code);
        assert_eq!(code(check_topic_configs([("no.such", Some("5"))])), Err(ErrorCode::InvalidConfig));
        assert_eq!(code(check_topic_configs([("retention.ms", Some("soon"))])), Err(ErrorCode::InvalidConfig));
        assert_eq!(code(check_topic_configs([("retention.ms", Some("-2"))])), Err(ErrorCode::InvalidConfig));
        assert_eq!(code(check_topic_configs([("segment.bytes", Some("2147483648"))])), Err(ErrorCode::InvalidConfig));
        assert_eq!(
            code(check_topic_configs([("cleanup.policy", Some("compact,shred"))])),
            Err(ErrorCode::InvalidConfig)
        );
        assert_eq!(code(check_topic_configs([("retention.ms", None)])), Err(ErrorCode::InvalidRequest));
        assert!(check_topic_configs([("leader.replication.throttled.replicas", Some("0:1, 1:1"))]).is_ok());
        assert!(check_topic_configs([("leader.replication.throttled.replicas", Some("*"))]).is_ok());
        assert!(check_topic_configs([("leader.replication.throttled.replicas", Some("0-1"))]).is_err());
        assert!(check_topic_configs([("compression.gzip.level", Some("-1"))]).is_ok());
        assert!(check_topic_configs([("compression.gzip.level", Some("0"))]).is_err());
    }

    #[test]
    fn incremental_operations() {
        let ops = |list: &[(&str, i8, Option<&str>)]| -> Vec<(ByteString, i8, Option<ByteString>)> {
            list.iter().map(|(n, o, v)| ((*n).into(), *o, v.map(ByteString::from))).collect()
        };
        let current = map(&[("cleanup.policy", "compact"), ("max.message.bytes", "2000000")]);
        let next = apply_incremental(
            &current,
            &ops(&[
                ("retention.ms", 0, Some("7200000")),
                ("max.message.bytes", 1, None),
                ("cleanup.policy", 2, Some("delete")),
                ("no.such", 1, None),
            ]),
        )
        .unwrap();
        assert_eq!(next, map(&[("cleanup.policy", "compact,delete"), ("retention.ms", "7200000")]));
        // APPEND without an override starts from the inherited value.
        let next = apply_incremental(&BTreeMap::new(), &ops(&[("cleanup.policy", 2, Some("compact"))])).unwrap();
        assert_eq!(next, map(&[("cleanup.policy", "delete,compact")]));
        let next = apply_incremental(&next, &ops(&[("cleanup.policy", 3, Some("delete"))])).unwrap();
        assert_eq!(next, map(&[("cleanup.policy", "compact")]));
        let code = |o: &[(&str, i8, Option<&str>)]| apply_incremental(&current, &ops(o)).map_err(|e| e.code);
        assert_eq!(code(&[("retention.ms", 2, Some("5"))]), Err(ErrorCode::InvalidConfig));
        assert_eq!(code(&[("retention.ms", 0, None)]), Err(ErrorCode::InvalidRequest));
        assert_eq!(
            code(&[("retention.ms", 0, Some("1")), ("retention.ms", 0, Some("2"))]),
            Err(ErrorCode::InvalidRequest)
        );
        assert_eq!(code(&[("retention.ms", 7, Some("1"))]), Err(ErrorCode::InvalidRequest));
        assert_eq!(code(&[("no.such", 0, Some("1"))]), Err(ErrorCode::InvalidConfig));
    }

    #[test]
    fn described_sources() {
        let described = describe_topic(&map(&[("retention.ms", "3600000")]), true);
        assert_eq!(described.len(), TOPIC_CONFIGS.len());
        let get = |name: &str| described.iter().find(|d| d.name == name).unwrap();
        assert_eq!((get("retention.ms").value.as_deref(), get("retention.ms").source), (Some("3600000"), 1));
        assert_eq!(
            get("retention.ms").synonyms.iter().map(|s| &*s.name).collect::<Vec<_>>(),
            ["retention.ms", "log.retention.hours"]
        );
        assert_eq!((get("min.insync.replicas").value.as_deref(), get("min.insync.replicas").source), (Some("1"), 3));
        assert_eq!((get("cleanup.policy").value.as_deref(), get("cleanup.policy").source), (Some("delete"), 5));
    }
}
