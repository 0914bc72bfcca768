//! Compiles `schemas/` into `$OUT_DIR`; `src/messages.rs` includes the result.

fn main() {
    if let Err(e) = kafka_wire_codegen::Builder::new()
        .input_dir("schemas")
        .runtime_path("crate")
        .compile()
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
