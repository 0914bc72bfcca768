//! `generated/` holds the code that `build.rs` generates from `schemas/`,
//! committed so that a schema edit shows as a reviewable diff. This test
//! fails when the two differ and prints the command that refreshes it.

use std::io::Write;
use std::path::Path;

const REFRESH: &str = "cargo run -p kwire-codegen -- --runtime crate --facts kafka-facts.json --out generated schemas";

#[test]
fn generated_matches_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The published crate leaves generated/ out; `Cargo.toml.orig` is only
    // there in a crate unpacked from its .crate file, so a checkout missing
    // generated/ still fails below.
    if !root.join("generated").is_dir() && root.join("Cargo.toml.orig").is_file() {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: generated/ is not in the published crate (run this test from a checkout)"
        );
        return;
    }
    let generated = kwire_codegen::Builder::new()
        .input_dir(root.join("schemas"))
        .runtime_path("crate")
        .facts(&kwire_codegen::Facts::read(root.join("kafka-facts.json")).expect("kafka-facts.json"))
        .rerun_if_changed(false)
        .generate()
        .unwrap_or_else(|e| panic!("schemas/ does not compile:\n{e}"));
    let mut stale = Vec::new();
    for file in &generated.files {
        let committed = std::fs::read_to_string(root.join("generated").join(&file.name)).unwrap_or_default();
        if committed != file.text {
            stale.push(file.name.clone());
        }
    }
    let expected: Vec<&str> = generated.files.iter().map(|f| f.name.as_str()).collect();
    for entry in std::fs::read_dir(root.join("generated")).expect("generated/ exists") {
        let name = entry.expect("readable entry").file_name().to_string_lossy().into_owned();
        if name.ends_with(".rs") && !expected.contains(&name.as_str()) {
            stale.push(format!("{name} (no longer generated)"));
        }
    }
    assert!(stale.is_empty(), "generated/ is stale: {}\nrefresh it with:\n    {REFRESH}", stale.join(", "));
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = || {
        kwire_codegen::Builder::new()
            .input_dir(root.join("schemas"))
            .runtime_path("crate")
            .facts(&kwire_codegen::Facts::read(root.join("kafka-facts.json")).expect("kafka-facts.json"))
            .rerun_if_changed(false)
            .generate()
            .expect("schemas compile")
    };
    assert_eq!(run(), run());
}
