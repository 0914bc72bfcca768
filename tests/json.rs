//! Kafka's JSON form (feature `json`) against Apache Kafka's own generated
//! JSON converters, with the oracle of `interop/tests/oracle.rs`
//! (`interop/scripts/kafka-oracle.sh RELEASE` builds it; `interop/conformance/java/Oracle.java`
//! documents its line protocol).
//!
//! For every (api key or header, version, side) that both the release and
//! kwire have, [`SEEDS`] sampled values (feature `sample`) plus the
//! float64 edge values of [`edge_values`] are encoded by kwire and
//! read by Kafka, which answers with its JSON form (`XxxDataJsonConverter.write`):
//!
//! 1. kwire's `to_json` at the version must equal Kafka's JSON (as
//!    `serde_json::Value`: same keys, same values; numbers compared as
//!    numbers), and its text (`Value::to_string`) Kafka's text: the same
//!    keys in the same order, numbers and strings written alike.
//! 2. kwire's `from_json` of Kafka's JSON must equal the value, except
//!    where Kafka's JSON loses information ([`Loss`]): then kwire's
//!    value read from Kafka's JSON must encode to the bytes that Kafka
//!    writes from that same JSON (`encode` on the oracle); a float64 NaN or
//!    infinity, written as a string, kwire's reader refuses as Kafka's does
//!    (`encode` on the oracle must fail on that JSON too).
//! 3. kwire's own round trip `from_json(to_json(v)) == v` where nothing is lost.
//!
//! Without the oracle the test says `skipped: ...` and passes, except under `CI`.

mod common;

use common::oracle::{hex_word, Oracle};

use std::collections::BTreeMap;
use std::path::Path;

use kwire::api::{api_info, ApiKey, API_INFO};
use kwire::json::{FromJson, JsonOptions, JsonWriter, ToJson, Value as Json};
use kwire::message::{Message, VersionRange};
use kwire::messages::{alter_client_quotas_request as acq, describe_client_quotas_response as dcq};
use kwire::messages::{
    AlterClientQuotasRequest, DescribeClientQuotasResponse, RequestBody, RequestHeader, ResponseBody, ResponseHeader,
};
use kwire::sample::{Sample, SampleGen};
use kwire::{Bytes, BytesMut};

/// The releases whose converters are the oracle.
const RELEASES: &[&str] = &["4.4.0", "3.9.2"];

/// Sampled values per (target, version).
const SEEDS: u64 = 8;

/// Differences excused: (release, message, versions, text the failure
/// contains, reason). Each must excuse at least one case.
type Known = (&'static str, &'static str, (i16, i16), &'static str, &'static str);
const KNOWN: &[Known] = &[
    (
        "3.9.2",
        "TxnOffsetCommitRequest",
        (3, 4),
        "JSON differs",
        "Kafka 3.9.2 names the field GenerationId; schemas/ (and Kafka 4.x) name it GenerationIdOrMemberEpoch: \
         the JSON key is the release's field name, the bytes are the same",
    ),
    (
        "3.9.2",
        "VoteRequest",
        (0, 1),
        "JSON differs",
        "Kafka 3.9.2 names the fields CandidateEpoch, CandidateId, CandidateDirectoryId; schemas/ (Kafka 4.x) \
         ReplicaEpoch, ReplicaId, ReplicaDirectoryId: the JSON key is the release's field name",
    ),
    (
        "3.9.2",
        "ListConfigResourcesResponse",
        (0, 0),
        "JSON differs",
        "Kafka 3.9.2's ListClientMetricsResourcesResponse names its array ClientMetricsResources; schemas/ \
         (Kafka 4.x's ListConfigResources) ConfigResources: the JSON key is the release's field name",
    ),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    RequestHeader,
    ResponseHeader,
    Request(i16),
    Response(i16),
}

