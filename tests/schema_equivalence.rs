//! Our schemas (`schemas/*.json`) must say on the wire exactly what Apache
//! Kafka's schemas of the same name say. They carry our own `about` texts and
//! comments, so the files differ as text; this test compares them fact by
//! fact:
//!
//! * top level: `name`, `type`, `apiKey`, `validVersions`,
//!   `flexibleVersions`, `deprecatedVersions`, `listeners`,
//!   `latestVersionUnstable`;
//! * every field, recursively through `fields` and `commonStructs`, in order:
//!   `name`, `type`, `versions`, `nullableVersions`, `taggedVersions`, `tag`,
//!   `default`, `ignorable`, `mapKey`, `entityType`, `flexibleVersions`,
//!   `zeroCopy`; common structs by `name`, `versions`, `deprecatedVersions`;
//! * any other key (one Kafka would reject) is compared as raw JSON, so it
//!   cannot slip in unnoticed. `about` and comments are ignored.
//!
//! Values are first normalised the way Kafka's parser reads them: a number or
//! bool where text is expected is its text (`"default": -1` is `"-1"`), a
//! numeric string where an integer is expected is that integer
//! (`"tag": "0"` is `0`), missing booleans are false, JSON `null` is the same
//! as an absent key, version ranges are compared as ranges (`"0-32767"` is
//! `"0+"`) and absent or empty version strings take their defaults (a
//! field's `versions` defaults to its `taggedVersions`).
//!
//! The only accepted differences are listed in [`ALLOWED`] (KIP-590). They
//! must be present: a listed difference that is not found fails the test.
//!
//! Kafka's schemas are found in `kafka-messages/` under the shared directory
//! (see `common::shared_dir`); without it the corpus tests are skipped,
//! except in CI.

mod common;

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

// ---------------------------------------------------------------------------
// The allow-list.
// ---------------------------------------------------------------------------

/// One deliberate difference between our schemas and Kafka's.
#[derive(Debug)]
enum Allowed {
    /// A field present only in our file, at `path` (which fixes its
    /// position), whose normalised keys must be exactly `keys`.
    Added {
        file: &'static str,
        path: &'static str,
        keys: &'static [(&'static str, Option<&'static str>)],
        why: &'static str,
    },
    /// One key of one field has another (normalised) value in our file.
    Changed {
        file: &'static str,
        path: &'static str,
        key: &'static str,
        ours: Option<&'static str>,
        kafka: Option<&'static str>,
        why: &'static str,
    },
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Added { file, path, why, .. } => {
                write!(f, "{file}: {path}: added field ({why})")
            }
            Allowed::Changed { file, path, key, ours, kafka, why } => write!(
                f,
                "{file}: {path}.{key}: ours {} vs Kafka {} ({why})",
                show(ours.map(str::to_string).as_ref()),
                show(kafka.map(str::to_string).as_ref())
            ),
        }
    }
}

/// The normalised keys of a KIP-590 tagged string field of RequestHeader v2+.
macro_rules! kip590_header_field {
    ($name:literal, $tag:literal) => {
        &[
            ("name", Some($name)),
            ("type", Some("string")),
            ("versions", Some("2+")),
            ("nullableVersions", Some("2+")),
            ("taggedVersions", Some("2+")),
            ("tag", Some($tag)),
            ("default", Some("null")),
            ("ignorable", Some("true")),
            ("mapKey", Some("false")),
            ("entityType", Some("unknown")),
            ("flexibleVersions", None),
            ("zeroCopy", Some("false")),
        ]
    };
}

