//! kwire with its default features is the wire alone: no HMAC, SHA,
//! base64 or serde among its normal dependencies (KIP-507 signing lives in
//! kwire-connect, JSON behind the `json` feature). Read from
//! `cargo tree`, so a dependency added to the defaults fails here.

use std::collections::BTreeSet;
use std::process::Command;

/// The packages kwire depends on (normal edges) with `features` on top
/// of the defaults.
fn dependencies(features: &str) -> BTreeSet<String> {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.current_dir(env!("CARGO_MANIFEST_DIR"));
    cargo.args(["tree", "-p", "kwire", "-e", "normal", "--prefix", "none", "--format", "{p}"]);
    if !features.is_empty() {
        cargo.args(["--features", features]);
    }
    let out = cargo.output().expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

const POLICY_AND_TEXT: [&str; 8] = ["hmac", "sha1", "sha2", "digest", "base64", "serde", "serde_core", "serde_json"];

#[test]
fn default_features_pull_no_hmac_sha_base64_or_serde() {
    let default = dependencies("");
    assert!(default.contains("bytes") && default.contains("crc32c"), "{default:?}");
    let found: Vec<&str> = POLICY_AND_TEXT.into_iter().filter(|p| default.contains(*p)).collect();
    assert!(found.is_empty(), "default features pull {found:?}");

    // The check sees them where a feature asks for them.
    let json = dependencies("json");
    assert!(json.contains("serde_json") && json.contains("base64"), "{json:?}");
}

/// The `json` feature keeps object keys in insertion order (Kafka's field
/// order) by turning on serde_json's `preserve_order` itself, through kwire's
/// normal dependency edges, not by relying on another crate of the build
/// (kwire-codegen turns it on too, but only as a build and dev dependency).
#[test]
fn json_keeps_kafkas_field_order_on_its_own() {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "-p", "kwire", "--features", "json", "-e", "normal,features", "-i", "serde_json"])
        .args(["--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.lines().any(|l| l.trim() == r#"serde_json feature "preserve_order""#), "{tree}");
}
