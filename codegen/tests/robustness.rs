//! The compiler never panics: garbage, truncated and near-valid schemas give
//! `Ok` or `Err`, nothing else. Every input runs under `catch_unwind` so a
//! failure names the input that panicked.
//!
//! `ROBUSTNESS_ITERATIONS` (default 2000) sets how many random inputs the
//! random tests try; the seed is fixed so a failure reproduces.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use kwire_codegen::{generate, Error, Generated};
use serde_json::{json, Map, Value};

/// Runs the compiler on `sources`; a panic fails the test with the input.
#[track_caller]
fn run(sources: &[(String, String)]) -> Result<Generated, Error> {
    match catch_unwind(AssertUnwindSafe(|| generate(sources, "crate"))) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            let shown: Vec<String> = sources
                .iter()
                .map(|(n, t)| {
                    let t: String = t.chars().take(2000).collect();
                    format!("--- {n}\n{t}")
                })
                .collect();
            panic!("the compiler panicked: {message}\ninput:\n{}", shown.join("\n"));
        }
    }
}

#[track_caller]
fn run_one(name: &str, text: &str) -> Result<Generated, Error> {
    run(&[(name.to_string(), text.to_string())])
}

fn schema(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn iterations() -> usize {
    std::env::var("ROBUSTNESS_ITERATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(2000)
}

/// xorshift64*: a small deterministic generator, enough for fuzzing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// A schema with a message, an inline struct and a common struct, every
/// kind of key used: the base that truncations and mutations start from.
const RICH: &str = r#"// A licence line, as in Kafka's files.
{
  "apiKey": 3,
  "type": "request",
  "listeners": ["zkBroker", "broker"],
  "name": "RichRequest",
  /* Versions: 0-4; 3+ is flexible. */
  "validVersions": "0-4",
  "flexibleVersions": "3+",
  "latestVersionUnstable": true,
  "fields": [
    { "name": "Topics", "type": "[]Topic", "versions": "0+", "nullableVersions": "1+",
      "about": "Topics \"quoted\" // not a comment", "fields": [
      { "name": "Name", "type": "string", "versions": "0+", "mapKey": true, "entityType": "topicName" },
      { "name": "Partitions", "type": "[]int32", "versions": "0+" },
      { "name": "Config", "type": "Config", "versions": "1+" }
    ]},
    { "name": "TimeoutMs", "type": "int32", "versions": "0+", "default": "60000" },
    { "name": "Data", "type": "bytes", "versions": "2+", "zeroCopy": true, "nullableVersions": "2+", "default": "null" },
    { "name": "Id", "type": "uuid", "versions": "3+", "default": "H3KKO4NTRPaCWtEmm3vW7A", "ignorable": true },
    { "name": "Hint", "type": "string", "versions": "3+", "tag": 0, "taggedVersions": "3+",
      "nullableVersions": "3+", "default": "null", "ignorable": true },
    { "name": "Level", "type": "int8", "versions": "3+", "tag": 1, "taggedVersions": "3+", "default": "-1" }
  ],
  "commonStructs": [
    { "name": "Config", "versions": "0+", "fields": [
      { "name": "Key", "type": "string", "versions": "0+" },
      { "name": "Value", "type": "float64", "versions": "0+", "default": "12.34" }
    ]}
  ]
}
"#;

const RICH_RESPONSE: &str = r#"{ "apiKey": 3, "type": "response", "name": "RichResponse",
  "validVersions": "0-4", "flexibleVersions": "3+",
  "fields": [ { "name": "ErrorCode", "type": "int16", "versions": "0+" } ] }"#;

fn rich_pair(request: &str) -> Vec<(String, String)> {
    vec![("RichRequest.json".into(), request.into()), ("RichResponse.json".into(), RICH_RESPONSE.into())]
}

#[test]
fn the_bases_compile() {
    run(&rich_pair(RICH)).unwrap();
    run_one("RequestHeader.json", &schema("RequestHeader.json")).unwrap();
}

/// Every prefix of real schemas, at every byte offset (a prefix that cuts a
/// UTF-8 character is read lossily).
#[test]
fn truncation_at_every_byte() {
    type Base = (&'static str, String, Vec<(String, String)>);
    let bases: [Base; 3] = [
        ("RequestHeader.json", schema("RequestHeader.json"), vec![]),
        ("RichRequest.json", RICH.to_string(), vec![("RichResponse.json".into(), RICH_RESPONSE.into())]),
        (
            "MetadataRequest.json",
            schema("MetadataRequest.json"),
            vec![("MetadataResponse.json".into(), schema("MetadataResponse.json"))],
        ),
    ];
    for (name, text, companions) in bases {
        let bytes = text.as_bytes();
        for end in 0..=bytes.len() {
            let prefix = String::from_utf8_lossy(&bytes[..end]).into_owned();
            let mut sources = vec![(name.to_string(), prefix)];
            sources.extend(companions.iter().cloned());
            let result = run(&sources);
            // Only the whole object (trailing whitespace aside) is valid.
            let whole = text.get(end..).is_some_and(|rest| rest.trim().is_empty());
            assert_eq!(result.is_ok(), whole, "{name} cut at byte {end}");
        }
    }
}

/// The request header without comments and docs: every byte of it matters.
const COMPACT: &str = r#"{"type": "header", "name": "RequestHeader", "validVersions": "0-2", "flexibleVersions": "2+",
"fields": [{"name": "RequestApiKey", "type": "int16", "versions": "0+"},
{"name": "CorrelationId", "type": "int32", "versions": "0+", "default": "-1"},
{"name": "ClientId", "type": "string", "versions": "1+", "nullableVersions": "1+", "ignorable": true, "flexibleVersions": "none"},
{"name": "Items", "type": "[]Item", "versions": "1+", "fields": [{"name": "K", "type": "string", "versions": "1+", "mapKey": true}]},
{"name": "InitialPrincipalName", "type": "string", "tag": 0, "taggedVersions": "2+", "nullableVersions": "2+", "default": "null", "ignorable": true}]}"#;

/// Every byte of a schema deleted, duplicated, or replaced by characters
/// that matter to JSON or to the schema language.
#[test]
fn single_byte_mutations() {
    run_one("RequestHeader.json", COMPACT).unwrap();
    let bytes = COMPACT.as_bytes();
    let replacements: &[&[u8]] = &[
        b"\"",
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b"0",
        b"9",
        b"+",
        b"-",
        b"/",
        b"*",
        b"\\",
        b"\x00",
        "é".as_bytes(),
        b"A",
        b"_",
        b" ",
    ];
    let mut rng = Rng(0x5eed_0003);
    let mut oks = 0;
    for i in 0..bytes.len() {
        let mut variants: Vec<Vec<u8>> = vec![Vec::new(), vec![bytes[i], bytes[i]]];
        for _ in 0..3 {
            variants.push(rng.pick(replacements).to_vec());
        }
        for r in variants {
            let mut mutated = bytes[..i].to_vec();
            mutated.extend_from_slice(&r);
            mutated.extend_from_slice(&bytes[i + 1..]);
            let text = String::from_utf8_lossy(&mutated).into_owned();
            if run_one("RequestHeader.json", &text).is_ok() {
                oks += 1;
            }
        }
    }
    // Some mutations (whitespace, digits of a default) still compile.
    assert!(oks > 0);
}

#[test]
fn random_bytes() {
    let mut rng = Rng(0x5eed_0001);
    let alphabet: Vec<u8> = b"{}[]\":,0123456789+-.eE /*\\\ntrue false null nametypefieldsversions".to_vec();
    for _ in 0..iterations() {
        let len = rng.below(200);
        let bytes: Vec<u8> =
            (0..len).map(|_| if rng.chance(50) { rng.pick(&alphabet) } else { rng.next() as u8 }).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert!(run_one("Random.json", &text).is_err());
    }
}

/// Nesting beyond serde_json's recursion limit is a located error, not a
/// stack overflow.
#[test]
fn deep_nesting() {
    let deep = 10_000;
    let arrays = format!("{}{}", "[".repeat(deep), "]".repeat(deep));
    assert!(run_one("Arrays.json", &arrays).is_err());
    let objects = format!("{}1{}", "{\"a\":".repeat(deep), "}".repeat(deep));
    assert!(run_one("Objects.json", &objects).is_err());
    // Unclosed, and inside a field's value.
    let unclosed = format!(
        r#"{{"type": "data", "name": "Deep", "validVersions": "0", "flexibleVersions": "0+", "fields": {}"#,
        "[".repeat(deep)
    );
    assert!(run_one("Unclosed.json", &unclosed).is_err());
    let in_default = format!(
        r#"{{"type": "data", "name": "Deep", "validVersions": "0", "flexibleVersions": "0+", "fields": [
          {{"name": "F", "type": "int32", "versions": "0+", "default": {}{} }}]}}"#,
        "[".repeat(deep),
        "]".repeat(deep)
    );
    assert!(run_one("InDefault.json", &in_default).is_err());
}

