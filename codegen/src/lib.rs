//! kwire-codegen compiles message schemas written in Apache Kafka's
//! JSON schema language into Rust: one struct per message and per nested
//! struct, with encode, decode and size for every version.
//!
//! Inside, the flow is one private module per step:
//!
//! ```text
//! schema text ─load─▶ JSON ─lower─▶ model ─check─▶ registry ─emit─▶ tokens ─write─▶ formatted Rust
//! ```
//!
//! The feature `format` (default) formats the output with prettyplease; without
//! it each file is the token text, broken into lines after each `;` and
//! around each block but not indented, with fewer build dependencies, for
//! build scripts whose output nobody reads.
//!
//! Use it from a build script through [`Builder`], from the command line
//! (`kwire-codegen gen --out OUT_DIR SCHEMA_DIR`, the module `cli` with the feature
//! `cli`), or as a library call,
//! [`generate`] (or [`generate_with`] and its [`Options`]), that returns the
//! source text as [`Generated`] files. A run fails with an [`Error`]; invalid
//! schemas with [`Diagnostics`], each [`Diagnostic`] naming its file, line
//! and [`JsonPath`]. [`diff`] compares two schema sets version by version
//! (see [`evolution`]), and [`parse_schema`] reads one schema file's JSON,
//! comments and all, for tools of your own. That is the whole public API.
//!
//! ```
//! let schema = r#"{
//!   "type": "data", "name": "Point", "validVersions": "0-1", "flexibleVersions": "1+",
//!   "fields": [ { "name": "X", "type": "int32", "versions": "0+" } ]
//! }"#;
//! let out = kwire_codegen::generate(&[("Point.json".into(), schema.into())], "::kwire").unwrap();
//! assert!(out.files.iter().any(|f| f.text.contains("pub struct Point")));
//! ```

#![warn(missing_docs)]

// The public door is this file: `Builder`, `generate`, `diff`, their
// inputs, outputs and errors, and the `evolution` module of `diff`'s
// report. Everything else is private: the flow below.

// Schema text to JSON, comments blanked.
mod load;
// Located diagnostics: file, JSON path, fact.
mod diag;
// The line of each JSON path, for diagnostics.
mod lines;
// Version ranges and their algebra.
mod versions;
// The typed model of a schema.
mod model;
// JSON to model, with Kafka's coercions and per-object checks.
mod lower;
// Cross-field rules and the struct registry.
mod check;
// Rust names for Kafka names.
mod naming;
// Model to tokens.
mod emit;
// Tokens to formatted files on disk.
mod write;
// The facts of a message set beside its schemas.
mod facts;
// The fingerprint of a message set's sources.
mod fingerprint;
// The dispatch enums of the internal-record families.
mod internal;
// A release's internal-record families copied in, without Kafka's prose (`cli`).
#[cfg(feature = "cli")]
mod import;
// Kafka releases' message schemas merged into a schema set (`cli`).
#[cfg(feature = "cli")]
mod merge;
// What an edit of a schema set does to each version's bytes.
pub mod evolution;

// The command line's commands (feature `cli`).
#[cfg(feature = "cli")]
pub mod cli;

pub use diag::{Diagnostic, Diagnostics, JsonPath};
pub use facts::{ApiGroup, Facts, Family};
pub use fingerprint::fingerprint;
pub use load::LoadError;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use quote::{format_ident, quote};

use crate::emit::EmitContext;
use crate::model::{MessageSpec, SpecType};

