//! `kwire gen`.

use std::process::ExitCode;

/// Arguments of `kwire gen`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `kwire gen`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("kwire gen: not built yet");
    ExitCode::from(2)
}
