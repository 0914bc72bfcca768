//! Compiles `schemas/` into `$OUT_DIR`; `src/messages.rs` includes the result.
//! With the `sample` feature the generated code also gets `Sample` impls,
//! with the `borrowed` feature each struct a borrowed view (`XRef<'a>`),
//! with the `json` feature `ToJson`/`FromJson` impls (Kafka's JSON form).
//! The `admin` and `controller` features choose the api keys compiled
//! beyond the core ones (`build/api_groups.rs`); the api-key table always
//! lists every api key.

mod api_groups {
    include!("build/api_groups.rs");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/api_groups.rs");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    let mut builder = kafka_wire_codegen::Builder::new();
    builder
        .input_dir("schemas")
        .runtime_path("crate")
        .samples(feature("SAMPLE"))
        .views(feature("BORROWED"))
        .json(feature("JSON"))
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
    match builder.compile() {
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