/// Why a run failed.
///
/// `Debug` prints what `Display` does, with each schema diagnostic located
/// as `file:line: path: message`, so that `.expect(…)` in a build script
/// and `?` from `main` show readable errors.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// One or more schemas are invalid; every diagnostic is listed.
    #[error("{0}")]
    Schema(Diagnostics),
    /// The runtime path given ([`Builder::runtime_path`], `--runtime`) is
    /// not a Rust path such as `::kwire` or `crate`.
    #[error("runtime path {path:?} is not a Rust path: {reason}")]
    RuntimePath {
        /// The path as given.
        path: String,
        /// What the Rust parser said.
        reason: String,
    },
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Api keys asked for ([`Builder::api_keys`], `--api-keys`) that no
    /// request schema of the inputs has.
    #[error("api keys {0:?} are not in the schemas given")]
    UnknownApiKeys(Vec<i16>),
    /// The inputs change the bytes of a version that the schema set given
    /// to [`Builder::check_evolution`] already has; the report lists every
    /// finding, the breaking ones among them.
    #[error("the schemas break the wire of {}:\n{}", .base.display(), breaking_lines(.report))]
    Breaking {
        /// The schema set compared against.
        base: PathBuf,
        /// Every finding of the comparison.
        report: evolution::Report,
    },
    /// Apis named by a facts file's api groups, forwardable or cluster-action
    /// apis that no request schema of its schema set has ([`regenerate`]).
    #[error("apis {0:?} are not in the schemas given")]
    UnknownApis(Vec<String>),
    /// Entries of [`Builder::sensitive_fields`] (`--sensitive-fields`) that
    /// name no string or bytes field of a message in the inputs, one
    /// problem per entry.
    #[error("sensitive fields: {}", .0.join("; "))]
    SensitiveFields(Vec<String>),
    /// Entries of [`Options::peeked_fields`] that name no field a peek can
    /// read, one problem per entry.
    #[error("peeked fields: {}", .0.join("; "))]
    PeekedFields(Vec<String>),
    /// The facts file ([`Facts::read`]) is not what it should be.
    #[error("{}: {message}", .path.display())]
    Facts {
        /// The facts file.
        path: PathBuf,
        /// What is wrong, naming the key.
        message: String,
    },
    /// The emitted code did not parse: a bug in the compiler, reported rather than panicking.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The breaking findings of a report, one a line.
fn breaking_lines(report: &evolution::Report) -> String {
    let lines: Vec<String> = report.findings.iter().filter(|f| f.rule.is_breaking()).map(ToString::to_string).collect();
    lines.join("\n")
}

/// A schema file that is not UTF-8: where its first bad byte is.
fn not_utf8_diagnostic(file: &str, bytes: &[u8], at: usize) -> diag::Diagnostic {
    // The bytes before `at` are valid UTF-8 (`at` is where validity ends).
    let before = bytes.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default();
    let (line, column) = load::line_col(before, before.len());
    diag::Diagnostic {
        file: file.to_owned(),
        path: diag::JsonPath::root(),
        message: format!("line {line}, column {column}: the file is not UTF-8"),
        line: Some(line),
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Schema(diags) => {
                for (i, d) in diags.0.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    f.write_str(&d.located())?;
                }
                Ok(())
            }
            other => write!(f, "{other}"),
        }
    }
}

/// One generated Rust file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name, e.g. `create_topics_request.rs`, or `mod.rs` for the index.
    pub name: String,
    /// Formatted Rust source, starting with the `@generated` line.
    pub text: String,
}

/// What was generated for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSummary {
    /// The schema file.
    pub file: String,
    /// The message name.
    pub name: String,
    /// Its api key, for requests and responses.
    pub api_key: Option<i16>,
    /// Valid versions, e.g. `0-7`.
    pub versions: String,
    /// Flexible versions, e.g. `5+`.
    pub flexible_versions: String,
    /// Structs emitted (the body included).
    pub structs: usize,
    /// Fields across those structs.
    pub fields: usize,
}

/// The result of a run: files and a summary per message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Generated {
    /// Every file, the index `mod.rs` last.
    pub files: Vec<GeneratedFile>,
    /// One entry per schema, in file-name order.
    pub messages: Vec<MessageSummary>,
}

/// Compiles schemas given as `(file name, text)` pairs into Rust source.
/// `runtime` is the path of the runtime crate in generated code
/// (`::kwire`, or `crate` inside kwire itself).
///
/// # Errors
/// [`Error::Schema`] with every problem found, each naming its file and
/// JSON path; [`Error::RuntimePath`] when `runtime` is not a Rust path.
pub fn generate(sources: &[(String, String)], runtime: &str) -> Result<Generated, Error> {
    generate_with(sources, runtime, Options::default())
}

