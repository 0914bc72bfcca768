//! Apache Kafka's own implementation as the oracle: Kafka's generated
//! message classes (kafka-clients, `org.apache.kafka.common.message`) run
//! beside kwire on the same values, for the releases in [`RELEASES`].
//!
//! `interop/scripts/kafka-oracle.sh RELEASE` compiles `interop/conformance/java/Oracle.java`
//! against the release's jars; this test starts it once per release (one
//! JVM, fed through a pipe, every batch of questions written by a thread
//! while the answers are read) and asks it, line by line:
//!
//! - `versions`: the release's api keys, versions, unstable latest versions
//!   and header versions. The header version of every (api key, version)
//!   both have must be kwire's (`ApiInfo::request_header_version`,
//!   `response_header_version`).
//! - **kwire → Kafka.** For every (api key, version, request or
//!   response) that both the release and kwire have, [`SEEDS`] values
//!   from kwire's sampler (feature `sample`) plus the edge values of
//!   [`edge_values`] (null against empty strings, arrays, bytes and records,
//!   32,767-byte strings in one-, two-, three- and four-byte characters,
//!   NaN with and without payload, -0.0, infinities and subnormals in the
//!   float64 fields, unknown tagged fields up to the largest tag Kafka can
//!   write) are encoded by kwire; Kafka reads the bytes at the same
//!   version, must read every byte, and writes what it read: the bytes must
//!   be identical, and the size Kafka computes beforehand must be
//!   kwire's length. The same for RequestHeader and ResponseHeader at
//!   every version.
//! - **Kafka → kwire.** Kafka's JSON form of each edge value and of
//!   the first [`REVERSE_SEEDS`] samples it read (its generated JSON
//!   converters) is sent back to it to be written from
//!   JSON; kwire must decode those bytes exactly and re-encode them
//!   identically. When they are the bytes kwire wrote, kwire must
//!   read the value it started from. When they differ, the value must hold
//!   what Kafka's JSON form leaves out, and Kafka must read its own bytes
//!   back and write them identically (and, without unknown tagged fields,
//!   to the same JSON). What Kafka's JSON leaves out, asserted: unknown
//!   tagged fields (and RequestHeader's tags 0 and 1, which Kafka leaves
//!   undefined), and the bytes of `records` fields, which it writes as an
//!   empty placeholder.
//! - **Limits and malformed input** ([`limits`], [`malformed`]): a
//!   32,768-byte string is refused by both encoders; for bytes that break
//!   a rule, both sides must reach the same verdict (refuse, or accept and
//!   write the same bytes), except the differences listed in [`KNOWN`],
//!   each with its reason. kwire reads with Kafka 4.4's limits on array
//!   lengths and tagged-field counts (its defaults) against a release that
//!   has them, and without (`ReadLimits::NONE`) against one that has not.
//!
//! - **The Envelope with its embedded header and body** (KIP-590,
//!   [`envelopes`]): kwire embeds client requests (CreateTopics v7
//!   and v4, CreateAcls v1, AlterConfigs v1: RequestHeader v2 and v1) with
//!   `EmbeddedMessage::from_request` and wraps them with
//!   `forward::wrap_request`, and embeds controller answers (CreateTopics
//!   v7, CreateAcls v1) with `from_response` and `wrap_response`. Kafka
//!   reads the envelope back to the same bytes, then the embedded bytes as
//!   its controller and forwarding broker do: the header at the version its
//!   own table gives (leaving exactly the body), then the body from what is
//!   left, each back to the same bytes. kwire reads Kafka's envelope
//!   back (`forward::unwrap_request`, `unwrap_response`, the typed embedded
//!   decoders) to the header and body it started from, the header's values
//!   those of Kafka's JSON form.
//! - **ApiVersions v0 fallback bodies** ([`api_versions_fallback`]): v0
//!   bodies with error 35 (UNSUPPORTED_VERSION) and an empty or filled api
//!   list, written by kwire, are read by Kafka at v0 to the same bytes
//!   and refused by Kafka at every later version (so Kafka's client falls
//!   back to v0 too); kwire's `ResponseFrame::decode` of a response
//!   frame to a later ApiVersions request carrying such a body reads it at
//!   v0, to the values Kafka reads.
//!
//! Every (api key, version, side) left out is printed with its reason (run
//! with `-- --nocapture`): an api key or version one side lacks. A version
//! the release marks unstable is checked too; a difference there is
//! reported and excused (kwire takes such a version's shape from the
//! newest release that has it). Every entry of [`KNOWN`] must still excuse
//! something, or the test fails as stale.
//!
//! Without the oracle (`interop/scripts/kafka-oracle.sh` not run, or no `java`),
//! the test says `skipped: ...` and passes, except under `CI`.

mod common;

use common::oracle::{hex_word, Oracle};

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;
use std::time::Instant;

use kwire::api::{api_info, ApiKey, API_INFO};
use kwire::embedded::EmbeddedMessage;
use kwire::error_code::ErrorCode;
use kwire::frame;
use kwire::message::{Message, VersionRange};
use kwire::messages::{
    alter_client_quotas_request as acq, alter_configs_request as ac, api_versions_response as av,
    create_acls_request as cacl, create_acls_response as cacr, create_topics_request as ct,
    create_topics_response as ctr, describe_client_quotas_response as dcq,
};
use kwire::messages::{
    AlterClientQuotasRequest, AlterConfigsRequest, ApiVersionsResponse, CreateAclsRequest, CreateAclsResponse,
    CreateTopicsRequest, CreateTopicsResponse, DefaultPrincipalData, DescribeClientQuotasResponse, EnvelopeRequest,
    EnvelopeResponse, MetadataRequest, ProduceRequest, RequestBody, RequestHeader, ResponseBody, ResponseHeader,
    SaslAuthenticateRequest,
};
use kwire::primitives::{ReadLimits, Reader, Uuid};
use kwire::sample::{Sample, SampleGen};
use kwire::tagged::RawTaggedField;
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{
    envelope_error, unwrap_request, unwrap_response, wrap_request, wrap_response, ForwardOutcome, ForwardedRequest,
    WrappedRequest,
};

/// The releases run as oracles, the one `schemas/` follows first:
/// `releases.oracle` of `kafka-facts.json`.
static RELEASES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| common::releases("oracle"));

/// Sampled values per (api key or header, version, side).
const SEEDS: u64 = 32;

/// Of those, the first this many (and every edge value) also go the other
/// way, from Kafka's JSON form.
const REVERSE_SEEDS: u64 = 8;

/// Failures shown per (release, message, version); the rest are counted.
const SHOWN: usize = 3;

// ---------------------------------------------------------------------------
// Known differences.

/// A difference between Kafka and kwire that the test excuses: a
/// failure is excused when its release, message and version match and its
/// text contains `containing`. Each entry must excuse at least one case.
struct Known {
    /// Releases it applies to; empty: all.
    releases: &'static [&'static str],
    /// `None`: any message.
    target: Option<Target>,
    /// Inclusive.
    versions: (i16, i16),
    containing: &'static str,
    /// Which side is right, and why.
    reason: &'static str,
}

/// Every difference found, with the side believed wrong.
const KNOWN: &[Known] = &[Known {
    releases: &[],
    target: Some(Target::Header(Side::Request)),
    versions: (2, 2),
    containing: "[malformed] tag 0 not a string",
    reason: "KIP-590 in schemas/: RequestHeader v2 tag 0 is kwire's InitialPrincipalName (a \
                 compact nullable string), undefined in Kafka, which keeps any bytes under it as an unknown \
                 tag. Documented in docs/apis.md (schemas/ differences)",
}];

// ---------------------------------------------------------------------------
// Messages, values and kwire's side.

/// Request or response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Side {
    Request,
    Response,
}

impl Side {
    fn word(self) -> &'static str {
        match self {
            Side::Request => "request",
            Side::Response => "response",
        }
    }
}

/// A message kind both sides can read: a header, or a request or response
/// body by api key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Target {
    Header(Side),
    Api(i16, Side),
}

impl Target {
    fn side(self) -> Side {
        match self {
            Target::Header(side) | Target::Api(_, side) => side,
        }
    }

    /// How the oracle names it: `header request`, `3 response`.
    fn words(self) -> String {
        match self {
            Target::Header(side) => format!("header {}", side.word()),
            Target::Api(key, side) => format!("{key} {}", side.word()),
        }
    }

    fn name(self) -> String {
        match self {
            Target::Header(Side::Request) => "RequestHeader".into(),
            Target::Header(Side::Response) => "ResponseHeader".into(),
            Target::Api(key, side) => {
                let info = api_info(key).expect("an api key of API_INFO");
                match side {
                    Side::Request => info.request_name.into(),
                    Side::Response => info.response_name.into(),
                }
            }
        }
    }

    /// kwire's versions.
    fn versions(self) -> VersionRange {
        match self {
            Target::Header(Side::Request) => RequestHeader::VERSIONS,
            Target::Header(Side::Response) => ResponseHeader::VERSIONS,
            Target::Api(key, _) => api_info(key).expect("an api key of API_INFO").valid_versions,
        }
    }

    fn sample(self, g: &mut SampleGen, version: i16) -> Value {
        match self {
            Target::Header(Side::Request) => Value::RequestHeader(RequestHeader::sample(g, version)),
            Target::Header(Side::Response) => Value::ResponseHeader(ResponseHeader::sample(g, version)),
            Target::Api(key, Side::Request) => Value::Request(
                RequestBody::sample(common::api_key(key), g, version).expect("every api key is compiled"),
            ),
            Target::Api(key, Side::Response) => Value::Response(
                ResponseBody::sample(common::api_key(key), g, version).expect("every api key is compiled"),
            ),
        }
    }

    /// kwire's decode: the value and the bytes left unread.
    fn decode(self, bytes: &Bytes, version: i16) -> Result<(Value, usize), String> {
        self.decode_with(bytes, version, ReadLimits::default())
    }

    fn decode_with(self, bytes: &Bytes, version: i16, limits: ReadLimits) -> Result<(Value, usize), String> {
        let mut r = Reader::new(bytes.clone()).with_limits(limits);
        let value = match self {
            Target::Header(Side::Request) => RequestHeader::decode_from(&mut r, version).map(Value::RequestHeader),
            Target::Header(Side::Response) => ResponseHeader::decode_from(&mut r, version).map(Value::ResponseHeader),
            Target::Api(key, Side::Request) => {
                RequestBody::decode_from(common::api_key(key), &mut r, version).map(Value::Request)
            }
            Target::Api(key, Side::Response) => {
                ResponseBody::decode_from(common::api_key(key), &mut r, version).map(Value::Response)
            }
        };
        value.map(|v| (v, r.remaining())).map_err(|e| e.to_string())
    }

    /// kwire's reading of Kafka's JSON form, `json`, at `version`.
    fn read_json(self, json: &str, version: i16) -> Result<Value, String> {
        use kwire::json::FromJson;
        let json: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let value = match self {
            Target::Header(Side::Request) => RequestHeader::from_json(&json, version).map(Value::RequestHeader),
            Target::Header(Side::Response) => ResponseHeader::from_json(&json, version).map(Value::ResponseHeader),
            Target::Api(key, Side::Request) => {
                RequestBody::from_json(common::api_key(key), &json, version).map(Value::Request)
            }
            Target::Api(key, Side::Response) => {
                ResponseBody::from_json(common::api_key(key), &json, version).map(Value::Response)
            }
        };
        value.map_err(|e| e.to_string())
    }
}

/// A kwire value of any [`Target`].
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // a test's value, moved a few thousand times
enum Value {
    Request(RequestBody),
    Response(ResponseBody),
    RequestHeader(RequestHeader),
    ResponseHeader(ResponseHeader),
}

impl Value {
    fn encode(&self, version: i16) -> Result<Bytes, String> {
        let mut buf = BytesMut::new();
        let result = match self {
            Value::Request(v) => v.encode(&mut buf, version),
            Value::Response(v) => v.encode(&mut buf, version),
            Value::RequestHeader(v) => v.encode(&mut buf, version),
            Value::ResponseHeader(v) => v.encode(&mut buf, version),
        };
        result.map(|()| buf.freeze()).map_err(|e| e.to_string())
    }

    /// Whether the value holds unknown tagged fields (Kafka keeps them and
    /// writes them back, but its JSON converters leave them out), or
    /// RequestHeader's tags 0 and 1, which Kafka does not define. `debug`
    /// is the value's `{:?}`.
    fn unknown_tags(&self, debug: &str) -> bool {
        let header_tags = matches!(self, Value::RequestHeader(h)
            if h.initial_principal_name.is_some() || h.initial_client_id.is_some());
        header_tags || debug.contains("RawTaggedField {")
    }
}

/// Whether `debug` (a value's `{:?}`) shows a `records` or
/// `unaligned_records` field holding bytes.
fn records_with_content(debug: &str) -> bool {
    debug.match_indices("records: ").any(|(i, m)| {
        let rest = &debug[i + m.len()..];
        let rest = rest.strip_prefix("Some(").unwrap_or(rest);
        rest.starts_with("b\"") && !rest.starts_with("b\"\"")
    })
}

