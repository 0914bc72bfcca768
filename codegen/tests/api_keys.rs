//! Compiling some api keys only (`Builder::api_keys`, `--api-keys`): which
//! files are written, what the api-key table and the dispatch hold, and the
//! errors for api keys the schemas lack.

use std::path::{Path, PathBuf};

use kwire_codegen::{Builder, Error, Generated};

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas")
}

fn file<'a>(out: &'a Generated, name: &str) -> Option<&'a str> {
    out.files.iter().find(|f| f.name == name).map(|f| f.text.as_str())
}

#[test]
fn only_the_asked_api_keys_are_compiled_and_the_table_keeps_every_api_key() -> Result<(), Error> {
    let all = Builder::new().input_dir(schemas()).generate()?;
    let some = Builder::new().input_dir(schemas()).api_keys([0, 18]).generate()?;

    // Produce (0) and ApiVersions (18), request and response, plus every
    // schema that is not an api message (headers, records, embedded data).
    let not_api = all.messages.iter().filter(|m| m.api_key.is_none()).count();
    assert_eq!(some.messages.len(), 4 + not_api);
    for m in &some.messages {
        assert!(matches!(m.api_key, None | Some(0) | Some(18)), "{} compiled", m.name);
    }
    assert!(file(&some, "produce_response.rs").is_some());
    assert!(file(&some, "api_versions_request.rs").is_some());
    assert!(file(&some, "request_header.rs").is_some());
    assert!(file(&some, "fetch_request.rs").is_none());
    let index = file(&some, "mod.rs").unwrap_or_default();
    assert!(index.contains("pub mod produce_request"));
    assert!(!index.contains("pub mod fetch_request"));

    // The table lists every api key, with the same text as when all are
    // compiled but for the `compiled` flags.
    let (table_all, table_some) =
        (file(&all, "api_keys.rs").unwrap_or_default(), file(&some, "api_keys.rs").unwrap_or_default());
    let table = |text: &str| {
        text.split("pub enum RequestBody").next().unwrap_or_default().replace("compiled: false", "compiled: true")
    };
    assert!(table(table_all) == table(table_some), "the tables differ beyond the compiled flags");
    assert_eq!(table_some.matches("compiled: true").count(), 2);
    assert!(table_some.contains("Fetch = 1i16,"));

    // The dispatch holds the compiled bodies, and tells an api key of the
    // table that is not compiled from an unknown one.
    assert!(table_some.contains("Produce(super::produce_request::ProduceRequest)"));
    assert!(!table_some.contains("Fetch(super::fetch_request::FetchRequest)"));
    assert!(table_some.contains("DecodeErrorKind::ApiKeyNotCompiled("));
    assert!(!table_all.contains("ApiKeyNotCompiled"));
    Ok(())
}

#[test]
fn every_api_key_asked_for_gives_the_same_output_as_none_asked_for() -> Result<(), Error> {
    let all = Builder::new().input_dir(schemas()).generate()?;
    let keys: Vec<i16> = all.messages.iter().filter_map(|m| m.api_key).collect();
    let listed = Builder::new().input_dir(schemas()).api_keys(keys).generate()?;
    assert_eq!(all, listed);
    Ok(())
}

#[test]
fn api_keys_the_schemas_lack_are_an_error() {
    let result = Builder::new().input_dir(schemas()).api_keys([18, 999, -1, 999]).generate();
    match result {
        Err(Error::UnknownApiKeys(keys)) => assert_eq!(keys, vec![-1, 999]),
        other => panic!("expected UnknownApiKeys, got {other:?}"),
    }
    let text = Error::UnknownApiKeys(vec![999]).to_string();
    assert_eq!(text, "api keys [999] are not in the schemas given");
}

#[test]
fn the_command_line_takes_a_list_of_api_keys() -> std::io::Result<()> {
    let cli = env!("CARGO_BIN_EXE_kwire-codegen");
    let run = |keys: &str| {
        std::process::Command::new(cli).args(["gen", "--quiet", "--api-keys", keys]).arg(schemas()).output()
    };
    let ok = run("0, 18")?;
    assert_eq!(ok.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(stdout.starts_with("generated 17 messages"), "{stdout}");
    let bad = run("0,produce")?;
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("\"produce\" is not an api key"));
    let unknown = run("0,999")?;
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("api keys [999] are not in the schemas given"));
    Ok(())
}