/// One api key of `--api-keys`, spaces around it allowed ("0, 18").
#[cfg(feature = "cli")]
fn api_key_arg(text: &str) -> Result<i16, String> {
    text.trim().parse().map_err(|_| format!("{text:?} is not an api key (0 to 32767)"))
}

/// What [`generate_with`] emits besides each struct and its codec.
///
/// # Example
/// ```
/// let options = kwire_codegen::Options { views: true, ..Default::default() };
/// assert!(!options.samples);
/// ```
///
/// The Builder's setters, the command line's flags and [`generate_with`]
/// all set this one type. With the feature `cli` it is also a
/// `clap::Args`, so that another tool's command line can take the
/// compiler's options (`--samples`, `--views`, `--json`, `--api-keys`,
/// `--sensitive-fields`; the rest come from [`Facts`]) by flattening it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Options {
    /// `Sample` impls: random values shaped to a version, for property
    /// tests (needs the runtime's `sample` feature).
    #[cfg_attr(feature = "cli", arg(long))]
    pub samples: bool,
    /// Borrowed views: beside each struct `X`, a `XRef<'a>` that decodes
    /// from a `&'a [u8]` with strings, bytes and arrays of fixed-width
    /// values borrowing it, and turns into `X` with `IntoOwned`.
    #[cfg_attr(feature = "cli", arg(long))]
    pub views: bool,
    /// Kafka's JSON form: `ToJson` and `FromJson` impls for each struct,
    /// and `to_json`/`from_json` on the dispatch enums, as Kafka's
    /// generated JSON converters write and read it (needs the runtime's
    /// `json` feature).
    #[cfg_attr(feature = "cli", arg(long))]
    pub json: bool,
    /// The api keys whose request and response are compiled; `None` (the
    /// default) for all. Every schema is still read and checked, and the
    /// api-key table (`ApiKey`, `API_INFO`) still lists every api key, so
    /// that frames of any api key can be framed and routed; the dispatch
    /// enums hold the compiled ones, and decoding the body of an api key in
    /// the table but not compiled fails with the runtime's
    /// `DecodeErrorKind::ApiKeyNotCompiled`. Schemas that are neither
    /// requests nor responses (headers, records, embedded data) are always
    /// compiled.
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_name = "K,K...", value_parser = api_key_arg))]
    pub api_keys: Option<Vec<i16>>,
    /// The fields that carry secrets, as `Message.Field` (Kafka's names;
    /// every field of that name in the message's structs); none by default
    /// ([`Facts::sensitive_fields`] lists a message set's).
    /// The generated `Debug` shows such a field as `<redacted N bytes>`
    /// (`None` when null), and the JSON form writes it the same way unless
    /// the runtime's `JsonOptions::unredacted` asks otherwise. Only string
    /// and bytes fields can be sensitive. An entry naming a message that is
    /// not among the inputs is skipped (a message set's list names them
    /// all); one naming a field the message lacks, or a field of another type,
    /// fails the run with [`Error::SensitiveFields`].
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_name = "M.F,M.F..."))]
    pub sensitive_fields: Vec<String>,
    /// The fields that get a `peek_<field>(body, version)` function on
    /// their message, as `Message.Field` (Kafka's names): a fixed-width,
    /// top-level field read from an encoded body by stepping over the
    /// fields before it, without decoding. None by
    /// default ([`Facts::peeked_fields`]); an entry naming a message not
    /// among the inputs is skipped, one that cannot be peeked fails the run
    /// with [`Error::PeekedFields`].
    #[cfg_attr(feature = "cli", arg(skip))]
    pub peeked_fields: Vec<String>,
    /// The apis a broker forwards to the controller inside an Envelope
    /// (KIP-590), by api name (the request's name without `Request`):
    /// `ApiInfo::forwardable` in the api-key table, and each implies
    /// `requires_delayed_allocation`. None by default ([`Facts::forwardable`]).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub forwardable: Vec<String>,
    /// The apis authorized by cluster action, sent only between brokers and
    /// controllers, by api name: `ApiInfo::cluster_action` in the api-key
    /// table. None by default ([`Facts::cluster_action`]).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub cluster_action: Vec<String>,
    /// The api groups whose messages are compiled behind a cargo feature
    /// (`#[cfg(feature = …)]` on their modules, dispatch variants and arms,
    /// `ApiInfo::compiled` as `cfg!(feature = …)`), so that one output
    /// serves every feature set; groups without a feature are always
    /// compiled. An api these schemas lack is passed over ([`regenerate`] refuses it).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub api_groups: Vec<ApiGroup>,
    /// The cargo features the extras are compiled behind.
    #[cfg_attr(feature = "cli", arg(skip))]
    pub gates: Gates,
}

