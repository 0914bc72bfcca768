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

/// A forwardable api's error response comes from its two schemas and its
/// facts: the top-level `ErrorCode` at the versions that have it, one
/// result per request item with its key copied (not an outcome field of
/// later versions), a number collection filling each nested result's first
/// field, the error's message where the facts say the api writes it, and a
/// fixed value the facts give.
#[test]
fn an_error_response_comes_from_the_schemas_and_a_deviation() {
    let request = r#"{ "apiKey": 500, "type": "request", "listeners": ["broker"], "name": "MakeThingRequest",
      "validVersions": "0-1", "flexibleVersions": "1+", "fields": [
        { "name": "Things", "type": "[]Thing", "versions": "0+", "fields": [
          { "name": "Name", "type": "string", "versions": "0+", "mapKey": true },
          { "name": "Count", "type": "int32", "versions": "0+" },
          { "name": "Parts", "type": "[]int32", "versions": "0+" } ] },
        { "name": "TimeoutMs", "type": "int32", "versions": "0+" } ] }"#;
    let response = r#"{ "apiKey": 500, "type": "response", "name": "MakeThingResponse",
      "validVersions": "0-1", "flexibleVersions": "1+", "fields": [
        { "name": "ThrottleTimeMs", "type": "int32", "versions": "0+" },
        { "name": "ErrorCode", "type": "int16", "versions": "1+" },
        { "name": "Owner", "type": "string", "versions": "0+" },
        { "name": "TimeoutMs", "type": "int32", "versions": "0+" },
        { "name": "Results", "type": "[]ThingResult", "versions": "0+", "fields": [
          { "name": "Name", "type": "string", "versions": "0+" },
          { "name": "Count", "type": "int32", "versions": "1+" },
          { "name": "ErrorCode", "type": "int16", "versions": "0+" },
          { "name": "ErrorMessage", "type": "string", "versions": "0+", "nullableVersions": "0+" },
          { "name": "Parts", "type": "[]PartResult", "versions": "0+", "fields": [
            { "name": "Index", "type": "int32", "versions": "0+" },
            { "name": "ErrorCode", "type": "int16", "versions": "0+" } ] } ] } ] }"#;
    let sources =
        [("MakeThingRequest.json".to_owned(), request.to_owned()), ("MakeThingResponse.json".into(), response.into())];
    let generate = |deviation: serde_json::Value| {
        let facts = serde_json::json!({
            "release": "1.0.0", "forwardable": ["MakeThing"], "error_responses": {"MakeThing": deviation}
        });
        let facts = kwire_codegen::Facts::parse(&facts.to_string()).expect("facts parse");
        let options = kwire_codegen::Options {
            forwardable: facts.forwardable,
            error_responses: facts.error_responses,
            ..Default::default()
        };
        kwire_codegen::generate_with(&sources, "::kwire", options)
    };
    let generated = generate(serde_json::json!({"message": true, "values": {"Owner": "nobody"}})).expect("compiles");
    let api_keys = &generated.files.iter().find(|f| f.name == "api_keys.rs").expect("api_keys.rs").text;
    let method = api_keys.split("pub fn error_response(").nth(1).expect("the method").split("\n    }\n").next();
    let method: String = method.expect("its body").split_whitespace().collect::<Vec<_>>().join(" ");
    let expected = "Self::MakeThing(m) => { Some( ResponseBody::MakeThing(super::make_thing_response::MakeThingResponse { \
        error_code: if version >= 1 { error_code } else { Default::default() }, \
        owner: \"nobody\".into(), \
        results: m .things .iter() .map(|x0| super::make_thing_response::ThingResult { \
        name: x0.name.clone(), error_code, error_message: message.map(Into::into), \
        parts: x0 .parts .iter() .map(|x1| super::make_thing_response::PartResult { index: *x1, error_code, ..Default::default() }) \
        .collect(), ..Default::default() }) .collect(), ..Default::default() }), ) }";
    assert!(method.contains(expected), "{method}");

    // Without the deviation the message is null and the owner its default.
    let plain = generate(serde_json::json!({})).expect("compiles");
    let api_keys = &plain.files.iter().find(|f| f.name == "api_keys.rs").expect("api_keys.rs").text;
    assert!(api_keys.contains("error_message: None,"), "{api_keys}");
    assert!(!api_keys.contains("owner:"), "{api_keys}");

    // A deviation naming a field the response lacks is refused, by name.
    match generate(serde_json::json!({"values": {"Ownr": "nobody"}})) {
        Err(kwire_codegen::Error::ErrorResponses(problems)) => {
            assert_eq!(problems, ["MakeThing: values.Ownr: no such field of the response"])
        }
        other => panic!("expected ErrorResponses, got {other:?}"),
    }
}