/// Every accepted difference from Kafka's schemas, and nothing else.
const ALLOWED: &[Allowed] = &[
    Allowed::Added {
        file: "RequestHeader.json",
        path: "fields[4] (InitialPrincipalName)",
        keys: kip590_header_field!("InitialPrincipalName", "0"),
        why: "KIP-590: principal of the client a forwarding broker acts for",
    },
    Allowed::Added {
        file: "RequestHeader.json",
        path: "fields[5] (InitialClientId)",
        keys: kip590_header_field!("InitialClientId", "1"),
        why: "KIP-590: client ID of the client a forwarding broker acts for",
    },
    Allowed::Changed {
        file: "EnvelopeRequest.json",
        path: "fields[0] (RequestData)",
        key: "type",
        ours: Some("ApiMessage"),
        kafka: Some("bytes"),
        why: "KIP-590: the forwarded request is typed as an embedded message",
    },
    Allowed::Changed {
        file: "EnvelopeRequest.json",
        path: "fields[0] (RequestData)",
        key: "zeroCopy",
        ours: Some("false"),
        kafka: Some("true"),
        why: "zeroCopy is only legal on bytes",
    },
    Allowed::Changed {
        file: "EnvelopeResponse.json",
        path: "fields[0] (ResponseData)",
        key: "type",
        ours: Some("ApiMessage"),
        kafka: Some("bytes"),
        why: "KIP-590: the forwarded response is typed as an embedded message",
    },
    Allowed::Changed {
        file: "EnvelopeResponse.json",
        path: "fields[0] (ResponseData)",
        key: "zeroCopy",
        ours: Some("false"),
        kafka: Some("true"),
        why: "zeroCopy is only legal on bytes",
    },
];

/// Our schemas that have no counterpart in Kafka's corpus because they exist
/// only for KIP-590. None at present.
const KIP590_ONLY: &[&str] = &[];

/// Our schemas of the Connect worker group protocol (KIP-415, KIP-507):
/// Kafka Connect writes these blobs by hand, so Kafka's corpus has no
/// schema for them.
const CONNECT_ONLY: &[&str] = &["ConnectAssignment.json", "ConnectWorkerMetadata.json"];

// ---------------------------------------------------------------------------
// Normalisation: a schema object reduced to its facts, as canonical text.
// ---------------------------------------------------------------------------

/// Which kind of object a [`Node`] is; each has its own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Top,
    Field,
    CommonStruct,
}

impl Level {
    /// The compared keys, in display order. `fields`, `commonStructs` and
    /// `about` are handled apart.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Level::Top => &[
                "name",
                "type",
                "apiKey",
                "validVersions",
                "flexibleVersions",
                "deprecatedVersions",
                "listeners",
                "latestVersionUnstable",
            ],
            Level::Field => &[
                "name",
                "type",
                "versions",
                "nullableVersions",
                "taggedVersions",
                "tag",
                "default",
                "ignorable",
                "mapKey",
                "entityType",
                "flexibleVersions",
                "zeroCopy",
            ],
            Level::CommonStruct => &["name", "versions", "deprecatedVersions"],
        }
    }
}

/// A normalised schema object: known keys with canonical values (`None` =
/// absent), unknown keys as raw JSON, and child lists (`fields`,
/// `commonStructs`).
#[derive(Debug, Clone)]
struct Node {
    name: String,
    keys: BTreeMap<String, Option<String>>,
    fields: Vec<Node>,
    common_structs: Vec<Node>,
}

fn normalise(value: &Value, level: Level) -> Node {
    let empty = Map::new();
    let obj = value.as_object().unwrap_or(&empty);
    let mut keys = BTreeMap::new();
    if !value.is_object() {
        keys.insert("(not an object)".to_string(), Some(value.to_string()));
    }
    for &key in level.keys() {
        keys.insert(key.to_string(), normalise_key(obj, key, level));
    }
    for (key, raw) in obj {
        let known = level.keys().contains(&key.as_str())
            || matches!(key.as_str(), "about" | "fields")
            || (level == Level::Top && key == "commonStructs");
        if !known && !raw.is_null() {
            keys.insert(key.clone(), Some(raw.to_string()));
        }
    }
    let list = |key: &str, level: Level| -> Vec<Node> {
        match obj.get(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items.iter().map(|v| normalise(v, level)).collect(),
            // Kafka's parser accepts a single value where a list is expected.
            Some(one) => vec![normalise(one, level)],
        }
    };
    Node {
        name: keys["name"].clone().unwrap_or_default(),
        fields: list("fields", Level::Field),
        common_structs: if level == Level::Top { list("commonStructs", Level::CommonStruct) } else { Vec::new() },
        keys,
    }
}

