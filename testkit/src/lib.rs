//! What the workspace's tests share: finding the reference directory,
//! skipping a check outside CI (failing it in CI), the switch that refreshes
//! expected outputs ([`bless`]), the public-surface
//! check of each crate ([`public_api::check_package`]), the mutations of hostile-input
//! properties ([`mutation`]), and a directory's files to compare ([`tree`]).

pub mod mutation;
pub mod public_api;

use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable of the one switch that refreshes expected
/// outputs: set to a non-empty value, a test that compares with a committed
/// file (the public-surface lists, `generated/internal/`, the api table of
/// `docs/apis.md`) rewrites the file instead of failing, for the diff to be
/// reviewed. `scripts/test.sh` also sets insta's `INSTA_UPDATE=always` from
/// it, for the compiler's snapshots.
pub const BLESS: &str = "KWIRE_BLESS";

/// Whether this run refreshes expected outputs ([`BLESS`]).
pub fn bless() -> bool {
    std::env::var_os(BLESS).is_some_and(|v| !v.is_empty())
}

/// The workspace root (the directory above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Skips a check whose prerequisite is missing: prints `message` to stderr,
/// notes the skip (see [`SKIP_LOG`]) and returns `Ok(None)`.
///
/// `message` reads `skipped: <what> needs <what is missing> (<the command
/// that provides it>)`.
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
    note_skip(message);
    Ok(None)
}

/// The environment variable naming the file each skip appends a line to:
/// the test binary and test name, a tab, and the message. `scripts/test.sh`
/// sets it and closes the run with the count of skipped tests and why.
pub const SKIP_LOG: &str = "KWIRE_SKIP_LOG";

/// Appends one line for this skip to the file [`SKIP_LOG`] names, when set.
/// The test is named by the test harness's thread; a failure to write is
/// ignored, as the message went to stderr already.
fn note_skip(message: &str) {
    let Some(path) = std::env::var_os(SKIP_LOG).filter(|p| !p.is_empty()) else { return };
    let binary = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| stem.rsplit_once('-').map_or(stem.clone(), |(name, _hash)| name.to_owned()))
        .unwrap_or_default();
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("main");
    let line = format!("{binary}::{test}\t{}\n", message.replace(['\t', '\n'], " "));
    // One write of the whole line: appends of concurrent tests do not interleave.
    if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        let _ = file.write_all(line.as_bytes());
    }
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

/// Every file under `dir`, by its path relative to `dir` (with `/`), with
/// its bytes, sorted by path: two directories hold the same files exactly
/// when their trees are equal.
///
/// # Errors
/// The first directory or file that cannot be read, its path named.
pub fn tree(dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    fn named(path: &Path) -> impl Fn(std::io::Error) -> std::io::Error + '_ {
        move |e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
    }
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir).map_err(named(dir))? {
            let path = entry.map_err(named(dir))?.path();
            if path.is_dir() {
                walk(&path, root, out)?;
            } else {
                let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                out.push((name, std::fs::read(&path).map_err(named(&path))?));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}