/// Structs nested as deep as the JSON parser allows.
#[test]
fn deeply_nested_structs() {
    for depth in [1, 10, 30, 60, 70, 200] {
        let mut field = json!({"name": "Leaf", "type": "int32", "versions": "0+"});
        for level in 0..depth {
            let s = format!("S{level}");
            field = json!({"name": s, "type": format!("[]{s}"), "versions": "0+", "fields": [field]});
        }
        let doc = json!({"type": "data", "name": "Deep", "validVersions": "0-1",
                         "flexibleVersions": "0+", "fields": [field]});
        let text = serde_json::to_string(&doc).unwrap_or_default();
        let result = run_one("Deep.json", &text);
        // Each level is an object in an array: serde_json's limit of 128
        // nested values allows about 60 levels.
        if depth <= 60 {
            let out = result.unwrap_or_else(|e| panic!("depth {depth}: {e}"));
            assert_eq!(out.messages[0].structs, depth + 1);
        }
    }
}

#[test]
fn huge_numbers_and_extreme_values() {
    let base = |fields: &str, top: &str| {
        format!(
            r#"{{"type": "data", "name": "Big", "validVersions": "0-3", "flexibleVersions": "0+"{top},
               "fields": [{fields}]}}"#
        )
    };
    let field = |extra: &str| format!(r#"{{"name": "F", "type": "int32", "versions": "0+"{extra}}}"#);
    let tops = [
        r#", "apiKey": 1e400"#,
        r#", "apiKey": 99999999999999999999999999999"#,
        r#", "apiKey": -1e308"#,
        r#", "apiKey": 1.7976931348623157e308"#,
        r#", "apiKey": -32768"#,
        r#", "apiKey": "32767""#,
        r#", "apiKey": 0.9"#,
        r#", "apiKey": []"#,
        r#", "apiKey": {}"#,
        r#", "validVersions": "0-32767""#,
        r#", "validVersions": "32767""#,
        r#", "validVersions": "0-32766""#,
        r#", "validVersions": "32768""#,
        r#", "validVersions": "99999999999999999999""#,
        r#", "validVersions": 1e400"#,
        r#", "validVersions": -1"#,
        r#", "validVersions": true"#,
        r#", "flexibleVersions": "32767+""#,
        r#", "flexibleVersions": "0-32767""#,
        r#", "deprecatedVersions": "0-32767""#,
        r#", "listeners": "broker""#,
        r#", "listeners": [[[]]]"#,
        r#", "commonStructs": {"name": "C", "versions": "0-32767", "fields": []}"#,
    ];
    for top in tops {
        let _ = run_one("Big.json", &base(&field(""), top));
    }
    let extras = [
        r#", "tag": 2147483647, "taggedVersions": "0+""#,
        r#", "tag": 2147483648, "taggedVersions": "0+""#,
        r#", "tag": -2147483648, "taggedVersions": "0+""#,
        r#", "tag": 1e300, "taggedVersions": "0+""#,
        r#", "tag": -0.5, "taggedVersions": "0+""#,
        r#", "tag": "  0 ", "taggedVersions": "0+""#,
        r#", "tag": 0, "taggedVersions": "32767+""#,
        r#", "tag": 0, "taggedVersions": "0-32767""#,
        r#", "versions": "0-32767""#,
        r#", "versions": "32767""#,
        r#", "versions": "32767+""#,
        r#", "nullableVersions": "0-32767""#,
        r#", "default": "2147483647""#,
        r#", "default": "-2147483648""#,
        r#", "default": "0x7fffffff""#,
        r#", "default": "0xffffffffffffffffffffffff""#,
        r#", "default": "99999999999999999999999999""#,
        r#", "default": 1e400"#,
        r#", "default": -0"#,
        r#", "default": "+5""#,
        r#", "default": "-""#,
        r#", "default": "0x""#,
        r#", "default": [1]"#,
    ];
    for extra in extras {
        let _ = run_one("Big.json", &base(&field(extra), ""));
    }
    // Defaults at the ends of every type's range, and odd floats and strings.
    let typed = [
        ("int64", "-9223372036854775808"),
        ("int64", "9223372036854775807"),
        ("int64", "0x7fffffffffffffff"),
        ("int64", "0x8000000000000000"),
        ("uint32", "4294967295"),
        ("uint32", "0xffffffff"),
        ("uint16", "65535"),
        ("int8", "-128"),
        ("int8", "0x7f"),
        ("float64", "NaN"),
        ("float64", "Infinity"),
        ("float64", "-Infinity"),
        ("float64", "-0.0"),
        ("float64", "1e308"),
        ("float64", "1e400"),
        ("float64", "4.9e-324"),
        ("float64", "-1.5"),
        ("string", "with \\\"quotes\\\", a \\\\ backslash, */ and // and a tab\\t"),
        ("string", "ünïcødé ☃ \\u0000"),
        ("uuid", "AAAAAAAAAAAAAAAAAAAAAA"),
        ("uuid", "__________________________"),
        ("uuid", "H3KKO4NTRPaCWtEmm3vW7A=="),
        ("bool", "TRUE"),
        ("records", "anything at all"),
    ];
    for (ty, default) in typed {
        let text = base(&format!(r#"{{"name": "F", "type": "{ty}", "versions": "0+", "default": "{default}"}}"#), "");
        let _ = run_one("Big.json", &text);
    }
}

fn wide_tagged(n: usize) -> String {
    let tagged: Vec<Value> = (0..n)
        .map(|i| {
            json!({"name": format!("Tagged{i}"), "type": "string", "tag": i,
                        "taggedVersions": "1+", "nullableVersions": "1+", "default": "null"})
        })
        .collect();
    let doc = json!({"type": "data", "name": "WideTagged", "validVersions": "0-1",
                     "flexibleVersions": "1+", "fields": tagged});
    doc.to_string()
}

/// 5000 fields in one struct.
#[test]
fn five_thousand_fields() {
    let n = 5000;
    let positional: Vec<Value> =
        (0..n).map(|i| json!({"name": format!("Field{i}"), "type": "int32", "versions": "0+"})).collect();
    let doc = json!({"type": "data", "name": "Wide", "validVersions": "0-1",
                     "flexibleVersions": "1+", "fields": positional});
    let out = run_one("Wide.json", &doc.to_string()).unwrap();
    assert_eq!(out.messages[0].fields, n);

    // 5000 fields sharing one name: 4999 duplicates, all reported.
    let same: Vec<Value> = (0..n).map(|_| json!({"name": "Same", "type": "int32", "versions": "0+"})).collect();
    let doc = json!({"type": "data", "name": "Same", "validVersions": "0",
                     "flexibleVersions": "0+", "fields": same});
    match run_one("Same.json", &doc.to_string()) {
        Err(Error::Schema(d)) => assert!(d.0.len() >= n - 1, "{} diagnostics", d.0.len()),
        other => panic!("duplicates accepted: {:?}", other.map(|g| g.messages)),
    }
}

/// Many tagged fields, on a thread with the 2 MiB stack that test threads
/// (and many runtimes' worker threads) get.
fn tagged_fields_on_small_stack(n: usize) {
    let text = wide_tagged(n);
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let out = run_one("WideTagged.json", &text).unwrap();
            assert_eq!(out.messages[0].fields, n);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn thousand_tagged_fields() {
    tagged_fields_on_small_stack(1000);
}

/// Stack overflow (an abort, which takes the whole test binary down).
#[test]
fn five_thousand_tagged_fields() {
    tagged_fields_on_small_stack(5000);
}

#[test]
fn odd_runs() {
    // No schemas at all.
    let out = run(&[]).unwrap();
    assert!(out.messages.is_empty());
    // Empty and whitespace-only files, odd file names.
    for (name, text) in [("", ""), ("../../x.json", "  \n"), ("☃.json", "// only a comment\n")] {
        assert!(run_one(name, text).is_err());
    }
    // Scalars and empty containers at the root.
    for text in ["null", "true", "0", "\"s\"", "[]", "{}", "{\"fields\": null}"] {
        assert!(run_one("Scalar.json", text).is_err(), "{text}");
    }
    // A runtime path that is not a path is an error, not a panic.
    for runtime in ["", "::", "not a path", "1crate", "crate::"] {
        let r = catch_unwind(|| generate(&rich_pair(RICH), runtime));
        assert!(matches!(r, Ok(Err(_))), "runtime {runtime:?}");
    }
    // The same file given twice.
    let _ = run(&[
        ("RequestHeader.json".into(), schema("RequestHeader.json")),
        ("RequestHeader.json".into(), schema("RequestHeader.json")),
    ]);
}

/// A request whose name ends in `Request` twice: the api-key table trims the
/// suffix with `trim_end_matches`, which leaves an empty variant name.
#[test]
fn request_named_request_request() {
    let request = r#"{"type": "request", "apiKey": 1, "name": "RequestRequest", "validVersions": "0",
        "flexibleVersions": "0+", "fields": []}"#;
    let response = r#"{"type": "response", "apiKey": 1, "name": "RequestResponse", "validVersions": "0",
        "flexibleVersions": "0+", "fields": []}"#;
    let _ = run(&[("RequestRequest.json".into(), request.into()), ("RequestResponse.json".into(), response.into())]);
}

// ---- random near-valid schemas: every key, with plausible and odd values.

const NAMES: &[&str] = &[
    "A",
    "B",
    "Version",
    "R",
    "Tag",
    "Type",
    "Self",
    "Crate",
    "Super",
    "Buf",
    "Size",
    "Count",
    "Flexible",
    "UnknownTaggedFields",
    "a",
    "A_B",
    "Fn",
    "Vec",
    "Match",
    "X1",
    "",
];
const TYPES: &[&str] = &[
    "bool",
    "int8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "float64",
    "string",
    "bytes",
    "uuid",
    "records",
    "ApiMessage",
    "Header",
    "[]int32",
    "[]string",
    "[]uuid",
    "[]S",
    "S",
    "[]T",
    "T",
    "C",
    "[]C",
    "Vec",
    "Result",
    "Int8",
    "[]",
    "[][]int8",
    "int",
    " int32 ",
    "[]records",
];
const VERSIONS: &[&str] = &["0+", "0", "0-3", "1+", "2+", "none", "", "3-1", "0-32767", "32767", "x", "1-2", " 0+ "];
const DEFAULTS: &[&str] = &[
    "",
    "null",
    "0",
    "-1",
    "0x7f",
    "true",
    "false",
    "abc",
    "H3KKO4NTRPaCWtEmm3vW7A",
    "NaN",
    "1e308",
    "-0.0",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967295",
    "\"q\\",
];

fn random_versions(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => json!(rng.below(5)),
        1 => Value::Null,
        _ => json!(rng.pick(VERSIONS)),
    }
}