impl Target {
    fn words(self) -> String {
        match self {
            Target::RequestHeader => "header request".into(),
            Target::ResponseHeader => "header response".into(),
            Target::Request(k) => format!("{k} request"),
            Target::Response(k) => format!("{k} response"),
        }
    }

    fn name(self) -> String {
        match self {
            Target::RequestHeader => "RequestHeader".into(),
            Target::ResponseHeader => "ResponseHeader".into(),
            Target::Request(k) => api_info(k).expect("known").request_name.into(),
            Target::Response(k) => api_info(k).expect("known").response_name.into(),
        }
    }

    fn versions(self) -> VersionRange {
        match self {
            Target::RequestHeader => RequestHeader::VERSIONS,
            Target::ResponseHeader => ResponseHeader::VERSIONS,
            Target::Request(k) | Target::Response(k) => api_info(k).expect("known").valid_versions,
        }
    }

    fn sample(self, g: &mut SampleGen, version: i16) -> Value {
        match self {
            Target::RequestHeader => Value::RequestHeader(RequestHeader::sample(g, version)),
            Target::ResponseHeader => Value::ResponseHeader(ResponseHeader::sample(g, version)),
            Target::Request(k) => {
                Value::Request(RequestBody::sample(common::api_key(k), g, version).expect("compiled"))
            }
            Target::Response(k) => {
                Value::Response(ResponseBody::sample(common::api_key(k), g, version).expect("compiled"))
            }
        }
    }

    fn read_json(self, json: &Json, version: i16) -> Result<Value, String> {
        let v = match self {
            Target::RequestHeader => RequestHeader::from_json(json, version).map(Value::RequestHeader),
            Target::ResponseHeader => ResponseHeader::from_json(json, version).map(Value::ResponseHeader),
            Target::Request(k) => RequestBody::from_json(common::api_key(k), json, version).map(Value::Request),
            Target::Response(k) => ResponseBody::from_json(common::api_key(k), json, version).map(Value::Response),
        };
        v.map_err(|e| e.to_string())
    }
}

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
        let r = match self {
            Value::Request(v) => v.encode(&mut buf, version),
            Value::Response(v) => v.encode(&mut buf, version),
            Value::RequestHeader(v) => v.encode(&mut buf, version),
            Value::ResponseHeader(v) => v.encode(&mut buf, version),
        };
        r.map(|()| buf.freeze()).map_err(|e| e.to_string())
    }

    /// kwire's JSON form with sensitive fields unredacted, as Kafka's
    /// converters write them (redaction, the default, is kwire's own:
    /// see `redacts_sensitive_fields_by_default` below).
    fn to_json(&self, version: i16) -> Result<Json, String> {
        let unredacted = JsonOptions::unredacted();
        let r = match self {
            Value::Request(v) => v.to_json_with(version, unredacted),
            Value::Response(v) => v.to_json_with(version, unredacted),
            Value::RequestHeader(v) => v.to_json_with(version, unredacted),
            Value::ResponseHeader(v) => v.to_json_with(version, unredacted),
        };
        r.map_err(|e| e.to_string())
    }
}

impl Value {
    /// The text `write_json` streams with `options`, or its error.
    fn streamed(&self, version: i16, options: JsonOptions) -> Result<String, String> {
        let mut text = Vec::new();
        let w = &mut JsonWriter::new(&mut text, options);
        let r = match self {
            Value::Request(v) => v.write_json(w, version),
            Value::Response(v) => v.write_json(w, version),
            Value::RequestHeader(v) => v.write_json(w, version),
            Value::ResponseHeader(v) => v.write_json(w, version),
        };
        r.map_err(|e| e.to_string())?;
        String::from_utf8(text).map_err(|e| e.to_string())
    }

    /// The text of `to_json_with(version, options)`, or its error.
    fn text(&self, version: i16, options: JsonOptions) -> Result<String, String> {
        let r = match self {
            Value::Request(v) => v.to_json_with(version, options),
            Value::Response(v) => v.to_json_with(version, options),
            Value::RequestHeader(v) => v.to_json_with(version, options),
            Value::ResponseHeader(v) => v.to_json_with(version, options),
        };
        r.map(|json| json.to_string()).map_err(|e| e.to_string())
    }
}

