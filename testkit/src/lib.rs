//! What the workspace's tests share: finding the reference directory,
//! skipping a check outside CI (failing it in CI), and the public-surface
//! check of each crate ([`public_api::check`]), and the mutations of hostile-input
//! properties ([`mutation`]).

pub mod mutation;
pub mod public_api;

use std::io::Write;
use std::path::{Path, PathBuf};

/// The workspace root (the directory above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Skips a check whose prerequisite is missing: prints `message` to stderr
/// and returns `Ok(None)`.
///
/// # Errors
/// `message` instead, when the environment variable `CI` is set to a
/// non-empty value: in CI a missing prerequisite fails the run.
pub fn skip<T>(message: &str) -> Result<Option<T>, String> {
    if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
        return Err(message.to_owned());
    }
    // Written to stderr directly: the test harness captures `eprintln!`.
    let _ = writeln!(std::io::stderr(), "{message}");
    Ok(None)
}

/// The reference directory (Kafka's schemas as `kafka-messages/`, captured
/// frames as `captures/`): `$KWIRE_SHARED`, a relative path taken from
/// the workspace root, default `../shared` beside the workspace.
/// `Ok(None)`, through [`skip`], when it is not there.
///
/// # Errors
/// As [`skip`]: in CI, a missing directory.
pub fn shared_dir(what: &str) -> Result<Option<PathBuf>, String> {
    let dir = match std::env::var_os("KWIRE_SHARED") {
        Some(dir) if !dir.is_empty() => workspace_root().join(dir),
        _ => workspace_root().join("../shared"),
    };
    if dir.is_dir() {
        return Ok(Some(dir));
    }
    skip(&format!("skipped: {what} needs {} (set KWIRE_SHARED)", dir.display()))
}