fn normalise_key(obj: &Map<String, Value>, key: &str, level: Level) -> Option<String> {
    let raw = obj.get(key).filter(|v| !v.is_null());
    match (key, level) {
        ("name", _) => text(raw),
        ("type", _) => text(raw).map(|t| t.trim().to_string()),
        ("apiKey" | "tag", _) => integer(raw),
        ("ignorable" | "mapKey" | "zeroCopy" | "latestVersionUnstable", _) => Some(boolean(raw)),
        ("entityType", _) => Some(text(raw).unwrap_or_else(|| "unknown".into())),
        ("listeners", _) => Some(listeners(raw)),
        ("default", _) => text(raw).filter(|t| !t.is_empty()),
        // Required, no default.
        ("validVersions", _) | ("versions", Level::CommonStruct) => versions(raw),
        // Required; "" means none.
        ("flexibleVersions", Level::Top) => raw.map(|_| versions(raw).unwrap_or_else(|| "none".into())),
        // A field's override: absent or "" means no override.
        ("flexibleVersions", _) => versions(raw),
        ("deprecatedVersions" | "nullableVersions" | "taggedVersions", _) => {
            Some(versions(raw).unwrap_or_else(|| "none".into()))
        }
        // A field's versions default to its taggedVersions.
        ("versions", _) => versions(raw).or_else(|| versions(obj.get("taggedVersions").filter(|v| !v.is_null()))),
        _ => unreachable!("no normalisation for key {key}"),
    }
}

/// A text-typed key: numbers and booleans count as their text.
fn text(raw: Option<&Value>) -> Option<String> {
    match raw? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        other => Some(format!("invalid {other}")),
    }
}

/// An integer-typed key: numeric strings count as their number, fractions
/// are truncated.
fn integer(raw: Option<&Value>) -> Option<String> {
    let invalid = |v: &Value| Some(format!("invalid {v}"));
    match raw? {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Some(i.to_string()),
            (None, Some(f)) => Some((f.trunc() as i64).to_string()),
            _ => invalid(raw?),
        },
        Value::String(s) => match s.trim().parse::<i64>() {
            Ok(i) => Some(i.to_string()),
            Err(_) => invalid(raw?),
        },
        other => invalid(other),
    }
}

/// A boolean key: absent is false; "true"/"True"/"TRUE" and the false
/// spellings count as booleans.
fn boolean(raw: Option<&Value>) -> String {
    match raw {
        None => "false".into(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::String(s)) if matches!(s.as_str(), "true" | "True" | "TRUE") => "true".into(),
        Some(Value::String(s)) if matches!(s.as_str(), "false" | "False" | "FALSE") => "false".into(),
        Some(other) => format!("invalid {other}"),
    }
}

/// `listeners`: a list or a single string; order carries no meaning.
fn listeners(raw: Option<&Value>) -> String {
    let mut items: Vec<String> = match raw {
        None => Vec::new(),
        Some(Value::Array(items)) => items.iter().map(|v| text(Some(v)).unwrap_or_default()).collect(),
        Some(one) => vec![text(Some(one)).unwrap_or_default()],
    };
    items.sort();
    format!("[{}]", items.join(", "))
}

/// A version-range key in canonical form (`none`, `N`, `A-B`, `A+`), or
/// `None` when absent or blank.
fn versions(raw: Option<&Value>) -> Option<String> {
    let t = text(raw)?;
    let t = t.trim();
    if t.is_empty() {
        return None;
    }
    if t == "none" {
        return Some("none".into());
    }
    let num = |s: &str| s.parse::<i16>().ok().filter(|n| *n >= 0);
    let (lo, hi) = if let Some(lo) = t.strip_suffix('+') {
        (num(lo), Some(i16::MAX))
    } else if let Some((lo, hi)) = t.split_once('-') {
        (num(lo), num(hi))
    } else {
        (num(t), num(t))
    };
    Some(match (lo, hi) {
        (Some(lo), Some(i16::MAX)) => format!("{lo}+"),
        (Some(lo), Some(hi)) if lo == hi => format!("{lo}"),
        (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
        _ => format!("invalid {t:?}"),
    })
}

// ---------------------------------------------------------------------------
// Comparison.
// ---------------------------------------------------------------------------

/// One difference between our file and Kafka's.
#[derive(Debug)]
struct Diff {
    /// JSON path of the object, e.g. `fields[0].fields[3] (Configs)`; empty
    /// for the top level. Indices are ours, except for `OnlyKafka`.
    path: String,
    what: What,
}

#[derive(Debug)]
enum What {
    Key { key: String, ours: Option<String>, kafka: Option<String> },
    OnlyOurs(Node),
    OnlyKafka,
}

fn show(value: Option<&String>) -> String {
    value.map_or_else(|| "absent".to_string(), |v| format!("{v:?}"))
}

impl fmt::Display for Diff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.what {
            What::Key { key, ours, kafka } => {
                let sep = if self.path.is_empty() { "" } else { "." };
                write!(f, "{}{sep}{key}: ours {} vs Kafka {}", self.path, show(ours.as_ref()), show(kafka.as_ref()))
            }
            What::OnlyOurs(_) => write!(f, "{}: only in ours, not in Kafka's file", self.path),
            What::OnlyKafka => write!(f, "{}: in Kafka's file (at this index there), missing from ours", self.path),
        }
    }
}

