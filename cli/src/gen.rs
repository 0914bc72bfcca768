//! `kwire gen`: compiles a folder of Kafka JSON message schemas into Rust,
//! with the options of `kwire_codegen::Builder`, and prints one row per
//! message and a total.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kwire gen`.
#[derive(clap::Args)]
#[command(after_help = "Exit status: 0 on success, 1 for invalid schemas (each error names file and JSON path), \
2 for bad arguments or I/O errors.")]
pub struct Args {
    /// Write one .rs file per schema and mod.rs into DIR (without it, the schemas are only checked).
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Path of the runtime crate in generated code.
    #[arg(long, value_name = "PATH", default_value = "::kwire")]
    runtime: String,
    /// Also emit borrowed views (XRef<'a>, decoded from &'a [u8] without copying).
    #[arg(long)]
    views: bool,
    /// Also emit Kafka's JSON form (ToJson/FromJson, as Kafka's JSON converters).
    #[arg(long)]
    json: bool,
    /// Also emit random values shaped to a version, for property tests.
    #[arg(long)]
    samples: bool,
    /// Compile the requests and responses of these api keys only (e.g. 0,1,18); the api-key table still lists every api key.
    #[arg(long, value_name = "K,K...", value_delimiter = ',')]
    api_keys: Option<Vec<i16>>,
    /// The fields that carry secrets, as Message.Field, shown as <redacted N bytes> by Debug and the JSON form; "" for none
    /// (default: kwire_codegen::DEFAULT_SENSITIVE_FIELDS).
    #[arg(long, value_name = "M.F,M.F...")]
    sensitive_fields: Option<String>,
    /// Print only the total.
    #[arg(long, short)]
    quiet: bool,
    /// Schema files, or directories of *.json.
    #[arg(required = true, value_name = "SCHEMA")]
    inputs: Vec<PathBuf>,
}

/// Runs `kwire gen`.
pub fn run(args: Args) -> ExitCode {
    let mut builder = kwire_codegen::Builder::new();
    builder.rerun_if_changed(false).runtime_path(&args.runtime).views(args.views).json(args.json).samples(args.samples);
    if let Some(keys) = args.api_keys {
        builder.api_keys(keys);
    }
    if let Some(list) = &args.sensitive_fields {
        builder.sensitive_fields(list.split(',').map(str::trim).filter(|f| !f.is_empty()));
    }
    for input in &args.inputs {
        builder.input(input);
    }
    match builder.schema_files() {
        Ok(files) if files.is_empty() => {
            eprintln!("error: no *.json schema files in the inputs given");
            return ExitCode::from(2);
        }
        Ok(_) => {}
        Err(e) => return failure(e, 2),
    }
    let result = match &args.out {
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
    if !args.quiet && !generated.messages.is_empty() {
        println!("{:<width$}  api key  versions  flexible  structs  fields", "message");
    }
    for m in &generated.messages {
        structs += m.structs;
        fields += m.fields;
        if !args.quiet {
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
    match &args.out {
        Some(dir) => println!("{total} into {}", dir.display()),
        None => println!("{total}; checked only, nothing written (use --out DIR)"),
    }
    ExitCode::SUCCESS
}

/// Prints an error, each schema diagnostic on its own line with its place,
/// and gives the exit status: `schema_status` for invalid schemas, 2 for
/// anything else (I/O).
pub(crate) fn failure(e: kwire_codegen::Error, schema_status: u8) -> ExitCode {
    match e {
        kwire_codegen::Error::Schema(diags) => {
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
