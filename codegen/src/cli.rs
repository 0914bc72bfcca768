//! The compiler's command line (feature `cli`): the arguments of its
//! commands as `clap::Args`, and each command's run, which prints its
//! result and gives the exit status. The `kwire-codegen` binary and the
//! `kwire` tool (`kwire gen`, `kwire diff`, …) both front these.
//!
//! ```
//! use clap::Parser;
//!
//! #[derive(Parser)]
//! struct Gen {
//!     #[command(flatten)]
//!     args: kwire_codegen::cli::GenArgs,
//! }
//! let gen = Gen::parse_from(["gen", "--views", "--out", "generated", "schemas"]);
//! assert!(gen.args.options.views);
//! assert_eq!(gen.args.runtime, "::kwire");
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use crate::{Builder, Error, Facts, Options};

/// The compiler's commands, as a command line's subcommands (flatten it
/// into a `clap::Subcommand` enum to take them all).
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Command {
    /// Compile Kafka JSON message schemas (files, or directories of *.json) into Rust.
    Gen(Box<GenArgs>),
    /// Compare two schema sets version by version.
    Diff(DiffArgs),
    /// Print facts of a facts file (such as kafka-facts.json), one value a line.
    Facts(FactsArgs),
    /// Merge Kafka releases' message schemas into a schema set, keeping its own texts and fields.
    Merge(MergeArgs),
    /// Import a Kafka release's internal-record families, without Kafka's prose, as the facts name them.
    Import(ImportArgs),
}

impl Command {
    /// Runs the command: see [`GenArgs::run`], [`DiffArgs::run`],
    /// [`FactsArgs::run`], [`MergeArgs::run`] and [`ImportArgs::run`] for
    /// what each prints and its exit status.
    pub fn run(&self) -> ExitCode {
        match self {
            Command::Gen(args) => args.run(),
            Command::Diff(args) => args.run(),
            Command::Facts(args) => args.run(),
            Command::Merge(args) => args.run(),
            Command::Import(args) => args.run(),
        }
    }
}

/// Arguments of `gen`: compiles Kafka JSON message schemas into Rust.
///
/// With `--facts FILE --out DIR` and no schema, compiles everything the
/// facts file names ([`crate::regenerate`]).
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "With --facts FILE and --out DIR and no SCHEMA, compiles everything the facts file names \
(its schemas, each internal-record family into DIR/internal/MODULE) and writes the sources' fingerprint to \
DIR/FINGERPRINT.\n\
Exit status: 0 on success, 1 for invalid schemas (each error names file and JSON path), \
2 for bad arguments or I/O errors.")]
pub struct GenArgs {
    /// Write one .rs file per schema and mod.rs into DIR (without it, the schemas are only checked).
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Path of the runtime crate in generated code.
    #[arg(long, value_name = "PATH", default_value = "::kwire")]
    pub runtime: String,
    /// The facts the schemas do not carry (sensitive fields, forwardable and cluster-action apis,
    /// api groups), from a JSON file such as kafka-facts.json; --sensitive-fields, if given, wins
    /// over its list.
    #[arg(long, value_name = "FILE")]
    pub facts: Option<PathBuf>,
    /// Print only the total.
    #[arg(long, short)]
    pub quiet: bool,
    /// What is emitted besides each struct and its codec.
    #[command(flatten)]
    pub options: Options,
    /// Schema files, or directories of *.json.
    #[arg(value_name = "SCHEMA")]
    pub inputs: Vec<PathBuf>,
}

/// Arguments of `diff`: compares two schema sets version by version.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Prints one line per change (file:line: JSON path: versions: rule: what changed), \
then a summary.\n\
Exit status: 0 compatible, 1 breaking, 2 for bad arguments, I/O errors or invalid schemas.")]
pub struct DiffArgs {
    /// Print only the changes that break peers running OLD.
    #[arg(long)]
    pub breaking: bool,
    /// The schemas before: a directory of *.json or one file.
    pub old: PathBuf,
    /// The schemas after.
    pub new: PathBuf,
}

/// Arguments of `facts`: prints facts of a facts file, one value a line,
/// for scripts.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Keys: release, releases.NAME (a list of releases), api_groups.NAME (its apis), \
forwardable, cluster_action, sensitive_fields, peeked_fields, families (the internal-record directories).\n\
Exit status: 0 printed, 2 for bad arguments, an unreadable file or an unknown key.")]
pub struct FactsArgs {
    /// The facts file, such as kafka-facts.json.
    pub file: PathBuf,
    /// The facts to print, in turn.
    #[arg(required = true)]
    pub keys: Vec<String>,
}

