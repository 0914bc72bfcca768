//! Two kinds of schema that Kafka 4 releases hold: coordinator records
//! (`"type": "coordinator-key"` and `"coordinator-value"`, the group, share
//! and transaction coordinators' internal topics), compiled like `data`
//! schemas; and removed apis (`"validVersions": "none"`, without
//! `flexibleVersions`, as LeaderAndIsr, StopReplica, UpdateMetadata and
//! ControlledShutdown since 4.0), accepted and compiled to nothing.

use std::process::Command;

use kwire_codegen::{generate, generate_with, Error, Generated, Options};

/// ConsumerGroupMetadataKey.json of Kafka 4.4, less its license header.
const COORDINATOR_KEY: &str = r#"{
  "apiKey": 3,
  "type": "coordinator-key",
  "name": "ConsumerGroupMetadataKey",
  "validVersions": "0",
  "flexibleVersions": "none",
  "fields": [
    { "name": "GroupId", "type": "string", "versions": "0",
      "about": "The group id." }
  ]
}"#;

/// A coordinator value in the shape of ConsumerGroupMetadataValue.json.
const COORDINATOR_VALUE: &str = r#"{
  "apiKey": 3,
  "type": "coordinator-value",
  "name": "ConsumerGroupMetadataValue",
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "Epoch", "versions": "0+", "type": "int32",
      "about": "The group epoch." },
    { "name": "MetadataHash", "versions": "0+", "type": "int64", "default": 0,
      "taggedVersions": "0+", "tag": 0,
      "about": "The hash of all topics in the group." }
  ]
}"#;

/// LeaderAndIsrRequest.json of Kafka 4.4, less its license header.
const REMOVED_REQUEST: &str = r#"{
  "apiKey": 4,
  "type": "request",
  "name": "LeaderAndIsrRequest",
  // This request was removed in Apache Kafka 4.0.
  "validVersions": "none"
}"#;

/// LeaderAndIsrResponse.json of Kafka 4.4, less its license header.
const REMOVED_RESPONSE: &str = r#"{
  "apiKey": 4,
  "type": "response",
  "name": "LeaderAndIsrResponse",
  // This response was removed in Apache Kafka 4.0.
  "validVersions": "none"
}"#;

/// A live api beside the removed one.
const FOO_REQUEST: &str = r#"{
  "apiKey": 7, "type": "request", "listeners": ["broker"], "name": "FooRequest",
  "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [ { "name": "Name", "type": "string", "versions": "0+", "about": "A name." } ]
}"#;

const FOO_RESPONSE: &str = r#"{
  "apiKey": 7, "type": "response", "name": "FooResponse",
  "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [ { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code." } ]
}"#;

fn sources(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect()
}

fn file<'a>(out: &'a Generated, name: &str) -> Option<&'a str> {
    out.files.iter().find(|f| f.name == name).map(|f| f.text.as_str())
}

fn names(out: &Generated) -> Vec<&str> {
    out.files.iter().map(|f| f.name.as_str()).collect()
}

#[test]
fn coordinator_records_compile_to_structs_with_a_codec() -> Result<(), Error> {
    let out = generate(
        &sources(&[
            ("ConsumerGroupMetadataKey.json", COORDINATOR_KEY),
            ("ConsumerGroupMetadataValue.json", COORDINATOR_VALUE),
        ]),
        "::kwire",
    )?;
    // One file each and the index; no api-key table (they are not api messages).
    assert_eq!(names(&out), ["consumer_group_metadata_key.rs", "consumer_group_metadata_value.rs", "mod.rs"]);

    let key = file(&out, "consumer_group_metadata_key.rs").unwrap_or_default();
    assert!(key.contains("pub struct ConsumerGroupMetadataKey {"), "{key}");
    assert!(key.contains("The ConsumerGroupMetadataKey coordinator record key (api key 3)"), "{key}");
    assert!(key.contains("pub group_id: ByteString,"), "{key}");
    assert!(key.contains("use ::kwire::ByteString;"), "{key}");
    assert!(key.contains("use ::kwire::encoding as enc;"), "{key}");
    assert!(key.contains("use ::kwire as kwire;"), "{key}");
    for item in ["enc::EncodeStruct", "enc::Struct", "kwire::message::Message"] {
        assert!(key.contains(&format!("impl {item} for ConsumerGroupMetadataKey")), "{item}: {key}");
    }
    // The apiKey is the record type, not an api: no ApiMessage impl.
    assert!(!key.contains("ApiMessage"), "{key}");

    let value = file(&out, "consumer_group_metadata_value.rs").unwrap_or_default();
    assert!(value.contains("The ConsumerGroupMetadataValue coordinator record value (api key 3)"), "{value}");
    assert!(value.contains("pub metadata_hash: i64,"), "{value}");
    assert!(value.contains("Versions 0; flexible 0."), "{value}");
    assert!(value.contains("impl kwire::message::Message for ConsumerGroupMetadataValue"), "{value}");

    let index = file(&out, "mod.rs").unwrap_or_default();
    assert!(index.contains("pub use consumer_group_metadata_key::ConsumerGroupMetadataKey;"), "{index}");
    // The summary keeps the record type as api key.
    let summary: Vec<_> =
        out.messages.iter().map(|m| (m.name.as_str(), m.api_key, m.flexible_versions.as_str())).collect();
    assert_eq!(summary, [("ConsumerGroupMetadataKey", Some(3), "none"), ("ConsumerGroupMetadataValue", Some(3), "0+")]);
    Ok(())
}