/// The cargo feature of the generated crate that each extra is compiled
/// behind: with one set, the extra is emitted (whatever [`Options::views`],
/// [`Options::json`] or [`Options::samples`] say) and each of its items
/// carries `#[cfg(feature = "…")]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Gates {
    /// The feature of the borrowed views.
    pub views: Option<String>,
    /// The feature of Kafka's JSON form.
    pub json: Option<String>,
    /// The feature of the `Sample` impls.
    pub samples: Option<String>,
}

impl Options {
    /// True when `spec` is to be compiled: not a request or response, or
    /// one of the api keys asked for.
    fn compiles(&self, spec: &MessageSpec) -> bool {
        match (&self.api_keys, spec.spec_type, spec.api_key) {
            (Some(keys), SpecType::Request | SpecType::Response, Some(key)) => keys.contains(&key),
            _ => true,
        }
    }
}

/// As [`generate`], with the `options` given.
///
/// # Errors
/// As [`generate`], and [`Error::UnknownApiKeys`] when
/// [`Options::api_keys`] names an api key that no request schema has.
pub fn generate_with(sources: &[(String, String)], runtime: &str, options: Options) -> Result<Generated, Error> {
    let runtime = naming::runtime_path(runtime)
        .map_err(|e| Error::RuntimePath { path: runtime.to_owned(), reason: e.to_string() })?;
    let mut cx = EmitContext {
        runtime,
        samples: options.samples || options.gates.samples.is_some(),
        views: options.views || options.gates.views.is_some(),
        json: options.json || options.gates.json.is_some(),
        partial: false,
        sensitive: Default::default(),
        peeked: Default::default(),
        forwardable: options.forwardable.clone(),
        cluster_action: options.cluster_action.clone(),
        gates: options.gates.clone(),
        api_features: BTreeMap::new(),
    };
    let mut diags = Diagnostics::default();
    let specs = lower_sources(sources, &mut diags);
    let checked: Vec<_> = specs.iter().map(|s| check::check(s, &mut diags)).collect();
    locate(&mut diags, sources);
    diags.into_result()?;

    if let Some(keys) = &options.api_keys {
        let mut unknown: Vec<i16> = keys
            .iter()
            .copied()
            .filter(|k| {
                !specs.iter().any(|s| s.spec_type == SpecType::Request && s.api_key == Some(*k) && !s.is_removed())
            })
            .collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            unknown.dedup();
            return Err(Error::UnknownApiKeys(unknown));
        }
    }
    // The api key of each api name, from the request schemas.
    let api_key_of = |name: &str| {
        specs.iter().find_map(|s| {
            let api = s.name.strip_suffix("Request")?;
            (s.spec_type == SpecType::Request && api == name).then_some(s.api_key).flatten()
        })
    };
    // An api the options name that these schemas lack is passed over, as a
    // sensitive field of a message not among them is: a few schemas may be
    // compiled with the facts of the whole set. `regenerate`, which compiles
    // the set the facts belong to, refuses such a name.
    for group in &options.api_groups {
        let Some(feature) = &group.feature else { continue };
        for key in group.apis.iter().filter_map(|name| api_key_of(name)) {
            cx.api_features.insert(key, feature.clone());
        }
    }
    // A removed api (`validVersions: none`) is in no table and no dispatch.
    cx.partial = !cx.api_features.is_empty() || specs.iter().any(|s| !s.is_removed() && !options.compiles(s));
    cx.sensitive = emit::redact::resolve(&options.sensitive_fields, &checked).map_err(Error::SensitiveFields)?;
    cx.peeked = emit::peek::resolve(&options.peeked_fields, &checked).map_err(Error::PeekedFields)?;
    let responses: BTreeMap<i16, String> = specs
        .iter()
        .filter(|s| s.spec_type == SpecType::Response && options.compiles(s) && !s.is_removed())
        .filter_map(|s| Some((s.api_key?, s.name.clone())))
        .collect();
    let mut out = Generated::default();
    let mut index = quote!();
    // Removed messages (`"validVersions": "none"`) are checked, not emitted.
    for c in checked.iter().filter(|c| options.compiles(c.spec) && !c.spec.is_removed()) {
        let spec = c.spec;
        let module = naming::module_name(&spec.name);
        let tokens = emit::emit_message(c, &cx, &responses);
        let text = write::format_file(tokens, &spec.file).map_err(Error::Internal)?;
        out.files.push(GeneratedFile { name: format!("{module}.rs"), text });
        let (module, file_name, ty) =
            (format_ident!("{module}"), format!("{module}.rs"), naming::type_ident(&spec.name));
        let doc = format!(" {}: generated from {}.", spec.name, spec.file);
        let cfg = match (spec.spec_type, spec.api_key) {
            (SpecType::Request | SpecType::Response, Some(key)) => cx.api_cfg(key),
            _ => quote!(),
        };
        index.extend(quote! {
            #cfg
            #[doc = #doc]
            pub mod #module { include!(#file_name); }
            #cfg
            pub use #module::#ty;
        });
        out.messages.push(MessageSummary {
            file: spec.file.clone(),
            name: spec.name.clone(),
            api_key: spec.api_key,
            versions: spec.valid_versions.to_string(),
            flexible_versions: spec.flexible_versions.to_string(),
            structs: c.structs.len(),
            fields: c.structs.iter().map(|s| s.fields.len()).sum(),
        });
    }
    if specs.iter().any(|s| s.spec_type == SpecType::Request && !s.is_removed()) {
        let refs: Vec<&MessageSpec> = specs.iter().filter(|s| !s.is_removed()).collect();
        let compiled: Vec<&MessageSpec> = specs.iter().filter(|s| options.compiles(s) && !s.is_removed()).collect();
        let compiled_key =
            |key: i16| compiled.iter().any(|s| s.api_key == Some(key) && s.spec_type == SpecType::Request);
        let mut tokens = emit::api::emit_api_table(&refs, &compiled_key, &cx);
        // The dispatch enums, when at least one api key is compiled (with
        // none, `Builder::api_keys([])`, the table alone).
        let dispatch = compiled.iter().any(|s| s.spec_type == SpecType::Request);
        if dispatch {
            tokens.extend(emit::api::emit_dispatch(&compiled, &cx));
        }
        let mut file = emit::imports(&cx, &tokens);
        file.extend(tokens);
        let text = write::format_file(file, "the request schemas").map_err(Error::Internal)?;
        out.files.push(GeneratedFile { name: "api_keys.rs".into(), text });
        let bodies = dispatch.then(|| {
            quote!(
                pub use api_keys::{RequestBody, ResponseBody};
            )
        });
        let views = (dispatch && cx.views).then(|| {
            emit::gate(
                quote!(
                    pub use api_keys::{RequestBodyRef, ResponseBodyRef};
                ),
                cx.gates.views.as_deref(),
            )
        });
        index.extend(quote! {
            /// The api-key table of this message set.
            pub mod api_keys { include!("api_keys.rs"); }
            pub use api_keys::{api_info, ApiKey, API_INFO};
            #bodies
            #views
        });
    }
    let text = write::format_file(index, "the schema directory").map_err(Error::Internal)?;
    out.files.push(GeneratedFile { name: "mod.rs".into(), text });
    Ok(out)
}