/// Arguments of `merge`: merges Kafka releases' message schemas into a
/// schema set.
///
/// Version `v` of each message takes its wire shape from the newest
/// release that has it; versions no release has any more keep the shape
/// the schema set gives them. The set's about texts, comments, listeners
/// and its own fields (typed embedded messages, tagged fields no release
/// has) are kept; a new field or message gets `"about": ""`. A file whose
/// wire shape does not change (by the evolution checker of `diff`) is
/// left as it is.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Prints one line per file written (added, updated, renamed), then any conflict \
(a wire key of a field that differs between versions) on stderr.\n\
Exit status: 0 merged, 2 for bad arguments, I/O errors or invalid schemas.")]
pub struct MergeArgs {
    /// The schema set to merge into: a directory of *.json, rewritten in place.
    pub schemas: PathBuf,
    /// Each release's message schemas (its `messages/` directory), oldest release first.
    #[arg(value_name = "RELEASE_DIR", required = true)]
    pub releases: Vec<PathBuf>,
}

/// Arguments of `import`: writes the internal-record families a facts
/// file names from one Kafka release's schemas.
///
/// Each family's directory under the facts' internal schemas
/// (`internal_records.schemas`) is replaced by the release's schemas with
/// every comment and `about` text left out, each record given the
/// description the facts hold for it as a leading comment; every other key
/// and value is kept, in order.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "The release's schemas are read from RELEASES/VERSION/schemas/FAMILY, where \
interop/scripts/kafka-release.sh extracts them.\n\
Exit status: 0 written, 2 for bad arguments, I/O errors, a file that is not JSON or a record without a \
description in the facts (nothing is written then).")]
pub struct ImportArgs {
    /// The facts file, such as kafka-facts.json.
    pub facts: PathBuf,
    /// The release to import [default: the facts' release].
    #[arg(long, value_name = "VERSION")]
    pub release: Option<String>,
    /// Where releases are cached [default: $KWIRE_RELEASES, else .cache/kafka; either taken from the
    /// facts file's directory when relative].
    #[arg(long, value_name = "DIR")]
    pub releases: Option<PathBuf>,
}

impl GenArgs {
    /// Compiles (or checks, without `out`), printing one row per message
    /// (name, api key, versions, flexible versions, structs, fields) unless
    /// `quiet`, then the total; errors go to stderr, each schema error with
    /// its file, line and JSON path.
    ///
    /// Exit status: 0 on success, 1 for invalid schemas, 2 for bad
    /// arguments or I/O errors.
    pub fn run(&self) -> ExitCode {
        let mut builder = Builder::new();
        builder.rerun_if_changed(false).runtime_path(&self.runtime).set_options(self.options.clone());
        if let Some(file) = &self.facts {
            match Facts::read(file) {
                Ok(facts) => builder.facts(&facts),
                Err(e) => return failure(e, 2),
            };
        }
        // A list on the command line wins over the facts' ("" for none).
        if self.facts.is_none() || !self.options.sensitive_fields.is_empty() {
            builder.sensitive_fields(self.options.sensitive_fields.iter().map(|f| f.trim()).filter(|f| !f.is_empty()));
        }
        if self.inputs.is_empty() {
            return match (&self.facts, &self.out) {
                (Some(facts), Some(dir)) => match crate::regenerate(facts, builder.options(), &self.runtime, dir) {
                    Ok(()) => {
                        println!("generated everything {} names into {}", facts.display(), dir.display());
                        ExitCode::SUCCESS
                    }
                    Err(e) => failure(e, 1),
                },
                _ => usage_error("no schemas given (or --facts FILE and --out DIR, to compile all the facts name)"),
            };
        }
        for input in &self.inputs {
            builder.input(input);
        }
        match builder.schema_files() {
            Ok(files) if files.is_empty() => return usage_error("no *.json schema files in the inputs given"),
            Ok(_) => {}
            Err(e) => return failure(e, 2),
        }
        let result = match &self.out {
            Some(dir) => builder.out_dir(dir).compile(),
            None => builder.generate(),
        };
        let generated = match result {
            Ok(generated) => generated,
            Err(e) => return failure(e, 1),
        };
        let (mut structs, mut fields) = (0, 0);
        // One row per message under a header, the name column as wide as the longest name.
        let width = generated.messages.iter().map(|m| m.name.len()).max().unwrap_or(0).max("message".len());
        if !self.quiet && !generated.messages.is_empty() {
            println!("{:<width$}  api key  versions  flexible  structs  fields", "message");
        }
        for m in &generated.messages {
            structs += m.structs;
            fields += m.fields;
            if !self.quiet {
                let api = m.api_key.map(|k| k.to_string()).unwrap_or_default();
                println!(
                    "{:<width$}  {api:>7}  {:<8}  {:<8}  {:>7}  {:>6}",
                    m.name, m.versions, m.flexible_versions, m.structs, m.fields
                );
            }
        }
        let total = format!(
            "generated {} messages, {structs} structs, {fields} fields, {} files",
            generated.messages.len(),
            generated.files.len()
        );
        match &self.out {
            Some(dir) => println!("{total} into {}", dir.display()),
            None => println!("{total}; checked only, nothing written (use --out DIR)"),
        }
        ExitCode::SUCCESS
    }
}