/// Every target kwire has, headers first.
fn all_targets() -> Vec<Target> {
    let mut targets = vec![Target::RequestHeader, Target::ResponseHeader];
    for info in API_INFO {
        targets.push(Target::Request(info.api_key.code()));
        targets.push(Target::Response(info.api_key.code()));
    }
    targets
}

/// `write_json` streams the very text of `to_json_with(..).to_string()`
/// for every request, response and header at every version kwire has
/// ([`SEEDS`] samples and the float64 edge values), redacted and not.
#[test]
fn streamed_text_is_the_json_forms_text() {
    let mut cases = 0;
    for target in all_targets() {
        let versions = target.versions();
        for version in versions.min..=versions.max {
            let mut values: Vec<Value> = (0..SEEDS)
                .map(|seed| {
                    let mut g = SampleGen::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (version as u64) << 8);
                    target.sample(&mut g, version)
                })
                .collect();
            values.extend(edge_values(target).into_iter().map(|(_, v)| v));
            for value in &values {
                for options in [JsonOptions::default(), JsonOptions::unredacted()] {
                    let text = value.text(version, options).expect("a sample has its JSON form");
                    assert_eq!(value.streamed(version, options), Ok(text), "{} v{version} {options:?}", target.name());
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 10_000, "{cases} cases");
}

/// A field the version lacks, holding a non-default value: `write_json`
/// refuses it with `to_json`'s very error, nested in an array too.
#[test]
fn streamed_errors_are_the_json_forms() {
    use kwire::messages::create_topics_request::CreatableTopic;
    use kwire::messages::{CreateTopicsRequest, ProduceRequest};
    let produce = ProduceRequest { transactional_id: Some("tx".into()), ..Default::default() };
    let topic = CreatableTopic { name: "t".into(), ..Default::default() };
    let create = CreateTopicsRequest { topics: vec![topic.clone(), topic], validate_only: true, ..Default::default() };
    let values = [(Value::Request(produce.into()), 2), (Value::Request(create.into()), 0)];
    for (value, version) in values {
        let expected = value.text(version, JsonOptions::default()).unwrap_err();
        assert_eq!(value.streamed(version, JsonOptions::default()), Err(expected.clone()), "{expected}");
    }
    let e = Value::Request(ProduceRequest { transactional_id: Some("tx".into()), ..Default::default() }.into())
        .streamed(2, JsonOptions::default())
        .unwrap_err();
    assert_eq!(e, "ProduceRequest v2 at transactionalId: field is not in this version and holds a non-default value");
}

/// A records hook writes each non-null `records` field in place of `""`;
/// a null one stays `null`.
#[test]
fn streamed_records_through_the_hook() {
    use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
    use kwire::messages::ProduceRequest;
    let partition = |index, records| PartitionProduceData { index, records, ..Default::default() };
    let topic = TopicProduceData {
        name: "t".into(),
        partition_data: vec![partition(0, Some(Bytes::from_static(b"abc"))), partition(1, None)],
        ..Default::default()
    };
    let produce = ProduceRequest { acks: -1, topic_data: vec![topic], ..Default::default() };
    let mut text = Vec::new();
    let mut hook = |records: &Bytes, out: &mut Vec<u8>| out.extend_from_slice(format!("{}", records.len()).as_bytes());
    let mut w = JsonWriter::new(&mut text, JsonOptions::default()).with_records(&mut hook);
    produce.write_json(&mut w, 9).expect("writes");
    assert_eq!(
        String::from_utf8(text).unwrap(),
        r#"{"transactionalId":null,"acks":-1,"timeoutMs":0,"topicData":[{"name":"t","partitionData":[{"index":0,"records":3},{"index":1,"records":null}]}]}"#
    );
}

/// What Kafka's JSON form cannot carry, found in a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Loss {
    /// Unknown tagged fields: Kafka's converters leave them out.
    UnknownTags,
    /// RequestHeader v2 tags 0 and 1 (KIP-590 in schemas/): unknown tags to Kafka.
    HeaderTags,
    /// A `records` field with bytes: Kafka's `write(data, version)` writes `""`.
    Records,
    /// NaN or an infinity: Jackson writes the strings "NaN", "Infinity",
    /// "-Infinity", which Kafka's reader refuses, and kwire's.
    FloatString,
}

impl Loss {
    fn reason(self) -> &'static str {
        match self {
            Loss::UnknownTags => "unknown tagged fields: Kafka's JSON converters leave them out",
            Loss::HeaderTags => {
                "RequestHeader v2 tags 0 and 1 (InitialPrincipalName, InitialClientId; KIP-590 in schemas/): \
                 unknown tags to Kafka, left out of its JSON; kwire writes them as fields \
                 initialPrincipalName and initialClientId (compared without them)"
            }
            Loss::Records => "records bytes: Kafka's write(data, version) writes every records field as \"\"",
            Loss::FloatString => {
                "NaN and infinities: written as the strings \"NaN\", \"Infinity\", \"-Infinity\" (both sides), \
                 which both readers refuse"
            }
        }
    }
}

