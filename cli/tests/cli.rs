//! The `kwire` binary run as a user runs it: its output and exit status.
//!
//! `kwire dump` reads segments and snapshots that Apache Kafka 4.4.0 wrote
//! (tests/data/, copied from a cluster's log directories: a consumer-offsets
//! partition with a classic group of the consumer protocol and a KIP-848
//! group, a transaction log with a committed and an aborted transaction, a
//! share-group state partition, metadata snapshots, a metadata segment cut
//! 20 bytes into a batch, and the batch of a SCRAM credential), and must
//! print what Kafka's own `kafka.tools.DumpLogSegments` printed for them
//! (the `*.kafka.txt` beside them, its output with the options named in each
//! test), byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Runs `kwire ARGS` in `dir`.
fn kwire_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kwire")).args(args).current_dir(dir).output().expect("kwire runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A new empty folder of its own.
fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kwire-cli-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `kwire dump ARGS` in tests/data prints `expected` (Kafka's output), and succeeds.
fn dump_equals_kafka(args: &[&str], expected: &str) {
    let mut all = vec!["dump"];
    all.extend_from_slice(args);
    let out = kwire_in(&data(), &all);
    let kafka = std::fs::read_to_string(data().join(expected)).expect("Kafka's output");
    let ours = stdout(&out);
    for (i, (k, o)) in kafka.lines().zip(ours.lines()).enumerate() {
        assert_eq!(o, k, "line {} of kwire {all:?} differs from Kafka's ({expected})", i + 1);
    }
    assert_eq!(ours.lines().count(), kafka.lines().count(), "lines of kwire {all:?} against {expected}");
    assert_eq!(ours, kafka);
    assert!(out.status.success(), "kwire {all:?}: {}\n{}", out.status, stderr(&out));
}

const METADATA: [&str; 4] = [
    "__cluster_metadata-0/00000000000000000000.log",
    "__cluster_metadata-0/00000000000000001095.log",
    "__cluster_metadata-0/00000000000000000000-0000000000.checkpoint",
    "__cluster_metadata-0/00000000000000000022-0000000001.checkpoint",
];

#[test]
fn dump_metadata_log_and_snapshots_as_kafka() {
    // Leader change, snapshot header and footer, the partial batch at the
    // end, and the SCRAM credential's salt and keys as Kafka prints them.
    let mut args = vec!["--show-secrets"];
    args.extend(METADATA);
    dump_equals_kafka(&args, "cluster_metadata.kafka.txt");
    // Kafka's option names the family too.
    let mut args = vec!["--show-secrets", "--cluster-metadata-decoder"];
    args.extend(METADATA);
    dump_equals_kafka(&args, "cluster_metadata.kafka.txt");
}

#[test]
fn dump_consumer_offsets_as_kafka() {
    // Classic-group subscriptions and assignments decoded, key types and
    // value versions as numbers, tombstones as <DELETE>.
    let files = ["__consumer_offsets-1/00000000000000000000.log", "__consumer_offsets-2/00000000000000000000.log"];
    dump_equals_kafka(&files, "consumer_offsets.kafka.txt");
    let text = std::fs::read_to_string(data().join("consumer_offsets.kafka.txt")).expect("Kafka's output");
    assert!(text.contains(r#""subscription":{"topics":["dumptopic"]"#), "the fixture holds a decoded subscription");
    assert!(text.contains("payload: <DELETE>"), "the fixture holds a tombstone");
    dump_equals_kafka(
        &["--skip-record-metadata", "--offsets-decoder", "__consumer_offsets-2/00000000000000000000.log"],
        "consumer_offsets.skip.kafka.txt",
    );
}

#[test]
fn dump_transaction_log_as_kafka() {
    dump_equals_kafka(&["__transaction_state-2/00000000000000000000.log"], "transaction_state.kafka.txt");
    let text = std::fs::read_to_string(data().join("transaction_state.kafka.txt")).expect("Kafka's output");
    for state in ["Empty", "Ongoing", "PrepareCommit", "CompleteCommit", "PrepareAbort", "CompleteAbort"] {
        assert!(text.contains(&format!(r#""transactionStatus":"{state}""#)), "{state} in the fixture");
    }
    // --deep-iteration alone: each record's metadata, no key or payload.
    dump_equals_kafka(
        &["--deep-iteration", "__transaction_state-2/00000000000000000000.log"],
        "transaction_state.deep.kafka.txt",
    );
}

#[test]
fn dump_share_group_state_as_kafka() {
    dump_equals_kafka(&["__share_group_state-0/00000000000000000000.log"], "share_group_state.kafka.txt");
    // The family named, whatever the folder.
    let dir = temp_dir("share");
    std::fs::copy(data().join("__share_group_state-0/00000000000000000000.log"), dir.join("00000000000000000000.log"))
        .expect("copy");
    let out = kwire_in(&dir, &["dump", "00000000000000000000.log"]);
    assert_eq!(out.status.code(), Some(1), "a folder that names no family");
    assert!(
        stderr(&out).contains("00000000000000000000.log: cannot tell its family from its folder"),
        "{}",
        stderr(&out)
    );
    let out = kwire_in(&dir, &["dump", "--family", "share", "00000000000000000000.log"]);
    let kafka = std::fs::read_to_string(data().join("share_group_state.kafka.txt")).expect("Kafka's output");
    assert_eq!(stdout(&out), kafka.replace("__share_group_state-0/", ""));
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_redacts_scram_secrets_unless_asked() {
    let out = kwire_in(&data(), &["dump", "__cluster_metadata-0/00000000000000001095.log"]);
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(text.contains(r#""type":"USER_SCRAM_CREDENTIAL_RECORD""#), "{text}");
    assert!(text.contains(r#""salt":"<redacted 25 bytes>""#), "{text}");
    assert!(text.contains(r#""storedKey":"<redacted 32 bytes>""#), "{text}");
    let kafka = std::fs::read_to_string(data().join("cluster_metadata.kafka.txt")).expect("Kafka's output");
    let salt = kafka.split(r#""salt":""#).nth(1).and_then(|s| s.split('"').next()).expect("Kafka prints the salt");
    assert!(!text.contains(salt));
}

#[test]
fn dump_json_one_object_per_record() {
    let out = kwire_in(
        &data(),
        &[
            "dump",
            "--json",
            "__transaction_state-2/00000000000000000000.log",
            "__consumer_offsets-1/00000000000000000000.log",
            METADATA[0],
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).expect("a JSON object per line")).collect();
    // As many as Kafka printed for the first file of each of its outputs.
    let kafka_records = ["transaction_state.kafka.txt", "consumer_offsets.kafka.txt", "cluster_metadata.kafka.txt"]
        .iter()
        .map(|f| std::fs::read_to_string(data().join(f)).expect("Kafka's output"))
        .map(|t| {
            t.split("Dumping ").nth(1).map_or(0, |first| first.lines().filter(|l| l.starts_with("| offset:")).count())
        })
        .sum::<usize>();
    assert_eq!(lines.len(), kafka_records);
    let txn = &lines[1];
    assert_eq!(txn["file"], "__transaction_state-2/00000000000000000000.log");
    assert_eq!(txn["offset"], 1);
    assert_eq!(txn["key"], serde_json::json!({"type": "0", "data": {"transactionalId": "txn-1"}}));
    assert_eq!(txn["payload"]["version"], "1");
    assert_eq!(txn["payload"]["data"]["transactionStatus"], "Ongoing");
    let group = lines.iter().find(|l| l["payload"]["data"]["protocolType"] == "consumer").expect("a classic group");
    assert_eq!(group["payload"]["data"]["members"][0]["subscription"]["topics"], serde_json::json!(["dumptopic"]));
    let control = lines.iter().find(|l| l["control"].is_string()).expect("a control record");
    assert_eq!(control["control"], "LEADER_CHANGE");
    assert_eq!(control["data"]["leaderId"], 1);
}

#[test]
fn dump_errors_name_file_and_position() {
    let dir = temp_dir("errors");
    let part = dir.join("__transaction_state-0");
    std::fs::create_dir_all(&part).expect("dir");
    let good = std::fs::read(data().join("__transaction_state-2/00000000000000000000.log")).expect("fixture");
    // The first batch (122 bytes), then a batch whose length is too small
    // to be one.
    let mut bad = good[..122].to_vec();
    bad.extend_from_slice(&good[122..134]);
    bad[122 + 8..122 + 12].copy_from_slice(&3i32.to_be_bytes());
    bad.extend_from_slice(&[0; 40]);
    std::fs::write(part.join("00000000000000000000.log"), &bad).expect("write");
    let out =
        kwire_in(&dir, &["dump", "__transaction_state-0/00000000000000000000.log", "missing/00000000000000000000.log"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let kafka = std::fs::read_to_string(data().join("transaction_state.kafka.txt")).expect("Kafka's output");
    let first_batch: Vec<&str> = kafka.lines().skip(2).take(2).collect();
    assert_eq!(text.lines().skip(2).take(2).collect::<Vec<_>>(), first_batch, "the batch before the bad one printed");
    let err = stderr(&out);
    assert!(err.contains("__transaction_state-0/00000000000000000000.log: position 122: "), "{err}");
    assert!(err.contains("missing/00000000000000000000.log: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // A record whose value does not decode: Kafka's "Error at offset"
    // line in place, the cause on standard error, exit status 1.
    let mut record = good[..122].to_vec();
    let value_version = record.len() - 1 - 45; // the value (45 bytes) ends the batch's only record, before its header count
    record[value_version..value_version + 2].copy_from_slice(&7i16.to_be_bytes());
    std::fs::write(part.join("00000000000000000000.log"), &record).expect("write");
    let out = kwire_in(&dir, &["dump", "__transaction_state-0/00000000000000000000.log"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("isvalid: false"), "the CRC no longer matches: {text}");
    assert!(text.contains(" key: Error at offset 0, skipping. value: "), "{text}");
    assert!(
        stderr(&out).contains("__transaction_state-0/00000000000000000000.log: position 0: offset 0: value: "),
        "{}",
        stderr(&out)
    );

    // A metadata record of an unknown frame version: Kafka's "Error at"
    // payload in place.
    let part = dir.join("__cluster_metadata-0");
    std::fs::create_dir_all(&part).expect("dir");
    let mut scram = std::fs::read(data().join(METADATA[1])).expect("fixture");
    let frame_version = scram.len() - 1 - 112; // the value (112 bytes) before the header count
    assert_eq!(scram[frame_version], 1);
    scram[frame_version] = 2;
    std::fs::write(part.join("00000000000000001095.log"), &scram).expect("write");
    let out = kwire_in(&dir, &["dump", "__cluster_metadata-0/00000000000000001095.log"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(" headerKeys: [] payload: Error at 1095, skipping. value: "), "{}", stdout(&out));
    assert!(stderr(&out).contains("00000000000000001095.log: position 0: offset 1095: value: "), "{}", stderr(&out));

    // Bad arguments.
    let out = kwire_in(&dir, &["dump", "--family", "nope", "x.log"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A request and response schema pair of the compiler's language.
const ECHO_REQUEST: &str = r#"{
  "apiKey": 18,
  "type": "request",
  "listeners": ["broker"],
  "name": "EchoRequest",
  "validVersions": "0-2",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "Text", "type": "string", "versions": "0+", "about": "What to echo." },
    { "name": "Times", "type": "int32", "versions": "1+", "default": 1, "about": "How many times." }
  ]
}
"#;

const ECHO_RESPONSE: &str = r#"{
  "apiKey": 18,
  "type": "response",
  "name": "EchoResponse",
  "validVersions": "0-2",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code, or 0." },
    { "name": "Lines", "type": "[]Line", "versions": "0+", "about": "The text, once per time.", "fields": [
      { "name": "Text", "type": "string", "versions": "0+", "about": "The text." }
    ]}
  ]
}
"#;

fn write_schemas(dir: &Path, request: &str) {
    std::fs::create_dir_all(dir).expect("dir");
    std::fs::write(dir.join("EchoRequest.json"), request).expect("write");
    std::fs::write(dir.join("EchoResponse.json"), ECHO_RESPONSE).expect("write");
}

#[test]
fn gen_checks_and_writes_schemas() {
    let dir = temp_dir("gen");
    write_schemas(&dir, ECHO_REQUEST);
    let out = kwire_in(&dir, &["gen", "."]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "message       api key  versions  flexible  structs  fields\n\
         EchoRequest        18  0-2       2+              1       2\n\
         EchoResponse       18  0-2       2+              2       3\n\
         generated 2 messages, 3 structs, 5 fields, 4 files; checked only, nothing written (use --out DIR)\n"
    );
    let out = kwire_in(&dir, &["gen", "--quiet", "--runtime", "crate", "--out", "out", "."]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "generated 2 messages, 3 structs, 5 fields, 4 files into out\n");
    let request = std::fs::read_to_string(dir.join("out/echo_request.rs")).expect("written");
    assert!(request.contains("pub struct EchoRequest"), "{request}");
    assert!(request.contains("crate::"), "the runtime path: {request}");
    assert!(!request.contains("::kwire::"), "the runtime path: {request}");

    // An invalid schema: 1, the file named; bad arguments and missing input: 2.
    std::fs::write(dir.join("Broken.json"), "{ \"name\": \"Broken\" }").expect("write");
    let out = kwire_in(&dir, &["gen", "Broken.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("Broken.json"), "{}", stderr(&out));
    assert_eq!(kwire_in(&dir, &["gen", "missing"]).status.code(), Some(2));
    assert_eq!(kwire_in(&dir, &["gen", "--api-keys", "x", "."]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_reports_breaking_changes() {
    let dir = temp_dir("diff");
    write_schemas(&dir.join("old"), ECHO_REQUEST);
    write_schemas(&dir.join("new"), ECHO_REQUEST);
    let out = kwire_in(&dir, &["diff", "old", "new"]);
    assert_eq!(stdout(&out), "compatible: 0 finding(s)\n");
    assert_eq!(out.status.code(), Some(0));

    let changed = ECHO_REQUEST.replace(r#""Times", "type": "int32""#, r#""Times", "type": "int64""#);
    assert_ne!(changed, ECHO_REQUEST);
    write_schemas(&dir.join("new"), &changed);
    let expected = "new/EchoRequest.json:10: fields[1] (Times): v1-2: layout-changed: type int32 became int64\n\
         breaking: 1 finding(s) (layout-changed: 1)\n";
    let out = kwire_in(&dir, &["diff", "old", "new"]);
    assert_eq!(stdout(&out), expected);
    assert_eq!(out.status.code(), Some(1));
    let out = kwire_in(&dir, &["diff", "--breaking", "old", "new"]);
    assert_eq!(stdout(&out), expected);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(kwire_in(&dir, &["diff", "old"]).status.code(), Some(2));
    assert_eq!(kwire_in(&dir, &["diff", "old", "missing"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kwire gen --facts FILE --out DIR` with no schema compiles everything the
/// facts name: from the workspace's kafka-facts.json, exactly the committed
/// generated/ (needs the workspace checkout).
#[test]
fn gen_with_facts_alone_writes_generated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out_dir = temp_dir("gen-facts");
    let out_arg = out_dir.to_string_lossy().into_owned();
    let out = kwire_in(&root, &["gen", "--runtime", "crate", "--facts", "kafka-facts.json", "--out", &out_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("generated everything kafka-facts.json names into {out_arg}\n"));
    let (fresh, committed) = (
        kwire_testkit::tree(&out_dir).expect("written"),
        kwire_testkit::tree(&root.join("generated")).expect("generated/"),
    );
    assert!(committed.iter().any(|(name, _)| name == "FINGERPRINT"), "generated/ has its fingerprint");
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fresh), names(&committed));
    for ((name, ours), (_, theirs)) in fresh.iter().zip(&committed) {
        assert!(ours == theirs, "{name} differs from generated/{name}");
    }
    // --facts without --out, or --out without --facts, and no schema: 2.
    let out = kwire_in(&root, &["gen", "--facts", "kafka-facts.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no schemas given"), "{}", stderr(&out));
    assert_eq!(kwire_in(&root, &["gen", "--out", &out_arg]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&out_dir);

    // `kwire facts`, the same command: the facts file's release.
    let release = kwire_codegen::Facts::read(root.join("kafka-facts.json")).expect("kafka-facts.json reads").release;
    let out = kwire_in(&root, &["facts", "kafka-facts.json", "release"]);
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), format!("{release}\n")));
}
