//! The examples (examples/) as executables for the tests that run them,
//! built by a nested `cargo build` with the features the test itself was
//! built with: `cargo test` has normally built them already, so nothing is
//! compiled, and with every feature on (as in CI) `--all-features` keeps
//! cargo's fingerprint.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// Every feature of the crate, and whether this test was built with it.
fn features() -> [(&'static str, bool); 12] {
    [
        ("admin", cfg!(feature = "admin")),
        ("controller", cfg!(feature = "controller")),
        ("gzip", cfg!(feature = "gzip")),
        ("snappy", cfg!(feature = "snappy")),
        ("lz4", cfg!(feature = "lz4")),
        ("zstd", cfg!(feature = "zstd")),
        ("sample", cfg!(feature = "sample")),
        ("borrowed", cfg!(feature = "borrowed")),
        ("json", cfg!(feature = "json")),
        ("uuid", cfg!(feature = "uuid")),
        ("tokio", cfg!(feature = "tokio")),
        ("internal-records", cfg!(feature = "internal-records")),
    ]
}

/// The executable of the example `name`, built once per test run.
///
/// # Panics
/// With cargo's messages when the build fails (the test was built without
/// a feature the example requires, say), or when cargo names no executable.
pub fn example(name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    // Held while building: one nested cargo at a time.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(name) {
        return path.clone();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "build",
        "--example",
        name,
        "--message-format=json-render-diagnostics",
    ]);
    let features = features();
    if features.iter().all(|(_, on)| *on) {
        command.arg("--all-features");
    } else {
        let on: Vec<&str> = features.iter().filter(|(_, on)| *on).map(|(feature, _)| *feature).collect();
        command.arg("--no-default-features").arg("--features").arg(on.join(","));
    }
    let out = command.output().expect("cargo runs");
    assert!(out.status.success(), "building examples/{name} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| {
            m["reason"] == "compiler-artifact" && m["target"]["name"] == name && m["target"]["kind"][0] == "example"
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo names no executable of examples/{name}"));
    built.insert(name.to_string(), path.clone());
    path
}
