//! Compiles `schemas/` into `$OUT_DIR`; `src/messages.rs` includes the result.
//! With the `sample` feature the generated code also gets `Sample` impls,
//! with the `borrowed` feature each struct a borrowed view (`XRef<'a>`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let result = kafka_wire_codegen::Builder::new()
        .input_dir("schemas")
        .runtime_path("crate")
        .samples(std::env::var_os("CARGO_FEATURE_SAMPLE").is_some())
        .views(std::env::var_os("CARGO_FEATURE_BORROWED").is_some())
        .rerun_if_changed(true)
        .compile();
    match result {
        Ok(_) => {}
        Err(kafka_wire_codegen::Error::Schema(diags)) => {
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
