//! Any two texts as an old and a new schema (kwire-codegen's evolution check,
//! `evolution::compare_sources`, the comparison behind `diff` and
//! `Builder::check_evolution`): a report or located diagnostics, never a
//! panic, a stack overflow or a blow-up in time.
//!
//! ```text
//! old NUL new     the old set's Old.json and the new set's New.json
//! text            (no NUL) the same file as both sets
//! ```
//!
//! Invariants: a set compared with itself has no finding; every finding
//! names the file of the set it is in and a line of that file; a report is
//! breaking exactly when one of its findings is.
#![no_main]

use kwire_codegen::evolution::{compare_sources, Report};
use libfuzzer_sys::fuzz_target;

fn sources(name: &str, text: &str) -> [(String, String); 1] {
    [(name.to_string(), text.to_string())]
}

fn check(report: &Report, old: &str, new: &str) {
    assert_eq!(report.is_breaking(), report.findings.iter().any(|f| f.rule.is_breaking()));
    for f in &report.findings {
        let (file, text) = if f.in_old { ("Old.json", old) } else { ("New.json", new) };
        assert_eq!(f.file, file, "{f}");
        if let Some(line) = f.line {
            assert!((1..=text.lines().count().max(1)).contains(&line), "{f}");
        }
        assert!(f.versions.lo <= f.versions.hi, "{f}");
    }
    let _ = report.to_string();
}

/// A set compared with itself: no finding.
fn identical(text: &str) {
    if let Ok(report) = compare_sources(&sources("Old.json", text), &sources("New.json", text)) {
        assert_eq!(report.findings, vec![], "a schema compared with itself");
        check(&report, text, text);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.split_once('\0') {
        None => identical(&text),
        Some((old, new)) => {
            if let Ok(report) = compare_sources(&sources("Old.json", old), &sources("New.json", new)) {
                check(&report, old, new);
                identical(new);
            }
        }
    }
});
