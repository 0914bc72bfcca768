//! `kwire diff`.

use std::process::ExitCode;

/// Arguments of `kwire diff`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `kwire diff`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("kwire diff: not built yet");
    ExitCode::from(2)
}