fn random_field(rng: &mut Rng, depth: usize, tag: &mut i64) -> Value {
    let mut f = Map::new();
    if rng.chance(97) {
        f.insert("name".into(), json!(rng.pick(NAMES)));
    }
    let ty = rng.pick(TYPES);
    if rng.chance(97) {
        f.insert("type".into(), json!(ty));
    }
    if rng.chance(85) {
        f.insert("versions".into(), random_versions(rng));
    }
    if rng.chance(25) {
        f.insert("nullableVersions".into(), random_versions(rng));
    }
    if rng.chance(25) {
        let t = if rng.chance(80) {
            *tag += 1;
            json!(*tag)
        } else {
            rng.pick(&[json!(-1), json!(2147483647), json!("0"), json!(0.5), Value::Null])
        };
        f.insert("tag".into(), t);
        if rng.chance(85) {
            f.insert("taggedVersions".into(), random_versions(rng));
        }
    }
    for key in ["ignorable", "mapKey", "zeroCopy"] {
        if rng.chance(10) {
            f.insert(key.into(), rng.pick(&[json!(true), json!(false), json!("true"), json!("no")]));
        }
    }
    if rng.chance(25) {
        f.insert("default".into(), json!(rng.pick(DEFAULTS)));
    }
    if rng.chance(8) {
        f.insert(
            "entityType".into(),
            json!(rng.pick(&["topicName", "brokerId", "producerId", "groupId", "unknown", "x"])),
        );
    }
    if rng.chance(8) {
        f.insert("flexibleVersions".into(), random_versions(rng));
    }
    if rng.chance(30) {
        f.insert("about".into(), json!("about /* */ \"x\" [link] <b> \u{2603}"));
    }
    if rng.chance(2) {
        f.insert("bogus".into(), json!(1));
    }
    if depth < 3 && (ty.contains('S') || ty.contains('T') || rng.chance(5)) && rng.chance(70) {
        let mut inner_tag = -1;
        let n = rng.below(4);
        let fields: Vec<Value> = (0..n).map(|_| random_field(rng, depth + 1, &mut inner_tag)).collect();
        f.insert("fields".into(), json!(fields));
    }
    Value::Object(f)
}