fn unhex_word(word: &str) -> Result<Bytes, String> {
    if word == "-" {
        return Ok(Bytes::new());
    }
    hex::decode(word).map(Bytes::from).map_err(|e| format!("bad hex from the oracle: {e}"))
}

/// Kafka's answer to `decode`.
struct Decoded {
    bytes: Bytes,
    size: usize,
    left: usize,
    json: Result<String, String>,
}

fn parse_decoded(answer: &str) -> Result<Decoded, String> {
    let Some(rest) = answer.strip_prefix("ok ") else {
        return Err(answer.strip_prefix("error ").unwrap_or(answer).to_string());
    };
    let mut words = rest.splitn(5, ' ');
    let mut next = || words.next().ok_or_else(|| format!("short answer: {answer}"));
    let bytes = unhex_word(next()?)?;
    let size = next()?.parse().map_err(|e| format!("bad size: {e}"))?;
    let left = next()?.parse().map_err(|e| format!("bad count: {e}"))?;
    let json = match next()? {
        "json" => Ok(next()?.to_string()),
        _ => Err(next()?.to_string()),
    };
    Ok(Decoded { bytes, size, left, json })
}

/// Kafka's answer to `encode`: its bytes.
fn parse_encoded(answer: &str) -> Result<Bytes, String> {
    let Some(rest) = answer.strip_prefix("ok ") else {
        return Err(answer.strip_prefix("error ").unwrap_or(answer).to_string());
    };
    let (hex, size) = rest.split_once(' ').ok_or_else(|| format!("short answer: {answer}"))?;
    let bytes = unhex_word(hex)?;
    let size: usize = size.parse().map_err(|e| format!("bad size: {e}"))?;
    if size != bytes.len() {
        return Err(format!("Kafka computed size {size} but wrote {} bytes", bytes.len()));
    }
    Ok(bytes)
}

/// One api key of the release, from the oracle's `versions` answer.
struct ReleaseApi {
    versions: (i16, i16),
    unstable: bool,
    request_headers: Vec<i16>,
    response_headers: Vec<i16>,
}

/// The release's api keys and header versions.
struct Release {
    apis: BTreeMap<i16, ReleaseApi>,
    request_header: (i16, i16),
    response_header: (i16, i16),
}

fn parse_range(text: &str) -> Option<(i16, i16)> {
    // "3-13", or "0--1" for none.
    let (lo, hi) = text.split_once('-')?;
    Some((lo.parse().ok()?, hi.parse().ok()?))
}

fn parse_versions(answer: &str) -> Release {
    let rest = answer.strip_prefix("ok ").unwrap_or_else(|| panic!("versions: {answer}"));
    let mut release = Release { apis: BTreeMap::new(), request_header: (0, -1), response_header: (0, -1) };
    for token in rest.split(' ') {
        let parts: Vec<&str> = token.split(':').collect();
        match parts.as_slice() {
            ["header", "request", range] => release.request_header = parse_range(range).expect("range"),
            ["header", "response", range] => release.response_header = parse_range(range).expect("range"),
            [key, range, stability, req, resp] => {
                let digits = |s: &str| s.bytes().map(|b| (b - b'0') as i16).collect::<Vec<i16>>();
                release.apis.insert(
                    key.parse().expect("api key"),
                    ReleaseApi {
                        versions: parse_range(range).expect("range"),
                        unstable: *stability == "u",
                        request_headers: digits(req),
                        response_headers: digits(resp),
                    },
                );
            }
            _ => panic!("versions: cannot read {token:?}"),
        }
    }
    release
}

impl Release {
    /// The release's versions of `target`; `None` when it lacks it.
    fn versions(&self, target: Target) -> Option<(i16, i16)> {
        let range = match target {
            Target::Header(Side::Request) => self.request_header,
            Target::Header(Side::Response) => self.response_header,
            Target::Api(key, _) => self.apis.get(&key)?.versions,
        };
        (range.0 <= range.1).then_some(range)
    }

    fn unstable(&self, target: Target, version: i16) -> bool {
        match target {
            Target::Header(_) => false,
            Target::Api(key, _) => self.apis.get(&key).is_some_and(|a| a.unstable && a.versions.1 == version),
        }
    }
}

// ---------------------------------------------------------------------------
// The cases.

/// One value through both implementations.
struct Case {
    target: Target,
    version: i16,
    label: String,
    value: Value,
    /// kwire's encoding of `value`.
    bytes: Bytes,
    /// False when the value holds a NaN, never equal to itself: then the
    /// bytes are compared, not the values.
    comparable: bool,
    /// Whether the value holds a float64 that Kafka's JSON writes as a string.
    json_float_string: bool,
    /// Whether it also goes from Kafka's JSON form back to kwire.
    reverse: bool,
    /// Whether the value holds unknown tagged fields, or RequestHeader's
    /// tags 0 and 1 (unknown to Kafka): Kafka keeps them when it writes
    /// back what it read, but its JSON form leaves them out.
    unknown_tags: bool,
    /// Whether the value holds a `records` field with content: Kafka's JSON
    /// form writes every records field as empty bytes.
    records: bool,
}

impl Case {
    /// Whether Kafka's JSON form of the value loses something.
    fn beyond_json(&self) -> bool {
        self.unknown_tags || self.records
    }
}

/// A 32,767-byte string (the longest a string may be) of `unit` repeated,
/// padded with ASCII.
fn longest(unit: &str) -> String {
    let mut s = unit.repeat(32_767 / unit.len());
    s.push_str(&"a".repeat(32_767 - s.len()));
    s
}

/// Float64 values at the edges, as bit patterns: the NaNs with payloads and
/// signs, zeros of both signs, infinities, subnormals, extremes.
const FLOAT_BITS: &[(&str, u64)] = &[
    ("NaN", 0x7ff8_0000_0000_0000),
    ("signalling NaN with payload", 0x7ff0_0000_0000_0001),
    ("negative NaN with payload", 0xfff8_0000_dead_beef),
    ("-0.0", 0x8000_0000_0000_0000),
    ("+0.0", 0),
    ("+inf", 0x7ff0_0000_0000_0000),
    ("-inf", 0xfff0_0000_0000_0000),
    ("smallest subnormal", 1),
    ("largest subnormal", 0x000f_ffff_ffff_ffff),
    ("MIN_POSITIVE", 0x0010_0000_0000_0000),
    ("MAX", 0x7fef_ffff_ffff_ffff),
    ("MIN", 0xffef_ffff_ffff_ffff),
    ("0.1", 0x3fb9_9999_9999_999a),
];

/// Hand-made values for `target` at `version`, each with a label, on top
/// of the sampled ones. Each starts from a sampled value (so that fields
/// absent at the version stay at their defaults) and sets the fields of
/// interest.
fn edge_values(target: Target, version: i16) -> Vec<(String, Value)> {
    let mut g = SampleGen::new(0xed9e ^ version as u64);
    let mut out: Vec<(String, Value)> = Vec::new();
    let strings = [
        ("empty string", String::new()),
        ("32767 bytes of ASCII", longest("a")),
        ("32767 bytes of 2-byte chars", longest("é")),
        ("32767 bytes of 3-byte chars", longest("文")),
        ("32767 bytes of 4-byte chars", longest("🦀")),
        ("NUL and controls", "\0\u{1}\t\r\u{7f}".to_string()),
    ];
    let unknown_tags: Vec<(&str, Vec<RawTaggedField>)> = vec![
        ("unknown tag with empty data", vec![RawTaggedField::new(2, Bytes::new())]),
        ("unknown tag with 300 bytes (2-byte size)", vec![RawTaggedField::new(3, Bytes::from(vec![0xab; 300]))]),
        (
            "unknown tags 1000 and 2^31-2 (the largest Kafka writes)",
            vec![
                RawTaggedField::new(1000, Bytes::from_static(b"x")),
                RawTaggedField::new(0x7fff_fffe, Bytes::from_static(b"y")),
            ],
        ),
    ];
    match target {
        Target::Header(Side::Request) => {
            let base = RequestHeader::sample(&mut g, version);
            let mut push = |label: String, h: RequestHeader| out.push((label, Value::RequestHeader(h)));
            for (k, v, c) in [(i16::MIN, i16::MIN, i32::MIN), (i16::MAX, i16::MAX, i32::MAX), (0, 0, 0), (-1, -1, -1)] {
                let h = RequestHeader { request_api_key: k, request_api_version: v, correlation_id: c, ..base.clone() };
                push(format!("api key {k}, version {v}, correlation id {c}"), h);
            }
            if version >= 1 {
                push("null client id".into(), RequestHeader { client_id: None, ..base.clone() });
                for (label, s) in &strings {
                    push(
                        format!("client id: {label}"),
                        RequestHeader { client_id: Some(s.clone().into()), ..base.clone() },
                    );
                }
            }
            if version >= 2 {
                let plain = RequestHeader {
                    initial_principal_name: None,
                    initial_client_id: None,
                    unknown_tagged_fields: Vec::new(),
                    ..base.clone()
                };
                for (label, tags) in &unknown_tags {
                    push(label.to_string(), RequestHeader { unknown_tagged_fields: tags.clone(), ..plain.clone() });
                }
                push(
                    "tags 0 and 1 (KIP-590 in schemas/, unknown to Kafka)".into(),
                    RequestHeader {
                        initial_principal_name: Some("".into()),
                        initial_client_id: Some("文".into()),
                        ..plain.clone()
                    },
                );
                push("no tagged fields".into(), plain);
            }
        }
        Target::Header(Side::Response) => {
            let base = ResponseHeader::sample(&mut g, version);
            for c in [i32::MIN, i32::MAX, 0, -1] {
                out.push((
                    format!("correlation id {c}"),
                    Value::ResponseHeader(ResponseHeader { correlation_id: c, ..base.clone() }),
                ));
            }
            if version >= 1 {
                for (label, tags) in &unknown_tags {
                    let h = ResponseHeader { unknown_tagged_fields: tags.clone(), ..base.clone() };
                    out.push((label.to_string(), Value::ResponseHeader(h)));
                }
            }
        }
        // Produce: null against empty transactional id and records, the
        // longest transactional id, large records.
        Target::Api(0, Side::Request) => {
            let mut base = ProduceRequest::sample(&mut g, version);
            base.topic_data.truncate(1);
            let mut push = |label: &str, v: ProduceRequest| out.push((label.into(), Value::Request(v.into())));
            if version >= 3 {
                push("null transactional id", ProduceRequest { transactional_id: None, ..base.clone() });
                push("empty transactional id", ProduceRequest { transactional_id: Some("".into()), ..base.clone() });
                push(
                    "32767-byte transactional id",
                    ProduceRequest { transactional_id: Some(longest("é").into()), ..base.clone() },
                );
            }
            for (label, records) in [
                ("null records", None),
                ("empty records", Some(Bytes::new())),
                ("70000 bytes of records", Some(Bytes::from(vec![0x5a; 70_000]))),
            ] {
                let mut v = base.clone();
                for topic in &mut v.topic_data {
                    for p in &mut topic.partition_data {
                        p.records = records.clone();
                    }
                }
                push(label, v);
            }
        }
        // Metadata: null against empty topic list (nullable from v1) and
        // topic name (nullable from v10).
        Target::Api(3, Side::Request) => {
            let base = MetadataRequest::sample(&mut g, version);
            let mut push = |label: &str, v: MetadataRequest| out.push((label.into(), Value::Request(v.into())));
            if version >= 1 {
                push("null topics (all topics)", MetadataRequest { topics: None, ..base.clone() });
            }
            push("empty topics", MetadataRequest { topics: Some(Vec::new()), ..base.clone() });
            let mut names: Vec<(&str, Option<String>)> =
                vec![("empty topic name", Some(String::new())), ("32767-byte topic name", Some(longest("文")))];
            if version >= 10 {
                names.push(("null topic name", None));
            }
            for (label, name) in names {
                let mut v = base.clone();
                let mut topic = kwire::messages::metadata_request::MetadataRequestTopic::sample(&mut g, version);
                topic.name = name.map(Into::into);
                v.topics = Some(vec![topic]);
                push(label, v);
            }
        }
        // CreateTopics: longest names, null against empty config values.
        Target::Api(19, Side::Request) => {
            let base = CreateTopicsRequest::sample(&mut g, version);
            for (label, name) in &strings {
                let topic = ct::CreatableTopic {
                    name: name.clone().into(),
                    num_partitions: -1,
                    replication_factor: -1,
                    assignments: Vec::new(),
                    configs: vec![
                        ct::CreatableTopicConfig { name: "null".into(), value: None, ..Default::default() },
                        ct::CreatableTopicConfig { name: "empty".into(), value: Some("".into()), ..Default::default() },
                    ],
                    ..Default::default()
                };
                let v = CreateTopicsRequest { topics: vec![topic], timeout_ms: i32::MAX, ..base.clone() };
                out.push((format!("topic name: {label}"), Value::Request(v.into())));
            }
        }
        // SaslAuthenticate: empty and large bytes.
        Target::Api(36, Side::Request) => {
            for (label, n) in [("empty auth bytes", 0), ("70000 auth bytes", 70_000)] {
                let v = SaslAuthenticateRequest { auth_bytes: Bytes::from(vec![0xc3; n]), ..Default::default() };
                out.push((label.into(), Value::Request(v.into())));
            }
        }
        // AlterClientQuotas: every edge float64, null against empty entity name.
        Target::Api(49, Side::Request) => {
            for &(label, bits) in FLOAT_BITS {
                let op = acq::OpData {
                    key: "producer_byte_rate".into(),
                    value: f64::from_bits(bits),
                    remove: false,
                    ..Default::default()
                };
                for (name_label, name) in [("null entity name", None), ("empty entity name", Some(String::new()))] {
                    let entity = acq::EntityData {
                        entity_type: "user".into(),
                        entity_name: name.map(Into::into),
                        ..Default::default()
                    };
                    let entry = acq::EntryData { entity: vec![entity], ops: vec![op.clone()], ..Default::default() };
                    let v = AlterClientQuotasRequest { entries: vec![entry], ..Default::default() };
                    out.push((format!("value {label}, {name_label}"), Value::Request(v.into())));
                }
            }
        }
        // DescribeClientQuotas: every edge float64, null against empty entries and message.
        Target::Api(48, Side::Response) => {
            for &(label, bits) in FLOAT_BITS {
                let value = dcq::ValueData {
                    key: "consumer_byte_rate".into(),
                    value: f64::from_bits(bits),
                    ..Default::default()
                };
                let entity =
                    dcq::EntityData { entity_type: "client-id".into(), entity_name: None, ..Default::default() };
                let entry = dcq::EntryData { entity: vec![entity], values: vec![value], ..Default::default() };
                let v = DescribeClientQuotasResponse { entries: Some(vec![entry]), ..Default::default() };
                out.push((format!("value {label}"), Value::Response(v.into())));
            }
            for (label, entries, message) in [
                ("null entries, null message", None, None),
                ("empty entries, empty message", Some(Vec::new()), Some(String::new())),
            ] {
                let v = DescribeClientQuotasResponse {
                    error_code: i16::MIN,
                    error_message: message.map(Into::into),
                    entries,
                    throttle_time_ms: i32::MAX,
                    ..Default::default()
                };
                out.push((label.into(), Value::Response(v.into())));
            }
        }
        // Envelope: null against empty principal.
        Target::Api(58, Side::Request) => {
            let base = EnvelopeRequest::sample(&mut g, version);
            for (label, principal) in [("null principal", None), ("empty principal", Some(Bytes::new()))] {
                let v =
                    EnvelopeRequest { request_principal: principal, client_host_address: Bytes::new(), ..base.clone() };
                out.push((label.into(), Value::Request(v.into())));
            }
        }
        _ => {}
    }
    out
}

