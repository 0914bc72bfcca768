//! Any texts as an old and a new set of schemas (kwire-codegen's evolution
//! check, `evolution::compare_sources`, the comparison behind `diff` and
//! `Builder::check_evolution`): a report or located diagnostics, never a
//! panic, a stack overflow or a blow-up in time.
//!
//! ```text
//! old NUL NUL new   the old set and the new set; within a set, files are
//!                   separated by one NUL (Old0.json, Old1.json, ...; New0.json, ...)
//! set               (no NUL NUL) one set, compared with itself
//! ```
//!
//! Invariants: a set compared with itself has no finding; every finding
//! names a file of the set it is in and a line of that file; a report is
//! breaking exactly when one of its findings is.
#![no_main]

use kwire_codegen::evolution::{compare_sources, Report};
use libfuzzer_sys::fuzz_target;

/// The files of a set, named `{prefix}{i}.json`.
fn files(prefix: &str, set: &str) -> Vec<(String, String)> {
    set.split('\0').enumerate().map(|(i, text)| (format!("{prefix}{i}.json"), text.to_string())).collect()
}

fn check(report: &Report, old: &[(String, String)], new: &[(String, String)]) {
    assert_eq!(report.is_breaking(), report.findings.iter().any(|f| f.rule.is_breaking()));
    for f in &report.findings {
        let set = if f.in_old { old } else { new };
        let Some((_, text)) = set.iter().find(|(name, _)| *name == f.file) else {
            panic!("{f}: not a file of the {} set", if f.in_old { "old" } else { "new" })
        };
        if let Some(line) = f.line {
            assert!((1..=text.lines().count().max(1)).contains(&line), "{f}");
        }
        assert!(f.versions.lo <= f.versions.hi, "{f}");
    }
    let _ = report.to_string();
}

/// A set compared with itself: no finding.
fn identical(set: &str) {
    let (old, new) = (files("Old", set), files("New", set));
    if let Ok(report) = compare_sources(&old, &new) {
        assert_eq!(report.findings, vec![], "a set compared with itself");
        check(&report, &old, &new);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.split_once("\0\0") {
        None => identical(&text),
        Some((old_set, new_set)) => {
            let (old, new) = (files("Old", old_set), files("New", new_set));
            if let Ok(report) = compare_sources(&old, &new) {
                check(&report, &old, &new);
                identical(new_set);
            }
        }
    }
});
