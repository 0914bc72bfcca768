//! kwire-codegen compiles message schemas written in Apache Kafka's
//! JSON schema language into Rust: one struct per message and per nested
//! struct, with encode, decode and size for every version.
//!
//! Inside, the flow is one private module per step:
//!
//! ```text
//! schema text ─load─▶ JSON ─lower─▶ model ─check─▶ registry ─plan─▶ wire plan ─emit─▶ tokens ─write─▶ formatted Rust
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
// report, each re-exported from the private module that holds it.
// The flow, one private module per step, follows.

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
// Schema files read, parsed, lowered and located: shared by the compiler
// and the evolution checker.
mod sources;
// Cross-field rules and the struct registry.
mod check;
// Rust names for Kafka names.
mod naming;
// Model to tokens.
mod emit;
// Tokens to formatted files on disk.
mod write;
// The steps of a run, in order: load, model, check, plan, emit, write.
mod pipeline;
// The facts of a message set beside its schemas.
mod facts;
// The fingerprint of a message set's sources.
mod fingerprint;
// The dispatch enums of the internal-record families.
mod internal;
// What a run emits besides the structs and their codecs.
mod options;
// What a run returns.
mod output;
// Why a run fails.
mod error;
// The build-script door: inputs, options, output directory.
mod builder;
// Two schema sets on disk compared.
mod compare;
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

pub use builder::Builder;
pub use compare::diff;
pub use diag::{Diagnostic, Diagnostics, JsonPath};
pub use error::Error;
pub use facts::{ApiGroup, ErrorResponseFacts, Facts, Family};
pub use fingerprint::fingerprint;
pub use load::LoadError;
pub use options::{Gates, Options};
pub use output::{Generated, GeneratedFile, MessageSummary};
pub use pipeline::{generate, generate_with, regenerate, FINGERPRINT_FILE};
pub use sources::parse_schema;