fn losses(value: &Value) -> Vec<Loss> {
    let debug = format!("{value:?}");
    let mut out = Vec::new();
    if debug.contains("RawTaggedField {") {
        out.push(Loss::UnknownTags);
    }
    if matches!(value, Value::RequestHeader(h) if h.initial_principal_name.is_some() || h.initial_client_id.is_some()) {
        out.push(Loss::HeaderTags);
    }
    let records = debug.match_indices("records: ").any(|(i, m)| {
        let rest = &debug[i + m.len()..];
        let rest = rest.strip_prefix("Some(").unwrap_or(rest);
        rest.starts_with("b\"") && !rest.starts_with("b\"\"")
    });
    if records {
        out.push(Loss::Records);
    }
    if debug.contains(": NaN") || debug.contains(": inf") || debug.contains(": -inf") {
        out.push(Loss::FloatString);
    }
    out
}

/// Float64 edge values, on the two messages with float64 fields.
fn edge_values(target: Target) -> Vec<(String, Value)> {
    let floats: [(&str, f64); 9] = [
        ("NaN", f64::NAN),
        ("NaN with payload", f64::from_bits(0x7ff0_0000_0000_0001)),
        ("+inf", f64::INFINITY),
        ("-inf", f64::NEG_INFINITY),
        ("-0.0", -0.0),
        ("smallest subnormal", f64::from_bits(1)),
        ("MAX", f64::MAX),
        ("0.1", 0.1),
        ("1e21", 1e21),
    ];
    let mut out = Vec::new();
    for (label, x) in floats {
        match target {
            Target::Request(49) => {
                let op = acq::OpData { key: "k".into(), value: x, remove: false, ..Default::default() };
                let entry = acq::EntryData { ops: vec![op], ..Default::default() };
                let v = AlterClientQuotasRequest { entries: vec![entry], ..Default::default() };
                out.push((format!("value {label}"), Value::Request(v.into())));
            }
            Target::Response(48) => {
                let value = dcq::ValueData { key: "k".into(), value: x, ..Default::default() };
                let entry = dcq::EntryData { values: vec![value], ..Default::default() };
                let v = DescribeClientQuotasResponse { entries: Some(vec![entry]), ..Default::default() };
                out.push((format!("value {label}"), Value::Response(v.into())));
            }
            _ => {}
        }
    }
    out
}

/// Kafka's JSON from a `decode` answer (`ok HEX SIZE LEFT json JSON`).
fn decoded_json(answer: &str) -> Result<String, String> {
    let words: Vec<&str> = answer.splitn(6, ' ').collect();
    match words.as_slice() {
        ["ok", _, _, "0", "json", json] => Ok(json.to_string()),
        _ => Err(answer.chars().take(300).collect()),
    }
}

