//! Helpers shared by the integration tests (the library's, and those of
//! interop/, whose `common` module includes this one).

pub mod captures;
pub mod oracle;

use std::path::PathBuf;

/// The api key numbered `code` in the api-key table (a test's own number).
#[allow(dead_code)] // not every test binary names api keys by number
pub fn api_key(code: i16) -> kwire::api::ApiKey {
    kwire::api::ApiKey::try_from(code).unwrap_or_else(|_| panic!("api key {code} is not in the table"))
}

/// The list of releases `name` of `kafka-facts.json` (`equivalence`,
/// `history`, `oracle`).
#[allow(dead_code)] // not every test binary runs against releases
pub fn releases(name: &str) -> Vec<String> {
    let facts: serde_json::Value =
        serde_json::from_str(include_str!("../../kafka-facts.json")).expect("kafka-facts.json is JSON");
    let list =
        facts["releases"][name].as_array().unwrap_or_else(|| panic!("kafka-facts.json lists no releases.{name}"));
    list.iter().map(|r| r.as_str().expect("a release is a string").to_owned()).collect()
}

/// Skips a check whose prerequisite is missing: prints `message` (`skipped:
/// <what> needs ... (<the command that provides it>)`) to stderr, notes the
/// skip for `scripts/test.sh`'s summary ([`kwire_testkit::skip`]) and
/// returns `None`.
///
/// # Panics
/// With `message` instead, when the environment variable `CI` is set to a
/// non-empty value: in CI a missing prerequisite must fail the run rather
/// than silently skip it.
#[allow(dead_code)]
pub fn skip<T>(message: &str) -> Option<T> {
    kwire_testkit::skip(message).unwrap_or_else(|message| panic!("{message}"))
}

/// The directory named by the environment variable `var` when it is set
/// and not empty, otherwise `default`; a relative path is taken from the
/// workspace root, whichever crate runs the test.
#[allow(dead_code)]
pub fn env_dir(var: &str, default: &str) -> PathBuf {
    let root = kwire_testkit::workspace_root();
    match std::env::var_os(var) {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join(default),
    }
}

/// Where the scripts put Kafka's releases (`interop/scripts/kafka-release.sh`,
/// `kafka-oracle.sh`, `kafka-cluster.sh fetch`): `$KWIRE_RELEASES`,
/// default `.cache/kafka`.
#[allow(dead_code)]
pub fn releases_dir() -> PathBuf {
    env_dir("KWIRE_RELEASES", ".cache/kafka")
}

/// Finds the shared reference directory that some tests compare against
/// (it holds `kafka-messages/`, Kafka's own schemas, plus captures and docs).
///
/// The directory is `$KWIRE_SHARED` when that variable is set and not
/// empty, otherwise `../shared` next to the crate root (`CARGO_MANIFEST_DIR`).
/// `what` names the test or check that needs it; it only appears in the
/// message below.
///
/// Returns `Some(dir)` when the directory exists. When it does not, the
/// caller should skip its check: this prints
/// `skipped: <what> needs <path> (set KWIRE_SHARED)` to stderr and
/// returns `None`.
///
/// # Panics
/// With that same message instead of returning `None` when the environment
/// variable `CI` is set to a non-empty value: in CI a missing corpus must
/// fail the run rather than silently skip it.
///
/// # Example
/// ```ignore
/// let Some(shared) = common::shared_dir("schema equivalence") else { return };
/// let corpus = shared.join("kafka-messages");
/// ```
#[allow(dead_code)]
pub fn shared_dir(what: &str) -> Option<PathBuf> {
    kwire_testkit::shared_dir(what).unwrap_or_else(|message| panic!("{message}"))
}

/// The schemas of one schema `family` (`messages`, `metadata`, ...) of the
/// Apache Kafka `release`, as `interop/scripts/kafka-release.sh` extracts them into
/// `$KWIRE_RELEASES/RELEASE/schemas/FAMILY` (default `.cache/kafka`
/// in the repository).
///
/// Returns `None`, after printing `skipped: ...` to stderr, when they are
/// not there.
///
/// # Panics
/// With that message instead, when `CI` is set to a non-empty value.
#[allow(dead_code)]
pub fn release_schemas(release: &str, family: &str) -> Option<PathBuf> {
    let dir = releases_dir().join(release).join("schemas").join(family);
    if dir.is_dir() {
        return Some(dir);
    }
    skip(&format!(
        "skipped: Kafka {release}'s {family} schemas are not in {} (run bash interop/scripts/setup.sh releases)",
        dir.display()
    ))
}

/// The launcher of the Kafka oracle for `release` (`interop/conformance/java/Oracle.java`
/// compiled against the release's jars), as `interop/scripts/kafka-oracle.sh RELEASE`
/// writes it: `$KWIRE_RELEASES/RELEASE/oracle/run` (default
/// `.cache/kafka`), checked to be there and `java` to run.
///
/// Returns `None`, after printing `skipped: ...` to stderr, when either is
/// missing.
///
/// # Panics
/// With that message instead, when `CI` is set to a non-empty value.
#[allow(dead_code)]
pub fn kafka_oracle(release: &str) -> Option<PathBuf> {
    let launcher = releases_dir().join(release).join("oracle").join("run");
    let java = std::process::Command::new("java")
        .arg("-version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let message = if !launcher.is_file() {
        format!(
            "skipped: the Kafka {release} oracle is not in {} (run bash interop/scripts/setup.sh oracle)",
            launcher.display()
        )
    } else if !java {
        format!("skipped: the Kafka {release} oracle needs `java` (17 or newer) on PATH (then run bash interop/scripts/setup.sh oracle)")
    } else {
        return Some(launcher);
    };
    skip(&message)
}

/// A list of versions written compactly, as the tests' tables print them:
/// `[0, 1, 2, 3, 5]` is `"0-3, 5"`, an empty list `"-"`.
#[allow(dead_code)]
pub fn version_ranges(vs: &[i16]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < vs.len() {
        let mut j = i;
        while j + 1 < vs.len() && vs[j + 1] == vs[j] + 1 {
            j += 1;
        }
        out.push(if i == j { vs[i].to_string() } else { format!("{}-{}", vs[i], vs[j]) });
        i = j + 1;
    }
    if out.is_empty() {
        "-".into()
    } else {
        out.join(", ")
    }
}
