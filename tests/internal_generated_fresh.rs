//! `generated/internal/FAMILY/` holds what `build.rs` generates from
//! `schemas-internal/FAMILY/` with the `internal-records` feature (the
//! structs, formatted, and the dispatch enums of
//! `build/internal_records.rs`), committed so that a schema edit shows as a
//! reviewable diff. This test fails when they differ; run it with
//! `KWIRE_REFRESH_GENERATED=1` to rewrite them.

#[allow(dead_code)]
mod internal_records {
    include!("../build/internal_records.rs");
}

use std::io::Write;
use std::path::Path;

#[test]
fn generated_internal_matches_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("generated").is_dir() && root.join("Cargo.toml.orig").is_file() {
        let _ = writeln!(std::io::stderr(), "skipped: generated/ is not in the published crate");
        return;
    }
    let refresh = std::env::var_os("KWIRE_REFRESH_GENERATED").is_some_and(|v| !v.is_empty());
    let mut stale = Vec::new();
    for family in internal_records::FAMILIES {
        let input = root.join("schemas-internal").join(family.dir);
        let out = root.join("generated/internal").join(family.module);
        let generated = kwire_codegen::Builder::new()
            .input_dir(&input)
            .runtime_path("crate")
            .facts(&kwire_codegen::Facts::read(root.join("kafka-facts.json")).expect("kafka-facts.json"))
            .rerun_if_changed(false)
            .generate()
            .unwrap_or_else(|e| panic!("schemas-internal/{} does not compile:\n{e}", family.dir));
        let schemas = internal_records::read_schemas(&input).expect("schemas read");
        let mut files: Vec<(String, String)> = generated.files.into_iter().map(|f| (f.name, f.text)).collect();
        files.push(("records.rs".into(), internal_records::dispatch_source(family, &schemas)));
        if refresh {
            std::fs::create_dir_all(&out).expect("create dir");
        }
        for (name, text) in &files {
            let path = out.join(name);
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                if refresh {
                    std::fs::write(&path, text).expect("write");
                } else {
                    stale.push(format!("{}/{name}", family.module));
                }
            }
        }
        if let Ok(entries) = std::fs::read_dir(&out) {
            for entry in entries {
                let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
                if name.ends_with(".rs") && !files.iter().any(|(n, _)| *n == name) {
                    stale.push(format!("{}/{name} (no longer generated)", family.module));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated/internal/ is stale: {}\nrefresh it with:\n    KWIRE_REFRESH_GENERATED=1 cargo test --test internal_generated_fresh",
        stale.join(", ")
    );
}
