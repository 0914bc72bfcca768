//! Fields that carry secrets (`Builder::sensitive_fields`,
//! `--sensitive-fields`): the option decides which structs get a redacting
//! `Debug` and which JSON writes go through `put_sensitive`, and refuses
//! entries that name no string or bytes field.

use std::path::{Path, PathBuf};

use kwire_codegen::{Builder, Error, Facts, Generated};

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas").join(format!("{name}.json"))
}

fn file<'a>(out: &'a Generated, name: &str) -> &'a str {
    out.files.iter().find(|f| f.name == name).map(|f| f.text.as_str()).unwrap_or_else(|| panic!("no {name}"))
}

/// SaslAuthenticate's request and response, with `fields` as the sensitive
/// list (`None`: the list of kafka-facts.json), JSON impls on.
fn sasl(fields: Option<&[&str]>) -> Result<Generated, Error> {
    let mut builder = Builder::new();
    builder.input(schema("SaslAuthenticateRequest")).input(schema("SaslAuthenticateResponse")).json(true);
    match fields {
        Some(fields) => builder.sensitive_fields(fields.iter().copied()),
        None => builder.facts(&kafka_facts()),
    };
    builder.generate()
}

fn kafka_facts() -> Facts {
    Facts::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../kafka-facts.json")).expect("kafka-facts.json")
}

#[test]
fn nothing_is_sensitive_unless_asked() -> Result<(), Error> {
    let out =
        Builder::new().input(schema("SaslAuthenticateRequest")).input(schema("SaslAuthenticateResponse")).generate()?;
    assert!(!file(&out, "sasl_authenticate_request.rs").contains("Redacted"));
    Ok(())
}

#[test]
fn kafkas_facts_redact_sasl_auth_bytes() -> Result<(), Error> {
    let out = sasl(None)?;
    let request = file(&out, "sasl_authenticate_request.rs");
    assert!(request.contains("#[derive(Clone, PartialEq, Default)]\npub struct SaslAuthenticateRequest"), "{request}");
    assert!(request.contains(".field(\"auth_bytes\", &::kwire::redact::Redacted(&self.auth_bytes))"), "{request}");
    assert!(request.contains("enc::json::put_sensitive(\n"), "{request}");
    let response = file(&out, "sasl_authenticate_response.rs");
    assert!(response.contains("Redacted(&self.auth_bytes)"), "{response}");
    // The error message is not a secret: printed as the derive would.
    assert!(response.contains(".field(\"error_message\", &self.error_message)"), "{response}");
    assert!(kafka_facts().sensitive_fields.iter().any(|f| f == "SaslAuthenticateRequest.AuthBytes"));
    Ok(())
}

#[test]
fn the_option_changes_the_emitted_debug() -> Result<(), Error> {
    // None sensitive: derived Debug, plain `put`.
    let none = sasl(Some(&[]))?;
    let request = file(&none, "sasl_authenticate_request.rs");
    assert!(request.contains("#[derive(Debug, Clone, PartialEq, Default)]\npub struct SaslAuthenticateRequest"));
    assert!(!request.contains("Redacted") && !request.contains("put_sensitive"), "{request}");
    assert!(!file(&none, "sasl_authenticate_response.rs").contains("Redacted"));
    // Another field: the response's error message, and not the auth bytes.
    let other = sasl(Some(&["SaslAuthenticateResponse.ErrorMessage"]))?;
    let response = file(&other, "sasl_authenticate_response.rs");
    assert!(response.contains("Redacted(&self.error_message)"), "{response}");
    assert!(response.contains(".field(\"auth_bytes\", &self.auth_bytes)"), "{response}");
    assert!(!file(&other, "sasl_authenticate_request.rs").contains("Redacted"));
    Ok(())
}

#[test]
fn views_get_the_redacting_debug_too() -> Result<(), Error> {
    let out = Builder::new()
        .input(schema("SaslAuthenticateRequest"))
        .input(schema("SaslAuthenticateResponse"))
        .facts(&kafka_facts())
        .views(true)
        .generate()?;
    let request = file(&out, "sasl_authenticate_request.rs");
    assert!(request.contains("impl ::core::fmt::Debug for SaslAuthenticateRequestRef<'_>"), "{request}");
    assert_eq!(request.matches("Redacted(&self.auth_bytes)").count(), 2, "{request}");
    Ok(())
}

#[test]
fn entries_that_name_no_string_or_bytes_field_are_errors() {
    let err = |fields: &[&str]| match sasl(Some(fields)) {
        Err(Error::SensitiveFields(problems)) => problems,
        other => panic!("{fields:?}: expected Error::SensitiveFields, got {other:?}"),
    };
    assert_eq!(err(&["SaslAuthenticateRequest.Password"]), ["SaslAuthenticateRequest has no field Password"]);
    assert_eq!(
        err(&["SaslAuthenticateResponse.SessionLifetimeMs", "AuthBytes"]),
        [
            "SaslAuthenticateResponse.SessionLifetimeMs is int64; only string and bytes fields can be sensitive",
            "\"AuthBytes\" is not `Message.Field`",
        ]
    );
    // A message outside the inputs is skipped: a message set's list names them all.
    assert!(sasl(Some(&["AlterUserScramCredentialsRequest.Salt", "SaslAuthenticateRequest.AuthBytes"])).is_ok());
}

#[test]
fn the_command_line_takes_a_list_of_sensitive_fields() -> std::io::Result<()> {
    let cli = env!("CARGO_BIN_EXE_kwire-codegen");
    let out = std::env::temp_dir().join(format!("kwire-sensitive-{}", std::process::id()));
    let run = |list: &str| {
        std::process::Command::new(cli)
            .args(["gen", "--quiet", "--sensitive-fields", list, "--out"])
            .arg(&out)
            .arg(schema("SaslAuthenticateRequest"))
            .arg(schema("SaslAuthenticateResponse"))
            .output()
    };
    let read = || std::fs::read_to_string(out.join("sasl_authenticate_response.rs"));
    assert_eq!(run("SaslAuthenticateResponse.ErrorMessage")?.status.code(), Some(0));
    assert!(read()?.contains("Redacted(&self.error_message)"));
    assert_eq!(run("")?.status.code(), Some(0));
    assert!(!read()?.contains("Redacted"));
    let facts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kafka-facts.json");
    let with_facts = std::process::Command::new(cli)
        .args(["gen", "--quiet", "--facts"])
        .arg(&facts)
        .arg("--out")
        .arg(&out)
        .arg(schema("SaslAuthenticateRequest"))
        .arg(schema("SaslAuthenticateResponse"))
        .output()?;
    assert_eq!(with_facts.status.code(), Some(0), "{}", String::from_utf8_lossy(&with_facts.stderr));
    assert!(read()?.contains("Redacted(&self.auth_bytes)"));
    let bad = run("SaslAuthenticateResponse.Nope")?;
    let _ = std::fs::remove_dir_all(&out);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("SaslAuthenticateResponse has no field Nope"));
    Ok(())
}
