//! `generated/` holds the code kwire-codegen compiles from
//! `kafka-facts.json`, `schemas/` and `schemas-internal/` (every feature's
//! items behind their `cfg`), and the fingerprint of those sources, which
//! `build.rs` checks before including it. This test fails when the
//! committed copy differs from what the compiler writes now, or when the
//! build script's fingerprint and the compiler's disagree, and prints the
//! command that refreshes it; with `KWIRE_BLESS=1` it rewrites it.

use std::path::{Path, PathBuf};

const REFRESH: &str = "cargo run -p kwire-cli -- gen --runtime crate --facts kafka-facts.json --out generated";

#[test]
fn generated_is_what_the_compiler_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch: PathBuf = std::env::temp_dir().join(format!("kwire-generated-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    kwire_codegen::regenerate(&root.join("kafka-facts.json"), &kwire_codegen::Options::default(), "crate", &scratch)
        .unwrap_or_else(|e| panic!("the sources do not compile:\n{e:?}"));
    let (fresh, committed) = (
        kwire_testkit::tree(&scratch).expect("written"),
        kwire_testkit::tree(&root.join("generated")).expect("generated/"),
    );
    if kwire_testkit::bless() && fresh != committed {
        let _ = std::fs::remove_dir_all(root.join("generated"));
        kwire_codegen::regenerate(
            &root.join("kafka-facts.json"),
            &kwire_codegen::Options::default(),
            "crate",
            &root.join("generated"),
        )
        .expect("generated/ rewritten");
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let stale: Vec<String> = fresh
        .iter()
        .filter(|f| !committed.contains(f))
        .map(|(n, _)| n.clone())
        .chain(
            names(&committed)
                .into_iter()
                .filter(|n| !names(&fresh).contains(n))
                .map(|n| format!("{n} (no longer generated)")),
        )
        .collect();
    assert!(stale.is_empty(), "generated/ is stale: {}\nrefresh it with:\n    {REFRESH}", stale.join(", "));
}

#[test]
fn the_build_includes_the_committed_copy() {
    // build.rs hashes the sources itself and includes generated/ when its
    // fingerprint matches the compiler's: with the sources unchanged, the
    // crate compiles the committed copy.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(Path::new(env!("KWIRE_GENERATED")), root.join("generated"));
    let dirs = [root.join("schemas"), root.join("schemas-internal")];
    let print = kwire_codegen::fingerprint(root, &root.join("kafka-facts.json"), &dirs).expect("sources readable");
    let recorded = std::fs::read_to_string(root.join("generated/FINGERPRINT")).expect("generated/FINGERPRINT");
    assert_eq!(recorded.trim(), print);
}

#[test]
fn generation_is_deterministic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let facts = kwire_codegen::Facts::read(root.join("kafka-facts.json")).expect("kafka-facts.json");
    let run = || {
        kwire_codegen::Builder::new()
            .input_dir(root.join("schemas"))
            .runtime_path("crate")
            .facts(&facts)
            .rerun_if_changed(false)
            .generate()
            .expect("schemas compile")
    };
    assert_eq!(run(), run());
}
