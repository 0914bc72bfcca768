//! `schemas-internal/FAMILY/` against Kafka 4.4.0's schema families (as
//! `interop/scripts/kafka-release.sh 4.4.0` extracts them): the same files, each
//! equal to the release's once comments and `about` texts are left out on
//! both sides (ours have a one-line description of our own as a comment, no
//! `about` of Kafka's). `kwire-codegen import kafka-facts.json` writes them.
//!
//! Without the release's schemas the test says `skipped: ...` and passes,
//! except under `CI`.

mod common;

use std::path::Path;

use serde_json::Value;

/// The release `schemas-internal/` follows and its families' directories:
/// `release` and `internal_records` of kafka-facts.json.
fn facts() -> (String, Vec<String>) {
    let facts: Value = serde_json::from_str(include_str!("../../kafka-facts.json")).expect("kafka-facts.json is JSON");
    let release = facts["release"].as_str().expect("a release").to_owned();
    let families = facts["internal_records"]["families"].as_array().expect("the families");
    (release, families.iter().map(|f| f["dir"].as_str().expect("a directory").to_owned()).collect())
}

/// `value` without any `about` key, at any depth.
fn without_about(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter().filter(|(k, _)| *k != "about").map(|(k, v)| (k.clone(), without_about(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_about).collect()),
        other => other.clone(),
    }
}

fn json_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    kwire_codegen::parse_schema(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn committed_schemas_are_the_releases() {
    let root = kwire_testkit::workspace_root();
    let mut compared = 0;
    let (release_name, families) = facts();
    for family in &families {
        let family = family.as_str();
        let Some(release) = common::release_schemas(&release_name, family) else { return };
        let ours = root.join("schemas-internal").join(family);
        assert_eq!(json_files(&ours), json_files(&release), "{family}: the files differ from Kafka {release_name}'s");
        for name in json_files(&ours) {
            let (mine, theirs) = (read(&ours.join(&name)), read(&release.join(&name)));
            assert_eq!(
                without_about(&mine),
                without_about(&theirs),
                "{family}/{name} differs from Kafka {release_name}'s (about texts and comments aside); \
                 rewrite with `cargo run -p kwire-codegen -- import kafka-facts.json --release {release_name}`"
            );
            compared += 1;
        }
    }
    assert!(compared > 80, "compared {compared} schemas");
}

#[test]
fn committed_schemas_hold_no_kafka_prose() {
    let root = kwire_testkit::workspace_root().join("schemas-internal");
    for family in facts().1 {
        let dir = root.join(&family);
        for name in json_files(&dir) {
            let text = std::fs::read_to_string(dir.join(&name)).expect("readable");
            assert!(!text.contains("\"about\""), "{family}/{name} has an about text");
            assert!(!text.contains("Licensed to the Apache"), "{family}/{name} has a license header");
            let comments: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("//")).collect();
            assert_eq!(comments.len(), 1, "{family}/{name}: one description line, no other comment");
            assert!(text.starts_with("// ") && comments[0].len() > 20, "{family}/{name}: no description of its own");
        }
    }
}
