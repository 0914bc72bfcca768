//! `kwire decode`.

use std::process::ExitCode;

/// Arguments of `kwire decode`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `kwire decode`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("kwire decode: not built yet");
    ExitCode::from(2)
}
