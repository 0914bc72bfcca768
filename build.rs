//! Points the crate at its generated code, and regenerates it only when its
//! sources changed.
//!
//! `generated/` holds what kwire-codegen compiles from `kafka-facts.json`,
//! `schemas/` and `schemas-internal/`: the messages, the internal-record
//! families and the api-key table, with every feature's items behind its
//! own `#[cfg(feature = "…")]` (api groups `admin` and `controller`,
//! `borrowed`, `json`, `sample`), so that one committed copy serves every
//! feature set, and `generated/FINGERPRINT`, the fingerprint of those
//! sources. This script hashes the sources the same way; when the two agree
//! the crate includes `generated/` as it is, and a build compiles no code
//! generator (kwire-codegen is an optional build-dependency).
//!
//! When they differ (a schema was edited), the build stops with the command
//! that refreshes `generated/`, unless the feature `regenerate` is on: the
//! script then compiles the sources into `$OUT_DIR/generated` with
//! kwire-codegen and the crate includes that.
//!
//! Why: generating at every build, the alternative this replaces, also
//! compiles kwire-codegen and its dependencies (quote, proc-macro2,
//! serde_json, heck) and runs it. A hello-world binary on kwire now takes,
//! in whole-build CPU time against one on kafka-protocol 0.18, 1.28×
//! (debug) and 1.36× (release) with every api key, 0.68× and 0.43× with the
//! core api keys (docs/performance.md, "Build: a crate depending on kwire").

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    for source in ["build.rs", "kafka-facts.json", "schemas", "schemas-internal", "generated/FINGERPRINT"] {
        println!("cargo:rerun-if-changed={source}");
    }
    let dirs = [root.join("schemas"), root.join("schemas-internal")];
    let current = match fingerprint(&root, &root.join("kafka-facts.json"), &dirs) {
        Ok(print) => print,
        Err((path, e)) => fail(&format!("{}: {e}", path.display())),
    };
    let recorded = std::fs::read_to_string(root.join("generated/FINGERPRINT")).unwrap_or_default();
    let generated =
        if recorded.trim() == current { root.join("generated") } else { regenerate(&root, &current, recorded.trim()) };
    println!("cargo:rustc-env=KWIRE_GENERATED={}", generated.display());
}

/// Compiles the sources into `$OUT_DIR/generated` (feature `regenerate`).
#[cfg(feature = "regenerate")]
fn regenerate(root: &Path, _current: &str, _recorded: &str) -> PathBuf {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("generated");
    let options = kwire_codegen::Options::default();
    match kwire_codegen::regenerate(&root.join("kafka-facts.json"), &options, "crate", &out) {
        Ok(()) => out,
        Err(kwire_codegen::Error::Schema(diags)) => {
            fail(&diags.0.iter().map(|d| d.located()).collect::<Vec<_>>().join("\n"))
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// Without the feature `regenerate`: a build error that says what to run.
#[cfg(not(feature = "regenerate"))]
fn regenerate(_root: &Path, current: &str, recorded: &str) -> PathBuf {
    const REFRESH: &str = "cargo run -p kwire-cli -- gen --runtime crate --facts kafka-facts.json --out generated";
    fail(&format!(
        "generated/ was not generated from the current kafka-facts.json, schemas/ and schemas-internal/ \
         (their fingerprint is {current}, generated/FINGERPRINT says {recorded:?}); refresh it with\n    {REFRESH}\n\
         or build with the feature `regenerate`"
    ))
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

// kwire-codegen's `fingerprint` (codegen/src/fingerprint.rs), which writes
// generated/FINGERPRINT: the same hash of the same files, here without the
// compiler. tests/generated_fresh.rs checks that the two agree.
fn fingerprint(root: &Path, facts: &Path, dirs: &[PathBuf]) -> Result<String, (PathBuf, std::io::Error)> {
    let mut files = vec![facts.to_path_buf()];
    for dir in dirs {
        walk(dir, &mut files)?;
    }
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(&f);
            let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            (name.join("/"), f)
        })
        .collect();
    named.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (name, path) in &named {
        let bytes = std::fs::read(path).map_err(|e| (path.clone(), e))?;
        feed(name.as_bytes());
        feed(&[0]);
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), (PathBuf, std::io::Error)> {
    let entries = std::fs::read_dir(dir).map_err(|e| (dir.to_path_buf(), e))?;
    for entry in entries {
        let path = entry.map_err(|e| (dir.to_path_buf(), e))?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
