//! A crate's public surface, as cargo-public-api lists it, checked against a
//! committed list so that it does not grow by accident.
//!
//! [`check_package`] runs `cargo public-api` (the crate's rustdoc JSON,
//! built with a nightly toolchain) with every feature on, leaves out the
//! impls every type gets without asking (blanket, auto-trait and
//! auto-derived impls: `--simplified` three times), and compares the rest
//! with the package's `tests/public_api.txt`, one item a line.
//!
//! Generated code is left out for the packages that name its modules
//! ([`generated_modules`]): what the compiler emits from `schemas/` is
//! reviewed as the committed `generated/` itself, and listing it again
//! would put tens of thousands of lines beside it. An item of a generated
//! module that the runtime re-exports under its own path (`kwire::api::ApiKey`)
//! stays listed there.
//!
//! When the surface changes on purpose, the test is run with
//! `KWIRE_BLESS=1` ([`crate::bless`]), which rewrites the list; the diff is
//! reviewed with the change.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The generated modules of the crate `kwire`, as paths: `kwire::messages`
/// (the message sets of `schemas/`) and `kwire::internal::<module>` for each
/// internal record family that `kafka-facts.json` names.
///
/// # Errors
/// `kafka-facts.json` cannot be read or has no `internal_records.families`.
pub fn generated_modules() -> Result<Vec<String>, String> {
    let facts = crate::workspace_root().join("kafka-facts.json");
    let text = std::fs::read_to_string(&facts).map_err(|e| format!("{}: {e}", facts.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", facts.display()))?;
    let families = json
        .pointer("/internal_records/families")
        .and_then(|f| f.as_array())
        .ok_or_else(|| format!("{}: no internal_records.families", facts.display()))?;
    let mut modules = vec!["kwire::messages".to_owned()];
    for (i, family) in families.iter().enumerate() {
        let module = family
            .get("module")
            .and_then(|m| m.as_str())
            .ok_or_else(|| format!("{}: internal_records.families[{i}] has no module", facts.display()))?;
        modules.push(format!("kwire::internal::{module}"));
    }
    Ok(modules)
}

/// Checks the public surface of the library of the package `package` at
/// `manifest_dir` against its `tests/public_api.txt`, leaving out the items
/// of the modules `omit` (paths such as `kwire::messages`); rewrites the
/// list instead under [`crate::bless`]. Called from each package's
/// `tests/public_api.rs`.
///
/// Without cargo-public-api or a nightly toolchain the check is skipped
/// ([`crate::skip`]; in CI it fails). cargo-public-api builds in
/// `target/public-api/` of the workspace, beside the build of the tests
/// that run it.
///
/// # Errors
/// The difference (`-` listed but gone, `+` public but not listed) and the
/// command that refreshes the list, when they differ; cargo-public-api's
/// own error when it fails; in CI, a missing tool.
pub fn check_package(manifest_dir: &Path, package: &str, omit: &[String]) -> Result<(), String> {
    let Some(listed) = list(manifest_dir, package)? else { return Ok(()) };
    let actual: String =
        listed.lines().filter(|line| !in_modules(line, omit)).map(|l| format!("{}\n", std_paths(l))).collect();
    let list = manifest_dir.join("tests/public_api.txt");
    if crate::bless() {
        return std::fs::write(&list, &actual).map_err(|e| format!("{}: {e}", list.display()));
    }
    let expected = std::fs::read_to_string(&list).unwrap_or_default();
    let expected_lines: BTreeSet<String> = expected.lines().map(std_paths).collect();
    let actual_lines: BTreeSet<String> = actual.lines().map(str::to_owned).collect();
    if expected_lines == actual_lines {
        return Ok(());
    }
    let mut diff = String::new();
    for gone in expected_lines.difference(&actual_lines) {
        diff.push_str(&format!("- {gone}\n"));
    }
    for new in actual_lines.difference(&expected_lines) {
        diff.push_str(&format!("+ {new}\n"));
    }
    Err(format!(
        "the public API of {package} differs from {} \
         (- listed but gone, + public but not listed):\n{diff}\n\
         If the change is meant, refresh the list and commit it with the change:\n    \
         KWIRE_BLESS=1 cargo test -p {package} --all-features --test public_api",
        list.display()
    ))
}

/// `line` with the standard library's I/O types named by their `std::io`
/// path: nightly toolchains differ on whether `io::Error` is defined in
/// `core` or `std`, and the surface is the same either way.
fn std_paths(line: &str) -> String {
    line.replace("core::io::", "std::io::")
}

/// cargo-public-api's listing of the package, every feature on; `None`
/// when the tool or a nightly toolchain is missing (skipped).
fn list(manifest_dir: &Path, package: &str) -> Result<Option<String>, String> {
    let installed = Command::new("cargo").args(["public-api", "--version"]).output().is_ok_and(|o| o.status.success());
    if !installed {
        return crate::skip(&format!(
            "skipped: the public surface of {package} needs cargo-public-api (cargo install cargo-public-api --locked)"
        ));
    }
    let nightly = Command::new("rustup").args(["run", "nightly", "rustc", "--version"]).output();
    if !nightly.is_ok_and(|o| o.status.success()) {
        return crate::skip(&format!(
            "skipped: the public surface of {package} needs a nightly toolchain (rustup toolchain install nightly)"
        ));
    }
    let output = Command::new("cargo")
        .args(["public-api", "--color", "never", "--all-features", "-sss", "--manifest-path"])
        .arg(manifest_dir.join("Cargo.toml"))
        // Its own target directory: the one of the tests running this is
        // locked by their cargo, and the rustdoc JSON is built by nightly.
        .env("CARGO_TARGET_DIR", crate::workspace_root().join("target/public-api"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .output()
        .map_err(|e| format!("cargo public-api: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo public-api for {package} failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8(output.stdout).map(Some).map_err(|e| format!("cargo public-api for {package}: {e}"))
}

/// Whether the item a line of cargo-public-api's listing describes lies in
/// one of `modules`. The item is the first path of the crate on the line;
/// for an impl, that of the type after `for`, if it is the crate's (so
/// `impl kwire::message::Message for kwire::messages::X` belongs to
/// `kwire::messages`, and `impl From<kwire::messages::ApiKey> for i16` too).
fn in_modules(line: &str, modules: &[String]) -> bool {
    let Some(root) = modules.first().and_then(|m| m.split("::").next()) else { return false };
    let first_path = |text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .find(|word| word.starts_with(&format!("{root}::")))
            .map(str::to_owned)
    };
    let after_for = line.strip_prefix("impl").and_then(|_| line.rsplit_once(" for ")).and_then(|(_, t)| first_path(t));
    let Some(path) = after_for.or_else(|| first_path(line)) else { return false };
    modules.iter().any(|m| path == *m || path.starts_with(&format!("{m}::")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generated() -> Vec<String> {
        vec!["kwire::messages".to_owned(), "kwire::internal::metadata".to_owned()]
    }

    #[test]
    fn items_of_generated_modules_are_left_out() {
        let omit = generated();
        for line in [
            "pub mod kwire::messages",
            "pub struct kwire::messages::produce_request::ProduceRequest",
            "pub fn kwire::messages::produce_request::ProduceRequest::encode(&self) -> usize",
            "impl kwire::message::Message for kwire::messages::produce_request::ProduceRequest",
            "impl core::convert::From<kwire::messages::api_keys::ApiKey> for i16",
            "pub struct kwire::internal::metadata::PartitionRecord",
        ] {
            assert!(in_modules(line, &omit), "{line}");
        }
    }

    #[test]
    fn io_types_read_alike_whether_core_or_std_defines_them() {
        assert_eq!(
            std_paths("pub kwire::codec::CodecError::Io(core::io::error::Error)"),
            std_paths("pub kwire::codec::CodecError::Io(std::io::error::Error)")
        );
        assert_eq!(std_paths("impl core::fmt::Debug for X"), "impl core::fmt::Debug for X");
    }

    #[test]
    fn runtime_items_naming_generated_types_stay() {
        let omit = generated();
        for line in [
            "pub enum kwire::api::ApiKey",
            "pub fn kwire::frame::RequestFrame::body(&self) -> &kwire::messages::RequestBody",
            "impl kwire::frame::RequestFrame",
            "impl core::convert::From<kwire::messages::RequestBody> for kwire::frame::RequestFrame",
            "pub struct kwire::internal::log::ControlRecord",
            "pub struct kwire::internal::metadatax::Thing",
            "pub fn kwire_broker::reauth::remaining(u64) -> u64",
        ] {
            assert!(!in_modules(line, &omit), "{line}");
        }
        assert!(!in_modules("pub mod kwire::messages", &[]));
    }
}