/// Sampled and edge cases of one (target, version).
fn cases(target: Target, version: i16) -> Vec<Case> {
    let side_bit = u64::from(target.side() == Side::Response);
    let key = match target {
        Target::Header(_) => 0xffff,
        Target::Api(key, _) => key as u64,
    };
    let mut values: Vec<(String, Value, bool)> = (0..SEEDS)
        .map(|seed| {
            let mut g = SampleGen::new(
                seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (key << 24) ^ (side_bit << 20) ^ version as u64,
            );
            (format!("seed {seed}"), target.sample(&mut g, version), seed < REVERSE_SEEDS)
        })
        .collect();
    values.extend(edge_values(target, version).into_iter().map(|(label, v)| (format!("[edge] {label}"), v, true)));
    values
        .into_iter()
        .map(|(label, value, reverse)| {
            let bytes = value
                .encode(version)
                .unwrap_or_else(|e| panic!("kwire cannot encode {} v{version} {label}: {e}", target.name()));
            let debug = format!("{value:?}");
            // Debug shows a float64 field as `value: NaN`, `value: inf`.
            let nan = debug.contains(": NaN");
            let comparable = !nan;
            let json_float_string = nan || debug.contains(": inf") || debug.contains(": -inf");
            let unknown_tags = value.unknown_tags(&debug);
            let records = records_with_content(&debug);
            Case { target, version, label, value, bytes, comparable, json_float_string, reverse, unknown_tags, records }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Checks.

fn byte_diff(expected: &[u8], got: &[u8]) -> String {
    let first = expected.iter().zip(got).position(|(a, b)| a != b).unwrap_or(expected.len().min(got.len()));
    let cut = |b: &[u8]| {
        let h = hex::encode(&b[..b.len().min(96)]);
        if b.len() > 96 {
            format!("{h}…")
        } else {
            h
        }
    };
    format!(
        "first difference at byte {first} (lengths {} and {}):\n      kwire {}\n      Kafka      {}",
        expected.len(),
        got.len(),
        cut(expected),
        cut(got)
    )
}

/// A failure of one case.
struct Failure {
    release: &'static str,
    target: Target,
    version: i16,
    text: String,
}

/// Failures and excuses, collected over the whole run.
#[derive(Default)]
struct Report {
    failures: Vec<Failure>,
    /// Per entry of [`KNOWN`], the cases it excused.
    excused: Vec<usize>,
    /// Differences excused because the release marks the version unstable:
    /// (release, target, version) -> count and first text.
    unstable: BTreeMap<(&'static str, Target, i16), (usize, String)>,
}

impl Report {
    fn new() -> Self {
        Report { excused: vec![0; KNOWN.len()], ..Default::default() }
    }

    fn fail(&mut self, release: &'static str, rel: &Release, target: Target, version: i16, text: String) {
        if let Some(i) = KNOWN.iter().position(|k| {
            (k.releases.is_empty() || k.releases.contains(&release))
                && k.target.is_none_or(|t| t == target)
                && k.versions.0 <= version
                && version <= k.versions.1
                && text.contains(k.containing)
        }) {
            self.excused[i] += 1;
            return;
        }
        if rel.unstable(target, version) {
            let entry = self.unstable.entry((release, target, version)).or_insert((0, text.clone()));
            entry.0 += 1;
            return;
        }
        self.failures.push(Failure { release, target, version, text });
    }
}

/// Counts for the summary.
#[derive(Default)]
struct Tally {
    cases: usize,
    reverse: usize,
    reverse_same_bytes: usize,
    reverse_lossy: usize,
    edge_cases: usize,
    unknown_tag_cases: usize,
    records_cases: usize,
    /// RequestHeader values with kwire's tags 0 or 1 set (KIP-590).
    kip590_header_cases: usize,
    /// Envelope values (RequestData and ResponseData typed ApiMessage in schemas/).
    envelope_cases: usize,
    /// Kafka's JSON holding a float64 NaN or infinity as a string, which
    /// Kafka's reader and kwire's both refuse.
    float_strings_refused: usize,
}

/// kwire → Kafka → kwire for every case of one release.
fn run_cases(
    release: &'static str,
    rel: &Release,
    oracle: &mut Oracle,
    cases: &[Case],
    report: &mut Report,
    tally: &mut Tally,
) {
    // Kafka reads kwire's bytes and writes them back.
    let questions: Vec<String> =
        cases.iter().map(|c| format!("decode {} {} {}", c.target.words(), c.version, hex_word(&c.bytes))).collect();
    let answers = oracle.ask_all(&questions);
    // (case index, Kafka's JSON)
    let mut jsons: Vec<(usize, String)> = Vec::new();
    for (i, (case, answer)) in cases.iter().zip(&answers).enumerate() {
        tally.cases += 1;
        let mut fail = |text: String| {
            report.fail(release, rel, case.target, case.version, format!("{}: {text}", case.label));
        };
        let decoded = match parse_decoded(answer) {
            Ok(d) => d,
            Err(e) => {
                fail(format!("Kafka cannot read kwire's bytes {}: {e}", hex_word(&case.bytes)));
                continue;
            }
        };
        if decoded.left != 0 {
            fail(format!(
                "Kafka left {} of {} bytes unread: {}",
                decoded.left,
                case.bytes.len(),
                hex_word(&case.bytes)
            ));
            continue;
        }
        if decoded.bytes != case.bytes {
            fail(format!("Kafka writes back different bytes: {}", byte_diff(&case.bytes, &decoded.bytes)));
            continue;
        }
        if decoded.size != case.bytes.len() {
            fail(format!("Kafka's size {} is not kwire's length {}", decoded.size, case.bytes.len()));
            continue;
        }
        tally.unknown_tag_cases += usize::from(case.unknown_tags);
        tally.edge_cases += usize::from(case.label.starts_with("[edge]"));
        tally.kip590_header_cases += usize::from(matches!(&case.value, Value::RequestHeader(h)
            if h.initial_principal_name.is_some() || h.initial_client_id.is_some()));
        tally.envelope_cases += usize::from(matches!(case.target, Target::Api(58, _)));
        tally.records_cases += usize::from(case.records);
        match decoded.json {
            Ok(json) if case.reverse => jsons.push((i, json)),
            Ok(_) => {}
            Err(e) => fail(format!("Kafka's JSON converter cannot write what Kafka read: {e}")),
        }
    }

    // Kafka writes its JSON form; kwire reads Kafka's bytes.
    let questions: Vec<String> = jsons
        .iter()
        .map(|(i, json)| format!("encode {} {} {json}", cases[*i].target.words(), cases[*i].version))
        .collect();
    let answers = oracle.ask_all(&questions);
    // (case index, Kafka's bytes from JSON, the JSON) to read back in Kafka.
    let mut again: Vec<(usize, Bytes, &str)> = Vec::new();
    for ((i, json), answer) in jsons.iter().zip(&answers) {
        let case = &cases[*i];
        tally.reverse += 1;
        let mut fail = |text: String| {
            report.fail(release, rel, case.target, case.version, format!("{} (from Kafka's JSON): {text}", case.label));
        };
        let theirs = match parse_encoded(answer) {
            Ok(b) => b,
            Err(e) if case.json_float_string && e.contains("but got STRING") => {
                // Kafka's reader refuses the strings its writer gives NaN
                // and the infinities; kwire's reader must refuse them too.
                match case.target.read_json(json, case.version) {
                    Err(ours) if ours.contains("expected a floating point number") => tally.float_strings_refused += 1,
                    other => fail(format!("Kafka refuses its own JSON {json} ({e}), kwire reads it: {other:?}")),
                }
                continue;
            }
            Err(e) => {
                fail(format!("Kafka cannot write its own JSON {json}: {e}"));
                continue;
            }
        };
        let (value, left) = match case.target.decode(&theirs, case.version) {
            Ok(v) => v,
            Err(e) => {
                fail(format!("kwire cannot read Kafka's bytes {}: {e}", hex_word(&theirs)));
                continue;
            }
        };
        if left != 0 {
            fail(format!("kwire left {left} of Kafka's bytes unread: {}", hex_word(&theirs)));
            continue;
        }
        match value.encode(case.version) {
            Ok(b) if b == theirs => {}
            Ok(b) => {
                fail(format!("kwire writes Kafka's bytes back differently: {}", byte_diff(&b, &theirs)));
                continue;
            }
            Err(e) => {
                fail(format!("kwire cannot write what it read from Kafka: {e}"));
                continue;
            }
        }
        if theirs == case.bytes && case.beyond_json() {
            fail(format!(
                "Kafka's JSON {json} carried unknown tagged fields or records (expected it to leave them out): {}",
                hex_word(&theirs)
            ));
        } else if theirs == case.bytes {
            tally.reverse_same_bytes += 1;
            if case.comparable && value != case.value {
                fail(format!("kwire reads another value:\n      sent {:?}\n      read {value:?}", case.value));
            }
        } else if case.beyond_json() {
            // Kafka's JSON left out unknown tagged fields or records' bytes:
            // Kafka must read its own bytes back.
            again.push((*i, theirs, json));
        } else {
            fail(format!(
                "Kafka writes from its JSON {json} other bytes than it read: {}",
                byte_diff(&case.bytes, &theirs)
            ));
        }
    }

    let questions: Vec<String> = again
        .iter()
        .map(|(i, bytes, _)| format!("decode {} {} {}", cases[*i].target.words(), cases[*i].version, hex_word(bytes)))
        .collect();
    let answers = oracle.ask_all(&questions);
    for ((i, bytes, sent), answer) in again.iter().zip(&answers) {
        let case = &cases[*i];
        match parse_decoded(answer) {
            // The same JSON, except where unknown tagged fields were lost:
            // a tagged struct that held only unknown tagged fields beside
            // default values is written (it differs from the default), but
            // without them it is the default, which Kafka leaves out.
            Ok(d) if d.left == 0 && d.bytes == *bytes && (case.unknown_tags || d.json.as_deref() == Ok(*sent)) => {
                tally.reverse_lossy += 1
            }
            Ok(Decoded { json: back, left, bytes: written, .. }) => report.fail(
                release,
                rel,
                case.target,
                case.version,
                format!(
                    "{}: Kafka reads its bytes {} from JSON {sent} back as {back:?} ({left} left), writing {}",
                    case.label,
                    hex_word(bytes),
                    hex_word(&written)
                ),
            ),
            Err(e) => report.fail(
                release,
                rel,
                case.target,
                case.version,
                format!("{}: Kafka cannot read what it wrote from its JSON: {e}", case.label),
            ),
        }
    }
}

/// A 32,768-byte string is one byte too long: both encoders must refuse it.
fn limits(release: &'static str, rel: &Release, oracle: &mut Oracle, report: &mut Report) -> usize {
    let too_long = "a".repeat(32_767) + "é"; // 32,769 bytes
    let exactly = "é".repeat(16_384); // 32,768 bytes
                                      // (message, version, label, kwire's encoding, JSON for Kafka)
    type Check = (Target, i16, String, Result<Bytes, String>, String);
    let mut checks: Vec<Check> = Vec::new();
    for version in 1..=2 {
        let target = Target::Header(Side::Request);
        if rel.versions(target).is_none_or(|(lo, hi)| version < lo || version > hi) {
            continue;
        }
        for s in [&exactly, &too_long] {
            let ours = RequestHeader { client_id: Some(s.clone().into()), ..Default::default() }.to_bytes(version);
            let json = serde_json::json!({
                "requestApiKey": 18, "requestApiVersion": 0, "correlationId": 1, "clientId": s,
            });
            checks.push((
                target,
                version,
                format!("client id of {} bytes", s.len()),
                ours.map_err(|e| e.to_string()),
                json.to_string(),
            ));
        }
    }
    let target = Target::Api(19, Side::Request);
    for version in [4, 5] {
        if rel.versions(target).is_none_or(|(lo, hi)| version < lo || version > hi) {
            continue;
        }
        let topic = ct::CreatableTopic { name: exactly.clone().into(), ..Default::default() };
        let ours = RequestBody::from(CreateTopicsRequest { topics: vec![topic], ..Default::default() });
        let json = serde_json::json!({
            "topics": [{ "name": exactly, "numPartitions": 1, "replicationFactor": 1, "assignments": [], "configs": [] }],
            "timeoutMs": 0, "validateOnly": false,
        });
        checks.push((
            target,
            version,
            format!("topic name of {} bytes", exactly.len()),
            Value::Request(ours).encode(version),
            json.to_string(),
        ));
    }
    let questions: Vec<String> =
        checks.iter().map(|(t, v, _, _, json)| format!("encode {} {v} {json}", t.words())).collect();
    let answers = oracle.ask_all(&questions);
    for ((target, version, label, ours, _), answer) in checks.iter().zip(&answers) {
        let theirs = parse_encoded(answer);
        if ours.is_ok() || theirs.is_ok() {
            report.fail(
                release,
                rel,
                *target,
                *version,
                format!(
                    "[limit] {label}: both must refuse; kwire: {}, Kafka: {}",
                    ours.as_ref().map_or_else(|e| format!("refuses ({e})"), |_| "writes it".into()),
                    theirs.as_ref().map_or_else(|e| format!("refuses ({e})"), |_| "writes it".into())
                ),
            );
        }
    }
    checks.len()
}

/// A verdict on bytes: refused, or read and written back as these bytes
/// with this many left over.
#[derive(Debug, PartialEq)]
enum Verdict {
    Refused,
    Accepted { written: Bytes, left: usize },
}

/// Bytes that break a rule of the protocol, with the verdict both sides
/// must reach, unless [`KNOWN`] says otherwise.
fn malformed(release: &'static str, rel: &Release, oracle: &mut Oracle, report: &mut Report) -> Vec<String> {
    let h = |s: &str| Bytes::from(hex::decode(s.replace(' ', "")).expect("test hex"));
    let req = Target::Header(Side::Request);
    let resp = Target::Header(Side::Response);
    // A 32,768-byte compact string (length + 1 = 32769 = 0x81 0x80 0x02).
    let mut long_name = hex::decode("02 8180 02".replace(' ', "")).expect("hex");
    long_name.extend(std::iter::repeat_n(b'a', 32_768));
    long_name.extend(hex::decode("ffffffff ffff 01 01 00 00000000 00 00".replace(' ', "")).expect("hex"));
    // Kafka 4.4's limits on reading: at most 10,000 tagged fields in a
    // struct and 1,000,000 elements in an array; kwire's own encoder
    // writes the bytes. kwire reads with them by default, and without them
    // (ReadLimits::NONE) as the releases that lack them do.
    let limits = match release_has_read_limits(release) {
        true => ReadLimits::default(),
        false => ReadLimits::NONE,
    };
    let many_tags = |n: u32| {
        let tags = (0..n).map(|t| RawTaggedField::new(t, Bytes::new())).collect();
        Value::ResponseHeader(ResponseHeader { correlation_id: 1, unknown_tagged_fields: tags })
            .encode(1)
            .expect("kwire writes any number of tags")
    };
    let long_array = |n: usize| {
        let body = kwire::messages::GetTelemetrySubscriptionsResponse {
            accepted_compression_types: vec![0; n],
            ..Default::default()
        };
        Value::Response(body.into()).encode(0).expect("kwire writes any array")
    };
    let telemetry = Target::Api(71, Side::Response);
    let sasl = Target::Api(17, Side::Request);
    let versions = Target::Api(18, Side::Response);
    let cases: Vec<(Target, i16, &str, Bytes)> = vec![
        (resp, 1, "10000 unknown tags", many_tags(10_000)),
        (resp, 1, "10001 unknown tags", many_tags(10_001)),
        (telemetry, 0, "array of 1000000 int8", long_array(1_000_000)),
        (telemetry, 0, "array of 1000001 int8", long_array(1_000_001)),
        (req, 1, "client id with invalid UTF-8 (c3 ff)", h("0012 0000 00000001 0002 c3ff")),
        (req, 2, "client id with invalid UTF-8 (c3 ff)", h("0012 0003 00000001 0002 c3ff 00")),
        (Target::Api(17, Side::Request), 1, "mechanism with invalid UTF-8 (c3 ff)", h("0002 c3ff")),
        // Strings that are not UTF-8 in every way a decoder may cut them:
        // Kafka reads each lossily (Java's UTF-8 charset), one U+FFFD per
        // maximal invalid sequence, and kwire must cut them the same.
        (sasl, 1, "mechanism with a cut 3-byte sequence (e2 82)", h("0002 e282")),
        (sasl, 1, "mechanism with a surrogate (ed a0 80)", h("0003 eda080")),
        (sasl, 1, "mechanism with a surrogate then a (ed bf bf 61)", h("0004 edbfbf61")),
        (sasl, 1, "mechanism with a cut surrogate then a (ed a0 61)", h("0003 eda061")),
        (sasl, 1, "mechanism ending in a cut surrogate (61 ed a0)", h("0003 61eda0")),
        (sasl, 1, "mechanism with a cut sequence below the surrogates (ed 9f 61)", h("0003 ed9f61")),
        (sasl, 1, "mechanism with c1 bf then a cut c2 (c1 bf c2)", h("0003 c1bfc2")),
        (sasl, 1, "mechanism with an overlong 2-byte form (c0 af)", h("0002 c0af")),
        (sasl, 1, "mechanism with an overlong 3-byte form (e0 80 af)", h("0003 e080af")),
        (sasl, 1, "mechanism with a cut 4-byte sequence then a (f0 9f 98 61)", h("0004 f09f9861")),
        (sasl, 1, "mechanism above U+10FFFF (f4 90 80 80)", h("0004 f4908080")),
        (sasl, 1, "mechanism of lone continuation bytes (80 bf)", h("0002 80bf")),
        (sasl, 1, "mechanism with a 5-byte form (f8 88 80 80 80)", h("0005 f888808080")),
        (sasl, 1, "mechanism with a bad second byte (e2 28 a1)", h("0003 e228a1")),
        (sasl, 1, "mechanism of 40 bytes ending in ff", Bytes::from([&[0, 40][..], &[b'a'; 39], &[0xff]].concat())),
        (
            Target::Api(19, Side::Request),
            5,
            "compact topic name with invalid UTF-8 (ff)",
            h("02 02ff 00000000 0000 01 01 00 00000000 00 00"),
        ),
        (req, 1, "client id length -2", h("0012 0000 00000001 fffe")),
        (req, 2, "tag 0 not a string (ff)", h("0012 0003 00000001 ffff 01 00 01 ff")),
        (resp, 1, "unknown tags out of order (5 then 3)", h("00000001 02 05 00 03 00")),
        (resp, 1, "unknown tags out of order (3 twice)", h("00000001 02 03 00 03 00")),
        (resp, 1, "unknown tag 2^31-1", h("00000001 01 ffffffff07 01 61")),
        (resp, 1, "unknown tag 2^32-1", h("00000001 01 ffffffff0f 01 61")),
        (resp, 1, "tag count varint of 6 bytes", h("00000001 8080808080 00")),
        (resp, 1, "tag size beyond the end", h("00000001 01 05 10 61")),
        (resp, 0, "trailing byte", h("00000001 00")),
        (Target::Api(3, Side::Request), 4, "topics array length -2", h("fffffffe 01")),
        (Target::Api(19, Side::Request), 4, "non-nullable topics array length -1", h("ffffffff 00000000 00")),
        (Target::Api(19, Side::Request), 4, "non-nullable topic name length -1", h("00000001 ffff")),
        (Target::Api(19, Side::Request), 5, "topic name of 32768 bytes", Bytes::from(long_name)),
        (Target::Api(17, Side::Request), 1, "string length past the end", h("0005 6162")),
        (Target::Api(3, Side::Request), 4, "bool byte 2 (allow auto topic creation)", h("00000000 02")),
        (resp, 1, "tag count as an overlong varint (80 00)", h("00000001 8000")),
        (Target::Api(19, Side::Request), 5, "non-nullable topic name as compact null (00)", h("02 00")),
        (versions, 3, "known tag 1 twice", h("0000 01 00000000 02 01 08 0000000000000005 01 08 0000000000000007")),
        (versions, 3, "known tags out of order (2 then 1)", h("0000 01 00000000 02 02 01 01 01 08 0000000000000005")),
        (versions, 3, "unknown tag 9 then known tag 1", h("0000 01 00000000 02 09 01 aa 01 08 0000000000000005")),
        (versions, 3, "known tag 1 sent with its default (-1)", h("0000 01 00000000 01 01 08 ffffffffffffffff")),
    ];
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|(t, v, _, _)| rel.versions(*t).is_some_and(|(lo, hi)| lo <= *v && *v <= hi))
        .collect();
    let questions: Vec<String> =
        cases.iter().map(|(t, v, _, b)| format!("decode {} {v} {}", t.words(), hex_word(b))).collect();
    let answers = oracle.ask_all(&questions);
    let mut lines = Vec::new();
    for ((target, version, label, bytes), answer) in cases.iter().zip(&answers) {
        let theirs = match parse_decoded(answer) {
            Ok(d) => Verdict::Accepted { written: d.bytes, left: d.left },
            Err(_) => Verdict::Refused,
        };
        let ours = match target.decode_with(bytes, *version, limits) {
            Ok((value, left)) => match value.encode(*version) {
                Ok(written) => Verdict::Accepted { written, left },
                Err(_) => Verdict::Refused,
            },
            Err(_) => Verdict::Refused,
        };
        let show = |v: &Verdict| match v {
            Verdict::Refused => "refuses".to_string(),
            Verdict::Accepted { written, left } => {
                let cut = &written[..written.len().min(24)];
                format!(
                    "reads it ({left} left) and writes {}{}",
                    hex_word(cut),
                    if written.len() > 24 { "…" } else { "" }
                )
            }
        };
        lines.push(format!("  {} v{version} {label}: kwire {}; Kafka {}", target.name(), show(&ours), show(&theirs)));
        if ours != theirs {
            report.fail(
                release,
                rel,
                *target,
                *version,
                format!(
                    "[malformed] {label}: {}: kwire {}; Kafka {} ({answer:.160})",
                    hex_word(&bytes[..bytes.len().min(24)]),
                    show(&ours),
                    show(&theirs)
                ),
            );
        }
    }
    lines
}

/// Whether `release` refuses arrays of more than 1,000,000 elements and
/// tagged-field sections of more than 10,000 entries (its
/// `MessageUtil.MAX_ARRAY_LENGTH` and `MAX_TAGGED_FIELD_COUNT`): 4.2.2 and
/// 4.4.0 do; 3.9.2, 4.0.2, 4.1.2 and 4.3.1 read them.
fn release_has_read_limits(release: &str) -> bool {
    matches!(release, "4.2.2" | "4.4.0")
}

/// The header versions of every api key and version both have.
fn header_versions(release: &'static str, rel: &Release, report: &mut Report) -> usize {
    let mut checked = 0;
    for info in API_INFO {
        let Some(api) = rel.apis.get(&info.api_key.code()) else { continue };
        for version in api.versions.0..=api.versions.1 {
            if !info.valid_versions.contains(version) {
                continue;
            }
            let i = (version - api.versions.0) as usize;
            let ours = (info.request_header_version(version), info.response_header_version(version));
            let theirs = (api.request_headers[i], api.response_headers[i]);
            checked += 1;
            if ours != theirs {
                let text = format!(
                    "header versions (request, response): kwire {ours:?}, Kafka {theirs:?} for {} v{version}",
                    info.name
                );
                report.fail(release, rel, Target::Api(info.api_key.code(), Side::Request), version, text);
            }
        }
    }
    checked
}

/// The forwardable, cluster-action and delayed-allocation flags of every
/// api key both tables have, against Kafka's `ApiKeys` (the oracle's
/// `flags` answer: `KEY:FCD`, each flag 0 or 1). Every api key of Kafka's
/// table must be in ours too: the release is the one `schemas/` follows.
fn api_flags(release: &'static str, rel: &Release, answer: &str, report: &mut Report) -> usize {
    let theirs: Vec<(i16, [bool; 3])> = answer
        .strip_prefix("ok")
        .unwrap_or_else(|| panic!("oracle: flags: {answer}"))
        .split_whitespace()
        .map(|entry| {
            let (key, flags) = entry.split_once(':').unwrap_or_else(|| panic!("oracle: flags entry {entry}"));
            let key: i16 = key.parse().unwrap_or_else(|_| panic!("oracle: flags entry {entry}"));
            let flags: Vec<bool> = flags.bytes().map(|b| b == b'1').collect();
            (key, [flags[0], flags[1], flags[2]])
        })
        .collect();
    assert!(theirs.len() >= 80, "oracle: only {} api keys in Kafka {release}'s ApiKeys: {answer}", theirs.len());
    for &(key, flags) in &theirs {
        let target = Target::Api(key, Side::Request);
        let Some(info) = kwire::api::api_info(key) else {
            report.fail(release, rel, target, 0, format!("api key {key} is in Kafka's ApiKeys, not in API_INFO"));
            continue;
        };
        let ours = [info.forwardable, info.cluster_action, info.requires_delayed_allocation];
        if ours != flags {
            let text = format!(
                "flags (forwardable, cluster action, delayed allocation) of {}: kwire {ours:?}, Kafka {flags:?}",
                info.name
            );
            report.fail(release, rel, target, info.valid_versions.min, text);
        }
    }
    theirs.len()
}

// ---------------------------------------------------------------------------
// KIP-590: the Envelope with its embedded header and body.

/// The client requests embedded in an EnvelopeRequest: (api key, version).
/// The embedded RequestHeader is v2 for a flexible version, v1 otherwise.
const EMBEDDED_REQUESTS: &[(i16, i16)] = &[(19, 7), (19, 4), (30, 1), (33, 1)];

/// The controller answers embedded in an EnvelopeResponse: (api key,
/// version). The embedded ResponseHeader is v1 for a flexible version, v0
/// otherwise.
const EMBEDDED_RESPONSES: &[(i16, i16)] = &[(19, 7), (30, 1)];

/// Sampled bodies per embedded (api key, version), beside the hand-made ones.
const EMBEDDED_SEEDS: u64 = 8;

impl Release {
    /// The release's (request, response) header versions of an api key at
    /// a version; `None` when it lacks the version.
    fn header_versions(&self, key: i16, version: i16) -> Option<(i16, i16)> {
        let api = self.apis.get(&key)?;
        if version < api.versions.0 || version > api.versions.1 {
            return None;
        }
        let i = (version - api.versions.0) as usize;
        Some((api.request_headers[i], api.response_headers[i]))
    }
}

/// What a read asked of Kafka stands for in the envelope checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The envelope itself, or its own request header.
    Outer,
    /// The embedded header, read from the embedded bytes as Kafka's
    /// controller (or forwarding broker) does: `left` is the body.
    EmbeddedHeader,
    /// The embedded body, from the bytes the header left.
    EmbeddedBody,
}

/// One `decode` asked of Kafka: it must read `bytes` at `version`, leave
/// `left` bytes unread, compute the size of and write back `written`.
struct Read {
    case: usize,
    role: Role,
    what: String,
    target: Target,
    version: i16,
    bytes: Bytes,
    written: Bytes,
    left: usize,
}

/// Asks Kafka every read and checks each answer; `Some` with Kafka's
/// answer when it is what kwire wrote, else `None` and a failure.
fn ask_reads(
    release: &'static str,
    rel: &Release,
    oracle: &mut Oracle,
    reads: &[Read],
    report: &mut Report,
) -> Vec<Option<Decoded>> {
    let questions: Vec<String> =
        reads.iter().map(|r| format!("decode {} {} {}", r.target.words(), r.version, hex_word(&r.bytes))).collect();
    let answers = oracle.ask_all(&questions);
    reads
        .iter()
        .zip(&answers)
        .map(|(read, answer)| {
            let problem = match parse_decoded(answer) {
                Err(e) => Err(format!("Kafka cannot read {}: {e}", short_hex(&read.bytes))),
                Ok(d) if d.left != read.left => Err(format!(
                    "Kafka leaves {} of {} bytes unread, kwire {}: {}",
                    d.left,
                    read.bytes.len(),
                    read.left,
                    short_hex(&read.bytes)
                )),
                Ok(d) if d.bytes != read.written => {
                    Err(format!("Kafka writes back different bytes: {}", byte_diff(&read.written, &d.bytes)))
                }
                Ok(d) if d.size != read.written.len() => {
                    Err(format!("Kafka's size {} is not kwire's length {}", d.size, read.written.len()))
                }
                Ok(d) => Ok(d),
            };
            problem
                .map_err(|text| report.fail(release, rel, read.target, read.version, format!("{}: {text}", read.what)))
                .ok()
        })
        .collect()
}

/// At most 64 bytes in hex, for failure texts.
fn short_hex(bytes: &[u8]) -> String {
    let cut = hex_word(&bytes[..bytes.len().min(64)]);
    if bytes.len() > 64 {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Kafka's JSON form of what it read, parsed.
fn kafka_json(decoded: &Decoded) -> Result<serde_json::Value, String> {
    let text = decoded.json.as_deref().map_err(|e| format!("Kafka's JSON converter fails: {e}"))?;
    serde_json::from_str(text).map_err(|e| format!("Kafka's JSON {text} does not parse: {e}"))
}

/// A RequestHeader as Kafka's JSON converter writes it (v1 and v2; it
/// leaves tagged fields out).
fn request_header_json(h: &RequestHeader) -> serde_json::Value {
    serde_json::json!({
        "requestApiKey": h.request_api_key,
        "requestApiVersion": h.request_api_version,
        "correlationId": h.correlation_id,
        "clientId": h.client_id.as_deref(),
    })
}

/// Header ‖ body of a client request, with kwire's
/// `EmbeddedMessage::from_request` (typed, so by the body's api).
fn embed_request(header: &RequestHeader, body: &RequestBody) -> Result<EmbeddedMessage, String> {
    let embedded = match body {
        RequestBody::CreateTopics(b) => EmbeddedMessage::from_request(header, b),
        RequestBody::CreateAcls(b) => EmbeddedMessage::from_request(header, b),
        RequestBody::AlterConfigs(b) => EmbeddedMessage::from_request(header, b),
        other => return Err(format!("no typed embedding here for api key {}", other.api_key().code())),
    };
    embedded.map_err(|e| format!("kwire cannot embed it: {e}"))
}

/// kwire's typed embedded decoder (`EmbeddedMessage::decode_request`).
fn decode_embedded_request(embedded: &EmbeddedMessage, key: i16) -> Result<(RequestHeader, RequestBody), String> {
    let e = |e: kwire::error::DecodeError| e.to_string();
    Ok(match key {
        19 => embedded.decode_request::<CreateTopicsRequest>().map(|(h, b)| (h, b.into())).map_err(e)?,
        30 => embedded.decode_request::<CreateAclsRequest>().map(|(h, b)| (h, b.into())).map_err(e)?,
        33 => embedded.decode_request::<AlterConfigsRequest>().map(|(h, b)| (h, b.into())).map_err(e)?,
        _ => return Err(format!("no typed decoder here for api key {key}")),
    })
}

/// Header ‖ body of a response, with `EmbeddedMessage::from_response`.
fn embed_response(header: &ResponseHeader, body: &ResponseBody, version: i16) -> Result<EmbeddedMessage, String> {
    let embedded = match body {
        ResponseBody::CreateTopics(b) => EmbeddedMessage::from_response(header, b, version),
        ResponseBody::CreateAcls(b) => EmbeddedMessage::from_response(header, b, version),
        other => return Err(format!("no typed embedding here for api key {}", other.api_key().code())),
    };
    embedded.map_err(|e| format!("kwire cannot embed it: {e}"))
}

/// kwire's typed embedded decoder (`EmbeddedMessage::decode_response`).
fn decode_embedded_response(
    embedded: &EmbeddedMessage,
    key: i16,
    version: i16,
) -> Result<(ResponseHeader, ResponseBody), String> {
    let e = |e: kwire::error::DecodeError| e.to_string();
    Ok(match key {
        19 => embedded.decode_response::<CreateTopicsResponse>(version).map(|(h, b)| (h, b.into())).map_err(e)?,
        30 => embedded.decode_response::<CreateAclsResponse>(version).map(|(h, b)| (h, b.into())).map_err(e)?,
        _ => return Err(format!("no typed decoder here for api key {key}")),
    })
}

/// Hand-made client requests to embed, then sampled ones.
fn embedded_request_values(key: i16, version: i16) -> Vec<(String, RequestBody)> {
    let mut out: Vec<(String, RequestBody)> = Vec::new();
    match key {
        19 => {
            let config = |name: &str, value: Option<&str>| ct::CreatableTopicConfig {
                name: name.into(),
                value: value.map(Into::into),
                ..Default::default()
            };
            let assignment = |partition_index: i32, broker_ids: Vec<i32>| ct::CreatableReplicaAssignment {
                partition_index,
                broker_ids,
                ..Default::default()
            };
            let body = CreateTopicsRequest {
                topics: vec![
                    ct::CreatableTopic {
                        name: "orders".into(),
                        num_partitions: 3,
                        replication_factor: 2,
                        configs: vec![config("cleanup.policy", Some("compact")), config("retention.ms", None)],
                        ..Default::default()
                    },
                    ct::CreatableTopic {
                        name: "payments".into(),
                        num_partitions: -1,
                        replication_factor: -1,
                        assignments: vec![assignment(0, vec![1, 2, 3]), assignment(1, vec![2, 3, 1])],
                        ..Default::default()
                    },
                ],
                timeout_ms: 30_000,
                validate_only: true,
                ..Default::default()
            };
            out.push(("two topics with configs and assignments".into(), body.into()));
        }
        30 => {
            let body = CreateAclsRequest {
                creations: vec![
                    cacl::AclCreation {
                        resource_type: 2, // TOPIC
                        resource_name: "orders".into(),
                        resource_pattern_type: 3, // LITERAL
                        principal: "User:alice".into(),
                        host: "*".into(),
                        operation: 3,       // READ
                        permission_type: 3, // ALLOW
                        ..Default::default()
                    },
                    cacl::AclCreation {
                        resource_type: 3, // GROUP
                        resource_name: "app-".into(),
                        resource_pattern_type: 4, // PREFIXED
                        principal: "User:bob".into(),
                        host: "10.0.0.7".into(),
                        operation: 2,       // ALL
                        permission_type: 2, // DENY
                        ..Default::default()
                    },
                ],
                ..Default::default()
            };
            out.push(("two ACLs, literal and prefixed".into(), body.into()));
        }
        33 => {
            let config = |name: &str, value: Option<&str>| ac::AlterableConfig {
                name: name.into(),
                value: value.map(Into::into),
                ..Default::default()
            };
            let body = AlterConfigsRequest {
                resources: vec![
                    ac::AlterConfigsResource {
                        resource_type: 2, // TOPIC
                        resource_name: "orders".into(),
                        configs: vec![config("retention.ms", Some("86400000")), config("cleanup.policy", None)],
                        ..Default::default()
                    },
                    ac::AlterConfigsResource {
                        resource_type: 4, // BROKER
                        resource_name: "1".into(),
                        configs: vec![config("log.cleaner.threads", Some("2"))],
                        ..Default::default()
                    },
                ],
                validate_only: false,
                ..Default::default()
            };
            out.push(("a topic and a broker".into(), body.into()));
        }
        _ => {}
    }
    for seed in 0..EMBEDDED_SEEDS {
        let mut g = SampleGen::new(0x590e_0000 ^ (seed << 32) ^ ((key as u64) << 8) ^ version as u64);
        let body = RequestBody::sample(common::api_key(key), &mut g, version).expect("every api key is compiled");
        out.push((format!("seed {seed}"), body));
    }
    out
}

/// Hand-made controller answers to embed, then sampled ones.
fn embedded_response_values(key: i16, version: i16) -> Vec<(String, ResponseBody)> {
    let mut out: Vec<(String, ResponseBody)> = Vec::new();
    match key {
        19 => {
            let body = CreateTopicsResponse {
                throttle_time_ms: 0,
                topics: vec![
                    ctr::CreatableTopicResult {
                        name: "orders".into(),
                        topic_id: Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210),
                        num_partitions: 3,
                        replication_factor: 2,
                        configs: Some(vec![ctr::CreatableTopicConfigs {
                            name: "cleanup.policy".into(),
                            value: Some("compact".into()),
                            config_source: 1, // DYNAMIC_TOPIC_CONFIG
                            ..Default::default()
                        }]),
                        ..Default::default()
                    },
                    ctr::CreatableTopicResult {
                        name: "payments".into(),
                        error_code: 36, // TOPIC_ALREADY_EXISTS
                        error_message: Some("Topic 'payments' already exists.".into()),
                        num_partitions: -1,
                        replication_factor: -1,
                        configs: None,
                        ..Default::default()
                    },
                ],
                ..Default::default()
            };
            out.push(("a created topic and an existing one".into(), body.into()));
        }
        30 => {
            let body = CreateAclsResponse {
                throttle_time_ms: 5,
                results: vec![
                    cacr::AclCreationResult { error_code: 0, error_message: None, ..Default::default() },
                    cacr::AclCreationResult {
                        error_code: 31, // CLUSTER_AUTHORIZATION_FAILED
                        error_message: Some("".into()),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            };
            out.push(("a created ACL and a refused one".into(), body.into()));
        }
        _ => {}
    }
    for seed in 0..EMBEDDED_SEEDS {
        let mut g = SampleGen::new(0x590f_0000 ^ (seed << 32) ^ ((key as u64) << 8) ^ version as u64);
        let body = ResponseBody::sample(common::api_key(key), &mut g, version).expect("every api key is compiled");
        out.push((format!("seed {seed}"), body));
    }
    out
}

/// One envelope, with what kwire must read back from Kafka's bytes.
struct EnvelopeCase {
    label: String,
    /// The embedded api, e.g. CreateTopicsRequest.
    target: Target,
    version: i16,
    /// The embedded header and body as kwire wrote them; `None` for an
    /// error EnvelopeResponse.
    embedded: Option<EmbeddedMessage>,
    kind: EnvelopeKind,
}

// A few dozen values, each built once: boxing would only add noise.
#[allow(clippy::large_enum_variant)]
enum EnvelopeKind {
    Request {
        header: RequestHeader,
        body: RequestBody,
        wrapped: WrappedRequest,
        principal: DefaultPrincipalData,
        address: IpAddr,
    },
    Response {
        envelope: EnvelopeResponse,
        expected: ForwardOutcome,
        forwarded: ForwardedRequest,
    },
}

/// Counts of the envelope checks, for the table and summary.
#[derive(Default)]
struct EnvelopeTally {
    requests: usize,
    responses: usize,
    /// Reads asked of Kafka, each of the same bytes back.
    kafka_reads: usize,
    /// Comparisons of what kwire reads (unwrap, typed embedded decoder,
    /// header values against Kafka's JSON).
    wire_checks: usize,
}

/// The Envelope with a real embedded request or response: kwire wraps
/// (`EmbeddedMessage::from_request`/`from_response`, `forward::wrap_request`,
/// `wrap_response`); Kafka reads the envelope (and the EnvelopeRequest's own
/// header v2) back to the same bytes, then the embedded bytes as its
/// controller and forwarding broker do: the header at the version Kafka's
/// table gives for the api and version (leaving exactly the body), then the
/// body from what the header left. kwire then reads Kafka's envelope
/// bytes (`forward::unwrap_request` / `unwrap_response` and the typed
/// embedded decoders) back to the header and body it started from, the
/// header's values equal to Kafka's JSON form.
fn envelopes(
    release: &'static str,
    rel: &Release,
    oracle: &mut Oracle,
    report: &mut Report,
) -> (Vec<String>, EnvelopeTally) {
    let mut rows = Vec::new();
    let mut tally = EnvelopeTally::default();
    let principal = DefaultPrincipalData { r#type: "User".into(), name: "alice".into(), ..Default::default() };
    let mut cases: Vec<EnvelopeCase> = Vec::new();
    let mut reads: Vec<Read> = Vec::new();
    let env_req = Target::Api(58, Side::Request);
    let env_resp = Target::Api(58, Side::Response);
    if rel.header_versions(58, 0).is_none() {
        rows.push(format!("  left out: Kafka {release} lacks Envelope v0"));
        return (rows, tally);
    }

    for &(key, version) in EMBEDDED_REQUESTS {
        let target = Target::Api(key, Side::Request);
        let Some((hv, _)) = rel.header_versions(key, version) else {
            rows.push(format!(
                "  {} v{version} in EnvelopeRequest v0: left out, Kafka {release} lacks it",
                target.name()
            ));
            continue;
        };
        let ours_hv = api_info(key).expect("an api key of API_INFO").request_header_version(version);
        if hv != ours_hv {
            report.fail(
                release,
                rel,
                target,
                version,
                format!("[envelope] embedded RequestHeader version: kwire v{ours_hv}, Kafka v{hv}"),
            );
            continue;
        }
        let first = cases.len();
        for (j, (label, body)) in embedded_request_values(key, version).into_iter().enumerate() {
            let label = format!("[envelope] {} v{version} in EnvelopeRequest v0, {label}", target.name());
            let mut fail = |text: String| report.fail(release, rel, target, version, format!("{label}: {text}"));
            let client_id = match j % 4 {
                0 => Some("client-1".to_string()),
                1 => None,
                2 => Some(String::new()),
                _ => Some("文-client".to_string()),
            };
            let header = RequestHeader {
                request_api_key: key,
                request_api_version: version,
                correlation_id: if j == 2 { i32::MAX } else { 7919 * j as i32 + 1 },
                client_id: client_id.map(Into::into),
                unknown_tagged_fields: if hv >= 2 && j == 1 {
                    vec![RawTaggedField::new(7, Bytes::from_static(b"t"))]
                } else {
                    Vec::new()
                },
                ..Default::default()
            };
            let embedded = match embed_request(&header, &body) {
                Ok(e) => e,
                Err(e) => {
                    fail(e);
                    continue;
                }
            };
            let mut framed = BytesMut::new();
            match frame::RequestFrame::encode_parts(&header, &body, &mut framed) {
                Ok(()) if framed[..] == embedded.as_bytes()[..] => {}
                Ok(()) => fail(format!(
                    "frame::encode_request and EmbeddedMessage::from_request differ: {}",
                    byte_diff(&framed, embedded.as_bytes())
                )),
                Err(e) => fail(format!("frame::encode_request fails: {e}")),
            }
            let header_len = match header.to_bytes(ours_hv) {
                Ok(b) => b.len(),
                Err(e) => {
                    fail(format!("kwire cannot encode the header: {e}"));
                    continue;
                }
            };
            let address =
                if j % 2 == 0 { IpAddr::V4(Ipv4Addr::new(10, 0, 0, 7)) } else { IpAddr::V6(Ipv6Addr::LOCALHOST) };
            let wrapped =
                match wrap_request(embedded.as_bytes().clone(), &principal, address, 1000 + j as i32, Some("broker-1"))
                {
                    Ok(w) => w,
                    Err(e) => {
                        fail(format!("forward::wrap_request refuses it: {e}"));
                        continue;
                    }
                };
            if wrapped.envelope.request_data != embedded {
                fail("wrap_request did not carry the embedded bytes unchanged".into());
                continue;
            }
            let mut full = BytesMut::new();
            let env = match (wrapped.encode(&mut full), wrapped.envelope.to_bytes(0)) {
                (Ok(()), Ok(env)) => env,
                (Err(e), _) | (_, Err(e)) => {
                    fail(format!("kwire cannot encode the envelope: {e}"));
                    continue;
                }
            };
            let full = full.freeze();
            let i = cases.len();
            let bytes = embedded.as_bytes().clone();
            reads.push(Read {
                case: i,
                role: Role::Outer,
                what: format!("{label}: the envelope's own RequestHeader v2"),
                target: Target::Header(Side::Request),
                version: 2,
                written: full.slice(..full.len() - env.len()),
                left: env.len(),
                bytes: full,
            });
            reads.push(Read {
                case: i,
                role: Role::Outer,
                what: format!("{label}: EnvelopeRequest v0"),
                target: env_req,
                version: 0,
                bytes: env.clone(),
                written: env,
                left: 0,
            });
            reads.push(Read {
                case: i,
                role: Role::EmbeddedHeader,
                what: format!("{label}: the embedded RequestHeader v{hv}"),
                target: Target::Header(Side::Request),
                version: hv,
                written: bytes.slice(..header_len),
                left: bytes.len() - header_len,
                bytes,
            });
            cases.push(EnvelopeCase {
                label,
                target,
                version,
                embedded: Some(embedded),
                kind: EnvelopeKind::Request { header, body, wrapped, principal: principal.clone(), address },
            });
        }
        tally.requests += cases.len() - first;
        rows.push(format!(
            "  {} v{version} (RequestHeader v{hv}) in EnvelopeRequest v0 (header v2): {} envelopes",
            target.name(),
            cases.len() - first
        ));
    }

    for &(key, version) in EMBEDDED_RESPONSES {
        let target = Target::Api(key, Side::Response);
        let Some((_, hv)) = rel.header_versions(key, version) else {
            rows.push(format!(
                "  {} v{version} in EnvelopeResponse v0: left out, Kafka {release} lacks it",
                target.name()
            ));
            continue;
        };
        let ours_hv = api_info(key).expect("an api key of API_INFO").response_header_version(version);
        if hv != ours_hv {
            report.fail(
                release,
                rel,
                target,
                version,
                format!("[envelope] embedded ResponseHeader version: kwire v{ours_hv}, Kafka v{hv}"),
            );
            continue;
        }
        let first = cases.len();
        for (j, (label, body)) in embedded_response_values(key, version).into_iter().enumerate() {
            let label = format!("[envelope] {} v{version} in EnvelopeResponse v0, {label}", target.name());
            let mut fail = |text: String| report.fail(release, rel, target, version, format!("{label}: {text}"));
            let header = ResponseHeader {
                correlation_id: if j == 2 { i32::MIN } else { 104_729 * j as i32 + 3 },
                unknown_tagged_fields: if hv >= 1 && j == 1 {
                    vec![RawTaggedField::new(9, Bytes::from_static(b"r"))]
                } else {
                    Vec::new()
                },
            };
            let envelope = match wrap_response(&header, &body, version) {
                Ok(e) => e,
                Err(e) => {
                    fail(format!("forward::wrap_response fails: {e}"));
                    continue;
                }
            };
            let embedded = match embed_response(&header, &body, version) {
                Ok(e) => e,
                Err(e) => {
                    fail(e);
                    continue;
                }
            };
            if envelope.response_data.as_ref() != Some(&embedded) {
                fail(format!(
                    "wrap_response and EmbeddedMessage::from_response differ: {}",
                    byte_diff(
                        embedded.as_bytes(),
                        envelope.response_data.as_ref().map_or(&[][..], |d| &d.as_bytes()[..])
                    )
                ));
                continue;
            }
            let (env, header_len) = match (envelope.to_bytes(0), header.to_bytes(hv)) {
                (Ok(env), Ok(h)) => (env, h.len()),
                (Err(e), _) | (_, Err(e)) => {
                    fail(format!("kwire cannot encode the envelope: {e}"));
                    continue;
                }
            };
            let mut g = SampleGen::new(0x590d ^ j as u64);
            let forwarded = ForwardedRequest {
                header: RequestHeader {
                    request_api_key: key,
                    request_api_version: version,
                    correlation_id: header.correlation_id,
                    client_id: Some("client-1".into()),
                    ..Default::default()
                },
                body: RequestBody::sample(common::api_key(key), &mut g, version).expect("every api key is compiled"),
            };
            let i = cases.len();
            let bytes = embedded.as_bytes().clone();
            reads.push(Read {
                case: i,
                role: Role::Outer,
                what: format!("{label}: EnvelopeResponse v0"),
                target: env_resp,
                version: 0,
                bytes: env.clone(),
                written: env,
                left: 0,
            });
            reads.push(Read {
                case: i,
                role: Role::EmbeddedHeader,
                what: format!("{label}: the embedded ResponseHeader v{hv}"),
                target: Target::Header(Side::Response),
                version: hv,
                written: bytes.slice(..header_len),
                left: bytes.len() - header_len,
                bytes,
            });
            cases.push(EnvelopeCase {
                label,
                target,
                version,
                embedded: Some(embedded),
                kind: EnvelopeKind::Response { envelope, expected: ForwardOutcome::Response(header, body), forwarded },
            });
        }
        tally.responses += cases.len() - first;
        rows.push(format!(
            "  {} v{version} (ResponseHeader v{hv}) in EnvelopeResponse v0: {} envelopes",
            target.name(),
            cases.len() - first
        ));
    }
    // The controller's refusal: no response data, NOT_CONTROLLER.
    if rel.header_versions(19, 7).is_some() {
        let envelope = envelope_error(ErrorCode::NotController);
        let label = "[envelope] EnvelopeResponse v0, NOT_CONTROLLER without response data".to_string();
        match envelope.to_bytes(0) {
            Ok(env) => {
                let mut g = SampleGen::new(0x590c);
                let forwarded = ForwardedRequest {
                    header: RequestHeader { request_api_key: 19, request_api_version: 7, ..Default::default() },
                    body: RequestBody::sample(ApiKey::CreateTopics, &mut g, 7).expect("every api key is compiled"),
                };
                reads.push(Read {
                    case: cases.len(),
                    role: Role::Outer,
                    what: label.clone(),
                    target: env_resp,
                    version: 0,
                    bytes: env.clone(),
                    written: env,
                    left: 0,
                });
                cases.push(EnvelopeCase {
                    label,
                    target: Target::Api(19, Side::Response),
                    version: 7,
                    embedded: None,
                    kind: EnvelopeKind::Response {
                        envelope,
                        expected: ForwardOutcome::RetryOnNewController,
                        forwarded,
                    },
                });
                tally.responses += 1;
                rows.push("  an error EnvelopeResponse v0 (NOT_CONTROLLER, null response data): 1 envelope".into());
            }
            Err(e) => report.fail(release, rel, env_resp, 0, format!("{label}: kwire cannot encode it: {e}")),
        }
    }

    // Round 1: the envelopes and the embedded headers.
    let answers = ask_reads(release, rel, oracle, &reads, report);
    tally.kafka_reads += reads.len();
    // Per case: Kafka's envelope bytes.
    let mut kafka_envelope: Vec<Option<Bytes>> = vec![None; cases.len()];
    let mut body_reads: Vec<Read> = Vec::new();
    for (read, answer) in reads.iter().zip(&answers) {
        let Some(d) = answer else { continue };
        let case = &cases[read.case];
        let mut fail =
            |text: String| report.fail(release, rel, case.target, case.version, format!("{}: {text}", case.label));
        match read.role {
            Role::Outer if matches!(read.target, Target::Api(58, _)) => {
                kafka_envelope[read.case] = Some(d.bytes.clone())
            }
            Role::Outer | Role::EmbeddedBody => {}
            Role::EmbeddedHeader => {
                let embedded = case.embedded.as_ref().expect("an embedded header read has embedded bytes");
                // The header's values: kwire's embedded decoder against
                // Kafka's JSON form, and where each says the body starts.
                tally.wire_checks += 1;
                let ours = match &case.kind {
                    EnvelopeKind::Request { .. } => embedded
                        .parse_request()
                        .map(|(h, rest)| (request_header_json(&h), rest.len()))
                        .map_err(|e| e.to_string()),
                    EnvelopeKind::Response { .. } => {
                        decode_embedded_response(embedded, api_key_of(case.target), case.version).and_then(|(h, _)| {
                            let len = h.to_bytes(read.version).map_err(|e| e.to_string())?.len();
                            Ok((
                                serde_json::json!({ "correlationId": h.correlation_id }),
                                embedded.as_bytes().len() - len,
                            ))
                        })
                    }
                };
                match (ours, kafka_json(d)) {
                    (Ok((ours, rest)), Ok(theirs)) if ours == theirs && rest == d.left => {}
                    (Ok((ours, rest)), Ok(theirs)) => fail(format!(
                        "the embedded header: kwire reads {ours} with {rest} body bytes after it, Kafka {theirs} \
                         with {} ({})",
                        d.left,
                        short_hex(&read.bytes[..read.bytes.len() - d.left])
                    )),
                    (Err(e), _) => fail(format!("kwire's embedded decoder refuses it: {e}")),
                    (_, Err(e)) => fail(e),
                }
                let rest = read.bytes.slice(read.bytes.len() - d.left..);
                body_reads.push(Read {
                    case: read.case,
                    role: Role::EmbeddedBody,
                    what: format!(
                        "{}: the embedded body, from the {} bytes Kafka's header read left",
                        case.label, d.left
                    ),
                    target: case.target,
                    version: case.version,
                    bytes: rest.clone(),
                    written: rest,
                    left: 0,
                });
            }
        }
    }
    // Round 2: the embedded bodies, from what Kafka's header reads left.
    ask_reads(release, rel, oracle, &body_reads, report);
    tally.kafka_reads += body_reads.len();

    // kwire reads Kafka's envelopes: unwrap, and the typed embedded decoders.
    for (case, theirs) in cases.iter().zip(kafka_envelope) {
        let Some(theirs) = theirs else { continue };
        let mut fail =
            |text: String| report.fail(release, rel, case.target, case.version, format!("{}: {text}", case.label));
        let key = api_key_of(case.target);
        match &case.kind {
            EnvelopeKind::Request { header, body, wrapped, principal, address } => {
                tally.wire_checks += 3;
                let envelope = match EnvelopeRequest::decode_exact(theirs.clone(), 0) {
                    Ok(e) if e == wrapped.envelope => e,
                    Ok(e) => {
                        fail(format!("kwire reads Kafka's envelope {} as {e:?}", short_hex(&theirs)));
                        continue;
                    }
                    Err(e) => {
                        fail(format!("kwire cannot read Kafka's envelope {}: {e}", short_hex(&theirs)));
                        continue;
                    }
                };
                match unwrap_request(&envelope) {
                    Ok(u)
                        if (&u.header, &u.body, &u.principal, &u.client_address)
                            == (header, body, principal, address) => {}
                    Ok(u) => fail(format!(
                        "forward::unwrap_request reads another request:\n      sent {header:?} {body:?}\n      read \
                         {:?} {:?} ({:?}, {})",
                        u.header, u.body, u.principal, u.client_address
                    )),
                    Err(e) => fail(format!("forward::unwrap_request refuses Kafka's envelope: {e}")),
                }
                match decode_embedded_request(&envelope.request_data, key) {
                    Ok((h, b)) if (&h, &b) == (header, body) => {}
                    Ok((h, b)) => fail(format!(
                        "EmbeddedMessage::decode_request reads another request:\n      sent {header:?} {body:?}\n      \
                         read {h:?} {b:?}"
                    )),
                    Err(e) => fail(format!("EmbeddedMessage::decode_request refuses it: {e}")),
                }
            }
            EnvelopeKind::Response { envelope, expected, forwarded } => {
                tally.wire_checks += 2;
                let decoded = match EnvelopeResponse::decode_exact(theirs.clone(), 0) {
                    Ok(e) if e == *envelope => e,
                    Ok(e) => {
                        fail(format!("kwire reads Kafka's envelope {} as {e:?}", short_hex(&theirs)));
                        continue;
                    }
                    Err(e) => {
                        fail(format!("kwire cannot read Kafka's envelope {}: {e}", short_hex(&theirs)));
                        continue;
                    }
                };
                match unwrap_response(&decoded, forwarded) {
                    Ok(outcome) if outcome == *expected => {}
                    Ok(outcome) => fail(format!(
                        "forward::unwrap_response decides otherwise:\n      expected {expected:?}\n      got {outcome:?}"
                    )),
                    Err(e) => fail(format!("forward::unwrap_response refuses Kafka's envelope: {e}")),
                }
                if let (Some(data), ForwardOutcome::Response(header, body)) = (&decoded.response_data, expected) {
                    tally.wire_checks += 1;
                    match decode_embedded_response(data, key, case.version) {
                        Ok((h, b)) if (&h, &b) == (header, body) => {}
                        Ok((h, b)) => fail(format!(
                            "EmbeddedMessage::decode_response reads another response:\n      sent {header:?} \
                             {body:?}\n      read {h:?} {b:?}"
                        )),
                        Err(e) => fail(format!("EmbeddedMessage::decode_response refuses it: {e}")),
                    }
                }
            }
        }
    }
    (rows, tally)
}

fn api_key_of(target: Target) -> i16 {
    match target {
        Target::Api(key, _) => key,
        Target::Header(_) => unreachable!("an embedded api, not a header"),
    }
}

// ---------------------------------------------------------------------------
// ApiVersions v0 fallback bodies.

/// Counts of the fallback checks.
#[derive(Default)]
struct FallbackTally {
    bodies: usize,
    /// (body, requested version) pairs read as response frames by kwire.
    frames: usize,
    kafka_reads: usize,
    wire_checks: usize,
}

/// The ApiVersions v0 fallback: a broker that does not support the
/// ApiVersions version asked for answers with a v0 body, error 35
/// (UNSUPPORTED_VERSION) and its api list, and the client reads it at v0
/// whatever version it sent (Kafka's `ApiVersionsResponse.parse`: read at
/// the version sent, and on failure again at v0). kwire writes such
/// bodies at v0; Kafka reads them at v0 to the same bytes; at every version
/// from 1 both have, Kafka's read must fail (so Kafka falls back too); and
/// kwire's `ResponseFrame::decode` (and `ResponseFrame::decode_into`,
/// `decode_response_frame`) of a response frame to ApiVersions at that
/// version, header (at Kafka's header version) then the v0 body, reads
/// them at v0 to the values Kafka's JSON form shows.
fn api_versions_fallback(
    release: &'static str,
    rel: &Release,
    oracle: &mut Oracle,
    report: &mut Report,
) -> (Vec<String>, FallbackTally) {
    let mut rows = Vec::new();
    let mut tally = FallbackTally::default();
    let target = Target::Api(18, Side::Response);
    let (Some((lo, hi)), true) = (rel.versions(target), target.versions().contains(0)) else {
        rows.push(format!("  left out: Kafka {release} or kwire lacks ApiVersions v0"));
        return (rows, tally);
    };
    if lo > 0 {
        rows.push(format!("  left out: Kafka {release} lacks ApiVersions v0"));
        return (rows, tally);
    }
    let requested: Vec<i16> = (1..=hi.min(target.versions().max)).collect();
    let entry = |api_key: i16, min_version: i16, max_version: i16| av::ApiVersion {
        api_key,
        min_version,
        max_version,
        ..Default::default()
    };
    let bodies: Vec<(String, Vec<av::ApiVersion>)> = vec![
        ("error 35, no api keys".into(), Vec::new()),
        (format!("error 35, ApiVersions {lo}-{hi} (what Kafka {release} answers)"), vec![entry(18, lo, hi)]),
        (
            "error 35, four api keys (one unknown, extreme ranges)".into(),
            vec![entry(0, 3, 12), entry(18, 0, 2), entry(i16::MAX, i16::MIN, -1), entry(-1, 0, i16::MAX)],
        ),
        (
            format!("error 35, every api key of kwire ({})", API_INFO.len()),
            API_INFO.iter().map(|i| entry(i.api_key.code(), i.valid_versions.min, i.valid_versions.max)).collect(),
        ),
    ];
    // (body index, what, version, decode question, whether Kafka must refuse)
    let mut questions: Vec<(usize, String, i16, String, bool)> = Vec::new();
    let mut cases: Vec<(String, ApiVersionsResponse, Bytes)> = Vec::new();
    for (label, api_keys) in bodies {
        let label = format!("[fallback] {label}");
        let body = ApiVersionsResponse { error_code: 35, api_keys, ..Default::default() };
        let bytes = match Value::Response(body.clone().into()).encode(0) {
            Ok(b) => b,
            Err(e) => {
                report.fail(release, rel, target, 0, format!("{label}: kwire cannot write it at v0: {e}"));
                continue;
            }
        };
        let i = cases.len();
        questions.push((
            i,
            format!("{label}: Kafka's read at v0"),
            0,
            format!("decode 18 response 0 {}", hex_word(&bytes)),
            false,
        ));
        for &v in &requested {
            questions.push((
                i,
                format!("{label}: Kafka's read at v{v} (must fail, so that it falls back to v0)"),
                v,
                format!("decode 18 response {v} {}", hex_word(&bytes)),
                true,
            ));
        }
        cases.push((label, body, bytes));
    }
    tally.bodies = cases.len();
    let asked: Vec<String> = questions.iter().map(|(_, _, _, q, _)| q.clone()).collect();
    let answers = oracle.ask_all(&asked);
    tally.kafka_reads += answers.len();
    // Per body: Kafka's JSON form of what it read at v0.
    let mut kafka_values: Vec<Option<serde_json::Value>> = vec![None; cases.len()];
    for ((i, what, version, _, refuse), answer) in questions.iter().zip(&answers) {
        let (_, _, bytes) = &cases[*i];
        let version = *version;
        let mut fail = |text: String| report.fail(release, rel, target, version, format!("{what}: {text}"));
        match (parse_decoded(answer), *refuse) {
            (Err(_), true) => {}
            (Ok(d), true) => fail(format!(
                "Kafka reads the v0 body {} at v{version} ({} left, writes {}), so it would not fall back to v0; \
                 kwire falls back",
                short_hex(bytes),
                d.left,
                short_hex(&d.bytes)
            )),
            (Err(e), false) => fail(format!("Kafka cannot read kwire's v0 body {}: {e}", short_hex(bytes))),
            (Ok(d), false) if d.left != 0 || d.bytes != *bytes || d.size != bytes.len() => fail(format!(
                "Kafka reads the v0 body with {} bytes left, size {}, writing back: {}",
                d.left,
                d.size,
                byte_diff(bytes, &d.bytes)
            )),
            (Ok(d), false) => match kafka_json(&d) {
                Ok(json) => kafka_values[*i] = Some(json),
                Err(e) => fail(e),
            },
        }
    }

    // Response frames: header at Kafka's header version for ApiVersions at
    // the version asked for, then the v0 body.
    let mut header_reads: Vec<Read> = Vec::new();
    for (i, (label, body, bytes)) in cases.iter().enumerate() {
        let Some(theirs) = &kafka_values[i] else { continue };
        for &v in &requested {
            let mut fail =
                |text: String| report.fail(release, rel, target, v, format!("{label}, asked at v{v}: {text}"));
            let Some((_, hv)) = rel.header_versions(18, v) else { continue };
            let header = ResponseHeader { correlation_id: 0x0a00 + i32::from(v), ..Default::default() };
            let frame_bytes = match header.to_bytes(hv) {
                Ok(h) => Bytes::from([&h[..], &bytes[..]].concat()),
                Err(e) => {
                    fail(format!("kwire cannot write the header: {e}"));
                    continue;
                }
            };
            tally.frames += 1;
            tally.wire_checks += 3;
            header_reads.push(Read {
                case: i,
                role: Role::EmbeddedHeader,
                what: format!("{label}, asked at v{v}: Kafka's read of the ResponseHeader v{hv}"),
                target: Target::Header(Side::Response),
                version: hv,
                written: frame_bytes.slice(..frame_bytes.len() - bytes.len()),
                left: bytes.len(),
                bytes: frame_bytes.clone(),
            });
            let expected = frame::ResponseFrame { header, body: ResponseBody::from(body.clone()), version: 0 };
            let ours = match frame::ResponseFrame::decode(frame_bytes.clone(), kwire::api::ApiKey::ApiVersions, v) {
                Ok(f) => f,
                Err(e) => {
                    fail(format!("ResponseFrame::decode refuses {}: {e}", short_hex(&frame_bytes)));
                    continue;
                }
            };
            let ResponseBody::ApiVersions(read_body) = &ours.body else {
                fail(format!("ResponseFrame::decode reads another api: {:?}", ours.body));
                continue;
            };
            let values = serde_json::json!({
                "errorCode": read_body.error_code,
                "apiKeys": read_body.api_keys.iter().map(|k| serde_json::json!({
                    "apiKey": k.api_key, "minVersion": k.min_version, "maxVersion": k.max_version,
                })).collect::<Vec<_>>(),
            });
            if ours != expected || values != *theirs {
                fail(format!(
                    "ResponseFrame::decode reads {} at v{} as {values}; Kafka reads it at v0 as {theirs} \
                     (expected version 0 and the body written)",
                    short_hex(&frame_bytes),
                    ours.version
                ));
            }
            let mut into = frame::ResponseFrame::default();
            match into.decode_into(frame_bytes.clone(), kwire::api::ApiKey::ApiVersions, v) {
                Ok(()) if into == ours => {}
                Ok(()) => fail(format!("ResponseFrame::decode_into reads {into:?}, decode_response {ours:?}")),
                Err(e) => fail(format!("ResponseFrame::decode_into refuses it: {e}")),
            }
            let sized = Bytes::from([&(frame_bytes.len() as i32).to_be_bytes()[..], &frame_bytes[..]].concat());
            match frame::ResponseFrame::decode_sized(sized, kwire::api::ApiKey::ApiVersions, v) {
                Ok(f) if f == ours => {}
                Ok(f) => fail(format!("ResponseFrame::decode_sized reads {f:?}, decode_response {ours:?}")),
                Err(e) => fail(format!("ResponseFrame::decode_sized refuses it: {e}")),
            }
        }
        rows.push(format!(
            "  {label}: {} bytes at v0, read by Kafka at v0 and refused at v{}, read as response frames to v{} \
             requests",
            bytes.len(),
            common::version_ranges(&requested),
            common::version_ranges(&requested)
        ));
    }
    ask_reads(release, rel, oracle, &header_reads, report);
    tally.kafka_reads += header_reads.len();
    (rows, tally)
}

/// One message's row of the table.
struct Row {
    target: Target,
    /// Versions checked.
    checked: Vec<i16>,
    /// Versions left out, by reason.
    skipped: BTreeMap<String, Vec<i16>>,
}

/// Everything for one release, with its own oracle: its report, its rows
/// of the table and its summary lines.
fn run_release(release: &'static str, launcher: &Path) -> (Report, Vec<String>, Vec<String>) {
    let mut report = Report::new();
    let mut table: Vec<String> = Vec::new();
    let mut summary: Vec<String> = Vec::new();
    let started = Instant::now();
    let mut oracle = Oracle::start(launcher);
    let rel = parse_versions(&oracle.ask("versions"));
    let headers = header_versions(release, &rel, &mut report);
    // The flags of the release `schemas/` follows; older releases differ.
    let flags = if release == RELEASES[0] {
        let n = api_flags(release, &rel, &oracle.ask("flags"), &mut report);
        format!("{n} api keys' flags (forwardable, cluster action, delayed allocation) compared with `ApiKeys`; ")
    } else {
        String::new()
    };

    let mut targets = vec![Target::Header(Side::Request), Target::Header(Side::Response)];
    for info in API_INFO {
        targets.push(Target::Api(info.api_key.code(), Side::Request));
        targets.push(Target::Api(info.api_key.code(), Side::Response));
    }
    let mut all = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let (mut pairs, mut left_out) = (0, 0);
    for &target in &targets {
        let ours = target.versions();
        let theirs = rel.versions(target);
        let mut checked = Vec::new();
        let mut skipped: BTreeMap<String, Vec<i16>> = BTreeMap::new();
        for version in ours.min..=ours.max {
            match theirs {
                None if matches!(target, Target::Api(key, _) if rel.apis.contains_key(&key)) => skipped
                    .entry(format!("Kafka {release} has this api key without versions (removed)"))
                    .or_default()
                    .push(version),
                None => skipped.entry(format!("Kafka {release} lacks this api key")).or_default().push(version),
                Some((lo, hi)) if version < lo || version > hi => skipped
                    .entry(format!("Kafka {release} lacks this version (it has {})", VersionRange::new(lo, hi)))
                    .or_default()
                    .push(version),
                Some(_) => {
                    checked.push(version);
                    all.extend(cases(target, version));
                }
            }
        }
        if let Some((lo, hi)) = theirs {
            for version in lo..=hi {
                if !ours.contains(version) {
                    skipped.entry("kwire lacks this version".into()).or_default().push(version);
                }
            }
        }
        pairs += checked.len();
        left_out += skipped.values().map(Vec::len).sum::<usize>();
        rows.push(Row { target, checked, skipped });
    }
    let mut tally = Tally::default();
    let prepared = started.elapsed();
    run_cases(release, &rel, &mut oracle, &all, &mut report, &mut tally);
    let limit_checks = limits(release, &rel, &mut oracle, &mut report);
    let malformed_lines = malformed(release, &rel, &mut oracle, &mut report);
    let malformed_checks = malformed_lines.len();
    let (envelope_rows, envelope) = envelopes(release, &rel, &mut oracle, &mut report);
    let (fallback_rows, fallback) = api_versions_fallback(release, &rel, &mut oracle, &mut report);
    let waiting = oracle.waiting;
    let stderr = oracle.finish();
    let elapsed = started.elapsed();

    // Unstable versions that differ: listed as left out.
    for ((r, target, version), (n, text)) in &report.unstable {
        if *r != release {
            continue;
        }
        if let Some(row) = rows.iter_mut().find(|row| row.target == *target) {
            row.checked.retain(|v| v != version);
            let first: String = text.lines().next().unwrap_or("").chars().take(160).collect();
            row.skipped
                .entry(format!("unstable in Kafka {release}, {n} case(s) differ, e.g. {first}"))
                .or_default()
                .push(*version);
            pairs -= 1;
            left_out += 1;
        }
    }
    table.push(format!("Kafka {release} as the oracle ({SEEDS} samples per version and side, plus edge values):"));
    table.push(format!(
        "{:>4}  {:<36} {:<8} {:<10} {:<12} left out (versions: reason)",
        "key", "message", "ours", release, "checked"
    ));
    for Row { target, checked, skipped } in &rows {
        let key = match target {
            Target::Header(_) => "-".to_string(),
            Target::Api(k, _) => k.to_string(),
        };
        let theirs = rel.versions(*target).map_or_else(
            || "none".to_string(),
            |(lo, hi)| {
                let unstable = if rel.unstable(*target, hi) { " (u)" } else { "" };
                format!("{}{unstable}", VersionRange::new(lo, hi))
            },
        );
        let reasons: Vec<String> =
            skipped.iter().map(|(why, vs)| format!("{}: {why}", common::version_ranges(vs))).collect();
        table.push(format!(
            "{key:>4}  {:<36} {:<8} {:<10} {:<12} {}",
            target.name(),
            target.versions().to_string(),
            theirs,
            common::version_ranges(checked),
            reasons.join("; ")
        ));
    }
    summary.push(format!(
        "Kafka {release}: {pairs} (message, version, side) triples checked, {left_out} left out; {} cases \
         ({} of them edge values) read and written back by Kafka, {} with unknown tagged fields \
         (Kafka kept every one on writing back), {} with records; {} written by Kafka from its JSON form and \
         read by kwire ({} the same bytes and value, {} without the unknown tagged fields and records' \
         bytes that its JSON leaves out, read back by Kafka); {headers} header versions compared; {flags}\
         {limit_checks} length-limit and \
         {malformed_checks} malformed-input checks; {:.1?} in all ({prepared:.1?} preparing the cases, {:.1?} \
         waiting for Kafka's answers){}",
        tally.cases,
        tally.edge_cases,
        tally.unknown_tag_cases,
        tally.records_cases,
        tally.reverse,
        tally.reverse_same_bytes,
        tally.reverse_lossy,
        elapsed,
        waiting,
        // slf4j's note that it has no logger binding is expected.
        match stderr.lines().filter(|l| !l.starts_with("SLF4J:")).collect::<Vec<_>>().join(" / ") {
            rest if rest.trim().is_empty() => String::new(),
            rest => format!("; oracle stderr: {rest}"),
        }
    ));
    summary.push(format!(
        "  KIP-590 differences of schemas/ from Kafka {release}, checked as the same bytes, not left out: \
         RequestHeader v2 tags 0 and 1 (InitialPrincipalName, InitialClientId; unknown tags to Kafka) in {} \
         cases, Envelope's RequestData and ResponseData (ApiMessage here, bytes in Kafka) in {} cases",
        tally.kip590_header_cases, tally.envelope_cases
    ));
    summary.push(format!(
        "  float64 NaN and infinities: Kafka's JSON writes them as strings that its reader refuses, and \
         kwire's refuses them too in {} cases",
        tally.float_strings_refused
    ));
    table.push(format!(
        "Envelope (KIP-590) with embedded header and body, Kafka {release}: {} EnvelopeRequests, {} \
         EnvelopeResponses",
        envelope.requests, envelope.responses
    ));
    table.extend(envelope_rows);
    table.push(format!(
        "ApiVersions v0 fallback bodies (error 35), Kafka {release}: {} bodies, {} response frames",
        fallback.bodies, fallback.frames
    ));
    table.extend(fallback_rows);
    summary.push(format!(
        "  Envelope with embedded header and body, Kafka {release}: {} EnvelopeRequests and {} EnvelopeResponses \
         built by kwire; {} reads by Kafka to the same bytes (envelope, its header v2, the embedded header \
         leaving exactly the body, the body); {} checks of what kwire reads from Kafka's bytes (unwrap, \
         typed embedded decoders, header values against Kafka's JSON)",
        envelope.requests, envelope.responses, envelope.kafka_reads, envelope.wire_checks
    ));
    summary.push(format!(
        "  ApiVersions v0 fallback, Kafka {release}: {} v0 bodies with error 35; {} reads by Kafka (at v0 to the \
         same bytes and values, refused at every later version, the response header leaving exactly the body); \
         {} response frames to later versions read by kwire at v0 ({} checks)",
        fallback.bodies, fallback.kafka_reads, fallback.frames, fallback.wire_checks
    ));
    summary.push(format!("Malformed input, Kafka {release} (each side's verdict):"));
    summary.extend(malformed_lines);
    (report, table, summary)
}

#[test]
fn kafka_and_kwire_agree() {
    let mut launchers = Vec::new();
    for release in RELEASES.iter().map(String::as_str) {
        match common::kafka_oracle(release) {
            Some(path) => launchers.push((release, path)),
            None => return,
        }
    }
    // The releases side by side, one thread and one JVM each.
    let started = Instant::now();
    let results: Vec<(Report, Vec<String>, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> =
            launchers.iter().map(|(release, launcher)| s.spawn(move || run_release(release, launcher))).collect();
        handles.into_iter().map(|h| h.join().expect("a release's run panicked")).collect()
    });
    let mut report = Report::new();
    let mut summary = Vec::new();
    for (r, table, lines) in results {
        report.failures.extend(r.failures);
        for (total, n) in report.excused.iter_mut().zip(r.excused) {
            *total += n;
        }
        for row in &table {
            println!("{row}");
        }
        summary.extend(lines);
    }
    for line in &summary {
        println!("{line}");
    }
    println!("{:.1?} for {} releases run side by side", started.elapsed(), launchers.len());
    println!("Known differences (KNOWN), cases excused:");
    for (known, n) in KNOWN.iter().zip(&report.excused) {
        println!("  {n:>5}  {}", known.reason);
    }

    let stale: Vec<&str> =
        KNOWN.iter().zip(&report.excused).filter(|(_, n)| **n == 0).map(|(k, _)| k.containing).collect();
    let mut grouped: BTreeMap<(&str, Target, i16), Vec<&str>> = BTreeMap::new();
    for f in &report.failures {
        grouped.entry((f.release, f.target, f.version)).or_default().push(&f.text);
    }
    let shown: Vec<String> = grouped
        .iter()
        .map(|((release, target, version), texts)| {
            let first: Vec<&str> = texts.iter().take(SHOWN).copied().collect();
            format!(
                "Kafka {release} {} v{version}: {} case(s)\n    {}",
                target.name(),
                texts.len(),
                first.join("\n    ")
            )
        })
        .collect();
    assert!(
        report.failures.is_empty() && stale.is_empty(),
        "{} differences between Kafka and kwire:\n  {}\nKNOWN entries that excused nothing (remove them): \
         {stale:?}",
        report.failures.len(),
        shown.join("\n  ")
    );
}
