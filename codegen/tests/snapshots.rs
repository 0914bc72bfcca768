//! Snapshots of the generated code (runtime path `crate`) for a few messages
//! of `schemas/` that between them use every feature: the request header
//! (field-level flexibleVersions override, KIP-590 tagged fields), Envelope
//! (ApiMessage, nullable bytes), AlterConfigs and AlterClientQuotas (nested
//! struct arrays, nullable strings, flexible versions) and
//! SaslAuthenticateResponse (bytes, int64, flexible from v2).
//!
//! Review a change with `cargo insta review`, or accept it with
//! `KWIRE_BLESS=1 bash scripts/test.sh -p kwire-codegen --test snapshots` (which sets insta's `INSTA_UPDATE=always`).

use std::path::Path;

fn schema(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (format!("{name}.json"), text)
}

/// The generated file of `message`, compiled together with `companions`
/// (a request needs its response and the other way round).
fn generated(message: &str, companions: &[&str]) -> String {
    generated_with(message, companions, kafka_options())
}

/// The options of Kafka's facts (kafka-facts.json) that shape one
/// message's code: its sensitive fields and the api-key table's forwardable
/// and cluster-action columns; the entity accessors; no feature gates.
fn kafka_options() -> kwire_codegen::Options {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kafka-facts.json");
    let facts = kwire_codegen::Facts::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    kwire_codegen::Options {
        sensitive_fields: facts.sensitive_fields,
        forwardable: facts.forwardable,
        cluster_action: facts.cluster_action,
        entities: true,
        ..Default::default()
    }
}

/// As [`generated`], with `extras`.
fn generated_with(message: &str, companions: &[&str], extras: kwire_codegen::Options) -> String {
    let mut sources = vec![schema(message)];
    sources.extend(companions.iter().map(|c| schema(c)));
    let out = kwire_codegen::generate_with(&sources, "crate", extras).unwrap_or_else(|e| panic!("{message}: {e}"));
    // The file of a message is its name in snake_case.
    let file = format!("{}.rs", heck::ToSnakeCase::to_snake_case(message));
    out.files
        .iter()
        .find(|f| f.name == file)
        .unwrap_or_else(|| {
            panic!("{message}: no {file} among {:?}", out.files.iter().map(|f| &f.name).collect::<Vec<_>>())
        })
        .text
        .clone()
}

#[test]
fn request_header() {
    insta::assert_snapshot!("request_header", generated("RequestHeader", &[]));
}

/// The borrowed views of the envelope: a view with an embedded message
/// (`&'a [u8]`, turned into an `EmbeddedMessage` when owned), and one of
/// the request header's struct-free fields.
#[test]
fn envelope_request_views() {
    let extras = kwire_codegen::Options { views: true, ..kafka_options() };
    insta::assert_snapshot!("envelope_request_views", generated_with("EnvelopeRequest", &["EnvelopeResponse"], extras));
}

#[test]
fn envelope_request() {
    insta::assert_snapshot!("envelope_request", generated("EnvelopeRequest", &["EnvelopeResponse"]));
}

#[test]
fn alter_configs_request() {
    insta::assert_snapshot!("alter_configs_request", generated("AlterConfigsRequest", &["AlterConfigsResponse"]));
}

#[test]
fn alter_client_quotas_request() {
    insta::assert_snapshot!(
        "alter_client_quotas_request",
        generated("AlterClientQuotasRequest", &["AlterClientQuotasResponse"])
    );
}

#[test]
fn sasl_authenticate_response() {
    insta::assert_snapshot!(
        "sasl_authenticate_response",
        generated("SaslAuthenticateResponse", &["SaslAuthenticateRequest"])
    );
}

/// The snapshot of a message does not depend on which other schemas are in the run.
#[test]
fn output_of_a_message_does_not_depend_on_the_others() {
    let alone = generated("AlterConfigsRequest", &["AlterConfigsResponse"]);
    let with_more = generated(
        "AlterConfigsRequest",
        &["AlterConfigsResponse", "RequestHeader", "EnvelopeRequest", "EnvelopeResponse"],
    );
    assert_eq!(alone, with_more);
}

/// The api-key table and the dispatch enums of two api keys (SaslHandshake,
/// SaslAuthenticate), with borrowed views: `ApiKey`, `RequestBody`,
/// `ResponseBody` and their views non-exhaustive, `From` and `TryFrom`
/// between each body type and its enum.
#[test]
fn api_keys_dispatch() {
    let sources: Vec<_> =
        ["SaslHandshakeRequest", "SaslHandshakeResponse", "SaslAuthenticateRequest", "SaslAuthenticateResponse"]
            .iter()
            .map(|name| schema(name))
            .collect();
    let extras = kwire_codegen::Options { views: true, ..kafka_options() };
    let out = kwire_codegen::generate_with(&sources, "crate", extras).expect("compiles");
    let file = out.files.iter().find(|f| f.name == "api_keys.rs").expect("api_keys.rs");
    insta::assert_snapshot!("api_keys_dispatch", file.text);
}
