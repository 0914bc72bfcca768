//! Command-line front of kwire-codegen: the commands of `kwire_codegen::cli`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kwire_codegen::cli::{DiffArgs, FactsArgs, GenArgs};

/// Compiles Kafka JSON message schemas into Rust, compares schema sets and
/// prints the facts of a facts file.
#[derive(Parser)]
#[command(name = "kwire-codegen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile Kafka JSON message schemas (files, or directories of *.json) into Rust.
    Gen(Box<GenArgs>),
    /// Compare two schema sets version by version.
    Diff(DiffArgs),
    /// Print facts of a facts file (such as kafka-facts.json), one value a line.
    Facts(FactsArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Gen(args) => args.run(),
        Command::Diff(args) => args.run(),
        Command::Facts(args) => args.run(),
    }
}
