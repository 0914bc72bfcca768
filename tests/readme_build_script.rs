//! The README's build script: it reports schema errors located, one a line,
//! and fails the build with exit status 1, as this crate's own build.rs does,
//! instead of a panic and its backtrace. The
//! snippet itself compiles as a README doctest (`rust,no_run`); this test
//! checks what it does with errors, and runs the same handling on a broken
//! schema to show what a user sees.

use std::path::Path;

/// The README's `// build.rs` code block.
fn readme_build_script() -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md");
    let start = readme.find("// build.rs\n").expect("the README has a `// build.rs` snippet");
    let end = readme[start..].find("```").expect("the snippet's block ends") + start;
    readme[start..end].to_owned()
}

#[test]
fn readme_build_script_exits_with_located_errors() {
    let snippet = readme_build_script();
    for banned in [".unwrap()", ".expect(", "panic!"] {
        assert!(!snippet.contains(banned), "the README's build.rs uses {banned}:\n{snippet}");
    }
    for needed in ["Error::Schema(", ".located()", "eprintln!", "std::process::exit(1)"] {
        assert!(snippet.contains(needed), "the README's build.rs lacks {needed}:\n{snippet}");
    }
    // The crate's own build script handles errors the same way.
    let build = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("build.rs")).expect("build.rs");
    assert!(build.contains(".located()") && build.contains("std::process::exit(1)"));
}

#[test]
fn located_errors_name_file_line_and_path() {
    let dir = std::env::temp_dir().join(format!("kwire-readme-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let schema = "{\n  \"type\": \"data\",\n  \"name\": \"Broken\",\n  \"validVersions\": \"0\",\n  \"flexibleVersions\": \"none\",\n  \"fields\": [\n    { \"name\": \"X\", \"type\": \"int33\", \"versions\": \"0+\" }\n  ]\n}\n";
    std::fs::write(dir.join("Broken.json"), schema).expect("schema written");
    let result = kwire_codegen::Builder::new().input_dir(&dir).rerun_if_changed(false).generate();
    let _ = std::fs::remove_dir_all(&dir);
    let Err(kwire_codegen::Error::Schema(diagnostics)) = result else {
        panic!("a field of type int33 is a schema error, got {result:?}");
    };
    let lines: Vec<String> = diagnostics.0.iter().map(|d| d.located()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("Broken.json:7: "), "{}", lines[0]);
    assert!(lines[0].contains("int33"), "{}", lines[0]);
}