fn child_path(parent: &str, list: &str, index: usize, name: &str) -> (String, String) {
    let bare = if parent.is_empty() { format!("{list}[{index}]") } else { format!("{parent}.{list}[{index}]") };
    let shown = format!("{bare} ({name})");
    (bare, shown)
}

/// Compares two normalised objects. `bare` is the path without the name
/// annotation (used for children), `shown` the path reported for keys.
fn diff_node(ours: &Node, kafka: &Node, bare: &str, shown: &str, out: &mut Vec<Diff>) {
    let mut keys: Vec<&String> = ours.keys.keys().chain(kafka.keys.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let (o, k) = (ours.keys.get(key).cloned().flatten(), kafka.keys.get(key).cloned().flatten());
        if o != k {
            out.push(Diff { path: shown.to_string(), what: What::Key { key: key.clone(), ours: o, kafka: k } });
        }
    }
    diff_list(&ours.common_structs, &kafka.common_structs, bare, "commonStructs", out);
    diff_list(&ours.fields, &kafka.fields, bare, "fields", out);
}

/// Compares two ordered lists, pairing entries by name along their longest
/// common subsequence so that an added or removed entry does not shift the
/// comparison of the others.
fn diff_list(ours: &[Node], kafka: &[Node], bare: &str, list: &str, out: &mut Vec<Diff>) {
    let (n, m) = (ours.len(), kafka.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] =
                if ours[i].name == kafka[j].name { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && ours[i].name == kafka[j].name {
            let (b, s) = child_path(bare, list, i, &ours[i].name);
            diff_node(&ours[i], &kafka[j], &b, &s, out);
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let (_, s) = child_path(bare, list, i, &ours[i].name);
            out.push(Diff { path: s, what: What::OnlyOurs(ours[i].clone()) });
            i += 1;
        } else {
            let (_, s) = child_path(bare, list, j, &kafka[j].name);
            out.push(Diff { path: s, what: What::OnlyKafka });
            j += 1;
        }
    }
}

/// Whether `diff` in `file` is allow-listed: the index into [`ALLOWED`].
fn allowance(file: &str, diff: &Diff) -> Option<usize> {
    ALLOWED.iter().position(|a| match (a, &diff.what) {
        (Allowed::Added { file: f, path, .. }, What::OnlyOurs(_)) => *f == file && *path == diff.path,
        (Allowed::Changed { file: f, path, key: k, ours: o, kafka: kf, .. }, What::Key { key, ours, kafka }) => {
            *f == file
                && *path == diff.path
                && *k == key.as_str()
                && o.map(str::to_string) == *ours
                && kf.map(str::to_string) == *kafka
        }
        _ => false,
    })
}

/// Checks an allow-listed added field against its expected keys.
fn check_added(file: &str, allowed: &Allowed, node: &Node, failures: &mut Vec<String>) {
    let Allowed::Added { path, keys, .. } = allowed else {
        return;
    };
    let expected: BTreeMap<String, Option<String>> =
        keys.iter().map(|(k, v)| (k.to_string(), v.map(str::to_string))).collect();
    let mut all: Vec<&String> = node.keys.keys().chain(expected.keys()).collect();
    all.sort();
    all.dedup();
    for key in all {
        let (o, e) = (node.keys.get(key).cloned().flatten(), expected.get(key).cloned().flatten());
        if o != e {
            failures.push(format!(
                "{file}: {path}.{key}: ours {} vs allow-list {}",
                show(o.as_ref()),
                show(e.as_ref())
            ));
        }
    }
    if !node.fields.is_empty() {
        failures.push(format!("{file}: {path}: the added field must not have sub-fields"));
    }
}

/// The outcome of comparing a set of our schemas with Kafka's.
#[derive(Debug, Default)]
struct Report {
    /// Files compared with their Kafka counterpart.
    compared: Vec<String>,
    /// Our files that have no Kafka counterpart.
    ours_only: Vec<String>,
    /// Every unexplained difference, one line each.
    failures: Vec<String>,
}