fn random_schema(rng: &mut Rng, ty: &str, name: &str, api_key: i64) -> Value {
    let mut top = Map::new();
    if rng.chance(97) {
        top.insert("type".into(), json!(ty));
    }
    if rng.chance(97) {
        top.insert("name".into(), json!(name));
    }
    if rng.chance(90) {
        top.insert("apiKey".into(), json!(api_key));
    }
    top.insert(
        "validVersions".into(),
        if rng.chance(85) { json!(rng.pick(&["0", "0-1", "0-3", "1-4", "2"])) } else { random_versions(rng) },
    );
    if rng.chance(95) {
        top.insert(
            "flexibleVersions".into(),
            if rng.chance(80) { json!(rng.pick(&["0+", "1+", "2+", "none"])) } else { random_versions(rng) },
        );
    }
    if rng.chance(10) {
        top.insert("listeners".into(), json!(["broker", "controller"]));
    }
    if rng.chance(5) {
        top.insert("latestVersionUnstable".into(), json!(true));
    }
    if rng.chance(10) {
        top.insert("deprecatedVersions".into(), random_versions(rng));
    }
    let mut tag = -1;
    let n = rng.below(6);
    let fields: Vec<Value> = (0..n).map(|_| random_field(rng, 0, &mut tag)).collect();
    top.insert("fields".into(), json!(fields));
    if rng.chance(30) {
        let mut inner = -1;
        let fields: Vec<Value> = (0..rng.below(3)).map(|_| random_field(rng, 1, &mut inner)).collect();
        let mut c = json!({"name": rng.pick(&["C", "c", "S", "Vec"]), "fields": fields});
        if rng.chance(85) {
            c["versions"] = random_versions(rng);
        }
        top.insert("commonStructs".into(), json!([c]));
    }
    Value::Object(top)
}

