//! `kwire diff`: the evolution check of `kwire_codegen::diff` between two
//! schema sets.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kwire diff`.
#[derive(clap::Args)]
#[command(
    after_help = "Prints one line per change (file:line: JSON path: versions: rule: what changed), then a summary.\n\
Exit status: 0 compatible, 1 breaking, 2 for bad arguments, I/O errors or invalid schemas."
)]
pub struct Args {
    /// Print only the changes that break peers running OLD.
    #[arg(long)]
    breaking: bool,
    /// The schemas before: a directory of *.json or one file.
    old: PathBuf,
    /// The schemas after.
    new: PathBuf,
}

/// Runs `kwire diff`.
pub fn run(args: Args) -> ExitCode {
    match kwire_codegen::diff(&args.old, &args.new) {
        Ok(mut report) => {
            if args.breaking {
                report.findings.retain(|f| f.rule.is_breaking());
            }
            println!("{report}");
            ExitCode::from(u8::from(report.is_breaking()))
        }
        Err(e) => crate::gen::failure(e, 2),
    }
}
