//! A facts file and the schema set it belongs to: `regenerate` refuses an
//! api the facts name that the set lacks (a typo would otherwise leave an
//! api out of its group silently), while a few schemas compiled with the
//! facts of a larger set pass the names they lack over.

use std::path::{Path, PathBuf};

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas").join(format!("{name}.json"))
}

/// A scratch schema set of SaslHandshake and SaslAuthenticate with a facts
/// file naming `apis` in its one api group.
fn scratch(tag: &str, apis: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kwire-facts-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("schemas")).expect("scratch folder");
    for name in ["SaslHandshakeRequest", "SaslHandshakeResponse", "SaslAuthenticateRequest", "SaslAuthenticateResponse"]
    {
        std::fs::copy(schema(name), dir.join("schemas").join(format!("{name}.json"))).expect("schema copied");
    }
    let facts = serde_json::json!({
        "release": "4.4.0",
        "releases": {},
        "schemas": "schemas",
        "features": {},
        "api_groups": {"core": {"feature": null, "apis": apis}},
        "forwardable": [],
        "cluster_action": [],
        "sensitive_fields": ["SaslAuthenticateRequest.AuthBytes"],
    });
    std::fs::write(dir.join("facts.json"), facts.to_string()).expect("facts written");
    dir
}

#[test]
fn regenerate_refuses_an_api_the_schema_set_lacks() {
    let dir = scratch("typo", &["SaslHandshake", "SaslAuthentcate"]);
    let result = kwire_codegen::regenerate(&dir.join("facts.json"), &Default::default(), "crate", &dir.join("out"));
    match result {
        Err(kwire_codegen::Error::UnknownApis(apis)) => assert_eq!(apis, ["SaslAuthentcate"]),
        other => panic!("expected UnknownApis, got {other:?}"),
    }
    let dir = scratch("whole", &["SaslHandshake", "SaslAuthenticate"]);
    kwire_codegen::regenerate(&dir.join("facts.json"), &Default::default(), "crate", &dir.join("out"))
        .expect("the facts name only apis of their set");
    let request = std::fs::read_to_string(dir.join("out/sasl_authenticate_request.rs")).expect("request written");
    assert!(request.contains("Redacted(&self.auth_bytes)"), "{request}");
    assert!(dir.join("out/FINGERPRINT").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_few_schemas_compile_with_the_facts_of_a_larger_set() {
    let facts = kwire_codegen::Facts::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../kafka-facts.json"))
        .expect("kafka-facts.json reads");
    let generated = kwire_codegen::Builder::new()
        .input(schema("SaslAuthenticateRequest"))
        .input(schema("SaslAuthenticateResponse"))
        .facts(&facts)
        .generate()
        .expect("Kafka's facts name apis these two schemas lack, passed over");
    let request = generated.files.iter().find(|f| f.name == "sasl_authenticate_request.rs").map(|f| f.text.as_str());
    assert!(request.is_some_and(|text| text.contains("Redacted(&self.auth_bytes)")), "{request:?}");
}

/// The dispatch enums of an internal-record family name the runtime by the
/// path `regenerate` is given, and compile their extras behind the features
/// the facts name, as every other generated file does.
#[test]
fn an_internal_family_follows_the_runtime_path_and_the_facts_features() {
    let dir = scratch("family", &["SaslHandshake", "SaslAuthenticate"]);
    let family = dir.join("internal/transaction-coordinator");
    std::fs::create_dir_all(&family).expect("family folder");
    for name in ["TransactionLogKey", "TransactionLogValue"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../schemas-internal/transaction-coordinator")
            .join(format!("{name}.json"));
        std::fs::copy(from, family.join(format!("{name}.json"))).expect("schema copied");
    }
    let mut facts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("facts.json")).expect("facts read")).expect("json");
    facts["features"] = serde_json::json!({"json": "kafka-json", "samples": "random"});
    facts["internal_records"] = serde_json::json!({"schemas": "internal", "families": [
        {"dir": "transaction-coordinator", "module": "transaction_coordinator", "framed": null, "coordinator": true}
    ]});
    std::fs::write(dir.join("facts.json"), facts.to_string()).expect("facts written");
    kwire_codegen::regenerate(&dir.join("facts.json"), &Default::default(), "::kwire", &dir.join("out"))
        .expect("the set and its family compile");
    let records =
        std::fs::read_to_string(dir.join("out/internal/transaction_coordinator/records.rs")).expect("records written");
    assert!(records.contains("impl kwire::internal::RecordData for CoordinatorRecordKey"), "{records}");
    assert!(records.contains("use ::kwire as kwire;"), "{records}");
    assert!(!records.contains("crate::"), "{records}");
    assert!(records.contains("#[cfg(feature = \"kafka-json\")]\n    fn from_json("), "{records}");
    assert!(records.contains("#[cfg(feature = \"random\")]\n    fn sample("), "{records}");
    assert!(records.contains("type_name: \"TRANSACTION_LOG\""), "{records}");
    let _ = std::fs::remove_dir_all(&dir);
}