/// Kafka's bytes from an `encode` answer (`ok HEX SIZE`).
fn encoded_bytes(answer: &str) -> Result<Bytes, String> {
    match answer.split(' ').collect::<Vec<_>>().as_slice() {
        ["ok", "-", _] => Ok(Bytes::new()),
        ["ok", hex, _] => hex::decode(hex).map(Bytes::from).map_err(|e| e.to_string()),
        _ => Err(answer.chars().take(300).collect()),
    }
}

/// The release's versions of each target, from the `versions` answer.
fn release_versions(answer: &str) -> BTreeMap<Target, (i16, i16, bool)> {
    let range = |t: &str| -> (i16, i16) {
        let (lo, hi) = t.split_once('-').expect("range");
        (lo.parse().expect("lo"), hi.parse().expect("hi"))
    };
    let mut out = BTreeMap::new();
    for token in answer.strip_prefix("ok ").expect("versions").split(' ') {
        let parts: Vec<&str> = token.split(':').collect();
        match parts.as_slice() {
            ["header", "request", r] => drop(out.insert(Target::RequestHeader, (range(r).0, range(r).1, false))),
            ["header", "response", r] => drop(out.insert(Target::ResponseHeader, (range(r).0, range(r).1, false))),
            [key, r, stability, ..] => {
                let key: i16 = key.parse().expect("api key");
                let (lo, hi) = range(r);
                out.insert(Target::Request(key), (lo, hi, *stability == "u"));
                out.insert(Target::Response(key), (lo, hi, *stability == "u"));
            }
            _ => panic!("versions: {token}"),
        }
    }
    out.retain(|_, (lo, hi, _)| lo <= hi);
    out
}

// ---------------------------------------------------------------------------

struct Case {
    target: Target,
    version: i16,
    label: String,
    value: Value,
    bytes: Bytes,
    losses: Vec<Loss>,
}

#[derive(Default)]
struct Outcome {
    failures: Vec<(Target, i16, String)>,
    /// Per target: versions compared and cases.
    rows: BTreeMap<Target, (Vec<i16>, usize)>,
    lossy: BTreeMap<Loss, usize>,
    same_value: usize,
    same_bytes_as_kafka: usize,
    /// Cases whose JSON (a float64 NaN or infinity) both Kafka and kwire
    /// refuse to read.
    refused_like_kafka: usize,
    /// Cases whose text is Kafka's but for how float64 numbers are written.
    float_text: usize,
    cases: usize,
    /// Targets whose highest version the release marks unstable.
    unstable: BTreeMap<Target, i16>,
}