/// Compares our schema texts (file name to text) with Kafka's, found by
/// `kafka(file)`, and applies the allow-list.
fn compare(ours: &BTreeMap<String, String>, kafka: impl Fn(&str) -> Option<String>) -> Report {
    let mut report = Report::default();
    let mut used = vec![false; ALLOWED.len()];
    for (file, our_text) in ours {
        let Some(kafka_text) = kafka(file) else {
            report.ours_only.push(file.clone());
            continue;
        };
        let parsed = (kafka_wire_codegen::load::parse(our_text), kafka_wire_codegen::load::parse(&kafka_text));
        let (our_value, kafka_value) = match parsed {
            (Ok(o), Ok(k)) => (o, k),
            (Err(e), _) => {
                report.failures.push(format!("{file}: ours does not parse: {e}"));
                continue;
            }
            (_, Err(e)) => {
                report.failures.push(format!("{file}: Kafka's does not parse: {e}"));
                continue;
            }
        };
        report.compared.push(file.clone());
        let mut diffs = Vec::new();
        diff_node(&normalise(&our_value, Level::Top), &normalise(&kafka_value, Level::Top), "", "", &mut diffs);
        for diff in diffs {
            match allowance(file, &diff) {
                Some(index) => {
                    used[index] = true;
                    if let What::OnlyOurs(node) = &diff.what {
                        check_added(file, &ALLOWED[index], node, &mut report.failures);
                    }
                }
                None => report.failures.push(format!("{file}: {diff}")),
            }
        }
    }
    for (allowed, used) in ALLOWED.iter().zip(used) {
        if !used {
            report.failures.push(format!("allow-listed difference not found: {allowed}"));
        }
    }
    for file in &report.ours_only {
        if !KIP590_ONLY.contains(&file.as_str()) && !CONNECT_ONLY.contains(&file.as_str()) {
            report.failures.push(format!(
                "{file}: no schema of that name in Kafka's corpus (a KIP-590-only schema must be listed in KIP590_ONLY)"
            ));
        }
    }
    for file in KIP590_ONLY {
        if !report.ours_only.iter().any(|f| f == file) {
            report.failures.push(format!("{file}: listed in KIP590_ONLY but not a KIP-590-only schema of ours"));
        }
    }
    for file in CONNECT_ONLY {
        if !report.ours_only.iter().any(|f| f == file) {
            report.failures.push(format!("{file}: listed in CONNECT_ONLY but not a Connect-only schema of ours"));
        }
    }
    report
}

// ---------------------------------------------------------------------------
// Files.
// ---------------------------------------------------------------------------

fn our_schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

/// Every `*.json` in `dir`, file name to text.
fn read_schemas(dir: &Path) -> BTreeMap<String, String> {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut out = BTreeMap::new();
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.insert(path.file_name().unwrap().to_string_lossy().into_owned(), text);
        }
    }
    out
}

/// Kafka's schema directory, or `None` (test skipped) when absent.
fn kafka_corpus(what: &str) -> Option<PathBuf> {
    let corpus = common::shared_dir(what)?.join("kafka-messages");
    assert!(corpus.is_dir(), "{} is missing although the shared directory exists", corpus.display());
    Some(corpus)
}

fn corpus_reader(corpus: PathBuf) -> impl Fn(&str) -> Option<String> {
    move |file| fs::read_to_string(corpus.join(file)).ok()
}

// ---------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------

#[test]
fn our_schemas_match_kafkas_apart_from_the_allow_list() {
    let Some(corpus) = kafka_corpus("schema_equivalence") else {
        return;
    };
    let ours = read_schemas(&our_schema_dir());
    let report = compare(&ours, corpus_reader(corpus));
    eprintln!("compared {} schemas with Kafka's: {}", report.compared.len(), report.compared.join(", "));
    eprintln!(
        "project-only schemas (no Kafka counterpart): {}",
        if report.ours_only.is_empty() { "none".to_string() } else { report.ours_only.join(", ") }
    );
    eprintln!("allowed differences:");
    for allowed in ALLOWED {
        eprintln!("  {allowed}");
    }
    assert!(!report.compared.is_empty(), "no schema in {} was compared", our_schema_dir().display());
    assert!(
        report.failures.is_empty(),
        "{} difference(s) from Kafka's schemas:\n{}",
        report.failures.len(),
        report.failures.join("\n")
    );
}

