//! Compiles `schemas/` (the worker metadata and assignment bodies of the
//! Connect group protocol) into `$OUT_DIR`; `src/messages.rs` includes the
//! result. Generated code refers to the runtime as `::kwire`.

fn main() {
    match kwire_codegen::Builder::new().input_dir("schemas").compile() {
        Ok(_) => {}
        Err(kwire_codegen::Error::Schema(diagnostics)) => {
            for d in &diagnostics.0 {
                eprintln!("{}", d.located());
            }
            std::process::exit(1);
        }
        Err(other) => {
            eprintln!("{other}");
            std::process::exit(1);
        }
    }
}