impl DiffArgs {
    /// Prints [`crate::diff`]'s report (only its breaking findings with
    /// `breaking`).
    ///
    /// Exit status: 0 compatible, 1 breaking, 2 for I/O errors or invalid
    /// schemas.
    pub fn run(&self) -> ExitCode {
        match crate::diff(&self.old, &self.new) {
            Ok(mut report) => {
                if self.breaking {
                    report.findings.retain(|f| f.rule.is_breaking());
                }
                println!("{report}");
                ExitCode::from(u8::from(report.is_breaking()))
            }
            Err(e) => failure(e, 2),
        }
    }
}

impl FactsArgs {
    /// Prints the values of each key in turn, one a line; nothing when a
    /// key is unknown.
    ///
    /// Exit status: 0 printed, 2 for an unreadable file or an unknown key.
    pub fn run(&self) -> ExitCode {
        let facts = match Facts::read(&self.file) {
            Ok(facts) => facts,
            Err(e) => return failure(e, 2),
        };
        let group = |name: &str| facts.api_groups.iter().find(|g| g.name == name).map(|g| g.apis.clone());
        let mut lines = Vec::new();
        for key in &self.keys {
            let values: Option<Vec<String>> = match key.split_once('.') {
                None if key == "release" => Some(vec![facts.release.clone()]),
                None if key == "forwardable" => Some(facts.forwardable.clone()),
                None if key == "cluster_action" => Some(facts.cluster_action.clone()),
                None if key == "sensitive_fields" => Some(facts.sensitive_fields.clone()),
                None if key == "peeked_fields" => Some(facts.peeked_fields.clone()),
                None if key == "families" => Some(facts.families.iter().map(|f| f.dir.clone()).collect()),
                Some(("releases", name)) => facts.release_list(name).map(<[String]>::to_vec),
                Some(("api_groups", name)) => group(name),
                _ => None,
            };
            match values {
                Some(values) => lines.extend(values),
                None => return usage_error(&format!("{} has no fact {key}", self.file.display())),
            }
        }
        for line in lines {
            println!("{line}");
        }
        ExitCode::SUCCESS
    }
}

impl MergeArgs {
    /// Merges, printing one line per file written and each conflict on
    /// stderr.
    ///
    /// Exit status: 0 merged, 2 for I/O errors or invalid schemas.
    pub fn run(&self) -> ExitCode {
        match crate::merge::merge(&self.schemas, &self.releases) {
            Ok(merged) => {
                for change in &merged.changes {
                    println!("{change}");
                }
                for conflict in &merged.conflicts {
                    eprintln!("conflict: {conflict}");
                }
                if merged.changes.is_empty() {
                    println!("{}: no wire change", self.schemas.display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => failure(e, 2),
        }
    }
}

impl ImportArgs {
    /// Imports every family the facts name, printing how many schemas
    /// each got.
    ///
    /// Exit status: 0 written, 2 for bad arguments, I/O errors, a file
    /// that is not JSON or a record without a description.
    pub fn run(&self) -> ExitCode {
        let facts = match Facts::read(&self.facts) {
            Ok(facts) => facts,
            Err(e) => return failure(e, 2),
        };
        let Some(internal) = facts.internal_schemas_dir() else {
            return usage_error(&format!("{} names no internal_records.schemas", self.facts.display()));
        };
        let releases = match &self.releases {
            Some(dir) => dir.clone(),
            None => facts.dir.join(std::env::var_os("KWIRE_RELEASES").map_or(".cache/kafka".into(), PathBuf::from)),
        };
        let release = self.release.as_deref().unwrap_or(&facts.release);
        let source = releases.join(release).join("schemas");
        let result = crate::import::import_families(&facts, &self.facts, &source).and_then(|files| {
            let dirs: Vec<String> = facts.families.iter().map(|f| f.dir.clone()).collect();
            crate::import::write_families(&internal, &dirs, &files).map(|()| files)
        });
        match result {
            Ok(files) => {
                for family in &facts.families {
                    let n = files.iter().filter(|f| f.family == family.dir).count();
                    println!("{}: {n} schemas from Kafka {release}", internal.join(&family.dir).display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => failure(e, 2),
        }
    }
}

/// Prints an error, each schema diagnostic on its own line with its place,
/// and gives the exit status: `schema_status` for invalid schemas, 2 for
/// anything else.
fn failure(e: Error, schema_status: u8) -> ExitCode {
    match e {
        Error::Schema(diags) => {
            for d in &diags.0 {
                eprintln!("{}", d.located());
            }
            eprintln!("{} error(s)", diags.0.len());
            ExitCode::from(schema_status)
        }
        e => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}
