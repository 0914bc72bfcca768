//! Peeked fields (`Options::peeked_fields`, the facts' `peeked_fields`):
//! which messages get a `peek_<field>` function, and the entries refused.

use std::path::{Path, PathBuf};

use kwire_codegen::{Builder, Error, Generated, Options};

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas").join(format!("{name}.json"))
}

/// ProduceRequest and its response, CreateTopicsRequest and the request header, with `fields` peeked.
fn produce(fields: &[&str]) -> Result<Generated, Error> {
    let options = Options { peeked_fields: fields.iter().map(|f| f.to_string()).collect(), ..Options::default() };
    Builder::new()
        .input(schema("ProduceRequest"))
        .input(schema("ProduceResponse"))
        .input(schema("RequestHeader"))
        .input(schema("CreateTopicsRequest"))
        .input(schema("CreateTopicsResponse"))
        .set_options(options)
        .generate()
}

fn file<'a>(out: &'a Generated, name: &str) -> &'a str {
    out.files.iter().find(|f| f.name == name).map(|f| f.text.as_str()).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_peeked_field_gets_a_peek_and_a_header_its_length() -> Result<(), Error> {
    let out = produce(&[])?;
    assert!(!file(&out, "produce_request.rs").contains("fn peek_"));
    assert!(file(&out, "request_header.rs").contains("pub fn peek_len("));
    let out = produce(&["ProduceRequest.Acks", "ProduceRequest.TimeoutMs"])?;
    let request = file(&out, "produce_request.rs");
    // One function per field, returning the field's type.
    let signature = |name: &str| {
        let at = request.find(&format!("pub fn {name}(")).unwrap_or_else(|| panic!("no {name}: {request}"));
        request[at..].split('{').next().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(
        signature("peek_acks"),
        "pub fn peek_acks( body: &[u8], version: i16, ) -> Result<i16, kwire::error::DecodeError>"
    );
    assert_eq!(
        signature("peek_timeout_ms"),
        "pub fn peek_timeout_ms( body: &[u8], version: i16, ) -> Result<i32, kwire::error::DecodeError>"
    );
    Ok(())
}

#[test]
fn fields_that_cannot_be_peeked_are_errors() {
    let err = |fields: &[&str]| match produce(fields) {
        Err(Error::PeekedFields(problems)) => problems,
        other => panic!("{fields:?}: expected Error::PeekedFields, got {other:?}"),
    };
    assert_eq!(
        err(&["ProduceRequest.TransactionalId", "Acks", "ProduceRequest.Nope"]),
        [
            "ProduceRequest.TransactionalId is string; only fixed-width fields can be peeked",
            "\"Acks\" is not `Message.Field`",
            "ProduceRequest has no top-level field Nope",
        ]
    );
    assert_eq!(
        err(&["ProduceResponse.ThrottleTimeMs", "CreateTopicsRequest.timeoutMs"]),
        [
            "ProduceResponse.ThrottleTimeMs is not a positional field at every version of ProduceResponse",
            "CreateTopicsRequest.timeoutMs follows Topics, a []CreatableTopic that cannot be skipped",
        ]
    );
    // A message outside the inputs is skipped.
    assert!(produce(&["FetchRequest.ReplicaId"]).is_ok());
}