#[test]
fn no_api_key_asked_for_gives_the_table_alone() -> Result<(), Error> {
    let none = Builder::new().input_dir(schemas()).api_keys([]).generate()?;
    assert!(none.messages.iter().all(|m| m.api_key.is_none()));
    let table = file(&none, "api_keys.rs").unwrap_or_default();
    assert!(table.contains("pub enum ApiKey"));
    assert!(!table.contains("compiled: true"));
    assert!(!table.contains("pub enum RequestBody"));
    let index = file(&none, "mod.rs").unwrap_or_default();
    assert!(index.contains("API_INFO") && !index.contains("RequestBody"));
    Ok(())
}

#[test]
fn the_table_says_which_api_keys_are_compiled() -> Result<(), Error> {
    let some = Builder::new().input_dir(schemas()).api_keys([18]).generate()?;
    let table = file(&some, "api_keys.rs").unwrap_or_default();
    assert_eq!(table.matches("compiled: true").count(), 1);
    let at = table.find("api_key: ApiKey::ApiVersions,").unwrap_or_default();
    let entry = &table[at..at + table[at..].find("},").unwrap_or_default()];
    assert!(entry.contains("compiled: true"), "{entry}");
    Ok(())
}

/// A request and an empty response of api key `key`, the request's fields
/// and common structs given as JSON text.
fn api(name: &str, key: i16, flexible: &str, fields: &str, common: &str) -> [(String, String); 2] {
    let request = format!(
        r#"{{ "apiKey": {key}, "type": "request", "listeners": ["broker"], "name": "{name}Request",
            "validVersions": "0-2", "flexibleVersions": "{flexible}", "fields": [{fields}], "commonStructs": [{common}] }}"#
    );
    let response = format!(
        r#"{{ "apiKey": {key}, "type": "response", "name": "{name}Response",
            "validVersions": "0-2", "flexibleVersions": "{flexible}", "fields": [] }}"#
    );
    [(format!("{name}Request.json"), request), (format!("{name}Response.json"), response)]
}

/// `requires_delayed_allocation` as Kafka derives it from the request
/// schemas: bytes at any depth outside the tagged fields, records in a
/// classic version; a struct that holds arrays of itself is walked once.
#[test]
fn delayed_allocation_follows_the_request_schema() -> Result<(), Error> {
    let node = r#"{ "name": "Node", "versions": "0+", "fields": [
        { "name": "Left", "type": "[]Node", "versions": "0+" },
        { "name": "Right", "type": "[]Node", "versions": "0+" },
        { "name": "Payload", "type": "bytes", "versions": "2+" } ] }"#;
    let tagged = r#"{ "name": "Token", "type": "bytes", "versions": "0+", "taggedVersions": "0+", "tag": 0 }"#;
    let records = r#"{ "name": "Records", "type": "records", "versions": "0+", "nullableVersions": "0+" }"#;
    let tree = r#"{ "name": "Root", "type": "Node", "versions": "0+" }"#;
    // Without bytes anywhere: every path must be seen to say so.
    let bare = r#"{ "name": "Bare", "versions": "0+", "fields": [
        { "name": "Left", "type": "[]Bare", "versions": "0+" },
        { "name": "Right", "type": "[]Bare", "versions": "0+" } ] }"#;
    let bare_tree = r#"{ "name": "Root", "type": "Bare", "versions": "0+" }"#;
    let mut sources = Vec::new();
    sources.extend(api("Tagged", 1000, "0+", tagged, ""));
    sources.extend(api("CompactRecords", 1001, "0+", records, ""));
    sources.extend(api("ClassicRecords", 1002, "2+", records, ""));
    sources.extend(api("Tree", 1003, "0+", tree, node));
    sources.extend(api("BareTree", 1004, "0+", bare_tree, bare));
    let out = kwire_codegen::generate(&sources, "crate")?;
    let table = file(&out, "api_keys.rs").expect("api_keys.rs");
    let flags: Vec<bool> = table
        .lines()
        .filter_map(|l| l.trim().strip_prefix("requires_delayed_allocation: "))
        .map(|v| v.trim_end_matches(',') == "true")
        .collect();
    // In api-key order: Tagged, CompactRecords, ClassicRecords, Tree, BareTree.
    assert_eq!(flags, [false, false, true, true, false]);
    Ok(())
}