/// Parses and lowers every source, sorted by file name, and runs the checks
/// that span messages; per-message errors go to `diags`.
fn lower_sources(sources: &[(String, String)], diags: &mut Diagnostics) -> Vec<MessageSpec> {
    lower_sources_as(sources, Reading::Strict, diags)
}

/// How schema text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// As the compiler reads schemas: one JSON value, `flexibleVersions`
    /// required (Kafka's generator of today).
    Strict,
    /// As the Kafka release that shipped a schema read it: text after the
    /// root object is ignored (Jackson's default, which let Kafka 2.8's
    /// DescribeProducersRequest.json ship with a stray `]}`), a missing
    /// `flexibleVersions` means `none` (as before Kafka required it), and an
    /// inline struct without `versions` takes its `taggedVersions` (Kafka
    /// 3.5's FetchRequest.json `ReplicaState`).
    Historical,
}

/// Gives every field that defines an inline struct and has `taggedVersions`
/// but no `versions` its tagged versions as versions, in the whole tree
/// (to [`lines::MAX_DEPTH`] levels).
fn tagged_structs_versioned(value: &mut serde_json::Value, depth: usize) {
    if depth > lines::MAX_DEPTH {
        return;
    }
    match value {
        serde_json::Value::Object(obj) => {
            if obj.contains_key("fields") && !obj.contains_key("versions") {
                if let Some(tagged) = obj.get("taggedVersions").cloned() {
                    obj.insert("versions".into(), tagged);
                }
            }
            for child in obj.values_mut() {
                tagged_structs_versioned(child, depth + 1);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| tagged_structs_versioned(v, depth + 1)),
        _ => {}
    }
}

fn lower_sources_as(sources: &[(String, String)], reading: Reading, diags: &mut Diagnostics) -> Vec<MessageSpec> {
    let mut sorted: Vec<&(String, String)> = sources.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut specs: Vec<MessageSpec> = Vec::new();
    for (file, text) in sorted {
        let parsed = match reading {
            Reading::Strict => load::parse(text),
            Reading::Historical => load::parse_first(text).map(|mut json| {
                if let Some(obj) = json.as_object_mut() {
                    obj.entry("flexibleVersions").or_insert_with(|| "none".into());
                }
                tagged_structs_versioned(&mut json, 0);
                json
            }),
        };
        match parsed {
            Ok(json) => specs.extend(lower::lower(file, &json, diags)),
            Err(e) => {
                let line = match &e {
                    load::LoadError::Syntax { line, .. } | load::LoadError::UnterminatedComment { line, .. } => *line,
                };
                diags.error(file, &JsonPath::root(), e.to_string());
                if let Some(d) = diags.0.last_mut() {
                    d.line = Some(line);
                }
            }
        }
    }
    check::check_api_pairs(&specs, diags);
    specs
}

/// The schemas of `sources` as the Kafka release that shipped them read
/// them ([`Reading::Historical`]), lowered and checked: what [`diff`] compares.
pub(crate) fn load_historical(sources: &[(String, String)]) -> Result<Vec<MessageSpec>, Error> {
    load_checked_as(sources, Reading::Historical)
}

fn load_checked_as(sources: &[(String, String)], reading: Reading) -> Result<Vec<MessageSpec>, Error> {
    let mut diags = Diagnostics::default();
    let specs = lower_sources_as(sources, reading, &mut diags);
    for spec in &specs {
        check::check(spec, &mut diags);
    }
    locate(&mut diags, sources);
    diags.into_result()?;
    Ok(specs)
}

/// The 1-based line where `path` (or its longest prefix found) starts in
/// `file`, one of `sources`.
pub(crate) fn line_of(sources: &[(String, String)], file: &str, path: &JsonPath) -> Option<usize> {
    let (_, text) = sources.iter().find(|(n, _)| n == file)?;
    let blank = load::blank_comments(text).ok()?;
    let mut parts = path.parts();
    if parts.is_empty() {
        // The root: the line of its opening brace.
        return blank.find('{').map(|at| load::line_col(&blank, at).0);
    }
    let map = lines::lines(&blank);
    while !parts.is_empty() {
        if let Some(&line) = map.get(&parts) {
            return Some(line);
        }
        parts.pop();
    }
    None
}

/// Compares two schema sets, each a directory of `*.json` schemas or one
/// file, version by version: what the new set does to the bytes of every
/// version the old one has (see [`evolution`]).
///
/// Schemas are read as the Kafka release that shipped them read them, so
/// that every release's schemas compare: text after the root object is
/// ignored and a missing `flexibleVersions` means `none` (the compiler
/// itself refuses both).
///
/// ```no_run
/// let report = kwire_codegen::diff("old-schemas", "schemas").unwrap();
/// println!("{report}");
/// assert!(!report.is_breaking());
/// ```
///
/// # Errors
/// [`Error::Io`] for an unreadable input; [`Error::Schema`] when either set
/// has an invalid schema.
pub fn diff(old: impl AsRef<Path>, new: impl AsRef<Path>) -> Result<evolution::Report, Error> {
    let read = |path: &Path| {
        let mut builder = Builder::new();
        builder.input(path);
        builder.read_sources()
    };
    diff_sources(&read(old.as_ref())?, &read(new.as_ref())?)
}

/// Reads a schema file's text as the compiler does, without compiling it:
/// JSON with `//` and `/* */` comments (Kafka's schema files open with a
/// licence comment), a leading byte-order mark skipped, nothing after the
/// root value, duplicate keys keeping the last value as Kafka's parser does.
/// For tools that read a schema's own keys (`name`, `apiKey`,
/// `validVersions`, `about`, …).
///
/// ```
/// let json = kwire_codegen::parse_schema("// licence\n{\"name\": \"X\", \"apiKey\": 18}").unwrap();
/// assert_eq!(json["name"], "X");
/// assert_eq!(json["apiKey"], 18);
/// let err = kwire_codegen::parse_schema("{}\n{}").unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 1: trailing characters");
/// ```
///
/// # Errors
/// [`LoadError`] with the line and column of the first problem.
pub fn parse_schema(text: &str) -> Result<serde_json::Value, LoadError> {
    load::parse(text)
}

/// [`diff`] of two sets already read: each set's diagnostics and findings
/// name files by the paths they were read from.
fn diff_sources(old: &Sources, new: &Sources) -> Result<evolution::Report, Error> {
    let old_specs = old.check_utf8(load_historical(&old.texts))?;
    let new_specs = new.check_utf8(load_historical(&new.texts))?;
    let mut report = evolution::compare(&old_specs, &new_specs);
    evolution::locate(&mut report, &old.texts, &new.texts);
    for f in &mut report.findings {
        f.file = if f.in_old { old.path(&f.file) } else { new.path(&f.file) };
    }
    Ok(report)
}

/// Fills in the line of each diagnostic: the line of the longest prefix of
/// its path found in its file (syntax errors already carry theirs).
fn locate(diags: &mut Diagnostics, sources: &[(String, String)]) {
    let mut cache: BTreeMap<&str, std::collections::HashMap<Vec<lines::Part>, usize>> = BTreeMap::new();
    for d in &mut diags.0 {
        if d.line.is_some() || d.path.parts().is_empty() {
            continue;
        }
        let Some((name, text)) = sources.iter().find(|(n, _)| *n == d.file) else { continue };
        let map = cache
            .entry(name)
            .or_insert_with(|| load::blank_comments(text).map(|t| lines::lines(&t)).unwrap_or_default());
        let mut parts = d.path.parts();
        while !parts.is_empty() {
            if let Some(&line) = map.get(&parts) {
                d.line = Some(line);
                break;
            }
            parts.pop();
        }
    }
}

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
    /// last release) already has: see [`evolution`] for what breaks.
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

    /// Reads every schema file of the inputs. A schema is named by its file
    /// name (generated docs say where each message comes from), or by its
    /// path where two inputs share a file name, so that diagnostics find the
    /// right file.
    fn read_sources(&self) -> Result<Sources, Error> {
        let mut sources = Sources::default();
        let files = self.schema_files()?;
        let file_name = |path: &Path| path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut uses: BTreeMap<String, usize> = BTreeMap::new();
        for path in &files {
            *uses.entry(file_name(path)).or_default() += 1;
        }
        for path in &files {
            let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.clone(), source })?;
            let name = file_name(path);
            let name = if uses.get(&name).is_some_and(|&n| n > 1) { path.display().to_string() } else { name };
            sources.paths.insert(name.clone(), path.display().to_string());
            match String::from_utf8(bytes) {
                Ok(text) => sources.texts.push((name, text)),
                Err(e) => {
                    sources.not_utf8.0.push(not_utf8_diagnostic(&name, e.as_bytes(), e.utf8_error().valid_up_to()));
                }
            }
        }
        Ok(sources)
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
    fn compile_keeping(&self, keep: &[&str]) -> Result<Generated, Error> {
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

/// The schema files of a [`Builder`]'s inputs, read.
#[derive(Default)]
struct Sources {
    /// File name (or path, where names collide) and text.
    texts: Vec<(String, String)>,
    /// The path each file name was read from.
    paths: BTreeMap<String, String>,
    /// The files that are not UTF-8.
    not_utf8: Diagnostics,
}

impl Sources {
    /// `result`, failing also for the files that were not UTF-8, with every
    /// diagnostic naming its file by the path it was given as.
    fn check_utf8<T>(&self, result: Result<T, Error>) -> Result<T, Error> {
        let mut not_utf8 = self.not_utf8.clone();
        let result = match result {
            Ok(value) if not_utf8.is_empty() => Ok(value),
            Ok(_) => Err(Error::Schema(not_utf8)),
            Err(Error::Schema(mut diags)) => {
                diags.0.append(&mut not_utf8.0);
                diags.0.sort();
                Err(Error::Schema(diags))
            }
            Err(other) => Err(other),
        };
        result.map_err(|e| match e {
            Error::Schema(mut diags) => {
                for d in &mut diags.0 {
                    d.file = self.path(&d.file);
                }
                Error::Schema(diags)
            }
            other => other,
        })
    }

    /// The path a file name was read from.
    fn path(&self, name: &str) -> String {
        self.paths.get(name).cloned().unwrap_or_else(|| name.to_owned())
    }
}

/// The name of the file, in the output directory of [`regenerate`], that
/// holds the [`fingerprint`] of the sources it was generated from.
pub const FINGERPRINT_FILE: &str = "FINGERPRINT";

/// Compiles everything a facts file names, with `options` (the facts' own
/// taken on top): its `schemas` into `out`, and each internal-record family
/// into `out/internal/MODULE/` with its dispatch enums (`records.rs`); then
/// writes the [`fingerprint`] of the facts file and those directories to
/// `out/FINGERPRINT` ([`FINGERPRINT_FILE`]).
///
/// # Errors
/// As [`Builder::compile`]; [`Error::Facts`] when the facts name no schemas.
pub fn regenerate(facts_file: &Path, options: &Options, runtime: &str, out: &Path) -> Result<(), Error> {
    let facts = Facts::read(facts_file)?;
    let schemas = facts
        .schemas_dir()
        .ok_or_else(|| Error::Facts { path: facts_file.to_owned(), message: "schemas: missing".into() })?;
    let builder = |input: &Path, out: &Path| {
        let mut b = Builder::new();
        b.options = options.clone();
        b.input_dir(input).out_dir(out).runtime_path(runtime).facts(&facts).rerun_if_changed(false);
        b
    };
    let generated = builder(&schemas, out).compile()?;
    let requests: BTreeSet<&str> = generated
        .messages
        .iter()
        .filter_map(|m| m.name.strip_suffix("Request").filter(|_| m.api_key.is_some()))
        .collect();
    let mut unknown: Vec<String> = facts
        .api_groups
        .iter()
        .flat_map(|g| g.apis.iter())
        .chain(&facts.forwardable)
        .chain(&facts.cluster_action)
        .filter(|name| !requests.contains(name.as_str()))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        return Err(Error::UnknownApis(unknown));
    }
    let mut dirs = vec![schemas];
    if let Some(internal) = facts.internal_schemas_dir() {
        for family in &facts.families {
            let input = internal.join(&family.dir);
            let family_out = out.join("internal").join(&family.module);
            let family_builder = builder(&input, &family_out);
            family_builder.compile_keeping(&["records.rs"])?;
            internal::write_records(family, &family_builder, &family_out)?;
        }
        dirs.push(internal);
    }
    let print = fingerprint(&facts.dir, facts_file, &dirs).map_err(|(path, source)| Error::Io { path, source })?;
    let path = out.join(FINGERPRINT_FILE);
    write::write_if_changed(&path, &format!("{print}\n")).map_err(|source| Error::Io { path, source })?;
    Ok(())
}
