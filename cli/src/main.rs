//! `kwire`: the command-line tool of the kwire crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod decode;
mod dump;

/// Kafka's wire protocol from the command line.
#[derive(Parser)]
#[command(name = "kwire", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    // The compiler's commands: gen, diff, facts, merge and import.
    #[command(flatten)]
    Compiler(kwire_codegen::cli::Command),
    /// Print Kafka's internal logs and snapshots as Kafka's DumpLogSegments does.
    Dump(dump::Args),
    /// Decode captured Kafka traffic: pcap, pcapng, size-prefixed frames or hex.
    Decode(decode::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Compiler(command) => command.run(),
        Command::Dump(args) => dump::run(args),
        Command::Decode(args) => decode::run(args),
    }
}