#[test]
fn removed_api_is_accepted_and_emits_nothing() -> Result<(), Error> {
    let all = sources(&[
        ("LeaderAndIsrRequest.json", REMOVED_REQUEST),
        ("LeaderAndIsrResponse.json", REMOVED_RESPONSE),
        ("FooRequest.json", FOO_REQUEST),
        ("FooResponse.json", FOO_RESPONSE),
    ]);
    for extras in [Options::default(), Options { samples: true, views: true, ..Options::default() }] {
        let out = generate_with(&all, "::kwire", extras)?;
        assert_eq!(names(&out), ["foo_request.rs", "foo_response.rs", "api_keys.rs", "mod.rs"]);
        for f in &out.files {
            assert!(!f.text.contains("LeaderAndIsr"), "{} names the removed api:\n{}", f.name, f.text);
        }
        let table = file(&out, "api_keys.rs").unwrap_or_default();
        assert!(table.contains("Foo = 7i16,"), "{table}");
        assert!(!table.contains("api_key: 4,"), "{table}");
        let listed: Vec<&str> = out.messages.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(listed, ["FooRequest", "FooResponse"]);
    }

    // The removed api alone: the index, nothing else.
    let out = generate(&all[..2], "::kwire")?;
    assert_eq!(names(&out), ["mod.rs"]);
    assert!(out.messages.is_empty());

    // Its api key cannot be asked for: nothing of it can be compiled.
    match generate_with(&all, "::kwire", Options { api_keys: Some(vec![4, 7]), ..Options::default() }) {
        Err(Error::UnknownApiKeys(keys)) => assert_eq!(keys, [4]),
        other => panic!("expected UnknownApiKeys, got {other:?}"),
    }
    Ok(())
}

/// An inverted range is empty too, but refused: a typo, not a removal.
#[test]
fn inverted_valid_versions_are_still_refused() {
    let text = REMOVED_REQUEST.replace(r#""validVersions": "none""#, r#""validVersions": "3-1""#);
    let all =
        [("LeaderAndIsrRequest.json".to_owned(), text), ("LeaderAndIsrResponse.json".into(), REMOVED_RESPONSE.into())];
    let Err(Error::Schema(diags)) = generate(&all, "::kwire") else {
        panic!("validVersions 3-1 was accepted");
    };
    let lines: Vec<String> = diags.0.iter().map(ToString::to_string).collect();
    assert_eq!(lines, ["LeaderAndIsrRequest.json: validVersions: Message LeaderAndIsrRequest has no valid versions."]);
}

/// The command line reports a set with removed apis, and one of them alone.
#[test]
fn the_command_line_summarises_removed_apis() -> std::io::Result<()> {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-removed-{}", std::process::id()));
    let (removed, mixed) = (dir.join("removed"), dir.join("mixed"));
    for d in [&removed, &mixed] {
        std::fs::create_dir_all(d)?;
        std::fs::write(d.join("LeaderAndIsrRequest.json"), REMOVED_REQUEST)?;
        std::fs::write(d.join("LeaderAndIsrResponse.json"), REMOVED_RESPONSE)?;
    }
    std::fs::write(mixed.join("FooRequest.json"), FOO_REQUEST)?;
    std::fs::write(mixed.join("FooResponse.json"), FOO_RESPONSE)?;
    let cli = env!("CARGO_BIN_EXE_kwire-codegen");
    let run = |d: &std::path::Path| Command::new(cli).arg("gen").arg(d).output();

    let out = run(&mixed)?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0], "message      api key  versions  flexible  structs  fields", "{stdout}");
    assert!(lines[1].starts_with("FooRequest ") && lines[2].starts_with("FooResponse "), "{stdout}");
    assert!(lines[3].starts_with("generated 2 messages, 2 structs, 2 fields, 4 files"), "{stdout}");

    let out = run(&removed)?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("generated 0 messages, 0 structs, 0 fields, 1 files"), "{stdout}");

    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
