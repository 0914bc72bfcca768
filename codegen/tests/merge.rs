//! `kwire-codegen merge SCHEMAS RELEASE_DIR...` on the fixture schema set
//! of `tests/merge/`: `ours/` (the set), `r1/` (an older release), `r2/`
//! (the newest), and `expected/` (the set after the merge).
//!
//! What the fixtures show: version 0 of PingRequest, which no release has,
//! keeps our shape; version 1, which only the older release has, takes its
//! shape (`Old` at v1); version 2 takes the newest release's (`Size` an
//! int64, where the older release's unstable v2 had an int32); our about
//! texts, comments and listeners stay, the newest release's listener is
//! added after ours; our own fields stay as they are (`Payload` typed as
//! `ApiMessage` where the releases have bytes, the tagged `Trace` no
//! release has); new fields and the new message get `"about": ""`; and
//! `Still.json`, whose wire no release changes, is left byte for byte
//! although the releases' about texts differ and its layout is not the
//! one the merge writes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge")
}

/// A copy of `ours/` in a directory of its own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-merge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    for entry in std::fs::read_dir(fixtures().join("ours")).expect("ours/") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, dir.join(path.file_name().expect("a file name"))).expect("copied");
    }
    dir
}

fn merge(schemas: &Path, releases: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kwire-codegen"))
        .arg("merge")
        .arg(schemas)
        .args(releases.iter().map(|r| fixtures().join(r)))
        .output()
        .expect("kwire-codegen runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

fn files(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("listed")
        .map(|e| {
            let path = e.expect("an entry").path();
            let name = path.file_name().expect("a name").to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("read"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_merge_writes_the_newest_shape_of_each_version_and_keeps_ours() {
    let dir = scratch("fixtures");
    let (ok, stdout, stderr) = merge(&dir, &["r1", "r2"]);
    assert!(ok, "{stderr}");
    let expected = std::fs::read_to_string(fixtures().join("expected.txt")).expect("expected.txt");
    assert_eq!(stdout, expected);
    assert_eq!(stderr, "", "no conflict");
    let (got, want) = (files(&dir), files(&fixtures().join("expected")));
    assert_eq!(got.iter().map(|(n, _)| n).collect::<Vec<_>>(), want.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for ((name, got), (_, want)) in got.iter().zip(&want) {
        assert_eq!(got, want, "{name}");
    }
    let still = std::fs::read_to_string(fixtures().join("ours/Still.json")).expect("Still.json");
    assert_eq!(std::fs::read_to_string(dir.join("Still.json")).expect("Still.json"), still, "left byte for byte");
    // A second merge finds nothing to do.
    let (ok, stdout, _) = merge(&dir, &["r1", "r2"]);
    assert!(ok);
    assert_eq!(stdout, format!("{}: no wire change\n", dir.display()));
    assert_eq!(files(&dir), want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_newest_release_given_decides_a_version_both_have() {
    // Given alone, the older release decides v2: Size stays an int32, v2
    // is its unstable latest, and no v3 appears.
    let dir = scratch("older");
    let (ok, stdout, stderr) = merge(&dir, &["r1"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("updated PingRequest.json: versions 0-2 -> 0-2"), "{stdout}");
    let text = std::fs::read_to_string(dir.join("PingRequest.json")).expect("written");
    assert!(text.contains(r#"{ "name": "Size", "type": "int32", "versions": "2+","#), "{text}");
    assert!(text.contains(r#""latestVersionUnstable": true,"#), "{text}");
    assert!(!text.contains("Extra"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_release_directory_that_is_missing_is_named() {
    let dir = scratch("missing");
    let (ok, _, stderr) = merge(&dir, &["no-such-release"]);
    assert!(!ok);
    assert!(stderr.contains("no-such-release") && stderr.contains("not a directory"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