#[test]
fn random_near_valid_schemas() {
    let mut rng = Rng(0x5eed_0002);
    let (mut ok, mut err) = (0, 0);
    for i in 0..iterations() {
        let mut sources = Vec::new();
        match rng.below(3) {
            0 => {
                let key = rng.below(3) as i64;
                let names =
                    rng.pick(&[("FooRequest", "FooResponse"), ("BarRequest", "BarResponse"), ("Foo", "FooReply")]);
                sources.push(("A.json".to_string(), random_schema(&mut rng, "request", names.0, key)));
                sources.push(("B.json".to_string(), random_schema(&mut rng, "response", names.1, key)));
            }
            _ => {
                let ty = rng.pick(&["data", "header", "metadata", "coordinator-key", "coordinator-value"]);
                let name = rng.pick(&["Foo", "Bar", "S", "Vec", "Self", "lower"]);
                sources.push(("A.json".to_string(), random_schema(&mut rng, ty, name, 1)));
            }
        }
        let sources: Vec<(String, String)> = sources
            .into_iter()
            .map(|(n, v)| {
                let text = serde_json::to_string_pretty(&v).unwrap();
                // Sometimes cut or comment the text too.
                let text = match rng.below(10) {
                    0 => String::from_utf8_lossy(&text.as_bytes()[..rng.below(text.len() + 1)]).into_owned(),
                    1 => format!("// case {i}\n{text} // end"),
                    _ => text,
                };
                (n, text)
            })
            .collect();
        match run(&sources) {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    eprintln!("random near-valid schemas: {ok} compiled, {err} refused");
    // The generator reaches code emission, not only the checks.
    assert!(ok > iterations() / 50, "only {ok} of {} compiled", iterations());
}

/// A runtime path that is not a Rust path is the caller's mistake, reported
/// as such (not as a bug of the compiler), and schema errors print located
/// through `Debug` too, which is what `.expect(…)` in a build script shows.
#[test]
fn bad_runtime_path_and_debug_of_schema_errors() {
    let schema = r#"{"type": "data", "name": "D", "validVersions": "0", "flexibleVersions": "none",
        "fields": [{"name": "F", "type": "int32", "versions": "0+"}]}"#;
    let sources = [("D.json".to_string(), schema.to_string())];
    for bad in ["not a path", "", "::", "kwire-cli"] {
        match generate(&sources, bad) {
            Err(Error::RuntimePath { path, .. }) => assert_eq!(path, bad),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    assert!(generate(&sources, "::kw").is_ok());

    let broken = schema.replace("int32", "int33");
    let err = run_one("D.json", &broken).expect_err("int33 is not a type");
    let debug = format!("{err:?}");
    assert!(debug.starts_with("D.json:2: fields[0] (F).type: "), "{debug}");
    assert!(!debug.contains("Diagnostic {"), "{debug}");
}

/// A schema file that is not UTF-8 is a schema error naming the file, line
/// and column of its first bad byte (exit 1 from the command line), reported
/// with the other files' errors, not an I/O error.
#[test]
fn a_file_that_is_not_utf8_is_a_located_schema_error() {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("A.json"), b"{\n  \"about\": \"caf\xe9\"\n}\n").unwrap();
    std::fs::write(dir.join("B.json"), b"{\"type\": \"data\"}").unwrap();
    let result = kwire_codegen::Builder::new().input_dir(&dir).generate();
    std::fs::remove_dir_all(&dir).ok();
    let Err(Error::Schema(diags)) = result else { panic!("{result:?}") };
    let located: Vec<String> = diags.0.iter().map(|d| d.located()).collect();
    let a = dir.join("A.json").display().to_string();
    assert_eq!(located[0], format!("{a}:2: (root): line 2, column 16: the file is not UTF-8"), "{located:?}");
    assert!(located[1..].iter().any(|d| d.contains("B.json")), "{located:?}");
}

/// Two inputs with the same file name: each diagnostic names the right
/// file and a line of that file. A directory named like a schema is skipped.
#[test]
fn files_of_the_same_name_in_two_inputs_keep_their_own_diagnostics() {
    let root = std::env::temp_dir().join(format!("kwire-codegen-same-name-{}", std::process::id()));
    let (m1, m2) = (root.join("m1"), root.join("m2"));
    std::fs::create_dir_all(&m1).unwrap();
    std::fs::create_dir_all(m2.join("sub.json")).unwrap();
    let bad = "{ \"type\": \"data\", \"name\": \"P\", \"validVersions\": \"0\", \"flexibleVersions\": \"0+\",\n\n\n \"fields\": [ { \"name\": \"bad_x\", \"type\": \"int8\", \"versions\": \"0+\" } ] }";
    std::fs::write(m1.join("X.json"), bad).unwrap();
    let good = "{ \"type\": \"data\", \"name\": \"Q\", \"validVersions\": \"0\", \"flexibleVersions\": \"0+\", \"fields\": [] }";
    std::fs::write(m2.join("X.json"), good).unwrap();
    let result = kwire_codegen::Builder::new().input_dir(&m1).input_dir(&m2).generate();
    std::fs::remove_dir_all(&root).ok();
    let Err(Error::Schema(diags)) = result else { panic!("{result:?}") };
    let located: Vec<String> = diags.0.iter().map(|d| d.located()).collect();
    let x1 = m1.join("X.json").display().to_string();
    assert_eq!(located, vec![format!("{x1}:4: fields[0] (bad_x).name: Invalid field name bad_x")]);
}

/// A schema without a name is told so, and its other errors do not print
/// an empty name.
#[test]
fn a_schema_without_a_name() {
    let err = run_one("N.json", r#"{ "type": "data", "fields": [] }"#).unwrap_err();
    let Error::Schema(diags) = err else { panic!("{err:?}") };
    let messages: Vec<&str> = diags.0.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.contains(&"missing \"name\""), "{messages:?}");
    assert!(messages.contains(&"You must specify the version of the unnamed structure."), "{messages:?}");
}

/// A request whose body holds the first of a chain of `levels` common
/// structs, each holding an array of the next, and its response.
fn chain_pair(levels: usize) -> Vec<(String, String)> {
    let commons: Vec<String> = (0..levels)
        .map(|i| {
            let next = if i + 1 < levels {
                format!(r#", {{ "name": "Next", "type": "[]C{}", "versions": "0+" }}"#, i + 1)
            } else {
                // Only the last level holds bytes, which the walk must reach.
                r#", { "name": "Data", "type": "bytes", "versions": "0+" }"#.to_string()
            };
            format!(r#"{{ "name": "C{i}", "versions": "0+", "fields": [ {{ "name": "X", "type": "int32", "versions": "0+" }}{next} ] }}"#)
        })
        .collect();
    let request = format!(
        r#"{{ "apiKey": 9100, "type": "request", "name": "ChainRequest", "validVersions": "0-3", "flexibleVersions": "1+",
  "fields": [ {{ "name": "Head", "type": "C0", "versions": "0+" }} ], "commonStructs": [ {} ] }}"#,
        commons.join(",\n")
    );
    let response = r#"{ "apiKey": 9100, "type": "response", "name": "ChainResponse", "validVersions": "0-3", "flexibleVersions": "1+",
  "fields": [ { "name": "ErrorCode", "type": "int16", "versions": "0+" } ] }"#;
    vec![("ChainRequest.json".to_string(), request), ("ChainResponse.json".to_string(), response.to_string())]
}

/// A chain of 1,000 common structs compiles on a thread with a small stack:
/// no walk of the compiler follows the nesting on the call stack. The walk
/// for Kafka's `requiresDelayedAllocation` reaches the bytes at the bottom.
#[test]
fn a_chain_of_a_thousand_structs_compiles_in_a_small_stack() {
    let sources = chain_pair(1_000);
    let table = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let generated = run(&sources).expect("the chain compiles");
            generated.files.into_iter().find(|f| f.name == "api_keys.rs").map(|f| f.text)
        })
        .unwrap()
        .join()
        .unwrap()
        .expect("an api-key table");
    let entry = table.split("name: \"Chain\"").nth(1).expect("the Chain api key");
    assert!(entry.split("},").next().unwrap().contains("requires_delayed_allocation: true"), "{entry:.600}");
}