fn run_release(release: &str, launcher: &Path) -> Outcome {
    let mut oracle = Oracle::start(launcher);
    let theirs = release_versions(&oracle.ask_all(&["versions".to_string()])[0]);
    let mut out = Outcome::default();
    let mut cases = Vec::new();
    for target in all_targets() {
        let Some(&(lo, hi, unstable)) = theirs.get(&target) else { continue };
        if unstable {
            out.unstable.insert(target, hi);
        }
        let ours = target.versions();
        for version in lo.max(ours.min)..=hi.min(ours.max) {
            let mut values: Vec<(String, Value)> = (0..SEEDS)
                .map(|seed| {
                    let mut g = SampleGen::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (version as u64) << 8);
                    (format!("seed {seed}"), target.sample(&mut g, version))
                })
                .collect();
            values.extend(edge_values(target).into_iter().map(|(l, v)| (format!("[edge] {l}"), v)));
            let row = out.rows.entry(target).or_default();
            row.0.push(version);
            for (label, value) in values {
                row.1 += 1;
                let bytes = value.encode(version).expect("kwire encodes its samples");
                let losses = losses(&value);
                cases.push(Case { target, version, label, value, bytes, losses });
            }
        }
    }
    out.cases = cases.len();
    let questions: Vec<String> =
        cases.iter().map(|c| format!("decode {} {} {}", c.target.words(), c.version, hex_word(&c.bytes))).collect();
    let answers = oracle.ask_all(&questions);
    // Cases whose value read from Kafka's JSON is checked against Kafka's
    // bytes from the same JSON: (case, Kafka's JSON, kwire's bytes).
    let mut via_kafka: Vec<(usize, String, Bytes)> = Vec::new();
    // Cases whose JSON (a float64 as "NaN", "Infinity" or "-Infinity") kwire
    // refuses to read: Kafka must refuse it too. (case, Kafka's JSON)
    let mut refused: Vec<(usize, String)> = Vec::new();
    for (i, (case, answer)) in cases.iter().zip(&answers).enumerate() {
        let mut fail = |what: String| {
            out.failures.push((
                case.target,
                case.version,
                format!("Kafka {release} {} v{} {}: {what}", case.target.name(), case.version, case.label),
            ))
        };
        let text = match decoded_json(answer) {
            Ok(t) => t,
            Err(e) => {
                fail(format!("Kafka did not read kwire's bytes into JSON: {e}"));
                continue;
            }
        };
        let kafka: Json = serde_json::from_str(&text).expect("Kafka writes JSON");
        // 1. kwire's JSON is Kafka's.
        let mut ours = match case.value.to_json(case.version) {
            Ok(j) => j,
            Err(e) => {
                fail(format!("to_json failed: {e}"));
                continue;
            }
        };
        if case.losses.contains(&Loss::HeaderTags) {
            let object = ours.as_object_mut().expect("an object");
            object.remove("initialPrincipalName");
            object.remove("initialClientId");
        }
        if ours != kafka {
            fail(format!("JSON differs:\n      kwire {ours}\n      Kafka      {kafka}"));
            continue;
        }
        // 1b. And so is its text: keys in Kafka's field order, strings and
        // integers written alike (Jackson's compact form). Only float64
        // numbers may be written otherwise (Jackson writes Java's
        // `Double.toString`, 1.0E-5; serde_json the shortest form, 0.00001):
        // then the text must equal Kafka's as serde_json writes it again,
        // which keeps Kafka's key order and rewrites only numbers.
        let ours_text = ours.to_string();
        if ours_text != text {
            let kafka_again = serde_json::from_str::<Json>(&text).expect("Kafka writes JSON").to_string();
            if !has_float(&kafka) || ours_text != kafka_again {
                fail(format!("JSON text differs:\n      kwire {ours_text}\n      Kafka {text}"));
                continue;
            }
            out.float_text += 1;
        }
        for &loss in &case.losses {
            *out.lossy.entry(loss).or_default() += 1;
        }
        // 2. kwire reads Kafka's JSON, but for NaN and the infinities, which
        // Kafka's reader refuses (checked on the oracle below): refused too.
        if case.losses.contains(&Loss::FloatString) {
            match case.target.read_json(&kafka, case.version) {
                Err(e) if e.to_string().contains("expected a floating point number") => {
                    refused.push((i, text));
                }
                other => fail(format!("from_json of Kafka's JSON with a float64 string gave {other:?}\n      {text}")),
            }
            continue;
        }
        let read = match case.target.read_json(&kafka, case.version) {
            Ok(v) => v,
            Err(e) => {
                fail(format!("from_json of Kafka's JSON failed: {e}\n      {text}"));
                continue;
            }
        };
        if case.losses.is_empty() {
            if read == case.value {
                out.same_value += 1;
            } else {
                fail(format!("from_json of Kafka's JSON is another value:\n      {read:?}\n      {:?}", case.value));
            }
            // 3. kwire's own round trip.
            match ours_round_trip(&case.value, case.version) {
                Ok(()) => {}
                Err(e) => fail(e),
            }
        } else {
            match read.encode(case.version) {
                Ok(b) => via_kafka.push((i, text, b)),
                Err(e) => fail(format!("the value read from Kafka's JSON does not encode: {e}")),
            }
        }
    }
    let questions: Vec<String> = refused
        .iter()
        .map(|(i, json)| format!("encode {} {} {json}", cases[*i].target.words(), cases[*i].version))
        .collect();
    let answers = oracle.ask_all(&questions);
    for ((i, json), answer) in refused.iter().zip(&answers) {
        let case = &cases[*i];
        match encoded_bytes(answer) {
            Err(e) if e.contains("expected a floating point type, but got STRING") => out.refused_like_kafka += 1,
            other => out.failures.push((
                case.target,
                case.version,
                format!(
                    "Kafka {release} {} v{} {}: kwire refuses Kafka's JSON {json}, but Kafka reads it: {other:?}",
                    case.target.name(),
                    case.version,
                    case.label,
                ),
            )),
        }
    }
    let questions: Vec<String> = via_kafka
        .iter()
        .map(|(i, json, _)| format!("encode {} {} {json}", cases[*i].target.words(), cases[*i].version))
        .collect();
    let answers = oracle.ask_all(&questions);
    for ((i, json, ours), answer) in via_kafka.iter().zip(&answers) {
        let case = &cases[*i];
        match encoded_bytes(answer) {
            Ok(theirs) if theirs == *ours => out.same_bytes_as_kafka += 1,
            other => out.failures.push((
                case.target,
                case.version,
                format!(
                    "Kafka {release} {} v{} {}: from Kafka's JSON {json}, kwire's value encodes to {} but Kafka \
                 writes {other:?}",
                    case.target.name(),
                    case.version,
                    case.label,
                    hex_word(ours)
                ),
            )),
        }
    }
    out
}

