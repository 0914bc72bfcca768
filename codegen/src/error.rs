//! Why a run fails: [`Error`], one variant per kind of failure, its
//! `Debug` listing each schema diagnostic located.

use std::path::PathBuf;

use crate::diag::Diagnostics;
use crate::evolution;

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
    /// The runtime path given ([`Builder::runtime_path`](crate::Builder::runtime_path), `--runtime`) is
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
    /// Api keys asked for ([`Builder::api_keys`](crate::Builder::api_keys), `--api-keys`) that no
    /// request schema of the inputs has.
    #[error("api keys {0:?} are not in the schemas given")]
    UnknownApiKeys(Vec<i16>),
    /// The inputs change the bytes of a version that the schema set given
    /// to [`Builder::check_evolution`](crate::Builder::check_evolution) already has; the report lists every
    /// finding, the breaking ones among them.
    #[error("the schemas break the wire of {}:\n{}", .base.display(), breaking_lines(.report))]
    Breaking {
        /// The schema set compared against.
        base: PathBuf,
        /// Every finding of the comparison.
        report: evolution::Report,
    },
    /// Apis named by a facts file's api groups, forwardable or cluster-action
    /// apis that no request schema of its schema set has ([`regenerate`](crate::regenerate)).
    #[error("apis {0:?} are not in the schemas given")]
    UnknownApis(Vec<String>),
    /// Entries of [`Builder::sensitive_fields`](crate::Builder::sensitive_fields) (`--sensitive-fields`) that
    /// name no string or bytes field of a message in the inputs, one
    /// problem per entry.
    #[error("sensitive fields: {}", .0.join("; "))]
    SensitiveFields(Vec<String>),
    /// Entries of [`Options::peeked_fields`](crate::Options::peeked_fields) that name no field a peek can
    /// read, one problem per entry.
    #[error("peeked fields: {}", .0.join("; "))]
    PeekedFields(Vec<String>),
    /// Entries of [`Options::error_responses`](crate::Options::error_responses)
    /// that name a field the api's messages lack or give a value its type
    /// cannot hold, one problem per entry.
    #[error("error responses: {}", .0.join("; "))]
    ErrorResponses(Vec<String>),
    /// The facts file ([`Facts::read`](crate::Facts::read)) is not what it should be.
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