/// Runs the comparison on our real files after `edit` changes one of them.
fn failures_after(file: &str, edit: impl FnOnce(&mut Value)) -> Option<Vec<String>> {
    let corpus = kafka_corpus("schema_equivalence (mutation check)")?;
    let mut ours = read_schemas(&our_schema_dir());
    let text = ours.get_mut(file).unwrap_or_else(|| panic!("schemas/{file} is missing"));
    let mut value = kafka_wire_codegen::load::parse(text).expect("our schema parses");
    edit(&mut value);
    *text = serde_json::to_string_pretty(&value).unwrap();
    Some(compare(&ours, corpus_reader(corpus)).failures)
}

#[test]
fn a_changed_version_in_our_file_fails() {
    let Some(failures) = failures_after("CreateTopicsRequest.json", |v| {
        v["fields"][0]["fields"][4]["versions"] = "1+".into();
    }) else {
        return;
    };
    assert_eq!(
        failures,
        [r#"CreateTopicsRequest.json: fields[0].fields[4] (Configs).versions: ours "1+" vs Kafka "0+""#]
    );
}

#[test]
fn removing_a_kip590_header_field_fails() {
    let Some(failures) = failures_after("RequestHeader.json", |v| {
        v["fields"].as_array_mut().unwrap().retain(|f| f["name"] != "InitialClientId");
    }) else {
        return;
    };
    assert_eq!(failures.len(), 1, "{failures:#?}");
    assert!(
        failures[0].starts_with("allow-listed difference not found: RequestHeader.json: fields[5] (InitialClientId)"),
        "{failures:#?}"
    );
}

#[test]
fn a_wrong_kip590_header_field_fails() {
    let Some(failures) = failures_after("RequestHeader.json", |v| {
        v["fields"][4]["tag"] = 2.into();
        v["fields"][5]["nullableVersions"] = Value::Null;
    }) else {
        return;
    };
    assert_eq!(
        failures,
        [
            r#"RequestHeader.json: fields[4] (InitialPrincipalName).tag: ours "2" vs allow-list "0""#,
            r#"RequestHeader.json: fields[5] (InitialClientId).nullableVersions: ours "none" vs allow-list "2+""#,
        ]
    );
}

#[test]
fn reverting_the_envelope_type_fails() {
    let Some(failures) = failures_after("EnvelopeResponse.json", |v| {
        v["fields"][0]["type"] = "bytes".into();
        v["fields"][0]["zeroCopy"] = true.into();
    }) else {
        return;
    };
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures
        .iter()
        .all(|f| f.starts_with("allow-listed difference not found: EnvelopeResponse.json: fields[0] (ResponseData)")));
}

#[test]
fn an_extra_or_missing_field_fails() {
    let Some(failures) = failures_after("MetadataResponse.json", |v| {
        let fields = v["fields"].as_array_mut().unwrap();
        let removed = fields.remove(1); // Brokers
        fields.push(removed);
        v["fields"][0]["unknownKey"] = 1.into();
    }) else {
        return;
    };
    assert_eq!(
        failures,
        [
            r#"MetadataResponse.json: fields[0] (ThrottleTimeMs).unknownKey: ours "1" vs Kafka absent"#,
            "MetadataResponse.json: fields[1] (Brokers): in Kafka's file (at this index there), missing from ours",
            "MetadataResponse.json: fields[5] (Brokers): only in ours, not in Kafka's file",
        ]
    );
}

#[test]
fn a_schema_without_kafka_counterpart_is_reported() {
    let Some(corpus) = kafka_corpus("schema_equivalence (counterpart check)") else {
        return;
    };
    let mut ours = read_schemas(&our_schema_dir());
    ours.insert("ForwardedThingRequest.json".into(), "{}".into());
    let report = compare(&ours, corpus_reader(corpus));
    let not_connect: Vec<&String> = report.ours_only.iter().filter(|f| !CONNECT_ONLY.contains(&f.as_str())).collect();
    assert_eq!(not_connect, ["ForwardedThingRequest.json"]);
    assert_eq!(
        report.failures,
        ["ForwardedThingRequest.json: no schema of that name in Kafka's corpus (a KIP-590-only schema must be listed in KIP590_ONLY)"]
    );
}

