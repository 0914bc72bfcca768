//! `kwire dump`.

use std::process::ExitCode;

/// Arguments of `kwire dump`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `kwire dump`.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("kwire dump: not built yet");
    ExitCode::from(2)
}
