//! Compiles `schemas/` into `$OUT_DIR`; `src/messages.rs` includes the result.
//! With the `sample` feature the generated code also gets `Sample` impls,
//! with the `borrowed` feature each struct a borrowed view (`XRef<'a>`),
//! with the `json` feature `ToJson`/`FromJson` impls (Kafka's JSON form).
//! The `admin` and `controller` features choose the api keys compiled
//! beyond the core ones (`build/api_groups.rs`); the api-key table always
//! lists every api key.
//!
//! With the `internal-records` feature it also compiles each family of
//! `schemas-internal/` (Kafka's metadata log, coordinator and storage
//! records) into `$OUT_DIR/internal/FAMILY/`, with the same options, plus
//! the dispatch enums over each family's record types
//! (`build/internal_records.rs`); `src/internal/mod.rs` includes them.

mod api_groups {
    include!("build/api_groups.rs");
}

#[allow(dead_code)]
mod internal_records {
    include!("build/internal_records.rs");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/api_groups.rs");
    println!("cargo:rerun-if-changed=kafka-facts.json");
    let facts = kwire_codegen::Facts::read("kafka-facts.json").unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    let mut builder = kwire_codegen::Builder::new();
    builder
        .input_dir("schemas")
        .runtime_path("crate")
        .samples(feature("SAMPLE"))
        .views(feature("BORROWED"))
        .json(feature("JSON"))
        .facts(&facts)
        .rerun_if_changed(true);
    let (admin, controller) = (feature("ADMIN"), feature("CONTROLLER"));
    if !(admin && controller) {
        let mut keys = api_groups::CORE.to_vec();
        if admin {
            keys.extend_from_slice(api_groups::ADMIN);
        }
        if controller {
            keys.extend_from_slice(api_groups::CONTROLLER);
        }
        builder.api_keys(keys);
    }
    compile_or_exit(&builder);
    if feature("INTERNAL_RECORDS") {
        println!("cargo:rerun-if-changed=build/internal_records.rs");
        let out_dir = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
        for family in internal_records::FAMILIES {
            let input = std::path::Path::new("schemas-internal").join(family.dir);
            let out = out_dir.join("internal").join(family.module);
            let mut builder = kwire_codegen::Builder::new();
            builder
                .input_dir(&input)
                .out_dir(&out)
                .runtime_path("crate")
                .samples(feature("SAMPLE"))
                .views(feature("BORROWED"))
                .json(feature("JSON"))
                .facts(&facts)
                .rerun_if_changed(true);
            compile_or_exit(&builder);
            let schemas = internal_records::read_schemas(&input).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1);
            });
            let text = internal_records::dispatch_source(family, &schemas);
            let path = out.join("records.rs");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("{}: {e}", path.display());
                    std::process::exit(1);
                }
            }
        }
    }
}

/// Runs `builder`, or prints every diagnostic and exits.
fn compile_or_exit(builder: &kwire_codegen::Builder) {
    match builder.compile() {
        Ok(_) => {}
        Err(kwire_codegen::Error::Schema(diags)) => {
            for d in &diags.0 {
                eprintln!("{}", d.located());
            }
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