/// Whether `json` holds a number that is not an integer (a float64 field).
fn has_float(json: &Json) -> bool {
    match json {
        Json::Number(n) => n.is_f64(),
        Json::Array(items) => items.iter().any(has_float),
        Json::Object(fields) => fields.values().any(has_float),
        _ => false,
    }
}

fn ours_round_trip(value: &Value, version: i16) -> Result<(), String> {
    let json = value.to_json(version)?;
    let target = match value {
        Value::Request(b) => Target::Request(b.api_key().code()),
        Value::Response(b) => Target::Response(b.api_key().code()),
        Value::RequestHeader(_) => Target::RequestHeader,
        Value::ResponseHeader(_) => Target::ResponseHeader,
    };
    let back = target.read_json(&json, version)?;
    if back == *value {
        Ok(())
    } else {
        Err(format!("from_json(to_json(v)) != v: {json}"))
    }
}

#[test]
fn kafka_json_form_is_kafkas() {
    let mut failures = Vec::new();
    let mut excused = vec![0usize; KNOWN.len()];
    let mut unstable: BTreeMap<String, usize> = BTreeMap::new();
    for &release in RELEASES {
        let Some(launcher) = common::kafka_oracle(release) else { return };
        let out = run_release(release, &launcher);
        println!(
            "Kafka {release}'s JSON converters as the oracle ({SEEDS} samples per version and side, plus edge values):"
        );
        println!("{:<10} {:<40} {:<12} cases", "target", "message", "versions");
        for (target, (versions, n)) in &out.rows {
            let key = match target {
                Target::Request(k) | Target::Response(k) => k.to_string(),
                _ => "-".into(),
            };
            println!("{key:<10} {:<40} {:<12} {n}", target.name(), common::version_ranges(versions));
        }
        println!(
            "Kafka {release}: {} cases; to_json equal to Kafka's JSON and from_json of Kafka's JSON read; \
             {} read back as the very value (and round-tripped through kwire's own JSON), {} as the bytes \
             Kafka writes from the same JSON, {} (NaN, infinities) refused by both readers",
            out.cases, out.same_value, out.same_bytes_as_kafka, out.refused_like_kafka
        );
        println!(
            "  JSON text equal to Kafka's (keys in Kafka's order) in every case; {} of them write float64 \
             numbers in serde_json's shortest form where Jackson writes Java's Double.toString",
            out.float_text
        );
        println!("  cases where Kafka's JSON loses information:");
        for (loss, n) in &out.lossy {
            println!("  {n:>6}  {}", loss.reason());
        }
        for (target, version, text) in out.failures {
            let known = KNOWN.iter().position(|(r, m, (lo, hi), containing, _)| {
                *r == release && *m == target.name() && (*lo..=*hi).contains(&version) && text.contains(containing)
            });
            if let Some(i) = known {
                excused[i] += 1;
            } else if out.unstable.get(&target) == Some(&version) {
                *unstable
                    .entry(format!("Kafka {release} {} v{version} (unstable there)", target.name()))
                    .or_default() += 1;
            } else {
                failures.push(text);
            }
        }
    }
    println!("Known differences, cases excused:");
    for ((_, _, _, _, reason), n) in KNOWN.iter().zip(&excused) {
        println!("  {n:>5}  {reason}");
    }
    for (what, n) in &unstable {
        println!("  {n:>5}  {what}: a version the release marks unstable; kwire has the newest release's shape");
    }
    let stale: Vec<&str> = KNOWN.iter().zip(&excused).filter(|(_, n)| **n == 0).map(|(k, _)| k.1).collect();
    assert!(stale.is_empty(), "KNOWN entries that excused nothing: {stale:?}");
    let mut grouped: BTreeMap<String, (usize, &String)> = BTreeMap::new();
    for f in &failures {
        let key: String = f.split(':').next().unwrap_or("").rsplitn(3, ' ').nth(2).unwrap_or("").into();
        grouped.entry(key).or_insert((0, f)).0 += 1;
    }
    let shown: Vec<String> = grouped.iter().map(|(k, (n, first))| format!("{k}: {n} case(s), e.g. {first}")).collect();
    assert!(failures.is_empty(), "{} differences from Kafka's JSON form:\n{shown:#?}", failures.len());
}