// Corpus-free checks of the comparison itself.

/// Differences between two inline schemas, allow-list not applied.
fn diffs(ours: &str, kafka: &str) -> Vec<String> {
    let parse = |t: &str| normalise(&kafka_wire_codegen::load::parse(t).unwrap(), Level::Top);
    let mut out = Vec::new();
    diff_node(&parse(ours), &parse(kafka), "", "", &mut out);
    out.iter().map(ToString::to_string).collect()
}

#[test]
fn kafkas_scalar_coercions_compare_equal() {
    let kafka = r#"// comment
    { "name": "X", "type": "request", "apiKey": "7", "validVersions": 2, "flexibleVersions": "",
      "listeners": "broker", "latestVersionUnstable": "false",
      "fields": { "name": "A", "type": " int8 ", "versions": "0-32767", "default": -1, "tag": "0",
                  "taggedVersions": "1+", "ignorable": "TRUE", "mapKey": null, "about": "theirs" } }"#;
    let ours = r#"{ "name": "X", "type": "request", "apiKey": 7, "validVersions": "2-2", "flexibleVersions": "none",
      "listeners": ["broker"], "deprecatedVersions": "",
      "fields": [ { "name": "A", "type": "int8", "versions": "0+", "default": "-1", "tag": 0.0,
                    "taggedVersions": "1+", "ignorable": true, "nullableVersions": "none",
                    "entityType": "unknown", "flexibleVersions": "", "zeroCopy": false, "about": "ours" } ] }"#;
    assert_eq!(diffs(ours, kafka), Vec::<String>::new());
}

#[test]
fn versions_default_to_tagged_versions() {
    let kafka = r#"{ "name": "X", "fields": [ { "name": "A", "type": "string", "versions": "2+", "taggedVersions": "2+", "tag": 0 } ] }"#;
    let ours = r#"{ "name": "X", "fields": [ { "name": "A", "type": "string", "taggedVersions": "2+", "tag": 0 } ] }"#;
    assert_eq!(diffs(ours, kafka), Vec::<String>::new());
}

#[test]
fn differences_name_file_path_and_key() {
    let kafka = r#"{ "name": "CreateTopicsRequest", "fields": [ { "name": "Topics", "type": "[]T", "versions": "0+", "fields": [
        { "name": "A", "type": "int8", "versions": "0+" }, { "name": "B", "type": "int8", "versions": "0+" },
        { "name": "C", "type": "int8", "versions": "0+" },
        { "name": "Configs", "type": "[]C", "versions": "1+", "fields": [ { "name": "V", "type": "string", "versions": "0+", "default": false } ] } ] } ] }"#;
    let ours = kafka.replace(r#""versions": "1+""#, r#""versions": "0+""#).replace("false", r#""true""#);
    let mut ours_files = BTreeMap::new();
    ours_files.insert("CreateTopicsRequest.json".to_string(), ours);
    let report = compare(&ours_files, |_| Some(kafka.to_string()));
    let expected: Vec<String> = vec![
        r#"CreateTopicsRequest.json: fields[0].fields[3] (Configs).versions: ours "0+" vs Kafka "1+""#.into(),
        r#"CreateTopicsRequest.json: fields[0].fields[3].fields[0] (V).default: ours "true" vs Kafka "false""#.into(),
    ];
    // The allow-list entries are reported as missing too, since their files were not compared.
    assert_eq!(report.failures[..2], expected[..], "{:#?}", report.failures);
}

#[test]
fn common_structs_and_unknown_keys_are_compared() {
    let kafka = r#"{ "name": "X", "commonStructs": [ { "name": "S", "versions": "0+", "fields": [ { "name": "A", "type": "int8", "versions": "0+" } ] } ] }"#;
    let ours = r#"{ "name": "X", "about": "ignored", "commonStructs": [ { "name": "S", "versions": "1+", "fields": [ { "name": "A", "type": "int16", "versions": "0+", "mapkey": true } ] } ] }"#;
    assert_eq!(
        diffs(ours, kafka),
        [
            r#"commonStructs[0] (S).versions: ours "1+" vs Kafka "0+""#,
            r#"commonStructs[0].fields[0] (A).mapkey: ours "true" vs Kafka absent"#,
            r#"commonStructs[0].fields[0] (A).type: ours "int16" vs Kafka "int8""#,
        ]
    );
}
