//! Any text as a schema file: generated code or located diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let _ = kwire_codegen::generate(&[("Fuzz.json".into(), text)], "::kwire");
});
