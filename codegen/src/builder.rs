//! The build-script door: [`Builder`] names the inputs, options and output
//! directory, reads the schema files ([`Sources`]) and runs the pipeline
//! ([`generate_with`]), writing the files it returns.

use std::path::{Path, PathBuf};

use crate::compare::diff_sources;
use crate::facts::Facts;
use crate::sources::Sources;
use crate::{generate_with, write, Error, Generated, Options};

/// Compiles schemas into Rust files, in the style of prost-build: set the
/// inputs and the output directory, then call [`Builder::compile`].
///
/// ```no_run
/// // build.rs
/// kwire_codegen::Builder::new()
///     .input_dir("schemas")
///     .out_dir(std::env::var("OUT_DIR").unwrap())
///     .compile()
///     .unwrap();
/// // lib.rs: pub mod messages { include!(concat!(env!("OUT_DIR"), "/mod.rs")); }
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    inputs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    runtime: String,
    rerun_if_changed: bool,
    options: Options,
    evolution_base: Option<PathBuf>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// A builder with no inputs, runtime path `::kwire`, and
    /// `cargo:rerun-if-changed` lines printed when run by a build script.
    pub fn new() -> Self {
        Builder {
            inputs: Vec::new(),
            out_dir: None,
            runtime: "::kwire".into(),
            evolution_base: None,
            rerun_if_changed: std::env::var_os("CARGO_MANIFEST_DIR").is_some() && std::env::var_os("OUT_DIR").is_some(),
            options: Options::default(),
        }
    }

    /// Adds every `*.json` file of `dir` (not recursive; directories are
    /// skipped, whatever their name).
    pub fn input_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Adds one schema file.
    pub fn input(&mut self, file: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(file.as_ref().to_path_buf());
        self
    }

    /// Sets where [`Builder::compile`] writes (default: `$OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Sets the runtime crate's path in generated code (default `::kwire`).
    pub fn runtime_path(&mut self, path: &str) -> &mut Self {
        self.runtime = path.to_string();
        self
    }

    /// Whether to emit `Sample` impls for property tests (default off; needs
    /// the runtime's `sample` feature).
    pub fn samples(&mut self, on: bool) -> &mut Self {
        self.options.samples = on;
        self
    }

    /// Whether to emit borrowed views (`XRef<'a>`) beside the structs
    /// (default off; see [`Options::views`]).
    ///
    /// # Example
    /// ```
    /// let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/RequestHeader.json");
    /// let out = kwire_codegen::Builder::new().input(schema).views(true).generate()?;
    /// assert!(out.files.iter().any(|f| f.text.contains("pub struct RequestHeaderRef<'a>")));
    /// # Ok::<(), kwire_codegen::Error>(())
    /// ```
    pub fn views(&mut self, on: bool) -> &mut Self {
        self.options.views = on;
        self
    }

    /// Whether to emit Kafka's JSON form (`ToJson`/`FromJson` impls; default
    /// off; see [`Options::json`]).
    ///
    /// # Example
    /// ```
    /// let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/RequestHeader.json");
    /// let out = kwire_codegen::Builder::new().input(schema).json(true).generate()?;
    /// assert!(out.files.iter().any(|f| f.text.contains("impl ::kwire::json::ToJson for RequestHeader")));
    /// # Ok::<(), kwire_codegen::Error>(())
    /// ```
    pub fn json(&mut self, on: bool) -> &mut Self {
        self.options.json = on;
        self
    }

    /// Compiles the request and response of these api keys only (default:
    /// every api key); see [`Options::api_keys`]. [`Builder::generate`] and
    /// [`Builder::compile`] fail with [`Error::UnknownApiKeys`] for an api
    /// key that no request schema has.
    ///
    /// # Example
    /// ```
    /// let schemas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    /// // ApiVersions (18) alone: its request and response, the headers and the
    /// // other schemas that are not api messages, and the whole api-key table.
    /// let out = kwire_codegen::Builder::new().input_dir(schemas).api_keys([18]).generate()?;
    /// assert!(out.files.iter().any(|f| f.name == "api_versions_response.rs"));
    /// assert!(!out.files.iter().any(|f| f.name == "produce_request.rs"));
    /// let table = &out.files.iter().find(|f| f.name == "api_keys.rs").unwrap().text;
    /// assert!(table.contains("Produce = 0"));
    /// # Ok::<(), kwire_codegen::Error>(())
    /// ```
    pub fn api_keys(&mut self, keys: impl IntoIterator<Item = i16>) -> &mut Self {
        self.options.api_keys = Some(keys.into_iter().collect());
        self
    }

    /// Sets the fields that carry secrets, each `Message.Field` (default
    /// none): their `Debug`
    /// and JSON form show a length, not the content. See
    /// [`Options::sensitive_fields`].
    ///
    /// # Example
    /// ```
    /// let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/RequestHeader.json");
    /// let out = kwire_codegen::Builder::new()
    ///     .input(schema)
    ///     .sensitive_fields(["RequestHeader.ClientId"])
    ///     .generate()?;
    /// assert!(out.files.iter().any(|f| f.text.contains("Redacted(&self.client_id)")));
    /// # Ok::<(), kwire_codegen::Error>(())
    /// ```
    pub fn sensitive_fields<S: Into<String>>(&mut self, fields: impl IntoIterator<Item = S>) -> &mut Self {
        self.options.sensitive_fields = fields.into_iter().map(Into::into).collect();
        self
    }

    /// Fails [`Builder::generate`] and [`Builder::compile`] with
    /// [`Error::Breaking`] when the inputs change the bytes of a version that
    /// the schema set at `base` (a directory or file, e.g. the schemas of the
    /// last release) already has: see [`evolution`](crate::evolution) for what breaks.
    /// Compatible changes (versions, messages and tagged fields added,
    /// renames) pass.
    ///
    /// ```no_run
    /// // build.rs: the released schemas are kept in released-schemas/.
    /// kwire_codegen::Builder::new()
    ///     .input_dir("schemas")
    ///     .check_evolution("released-schemas")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn check_evolution(&mut self, base: impl AsRef<Path>) -> &mut Self {
        self.evolution_base = Some(base.as_ref().to_path_buf());
        self
    }

    /// Replaces every option at once (a command line's, say).
    pub fn set_options(&mut self, options: Options) -> &mut Self {
        self.options = options;
        self
    }

    /// Takes the facts a message set's schemas do not carry ([`Facts`]):
    /// its sensitive fields, the forwardable and cluster-action columns
    /// of its api-key table, its api groups and the features of the extras
    /// (each then compiled behind its cargo feature).
    pub fn facts(&mut self, facts: &Facts) -> &mut Self {
        self.options.sensitive_fields = facts.sensitive_fields.clone();
        self.options.peeked_fields = facts.peeked_fields.clone();
        self.options.forwardable = facts.forwardable.clone();
        self.options.error_responses = facts.error_responses.clone();
        self.options.cluster_action = facts.cluster_action.clone();
        self.options.api_groups = facts.api_groups.clone();
        self.options.gates = facts.gates.clone();
        self
    }

    /// The options set so far.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The runtime path set so far.
    pub fn runtime(&self) -> &str {
        &self.runtime
    }

    /// Whether to print `cargo:rerun-if-changed` for each input.
    pub fn rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.rerun_if_changed = on;
        self
    }

    /// The schema files the inputs name, sorted.
    ///
    /// # Errors
    /// [`Error::Io`] when a directory cannot be listed.
    pub fn schema_files(&self) -> Result<Vec<PathBuf>, Error> {
        let mut files = Vec::new();
        for input in &self.inputs {
            if input.is_dir() {
                let entries = std::fs::read_dir(input).map_err(|source| Error::Io { path: input.clone(), source })?;
                for entry in entries {
                    let path = entry.map_err(|source| Error::Io { path: input.clone(), source })?.path();
                    // A directory named `x.json` is not a schema.
                    if path.extension().is_some_and(|e| e == "json") && !path.is_dir() {
                        files.push(path);
                    }
                }
            } else {
                files.push(input.clone());
            }
        }
        files.sort();
        files.dedup();
        Ok(files)
    }

    /// Reads and compiles the inputs without writing anything.
    ///
    /// # Errors
    /// [`Error::Io`] for an unreadable input; [`Error::Schema`] for invalid
    /// schemas; [`Error::RuntimePath`] for a runtime path that is not a Rust
    /// path; [`Error::UnknownApiKeys`] for an api key asked for that no
    /// request schema has.
    pub fn generate(&self) -> Result<Generated, Error> {
        let sources = self.read_sources()?;
        let generated = sources.check_utf8(generate_with(&sources.texts, &self.runtime, self.options.clone()))?;
        if let Some(base) = &self.evolution_base {
            let mut builder = Builder::new();
            builder.input(base);
            let report = diff_sources(&builder.read_sources()?, &sources)?;
            if report.is_breaking() {
                return Err(Error::Breaking { base: base.clone(), report });
            }
        }
        Ok(generated)
    }

    /// Reads every schema file of the inputs ([`Sources::read`]).
    pub(crate) fn read_sources(&self) -> Result<Sources, Error> {
        Sources::read(&self.schema_files()?)
    }

    /// Compiles the inputs and writes one file per schema plus `mod.rs`
    /// into the output directory. Files whose text is unchanged are not
    /// rewritten; generated files no longer produced are removed.
    ///
    /// # Errors
    /// As [`Builder::generate`], and [`Error::Io`] when writing fails.
    pub fn compile(&self) -> Result<Generated, Error> {
        self.compile_keeping(&[])
    }

    /// As [`Builder::compile`], leaving the files named `keep` in place.
    pub(crate) fn compile_keeping(&self, keep: &[&str]) -> Result<Generated, Error> {
        if self.rerun_if_changed {
            for input in &self.inputs {
                println!("cargo:rerun-if-changed={}", input.display());
            }
            for file in self.schema_files()? {
                println!("cargo:rerun-if-changed={}", file.display());
            }
            if let Some(base) = &self.evolution_base {
                println!("cargo:rerun-if-changed={}", base.display());
            }
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| Error::Io {
                path: PathBuf::from("$OUT_DIR"),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no out_dir set and OUT_DIR is not set"),
            })?,
        };
        let generated = self.generate()?;
        let io = |source| Error::Io { path: out_dir.clone(), source };
        std::fs::create_dir_all(&out_dir).map_err(io)?;
        for file in &generated.files {
            let path = out_dir.join(&file.name);
            write::write_if_changed(&path, &file.text).map_err(|source| Error::Io { path, source })?;
        }
        let mut keep: Vec<String> = keep.iter().map(|k| (*k).to_owned()).collect();
        keep.extend(generated.files.iter().map(|f| f.name.clone()));
        write::prune_stale(&out_dir, &keep).map_err(io)?;
        Ok(generated)
    }
}
