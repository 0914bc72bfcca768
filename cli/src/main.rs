//! `kwire`: the command-line tool of the kwire crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kwire_codegen::cli::{DiffArgs, GenArgs};

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
    /// Compile Kafka JSON message schemas (files, or directories of *.json) into Rust.
    Gen(Box<GenArgs>),
    /// Compare two schema sets version by version.
    Diff(DiffArgs),
    /// Print Kafka's internal logs and snapshots as Kafka's DumpLogSegments does.
    Dump(dump::Args),
    /// Decode captured Kafka traffic: pcap, pcapng, size-prefixed frames or hex.
    Decode(decode::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Gen(args) => args.run(),
        Command::Diff(args) => args.run(),
        Command::Dump(args) => dump::run(args),
        Command::Decode(args) => decode::run(args),
    }
}
