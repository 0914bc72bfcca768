//! The compiler on Apache Kafka's own 186 schemas, unmodified: (a) the
//! library accepts them all, (b) the generated code builds against the
//! kwire runtime without a single warning, (c) the command line
//! reports them, and refuses a bad schema with a located error.
//!
//! The corpus is `$KWIRE_SHARED/kafka-messages`, `KWIRE_SHARED`
//! defaulting to `../shared` next to the workspace root. Without it the tests
//! print `skipped: ...` and pass, unless `CI` is set, where they fail.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const CORPUS_SIZE: usize = 186;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is inside the workspace").to_path_buf()
}

/// The corpus directory, or `None` (after saying so) when it is absent.
fn corpus(what: &str) -> Option<PathBuf> {
    let shared = match std::env::var_os("KWIRE_SHARED") {
        // A relative path is taken from the workspace root, whichever crate runs the test.
        Some(dir) if !dir.is_empty() => workspace_root().join(dir),
        _ => workspace_root().join("../shared"),
    };
    let dir = shared.join("kafka-messages");
    if dir.is_dir() {
        return Some(dir);
    }
    let message = format!("skipped: {what} needs {} (set KWIRE_SHARED)", dir.display());
    if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
        panic!("{message}");
    }
    // Written to stderr directly: the test harness captures `eprintln!`.
    let _ = writeln!(std::io::stderr(), "{message}");
    None
}

fn schema_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn sources(dir: &Path) -> Vec<(String, String)> {
    schema_files(dir)
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// (a) Every schema of the corpus compiles, as given.
#[test]
fn library_accepts_the_whole_corpus() {
    let Some(dir) = corpus("corpus acceptance") else { return };
    let sources = sources(&dir);
    assert_eq!(sources.len(), CORPUS_SIZE, "schemas in {}", dir.display());
    let out = kwire_codegen::generate(&sources, "::kwire").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.messages.len(), CORPUS_SIZE);
    // One file per message, the api-key table and the index.
    assert_eq!(out.files.len(), CORPUS_SIZE + 2);
    assert_eq!(out.files.last().unwrap().name, "mod.rs");
    let names: std::collections::BTreeSet<&str> = out.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.len(), out.files.len(), "file names are distinct");
    // Every message is summarised in file-name order, with its file.
    let files: Vec<&str> = out.messages.iter().map(|m| m.file.as_str()).collect();
    let expected: Vec<&str> = sources.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(files, expected);
    let requests = out.messages.iter().filter(|m| m.name.ends_with("Request") && m.api_key.is_some()).count();
    let responses = out.messages.iter().filter(|m| m.name.ends_with("Response") && m.api_key.is_some()).count();
    assert_eq!(requests, responses, "every request has its response");
}

/// Doc comments of the generated code hold text, not `quote!` variables:
/// `#name` inside a `///` line is not interpolated, so a link written that
/// way would point nowhere. Checked with every extra on and both runtime paths.
#[test]
fn generated_docs_hold_no_uninterpolated_variables() {
    let Some(dir) = corpus("generated docs") else { return };
    let sources = sources(&dir);
    for runtime in ["::kwire", "crate"] {
        let extras = kwire_codegen::Options { samples: true, views: true, ..Default::default() };
        let out = kwire_codegen::generate_with(&sources, runtime, extras).unwrap_or_else(|e| panic!("{e}"));
        for file in &out.files {
            for (n, line) in file.text.lines().enumerate() {
                let doc = line.trim_start();
                if doc.starts_with("///") || doc.starts_with("//!") || doc.starts_with("#[doc") {
                    assert!(!doc.contains("](#") && !doc.contains("[`#"), "{}:{}: {line}", file.name, n + 1);
                }
            }
        }
        let api = out.files.iter().find(|f| f.name == "api_keys.rs").expect("api_keys.rs");
        let path = runtime.trim_start_matches("::");
        assert!(api.text.contains(&format!("]({path}::error::UnexpectedBody)")), "{runtime}");
    }
}

/// Where the scratch crate goes: under the target directory of this build.
fn scratch_dir() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        // A relative path is taken from the workspace root, whichever crate runs the test.
        Some(dir) if !dir.is_empty() => workspace_root().join(dir),
        _ => workspace_root().join("target"),
    };
    let target = if target.is_absolute() { target } else { workspace_root().join(target) };
    target.join("corpus-check")
}

