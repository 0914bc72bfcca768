//! `kwire-codegen import FACTS [--release VERSION] [--releases DIR]`: a
//! release's internal-record families written into the facts' internal
//! schemas directory, without Kafka's comments and about texts, each led by
//! the facts' description of the record; a record without one stops the
//! command before anything is written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FACTS: &str = r#"{
  "release": "9.9.0",
  "internal_records": { "schemas": "internal", "families": [
    { "dir": "metadata", "module": "metadata", "records": { "ThingRecord": "A thing, made in our words." } } ] }
}"#;

const RELEASE_THING: &str = r#"// Licensed to the Apache Software Foundation (ASF).
{
  "apiKey": 7,
  "type": "metadata",
  "name": "ThingRecord",
  // Version 1 adds Size.
  "validVersions": "0-1",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "Name", "type": "string", "versions": "0+", "entityType": "topicName",
      "about": "Kafka's words." },
    { "name": "Size", "type": "int64", "versions": "1+", "default": "-1",
      "about": "Kafka's words." }
  ]
}
"#;

const IMPORTED_THING: &str = r#"// A thing, made in our words.
{
  "apiKey": 7,
  "type": "metadata",
  "name": "ThingRecord",
  "validVersions": "0-1",
  "flexibleVersions": "0+",
  "fields": [
    {"name": "Name", "type": "string", "versions": "0+", "entityType": "topicName"},
    {"name": "Size", "type": "int64", "versions": "1+", "default": "-1"}
  ]
}
"#;

/// A directory with the facts file, a stale record in the family, and a
/// release cache holding release 9.9.0's family.
fn workspace(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let release = dir.join("cache/9.9.0/schemas/metadata");
    std::fs::create_dir_all(&release).expect("the release directory");
    std::fs::create_dir_all(dir.join("internal/metadata")).expect("the family directory");
    std::fs::write(dir.join("facts.json"), FACTS).expect("facts.json");
    std::fs::write(release.join("ThingRecord.json"), RELEASE_THING).expect("the release's record");
    std::fs::write(dir.join("internal/metadata/GoneRecord.json"), "// Gone.\n{}\n").expect("a stale record");
    dir
}

fn import(dir: &Path, args: &[&str], releases_env: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kwire-codegen"));
    command.arg("import").arg(dir.join("facts.json")).args(args);
    match releases_env {
        Some(cache) => command.env("KWIRE_RELEASES", cache),
        None => command.env_remove("KWIRE_RELEASES"),
    };
    command.output().expect("kwire-codegen runs")
}

fn family(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir.join("internal/metadata"))
        .expect("listed")
        .map(|e| {
            let path = e.expect("an entry").path();
            (
                path.file_name().expect("a name").to_string_lossy().into_owned(),
                std::fs::read_to_string(&path).expect("read"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn import_writes_the_family_without_kafkas_prose() {
    let dir = workspace("writes");
    let cache = dir.join("cache");
    let out = import(&dir, &["--releases", &cache.to_string_lossy()], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}: 1 schemas from Kafka 9.9.0\n", dir.join("internal/metadata").display())
    );
    assert_eq!(family(&dir), [("ThingRecord.json".to_owned(), IMPORTED_THING.to_owned())], "the stale record gone");
    // The cache from KWIRE_RELEASES, the release named.
    std::fs::remove_file(dir.join("internal/metadata/ThingRecord.json")).expect("removed");
    let out = import(&dir, &["--release", "9.9.0"], Some(&cache));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(family(&dir), [("ThingRecord.json".to_owned(), IMPORTED_THING.to_owned())]);
    // A release not in the cache is named.
    let out = import(&dir, &["--release", "1.0.0"], Some(&cache));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1.0.0/schemas/metadata"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_without_a_description_stops_the_import_before_any_write() {
    let dir = workspace("undescribed");
    let release = dir.join("cache/9.9.0/schemas/metadata");
    std::fs::write(release.join("OtherRecord.json"), RELEASE_THING.replace("ThingRecord", "OtherRecord"))
        .expect("written");
    let before = family(&dir);
    let out = import(&dir, &[], Some(&dir.join("cache")));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no description for metadata/OtherRecord.json"), "{stderr}");
    assert_eq!(family(&dir), before, "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