/// Errors name the message, version and JSON path.
#[test]
fn errors_name_message_version_and_path() {
    use kwire::messages::CreateTopicsRequest;
    let json: Json = serde_json::json!({
        "topics": [{"name": "t", "numPartitions": "3", "replicationFactor": 1, "assignments": [], "configs": []}],
        "timeoutMs": 1, "validateOnly": false
    });
    let e = CreateTopicsRequest::from_json(&json, 7).unwrap_err();
    assert_eq!(e.to_string(), "CreateTopicsRequest v7 at topics[0].numPartitions: expected an integer");
    let e = CreateTopicsRequest::from_json(&serde_json::json!({"topics": []}), 7).unwrap_err();
    assert_eq!(e.to_string(), "CreateTopicsRequest v7 at timeoutMs: missing, and mandatory at this version");
}

/// kwire's default JSON form differs from Kafka's in one deliberate
/// way: sensitive fields are redacted (`JsonOptions::unredacted` gives
/// Kafka's form, which the oracle comparison above uses).
#[test]
fn redacts_sensitive_fields_by_default() {
    use kwire::messages::SaslAuthenticateResponse;
    let response =
        SaslAuthenticateResponse { auth_bytes: Bytes::from_static(b"v=server-signature"), ..Default::default() };
    let body = ResponseBody::SaslAuthenticate(response);
    let redacted = body.to_json(2).expect("json");
    assert_eq!(redacted["authBytes"], "<redacted 18 bytes>");
    let kafkas = body.to_json_with(2, JsonOptions::unredacted()).expect("json");
    assert_eq!(kafkas["authBytes"], "dj1zZXJ2ZXItc2lnbmF0dXJl");
    assert_eq!(ResponseBody::from_json(ApiKey::SaslAuthenticate, &kafkas, 2).expect("reads"), body);
}
