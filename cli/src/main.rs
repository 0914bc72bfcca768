//! `kwire`: the command-line tool of the kwire crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod decode;
mod diff;
mod dump;
mod gen;

/// Kafka's wire protocol from the command line.
#[derive(Parser)]
#[command(name = "kwire", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a folder of Kafka JSON message schemas into Rust.
    Gen(gen::Args),
    /// Compare two schema sets version by version.
    Diff(diff::Args),
    /// Print Kafka's internal logs and snapshots as Kafka's DumpLogSegments does.
    Dump(dump::Args),
    /// Decode captured Kafka traffic: pcap, pcapng, size-prefixed frames or hex.
    Decode(decode::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Gen(args) => gen::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Dump(args) => dump::run(args),
        Command::Decode(args) => decode::run(args),
    }
}
