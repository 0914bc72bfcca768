//! Command-line front of kwire-codegen: the commands of `kwire_codegen::cli`.

use std::process::ExitCode;

use clap::Parser;

/// Compiles Kafka JSON message schemas into Rust, compares schema sets,
/// prints the facts of a facts file, and brings in a Kafka release's
/// schemas.
#[derive(Parser)]
#[command(name = "kwire-codegen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: kwire_codegen::cli::Command,
}

fn main() -> ExitCode {
    Cli::parse().command.run()
}
