//! The comparison of two schema sets on disk ([`diff`]): each read as the
//! Kafka release that shipped it read it, then compared version by version
//! by [`evolution`].

use std::path::Path;

use crate::evolution;
use crate::sources::{load_historical, Sources};
use crate::{Builder, Error};

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

/// [`diff`] of two sets already read: each set's diagnostics and findings
/// name files by the paths they were read from.
pub(crate) fn diff_sources(old: &Sources, new: &Sources) -> Result<evolution::Report, Error> {
    let old_specs = old.check_utf8(load_historical(&old.texts))?;
    let new_specs = new.check_utf8(load_historical(&new.texts))?;
    let mut report = evolution::compare(&old_specs, &new_specs);
    evolution::locate(&mut report, &old.texts, &new.texts);
    for f in &mut report.findings {
        f.file = if f.in_old { old.path(&f.file) } else { new.path(&f.file) };
    }
    Ok(report)
}