/// (b) The generated corpus builds against the runtime, with no warning.
#[test]
fn generated_corpus_builds_without_warnings() {
    let Some(dir) = corpus("corpus build") else { return };
    let scratch = scratch_dir();
    let src = scratch.join("src");
    let generated = src.join("generated");
    std::fs::create_dir_all(&generated).unwrap();

    let out = kwire_codegen::Builder::new()
        .input_dir(&dir)
        .out_dir(&generated)
        .runtime_path("::kwire")
        .rerun_if_changed(false)
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.messages.len(), CORPUS_SIZE);

    let root = workspace_root();
    let manifest = format!(
        r#"# Written by codegen/tests/corpus.rs: Kafka's schemas compiled against kwire.
[package]
name = "corpus-check"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
kwire = {{ path = {root:?}, default-features = false }}

[workspace]
"#,
        root = root.display().to_string()
    );
    std::fs::write(scratch.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "//! Kafka's schemas, generated by kwire-codegen (codegen/tests/corpus.rs).\n\
         pub mod messages {\n    include!(\"generated/mod.rs\");\n}\n",
    )
    .unwrap();
    // The workspace's lock file pins the same dependency versions, so the
    // scratch build needs no registry resolution.
    if let Ok(lock) = std::fs::read(root.join("Cargo.lock")) {
        std::fs::write(scratch.join("Cargo.lock"), lock).unwrap();
    }

    // The outer cargo holds the lock of its own target directory: build into
    // one of our own.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--quiet", "--message-format=short"])
        .current_dir(&scratch)
        .env("CARGO_TARGET_DIR", scratch.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the generated corpus does not build:\n{stderr}");
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert!(warnings.is_empty(), "the build warns:\n{}", warnings.join("\n"));
}

/// (c) The command line checks the corpus: a header, one line per message and a total.
#[test]
fn cli_reports_the_corpus() {
    let Some(dir) = corpus("corpus command line") else { return };
    let output = Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).arg("gen").arg(&dir).output().expect("the CLI runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr:\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), CORPUS_SIZE + 2, "{stdout}");
    assert!(lines[0].starts_with("message ") && lines[0].ends_with("api key  versions  flexible  structs  fields"));
    let total = lines.last().unwrap();
    let lines = &lines[1..];
    assert!(total.starts_with(&format!("generated {CORPUS_SIZE} messages, ")), "{total}");
    // The message lines name the messages, in file order.
    for ((line, file), n) in lines.iter().zip(schema_files(&dir)).zip(1..) {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(line.starts_with(&stem), "line {n} {line:?} is not about {stem}");
    }
    let metadata = lines.iter().find(|l| l.starts_with("MetadataRequest ")).expect("a MetadataRequest line");
    let columns: Vec<&str> = metadata.split_whitespace().collect();
    assert_eq!(columns[1..3], ["3", "0-12"], "{metadata}");

    // --quiet prints only the total.
    let quiet = Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).args(["gen", "--quiet"]).arg(&dir).output().unwrap();
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&quiet.stdout).lines().collect::<Vec<_>>(), [*total]);
}

/// (c) The command line refuses a bad schema: exit 1, the located error on stderr.
#[test]
fn cli_refuses_a_bad_schema() {
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad/kip590_duplicate_tag/RequestHeader.json");
    let output = Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).arg("gen").arg(&bad).output().expect("the CLI runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(output.stdout.is_empty(), "nothing on stdout");
    let lines: Vec<&str> = stderr.lines().collect();
    // Files are named by the path they were given as.
    let located =
        format!("{}:15: fields[5] (InitialClientId): tag 0 is already used by InitialPrincipalName", bad.display());
    assert_eq!(lines, [located.as_str(), "1 error(s)"]);

    // A directory with several bad schemas: every error, each located.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad/duplicate_api_key");
    let output = Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).arg("gen").arg(&dir).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let first = format!(
        "{}:4: apiKey: Found more than one request with API key 1 (also BarRequest.json)",
        dir.join("FooRequest.json").display()
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().next(), Some(first.as_str()));

    // Bad arguments and unreadable inputs are exit 2, not 1.
    let output = Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).arg("gen").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let output =
        Command::new(env!("CARGO_BIN_EXE_kwire-codegen")).arg("gen").arg("/nonexistent/Missing.json").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}
